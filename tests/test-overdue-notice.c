/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-overdue-notice"

#include "config.h"

#include <string.h>

#include <adwaita.h>

#include "steward-application.h"
#include "steward-approvals.h"
#include "steward-host.h"
#include "test-widgets.h"

/* The application with no window in front: a call past its timeout is
 * told on the desktop, through a stand-in for the session's notification
 * service (org.gtk.Notifications, where GLib sends an application's
 * notifications when it runs), and the notice goes when it is answered. */

static const char service_xml[] =
  "<node><interface name='org.gtk.Notifications'>"
  "<method name='AddNotification'><arg type='s' direction='in'/>"
  "<arg type='s' direction='in'/><arg type='a{sv}' direction='in'/></method>"
  "<method name='RemoveNotification'><arg type='s' direction='in'/>"
  "<arg type='s' direction='in'/></method>"
  "</interface></node>";

typedef struct {
  GHashTable *shown;   /* notification id → title */
  gboolean    owned;
} Service;

static void
method_call_cb (GDBusConnection       *connection,
                const char            *sender,
                const char            *path,
                const char            *interface,
                const char            *method,
                GVariant              *parameters,
                GDBusMethodInvocation *invocation,
                gpointer               user_data)
{
  Service *service = user_data;
  const char *app_id;
  const char *id;

  if (g_str_equal (method, "AddNotification"))
    {
      g_autoptr(GVariant) notification = NULL;
      const char *title = NULL;

      g_variant_get (parameters, "(&s&s@a{sv})", &app_id, &id, &notification);
      g_variant_lookup (notification, "title", "&s", &title);
      g_hash_table_insert (service->shown, g_strdup (id), g_strdup (title));
    }
  else
    {
      g_variant_get (parameters, "(&s&s)", &app_id, &id);
      g_hash_table_remove (service->shown, id);
    }

  g_dbus_method_invocation_return_value (invocation, NULL);
}

static void
name_acquired_cb (GDBusConnection *connection,
                  const char      *name,
                  gpointer         user_data)
{
  ((Service *) user_data)->owned = TRUE;
}

static gboolean
owned (gpointer data)
{
  return ((Service *) data)->owned;
}

static gboolean
shows_overdue (gpointer data)
{
  Service *service = data;
  GHashTableIter iter;
  gpointer title;

  g_hash_table_iter_init (&iter, service->shown);
  while (g_hash_table_iter_next (&iter, NULL, &title))
    if (title != NULL && strstr (title, "“slow” is taking longer than expected") != NULL)
      return TRUE;

  return FALSE;
}

static gboolean
shows_nothing (gpointer data)
{
  return g_hash_table_size (((Service *) data)->shown) == 0;
}

static void
test_notice_when_unfocused (void)
{
  static const GDBusInterfaceVTable vtable = { method_call_cb, NULL, NULL };
  g_autoptr(GDBusNodeInfo) info = g_dbus_node_info_new_for_xml (service_xml, NULL);
  g_autoptr(GDBusConnection) bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  g_autoptr(StewardApplication) app = NULL;
  g_autoptr(StewardApproval) overdue = NULL;
  g_autoptr(JsonObject) request = json_object_new ();
  g_autoptr(GError) error = NULL;
  Service service = { g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free) };

  g_assert_nonnull (bus);
  g_dbus_connection_register_object (bus, "/org/gtk/Notifications", info->interfaces[0],
                                     &vtable, &service, NULL, &error);
  g_assert_no_error (error);
  g_bus_own_name_on_connection (bus, "org.gtk.Notifications", G_BUS_NAME_OWNER_FLAGS_NONE,
                                name_acquired_cb, NULL, &service, NULL);
  test_wait_until (owned, &service, 10000);

  app = steward_application_new ();
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);

  /* No window is in front: the question is told on the desktop. */
  json_object_set_string_member (request, "tool", "plain");
  json_object_set_int_member (request, "waited", 60);
  overdue = steward_approval_new (STEWARD_APPROVAL_KIND_OVERDUE, "slow", request);
  steward_approvals_add (steward_host_get_approvals (steward_application_get_host (app)),
                         overdue);
  test_wait_until (shows_overdue, &service, 10000);

  /* Answered (here, Stop): the notice is taken back. */
  steward_approval_respond (overdue, STEWARD_APPROVAL_ACTION_DENY, NULL);
  test_wait_until (shows_nothing, &service, 10000);

  g_hash_table_unref (service.shown);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/steward/overdue-notice/when-unfocused", test_notice_when_unfocused);

  return g_test_run ();
}

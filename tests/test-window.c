/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-window"

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include <adwaita.h>

#include "steward-consent-dialog.h"
#include "steward-log-view.h"
#include "steward-roots-page.h"
#include "steward-server-page.h"
#include "steward-server-row.h"
#include "steward-window.h"
#include "test-error-banner.h"
#include "test-widgets.h"

typedef struct
{
  char        *dir;
  GFile       *config_dir;
  StewardHost *host;
} Fixture;

static void
fixture_set_up_unstarted (Fixture       *fixture,
                          gconstpointer  data)
{
  const char *servers_json = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) state_dir = NULL;

  fixture->dir = g_dir_make_tmp ("steward-window-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->config_dir = g_file_new_build_filename (fixture->dir, "config", NULL);
  state_dir = g_file_new_build_filename (fixture->dir, "state", NULL);

  if (servers_json != NULL)
    {
      g_autofree char *config_path = g_file_get_path (fixture->config_dir);
      g_autofree char *path = g_build_filename (config_path, "servers.json", NULL);

      g_mkdir_with_parents (config_path, 0700);
      g_file_set_contents (path, servers_json, -1, &error);
      g_assert_no_error (error);
    }

  fixture->host = steward_host_new (fixture->config_dir, state_dir);
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  fixture_set_up_unstarted (fixture, data);
  steward_host_start (fixture->host);
}

static gboolean
flag_is_set (gpointer data)
{
  return *(gboolean *) data;
}

static void
shut_down_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  steward_host_shutdown_finish (STEWARD_HOST (object), result, NULL);
  *(gboolean *) user_data = TRUE;
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  gboolean done = FALSE;

  steward_host_shutdown_async (fixture->host, NULL, shut_down_cb, &done);
  test_wait_until (flag_is_set, &done, 10000);
  g_assert_finalize_object (fixture->host);
  g_object_unref (fixture->config_dir);
  remove_tree (fixture->dir);
  g_free (fixture->dir);
}

static GtkWidget *
child (GtkWidget  *window,
       const char *name)
{
  GObject *object = gtk_widget_get_template_child (window, STEWARD_TYPE_WINDOW, name);

  g_assert_nonnull (object);
  return GTK_WIDGET (object);
}

static GtkWidget *
open_window (Fixture *fixture)
{
  GtkWidget *window = steward_window_new (NULL, fixture->host);

  g_object_ref (window);
  gtk_window_present (GTK_WINDOW (window));
  test_drain_main_context ();

  return window;
}

static void
close_window (GtkWidget *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  test_drain_main_context ();
  g_assert_finalize_object (window);
}

static gboolean
has_class_action (GtkWidget  *widget,
                  const char *action)
{
  GtkWidgetClass *klass = GTK_WIDGET_GET_CLASS (widget);
  const char *name;
  GType owner;
  const GVariantType *parameter_type;
  const char *property;

  for (guint i = 0;
       gtk_widget_class_query_action (klass, i, &owner, &name, &parameter_type, &property);
       i++)
    {
      if (g_str_equal (name, action))
        return TRUE;
    }

  return FALSE;
}

static gboolean
host_started (gpointer data)
{
  return steward_host_get_started (STEWARD_HOST (data));
}

/* A window drawn before the host has read its files says nothing about
 * servers, and has no Tasks page yet; both come once the host has
 * started. */
static void
test_starting (Fixture       *fixture,
               gconstpointer  data)
{
  GtkWidget *window = open_window (fixture);
  GtkStack *sidebar_stack = GTK_STACK (child (window, "sidebar_stack"));
  GtkStack *content_stack = GTK_STACK (child (window, "content_stack"));

  g_assert_false (steward_host_get_started (fixture->host));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (sidebar_stack), ==, "servers");
  g_assert_cmpstr (gtk_stack_get_visible_child_name (content_stack), ==, "starting");
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (test_find_label (window, "No Servers Yet"))));
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (test_find_label (window, "Choose a Server"))));
  g_assert_null (gtk_stack_get_child_by_name (content_stack, "tasks"));

  steward_host_start (fixture->host);
  test_wait_until (host_started, fixture->host, 10000);
  test_drain_main_context ();

  g_assert_cmpstr (gtk_stack_get_visible_child_name (sidebar_stack), ==, "empty");
  g_assert_cmpstr (gtk_stack_get_visible_child_name (content_stack), ==, "welcome");
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (test_find_label (window, "No Servers Yet"))));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (test_find_label (window, "Choose a Server"))));
  g_assert_nonnull (gtk_stack_get_child_by_name (content_stack, "tasks"));

  close_window (window);
}

static void
test_empty (Fixture       *fixture,
            gconstpointer  data)
{
  static const char * const actions[] = {
    "win.add-server", "win.import-servers", "win.show-logs", "win.show-roots",
    "win.show-server", "win.previous-server", "win.next-server", "win.toggle-sidebar",
    "win.show-sidebar", "win.server-start", "win.server-stop", "win.server-restart",
    "win.server-enable", "win.server-disable", "win.server-edit", "win.server-remove",
    "win.server-review", "win.server-log",
  };
  GtkWidget *window = open_window (fixture);
  GtkWidget *add;
  GtkWidget *import;

  test_wait_until (host_started, fixture->host, 10000);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (child (window, "sidebar_stack"))),
                   ==, "empty");
  g_assert_true (gtk_widget_is_visible (GTK_WIDGET (test_find_label (window, "No Servers Yet"))));

  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    {
      if (!has_class_action (window, actions[i]))
        g_error ("%s is missing", actions[i]);
    }

  /* The empty state's buttons reach working actions: an actionable
   * button is insensitive when its action is missing or disabled. */
  add = GTK_WIDGET (test_find_label (child (window, "sidebar_stack"), "Add Server…"));
  import = GTK_WIDGET (test_find_label (child (window, "sidebar_stack"), "Import Servers…"));
  g_assert_nonnull (add);
  g_assert_nonnull (import);
  g_assert_true (gtk_widget_is_sensitive (add));
  g_assert_true (gtk_widget_is_sensitive (import));

  /* Logs and roots are always there. */
  steward_window_show_logs (STEWARD_WINDOW (window), NULL);
  g_assert_true (STEWARD_IS_LOG_VIEW (gtk_stack_get_visible_child (GTK_STACK (child (window,
                                                                                     "content_stack")))));
  steward_window_show_roots (STEWARD_WINDOW (window));
  g_assert_true (STEWARD_IS_ROOTS_PAGE (gtk_stack_get_visible_child (GTK_STACK (child (window,
                                                                                       "content_stack")))));

  /* Down to 360 px wide: the sidebar folds, and no page is wider. */
  {
    const char *pages[] = { "logs", "roots" };

    for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
      {
        int minimum = 0;

        if (g_str_equal (pages[i], "logs"))
          steward_window_show_logs (STEWARD_WINDOW (window), NULL);
        else
          steward_window_show_roots (STEWARD_WINDOW (window));
        /* The content, without the frame and shadow the window draws. */
        gtk_widget_measure (gtk_window_get_child (GTK_WINDOW (window)),
                            GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
        g_test_message ("the window with %s is at least %d px wide", pages[i], minimum);
        g_assert_cmpint (minimum, <=, 360);
      }
  }

  close_window (window);
}

static gboolean
has_approval (gpointer data)
{
  return g_list_model_get_n_items (G_LIST_MODEL (data)) > 0;
}

static gboolean
has_server (gpointer data)
{
  return g_list_model_get_n_items (G_LIST_MODEL (data)) > 0;
}

static gboolean
start_failed (gpointer data)
{
  StewardServerStatus status = steward_server_get_status (STEWARD_SERVER (data));

  return status == STEWARD_SERVER_STATUS_FAILED || status == STEWARD_SERVER_STATUS_RESTARTING;
}

static void
test_failing_server (Fixture       *fixture,
                     gconstpointer  data)
{
  StewardServerRegistry *registry = steward_host_get_registry (fixture->host);
  StewardApprovals *approvals = steward_host_get_approvals (fixture->host);
  g_autoptr(StewardServer) server = NULL;
  GtkWidget *window;
  GtkWidget *row;
  GtkWidget *page;
  const char *status_text;

  test_wait_until (has_server, registry, 10000);
  window = open_window (fixture);
  server = g_list_model_get_item (G_LIST_MODEL (registry), 0);

  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (child (window, "sidebar_stack"))),
                   ==, "servers");
  row = test_find_by_type (child (window, "server_list"), STEWARD_TYPE_SERVER_ROW);
  g_assert_nonnull (row);
  g_assert_nonnull (test_find_label (row, "broken"));

  /* The program does not exist: the row says so in the server's words,
   * and nothing asks to allow a program that is not there. */
  test_wait_until (start_failed, server, 10000);
  test_drain_main_context ();
  status_text = steward_server_get_status_text (server);
  g_assert_nonnull (status_text);
  g_assert_nonnull (strstr (status_text, "steward-no-such-program"));
  g_assert_nonnull (test_find_label (row, status_text));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (approvals)), ==, 0);
  g_assert_false (gtk_widget_is_visible (GTK_WIDGET (test_find_label (row, "Review…"))));

  /* The first server is shown on its own page. */
  page = gtk_stack_get_visible_child (GTK_STACK (child (window, "content_stack")));
  g_assert_true (STEWARD_IS_SERVER_PAGE (page));
  g_assert_true (steward_server_page_get_server (STEWARD_SERVER_PAGE (page)) == server);

  /* Removing the entry drops its row and page, and the empty state returns. */
  g_assert_true (steward_config_remove_server (steward_host_get_config (fixture->host), "broken"));
  steward_server_registry_sync (registry, FALSE);
  test_drain_main_context ();
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (child (window, "sidebar_stack"))),
                   ==, "empty");
  g_assert_null (test_find_by_type (child (window, "content_stack"), STEWARD_TYPE_SERVER_PAGE));

  close_window (window);
}

static GtkWidget *
find_toplevel (GType type)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) toplevel = g_list_model_get_item (toplevels, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (toplevel, type))
        return toplevel;
    }

  return NULL;
}

static gboolean
has_toplevel (gpointer data)
{
  return find_toplevel (GPOINTER_TO_SIZE (data)) != NULL;
}

static gboolean
shows_undo (gpointer data)
{
  GtkLabel *label = test_find_label (data, "Undo");

  return label != NULL && gtk_widget_is_visible (GTK_WIDGET (label));
}

static gboolean
undo_gone (gpointer data)
{
  return !shows_undo (data);
}

static gboolean
has_broken (gpointer data)
{
  return steward_config_lookup (data, "broken", NULL) != NULL;
}

static gboolean
list_is_empty (gpointer data)
{
  return g_list_model_get_n_items (G_LIST_MODEL (data)) == 0;
}

static gboolean
lacks_broken (gpointer data)
{
  return !has_broken (data);
}

static gboolean
servers_shown (gpointer data)
{
  return g_strcmp0 (gtk_stack_get_visible_child_name (data), "servers") == 0;
}

/* Removing a server says so in a toast that offers Undo, and Undo puts the
 * same entry back: in the servers file and in the list. */
static void
test_undo_remove (Fixture       *fixture,
                  gconstpointer  data)
{
  StewardServerRegistry *registry = steward_host_get_registry (fixture->host);
  StewardConfig *config = steward_host_get_config (fixture->host);
  g_autoptr(StewardServerConfig) before = NULL;
  GtkWidget *window;
  GtkWidget *dialog;
  GtkWidget *undo;

  test_wait_until (has_server, registry, 10000);
  before = g_object_ref (steward_config_lookup (config, "broken", NULL));
  window = open_window (fixture);

  gtk_widget_activate_action (window, "win.server-remove", "s", "broken");
  test_wait_until (has_toplevel, GSIZE_TO_POINTER (ADW_TYPE_MESSAGE_DIALOG), 10000);
  dialog = find_toplevel (ADW_TYPE_MESSAGE_DIALOG);
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "remove");
  /* What a click on the button would also do. */
  gtk_window_destroy (GTK_WINDOW (dialog));

  test_wait_until (lacks_broken, config, 10000);
  test_wait_until (shows_undo, window, 10000);
  test_wait_until (list_is_empty, registry, 10000);
  g_assert_nonnull (test_find_label_containing (window, "Removed “broken”"));
  undo = gtk_widget_get_ancestor (GTK_WIDGET (test_find_label (window, "Undo")),
                                  GTK_TYPE_BUTTON);
  g_assert_nonnull (undo);
  gtk_widget_activate (undo);

  test_wait_until (has_broken, config, 10000);
  g_assert_true (steward_server_config_equal (steward_config_lookup (config, "broken", NULL),
                                              before));
  /* Only once it is saved does the list take it back. */
  test_wait_until (has_server, registry, 10000);
  test_wait_until (servers_shown, child (window, "sidebar_stack"), 10000);
  /* Undo also takes the toast away. */
  test_wait_until (undo_gone, window, 10000);

  close_window (window);
}

static gboolean
error_shown (gpointer data)
{
  return test_error_message (data) != NULL;
}

/* A removal that cannot be saved leaves the server where it was, and says
 * why in full above the page until dismissed: not in a toast that goes. */
static void
test_remove_error (Fixture       *fixture,
                   gconstpointer  data)
{
  StewardServerRegistry *registry = steward_host_get_registry (fixture->host);
  g_autofree char *config_path = g_file_get_path (fixture->config_dir);
  g_autofree char *path = g_build_filename (config_path, "servers.json", NULL);
  GtkWidget *window;
  GtkWidget *dialog;

  test_wait_until (has_server, registry, 10000);
  window = open_window (fixture);
  test_assert_no_error (window);

  /* A folder where the servers file goes: it cannot be replaced. */
  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (g_mkdir (path, 0700), ==, 0);

  gtk_widget_activate_action (window, "win.server-remove", "s", "broken");
  test_wait_until (has_toplevel, GSIZE_TO_POINTER (ADW_TYPE_MESSAGE_DIALOG), 10000);
  dialog = find_toplevel (ADW_TYPE_MESSAGE_DIALOG);
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "remove");
  gtk_window_destroy (GTK_WINDOW (dialog));

  test_wait_until (error_shown, window, 10000);
  test_assert_error_shown (window, "Could not remove “broken”: ");
  test_drain_main_context ();
  test_assert_error_shown (window, "Could not remove “broken”: ");
  g_assert_null (test_find_label_containing (window, "Removed “broken”"));

  test_dismiss_error (window);
  test_assert_no_error (window);

  close_window (window);
}

/* The status pages show the app's symbolic icon, which must be found when
 * nothing is installed: GtkApplication adds its resource base path's
 * "icons" folder to the icon theme, and the icons are there. */
static void
test_icons (void)
{
  const char *base = "/io/github/stewardmcp/Steward/icons";
  const char *names[] = { APPLICATION_ID, APPLICATION_ID "-symbolic" };
  g_autoptr(GtkIconTheme) theme = g_object_new (GTK_TYPE_ICON_THEME,
                                                "display", gdk_display_get_default (),
                                                NULL);
  const char *nowhere[] = { NULL };

  /* Nothing installed: not the system's folders, only the resources. */
  gtk_icon_theme_set_search_path (theme, nowhere);
  gtk_icon_theme_set_theme_name (theme, "hicolor");
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_assert_false (gtk_icon_theme_has_icon (theme, names[i]));

  gtk_icon_theme_add_resource_path (theme, base);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_assert_true (gtk_icon_theme_has_icon (theme, names[i]));
}

static gboolean
approvals_empty (gpointer data)
{
  return g_list_model_get_n_items (G_LIST_MODEL (data)) == 0;
}

static GtkWidget *
find_consent_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) toplevel = g_list_model_get_item (toplevels, i);

      if (STEWARD_IS_CONSENT_DIALOG (toplevel))
        return toplevel;
    }

  return NULL;
}

/* A request that waits for the person is in view in the window itself,
 * whatever became of its notification: a count in the header bar, one on
 * the server's row, and both open the requests. */
static void
test_waiting_requests (Fixture       *fixture,
                       gconstpointer  data)
{
  StewardServerRegistry *registry = steward_host_get_registry (fixture->host);
  StewardApprovals *approvals = steward_host_get_approvals (fixture->host);
  g_autoptr(StewardApproval) question = NULL;
  GtkWidget *window;
  GtkWidget *header_button;
  GtkWidget *row;
  GtkWidget *dialog;
  GtkLabel *row_label;

  test_wait_until (has_server, registry, 10000);
  window = open_window (fixture);
  header_button = child (window, "approvals_button");
  row = test_find_by_type (child (window, "server_list"), STEWARD_TYPE_SERVER_ROW);
  g_assert_true (gtk_widget_get_visible (header_button) ==
                 (g_list_model_get_n_items (G_LIST_MODEL (approvals)) > 0));

  /* The new server asks to start. */
  test_wait_until (has_approval, approvals, 10000);
  test_drain_main_context ();
  g_assert_true (gtk_widget_is_visible (header_button));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (header_button)), ==, "1 Waiting");

  /* The server asks a question too: the row says so as well. */
  question = steward_approval_new (STEWARD_APPROVAL_KIND_ELICITATION, "broken", NULL);
  steward_approvals_add (approvals, question);
  test_drain_main_context ();
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (header_button)), ==, "2 Waiting");
  row_label = test_find_label (row, "1 Request Waiting");
  g_assert_nonnull (row_label);
  g_assert_true (gtk_widget_is_visible (GTK_WIDGET (row_label)));

  /* The header's button opens the request, and the person answers it. */
  g_assert_null (find_consent_dialog ());
  g_assert_true (gtk_widget_activate_action (header_button, "win.show-approvals", NULL));
  test_drain_main_context ();
  dialog = find_consent_dialog ();
  g_assert_nonnull (dialog);
  g_assert_true (gtk_widget_activate_action (dialog, "consent.deny", NULL));
  test_drain_main_context ();
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (header_button)), ==, "1 Waiting");

  steward_approval_respond (question, STEWARD_APPROVAL_ACTION_CANCEL, NULL);
  test_wait_until (approvals_empty, approvals, 10000);
  test_drain_main_context ();
  g_assert_false (gtk_widget_get_visible (header_button));
  g_assert_false (gtk_widget_is_visible (GTK_WIDGET (row_label)));

  close_window (window);
}

static AdwMessageDialog *
find_overdue_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) toplevel = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (toplevel) && gtk_widget_get_visible (toplevel) &&
          g_strcmp0 (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (toplevel)),
                     "Keep Waiting?") == 0)
        return ADW_MESSAGE_DIALOG (toplevel);
    }

  return NULL;
}

static void
on_responded (StewardApproval       *approval,
              StewardApprovalAction  action,
              JsonObject            *data,
              int                   *out)
{
  *out = action;
}

/* A call past its timeout, shown on a page the person is not on, waits
 * among the requests: counted in the header bar and on the server's row,
 * and answered from there; closing its question answers nothing. */
static void
test_overdue_waits (Fixture       *fixture,
                    gconstpointer  data)
{
  StewardApprovals *approvals = steward_host_get_approvals (fixture->host);
  g_autoptr(JsonObject) request = json_object_new ();
  g_autoptr(StewardApproval) overdue = NULL;
  AdwMessageDialog *dialog;
  GtkWidget *window;
  GtkWidget *header_button;
  GtkWidget *row;
  GtkWidget *stop;
  GtkLabel *label;
  int action = -1;

  test_wait_until (has_server, steward_host_get_registry (fixture->host), 10000);
  window = open_window (fixture);
  header_button = child (window, "approvals_button");
  row = test_find_by_type (child (window, "server_list"), STEWARD_TYPE_SERVER_ROW);
  /* The server's consent, answered first so that only the call waits. */
  test_wait_until (has_approval, approvals, 10000);
  steward_approval_respond (steward_approvals_get_first (approvals),
                            STEWARD_APPROVAL_ACTION_DENY, NULL);
  test_wait_until (approvals_empty, approvals, 10000);

  json_object_set_string_member (request, "tool", "slow");
  json_object_set_int_member (request, "waited", 60);
  overdue = steward_approval_new (STEWARD_APPROVAL_KIND_OVERDUE, "broken", request);
  g_signal_connect (overdue, "responded", G_CALLBACK (on_responded), &action);
  steward_approvals_add (approvals, overdue);
  test_drain_main_context ();
  g_assert_true (gtk_widget_is_visible (header_button));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (header_button)), ==, "1 Waiting");
  label = test_find_label (row, "1 Request Waiting");
  g_assert_nonnull (label);
  g_assert_true (gtk_widget_is_visible (GTK_WIDGET (label)));
  /* Not pushed over the page the person is on. */
  g_assert_null (find_overdue_dialog ());

  /* Closed without an answer: the call keeps waiting, still counted. */
  g_assert_true (gtk_widget_activate_action (header_button, "win.show-approvals", NULL));
  test_drain_main_context ();
  dialog = find_overdue_dialog ();
  g_assert_nonnull (dialog);
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog),
                            "“slow” is taking longer than 60 seconds."));
  gtk_window_close (GTK_WINDOW (dialog));
  test_drain_main_context ();
  g_assert_cmpint (action, ==, -1);
  g_assert_false (steward_approval_get_finished (overdue));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (header_button)), ==, "1 Waiting");

  /* Stop, from the header bar's requests. */
  g_assert_true (gtk_widget_activate_action (header_button, "win.show-approvals", NULL));
  test_drain_main_context ();
  dialog = find_overdue_dialog ();
  g_assert_nonnull (dialog);
  /* Clicked the way a person does. */
  stop = gtk_widget_get_ancestor (GTK_WIDGET (test_find_label (GTK_WIDGET (dialog), "Stop")),
                                  GTK_TYPE_BUTTON);
  g_assert_nonnull (stop);
  g_signal_emit_by_name (stop, "clicked");
  test_drain_main_context ();
  g_assert_cmpint (action, ==, STEWARD_APPROVAL_ACTION_DENY);
  g_assert_true (steward_approval_get_finished (overdue));
  g_assert_null (find_overdue_dialog ());
  test_wait_until (approvals_empty, approvals, 10000);
  test_drain_main_context ();
  g_assert_false (gtk_widget_get_visible (header_button));
  g_assert_false (gtk_widget_is_visible (GTK_WIDGET (label)));

  close_window (window);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/steward/window/icons", test_icons);
  g_test_add ("/steward/window/empty", Fixture, NULL,
              fixture_set_up, test_empty, fixture_tear_down);
  g_test_add ("/steward/window/starting", Fixture, NULL,
              fixture_set_up_unstarted, test_starting, fixture_tear_down);
  g_test_add ("/steward/window/failing-server", Fixture,
              "{\"mcpServers\": {\"broken\": {\"command\": \"steward-no-such-program\","
              "                               \"args\": [\"--stdio\"]}}}",
              fixture_set_up, test_failing_server, fixture_tear_down);
  g_test_add ("/steward/window/undo-remove", Fixture,
              "{\"mcpServers\": {\"broken\": {\"command\": \"steward-no-such-program\"}}}",
              fixture_set_up, test_undo_remove, fixture_tear_down);
  g_test_add ("/steward/window/remove-error", Fixture,
              "{\"mcpServers\": {\"broken\": {\"command\": \"steward-no-such-program\"}}}",
              fixture_set_up, test_remove_error, fixture_tear_down);
  g_test_add ("/steward/window/waiting-requests", Fixture,
              "{\"mcpServers\": {\"broken\": {\"command\": \"true\"}}}",
              fixture_set_up, test_waiting_requests, fixture_tear_down);
  g_test_add ("/steward/window/overdue-waits", Fixture,
              "{\"mcpServers\": {\"broken\": {\"command\": \"true\"}}}",
              fixture_set_up, test_overdue_waits, fixture_tear_down);

  return g_test_run ();
}

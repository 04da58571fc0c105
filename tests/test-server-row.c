/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-server-row"

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "steward-host.h"
#include "steward-server-page.h"
#include "steward-server-row.h"
#include "test-host-fixture.h"
#include "test-http-peer.h"
#include "test-widgets.h"

/* What the sidebar row and the server page say of a server's state, read
 * from the labels a person sees: a URL that refuses, a module that is not
 * there, and the reference server over Streamable HTTP killed while
 * connected and started again. */

#define DEADLINE_MS (30 * 1000)

typedef struct {
  char                *top;
  StewardHost         *host;
  StewardServer       *server;
  GtkWindow           *window;
  GtkWidget           *row;
  GtkWidget           *page;
  StewardServerStatus  awaited;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  fixture->top = test_make_top ("test-server-row");
  fixture->host = test_host_new_in (fixture->top);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  if (fixture->window != NULL)
    gtk_window_destroy (fixture->window);
  test_drain_main_context ();
  if (fixture->page != NULL)
    g_assert_finalize_object (fixture->page);
  if (fixture->server != NULL)
    g_assert_finalize_object (fixture->server);
  test_drain_main_context ();
  g_assert_finalize_object (fixture->host);
  test_remove_tree (fixture->top);
  g_free (fixture->top);
}

/* A server with consent given, shown in a sidebar row and its page. */
static void
show_server (Fixture             *fixture,
             StewardServerConfig *config)
{
  GtkWidget *list = gtk_list_box_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);

  test_record_consent (steward_host_get_config (fixture->host), config);
  fixture->server = steward_server_new (steward_host_get_server_context (fixture->host),
                                        config);

  fixture->row = steward_server_row_new (fixture->server);
  gtk_list_box_append (GTK_LIST_BOX (list), fixture->row);
  fixture->page = g_object_ref (steward_server_page_new (fixture->server));
  gtk_widget_set_hexpand (fixture->page, TRUE);
  gtk_box_append (GTK_BOX (box), list);
  gtk_box_append (GTK_BOX (box), fixture->page);

  fixture->window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (fixture->window, 1000, 700);
  gtk_window_set_child (fixture->window, box);
  gtk_window_present (fixture->window);
}

typedef struct {
  GtkWidget  *root;
  const char *text;
} Shown;

/* A label or a text view on screen (mapped) under @root whose text holds
 * @text; the details of a failure are in a text view that scrolls. */
static gboolean
shows (GtkWidget  *root,
       const char *text)
{
  if (!gtk_widget_get_mapped (root))
    return FALSE;

  if (GTK_IS_LABEL (root) && strstr (gtk_label_get_text (GTK_LABEL (root)), text) != NULL)
    return TRUE;

  if (GTK_IS_TEXT_VIEW (root))
    {
      GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (root));
      GtkTextIter start, end;
      g_autofree char *content = NULL;

      gtk_text_buffer_get_bounds (buffer, &start, &end);
      content = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
      if (strstr (content, text) != NULL)
        return TRUE;
    }

  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (shows (child, text))
      return TRUE;

  return FALSE;
}

static gboolean
shown_cb (gpointer data)
{
  Shown *shown = data;

  return shows (shown->root, shown->text);
}

/* Waits until the row and the page both show @text. */
static void
wait_shown (Fixture    *fixture,
            const char *text)
{
  Shown row = { fixture->row, text };
  Shown page = { fixture->page, text };

  test_wait_until (shown_cb, &row, DEADLINE_MS);
  test_wait_until (shown_cb, &page, DEADLINE_MS);
}

static gboolean
has_status_cb (gpointer data)
{
  Fixture *fixture = data;

  return steward_server_get_status (fixture->server) == fixture->awaited;
}

static void
wait_status (Fixture             *fixture,
             StewardServerStatus  status)
{
  fixture->awaited = status;
  test_wait_until (has_status_cb, fixture, DEADLINE_MS);
}

static void
test_refused (Fixture       *fixture,
              gconstpointer  data)
{
  guint16 port = test_free_port ();
  g_autofree char *url = g_strdup_printf ("http://127.0.0.1:%u/mcp", port);
  g_autofree char *expected = NULL;
  g_autoptr(StewardServerConfig) config = NULL;

  config = steward_server_config_new_remote ("refusing", url,
                                             STEWARD_SERVER_TRANSPORT_STREAMABLE_HTTP, NULL);
  show_server (fixture, config);
  steward_server_start (fixture->server);

  wait_status (fixture, STEWARD_SERVER_STATUS_FAILED);
  expected = g_strdup_printf ("Failed: nothing answers at 127.0.0.1:%u (Connection refused); "
                              "start the server, or correct the URL", port);
  wait_shown (fixture, expected);
  g_assert_true (shows (fixture->page, "Not Running"));
  g_assert_false (shows (fixture->row, "Failed: keeps crashing"));
  g_assert_true (gtk_widget_activate_action (fixture->page, "server.start", NULL));
}

static void
test_missing_module (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autofree char *node = g_find_program_in_path ("node");
  const char *args[] = { "/nonexistent/steward-test/server.js", NULL };
  g_autoptr(StewardServerConfig) config = NULL;
  GtkWidget *expander;
  Shown details = { NULL, "Node.js v" };

  g_assert_nonnull (node);
  config = steward_server_config_new_stdio ("no-module", node, args, NULL, NULL);
  show_server (fixture, config);
  details.root = fixture->page;
  steward_server_start (fixture->server);

  wait_status (fixture, STEWARD_SERVER_STATUS_FAILED);
  wait_shown (fixture, "Failed: the module /nonexistent/steward-test/server.js was not found; "
                       "check the path in the server’s arguments, or install the package");
  /* The whole of stderr is in the details, a click away, not in the
   * summary. */
  g_assert_false (shows (fixture->row, "Node.js v"));
  g_assert_false (shows (fixture->page, "Node.js v"));
  expander = test_find_by_type (fixture->page, GTK_TYPE_EXPANDER);
  g_assert_nonnull (expander);
  gtk_expander_set_expanded (GTK_EXPANDER (expander), TRUE);
  test_wait_until (shown_cb, &details, DEADLINE_MS);
}

static void
test_disconnected (Fixture       *fixture,
                   gconstpointer  data)
{
  guint16 port = test_free_port ();
  TestHttpPeer *peer = test_http_peer_start (port);
  g_autofree char *url = g_strdup_printf ("http://127.0.0.1:%u/mcp", port);
  g_autoptr(StewardServerConfig) config = NULL;

  config = steward_server_config_new_remote ("everything-http", url,
                                             STEWARD_SERVER_TRANSPORT_STREAMABLE_HTTP, NULL);
  show_server (fixture, config);
  steward_server_start (fixture->server);
  wait_status (fixture, STEWARD_SERVER_STATUS_READY);
  wait_shown (fixture, "Ready · ");

  /* Gone: the row and the page stop saying Ready. */
  test_http_peer_kill (peer);
  wait_status (fixture, STEWARD_SERVER_STATUS_DISCONNECTED);
  wait_shown (fixture, "Disconnected — reconnecting (attempt ");
  g_assert_false (shows (fixture->row, "Ready"));
  g_assert_true (shows (fixture->page, "Disconnected"));
  g_assert_null (steward_server_page_get_pane (STEWARD_SERVER_PAGE (fixture->page), "info"));

  /* Back: Ready again. */
  peer = test_http_peer_start (port);
  wait_status (fixture, STEWARD_SERVER_STATUS_READY);
  wait_shown (fixture, "Ready · ");
  g_assert_false (shows (fixture->row, "Disconnected"));

  g_assert_true (gtk_widget_activate_action (fixture->page, "server.stop", NULL));
  wait_status (fixture, STEWARD_SERVER_STATUS_STOPPED);
  test_http_peer_kill (peer);
}

static GtkMenuButton *
find_menu_button (GtkWidget *root)
{
  if (GTK_IS_MENU_BUTTON (root))
    return GTK_MENU_BUTTON (root);

  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkMenuButton *found = find_menu_button (child);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* The label of the first item of the first section of @menu. */
static char *
first_item_label (GMenuModel *menu)
{
  g_autoptr(GMenuModel) section = NULL;
  char *label = NULL;

  g_assert_cmpint (g_menu_model_get_n_items (menu), >, 0);
  section = g_menu_model_get_item_link (menu, 0, G_MENU_LINK_SECTION);
  g_assert_nonnull (section);
  g_assert_true (g_menu_model_get_item_attribute (section, 0, G_MENU_ATTRIBUTE_LABEL, "s",
                                                  &label));
  return label;
}

static gboolean
popover_shown_cb (gpointer data)
{
  GtkPopover *popover = gtk_menu_button_get_popover (data);

  return popover != NULL && gtk_widget_get_mapped (GTK_WIDGET (popover));
}

static gboolean
popover_hidden_cb (gpointer data)
{
  return !gtk_widget_get_mapped (data);
}

/* The row's menu is built only when it is opened, and says what can be
 * done in the server's state then. */
static void
test_menu (Fixture       *fixture,
           gconstpointer  data)
{
  g_autoptr(StewardServerConfig) config = NULL;
  g_autofree char *stopped = NULL;
  g_autofree char *starting = NULL;
  g_autofree char *failed = NULL;
  g_autofree char *url = g_strdup_printf ("http://127.0.0.1:%u/mcp", test_free_port ());
  GtkMenuButton *button;
  GtkPopover *popover;

  config = steward_server_config_new_remote ("menu", url,
                                             STEWARD_SERVER_TRANSPORT_STREAMABLE_HTTP, NULL);
  show_server (fixture, config);
  button = find_menu_button (fixture->row);
  g_assert_nonnull (button);

  /* Not started: the menu offers Start, though nothing shows it yet. */
  g_assert_null (gtk_menu_button_get_popover (button));
  stopped = first_item_label (steward_server_row_get_menu (STEWARD_SERVER_ROW (fixture->row)));
  g_assert_cmpstr (stopped, ==, "Start");

  g_assert_true (gtk_widget_activate_action (fixture->row, "row.popup-menu", NULL));
  test_wait_until (popover_shown_cb, button, DEADLINE_MS);
  popover = gtk_menu_button_get_popover (button);
  g_assert_true (GTK_IS_POPOVER_MENU (popover));
  g_assert_true (gtk_popover_menu_get_menu_model (GTK_POPOVER_MENU (popover)) ==
                 steward_server_row_get_menu (STEWARD_SERVER_ROW (fixture->row)));
  g_assert_true (shows (GTK_WIDGET (popover), "Start"));
  gtk_popover_popdown (popover);
  test_wait_until (popover_hidden_cb, popover, DEADLINE_MS);

  /* Starting, then failed: the menu built before follows. */
  steward_server_start (fixture->server);
  g_assert_true (gtk_menu_button_get_popover (button) == popover);
  starting = first_item_label (steward_server_row_get_menu (STEWARD_SERVER_ROW (fixture->row)));
  g_assert_cmpstr (starting, ==, "Stop");
  wait_status (fixture, STEWARD_SERVER_STATUS_FAILED);
  failed = first_item_label (steward_server_row_get_menu (STEWARD_SERVER_ROW (fixture->row)));
  g_assert_cmpstr (failed, ==, "Start");
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

#define ADD(path, func) \
  g_test_add ("/steward/server-row/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  ADD ("refused", test_refused);
  ADD ("missing-module", test_missing_module);
  ADD ("disconnected", test_disconnected);
  ADD ("menu", test_menu);

  return g_test_run ();
}

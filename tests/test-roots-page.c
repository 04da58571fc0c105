/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-roots-page"

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "steward-roots-page.h"
#include "test-error-banner.h"

#define WAIT_TIMEOUT_S 10
#define PROJECT "R&D <notes>"

static const char servers_json[] =
  "{\"mcpServers\": {"
  "  \"alpha\": {\"command\": \"true\", \"disabled\": true},"
  "  \"beta\": {\"command\": \"true\", \"disabled\": true}"
  "}}";

typedef struct
{
  char             *tmp_dir;
  char             *project_dir;
  StewardHost      *host;
  StewardRoots     *roots;
  GtkWindow        *window;
  StewardRootsPage *page;
} Fixture;

static gboolean
timeout_cb (gpointer user_data)
{
  gboolean *timed_out = user_data;

  *timed_out = TRUE;
  return G_SOURCE_REMOVE;
}

typedef gboolean (*Condition) (Fixture *fixture);

static void
wait_until (Fixture   *fixture,
            Condition  condition)
{
  gboolean timed_out = FALSE;
  guint timeout_id = g_timeout_add_seconds (WAIT_TIMEOUT_S, timeout_cb, &timed_out);

  while (!condition (fixture) && !timed_out)
    g_main_context_iteration (NULL, TRUE);

  g_assert_false (timed_out);
  g_source_remove (timeout_id);
}

static void
drain (void)
{
  guint i;

  for (i = 0; i < 100 && g_main_context_pending (NULL); i++)
    g_main_context_iteration (NULL, FALSE);
}

static gboolean
host_started (Fixture *fixture)
{
  return steward_host_get_started (fixture->host);
}

static gboolean
registry_filled (Fixture *fixture)
{
  return g_list_model_get_n_items (G_LIST_MODEL (steward_host_get_registry (fixture->host))) == 2;
}

typedef gboolean (*WidgetPredicate) (GtkWidget  *widget,
                                     gconstpointer data);

/* Depth first, in the order a person tabs through. */
static GtkWidget *
find_widget (GtkWidget       *root,
             GType            type,
             WidgetPredicate  predicate,
             gconstpointer    data)
{
  GtkWidget *child;

  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type) && (predicate == NULL || predicate (root, data)))
    return root;

  for (child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, type, predicate, data);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static gboolean
has_icon (GtkWidget     *widget,
          gconstpointer  data)
{
  return g_strcmp0 (gtk_button_get_icon_name (GTK_BUTTON (widget)), data) == 0;
}

static gboolean
has_label (GtkWidget     *widget,
           gconstpointer  data)
{
  return g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), data) == 0;
}

static gboolean
has_title (GtkWidget     *widget,
           gconstpointer  data)
{
  return g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget)), data) == 0;
}

static AdwMessageDialog *
find_message_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  guint n_items = g_list_model_get_n_items (toplevels);
  guint i;

  for (i = 0; i < n_items; i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (window) && gtk_widget_get_visible (GTK_WIDGET (window)))
        return ADW_MESSAGE_DIALOG (window);
    }

  return NULL;
}

/* Answers as a person does, by the button, which also closes the dialog. */
static void
click_response (AdwMessageDialog *dialog,
                const char       *label)
{
  GtkWidget *button = find_widget (GTK_WIDGET (dialog), GTK_TYPE_BUTTON, has_label, label);

  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
}

static gboolean
dialog_shown (Fixture *fixture)
{
  return find_message_dialog () != NULL;
}

static gboolean
dialog_gone (Fixture *fixture)
{
  return find_message_dialog () == NULL;
}

static const char *
visible_page (Fixture *fixture)
{
  GtkWidget *stack = find_widget (GTK_WIDGET (fixture->page), GTK_TYPE_STACK, NULL, NULL);

  g_assert_nonnull (stack);
  return gtk_stack_get_visible_child_name (GTK_STACK (stack));
}

static guint
count_roots (Fixture *fixture)
{
  return g_list_model_get_n_items (G_LIST_MODEL (fixture->roots));
}

static StewardRoot *
get_root (Fixture *fixture,
          guint    position)
{
  g_autoptr(StewardRoot) root = g_list_model_get_item (G_LIST_MODEL (fixture->roots), position);

  g_assert_nonnull (root);
  return root;
}

static void
fixture_set_up (Fixture *fixture)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) config_dir = NULL;
  g_autoptr(GFile) state_dir = NULL;
  g_autofree char *config_path = NULL;
  g_autofree char *servers_path = NULL;

  fixture->tmp_dir = g_dir_make_tmp ("test-roots-page-XXXXXX", &error);
  g_assert_no_error (error);
  config_path = g_build_filename (fixture->tmp_dir, "config", NULL);
  g_assert_cmpint (g_mkdir_with_parents (config_path, 0700), ==, 0);
  servers_path = g_build_filename (config_path, "servers.json", NULL);
  g_file_set_contents (servers_path, servers_json, -1, &error);
  g_assert_no_error (error);
  /* A name that is not valid markup: shown as it is, or GTK would warn. */
  fixture->project_dir = g_build_filename (fixture->tmp_dir, PROJECT, NULL);
  g_assert_cmpint (g_mkdir_with_parents (fixture->project_dir, 0700), ==, 0);

  config_dir = g_file_new_for_path (config_path);
  state_dir = g_file_new_build_filename (fixture->tmp_dir, "state", NULL);
  fixture->host = steward_host_new (config_dir, state_dir);
  fixture->roots = steward_host_get_roots (fixture->host);

  fixture->window = GTK_WINDOW (gtk_window_new ());
  g_object_ref (fixture->window);
  gtk_window_set_default_size (fixture->window, 700, 600);
  fixture->page = STEWARD_ROOTS_PAGE (steward_roots_page_new (fixture->host));
  g_object_add_weak_pointer (G_OBJECT (fixture->page), (gpointer *) &fixture->page);
  gtk_window_set_child (fixture->window, GTK_WIDGET (fixture->page));
  gtk_window_present (fixture->window);

  /* The servers come in once the host has read its files. */
  steward_host_start (fixture->host);
  wait_until (fixture, host_started);
  wait_until (fixture, registry_filled);
  drain ();
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir != NULL)
    {
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          remove_tree (child);
        }
    }

  g_remove (path);
}

static void
shutdown_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  gboolean *done = user_data;

  steward_host_shutdown_finish (STEWARD_HOST (object), result, NULL);
  *done = TRUE;
}

static gboolean shutdown_done;

static gboolean
host_shut_down (Fixture *fixture)
{
  return shutdown_done;
}

static void
fixture_tear_down (Fixture *fixture)
{
  gtk_window_destroy (fixture->window);
  drain ();
  g_assert_finalize_object (fixture->window);
  g_assert_null (fixture->page);

  shutdown_done = FALSE;
  steward_host_shutdown_async (fixture->host, NULL, shutdown_cb, &shutdown_done);
  wait_until (fixture, host_shut_down);
  g_assert_finalize_object (fixture->host);

  remove_tree (fixture->tmp_dir);
  g_free (fixture->tmp_dir);
  g_free (fixture->project_dir);
}

static void
test_add_remove (Fixture *fixture)
{
  g_autoptr(GFile) folder = g_file_new_for_path (fixture->project_dir);
  g_autofree char *uri = g_file_get_uri (folder);
  GtkWidget *row;
  GtkWidget *remove_button;
  StewardRoot *root;

  g_assert_cmpstr (visible_page (fixture), ==, "empty");

  steward_roots_page_add_folder (fixture->page, folder);
  g_assert_cmpuint (count_roots (fixture), ==, 1);
  root = get_root (fixture, 0);
  g_assert_cmpstr (steward_root_get_path (root), ==, fixture->project_dir);
  g_assert_cmpstr (steward_root_get_uri (root), ==, uri);
  g_assert_true (g_str_has_prefix (steward_root_get_uri (root), "file:///"));
  g_assert_cmpstr (visible_page (fixture), ==, "list");

  row = find_widget (GTK_WIDGET (fixture->page), ADW_TYPE_EXPANDER_ROW, has_title, PROJECT);
  g_assert_nonnull (row);
  g_assert_false (adw_preferences_row_get_use_markup (ADW_PREFERENCES_ROW (row)));
  g_assert_cmpstr (adw_expander_row_get_subtitle (ADW_EXPANDER_ROW (row)), ==,
                   fixture->project_dir);

  /* Sharing it twice says why not, and changes nothing. */
  test_assert_no_error (GTK_WIDGET (fixture->page));
  steward_roots_page_add_folder (fixture->page, folder);
  g_assert_cmpuint (count_roots (fixture), ==, 1);
  test_assert_error_shown (GTK_WIDGET (fixture->page), "Could not share the folder: ");

  remove_button = find_widget (row, GTK_TYPE_BUTTON, has_icon, "user-trash-symbolic");
  g_assert_nonnull (remove_button);
  g_signal_emit_by_name (remove_button, "clicked");
  g_assert_cmpuint (count_roots (fixture), ==, 0);
  g_assert_cmpstr (visible_page (fixture), ==, "empty");
}

/* A folder that cannot be shared is a reason the person must act on: it
 * stays on the page in full, not in a toast that times out, until they
 * dismiss it or share a folder after all. */
static void
test_error_stays (Fixture *fixture)
{
  g_autoptr(GFile) remote = g_file_new_for_uri ("https://example.invalid/R%26D");
  g_autofree char *other_dir = g_build_filename (fixture->tmp_dir, "other", NULL);
  g_autoptr(GFile) other = g_file_new_for_path (other_dir);
  g_autofree char *missing_dir = g_build_filename (fixture->tmp_dir, "missing", NULL);
  g_autoptr(GFile) missing = g_file_new_for_path (missing_dir);
  GtkWidget *page = GTK_WIDGET (fixture->page);
  const char *message;

  g_assert_cmpint (g_mkdir_with_parents (other_dir, 0700), ==, 0);

  steward_roots_page_add_folder (fixture->page, remote);
  message = test_assert_error_shown (page, "Only folders on this computer can be shared");
  g_assert_cmpstr (message, ==, "Only folders on this computer can be shared");
  drain ();
  test_assert_error_shown (page, "Only folders on this computer can be shared");

  /* Dismissing it takes it away. */
  test_dismiss_error (page);
  test_assert_no_error (page);

  /* A folder that is not there says so, with the reason in full. */
  steward_roots_page_add_folder (fixture->page, missing);
  message = test_assert_error_shown (page, "Could not share the folder: ");
  g_assert_cmpuint (strlen (message), >, strlen ("Could not share the folder: "));
  g_assert_cmpuint (count_roots (fixture), ==, 0);

  /* Sharing a folder after all clears it. */
  steward_roots_page_add_folder (fixture->page, other);
  g_assert_cmpuint (count_roots (fixture), ==, 1);
  test_assert_no_error (page);
}

static void
test_dangerous (Fixture *fixture)
{
  g_autoptr(GFile) home = g_file_new_for_path (g_get_home_dir ());
  AdwMessageDialog *dialog;

  /* The home folder asks again; cancelling shares nothing. */
  steward_roots_page_add_folder (fixture->page, home);
  wait_until (fixture, dialog_shown);
  dialog = find_message_dialog ();
  g_assert_cmpstr (adw_message_dialog_get_default_response (dialog), ==, "cancel");
  g_assert_cmpint (adw_message_dialog_get_response_appearance (dialog, "share"), ==,
                   ADW_RESPONSE_DESTRUCTIVE);
  click_response (dialog, "_Cancel");
  wait_until (fixture, dialog_gone);
  g_assert_cmpuint (count_roots (fixture), ==, 0);

  /* "Share Anyway" shares it. */
  steward_roots_page_add_folder (fixture->page, home);
  wait_until (fixture, dialog_shown);
  click_response (find_message_dialog (), "_Share Anyway");
  wait_until (fixture, dialog_gone);
  g_assert_cmpuint (count_roots (fixture), ==, 1);
}

static void
test_per_server (Fixture *fixture)
{
  g_autoptr(GFile) folder = g_file_new_for_path (fixture->project_dir);
  g_autoptr(JsonObject) alpha_list = NULL;
  g_autoptr(JsonObject) beta_list = NULL;
  GtkWidget *row;
  GtkWidget *all_row;
  GtkWidget *all_switch;
  GtkWidget *alpha_row;
  GtkWidget *alpha_check;
  StewardRoot *root;

  steward_roots_page_add_folder (fixture->page, folder);
  root = get_root (fixture, 0);
  g_assert_true (steward_root_get_all_servers (root));
  g_assert_true (steward_root_is_visible_to (root, "alpha"));
  g_assert_true (steward_root_is_visible_to (root, "beta"));

  row = find_widget (GTK_WIDGET (fixture->page), ADW_TYPE_EXPANDER_ROW, has_title, PROJECT);
  g_assert_nonnull (row);
  all_row = find_widget (row, ADW_TYPE_ACTION_ROW, has_title, "All Servers");
  g_assert_nonnull (all_row);
  all_switch = adw_action_row_get_activatable_widget (ADW_ACTION_ROW (all_row));
  g_assert_true (GTK_IS_SWITCH (all_switch));
  g_assert_true (gtk_switch_get_active (GTK_SWITCH (all_switch)));

  /* One row per server in the registry, shown once not all servers see it. */
  alpha_row = find_widget (row, ADW_TYPE_ACTION_ROW, has_title, "alpha");
  g_assert_nonnull (alpha_row);
  g_assert_nonnull (find_widget (row, ADW_TYPE_ACTION_ROW, has_title, "beta"));
  g_assert_false (gtk_widget_get_visible (alpha_row));

  gtk_switch_set_active (GTK_SWITCH (all_switch), FALSE);
  root = get_root (fixture, 0);
  g_assert_false (steward_root_get_all_servers (root));
  g_assert_false (steward_root_is_visible_to (root, "alpha"));
  g_assert_true (gtk_widget_get_visible (alpha_row));

  alpha_check = adw_action_row_get_activatable_widget (ADW_ACTION_ROW (alpha_row));
  g_assert_true (GTK_IS_CHECK_BUTTON (alpha_check));
  g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (alpha_check)));
  gtk_check_button_set_active (GTK_CHECK_BUTTON (alpha_check), TRUE);

  root = get_root (fixture, 0);
  g_assert_true (steward_root_is_visible_to (root, "alpha"));
  g_assert_false (steward_root_is_visible_to (root, "beta"));

  alpha_list = steward_roots_list_for_server (fixture->roots, "alpha");
  beta_list = steward_roots_list_for_server (fixture->roots, "beta");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (alpha_list, "roots")),
                    ==, 1);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (beta_list, "roots")),
                    ==, 0);

  /* Back to every server. */
  gtk_switch_set_active (GTK_SWITCH (all_switch), TRUE);
  root = get_root (fixture, 0);
  g_assert_true (steward_root_is_visible_to (root, "beta"));
}

#define WITH_FIXTURE(func) \
  static void \
  func##_case (void) \
  { \
    Fixture fixture = { 0 }; \
    \
    fixture_set_up (&fixture); \
    func (&fixture); \
    fixture_tear_down (&fixture); \
  }

WITH_FIXTURE (test_add_remove)
WITH_FIXTURE (test_dangerous)
WITH_FIXTURE (test_error_stays)
WITH_FIXTURE (test_per_server)

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/steward/roots-page/add-remove", test_add_remove_case);
  g_test_add_func ("/steward/roots-page/dangerous", test_dangerous_case);
  g_test_add_func ("/steward/roots-page/error-stays", test_error_stays_case);
  g_test_add_func ("/steward/roots-page/per-server", test_per_server_case);

  return g_test_run ();
}

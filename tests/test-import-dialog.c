/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-import-dialog"

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "steward-config-import.h"
#include "steward-import-dialog.h"
#include "test-widgets.h"

#define CANARY "sk-canary-1b2c3d4e5f60718293a4"
#define TOKEN_CANARY "ghp_canary0123456789abcdefghijABCDEFGHIJ"

typedef struct
{
  char        *dir;
  GFile       *config_dir;
  StewardHost *host;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) state_dir = NULL;

  fixture->dir = g_dir_make_tmp ("steward-import-dialog-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->config_dir = g_file_new_build_filename (fixture->dir, "config", NULL);
  state_dir = g_file_new_build_filename (fixture->dir, "state", NULL);
  fixture->host = steward_host_new (fixture->config_dir, state_dir);
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
child (GtkWidget  *dialog,
       const char *name)
{
  GObject *object = gtk_widget_get_template_child (dialog, STEWARD_TYPE_IMPORT_DIALOG, name);

  g_assert_nonnull (object);
  return GTK_WIDGET (object);
}

static void
write_default_file (StewardImportSource  source,
                    const char          *contents)
{
  g_autoptr(GFile) file = steward_import_default_file (source);
  g_autoptr(GFile) parent = g_file_get_parent (file);
  g_autoptr(GError) error = NULL;

  g_file_make_directory_with_parents (parent, NULL, &error);
  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_EXISTS))
    g_assert_no_error (error);
  g_clear_error (&error);
  g_file_replace_contents (file, contents, strlen (contents), NULL, FALSE,
                           G_FILE_CREATE_NONE, NULL, NULL, &error);
  g_assert_no_error (error);
}

static void
delete_default_file (StewardImportSource source)
{
  g_autoptr(GFile) file = steward_import_default_file (source);

  g_file_delete (file, NULL, NULL);
}

static gboolean
widget_is_sensitive (gpointer data)
{
  return gtk_widget_get_sensitive (GTK_WIDGET (data));
}

static gboolean
showing_list (gpointer data)
{
  return g_strcmp0 (gtk_stack_get_visible_child_name (GTK_STACK (data)), "list") == 0;
}

typedef struct
{
  gboolean done;
  guint    n_imported;
} Imported;

static void
imported_cb (GtkWidget *dialog,
             guint      n_imported,
             Imported  *imported)
{
  imported->done = TRUE;
  imported->n_imported = n_imported;
}

static GtkWidget *
open_and_list (Fixture    *fixture,
               const char *row,
               const char *action)
{
  GtkWidget *dialog = steward_import_dialog_new (fixture->host);

  g_object_ref (dialog);
  gtk_window_present (GTK_WINDOW (dialog));

  /* The button for an app's default file works once the file is found. */
  test_wait_until (widget_is_sensitive, child (dialog, row), 10000);
  gtk_widget_activate_action (dialog, action, NULL);
  test_wait_until (showing_list, child (dialog, "stack"), 10000);

  return dialog;
}

static guint
count_rows (GtkWidget *list)
{
  guint n = 0;

  for (GtkWidget *row = gtk_widget_get_first_child (list);
       row != NULL;
       row = gtk_widget_get_next_sibling (row))
    n++;

  return n;
}

static GtkWidget *
find_row (GtkWidget  *list,
          const char *title)
{
  for (GtkWidget *row = gtk_widget_get_first_child (list);
       row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      if (g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), title) == 0)
        return row;
    }

  return NULL;
}

static void
apply_and_wait (GtkWidget *dialog,
                Imported  *imported)
{
  g_signal_connect (dialog, "imported", G_CALLBACK (imported_cb), imported);
  g_assert_true (gtk_widget_is_sensitive (child (dialog, "import_button")));
  gtk_widget_activate_action (dialog, "import.apply", NULL);
  test_wait_until (flag_is_set, &imported->done, 20000);
}

static char *
read_servers_file (Fixture *fixture)
{
  g_autoptr(GFile) file = g_file_get_child (fixture->config_dir, "servers.json");
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_file_load_contents (file, NULL, &contents, NULL, NULL, &error);
  g_assert_no_error (error);

  return contents;
}

static JsonObject *
read_server (Fixture    *fixture,
             const char *name)
{
  g_autofree char *contents = read_servers_file (fixture);
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *servers;

  root = json_from_string (contents, &error);
  g_assert_no_error (error);
  servers = json_object_get_object_member (json_node_get_object (root), "mcpServers");
  g_assert_nonnull (servers);
  g_assert_true (json_object_has_member (servers, name));

  return json_object_ref (json_object_get_object_member (servers, name));
}

static gboolean
tree_contains (const char *path,
               const char *needle)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir == NULL)
    {
      g_autofree char *contents = NULL;
      gsize length = 0;

      if (!g_file_get_contents (path, &contents, &length, NULL))
        return FALSE;
      for (gsize i = 0; i + strlen (needle) <= length; i++)
        {
          if (memcmp (contents + i, needle, strlen (needle)) == 0)
            return TRUE;
        }
      return FALSE;
    }

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child_path = g_build_filename (path, name, NULL);

      if (tree_contains (child_path, needle))
        return TRUE;
    }

  return FALSE;
}

typedef struct
{
  gboolean  done;
  char     *value;
} Lookup;

static void
looked_up_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Lookup *lookup = user_data;
  g_autoptr(GError) error = NULL;

  lookup->value = steward_secrets_lookup_finish (STEWARD_SECRETS (object), result, &error);
  g_assert_no_error (error);
  lookup->done = TRUE;
}

static void
test_claude_moves_secrets (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autoptr(JsonObject) files = NULL;
  g_autoptr(JsonObject) remote = NULL;
  g_autofree char *id = NULL;
  g_autofree char *config_path = g_file_get_path (fixture->config_dir);
  Imported imported = { FALSE, 0 };
  Lookup lookup = { FALSE, NULL };
  GtkWidget *dialog;
  GtkWidget *list;

  write_default_file (STEWARD_IMPORT_SOURCE_CLAUDE_DESKTOP,
                      "{\"mcpServers\": {"
                      "  \"files\": {\"command\": \"npx\","
                      "            \"args\": [\"-y\", \"@modelcontextprotocol/server-filesystem\","
                      "                     \"/tmp/a folder\"],"
                      "            \"env\": {\"API_KEY\": \"" CANARY "\", \"DEBUG\": \"1\"}},"
                      "  \"hosted\": {\"url\": \"https://mcp.example.com/mcp\","
                      "             \"headers\": {\"Authorization\": \"Bearer " TOKEN_CANARY "\"}}"
                      "}}");

  dialog = open_and_list (fixture, "claude_row", "import.from-claude");
  list = child (dialog, "candidate_list");

  g_assert_cmpuint (count_rows (list), ==, 2);
  g_assert_nonnull (find_row (list, "files"));
  g_assert_nonnull (find_row (list, "hosted"));
  /* The exact command, every argument whole; names of secrets, never values. */
  g_assert_true (test_any_label_contains (list, "\"/tmp/a folder\""));
  g_assert_true (test_any_label_contains (list, "API_KEY"));
  g_assert_false (test_any_label_contains (dialog, CANARY));
  g_assert_false (test_any_label_contains (dialog, TOKEN_CANARY));
  g_assert_true (gtk_widget_get_visible (child (dialog, "secrets_group")));
  g_assert_true (gtk_switch_get_active (GTK_SWITCH (child (dialog, "move_switch"))));

  apply_and_wait (dialog, &imported);
  g_assert_cmpuint (imported.n_imported, ==, 2);
  g_assert_finalize_object (dialog);

  files = read_server (fixture, "files");
  id = steward_secret_reference_get_id (
    json_object_get_string_member (json_object_get_object_member (files, "env"), "API_KEY"));
  g_assert_nonnull (id);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (files, "env"),
                                                  "DEBUG"), ==, "1");
  remote = read_server (fixture, "hosted");
  g_assert_nonnull (steward_secret_reference_get_id (
    json_object_get_string_member (json_object_get_object_member (remote, "headers"),
                                   "Authorization")));

  /* Steward's own files hold neither secret; the keyring holds them. */
  g_assert_false (tree_contains (config_path, CANARY));
  g_assert_false (tree_contains (config_path, TOKEN_CANARY));
  steward_secrets_lookup_async (steward_host_get_secrets (fixture->host), id, NULL,
                                looked_up_cb, &lookup);
  test_wait_until (flag_is_set, &lookup.done, 10000);
  g_assert_cmpstr (lookup.value, ==, CANARY);
  steward_secret_value_free (lookup.value);

  delete_default_file (STEWARD_IMPORT_SOURCE_CLAUDE_DESKTOP);
}

static void
test_vscode_problem (Fixture       *fixture,
                     gconstpointer  data)
{
  Imported imported = { FALSE, 0 };
  g_autofree char *contents = NULL;
  GtkWidget *dialog;
  GtkWidget *list;
  GtkWidget *bad;

  write_default_file (STEWARD_IMPORT_SOURCE_VSCODE,
                      "{\"servers\": {"
                      "  \"asks\": {\"type\": \"stdio\", \"command\": \"node\","
                      "           \"env\": {\"TOKEN\": \"${input:token}\"}},"
                      "  \"plain\": {\"type\": \"stdio\", \"command\": \"node\","
                      "            \"args\": [\"server.js\"]}"
                      "}}");

  dialog = open_and_list (fixture, "vscode_row", "import.from-vscode");
  list = child (dialog, "candidate_list");

  g_assert_cmpuint (count_rows (list), ==, 2);
  bad = find_row (list, "asks");
  g_assert_nonnull (bad);
  /* What cannot be imported is shown, greyed out, with the reason. */
  g_assert_false (gtk_widget_get_sensitive (bad));
  g_assert_true (gtk_widget_get_sensitive (find_row (list, "plain")));

  apply_and_wait (dialog, &imported);
  g_assert_cmpuint (imported.n_imported, ==, 1);
  g_assert_finalize_object (dialog);

  contents = read_servers_file (fixture);
  g_assert_nonnull (strstr (contents, "\"plain\""));
  g_assert_null (strstr (contents, "\"asks\""));

  delete_default_file (STEWARD_IMPORT_SOURCE_VSCODE);
}

static GtkWidget *
row_check (GtkWidget *row)
{
  GtkWidget *check = test_find_by_type (row, GTK_TYPE_CHECK_BUTTON);

  g_assert_nonnull (check);
  return check;
}

/* A label is on screen only when it and every parent up to @root are. */
static gboolean
label_shown (GtkWidget  *root,
             const char *needle)
{
  GtkLabel *label = test_find_label_containing (root, needle);

  if (label == NULL)
    return FALSE;
  for (GtkWidget *widget = GTK_WIDGET (label);
       widget != root;
       widget = gtk_widget_get_parent (widget))
    {
      if (!gtk_widget_get_visible (widget) || !gtk_widget_get_child_visible (widget))
        return FALSE;
    }
  return gtk_widget_get_mapped (GTK_WIDGET (label));
}

static void
test_keeps_existing (Fixture       *fixture,
                     gconstpointer  data)
{
  StewardConfig *config = steward_host_get_config (fixture->host);
  g_autoptr(GFile) servers = g_file_get_child (fixture->config_dir, "servers.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) kept = NULL;
  g_autoptr(JsonObject) replaced = NULL;
  Imported imported = { FALSE, 0 };
  Imported again = { FALSE, 0 };
  GtkWidget *dialog;
  GtkWidget *list;
  GtkWidget *everything;
  GtkWidget *memory;
  static const char mine[] =
    "{\"mcpServers\": {\"everything\": {\"command\": \"node\","
    " \"args\": [\"/opt/mine/everything.js\"]}}}";
  static const char theirs[] =
    "{\"mcpServers\": {"
    "  \"everything\": {\"command\": \"npx\","
    "                 \"args\": [\"-y\", \"@modelcontextprotocol/server-everything\"]},"
    "  \"memory\": {\"command\": \"npx\","
    "             \"args\": [\"-y\", \"@modelcontextprotocol/server-memory\"]}"
    "}}";

  g_file_make_directory_with_parents (fixture->config_dir, NULL, NULL);
  g_file_replace_contents (servers, mine, strlen (mine), NULL, FALSE,
                           G_FILE_CREATE_NONE, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (steward_config_load (config, NULL, &error));
  g_assert_no_error (error);

  write_default_file (STEWARD_IMPORT_SOURCE_CLAUDE_DESKTOP, theirs);
  dialog = open_and_list (fixture, "claude_row", "import.from-claude");
  list = child (dialog, "candidate_list");
  test_drain_main_context ();

  everything = find_row (list, "everything");
  memory = find_row (list, "memory");
  g_assert_nonnull (everything);
  g_assert_nonnull (memory);
  /* The one that would replace a server of the person's is not ticked; the
   * new one is. */
  g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (row_check (everything))));
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (row_check (memory))));
  g_assert_true (label_shown (everything, "replaces it"));
  g_assert_false (test_any_label_contains (memory, "replaces it"));
  /* Every row shows its command without being expanded. */
  g_assert_true (label_shown (everything, "\"@modelcontextprotocol/server-everything\""));
  g_assert_true (label_shown (memory, "\"@modelcontextprotocol/server-memory\""));

  apply_and_wait (dialog, &imported);
  g_assert_cmpuint (imported.n_imported, ==, 1);
  g_assert_finalize_object (dialog);

  kept = read_server (fixture, "everything");
  g_assert_cmpstr (json_object_get_string_member (kept, "command"), ==, "node");
  g_clear_pointer (&kept, json_object_unref);

  /* Ticked by hand, it does replace the server. Activating the row ticks it,
   * as a click anywhere on it would. */
  dialog = open_and_list (fixture, "claude_row", "import.from-claude");
  list = child (dialog, "candidate_list");
  everything = find_row (list, "everything");
  g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (row_check (everything))));
  g_signal_emit_by_name (list, "row-activated", everything);
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (row_check (everything))));
  /* memory is the person's own now, so it is left alone this time. */
  g_assert_false (gtk_check_button_get_active (
    GTK_CHECK_BUTTON (row_check (find_row (list, "memory")))));
  apply_and_wait (dialog, &again);
  g_assert_cmpuint (again.n_imported, ==, 1);
  g_assert_finalize_object (dialog);

  replaced = read_server (fixture, "everything");
  g_assert_cmpstr (json_object_get_string_member (replaced, "command"), ==, "npx");

  delete_default_file (STEWARD_IMPORT_SOURCE_CLAUDE_DESKTOP);
}

typedef struct
{
  StewardHost *host;
  const char  *name;
} Started;

/* Begun: past "stopped", whether asking or launching. */
static gboolean
server_begun (gpointer data)
{
  Started *started = data;
  StewardServer *server;

  server = steward_server_registry_lookup (steward_host_get_registry (started->host),
                                           started->name);
  return server != NULL && steward_server_get_status (server) != STEWARD_SERVER_STATUS_STOPPED;
}

static gboolean
consent_asked (gpointer data)
{
  Started *started = data;

  return steward_approvals_count_for (steward_host_get_approvals (started->host),
                                      STEWARD_APPROVAL_KIND_CONSENT, started->name) > 0;
}

static void
write_servers_file (Fixture    *fixture,
                    const char *contents)
{
  g_autoptr(GFile) servers = g_file_get_child (fixture->config_dir, "servers.json");
  g_autoptr(GError) error = NULL;

  g_file_make_directory_with_parents (fixture->config_dir, NULL, NULL);
  g_file_replace_contents (servers, contents, strlen (contents), NULL, FALSE,
                           G_FILE_CREATE_NONE, NULL, NULL, &error);
  g_assert_no_error (error);
}

/* The dialog lists each command and its one confirmation is the consent:
 * three servers imported start without a question each, and the consent
 * stays bound to the command, so changing one asks for that one again. */
static void
test_one_confirmation (Fixture       *fixture,
                       gconstpointer  data)
{
  StewardConfig *config = steward_host_get_config (fixture->host);
  StewardApprovals *approvals = steward_host_get_approvals (fixture->host);
  g_autoptr(GError) error = NULL;
  const char *names[] = { "alpha", "beta", "gamma" };
  Started beta = { fixture->host, "beta" };
  Imported imported = { FALSE, 0 };
  GtkWidget *dialog;
  GtkWidget *list;
  static const char theirs[] =
    "{\"mcpServers\": {"
    "  \"alpha\": {\"command\": \"/bin/false\", \"args\": [\"alpha\"]},"
    "  \"beta\": {\"command\": \"/bin/false\", \"args\": [\"beta\"]},"
    "  \"gamma\": {\"command\": \"/bin/false\", \"args\": [\"gamma\"]}"
    "}}";
  static const char changed[] =
    "{\"mcpServers\": {"
    "  \"alpha\": {\"command\": \"/bin/false\", \"args\": [\"alpha\"]},"
    "  \"beta\": {\"command\": \"/bin/false\", \"args\": [\"beta\", \"--more\"]},"
    "  \"gamma\": {\"command\": \"/bin/false\", \"args\": [\"gamma\"]}"
    "}}";

  /* The registry follows the servers file from here on, as in the app. */
  write_servers_file (fixture, "{\"mcpServers\": {}}");
  g_assert_true (steward_config_load (config, NULL, &error));
  g_assert_no_error (error);
  steward_server_registry_sync (steward_host_get_registry (fixture->host), TRUE);

  write_default_file (STEWARD_IMPORT_SOURCE_CLAUDE_DESKTOP, theirs);
  dialog = open_and_list (fixture, "claude_row", "import.from-claude");
  list = child (dialog, "candidate_list");
  test_drain_main_context ();

  g_assert_cmpuint (count_rows (list), ==, 3);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *args = g_strdup_printf ("\"%s\"", names[i]);
      GtkWidget *row = find_row (list, names[i]);

      g_assert_nonnull (row);
      g_assert_true (label_shown (row, "/bin/false"));
      g_assert_true (label_shown (row, args));
    }
  /* The one button says what confirming does, and for how many. */
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (child (dialog, "import_button"))), ==,
                   "_Add and Allow 3 Servers");

  apply_and_wait (dialog, &imported);
  g_assert_cmpuint (imported.n_imported, ==, 3);
  g_assert_finalize_object (dialog);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      Started started = { fixture->host, names[i] };
      StewardServer *server;

      test_wait_until (server_begun, &started, 10000);
      server = steward_server_registry_lookup (steward_host_get_registry (fixture->host),
                                               names[i]);
      g_assert_cmpint (steward_server_get_status (server), !=,
                       STEWARD_SERVER_STATUS_AWAITING_CONSENT);
    }
  g_assert_cmpuint (steward_approvals_count_for (approvals, STEWARD_APPROVAL_KIND_CONSENT,
                                                 NULL), ==, 0);

  /* A changed command is not what was allowed: that server asks again,
   * and only that one. */
  write_servers_file (fixture, changed);
  g_assert_true (steward_config_load (config, NULL, &error));
  g_assert_no_error (error);
  test_wait_until (consent_asked, &beta, 10000);
  g_assert_cmpuint (steward_approvals_count_for (approvals, STEWARD_APPROVAL_KIND_CONSENT,
                                                 NULL), ==, 1);
  g_assert_cmpint (steward_server_get_status (
                     steward_server_registry_lookup (steward_host_get_registry (fixture->host),
                                                     "beta")),
                   ==, STEWARD_SERVER_STATUS_AWAITING_CONSENT);

  delete_default_file (STEWARD_IMPORT_SOURCE_CLAUDE_DESKTOP);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add ("/steward/import-dialog/claude-moves-secrets", Fixture, NULL,
              fixture_set_up, test_claude_moves_secrets, fixture_tear_down);
  g_test_add ("/steward/import-dialog/vscode-problem", Fixture, NULL,
              fixture_set_up, test_vscode_problem, fixture_tear_down);
  g_test_add ("/steward/import-dialog/one-confirmation", Fixture, NULL,
              fixture_set_up, test_one_confirmation, fixture_tear_down);
  g_test_add ("/steward/import-dialog/keeps-existing", Fixture, NULL,
              fixture_set_up, test_keeps_existing, fixture_tear_down);

  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-server-dialog"

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "steward-server-dialog.h"
#include "test-widgets.h"

#define CANARY "sk-canary-7f3a9c21d4e5b6a8"

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

  fixture->dir = g_dir_make_tmp ("steward-server-dialog-XXXXXX", &error);
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
  GObject *object = gtk_widget_get_template_child (dialog, STEWARD_TYPE_SERVER_DIALOG, name);

  g_assert_nonnull (object);
  return GTK_WIDGET (object);
}

static void
set_text (GtkWidget  *dialog,
          const char *name,
          const char *text)
{
  gtk_editable_set_text (GTK_EDITABLE (child (dialog, name)), text);
}

static GtkWidget *
open_dialog (Fixture             *fixture,
             StewardServerConfig *server)
{
  GtkWidget *dialog = steward_server_dialog_new (fixture->host, server);

  g_object_ref (dialog);
  gtk_window_present (GTK_WINDOW (dialog));
  test_drain_main_context ();

  return dialog;
}

static void
saved_cb (GtkWidget           *dialog,
          StewardServerConfig *config,
          gboolean            *saved)
{
  *saved = TRUE;
}

static void
save_and_wait (GtkWidget *dialog)
{
  gboolean saved = FALSE;

  g_signal_connect (dialog, "saved", G_CALLBACK (saved_cb), &saved);
  gtk_widget_activate_action (dialog, "dialog.save", NULL);
  test_wait_until (flag_is_set, &saved, 20000);
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
test_local_with_secret (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(JsonObject) server = NULL;
  g_autofree char *id = NULL;
  GtkWidget *dialog = open_dialog (fixture, NULL);
  GtkTextBuffer *args;
  GtkWidget *name, *value, *keyring;
  JsonObject *env;
  JsonArray *argv;
  Lookup lookup = { FALSE, NULL };

  set_text (dialog, "name_row", "canary-server");
  set_text (dialog, "command_row", "steward-no-such-program");
  args = gtk_text_view_get_buffer (GTK_TEXT_VIEW (child (dialog, "args_view")));
  gtk_text_buffer_set_text (args, "one argument with spaces\n--second\n", -1);

  gtk_widget_activate_action (dialog, "dialog.add-variable", NULL);
  name = test_find_by_name (child (dialog, "env_list"), "variable-name");
  value = test_find_by_name (child (dialog, "env_list"), "variable-value");
  keyring = test_find_by_name (child (dialog, "env_list"), "variable-keyring");
  g_assert_nonnull (name);
  g_assert_nonnull (value);
  g_assert_nonnull (keyring);
  gtk_editable_set_text (GTK_EDITABLE (name), "API_KEY");
  gtk_editable_set_text (GTK_EDITABLE (value), CANARY);

  /* A key-shaped name goes to the keyring unless the person says no, and
   * its value is masked as it is typed. */
  g_assert_true (gtk_switch_get_active (GTK_SWITCH (keyring)));
  g_assert_false (gtk_entry_get_visibility (GTK_ENTRY (value)));

  save_and_wait (dialog);
  g_assert_finalize_object (dialog);

  server = read_server (fixture, "canary-server");
  g_assert_cmpstr (json_object_get_string_member (server, "command"), ==,
                   "steward-no-such-program");
  argv = json_object_get_array_member (server, "args");
  g_assert_cmpuint (json_array_get_length (argv), ==, 2);
  g_assert_cmpstr (json_array_get_string_element (argv, 0), ==, "one argument with spaces");
  g_assert_cmpstr (json_array_get_string_element (argv, 1), ==, "--second");

  env = json_object_get_object_member (server, "env");
  g_assert_nonnull (env);
  id = steward_secret_reference_get_id (json_object_get_string_member (env, "API_KEY"));
  g_assert_nonnull (id);

  /* The canary is in the keyring and nowhere in Steward's files. */
  g_assert_false (tree_contains (fixture->dir, CANARY));
  steward_secrets_lookup_async (steward_host_get_secrets (fixture->host), id, NULL,
                                looked_up_cb, &lookup);
  test_wait_until (flag_is_set, &lookup.done, 10000);
  g_assert_cmpstr (lookup.value, ==, CANARY);
  steward_secret_value_free (lookup.value);
}

static gboolean
label_visible (GtkWidget  *dialog,
               const char *name)
{
  GtkWidget *label = child (dialog, name);

  return gtk_widget_get_visible (label) &&
         gtk_label_get_text (GTK_LABEL (label))[0] != '\0';
}

static void
test_validation (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(StewardServerConfig) existing = NULL;
  g_autoptr(GFile) servers = g_file_get_child (fixture->config_dir, "servers.json");
  GtkWidget *dialog;
  const char *message;

  existing = steward_server_config_new_stdio ("taken", "true", NULL, NULL, NULL);
  steward_config_put_server (steward_host_get_config (fixture->host), existing);

  dialog = open_dialog (fixture, NULL);

  /* Nothing typed: every required field says so. */
  gtk_widget_activate_action (dialog, "dialog.save", NULL);
  g_assert_true (label_visible (dialog, "name_error"));
  g_assert_true (label_visible (dialog, "command_error"));

  set_text (dialog, "name_row", "bad name!");
  message = gtk_label_get_text (GTK_LABEL (child (dialog, "name_error")));
  g_assert_nonnull (strstr (message, "letters, digits"));

  set_text (dialog, "name_row", "taken");
  message = gtk_label_get_text (GTK_LABEL (child (dialog, "name_error")));
  g_assert_nonnull (strstr (message, "exists already"));

  set_text (dialog, "name_row", "remote-one");
  g_assert_false (label_visible (dialog, "name_error"));

  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (child (dialog, "remote_button")), TRUE);
  set_text (dialog, "url_row", "ftp://example.com/mcp");
  gtk_widget_activate_action (dialog, "dialog.save", NULL);
  g_assert_true (label_visible (dialog, "url_error"));
  message = gtk_label_get_text (GTK_LABEL (child (dialog, "url_error")));
  g_assert_nonnull (strstr (message, "https://"));

  set_text (dialog, "url_row", "not a url");
  g_assert_true (label_visible (dialog, "url_error"));

  /* Plain http to another computer needs a deliberate yes. */
  set_text (dialog, "url_row", "http://mcp.example.com/mcp");
  g_assert_true (label_visible (dialog, "url_error"));
  g_assert_true (gtk_widget_get_visible (child (dialog, "insecure_group")));
  gtk_switch_set_active (GTK_SWITCH (child (dialog, "insecure_switch")), TRUE);
  g_assert_false (label_visible (dialog, "url_error"));

  /* Loopback is fine over http. */
  gtk_switch_set_active (GTK_SWITCH (child (dialog, "insecure_switch")), FALSE);
  set_text (dialog, "url_row", "http://127.0.0.1:3000/mcp");
  g_assert_false (label_visible (dialog, "url_error"));
  set_text (dialog, "url_row", "http://[::1]:3000/mcp");
  g_assert_false (label_visible (dialog, "url_error"));

  /* A header without a name is caught too. */
  gtk_widget_activate_action (dialog, "dialog.add-header", NULL);
  gtk_editable_set_text (GTK_EDITABLE (test_find_by_name (child (dialog, "header_list"),
                                                          "variable-value")), "x");
  g_assert_true (label_visible (dialog, "header_error"));

  /* Nothing was written while the form was wrong. */
  g_assert_false (g_file_query_exists (servers, NULL));

  gtk_window_destroy (GTK_WINDOW (dialog));
  g_assert_finalize_object (dialog);
}

static void
test_edit_keeps_reference (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autoptr(StewardServerConfig) existing = NULL;
  g_autoptr(GHashTable) headers = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(JsonObject) server = NULL;
  GtkWidget *dialog;
  GtkWidget *value;
  JsonObject *saved_headers;

  g_hash_table_insert (headers, "Authorization", "${keyring:0123456789abcdef}");
  g_hash_table_insert (headers, "X-Plain", "visible");
  existing = steward_server_config_new_remote ("remote", "https://mcp.example.com/mcp",
                                               STEWARD_SERVER_TRANSPORT_SSE, headers);
  steward_config_put_server (steward_host_get_config (fixture->host), existing);

  dialog = open_dialog (fixture, existing);

  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (child (dialog, "remote_button"))));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (child (dialog, "url_row"))), ==,
                   "https://mcp.example.com/mcp");
  g_assert_cmpuint (adw_combo_row_get_selected (ADW_COMBO_ROW (child (dialog, "transport_row"))),
                    ==, 2);

  /* The stored value is not fetched, only said to be there. */
  value = test_find_by_name (child (dialog, "header_list"), "variable-value");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (value)), ==, "");
  g_assert_cmpstr (gtk_entry_get_placeholder_text (GTK_ENTRY (value)), ==, "Stored in keyring");
  g_assert_nonnull (test_find_label (dialog, "Edit Server"));

  save_and_wait (dialog);
  g_assert_finalize_object (dialog);

  server = read_server (fixture, "remote");
  saved_headers = json_object_get_object_member (server, "headers");
  g_assert_cmpstr (json_object_get_string_member (saved_headers, "Authorization"), ==,
                   "${keyring:0123456789abcdef}");
  g_assert_cmpstr (json_object_get_string_member (saved_headers, "X-Plain"), ==, "visible");
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add ("/steward/server-dialog/local-with-secret", Fixture, NULL,
              fixture_set_up, test_local_with_secret, fixture_tear_down);
  g_test_add ("/steward/server-dialog/validation", Fixture, NULL,
              fixture_set_up, test_validation, fixture_tear_down);
  g_test_add ("/steward/server-dialog/edit-keeps-reference", Fixture, NULL,
              fixture_set_up, test_edit_keeps_reference, fixture_tear_down);

  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-server-oauth"

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "steward-client-metadata.h"
#include "steward-config-import.h"
#include "steward-config.h"

/* A remote server's "oauth" block in the servers file: read, refused with
 * a sentence naming the member, written back with what other hosts put in
 * it, and the Client ID Metadata Document a server is offered. */

static StewardServerConfig *
parse_entry (const char  *text,
             GError     **error)
{
  g_autoptr(JsonNode) node = json_from_string (text, NULL);

  g_assert_nonnull (node);
  return steward_server_config_new_from_json ("hub", json_node_get_object (node), error);
}

static void
test_read (void)
{
  StewardServerConfig *server;
  g_autoptr(GError) error = NULL;
  StewardServerOAuth *oauth;
  const char * const *scopes;

  server = parse_entry ("{\"url\": \"https://mcp.example.com/mcp\", \"oauth\": {"
                        "\"clientId\": \"steward-1\", \"clientSecret\": \"${keyring:hub-secret}\","
                        "\"scopes\": [\"read\", \"write:all\"],"
                        "\"clientMetadataUrl\": \"https://example.org/steward.json\","
                        "\"callbackPort\": 8080}}", &error);
  g_assert_no_error (error);

  oauth = steward_server_config_get_oauth (server);
  g_assert_nonnull (oauth);
  g_assert_cmpstr (steward_server_oauth_get_client_id (oauth), ==, "steward-1");
  g_assert_cmpstr (steward_server_oauth_get_client_secret (oauth), ==, "${keyring:hub-secret}");
  scopes = steward_server_oauth_get_scopes (oauth);
  g_assert_cmpuint (g_strv_length ((char **) scopes), ==, 2);
  g_assert_cmpstr (scopes[1], ==, "write:all");
  g_assert_cmpstr (steward_server_oauth_get_client_metadata_url (oauth), ==,
                   "https://example.org/steward.json");

  g_assert_finalize_object (server);

  server = parse_entry ("{\"url\": \"https://mcp.example.com/mcp\"}", &error);
  g_assert_no_error (error);
  g_assert_null (steward_server_config_get_oauth (server));
  g_assert_finalize_object (server);
}

static void
test_refused (void)
{
  static const struct {
    const char *oauth;
    const char *says;
  } cases[] = {
    { "[]", "\"oauth\" must be an object" },
    { "{\"clientId\": 7}", "\"clientId\" must be a non-empty string" },
    { "{\"clientId\": \"\"}", "\"clientId\" must be a non-empty string" },
    { "{\"clientId\": \"a\", \"clientSecret\": \"hunter2\"}", "must name a secret in the keyring" },
    { "{\"clientId\": \"a\", \"clientSecret\": \"${keyring:a} \"}", "must name a secret" },
    { "{\"clientSecret\": \"${keyring:a}\"}", "needs the \"clientId\"" },
    { "{\"scopes\": \"read write\"}", "\"scopes\" must be an array of strings" },
    { "{\"scopes\": [\"read write\"]}", "item 1 of \"scopes\" must be one scope" },
    { "{\"scopes\": [\"read\", 3]}", "item 2 of \"scopes\"" },
    { "{\"clientMetadataUrl\": \"http://example.org/c.json\"}", "must be an https:// URL" },
    { "{\"clientMetadataUrl\": \"https://example.org/\"}", "with a path" },
    { "{\"clientMetadataUrl\": \"https://example.org/c.json#x\"}", "with a path" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strdup_printf ("{\"url\": \"https://mcp.example.com/mcp\", "
                                               "\"oauth\": %s}", cases[i].oauth);
      g_autoptr(StewardServerConfig) server = NULL;
      g_autoptr(GError) error = NULL;

      server = parse_entry (text, &error);
      g_assert_null (server);
      g_assert_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_INVALID);
      g_assert_true (g_str_has_prefix (error->message, "server `hub`: "));
      if (strstr (error->message, cases[i].says) == NULL)
        g_error ("%s: expected “%s” in “%s”", cases[i].oauth, cases[i].says, error->message);
      /* The secret a person pasted by mistake is not repeated. */
      g_assert_null (strstr (error->message, "hunter2"));
    }
}

static void
test_local_refused (void)
{
  g_autoptr(StewardServerConfig) server = NULL;
  g_autoptr(GError) error = NULL;

  server = parse_entry ("{\"command\": \"true\", \"oauth\": {\"clientId\": \"a\"}}", &error);
  g_assert_null (server);
  g_assert_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "\"oauth\" goes with a server that has a \"url\""));
}

static void
saved_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static void
test_write_back (void)
{
  g_autofree char *dir = g_dir_make_tmp ("steward-oauth-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "servers.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(StewardConfig) config = steward_config_new (file);
  g_autoptr(StewardConfig) again = steward_config_new (file);
  g_autoptr(StewardServerOAuth) oauth = NULL;
  g_autoptr(StewardServerConfig) changed = NULL;
  g_autoptr(StewardServerConfig) cleared = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  const char * const scopes[] = { "read", NULL };
  StewardServerConfig *server;
  JsonObject *block;

  g_assert_true (g_file_set_contents (path,
                                      "{\"mcpServers\": {\"hub\": {\"url\": "
                                      "\"https://mcp.example.com/mcp\", \"oauth\": "
                                      "{\"clientId\": \"old\", \"callbackPort\": 8080}}}}",
                                      -1, NULL));
  g_assert_true (steward_config_load (config, NULL, &error));
  g_assert_no_error (error);

  server = steward_config_lookup (config, "hub", &error);
  g_assert_no_error (error);
  oauth = steward_server_oauth_new ("new", "${keyring:hub-secret}", scopes, NULL);
  changed = steward_server_config_with_oauth (server, oauth);
  steward_config_put_server (config, changed);
  steward_config_save_async (config, NULL, saved_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (steward_config_save_finish (config, result, &error));
  g_assert_no_error (error);

  /* What was written reads back the same, another host's member kept. */
  g_assert_true (steward_config_load (again, NULL, &error));
  server = steward_config_lookup (again, "hub", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (steward_server_oauth_get_client_id (steward_server_config_get_oauth (server)),
                   ==, "new");
  g_assert_cmpstr (steward_server_oauth_get_scopes (steward_server_config_get_oauth (server))[0],
                   ==, "read");
  block = json_object_get_object_member (steward_server_config_get_json (server), "oauth");
  g_assert_cmpint (json_object_get_int_member (block, "callbackPort"), ==, 8080);
  g_assert_true (steward_server_config_equal (server, changed));

  /* Only a reference to the secret reaches the file. */
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, "\"${keyring:hub-secret}\""));

  cleared = steward_server_config_with_oauth (server, NULL);
  g_assert_false (json_object_has_member (steward_server_config_get_json (cleared), "oauth"));
  g_assert_null (steward_server_config_get_oauth (cleared));

  g_unlink (path);
  g_rmdir (dir);
}

static void
test_metadata_url (void)
{
  StewardServerConfig *plain;
  StewardServerConfig *own;
  GSettings *settings = g_settings_new (APPLICATION_ID);
  g_autofree char *url = NULL;

  plain = parse_entry ("{\"url\": \"https://a.example/mcp\"}", NULL);
  own = parse_entry ("{\"url\": \"https://a.example/mcp\", \"oauth\": "
                     "{\"clientMetadataUrl\": \"https://example.org/own.json\"}}", NULL);

  /* The setting's default is the published document's address. */
  url = steward_server_config_dup_client_metadata_url (plain);
  g_assert_cmpstr (url, ==, STEWARD_CLIENT_METADATA_URL);
  g_clear_pointer (&url, g_free);

  g_settings_set_string (settings, "client-metadata-url", "https://example.net/steward.json");
  url = steward_server_config_dup_client_metadata_url (plain);
  g_assert_cmpstr (url, ==, "https://example.net/steward.json");
  g_clear_pointer (&url, g_free);

  /* The entry's own wins over the setting. */
  url = steward_server_config_dup_client_metadata_url (own);
  g_assert_cmpstr (url, ==, "https://example.org/own.json");
  g_clear_pointer (&url, g_free);

  /* Empty: none offered; nonsense: none offered rather than a sign-in
   * that every such server refuses. */
  g_settings_set_string (settings, "client-metadata-url", "");
  g_assert_null (steward_server_config_dup_client_metadata_url (plain));
  g_settings_set_string (settings, "client-metadata-url", "http://example.net/x.json");
  g_assert_null (steward_server_config_dup_client_metadata_url (plain));
  g_settings_reset (settings, "client-metadata-url");

  g_assert_finalize_object (plain);
  g_assert_finalize_object (own);
  g_assert_finalize_object (settings);
}

/* Claude Desktop's file with a remote entry whose "oauth" block holds
 * members of its own: the entry imports, the block as it was. */
static void
test_import (void)
{
  static const char claude[] =
    "{\"mcpServers\": {\"hub\": {\"url\": \"https://mcp.example.com/mcp\", "
    "\"oauth\": {\"clientId\": \"from-claude\", \"callbackPort\": 8080}}}}";
  g_autoptr(GFile) file = g_file_new_for_path ("/nonexistent/servers.json");
  g_autoptr(StewardConfig) config = steward_config_new (file);
  GListModel *candidates;
  StewardImportCandidate *candidate;
  g_autoptr(GError) error = NULL;
  StewardServerOAuth *oauth;

  candidates = steward_import_parse (config, claude, strlen (claude), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (candidates), ==, 1);

  candidate = g_list_model_get_item (candidates, 0);
  g_assert_null (steward_import_candidate_get_problem (candidate));
  oauth = steward_server_config_get_oauth (steward_import_candidate_get_config (candidate));
  g_assert_nonnull (oauth);
  g_assert_cmpstr (steward_server_oauth_get_client_id (oauth), ==, "from-claude");

  g_object_unref (candidate);
  g_assert_finalize_object (candidates);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/steward/server-oauth/read", test_read);
  g_test_add_func ("/steward/server-oauth/refused", test_refused);
  g_test_add_func ("/steward/server-oauth/local-refused", test_local_refused);
  g_test_add_func ("/steward/server-oauth/write-back", test_write_back);
  g_test_add_func ("/steward/server-oauth/metadata-url", test_metadata_url);
  g_test_add_func ("/steward/server-oauth/import", test_import);

  return g_test_run ();
}

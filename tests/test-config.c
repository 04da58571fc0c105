/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-config"

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "steward-config.h"

/* Files the tests write, in a folder of their own. */
static char *tmp_dir;
static GPtrArray *tmp_files;

static GFile *
write_file (const char *name,
            const char *contents,
            gssize      length)
{
  g_autofree char *path = g_build_filename (tmp_dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, contents, length, &error);
  g_assert_no_error (error);
  g_ptr_array_add (tmp_files, g_strdup (path));

  return g_file_new_for_path (path);
}

static StewardConfig *
load_text (const char  *text,
           GError     **error)
{
  g_autoptr(GFile) file = write_file ("servers.json", text, -1);
  StewardConfig *config = steward_config_new (file);

  steward_config_load (config, NULL, error);
  return config;
}

static StewardServerConfig *
get_server (StewardConfig *config,
            guint          position)
{
  g_autoptr(StewardServerConfig) server =
    g_list_model_get_item (steward_config_get_servers (config), position);

  g_assert_nonnull (server);
  return server;
}

static void
test_valid (void)
{
  g_autoptr(GError) error = NULL;
  StewardConfig *config;
  StewardServerConfig *server;
  g_auto(GStrv) argv = NULL;
  GListModel *servers;

  config = load_text ("{\"mcpServers\": {"
                      "  \"files\": {"
                      "    \"command\": \"npx\","
                      "    \"args\": [\"-y\", \"@modelcontextprotocol/server-filesystem\","
                      "             \"/tmp\"],"
                      "    \"env\": {\"DEBUG\": \"1\", \"LANG\": \"C\"},"
                      "    \"cwd\": \"/srv\","
                      "    \"autoApprove\": [\"read_file\"]"
                      "  },"
                      "  \"bare\": {\"command\": \"/usr/bin/server\", \"disabled\": true},"
                      "  \"local\": {\"command\": \"x\", \"type\": \"stdio\"}"
                      "}}", &error);
  g_assert_no_error (error);

  servers = steward_config_get_servers (config);
  g_assert_cmpuint (g_list_model_get_n_items (servers), ==, 3);

  server = get_server (config, 0);
  g_assert_cmpstr (steward_server_config_get_name (server), ==, "files");
  g_assert_cmpstr (steward_server_config_get_command (server), ==, "npx");
  g_assert_cmpuint (g_strv_length ((GStrv) steward_server_config_get_args (server)), ==, 3);
  g_assert_cmpstr (steward_server_config_get_args (server)[2], ==, "/tmp");
  g_assert_cmpstr (g_hash_table_lookup (steward_server_config_get_env (server), "DEBUG"), ==, "1");
  g_assert_cmpuint (g_hash_table_size (steward_server_config_get_env (server)), ==, 2);
  g_assert_cmpstr (steward_server_config_get_cwd (server), ==, "/srv");
  g_assert_null (steward_server_config_get_url (server));
  g_assert_cmpuint (g_hash_table_size (steward_server_config_get_headers (server)), ==, 0);
  g_assert_cmpint (steward_server_config_get_transport (server), ==,
                   STEWARD_SERVER_TRANSPORT_STDIO);
  g_assert_false (steward_server_config_is_remote (server));
  g_assert_false (steward_server_config_get_disabled (server));
  /* Members of other hosts survive in the JSON for a later write. */
  g_assert_true (json_object_has_member (steward_server_config_get_json (server), "autoApprove"));

  argv = steward_server_config_dup_argv (server);
  g_assert_cmpuint (g_strv_length (argv), ==, 4);
  g_assert_cmpstr (argv[0], ==, "npx");
  g_assert_cmpstr (argv[3], ==, "/tmp");

  server = get_server (config, 1);
  g_assert_cmpstr (steward_server_config_get_name (server), ==, "bare");
  g_assert_true (steward_server_config_get_disabled (server));
  g_assert_nonnull (steward_server_config_get_args (server));
  g_assert_cmpuint (g_strv_length ((GStrv) steward_server_config_get_args (server)), ==, 0);
  g_assert_null (steward_server_config_get_cwd (server));

  server = get_server (config, 2);
  g_assert_cmpint (steward_server_config_get_transport (server), ==,
                   STEWARD_SERVER_TRANSPORT_STDIO);

  g_assert_finalize_object (config);
}

static void
test_remote (void)
{
  g_autoptr(GError) error = NULL;
  StewardConfig *config;
  StewardServerConfig *server;

  config = load_text ("{\"mcpServers\": {"
                      "  \"remote\": {\"url\": \"https://mcp.example.com/mcp\","
                      "             \"headers\": {\"X-Api-Version\": \"2\"}},"
                      "  \"legacy\": {\"url\": \"http://127.0.0.1:3001/sse\","
                      "              \"transport\": \"sse\"},"
                      "  \"typed\": {\"url\": \"https://example.org/\", \"type\": \"http\"}"
                      "}}", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (steward_config_get_servers (config)), ==, 3);

  server = get_server (config, 0);
  g_assert_true (steward_server_config_is_remote (server));
  g_assert_cmpstr (steward_server_config_get_url (server), ==, "https://mcp.example.com/mcp");
  g_assert_cmpint (steward_server_config_get_transport (server), ==,
                   STEWARD_SERVER_TRANSPORT_STREAMABLE_HTTP);
  g_assert_cmpstr (g_hash_table_lookup (steward_server_config_get_headers (server),
                                        "X-Api-Version"), ==, "2");
  g_assert_null (steward_server_config_get_command (server));
  g_assert_null (steward_server_config_dup_argv (server));

  server = get_server (config, 1);
  g_assert_cmpint (steward_server_config_get_transport (server), ==, STEWARD_SERVER_TRANSPORT_SSE);
  g_assert_cmpstr (steward_server_transport_to_string (STEWARD_SERVER_TRANSPORT_SSE), ==, "sse");

  server = get_server (config, 2);
  g_assert_cmpint (steward_server_config_get_transport (server), ==,
                   STEWARD_SERVER_TRANSPORT_STREAMABLE_HTTP);

  g_assert_finalize_object (config);
}

static void
test_default_file (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_config_dir (), "steward", NULL);
  g_autofree char *path = g_build_filename (dir, "servers.json", NULL);
  g_autoptr(GFile) expected = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  StewardConfig *config;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_file_set_contents (path, "{\"mcpServers\": {\"one\": {\"command\": \"true\"}}}", -1, &error);
  g_assert_no_error (error);

  config = steward_config_new (NULL);
  g_assert_true (g_file_equal (steward_config_get_file (config), expected));
  g_assert_true (steward_config_load (config, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (steward_config_get_servers (config)), ==, 1);

  g_assert_finalize_object (config);
  g_assert_cmpint (g_remove (path), ==, 0);
}

static void
test_missing_file (void)
{
  g_autofree char *path = g_build_filename (tmp_dir, "does-not-exist.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  StewardConfig *config = steward_config_new (file);

  g_assert_false (steward_config_load (config, NULL, &error));
  g_assert_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_cmpuint (g_list_model_get_n_items (steward_config_get_servers (config)), ==, 0);

  g_assert_finalize_object (config);
}

static void
test_unreadable (void)
{
  g_autoptr(GFile) file = g_file_new_for_path (tmp_dir);
  g_autoptr(GError) error = NULL;
  StewardConfig *config = steward_config_new (file);

  /* A folder where the file should be. */
  g_assert_false (steward_config_load (config, NULL, &error));
  g_assert_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_READ);
  g_assert_nonnull (strstr (error->message, tmp_dir));

  g_assert_finalize_object (config);
}

static void
test_not_json (void)
{
  static const char * const texts[] = {
    "mcpServers: {}",
    "{\"mcpServers\": {\"a\": {\"command\": \"x\",}}",
    "",
    "   \n",
    "{\"mcpServers\": {\"a\": {\"command\": \"x\"}}} trailing",
  };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr(GError) error = NULL;
      StewardConfig *config = load_text (texts[i], &error);

      g_test_message ("text: %s", texts[i]);
      g_assert_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_PARSE);
      g_assert_nonnull (strstr (error->message, "servers.json: "));
      g_assert_cmpuint (g_list_model_get_n_items (steward_config_get_servers (config)), ==, 0);
      g_assert_finalize_object (config);
    }
}

static void
test_hostile_bytes (void)
{
  g_autoptr(GString) deep = g_string_new ("{\"mcpServers\": ");
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  g_autofree char *big = NULL;
  StewardConfig *config;

  /* Deep enough to crash json-glib 1.6 if it ever saw it. */
  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  config = load_text (deep->str, &error);
  g_assert_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_PARSE);
  g_assert_finalize_object (config);
  g_clear_error (&error);

  file = write_file ("nul.json", "{\"mcpServers\": {}}\0{}", 21);
  config = steward_config_new (file);
  g_assert_false (steward_config_load (config, NULL, &error));
  g_assert_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "NUL"));
  g_assert_finalize_object (config);
  g_clear_error (&error);
  g_clear_object (&file);

  config = load_text ("{\"mcpServers\": {\"\xff\": {\"command\": \"x\"}}}", &error);
  g_assert_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_PARSE);
  g_assert_finalize_object (config);
  g_clear_error (&error);

  big = g_strnfill (STEWARD_CONFIG_MAX_FILE_SIZE + 10, ' ');
  config = load_text (big, &error);
  g_assert_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "KiB"));
  g_assert_finalize_object (config);
}

typedef struct {
  const char *json;
  const char *expected[3];
} BadCase;

static void
test_wrong_types (void)
{
  static const BadCase cases[] = {
    { "[]", { "servers.json: ", "\"mcpServers\"", "an array" } },
    { "{}", { "no \"mcpServers\"" } },
    { "{\"mcpServers\": []}", { "\"mcpServers\" must be an object", "an array" } },
    { "{\"mcpServers\": {\"files\": \"npx\"}}",
      { "server `files`", "must be an object", "a string" } },
    { "{\"mcpServers\": {\"files\": {\"command\": \"npx\", \"args\": \"-y\"}}}",
      { "servers.json: server `files`: \"args\" must be an array of strings", "a string" } },
    { "{\"mcpServers\": {\"files\": {\"command\": \"npx\", \"args\": [\"-y\", 3]}}}",
      { "server `files`", "\"args\" must be an array of strings", "item 2 is a number" } },
    { "{\"mcpServers\": {\"files\": {\"command\": 3}}}",
      { "server `files`", "\"command\" must be a non-empty string", "a number" } },
    { "{\"mcpServers\": {\"files\": {\"command\": \"\"}}}",
      { "server `files`", "\"command\"", "an empty string" } },
    { "{\"mcpServers\": {\"files\": {\"command\": \"npx\", \"env\": [\"A=1\"]}}}",
      { "server `files`", "\"env\" must be an object", "an array" } },
    { "{\"mcpServers\": {\"files\": {\"command\": \"npx\", \"env\": {\"PORT\": 8080}}}}",
      { "server `files`", "\"env\"", "`PORT` is a number" } },
    { "{\"mcpServers\": {\"files\": {\"command\": \"npx\", \"env\": {\"A=B\": \"1\"}}}}",
      { "server `files`", "\"env\" has an invalid name" } },
    { "{\"mcpServers\": {\"files\": {\"command\": \"npx\", \"cwd\": \"src\"}}}",
      { "server `files`", "\"cwd\" must be an absolute path" } },
    { "{\"mcpServers\": {\"files\": {\"command\": \"npx\", \"disabled\": \"yes\"}}}",
      { "server `files`", "\"disabled\" must be true or false", "a string" } },
    { "{\"mcpServers\": {\"files\": {\"command\": \"npx\", \"url\": \"https://a.example\"}}}",
      { "server `files`", "both \"command\" and \"url\"" } },
    { "{\"mcpServers\": {\"files\": {\"args\": []}}}",
      { "server `files`", "needs \"command\"" } },
    { "{\"mcpServers\": {\"files\": {\"command\": \"npx\", \"transport\": \"sse\"}}}",
      { "server `files`", "\"transport\" must be \"stdio\"" } },
    { "{\"mcpServers\": {\"web\": {\"url\": \"ftp://a.example/\"}}}",
      { "server `web`", "\"url\" must be an http:// or https:// URL" } },
    { "{\"mcpServers\": {\"web\": {\"url\": \"not a url\"}}}",
      { "server `web`", "\"url\"" } },
    { "{\"mcpServers\": {\"web\": {\"url\": \"https://a.example\", \"transport\": \"ws\"}}}",
      { "server `web`", "\"transport\" must be \"streamable-http\" or \"sse\"" } },
    { "{\"mcpServers\": {\"web\": {\"url\": \"https://a.example\", \"type\": \"stdio\"}}}",
      { "server `web`", "\"type\" must be \"streamable-http\" or \"sse\"" } },
    { "{\"mcpServers\": {\"web\": {\"url\": \"https://a.example\","
      " \"headers\": {\"X\": \"a\\r\\nB: c\"}}}}",
      { "server `web`", "\"headers\"", "line breaks" } },
    { "{\"mcpServers\": {\"web\": {\"url\": \"https://a.example\","
      " \"headers\": {\"Bad Name\": \"a\"}}}}",
      { "server `web`", "\"headers\" has an invalid name" } },
    { "{\"mcpServers\": {\"web\": {\"url\": \"https://a.example\", \"headers\": {\"X\": true}}}}",
      { "server `web`", "\"headers\"", "a boolean" } },
    { "{\"mcpServers\": {\"\": {\"command\": \"x\"}}}", { "empty name" } },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      StewardConfig *config = load_text (cases[i].json, &error);

      g_test_message ("case %u: %s", i, cases[i].json);
      g_assert_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_INVALID);
      g_test_message ("error: %s", error->message);
      g_assert_true (g_str_has_prefix (error->message, tmp_dir));
      g_assert_nonnull (strstr (error->message, "servers.json: "));
      for (guint j = 0; j < G_N_ELEMENTS (cases[i].expected) && cases[i].expected[j]; j++)
        g_assert_nonnull (strstr (error->message, cases[i].expected[j]));
      g_assert_cmpuint (g_list_model_get_n_items (steward_config_get_servers (config)), ==, 0);
      g_assert_finalize_object (config);
    }
}

static void
items_changed_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  guint      *count)
{
  (*count)++;
}

static void
test_reload (void)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  StewardConfig *config;
  guint changes = 0;

  file = write_file ("reload.json", "{\"mcpServers\": {\"a\": {\"command\": \"x\"}, "
                                    "\"b\": {\"command\": \"y\"}}}", -1);
  config = steward_config_new (file);
  g_signal_connect (steward_config_get_servers (config), "items-changed",
                    G_CALLBACK (items_changed_cb), &changes);

  g_assert_true (steward_config_load (config, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (changes, ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (steward_config_get_servers (config)), ==, 2);

  /* A broken file keeps what was there: a typo must not make servers vanish. */
  g_assert_false (steward_config_load_from_data (config, "{\"mcpServers\": 1}", 17, &error));
  g_assert_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "reload.json"));
  g_assert_cmpuint (changes, ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (steward_config_get_servers (config)), ==, 2);
  g_clear_error (&error);

  g_assert_true (steward_config_load_from_data (config, "{\"mcpServers\": {}}", 18, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (changes, ==, 2);
  g_assert_cmpuint (g_list_model_get_n_items (steward_config_get_servers (config)), ==, 0);

  g_assert_finalize_object (config);
}

static void
test_lookup (void)
{
  g_autoptr(GError) error = NULL;
  StewardConfig *config;
  StewardServerConfig *server;

  config = load_text ("{\"mcpServers\": {\"alpha\": {\"command\": \"a\"}, "
                      "\"beta\": {\"url\": \"https://b.example\"}}}", &error);
  g_assert_no_error (error);

  server = steward_config_lookup (config, "beta", &error);
  g_assert_no_error (error);
  g_assert_nonnull (server);
  g_assert_cmpstr (steward_server_config_get_url (server), ==, "https://b.example");

  server = steward_config_lookup (config, "gamma", &error);
  g_assert_null (server);
  g_assert_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_NO_SUCH_SERVER);
  g_assert_nonnull (strstr (error->message, "`gamma`"));
  g_assert_nonnull (strstr (error->message, "`alpha`, `beta`"));
  g_clear_error (&error);

  g_assert_true (steward_config_load_from_data (config, "{\"mcpServers\": {}}", 18, &error));
  server = steward_config_lookup (config, "alpha", &error);
  g_assert_null (server);
  g_assert_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_NO_SUCH_SERVER);
  g_assert_nonnull (strstr (error->message, "no servers"));

  g_assert_finalize_object (config);
}

static void
load_async_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static gboolean
load_async (StewardConfig  *config,
            GError        **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  steward_config_load_async (config, NULL, load_async_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);

  return steward_config_load_finish (config, result, error);
}

static void
test_async (void)
{
  g_autofree char *missing_path = g_build_filename (tmp_dir, "missing.json", NULL);
  g_autoptr(GFile) missing = g_file_new_for_path (missing_path);
  g_autoptr(GFile) good = write_file ("async.json",
                                      "{\"mcpServers\": {\"a\": {\"command\": \"x\"}}}", -1);
  g_autofree char *big_text = g_strnfill (STEWARD_CONFIG_MAX_FILE_SIZE * 3, ' ');
  g_autoptr(GFile) big = write_file ("big.json", big_text, -1);
  g_autoptr(GError) error = NULL;
  StewardConfig *config;

  config = steward_config_new (good);
  g_assert_true (load_async (config, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (steward_config_get_servers (config)), ==, 1);
  g_assert_finalize_object (config);

  config = steward_config_new (missing);
  g_assert_false (load_async (config, &error));
  g_assert_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_NOT_FOUND);
  g_assert_finalize_object (config);
  g_clear_error (&error);

  config = steward_config_new (big);
  g_assert_false (load_async (config, &error));
  g_assert_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "big.json"));
  g_assert_finalize_object (config);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tmp_dir = g_dir_make_tmp ("steward-test-config-XXXXXX", &error);
  g_assert_no_error (error);
  tmp_files = g_ptr_array_new_with_free_func (g_free);

  g_test_add_func ("/steward/config/valid", test_valid);
  g_test_add_func ("/steward/config/remote", test_remote);
  g_test_add_func ("/steward/config/default-file", test_default_file);
  g_test_add_func ("/steward/config/missing-file", test_missing_file);
  g_test_add_func ("/steward/config/unreadable", test_unreadable);
  g_test_add_func ("/steward/config/not-json", test_not_json);
  g_test_add_func ("/steward/config/hostile-bytes", test_hostile_bytes);
  g_test_add_func ("/steward/config/wrong-types", test_wrong_types);
  g_test_add_func ("/steward/config/reload", test_reload);
  g_test_add_func ("/steward/config/lookup", test_lookup);
  g_test_add_func ("/steward/config/async", test_async);

  status = g_test_run ();

  for (guint i = 0; i < tmp_files->len; i++)
    g_remove (g_ptr_array_index (tmp_files, i));
  g_rmdir (tmp_dir);
  g_clear_pointer (&tmp_files, g_ptr_array_unref);
  g_clear_pointer (&tmp_dir, g_free);

  return status;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-config"

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

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

  /* Sorted by name, whatever the order of the file. */
  server = get_server (config, 1);
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

  server = get_server (config, 0);
  g_assert_cmpstr (steward_server_config_get_name (server), ==, "bare");
  g_assert_true (steward_server_config_get_disabled (server));
  g_assert_nonnull (steward_server_config_get_args (server));
  g_assert_cmpuint (g_strv_length ((GStrv) steward_server_config_get_args (server)), ==, 0);
  g_assert_null (steward_server_config_get_cwd (server));

  server = get_server (config, 2);
  g_assert_cmpstr (steward_server_config_get_name (server), ==, "local");
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

  server = get_server (config, 1);
  g_assert_cmpstr (steward_server_config_get_name (server), ==, "remote");
  g_assert_true (steward_server_config_is_remote (server));
  g_assert_cmpstr (steward_server_config_get_url (server), ==, "https://mcp.example.com/mcp");
  g_assert_cmpint (steward_server_config_get_transport (server), ==,
                   STEWARD_SERVER_TRANSPORT_STREAMABLE_HTTP);
  g_assert_cmpstr (g_hash_table_lookup (steward_server_config_get_headers (server),
                                        "X-Api-Version"), ==, "2");
  g_assert_null (steward_server_config_get_command (server));
  g_assert_null (steward_server_config_dup_argv (server));

  server = get_server (config, 0);
  g_assert_cmpstr (steward_server_config_get_name (server), ==, "legacy");
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
    { "{\"mcpServers\": {\"files\": {\"command\": \"npx\", \"network\": 1}}}",
      { "server `files`", "\"network\" must be true or false", "a number" } },
    { "{\"mcpServers\": {\"files\": {\"command\": \"npx\", \"runOnHost\": \"yes\"}}}",
      { "server `files`", "\"runOnHost\" must be true or false", "a string" } },
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

/* Writing, watching and consent */

#define WAIT_TIMEOUT_S 10
/* Longer than the reload delay, to see that nothing more comes. */
#define QUIET_MS 600

static gboolean
timed_out_cb (gpointer user_data)
{
  g_error ("Timed out waiting for %s", (const char *) user_data);
  return G_SOURCE_REMOVE;
}

static void
wait_until (gboolean   *condition,
            const char *what)
{
  guint timeout = g_timeout_add_seconds (WAIT_TIMEOUT_S, timed_out_cb, (gpointer) what);

  while (!*condition)
    g_main_context_iteration (NULL, TRUE);

  g_source_remove (timeout);
}

static gboolean
set_true_cb (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Lets the main loop run for a while, so that what would come late, comes. */
static void
run_quietly (void)
{
  gboolean done = FALSE;

  g_timeout_add (QUIET_MS, set_true_cb, &done);
  wait_until (&done, "a quiet moment");
}

/* A folder of its own under tmp_dir, removed at the end with the rest. */
static char *
make_folder (const char *name)
{
  g_autofree char *path = g_build_filename (tmp_dir, name, NULL);

  g_assert_cmpint (g_mkdir_with_parents (path, 0700), ==, 0);
  return g_steal_pointer (&path);
}

static void
save (StewardConfig *config)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  steward_config_save_async (config, NULL, load_async_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);

  g_assert_true (steward_config_save_finish (config, result, &error));
  g_assert_no_error (error);
}

/* Drops the last reference and waits until background writes, which hold
 * one of their own, are done and the config is gone. */
static void
drop_config (StewardConfig *config)
{
  guint timeout = g_timeout_add_seconds (WAIT_TIMEOUT_S, timed_out_cb, "the config to go");

  g_object_add_weak_pointer (G_OBJECT (config), (gpointer *) &config);
  g_object_unref (config);
  while (config != NULL)
    g_main_context_iteration (NULL, TRUE);

  g_source_remove (timeout);
}

static GHashTable *
string_table (const char *first,
              ...)
{
  GHashTable *table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  va_list args;

  va_start (args, first);
  for (const char *key = first; key != NULL; key = va_arg (args, const char *))
    g_hash_table_insert (table, g_strdup (key), g_strdup (va_arg (args, const char *)));
  va_end (args);

  return table;
}

static void
test_builders (void)
{
  static const char * const args[] = { "-y", "@modelcontextprotocol/server-filesystem", NULL };
  g_autoptr(GHashTable) env = string_table ("ROOT", "/srv", "API_KEY", "${keyring:abc}", NULL);
  g_autoptr(GHashTable) headers = string_table ("Authorization", "Bearer ${keyring:x}", NULL);
  StewardServerConfig *stdio;
  StewardServerConfig *remote;
  StewardServerConfig *disabled;
  StewardServerConfig *enabled;
  StewardServerConfig *renamed;
  StewardServerConfig *modern;
  StewardServerConfig *sandboxed;
  StewardServerConfig *on_host;
  StewardServerConfig *unsandboxed;
  JsonObject *json;

  stdio = steward_server_config_new_stdio ("files", "npx", args, env, "/home/me");
  g_assert_cmpstr (steward_server_config_get_name (stdio), ==, "files");
  g_assert_cmpstr (steward_server_config_get_command (stdio), ==, "npx");
  g_assert_cmpstrv (steward_server_config_get_args (stdio), args);
  g_assert_cmpstr (g_hash_table_lookup (steward_server_config_get_env (stdio), "API_KEY"), ==,
                   "${keyring:abc}");
  g_assert_cmpstr (steward_server_config_get_cwd (stdio), ==, "/home/me");
  g_assert_false (steward_server_config_get_disabled (stdio));
  json = steward_server_config_get_json (stdio);
  g_assert_false (json_object_has_member (json, "transport"));
  g_assert_false (json_object_has_member (json, "disabled"));

  remote = steward_server_config_new_remote ("web", "http://127.0.0.1:3001/sse",
                                             STEWARD_SERVER_TRANSPORT_SSE, headers);
  g_assert_cmpint (steward_server_config_get_transport (remote), ==, STEWARD_SERVER_TRANSPORT_SSE);
  g_assert_cmpstr (json_object_get_string_member (steward_server_config_get_json (remote),
                                                  "transport"), ==, "sse");
  g_assert_cmpstr (g_hash_table_lookup (steward_server_config_get_headers (remote),
                                        "Authorization"), ==, "Bearer ${keyring:x}");

  /* Streamable HTTP is the default and needs no member. */
  modern = steward_server_config_new_remote ("web", "https://mcp.example.com/mcp",
                                             STEWARD_SERVER_TRANSPORT_STREAMABLE_HTTP, NULL);
  g_assert_cmpint (steward_server_config_get_transport (modern), ==,
                   STEWARD_SERVER_TRANSPORT_STREAMABLE_HTTP);
  g_assert_false (json_object_has_member (steward_server_config_get_json (modern), "transport"));
  g_assert_false (json_object_has_member (steward_server_config_get_json (modern), "headers"));

  disabled = steward_server_config_with_disabled (stdio, TRUE);
  g_assert_true (steward_server_config_get_disabled (disabled));
  g_assert_true (json_object_get_boolean_member (steward_server_config_get_json (disabled),
                                                 "disabled"));
  g_assert_cmpstr (steward_server_config_get_cwd (disabled), ==, "/home/me");
  /* The original is untouched: configs are immutable. */
  g_assert_false (steward_server_config_get_disabled (stdio));
  g_assert_false (json_object_has_member (steward_server_config_get_json (stdio), "disabled"));

  enabled = steward_server_config_with_disabled (disabled, FALSE);
  g_assert_false (steward_server_config_get_disabled (enabled));
  g_assert_true (steward_server_config_equal (enabled, stdio));
  g_assert_false (steward_server_config_equal (disabled, stdio));

  renamed = steward_server_config_with_name (stdio, "files-2");
  g_assert_cmpstr (steward_server_config_get_name (renamed), ==, "files-2");
  g_assert_false (steward_server_config_equal (renamed, stdio));

  g_assert_false (steward_server_config_get_network (stdio));
  g_assert_false (steward_server_config_get_run_on_host (stdio));
  sandboxed = steward_server_config_with_sandbox (stdio, TRUE, FALSE);
  g_assert_true (steward_server_config_get_network (sandboxed));
  g_assert_false (steward_server_config_get_run_on_host (sandboxed));
  json = steward_server_config_get_json (sandboxed);
  g_assert_true (json_object_get_boolean_member (json, "network"));
  g_assert_false (json_object_has_member (json, "runOnHost"));
  on_host = steward_server_config_with_sandbox (sandboxed, FALSE, TRUE);
  g_assert_false (steward_server_config_get_network (on_host));
  g_assert_true (steward_server_config_get_run_on_host (on_host));
  json = steward_server_config_get_json (on_host);
  g_assert_false (json_object_has_member (json, "network"));
  g_assert_true (json_object_get_boolean_member (json, "runOnHost"));
  unsandboxed = steward_server_config_with_sandbox (on_host, FALSE, FALSE);
  g_assert_true (steward_server_config_equal (unsandboxed, stdio));

  g_assert_finalize_object (unsandboxed);
  g_assert_finalize_object (on_host);
  g_assert_finalize_object (sandboxed);
  g_assert_finalize_object (renamed);
  g_assert_finalize_object (enabled);
  g_assert_finalize_object (disabled);
  g_assert_finalize_object (modern);
  g_assert_finalize_object (remote);
  g_assert_finalize_object (stdio);
}

static char *
fingerprint_of (const char *entry)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(StewardServerConfig) server = NULL;

  json_parser_load_from_data (parser, entry, -1, &error);
  g_assert_no_error (error);
  server = steward_server_config_new_from_json ("s", json_node_get_object (
                                                  json_parser_get_root (parser)), &error);
  g_assert_no_error (error);

  return steward_server_config_dup_fingerprint (server);
}

static void
test_fingerprint (void)
{
  static const char *base_stdio =
    "{\"command\": \"npx\", \"args\": [\"-y\", \"pkg\"], \"cwd\": \"/srv\","
    " \"env\": {\"A\": \"1\", \"B\": \"${keyring:k}\"}}";
  static const char *same_stdio[] = {
    /* Another order of members and variables, and what consent does not
     * cover. */
    "{\"env\": {\"B\": \"${keyring:k}\", \"A\": \"1\"}, \"cwd\": \"/srv\","
    " \"args\": [\"-y\", \"pkg\"], \"command\": \"npx\"}",
    "{\"command\": \"npx\", \"args\": [\"-y\", \"pkg\"], \"cwd\": \"/srv\","
    " \"env\": {\"A\": \"1\", \"B\": \"${keyring:k}\"}, \"disabled\": true,"
    " \"autoApprove\": [\"x\"]}",
    "{\"command\": \"npx\", \"args\": [\"-y\", \"pkg\"], \"cwd\": \"/srv\","
    " \"env\": {\"A\": \"1\", \"B\": \"${keyring:k}\"}, \"type\": \"stdio\"}",
    /* What is false when left out keeps the fingerprint consents have. */
    "{\"command\": \"npx\", \"args\": [\"-y\", \"pkg\"], \"cwd\": \"/srv\","
    " \"env\": {\"A\": \"1\", \"B\": \"${keyring:k}\"}, \"display\": false,"
    " \"runOnHost\": false, \"readable\": []}",
  };
  static const char *other_stdio[] = {
    "{\"command\": \"uvx\", \"args\": [\"-y\", \"pkg\"], \"cwd\": \"/srv\","
    " \"env\": {\"A\": \"1\", \"B\": \"${keyring:k}\"}}",
    "{\"command\": \"npx\", \"args\": [\"pkg\", \"-y\"], \"cwd\": \"/srv\","
    " \"env\": {\"A\": \"1\", \"B\": \"${keyring:k}\"}}",
    "{\"command\": \"npx\", \"args\": [\"-y\", \"pkg\", \"/\"], \"cwd\": \"/srv\","
    " \"env\": {\"A\": \"1\", \"B\": \"${keyring:k}\"}}",
    "{\"command\": \"npx\", \"args\": [\"-y\", \"pkg\"], \"cwd\": \"/home\","
    " \"env\": {\"A\": \"1\", \"B\": \"${keyring:k}\"}}",
    "{\"command\": \"npx\", \"args\": [\"-y\", \"pkg\"],"
    " \"env\": {\"A\": \"1\", \"B\": \"${keyring:k}\"}}",
    "{\"command\": \"npx\", \"args\": [\"-y\", \"pkg\"], \"cwd\": \"/srv\","
    " \"env\": {\"A\": \"2\", \"B\": \"${keyring:k}\"}}",
    "{\"command\": \"npx\", \"args\": [\"-y\", \"pkg\"], \"cwd\": \"/srv\","
    " \"env\": {\"A\": \"1\", \"C\": \"${keyring:k}\"}}",
    "{\"command\": \"npx\", \"args\": [\"-y\", \"pkg\"], \"cwd\": \"/srv\","
    " \"env\": {\"A\": \"1\", \"B\": \"${keyring:other}\"}}",
    "{\"command\": \"npx\", \"args\": [\"-y\", \"pkg\"], \"cwd\": \"/srv\","
    " \"env\": {\"A\": \"1\"}}",
    /* Arguments that would join to the same text. */
    "{\"command\": \"npx\", \"args\": [\"-y pkg\"], \"cwd\": \"/srv\","
    " \"env\": {\"A\": \"1\", \"B\": \"${keyring:k}\"}}",
    /* In Flatpak: the network in its sandbox, or the whole computer. */
    "{\"command\": \"npx\", \"args\": [\"-y\", \"pkg\"], \"cwd\": \"/srv\","
    " \"env\": {\"A\": \"1\", \"B\": \"${keyring:k}\"}, \"network\": true}",
    "{\"command\": \"npx\", \"args\": [\"-y\", \"pkg\"], \"cwd\": \"/srv\","
    " \"env\": {\"A\": \"1\", \"B\": \"${keyring:k}\"}, \"runOnHost\": true}",
    /* The sandbox's permissions: the network turned off where the default
     * would allow it, the display, and folders to read. */
    "{\"command\": \"npx\", \"args\": [\"-y\", \"pkg\"], \"cwd\": \"/srv\","
    " \"env\": {\"A\": \"1\", \"B\": \"${keyring:k}\"}, \"network\": false}",
    "{\"command\": \"npx\", \"args\": [\"-y\", \"pkg\"], \"cwd\": \"/srv\","
    " \"env\": {\"A\": \"1\", \"B\": \"${keyring:k}\"}, \"display\": true}",
    "{\"command\": \"npx\", \"args\": [\"-y\", \"pkg\"], \"cwd\": \"/srv\","
    " \"env\": {\"A\": \"1\", \"B\": \"${keyring:k}\"}, \"readable\": [\"/srv/d\"]}",
  };
  static const char *base_remote =
    "{\"url\": \"https://a.example/mcp\", \"headers\": {\"X-Key\": \"1\"}}";
  static const char *same_remote[] = {
    "{\"headers\": {\"X-Key\": \"2\"}, \"url\": \"https://a.example/mcp\"}",
    "{\"url\": \"https://a.example/mcp\", \"headers\": {\"x-key\": \"1\"}}",
  };
  static const char *other_remote[] = {
    "{\"url\": \"https://b.example/mcp\", \"headers\": {\"X-Key\": \"1\"}}",
    "{\"url\": \"https://a.example/mcp\", \"headers\": {\"X-Other\": \"1\"}}",
    "{\"url\": \"https://a.example/mcp\"}",
    "{\"url\": \"https://a.example/mcp\", \"headers\": {\"X-Key\": \"1\"},"
    " \"transport\": \"sse\"}",
  };
  g_autofree char *stdio = fingerprint_of (base_stdio);
  g_autofree char *remote = fingerprint_of (base_remote);

  g_assert_cmpuint (strlen (stdio), ==, 64);
  g_assert_cmpstr (stdio, !=, remote);

  for (guint i = 0; i < G_N_ELEMENTS (same_stdio); i++)
    {
      g_autofree char *fingerprint = fingerprint_of (same_stdio[i]);

      g_test_message ("same: %s", same_stdio[i]);
      g_assert_cmpstr (fingerprint, ==, stdio);
    }

  for (guint i = 0; i < G_N_ELEMENTS (other_stdio); i++)
    {
      g_autofree char *fingerprint = fingerprint_of (other_stdio[i]);

      g_test_message ("other: %s", other_stdio[i]);
      g_assert_cmpstr (fingerprint, !=, stdio);

      for (guint j = 0; j < i; j++)
        {
          g_autofree char *earlier = fingerprint_of (other_stdio[j]);

          g_assert_cmpstr (fingerprint, !=, earlier);
        }
    }

  for (guint i = 0; i < G_N_ELEMENTS (same_remote); i++)
    {
      g_autofree char *fingerprint = fingerprint_of (same_remote[i]);

      g_test_message ("same: %s", same_remote[i]);
      g_assert_cmpstr (fingerprint, ==, remote);
    }

  for (guint i = 0; i < G_N_ELEMENTS (other_remote); i++)
    {
      g_autofree char *fingerprint = fingerprint_of (other_remote[i]);

      g_test_message ("other: %s", other_remote[i]);
      g_assert_cmpstr (fingerprint, !=, remote);
    }
}

typedef struct {
  guint position;
  guint removed;
  guint added;
} Change;

static void
record_change_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  GArray     *changes)
{
  Change change = { position, removed, added };

  g_array_append_val (changes, change);
}

static void
assert_change (GArray *changes,
               guint   index,
               guint   position,
               guint   removed,
               guint   added)
{
  Change *change;

  g_assert_cmpuint (changes->len, >, index);
  change = &g_array_index (changes, Change, index);
  g_assert_cmpuint (change->position, ==, position);
  g_assert_cmpuint (change->removed, ==, removed);
  g_assert_cmpuint (change->added, ==, added);
}

static const char *
name_at (StewardConfig *config,
         guint          position)
{
  return steward_server_config_get_name (get_server (config, position));
}

static void
test_put_remove (void)
{
  g_autoptr(GArray) changes = g_array_new (FALSE, FALSE, sizeof (Change));
  g_autoptr(GError) error = NULL;
  StewardServerConfig *server;
  StewardServerConfig *replacement;
  StewardServerConfig *kept;
  StewardConfig *config;
  GListModel *servers;

  config = load_text ("{\"mcpServers\": {\"charlie\": {\"command\": \"c\"},"
                      " \"alpha\": {\"command\": \"a\", \"autoApprove\": [\"read\"]}}}", &error);
  g_assert_no_error (error);
  servers = steward_config_get_servers (config);
  g_signal_connect (servers, "items-changed", G_CALLBACK (record_change_cb), changes);

  server = steward_server_config_new_stdio ("bravo", "b", NULL, NULL, NULL);
  steward_config_put_server (config, server);
  g_assert_cmpuint (changes->len, ==, 1);
  assert_change (changes, 0, 1, 0, 1);
  g_assert_cmpstr (name_at (config, 0), ==, "alpha");
  g_assert_cmpstr (name_at (config, 1), ==, "bravo");
  g_assert_cmpstr (name_at (config, 2), ==, "charlie");
  g_assert_true (get_server (config, 1) == server);

  /* Names sort without regard to case, and before the ones after them. */
  replacement = steward_server_config_new_stdio ("Delta", "d", NULL, NULL, NULL);
  steward_config_put_server (config, replacement);
  assert_change (changes, 1, 3, 0, 1);
  g_clear_object (&replacement);

  /* Replacing keeps the position, in one change, and the members of the
   * old entry that Steward does not know. */
  replacement = steward_server_config_new_stdio ("alpha", "a2", NULL, NULL, NULL);
  steward_config_put_server (config, replacement);
  g_assert_cmpuint (changes->len, ==, 3);
  assert_change (changes, 2, 0, 1, 1);
  kept = steward_config_lookup (config, "alpha", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (steward_server_config_get_command (kept), ==, "a2");
  g_assert_true (json_object_has_member (steward_server_config_get_json (kept), "autoApprove"));
  g_assert_cmpuint (g_list_model_get_n_items (servers), ==, 4);

  g_assert_true (steward_config_remove_server (config, "charlie"));
  assert_change (changes, 3, 2, 1, 0);
  g_assert_false (steward_config_remove_server (config, "charlie"));
  g_assert_cmpuint (changes->len, ==, 4);
  g_assert_cmpuint (g_list_model_get_n_items (servers), ==, 3);
  g_assert_null (steward_config_lookup (config, "charlie", NULL));

  g_signal_handlers_disconnect_by_data (servers, changes);
  g_assert_finalize_object (config);
  g_assert_finalize_object (replacement);
  g_assert_finalize_object (server);
}

static char *
read_text (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

static guint
count_entries (const char *folder)
{
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  guint n = 0;

  g_assert_nonnull (dir);
  while (g_dir_read_name (dir) != NULL)
    n++;

  return n;
}

static void
test_write (void)
{
  g_autofree char *folder = g_build_filename (tmp_dir, "write", "new", "steward", NULL);
  g_autofree char *path = g_build_filename (folder, "servers.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GHashTable) env = string_table ("TOKEN", "${keyring:t1}", "LANG", "C", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  StewardServerConfig *server;
  StewardConfig *config;
  StewardConfig *again;
  GStatBuf st;

  /* A folder that does not exist yet is made, private. */
  config = steward_config_new (file);
  server = steward_server_config_new_stdio ("zeta", "z", NULL, env, NULL);
  steward_config_put_server (config, server);
  g_clear_object (&server);
  server = steward_server_config_new_remote ("alpha", "http://127.0.0.1:1/sse",
                                             STEWARD_SERVER_TRANSPORT_SSE, NULL);
  steward_config_put_server (config, server);
  g_clear_object (&server);
  save (config);

  g_assert_cmpint (g_stat (folder, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0700);
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  g_assert_cmpuint (count_entries (folder), ==, 1);

  text = read_text (path);
  g_test_message ("%s", text);
  g_assert_cmpstr (text, ==,
                   "{\n"
                   "  \"mcpServers\": {\n"
                   "    \"alpha\": {\n"
                   "      \"url\": \"http://127.0.0.1:1/sse\",\n"
                   "      \"transport\": \"sse\"\n"
                   "    },\n"
                   "    \"zeta\": {\n"
                   "      \"command\": \"z\",\n"
                   "      \"env\": {\n"
                   "        \"LANG\": \"C\",\n"
                   "        \"TOKEN\": \"${keyring:t1}\"\n"
                   "      }\n"
                   "    }\n"
                   "  }\n"
                   "}\n");
  g_clear_pointer (&text, g_free);

  /* What was written reads back the same. */
  again = steward_config_new (file);
  g_assert_true (steward_config_load (again, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (steward_config_get_servers (again)), ==, 2);
  for (guint i = 0; i < 2; i++)
    g_assert_true (steward_server_config_equal (get_server (config, i), get_server (again, i)));
  g_assert_finalize_object (again);

  /* A file others could read becomes private; the write goes through a
   * file beside it that is renamed over it, and nothing else stays. */
  g_assert_cmpint (g_chmod (path, 0644), ==, 0);
  g_assert_true (steward_config_remove_server (config, "alpha"));
  save (config);
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  g_assert_cmpuint (count_entries (folder), ==, 1);
  text = read_text (path);
  g_assert_null (strstr (text, "alpha"));

  g_assert_finalize_object (config);
}

static void
test_write_keeps_unknown (void)
{
  static const char *original =
    "{\n"
    "  \"globalShortcut\": \"Ctrl+Space\",\n"
    "  \"mcpServers\": {\n"
    "    \"files\": {\"command\": \"npx\", \"autoApprove\": [\"read\"],"
    " \"timeout\": 30, \"ratio\": 0.5, \"scale\": 1.0, \"note\": null, \"nested\": {\"a\": [1, {\"b\": true}]}},\n"
    "    \"after\": {\"url\": \"https://a.example\", \"type\": \"http\"}\n"
    "  },\n"
    "  \"theme\": {\"dark\": true, \"names\": [\"a\\\"b\", \"tab\\there\", \"\\u0001\"]}\n"
    "}\n";
  g_autofree char *folder = make_folder ("unknown");
  g_autofree char *path = g_build_filename (folder, "servers.json", NULL);
  g_autoptr(GFile) file = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GList) members = NULL;
  g_autofree char *text = NULL;
  g_autoptr(JsonParser) expected = json_parser_new ();
  StewardServerConfig *server;
  StewardServerConfig *plain;
  StewardServerConfig *sandboxed;
  StewardConfig *config;
  JsonObject *root;
  JsonObject *files;

  g_file_set_contents (path, original, -1, &error);
  g_assert_no_error (error);
  file = g_file_new_for_path (path);
  config = steward_config_new (file);
  g_assert_true (steward_config_load (config, NULL, &error));
  g_assert_no_error (error);

  server = steward_server_config_new_stdio ("middle", "m", NULL, NULL, NULL);
  steward_config_put_server (config, server);
  g_clear_object (&server);
  save (config);

  text = read_text (path);
  g_test_message ("%s", text);
  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));

  /* Top-level members in their places. */
  members = json_object_get_members (root);
  g_assert_cmpuint (g_list_length (members), ==, 3);
  g_assert_cmpstr (g_list_nth_data (members, 0), ==, "globalShortcut");
  g_assert_cmpstr (g_list_nth_data (members, 1), ==, "mcpServers");
  g_assert_cmpstr (g_list_nth_data (members, 2), ==, "theme");
  g_clear_pointer (&members, g_list_free);

  json_parser_load_from_data (expected, original, -1, &error);
  g_assert_no_error (error);
  g_assert_true (json_node_equal (json_object_get_member (root, "theme"),
                                  json_object_get_member (json_node_get_object (
                                    json_parser_get_root (expected)), "theme")));

  /* Servers by name, with the members of other hosts, values as they were. */
  members = json_object_get_members (json_object_get_object_member (root, "mcpServers"));
  g_assert_cmpuint (g_list_length (members), ==, 3);
  g_assert_cmpstr (g_list_nth_data (members, 0), ==, "after");
  g_assert_cmpstr (g_list_nth_data (members, 1), ==, "files");
  g_assert_cmpstr (g_list_nth_data (members, 2), ==, "middle");
  files = json_object_get_object_member (json_object_get_object_member (root, "mcpServers"),
                                         "files");
  g_assert_true (json_node_equal (json_object_get_member (files, "nested"),
                                  json_object_get_member (
                                    json_object_get_object_member (
                                      json_object_get_object_member (
                                        json_node_get_object (json_parser_get_root (expected)),
                                        "mcpServers"), "files"), "nested")));
  g_assert_cmpint (json_object_get_int_member (files, "timeout"), ==, 30);
  g_assert_cmpfloat (json_object_get_double_member (files, "ratio"), ==, 0.5);
  /* A whole number written as a double stays one. */
  g_assert_cmpint (json_node_get_value_type (json_object_get_member (files, "scale")), ==,
                   G_TYPE_DOUBLE);
  g_assert_true (json_object_get_null_member (files, "note"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (files, "autoApprove")),
                    ==, 1);
  g_assert_cmpstr (json_object_get_string_member (
                     json_object_get_object_member (
                       json_object_get_object_member (root, "mcpServers"), "after"),
                     "type"), ==, "http");

  /* The sandbox members are Steward's own: an edit without them drops
   * them, while the other hosts' members stay. */
  plain = steward_server_config_new_stdio ("files", "npx", NULL, NULL, NULL);
  sandboxed = steward_server_config_with_sandbox (plain, TRUE, TRUE);
  steward_config_put_server (config, sandboxed);
  steward_config_put_server (config, plain);
  server = steward_config_lookup (config, "files", &error);
  g_assert_no_error (error);
  g_assert_false (steward_server_config_get_network (server));
  g_assert_false (steward_server_config_get_run_on_host (server));
  g_assert_true (json_object_has_member (steward_server_config_get_json (server), "autoApprove"));
  g_assert_finalize_object (sandboxed);
  g_assert_finalize_object (plain);

  g_assert_finalize_object (config);
}

static void
test_write_symlink (void)
{
  g_autofree char *folder = make_folder ("linked");
  g_autofree char *real = g_build_filename (folder, "real.json", NULL);
  g_autofree char *link = g_build_filename (folder, "servers.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (link);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  StewardConfig *config;

  g_file_set_contents (real, "{\"mcpServers\": {\"a\": {\"command\": \"a\"}}}", -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (symlink ("real.json", link), ==, 0);

  config = steward_config_new (file);
  g_assert_true (steward_config_load (config, NULL, &error));
  g_assert_true (steward_config_remove_server (config, "a"));
  save (config);

  /* A servers file kept elsewhere, as dotfile managers do, stays there. */
  g_assert_true (g_file_test (link, G_FILE_TEST_IS_SYMLINK));
  text = read_text (real);
  g_assert_cmpstr (text, ==, "{\n  \"mcpServers\": {}\n}\n");

  g_assert_finalize_object (config);
}

static void
count_cb (gpointer  instance,
          guint    *count)
{
  (*count)++;
}

static void
load_failed_cb (StewardConfig  *config,
                const GError   *error,
                GError        **out)
{
  g_clear_error (out);
  *out = g_error_copy (error);
}

static void
changed_flag_cb (StewardConfig *config,
                 gboolean      *flag)
{
  *flag = TRUE;
}

static void
test_watch (void)
{
  g_autofree char *folder = make_folder ("watch");
  g_autofree char *path = g_build_filename (folder, "servers.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) failure = NULL;
  StewardServerConfig *server;
  StewardConfig *config;
  gboolean changed = FALSE;
  guint n_changed = 0;

  g_file_set_contents (path, "{\"mcpServers\": {\"a\": {\"command\": \"a\"}}}", -1, &error);
  g_assert_no_error (error);
  config = steward_config_new (file);
  g_assert_true (steward_config_load (config, NULL, &error));
  g_assert_no_error (error);

  steward_config_watch (config);
  g_signal_connect (config, "changed", G_CALLBACK (count_cb), &n_changed);
  g_signal_connect (config, "changed", G_CALLBACK (changed_flag_cb), &changed);
  g_signal_connect (config, "load-failed", G_CALLBACK (load_failed_cb), &failure);

  /* An editor that writes a new file and renames it over the old one. */
  g_file_set_contents (path, "{\"mcpServers\": {\"a\": {\"command\": \"a\"},"
                       " \"b\": {\"command\": \"b\"}}}", -1, &error);
  g_assert_no_error (error);
  wait_until (&changed, "the edit to be noticed");
  run_quietly ();
  g_assert_cmpuint (n_changed, ==, 1);
  g_assert_null (failure);
  g_assert_cmpuint (g_list_model_get_n_items (steward_config_get_servers (config)), ==, 2);

  /* An editor that writes the file in place, with the same servers in
   * another order and layout: nothing changed. */
  {
    g_autoptr(GFileOutputStream) stream = NULL;
    const char *same = "{\"mcpServers\": {\n  \"b\": {\"command\": \"b\"},\n"
                       "  \"a\": {\"command\": \"a\"}\n}}\n";

    stream = g_file_append_to (file, G_FILE_CREATE_NONE, NULL, &error);
    g_assert_no_error (error);
    g_assert_true (g_seekable_truncate (G_SEEKABLE (stream), 0, NULL, &error));
    g_assert_true (g_output_stream_write_all (G_OUTPUT_STREAM (stream), same, strlen (same),
                                              NULL, NULL, &error));
    g_assert_true (g_output_stream_close (G_OUTPUT_STREAM (stream), NULL, &error));
    g_assert_no_error (error);
  }
  run_quietly ();
  g_assert_cmpuint (n_changed, ==, 1);

  /* Our own save is not echoed. */
  server = steward_server_config_new_stdio ("c", "c", NULL, NULL, NULL);
  steward_config_put_server (config, server);
  g_clear_object (&server);
  save (config);
  run_quietly ();
  g_assert_cmpuint (n_changed, ==, 1);
  g_assert_null (failure);

  /* A damaged edit is reported, with where, and the list stays. */
  g_file_set_contents (path, "{\"mcpServers\": {\n  \"a\": {\"command\": \"a\",}\n}}", -1, &error);
  g_assert_no_error (error);
  {
    guint timeout = g_timeout_add_seconds (WAIT_TIMEOUT_S, timed_out_cb, "load-failed");

    while (failure == NULL)
      g_main_context_iteration (NULL, TRUE);
    g_source_remove (timeout);
  }
  g_test_message ("%s", failure->message);
  g_assert_error (failure, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_PARSE);
  g_assert_nonnull (strstr (failure->message, "servers.json"));
  g_assert_nonnull (strstr (failure->message, "line 2, column 24"));
  g_assert_cmpuint (g_list_model_get_n_items (steward_config_get_servers (config)), ==, 3);
  run_quietly ();
  g_assert_cmpuint (n_changed, ==, 1);

  /* Mended, it counts again. */
  changed = FALSE;
  g_file_set_contents (path, "{\"mcpServers\": {\"a\": {\"command\": \"a\"}}}", -1, &error);
  g_assert_no_error (error);
  wait_until (&changed, "the mended file to be read");
  g_assert_cmpuint (n_changed, ==, 2);
  g_assert_cmpuint (g_list_model_get_n_items (steward_config_get_servers (config)), ==, 1);

  g_assert_finalize_object (config);
}

static void
test_parse_position (void)
{
  g_autoptr(GError) error = NULL;
  StewardConfig *config;

  config = load_text ("{\n  \"mcpServers\": {\n    \"é\": {\"command\": x}\n  }\n}", &error);
  g_assert_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_PARSE);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "(line 3, column 22)"));
  g_assert_null (strstr (error->message, "byte"));
  g_assert_finalize_object (config);
}

/* A config that seals consents with a key of its own, as the host's does
 * with the keyring's (tests/test-consent.c runs that one). */
static const guint8 test_key[32] = {
  0x53, 0x74, 0x65, 0x77, 0x61, 0x72, 0x64, 0x20, 0x74, 0x65, 0x73, 0x74, 0x20, 0x6b, 0x65, 0x79,
  0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10,
};

static StewardConfig *
new_sealing_config (GFile *file)
{
  g_autoptr(StewardConsentStore) store = steward_consent_store_new_with_key (test_key,
                                                                             sizeof test_key);
  StewardConfig *config = steward_config_new (file);

  steward_config_set_consent_store (config, store);
  return config;
}

static void
test_consent (void)
{
  g_autofree char *folder = make_folder ("consent");
  g_autofree char *path = g_build_filename (folder, "servers.json", NULL);
  g_autofree char *consents_path = g_build_filename (folder, "consents.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GHashTable) env = string_table ("OPENAI_API_KEY", "sk-plain0123456789abcdefXYZW",
                                            "STORED", "${keyring:k1}", "DEBUG", "1", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  StewardServerConfig *server;
  StewardServerConfig *changed;
  StewardServerConfig *consented;
  StewardServerConfig *other;
  StewardConfig *config;
  GStatBuf st;

  g_file_set_contents (path, "{\"mcpServers\": {}}", -1, &error);
  g_assert_no_error (error);
  config = new_sealing_config (file);
  g_assert_true (steward_config_load (config, NULL, &error));

  server = steward_server_config_new_stdio ("files", "npx", NULL, env, NULL);
  other = steward_server_config_new_stdio ("other", "npx", NULL, env, NULL);
  g_assert_false (steward_config_has_consent (config, server));
  g_assert_null (steward_config_get_consented (config, "files"));

  g_assert_true (steward_config_record_consent (config, server, &error));
  g_assert_no_error (error);
  g_assert_true (steward_config_has_consent (config, server));
  /* Consent is per name. */
  g_assert_false (steward_config_has_consent (config, other));

  /* A changed command asks again, and the old one is there to compare. */
  changed = steward_server_config_new_stdio ("files", "uvx", NULL, env, NULL);
  g_assert_false (steward_config_has_consent (config, changed));
  consented = steward_config_get_consented (config, "files");
  g_assert_nonnull (consented);
  g_assert_cmpstr (steward_server_config_get_command (consented), ==, "npx");
  g_assert_cmpstr (g_hash_table_lookup (steward_server_config_get_env (consented), "DEBUG"), ==,
                   "1");
  g_assert_cmpstr (g_hash_table_lookup (steward_server_config_get_env (consented), "STORED"), ==,
                   "${keyring:k1}");
  /* A key in plain text is not copied into a second file. */
  g_assert_cmpstr (g_hash_table_lookup (steward_server_config_get_env (consented),
                                        "OPENAI_API_KEY"), ==, "sk-…XYZW");
  g_clear_object (&consented);

  g_assert_true (steward_config_record_consent (config, other, &error));
  drop_config (config);

  /* Written, private, and read by the next one. */
  g_assert_cmpint (g_stat (consents_path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  g_assert_cmpuint (count_entries (folder), ==, 2);
  text = read_text (consents_path);
  g_test_message ("%s", text);
  g_assert_null (strstr (text, "sk-plain0123456789abcdefXYZW"));
  g_assert_nonnull (strstr (text, "\"fingerprint\": \""));
  g_assert_nonnull (strstr (text, "\"time\": \""));
  g_assert_nonnull (strstr (text, "\"files\": {"));
  g_assert_nonnull (strstr (text, "\"other\": {"));

  config = new_sealing_config (file);
  g_assert_true (steward_config_load (config, NULL, &error));
  g_assert_true (steward_config_has_consent (config, server));
  g_assert_true (steward_config_has_consent (config, other));
  g_assert_false (steward_config_has_consent (config, changed));

  /* A new consent replaces the old one, and the file keeps the others. */
  g_assert_true (steward_config_record_consent (config, changed, &error));
  g_assert_true (steward_config_has_consent (config, changed));
  g_assert_false (steward_config_has_consent (config, server));
  drop_config (config);

  config = new_sealing_config (file);
  load_async (config, &error);
  g_assert_no_error (error);
  g_assert_true (steward_config_has_consent (config, changed));
  g_assert_true (steward_config_has_consent (config, other));
  g_assert_false (steward_config_has_consent (config, server));
  g_assert_finalize_object (config);

  /* A damaged consents file means no consent at all. */
  g_file_set_contents (consents_path, "{\"files\": ", -1, &error);
  g_assert_no_error (error);
  config = new_sealing_config (file);
  g_assert_true (steward_config_load (config, NULL, &error));
  g_assert_false (steward_config_has_consent (config, changed));
  g_assert_finalize_object (config);

  g_assert_finalize_object (changed);
  g_assert_finalize_object (other);
  g_assert_finalize_object (server);
}

/* consents.json, followed and kept safe */

static void
count_failures_cb (StewardConfig *config,
                   const GError  *error,
                   guint         *count)
{
  (*count)++;
}

static gboolean
wake_cb (gpointer user_data)
{
  return G_SOURCE_CONTINUE;
}

/* Waits until the file at @path exists and holds @needle. Nothing but the
 * file itself tells when a background write is done, so the loop wakes
 * up now and then to look. */
static void
wait_for_text (const char *path,
               const char *needle)
{
  guint timeout = g_timeout_add_seconds (WAIT_TIMEOUT_S, timed_out_cb, (gpointer) needle);
  guint wake = g_timeout_add (20, wake_cb, NULL);

  for (;;)
    {
      g_autofree char *text = NULL;

      if (g_file_get_contents (path, &text, NULL, NULL) && strstr (text, needle) != NULL)
        break;
      g_main_context_iteration (NULL, TRUE);
    }

  g_source_remove (wake);
  g_source_remove (timeout);
}

/* Writes @path as an editor would, through a new file renamed over it. */
static void
edit_file (const char *path,
           const char *text)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

/* What Steward did not write counts as no consent: a plain fingerprint
 * beside the servers file (what any installer could write), a seal made
 * with another key, and a genuine entry copied to another server's name. */
static void
test_forged_consent (void)
{
  static const guint8 other_key[32] = { 0x42 };
  g_autofree char *folder = make_folder ("forged-consent");
  g_autofree char *path = g_build_filename (folder, "servers.json", NULL);
  g_autofree char *consents_path = g_build_filename (folder, "consents.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(StewardConsentStore) other_store = NULL;
  g_autoptr(StewardServerConfig) files = NULL;
  g_autoptr(StewardServerConfig) copy = NULL;
  g_autoptr(StewardServerConfig) intruder = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *forged = NULL;
  g_autofree char *fingerprint = NULL;
  g_autofree char *foreign_seal = NULL;
  StewardConsent *foreign;
  JsonObject *entries;
  JsonObject *entry;
  StewardConfig *config;

  edit_file (path, "{\"mcpServers\": {}}");
  files = steward_server_config_new_stdio ("files", "npx", NULL, NULL, NULL);
  copy = steward_server_config_new_stdio ("copy", "npx", NULL, NULL, NULL);
  intruder = steward_server_config_new_stdio ("intruder", "/tmp/payload", NULL, NULL, NULL);

  config = new_sealing_config (file);
  g_assert_true (steward_config_load (config, NULL, &error));
  g_assert_true (steward_config_can_remember_consent (config));
  g_assert_true (steward_config_record_consent (config, files, &error));
  drop_config (config);

  text = read_text (consents_path);
  g_assert_nonnull (strstr (text, "\"seal\": \""));
  root = json_from_string (text, &error);
  g_assert_no_error (error);
  entries = json_node_get_object (root);

  /* The genuine entry copied under another name, for the same command. */
  entry = json_object_get_object_member (entries, "files");
  json_object_set_object_member (entries, "copy", json_object_ref (entry));

  /* The right plain fingerprint, no seal. */
  fingerprint = steward_server_config_dup_fingerprint (intruder);
  entry = json_object_new ();
  json_object_set_string_member (entry, "fingerprint", fingerprint);
  json_object_set_object_member (entry, "config",
                                 json_object_ref (steward_server_config_get_json (intruder)));
  json_object_set_object_member (entries, "intruder", entry);

  /* Sealed, but with a key that is not this keyring's. */
  other_store = steward_consent_store_new_with_key (other_key, sizeof other_key);
  foreign = steward_consent_new (other_store, intruder);
  foreign_seal = g_strdup (foreign->seal);
  json_object_set_object_member (entries, "foreign", steward_consent_to_json (foreign));
  steward_consent_unref (foreign);
  g_assert_nonnull (foreign_seal);

  forged = json_to_string (root, TRUE);
  edit_file (consents_path, forged);

  config = new_sealing_config (file);
  g_assert_true (steward_config_load (config, NULL, &error));
  g_assert_true (steward_config_has_consent (config, files));
  g_assert_false (steward_config_has_consent (config, copy));
  g_assert_false (steward_config_has_consent (config, intruder));
  g_assert_null (steward_config_get_consented (config, "copy"));
  g_assert_null (steward_config_get_consented (config, "intruder"));
  g_assert_null (steward_config_get_consented (config, "foreign"));
  {
    g_autoptr(StewardServerConfig) foreign_config =
      steward_server_config_with_name (intruder, "foreign");

    g_assert_false (steward_config_has_consent (config, foreign_config));
  }
  drop_config (config);

  /* Without a key nothing read counts, and what is given is not written. */
  config = steward_config_new (file);
  g_assert_true (steward_config_load (config, NULL, &error));
  g_assert_false (steward_config_can_remember_consent (config));
  g_assert_false (steward_config_has_consent (config, files));
  g_assert_true (steward_config_record_consent (config, intruder, &error));
  g_assert_true (steward_config_has_consent (config, intruder));
  drop_config (config);
  g_clear_pointer (&text, g_free);
  text = read_text (consents_path);
  g_assert_cmpstr (text, ==, forged);

  config = new_sealing_config (file);
  g_assert_true (steward_config_load (config, NULL, &error));
  g_assert_false (steward_config_has_consent (config, intruder));
  g_assert_finalize_object (config);
}

static void
test_watch_consents (void)
{
  g_autofree char *folder = make_folder ("watch-consents");
  g_autofree char *path = g_build_filename (folder, "servers.json", NULL);
  g_autofree char *consents_path = g_build_filename (folder, "consents.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) failure = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;
  g_autofree char *edited = NULL;
  StewardServerConfig *files;
  StewardServerConfig *other;
  StewardConfig *config;
  gboolean consents_changed = FALSE;
  guint n_consents_changed = 0;
  guint n_changed = 0;

  edit_file (path, "{\"mcpServers\": {}}");
  files = steward_server_config_new_stdio ("files", "npx", NULL, NULL, NULL);
  other = steward_server_config_new_stdio ("other", "uvx", NULL, NULL, NULL);

  /* Two consents, from an earlier session. */
  config = new_sealing_config (file);
  g_assert_true (steward_config_load (config, NULL, &error));
  g_assert_true (steward_config_record_consent (config, files, &error));
  g_assert_true (steward_config_record_consent (config, other, &error));
  g_assert_no_error (error);
  drop_config (config);

  config = new_sealing_config (file);
  g_assert_true (steward_config_load (config, NULL, &error));
  g_assert_no_error (error);
  steward_config_watch (config);
  g_signal_connect (config, "consents-changed", G_CALLBACK (count_cb), &n_consents_changed);
  g_signal_connect (config, "consents-changed", G_CALLBACK (changed_flag_cb), &consents_changed);
  g_signal_connect (config, "changed", G_CALLBACK (count_cb), &n_changed);
  g_signal_connect (config, "load-failed", G_CALLBACK (load_failed_cb), &failure);
  g_assert_true (steward_config_has_consent (config, files));
  g_assert_true (steward_config_has_consent (config, other));

  /* The person takes back the consent to "files" in an editor. */
  text = read_text (consents_path);
  root = json_from_string (text, &error);
  g_assert_no_error (error);
  json_object_remove_member (json_node_get_object (root), "files");
  edited = json_to_string (root, TRUE);
  edit_file (consents_path, edited);
  wait_until (&consents_changed, "the consent to be taken back");
  run_quietly ();
  g_assert_cmpuint (n_consents_changed, ==, 1);
  g_assert_false (steward_config_has_consent (config, files));
  g_assert_null (steward_config_get_consented (config, "files"));
  g_assert_true (steward_config_has_consent (config, other));
  g_assert_null (failure);
  g_assert_cmpuint (n_changed, ==, 0);

  /* A consent given here is not echoed. */
  g_assert_true (steward_config_record_consent (config, files, &error));
  g_assert_true (steward_config_has_consent (config, files));
  wait_for_text (consents_path, "\"files\"");
  run_quietly ();
  g_assert_cmpuint (n_consents_changed, ==, 1);
  g_assert_true (steward_config_has_consent (config, files));
  g_assert_true (steward_config_has_consent (config, other));

  /* Deleting the file takes every consent back. */
  consents_changed = FALSE;
  g_assert_cmpint (g_remove (consents_path), ==, 0);
  wait_until (&consents_changed, "the deleted file to be noticed");
  run_quietly ();
  g_assert_cmpuint (n_consents_changed, ==, 2);
  g_assert_false (steward_config_has_consent (config, files));
  g_assert_false (steward_config_has_consent (config, other));

  /* An emptied file is no consent, and no damage either. */
  edit_file (consents_path, "");
  run_quietly ();
  g_assert_cmpuint (n_consents_changed, ==, 2);
  g_assert_null (failure);
  g_assert_cmpuint (count_entries (folder), ==, 2);

  g_assert_finalize_object (config);
  g_assert_finalize_object (files);
  g_assert_finalize_object (other);
}

static void
assert_kept_aside (const GError *failure,
                   const char   *consents_path,
                   const char   *aside_path,
                   const char   *damage)
{
  g_autofree char *kept = read_text (aside_path);

  g_assert_nonnull (failure);
  g_test_message ("%s", failure->message);
  g_assert_error (failure, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_CONSENTS);
  g_assert_true (g_str_has_prefix (failure->message, consents_path));
  g_assert_nonnull (strstr (failure->message, aside_path));
  g_assert_cmpstr (kept, ==, damage);
}

static void
test_damaged_consents (void)
{
  g_autofree char *folder = make_folder ("damaged-consents");
  g_autofree char *path = g_build_filename (folder, "servers.json", NULL);
  g_autofree char *consents_path = g_build_filename (folder, "consents.json", NULL);
  g_autofree char *aside_path = g_strconcat (consents_path, ".damaged", NULL);
  g_autofree char *aside_1_path = g_strconcat (consents_path, ".damaged-1", NULL);
  g_autofree char *aside_2_path = g_strconcat (consents_path, ".damaged-2", NULL);
  g_autofree char *aside_3_path = g_strconcat (consents_path, ".damaged-3", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) failure = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;
  StewardServerConfig *files;
  StewardConfig *config;
  gboolean consents_changed = FALSE;
  guint n_consents_changed = 0;
  guint n_failures = 0;

  edit_file (path, "{\"mcpServers\": {}}");
  files = steward_server_config_new_stdio ("files", "npx", NULL, NULL, NULL);

  /* Found by a load: kept aside, reported, and no consent. */
  edit_file (consents_path, "{\"files\": ");
  config = new_sealing_config (file);
  g_signal_connect (config, "load-failed", G_CALLBACK (load_failed_cb), &failure);
  g_signal_connect (config, "consents-changed", G_CALLBACK (count_cb), &n_consents_changed);
  g_assert_true (steward_config_load (config, NULL, &error));
  g_assert_no_error (error);
  assert_kept_aside (failure, consents_path, aside_path, "{\"files\": ");
  g_assert_nonnull (strstr (failure->message, "line 1, column"));
  g_assert_false (g_file_test (consents_path, G_FILE_TEST_EXISTS));
  g_assert_false (steward_config_has_consent (config, files));
  g_assert_cmpuint (n_consents_changed, ==, 0);

  /* The next consent writes a fresh file; the damaged one stays aside. */
  g_assert_true (steward_config_record_consent (config, files, &error));
  drop_config (config);
  text = read_text (consents_path);
  root = json_from_string (text, &error);
  g_assert_no_error (error);
  g_assert_true (json_object_has_member (json_node_get_object (root), "files"));
  g_clear_pointer (&text, g_free);
  text = read_text (aside_path);
  g_assert_cmpstr (text, ==, "{\"files\": ");
  g_clear_error (&failure);

  config = new_sealing_config (file);
  g_assert_true (steward_config_load (config, NULL, &error));
  g_assert_true (steward_config_has_consent (config, files));
  g_assert_finalize_object (config);

  /* Found by an asynchronous load: a second one goes beside the first. */
  edit_file (consents_path, "[]");
  config = new_sealing_config (file);
  g_signal_connect (config, "load-failed", G_CALLBACK (load_failed_cb), &failure);
  g_assert_true (load_async (config, &error));
  g_assert_no_error (error);
  assert_kept_aside (failure, consents_path, aside_1_path, "[]");
  g_assert_false (steward_config_has_consent (config, files));
  g_assert_finalize_object (config);
  g_clear_error (&failure);

  /* Found by the next consent written, when nothing watched the file:
   * kept aside before the fresh file is written. */
  config = new_sealing_config (file);
  g_assert_true (steward_config_load (config, NULL, &error));
  g_signal_connect (config, "load-failed", G_CALLBACK (load_failed_cb), &failure);
  edit_file (consents_path, "{\"other\": {},}");
  g_assert_true (steward_config_record_consent (config, files, &error));
  drop_config (config);
  assert_kept_aside (failure, consents_path, aside_2_path, "{\"other\": {},}");
  g_clear_error (&failure);
  g_clear_pointer (&text, g_free);
  text = read_text (consents_path);
  g_assert_nonnull (strstr (text, "\"files\""));
  g_assert_null (strstr (text, "\"other\""));

  /* Found by a reload: reported once, and the consents it held go. */
  config = new_sealing_config (file);
  g_assert_true (steward_config_load (config, NULL, &error));
  g_assert_true (steward_config_has_consent (config, files));
  steward_config_watch (config);
  g_signal_connect (config, "load-failed", G_CALLBACK (load_failed_cb), &failure);
  g_signal_connect (config, "load-failed", G_CALLBACK (count_failures_cb), &n_failures);
  g_signal_connect (config, "consents-changed", G_CALLBACK (changed_flag_cb), &consents_changed);
  g_signal_connect (config, "consents-changed", G_CALLBACK (count_cb), &n_consents_changed);
  edit_file (consents_path, "{");
  wait_until (&consents_changed, "the damaged file to be read");
  run_quietly ();
  assert_kept_aside (failure, consents_path, aside_3_path, "{");
  g_assert_cmpuint (n_failures, ==, 1);
  g_assert_cmpuint (n_consents_changed, ==, 1);
  g_assert_false (steward_config_has_consent (config, files));

  /* And the consent given again is written afresh, not echoed. */
  g_assert_true (steward_config_record_consent (config, files, &error));
  wait_for_text (consents_path, "\"files\"");
  run_quietly ();
  g_assert_cmpuint (n_consents_changed, ==, 1);
  g_assert_cmpuint (n_failures, ==, 1);
  g_assert_true (steward_config_has_consent (config, files));
  g_assert_cmpuint (count_entries (folder), ==, 6);

  g_assert_finalize_object (config);
  g_assert_finalize_object (files);
}

static gboolean
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;

  if (!g_file_test (path, G_FILE_TEST_IS_SYMLINK) && g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      dir = g_dir_open (path, 0, NULL);
      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          remove_tree (child);
        }
      return g_rmdir (path) == 0;
    }

  return g_remove (path) == 0;
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
  g_test_add_func ("/steward/config/builders", test_builders);
  g_test_add_func ("/steward/config/fingerprint", test_fingerprint);
  g_test_add_func ("/steward/config/put-remove", test_put_remove);
  g_test_add_func ("/steward/config/write", test_write);
  g_test_add_func ("/steward/config/write-keeps-unknown", test_write_keeps_unknown);
  g_test_add_func ("/steward/config/write-symlink", test_write_symlink);
  g_test_add_func ("/steward/config/watch", test_watch);
  g_test_add_func ("/steward/config/parse-position", test_parse_position);
  g_test_add_func ("/steward/config/consent", test_consent);
  g_test_add_func ("/steward/config/forged-consent", test_forged_consent);
  g_test_add_func ("/steward/config/watch-consents", test_watch_consents);
  g_test_add_func ("/steward/config/damaged-consents", test_damaged_consents);

  status = g_test_run ();

  for (guint i = 0; i < tmp_files->len; i++)
    g_remove (g_ptr_array_index (tmp_files, i));
  remove_tree (tmp_dir);
  g_clear_pointer (&tmp_files, g_ptr_array_unref);
  g_clear_pointer (&tmp_dir, g_free);

  return status;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-secrets"

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <libsecret/secret.h>
#include <string.h>

#include "steward-config-import.h"
#include "steward-config.h"
#include "steward-secrets.h"

/* Runs under tests/run-in-session: a private home and an unlocked
 * gnome-keyring of its own, so storing here touches no one's keyring. */

#define WAIT_TIMEOUT_S 20

static gboolean
timed_out_cb (gpointer user_data)
{
  g_error ("Timed out waiting for %s", (const char *) user_data);
  return G_SOURCE_REMOVE;
}

static void
result_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static GAsyncResult *
wait_for_result (GAsyncResult **result,
                 const char    *what)
{
  guint timeout = g_timeout_add_seconds (WAIT_TIMEOUT_S, timed_out_cb, (gpointer) what);

  while (*result == NULL)
    g_main_context_iteration (NULL, TRUE);

  g_source_remove (timeout);
  return *result;
}

static char *
store (StewardSecrets    *secrets,
       const char        *id,
       StewardSecretKind  kind,
       const char        *label,
       const char        *value,
       GError           **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  steward_secrets_store_async (secrets, id, kind, label, value, NULL, result_cb, &result);
  return steward_secrets_store_finish (secrets, wait_for_result (&result, "store"), error);
}

static char *
lookup (StewardSecrets  *secrets,
        const char      *id,
        GError         **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  steward_secrets_lookup_async (secrets, id, NULL, result_cb, &result);
  return steward_secrets_lookup_finish (secrets, wait_for_result (&result, "lookup"), error);
}

static gboolean
clear (StewardSecrets  *secrets,
       const char      *id,
       GError         **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  steward_secrets_clear_async (secrets, id, NULL, result_cb, &result);
  return steward_secrets_clear_finish (secrets, wait_for_result (&result, "clear"), error);
}

static GHashTable *
resolve (StewardSecrets  *secrets,
         GHashTable      *table,
         GError         **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  steward_secrets_resolve_async (secrets, table, NULL, result_cb, &result);
  return steward_secrets_resolve_finish (secrets, wait_for_result (&result, "resolve"), error);
}

/* The label as the keyring shows it, read with libsecret directly. */
static char *
dup_label (const char *id)
{
  static const SecretSchema schema = {
    "io.github.stewardmcp.Steward.Secret", SECRET_SCHEMA_NONE,
    {
      { "id", SECRET_SCHEMA_ATTRIBUTE_STRING },
      { "kind", SECRET_SCHEMA_ATTRIBUTE_STRING },
      { NULL, 0 },
    }
  };
  g_autoptr(GHashTable) attributes = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GError) error = NULL;
  GList *items;
  char *label;

  g_hash_table_insert (attributes, "id", (gpointer) id);
  items = secret_service_search_sync (NULL, &schema, attributes, SECRET_SEARCH_ALL, NULL,
                                      &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_length (items), ==, 1);

  label = secret_item_get_label (items->data);
  g_list_free_full (items, g_object_unref);
  return label;
}

static void
test_round_trip (void)
{
  StewardSecrets *secrets = steward_secrets_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *id = NULL;
  g_autofree char *again = NULL;
  g_autofree char *label = NULL;
  char *value;

  id = store (secrets, NULL, STEWARD_SECRET_KIND_PROVIDER_KEY, "Steward: API key for OpenAI",
              "sk-first-value-0123456789abcdef", &error);
  g_assert_no_error (error);
  g_assert_true (g_uuid_string_is_valid (id));

  label = dup_label (id);
  g_assert_cmpstr (label, ==, "Steward: API key for OpenAI");

  value = lookup (secrets, id, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (value, ==, "sk-first-value-0123456789abcdef");
  steward_secret_value_free (value);

  /* The same id again replaces the value, and keeps one item. */
  again = store (secrets, id, STEWARD_SECRET_KIND_PROVIDER_KEY, "Steward: API key for OpenAI",
                 "sk-second-value-0123456789abcdef", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (again, ==, id);
  g_clear_pointer (&label, g_free);
  label = dup_label (id);

  value = lookup (secrets, id, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (value, ==, "sk-second-value-0123456789abcdef");
  steward_secret_value_free (value);

  g_assert_true (clear (secrets, id, &error));
  g_assert_no_error (error);

  value = lookup (secrets, id, &error);
  g_assert_null (value);
  g_assert_error (error, STEWARD_SECRETS_ERROR, STEWARD_SECRETS_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, id));
  g_clear_error (&error);

  /* Clearing what is not there is no error: afterwards it is not there. */
  g_assert_true (clear (secrets, id, &error));
  g_assert_no_error (error);

  g_assert_finalize_object (secrets);
}

static void
test_resolve (void)
{
  StewardSecrets *secrets = steward_secrets_new ();
  g_autoptr(GHashTable) table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GHashTable) resolved = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *token_id = NULL;
  g_autofree char *key_id = NULL;

  token_id = store (secrets, NULL, STEWARD_SECRET_KIND_SERVER_HEADER, "Steward: web — token",
                    "tok-abc", &error);
  g_assert_no_error (error);
  key_id = store (secrets, "resolve-key", STEWARD_SECRET_KIND_SERVER_ENV, "Steward: files — KEY",
                  "key-xyz", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (key_id, ==, "resolve-key");

  g_hash_table_insert (table, g_strdup ("Authorization"),
                       g_strdup_printf ("Bearer ${keyring:%s}", token_id));
  g_hash_table_insert (table, g_strdup ("API_KEY"), steward_secret_reference_new (key_id));
  g_hash_table_insert (table, g_strdup ("TWICE"),
                       g_strdup ("${keyring:resolve-key}/${keyring:resolve-key}"));
  g_hash_table_insert (table, g_strdup ("PLAIN"), g_strdup ("${not a reference} $HOME"));

  resolved = resolve (secrets, table, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_hash_table_size (resolved), ==, 4);
  g_assert_cmpstr (g_hash_table_lookup (resolved, "Authorization"), ==, "Bearer tok-abc");
  g_assert_cmpstr (g_hash_table_lookup (resolved, "API_KEY"), ==, "key-xyz");
  g_assert_cmpstr (g_hash_table_lookup (resolved, "TWICE"), ==, "key-xyz/key-xyz");
  g_assert_cmpstr (g_hash_table_lookup (resolved, "PLAIN"), ==, "${not a reference} $HOME");
  /* The table given stays as it was. */
  g_assert_cmpstr (g_hash_table_lookup (table, "API_KEY"), ==, "${keyring:resolve-key}");
  g_clear_pointer (&resolved, g_hash_table_unref);

  /* A missing secret names the id and the entry that refers to it. */
  g_hash_table_insert (table, g_strdup ("GITHUB_TOKEN"),
                       g_strdup ("${keyring:no-such-secret}"));
  resolved = resolve (secrets, table, &error);
  g_assert_null (resolved);
  g_assert_error (error, STEWARD_SECRETS_ERROR, STEWARD_SECRETS_ERROR_NOT_FOUND);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "`no-such-secret`"));
  g_assert_nonnull (strstr (error->message, "`GITHUB_TOKEN`"));
  g_clear_error (&error);

  g_assert_true (clear (secrets, token_id, &error));
  g_assert_true (clear (secrets, key_id, &error));
  g_assert_no_error (error);

  g_assert_finalize_object (secrets);
}

static void
test_references (void)
{
  static const char * const not_references[] = {
    "", "plain", "${keyring:}", "${keyring:a b}", "${keyring:abc", "x${keyring:abc}",
    "${keyring:abc}x", "${env:HOME}", "${KEYRING:abc}",
  };
  g_autofree char *reference = steward_secret_reference_new ("0b1e-4f.x_y");
  g_autofree char *id = steward_secret_reference_get_id (reference);

  g_assert_cmpstr (reference, ==, "${keyring:0b1e-4f.x_y}");
  g_assert_cmpstr (id, ==, "0b1e-4f.x_y");
  g_assert_null (steward_secret_reference_get_id (NULL));

  for (guint i = 0; i < G_N_ELEMENTS (not_references); i++)
    {
      g_autofree char *none = steward_secret_reference_get_id (not_references[i]);

      g_test_message ("value: %s", not_references[i]);
      g_assert_null (none);
    }
}

static void
test_looks_secret (void)
{
  static const struct {
    const char *name;
    const char *value;
    gboolean    secret;
  } cases[] = {
    /* By name, in any case. */
    { "OPENAI_API_KEY", "abc", TRUE },
    { "GITHUB_TOKEN", "something", TRUE },
    { "client_secret", "hunter2", TRUE },
    { "DB_PASSWORD", "correct horse", TRUE },
    { "MYSQL_PASSWD", "pw", TRUE },
    { "Authorization", "Basic dXNlcjpwYXNz", TRUE },
    { "Proxy-Authorization", "whatever", TRUE },
    { "GOOGLE_APPLICATION_CREDENTIALS_JSON", "{\"type\": 1}", TRUE },
    { "Cookie", "session=abc", TRUE },
    { "X-Api-Key", "k", TRUE },
    /* By shape, whatever the name. */
    { "VALUE", "sk-proj-Ab3dEf6hIj9kLm2nOp5q", TRUE },
    { "VALUE", "sk-ant-api03-abcdefghijklmnop", TRUE },
    { "GH", "ghp_0123456789abcdefABCDEF0123456789abcd", TRUE },
    { "GH", "github_pat_11ABCDEFG0123456789_abcdefghijkl", TRUE },
    { "GH", "gho_16C7e42F292c6912E7710c838347Ae178B4a", TRUE },
    { "SLACK", "xoxb-123456789012-abcdefghij", TRUE },
    { "SLACK", "xoxp-123456789012-abcdefghij", TRUE },
    { "AWS", "AKIAIOSFODNN7EXAMPLE", TRUE },
    { "H", "Bearer eyJhbGciOi.xyz", TRUE },
    { "X", "dGhpcyBpcyBhIGxvbmcgYmFzZTY0IHN0cmluZzEyMw==", TRUE },
    { "X", "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", TRUE },
    { NULL, "sk-0123456789abcdefghij", TRUE },
    { "DATABASE_URL", "postgres://app:s3cret@db.example.com/app", TRUE },
    { "ENDPOINT", "https://api.example.com/v1?api_key=abc123", TRUE },
    /* Never secrets, whatever the name. */
    { "API_KEY", "", FALSE },
    { "TOKEN_FILE", "/home/me/.config/app/token.json", FALSE },
    { "KEY_PATH", "~/keys/server.pem", FALSE },
    { "AUTH_URL", "https://auth.example.com/oauth/token", FALSE },
    { "MAX_TOKENS", "4096", FALSE },
    { "AUTH_ENABLED", "true", FALSE },
    { "USE_PASSWORD", "false", FALSE },
    { "TOKEN_TTL", "3.5", FALSE },
    { "API_KEY", "${keyring:0b1e}", FALSE },
    /* Ordinary names with ordinary values. */
    { "DEBUG", "1", FALSE },
    { "LANG", "C.UTF-8", FALSE },
    { "HOME", "/home/me", FALSE },
    { "PATH", "/usr/local/bin:/usr/bin:/bin", FALSE },
    { "NODE_ENV", "production", FALSE },
    { "ALLOWED_DIRS", "/srv/projects/my-long-project-name-with-words", FALSE },
    { "PROJECT", "my-long-project-name-with-many-words", FALSE },
    { "ENDPOINT", "https://api.example.com/v1/mcp", FALSE },
    { "X-Api-Version", "2025-06-18", FALSE },
    { "Accept-Language", "en-GB", FALSE },
    { "REGION", "eu-west-1", FALSE },
    { NULL, NULL, FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_test_message ("case %u: %s", i, cases[i].name ? cases[i].name : "(no name)");
      g_assert_cmpint (steward_secret_looks_secret (cases[i].name, cases[i].value), ==,
                       cases[i].secret);
    }
}

static void
test_mask (void)
{
  static const struct {
    const char *value;
    const char *masked;
  } cases[] = {
    { "sk-proj-Ab3dEf6hIj9kLm2nOp5q", "sk-proj-…Op5q" },
    { "sk-0123456789abcdefghij", "sk-…ghij" },
    { "ghp_0123456789abcdefABCDEF0123456789abcd", "ghp_…abcd" },
    { "Bearer sk-0123456789abcdefghij", "Bearer sk-…ghij" },
    { "AKIAIOSFODNN7EXAMPLE", "AKIA…MPLE" },
    { "plain-but-long-value-1234", "…1234" },
    { "hunter2", "••••••••" },
    { "sk-short", "sk-••••••••" },
    { "", "••••••••" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *masked = steward_secret_mask (cases[i].value);

      g_assert_cmpstr (masked, ==, cases[i].masked);
    }
}

/* Counts the occurrences of @needle in every regular file under @path. */
static guint
count_in_files (const char *path,
                const char *needle,
                guint      *n_files)
{
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GError) error = NULL;
  const char *name;
  guint count = 0;

  if (g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    return 0;

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      dir = g_dir_open (path, 0, &error);
      g_assert_no_error (error);
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          count += count_in_files (child, needle, n_files);
        }
      return count;
    }

  if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_autofree char *contents = NULL;
      gsize length = 0;
      gsize needle_length = strlen (needle);

      g_file_get_contents (path, &contents, &length, &error);
      g_assert_no_error (error);
      (*n_files)++;

      for (gsize i = 0; i + needle_length <= length; i++)
        if (memcmp (contents + i, needle, needle_length) == 0)
          {
            g_test_message ("the canary is in %s", path);
            count++;
          }
    }

  return count;
}

static void
test_canary (void)
{
  const char *home = g_getenv ("STEWARD_TEST_HOME");
  g_autofree char *canary = NULL;
  g_autofree char *claude = NULL;
  g_autofree char *keyring_path = NULL;
  g_autofree char *servers_text = NULL;
  g_autofree char *id = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GListModel) candidates = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) resolved = NULL;
  StewardImportCandidate *candidate;
  StewardServerConfig *server;
  StewardSecrets *secrets;
  StewardConfig *config;
  char *uuid;
  guint n_files = 0;

  g_assert_nonnull (home);

  /* Shaped like a key, so that the import moves it. */
  uuid = g_uuid_string_random ();
  canary = g_strdup_printf ("sk-canary%.8s%.4s%.4s", uuid, uuid + 9, uuid + 14);
  g_free (uuid);

  claude = g_strdup_printf ("{\"mcpServers\": {\"openai-tools\": {"
                            "  \"command\": \"npx\", \"args\": [\"-y\", \"openai-mcp\"],"
                            "  \"env\": {\"OPENAI_API_KEY\": \"%s\", \"DEBUG\": \"1\"}}}}",
                            canary);

  config = steward_config_new (NULL);
  secrets = steward_secrets_new ();

  candidates = steward_import_parse (config, claude, strlen (claude), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (candidates), ==, 1);
  candidate = g_list_model_get_item (candidates, 0);
  g_assert_cmpstrv (steward_import_candidate_get_secret_keys (candidate),
                    ((const char * const[]) { "OPENAI_API_KEY", NULL }));
  g_object_unref (candidate);

  steward_import_apply_async (config, secrets, candidates, STEWARD_IMPORT_MOVE_SECRETS, NULL,
                              result_cb, &result);
  g_assert_cmpuint (steward_import_apply_finish (config, wait_for_result (&result, "import"),
                                                 &error), ==, 1);
  g_assert_no_error (error);
  g_clear_object (&result);

  /* The servers file and the consents beside it hold a reference. */
  server = steward_config_lookup (config, "openai-tools", &error);
  g_assert_no_error (error);
  steward_config_record_consent (config, server, &error);
  g_assert_no_error (error);
  id = steward_secret_reference_get_id (g_hash_table_lookup (steward_server_config_get_env (server),
                                                             "OPENAI_API_KEY"));
  g_assert_nonnull (id);
  g_assert_cmpstr (g_hash_table_lookup (steward_server_config_get_env (server), "DEBUG"), ==,
                   "1");

  g_file_load_contents (steward_config_get_file (config), NULL, &servers_text, NULL, NULL,
                        &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (servers_text, "${keyring:"));

  /* And the keyring holds the value under the label the person sees. */
  resolved = resolve (secrets, steward_server_config_get_env (server), &error);
  g_assert_no_error (error);
  g_assert_cmpstr (g_hash_table_lookup (resolved, "OPENAI_API_KEY"), ==, canary);
  {
    g_autofree char *label = dup_label (id);

    g_assert_cmpstr (label, ==, "Steward: openai-tools — OPENAI_API_KEY");
  }

  /* The consent is written in the background, holding the config until it
   * is on disk; the config is gone once everything is. */
  {
    guint timeout = g_timeout_add_seconds (WAIT_TIMEOUT_S, timed_out_cb, "consents.json");

    g_object_add_weak_pointer (G_OBJECT (config), (gpointer *) &config);
    g_object_unref (config);
    while (config != NULL)
      g_main_context_iteration (NULL, TRUE);
    g_source_remove (timeout);
  }

  /* gnome-keyring has written the login collection, encrypted. */
  keyring_path = g_build_filename (g_get_user_data_dir (), "keyrings", "login.keyring", NULL);
  g_assert_true (g_file_test (keyring_path, G_FILE_TEST_IS_REGULAR));

  g_assert_cmpuint (count_in_files (home, canary, &n_files), ==, 0);
  g_test_message ("%u files searched", n_files);
  g_assert_cmpuint (n_files, >=, 3);

  g_assert_true (clear (secrets, id, &error));
  g_assert_finalize_object (secrets);
}

/* steward-cli resolves references before it starts a server, and says
 * which secret is missing when one is. */
static void
test_cli (void)
{
  g_autofree char *cli = g_test_build_filename (G_TEST_BUILT, "..", "src", "cli", "steward-cli",
                                                NULL);
  g_autofree char *mock = g_test_build_filename (G_TEST_DIST, "test-cli.py", NULL);
  g_autofree char *folder = g_build_filename (g_getenv ("STEWARD_TEST_HOME"), "cli", NULL);
  g_autofree char *path = g_build_filename (folder, "servers.json", NULL);
  g_autofree char *text = NULL;
  g_autofree char *id = NULL;
  g_autofree char *expected = NULL;
  StewardSecrets *secrets = steward_secrets_new ();
  g_autoptr(GError) error = NULL;

  id = store (secrets, NULL, STEWARD_SECRET_KIND_SERVER_ENV, "Steward: mock — STEWARD_TEST_VAR",
              "from-the-keyring", &error);
  g_assert_no_error (error);

  text = g_strdup_printf ("{\"mcpServers\": {"
                          "  \"mock\": {\"command\": \"/usr/bin/python3\","
                          "             \"args\": [\"%s\", \"--mock-server\", \"normal\"],"
                          "             \"env\": {\"STEWARD_TEST_VAR\": \"${keyring:%s}\"}},"
                          "  \"missing\": {\"command\": \"/usr/bin/python3\","
                          "             \"args\": [\"%s\", \"--mock-server\", \"normal\"],"
                          "             \"env\": {\"STEWARD_TEST_VAR\": \"${keyring:gone}\"}}"
                          "}}", mock, id, mock);
  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);

  {
    g_autoptr(GSubprocess) process = NULL;
    g_autofree char *out = NULL;
    g_autofree char *err = NULL;

    process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                                &error, cli, "--server", "mock", "--config", path,
                                "tools", "call", "whereami", NULL);
    g_assert_no_error (error);
    g_subprocess_communicate_utf8 (process, NULL, NULL, &out, &err, &error);
    g_assert_no_error (error);
    g_test_message ("stdout: %s\nstderr: %s", out, err);
    g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 0);
    /* The server got the value, and echoed it; steward-cli shows it
     * redacted, as it does any value the keyring gave. */
    g_assert_nonnull (strstr (out, "var=[redacted]"));
    g_assert_null (strstr (out, "from-the-keyring"));
  }

  {
    g_autoptr(GSubprocess) process = NULL;
    g_autofree char *out = NULL;
    g_autofree char *err = NULL;

    process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                                &error, cli, "--server", "missing", "--config", path, "ping",
                                NULL);
    g_assert_no_error (error);
    g_subprocess_communicate_utf8 (process, NULL, NULL, &out, &err, &error);
    g_assert_no_error (error);
    g_test_message ("stderr: %s", err);
    g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 2);
    g_assert_cmpstr (out, ==, "");
    g_assert_nonnull (strstr (err, "steward-cli: server `missing`"));
    g_assert_nonnull (strstr (err, "`gone`"));
    g_assert_nonnull (strstr (err, "`STEWARD_TEST_VAR`"));
  }

  g_assert_true (clear (secrets, id, &error));
  g_assert_no_error (error);
  g_assert_finalize_object (secrets);
}

/* A hostile server given a canary through the keyring echoes it in its
 * results, errors, log messages, stderr and the reason it exits: no word
 * steward-cli prints, verbose or not, as JSON or not, holds it, and no
 * file does. */
static void
test_cli_canary (void)
{
  static const char * const commands[][6] = {
    { "tools", "call", "evil", NULL },
    { "--verbose", "tools", "call", "evil", NULL },
    { "--json", "tools", "call", "evil", NULL },
    { "--verbose", "tools", "call", "evil-error", NULL },
    { "--verbose", "tools", "call", "evil-failure", NULL },
    { "--verbose", "tools", "call", "evil-exit", NULL },
    { "--verbose", "log-level", "debug", "--count", "1", NULL },
  };
  g_autofree char *cli = g_test_build_filename (G_TEST_BUILT, "..", "src", "cli", "steward-cli",
                                                NULL);
  g_autofree char *server = g_test_build_filename (G_TEST_DIST, "servers",
                                                   "hostile-text-server.py", NULL);
  const char *home = g_getenv ("STEWARD_TEST_HOME");
  g_autofree char *folder = g_build_filename (home, "cli-canary", NULL);
  g_autofree char *path = g_build_filename (folder, "servers.json", NULL);
  g_autofree char *canary = NULL;
  g_autofree char *text = NULL;
  g_autofree char *id = NULL;
  StewardSecrets *secrets = steward_secrets_new ();
  g_autoptr(GError) error = NULL;
  guint n_redacted = 0;
  guint n_files = 0;
  char *uuid;

  /* Shaped like nothing a pattern would catch. */
  uuid = g_uuid_string_random ();
  canary = g_strdup_printf ("plain%.8s%.4s", uuid, uuid + 9);
  g_free (uuid);

  id = store (secrets, NULL, STEWARD_SECRET_KIND_SERVER_ENV, "Steward: hostile — STEWARD_CANARY",
              canary, &error);
  g_assert_no_error (error);

  text = g_strdup_printf ("{\"mcpServers\": {\"hostile\": {\"command\": \"/usr/bin/python3\","
                          "  \"args\": [\"%s\"], \"env\": {\"STEWARD_CANARY\": \"${keyring:%s}\"}}"
                          "}}", server, id);
  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
      g_autoptr(GSubprocess) process = NULL;
      g_auto(GStrv) argv = NULL;
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;

      g_strv_builder_add_many (builder, cli, "--server", "hostile", "--config", path, NULL);
      g_strv_builder_addv (builder, (const char **) commands[i]);
      argv = g_strv_builder_end (builder);

      process = g_subprocess_newv ((const char * const *) argv,
                                   G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                   G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
      g_assert_no_error (error);
      g_subprocess_communicate_utf8 (process, NULL, NULL, &out, &err, &error);
      g_assert_no_error (error);
      g_test_message ("%s %s %s\nstdout: %s\nstderr: %s", commands[i][0], commands[i][1],
                      commands[i][2], out, err);

      g_assert_null (strstr (out, canary));
      g_assert_null (strstr (err, canary));
      if (strstr (out, "[redacted]") != NULL || strstr (err, "[redacted]") != NULL)
        n_redacted++;
    }

  /* Every run saw the server echo the canary, and hid it. */
  g_assert_cmpuint (n_redacted, ==, G_N_ELEMENTS (commands));

  g_assert_cmpuint (count_in_files (home, canary, &n_files), ==, 0);
  g_assert_cmpuint (n_files, >=, 1);

  g_assert_true (clear (secrets, id, &error));
  g_assert_no_error (error);
  g_assert_finalize_object (secrets);
}

static void
test_no_session (void)
{
  g_test_skip ("the keyring cases run under tests/run-in-session, with a keyring of their own");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/steward/secrets/references", test_references);
  g_test_add_func ("/steward/secrets/looks-secret", test_looks_secret);
  g_test_add_func ("/steward/secrets/mask", test_mask);

  /* Never against the keyring of the person running the tests. */
  if (g_getenv ("STEWARD_TEST_HOME") == NULL)
    {
      g_test_add_func ("/steward/secrets/keyring", test_no_session);
      return g_test_run ();
    }

  g_test_add_func ("/steward/secrets/round-trip", test_round_trip);
  g_test_add_func ("/steward/secrets/resolve", test_resolve);
  g_test_add_func ("/steward/secrets/canary", test_canary);
  g_test_add_func ("/steward/secrets/cli", test_cli);
  g_test_add_func ("/steward/secrets/cli-canary", test_cli_canary);

  return g_test_run ();
}

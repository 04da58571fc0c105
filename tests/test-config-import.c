/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-config-import"

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "steward-config-import.h"

#define WAIT_TIMEOUT_S 20

/* Claude Desktop's claude_desktop_config.json, as its documentation shows
 * it, with a remote entry and a member of its own. */
static const char claude_sample[] =
  "{\n"
  "  \"mcpServers\": {\n"
  "    \"filesystem\": {\n"
  "      \"command\": \"npx\",\n"
  "      \"args\": [\"-y\", \"@modelcontextprotocol/server-filesystem\", \"/Users/me/Desktop\"]\n"
  "    },\n"
  "    \"github\": {\n"
  "      \"command\": \"docker\",\n"
  "      \"args\": [\"run\", \"-i\", \"--rm\", \"-e\", \"GITHUB_PERSONAL_ACCESS_TOKEN\","
  " \"ghcr.io/github/github-mcp-server\"],\n"
  "      \"env\": {\n"
  "        \"GITHUB_PERSONAL_ACCESS_TOKEN\": \"ghp_0123456789abcdefABCDEF0123456789abcd\",\n"
  "        \"GITHUB_TOOLSETS\": \"repos,issues\"\n"
  "      }\n"
  "    },\n"
  "    \"remote\": {\n"
  "      \"url\": \"https://mcp.example.com/mcp\",\n"
  "      \"headers\": {\"Authorization\": \"Bearer abcdefgh12345678\", \"X-Region\": \"eu\"}\n"
  "    }\n"
  "  },\n"
  "  \"globalShortcut\": \"\"\n"
  "}\n";

/* VS Code's mcp.json: comments, trailing commas, inputs, and every kind of
 * entry. */
static const char vscode_sample[] =
  "// Servers for this machine\n"
  "{\n"
  "  \"inputs\": [\n"
  "    {\"type\": \"promptString\", \"id\": \"perplexity-key\", \"description\": \"Key\","
  " \"password\": true},\n"
  "  ],\n"
  "  \"servers\": {\n"
  "    /* Local ones */\n"
  "    \"memory\": {\"type\": \"stdio\", \"command\": \"npx\","
  " \"args\": [\"-y\", \"@modelcontextprotocol/server-memory\"],"
  " \"env\": {\"MEMORY_FILE\": \"/home/me/memory.json\"}},\n"
  "    \"perplexity\": {\"type\": \"stdio\", \"command\": \"npx\", \"args\": [\"-y\", \"pplx\"],"
  " \"env\": {\"PERPLEXITY_API_KEY\": \"${input:perplexity-key}\"}},\n"
  "    \"dotenv\": {\"type\": \"stdio\", \"command\": \"uvx\", \"args\": [\"srv\"],"
  " \"envFile\": \"${workspaceFolder}/.env\"},\n"
  "    \"workspace\": {\"command\": \"node\", \"args\": [\"build/index.js\"],"
  " \"cwd\": \"${workspaceFolder}\", \"env\": {\"HOME_DIR\": \"${env:HOME}\"}},\n"
  "    \"plain-cwd\": {\"type\": \"stdio\", \"command\": \"node\", \"cwd\": \"/srv/app\","
  " \"env\": {\"SLACK_BOT_TOKEN\": \"xoxb-123456789012-abcdefghij\"}},\n"
  "    // Remote ones\n"
  "    \"github\": {\"type\": \"http\", \"url\": \"https://api.githubcopilot.com/mcp/\","
  " \"headers\": {\"Authorization\": \"Bearer ghp_0123456789abcdefABCDEF0123456789abcd\"}},\n"
  "    \"legacy\": {\"type\": \"sse\", \"url\": \"http://localhost:3001/sse\"},\n"
  "    \"odd\": {\"type\": \"websocket\", \"url\": \"wss://example.com/\"},\n"
  "    \"url\": \"not // a comment, nor /* one */\",\n"
  "  },\n"
  "}\n";

static char *tmp_dir;

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

/* A config over a servers file of its own that has a "filesystem". */
static StewardConfig *
config_new (const char *name)
{
  g_autofree char *folder = g_build_filename (tmp_dir, name, NULL);
  g_autofree char *path = g_build_filename (folder, "servers.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  StewardConfig *config;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_file_set_contents (path, "{\"mcpServers\": {\"filesystem\": {\"command\": \"old\"},"
                       " \"mine\": {\"command\": \"mine\"}}}", -1, &error);
  g_assert_no_error (error);

  config = steward_config_new (file);
  g_assert_true (steward_config_load (config, NULL, &error));
  g_assert_no_error (error);

  return config;
}

static StewardImportCandidate *
get_candidate (GListModel *candidates,
               const char *name)
{
  for (guint i = 0; i < g_list_model_get_n_items (candidates); i++)
    {
      g_autoptr(StewardImportCandidate) candidate = g_list_model_get_item (candidates, i);

      if (g_str_equal (steward_import_candidate_get_name (candidate), name))
        return candidate;
    }

  g_error ("No candidate %s", name);
  return NULL;
}

static GListModel *
parse (StewardConfig *config,
       const char    *text)
{
  g_autoptr(GError) error = NULL;
  GListModel *candidates;

  candidates = steward_import_parse (config, text, strlen (text), &error);
  g_assert_no_error (error);
  g_assert_nonnull (candidates);
  g_assert_true (g_list_model_get_item_type (candidates) == STEWARD_TYPE_IMPORT_CANDIDATE);

  return candidates;
}

static void
test_claude (void)
{
  StewardConfig *config = config_new ("claude");
  GListModel *candidates = parse (config, claude_sample);
  StewardImportCandidate *candidate;
  StewardServerConfig *server;

  g_assert_cmpuint (g_list_model_get_n_items (candidates), ==, 3);

  candidate = get_candidate (candidates, "filesystem");
  server = steward_import_candidate_get_config (candidate);
  g_assert_cmpstr (steward_server_config_get_command (server), ==, "npx");
  g_assert_cmpstr (steward_server_config_get_args (server)[2], ==, "/Users/me/Desktop");
  g_assert_true (steward_import_candidate_get_exists (candidate));
  g_assert_null (steward_import_candidate_get_problem (candidate));
  /* Replacing a server the person has is their choice, never the default. */
  g_assert_false (steward_import_candidate_get_selected (candidate));
  g_assert_cmpstrv (steward_import_candidate_get_secret_keys (candidate),
                    ((const char * const[]) { NULL }));

  candidate = get_candidate (candidates, "github");
  g_assert_false (steward_import_candidate_get_exists (candidate));
  g_assert_null (steward_import_candidate_get_problem (candidate));
  g_assert_true (steward_import_candidate_get_selected (candidate));
  g_assert_cmpstrv (steward_import_candidate_get_secret_keys (candidate),
                    ((const char * const[]) { "GITHUB_PERSONAL_ACCESS_TOKEN", NULL }));

  candidate = get_candidate (candidates, "remote");
  server = steward_import_candidate_get_config (candidate);
  g_assert_true (steward_server_config_is_remote (server));
  g_assert_cmpint (steward_server_config_get_transport (server), ==,
                   STEWARD_SERVER_TRANSPORT_STREAMABLE_HTTP);
  g_assert_cmpstrv (steward_import_candidate_get_secret_keys (candidate),
                    ((const char * const[]) { "Authorization", NULL }));

  g_assert_finalize_object (candidates);
  g_assert_finalize_object (config);
}

static void
test_vscode (void)
{
  StewardConfig *config = config_new ("vscode");
  GListModel *candidates = parse (config, vscode_sample);
  StewardImportCandidate *candidate;
  StewardServerConfig *server;
  const char *problem;

  /* "odd" and "url" cannot be read, and are left out. */
  g_assert_cmpuint (g_list_model_get_n_items (candidates), ==, 7);
  /* In the order of the file. */
  candidate = g_list_model_get_item (candidates, 0);
  g_assert_cmpstr (steward_import_candidate_get_name (candidate), ==, "memory");
  g_object_unref (candidate);

  candidate = get_candidate (candidates, "memory");
  server = steward_import_candidate_get_config (candidate);
  g_assert_cmpstr (steward_server_config_get_command (server), ==, "npx");
  g_assert_cmpstr (g_hash_table_lookup (steward_server_config_get_env (server), "MEMORY_FILE"),
                   ==, "/home/me/memory.json");
  /* VS Code's "type" is not carried over; "stdio" is the default. */
  g_assert_false (json_object_has_member (steward_server_config_get_json (server), "type"));
  g_assert_null (steward_import_candidate_get_problem (candidate));
  g_assert_true (steward_import_candidate_get_selected (candidate));
  g_assert_false (steward_import_candidate_get_exists (candidate));

  candidate = get_candidate (candidates, "perplexity");
  problem = steward_import_candidate_get_problem (candidate);
  g_test_message ("perplexity: %s", problem);
  g_assert_nonnull (problem);
  g_assert_nonnull (strstr (problem, "${input:perplexity-key}"));
  g_assert_false (steward_import_candidate_get_selected (candidate));
  /* A variable is not a value one could move into the keyring. */
  g_assert_cmpstrv (steward_import_candidate_get_secret_keys (candidate),
                    ((const char * const[]) { NULL }));

  candidate = get_candidate (candidates, "dotenv");
  problem = steward_import_candidate_get_problem (candidate);
  g_test_message ("dotenv: %s", problem);
  g_assert_nonnull (strstr (problem, "envFile"));
  g_assert_nonnull (strstr (problem, "${workspaceFolder}/.env"));
  g_assert_false (steward_import_candidate_get_selected (candidate));
  g_assert_nonnull (steward_import_candidate_get_config (candidate));

  candidate = get_candidate (candidates, "workspace");
  problem = steward_import_candidate_get_problem (candidate);
  g_test_message ("workspace: %s", problem);
  g_assert_nonnull (strstr (problem, "${workspaceFolder}"));
  g_assert_nonnull (strstr (problem, "${env:HOME}"));
  g_assert_false (steward_import_candidate_get_selected (candidate));
  server = steward_import_candidate_get_config (candidate);
  g_assert_nonnull (server);
  g_assert_null (steward_server_config_get_cwd (server));

  candidate = get_candidate (candidates, "plain-cwd");
  server = steward_import_candidate_get_config (candidate);
  g_assert_cmpstr (steward_server_config_get_cwd (server), ==, "/srv/app");
  g_assert_null (steward_import_candidate_get_problem (candidate));
  g_assert_cmpstrv (steward_import_candidate_get_secret_keys (candidate),
                    ((const char * const[]) { "SLACK_BOT_TOKEN", NULL }));

  candidate = get_candidate (candidates, "github");
  server = steward_import_candidate_get_config (candidate);
  g_assert_cmpint (steward_server_config_get_transport (server), ==,
                   STEWARD_SERVER_TRANSPORT_STREAMABLE_HTTP);
  g_assert_cmpstr (steward_server_config_get_url (server), ==,
                   "https://api.githubcopilot.com/mcp/");
  g_assert_cmpstrv (steward_import_candidate_get_secret_keys (candidate),
                    ((const char * const[]) { "Authorization", NULL }));
  g_assert_true (steward_import_candidate_get_selected (candidate));

  candidate = get_candidate (candidates, "legacy");
  server = steward_import_candidate_get_config (candidate);
  g_assert_cmpint (steward_server_config_get_transport (server), ==, STEWARD_SERVER_TRANSPORT_SSE);
  g_assert_cmpstr (json_object_get_string_member (steward_server_config_get_json (server),
                                                  "transport"), ==, "sse");

  for (guint i = 0; i < g_list_model_get_n_items (candidates); i++)
    {
      g_autoptr(StewardImportCandidate) each = g_list_model_get_item (candidates, i);

      g_assert_cmpstr (steward_import_candidate_get_name (each), !=, "odd");
      g_assert_cmpstr (steward_import_candidate_get_name (each), !=, "url");
    }

  g_assert_finalize_object (candidates);
  g_assert_finalize_object (config);
}

static void
test_vscode_settings (void)
{
  static const char settings[] =
    "{\n"
    "  \"editor.fontSize\": 14,\n"
    "  \"mcp\": {\"servers\": {\"mine\": {\"type\": \"stdio\", \"command\": \"x\"}}}\n"
    "}\n";
  StewardConfig *config = config_new ("settings");
  GListModel *candidates = parse (config, settings);
  StewardImportCandidate *candidate;

  g_assert_cmpuint (g_list_model_get_n_items (candidates), ==, 1);
  candidate = get_candidate (candidates, "mine");
  g_assert_true (steward_import_candidate_get_exists (candidate));
  g_assert_cmpstr (steward_server_config_get_command (
                     steward_import_candidate_get_config (candidate)), ==, "x");

  g_assert_finalize_object (candidates);
  g_assert_finalize_object (config);
}

static void
test_not_a_config (void)
{
  static const struct {
    const char *text;
    int         code;
    const char *expected;
  } cases[] = {
    { "{\n  \"mcpServers\": {\n    \"a\": [}\n}", STEWARD_CONFIG_ERROR_PARSE, "line 3, column" },
    { "", STEWARD_CONFIG_ERROR_PARSE, "not valid JSON" },
    { "/* only a comment */", STEWARD_CONFIG_ERROR_PARSE, "not valid JSON" },
    { "/* unclosed comment", STEWARD_CONFIG_ERROR_PARSE, "not valid JSON" },
    { "[]", STEWARD_CONFIG_ERROR_INVALID, "neither Claude" },
    { "{\"theme\": \"dark\"}", STEWARD_CONFIG_ERROR_INVALID, "\"mcpServers\" (Claude Desktop)" },
    { "{\"servers\": []}", STEWARD_CONFIG_ERROR_INVALID, "\"servers\" must be an object" },
    { "{\"mcpServers\": 1}", STEWARD_CONFIG_ERROR_INVALID, "\"mcpServers\" must be an object" },
  };
  StewardConfig *config = config_new ("bad");

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      GListModel *candidates;

      candidates = steward_import_parse (config, cases[i].text, strlen (cases[i].text), &error);
      g_assert_null (candidates);
      g_test_message ("%s", error->message);
      g_assert_error (error, STEWARD_CONFIG_ERROR, cases[i].code);
      g_assert_nonnull (strstr (error->message, cases[i].expected));
    }

  g_assert_finalize_object (config);
}

static void
test_broken_entry (void)
{
  static const char broken[] =
    "{\"mcpServers\": {\"no-command\": {\"args\": [\"x\"]}, \"string\": \"npx\","
    " \"relative\": {\"command\": \"x\", \"cwd\": \"src\"}}}";
  static const char mixed[] =
    "{\"mcpServers\": {\"no-command\": {\"args\": [\"x\"]}, \"good\": {\"command\": \"x\"},"
    " \"string\": \"npx\"}}";
  StewardConfig *config = config_new ("broken");
  g_autoptr(GError) error = NULL;
  GListModel *candidates;

  /* Entries that cannot be read are left out of what is offered. */
  candidates = parse (config, mixed);
  g_assert_cmpuint (g_list_model_get_n_items (candidates), ==, 1);
  g_assert_nonnull (steward_import_candidate_get_config (get_candidate (candidates, "good")));
  g_assert_finalize_object (candidates);

  /* With none left, the error says why, rather than an empty list. */
  candidates = steward_import_parse (config, broken, strlen (broken), &error);
  g_assert_null (candidates);
  g_test_message ("%s", error->message);
  g_assert_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "no server in the file can be imported"));
  g_assert_nonnull (strstr (error->message, "server `no-command`: needs \"command\""));

  g_assert_finalize_object (config);
}

static void
test_default_files (void)
{
  g_autoptr(GFile) claude = steward_import_default_file (STEWARD_IMPORT_SOURCE_CLAUDE_DESKTOP);
  g_autoptr(GFile) vscode = steward_import_default_file (STEWARD_IMPORT_SOURCE_VSCODE);
  g_autofree char *claude_path = g_build_filename (g_get_user_config_dir (), "Claude",
                                                   "claude_desktop_config.json", NULL);
  g_autofree char *vscode_path = g_build_filename (g_get_user_config_dir (), "Code", "User",
                                                   "mcp.json", NULL);
  g_autofree char *claude_got = g_file_get_path (claude);
  g_autofree char *vscode_got = g_file_get_path (vscode);

  g_assert_cmpstr (claude_got, ==, claude_path);
  g_assert_cmpstr (vscode_got, ==, vscode_path);
}

static void
notify_cb (GObject    *object,
           GParamSpec *pspec,
           guint      *count)
{
  (*count)++;
}

static void
test_selected (void)
{
  StewardConfig *config = config_new ("selected");
  GListModel *candidates = parse (config, claude_sample);
  StewardImportCandidate *candidate = get_candidate (candidates, "github");
  guint notified = 0;

  g_signal_connect (candidate, "notify::selected", G_CALLBACK (notify_cb), &notified);
  steward_import_candidate_set_selected (candidate, TRUE);
  g_assert_cmpuint (notified, ==, 0);
  steward_import_candidate_set_selected (candidate, FALSE);
  g_assert_cmpuint (notified, ==, 1);
  g_assert_false (steward_import_candidate_get_selected (candidate));
  g_object_set (candidate, "selected", TRUE, NULL);
  g_assert_cmpuint (notified, ==, 2);
  g_signal_handlers_disconnect_by_data (candidate, &notified);

  g_assert_finalize_object (candidates);
  g_assert_finalize_object (config);
}

static guint
apply (StewardConfig   *config,
       StewardSecrets  *secrets,
       GListModel      *candidates,
       gboolean         move_secrets,
       GError         **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  steward_import_apply_async (config, secrets, candidates,
                              move_secrets ? STEWARD_IMPORT_MOVE_SECRETS : STEWARD_IMPORT_NONE,
                              NULL, result_cb, &result);
  return steward_import_apply_finish (config, wait_for_result (&result, "the import"), error);
}

static void
test_apply (void)
{
  StewardConfig *config = config_new ("apply");
  GListModel *candidates = parse (config, vscode_sample);
  g_autoptr(GError) error = NULL;
  g_autoptr(GListModel) none = NULL;
  g_autofree char *text = NULL;
  g_autofree char *path = g_file_get_path (steward_config_get_file (config));
  StewardServerConfig *server;
  StewardConfig *again;

  /* Chosen by hand: one with a problem in, one without out. */
  steward_import_candidate_set_selected (get_candidate (candidates, "perplexity"), TRUE);
  steward_import_candidate_set_selected (get_candidate (candidates, "memory"), FALSE);

  g_assert_cmpuint (apply (config, NULL, candidates, FALSE, &error), ==, 4);
  g_assert_no_error (error);

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  g_test_message ("%s", text);
  /* Without moving, values stay as they were. */
  g_assert_nonnull (strstr (text, "xoxb-123456789012-abcdefghij"));
  g_assert_nonnull (strstr (text, "${input:perplexity-key}"));

  again = steward_config_new (steward_config_get_file (config));
  g_assert_true (steward_config_load (again, NULL, &error));
  g_assert_no_error (error);
  /* filesystem and mine, with plain-cwd, perplexity, github and legacy. */
  g_assert_cmpuint (g_list_model_get_n_items (steward_config_get_servers (again)), ==, 6);
  g_assert_null (steward_config_lookup (again, "memory", NULL));
  g_assert_null (steward_config_lookup (again, "odd", NULL));
  server = steward_config_lookup (again, "github", &error);
  g_assert_cmpstr (g_hash_table_lookup (steward_server_config_get_headers (server),
                                        "Authorization"), ==,
                   "Bearer ghp_0123456789abcdefABCDEF0123456789abcd");
  server = steward_config_lookup (again, "legacy", &error);
  g_assert_cmpint (steward_server_config_get_transport (server), ==, STEWARD_SERVER_TRANSPORT_SSE);
  g_assert_finalize_object (again);

  /* Nothing chosen, nothing done. */
  none = parse (config, "{\"mcpServers\": {}}");
  g_assert_cmpuint (apply (config, NULL, none, FALSE, &error), ==, 0);
  g_assert_no_error (error);

  g_assert_finalize_object (candidates);
  g_assert_finalize_object (config);
}

static char *
lookup_secret (StewardSecrets *secrets,
               const char     *reference)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *id = steward_secret_reference_get_id (reference);
  char *value;

  g_assert_nonnull (id);
  steward_secrets_lookup_async (secrets, id, NULL, result_cb, &result);
  value = steward_secrets_lookup_finish (secrets, wait_for_result (&result, "a lookup"), &error);
  g_assert_no_error (error);

  return value;
}

static void
clear_secret (StewardSecrets *secrets,
              const char     *reference)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *id = steward_secret_reference_get_id (reference);

  steward_secrets_clear_async (secrets, id, NULL, result_cb, &result);
  g_assert_true (steward_secrets_clear_finish (secrets, wait_for_result (&result, "a clear"),
                                               &error));
  g_assert_no_error (error);
}

static void
test_apply_secrets (void)
{
  StewardConfig *config;
  StewardSecrets *secrets;
  GListModel *candidates;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *path = NULL;
  StewardServerConfig *github;
  StewardServerConfig *remote;
  const char *token;
  const char *authorization;
  char *value;

  if (g_getenv ("STEWARD_TEST_HOME") == NULL)
    {
      g_test_skip ("moving secrets runs under tests/run-in-session, with a keyring of its own");
      return;
    }

  config = config_new ("apply-secrets");
  secrets = steward_secrets_new ();
  candidates = parse (config, claude_sample);
  path = g_file_get_path (steward_config_get_file (config));
  /* The person ticked the one that replaces their own. */
  steward_import_candidate_set_selected (get_candidate (candidates, "filesystem"), TRUE);

  g_assert_cmpuint (apply (config, secrets, candidates, TRUE, &error), ==, 3);
  g_assert_no_error (error);

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  g_test_message ("%s", text);
  g_assert_null (strstr (text, "ghp_0123456789abcdefABCDEF0123456789abcd"));
  g_assert_null (strstr (text, "abcdefgh12345678"));
  g_assert_nonnull (strstr (text, "repos,issues"));

  /* The existing entry was replaced by the imported one. */
  g_assert_cmpstr (steward_server_config_get_command (
                     steward_config_lookup (config, "filesystem", NULL)), ==, "npx");

  github = steward_config_lookup (config, "github", &error);
  g_assert_no_error (error);
  token = g_hash_table_lookup (steward_server_config_get_env (github),
                               "GITHUB_PERSONAL_ACCESS_TOKEN");
  g_assert_true (g_str_has_prefix (token, "${keyring:"));
  g_assert_cmpstr (g_hash_table_lookup (steward_server_config_get_env (github),
                                        "GITHUB_TOOLSETS"), ==, "repos,issues");
  value = lookup_secret (secrets, token);
  g_assert_cmpstr (value, ==, "ghp_0123456789abcdefABCDEF0123456789abcd");
  steward_secret_value_free (value);

  /* A header's whole value moves, scheme and all. */
  remote = steward_config_lookup (config, "remote", &error);
  authorization = g_hash_table_lookup (steward_server_config_get_headers (remote),
                                       "Authorization");
  g_assert_true (g_str_has_prefix (authorization, "${keyring:"));
  g_assert_cmpstr (g_hash_table_lookup (steward_server_config_get_headers (remote), "X-Region"),
                   ==, "eu");
  value = lookup_secret (secrets, authorization);
  g_assert_cmpstr (value, ==, "Bearer abcdefgh12345678");
  steward_secret_value_free (value);

  clear_secret (secrets, token);
  clear_secret (secrets, authorization);

  g_assert_finalize_object (candidates);
  g_assert_finalize_object (secrets);
  g_assert_finalize_object (config);
}

static void
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
      g_rmdir (path);
      return;
    }

  g_remove (path);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);

  tmp_dir = g_dir_make_tmp ("steward-test-config-import-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/steward/config-import/claude", test_claude);
  g_test_add_func ("/steward/config-import/vscode", test_vscode);
  g_test_add_func ("/steward/config-import/vscode-settings", test_vscode_settings);
  g_test_add_func ("/steward/config-import/not-a-config", test_not_a_config);
  g_test_add_func ("/steward/config-import/broken-entry", test_broken_entry);
  g_test_add_func ("/steward/config-import/default-files", test_default_files);
  g_test_add_func ("/steward/config-import/selected", test_selected);
  g_test_add_func ("/steward/config-import/apply", test_apply);
  g_test_add_func ("/steward/config-import/apply-secrets", test_apply_secrets);

  status = g_test_run ();

  remove_tree (tmp_dir);
  g_clear_pointer (&tmp_dir, g_free);

  return status;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-server"

#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mcp-error.h"
#include "mcp-stdio-transport.h"
#include "mcp-tool.h"

#include "steward-host.h"
#include "steward-server-private.h"

#include "test-host-fixture.h"

/* StewardServer as the app runs it: consent first, then the reference
 * server "everything" over stdio with sampling, roots and the log; and
 * servers from tests/servers that crash, crash for good, cannot be found,
 * or will not stop. */

static gboolean
flag_cb (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Lets the main loop run for a while, to see that something does not
 * happen (a restart after giving up, say). */
static void
run_for (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, flag_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

typedef struct {
  char         *top;
  StewardHost  *host;
  GArray       *statuses;   /* StewardServerStatus, each change */
  GArray       *retry_ins;  /* guint, each change to a non-zero value */
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fixture->top = test_make_top ("test-server");
  fixture->host = test_host_new_in (fixture->top);
  /* As steward_host_start() does: consents are sealed with the keyring's
   * key, and written only then. */
  {
    g_autoptr(GAsyncResult) result = NULL;
    StewardConsentStore *store = steward_host_get_consent_store (fixture->host);

    steward_consent_store_load_async (store, NULL, test_store_result_cb, &result);
    test_loop_until (result != NULL, 20);
    g_assert_true (steward_consent_store_load_finish (store, result, &error));
  }
  fixture->statuses = g_array_new (FALSE, FALSE, sizeof (StewardServerStatus));
  fixture->retry_ins = g_array_new (FALSE, FALSE, sizeof (guint));
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  /* Let what closed finish its last callbacks. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_finalize_object (fixture->host);
  g_array_unref (fixture->statuses);
  g_array_unref (fixture->retry_ins);
  test_remove_tree (fixture->top);
  g_free (fixture->top);
}

static void
status_cb (StewardServer *server,
           GParamSpec    *pspec,
           Fixture       *fixture)
{
  StewardServerStatus status = steward_server_get_status (server);

  g_array_append_val (fixture->statuses, status);
}

static void
retry_in_cb (StewardServer *server,
             GParamSpec    *pspec,
             Fixture       *fixture)
{
  guint retry_in = steward_server_get_retry_in (server);

  if (retry_in > 0)
    g_array_append_val (fixture->retry_ins, retry_in);
}

static StewardServer *
new_server (Fixture             *fixture,
            StewardServerConfig *config)
{
  StewardServer *server = steward_server_new (steward_host_get_server_context (fixture->host),
                                              config);

  g_signal_connect (server, "notify::status", G_CALLBACK (status_cb), fixture);
  g_signal_connect (server, "notify::retry-in", G_CALLBACK (retry_in_cb), fixture);

  return server;
}

static StewardServerConfig *
lifecycle_config (const char *name,
                  const char *first_arg,
                  ...) G_GNUC_NULL_TERMINATED;

/* A server from tests/servers/lifecycle-server.py, run by python3. */
static StewardServerConfig *
lifecycle_config (const char *name,
                  const char *first_arg,
                  ...)
{
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "servers",
                                                   "lifecycle-server.py", NULL);
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autoptr(StewardServerConfig) config = NULL;
  const char *arg;
  va_list ap;

  g_ptr_array_add (args, script);
  va_start (ap, first_arg);
  for (arg = first_arg; arg != NULL; arg = va_arg (ap, const char *))
    g_ptr_array_add (args, (gpointer) arg);
  va_end (ap);
  g_ptr_array_add (args, NULL);

  config = steward_server_config_new_stdio (name, "/usr/bin/python3",
                                            (const char * const *) args->pdata, NULL, NULL);

  /* These servers keep their state in a file the test reads, and announce
   * the pids of what they leave behind: outside a sandbox, whose own
   * folders and pid numbers would hide both. test-sandbox-escape runs
   * servers in it. */
  return steward_server_config_with_permissions (config, -1, FALSE, TRUE, NULL);
}

static void
give_consent (Fixture             *fixture,
              StewardServerConfig *config)
{
  StewardConfig *store = steward_host_get_config (fixture->host);
  g_autoptr(GError) error = NULL;

  g_assert_true (steward_config_record_consent (store, config, &error));
  g_assert_no_error (error);
}

static void
stop_server (StewardServer *server)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  steward_server_stop_async (server, NULL, test_store_result_cb, &result);
  test_loop_until (result != NULL, 10);
  g_assert_true (steward_server_stop_finish (server, result, &error));
  g_assert_no_error (error);
  g_assert_null (steward_server_get_client (server));
}

static StewardApproval *
wait_for_approval (Fixture             *fixture,
                   StewardApprovalKind  kind)
{
  GListModel *approvals = G_LIST_MODEL (steward_host_get_approvals (fixture->host));
  StewardApproval *found = NULL;

  while (found == NULL)
    {
      test_loop_until (g_list_model_get_n_items (approvals) > 0, 20);
      for (guint i = 0; i < g_list_model_get_n_items (approvals) && found == NULL; i++)
        {
          g_autoptr(StewardApproval) approval = g_list_model_get_item (approvals, i);

          if (steward_approval_get_kind (approval) == kind &&
              !steward_approval_get_finished (approval))
            found = approval;
        }
      if (found == NULL)
        g_main_context_iteration (NULL, TRUE);
    }

  return found;
}

/* The newest entry of @source whose text holds @needle, or NULL. */
static StewardLogEntry *
find_entry (Fixture          *fixture,
            StewardLogSource  source,
            const char       *needle)
{
  StewardLogStore *store = steward_host_get_log_store (fixture->host);
  GListModel *model = G_LIST_MODEL (store);

  steward_log_store_flush (store);
  for (guint i = g_list_model_get_n_items (model); i > 0; i--)
    {
      g_autoptr(StewardLogEntry) entry = g_list_model_get_item (model, i - 1);

      if (steward_log_entry_get_source (entry) == source &&
          strstr (steward_log_entry_get_text (entry), needle) != NULL)
        return entry;
    }

  return NULL;
}

/* The newest protocol entry older than @newer whose text holds @needle. */
static StewardLogEntry *
find_entry_before (Fixture         *fixture,
                   StewardLogEntry *newer,
                   const char      *needle)
{
  GListModel *model = G_LIST_MODEL (steward_host_get_log_store (fixture->host));
  gboolean passed = FALSE;

  for (guint i = g_list_model_get_n_items (model); i > 0; i--)
    {
      g_autoptr(StewardLogEntry) entry = g_list_model_get_item (model, i - 1);

      if (entry == newer)
        passed = TRUE;
      else if (passed && steward_log_entry_get_source (entry) == STEWARD_LOG_SOURCE_TRACE &&
               strstr (steward_log_entry_get_text (entry), needle) != NULL)
        return entry;
    }

  return NULL;
}

static guint
count_entries (Fixture          *fixture,
               StewardLogSource  source)
{
  StewardLogStore *store = steward_host_get_log_store (fixture->host);
  GListModel *model = G_LIST_MODEL (store);
  guint count = 0;

  steward_log_store_flush (store);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(StewardLogEntry) entry = g_list_model_get_item (model, i);

      count += steward_log_entry_get_source (entry) == source;
    }

  return count;
}

static gboolean
has_status (Fixture             *fixture,
            StewardServerStatus  status)
{
  for (guint i = 0; i < fixture->statuses->len; i++)
    if (g_array_index (fixture->statuses, StewardServerStatus, i) == status)
      return TRUE;

  return FALSE;
}

static guint
count_status (Fixture             *fixture,
              StewardServerStatus  status)
{
  guint count = 0;

  for (guint i = 0; i < fixture->statuses->len; i++)
    count += g_array_index (fixture->statuses, StewardServerStatus, i) == status;

  return count;
}

/* The reference server */

static char *
everything_script (void)
{
  const char *peers = g_getenv ("STEWARD_PEERS_DIR");

  g_assert_nonnull (peers);
  return g_build_filename (peers, "@modelcontextprotocol", "server-everything", "dist",
                           "index.js", NULL);
}

static gboolean
has_tool (StewardServer *server,
          const char    *name)
{
  McpClient *client = steward_server_get_client (server);
  GListModel *tools;

  if (client == NULL)
    return FALSE;

  tools = mcp_client_get_tools (client);
  for (guint i = 0; i < g_list_model_get_n_items (tools); i++)
    {
      g_autoptr(McpTool) tool = g_list_model_get_item (tools, i);

      if (g_str_equal (mcp_item_get_name (MCP_ITEM (tool)), name))
        return TRUE;
    }

  return FALSE;
}

static JsonObject *
parse_object (const char *json)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

static char *
call_tool_text (StewardServer *server,
                const char    *tool,
                const char    *arguments)
{
  g_autoptr(JsonObject) object = parse_object (arguments);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(McpToolResult) tool_result = NULL;
  g_autoptr(GError) error = NULL;

  steward_server_call_tool_async (server, tool, object, NULL, NULL, NULL, NULL,
                                  test_store_result_cb, &result);
  test_loop_until (result != NULL, 20);
  tool_result = steward_server_call_tool_finish (server, result, &error);
  g_assert_no_error (error);

  return mcp_tool_result_dup_text (tool_result);
}

static char *
json_text (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), object);

  return json_to_string (node, FALSE);
}

static void
test_everything (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autofree char *script = everything_script ();
  const char *args[] = { script, "stdio", NULL };
  g_autoptr(GHashTable) env = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(StewardServerConfig) config = NULL;
  StewardServer *server;
  StewardApproval *approval;
  JsonObject *request;
  JsonArray *array;
  g_autofree char *request_text = NULL;
  g_autofree char *text = NULL;
  g_autofree char *root_path = NULL;
  g_autoptr(GFile) root_folder = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(McpToolResult) tool_result = NULL;
  StewardLogEntry *entry;
  StewardRoot *root;

  g_hash_table_insert (env, "EVERYTHING_SETTING", "value-that-must-not-show");
  config = steward_server_config_new_stdio ("everything", "node", args, env, fixture->top);
  server = new_server (fixture, config);
  g_assert_cmpint (steward_server_get_status (server), ==, STEWARD_SERVER_STATUS_STOPPED);

  /* Consent comes first, with the exact command and the names of the
   * variables, never their values. */
  steward_server_start (server);
  g_assert_cmpint (steward_server_get_status (server), ==,
                   STEWARD_SERVER_STATUS_AWAITING_CONSENT);
  g_assert_null (steward_server_get_client (server));
  approval = wait_for_approval (fixture, STEWARD_APPROVAL_KIND_CONSENT);
  g_assert_cmpstr (steward_approval_get_server (approval), ==, "everything");
  request = steward_approval_get_request (approval);
  g_assert_cmpstr (json_object_get_string_member (request, "command"), ==, "node");
  array = json_object_get_array_member (request, "args");
  g_assert_cmpuint (json_array_get_length (array), ==, 2);
  g_assert_cmpstr (json_array_get_string_element (array, 0), ==, script);
  g_assert_cmpstr (json_array_get_string_element (array, 1), ==, "stdio");
  g_assert_cmpstr (json_object_get_string_member (request, "cwd"), ==, fixture->top);
  array = json_object_get_array_member (request, "env");
  g_assert_cmpuint (json_array_get_length (array), ==, 1);
  g_assert_cmpstr (json_array_get_string_element (array, 0), ==, "EVERYTHING_SETTING");
  g_assert_false (json_object_get_boolean_member (request, "changed"));
  request_text = json_text (request);
  g_assert_null (strstr (request_text, "value-that-must-not-show"));
  g_assert_nonnull (find_entry (fixture, STEWARD_LOG_SOURCE_HOST, "permission"));

  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_ALLOW, NULL);
  test_loop_until (steward_server_get_status (server) == STEWARD_SERVER_STATUS_READY, 30);
  g_assert_nonnull (steward_server_get_revision (server));
  g_assert_nonnull (strstr (steward_server_get_status_text (server),
                            steward_server_get_revision (server)));
  g_assert_true (steward_config_has_consent (steward_host_get_config (fixture->host), config));
  g_test_message ("ready with revision %s", steward_server_get_revision (server));

  /* A tool call, and its trace. */
  text = call_tool_text (server, "echo", "{\"message\":\"hello from the test\"}");
  g_assert_nonnull (strstr (text, "hello from the test"));
  /* Its row names the tool, and the answer's names what it answers. */
  entry = find_entry (fixture, STEWARD_LOG_SOURCE_TRACE, "tools/call “echo” id");
  g_assert_nonnull (entry);
  g_assert_cmpint (steward_log_entry_get_direction (entry), ==, STEWARD_LOG_DIRECTION_OUT);
  g_assert_nonnull (strstr (steward_log_entry_get_detail (entry), "hello from the test"));
  g_assert_cmpuint (steward_log_entry_get_size (entry), >, 0);
  entry = find_entry (fixture, STEWARD_LOG_SOURCE_TRACE, " for tools/call “echo”");
  g_assert_nonnull (entry);
  g_assert_true (g_str_has_prefix (steward_log_entry_get_text (entry), "result id "));
  g_assert_nonnull (entry);
  g_assert_cmpint (steward_log_entry_get_direction (entry), ==, STEWARD_LOG_DIRECTION_IN);
  g_assert_nonnull (find_entry (fixture, STEWARD_LOG_SOURCE_STDERR, "Starting"));
  g_assert_nonnull (find_entry (fixture, STEWARD_LOG_SOURCE_HOST, "Ready"));

  /* Sampling, caused by a tool call: the person goes on to the answer,
   * writes it and sends it. */
  test_loop_until (has_tool (server, "trigger-sampling-request"), 20);
  {
    g_autoptr(JsonObject) arguments = parse_object ("{\"prompt\":\"say hi\",\"maxTokens\":50}");

    steward_server_call_tool_async (server, "trigger-sampling-request", arguments, NULL, NULL,
                                    NULL, NULL, test_store_result_cb, &result);
  }
  approval = wait_for_approval (fixture, STEWARD_APPROVAL_KIND_SAMPLING);
  g_assert_cmpstr (steward_approval_get_server (approval), ==, "everything");
  g_assert_nonnull (steward_approval_get_cause (approval));
  g_assert_nonnull (strstr (steward_approval_get_cause (approval), "trigger-sampling-request"));
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_CONTINUE, NULL);
  g_assert_cmpint (steward_approval_get_stage (approval), ==, STEWARD_APPROVAL_STAGE_RESPONSE);
  steward_approval_set_answer_text (approval, "written by a person");
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_SEND, NULL);
  test_loop_until (result != NULL, 20);
  tool_result = steward_server_call_tool_finish (server, result, &error);
  g_assert_no_error (error);
  g_free (text);
  text = mcp_tool_result_dup_text (tool_result);
  g_assert_nonnull (strstr (text, "written by a person"));

  /* Roots: a folder the person adds reaches the server. */
  test_loop_until (has_tool (server, "get-roots-list"), 20);
  g_free (text);
  text = call_tool_text (server, "get-roots-list", "{}");
  g_assert_null (strstr (text, "file://"));
  root_path = g_build_filename (fixture->top, "project", NULL);
  g_assert_cmpint (g_mkdir (root_path, 0700), ==, 0);
  root_folder = g_file_new_for_path (root_path);
  root = steward_roots_add (steward_host_get_roots (fixture->host), root_folder, &error);
  g_assert_no_error (error);
  test_loop_until (find_entry (fixture, STEWARD_LOG_SOURCE_SERVER, "1 root(s)") != NULL, 20);
  g_free (text);
  text = call_tool_text (server, "get-roots-list", "{}");
  g_assert_nonnull (strstr (text, steward_root_get_uri (root)));

  stop_server (server);
  g_assert_cmpint (steward_server_get_status (server), ==, STEWARD_SERVER_STATUS_STOPPED);
  g_assert_nonnull (find_entry (fixture, STEWARD_LOG_SOURCE_HOST, "Stopped"));
  g_clear_object (&result);
  g_assert_finalize_object (server);
}

/* Misbehaving servers */

static void
test_crash_restart (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *state = g_build_filename (fixture->top, "runs", NULL);
  g_autoptr(StewardServerConfig) config = lifecycle_config ("crashy", "crash", state, "1", NULL);
  StewardServer *server = new_server (fixture, config);
  guint first_ready;
  guint restarting = 0;
  guint starting = 0;
  guint ready_again = 0;

  /* Long enough to see the countdown tick at least once. */
  steward_server_set_backoff_for_testing (server, 2200, 30000, 60000);
  give_consent (fixture, config);
  steward_server_start (server);

  test_loop_until (has_status (fixture, STEWARD_SERVER_STATUS_RESTARTING), 20);
  g_assert_nonnull (strstr (steward_server_get_status_text (server), "Restarting in"));
  g_assert_nonnull (strstr (steward_server_get_detail_text (server), "something went badly"));
  g_assert_cmpuint (steward_server_get_retry_in (server), >=, 2);
  g_assert_nonnull (find_entry (fixture, STEWARD_LOG_SOURCE_HOST, "Restarting in"));

  test_loop_until (count_status (fixture, STEWARD_SERVER_STATUS_READY) == 2, 20);

  /* READY, then RESTARTING, STARTING and READY again, in that order. */
  for (first_ready = 0; first_ready < fixture->statuses->len; first_ready++)
    if (g_array_index (fixture->statuses, StewardServerStatus, first_ready) ==
        STEWARD_SERVER_STATUS_READY)
      break;
  for (guint i = first_ready + 1; i < fixture->statuses->len; i++)
    {
      StewardServerStatus status = g_array_index (fixture->statuses, StewardServerStatus, i);

      if (status == STEWARD_SERVER_STATUS_RESTARTING && restarting == 0)
        restarting = i;
      else if (status == STEWARD_SERVER_STATUS_STARTING && restarting > 0 && starting == 0)
        starting = i;
      else if (status == STEWARD_SERVER_STATUS_READY && starting > 0)
        ready_again = i;
    }
  g_assert_cmpuint (restarting, >, first_ready);
  g_assert_cmpuint (starting, >, restarting);
  g_assert_cmpuint (ready_again, >, starting);

  /* The countdown went down a second at a time. */
  g_assert_cmpuint (fixture->retry_ins->len, >=, 2);
  for (guint i = 1; i < fixture->retry_ins->len; i++)
    g_assert_cmpuint (g_array_index (fixture->retry_ins, guint, i), ==,
                      g_array_index (fixture->retry_ins, guint, i - 1) - 1);
  g_assert_cmpuint (steward_server_get_retry_in (server), ==, 0);
  g_assert_null (steward_server_get_detail_text (server));

  stop_server (server);
  g_assert_finalize_object (server);
}

/* "Keeps crashing" is for a server that ran: each run answers, then
 * exits. */
static void
test_give_up (Fixture       *fixture,
              gconstpointer  data)
{
  g_autofree char *state = g_build_filename (fixture->top, "runs", NULL);
  g_autoptr(StewardServerConfig) config = lifecycle_config ("doomed", "crash", state, "100",
                                                            NULL);
  StewardServer *server = new_server (fixture, config);
  const char *detail;

  steward_server_set_backoff_for_testing (server, 50, 1000, 60000);
  give_consent (fixture, config);
  steward_server_start (server);

  test_loop_until (steward_server_get_status (server) == STEWARD_SERVER_STATUS_FAILED, 20);
  g_assert_cmpuint (count_status (fixture, STEWARD_SERVER_STATUS_READY), >=, 1);
  g_assert_cmpuint (count_status (fixture, STEWARD_SERVER_STATUS_RESTARTING), ==, 4);
  g_assert_cmpuint (count_status (fixture, STEWARD_SERVER_STATUS_STARTING), ==, 5);
  g_assert_nonnull (strstr (steward_server_get_status_text (server), "keeps crashing"));
  detail = steward_server_get_detail_text (server);
  g_test_message ("%s", detail);
  g_assert_nonnull (strstr (detail, "something went badly wrong"));
  g_assert_nonnull (strstr (detail, "run 5: giving up now"));
  g_assert_nonnull (find_entry (fixture, STEWARD_LOG_SOURCE_HOST, "Gave up"));
  g_assert_nonnull (find_entry (fixture, STEWARD_LOG_SOURCE_STDERR, "run 5"));

  /* And it stays down. */
  run_for (500);
  g_assert_cmpint (steward_server_get_status (server), ==, STEWARD_SERVER_STATUS_FAILED);
  g_assert_cmpuint (count_status (fixture, STEWARD_SERVER_STATUS_STARTING), ==, 5);
  g_assert_cmpuint (steward_server_get_retry_in (server), ==, 0);

  stop_server (server);
  g_assert_finalize_object (server);
}

static void
test_missing_command (Fixture       *fixture,
                      gconstpointer  data)
{
  const char *args[] = { "-y", "@example/server", NULL };
  g_autoptr(StewardServerConfig) config = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(McpToolResult) tool_result = NULL;
  g_autoptr(GError) error = NULL;
  StewardServer *server;

  config = steward_server_config_new_stdio ("missing", "steward-no-such-npx", args, NULL, NULL);
  server = new_server (fixture, config);
  give_consent (fixture, config);
  steward_server_start (server);

  g_assert_cmpint (steward_server_get_status (server), ==, STEWARD_SERVER_STATUS_FAILED);
  g_assert_nonnull (strstr (steward_server_get_status_text (server),
                            "`steward-no-such-npx` was not found on PATH"));
  g_assert_nonnull (steward_server_get_detail_text (server));
  g_assert_null (steward_server_get_client (server));
  g_assert_nonnull (find_entry (fixture, STEWARD_LOG_SOURCE_HOST, "steward-no-such-npx"));

  /* No restart loop. */
  run_for (300);
  g_assert_cmpint (steward_server_get_status (server), ==, STEWARD_SERVER_STATUS_FAILED);
  g_assert_false (has_status (fixture, STEWARD_SERVER_STATUS_RESTARTING));
  g_assert_cmpuint (steward_server_get_retry_in (server), ==, 0);

  /* Calling a tool of a server that does not run says so. */
  steward_server_call_tool_async (server, "echo", NULL, NULL, NULL, NULL, NULL,
                                  test_store_result_cb, &result);
  test_loop_until (result != NULL, 5);
  tool_result = steward_server_call_tool_finish (server, result, &error);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NOT_READY);
  g_assert_null (tool_result);
  g_clear_object (&result);

  /* An absolute path that is not there. */
  g_clear_object (&config);
  config = steward_server_config_new_stdio ("missing", "/nonexistent/bin/server", NULL, NULL,
                                            NULL);
  steward_server_set_config (server, config);
  give_consent (fixture, config);
  steward_server_start (server);
  g_assert_cmpint (steward_server_get_status (server), ==, STEWARD_SERVER_STATUS_FAILED);
  g_assert_nonnull (strstr (steward_server_get_status_text (server),
                            "`/nonexistent/bin/server` was not found"));

  stop_server (server);
  g_assert_finalize_object (server);
}

static void
test_consent_denied (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(StewardServerConfig) config = lifecycle_config ("refused", "serve", NULL);
  StewardServer *server = new_server (fixture, config);
  StewardApproval *approval;

  steward_server_start (server);
  approval = wait_for_approval (fixture, STEWARD_APPROVAL_KIND_CONSENT);
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_DENY, NULL);

  g_assert_cmpint (steward_server_get_status (server), ==, STEWARD_SERVER_STATUS_FAILED);
  g_assert_cmpstr (steward_server_get_status_text (server), ==,
                   "You did not allow this server to start");
  g_assert_null (steward_server_get_client (server));
  g_assert_false (steward_config_has_consent (steward_host_get_config (fixture->host), config));
  g_assert_nonnull (find_entry (fixture, STEWARD_LOG_SOURCE_HOST, "refused"));
  run_for (200);
  g_assert_cmpint (steward_server_get_status (server), ==, STEWARD_SERVER_STATUS_FAILED);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (steward_host_get_approvals (
                      fixture->host))), ==, 0);

  /* Stopping while it waits for consent withdraws the question. */
  steward_server_start (server);
  approval = wait_for_approval (fixture, STEWARD_APPROVAL_KIND_CONSENT);
  g_object_ref (approval);
  stop_server (server);
  g_assert_true (steward_approval_get_finished (approval));
  g_assert_true (steward_approval_get_withdrawn (approval));
  g_assert_cmpint (steward_server_get_status (server), ==, STEWARD_SERVER_STATUS_STOPPED);
  g_assert_finalize_object (approval);

  g_assert_finalize_object (server);
}

/* The question comes only once the command is found, and names the file
 * that would run; a command that is not there fails without asking. */
static void
test_consent_names_program (Fixture       *fixture,
                            gconstpointer  data)
{
  const char *args[] = { "-c", "pass", NULL };
  g_autofree char *expected = g_find_program_in_path ("python3");
  g_autoptr(StewardServerConfig) config = NULL;
  GListModel *approvals = G_LIST_MODEL (steward_host_get_approvals (fixture->host));
  StewardApproval *approval;
  JsonObject *request;
  StewardServer *server;

  g_assert_nonnull (expected);
  config = steward_server_config_new_stdio ("named", "python3", args, NULL, NULL);
  server = new_server (fixture, config);
  steward_server_start (server);
  approval = wait_for_approval (fixture, STEWARD_APPROVAL_KIND_CONSENT);
  request = steward_approval_get_request (approval);
  g_assert_cmpstr (json_object_get_string_member (request, "command"), ==, "python3");
  g_assert_cmpstr (json_object_get_string_member (request, "program"), ==, expected);
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_DENY, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (approvals), ==, 0);

  g_clear_object (&config);
  config = steward_server_config_new_stdio ("named", "steward-no-such-npx", args, NULL, NULL);
  steward_server_set_config (server, config);
  steward_server_start (server);
  g_assert_cmpint (steward_server_get_status (server), ==, STEWARD_SERVER_STATUS_FAILED);
  g_assert_nonnull (strstr (steward_server_get_status_text (server),
                            "`steward-no-such-npx` was not found on PATH"));
  g_assert_cmpuint (g_list_model_get_n_items (approvals), ==, 0);
  run_for (200);
  g_assert_cmpuint (g_list_model_get_n_items (approvals), ==, 0);
  g_assert_cmpint (steward_server_get_status (server), ==, STEWARD_SERVER_STATUS_FAILED);

  stop_server (server);
  g_assert_finalize_object (server);
}

static void
test_changed_command (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(StewardServerConfig) config = lifecycle_config ("changing", "serve", NULL);
  g_autoptr(StewardServerConfig) changed = lifecycle_config ("changing", "serve", "--again",
                                                            NULL);
  StewardServer *server = new_server (fixture, config);
  StewardApproval *approval;
  JsonObject *request;
  JsonObject *previous;

  give_consent (fixture, config);
  steward_server_start (server);
  test_loop_until (steward_server_get_status (server) == STEWARD_SERVER_STATUS_READY, 20);

  /* The same command again changes nothing. */
  steward_server_set_config (server, config);
  g_assert_cmpint (steward_server_get_status (server), ==, STEWARD_SERVER_STATUS_READY);

  /* A new argument: stopped, and asked again, showing what it was. */
  steward_server_set_config (server, changed);
  approval = wait_for_approval (fixture, STEWARD_APPROVAL_KIND_CONSENT);
  g_assert_cmpint (steward_server_get_status (server), ==,
                   STEWARD_SERVER_STATUS_AWAITING_CONSENT);
  g_assert_null (steward_server_get_client (server));
  request = steward_approval_get_request (approval);
  g_assert_true (json_object_get_boolean_member (request, "changed"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (request, "args")), ==,
                    3);
  previous = json_object_get_object_member (request, "previous");
  g_assert_nonnull (previous);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (previous, "args")), ==,
                    2);

  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_ALLOW, NULL);
  test_loop_until (steward_server_get_status (server) == STEWARD_SERVER_STATUS_READY, 20);
  g_assert_true (steward_server_get_config (server) == changed);

  stop_server (server);
  g_assert_finalize_object (server);
}

/* Deleting consents.json by hand withdraws every consent: a running server
 * stops and asks again before it runs another time. */
static void
test_consent_revoked (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(StewardServerConfig) config = lifecycle_config ("revoked", "serve", NULL);
  StewardConfig *store = steward_host_get_config (fixture->host);
  g_autofree char *consents = g_build_filename (fixture->top, "config", "consents.json", NULL);
  StewardServer *server = new_server (fixture, config);
  StewardApproval *approval;

  give_consent (fixture, config);
  steward_config_watch (store);
  steward_server_start (server);
  test_loop_until (steward_server_get_status (server) == STEWARD_SERVER_STATUS_READY, 20);
  /* The consent is written in the background; revoke it once it is there. */
  test_loop_until (g_file_test (consents, G_FILE_TEST_EXISTS), 10);

  g_assert_cmpint (g_unlink (consents), ==, 0);
  approval = wait_for_approval (fixture, STEWARD_APPROVAL_KIND_CONSENT);
  g_assert_cmpint (steward_server_get_status (server), ==,
                   STEWARD_SERVER_STATUS_AWAITING_CONSENT);
  g_assert_null (steward_server_get_client (server));

  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_ALLOW, NULL);
  test_loop_until (steward_server_get_status (server) == STEWARD_SERVER_STATUS_READY, 20);

  stop_server (server);
  g_assert_finalize_object (server);
}

static void
test_stop_stubborn (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(StewardServerConfig) config = lifecycle_config ("stubborn", "stubborn", NULL);
  StewardServer *server = new_server (fixture, config);
  McpTransport *transport;
  gint64 started;
  gint64 took;
  GPid pid;

  give_consent (fixture, config);
  steward_server_start (server);
  test_loop_until (steward_server_get_status (server) == STEWARD_SERVER_STATUS_READY, 20);
  transport = mcp_client_get_transport (steward_server_get_client (server));
  pid = mcp_stdio_transport_get_pid (MCP_STDIO_TRANSPORT (transport));
  g_assert_cmpint (pid, >, 0);

  started = g_get_monotonic_time ();
  stop_server (server);
  took = g_get_monotonic_time () - started;
  /* It ignores SIGTERM: that it is gone shows SIGKILL followed. How long
   * that took is a figure; the grace periods set it, and a busy machine
   * stretches it. */
  g_test_message ("a server that ignores SIGTERM stopped in %.2f s", took / 1e6);
  g_assert_cmpint (steward_server_get_status (server), ==, STEWARD_SERVER_STATUS_STOPPED);
  g_assert_true (kill (pid, 0) == -1 && errno == ESRCH);

  g_assert_finalize_object (server);
}

static guint
count_fds (void)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc/self/fd", 0, NULL);
  guint count = 0;

  g_assert_nonnull (dir);
  while (g_dir_read_name (dir) != NULL)
    count++;

  return count;
}

/* Children of ours that died and were not reaped. */
static guint
count_zombies (void)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc", 0, NULL);
  const char *name;
  guint count = 0;
  pid_t self = getpid ();

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autofree char *contents = NULL;
      const char *after;
      char state;
      int parent;

      if (!g_ascii_isdigit (name[0]))
        continue;

      path = g_build_filename ("/proc", name, "stat", NULL);
      if (!g_file_get_contents (path, &contents, NULL, NULL))
        continue;

      /* The command may hold spaces and parentheses; what follows the
       * last ')' is "STATE PPID ...". */
      after = strrchr (contents, ')');
      if (after != NULL && sscanf (after + 1, " %c %d", &state, &parent) == 2 &&
          parent == self && state == 'Z')
        count++;
    }

  return count;
}

static void
test_cycles (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(StewardServerConfig) config = lifecycle_config ("cycled", "serve", NULL);
  StewardServer *server = new_server (fixture, config);
  guint fds_before;
  guint fds_after;
  gint64 started;

  give_consent (fixture, config);

  /* A first cycle opens what stays open (the keyring is not touched; GLib's
   * child watch and the like are). */
  steward_server_start (server);
  test_loop_until (steward_server_get_status (server) == STEWARD_SERVER_STATUS_READY, 20);
  stop_server (server);
  fds_before = count_fds ();

  started = g_get_monotonic_time ();
  for (guint i = 0; i < 50; i++)
    {
      steward_server_start (server);
      test_loop_until (steward_server_get_status (server) == STEWARD_SERVER_STATUS_READY, 20);
      stop_server (server);
    }
  while (g_main_context_iteration (NULL, FALSE))
    ;

  fds_after = count_fds ();
  g_test_message ("50 start/stop cycles in %.1f s; fds %u before, %u after",
                  (g_get_monotonic_time () - started) / 1e6, fds_before, fds_after);
  /* A leak in a cycle would show 50 times over. GLib opens a descriptor or
   * two lazily (a worker's wake-up pipe, say) at a moment no warm-up cycle
   * can pin down, so a small constant difference is not a leak. */
  g_assert_cmpuint (fds_after, <=, fds_before + 3);
  g_assert_cmpuint (count_zombies (), ==, 0);

  g_assert_finalize_object (server);
}

/* The protocol trace under a flood: every message costs a log entry, and
 * the main loop must keep turning. How long it waits at most depends on
 * the machine and is reported (tests/bench measures it); what the code
 * guarantees is that the flood is handled in slices with the loop running
 * in between, so a 5 ms timer keeps firing while the flood lasts. */

typedef struct {
  gint64 last;
  gint64 max_gap;
  guint ticks;
} Heartbeat;

static gboolean
heartbeat_cb (gpointer user_data)
{
  Heartbeat *hb = user_data;
  gint64 now = g_get_monotonic_time ();

  hb->max_gap = MAX (hb->max_gap, now - hb->last);
  hb->last = now;
  hb->ticks++;
  return G_SOURCE_CONTINUE;
}

static void
test_flood (Fixture       *fixture,
            gconstpointer  data)
{
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "servers", "stdio-server.py",
                                                   NULL);
  const char *args[] = { script, NULL };
  g_autoptr(StewardServerConfig) config = NULL;
  g_autoptr(JsonObject) params = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(GError) error = NULL;
  StewardServer *server;
  Heartbeat hb = { 0, };
  guint before;
  gint64 started;
  guint source;

  config = steward_server_config_new_stdio ("flood", "/usr/bin/python3", args, NULL, NULL);
  server = new_server (fixture, config);
  give_consent (fixture, config);
  steward_server_start (server);
  test_loop_until (steward_server_get_status (server) == STEWARD_SERVER_STATUS_READY, 20);

  /* 10,000 notifications at 10,000 a second last a second at the least. */
  params = parse_object ("{\"count\":10000,\"rate\":10000}");
  before = count_entries (fixture, STEWARD_LOG_SOURCE_SERVER);
  started = g_get_monotonic_time ();
  hb.last = started;
  source = g_timeout_add (5, heartbeat_cb, &hb);
  mcp_client_request_async (steward_server_get_client (server), "flood", params, NULL, NULL,
                            NULL, NULL, test_store_result_cb, &result);
  test_loop_until (result != NULL, 30);
  g_source_remove (source);
  hb.max_gap = MAX (hb.max_gap, g_get_monotonic_time () - hb.last);

  reply = mcp_client_request_finish (steward_server_get_client (server), result, &error);
  g_assert_no_error (error);
  /* The result holds the client, which must go with the server. */
  g_clear_object (&result);
  g_assert_cmpuint (count_entries (fixture, STEWARD_LOG_SOURCE_SERVER) - before, ==, 10000);
  g_test_message ("10,000 notifications logged in %.2f s; %u heartbeats, largest main-loop "
                  "gap %.1f ms", (g_get_monotonic_time () - started) / 1e6, hb.ticks,
                  hb.max_gap / 1000.0);

  /* A loop held for the whole flood would tick once at the most. */
  g_assert_cmpuint (hb.ticks, >=, 10);

  stop_server (server);
  g_assert_finalize_object (server);
}

/* The trace of a large message keeps its first 64 KiB, cheaply. */
static void
test_big_trace (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "servers", "stdio-server.py",
                                                   NULL);
  const char *args[] = { script, NULL };
  g_autoptr(StewardServerConfig) config = NULL;
  g_autoptr(JsonObject) params = parse_object ("{\"size\":4194304,\"count\":1}");
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(GError) error = NULL;
  StewardServer *server;
  StewardLogEntry *entry;

  config = steward_server_config_new_stdio ("big", "/usr/bin/python3", args, NULL, NULL);
  server = new_server (fixture, config);
  give_consent (fixture, config);
  steward_server_start (server);
  test_loop_until (steward_server_get_status (server) == STEWARD_SERVER_STATUS_READY, 20);

  mcp_client_request_async (steward_server_get_client (server), "big", params, NULL, NULL, NULL,
                            NULL, test_store_result_cb, &result);
  test_loop_until (result != NULL, 30);
  reply = mcp_client_request_finish (steward_server_get_client (server), result, &error);
  g_assert_no_error (error);

  /* The notification, not the small result that names the request. */
  entry = find_entry (fixture, STEWARD_LOG_SOURCE_TRACE, "big");
  g_assert_nonnull (entry);
  g_assert_cmpstr (steward_log_entry_get_text (entry), ==, "result id 3 for big");
  entry = find_entry_before (fixture, entry, "big");
  g_assert_nonnull (entry);
  g_assert_cmpuint (steward_log_entry_get_size (entry), >, 4194304);
  g_assert_cmpuint (strlen (steward_log_entry_get_detail (entry)), <=,
                    STEWARD_LOG_ENTRY_MAX_DETAIL + 256);
  g_assert_true (g_str_has_prefix (steward_log_entry_get_detail (entry), "{\n  \"jsonrpc\""));
  g_assert_true (g_utf8_validate (steward_log_entry_get_detail (entry), -1, NULL));

  /* The result holds the client, which holds the server. */
  g_clear_object (&result);
  stop_server (server);
  g_assert_finalize_object (server);
}

/* Secrets from the keyring */

static void
store_secret (Fixture    *fixture,
              const char *id,
              const char *value)
{
  StewardSecrets *secrets = steward_host_get_secrets (fixture->host);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *stored = NULL;

  steward_secrets_store_async (secrets, id, STEWARD_SECRET_KIND_SERVER_ENV, "test", value, NULL,
                               test_store_result_cb, &result);
  test_loop_until (result != NULL, 20);
  stored = steward_secrets_store_finish (secrets, result, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stored, ==, id);
}

static void
test_secrets (Fixture       *fixture,
              gconstpointer  data)
{
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "servers", "stdio-server.py",
                                                   NULL);
  const char *args[] = { script, NULL };
  g_autoptr(GHashTable) env = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(StewardServerConfig) config = NULL;
  g_autoptr(StewardServerConfig) missing = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(GError) error = NULL;
  StewardServer *server;
  JsonObject *environment;

  store_secret (fixture, "steward-test-token", "canary-3c1d-value");
  g_hash_table_insert (env, "SERVICE_TOKEN", "${keyring:steward-test-token}");
  g_hash_table_insert (env, "PLAIN", "plain value");
  config = steward_server_config_new_stdio ("secretive", "/usr/bin/python3", args, env, NULL);
  server = new_server (fixture, config);
  give_consent (fixture, config);
  steward_server_start (server);
  test_loop_until (steward_server_get_status (server) == STEWARD_SERVER_STATUS_READY, 20);

  mcp_client_request_async (steward_server_get_client (server), "environ", NULL, NULL, NULL,
                            NULL, NULL, test_store_result_cb, &result);
  test_loop_until (result != NULL, 20);
  reply = mcp_client_request_finish (steward_server_get_client (server), result, &error);
  g_assert_no_error (error);
  environment = json_object_get_object_member (reply, "environ");
  g_assert_cmpstr (json_object_get_string_member (environment, "SERVICE_TOKEN"), ==,
                   "canary-3c1d-value");
  g_assert_cmpstr (json_object_get_string_member (environment, "PLAIN"), ==, "plain value");
  g_clear_object (&result);
  stop_server (server);

  /* A secret that is not in the keyring: the variable is named, and there
   * is no restart loop. */
  g_hash_table_remove_all (env);
  g_hash_table_insert (env, "API_KEY", "${keyring:steward-test-missing}");
  missing = steward_server_config_new_stdio ("secretive", "/usr/bin/python3", args, env, NULL);
  steward_server_set_config (server, missing);
  give_consent (fixture, missing);
  steward_server_start (server);
  test_loop_until (steward_server_get_status (server) == STEWARD_SERVER_STATUS_FAILED, 20);
  g_test_message ("%s", steward_server_get_status_text (server));
  g_assert_nonnull (strstr (steward_server_get_status_text (server), "API_KEY"));
  run_for (300);
  g_assert_cmpint (steward_server_get_status (server), ==, STEWARD_SERVER_STATUS_FAILED);
  g_assert_false (has_status (fixture, STEWARD_SERVER_STATUS_RESTARTING));

  stop_server (server);
  g_assert_finalize_object (server);
}

/* No entry of the host's log holds @needle, in its text or its detail. */
static void
assert_log_lacks (Fixture    *fixture,
                  const char *needle)
{
  GListModel *log = G_LIST_MODEL (steward_host_get_log_store (fixture->host));

  steward_log_store_flush (steward_host_get_log_store (fixture->host));
  for (guint i = 0; i < g_list_model_get_n_items (log); i++)
    {
      g_autoptr(StewardLogEntry) entry = g_list_model_get_item (log, i);
      const char *detail = steward_log_entry_get_detail (entry);

      g_assert_null (strstr (steward_log_entry_get_text (entry), needle));
      g_assert_null (strstr (detail != NULL ? detail : "", needle));
    }
}

/* A server that echoes the secret it was given, a bearer token and a
 * key to its stderr and exits: its status, details, last stderr lines
 * and log hold none of them. */
static void
test_secret_redacted (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "servers",
                                                   "hostile-text-server.py", NULL);
  const char *args[] = { script, "exit-at-start", NULL };
  const char *leaks[] = { "canary-5e2b-hostile", "hostile0bearer0token0value",
                          "sk-ant-api03-hostile0key0value" };
  g_autoptr(GHashTable) env = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(StewardServerConfig) config = NULL;
  g_autofree char *tail = NULL;
  StewardServer *server;
  const char *detail;

  store_secret (fixture, "steward-test-hostile", "canary-5e2b-hostile");
  g_hash_table_insert (env, "STEWARD_CANARY", "${keyring:steward-test-hostile}");
  config = steward_server_config_new_stdio ("hostile", "/usr/bin/python3", args, env, NULL);
  server = new_server (fixture, config);
  steward_server_set_backoff_for_testing (server, 50, 1000, 60000);
  give_consent (fixture, config);
  steward_server_start (server);
  test_loop_until (steward_server_get_status (server) == STEWARD_SERVER_STATUS_FAILED, 20);

  detail = steward_server_get_detail_text (server);
  tail = steward_server_dup_stderr_tail (server);
  g_test_message ("%s\n%s", steward_server_get_status_text (server), detail);
  g_assert_nonnull (strstr (detail, "status 3"));
  g_assert_nonnull (strstr (detail, "[redacted]"));

  for (guint i = 0; i < G_N_ELEMENTS (leaks); i++)
    {
      g_assert_null (strstr (steward_server_get_status_text (server), leaks[i]));
      g_assert_null (strstr (detail, leaks[i]));
      g_assert_null (strstr (tail, leaks[i]));
      assert_log_lacks (fixture, leaks[i]);
    }

  stop_server (server);
  g_assert_finalize_object (server);
}

/* A server that writes a result as Steward writes JSON, compactly, holds
 * the secret it was given: as it stands, and behind a \u escape that the
 * text on the wire shows but a reader undoes. The protocol log holds
 * neither, though it keeps such a text as it came (mcp_message_peek_line())
 * when it can. */
static void
test_secret_redacted_in_trace (Fixture       *fixture,
                               gconstpointer  data)
{
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "servers",
                                                   "hostile-text-server.py", NULL);
  const char *args[] = { script, NULL };
  g_autoptr(GHashTable) env = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(StewardServerConfig) config = NULL;
  g_autofree char *plain = NULL;
  g_autofree char *escaped = NULL;
  GListModel *log;
  StewardServer *server;
  guint redacted = 0;

  store_secret (fixture, "steward-test-compact", "canary-7d4f-compact");
  g_hash_table_insert (env, "STEWARD_CANARY", "${keyring:steward-test-compact}");
  config = steward_server_config_new_stdio ("compact", "/usr/bin/python3", args, env, NULL);
  server = new_server (fixture, config);
  give_consent (fixture, config);
  steward_server_start (server);
  test_loop_until (steward_server_get_status (server) == STEWARD_SERVER_STATUS_READY, 30);

  /* The caller gets what the server said; only the log hides it. */
  plain = call_tool_text (server, "leak-plain", "{}");
  g_assert_cmpstr (plain, ==, "plain canary-7d4f-compact");
  escaped = call_tool_text (server, "leak-escaped", "{}");
  g_assert_cmpstr (escaped, ==, "escaped canary-7d4f-compact");

  /* Neither the secret nor its escaped spelling ("\\u0063anary-…"): both
   * end with this. */
  assert_log_lacks (fixture, "anary-7d4f-compact");

  log = G_LIST_MODEL (steward_host_get_log_store (fixture->host));
  for (guint j = 0; j < g_list_model_get_n_items (log); j++)
    {
      g_autoptr(StewardLogEntry) entry = g_list_model_get_item (log, j);
      const char *detail = steward_log_entry_get_detail (entry);

      if (steward_log_entry_get_direction (entry) == STEWARD_LOG_DIRECTION_IN &&
          detail != NULL &&
          (strstr (detail, "plain [redacted]") != NULL ||
           strstr (detail, "escaped [redacted]") != NULL))
        redacted++;
    }

  /* Both answers were logged, each with the secret taken out. */
  g_assert_cmpuint (redacted, ==, 2);

  stop_server (server);
  g_assert_finalize_object (server);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/steward/server/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  ADD ("everything", test_everything);
  ADD ("crash-restart", test_crash_restart);
  ADD ("give-up", test_give_up);
  ADD ("missing-command", test_missing_command);
  ADD ("consent-denied", test_consent_denied);
  ADD ("consent-names-program", test_consent_names_program);
  ADD ("changed-command", test_changed_command);
  ADD ("consent-revoked", test_consent_revoked);
  ADD ("stop-stubborn", test_stop_stubborn);
  ADD ("cycles", test_cycles);
  ADD ("flood", test_flood);
  ADD ("big-trace", test_big_trace);
  ADD ("secrets", test_secrets);
  ADD ("secret-redacted", test_secret_redacted);
  ADD ("secret-redacted-in-trace", test_secret_redacted_in_trace);

#undef ADD

  return g_test_run ();
}

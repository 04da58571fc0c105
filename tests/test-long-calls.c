/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-long-calls"

#include "config.h"

#include <string.h>

#include "mcp-client-tasks.h"
#include "mcp-error.h"

#include "steward-long-running.h"
#include "steward-redactor.h"
#include "steward-server-registry.h"
#include "steward-task-list.h"
#include "test-host-fixture.h"

/* Calls that take long, through a real host and the stdio server
 * tests/servers/slow-tasks-server.py (2025-11-25 tasks), whose calls
 * answer only when the test says: the server's one place that asks about
 * an overdue call, the person's threshold after which a tool's calls
 * become tasks, and the task journal kept free of secrets. */

#define SECRET "echo-me-not-4f1c9b2e7d"

typedef struct {
  char          *top;
  StewardHost   *host;
  StewardServer *server;
} Fixture;

static void
consent_cb (StewardApprovals *approvals,
            StewardApproval  *approval,
            gpointer          user_data)
{
  if (steward_approval_get_kind (approval) == STEWARD_APPROVAL_KIND_CONSENT)
    steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_ALLOW, NULL);
}

static gboolean
ready (StewardServer *server)
{
  McpClient *client = steward_server_get_client (server);

  return steward_server_get_status (server) == STEWARD_SERVER_STATUS_READY && client != NULL &&
         g_list_model_get_n_items (mcp_client_get_tools (client)) > 0;
}

static void
start_host (Fixture *fixture)
{
  StewardServerRegistry *registry;

  fixture->host = test_host_new_in (fixture->top);
  g_signal_connect (steward_host_get_approvals (fixture->host), "added",
                    G_CALLBACK (consent_cb), NULL);
  /* Made before the servers start, as the app makes them. */
  steward_task_list_get_for_host (fixture->host);
  steward_long_running_get_for_host (fixture->host);
  test_host_start (fixture->host, 20);
  registry = steward_host_get_registry (fixture->host);
  test_loop_until (steward_server_registry_lookup (registry, "slow") != NULL, 20);
  fixture->server = steward_server_registry_lookup (registry, "slow");
  test_loop_until (ready (fixture->server), 30);
}

static void
stop_host (Fixture *fixture)
{
  test_host_shutdown (fixture->host, 20);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  fixture->server = NULL;
  g_assert_finalize_object (fixture->host);
  fixture->host = NULL;
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "servers",
                                                   "slow-tasks-server.py", NULL);
  g_autofree char *servers = NULL;
  g_autofree char *path = NULL;

  fixture->top = test_make_top ("test-long-calls");
  servers = g_strdup_printf ("{\"mcpServers\":{\"slow\":{\"command\":\"/usr/bin/python3\","
                             "\"args\":[\"%s\"],\"env\":{\"ECHO_SECRET\":\"%s\"}}}}",
                             script, SECRET);
  path = g_build_filename (fixture->top, "config", "servers.json", NULL);
  test_write_text (path, servers);
  start_host (fixture);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  if (fixture->host != NULL)
    stop_host (fixture);
  steward_redact_forget_secrets ();
  test_remove_tree (fixture->top);
  g_free (fixture->top);
}

typedef struct {
  GAsyncResult *result;
} Call;

static void
call (Fixture      *fixture,
      const char   *tool,
      GCancellable *cancellable,
      Call         *out)
{
  g_autoptr(JsonObject) arguments = json_object_new ();

  g_clear_object (&out->result);
  steward_server_call_tool_async (fixture->server, tool, arguments, NULL, NULL, NULL,
                                  cancellable, test_store_result_cb, &out->result);
}

/* The call's text; fails the test on an error. */
static char *
finish (Fixture *fixture,
        Call    *in)
{
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GError) error = NULL;

  test_loop_until (in->result != NULL, 30);
  result = steward_server_call_tool_finish (fixture->server, in->result, &error);
  g_assert_no_error (error);
  g_clear_object (&in->result);
  return mcp_tool_result_dup_text (result);
}

static char *
call_and_finish (Fixture    *fixture,
                 const char *tool)
{
  Call out = { 0 };

  call (fixture, tool, NULL, &out);
  return finish (fixture, &out);
}

/* The overdue question */

typedef struct {
  GCancellable   *mine;
  StewardOverdue *question;
  guint           asked;
} Asker;

static gboolean
call_overdue_cb (StewardServer  *server,
                 StewardOverdue *question,
                 Asker          *asker)
{
  if (steward_overdue_get_call (question) != asker->mine)
    return FALSE;

  g_set_object (&asker->question, question);
  asker->asked++;
  return TRUE;
}

static void
test_overdue_by_call (Fixture       *fixture,
                      gconstpointer  data)
{
  McpClient *client = steward_server_get_client (fixture->server);
  g_autoptr(GCancellable) mine = g_cancellable_new ();
  g_autoptr(GCancellable) other = g_cancellable_new ();
  g_autoptr(McpToolResult) failed = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *released = NULL;
  Asker asker = { .mine = mine };
  Call first = { 0 };
  Call second = { 0 };
  gulong handler;

  /* Two calls of the same tool past a short timeout: the server asks
   * about each, and whoever made one answers for that one only. */
  handler = g_signal_connect (fixture->server, "call-overdue", G_CALLBACK (call_overdue_cb),
                              &asker);
  mcp_client_set_request_timeout (client, 300);
  call (fixture, "plain", mine, &first);
  call (fixture, "plain", other, &second);

  test_loop_until (second.result != NULL, 20);
  failed = steward_server_call_tool_finish (fixture->server, second.result, &error);
  g_assert_null (failed);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_TIMEOUT);
  g_clear_object (&second.result);

  test_loop_until (asker.question != NULL, 20);
  g_assert_cmpstr (steward_overdue_get_tool (asker.question), ==, "plain");
  g_assert_cmpstr (steward_overdue_get_server_name (asker.question), ==, "slow");
  g_assert_true (steward_overdue_get_open (asker.question));
  g_assert_null (first.result);

  /* Keep waiting: asked again a timeout later, the call still running. */
  steward_overdue_answer (asker.question, TRUE);
  g_assert_false (steward_overdue_get_open (asker.question));
  test_loop_until (asker.asked >= 2, 20);
  g_assert_true (steward_overdue_get_open (asker.question));
  g_assert_null (first.result);

  /* The answer comes: the open question is withdrawn with the call. */
  released = call_and_finish (fixture, "release");
  g_assert_cmpstr (released, ==, "released 1");
  text = finish (fixture, &first);
  g_assert_cmpstr (text, ==, "plain ran at once");
  g_assert_false (steward_overdue_get_open (asker.question));

  g_signal_handler_disconnect (fixture->server, handler);
  g_clear_object (&asker.question);
}

/* The overdue call's question among the requests that wait for the
 * person, answered from there as from where the call is shown. */
static StewardApproval *
waiting_overdue (Fixture *fixture)
{
  GListModel *approvals = G_LIST_MODEL (steward_host_get_approvals (fixture->host));

  for (guint i = 0; i < g_list_model_get_n_items (approvals); i++)
    {
      g_autoptr(StewardApproval) approval = g_list_model_get_item (approvals, i);

      if (steward_approval_get_kind (approval) == STEWARD_APPROVAL_KIND_OVERDUE &&
          !steward_approval_get_finished (approval))
        return approval;
    }

  return NULL;
}

static void
test_overdue_waits_in_requests (Fixture       *fixture,
                                gconstpointer  data)
{
  McpClient *client = steward_server_get_client (fixture->server);
  g_autoptr(GCancellable) mine = g_cancellable_new ();
  g_autoptr(StewardApproval) first = NULL;
  g_autoptr(McpToolResult) failed = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *released = NULL;
  Asker asker = { .mine = mine };
  Call out = { 0 };
  g_autoptr(StewardApproval) second = NULL;
  gulong handler;

  handler = g_signal_connect (fixture->server, "call-overdue", G_CALLBACK (call_overdue_cb),
                              &asker);
  mcp_client_set_request_timeout (client, 300);
  call (fixture, "plain", mine, &out);

  test_loop_until (waiting_overdue (fixture) != NULL, 20);
  first = g_object_ref (waiting_overdue (fixture));
  g_assert_cmpstr (steward_approval_get_server (first), ==, "slow");
  g_assert_cmpstr (json_object_get_string_member (steward_approval_get_request (first), "tool"),
                   ==, "plain");
  g_assert_true (steward_overdue_get_open (asker.question));

  /* Keep Waiting from the list: the call's question closes with it, the
   * call runs on and is asked about again a timeout later. */
  steward_approval_respond (first, STEWARD_APPROVAL_ACTION_ALLOW, NULL);
  g_assert_false (steward_overdue_get_open (asker.question));
  g_assert_true (steward_approval_get_finished (first));
  g_assert_false (steward_approval_get_withdrawn (first));
  test_loop_until (asker.asked >= 2 && waiting_overdue (fixture) != NULL, 20);
  g_assert_null (out.result);

  /* Answered where the call is shown: it leaves the list. */
  second = g_object_ref (waiting_overdue (fixture));
  g_assert_true (second != first);
  steward_overdue_answer (asker.question, TRUE);
  g_assert_true (steward_approval_get_withdrawn (second));
  g_assert_null (waiting_overdue (fixture));

  /* Stop from the list: the call ends with the timeout, as the chat
   * and the Tools page show it. */
  test_loop_until (asker.asked >= 3 && waiting_overdue (fixture) != NULL, 20);
  steward_approval_respond (waiting_overdue (fixture), STEWARD_APPROVAL_ACTION_DENY, NULL);
  test_loop_until (out.result != NULL, 20);
  failed = steward_server_call_tool_finish (fixture->server, out.result, &error);
  g_assert_null (failed);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_TIMEOUT);
  g_clear_object (&out.result);
  g_assert_null (waiting_overdue (fixture));

  /* The server was told, and holds the call no longer. */
  released = call_and_finish (fixture, "release");
  g_assert_cmpstr (released, ==, "released 0");

  g_signal_handler_disconnect (fixture->server, handler);
  g_clear_object (&asker.question);
}

/* The threshold */

static gboolean
file_holds (const char *path,
            const char *needle)
{
  g_autofree char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return FALSE;
  return strstr (text, needle) != NULL;
}

static void
test_threshold (Fixture       *fixture,
                gconstpointer  data)
{
  StewardLongRunning *long_running = steward_long_running_get_for_host (fixture->host);
  McpClient *client = steward_server_get_client (fixture->server);
  g_autofree char *file = g_build_filename (fixture->top, "state", "long-running.json", NULL);
  g_autofree char *text = NULL;
  Call hold = { 0 };
  Call plain = { 0 };

  /* Calls held past a one-second threshold: the one of a tool that may
   * run as a task runs on as it was sent, and the tool is remembered. */
  steward_long_running_set_threshold (long_running, 1);
  call (fixture, "hold", NULL, &hold);
  call (fixture, "plain", NULL, &plain);
  test_loop_until (steward_long_running_contains (long_running, "slow", "hold"), 20);
  g_assert_true (mcp_client_get_long_running (client, "hold"));
  g_assert_null (hold.result);
  test_loop_until (file_holds (file, "\"hold\""), 20);

  g_free (call_and_finish (fixture, "release"));
  text = finish (fixture, &hold);
  g_assert_cmpstr (text, ==, "hold ran at once");
  g_clear_pointer (&text, g_free);
  text = finish (fixture, &plain);
  g_assert_cmpstr (text, ==, "plain ran at once");
  g_clear_pointer (&text, g_free);

  /* Its next call goes out with the task parameter. */
  text = call_and_finish (fixture, "hold");
  g_assert_cmpstr (text, ==, "hold ran as a task");
  g_clear_pointer (&text, g_free);

  /* A tool that takes no task never gets one, however long it took; one
   * that needs a task was always one. */
  g_assert_false (steward_long_running_contains (long_running, "slow", "plain"));
  g_assert_false (steward_long_running_contains (long_running, "slow", "steps"));
  call (fixture, "plain", NULL, &plain);
  g_free (call_and_finish (fixture, "release"));
  text = finish (fixture, &plain);
  g_assert_cmpstr (text, ==, "plain ran at once");
  g_clear_pointer (&text, g_free);
  text = call_and_finish (fixture, "steps");
  g_assert_cmpstr (text, ==, "steps finished");
  g_clear_pointer (&text, g_free);
  g_assert_false (file_holds (file, "\"plain\""));
  g_assert_false (file_holds (file, "\"steps\""));

  /* Steward starting again remembers it. */
  stop_host (fixture);
  start_host (fixture);
  long_running = steward_long_running_get_for_host (fixture->host);
  client = steward_server_get_client (fixture->server);
  test_loop_until (mcp_client_get_long_running (client, "hold"), 20);
  text = call_and_finish (fixture, "hold");
  g_assert_cmpstr (text, ==, "hold ran as a task");
}

static void
test_threshold_off (Fixture       *fixture,
                    gconstpointer  data)
{
  StewardLongRunning *long_running = steward_long_running_get_for_host (fixture->host);
  McpClient *client = steward_server_get_client (fixture->server);
  g_autoptr(GCancellable) marker = g_cancellable_new ();
  g_autofree char *text = NULL;
  Asker asker = { .mine = marker };
  Call hold = { 0 };
  gulong handler;

  /* With the threshold at 0, a call that runs past its timeout is asked
   * about and runs on, and the tool is not remembered. */
  steward_long_running_set_threshold (long_running, 0);
  handler = g_signal_connect (fixture->server, "call-overdue", G_CALLBACK (call_overdue_cb),
                              &asker);
  mcp_client_set_request_timeout (client, 1500);
  call (fixture, "hold", marker, &hold);
  test_loop_until (asker.question != NULL, 20);
  g_assert_false (steward_long_running_contains (long_running, "slow", "hold"));
  g_assert_false (mcp_client_get_long_running (client, "hold"));
  steward_overdue_answer (asker.question, TRUE);
  g_free (call_and_finish (fixture, "release"));
  text = finish (fixture, &hold);
  g_assert_cmpstr (text, ==, "hold ran at once");

  g_signal_handler_disconnect (fixture->server, handler);
  g_clear_object (&asker.question);
}

/* The journal */

static void
test_journal_redacted (Fixture       *fixture,
                       gconstpointer  data)
{
  StewardTaskList *tasks = steward_task_list_get_for_host (fixture->host);
  g_autofree char *journal = g_build_filename (fixture->top, "state", "tasks.json", NULL);
  g_autofree char *text = NULL;
  g_autofree char *kept = NULL;
  g_autoptr(GAsyncResult) flushed = NULL;
  g_autoptr(GError) error = NULL;

  /* The host resolved this value for the server (from the keyring, in
   * use), so it knows it for a secret. */
  steward_redact_add_secret (SECRET);

  /* The caller gets the tool's answer as it is... */
  text = call_and_finish (fixture, "echo-secret");
  g_assert_nonnull (strstr (text, SECRET));

  /* ...but the journal on disk keeps the task without the secret. */
  test_loop_until (g_list_model_get_n_items (G_LIST_MODEL (tasks)) > 0, 20);
  steward_task_list_flush_async (tasks, NULL, test_store_result_cb, &flushed);
  test_loop_until (flushed != NULL, 20);
  g_assert_true (steward_task_list_flush_finish (tasks, flushed, &error));
  g_assert_no_error (error);
  test_loop_until (file_holds (journal, "\"completed\""), 20);
  kept = test_read_text (journal);
  g_assert_nonnull (strstr (kept, "echo-secret"));
  g_assert_nonnull (strstr (kept, "the secret is " STEWARD_REDACTED));
  g_assert_null (strstr (kept, SECRET));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/steward/long-calls/" path, Fixture, NULL, fixture_set_up, func, \
              fixture_tear_down)

  ADD ("overdue-asks-the-call-not-the-tool", test_overdue_by_call);
  ADD ("overdue-waits-among-requests", test_overdue_waits_in_requests);
  ADD ("threshold-makes-later-calls-tasks", test_threshold);
  ADD ("threshold-off-asks-instead", test_threshold_off);
  ADD ("journal-keeps-no-secret", test_journal_redacted);

  return g_test_run ();
}

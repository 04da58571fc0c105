/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-tasks"

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "mcp-client.h"
#include "mcp-client-tasks.h"
#include "mcp-error.h"
#include "mcp-http-transport.h"
#include "mcp-json-private.h"
#include "mcp-related-task.h"
#include "mcp-scripted-transport.h"
#include "mcp-stdio-transport.h"
#include "test-delegate.h"
#include "test-peer-process.h"

/* Tool calls as tasks against real servers of both eras:
 * - server-everything (2025-11-25 tasks), its task-only tool
 *   simulate-research-query, with and without its elicitation;
 * - tests/servers/tasks-server.mjs, a 2026-07-28 server with the tasks
 *   extension on the official SDK, over stdio and over HTTP (where its
 *   tasks outlive a client, so that a client started again resumes them).
 * Create, poll, status, input, cancel, result and resume are each seen
 * through the public McpClient API. */

typedef struct {
  GSubprocess  *server;      /* an HTTP server; over stdio the transport runs it */
  char         *url;
  McpClient    *client;
  TestDelegate *delegate;
  GPtrArray    *messages;    /* status messages seen, in order */
  McpTask      *asked_by;    /* the followed task a question named, when asked */
} Fixture;

static JsonObject *
reply_cb (const char  *method,
          JsonObject  *params,
          gpointer     user_data,
          GError     **error)
{
  Fixture *fixture = user_data;

  /* While the question waits, the client still follows the task it names. */
  if (fixture->client != NULL && mcp_related_task_get_id (params) != NULL)
    g_set_object (&fixture->asked_by,
                  mcp_client_lookup_task (fixture->client, mcp_related_task_get_id (params)));

  if (g_str_equal (method, "elicitation/create"))
    return test_parse_object ("{\"action\":\"accept\",\"content\":"
                              "{\"interpretation\":\"historical\",\"name\":\"Ada\"}}");
  return test_parse_object ("{\"roots\":[]}");
}

static char *
everything_path (void)
{
  return g_build_filename (g_getenv ("STEWARD_PEERS_DIR"), "@modelcontextprotocol",
                           "server-everything", "dist", "index.js", NULL);
}

static char *
tasks_server_path (void)
{
  return g_build_filename (g_getenv ("G_TEST_SRCDIR"), "servers", "tasks-server.mjs", NULL);
}

static void
start_http_tasks_server (Fixture *fixture)
{
  g_autofree char *script = tasks_server_path ();
  g_autofree char *port = test_peer_free_port ();
  const char *argv[] = { "node", script, "http", port, NULL };
  g_autoptr(GSubprocessLauncher) launcher = NULL;

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDERR_PIPE);
  fixture->server = test_peer_spawn (launcher, argv, "listening");
  fixture->url = g_strdup_printf ("http://127.0.0.1:%s/mcp", port);
}

static McpClient *
connect_client (Fixture *fixture,
                gconstpointer data)
{
  g_autoptr(McpTransport) transport = NULL;
  g_autoptr(GError) error = NULL;
  McpClient *client;

  if (g_str_equal (data, "everything"))
    {
      g_autofree char *server = everything_path ();
      const char *argv[] = { "node", server, "stdio", NULL };

      transport = MCP_TRANSPORT (mcp_stdio_transport_new (argv));
    }
  else if (g_str_equal (data, "modern"))
    {
      g_autofree char *server = tasks_server_path ();
      const char *argv[] = { "node", server, "stdio", NULL };

      transport = MCP_TRANSPORT (mcp_stdio_transport_new (argv));
    }
  else if (g_str_equal (data, "hostile"))
    {
      g_autofree char *server = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "servers",
                                                  "hostile-tasks-server.py", NULL);
      const char *argv[] = { "/usr/bin/python3", server, NULL };

      transport = MCP_TRANSPORT (mcp_stdio_transport_new (argv));
    }
  else
    {
      transport = MCP_TRANSPORT (mcp_http_transport_new (fixture->url, &error));
      g_assert_no_error (error);
    }

  client = mcp_client_new (transport);
  mcp_client_set_delegate (client, MCP_CLIENT_DELEGATE (fixture->delegate));
  test_client_connect (client);

  /* Whether a tool needs a task is read from the list. */
  wait_for (g_list_model_get_n_items (mcp_client_get_tools (client)) > 0);

  return client;
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  fixture->delegate = test_delegate_new (MCP_CLIENT_FEATURE_ROOTS |
                                         MCP_CLIENT_FEATURE_ELICITATION_FORM);
  fixture->delegate->reply_func = reply_cb;
  fixture->delegate->reply_data = fixture;
  fixture->messages = g_ptr_array_new_with_free_func (g_free);

  if (g_str_equal (data, "http"))
    start_http_tasks_server (fixture);

  fixture->client = connect_client (fixture, data);
  g_assert_true (mcp_client_supports_tasks (fixture->client));
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  if (fixture->client != NULL)
    test_client_close (g_steal_pointer (&fixture->client));

  test_peer_stop (&fixture->server);

  g_clear_pointer (&fixture->url, g_free);
  g_clear_pointer (&fixture->messages, g_ptr_array_unref);
  g_clear_object (&fixture->delegate);
  g_clear_object (&fixture->asked_by);
}

static void
record_progress (double      progress,
                 double      total,
                 const char *message,
                 gpointer    user_data)
{
  Fixture *fixture = user_data;

  if (message != NULL &&
      (fixture->messages->len == 0 ||
       g_strcmp0 (g_ptr_array_index (fixture->messages, fixture->messages->len - 1), message) != 0))
    g_ptr_array_add (fixture->messages, g_strdup (message));
}

static gboolean
saw_message (Fixture    *fixture,
             const char *part)
{
  for (guint i = 0; i < fixture->messages->len; i++)
    if (strstr (g_ptr_array_index (fixture->messages, i), part) != NULL)
      return TRUE;
  return FALSE;
}

static guint
count_requests (Fixture    *fixture,
                const char *method)
{
  guint n = 0;

  for (guint i = 0; i < fixture->delegate->methods->len; i++)
    n += g_str_equal (g_ptr_array_index (fixture->delegate->methods, i), method);
  return n;
}

static JsonObject *
last_request (Fixture    *fixture,
              const char *method)
{
  for (guint i = fixture->delegate->methods->len; i > 0; i--)
    if (g_str_equal (g_ptr_array_index (fixture->delegate->methods, i - 1), method))
      return g_ptr_array_index (fixture->delegate->params, i - 1);
  return NULL;
}

/* Calls a tool the ordinary way: tasks come into it by themselves. */
static McpToolResult *
call_tool (Fixture     *fixture,
           McpClient   *client,
           const char  *name,
           const char  *arguments,
           GError     **error)
{
  g_autoptr(JsonObject) args = test_parse_object (arguments);
  g_autoptr(GAsyncResult) result = NULL;

  mcp_client_call_tool_async (client, name, args, record_progress, fixture, NULL, NULL,
                              test_store_result_cb, &result);
  wait_for (result != NULL);
  return mcp_client_call_tool_finish (client, result, error);
}

static McpTask *
start_task (McpClient  *client,
            const char *name,
            const char *arguments)
{
  g_autoptr(JsonObject) args = test_parse_object (arguments);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(McpToolResult) immediate = NULL;
  McpTask *task;

  mcp_client_start_task_async (client, name, args, NULL, test_store_result_cb, &result);
  wait_for (result != NULL);
  task = mcp_client_start_task_finish (client, result, &immediate, &error);
  g_assert_no_error (error);
  g_assert_nonnull (task);
  g_assert_null (immediate);
  g_assert_nonnull (mcp_task_get_id (task));
  g_assert_cmpstr (mcp_task_get_tool_name (task), ==, name);

  return task;
}

static McpToolResult *
follow (McpClient     *client,
        McpTask       *task,
        GCancellable  *cancellable,
        GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_client_follow_task_async (client, task, cancellable, test_store_result_cb, &result);
  wait_for (result != NULL);
  return mcp_client_follow_task_finish (client, result, error);
}

static McpTask *
get_task (McpClient   *client,
          const char  *id,
          GError     **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_client_get_task_async (client, id, NULL, test_store_result_cb, &result);
  wait_for (result != NULL);
  return mcp_client_get_task_finish (client, result, error);
}

/* The task's status as the server says it now; -1 when it would not. */
static int
status_now (McpClient   *client,
            const char  *id,
            McpTask    **seen)
{
  g_clear_object (seen);
  *seen = get_task (client, id, NULL);
  return *seen ? (int) mcp_task_get_status (*seen) : -1;
}

static McpTask *
only_followed_task (McpClient *client)
{
  GListModel *followed = mcp_client_get_followed_tasks (client);

  g_assert_cmpuint (g_list_model_get_n_items (followed), ==, 1);
  return g_list_model_get_item (followed, 0);
}

/* server-everything, 2025-11-25 */

static void
test_everything_research (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(McpTask) task = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  /* The tool runs only as a task; an ordinary call becomes one. */
  g_assert_true (mcp_client_tool_needs_task (fixture->client, "simulate-research-query"));
  g_assert_false (mcp_client_tool_needs_task (fixture->client, "echo"));

  result = call_tool (fixture, fixture->client, "simulate-research-query",
                      "{\"topic\":\"tides\"}", &error);
  g_assert_no_error (error);
  text = mcp_tool_result_dup_text (result);
  g_assert_nonnull (strstr (text, "Research Report: tides"));
  g_assert_false (mcp_tool_result_get_is_error (result));

  /* Its stages came through as the task's status, polled (which ones
   * depends on when the polls fall; a stage lasts as long as the
   * server's poll interval). */
  g_assert_cmpuint (fixture->messages->len, >=, 2);
  g_assert_true (saw_message (fixture, "..."));

  task = only_followed_task (fixture->client);
  g_assert_cmpint (mcp_task_get_status (task), ==, MCP_TASK_COMPLETED);
  g_assert_cmpuint (mcp_task_get_poll_interval (task), ==, 1000);
  g_assert_nonnull (mcp_task_get_result (task));
  g_assert_null (mcp_task_get_error (task));

  /* Nothing asked the person. */
  g_assert_cmpuint (count_requests (fixture, "elicitation/create"), ==, 0);
}

static void
test_everything_elicitation (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(McpTask) task = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  JsonObject *params;
  JsonObject *related;

  result = call_tool (fixture, fixture->client, "simulate-research-query",
                      "{\"topic\":\"tides\",\"ambiguous\":true}", &error);
  g_assert_no_error (error);
  text = mcp_tool_result_dup_text (result);
  g_assert_nonnull (strstr (text, "tides (historical)"));

  task = only_followed_task (fixture->client);
  g_assert_cmpint (mcp_task_get_status (task), ==, MCP_TASK_COMPLETED);
  g_assert_true (saw_message (fixture, "Requesting clarification"));

  /* The question went through the delegate, marked with its task. */
  g_assert_cmpuint (count_requests (fixture, "elicitation/create"), ==, 1);
  params = last_request (fixture, "elicitation/create");
  related = mcp_json_get_object (mcp_json_get_object (params, "_meta"),
                                 "io.modelcontextprotocol/related-task");
  g_assert_cmpstr (mcp_json_get_string (related, "taskId"), ==, mcp_task_get_id (task));
  g_assert_cmpstr (mcp_related_task_get_id (params), ==, mcp_task_get_id (task));
  g_assert_true (fixture->asked_by == task);
}

static gboolean
cancel_on_stage_cb (gpointer user_data)
{
  g_cancellable_cancel (user_data);
  return G_SOURCE_REMOVE;
}

static void
task_changed_cb (McpTask      *task,
                 GCancellable *cancellable)
{
  if (mcp_task_get_status_message (task) != NULL &&
      strstr (mcp_task_get_status_message (task), "Analyzing") != NULL)
    g_idle_add_full (G_PRIORITY_DEFAULT, cancel_on_stage_cb, g_object_ref (cancellable),
                     g_object_unref);
}

static void
test_everything_cancel (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(McpTask) task = NULL;
  g_autoptr(McpTask) seen = NULL;
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GError) error = NULL;

  task = start_task (fixture->client, "simulate-research-query", "{\"topic\":\"tides\"}");
  g_assert_cmpint (mcp_task_get_status (task), ==, MCP_TASK_WORKING);

  /* Cancelling the wait at its second stage cancels the task. */
  g_signal_connect (task, "changed", G_CALLBACK (task_changed_cb), cancellable);
  result = follow (fixture->client, task, cancellable, &error);
  g_assert_null (result);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  /* The server says so too. */
  wait_for (status_now (fixture->client, mcp_task_get_id (task), &seen) == MCP_TASK_CANCELLED);
}

static void
test_everything_list_result (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autoptr(McpTask) task = NULL;
  g_autoptr(McpTask) seen = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) tasks = NULL;
  g_autoptr(McpToolResult) tool_result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  gboolean listed = FALSE;

  task = start_task (fixture->client, "simulate-research-query", "{\"topic\":\"reefs\"}");

  mcp_client_list_tasks_async (fixture->client, NULL, test_store_result_cb, &result);
  wait_for (result != NULL);
  tasks = mcp_client_list_tasks_finish (fixture->client, result, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < tasks->len; i++)
    listed |= g_str_equal (mcp_task_get_id (g_ptr_array_index (tasks, i)), mcp_task_get_id (task));
  g_assert_true (listed);
  g_clear_object (&result);

  seen = get_task (fixture->client, mcp_task_get_id (task), &error);
  g_assert_no_error (error);
  g_assert_false (mcp_task_is_terminal (seen));
  g_assert_nonnull (mcp_task_get_created_at (seen));

  /* tasks/result waits for the end, past the poll of a second. */
  mcp_client_get_task_result_async (fixture->client, mcp_task_get_id (task), NULL,
                                    test_store_result_cb, &result);
  wait_for (result != NULL);
  tool_result = mcp_client_get_task_result_finish (fixture->client, result, &error);
  g_assert_no_error (error);
  text = mcp_tool_result_dup_text (tool_result);
  g_assert_nonnull (strstr (text, "Research Report: reefs"));

  /* A task id the server never gave is an error naming the task. */
  g_clear_object (&seen);
  seen = get_task (fixture->client, "no-such-task", &error);
  g_assert_null (seen);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS);
}

static void
test_everything_forgotten (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autoptr(McpTask) task = NULL;
  g_autoptr(McpTask) resumed = NULL;
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GError) error = NULL;

  /* A task of a stdio server dies with the server: after a restart the
   * id is unknown, and the task is marked forgotten with the reason. */
  task = start_task (fixture->client, "simulate-research-query", "{\"topic\":\"tides\"}");
  test_client_close (g_steal_pointer (&fixture->client));
  fixture->client = connect_client (fixture, data);

  resumed = mcp_task_new (mcp_task_get_id (task), "simulate-research-query");
  result = follow (fixture->client, resumed, NULL, &error);
  g_assert_null (result);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS);
  g_assert_cmpint (mcp_task_get_status (resumed), ==, MCP_TASK_FORGOTTEN);
  g_assert_nonnull (mcp_task_get_status_message (resumed));
  g_assert_nonnull (strstr (mcp_task_get_status_message (resumed), "not found"));
}

/* tasks-server.mjs, 2026-07-28 with the extension */

static void
test_modern_count (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(McpTask) task = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  result = call_tool (fixture, fixture->client, "count", "{\"steps\":3,\"delayMs\":300}", &error);
  g_assert_no_error (error);
  text = mcp_tool_result_dup_text (result);
  g_assert_cmpstr (text, ==, "counted to 3");

  task = only_followed_task (fixture->client);
  g_assert_cmpint (mcp_task_get_status (task), ==, MCP_TASK_COMPLETED);
  g_assert_cmpuint (mcp_task_get_poll_interval (task), ==, 200);
  g_assert_cmpint (mcp_task_get_ttl (task), ==, 600000);
  /* Which steps a poll sees depends on when it polls; the last status
   * message is the server's last word. */
  g_assert_cmpstr (mcp_task_get_status_message (task), ==, "Done");
}

static void
test_modern_quick (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  /* The server decides: this one is no task. */
  result = call_tool (fixture, fixture->client, "quick", "{}", &error);
  g_assert_no_error (error);
  text = mcp_tool_result_dup_text (result);
  g_assert_cmpstr (text, ==, "quick answer");
  g_assert_cmpuint (g_list_model_get_n_items (mcp_client_get_followed_tasks (fixture->client)),
                    ==, 0);
}

static void
test_modern_input (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(McpTask) task = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  /* The input request in tasks/get reaches the delegate once, and the
   * answer goes back with tasks/update. */
  result = call_tool (fixture, fixture->client, "ask-name", "{}", &error);
  g_assert_no_error (error);
  text = mcp_tool_result_dup_text (result);
  g_assert_cmpstr (text, ==, "Hello, Ada");
  g_assert_cmpuint (count_requests (fixture, "elicitation/create"), ==, 1);
  g_assert_true (saw_message (fixture, "Waiting for a name"));

  /* It came with the task's status, and names that task as a 2025-11-25
   * request would. */
  task = only_followed_task (fixture->client);
  g_assert_cmpstr (mcp_related_task_get_id (last_request (fixture, "elicitation/create")), ==,
                   mcp_task_get_id (task));
  g_assert_true (fixture->asked_by == task);
}

static void
test_modern_failed (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(McpTask) task = NULL;
  g_autoptr(GError) error = NULL;

  result = call_tool (fixture, fixture->client, "break", "{}", &error);
  g_assert_null (result);
  g_assert_error (error, MCP_ERROR, -32000);
  g_assert_cmpstr (error->message, ==, "the job broke");

  task = only_followed_task (fixture->client);
  g_assert_cmpint (mcp_task_get_status (task), ==, MCP_TASK_FAILED);
  g_assert_nonnull (mcp_task_get_error (task));
}

static void
test_modern_cancel (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(McpTask) task = NULL;
  g_autoptr(McpTask) seen = NULL;
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) async_result = NULL;

  task = start_task (fixture->client, "count", "{\"steps\":50,\"delayMs\":1000}");

  g_cancellable_cancel (cancellable);
  result = follow (fixture->client, task, cancellable, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  wait_for (status_now (fixture->client, mcp_task_get_id (task), &seen) == MCP_TASK_CANCELLED);
  g_assert_cmpstr (mcp_task_get_status_message (seen), ==, "Cancelled on request");

  /* The result of a cancelled task is an error that says so. */
  mcp_client_get_task_result_async (fixture->client, mcp_task_get_id (task), NULL,
                                    test_store_result_cb, &async_result);
  wait_for (async_result != NULL);
  g_assert_null (mcp_client_get_task_result_finish (fixture->client, async_result, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_NOT_READY);
}

static void
test_modern_resume (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(McpTask) task = NULL;
  g_autoptr(McpTask) resumed = NULL;
  g_autoptr(McpTask) unknown = NULL;
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  /* The client goes away mid-task and a new one, knowing only the id,
   * picks the task up and gets its result. */
  task = start_task (fixture->client, "count", "{\"steps\":4,\"delayMs\":250}");
  g_assert_false (mcp_task_is_terminal (task));
  test_client_close (g_steal_pointer (&fixture->client));

  fixture->client = connect_client (fixture, data);
  resumed = mcp_task_new (mcp_task_get_id (task), "count");
  result = follow (fixture->client, resumed, NULL, &error);
  g_assert_no_error (error);
  text = mcp_tool_result_dup_text (result);
  g_assert_cmpstr (text, ==, "counted to 4");
  g_assert_cmpint (mcp_task_get_status (resumed), ==, MCP_TASK_COMPLETED);

  /* One the server never had is forgotten, with its reason. */
  unknown = mcp_task_new ("task-that-never-was", "count");
  g_clear_object (&result);
  result = follow (fixture->client, unknown, NULL, &error);
  g_assert_null (result);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS);
  g_assert_cmpint (mcp_task_get_status (unknown), ==, MCP_TASK_FORGOTTEN);
  g_assert_nonnull (strstr (mcp_task_get_status_message (unknown), "task-that-never-was"));
}

static void
test_hostile (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(McpTask) task = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  const char *gap;

  /* Asked to poll every 0 ms, flooded with status for tasks it never
   * made, and sent a status message of 200,000 characters, the client
   * polls at its own pace, keeps a short message and gets the result. */
  result = call_tool (fixture, fixture->client, "spin", "{}", &error);
  g_assert_no_error (error);
  text = mcp_tool_result_dup_text (result);
  g_assert_true (g_str_has_prefix (text, "polled 4 times, shortest gap "));
  gap = text + strlen ("polled 4 times, shortest gap ");
  g_assert_cmpint (atoi (gap), >=, 100);

  task = only_followed_task (fixture->client);
  g_assert_cmpint (mcp_task_get_status (task), ==, MCP_TASK_COMPLETED);
  g_assert_cmpstr (mcp_task_get_status_message (task), ==, "done");
  for (guint i = 0; i < fixture->messages->len; i++)
    g_assert_cmpuint (g_utf8_strlen (g_ptr_array_index (fixture->messages, i), -1), <=, 1024);
  g_assert_cmpuint (fixture->messages->len, >=, 1);
}

static void
test_long_running (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(McpToolResult) at_once = NULL;
  g_autoptr(McpToolResult) as_task = NULL;
  g_autoptr(McpTask) task = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  /* A tool that allows a task runs at once until its calls are marked
   * long-running; then the next call is a task. */
  g_assert_true (mcp_client_tool_allows_task (fixture->client, "maybe"));
  g_assert_false (mcp_client_tool_needs_task (fixture->client, "maybe"));

  at_once = call_tool (fixture, fixture->client, "maybe", "{}", &error);
  g_assert_no_error (error);
  text = mcp_tool_result_dup_text (at_once);
  g_assert_cmpstr (text, ==, "maybe ran at once");
  g_clear_pointer (&text, g_free);

  mcp_client_set_long_running (fixture->client, "maybe", TRUE);
  g_assert_true (mcp_client_get_long_running (fixture->client, "maybe"));
  as_task = call_tool (fixture, fixture->client, "maybe", "{}", &error);
  g_assert_no_error (error);
  text = mcp_tool_result_dup_text (as_task);
  g_assert_cmpstr (text, ==, "maybe ran as a task");
  task = only_followed_task (fixture->client);
  g_assert_cmpstr (mcp_task_get_id (task), ==, "maybe-1");
}

static void
test_modern_parse (void)
{
  g_autoptr(JsonObject) bad = test_parse_object ("{\"taskId\":\"t\",\"status\":\"sleeping\"}");
  g_autoptr(JsonObject) done = test_parse_object ("{\"taskId\":\"t\",\"status\":\"completed\"}");
  g_autoptr(JsonObject) back = test_parse_object ("{\"taskId\":\"t\",\"status\":\"working\"}");
  g_autoptr(JsonObject) other = test_parse_object ("{\"taskId\":\"u\",\"status\":\"working\"}");
  g_autoptr(JsonObject) none = test_parse_object ("{\"status\":\"working\"}");
  g_autoptr(McpTask) task = NULL;
  g_autoptr(GError) error = NULL;

  /* Bad answers are errors naming the cause, never a silent change. */
  g_assert_null (mcp_task_new_from_json (none, NULL, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
  g_clear_error (&error);

  task = mcp_task_new ("t", "tool");
  g_assert_false (mcp_task_update (task, bad, &error));
  g_assert_nonnull (strstr (error->message, "sleeping"));
  g_clear_error (&error);
  g_assert_false (mcp_task_update (task, other, &error));
  g_clear_error (&error);
  g_assert_true (mcp_task_update (task, done, &error));
  g_assert_no_error (error);
  g_assert_false (mcp_task_update (task, back, &error));
  g_assert_nonnull (strstr (error->message, "stays finished"));
  g_assert_cmpint (mcp_task_get_status (task), ==, MCP_TASK_COMPLETED);
}

static void
test_related_task_parse (void)
{
  const char *bad[] = {
    "{\"_meta\":[]}",
    "{\"_meta\":{\"io.modelcontextprotocol/related-task\":\"t-1\"}}",
    "{\"_meta\":{\"io.modelcontextprotocol/related-task\":{\"taskId\":7}}}",
    "{\"_meta\":{\"io.modelcontextprotocol/related-task\":{\"taskId\":\"\"}}}",
    "{\"_meta\":{\"io.modelcontextprotocol/related-task\":{\"taskId\":\"a\\nb\"}}}",
  };
  g_autoptr(JsonObject) none = test_parse_object ("{\"messages\":[]}");
  g_autoptr(JsonObject) good = test_parse_object (
    "{\"_meta\":{\"io.modelcontextprotocol/related-task\":{\"taskId\":\"t-1\"}}}");
  g_autoptr(JsonObject) long_id = json_object_new ();
  g_autofree char *long_text = g_strnfill (MCP_RELATED_TASK_ID_MAX + 1, 'x');
  g_autoptr(GError) error = NULL;

  g_assert_true (mcp_related_task_check (none, &error));
  g_assert_null (mcp_related_task_get_id (none));
  g_assert_true (mcp_related_task_check (good, &error));
  g_assert_cmpstr (mcp_related_task_get_id (good), ==, "t-1");

  /* A name that is not a short string is refused, naming the fault. */
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(JsonObject) params = test_parse_object (bad[i]);

      g_assert_false (mcp_related_task_check (params, &error));
      g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS);
      g_assert_nonnull (strstr (error->message, "related task")
                        ? error->message : strstr (error->message, "_meta"));
      g_clear_error (&error);
      g_assert_null (mcp_related_task_get_id (params));
    }

  mcp_related_task_set_id (long_id, long_text);
  g_assert_false (mcp_related_task_check (long_id, &error));
  g_assert_nonnull (strstr (error->message, "256"));
  g_clear_error (&error);

  /* Marking replaces what a server put there. */
  mcp_related_task_set_id (good, "t-2");
  g_assert_cmpstr (mcp_related_task_get_id (good), ==, "t-2");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, data, func) \
  g_test_add ("/steward/tasks/" path, Fixture, data, fixture_set_up, func, fixture_tear_down)

  g_test_add_func ("/steward/tasks/parse", test_modern_parse);
  g_test_add_func ("/steward/tasks/related-task-parse", test_related_task_parse);
  ADD ("everything/research", "everything", test_everything_research);
  ADD ("everything/elicitation", "everything", test_everything_elicitation);
  ADD ("everything/cancel", "everything", test_everything_cancel);
  ADD ("everything/list-and-result", "everything", test_everything_list_result);
  ADD ("everything/forgotten-after-restart", "everything", test_everything_forgotten);
  ADD ("modern/count", "modern", test_modern_count);
  ADD ("modern/quick", "modern", test_modern_quick);
  ADD ("modern/input", "modern", test_modern_input);
  ADD ("modern/failed", "modern", test_modern_failed);
  ADD ("modern/cancel", "modern", test_modern_cancel);
  ADD ("modern/resume-after-restart", "http", test_modern_resume);
  ADD ("hostile/poll-flood-and-long-status", "hostile", test_hostile);
  ADD ("hostile/optional-marked-long-running", "hostile", test_long_running);

  return g_test_run ();
}

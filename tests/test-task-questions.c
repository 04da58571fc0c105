/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-task-questions"

#include "config.h"

#include <string.h>

#include "mcp-client-tasks.h"
#include "mcp-json-private.h"

#include "steward-redactor.h"
#include "steward-server-registry.h"
#include "steward-task-list.h"
#include "test-host-fixture.h"

/* A question a task asks, through a real host: server-everything's
 * simulate-research-query asks for clarification in the middle of its
 * task (2025-11-25, the request names the task in _meta), and
 * tests/servers/tasks-server.mjs's ask-name asks through the task's
 * input_required status (2026-07-28). The approval the host raises names
 * the task, its tool and its start; the task's entry offers the question
 * while it waits and drops it once answered. */

typedef struct {
  char            *top;
  StewardHost     *host;
  StewardApproval *question;
  guint            changes_while_asked;
} Fixture;

static void
added_cb (StewardApprovals *approvals,
          StewardApproval  *approval,
          Fixture          *fixture)
{
  if (steward_approval_get_kind (approval) == STEWARD_APPROVAL_KIND_CONSENT)
    steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_ALLOW, NULL);
  else if (steward_approval_get_kind (approval) == STEWARD_APPROVAL_KIND_ELICITATION)
    g_set_object (&fixture->question, approval);
}

static void
add_server (JsonObject *servers,
            const char *name,
            const char *script)
{
  JsonObject *server = json_object_new ();
  JsonArray *args = json_array_new ();

  json_array_add_string_element (args, script);
  json_array_add_string_element (args, "stdio");
  json_object_set_string_member (server, "command", "node");
  json_object_set_array_member (server, "args", args);
  json_object_set_object_member (servers, name, server);
}

static gboolean
ready (StewardHost *host,
       const char  *name)
{
  StewardServer *server = steward_server_registry_lookup (steward_host_get_registry (host), name);
  McpClient *client = server ? steward_server_get_client (server) : NULL;

  return client != NULL && steward_server_get_status (server) == STEWARD_SERVER_STATUS_READY &&
         g_list_model_get_n_items (mcp_client_get_tools (client)) > 0;
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *everything = g_build_filename (g_getenv ("STEWARD_PEERS_DIR"),
                                                  "@modelcontextprotocol", "server-everything",
                                                  "dist", "index.js", NULL);
  g_autofree char *tasks = g_test_build_filename (G_TEST_DIST, "servers", "tasks-server.mjs",
                                                  NULL);
  g_autoptr(JsonObject) root = json_object_new ();
  JsonObject *servers = json_object_new ();
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *text = NULL;
  g_autofree char *path = NULL;

  add_server (servers, "everything", everything);
  add_server (servers, "tasks", tasks);
  json_object_set_object_member (root, "mcpServers", servers);
  node = json_node_init_object (json_node_alloc (), root);
  text = json_to_string (node, FALSE);

  fixture->top = test_make_top ("test-task-questions");
  path = g_build_filename (fixture->top, "config", "servers.json", NULL);
  test_write_text (path, text);

  fixture->host = test_host_new_in (fixture->top);
  g_signal_connect (steward_host_get_approvals (fixture->host), "added",
                    G_CALLBACK (added_cb), fixture);
  /* Made before the servers start, as the app makes it. */
  steward_task_list_get_for_host (fixture->host);
  test_host_start (fixture->host, 20);
  test_loop_until (ready (fixture->host, "everything") && ready (fixture->host, "tasks"), 60);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_clear_object (&fixture->question);
  test_host_shutdown (fixture->host, 20);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_finalize_object (fixture->host);
  steward_redact_forget_secrets ();
  test_remove_tree (fixture->top);
  g_free (fixture->top);
}

static StewardTaskEntry *
entry_for (Fixture    *fixture,
           const char *task_id)
{
  GListModel *list = G_LIST_MODEL (steward_task_list_get_for_host (fixture->host));

  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr(StewardTaskEntry) entry = g_list_model_get_item (list, i);

      if (g_str_equal (mcp_task_get_id (steward_task_entry_get_task (entry)), task_id))
        return entry;
    }

  return NULL;
}

static void
ask_and_answer (Fixture    *fixture,
                const char *server_name,
                const char *tool,
                const char *arguments_json,
                const char *expected)
{
  StewardServer *server = steward_server_registry_lookup (steward_host_get_registry (fixture->host),
                                                          server_name);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(McpToolResult) tool_result = NULL;
  g_autoptr(JsonObject) content = json_object_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  StewardTaskEntry *entry;
  McpTask *task;

  g_assert_true (json_parser_load_from_data (parser, arguments_json, -1, NULL));
  steward_server_call_tool_async (server, tool, json_node_get_object (json_parser_get_root (parser)),
                                  NULL, NULL, NULL, NULL, test_store_result_cb, &result);

  test_loop_until (fixture->question != NULL, 60);
  g_assert_null (result);

  /* The approval names the task of its own server, with tool and start. */
  g_assert_cmpstr (steward_approval_get_server (fixture->question), ==, server_name);
  g_assert_nonnull (steward_approval_get_task_id (fixture->question));
  task = mcp_client_lookup_task (steward_server_get_client (server),
                                 steward_approval_get_task_id (fixture->question));
  g_assert_nonnull (task);
  g_assert_cmpstr (mcp_task_get_tool_name (task), ==, tool);
  g_assert_cmpstr (steward_approval_get_task_tool (fixture->question), ==, tool);

  entry = entry_for (fixture, steward_approval_get_task_id (fixture->question));
  g_assert_nonnull (entry);
  g_assert_true (steward_task_entry_get_task (entry) == task);
  g_assert_true (g_date_time_equal (steward_approval_get_task_started (fixture->question),
                                    steward_task_entry_get_started (entry)));
  g_assert_true (steward_task_entry_get_question (entry) == fixture->question);

  /* Answered, the task goes on without a question. */
  json_object_set_string_member (content, "interpretation", "historical");
  json_object_set_string_member (content, "name", "Ada");
  steward_approval_respond (fixture->question, STEWARD_APPROVAL_ACTION_ACCEPT, content);
  g_assert_null (steward_task_entry_get_question (entry));

  test_loop_until (result != NULL, 60);
  tool_result = steward_server_call_tool_finish (server, result, &error);
  g_assert_no_error (error);
  text = mcp_tool_result_dup_text (tool_result);
  g_assert_nonnull (strstr (text, expected));
}

static void
test_related_task (Fixture       *fixture,
                   gconstpointer  data)
{
  ask_and_answer (fixture, "everything", "simulate-research-query",
                  "{\"topic\":\"tides\",\"ambiguous\":true}", "tides (historical)");
}

static void
test_input_required (Fixture       *fixture,
                     gconstpointer  data)
{
  ask_and_answer (fixture, "tasks", "ask-name", "{}", "Hello, Ada");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/steward/task-questions/related-task", Fixture, NULL, fixture_set_up,
              test_related_task, fixture_tear_down);
  g_test_add ("/steward/task-questions/input-required", Fixture, NULL, fixture_set_up,
              test_input_required, fixture_tear_down);

  return g_test_run ();
}

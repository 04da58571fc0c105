/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-app-bridge"

#include "config.h"

#include <string.h>

#include "mcp-error.h"
#include "mcp-json.h"

#include "steward-app-bridge.h"
#include "steward-chat-engine-private.h"
#include "steward-approvals.h"
#include "steward-log-store.h"
#include "steward-server-registry.h"
#include "steward-tool-pins.h"
#include "test-host-fixture.h"

/* The view bridge against real servers of our own (tests/servers/
 * apps-server.py): "apps" has a view and tools of every visibility,
 * "other" a tool meant for views of its own. */

#define VIEW_LABEL "board view 1"

typedef struct {
  char             *top;
  StewardHost      *host;
  StewardServer    *apps;
  StewardAppBridge *bridge;
  GPtrArray        *sent;     /* JsonObject, what the bridge sent the view */
  guint             next_id;
} Fixture;

static void
add_server (JsonBuilder *builder,
            const char  *name,
            const char  *script,
            const char  *mode)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "command");
  json_builder_add_string_value (builder, "/usr/bin/python3");
  json_builder_set_member_name (builder, "args");
  json_builder_begin_array (builder);
  json_builder_add_string_value (builder, script);
  if (mode != NULL)
    json_builder_add_string_value (builder, mode);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
}

static gboolean
server_ready (StewardHost *host,
              const char  *name)
{
  StewardServer *server = steward_server_registry_lookup (steward_host_get_registry (host), name);
  McpClient *client = server != NULL ? steward_server_get_client (server) : NULL;

  return client != NULL && steward_server_get_status (server) == STEWARD_SERVER_STATUS_READY &&
         g_list_model_get_n_items (mcp_client_get_tools (client)) > 0;
}

static void
consent_cb (StewardApprovals *approvals,
            StewardApproval  *approval,
            gpointer          user_data)
{
  if (steward_approval_get_kind (approval) == STEWARD_APPROVAL_KIND_CONSENT)
    steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_ALLOW, NULL);
}

static McpTool *
find_tool (StewardServer *server,
           const char    *name)
{
  GListModel *tools = mcp_client_get_tools (steward_server_get_client (server));

  for (guint i = 0; i < g_list_model_get_n_items (tools); i++)
    {
      g_autoptr(McpTool) tool = g_list_model_get_item (tools, i);

      if (g_str_equal (mcp_item_get_name (MCP_ITEM (tool)), name))
        return g_steal_pointer (&tool);
    }

  return NULL;
}

static void
send_cb (StewardAppBridge *bridge,
         const char       *text,
         Fixture          *fixture)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = mcp_json_parse (text, -1, &error);

  /* Whatever the view sent, the bridge's own text is always JSON-RPC. */
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  g_assert_cmpstr (mcp_json_get_string (json_node_get_object (node), "jsonrpc"), ==, "2.0");
  g_ptr_array_add (fixture->sent, json_object_ref (json_node_get_object (node)));
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GFile) config_dir = NULL;
  g_autoptr(GFile) state_dir = NULL;
  g_autoptr(GFile) data_dir = NULL;
  g_autoptr(McpTool) tool = NULL;
  g_autoptr(JsonObject) arguments = json_object_new ();
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "servers", "apps-server.py",
                                                   NULL);
  g_autofree char *config_path = NULL;
  g_autofree char *servers_path = NULL;
  g_autofree char *servers_json = NULL;

  fixture->top = g_dir_make_tmp ("test-app-bridge-XXXXXX", &error);
  g_assert_no_error (error);
  config_path = g_build_filename (fixture->top, "config", NULL);
  g_assert_cmpint (g_mkdir_with_parents (config_path, 0700), ==, 0);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "mcpServers");
  json_builder_begin_object (builder);
  add_server (builder, "apps", script, NULL);
  add_server (builder, "other", script, "other");
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  servers_json = json_to_string (root, TRUE);
  servers_path = g_build_filename (config_path, "servers.json", NULL);
  test_write_text (servers_path, servers_json);

  config_dir = g_file_new_for_path (config_path);
  state_dir = g_file_new_build_filename (fixture->top, "state", NULL);
  data_dir = g_file_new_build_filename (fixture->top, "data", NULL);
  fixture->host = g_object_new (STEWARD_TYPE_HOST, "config-dir", config_dir,
                                "state-dir", state_dir, "data-dir", data_dir, NULL);
  g_signal_connect (steward_host_get_approvals (fixture->host), "added",
                    G_CALLBACK (consent_cb), NULL);
  test_host_start (fixture->host, 20);
  test_loop_until (server_ready (fixture->host, "apps") && server_ready (fixture->host, "other"),
                   60);
  fixture->apps = steward_server_registry_lookup (steward_host_get_registry (fixture->host),
                                                  "apps");

  tool = find_tool (fixture->apps, "show-board");
  g_assert_nonnull (tool);
  json_object_set_string_member (arguments, "square", "e4");
  fixture->sent = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
  fixture->bridge = steward_app_bridge_new (fixture->host, fixture->apps, tool, arguments, NULL,
                                            NULL, VIEW_LABEL);
  g_signal_connect (fixture->bridge, "send", G_CALLBACK (send_cb), fixture);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_assert_finalize_object (fixture->bridge);
  test_host_shutdown (fixture->host, 10);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_finalize_object (fixture->host);
  g_ptr_array_unref (fixture->sent);
  test_remove_tree (fixture->top);
  g_free (fixture->top);
}

static JsonObject *
find_reply (Fixture *fixture,
            gint64   id)
{
  for (guint i = 0; i < fixture->sent->len; i++)
    {
      JsonObject *message = g_ptr_array_index (fixture->sent, i);
      gint64 got;

      if (!json_object_has_member (message, "method") &&
          mcp_json_get_int64 (message, "id", G_MININT64, G_MAXINT64, &got) && got == id)
        return message;
    }

  return NULL;
}

/* Posts a request with a fresh id and waits for the answer to it. */
static JsonObject *
request (Fixture    *fixture,
         const char *method,
         const char *params_json)
{
  g_autofree char *text = NULL;
  guint id = ++fixture->next_id;

  text = g_strdup_printf ("{\"jsonrpc\": \"2.0\", \"id\": %u, \"method\": \"%s\", "
                          "\"params\": %s}", id, method, params_json);
  steward_app_bridge_receive (fixture->bridge, text);
  test_loop_until (find_reply (fixture, id) != NULL, 30);

  return json_object_ref (find_reply (fixture, id));
}

static const char *
error_message (JsonObject *reply,
               gint64      code)
{
  JsonObject *error = mcp_json_get_object (reply, "error");
  gint64 got = 0;

  g_assert_nonnull (error);
  g_assert_true (mcp_json_get_int64 (error, "code", G_MININT64, G_MAXINT64, &got));
  g_assert_cmpint (got, ==, code);
  return mcp_json_get_string (error, "message");
}

static char *
result_text (JsonObject *reply)
{
  JsonObject *result = mcp_json_get_object (reply, "result");
  JsonArray *content = mcp_json_get_array (result, "content");

  g_assert_nonnull (content);
  return g_strdup (mcp_json_get_string (json_array_get_object_element (content, 0), "text"));
}

/* How many entries of the view's traffic, or of the server's, hold
 * @needle in their one-line text. */
static guint
count_log (Fixture             *fixture,
           const char          *logger,
           StewardLogDirection  direction,
           const char          *needle)
{
  StewardLogStore *store = steward_host_get_log_store (fixture->host);
  GListModel *model = G_LIST_MODEL (store);
  guint count = 0;

  steward_log_store_flush (store);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(StewardLogEntry) entry = g_list_model_get_item (model, i);

      if (g_strcmp0 (steward_log_entry_get_server (entry), "apps") == 0 &&
          g_strcmp0 (steward_log_entry_get_logger (entry), logger) == 0 &&
          steward_log_entry_get_direction (entry) == direction &&
          strstr (steward_log_entry_get_text (entry), needle) != NULL)
        count++;
    }

  return count;
}

static JsonObject *
find_sent (Fixture    *fixture,
           const char *method)
{
  for (guint i = 0; i < fixture->sent->len; i++)
    if (g_strcmp0 (mcp_json_get_string (g_ptr_array_index (fixture->sent, i), "method"),
                   method) == 0)
      return g_ptr_array_index (fixture->sent, i);

  return NULL;
}

static void
initialize (Fixture *fixture)
{
  g_autoptr(JsonObject) reply = request (fixture, "ui/initialize",
                                         "{\"appInfo\": {\"name\": \"board\", \"version\": \"1\"},"
                                         " \"appCapabilities\": {},"
                                         " \"protocolVersion\": \"2026-01-26\"}");

  g_assert_nonnull (mcp_json_get_object (reply, "result"));
  steward_app_bridge_receive (fixture->bridge,
                              "{\"jsonrpc\": \"2.0\", \"method\": "
                              "\"ui/notifications/initialized\"}");
  g_assert_true (steward_app_bridge_get_initialized (fixture->bridge));
}

static void
allow_server (Fixture *fixture)
{
  StewardToolPins *pins = steward_host_get_tool_pins (fixture->host);
  GListModel *tools = mcp_client_get_tools (steward_server_get_client (fixture->apps));

  for (guint i = 0; i < g_list_model_get_n_items (tools); i++)
    {
      g_autoptr(McpTool) tool = g_list_model_get_item (tools, i);

      steward_tool_pins_approve (pins, "apps", tool);
    }
  steward_tool_pins_set_server_policy (pins, "apps", STEWARD_TOOL_POLICY_ALLOW);
}

static void
test_initialize (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(JsonObject) context = json_object_new ();
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(JsonObject) result_json = NULL;
  JsonObject *initialize_result, *host_context, *input, *changed;
  g_autofree char *capabilities = NULL;
  g_autoptr(GError) error = NULL;

  json_object_set_string_member (context, "theme", "dark");
  json_object_set_string_member (context, "locale", "de-DE");
  steward_app_bridge_set_host_context (fixture->bridge, context);
  /* Nothing goes to a view before it asked for it. */
  g_assert_cmpuint (fixture->sent->len, ==, 0);

  reply = request (fixture, "ui/initialize",
                   "{\"appInfo\": {\"name\": \"board\", \"version\": \"1\"},"
                   " \"appCapabilities\": {}, \"protocolVersion\": \"2026-01-26\"}");
  initialize_result = mcp_json_get_object (reply, "result");
  g_assert_cmpstr (mcp_json_get_string (initialize_result, "protocolVersion"), ==, "2026-01-26");
  g_assert_cmpstr (mcp_json_get_string (mcp_json_get_object (initialize_result, "hostInfo"),
                                        "name"), ==, "Steward");
  g_assert_nonnull (mcp_json_get_object (mcp_json_get_object (initialize_result,
                                                              "hostCapabilities"),
                                         "serverTools"));
  host_context = mcp_json_get_object (initialize_result, "hostContext");
  g_assert_cmpstr (mcp_json_get_string (host_context, "theme"), ==, "dark");
  g_assert_cmpstr (mcp_json_get_string (host_context, "displayMode"), ==, "inline");
  g_assert_cmpstr (mcp_json_get_string (mcp_json_get_object (mcp_json_get_object (host_context,
                                                                                  "toolInfo"),
                                                             "tool"), "name"), ==, "show-board");
  g_assert_null (find_sent (fixture, "ui/notifications/tool-input"));

  /* The call's arguments wait for the view's initialized, then come. */
  steward_app_bridge_receive (fixture->bridge,
                              "{\"jsonrpc\": \"2.0\", \"method\": "
                              "\"ui/notifications/initialized\"}");
  input = find_sent (fixture, "ui/notifications/tool-input");
  g_assert_nonnull (input);
  g_assert_cmpstr (mcp_json_get_string (mcp_json_get_object (mcp_json_get_object (input, "params"),
                                                             "arguments"), "square"), ==, "e4");

  result_json = json_object_new ();
  json_object_set_boolean_member (result_json, "isError", FALSE);
  json_object_set_array_member (result_json, "content", json_array_new ());
  result = mcp_tool_result_new (result_json);
  steward_app_bridge_send_tool_result (fixture->bridge, result);
  g_assert_nonnull (find_sent (fixture, "ui/notifications/tool-result"));

  /* Only what changed is sent. */
  json_object_set_string_member (context, "theme", "light");
  steward_app_bridge_set_host_context (fixture->bridge, context);
  changed = find_sent (fixture, "ui/notifications/host-context-changed");
  g_assert_nonnull (changed);
  g_assert_cmpstr (mcp_json_get_string (mcp_json_get_object (changed, "params"), "theme"), ==,
                   "light");
  g_assert_false (json_object_has_member (mcp_json_get_object (changed, "params"), "locale"));

  /* The server heard that Steward shows views. */
  {
    g_autoptr(GAsyncResult) async_result = NULL;
    g_autoptr(McpToolResult) answer = NULL;
    g_autoptr(JsonNode) node = NULL;
    JsonObject *ui;

    steward_server_call_tool_async (fixture->apps, "client-capabilities", NULL, NULL, NULL, NULL,
                                    NULL, test_store_result_cb, &async_result);
    test_loop_until (async_result != NULL, 30);
    answer = steward_server_call_tool_finish (fixture->apps, async_result, &error);
    g_assert_no_error (error);
    capabilities = mcp_tool_result_dup_text (answer);
    node = mcp_json_parse (capabilities, -1, &error);
    g_assert_no_error (error);
    ui = mcp_json_get_object (mcp_json_get_object (json_node_get_object (node), "extensions"),
                              "io.modelcontextprotocol/ui");
    g_assert_nonnull (ui);
    g_assert_cmpstr (json_array_get_string_element (mcp_json_get_array (ui, "mimeTypes"), 0), ==,
                     "text/html;profile=mcp-app");
  }
}

static void
test_call_allowed (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(JsonObject) reply = NULL;
  g_autofree char *text = NULL;

  allow_server (fixture);
  initialize (fixture);

  reply = request (fixture, "tools/call",
                   "{\"name\": \"move\", \"arguments\": {\"square\": \"e5\"}}");
  text = result_text (reply);
  g_assert_cmpstr (text, ==, "move e5");

  /* Both ways in the log, under the view's label, and the call itself in
   * the server's own traffic. */
  g_assert_cmpuint (count_log (fixture, VIEW_LABEL, STEWARD_LOG_DIRECTION_IN, "tools/call"), ==,
                    1);
  g_assert_cmpuint (count_log (fixture, VIEW_LABEL, STEWARD_LOG_DIRECTION_OUT, "result"), >=, 1);
  g_assert_cmpuint (count_log (fixture, NULL, STEWARD_LOG_DIRECTION_OUT, "tools/call"), ==, 1);

  /* Its own server's resources are readable. */
  {
    g_autoptr(JsonObject) read = request (fixture, "resources/read",
                                          "{\"uri\": \"ui://apps/board.html\"}");
    JsonArray *contents = mcp_json_get_array (mcp_json_get_object (read, "result"), "contents");

    g_assert_nonnull (contents);
    g_assert_nonnull (strstr (mcp_json_get_string (json_array_get_object_element (contents, 0),
                                                   "text"), "board"));
  }
}

/* Another server's tool, a tool kept from views, a tool no one has: the
 * view is told why, and the server never sees the call. */
static void
test_call_refused (Fixture       *fixture,
                   gconstpointer  data)
{
  const struct {
    const char *params;
    gint64      code;
    const char *named;
  } cases[] = {
    { "{\"name\": \"other-move\", \"arguments\": {}}", MCP_ERROR_INVALID_PARAMS, "own server" },
    { "{\"name\": \"model-only\", \"arguments\": {}}", MCP_ERROR_INVALID_REQUEST, "visibility" },
    { "{\"name\": \"no-such-tool\"}", MCP_ERROR_INVALID_PARAMS, "no-such-tool" },
    { "{\"name\": 42}", MCP_ERROR_INVALID_PARAMS, "name" },
    { "{\"name\": \"move\", \"arguments\": [1]}", MCP_ERROR_INVALID_PARAMS, "arguments" },
    { "{}", MCP_ERROR_INVALID_PARAMS, "name" },
  };

  allow_server (fixture);
  initialize (fixture);

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonObject) reply = request (fixture, "tools/call", cases[i].params);
      const char *message = error_message (reply, cases[i].code);

      g_test_message ("%s: %s", cases[i].params, message);
      g_assert_nonnull (strstr (message, cases[i].named));
    }

  g_assert_cmpuint (count_log (fixture, NULL, STEWARD_LOG_DIRECTION_OUT, "tools/call"), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (steward_host_get_approvals (
                                                                fixture->host))), ==, 0);
}

static StewardApproval *
first_tool_approval (Fixture *fixture)
{
  StewardApproval *approval = steward_approvals_get_first (steward_host_get_approvals (
                                                             fixture->host));

  if (approval != NULL && steward_approval_get_kind (approval) == STEWARD_APPROVAL_KIND_TOOL_CALL)
    return approval;
  return NULL;
}

/* Without a standing "allow", the person is asked, as for a chat's call. */
static void
test_call_asks (Fixture       *fixture,
                gconstpointer  data)
{
  StewardApproval *approval;
  g_autoptr(JsonObject) denied = NULL;
  g_autofree char *text = NULL;

  initialize (fixture);

  steward_app_bridge_receive (fixture->bridge,
                              "{\"jsonrpc\": \"2.0\", \"id\": \"a\", \"method\": \"tools/call\","
                              " \"params\": {\"name\": \"move\", \"arguments\": {\"square\": "
                              "\"d4\"}}}");
  test_loop_until (first_tool_approval (fixture) != NULL, 10);
  approval = first_tool_approval (fixture);
  g_assert_cmpstr (steward_approval_get_server (approval), ==, "apps");
  g_assert_cmpstr (mcp_json_get_string (steward_approval_get_request (approval), "tool"), ==,
                   "move");
  g_assert_nonnull (strstr (steward_approval_get_cause (approval), VIEW_LABEL));
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_DENY, NULL);
  test_loop_until (fixture->sent->len > 0 &&
                   json_object_has_member (g_ptr_array_index (fixture->sent,
                                                              fixture->sent->len - 1), "error"),
                   10);
  denied = json_object_ref (g_ptr_array_index (fixture->sent, fixture->sent->len - 1));
  g_assert_cmpstr (mcp_json_get_string (denied, "id"), ==, "a");
  g_assert_nonnull (strstr (error_message (denied, MCP_ERROR_USER_REJECTED), "declined"));
  g_assert_cmpuint (count_log (fixture, NULL, STEWARD_LOG_DIRECTION_OUT, "tools/call"), ==, 0);

  steward_app_bridge_receive (fixture->bridge,
                              "{\"jsonrpc\": \"2.0\", \"id\": 77, \"method\": \"tools/call\","
                              " \"params\": {\"name\": \"move\", \"arguments\": {\"square\": "
                              "\"d5\"}}}");
  test_loop_until (first_tool_approval (fixture) != NULL, 10);
  steward_approval_respond (first_tool_approval (fixture), STEWARD_APPROVAL_ACTION_ALLOW, NULL);
  test_loop_until (find_reply (fixture, 77) != NULL, 30);
  text = result_text (find_reply (fixture, 77));
  g_assert_cmpstr (text, ==, "move d5");

  /* The person allowed what they saw: the tool is pinned now. */
  {
    g_autoptr(McpTool) move = find_tool (fixture->apps, "move");

    g_assert_cmpint (steward_tool_pins_check (steward_host_get_tool_pins (fixture->host), "apps",
                                              move), ==, STEWARD_TOOL_PIN_OK);
  }
}

static guint
count_tool_approvals (Fixture *fixture)
{
  GListModel *approvals = G_LIST_MODEL (steward_host_get_approvals (fixture->host));
  guint count = 0;

  for (guint i = 0; i < g_list_model_get_n_items (approvals); i++)
    {
      g_autoptr(StewardApproval) approval = g_list_model_get_item (approvals, i);

      if (steward_approval_get_kind (approval) == STEWARD_APPROVAL_KIND_TOOL_CALL
          && !steward_approval_get_finished (approval))
        count++;
    }

  return count;
}

static void
call_move (Fixture *fixture,
           int      id)
{
  g_autofree char *text = g_strdup_printf ("{\"jsonrpc\": \"2.0\", \"id\": %d, "
                                           "\"method\": \"tools/call\", \"params\": "
                                           "{\"name\": \"move\", \"arguments\": "
                                           "{\"square\": \"c%d\"}}}", id, id);

  steward_app_bridge_receive (fixture->bridge, text);
}

/* A view that polls a tool while the person reads the question about its
 * first call asks once: the later calls wait for that answer. */
static void
test_calls_wait_for_answer (Fixture       *fixture,
                            gconstpointer  data)
{
  g_autofree char *text = NULL;

  initialize (fixture);

  for (int id = 101; id <= 103; id++)
    call_move (fixture, id);
  test_loop_until (first_tool_approval (fixture) != NULL, 10);
  g_assert_cmpuint (count_tool_approvals (fixture), ==, 1);

  /* Allowed once: that call runs, and the next one is asked about. */
  steward_approval_respond (first_tool_approval (fixture), STEWARD_APPROVAL_ACTION_ALLOW, NULL);
  test_loop_until (find_reply (fixture, 101) != NULL, 30);
  text = result_text (find_reply (fixture, 101));
  g_assert_cmpstr (text, ==, "move c101");
  test_loop_until (first_tool_approval (fixture) != NULL, 10);
  g_assert_cmpuint (count_tool_approvals (fixture), ==, 1);
  g_assert_null (find_reply (fixture, 102));

  /* Declined: the calls waiting behind it are declined with it. */
  steward_approval_respond (first_tool_approval (fixture), STEWARD_APPROVAL_ACTION_DENY, NULL);
  test_loop_until (find_reply (fixture, 102) != NULL && find_reply (fixture, 103) != NULL, 10);
  g_assert_nonnull (strstr (error_message (find_reply (fixture, 102), MCP_ERROR_USER_REJECTED),
                            "declined"));
  g_assert_nonnull (strstr (error_message (find_reply (fixture, 103), MCP_ERROR_USER_REJECTED),
                            "declined"));
  g_assert_cmpuint (count_tool_approvals (fixture), ==, 0);
  g_assert_cmpuint (count_log (fixture, NULL, STEWARD_LOG_DIRECTION_OUT, "tools/call"), ==, 1);

  /* Allowed for good: every call waiting behind the question runs. */
  for (int id = 104; id <= 106; id++)
    call_move (fixture, id);
  test_loop_until (first_tool_approval (fixture) != NULL, 10);
  g_assert_cmpuint (count_tool_approvals (fixture), ==, 1);
  steward_tool_pins_set_tool_policy (steward_host_get_tool_pins (fixture->host), "apps", "move",
                                     STEWARD_TOOL_POLICY_ALLOW);
  steward_approval_respond (first_tool_approval (fixture), STEWARD_APPROVAL_ACTION_ALLOW, NULL);
  test_loop_until (find_reply (fixture, 104) != NULL && find_reply (fixture, 105) != NULL
                   && find_reply (fixture, 106) != NULL, 30);
  g_clear_pointer (&text, g_free);
  text = result_text (find_reply (fixture, 106));
  g_assert_cmpstr (text, ==, "move c106");
  g_assert_cmpuint (count_tool_approvals (fixture), ==, 0);
}

static void
message_cb (StewardAppBridge *bridge,
            const char       *role,
            JsonArray        *content,
            char            **text)
{
  g_assert_cmpstr (role, ==, "user");
  *text = g_strdup (mcp_json_get_string (json_array_get_object_element (content, 0), "text"));
}

static char *
display_mode_cb (StewardAppBridge *bridge,
                 const char       *mode,
                 gpointer          user_data)
{
  /* This host has no picture-in-picture. */
  return g_strdup (g_str_equal (mode, "pip") ? "inline" : mode);
}

static void
open_link_cb (StewardAppBridge *bridge,
              const char       *url,
              char            **opened)
{
  g_free (*opened);
  *opened = g_strdup (url);
}

static void
size_cb (StewardAppBridge *bridge,
         int               width,
         int               height,
         int              *size)
{
  size[0] = width;
  size[1] = height;
}

static void
test_view_requests (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(JsonObject) reply = NULL;
  g_autofree char *said = NULL;
  g_autofree char *opened = NULL;
  int size[2] = { 0, 0 };
  JsonObject *context;

  initialize (fixture);

  /* With no chat listening the view hears it went nowhere. */
  reply = request (fixture, "ui/message",
                   "{\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": \"hi\"}]}");
  g_assert_true (mcp_json_get_boolean (mcp_json_get_object (reply, "result"), "isError", FALSE));
  g_clear_pointer (&reply, json_object_unref);

  g_signal_connect (fixture->bridge, "message", G_CALLBACK (message_cb), &said);
  reply = request (fixture, "ui/message",
                   "{\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": \"e4!\"}]}");
  g_assert_false (mcp_json_get_boolean (mcp_json_get_object (reply, "result"), "isError", FALSE));
  g_assert_cmpstr (said, ==, "e4!");
  g_clear_pointer (&reply, json_object_unref);

  reply = request (fixture, "ui/message", "{\"role\": \"assistant\", \"content\": []}");
  error_message (reply, MCP_ERROR_INVALID_PARAMS);
  g_clear_pointer (&reply, json_object_unref);

  reply = request (fixture, "ui/update-model-context",
                   "{\"content\": [{\"type\": \"text\", \"text\": \"board: e4\"}]}");
  g_assert_nonnull (mcp_json_get_object (reply, "result"));
  context = steward_app_bridge_get_model_context (fixture->bridge);
  g_assert_nonnull (context);
  g_assert_cmpstr (mcp_json_get_string (json_array_get_object_element (
                                          mcp_json_get_array (context, "content"), 0), "text"),
                   ==, "board: e4");
  g_clear_pointer (&reply, json_object_unref);

  g_signal_connect (fixture->bridge, "display-mode-requested", G_CALLBACK (display_mode_cb), NULL);
  reply = request (fixture, "ui/request-display-mode", "{\"mode\": \"fullscreen\"}");
  g_assert_cmpstr (mcp_json_get_string (mcp_json_get_object (reply, "result"), "mode"), ==,
                   "fullscreen");
  g_assert_cmpstr (steward_app_bridge_get_display_mode (fixture->bridge), ==, "fullscreen");
  g_clear_pointer (&reply, json_object_unref);
  reply = request (fixture, "ui/request-display-mode", "{\"mode\": \"pip\"}");
  g_assert_cmpstr (mcp_json_get_string (mcp_json_get_object (reply, "result"), "mode"), ==,
                   "inline");
  g_clear_pointer (&reply, json_object_unref);
  reply = request (fixture, "ui/request-display-mode", "{\"mode\": \"kiosk\"}");
  error_message (reply, MCP_ERROR_INVALID_PARAMS);
  g_clear_pointer (&reply, json_object_unref);

  g_signal_connect (fixture->bridge, "open-link", G_CALLBACK (open_link_cb), &opened);
  reply = request (fixture, "ui/open-link", "{\"url\": \"https://example.com/docs\"}");
  g_assert_nonnull (mcp_json_get_object (reply, "result"));
  g_assert_cmpstr (opened, ==, "https://example.com/docs");
  g_clear_pointer (&reply, json_object_unref);
  for (guint i = 0; i < 6; i++)
    {
      const char *refused[] = { "{\"url\": \"file:///etc/passwd\"}",
                                "{\"url\": \"javascript:alert(1)\"}",
                                "{\"url\": \"steam://run/1\"}", "{\"url\": 5}",
                                "{\"url\": \"http://example.com/\"}",
                                "{\"url\": \"https://evil.example\\\\@bank.example/\"}" };

      reply = request (fixture, "ui/open-link", refused[i]);
      error_message (reply, MCP_ERROR_INVALID_PARAMS);
      g_clear_pointer (&reply, json_object_unref);
    }
  g_assert_cmpstr (opened, ==, "https://example.com/docs");

  g_signal_connect (fixture->bridge, "size-changed", G_CALLBACK (size_cb), size);
  steward_app_bridge_receive (fixture->bridge,
                              "{\"jsonrpc\": \"2.0\", \"method\": "
                              "\"ui/notifications/size-changed\","
                              " \"params\": {\"height\": 420}}");
  g_assert_cmpint (size[0], ==, -1);
  g_assert_cmpint (size[1], ==, 420);

  steward_app_bridge_receive (fixture->bridge,
                              "{\"jsonrpc\": \"2.0\", \"method\": \"notifications/message\","
                              " \"params\": {\"level\": \"warning\", \"data\": \"low on "
                              "squares\"}}");
  {
    StewardLogStore *store = steward_host_get_log_store (fixture->host);
    gboolean found = FALSE;

    steward_log_store_flush (store);
    for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (store)); i++)
      {
        g_autoptr(StewardLogEntry) entry = g_list_model_get_item (G_LIST_MODEL (store), i);

        if (steward_log_entry_get_source (entry) == STEWARD_LOG_SOURCE_SERVER &&
            steward_log_entry_get_level (entry) == STEWARD_LOG_LEVEL_WARNING &&
            g_strcmp0 (steward_log_entry_get_logger (entry), VIEW_LABEL) == 0 &&
            g_strcmp0 (steward_log_entry_get_text (entry), "low on squares") == 0)
          found = TRUE;
      }
    g_assert_true (found);
  }

  reply = request (fixture, "ping", "{}");
  g_assert_nonnull (mcp_json_get_object (reply, "result"));
}

/* Whatever the view posts, it gets an error naming the cause, and the
 * bridge goes on. */
static void
test_bad_input (Fixture       *fixture,
                gconstpointer  data)
{
  const struct {
    const char *text;
    gint64      code;
    const char *named;
  } cases[] = {
    { "", MCP_ERROR_PARSE_ERROR, "not JSON" },
    { "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\"", MCP_ERROR_PARSE_ERROR, "not JSON" },
    { "\xff\xfe{}", MCP_ERROR_PARSE_ERROR, "not JSON" },
    { "[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}]", MCP_ERROR_INVALID_REQUEST,
      "batch" },
    { "42", MCP_ERROR_INVALID_REQUEST, "object" },
    { "{\"id\": 1, \"method\": \"ping\"}", MCP_ERROR_INVALID_REQUEST, "2.0" },
    { "{\"jsonrpc\": \"1.0\", \"id\": 1, \"method\": \"ping\"}", MCP_ERROR_INVALID_REQUEST,
      "2.0" },
    { "{\"jsonrpc\": \"2.0\", \"id\": 1.5, \"method\": \"ping\"}", MCP_ERROR_INVALID_REQUEST,
      "id" },
    { "{\"jsonrpc\": \"2.0\", \"id\": {}, \"method\": \"ping\"}", MCP_ERROR_INVALID_REQUEST,
      "id" },
    { "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": 7}", MCP_ERROR_INVALID_REQUEST, "method" },
    { "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\", \"params\": [1]}",
      MCP_ERROR_INVALID_PARAMS, "params" },
    { "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"sampling/createMessage\"}",
      MCP_ERROR_METHOD_NOT_FOUND, "sampling/createMessage" },
    { "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ui/initialize\", \"params\": \"x\"}",
      MCP_ERROR_INVALID_PARAMS, "params" },
    { "{\"jsonrpc\": \"2.0\", \"id\": 1}", MCP_ERROR_INVALID_REQUEST, "method" },
  };
  g_autoptr(GString) deep = g_string_new ("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\", "
                                          "\"params\": {\"a\": ");
  g_autofree char *big = NULL;
  guint before;

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      JsonObject *last;

      before = fixture->sent->len;
      steward_app_bridge_receive (fixture->bridge, cases[i].text);
      g_assert_cmpuint (fixture->sent->len, ==, before + 1);
      last = g_ptr_array_index (fixture->sent, before);
      if (strstr (error_message (last, cases[i].code), cases[i].named) == NULL)
        g_error ("%s: “%s” does not name %s", cases[i].text,
                 error_message (last, cases[i].code), cases[i].named);
    }

  /* Nesting deeper than the parser takes */
  for (guint i = 0; i < 200; i++)
    g_string_append (deep, "[");
  before = fixture->sent->len;
  steward_app_bridge_receive (fixture->bridge, deep->str);
  g_assert_cmpuint (fixture->sent->len, ==, before + 1);
  error_message (g_ptr_array_index (fixture->sent, before), MCP_ERROR_PARSE_ERROR);

  /* Over the size a view may send */
  big = g_strnfill (STEWARD_APP_BRIDGE_MAX_MESSAGE + 1, ' ');
  before = fixture->sent->len;
  steward_app_bridge_receive (fixture->bridge, big);
  g_assert_cmpuint (fixture->sent->len, ==, before + 1);
  g_assert_nonnull (strstr (error_message (g_ptr_array_index (fixture->sent, before),
                                           MCP_ERROR_INVALID_REQUEST), "bytes"));

  /* A wrong notification has no one to answer: logged, not answered. */
  before = fixture->sent->len;
  steward_app_bridge_receive (fixture->bridge,
                              "{\"jsonrpc\": \"2.0\", \"method\": \"ui/notifications/nonsense\"}");
  steward_app_bridge_receive (fixture->bridge,
                              "{\"jsonrpc\": \"2.0\", \"id\": \"x\", \"result\": {}}");
  g_assert_cmpuint (fixture->sent->len, ==, before);
  g_assert_cmpuint (count_log (fixture, VIEW_LABEL, STEWARD_LOG_DIRECTION_IN,
                               "ui/notifications/nonsense"), >=, 1);

  /* And it still answers (with an id none of the above used). */
  fixture->next_id = 1000;
  {
    g_autoptr(JsonObject) reply = request (fixture, "ping", "{}");

    g_assert_nonnull (mcp_json_get_object (reply, "result"));
  }
}

static void
test_teardown (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *teardown;
  g_autofree char *answer = NULL;

  initialize (fixture);

  steward_app_bridge_teardown_async (fixture->bridge, NULL, test_store_result_cb, &result);
  teardown = find_sent (fixture, "ui/resource-teardown");
  g_assert_nonnull (teardown);
  g_assert_null (result);
  answer = g_strdup_printf ("{\"jsonrpc\": \"2.0\", \"id\": \"%s\", \"result\": {}}",
                            mcp_json_get_string (teardown, "id"));
  steward_app_bridge_receive (fixture->bridge, answer);
  test_loop_until (result != NULL, 10);
  g_assert_true (steward_app_bridge_teardown_finish (fixture->bridge, result, &error));
  g_assert_no_error (error);
  g_clear_object (&result);

  /* A view that never answers is given up on. */
  steward_app_bridge_teardown_async (fixture->bridge, NULL, test_store_result_cb, &result);
  test_loop_until (result != NULL, 10);
  g_assert_false (steward_app_bridge_teardown_finish (fixture->bridge, result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT);
}

static void
offered_free (gpointer data)
{
  Offered *offered = data;

  g_free (offered->server);
  g_clear_object (&offered->tool);
  g_free (offered);
}

/* A tool whose visibility leaves out "model" is not in the list a model
 * gets, even reviewed and allowed; the others are. */
static void
test_model_list (Fixture       *fixture,
                 gconstpointer  data)
{
  StewardChatEngine *engine = steward_host_get_chat_engine (fixture->host);
  Turn turn = { 0 };
  g_autoptr(JsonArray) tools = NULL;
  g_autoptr(GString) names = g_string_new (NULL);

  allow_server (fixture);
  turn.offered = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, offered_free);
  tools = steward_chat_engine_build_tools (engine, &turn);

  g_assert_true (g_hash_table_contains (turn.offered, "apps__show-board"));
  g_assert_true (g_hash_table_contains (turn.offered, "apps__model-only"));
  g_assert_true (g_hash_table_contains (turn.offered, "apps__client-capabilities"));
  g_assert_false (g_hash_table_contains (turn.offered, "apps__move"));
  g_assert_cmpuint (g_hash_table_size (turn.offered), ==, 3);
  g_assert_cmpuint (json_array_get_length (tools), ==, 3);

  g_hash_table_unref (turn.offered);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/steward/app-bridge/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  ADD ("initialize", test_initialize);
  ADD ("call-allowed", test_call_allowed);
  ADD ("call-refused", test_call_refused);
  ADD ("call-asks", test_call_asks);
  ADD ("calls-wait-for-answer", test_calls_wait_for_answer);
  ADD ("view-requests", test_view_requests);
  ADD ("bad-input", test_bad_input);
  ADD ("teardown", test_teardown);
  ADD ("model-list", test_model_list);

#undef ADD

  return g_test_run ();
}

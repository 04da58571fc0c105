/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-chat-engine"

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "mcp-json.h"

#include "steward-host.h"
#include "steward-text.h"
#include "test-host-fixture.h"

/* The chat's tool loop end to end: a scripted model, the reference
 * server "everything" and a server whose tool changes after it was
 * trusted, run by a real host over temporary folders. */

static JsonObject *
parse_object (const char *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = mcp_json_parse (json, -1, &error);

  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  return json_object_ref (json_node_get_object (node));
}

static char *
object_text (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), object);

  return json_to_string (node, FALSE);
}

/* A model that answers from a script */

typedef struct {
  GStrv       deltas;
  JsonArray  *tool_calls;   /* tool_use blocks, or NULL */
  gboolean    hang;         /* after the deltas, wait to be stopped */
} Step;

static void
step_free (Step *step)
{
  g_strfreev (step->deltas);
  g_clear_pointer (&step->tool_calls, json_array_unref);
  g_free (step);
}

#define TEST_TYPE_SCRIPTED (test_scripted_get_type ())
G_DECLARE_FINAL_TYPE (TestScripted, test_scripted, TEST, SCRIPTED, GObject)

struct _TestScripted
{
  GObject    parent_instance;

  GQueue     steps;
  GPtrArray *requests;      /* JsonObject: what each chat_async was given */
};

static void test_scripted_provider_init (StewardProviderInterface *iface);

G_DEFINE_TYPE_WITH_CODE (TestScripted, test_scripted, G_TYPE_OBJECT,
                         G_IMPLEMENT_INTERFACE (STEWARD_TYPE_PROVIDER,
                                                test_scripted_provider_init))

typedef struct {
  GTask                    *task;
  Step                     *step;
  guint                     next;
  gboolean                  tools_sent;
  GString                  *text;
  StewardProviderEventFunc  event_func;
  gpointer                  event_data;
  GDestroyNotify            event_destroy;
  char                     *model;
} Stream;

static void
stream_free (Stream *stream)
{
  if (stream->event_destroy != NULL)
    stream->event_destroy (stream->event_data);
  g_clear_object (&stream->task);
  step_free (stream->step);
  g_string_free (stream->text, TRUE);
  g_free (stream->model);
  g_free (stream);
}

static gboolean
stream_cb (gpointer user_data)
{
  Stream *stream = user_data;
  GCancellable *cancellable = g_task_get_cancellable (stream->task);
  g_autoptr(JsonObject) data = NULL;
  JsonObject *answer;
  JsonArray *content;

  if (g_cancellable_is_cancelled (cancellable))
    {
      g_task_return_new_error (stream->task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "stopped");
      stream_free (stream);
      return G_SOURCE_REMOVE;
    }

  if (stream->step->deltas != NULL && stream->step->deltas[stream->next] != NULL)
    {
      const char *delta = stream->step->deltas[stream->next++];

      g_string_append (stream->text, delta);
      data = json_object_new ();
      json_object_set_string_member (data, "text", delta);
      stream->event_func (STEWARD_PROVIDER_EVENT_TEXT, data, stream->event_data);
      return G_SOURCE_CONTINUE;
    }

  if (stream->step->hang)
    return G_SOURCE_CONTINUE;

  content = json_array_new ();
  if (stream->text->len > 0)
    {
      JsonObject *block = json_object_new ();

      json_object_set_string_member (block, "type", "text");
      json_object_set_string_member (block, "text", stream->text->str);
      json_array_add_object_element (content, block);
    }
  for (guint i = 0; stream->step->tool_calls != NULL &&
                    i < json_array_get_length (stream->step->tool_calls); i++)
    {
      JsonObject *block = json_array_get_object_element (stream->step->tool_calls, i);

      stream->event_func (STEWARD_PROVIDER_EVENT_TOOL_CALL, block, stream->event_data);
      json_array_add_object_element (content, json_object_ref (block));
    }

  data = parse_object ("{\"inputTokens\":10,\"outputTokens\":5}");
  stream->event_func (STEWARD_PROVIDER_EVENT_USAGE, data, stream->event_data);

  answer = json_object_new ();
  json_object_set_string_member (answer, "role", "assistant");
  json_object_set_array_member (answer, "content", content);
  json_object_set_string_member (answer, "model", stream->model);
  json_object_set_string_member (answer, "stopReason",
                                 stream->step->tool_calls != NULL ? "toolUse" : "endTurn");
  json_object_set_object_member (answer, "usage", json_object_ref (data));
  g_task_return_pointer (stream->task, answer, (GDestroyNotify) json_object_unref);
  stream_free (stream);
  return G_SOURCE_REMOVE;
}

static const char *
test_scripted_get_id (StewardProvider *provider)
{
  return "scripted";
}

static const char *
test_scripted_get_display_name (StewardProvider *provider)
{
  return "Scripted";
}

static gboolean
test_scripted_is_local (StewardProvider *provider)
{
  return TRUE;
}

static void
test_scripted_chat_async (StewardProvider          *provider,
                          JsonObject               *request,
                          StewardProviderEventFunc  event_func,
                          gpointer                  event_data,
                          GDestroyNotify            event_destroy,
                          GCancellable             *cancellable,
                          GAsyncReadyCallback       callback,
                          gpointer                  user_data)
{
  TestScripted *self = TEST_SCRIPTED (provider);
  g_autofree char *copy = object_text (request);
  Stream *stream = g_new0 (Stream, 1);

  /* A copy: what the engine sent, as it was then. */
  g_ptr_array_add (self->requests, parse_object (copy));

  stream->task = g_task_new (self, cancellable, callback, user_data);
  stream->step = g_queue_pop_head (&self->steps);
  if (stream->step == NULL)
    {
      stream->step = g_new0 (Step, 1);
      stream->step->deltas = g_strsplit ("(the script ran out)", "|", -1);
    }
  stream->text = g_string_new (NULL);
  stream->event_func = event_func;
  stream->event_data = event_data;
  stream->event_destroy = event_destroy;
  stream->model = g_strdup (json_object_get_string_member (request, "model"));

  /* One event per main loop iteration, as a stream would come. */
  g_timeout_add (1, stream_cb, stream);
}

static JsonObject *
test_scripted_chat_finish (StewardProvider  *provider,
                           GAsyncResult     *result,
                           GError          **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
test_scripted_provider_init (StewardProviderInterface *iface)
{
  iface->get_id = test_scripted_get_id;
  iface->get_display_name = test_scripted_get_display_name;
  iface->is_local = test_scripted_is_local;
  iface->chat_async = test_scripted_chat_async;
  iface->chat_finish = test_scripted_chat_finish;
}

static void
test_scripted_finalize (GObject *object)
{
  TestScripted *self = TEST_SCRIPTED (object);

  g_queue_clear_full (&self->steps, (GDestroyNotify) step_free);
  g_ptr_array_unref (self->requests);

  G_OBJECT_CLASS (test_scripted_parent_class)->finalize (object);
}

static void
test_scripted_class_init (TestScriptedClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_scripted_finalize;
}

static void
test_scripted_init (TestScripted *self)
{
  g_queue_init (&self->steps);
  self->requests = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
}

/* The model says @text, in deltas split at "|". */
static void
script_text (TestScripted *self,
             const char   *text)
{
  Step *step = g_new0 (Step, 1);

  step->deltas = g_strsplit (text, "|", -1);
  g_queue_push_tail (&self->steps, step);
}

/* The model says @text (may be NULL) and calls @name with @input. */
static void
script_tool (TestScripted *self,
             const char   *text,
             const char   *id,
             const char   *name,
             const char   *input)
{
  Step *step = g_new0 (Step, 1);
  JsonObject *block = json_object_new ();

  step->deltas = text != NULL ? g_strsplit (text, "|", -1) : NULL;
  step->tool_calls = json_array_new ();
  json_object_set_string_member (block, "type", "tool_use");
  json_object_set_string_member (block, "id", id);
  json_object_set_string_member (block, "name", name);
  json_object_set_object_member (block, "input", parse_object (input));
  json_array_add_object_element (step->tool_calls, block);
  g_queue_push_tail (&self->steps, step);
}

static void
script_hang (TestScripted *self,
             const char   *text)
{
  script_text (self, text);
  ((Step *) g_queue_peek_tail (&self->steps))->hang = TRUE;
}

static JsonObject *
request_at (TestScripted *self,
            guint         index)
{
  g_assert_cmpuint (index, <, self->requests->len);
  return g_ptr_array_index (self->requests, index);
}

/* The request's last message. */
static JsonObject *
last_message (JsonObject *request)
{
  JsonArray *messages = json_object_get_array_member (request, "messages");

  g_assert_cmpuint (json_array_get_length (messages), >, 0);
  return json_array_get_object_element (messages, json_array_get_length (messages) - 1);
}

static gboolean
offers_tool (JsonObject *request,
             const char *name)
{
  JsonArray *tools;

  if (!json_object_has_member (request, "tools"))
    return FALSE;

  tools = json_object_get_array_member (request, "tools");
  for (guint i = 0; i < json_array_get_length (tools); i++)
    if (g_str_equal (json_object_get_string_member (json_array_get_object_element (tools, i),
                                                    "name"), name))
      return TRUE;

  return FALSE;
}

static JsonObject *
offered_tool (JsonObject *request,
              const char *name)
{
  JsonArray *tools = json_object_get_array_member (request, "tools");

  for (guint i = 0; i < json_array_get_length (tools); i++)
    {
      JsonObject *tool = json_array_get_object_element (tools, i);

      if (g_str_equal (json_object_get_string_member (tool, "name"), name))
        return tool;
    }

  g_assert_not_reached ();
}

/* The fixture: a host over temporary folders with some servers */

enum {
  WITH_EVERYTHING = 1 << 0,
  WITH_CHANGING   = 1 << 1,
  /* The person has not reviewed the servers' tools yet (first contact). */
  UNREVIEWED      = 1 << 2,
  WITH_SLOW       = 1 << 3,
  WITH_TASKS      = 1 << 4,
};

typedef struct {
  char                *top;
  StewardHost         *host;
  StewardChatEngine   *engine;
  TestScripted        *model;
  StewardConversation *conversation;
  GAsyncResult        *result;
} Fixture;

static void
add_server (JsonBuilder *builder,
            const char  *name,
            const char  *command,
            const char  *first_arg,
            const char  *second_arg)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "command");
  json_builder_add_string_value (builder, command);
  json_builder_set_member_name (builder, "args");
  json_builder_begin_array (builder);
  json_builder_add_string_value (builder, first_arg);
  if (second_arg != NULL)
    json_builder_add_string_value (builder, second_arg);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
}

static gboolean
server_ready (StewardServer *server)
{
  McpClient *client = steward_server_get_client (server);

  return steward_server_get_status (server) == STEWARD_SERVER_STATUS_READY && client != NULL &&
         g_list_model_get_n_items (mcp_client_get_tools (client)) > 0;
}

static gboolean
all_ready (StewardHost *host,
           guint        count)
{
  GListModel *registry = G_LIST_MODEL (steward_host_get_registry (host));

  if (g_list_model_get_n_items (registry) != count)
    return FALSE;

  for (guint i = 0; i < count; i++)
    {
      g_autoptr(StewardServer) server = g_list_model_get_item (registry, i);

      if (!server_ready (server))
        return FALSE;
    }

  return TRUE;
}

/* What the review of each server's tools does when the person leaves
 * every tool on. */
static void
review_all (StewardHost *host)
{
  GListModel *registry = G_LIST_MODEL (steward_host_get_registry (host));
  StewardToolPins *pins = steward_host_get_tool_pins (host);

  for (guint i = 0; i < g_list_model_get_n_items (registry); i++)
    {
      g_autoptr(StewardServer) server = g_list_model_get_item (registry, i);
      GListModel *tools = mcp_client_get_tools (steward_server_get_client (server));

      for (guint j = 0; j < g_list_model_get_n_items (tools); j++)
        {
          g_autoptr(McpTool) tool = g_list_model_get_item (tools, j);

          steward_tool_pins_approve (pins, steward_server_get_name (server), tool);
        }
    }
}

/* Allows each server's consent as it asks. */
static void
consent_cb (StewardApprovals *approvals,
            StewardApproval  *approval,
            gpointer          user_data)
{
  if (steward_approval_get_kind (approval) == STEWARD_APPROVAL_KIND_CONSENT)
    steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_ALLOW, NULL);
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  guint servers = GPOINTER_TO_UINT (data);
  const char *peers = g_getenv ("STEWARD_PEERS_DIR");
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GFile) config_dir = NULL;
  g_autoptr(GFile) state_dir = NULL;
  g_autoptr(GFile) data_dir = NULL;
  g_autofree char *config_path = NULL;
  g_autofree char *servers_path = NULL;
  g_autofree char *servers_json = NULL;
  g_autofree char *everything = NULL;
  g_autofree char *changing = NULL;
  StewardConversationStore *store;
  guint count = 0;

  fixture->top = g_dir_make_tmp ("test-chat-engine-XXXXXX", &error);
  g_assert_no_error (error);
  config_path = g_build_filename (fixture->top, "config", NULL);
  g_assert_cmpint (g_mkdir_with_parents (config_path, 0700), ==, 0);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "mcpServers");
  json_builder_begin_object (builder);
  if (servers & WITH_EVERYTHING)
    {
      g_assert_nonnull (peers);
      everything = g_build_filename (peers, "@modelcontextprotocol", "server-everything",
                                     "dist", "index.js", NULL);
      add_server (builder, "everything", "node", everything, "stdio");
      count++;
    }
  if (servers & WITH_SLOW)
    {
      g_autofree char *slow = g_test_build_filename (G_TEST_DIST, "servers",
                                                     "slow-tasks-server.py", NULL);

      add_server (builder, "slow", "/usr/bin/python3", slow, NULL);
      count++;
    }
  if (servers & WITH_TASKS)
    {
      g_autofree char *tasks = g_test_build_filename (G_TEST_DIST, "servers",
                                                      "tasks-server.mjs", NULL);

      add_server (builder, "tasks", "node", tasks, "stdio");
      count++;
    }
  if (servers & WITH_CHANGING)
    {
      changing = g_test_build_filename (G_TEST_DIST, "servers", "changing-tool-server.py", NULL);
      add_server (builder, "changing", "/usr/bin/python3", changing, NULL);
      count++;
    }
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  servers_json = json_to_string (root, TRUE);
  servers_path = g_build_filename (config_path, "servers.json", NULL);
  test_write_text (servers_path, servers_json);

  config_dir = g_file_new_for_path (config_path);
  state_dir = g_file_new_build_filename (fixture->top, "state", NULL);
  data_dir = g_file_new_build_filename (fixture->top, "data", NULL);
  fixture->host = g_object_new (STEWARD_TYPE_HOST,
                                "config-dir", config_dir,
                                "state-dir", state_dir,
                                "data-dir", data_dir,
                                NULL);
  g_signal_connect (steward_host_get_approvals (fixture->host), "added",
                    G_CALLBACK (consent_cb), NULL);
  test_host_start (fixture->host, 20);
  test_loop_until (all_ready (fixture->host, count), 60);
  if (!(servers & UNREVIEWED))
    review_all (fixture->host);

  fixture->engine = steward_host_get_chat_engine (fixture->host);
  fixture->model = g_object_new (TEST_TYPE_SCRIPTED, NULL);
  steward_chat_engine_add_provider (fixture->engine, STEWARD_PROVIDER (fixture->model));
  store = steward_host_get_conversations (fixture->host);
  fixture->conversation = g_object_ref (steward_conversation_store_create (store));
  steward_conversation_set_model (fixture->conversation, "scripted/test-model");
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_clear_object (&fixture->result);
  test_host_shutdown (fixture->host, 20);

  /* Let what closed finish its last callbacks. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_clear_object (&fixture->conversation);
  g_assert_finalize_object (fixture->host);
  g_assert_finalize_object (fixture->model);
  test_remove_tree (fixture->top);
  g_free (fixture->top);
}

/* Sending and waiting */

static void
send (Fixture    *fixture,
      const char *text)
{
  g_clear_object (&fixture->result);
  steward_chat_engine_send_async (fixture->engine, fixture->conversation, text, NULL, NULL,
                                  test_store_result_cb, &fixture->result);
}

static gboolean
finish_turn (Fixture  *fixture,
             GError  **error)
{
  test_loop_until (fixture->result != NULL, 60);
  g_assert_false (steward_conversation_get_busy (fixture->conversation));
  return g_task_propagate_boolean (G_TASK (fixture->result), error);
}

static void
finish_turn_ok (Fixture *fixture)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (finish_turn (fixture, &error));
  g_assert_no_error (error);
}

static StewardApproval *
find_approval (Fixture             *fixture,
               StewardApprovalKind  kind)
{
  GListModel *approvals = G_LIST_MODEL (steward_host_get_approvals (fixture->host));

  for (guint i = 0; i < g_list_model_get_n_items (approvals); i++)
    {
      g_autoptr(StewardApproval) approval = g_list_model_get_item (approvals, i);

      if (steward_approval_get_kind (approval) == kind && !steward_approval_get_finished (approval))
        return approval;
    }

  return NULL;
}

static StewardApproval *
wait_for_approval (Fixture             *fixture,
                   StewardApprovalKind  kind)
{
  test_loop_until (find_approval (fixture, kind) != NULL, 30);
  return find_approval (fixture, kind);
}

static guint
n_messages (Fixture *fixture)
{
  return g_list_model_get_n_items (steward_conversation_get_messages (fixture->conversation));
}

/* transfer full */
static StewardChatMessage *
message_at (Fixture *fixture,
            guint    index)
{
  g_assert_cmpuint (index, <, n_messages (fixture));
  return g_list_model_get_item (steward_conversation_get_messages (fixture->conversation), index);
}

/* transfer full */
static StewardToolCall *
call_at (Fixture *fixture,
         guint    message,
         guint    index)
{
  g_autoptr(StewardChatMessage) holder = message_at (fixture, message);
  GListModel *calls = steward_chat_message_get_tool_calls (holder);

  g_assert_cmpuint (index, <, g_list_model_get_n_items (calls));
  return g_list_model_get_item (calls, index);
}

static const char *
first_text (JsonArray *blocks)
{
  for (guint i = 0; i < json_array_get_length (blocks); i++)
    {
      JsonObject *block = json_array_get_object_element (blocks, i);

      if (g_strcmp0 (json_object_get_string_member (block, "type"), "text") == 0)
        return json_object_get_string_member (block, "text");
    }

  return NULL;
}

/* The tool_result block for @id in @request's last message. */
static JsonObject *
tool_result_in (JsonObject *request,
                const char *id)
{
  JsonObject *message = last_message (request);
  JsonArray *content = json_object_get_array_member (message, "content");

  g_assert_cmpstr (json_object_get_string_member (message, "role"), ==, "user");
  for (guint i = 0; i < json_array_get_length (content); i++)
    {
      JsonObject *block = json_array_get_object_element (content, i);

      if (g_str_equal (json_object_get_string_member (block, "type"), "tool_result") &&
          g_str_equal (json_object_get_string_member (block, "toolUseId"), id))
        return block;
    }

  g_assert_not_reached ();
}

static gboolean
has_host_event (Fixture    *fixture,
                const char *needle)
{
  StewardLogStore *store = steward_host_get_log_store (fixture->host);
  GListModel *model = G_LIST_MODEL (store);

  steward_log_store_flush (store);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(StewardLogEntry) entry = g_list_model_get_item (model, i);

      if (steward_log_entry_get_source (entry) == STEWARD_LOG_SOURCE_HOST &&
          strstr (steward_log_entry_get_text (entry), needle) != NULL)
        return TRUE;
    }

  return FALSE;
}

static McpTool *
server_tool (Fixture    *fixture,
             const char *server_name,
             const char *tool_name)
{
  StewardServer *server = steward_server_registry_lookup (steward_host_get_registry (fixture->host),
                                                          server_name);
  GListModel *tools = mcp_client_get_tools (steward_server_get_client (server));

  for (guint i = 0; i < g_list_model_get_n_items (tools); i++)
    {
      g_autoptr(McpTool) tool = g_list_model_get_item (tools, i);

      if (g_str_equal (mcp_item_get_name (MCP_ITEM (tool)), tool_name))
        return g_steal_pointer (&tool);
    }

  return NULL;
}

/* Tests */

static void
test_tool_loop (Fixture       *fixture,
                gconstpointer  data)
{
  StewardToolPins *pins = steward_host_get_tool_pins (fixture->host);
  g_autoptr(StewardToolCall) call = NULL;
  g_autoptr(StewardChatMessage) user = NULL;
  g_autoptr(StewardChatMessage) asking = NULL;
  g_autoptr(StewardChatMessage) final = NULL;
  g_autoptr(JsonObject) edited = parse_object ("{\"message\":\"edited by the person\"}");
  g_autoptr(McpTool) echo = NULL;
  StewardApproval *approval;
  JsonObject *request;
  JsonObject *first;
  JsonObject *second;
  JsonObject *result;
  JsonObject *assistant;
  JsonArray *content;
  g_autofree char *text = NULL;

  script_tool (fixture->model, "Let me |echo that.", "call-1", "everything__echo",
               "{\"message\":\"hello\"}");
  script_text (fixture->model, "The tool said |it back.");

  send (fixture, "Please echo hello");

  /* The model's call waits for the person, with its arguments. */
  approval = wait_for_approval (fixture, STEWARD_APPROVAL_KIND_TOOL_CALL);
  request = steward_approval_get_request (approval);
  g_assert_cmpstr (steward_approval_get_server (approval), ==, "everything");
  g_assert_cmpstr (json_object_get_string_member (request, "server"), ==, "everything");
  g_assert_cmpstr (json_object_get_string_member (request, "tool"), ==, "echo");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (request,
                                                                                 "arguments"),
                                                  "message"), ==, "hello");
  g_assert_cmpstr (json_object_get_string_member (request, "pinState"), ==, "ok");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (request,
                                                                                 "definition"),
                                                  "name"), ==, "echo");
  g_assert_true (json_object_get_boolean_member (json_object_get_object_member (request,
                                                                                "annotations"),
                                                 "readOnlyHint"));
  g_assert_cmpstr (json_object_get_string_member (request, "toolCallId"), ==, "call-1");
  g_assert_nonnull (strstr (steward_approval_get_cause (approval), "Please echo hello"));

  g_assert_cmpuint (n_messages (fixture), ==, 2);
  call = call_at (fixture, 1, 0);
  g_assert_cmpint (steward_tool_call_get_state (call), ==, STEWARD_TOOL_CALL_WAITING);
  g_assert_true (steward_tool_call_get_approval (call) == approval);
  g_assert_cmpstr (steward_tool_call_get_server (call), ==, "everything");
  g_assert_cmpstr (steward_tool_call_get_tool (call), ==, "echo");
  g_assert_true (steward_conversation_get_busy (fixture->conversation));

  /* The person edits the arguments and allows the call. */
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_ALLOW, edited);
  finish_turn_ok (fixture);

  /* It ran with the arguments as edited. */
  g_assert_cmpint (steward_tool_call_get_state (call), ==, STEWARD_TOOL_CALL_DONE);
  g_assert_null (steward_tool_call_get_approval (call));
  g_assert_cmpstr (json_object_get_string_member (steward_tool_call_get_arguments (call),
                                                  "message"), ==, "edited by the person");
  g_assert_cmpstr (first_text (steward_tool_call_get_result (call)), ==,
                   "Echo: edited by the person");
  g_assert_false (steward_tool_call_get_is_error (call));

  /* The first request: the person's message, the servers' tools by
   * "server__tool", and the server's instructions. */
  g_assert_cmpuint (fixture->model->requests->len, ==, 2);
  first = request_at (fixture->model, 0);
  g_assert_cmpstr (json_object_get_string_member (first, "model"), ==, "test-model");
  g_assert_true (offers_tool (first, "everything__echo"));
  g_assert_true (offers_tool (first, "everything__get-sum"));
  g_assert_cmpstr (json_object_get_string_member (offered_tool (first, "everything__echo"),
                                                  "description"), ==,
                   "Echoes back the input string");
  g_assert_nonnull (strstr (json_object_get_string_member (first, "systemPrompt"),
                            "Everything Server"));
  g_assert_nonnull (strstr (json_object_get_string_member (first, "systemPrompt"),
                            "server=\"everything\""));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (first, "messages")), ==,
                    1);
  text = object_text (last_message (first));
  g_assert_nonnull (strstr (text, "Please echo hello"));

  /* The second: the model's call, as it ran, and the echoed text as its
   * result. */
  second = request_at (fixture->model, 1);
  result = tool_result_in (second, "call-1");
  g_assert_false (json_object_get_boolean_member (result, "isError"));
  g_assert_cmpstr (first_text (json_object_get_array_member (result, "content")), ==,
                   "Echo: edited by the person");
  assistant = json_array_get_object_element (json_object_get_array_member (second, "messages"),
                                             1);
  g_assert_cmpstr (json_object_get_string_member (assistant, "role"), ==, "assistant");
  content = json_object_get_array_member (assistant, "content");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (content, 0),
                                                  "text"), ==, "Let me echo that.");
  g_assert_cmpstr (json_object_get_string_member (
                     json_object_get_object_member (json_array_get_object_element (content, 1),
                                                    "input"),
                     "message"), ==, "edited by the person");

  /* The conversation: the person, the call, the final answer. */
  g_assert_cmpuint (n_messages (fixture), ==, 3);
  user = message_at (fixture, 0);
  asking = message_at (fixture, 1);
  final = message_at (fixture, 2);
  g_assert_cmpint (steward_chat_message_get_role (user), ==, STEWARD_CHAT_ROLE_USER);
  g_assert_cmpstr (steward_chat_message_get_text (asking), ==, "Let me echo that.");
  g_assert_cmpstr (steward_chat_message_get_model (asking), ==, "scripted/test-model");
  g_assert_nonnull (steward_chat_message_get_usage (asking));
  g_assert_cmpstr (steward_chat_message_get_text (final), ==, "The tool said it back.");
  g_assert_false (steward_chat_message_get_streaming (final));
  g_assert_null (steward_chat_message_get_error (final));
  g_assert_null (steward_chat_message_get_note (final));
  g_assert_cmpstr (steward_conversation_get_title (fixture->conversation), ==,
                   "Please echo hello");

  /* The definition stays pinned; the decision is in the log. */
  echo = server_tool (fixture, "everything", "echo");
  g_assert_cmpint (steward_tool_pins_check (pins, "everything", echo), ==, STEWARD_TOOL_PIN_OK);
  g_assert_true (has_host_event (fixture, "Chat tool call “echo”: allowed by the person, with "
                                          "the arguments as edited"));
  g_assert_true (has_host_event (fixture, "Chat tool call “echo”: done"));
}

static void
test_deny (Fixture       *fixture,
           gconstpointer  data)
{
  g_autoptr(StewardToolCall) call = NULL;
  StewardApproval *approval;
  JsonObject *result;
  g_autoptr(McpTool) echo = NULL;

  script_tool (fixture->model, NULL, "call-1", "everything__echo", "{\"message\":\"hello\"}");
  script_text (fixture->model, "Understood.");

  send (fixture, "Echo hello, please");
  approval = wait_for_approval (fixture, STEWARD_APPROVAL_KIND_TOOL_CALL);
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_DENY, NULL);
  finish_turn_ok (fixture);

  /* Declined: the model hears so, and the pin from the review stays. */
  call = call_at (fixture, 1, 0);
  g_assert_cmpint (steward_tool_call_get_state (call), ==, STEWARD_TOOL_CALL_DENIED);
  g_assert_true (steward_tool_call_get_is_error (call));
  result = tool_result_in (request_at (fixture->model, 1), "call-1");
  g_assert_true (json_object_get_boolean_member (result, "isError"));
  g_assert_cmpstr (first_text (json_object_get_array_member (result, "content")), ==,
                   "The person declined this call.");
  g_assert_cmpuint (n_messages (fixture), ==, 3);
  echo = server_tool (fixture, "everything", "echo");
  g_assert_cmpint (steward_tool_pins_check (steward_host_get_tool_pins (fixture->host),
                                            "everything", echo), ==, STEWARD_TOOL_PIN_OK);
  g_assert_true (has_host_event (fixture, "Chat tool call “echo”: declined by the person"));
}

static void
count_tool_call_cb (StewardApprovals *approvals,
                    StewardApproval  *approval,
                    guint            *count)
{
  if (steward_approval_get_kind (approval) == STEWARD_APPROVAL_KIND_TOOL_CALL)
    (*count)++;
}

static void
test_allow_policy (Fixture       *fixture,
                   gconstpointer  data)
{
  StewardApprovals *approvals = steward_host_get_approvals (fixture->host);
  g_autoptr(StewardToolCall) call = NULL;
  g_autoptr(McpTool) echo = NULL;
  guint asked = 0;

  /* The person allowed this tool for good: it runs without asking, and
   * what ran is pinned. */
  steward_tool_pins_set_tool_policy (steward_host_get_tool_pins (fixture->host), "everything",
                                     "echo", STEWARD_TOOL_POLICY_ALLOW);
  g_signal_connect (approvals, "added", G_CALLBACK (count_tool_call_cb), &asked);

  script_tool (fixture->model, NULL, "call-1", "everything__echo", "{\"message\":\"hi\"}");
  script_text (fixture->model, "Done.");
  send (fixture, "Echo hi");
  finish_turn_ok (fixture);

  g_assert_cmpuint (asked, ==, 0);
  call = call_at (fixture, 1, 0);
  g_assert_cmpint (steward_tool_call_get_state (call), ==, STEWARD_TOOL_CALL_DONE);
  g_assert_cmpstr (first_text (steward_tool_call_get_result (call)), ==, "Echo: hi");
  echo = server_tool (fixture, "everything", "echo");
  g_assert_cmpint (steward_tool_pins_check (steward_host_get_tool_pins (fixture->host),
                                            "everything", echo), ==, STEWARD_TOOL_PIN_OK);
  g_assert_true (has_host_event (fixture, "Chat tool call “echo”: allowed by policy"));

  g_signal_handlers_disconnect_by_func (approvals, count_tool_call_cb, &asked);
}

static void
test_loop_limit (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(StewardChatMessage) last = NULL;
  JsonObject *result;

  steward_tool_pins_set_tool_policy (steward_host_get_tool_pins (fixture->host), "everything",
                                     "echo", STEWARD_TOOL_POLICY_ALLOW);
  steward_chat_engine_set_max_rounds (fixture->engine, 3);

  /* A model that never stops calling. */
  for (guint i = 0; i < 5; i++)
    {
      g_autofree char *id = g_strdup_printf ("call-%u", i);

      script_tool (fixture->model, "Again.", id, "everything__echo", "{\"message\":\"loop\"}");
    }

  send (fixture, "Loop for ever");
  finish_turn_ok (fixture);

  /* Three rounds ran, each with its call; the last says why it stopped. */
  g_assert_cmpuint (fixture->model->requests->len, ==, 3);
  g_assert_cmpuint (n_messages (fixture), ==, 4);
  for (guint i = 1; i < 4; i++)
    {
      g_autoptr(StewardToolCall) call = call_at (fixture, i, 0);

      g_assert_cmpint (steward_tool_call_get_state (call), ==, STEWARD_TOOL_CALL_DONE);
    }
  last = message_at (fixture, 3);
  g_assert_nonnull (strstr (steward_chat_message_get_note (last), "3 rounds"));
  g_assert_null (steward_chat_message_get_error (last));

  /* The next message goes on, with the last results in its request. */
  g_assert_cmpuint (g_queue_get_length (&fixture->model->steps), ==, 2);
  g_queue_clear_full (&fixture->model->steps, (GDestroyNotify) step_free);
  script_text (fixture->model, "Fine.");
  send (fixture, "Stop now");
  finish_turn_ok (fixture);
  g_assert_cmpuint (fixture->model->requests->len, ==, 4);
  result = tool_result_in (request_at (fixture->model, 3), "call-2");
  g_assert_false (json_object_get_boolean_member (result, "isError"));
}

static void
test_sanitize (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GString) message = g_string_new ("Look");
  g_autoptr(GString) input = g_string_new (NULL);
  g_autoptr(StewardToolCall) call = NULL;
  g_autoptr(JsonObject) arguments = json_object_new ();
  g_autofree char *input_json = NULL;
  g_autofree char *marker = NULL;
  JsonObject *result;
  JsonArray *blocks;
  JsonObject *first;
  const char *text;
  gsize stripped_length;
  gsize cut;

  /* Tags, a zero-width space and a bidi override hidden in a result far
   * larger than the cap. */
  for (const char *c = "IGNORE"; *c != '\0'; c++)
    g_string_append_unichar (message, 0xE0000 + *c);
  g_string_append_unichar (message, 0x200B);
  g_string_append_unichar (message, 0x202E);
  for (guint i = 0; i < 300 * 1024; i++)
    g_string_append_c (message, 'x');
  json_object_set_string_member (arguments, "message", message->str);
  input_json = object_text (arguments);

  steward_tool_pins_set_tool_policy (steward_host_get_tool_pins (fixture->host), "everything",
                                     "echo", STEWARD_TOOL_POLICY_ALLOW);
  script_tool (fixture->model, NULL, "call-1", "everything__echo", input_json);
  script_text (fixture->model, "That was long.");
  send (fixture, "Echo something long");
  finish_turn_ok (fixture);

  /* What reaches the model: no hidden character, 256 KiB of text, and a
   * marker that says how much was cut. */
  result = tool_result_in (request_at (fixture->model, 1), "call-1");
  blocks = json_object_get_array_member (result, "content");
  g_assert_cmpuint (json_array_get_length (blocks), ==, 2);
  text = first_text (blocks);
  g_assert_false (steward_text_has_hidden (text));
  g_assert_true (g_str_has_prefix (text, "Echo: Lookxxx"));
  g_assert_cmpuint (strlen (text), ==, STEWARD_CHAT_RESULT_MAX_TEXT);
  stripped_length = strlen ("Echo: Look") + 300 * 1024;
  cut = stripped_length - STEWARD_CHAT_RESULT_MAX_TEXT;
  marker = g_strdup_printf ("[… %lu bytes cut]", (gulong) cut);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (blocks, 1),
                                                  "text"), ==, marker);

  /* The person sees the same as the model got. */
  call = call_at (fixture, 1, 0);
  g_assert_cmpuint (json_array_get_length (steward_tool_call_get_result (call)), ==, 2);
  g_assert_false (steward_text_has_hidden (first_text (steward_tool_call_get_result (call))));

  /* Descriptions and instructions lose their hidden characters too. */
  first = request_at (fixture->model, 0);
  g_assert_cmpstr (json_object_get_string_member (offered_tool (first, "changing__greet"),
                                                  "description"), ==, "Says hello.");
  g_assert_nonnull (strstr (json_object_get_string_member (first, "systemPrompt"),
                            "Greet people by name with greet.\n"));
  g_assert_false (steward_text_has_hidden (json_object_get_string_member (first,
                                                                          "systemPrompt")));

  /* The function the text helpers add for this. */
  {
    g_autofree char *stripped = steward_text_strip_hidden ("a\u200Bb\r\nc\U000E0041\u202Ed\x01");

    g_assert_cmpstr (stripped, ==, "ab\nc" "d");
  }
}

/* First contact: a new server's tools reach no model until the person
 * reviewed them, a tool switched off in the review stays away, and
 * approving one call pins no tool the person has not seen. */
static void
test_first_contact (Fixture       *fixture,
                    gconstpointer  data)
{
  StewardToolPins *pins = steward_host_get_tool_pins (fixture->host);
  g_autoptr(McpTool) echo = server_tool (fixture, "everything", "echo");
  g_autoptr(McpTool) sum = server_tool (fixture, "everything", "get-sum");
  g_autoptr(McpTool) env = server_tool (fixture, "everything", "get-env");
  g_autoptr(StewardToolCall) refused = NULL;
  StewardApproval *approval;
  JsonObject *first;

  g_assert_nonnull (echo);
  g_assert_nonnull (sum);
  g_assert_nonnull (env);

  /* Not reviewed: nothing of the server is offered, and a call a model
   * makes anyway is refused without asking or running. */
  script_tool (fixture->model, NULL, "call-1", "everything__echo", "{\"message\":\"hi\"}");
  script_text (fixture->model, "Nothing to use.");
  send (fixture, "Echo hi");
  finish_turn_ok (fixture);
  first = request_at (fixture->model, 0);
  g_assert_false (offers_tool (first, "everything__echo"));
  g_assert_false (offers_tool (first, "everything__get-sum"));
  refused = call_at (fixture, 1, 0);
  g_assert_cmpint (steward_tool_call_get_state (refused), ==, STEWARD_TOOL_CALL_FAILED);
  g_assert_null (find_approval (fixture, STEWARD_APPROVAL_KIND_TOOL_CALL));
  g_assert_cmpint (steward_tool_pins_check (pins, "everything", echo), ==,
                   STEWARD_TOOL_PIN_UNPINNED);

  /* The person reviews two tools, and switches one of them off; the third
   * stays unseen. */
  steward_tool_pins_approve (pins, "everything", echo);
  steward_tool_pins_approve (pins, "everything", sum);
  steward_tool_pins_set_enabled (pins, "everything", "get-sum", FALSE);

  script_tool (fixture->model, NULL, "call-2", "everything__echo", "{\"message\":\"hi\"}");
  script_text (fixture->model, "Echoed.");
  send (fixture, "Echo hi again");
  approval = wait_for_approval (fixture, STEWARD_APPROVAL_KIND_TOOL_CALL);
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_ALLOW, NULL);
  finish_turn_ok (fixture);

  first = request_at (fixture->model, 2);
  g_assert_true (offers_tool (first, "everything__echo"));
  g_assert_cmpstr (json_object_get_string_member (offered_tool (first, "everything__echo"),
                                                  "description"), ==,
                   "Echoes back the input string");
  g_assert_false (offers_tool (first, "everything__get-sum"));
  g_assert_false (offers_tool (first, "everything__get-env"));

  /* Allowing the call pinned no tool the person has not seen. */
  g_assert_cmpint (steward_tool_pins_check (pins, "everything", env), ==,
                   STEWARD_TOOL_PIN_NEW);
  g_assert_false (steward_tool_pins_is_offered (pins, "everything", env));
  g_assert_false (steward_tool_pins_is_offered (pins, "everything", sum));
  g_assert_true (steward_tool_pins_is_offered (pins, "everything", echo));
}

static void
test_pinning (Fixture       *fixture,
              gconstpointer  data)
{
  StewardToolPins *pins = steward_host_get_tool_pins (fixture->host);
  StewardApproval *approval;
  g_autoptr(McpTool) greet = NULL;
  g_autoptr(McpTool) farewell = NULL;
  g_autoptr(StewardToolCall) call = NULL;
  g_autoptr(StewardToolCall) refused = NULL;
  g_autoptr(JsonObject) unchanged = parse_object ("{\"name\":\"Ada\"}");
  JsonObject *result;
  g_autofree char *pinned = NULL;

  /* First use, of the definition the person reviewed: asked, allowed. */
  script_tool (fixture->model, NULL, "call-1", "changing__greet", "{\"name\":\"Ada\"}");
  script_text (fixture->model, "Greeted.");
  send (fixture, "Greet Ada");
  approval = wait_for_approval (fixture, STEWARD_APPROVAL_KIND_TOOL_CALL);
  g_assert_cmpstr (json_object_get_string_member (steward_approval_get_request (approval),
                                                  "pinState"), ==, "ok");
  /* The dialog hands the arguments back unchanged: the log says nothing
   * was edited. */
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_ALLOW, unchanged);
  finish_turn_ok (fixture);
  call = call_at (fixture, 1, 0);
  g_assert_cmpstr (first_text (steward_tool_call_get_result (call)), ==, "Hello, Ada!");
  g_assert_true (has_host_event (fixture, "Chat tool call “greet”: allowed by the person"));
  g_assert_false (has_host_event (fixture, "with the arguments as edited"));
  g_assert_true (offers_tool (request_at (fixture->model, 0), "changing__greet"));

  /* After its first call the server changed the tool's description and
   * added another. */
  test_loop_until ((farewell = server_tool (fixture, "changing", "farewell")) != NULL, 20);
  greet = server_tool (fixture, "changing", "greet");
  g_assert_nonnull (strstr (mcp_item_get_description (MCP_ITEM (greet)), "~/.ssh"));
  g_assert_cmpint (steward_tool_pins_check (pins, "changing", greet), ==,
                   STEWARD_TOOL_PIN_CHANGED);
  g_assert_cmpint (steward_tool_pins_check (pins, "changing", farewell), ==,
                   STEWARD_TOOL_PIN_NEW);
  pinned = steward_tool_pins_dup_pinned (pins, "changing", "greet");
  g_assert_null (strstr (pinned, "~/.ssh"));

  /* Neither is offered now; a model that calls one anyway is refused
   * without running it. */
  script_tool (fixture->model, NULL, "call-2", "changing__greet", "{\"name\":\"Bob\"}");
  script_text (fixture->model, "It is gone.");
  send (fixture, "Greet Bob");
  finish_turn_ok (fixture);
  g_assert_false (offers_tool (request_at (fixture->model, 2), "changing__greet"));
  g_assert_false (offers_tool (request_at (fixture->model, 2), "changing__farewell"));
  refused = call_at (fixture, 4, 0);
  g_assert_cmpint (steward_tool_call_get_state (refused), ==, STEWARD_TOOL_CALL_FAILED);
  g_assert_nonnull (strstr (steward_tool_call_get_error (refused), "not offered"));
  result = tool_result_in (request_at (fixture->model, 3), "call-2");
  g_assert_true (json_object_get_boolean_member (result, "isError"));
  g_assert_null (find_approval (fixture, STEWARD_APPROVAL_KIND_TOOL_CALL));

  /* Once the person approved the new definitions (the dialog that shows
   * the difference does this), both are offered again. */
  steward_tool_pins_approve (pins, "changing", greet);
  steward_tool_pins_approve (pins, "changing", farewell);
  script_text (fixture->model, "Both are back.");
  send (fixture, "And now?");
  finish_turn_ok (fixture);
  g_assert_true (offers_tool (request_at (fixture->model, 4), "changing__greet"));
  g_assert_true (offers_tool (request_at (fixture->model, 4), "changing__farewell"));
}

static void
test_nested (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(StewardToolCall) call = NULL;
  StewardApproval *approval;
  StewardApproval *elicitation;
  GListModel *nested;
  g_autoptr(StewardApproval) first = NULL;

  script_tool (fixture->model, NULL, "call-1", "everything__trigger-elicitation-request", "{}");
  script_text (fixture->model, "You declined.");
  send (fixture, "Ask me something");

  approval = wait_for_approval (fixture, STEWARD_APPROVAL_KIND_TOOL_CALL);
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_ALLOW, NULL);

  /* The server's question, raised by the call, is nested under it. */
  elicitation = wait_for_approval (fixture, STEWARD_APPROVAL_KIND_ELICITATION);
  call = call_at (fixture, 1, 0);
  g_assert_cmpint (steward_tool_call_get_state (call), ==, STEWARD_TOOL_CALL_RUNNING);
  nested = steward_tool_call_get_approvals (call);
  g_assert_cmpuint (g_list_model_get_n_items (nested), ==, 1);
  first = g_list_model_get_item (nested, 0);
  g_assert_true (first == elicitation);
  g_assert_nonnull (strstr (steward_approval_get_cause (elicitation),
                            "trigger-elicitation-request"));
  g_assert_nonnull (strstr (steward_approval_get_cause (elicitation), "Ask me something"));

  steward_approval_respond (elicitation, STEWARD_APPROVAL_ACTION_DECLINE, NULL);
  finish_turn_ok (fixture);
  g_assert_cmpint (steward_tool_call_get_state (call), ==, STEWARD_TOOL_CALL_DONE);
  g_assert_cmpuint (g_list_model_get_n_items (nested), ==, 1);
}

static void
test_no_model (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(StewardChatMessage) answer = NULL;

  /* Nothing configured but the manual provider, which cannot chat. */
  steward_conversation_set_model (fixture->conversation, NULL);
  send (fixture, "Hello?");
  g_assert_false (finish_turn (fixture, &error));
  g_assert_error (error, STEWARD_CHAT_ENGINE_ERROR, STEWARD_CHAT_ENGINE_ERROR_NO_MODEL);

  g_assert_cmpuint (n_messages (fixture), ==, 2);
  answer = message_at (fixture, 1);
  g_assert_cmpstr (steward_chat_message_get_error (answer), ==,
                   "No model is configured: add a provider in Preferences");
  g_assert_cmpuint (fixture->model->requests->len, ==, 0);

  /* A model of a provider that is not there says which. */
  g_clear_error (&error);
  steward_conversation_set_model (fixture->conversation, "nowhere/big-model");
  send (fixture, "Hello again?");
  g_assert_false (finish_turn (fixture, &error));
  g_assert_error (error, STEWARD_CHAT_ENGINE_ERROR, STEWARD_CHAT_ENGINE_ERROR_NO_MODEL);
  g_assert_nonnull (strstr (error->message, "nowhere"));
  g_clear_error (&error);

  /* With a provider configured, its first catalogue model is the default
   * (here one that cannot be reached: the turn fails, naming the model). */
  g_assert_nonnull (steward_providers_put (steward_host_get_providers (fixture->host), "local",
                                           STEWARD_PROVIDER_KIND_OPENAI_COMPATIBLE, "Local",
                                           "http://127.0.0.1:9/v1", NULL, &error));
  g_assert_no_error (error);
  steward_model_catalog_add (steward_host_get_model_catalog (fixture->host), "local", "tiny",
                             TRUE);
  steward_conversation_set_model (fixture->conversation, NULL);
  send (fixture, "Hello, local model?");
  g_assert_false (finish_turn (fixture, &error));
  g_assert_false (g_error_matches (error, STEWARD_CHAT_ENGINE_ERROR,
                                   STEWARD_CHAT_ENGINE_ERROR_NO_MODEL));
  g_clear_object (&answer);
  answer = message_at (fixture, n_messages (fixture) - 1);
  g_assert_cmpstr (steward_chat_message_get_model (answer), ==, "local/tiny");
  g_assert_nonnull (steward_chat_message_get_error (answer));
  g_test_message ("the unreachable default model: %s", error->message);
}

static void
test_stop (Fixture       *fixture,
           gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(StewardChatMessage) answer = NULL;
  g_autoptr(GAsyncResult) busy = NULL;

  script_hang (fixture->model, "Partial |answer");
  send (fixture, "Tell me a long story");
  test_loop_until (n_messages (fixture) == 2, 10);
  answer = message_at (fixture, 1);
  test_loop_until (g_str_equal (steward_chat_message_get_text (answer), "Partial answer"), 10);
  g_assert_true (steward_chat_message_get_streaming (answer));

  /* One turn at a time. */
  steward_chat_engine_send_async (fixture->engine, fixture->conversation, "And another", NULL,
                                  NULL, test_store_result_cb, &busy);
  test_loop_until (busy != NULL, 10);
  g_assert_false (steward_chat_engine_send_finish (fixture->engine, busy, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_BUSY);
  g_clear_error (&error);
  g_assert_cmpuint (n_messages (fixture), ==, 2);

  /* Stopped: the partial answer stays, marked. */
  steward_chat_engine_stop (fixture->engine, fixture->conversation);
  g_assert_false (finish_turn (fixture, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpstr (steward_chat_message_get_text (answer), ==, "Partial answer");
  g_assert_cmpstr (steward_chat_message_get_note (answer), ==, "Stopped");
  g_assert_false (steward_chat_message_get_streaming (answer));
}

static void
test_stop_waiting (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(StewardToolCall) call = NULL;
  StewardApproval *approval;

  script_tool (fixture->model, NULL, "call-1", "everything__echo", "{\"message\":\"hi\"}");
  g_clear_object (&fixture->result);
  steward_chat_engine_send_async (fixture->engine, fixture->conversation, "Echo hi",
                                  NULL, cancellable, test_store_result_cb, &fixture->result);
  approval = g_object_ref (wait_for_approval (fixture, STEWARD_APPROVAL_KIND_TOOL_CALL));

  /* The caller's cancellable stops the turn; the question is withdrawn. */
  g_cancellable_cancel (cancellable);
  g_assert_false (finish_turn (fixture, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_true (steward_approval_get_withdrawn (approval));
  g_assert_true (steward_approval_get_finished (approval));
  call = call_at (fixture, 1, 0);
  g_assert_cmpint (steward_tool_call_get_state (call), ==, STEWARD_TOOL_CALL_FAILED);
  g_assert_null (steward_tool_call_get_approval (call));
  g_assert_cmpuint (fixture->model->requests->len, ==, 1);
  g_object_unref (approval);
}

static void
test_regenerate_edit (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(StewardChatMessage) user = NULL;
  g_autoptr(StewardChatMessage) answer = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *request;

  /* With nothing written yet there is nothing to answer again or edit. */
  steward_chat_engine_regenerate_async (fixture->engine, fixture->conversation, NULL,
                                        test_store_result_cb, &fixture->result);
  g_assert_false (finish_turn (fixture, &error));
  g_assert_error (error, STEWARD_CHAT_ENGINE_ERROR, STEWARD_CHAT_ENGINE_ERROR_NO_MESSAGE);
  g_clear_error (&error);
  g_clear_object (&fixture->result);
  steward_chat_engine_edit_last_async (fixture->engine, fixture->conversation, "Edited", NULL,
                                       test_store_result_cb, &fixture->result);
  g_assert_false (finish_turn (fixture, &error));
  g_assert_error (error, STEWARD_CHAT_ENGINE_ERROR, STEWARD_CHAT_ENGINE_ERROR_NO_MESSAGE);
  g_clear_error (&error);
  g_clear_object (&fixture->result);
  g_assert_cmpuint (n_messages (fixture), ==, 0);

  script_text (fixture->model, "Answer one.");
  send (fixture, "First question");
  finish_turn_ok (fixture);

  /* Regenerate drops the answer and asks again. */
  script_text (fixture->model, "Answer two.");
  g_clear_object (&fixture->result);
  steward_chat_engine_regenerate_async (fixture->engine, fixture->conversation, NULL,
                                        test_store_result_cb, &fixture->result);
  finish_turn_ok (fixture);
  g_assert_cmpuint (n_messages (fixture), ==, 2);
  answer = message_at (fixture, 1);
  g_assert_cmpstr (steward_chat_message_get_text (answer), ==, "Answer two.");
  request = request_at (fixture->model, 1);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (request, "messages")), ==,
                    1);
  g_clear_object (&answer);

  /* Editing the last message replaces its text and asks again. */
  script_text (fixture->model, "Answer three.");
  g_clear_object (&fixture->result);
  steward_chat_engine_edit_last_async (fixture->engine, fixture->conversation,
                                       "Second thoughts", NULL, test_store_result_cb,
                                       &fixture->result);
  finish_turn_ok (fixture);
  g_assert_cmpuint (n_messages (fixture), ==, 2);
  user = message_at (fixture, 0);
  answer = message_at (fixture, 1);
  g_assert_cmpstr (steward_chat_message_get_text (user), ==, "Second thoughts");
  g_assert_cmpstr (steward_chat_message_get_text (answer), ==, "Answer three.");
  request = request_at (fixture->model, 2);
  g_assert_cmpstr (first_text (json_object_get_array_member (last_message (request), "content")),
                   ==, "Second thoughts");
}

static void
test_persisted (Fixture       *fixture,
                gconstpointer  data)
{
  StewardConversationStore *store = steward_host_get_conversations (fixture->host);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;

  steward_tool_pins_set_tool_policy (steward_host_get_tool_pins (fixture->host), "everything",
                                     "echo", STEWARD_TOOL_POLICY_ALLOW);
  script_tool (fixture->model, "Echoing.", "call-1", "everything__echo", "{\"message\":\"kept\"}");
  script_text (fixture->model, "Done.");
  send (fixture, "Echo kept");
  finish_turn_ok (fixture);

  /* The turn is in the conversation's file, tool call and all. */
  steward_conversation_store_flush_async (store, NULL, test_store_result_cb, &result);
  test_loop_until (result != NULL, 10);
  g_assert_true (steward_conversation_store_flush_finish (store, result, &error));
  g_assert_no_error (error);
  path = g_strdup_printf ("%s/data/conversations/%s.json", fixture->top,
                          steward_conversation_get_id (fixture->conversation));
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, "\"toolCalls\":[{\"id\":\"call-1\",\"server\":"
                                      "\"everything\",\"tool\":\"echo\""));
  g_assert_nonnull (strstr (contents, "Echo: kept"));
  g_assert_nonnull (strstr (contents, "\"state\":\"done\""));
}

/* Long calls: a task shows its status on the call, in place, and the
 * chat goes on with its result; a call past its timeout is asked about. */

static void
status_cb (StewardToolCall *call,
           GParamSpec      *pspec,
           GPtrArray       *seen)
{
  g_ptr_array_add (seen, g_strdup (steward_tool_call_get_status (call)));
}

/* 2025-11-25 (the slow server's "steps", with progress) and 2026-07-28
 * (tasks-server.mjs's "count"). */
static void
test_task_in_place (Fixture       *fixture,
                    gconstpointer  data)
{
  gboolean modern = GPOINTER_TO_UINT (data) & WITH_TASKS;
  g_autoptr(GPtrArray) seen = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(StewardToolCall) call = NULL;
  g_autofree char *result = NULL;

  script_tool (fixture->model, NULL, "call-1", modern ? "tasks__count" : "slow__steps",
               modern ? "{\"steps\":3,\"delayMs\":400}" : "{}");
  script_text (fixture->model, "It finished.");
  send (fixture, "Take three steps");
  steward_approval_respond (wait_for_approval (fixture, STEWARD_APPROVAL_KIND_TOOL_CALL),
                            STEWARD_APPROVAL_ACTION_ALLOW, NULL);
  call = call_at (fixture, 1, 0);
  g_signal_connect (call, "notify::status", G_CALLBACK (status_cb), seen);
  finish_turn_ok (fixture);
  g_signal_handlers_disconnect_by_data (call, seen);

  /* The call showed the task's own words (and progress) as it ran... */
  g_assert_true (g_ptr_array_find_with_equal_func (seen, "Step 1 of 3", g_str_equal, NULL) ||
                 g_ptr_array_find_with_equal_func (seen, "Step 2 of 3", g_str_equal, NULL));
  if (!modern)
    g_assert_cmpfloat (steward_tool_call_get_fraction (call), >, 0.5);

  /* ...and the model got the task's result as the tool's. */
  g_assert_cmpint (steward_tool_call_get_state (call), ==, STEWARD_TOOL_CALL_DONE);
  g_assert_cmpuint (fixture->model->requests->len, ==, 2);
  result = object_text (tool_result_in (request_at (fixture->model, 1), "call-1"));
  g_assert_nonnull (strstr (result, modern ? "counted to 3" : "steps finished"));
}

static void
test_overdue_in_chat (Fixture       *fixture,
                      gconstpointer  data)
{
  StewardServer *server = steward_server_registry_lookup (steward_host_get_registry (
                                                            fixture->host), "slow");
  g_autoptr(StewardToolCall) call = NULL;
  g_autoptr(StewardOverdue) first = NULL;
  g_autoptr(GAsyncResult) released = NULL;
  g_autoptr(JsonObject) none = json_object_new ();

  script_tool (fixture->model, NULL, "call-1", "slow__plain", "{}");
  script_text (fixture->model, "It answered.");
  mcp_client_set_request_timeout (steward_server_get_client (server), 300);
  send (fixture, "Run plain");
  steward_approval_respond (wait_for_approval (fixture, STEWARD_APPROVAL_KIND_TOOL_CALL),
                            STEWARD_APPROVAL_ACTION_ALLOW, NULL);
  call = call_at (fixture, 1, 0);

  /* Past its timeout the call is asked about, on the call, instead of
   * failing; keeping on waits another timeout. */
  test_loop_until (steward_tool_call_get_overdue (call) != NULL, 20);
  first = g_object_ref (steward_tool_call_get_overdue (call));
  g_assert_cmpstr (steward_overdue_get_tool (first), ==, "plain");
  steward_overdue_answer (first, TRUE);
  g_assert_true (steward_tool_call_get_overdue (call) != first);
  test_loop_until (steward_tool_call_get_overdue (call) != NULL, 20);
  g_assert_cmpint (steward_tool_call_get_state (call), ==, STEWARD_TOOL_CALL_RUNNING);

  /* The answer comes: the question goes, and the chat goes on. */
  steward_server_call_tool_async (server, "release", none, NULL, NULL, NULL, NULL,
                                  test_store_result_cb, &released);
  finish_turn_ok (fixture);
  g_assert_null (steward_tool_call_get_overdue (call));
  g_assert_cmpstr (first_text (steward_tool_call_get_result (call)), ==, "plain ran at once");
  test_loop_until (released != NULL, 20);
}

/* The chat's overdue call waits among the person's requests too, for
 * when the conversation is not on screen; Stop from there ends the call
 * with the message the chat shows, and the chat goes on. */
static void
test_overdue_stopped_from_requests (Fixture       *fixture,
                                    gconstpointer  data)
{
  StewardServer *server = steward_server_registry_lookup (steward_host_get_registry (
                                                            fixture->host), "slow");
  g_autoptr(StewardToolCall) call = NULL;
  g_autoptr(GAsyncResult) released = NULL;
  g_autoptr(JsonObject) none = json_object_new ();
  g_autoptr(McpToolResult) release = NULL;
  g_autofree char *text = NULL;
  StewardApproval *waiting;

  script_tool (fixture->model, NULL, "call-1", "slow__plain", "{}");
  script_text (fixture->model, "It was stopped.");
  mcp_client_set_request_timeout (steward_server_get_client (server), 300);
  send (fixture, "Run plain");
  steward_approval_respond (wait_for_approval (fixture, STEWARD_APPROVAL_KIND_TOOL_CALL),
                            STEWARD_APPROVAL_ACTION_ALLOW, NULL);
  call = call_at (fixture, 1, 0);

  waiting = wait_for_approval (fixture, STEWARD_APPROVAL_KIND_OVERDUE);
  g_assert_cmpstr (steward_approval_get_server (waiting), ==, "slow");
  g_assert_nonnull (steward_tool_call_get_overdue (call));
  g_assert_true (steward_overdue_get_open (steward_tool_call_get_overdue (call)));
  g_assert_cmpint (steward_tool_call_get_state (call), ==, STEWARD_TOOL_CALL_RUNNING);

  steward_approval_respond (waiting, STEWARD_APPROVAL_ACTION_DENY, NULL);
  finish_turn_ok (fixture);
  g_assert_null (steward_tool_call_get_overdue (call));
  g_assert_null (find_approval (fixture, STEWARD_APPROVAL_KIND_OVERDUE));
  g_assert_cmpint (steward_tool_call_get_state (call), ==, STEWARD_TOOL_CALL_FAILED);
  g_assert_nonnull (strstr (steward_tool_call_get_error (call), "was stopped"));

  /* The server was told: it holds the call no longer. */
  steward_server_call_tool_async (server, "release", none, NULL, NULL, NULL, NULL,
                                  test_store_result_cb, &released);
  test_loop_until (released != NULL, 20);
  release = steward_server_call_tool_finish (server, released, NULL);
  g_assert_nonnull (release);
  text = mcp_tool_result_dup_text (release);
  g_assert_cmpstr (text, ==, "released 0");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(name, servers, func) \
  g_test_add ("/steward/chat-engine/" name, Fixture, GUINT_TO_POINTER (servers), \
              fixture_set_up, func, fixture_tear_down)

  ADD ("tool-loop", WITH_EVERYTHING, test_tool_loop);
  ADD ("deny", WITH_EVERYTHING, test_deny);
  ADD ("first-contact", WITH_EVERYTHING | UNREVIEWED, test_first_contact);
  ADD ("allow-policy", WITH_EVERYTHING, test_allow_policy);
  ADD ("loop-limit", WITH_EVERYTHING, test_loop_limit);
  ADD ("sanitize", WITH_EVERYTHING | WITH_CHANGING, test_sanitize);
  ADD ("pinning", WITH_CHANGING, test_pinning);
  ADD ("nested", WITH_EVERYTHING, test_nested);
  ADD ("no-model", 0, test_no_model);
  ADD ("stop", 0, test_stop);
  ADD ("stop-waiting", WITH_EVERYTHING, test_stop_waiting);
  ADD ("regenerate-edit", 0, test_regenerate_edit);
  ADD ("persisted", WITH_EVERYTHING, test_persisted);
  ADD ("task-in-place", WITH_SLOW, test_task_in_place);
  ADD ("task-in-place-modern", WITH_TASKS, test_task_in_place);
  ADD ("overdue-in-chat", WITH_SLOW, test_overdue_in_chat);
  ADD ("overdue-stopped-from-requests", WITH_SLOW, test_overdue_stopped_from_requests);

#undef ADD

  return g_test_run ();
}

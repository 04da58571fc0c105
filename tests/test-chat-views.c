/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-chat-views"

#include "config.h"

#include <string.h>

#include "mcp-json.h"

#include "steward-chat-private.h"
#include "steward-host.h"
#include "test-host-fixture.h"

/* What MCP Apps views put into a chat, through a real host's chat engine
 * and a model that records what it was asked: a view's message (marked,
 * checked, refused while the chat answers) and a view's context (the last
 * one only, once after each change). */

/* A model that answers "ok" and keeps each request */

#define TEST_TYPE_RECORDER (test_recorder_get_type ())
G_DECLARE_FINAL_TYPE (TestRecorder, test_recorder, TEST, RECORDER, GObject)

struct _TestRecorder
{
  GObject    parent_instance;

  GPtrArray *requests;      /* JsonObject */
  gboolean   hang;          /* answer only once stopped */
};

static void test_recorder_provider_init (StewardProviderInterface *iface);

G_DEFINE_TYPE_WITH_CODE (TestRecorder, test_recorder, G_TYPE_OBJECT,
                         G_IMPLEMENT_INTERFACE (STEWARD_TYPE_PROVIDER,
                                                test_recorder_provider_init))

static const char *
test_recorder_get_id (StewardProvider *provider)
{
  return "recorder";
}

static const char *
test_recorder_get_display_name (StewardProvider *provider)
{
  return "Recorder";
}

static gboolean
test_recorder_is_local (StewardProvider *provider)
{
  return TRUE;
}

static gboolean
return_stopped_cb (gpointer user_data)
{
  GTask *task = user_data;

  g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "stopped");
  g_object_unref (task);
  return G_SOURCE_REMOVE;
}

/* The handler holds nothing: the task holds the cancellable. */
static void
cancelled_cb (GCancellable *cancellable,
              GTask        *task)
{
  g_idle_add (return_stopped_cb, task);
}

static gboolean
answer_cb (gpointer user_data)
{
  GTask *task = user_data;
  JsonObject *answer = json_object_new ();
  JsonArray *content = json_array_new ();
  JsonObject *block = json_object_new ();

  json_object_set_string_member (block, "type", "text");
  json_object_set_string_member (block, "text", "ok");
  json_array_add_object_element (content, block);
  json_object_set_string_member (answer, "role", "assistant");
  json_object_set_array_member (answer, "content", content);
  json_object_set_string_member (answer, "stopReason", "endTurn");
  g_task_return_pointer (task, answer, (GDestroyNotify) json_object_unref);
  g_object_unref (task);
  return G_SOURCE_REMOVE;
}

static void
test_recorder_chat_async (StewardProvider          *provider,
                          JsonObject               *request,
                          StewardProviderEventFunc  event_func,
                          gpointer                  event_data,
                          GDestroyNotify            event_destroy,
                          GCancellable             *cancellable,
                          GAsyncReadyCallback       callback,
                          gpointer                  user_data)
{
  TestRecorder *self = TEST_RECORDER (provider);
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), request);
  g_autoptr(JsonNode) copy = json_node_copy (node);
  GTask *task = g_task_new (self, cancellable, callback, user_data);

  g_ptr_array_add (self->requests, json_object_ref (json_node_get_object (copy)));
  if (event_destroy != NULL)
    event_destroy (event_data);

  if (self->hang)
    g_signal_connect (cancellable, "cancelled", G_CALLBACK (cancelled_cb), task);
  else
    g_idle_add (answer_cb, task);
}

static JsonObject *
test_recorder_chat_finish (StewardProvider  *provider,
                           GAsyncResult     *result,
                           GError          **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
test_recorder_provider_init (StewardProviderInterface *iface)
{
  iface->get_id = test_recorder_get_id;
  iface->get_display_name = test_recorder_get_display_name;
  iface->is_local = test_recorder_is_local;
  iface->chat_async = test_recorder_chat_async;
  iface->chat_finish = test_recorder_chat_finish;
}

static void
test_recorder_finalize (GObject *object)
{
  g_ptr_array_unref (TEST_RECORDER (object)->requests);

  G_OBJECT_CLASS (test_recorder_parent_class)->finalize (object);
}

static void
test_recorder_class_init (TestRecorderClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_recorder_finalize;
}

static void
test_recorder_init (TestRecorder *self)
{
  self->requests = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
}

/* The fixture: a host without servers, a chat in which the model once
 * called a tool that has a view */

typedef struct {
  char                *top;
  StewardHost         *host;
  StewardChatEngine   *engine;
  TestRecorder        *model;
  StewardConversation *conversation;
  StewardToolCall     *call;
  GAsyncResult        *result;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(StewardChatMessage) question = NULL;
  g_autoptr(StewardChatMessage) answer = NULL;
  g_autoptr(JsonArray) text = json_array_new ();
  JsonObject *block = json_object_new ();

  fixture->top = test_make_top ("test-chat-views");
  {
    g_autoptr(GFile) config_dir = g_file_new_build_filename (fixture->top, "config", NULL);
    g_autoptr(GFile) state_dir = g_file_new_build_filename (fixture->top, "state", NULL);
    g_autoptr(GFile) data_dir = g_file_new_build_filename (fixture->top, "data", NULL);

    /* The chats go to the test's folder too. */
    fixture->host = g_object_new (STEWARD_TYPE_HOST,
                                  "config-dir", config_dir,
                                  "state-dir", state_dir,
                                  "data-dir", data_dir,
                                  NULL);
  }
  test_host_start (fixture->host, 20);
  fixture->engine = steward_host_get_chat_engine (fixture->host);
  fixture->model = g_object_new (TEST_TYPE_RECORDER, NULL);
  steward_chat_engine_add_provider (fixture->engine, STEWARD_PROVIDER (fixture->model));
  fixture->conversation =
    g_object_ref (steward_conversation_store_create (steward_host_get_conversations (fixture->host)));
  steward_conversation_set_model (fixture->conversation, "recorder/test-model");

  json_object_set_string_member (block, "type", "text");
  json_object_set_string_member (block, "text", "What time is it?");
  json_array_add_object_element (text, block);
  question = steward_chat_message_new (STEWARD_CHAT_ROLE_USER, text);
  steward_conversation_append (fixture->conversation, question);

  answer = steward_chat_message_new (STEWARD_CHAT_ROLE_ASSISTANT, NULL);
  {
    g_autoptr(JsonObject) arguments = json_object_new ();

    fixture->call = steward_tool_call_new ("call-1", "basic", "get-time", arguments);
  }
  steward_tool_call_set_state (fixture->call, STEWARD_TOOL_CALL_DONE);
  steward_chat_message_add_tool_call (answer, fixture->call);
  steward_conversation_append (fixture->conversation, answer);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_clear_object (&fixture->result);
  g_clear_object (&fixture->call);
  test_host_shutdown (fixture->host, 20);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_clear_object (&fixture->conversation);
  g_assert_finalize_object (fixture->host);
  g_assert_finalize_object (fixture->model);
  test_remove_tree (fixture->top);
  g_free (fixture->top);
}

static JsonArray *
parse_array (const char *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = mcp_json_parse (json, -1, &error);

  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_ARRAY (node));
  return json_array_ref (json_node_get_array (node));
}

static JsonObject *
parse_object (const char *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = mcp_json_parse (json, -1, &error);

  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  return json_object_ref (json_node_get_object (node));
}

/* All the text of the last message of the @index-th request. */
static char *
last_message_text (Fixture *fixture,
                   guint    index)
{
  JsonObject *request;
  JsonArray *messages;
  JsonObject *last;
  JsonArray *content;
  GString *text = g_string_new (NULL);

  g_assert_cmpuint (index, <, fixture->model->requests->len);
  request = g_ptr_array_index (fixture->model->requests, index);
  messages = json_object_get_array_member (request, "messages");
  last = json_array_get_object_element (messages, json_array_get_length (messages) - 1);
  g_assert_cmpstr (json_object_get_string_member (last, "role"), ==, "user");
  content = json_object_get_array_member (last, "content");
  for (guint i = 0; i < json_array_get_length (content); i++)
    {
      JsonObject *block = json_array_get_object_element (content, i);

      /* The call's tool_result shares the message. */
      if (g_strcmp0 (json_object_get_string_member (block, "type"), "text") != 0)
        continue;
      g_string_append_printf (text, "%s\n", json_object_get_string_member (block, "text"));
    }

  return g_string_free (text, FALSE);
}

static void
send_view (Fixture    *fixture,
           const char *content)
{
  g_autoptr(JsonArray) array = parse_array (content);

  g_clear_object (&fixture->result);
  steward_chat_engine_send_view_message_async (fixture->engine, fixture->conversation,
                                               fixture->call, array, NULL,
                                               test_store_result_cb, &fixture->result);
}

static void
send_person (Fixture    *fixture,
             const char *text)
{
  g_clear_object (&fixture->result);
  steward_chat_engine_send_async (fixture->engine, fixture->conversation, text, NULL, NULL,
                                  test_store_result_cb, &fixture->result);
}

static gboolean
finish (Fixture  *fixture,
        GError  **error)
{
  test_loop_until (fixture->result != NULL, 20);
  return steward_chat_engine_send_finish (fixture->engine, fixture->result, error);
}

static StewardChatMessage *
message_at (Fixture *fixture,
            guint    index)
{
  GListModel *messages = steward_conversation_get_messages (fixture->conversation);

  g_assert_cmpuint (index, <, g_list_model_get_n_items (messages));
  return g_list_model_get_item (messages, index);
}

/* A view's message is the person's turn, marked with its view, and the
 * model is told where it came from. */
static void
test_message (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(StewardChatMessage) sent = NULL;
  g_autoptr(JsonObject) json = NULL;
  g_autofree char *text = NULL;

  send_view (fixture, "[{\"type\":\"text\",\"text\":\"The time is 12:00\\u200b.\"}]");
  g_assert_true (finish (fixture, &error));
  g_assert_no_error (error);

  g_assert_cmpuint (fixture->model->requests->len, ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (
                      steward_conversation_get_messages (fixture->conversation)), ==, 4);
  sent = message_at (fixture, 2);
  g_assert_cmpint (steward_chat_message_get_role (sent), ==, STEWARD_CHAT_ROLE_USER);
  g_assert_cmpstr (steward_chat_message_get_view_server (sent), ==, "basic");
  g_assert_cmpstr (steward_chat_message_get_view_tool (sent), ==, "get-time");
  /* Hidden characters do not reach the chat or the model. */
  g_assert_cmpstr (steward_chat_message_get_text (sent), ==, "The time is 12:00.");

  text = last_message_text (fixture, 0);
  g_assert_nonnull (strstr (text, "view (an MCP App) of the tool basic__get-time"));
  g_assert_nonnull (strstr (text, "The time is 12:00.\n"));

  /* The mark survives the conversation file. */
  json = steward_chat_message_to_json (sent);
  {
    g_autoptr(StewardChatMessage) back = steward_chat_message_new_from_json (json, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (steward_chat_message_get_view_tool (back), ==, "get-time");
    g_assert_cmpstr (steward_chat_message_get_view_server (back), ==, "basic");
  }
}

/* What the view of a call reads of its result beside the model's blocks
 * is kept with the call, in the conversation file too. */
static void
test_structured_content (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) structured = mcp_json_parse ("{\"time\":\"12:00\"}", -1, &error);
  g_autoptr(JsonObject) json = NULL;
  g_autoptr(StewardToolCall) back = NULL;

  g_assert_no_error (error);
  steward_tool_call_set_structured_content (fixture->call, structured);
  json = steward_tool_call_to_json (fixture->call);
  back = steward_tool_call_new_from_json (json);
  g_assert_nonnull (steward_tool_call_get_structured_content (back));
  g_assert_true (json_node_equal (steward_tool_call_get_structured_content (back), structured));
}

/* What a chat does not take from a view is refused with a reason, and
 * nothing reaches the model. */
static void
test_message_refused (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) arguments = json_object_new ();
  g_autoptr(StewardToolCall) stranger = steward_tool_call_new ("call-x", "basic", "get-time",
                                                               arguments);
  g_autoptr(JsonArray) text = parse_array ("[{\"type\":\"text\",\"text\":\"hi\"}]");
  g_autofree char *big = g_strnfill (70 * 1024, 'a');
  g_autofree char *big_json = g_strdup_printf ("[{\"type\":\"text\",\"text\":\"%s\"}]", big);

  send_view (fixture, "[{\"type\":\"image\",\"data\":\"AAAA\",\"mimeType\":\"image/png\"}]");
  g_assert_false (finish (fixture, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_assert_nonnull (strstr (error->message, "image"));
  g_clear_error (&error);

  send_view (fixture, "[{\"type\":\"text\",\"text\":\"\\u200b\"}]");
  g_assert_false (finish (fixture, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  send_view (fixture, big_json);
  g_assert_false (finish (fixture, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE);
  g_clear_error (&error);

  /* A call of another chat. */
  g_clear_object (&fixture->result);
  steward_chat_engine_send_view_message_async (fixture->engine, fixture->conversation, stranger,
                                               text, NULL, test_store_result_cb,
                                               &fixture->result);
  g_assert_false (finish (fixture, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* While the chat answers, the view waits its turn like the person. */
  fixture->model->hang = TRUE;
  send_person (fixture, "Wait");
  test_loop_until (fixture->model->requests->len == 1, 20);
  g_assert_null (fixture->result);
  {
    g_autoptr(GAsyncResult) busy = NULL;

    steward_chat_engine_send_view_message_async (fixture->engine, fixture->conversation,
                                                 fixture->call, text, NULL,
                                                 test_store_result_cb, &busy);
    test_loop_until (busy != NULL, 20);
    g_assert_false (steward_chat_engine_send_view_message_finish (fixture->engine, busy,
                                                                  &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_BUSY);
    g_clear_error (&error);
  }
  steward_chat_engine_stop (fixture->engine, fixture->conversation);
  test_loop_until (fixture->result != NULL, 20);

  g_assert_cmpuint (fixture->model->requests->len, ==, 1);
  for (guint i = 0; i < g_list_model_get_n_items (
                          steward_conversation_get_messages (fixture->conversation)); i++)
    {
      g_autoptr(StewardChatMessage) message = message_at (fixture, i);

      g_assert_null (steward_chat_message_get_view_tool (message));
    }
}

/* The context a view set goes with the next message, the last one only,
 * and once: a context that did not change is not read again. */
static void
test_context (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) first = parse_object ("{\"content\":[{\"type\":\"text\","
                                              "\"text\":\"Selected: red\"}]}");
  g_autoptr(JsonObject) second = parse_object ("{\"content\":[{\"type\":\"text\","
                                               "\"text\":\"Selected: blue\"}],"
                                               "\"structuredContent\":{\"colour\":\"blue\"}}");
  g_autoptr(JsonObject) same = parse_object ("{\"content\":[{\"type\":\"text\","
                                             "\"text\":\"Selected: blue\"}],"
                                             "\"structuredContent\":{\"colour\":\"blue\"}}");
  g_autoptr(StewardChatMessage) asked = NULL;
  g_autofree char *text = NULL;
  g_autofree char *again = NULL;
  g_autofree char *later = NULL;
  JsonArray *content;
  gboolean shown = FALSE;

  steward_tool_call_set_view_context (fixture->call, first);
  steward_tool_call_set_view_context (fixture->call, second);

  send_person (fixture, "Which colour?");
  g_assert_true (finish (fixture, &error));
  text = last_message_text (fixture, 0);
  g_assert_nonnull (strstr (text, "Which colour?\n"));
  g_assert_nonnull (strstr (text, "Context from the view (an MCP App) of the tool basic__get-time"));
  g_assert_nonnull (strstr (text, "Selected: blue"));
  g_assert_nonnull (strstr (text, "{\"colour\":\"blue\"}"));
  g_assert_null (strstr (text, "Selected: red"));

  /* The message keeps the context for the person to see, beside what
   * they wrote. */
  asked = message_at (fixture, 2);
  g_assert_cmpstr (steward_chat_message_get_text (asked), ==, "Which colour?");
  content = steward_chat_message_get_content (asked);
  for (guint i = 0; i < json_array_get_length (content); i++)
    {
      JsonObject *block = json_array_get_object_element (content, i);

      if (g_strcmp0 (json_object_get_string_member (block, "type"), "view_context") == 0)
        {
          g_assert_cmpstr (json_object_get_string_member (block, "tool"), ==, "get-time");
          shown = TRUE;
        }
    }
  g_assert_true (shown);

  /* The same context again is not news. */
  steward_tool_call_set_view_context (fixture->call, same);
  send_person (fixture, "And now?");
  g_assert_true (finish (fixture, &error));
  again = last_message_text (fixture, 1);
  g_assert_null (strstr (again, "Context from the view"));

  /* A change is, with the view's next message too. */
  steward_tool_call_set_view_context (fixture->call, first);
  send_view (fixture, "[{\"type\":\"text\",\"text\":\"Pick one\"}]");
  g_assert_true (finish (fixture, &error));
  later = last_message_text (fixture, 2);
  g_assert_nonnull (strstr (later, "Pick one"));
  g_assert_nonnull (strstr (later, "Selected: red"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(name, func) \
  g_test_add ("/steward/chat-views/" name, Fixture, NULL, fixture_set_up, func, \
              fixture_tear_down)

  ADD ("message", test_message);
  ADD ("message-refused", test_message_refused);
  ADD ("context", test_context);
  ADD ("structured-content", test_structured_content);

#undef ADD

  return g_test_run ();
}

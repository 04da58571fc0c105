/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "steward-chat-engine.h"
#include "steward-chat-page-private.h"
#include "steward-chat-page.h"
#include "steward-host.h"
#include "steward-markdown-view.h"
#include "steward-message-row.h"
#include "steward-provider.h"
#include "steward-tail-model.h"
#include "steward-tool-approval-dialog.h"
#include "steward-tool-change-dialog.h"
#include "steward-tool-call-row.h"
#include "steward-window.h"
#include "test-widgets.h"

/* A provider the test scripts: each chat request waits until the test
 * sends text, tool calls and the end of the answer. */

#define TEST_TYPE_SCRIPTED_PROVIDER (test_scripted_provider_get_type ())
G_DECLARE_FINAL_TYPE (TestScriptedProvider, test_scripted_provider, TEST, SCRIPTED_PROVIDER,
                      GObject)

struct _TestScriptedProvider
{
  GObject                   parent_instance;

  guint                     n_requests;
  JsonObject               *request;
  GTask                    *task;
  StewardProviderEventFunc  event_func;
  gpointer                  event_data;
  GDestroyNotify            event_destroy;
  JsonArray                *content;
  gulong                    cancelled_id;
};

static void test_scripted_provider_iface_init (StewardProviderInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestScriptedProvider, test_scripted_provider, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (STEWARD_TYPE_PROVIDER,
                                                      test_scripted_provider_iface_init))

static void
drop_stream (TestScriptedProvider *self)
{
  if (self->task != NULL && self->cancelled_id != 0)
    g_cancellable_disconnect (g_task_get_cancellable (self->task), self->cancelled_id);
  self->cancelled_id = 0;
  if (self->event_destroy != NULL)
    self->event_destroy (self->event_data);
  self->event_destroy = NULL;
  self->event_data = NULL;
  self->event_func = NULL;
  g_clear_pointer (&self->content, json_array_unref);
}

static gboolean
return_cancelled_cb (gpointer user_data)
{
  TestScriptedProvider *self = user_data;
  g_autoptr(GTask) task = g_steal_pointer (&self->task);

  if (task == NULL)
    return G_SOURCE_REMOVE;

  self->cancelled_id = 0;
  drop_stream (self);
  g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Stopped");
  return G_SOURCE_REMOVE;
}

static void
cancelled_cb (GCancellable *cancellable,
              gpointer      user_data)
{
  /* A cancellable's handler must not disconnect itself; answer from the
   * main loop, as a real stream would. */
  g_idle_add_full (G_PRIORITY_HIGH, return_cancelled_cb, g_object_ref (user_data),
                   g_object_unref);
}

static void
scripted_chat_async (StewardProvider          *provider,
                     JsonObject               *request,
                     StewardProviderEventFunc  event_func,
                     gpointer                  event_data,
                     GDestroyNotify            event_destroy,
                     GCancellable             *cancellable,
                     GAsyncReadyCallback       callback,
                     gpointer                  user_data)
{
  TestScriptedProvider *self = TEST_SCRIPTED_PROVIDER (provider);

  g_assert_null (self->task);
  self->n_requests++;
  g_clear_pointer (&self->request, json_object_unref);
  self->request = json_object_ref (request);
  self->task = g_task_new (self, cancellable, callback, user_data);
  self->event_func = event_func;
  self->event_data = event_data;
  self->event_destroy = event_destroy;
  self->content = json_array_new ();
  if (cancellable != NULL)
    self->cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (cancelled_cb), self,
                                                NULL);
}

static JsonObject *
scripted_chat_finish (StewardProvider  *provider,
                      GAsyncResult     *result,
                      GError          **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static const char *
scripted_get_id (StewardProvider *provider)
{
  return "script";
}

static const char *
scripted_get_display_name (StewardProvider *provider)
{
  return "Script";
}

static gboolean
scripted_is_local (StewardProvider *provider)
{
  return TRUE;
}

static void
test_scripted_provider_iface_init (StewardProviderInterface *iface)
{
  iface->get_id = scripted_get_id;
  iface->get_display_name = scripted_get_display_name;
  iface->is_local = scripted_is_local;
  iface->chat_async = scripted_chat_async;
  iface->chat_finish = scripted_chat_finish;
}

static void
test_scripted_provider_finalize (GObject *object)
{
  TestScriptedProvider *self = TEST_SCRIPTED_PROVIDER (object);

  drop_stream (self);
  g_clear_object (&self->task);
  g_clear_pointer (&self->request, json_object_unref);

  G_OBJECT_CLASS (test_scripted_provider_parent_class)->finalize (object);
}

static void
test_scripted_provider_class_init (TestScriptedProviderClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_scripted_provider_finalize;
}

static void
test_scripted_provider_init (TestScriptedProvider *self)
{
}

static void
script_text (TestScriptedProvider *self,
             const char           *delta)
{
  g_autoptr(JsonObject) data = json_object_new ();

  g_assert_nonnull (self->task);
  json_object_set_string_member (data, "text", delta);
  self->event_func (STEWARD_PROVIDER_EVENT_TEXT, data, self->event_data);
}

static void
script_tool_call (TestScriptedProvider *self,
                  const char           *json)
{
  g_autoptr(JsonNode) node = json_from_string (json, NULL);
  JsonObject *block = json_node_get_object (node);

  g_assert_nonnull (self->task);
  self->event_func (STEWARD_PROVIDER_EVENT_TOOL_CALL, block, self->event_data);
  json_array_add_object_element (self->content, json_object_ref (block));
}

static void
script_finish (TestScriptedProvider *self,
               const char           *text,
               const char           *stop_reason)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->task);
  JsonObject *answer = json_object_new ();
  JsonArray *content = json_array_ref (self->content);

  if (text != NULL)
    {
      JsonObject *block = json_object_new ();

      json_object_set_string_member (block, "type", "text");
      json_object_set_string_member (block, "text", text);
      json_array_add_object_element (content, block);
    }

  drop_stream (self);
  json_object_set_string_member (answer, "role", "assistant");
  json_object_set_array_member (answer, "content", content);
  json_object_set_string_member (answer, "model", "model-a");
  json_object_set_string_member (answer, "stopReason", stop_reason);
  g_task_return_pointer (task, answer, (GDestroyNotify) json_object_unref);
}

/* The request's last user message's text. */
static char *
request_last_text (TestScriptedProvider *self)
{
  JsonArray *messages = json_object_get_array_member (self->request, "messages");
  GString *text = g_string_new (NULL);

  for (guint i = json_array_get_length (messages); i-- > 0;)
    {
      JsonObject *message = json_array_get_object_element (messages, i);
      JsonNode *content = json_object_get_member (message, "content");

      if (g_strcmp0 (json_object_get_string_member (message, "role"), "user") != 0)
        continue;

      if (JSON_NODE_HOLDS_OBJECT (content))
        {
          g_string_append (text, json_object_get_string_member_with_default (
            json_node_get_object (content), "text", ""));
        }
      else if (JSON_NODE_HOLDS_ARRAY (content))
        {
          JsonArray *blocks = json_node_get_array (content);

          for (guint j = 0; j < json_array_get_length (blocks); j++)
            g_string_append (text, json_object_get_string_member_with_default (
              json_array_get_object_element (blocks, j), "text", ""));
        }
      break;
    }

  return g_string_free (text, FALSE);
}

/* The fixture: a host over temporary folders, the scripted provider in
 * its chat engine, and the page in a window. */

typedef struct {
  char                 *dir;
  StewardHost          *host;
  TestScriptedProvider *provider;
  GtkWidget            *window;
  StewardChatPage      *page;
} Fixture;

static gboolean
host_started (gpointer data)
{
  return steward_host_get_started (data);
}

/* servers.json with the reference server "everything", for the peers
 * suite's cases. */
static void
write_servers (GFile *config)
{
  const char *peers = g_getenv ("STEWARD_PEERS_DIR");
  g_autofree char *server_js = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GFile) file = g_file_get_child (config, "servers.json");
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (peers);
  server_js = g_build_filename (peers, "@modelcontextprotocol", "server-everything", "dist",
                                "index.js", NULL);
  text = g_strdup_printf ("{\"mcpServers\": {\"everything\": {\"command\": \"node\", "
                          "\"args\": [\"%s\", \"stdio\"]}}}", server_js);
  g_file_make_directory_with_parents (config, NULL, NULL);
  g_file_replace_contents (file, text, strlen (text), NULL, FALSE, G_FILE_CREATE_NONE, NULL,
                           NULL, &error);
  g_assert_no_error (error);
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) config = NULL;
  g_autoptr(GFile) state = NULL;
  g_autoptr(GFile) data_dir = NULL;

  fixture->dir = g_dir_make_tmp ("steward-chat-page-XXXXXX", &error);
  g_assert_no_error (error);
  config = g_file_new_build_filename (fixture->dir, "config", NULL);
  state = g_file_new_build_filename (fixture->dir, "state", NULL);
  data_dir = g_file_new_build_filename (fixture->dir, "data", NULL);
  if (data != NULL)
    write_servers (config);

  fixture->host = g_object_new (STEWARD_TYPE_HOST,
                                "config-dir", config,
                                "state-dir", state,
                                "data-dir", data_dir,
                                NULL);
  steward_host_start (fixture->host);
  test_wait_until (host_started, fixture->host, 10000);

  fixture->provider = g_object_new (TEST_TYPE_SCRIPTED_PROVIDER, NULL);
  steward_chat_engine_add_provider (steward_host_get_chat_engine (fixture->host),
                                    STEWARD_PROVIDER (fixture->provider));
  steward_model_catalog_add (steward_host_get_model_catalog (fixture->host), "script",
                             "model-a", TRUE);

  fixture->page = STEWARD_CHAT_PAGE (steward_chat_page_new (fixture->host));
  g_object_ref (fixture->page);
  fixture->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 900, 700);
  gtk_window_set_child (GTK_WINDOW (fixture->window), GTK_WIDGET (fixture->page));
  gtk_window_present (GTK_WINDOW (fixture->window));
}

static void
shut_down_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  steward_host_shutdown_finish (STEWARD_HOST (object), result, NULL);
  *(gboolean *) user_data = TRUE;
}

static gboolean
is_true (gpointer data)
{
  return *(gboolean *) data;
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        remove_tree (child);
      else
        g_remove (child);
    }
  g_rmdir (path);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  gboolean done = FALSE;

  gtk_window_destroy (GTK_WINDOW (fixture->window));
  test_drain_main_context ();
  g_assert_finalize_object (fixture->page);

  steward_host_shutdown_async (fixture->host, NULL, shut_down_cb, &done);
  test_wait_until (is_true, &done, 10000);
  test_drain_main_context ();
  g_assert_finalize_object (fixture->host);
  g_assert_finalize_object (fixture->provider);

  remove_tree (fixture->dir);
  g_free (fixture->dir);
}

/* Finding what a person sees */

static void
collect_by_type (GtkWidget *root,
                 GType      type,
                 GPtrArray *found)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type) && gtk_widget_get_mapped (root))
    g_ptr_array_add (found, root);

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_by_type (child, type, found);
}

static StewardMessageRow *
find_message_row (Fixture         *fixture,
                  StewardChatRole  role,
                  guint            nth)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();

  collect_by_type (GTK_WIDGET (steward_chat_page_get_message_list (fixture->page)),
                   STEWARD_TYPE_MESSAGE_ROW, rows);
  for (guint i = 0; i < rows->len; i++)
    {
      StewardMessageRow *row = g_ptr_array_index (rows, i);
      StewardChatMessage *message = steward_message_row_get_message (row);

      if (message != NULL && steward_chat_message_get_role (message) == role && nth-- == 0)
        return row;
    }

  return NULL;
}

static char *
markdown_text (StewardMessageRow *row)
{
  GtkWidget *found = test_find_by_type (GTK_WIDGET (row), STEWARD_TYPE_MARKDOWN_VIEW);
  StewardMarkdownView *view = STEWARD_MARKDOWN_VIEW (found);
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (steward_markdown_view_get_text_view (view));
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

static guint
n_messages (Fixture *fixture)
{
  StewardConversation *conversation = steward_chat_page_get_conversation (fixture->page);

  return conversation != NULL
         ? g_list_model_get_n_items (steward_conversation_get_messages (conversation)) : 0;
}

typedef struct {
  Fixture    *fixture;
  const char *text;
  guint       n;
} Wait;

static gboolean
has_requests (gpointer data)
{
  Wait *wait = data;

  return wait->fixture->provider->n_requests >= wait->n && wait->fixture->provider->task != NULL;
}

static void
wait_for_request (Fixture *fixture,
                  guint    n)
{
  Wait wait = { fixture, NULL, n };

  test_wait_until (has_requests, &wait, 10000);
}

static gboolean
assistant_shows (gpointer data)
{
  Wait *wait = data;
  StewardMessageRow *row = find_message_row (wait->fixture, STEWARD_CHAT_ROLE_ASSISTANT, wait->n);
  g_autofree char *text = row != NULL ? markdown_text (row) : NULL;

  return text != NULL && strstr (text, wait->text) != NULL;
}

static void
wait_for_assistant_text (Fixture    *fixture,
                         guint       nth,
                         const char *text)
{
  Wait wait = { fixture, text, nth };

  test_wait_until (assistant_shows, &wait, 10000);
}

static void
type_message (Fixture    *fixture,
              const char *text)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (steward_chat_page_get_composer (fixture->page));

  gtk_text_buffer_set_text (buffer, text, -1);
}

/* Sends Return to the composer as its key controller would get it. */
static gboolean
press_key (Fixture         *fixture,
           guint            keyval,
           GdkModifierType  state)
{
  GtkWidget *composer = GTK_WIDGET (steward_chat_page_get_composer (fixture->page));
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (composer);
  gboolean handled = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (controllers) && !handled; i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_KEY (controller) &&
          gtk_event_controller_get_propagation_phase (controller) == GTK_PHASE_CAPTURE)
        g_signal_emit_by_name (controller, "key-pressed", keyval, 0, state, &handled);
    }

  return handled;
}

static char *
composer_text (Fixture *fixture)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (steward_chat_page_get_composer (fixture->page));
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

static void
choose_model (Fixture *fixture)
{
  GtkDropDown *dropdown = steward_chat_page_get_model_dropdown (fixture->page);
  GListModel *names = gtk_drop_down_get_model (dropdown);
  StewardConversation *conversation = steward_chat_page_get_conversation (fixture->page);

  for (guint i = 0; i < g_list_model_get_n_items (names); i++)
    {
      g_autoptr(GtkStringObject) name = g_list_model_get_item (names, i);

      if (g_str_equal (gtk_string_object_get_string (name), "script/model-a"))
        gtk_drop_down_set_selected (dropdown, i);
    }

  g_assert_cmpstr (steward_conversation_get_model (conversation), ==, "script/model-a");
}

static gboolean
conversation_idle (gpointer data)
{
  Fixture *fixture = data;
  StewardConversation *conversation = steward_chat_page_get_conversation (fixture->page);
  GtkWidget *stack = test_find_by_name (GTK_WIDGET (fixture->page), "send-stack");

  return conversation != NULL && !steward_conversation_get_busy (conversation) &&
         g_strcmp0 (gtk_stack_get_visible_child_name (GTK_STACK (stack)), "send") == 0;
}

static void
test_send_streams (Fixture       *fixture,
                   gconstpointer  data)
{
  GtkWidget *stack = test_find_by_name (GTK_WIDGET (fixture->page), "send-stack");
  StewardMessageRow *row;
  g_autofree char *sent = NULL;
  g_autofree char *text = NULL;

  steward_chat_page_new_conversation (fixture->page);
  g_assert_nonnull (steward_chat_page_get_conversation (fixture->page));
  choose_model (fixture);

  /* Shift+Enter is a new line; Enter sends. */
  type_message (fixture, "Hello");
  g_assert_false (press_key (fixture, GDK_KEY_Return, GDK_SHIFT_MASK));
  g_assert_cmpuint (fixture->provider->n_requests, ==, 0);
  g_assert_true (press_key (fixture, GDK_KEY_Return, 0));
  text = composer_text (fixture);
  g_assert_cmpstr (text, ==, "");

  wait_for_request (fixture, 1);
  sent = request_last_text (fixture->provider);
  g_assert_cmpstr (sent, ==, "Hello");
  g_assert_cmpstr (json_object_get_string_member (fixture->provider->request, "model"), ==,
                   "model-a");

  /* While the answer streams, Stop replaces Send. */
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (stack)), ==, "stop");

  row = find_message_row (fixture, STEWARD_CHAT_ROLE_USER, 0);
  g_assert_nonnull (row);
  g_assert_true (test_any_label_contains (GTK_WIDGET (row), "Hello"));

  script_text (fixture->provider, "Hi **the");
  /* Unfinished emphasis is plain text until its end arrives. */
  wait_for_assistant_text (fixture, 0, "Hi **the");
  script_text (fixture->provider, "re** <b>x</b>");
  wait_for_assistant_text (fixture, 0, "Hi there <b>x</b>");

  script_finish (fixture->provider, NULL, "endTurn");
  test_wait_until (conversation_idle, fixture, 10000);
  g_assert_cmpuint (n_messages (fixture), ==, 2);
  g_assert_true (test_any_label_contains (GTK_WIDGET (find_message_row (fixture,
                                                                        STEWARD_CHAT_ROLE_ASSISTANT,
                                                                        0)),
                                          "script/model-a"));
}

static void
test_tool_call_row (Fixture       *fixture,
                    gconstpointer  data)
{
  StewardToolCallRow *call_row;
  StewardMessageRow *row;

  steward_chat_page_new_conversation (fixture->page);
  choose_model (fixture);
  type_message (fixture, "Read it");
  gtk_widget_activate_action (GTK_WIDGET (fixture->page), "chat.send", NULL);

  wait_for_request (fixture, 1);
  script_text (fixture->provider, "Let me look.");
  script_tool_call (fixture->provider,
                    "{\"type\": \"tool_use\", \"id\": \"call-1\", \"name\": \"files__read\","
                    " \"input\": {\"path\": \"/tmp/secret.txt\"}}");
  script_finish (fixture->provider, NULL, "toolUse");

  /* No server offers the tool: the call fails, the model hears of it and
   * answers again. */
  wait_for_request (fixture, 2);
  script_finish (fixture->provider, "It is not there.", "endTurn");
  test_wait_until (conversation_idle, fixture, 10000);

  row = find_message_row (fixture, STEWARD_CHAT_ROLE_ASSISTANT, 0);
  g_assert_nonnull (row);
  call_row = STEWARD_TOOL_CALL_ROW (test_find_by_type (GTK_WIDGET (row),
                                                       STEWARD_TYPE_TOOL_CALL_ROW));
  g_assert_nonnull (call_row);
  g_assert_cmpint (steward_tool_call_get_state (steward_tool_call_row_get_call (call_row)), ==,
                   STEWARD_TOOL_CALL_FAILED);
  g_assert_true (test_any_label_contains (GTK_WIDGET (call_row), "read"));
  g_assert_true (test_any_label_contains (GTK_WIDGET (call_row), "Failed"));

  /* Collapsed, the details are not even built; expanded, they show. */
  g_assert_false (steward_tool_call_row_get_expanded (call_row));
  g_assert_false (test_any_label_contains (GTK_WIDGET (call_row), "/tmp/secret.txt"));
  steward_tool_call_row_set_expanded (call_row, TRUE);
  g_assert_true (steward_tool_call_row_get_expanded (call_row));
  g_assert_true (test_any_label_contains (GTK_WIDGET (call_row), "\"path\" : \"/tmp/secret.txt\""));
  g_assert_true (test_any_label_contains (GTK_WIDGET (call_row), "not offered"));

  wait_for_assistant_text (fixture, 1, "It is not there.");
}

static void
test_stop (Fixture       *fixture,
           gconstpointer  data)
{
  StewardChatMessage *answer;
  GListModel *messages;

  steward_chat_page_new_conversation (fixture->page);
  choose_model (fixture);
  type_message (fixture, "Tell me a long story");
  gtk_widget_activate_action (GTK_WIDGET (fixture->page), "chat.send", NULL);

  wait_for_request (fixture, 1);
  script_text (fixture->provider, "Once upon a time");
  wait_for_assistant_text (fixture, 0, "Once upon a time");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "chat.stop", NULL));
  test_wait_until (conversation_idle, fixture, 10000);

  /* What was answered stays, marked as stopped. */
  messages = steward_conversation_get_messages (steward_chat_page_get_conversation (fixture->page));
  answer = g_list_model_get_item (messages, 1);
  g_assert_cmpstr (steward_chat_message_get_text (answer), ==, "Once upon a time");
  g_assert_nonnull (steward_chat_message_get_note (answer));
  g_assert_false (steward_chat_message_get_streaming (answer));
  g_object_unref (answer);
  wait_for_assistant_text (fixture, 0, "Once upon a time");
}

static void
test_regenerate_and_edit (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autofree char *edited = NULL;
  g_autofree char *text = NULL;

  steward_chat_page_new_conversation (fixture->page);
  choose_model (fixture);
  type_message (fixture, "First try");
  gtk_widget_activate_action (GTK_WIDGET (fixture->page), "chat.send", NULL);
  wait_for_request (fixture, 1);
  script_finish (fixture->provider, "Answer one", "endTurn");
  test_wait_until (conversation_idle, fixture, 10000);
  wait_for_assistant_text (fixture, 0, "Answer one");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "chat.regenerate", NULL));
  wait_for_request (fixture, 2);
  script_finish (fixture->provider, "Answer two", "endTurn");
  test_wait_until (conversation_idle, fixture, 10000);
  g_assert_cmpuint (n_messages (fixture), ==, 2);
  wait_for_assistant_text (fixture, 0, "Answer two");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "chat.edit-last", NULL));
  text = composer_text (fixture);
  g_assert_cmpstr (text, ==, "First try");
  type_message (fixture, "Second try");
  gtk_widget_activate_action (GTK_WIDGET (fixture->page), "chat.send", NULL);
  wait_for_request (fixture, 3);
  edited = request_last_text (fixture->provider);
  g_assert_cmpstr (edited, ==, "Second try");
  script_finish (fixture->provider, "Answer three", "endTurn");
  test_wait_until (conversation_idle, fixture, 10000);
  g_assert_cmpuint (n_messages (fixture), ==, 2);
  wait_for_assistant_text (fixture, 0, "Answer three");
}

static guint
n_listed (Fixture *fixture)
{
  GtkListView *list = steward_chat_page_get_conversation_list (fixture->page);

  return g_list_model_get_n_items (G_LIST_MODEL (gtk_list_view_get_model (list)));
}

static AdwMessageDialog *
find_message_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (window) && gtk_widget_get_visible (GTK_WIDGET (window)))
        return ADW_MESSAGE_DIALOG (window);
    }

  return NULL;
}

static void
test_conversations (Fixture       *fixture,
                    gconstpointer  data)
{
  StewardConversationStore *store = steward_host_get_conversations (fixture->host);
  StewardConversation *alpha, *beta, *gamma;
  AdwMessageDialog *dialog;
  GtkWidget *entry;
  g_autofree char *alpha_id = NULL;

  alpha = steward_conversation_store_create (store);
  steward_conversation_set_title (alpha, "Alpha plans");
  beta = steward_conversation_store_create (store);
  steward_conversation_set_title (beta, "Beta notes");
  gamma = steward_conversation_store_create (store);
  steward_conversation_set_title (gamma, "Gamma");
  alpha_id = g_strdup (steward_conversation_get_id (alpha));
  test_drain_main_context ();
  g_assert_cmpuint (n_listed (fixture), ==, 3);

  /* Search narrows the list to what matches, ignoring case. */
  gtk_editable_set_text (steward_chat_page_get_search_entry (fixture->page), "ALPHA");
  g_signal_emit_by_name (steward_chat_page_get_search_entry (fixture->page), "search-changed");
  g_assert_cmpuint (n_listed (fixture), ==, 1);
  gtk_editable_set_text (steward_chat_page_get_search_entry (fixture->page), "");
  g_signal_emit_by_name (steward_chat_page_get_search_entry (fixture->page), "search-changed");
  g_assert_cmpuint (n_listed (fixture), ==, 3);

  /* Rename, as a person would: the dialog, a new title, Rename. */
  steward_chat_page_set_conversation (fixture->page, beta);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "chat.rename", NULL));
  dialog = find_message_dialog ();
  g_assert_nonnull (dialog);
  entry = test_find_by_type (GTK_WIDGET (dialog), GTK_TYPE_ENTRY);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "Beta notes");
  gtk_editable_set_text (GTK_EDITABLE (entry), "Renamed <b>beta</b>");
  adw_message_dialog_response (dialog, "rename");
  g_assert_cmpstr (steward_conversation_get_title (beta), ==, "Renamed <b>beta</b>");
  g_assert_true (test_any_label_contains (GTK_WIDGET (fixture->page), "Renamed <b>beta</b>"));
  gtk_window_destroy (GTK_WINDOW (dialog));

  /* Delete asks first; Cancel keeps it. */
  steward_chat_page_set_conversation (fixture->page, alpha);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "chat.delete", NULL));
  dialog = find_message_dialog ();
  adw_message_dialog_response (dialog, "cancel");
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_assert_true (steward_conversation_store_lookup (store, alpha_id) == alpha);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "chat.delete", NULL));
  dialog = find_message_dialog ();
  adw_message_dialog_response (dialog, "delete");
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_assert_null (steward_conversation_store_lookup (store, alpha_id));
  g_assert_null (steward_chat_page_get_conversation (fixture->page));
  test_drain_main_context ();
  g_assert_cmpuint (n_listed (fixture), ==, 2);

  /* Choosing one in the sidebar shows it. */
  gtk_single_selection_set_selected (
    GTK_SINGLE_SELECTION (gtk_list_view_get_model (steward_chat_page_get_conversation_list (
      fixture->page))), 0);
  g_assert_nonnull (steward_chat_page_get_conversation (fixture->page));
}

static void
test_new_reuses_empty (Fixture       *fixture,
                       gconstpointer  data)
{
  StewardConversation *first;

  steward_chat_page_new_conversation (fixture->page);
  first = steward_chat_page_get_conversation (fixture->page);
  steward_chat_page_new_conversation (fixture->page);
  g_assert_true (steward_chat_page_get_conversation (fixture->page) == first);
  test_drain_main_context ();
  g_assert_cmpuint (n_listed (fixture), ==, 1);
}

static GtkWindow *
find_toplevel (GType type)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (window, type) && gtk_widget_get_visible (GTK_WIDGET (window)))
        return window;
    }

  return NULL;
}

static void
test_window_entry (Fixture       *fixture,
                   gconstpointer  data)
{
  GtkWidget *window = steward_window_new (NULL, fixture->host);
  StewardChatPage *page;

  g_object_ref_sink (window);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (test_any_label_contains (window, "Chat"));

  /* Ctrl+T: the chat, with a new conversation ready to type in. */
  g_assert_true (gtk_widget_activate_action (window, "win.new-conversation", NULL));
  page = STEWARD_CHAT_PAGE (test_find_by_type (window, STEWARD_TYPE_CHAT_PAGE));
  g_assert_nonnull (page);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (page)));
  g_assert_nonnull (steward_chat_page_get_conversation (page));

  /* The review of changed tools is there for the server pages too. */
  g_assert_true (gtk_widget_activate_action (window, "win.review-tool-changes", NULL));
  g_assert_nonnull (find_toplevel (STEWARD_TYPE_TOOL_CHANGE_DIALOG));
  gtk_window_destroy (find_toplevel (STEWARD_TYPE_TOOL_CHANGE_DIALOG));

  gtk_window_destroy (GTK_WINDOW (window));
  test_drain_main_context ();
  g_assert_finalize_object (window);
}

static void
test_tool_call_approvals (void)
{
  g_autoptr(JsonObject) arguments = json_object_new ();
  g_autoptr(JsonObject) request = json_object_new ();
  g_autoptr(JsonObject) params = json_object_new ();
  StewardToolCall *call;
  StewardApproval *approval;
  StewardApproval *sampling;
  GtkWidget *window = gtk_window_new ();
  GtkWidget *row;
  GtkWidget *open;
  GtkWindow *dialog;

  json_object_set_string_member (arguments, "path", "/tmp/x");
  call = steward_tool_call_new ("call-1", "files", "write_file", arguments);
  row = steward_tool_call_row_new (call);
  gtk_window_set_child (GTK_WINDOW (window), row);
  gtk_window_present (GTK_WINDOW (window));

  /* Waiting for the person: a button opens the approval. */
  json_object_set_string_member (request, "server", "files");
  json_object_set_string_member (request, "tool", "write_file");
  json_object_set_object_member (request, "arguments", json_object_ref (arguments));
  json_object_set_object_member (request, "definition", json_object_new ());
  json_object_set_string_member (request, "pinState", "unpinned");
  approval = steward_approval_new (STEWARD_APPROVAL_KIND_TOOL_CALL, "files", request);
  steward_tool_call_set_state (call, STEWARD_TOOL_CALL_WAITING);
  steward_tool_call_set_approval (call, approval);
  g_assert_true (test_any_label_contains (row, "waits for your approval"));
  g_assert_true (test_any_label_contains (row, "Waiting for approval"));
  g_assert_true (gtk_widget_activate_action (row, "tool-call.review", NULL));
  dialog = find_toplevel (STEWARD_TYPE_TOOL_APPROVAL_DIALOG);
  g_assert_nonnull (dialog);
  gtk_widget_activate_action (GTK_WIDGET (dialog), "tool-approval.allow", NULL);
  test_drain_main_context ();
  g_assert_true (steward_approval_get_finished (approval));
  steward_tool_call_set_approval (call, NULL);
  steward_tool_call_set_state (call, STEWARD_TOOL_CALL_RUNNING);

  /* A request the server makes while the call runs shows under it, at
   * once, with a way to open it while it waits. */
  g_assert_false (steward_tool_call_row_get_expanded (STEWARD_TOOL_CALL_ROW (row)));
  sampling = steward_approval_new (STEWARD_APPROVAL_KIND_SAMPLING, "files", params);
  steward_tool_call_add_approval (call, sampling);
  g_assert_true (steward_tool_call_row_get_expanded (STEWARD_TOOL_CALL_ROW (row)));
  g_assert_true (test_any_label_contains (row, "The server asked to use your model"));
  g_assert_true (test_any_label_contains (row, "Waiting for you"));
  open = GTK_WIDGET (test_find_label (row, "Open"));
  g_assert_nonnull (open);
  open = gtk_widget_get_ancestor (open, GTK_TYPE_BUTTON);
  g_assert_true (gtk_widget_get_visible (open));

  steward_approval_respond (sampling, STEWARD_APPROVAL_ACTION_REJECT, NULL);
  g_assert_true (test_any_label_contains (row, "Answered"));
  g_assert_false (gtk_widget_get_visible (open));

  gtk_window_destroy (GTK_WINDOW (window));
  test_drain_main_context ();
  g_assert_finalize_object (call);
  g_assert_finalize_object (sampling);
  g_assert_finalize_object (approval);
}

typedef struct {
  guint position;
  guint removed;
  guint added;
  guint count;
} Change;

static void
changed_cb (GListModel *model,
            guint       position,
            guint       removed,
            guint       added,
            Change     *change)
{
  change->position = position;
  change->removed = removed;
  change->added = added;
  change->count++;
}

static const char *
string_at (GListModel *model,
           guint       position)
{
  g_autoptr(GtkStringObject) item = g_list_model_get_item (model, position);

  return item != NULL ? gtk_string_object_get_string (item) : NULL;
}

static void
test_tail_model (void)
{
  static const char *const names[] = { "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", NULL };
  GtkStringList *list = gtk_string_list_new (names);
  StewardTailModel *tail = steward_tail_model_new ();
  GListModel *model = G_LIST_MODEL (tail);
  Change change = { 0, };

  g_signal_connect (tail, "items-changed", G_CALLBACK (changed_cb), &change);

  steward_tail_model_set_model (tail, G_LIST_MODEL (list), 4);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 4);
  g_assert_cmpuint (steward_tail_model_get_hidden (tail), ==, 6);
  g_assert_cmpstr (string_at (model, 0), ==, "6");
  g_assert_null (string_at (model, 4));

  /* New items show at the end. */
  gtk_string_list_append (list, "10");
  g_assert_cmpuint (change.count, ==, 2);
  g_assert_cmpuint (change.position, ==, 4);
  g_assert_cmpuint (change.added, ==, 1);
  g_assert_cmpstr (string_at (model, 4), ==, "10");

  /* Earlier ones join at the start, as insertions. */
  steward_tail_model_reveal (tail, 3);
  g_assert_cmpuint (change.count, ==, 3);
  g_assert_cmpuint (change.position, ==, 0);
  g_assert_cmpuint (change.removed, ==, 0);
  g_assert_cmpuint (change.added, ==, 3);
  g_assert_cmpstr (string_at (model, 0), ==, "3");
  g_assert_cmpuint (steward_tail_model_get_hidden (tail), ==, 3);

  /* A change among the hidden ones leaves what is shown alone. */
  gtk_string_list_remove (list, 0);
  g_assert_cmpuint (change.count, ==, 3);
  g_assert_cmpuint (steward_tail_model_get_hidden (tail), ==, 2);
  g_assert_cmpstr (string_at (model, 0), ==, "3");

  /* A change across the first one shown starts the shown ones there. */
  gtk_string_list_splice (list, 1, 3, NULL);
  g_assert_cmpuint (change.count, ==, 4);
  g_assert_cmpuint (steward_tail_model_get_hidden (tail), ==, 1);
  g_assert_cmpstr (string_at (model, 0), ==, "5");

  steward_tail_model_reveal (tail, 100);
  g_assert_cmpuint (steward_tail_model_get_hidden (tail), ==, 0);
  g_assert_cmpstr (string_at (model, 0), ==, "1");

  steward_tail_model_set_model (tail, NULL, 4);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 0);

  g_assert_finalize_object (tail);
  g_assert_finalize_object (list);
}

static gboolean
newest_shown (gpointer data)
{
  Fixture *fixture = data;
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();

  collect_by_type (GTK_WIDGET (steward_chat_page_get_message_list (fixture->page)),
                   STEWARD_TYPE_MESSAGE_ROW, rows);
  for (guint i = 0; i < rows->len; i++)
    {
      StewardMessageRow *row = g_ptr_array_index (rows, i);
      StewardChatMessage *message = steward_message_row_get_message (row);
      g_autofree char *text = NULL;

      if (message == NULL || steward_chat_message_get_role (message) != STEWARD_CHAT_ROLE_ASSISTANT)
        continue;
      text = markdown_text (row);
      if (g_strcmp0 (text, "Message 99") == 0)
        return TRUE;
    }

  return FALSE;
}

static gboolean
settled (gpointer data)
{
  return !steward_chat_page_get_settling (data);
}

static gboolean
earlier_shown (gpointer data)
{
  Fixture *fixture = data;

  return steward_chat_page_get_n_hidden_messages (fixture->page) < 60;
}

static void
test_long_conversation (Fixture       *fixture,
                        gconstpointer  data)
{
  StewardConversation *conversation;
  GtkListView *list = steward_chat_page_get_message_list (fixture->page);
  GtkAdjustment *adjustment;

  conversation = steward_conversation_store_create (steward_host_get_conversations (fixture->host));
  for (guint i = 0; i < 100; i++)
    {
      g_autoptr(JsonArray) content = json_array_new ();
      g_autoptr(StewardChatMessage) message = NULL;
      JsonObject *block = json_object_new ();
      g_autofree char *text = g_strdup_printf ("Message **%u**", i);

      json_object_set_string_member (block, "type", "text");
      json_object_set_string_member (block, "text", text);
      json_array_add_object_element (content, block);
      message = steward_chat_message_new (i % 2 == 0 ? STEWARD_CHAT_ROLE_USER
                                                     : STEWARD_CHAT_ROLE_ASSISTANT, content);
      steward_conversation_append (conversation, message);
    }

  /* The newest messages first; the rest wait above. */
  steward_chat_page_set_conversation (fixture->page, conversation);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (gtk_list_view_get_model (list))), ==,
                    40);
  g_assert_cmpuint (steward_chat_page_get_n_hidden_messages (fixture->page), ==, 60);
  /* It is the newest that is in view, drawn as markdown. */
  test_wait_until (newest_shown, fixture, 5000);
  test_wait_until (settled, fixture->page, 5000);

  /* Scrolled to the top, the earlier ones join. */
  adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (list));
  gtk_adjustment_set_value (adjustment, 0);
  test_wait_until (earlier_shown, fixture, 5000);
  g_assert_cmpuint (steward_chat_page_get_n_hidden_messages (fixture->page), <, 60);
}

/* Against the reference server "everything", started by the host as the
 * app starts it (the peers suite): its resources attach, its prompts
 * answer "/". */

#ifdef CHAT_PAGE_PEERS

typedef struct {
  GListModel *model;
  guint       n;
} Count;

static gboolean
has_items (gpointer data)
{
  Count *count = data;

  return g_list_model_get_n_items (count->model) >= count->n;
}

static void
wait_until_n (GListModel *model,
              guint       n,
              guint       seconds)
{
  Count count = { model, n };

  test_wait_until (has_items, &count, seconds * 1000);
}

static gboolean
server_ready (gpointer data)
{
  return steward_server_get_status (data) == STEWARD_SERVER_STATUS_READY;
}

static gboolean
lists_loaded (gpointer data)
{
  StewardServer *server = data;
  McpClient *client = steward_server_get_client (server);

  return client != NULL &&
         g_list_model_get_n_items (mcp_client_get_resources (client)) > 0 &&
         g_list_model_get_n_items (mcp_client_get_prompts (client)) > 0;
}

static void
start_everything (Fixture *fixture)
{
  GListModel *registry = G_LIST_MODEL (steward_host_get_registry (fixture->host));
  GListModel *approvals = G_LIST_MODEL (steward_host_get_approvals (fixture->host));
  g_autoptr(StewardApproval) approval = NULL;
  g_autoptr(StewardServer) server = NULL;

  /* A new server asks first; the person allows it. */
  wait_until_n (registry, 1, 20);
  wait_until_n (approvals, 1, 20);
  approval = g_list_model_get_item (approvals, 0);
  g_assert_cmpint (steward_approval_get_kind (approval), ==, STEWARD_APPROVAL_KIND_CONSENT);
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_ALLOW, NULL);

  server = g_list_model_get_item (registry, 0);
  test_wait_until (server_ready, server, 60000);
  test_wait_until (lists_loaded, server, 20000);
}

static gboolean
has_attachment (gpointer data)
{
  return json_array_get_length (steward_chat_page_get_attachments (data)) > 0;
}

static GtkWidget *
find_by_tooltip (GtkWidget  *root,
                 const char *tooltip)
{
  if (g_strcmp0 (gtk_widget_get_tooltip_text (root), tooltip) == 0)
    return root;

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_by_tooltip (child, tooltip);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static void
test_attach_resource (Fixture       *fixture,
                      gconstpointer  data)
{
  const char *uri = "demo://resource/dynamic/text/1";
  GtkWidget *attach = find_by_tooltip (GTK_WIDGET (fixture->page), "Attach Resource");
  GtkPopover *popover;
  GtkWidget *list;
  JsonObject *block;
  JsonObject *resource;

  start_everything (fixture);

  /* The menu lists the running servers' resources. */
  g_assert_true (GTK_IS_MENU_BUTTON (attach));
  gtk_menu_button_popup (GTK_MENU_BUTTON (attach));
  popover = gtk_menu_button_get_popover (GTK_MENU_BUTTON (attach));
  list = test_find_by_type (GTK_WIDGET (popover), GTK_TYPE_LIST_BOX);
  g_assert_nonnull (gtk_list_box_get_row_at_index (GTK_LIST_BOX (list), 0));
  g_assert_true (test_any_label_contains (list, "everything: "));
  gtk_popover_popdown (popover);

  /* The chosen one is read and waits to go with the next message. */
  steward_chat_page_attach_resource (fixture->page, "everything", uri);
  test_wait_until (has_attachment, fixture->page, 20000);
  block = json_array_get_object_element (steward_chat_page_get_attachments (fixture->page), 0);
  g_assert_cmpstr (json_object_get_string_member (block, "type"), ==, "resource");
  resource = json_object_get_object_member (block, "resource");
  g_assert_cmpstr (json_object_get_string_member (resource, "uri"), ==, uri);
  g_assert_nonnull (json_object_get_string_member (resource, "text"));
  g_assert_true (test_any_label_contains (GTK_WIDGET (fixture->page), uri));

  /* Its chip takes it away again. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page),
                                             "chat.remove-attachment", "u", 0));
  g_assert_cmpuint (json_array_get_length (steward_chat_page_get_attachments (fixture->page)), ==,
                    0);
}

typedef struct {
  Fixture    *fixture;
  const char *needle;
} Composer;

static gboolean
composer_holds (gpointer data)
{
  Composer *composer = data;
  g_autofree char *text = composer_text (composer->fixture);

  return strstr (text, composer->needle) != NULL;
}

static gboolean
prompts_listed (gpointer data)
{
  Composer *composer = data;
  g_autofree char *choices = steward_chat_page_dup_prompt_choices (composer->fixture->page);

  return choices != NULL && strstr (choices, composer->needle) != NULL;
}

static gboolean
dialog_shown (gpointer data)
{
  return find_message_dialog () != NULL;
}

static void
test_slash_prompt (Fixture       *fixture,
                   gconstpointer  data)
{
  Composer listed = { fixture, "everything/simple-prompt" };
  Composer simple = { fixture, "This is a simple prompt without arguments." };
  Composer weather = { fixture, "weather in Paris" };
  g_autofree char *choices = NULL;
  AdwMessageDialog *dialog;
  GtkWidget *entry;

  start_everything (fixture);

  /* "/" lists the prompts as server/prompt, narrowed as one types. */
  type_message (fixture, "/");
  test_wait_until (prompts_listed, &listed, 5000);
  type_message (fixture, "/simple");
  choices = steward_chat_page_dup_prompt_choices (fixture->page);
  g_assert_cmpstr (choices, ==, "everything/simple-prompt");

  /* Enter takes the one chosen; its text replaces the command. */
  g_assert_true (press_key (fixture, GDK_KEY_Return, 0));
  test_wait_until (composer_holds, &simple, 20000);
  g_assert_null (steward_chat_page_dup_prompt_choices (fixture->page));

  /* A prompt with arguments asks for them first. */
  type_message (fixture, "/args-prompt");
  g_assert_true (press_key (fixture, GDK_KEY_Return, 0));
  test_wait_until (dialog_shown, NULL, 5000);
  dialog = find_message_dialog ();
  entry = test_find_by_type (GTK_WIDGET (dialog), GTK_TYPE_ENTRY);
  g_assert_nonnull (entry);
  gtk_editable_set_text (GTK_EDITABLE (entry), "Paris");
  adw_message_dialog_response (dialog, "insert");
  gtk_window_destroy (GTK_WINDOW (dialog));
  test_wait_until (composer_holds, &weather, 20000);
}

#endif

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  /* Built again with CHAT_PAGE_PEERS for the peers suite, which runs
   * only /steward/chat-page/peers. */
#ifdef CHAT_PAGE_PEERS
  g_test_add ("/steward/chat-page/peers/attach-resource", Fixture, "everything",
              fixture_set_up, test_attach_resource, fixture_tear_down);
  g_test_add ("/steward/chat-page/peers/slash-prompt", Fixture, "everything",
              fixture_set_up, test_slash_prompt, fixture_tear_down);
#endif
  g_test_add ("/steward/chat-page/send-streams", Fixture, NULL,
              fixture_set_up, test_send_streams, fixture_tear_down);
  g_test_add ("/steward/chat-page/tool-call-row", Fixture, NULL,
              fixture_set_up, test_tool_call_row, fixture_tear_down);
  g_test_add ("/steward/chat-page/stop", Fixture, NULL,
              fixture_set_up, test_stop, fixture_tear_down);
  g_test_add ("/steward/chat-page/regenerate-and-edit", Fixture, NULL,
              fixture_set_up, test_regenerate_and_edit, fixture_tear_down);
  g_test_add ("/steward/chat-page/conversations", Fixture, NULL,
              fixture_set_up, test_conversations, fixture_tear_down);
  g_test_add ("/steward/chat-page/new-reuses-empty", Fixture, NULL,
              fixture_set_up, test_new_reuses_empty, fixture_tear_down);

  g_test_add_func ("/steward/chat-page/tail-model", test_tail_model);
  g_test_add_func ("/steward/chat-page/tool-call-approvals", test_tool_call_approvals);
  g_test_add ("/steward/chat-page/long-conversation", Fixture, NULL,
              fixture_set_up, test_long_conversation, fixture_tear_down);
  g_test_add ("/steward/chat-page/window-entry", Fixture, NULL,
              fixture_set_up, test_window_entry, fixture_tear_down);

  return g_test_run ();
}

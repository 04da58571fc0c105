/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-overdue-prompt"

#include "config.h"

#include <string.h>

#include <adwaita.h>

#include "mcp-client.h"
#include "mcp-error.h"
#include "mcp-scripted-transport.h"
#include "steward-overdue-prompt.h"
#include "steward-tool-call-row.h"
#include "test-delegate.h"
#include "test-widgets.h"

/* A client on a scripted transport whose tool calls never answer in
 * time, and a window for the question to belong to. */

typedef struct {
  McpScriptedTransport *transport;
  McpClient            *client;
  TestDelegate         *delegate;
  GtkWidget            *window;
  GtkWidget            *label;
} Fixture;

static void
store_result_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static gint64
id_of (McpMessage *message)
{
  gint64 id = 0;

  g_assert_true (mcp_message_get_int_id (message, &id));
  return id;
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpMessage *init;

  fixture->transport = mcp_scripted_transport_new ();
  fixture->client = mcp_client_new (MCP_TRANSPORT (fixture->transport));
  fixture->delegate = test_delegate_new (MCP_CLIENT_FEATURE_NONE);
  mcp_client_set_delegate (fixture->client, MCP_CLIENT_DELEGATE (fixture->delegate));
  mcp_client_set_requested_revision (fixture->client, MCP_REVISION_2025_11_25);

  mcp_client_connect_async (fixture->client, NULL, store_result_cb, &result);
  init = mcp_scripted_transport_wait_sent (fixture->transport, "initialize");
  mcp_scripted_transport_receivef (fixture->transport,
                                   "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT
                                   ",\"result\":{\"protocolVersion\":\"2025-11-25\","
                                   "\"serverInfo\":{\"name\":\"scripted\",\"version\":\"1\"},"
                                   "\"capabilities\":{}}}", id_of (init));
  wait_for (result != NULL);
  g_assert_true (mcp_client_connect_finish (fixture->client, result, &error));
  g_assert_no_error (error);

  fixture->window = gtk_window_new ();
  fixture->label = gtk_label_new ("Tools");
  gtk_window_set_child (GTK_WINDOW (fixture->window), fixture->label);
  gtk_window_present (GTK_WINDOW (fixture->window));
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;

  gtk_window_destroy (GTK_WINDOW (fixture->window));
  mcp_client_close_async (fixture->client, NULL, store_result_cb, &result);
  wait_for (result != NULL);
  g_assert_true (mcp_client_close_finish (fixture->client, result, NULL));
  g_clear_object (&result);
  test_drain_main_context ();

  /* Nothing (no question, no prompt) keeps the client alive. */
  g_assert_finalize_object (fixture->client);
  g_assert_finalize_object (fixture->delegate);
  g_assert_finalize_object (fixture->transport);
}

/* The open question, if any: a message dialog over the fixture's window. */
static AdwMessageDialog *
find_question (Fixture *fixture)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (window) && gtk_widget_get_visible (GTK_WIDGET (window)) &&
          gtk_window_get_transient_for (window) == GTK_WINDOW (fixture->window))
        return ADW_MESSAGE_DIALOG (window);
    }

  return NULL;
}

/* Clicks a response of @question the way a person does. */
static void
click (AdwMessageDialog *question,
       const char       *text)
{
  GtkLabel *label = test_find_label (GTK_WIDGET (question), text);
  GtkWidget *button;

  g_assert_nonnull (label);
  button = gtk_widget_get_ancestor (GTK_WIDGET (label), GTK_TYPE_BUTTON);
  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
}

/* What the server's router does for the test: asks about the one call
 * its cancellable names, and no other. */
typedef struct {
  GtkWidget            *parent;
  GCancellable         *call;
  StewardOverdue       *question;
  StewardOverduePrompt *prompt;
  gulong                handler;
} Asker;

static gboolean
overdue_cb (McpClient  *client,
            gint64      id,
            const char *method,
            JsonObject *params,
            guint       waited_ms,
            Asker      *asker)
{
  if (mcp_client_get_request_cancellable (client, id) != asker->call)
    return FALSE;

  g_clear_object (&asker->prompt);
  g_clear_object (&asker->question);
  asker->question = steward_overdue_new (client, id, "scripted",
                                         json_object_get_string_member (params, "name"),
                                         waited_ms, asker->call);
  asker->prompt = steward_overdue_prompt_new (asker->parent, asker->question);
  return TRUE;
}

static void
asker_start (Asker   *asker,
             Fixture *fixture)
{
  asker->parent = fixture->label;
  asker->call = g_cancellable_new ();
  asker->handler = g_signal_connect (fixture->client, "request-overdue",
                                     G_CALLBACK (overdue_cb), asker);
}

static void
asker_clear (Asker   *asker,
             Fixture *fixture)
{
  g_clear_signal_handler (&asker->handler, fixture->client);
  g_clear_object (&asker->prompt);
  g_clear_object (&asker->question);
  g_clear_object (&asker->call);
}

/* The @nth tools/call sent, counting from 0, or NULL. */
static McpMessage *
sent_call (Fixture *fixture,
           guint    nth)
{
  GPtrArray *sent = mcp_scripted_transport_get_sent (fixture->transport);

  for (guint i = 0; i < sent->len; i++)
    if (g_strcmp0 (mcp_message_get_method (g_ptr_array_index (sent, i)), "tools/call") == 0 &&
        nth-- == 0)
      return g_ptr_array_index (sent, i);

  return NULL;
}

static McpMessage *
call_tool (Fixture       *fixture,
           const char    *name,
           GCancellable  *cancellable,
           GAsyncResult **result)
{
  g_autoptr(JsonObject) params = json_object_new ();
  guint before = 0;

  json_object_set_string_member (params, "name", name);
  mcp_client_set_request_timeout (fixture->client, 50);
  while (sent_call (fixture, before) != NULL)
    before++;
  mcp_client_request_async (fixture->client, "tools/call", params, NULL, NULL, NULL, cancellable,
                            store_result_cb, result);
  wait_for (sent_call (fixture, before) != NULL);
  return sent_call (fixture, before);
}

static void
test_keep_waiting_then_stop (Fixture       *fixture,
                             gconstpointer  data)
{
  Asker asker = { 0 };
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(AdwMessageDialog) question = NULL;
  g_autoptr(StewardOverdue) first = NULL;
  McpMessage *request;
  McpMessage *cancelled;

  asker_start (&asker, fixture);
  request = call_tool (fixture, "slow", asker.call, &result);

  wait_for (find_question (fixture) != NULL);
  /* Held, so that a later question cannot be mistaken for it. */
  question = g_object_ref (find_question (fixture));
  g_assert_nonnull (strstr (adw_message_dialog_get_body (question), "“slow”"));
  g_assert_null (result);

  /* Keep Waiting: the call goes on, and is asked about again later. */
  first = g_object_ref (asker.question);
  click (question, "Keep Waiting");
  g_assert_false (steward_overdue_get_open (first));
  test_drain_main_context ();
  g_assert_null (result);
  g_assert_null (mcp_scripted_transport_find_sent (fixture->transport,
                                                   "notifications/cancelled"));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (question)));
  wait_for (find_question (fixture) != NULL && find_question (fixture) != question);

  /* Stop: the call fails with the timeout and the server is told. */
  click (find_question (fixture), "Stop");
  wait_for (result != NULL);
  reply = mcp_client_request_finish (fixture->client, result, &error);
  g_assert_null (reply);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_TIMEOUT);
  cancelled = mcp_scripted_transport_find_sent (fixture->transport, "notifications/cancelled");
  g_assert_nonnull (cancelled);
  g_assert_cmpint (json_object_get_int_member (mcp_message_get_params (cancelled), "requestId"),
                   ==, id_of (request));
  asker_clear (&asker, fixture);
}

static void
test_answer_closes_question (Fixture       *fixture,
                             gconstpointer  data)
{
  Asker asker = { 0 };
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) reply = NULL;
  McpMessage *request;

  asker_start (&asker, fixture);
  request = call_tool (fixture, "slow", asker.call, &result);
  wait_for (find_question (fixture) != NULL);

  /* The late answer is delivered; the call's end withdraws the question,
   * as the server does, and the dialog goes with it. */
  mcp_scripted_transport_receivef (fixture->transport,
                                   "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT
                                   ",\"result\":{\"content\":[]}}", id_of (request));
  wait_for (result != NULL);
  reply = mcp_client_request_finish (fixture->client, result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (reply);

  steward_overdue_withdraw (asker.question);
  test_drain_main_context ();
  g_assert_null (find_question (fixture));
  /* A late click on a withdrawn question does nothing. */
  steward_overdue_answer (asker.question, FALSE);
  g_assert_null (mcp_scripted_transport_find_sent (fixture->transport,
                                                   "notifications/cancelled"));
  asker_clear (&asker, fixture);
}

static void
test_other_call_times_out (Fixture       *fixture,
                           gconstpointer  data)
{
  Asker asker = { 0 };
  g_autoptr(GAsyncResult) mine = NULL;
  g_autoptr(GAsyncResult) other = NULL;
  g_autoptr(GCancellable) other_call = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) reply = NULL;
  McpMessage *request;

  /* Two calls of the same tool: the question belongs to the call, not
   * to the tool's name, so the one nobody asks about fails as before. */
  asker_start (&asker, fixture);
  request = call_tool (fixture, "slow", asker.call, &mine);
  call_tool (fixture, "slow", other_call, &other);
  wait_for (other != NULL);
  reply = mcp_client_request_finish (fixture->client, other, &error);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_TIMEOUT);

  wait_for (find_question (fixture) != NULL);
  g_assert_cmpint (steward_overdue_get_request_id (asker.question), ==, id_of (request));
  g_assert_null (mine);
  click (find_question (fixture), "Stop");
  wait_for (mine != NULL);
  asker_clear (&asker, fixture);
}

/* A chat's tool call: the row shows what the server says of the running
 * call, and puts the call's question when it runs past its timeout. */

static gboolean
chat_overdue_cb (McpClient       *client,
                 gint64           id,
                 const char      *method,
                 JsonObject      *params,
                 guint            waited_ms,
                 StewardToolCall *call)
{
  g_autoptr(StewardOverdue) question = NULL;
  GCancellable *cancellable = mcp_client_get_request_cancellable (client, id);

  /* What the chat engine does with the server's question for its call. */
  question = steward_overdue_new (client, id, "scripted", "slow", waited_ms, cancellable);
  steward_tool_call_set_overdue (call, question);
  return TRUE;
}

static void
test_chat_row (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(JsonObject) arguments = json_object_new ();
  g_autoptr(StewardToolCall) call = steward_tool_call_new ("call-1", "scripted", "slow",
                                                           arguments);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) reply = NULL;
  GtkWidget *row;
  gulong handler;

  steward_tool_call_set_state (call, STEWARD_TOOL_CALL_RUNNING);
  row = steward_tool_call_row_new (call);
  gtk_window_set_child (GTK_WINDOW (fixture->window), row);
  fixture->label = row;
  g_assert_nonnull (test_find_label (row, "Running…"));

  /* A task's status message and progress, as the chat engine hands them
   * over; the server's words are shown, not just "running". */
  steward_tool_call_set_progress (call, 0, -1, "Step 1 of 3");
  g_assert_nonnull (test_find_label (row, "Step 1 of 3"));
  steward_tool_call_set_progress (call, 2, 3, "Step 2 of 3");
  g_assert_nonnull (test_find_label (row, "Step 2 of 3 (66 %)"));
  g_assert_null (test_find_label (row, "Running…"));

  /* Past its timeout, the call's question is put over the chat. */
  handler = g_signal_connect (fixture->client, "request-overdue", G_CALLBACK (chat_overdue_cb),
                              call);
  call_tool (fixture, "slow", cancellable, &result);
  wait_for (find_question (fixture) != NULL);
  g_assert_nonnull (strstr (adw_message_dialog_get_body (find_question (fixture)), "“slow”"));
  click (find_question (fixture), "Stop");
  wait_for (result != NULL);
  reply = mcp_client_request_finish (fixture->client, result, &error);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_TIMEOUT);
  g_assert_false (steward_overdue_get_open (steward_tool_call_get_overdue (call)));
  g_signal_handler_disconnect (fixture->client, handler);

  steward_tool_call_set_overdue (call, NULL);
  steward_tool_call_set_state (call, STEWARD_TOOL_CALL_DONE);
  g_assert_nonnull (test_find_label (row, "Done"));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

#define ADD(path, func) \
  g_test_add ("/steward/overdue-prompt/" path, Fixture, NULL, fixture_set_up, func, \
              fixture_tear_down)

  ADD ("keep-waiting-then-stop", test_keep_waiting_then_stop);
  ADD ("answer-closes-question", test_answer_closes_question);
  ADD ("other-call-of-same-tool-times-out", test_other_call_times_out);
  ADD ("chat-row-status-and-question", test_chat_row);

  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client"

#include "config.h"

#include "mcp-client-private.h"
#include "mcp-error.h"
#include "mcp-json-private.h"

/* Rounds of input_required one request may go through (2026-07-28). */
#define MAX_INPUT_ROUNDS 8

/* Input rounds (2026-07-28): a server that needs something from the host
 * answers tools/call, prompts/get or resources/read with an input_required
 * result; the host's answers go back in a retry of the same request. */

typedef struct {
  McpClient       *client;
  GTask           *task;
  McpReplyFunc     reply;          /* instead of @task, with its data */
  gpointer         reply_data;
  GCancellable    *caller_cancellable;
  char            *method;
  JsonObject      *params;        /* the request as first sent, without answers */
  char            *request_state;
  JsonObject      *responses;
  guint            waiting;
  guint            rounds;
  GError          *error;
  GCancellable    *cancellable;   /* cancels the host's work */
  gulong           cancelled_id;
  McpProgressFunc  progress_func;
  gpointer         progress_data;
  GDestroyNotify   progress_destroy;
} InputRound;

typedef struct {
  InputRound *round;
  char       *key;
  char       *method;
} InputCall;

static void
input_round_free (InputRound *round)
{
  if (round->cancelled_id != 0)
    g_cancellable_disconnect (round->caller_cancellable, round->cancelled_id);
  if (round->progress_destroy != NULL)
    round->progress_destroy (round->progress_data);
  g_clear_object (&round->task);
  g_clear_object (&round->caller_cancellable);
  g_clear_object (&round->cancellable);
  g_clear_pointer (&round->params, json_object_unref);
  g_clear_pointer (&round->responses, json_object_unref);
  g_clear_error (&round->error);
  g_object_unref (round->client);
  g_free (round->method);
  g_free (round->request_state);
  g_free (round);
}

static void
input_round_cancelled_cb (GCancellable *cancellable,
                          gpointer      user_data)
{
  InputRound *round = user_data;

  g_cancellable_cancel (round->cancellable);
}

static void
input_round_finish (InputRound *round)
{
  McpClient *self = round->client;
  g_autoptr(JsonObject) params = NULL;

  if (round->error != NULL)
    {
      if (round->task != NULL)
        g_task_return_error (round->task, g_steal_pointer (&round->error));
      else
        round->reply (self, NULL, g_steal_pointer (&round->error), round->reply_data);
      input_round_free (round);
      return;
    }

  /* The retry is a new request with a new id: the first request's
   * params, the answers, and the server's state exactly as it sent it. */
  params = mcp_client_copy_object (round->params);
  json_object_set_object_member (params, "inputResponses", json_object_ref (round->responses));
  if (round->request_state != NULL)
    json_object_set_string_member (params, "requestState", round->request_state);

  if (round->task != NULL)
    mcp_client_pending_start (self, round->task, round->method, params, FALSE,
                              self->request_timeout_ms, round->progress_func,
                              round->progress_data, g_steal_pointer (&round->progress_destroy),
                              round->rounds);
  else
    mcp_client_pending_start_reply (self, round->reply, round->reply_data,
                                    round->caller_cancellable, round->method, params,
                                    self->request_timeout_ms, round->progress_func,
                                    round->progress_data,
                                    g_steal_pointer (&round->progress_destroy), round->rounds);
  round->progress_func = NULL;
  input_round_free (round);
}

static void
input_call_done_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  McpClientDelegate *delegate = MCP_CLIENT_DELEGATE (object);
  InputCall *call = user_data;
  InputRound *round = call->round;
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(GError) error = NULL;

  reply = mcp_client_ask_delegate_finish (delegate, call->method, result, &error);

  /* An answer the host refused (sampling rejected) cannot be sent as an
   * input response: the request fails with it, as it would have failed
   * on the server in the handshake era. */
  if (reply != NULL)
    json_object_set_object_member (round->responses, call->key, g_steal_pointer (&reply));
  else if (round->error == NULL)
    {
      round->error = error ? g_steal_pointer (&error)
                           : g_error_new_literal (MCP_ERROR, MCP_ERROR_INTERNAL_ERROR,
                                                  "the host gave no answer");
      g_cancellable_cancel (round->cancellable);
    }

  g_free (call->key);
  g_free (call->method);
  g_free (call);

  if (--round->waiting == 0)
    input_round_finish (round);
}

/* Takes @pending's task (or reply function) and progress function into a
 * round of input. */
void
mcp_client_input_round_start (Pending    *pending,
                              JsonObject *result)
{
  McpClient *self = pending->client;
  JsonObject *requests = mcp_json_get_object (result, "inputRequests");
  const char *state = mcp_json_get_string (result, "requestState");
  GCancellable *task_cancellable;
  g_autoptr(GList) keys = NULL;
  InputRound *round;

  round = g_new0 (InputRound, 1);
  round->client = g_object_ref (self);
  round->task = g_steal_pointer (&pending->task);
  round->reply = pending->reply;
  round->reply_data = pending->reply_data;
  round->caller_cancellable = pending->cancellable ? g_object_ref (pending->cancellable) : NULL;
  round->method = g_strdup (pending->method);
  round->request_state = g_strdup (state);
  round->responses = json_object_new ();
  round->rounds = pending->rounds + 1;
  round->cancellable = g_cancellable_new ();
  round->progress_func = pending->progress_func;
  round->progress_data = pending->progress_data;
  round->progress_destroy = g_steal_pointer (&pending->progress_destroy);
  pending->progress_func = NULL;

  /* The answers of an earlier round belong to that round alone. */
  round->params = pending->params ? mcp_client_copy_object (pending->params) : json_object_new ();
  json_object_remove_member (round->params, "inputResponses");
  json_object_remove_member (round->params, "requestState");

  g_queue_remove (&self->waiting, pending);
  g_hash_table_steal (self->pending, &pending->id);
  mcp_client_pending_free (pending);
  /* The round holds the client now, in place of the request. */
  if (round->reply != NULL)
    g_object_unref (self);

  if (requests == NULL && state == NULL)
    round->error = g_error_new_literal (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                        "the server asked for input but named none");
  else if (round->rounds > MAX_INPUT_ROUNDS)
    round->error = g_error_new (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                "the server asked for input %u times for one “%s”; gave up",
                                MAX_INPUT_ROUNDS, round->method);

  task_cancellable = round->caller_cancellable;
  if (task_cancellable != NULL)
    round->cancelled_id = g_cancellable_connect (task_cancellable,
                                                 G_CALLBACK (input_round_cancelled_cb),
                                                 round, NULL);

  if (requests != NULL && round->error == NULL)
    keys = json_object_get_members (requests);

  /* Each request is put to the host at once; several may be open. */
  round->waiting = 1;
  for (GList *l = keys; l != NULL; l = l->next)
    {
      JsonObject *request = mcp_json_get_object (requests, l->data);
      const char *method = mcp_json_get_string (request, "method");
      JsonObject *params = mcp_json_get_object (request, "params");
      g_autoptr(GError) error = NULL;
      InputCall *call;

      if (method == NULL)
        error = g_error_new (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                             "the server's input request “%s” has no method",
                             (const char *) l->data);
      else
        error = mcp_client_check_incoming (self, method, params);

      if (error != NULL)
        {
          /* What was already put to the host is withdrawn. */
          round->error = g_steal_pointer (&error);
          g_cancellable_cancel (round->cancellable);
          break;
        }

      call = g_new0 (InputCall, 1);
      call->round = round;
      call->key = g_strdup (l->data);
      call->method = g_strdup (method);
      round->waiting++;

      mcp_client_ask_delegate (self, method, params, round->cancellable, input_call_done_cb, call);
    }

  if (--round->waiting == 0)
    input_round_finish (round);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client"

#include "config.h"

#include "mcp-client-private.h"
#include "mcp-error.h"
#include "mcp-json-private.h"

/* Progress callbacks are coalesced to at most one per this interval. */
#define PROGRESS_INTERVAL_US (50 * 1000)

/* Pending requests */

void
mcp_client_pending_free (Pending *pending)
{
  if (pending->progress_source != NULL)
    {
      g_source_destroy (pending->progress_source);
      g_source_unref (pending->progress_source);
    }
  if (pending->cancelled_id != 0)
    g_cancellable_disconnect (pending->cancellable, pending->cancelled_id);
  if (pending->progress_destroy != NULL)
    pending->progress_destroy (pending->progress_data);

  g_clear_object (&pending->cancellable);
  g_clear_object (&pending->task);
  g_clear_pointer (&pending->params, json_object_unref);
  g_free (pending->method);
  g_free (pending->progress_message);
  g_free (pending);
}

/* Takes @pending out of the tables and completes its task with @result or
 * @error. */
void
mcp_client_pending_complete (Pending    *pending,
                             JsonObject *result,
                             GError     *error)
{
  McpClient *self = pending->client;
  g_autoptr(GTask) task = g_steal_pointer (&pending->task);
  McpReplyFunc reply = pending->reply;
  gpointer reply_data = pending->reply_data;

  g_queue_remove (&self->waiting, pending);
  g_hash_table_steal (self->pending, &pending->id);
  mcp_client_pending_free (pending);

  if (task == NULL)
    {
      /* The reference a task would have held (pending_start()). */
      reply (self, result, error, reply_data);
      g_object_unref (self);
    }
  else if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, json_object_ref (result), (GDestroyNotify) json_object_unref);
}

/* Where a request's own sources run: its task's context, or for a request
 * ended by a plain function, the client's. */
static GMainContext *
pending_get_context (Pending *pending)
{
  return pending->task != NULL ? g_task_get_context (pending->task) : pending->client->context;
}

void
mcp_client_send_cancelled (McpClient  *self,
                           gint64      id,
                           const char *reason)
{
  g_autoptr(JsonObject) params = json_object_new ();

  json_object_set_int_member (params, "requestId", id);
  json_object_set_string_member (params, "reason", reason);
  mcp_client_notify (self, "notifications/cancelled", params, NULL);
}

static void pending_arm_timeout (Pending *pending);

static void
pending_time_out (Pending *pending)
{
  McpClient *self = pending->client;
  g_autofree char *reason = NULL;
  GError *error;

  /* A tool call may rightly take long; whoever listens can ask the person
   * whether to wait on instead of failing it. The request then waits
   * without a deadline until mcp_client_answer_overdue(). */
  if (g_str_equal (pending->method, "tools/call") && pending->sent)
    {
      gint64 id = pending->id;
      guint waited_ms = (guint) ((g_get_monotonic_time () - pending->started) / 1000);

      /* Marked before asking, so a handler may answer at once. */
      pending->overdue = TRUE;
      pending->deadline = G_MAXINT64;
      if (mcp_client_emit_request_overdue (self, id, pending->method, pending->params,
                                           waited_ms))
        return;

      pending = g_hash_table_lookup (self->pending, &id);
      if (pending == NULL)
        return;
      pending->overdue = FALSE;
    }

  if (pending->at_hard_limit)
    error = g_error_new (MCP_ERROR, MCP_ERROR_TIMEOUT,
                         "the server did not finish “%s” within the limit of %u s, "
                         "even though it reported progress",
                         pending->method, self->max_request_time_ms / 1000);
  else
    error = g_error_new (MCP_ERROR, MCP_ERROR_TIMEOUT,
                         "the server did not answer “%s” within %.3g s",
                         pending->method, pending->timeout_ms / 1000.0);

  reason = g_strdup (error->message);
  /* initialize must never be cancelled; the connection is dropped instead. */
  if (pending->sent && !g_str_equal (pending->method, "initialize"))
    mcp_client_send_cancelled (self, pending->id, reason);

  mcp_client_pending_complete (pending, NULL, error);
}

/* One timer serves every request: it is set to the earliest deadline when
 * a request would end before it, and looks at them all when it fires. A
 * request that ends early costs nothing here. */
static gboolean
deadline_cb (gpointer user_data)
{
  McpClient *self = MCP_CLIENT (user_data);
  g_autoptr(McpClient) hold = g_object_ref (self);
  g_autoptr(GList) expired = NULL;
  gint64 now = g_get_monotonic_time ();
  gint64 next = G_MAXINT64;
  GHashTableIter iter;
  Pending *pending;

  g_hash_table_iter_init (&iter, self->pending);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &pending))
    {
      if (pending->deadline <= now)
        expired = g_list_prepend (expired, pending);
      else
        next = MIN (next, pending->deadline);
    }

  self->next_deadline = next;
  g_source_set_ready_time (self->deadline_source, next == G_MAXINT64 ? -1 : next);

  for (GList *l = expired; l != NULL; l = l->next)
    pending_time_out (l->data);

  return G_SOURCE_CONTINUE;
}

static gboolean
deadline_dispatch (GSource     *source,
                   GSourceFunc  callback,
                   gpointer     user_data)
{
  return callback (user_data);
}

static GSourceFuncs deadline_funcs = {
  .dispatch = deadline_dispatch,
};

static void
pending_arm_timeout (Pending *pending)
{
  McpClient *self = pending->client;
  gint64 ends = g_get_monotonic_time () + (gint64) pending->timeout_ms * 1000;

  /* While the person decides, progress does not start a new timeout. */
  if (pending->overdue)
    return;

  /* A subscription stream has no deadline: it lasts until closed. */
  if (pending->timeout_ms == 0)
    {
      pending->deadline = G_MAXINT64;
      return;
    }

  pending->at_hard_limit = pending->hard_deadline <= ends;
  pending->deadline = MIN (ends, pending->hard_deadline);

  if (self->deadline_source == NULL)
    {
      self->deadline_source = g_source_new (&deadline_funcs, sizeof (GSource));
      g_source_set_callback (self->deadline_source, deadline_cb, self, NULL);
      g_source_set_static_name (self->deadline_source, "[mcp] request deadlines");
      g_source_attach (self->deadline_source, self->context);
    }

  if (pending->deadline < self->next_deadline)
    {
      self->next_deadline = pending->deadline;
      g_source_set_ready_time (self->deadline_source, pending->deadline);
    }
}

/**
 * mcp_client_get_request_cancellable:
 * @id: a request's id, as #McpClient::request-overdue gives it
 *
 * The cancellable the caller handed to the request is what tells one call
 * from another, two calls of the same tool among them; a handler of
 * #McpClient::request-overdue finds the call it speaks for by it.
 *
 * Returns: (transfer none) (nullable): the request's cancellable, or %NULL
 *   when it has none or has ended
 */
GCancellable *
mcp_client_get_request_cancellable (McpClient *self,
                                    gint64     id)
{
  Pending *pending;

  g_return_val_if_fail (MCP_IS_CLIENT (self), NULL);

  pending = g_hash_table_lookup (self->pending, &id);
  return pending != NULL ? pending->cancellable : NULL;
}

/**
 * mcp_client_answer_overdue:
 * @id: the id given by #McpClient::request-overdue
 * @keep_waiting: %TRUE to wait another timeout, %FALSE to stop the request
 *
 * Answers #McpClient::request-overdue. Waiting on starts the timeout again
 * (and moves the hard limit by as much, since the person chose it);
 * stopping fails the request with %MCP_ERROR_TIMEOUT and tells the server
 * with `notifications/cancelled`.
 *
 * Returns: %FALSE if the request had already ended
 */
gboolean
mcp_client_answer_overdue (McpClient *self,
                           gint64     id,
                           gboolean   keep_waiting)
{
  Pending *pending;

  g_return_val_if_fail (MCP_IS_CLIENT (self), FALSE);

  pending = g_hash_table_lookup (self->pending, &id);
  if (pending == NULL || !pending->overdue)
    return FALSE;

  pending->overdue = FALSE;
  if (keep_waiting)
    {
      pending->hard_deadline = MAX (pending->hard_deadline,
                                    g_get_monotonic_time () + (gint64) pending->timeout_ms * 1000);
      pending_arm_timeout (pending);
    }
  else
    {
      g_autofree char *method = g_strdup (pending->method);
      g_autofree char *reason = g_strdup_printf ("“%s” was stopped after it took too long",
                                                 method);

      mcp_client_send_cancelled (self, pending->id, reason);
      mcp_client_pending_complete (pending, NULL,
                                   g_error_new (MCP_ERROR, MCP_ERROR_TIMEOUT,
                                                "the server did not answer “%s” in time "
                                                "and it was stopped",
                                                method));
    }

  return TRUE;
}

static gboolean
pending_cancel_idle_cb (gpointer user_data)
{
  McpClient *self = MCP_CLIENT (user_data);
  g_autoptr(GList) cancelled = NULL;
  GHashTableIter iter;
  Pending *pending;

  /* Done here rather than in the "cancelled" handler, which runs with the
   * cancellable's lock held and so may not disconnect itself. */
  g_hash_table_iter_init (&iter, self->pending);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &pending))
    if (pending->cancellable != NULL && g_cancellable_is_cancelled (pending->cancellable))
      cancelled = g_list_prepend (cancelled, pending);

  for (GList *l = cancelled; l != NULL; l = l->next)
    {
      pending = l->data;
      if (pending->sent && !g_str_equal (pending->method, "initialize"))
        mcp_client_send_cancelled (self, pending->id, "cancelled by the user");
      mcp_client_pending_complete (pending, NULL,
                                   g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                        "the request was cancelled"));
    }

  return G_SOURCE_REMOVE;
}

static void
pending_cancelled_cb (GCancellable *cancellable,
                      gpointer      user_data)
{
  Pending *pending = user_data;
  g_autoptr(GSource) source = g_idle_source_new ();

  g_source_set_callback (source, pending_cancel_idle_cb,
                         g_object_ref (pending->client), g_object_unref);
  g_source_set_static_name (source, "[mcp] cancel request");
  g_source_attach (source, pending_get_context (pending));
}

static gboolean
progress_deliver_cb (gpointer user_data)
{
  Pending *pending = user_data;

  g_clear_pointer (&pending->progress_source, g_source_unref);
  pending->progress_delivered_at = g_get_monotonic_time ();
  pending->progress_func (pending->progress, pending->progress_total,
                          pending->progress_message, pending->progress_data);

  return G_SOURCE_REMOVE;
}

static void
pending_progress (Pending    *pending,
                  double      progress,
                  double      total,
                  const char *message)
{
  gint64 now = g_get_monotonic_time ();
  gint64 next = pending->progress_delivered_at + PROGRESS_INTERVAL_US;

  /* Progress shows the server is alive, so the timeout starts again, up to
   * the hard maximum. */
  pending_arm_timeout (pending);

  if (pending->progress_func == NULL)
    return;

  pending->progress = progress;
  pending->progress_total = total;
  g_free (pending->progress_message);
  pending->progress_message = g_strdup (message);

  if (pending->progress_source != NULL)
    return;

  if (now >= next)
    {
      pending->progress_delivered_at = now;
      pending->progress_func (progress, total, message, pending->progress_data);
      return;
    }

  pending->progress_source = g_timeout_source_new ((guint) ((next - now) / 1000) + 1);
  g_source_set_callback (pending->progress_source, progress_deliver_cb, pending, NULL);
  g_source_set_static_name (pending->progress_source, "[mcp] progress");
  g_source_attach (pending->progress_source, pending_get_context (pending));
}

void
mcp_client_fail_all_pending (McpClient  *self,
                             int         code,
                             const char *message)
{
  GList *values = g_hash_table_get_values (self->pending);

  for (GList *l = values; l != NULL; l = l->next)
    mcp_client_pending_complete (l->data, NULL, g_error_new_literal (MCP_ERROR, code, message));

  g_list_free (values);
}

/* Messages from the server */

void
mcp_client_handle_response (McpClient  *self,
                            McpMessage *message)
{
  Pending *pending = NULL;
  const char *result_type;
  JsonObject *result;
  gint64 id;

  if (mcp_message_get_id (message) == NULL)
    {
      /* An error without an id answers a request the server could not read;
       * when only one is outstanding, it must be that one. */
      if (g_hash_table_size (self->pending) == 1)
        {
          GHashTableIter iter;

          g_hash_table_iter_init (&iter, self->pending);
          g_hash_table_iter_next (&iter, NULL, (gpointer *) &pending);
        }
    }
  else if (mcp_message_get_int_id (message, &id))
    pending = g_hash_table_lookup (self->pending, &id);

  if (pending == NULL || !pending->sent)
    {
      g_autofree char *key = mcp_message_dup_id_string (message);

      self->n_ignored++;
      mcp_client_diagnostic (self, "ignored a response with an unknown id (%s)",
                             key ? key : "none");
      return;
    }

  if (mcp_message_get_kind (message) == MCP_MESSAGE_ERROR)
    {
      mcp_client_pending_complete (pending, NULL, mcp_message_to_gerror (message));
      return;
    }

  result = mcp_message_get_result (message);
  result_type = mcp_json_get_string (result, "resultType");

  /* No resultType is the handshake era's complete result. */
  if (result_type == NULL || g_str_equal (result_type, "complete"))
    mcp_client_pending_complete (pending, result, NULL);
  else if (g_str_equal (result_type, "task") && g_str_equal (pending->method, "tools/call"))
    mcp_client_pending_complete (pending, result, NULL);   /* followed in mcp-client-tasks.c */
  else if (g_str_equal (result_type, "input_required") &&
           (g_str_equal (pending->method, "tools/call") ||
            g_str_equal (pending->method, "prompts/get") ||
            g_str_equal (pending->method, "resources/read")))
    mcp_client_input_round_start (pending, result);
  else
    mcp_client_pending_complete (pending, NULL,
                                 g_error_new (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                              "the server answered “%s” with a result of type "
                                              "“%s”, which this client does not know",
                                              pending->method, result_type));
}

void
mcp_client_handle_progress (McpClient  *self,
                            JsonObject *params)
{
  JsonNode *token = params ? json_object_get_member (params, "progressToken") : NULL;
  Pending *pending = NULL;
  gint64 id;

  /* Our progress tokens are the ids of our requests. */
  if (token != NULL && JSON_NODE_HOLDS_VALUE (token) &&
      json_node_get_value_type (token) == G_TYPE_INT64)
    {
      id = json_node_get_int (token);
      pending = g_hash_table_lookup (self->pending, &id);
    }

  if (pending == NULL && mcp_client_tasks_take_progress (self, params))
    return;

  if (pending == NULL || !mcp_json_has_number (params, "progress"))
    {
      self->n_ignored++;
      mcp_client_diagnostic (self, "ignored progress for no running request");
      return;
    }

  pending_progress (pending,
                    mcp_json_get_number (params, "progress", 0),
                    mcp_json_get_number (params, "total", -1),
                    mcp_json_get_string (params, "message"));
}

/* Sending */

JsonObject *
mcp_client_copy_object (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), object);
  g_autoptr(JsonNode) copy = json_node_copy (node);

  return json_object_ref (json_node_get_object (copy));
}

/* Every request of the 2026-07-28 era says who sends it, which revision it
 * speaks and what the client can do: there is no session to remember it. */
static void
add_request_meta (McpClient  *self,
                  JsonObject *meta)
{
  json_object_set_string_member (meta, META_PROTOCOL_VERSION,
                                 mcp_revision_to_string (MCP_REVISION_2026_07_28));
  json_object_set_object_member (meta, META_CLIENT_INFO, json_object_ref (self->meta_client_info));
  json_object_set_object_member (meta, META_CLIENT_CAPS,
                                 json_object_ref (self->meta_capabilities));
  if (self->log_level != NULL)
    json_object_set_string_member (meta, META_LOG_LEVEL, self->log_level);
}

static void
send_pending (McpClient *self,
              Pending   *pending)
{
  g_autoptr(JsonNode) id = json_node_init_int (json_node_alloc (), pending->id);
  g_autoptr(McpMessage) message = NULL;
  g_autoptr(JsonObject) params = NULL;
  gboolean modern = self->modern || g_str_equal (pending->method, "server/discover");

  params = pending->params ? json_object_ref (pending->params) : NULL;

  if (pending->progress_func != NULL || modern)
    {
      JsonObject *meta;

      /* Add to a copy: the caller's params stay untouched. */
      if (params == NULL)
        params = json_object_new ();
      else
        {
          JsonObject *copy = mcp_client_copy_object (params);

          json_object_unref (params);
          params = copy;
        }

      meta = mcp_json_get_object (params, "_meta");
      if (meta == NULL)
        {
          meta = json_object_new ();
          json_object_set_object_member (params, "_meta", meta);
        }
      if (pending->progress_func != NULL)
        json_object_set_int_member (meta, "progressToken", pending->id);
      if (modern)
        add_request_meta (self, meta);
    }

  pending->sent = TRUE;
  message = mcp_message_new_request (id, pending->method, params);
  mcp_client_send_message (self, message, pending);
}

void
mcp_client_flush_waiting (McpClient *self)
{
  Pending *pending;

  while ((pending = g_queue_pop_head (&self->waiting)) != NULL)
    send_pending (self, pending);
}

/* Sends a request, which ends by completing @task or, without one, by
 * calling @reply. @internal requests (initialize, the discovery probe) go
 * out before the connection is ready; the others wait in the queue until
 * then. Takes the progress function's data either way. */
static void
pending_start (McpClient       *self,
               GTask           *task,
               McpReplyFunc     reply,
               gpointer         reply_data,
               GCancellable    *cancellable,
               const char      *method,
               JsonObject      *params,
               gboolean         internal,
               guint            timeout_ms,
               McpProgressFunc  progress_func,
               gpointer         progress_data,
               GDestroyNotify   progress_destroy,
               guint            rounds)
{
  GError *error = NULL;
  Pending *pending;

  if (self->state == MCP_CLIENT_STATE_CLOSING || self->state == MCP_CLIENT_STATE_CLOSED ||
      (self->state == MCP_CLIENT_STATE_DISCONNECTED && !internal))
    {
      if (self->error != NULL)
        error = g_error_new (MCP_ERROR, MCP_ERROR_CLOSED,
                             "the server is not connected: %s", self->error->message);
      else
        error = g_error_new (MCP_ERROR, MCP_ERROR_NOT_READY, "the server is not connected");
    }
  else
    g_cancellable_set_error_if_cancelled (cancellable, &error);

  if (error != NULL)
    {
      if (progress_destroy != NULL)
        progress_destroy (progress_data);
      if (task != NULL)
        g_task_return_error (task, error);
      else
        reply (self, NULL, error, reply_data);
      return;
    }

  pending = g_new0 (Pending, 1);
  pending->client = self;
  pending->id = self->next_id++;
  pending->method = g_strdup (method);
  pending->params = params ? json_object_ref (params) : NULL;
  pending->task = task != NULL ? g_object_ref (task) : NULL;
  /* A task holds the client while the request runs; without one, the
   * request holds it itself, until it ends. */
  if (task == NULL)
    g_object_ref (self);
  pending->reply = reply;
  pending->reply_data = reply_data;
  pending->timeout_ms = timeout_ms;
  pending->started = g_get_monotonic_time ();
  pending->hard_deadline = g_get_monotonic_time () +
                           (gint64) MAX (self->max_request_time_ms, timeout_ms) * 1000;
  pending->progress_func = progress_func;
  pending->progress_data = progress_data;
  pending->progress_destroy = progress_destroy;
  pending->progress_total = -1;
  pending->rounds = rounds;
  g_hash_table_insert (self->pending, &pending->id, pending);

  if (cancellable != NULL)
    {
      pending->cancellable = g_object_ref (cancellable);
      pending->cancelled_id = g_cancellable_connect (cancellable,
                                                     G_CALLBACK (pending_cancelled_cb),
                                                     pending, NULL);
    }

  pending_arm_timeout (pending);

  if (internal || self->state == MCP_CLIENT_STATE_READY)
    send_pending (self, pending);
  else
    g_queue_push_tail (&self->waiting, pending);
}

/* Sends a request for @task, which it completes. */
void
mcp_client_pending_start (McpClient       *self,
                          GTask           *task,
                          const char      *method,
                          JsonObject      *params,
                          gboolean         internal,
                          guint            timeout_ms,
                          McpProgressFunc  progress_func,
                          gpointer         progress_data,
                          GDestroyNotify   progress_destroy,
                          guint            rounds)
{
  pending_start (self, task, NULL, NULL, g_task_get_cancellable (task), method, params,
                 internal, timeout_ms, progress_func, progress_data, progress_destroy, rounds);
}

/* Sends a request that ends by calling @reply, with no task of its own. */
void
mcp_client_pending_start_reply (McpClient       *self,
                                McpReplyFunc     reply,
                                gpointer         reply_data,
                                GCancellable    *cancellable,
                                const char      *method,
                                JsonObject      *params,
                                guint            timeout_ms,
                                McpProgressFunc  progress_func,
                                gpointer         progress_data,
                                GDestroyNotify   progress_destroy,
                                guint            rounds)
{
  pending_start (self, NULL, reply, reply_data, cancellable, method, params, FALSE,
                 timeout_ms, progress_func, progress_data, progress_destroy, rounds);
}

void
mcp_client_start_request (McpClient           *self,
                          const char          *method,
                          JsonObject          *params,
                          gboolean             internal,
                          guint                timeout_ms,
                          McpProgressFunc      progress_func,
                          gpointer             progress_data,
                          GDestroyNotify       progress_destroy,
                          GCancellable        *cancellable,
                          gpointer             source_tag,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, source_tag);
  mcp_client_pending_start (self, task, method, params, internal, timeout_ms,
                            progress_func, progress_data, progress_destroy, 0);
}

JsonObject *
mcp_client_finish_request (McpClient     *self,
                           GAsyncResult  *result,
                           gpointer       source_tag,
                           GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * mcp_client_request_async:
 * @progress_func: (nullable): asks the server for progress, delivered here
 *
 * Sends a request and waits for its answer, with the client's timeout
 * (started again by progress, up to the hard maximum). Cancelling
 * @cancellable tells the server with `notifications/cancelled`.
 */
void
mcp_client_request_async (McpClient           *self,
                          const char          *method,
                          JsonObject          *params,
                          McpProgressFunc      progress_func,
                          gpointer             progress_data,
                          GDestroyNotify       progress_destroy,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (method != NULL);

  mcp_client_start_request (self, method, params, FALSE, self->request_timeout_ms,
                            progress_func, progress_data, progress_destroy, cancellable,
                            mcp_client_request_async, callback, user_data);
}

/**
 * mcp_client_request_finish:
 *
 * Returns: (transfer full): the result object, or %NULL with the peer's
 *   JSON-RPC error (in %MCP_ERROR with its code) or a local one
 */
JsonObject *
mcp_client_request_finish (McpClient     *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  return mcp_client_finish_request (self, result, mcp_client_request_async, error);
}

gboolean
mcp_client_notify (McpClient   *self,
                   const char  *method,
                   JsonObject  *params,
                   GError     **error)
{
  g_autoptr(McpMessage) message = NULL;

  g_return_val_if_fail (MCP_IS_CLIENT (self), FALSE);
  g_return_val_if_fail (method != NULL, FALSE);

  if (self->state != MCP_CLIENT_STATE_READY && self->state != MCP_CLIENT_STATE_INITIALIZING)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_NOT_READY,
                   "cannot send “%s”: the server is not connected", method);
      return FALSE;
    }

  message = mcp_message_new_notification (method, params);
  mcp_client_send_message (self, message, NULL);
  return TRUE;
}

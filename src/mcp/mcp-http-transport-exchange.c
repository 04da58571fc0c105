/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-http-transport"

#include "config.h"

#include <string.h>

#include "mcp-http-transport-private.h"
#include "mcp-error.h"
#include "mcp-format-private.h"
#include "mcp-http-util-private.h"
#include "mcp-json.h"
#include "mcp-json-private.h"
#include "mcp-line-framer.h"
#include "mcp-revision.h"

/* Exchanges and streams */

Exchange *
mcp_http_transport_exchange_new (McpHttpTransport *self,
                                 Role              role,
                                 Stream           *stream)
{
  Exchange *ex = g_new0 (Exchange, 1);

  ex->ref_count = 1;
  ex->self = self;
  ex->role = role;
  ex->stream = stream;
  ex->cancellable = g_cancellable_new ();

  if (stream != NULL)
    stream->exchange = ex;

  return ex;
}

Exchange *
mcp_http_transport_exchange_ref (Exchange *ex)
{
  ex->ref_count++;
  return ex;
}

void
mcp_http_transport_exchange_unref (Exchange *ex)
{
  if (--ex->ref_count > 0)
    return;

  g_assert (ex->self == NULL);
  g_assert (ex->task == NULL);

  if (ex->body != NULL)
    {
      /* Closing a reply that was not read to its end must not wait for the
       * rest of it: libsoup then drops the connection instead. */
      if (!ex->at_eof)
        g_cancellable_cancel (ex->cancellable);
      g_input_stream_close (ex->body, ex->at_eof ? NULL : ex->cancellable, NULL);
      g_clear_object (&ex->body);
    }

  mcp_clear_source (&ex->timer);
  g_clear_pointer (&ex->message, mcp_message_unref);
  g_clear_object (&ex->msg);
  g_clear_object (&ex->cancellable);
  g_free (ex->data);
  g_clear_pointer (&ex->parser, mcp_sse_parser_free);
  g_free (ex->session);
  g_free (ex->abort_reason);
  g_free (ex);
}

typedef struct {
  GTask  *task;
  GError *error;
} Completion;

static gboolean
complete_cb (gpointer user_data)
{
  Completion *completion = user_data;

  if (completion->error != NULL)
    g_task_return_error (completion->task, completion->error);
  else
    g_task_return_boolean (completion->task, TRUE);
  g_object_unref (completion->task);
  g_free (completion);

  return G_SOURCE_REMOVE;
}

/* A send is completed from an idle of its own, so that a caller's callback
 * never runs in the middle of the transport's bookkeeping. */
void
mcp_http_transport_exchange_complete_task (Exchange   *ex,
                                           int         code,
                                           const char *failure)
{
  Completion *completion;
  GSource *source;

  if (ex->task == NULL)
    return;

  completion = g_new0 (Completion, 1);
  completion->task = g_steal_pointer (&ex->task);
  if (failure != NULL)
    completion->error = g_error_new_literal (MCP_ERROR, code, failure);

  source = g_idle_source_new ();
  g_source_set_callback (source, complete_cb, completion, NULL);
  g_source_attach (source, g_task_get_context (completion->task));
  g_source_unref (source);
}

/* Ends the exchange's part in the transport: its callbacks in flight find
 * it detached and stop, and its body is closed once the last of them has
 * returned. A task still waiting is told @failure, or success without. */
void
mcp_http_transport_exchange_detach (Exchange   *ex,
                                    const char *failure)
{
  McpHttpTransport *self = ex->self;

  if (self == NULL)
    return;

  mcp_http_transport_exchange_complete_task (ex, MCP_ERROR_CLOSED, failure);
  mcp_clear_source (&ex->timer);

  /* Refused or failed, it opens no stream; what it held goes out. */
  if (ex->opens_listen)
    {
      ex->opens_listen = FALSE;
      mcp_http_transport_release_held (self);
    }

  if (ex->stream != NULL && ex->stream->exchange == ex)
    {
      ex->stream->exchange = NULL;
      ex->stream->open = FALSE;
    }
  ex->stream = NULL;
  ex->self = NULL;
  g_cancellable_cancel (ex->cancellable);

  /* Last: the list's reference may be the last one. */
  g_ptr_array_remove_fast (self->exchanges, ex);
}

/* The exchange is given up; the callback in flight sees it cancelled and
 * reports the reason. */
static gboolean
exchange_timeout_cb (gpointer user_data)
{
  Exchange *ex = user_data;
  g_autofree char *duration = mcp_format_duration (ex->timer_ms);

  g_clear_pointer (&ex->timer, g_source_unref);
  g_free (ex->abort_reason);

  switch (ex->wait)
    {
    case WAIT_HEADERS:
      ex->abort_reason = g_strdup_printf ("the server did not answer within %s", duration);
      break;

    case WAIT_BODY:
      ex->abort_reason = g_strdup_printf ("the server did not finish its reply within %s",
                                          duration);
      break;

    case WAIT_EVENT:
    default:
      ex->abort_reason = g_strdup_printf ("the server sent no complete event for %s", duration);
      break;
    }

  g_cancellable_cancel (ex->cancellable);

  return G_SOURCE_REMOVE;
}

void
mcp_http_transport_exchange_arm_timer (Exchange *ex,
                                       guint     timeout_ms,
                                       Wait      wait)
{
  mcp_clear_source (&ex->timer);
  ex->wait = wait;
  ex->timer_ms = timeout_ms;
  ex->timer = mcp_http_transport_schedule (ex->self, timeout_ms, exchange_timeout_cb, ex);
}

/* The exchange has given what it was for; its body is read to the end
 * without being looked at, so that the connection can carry the next
 * request. Its stream, if any, is no longer its business. */
void
mcp_http_transport_exchange_drain (Exchange *ex)
{
  mcp_http_transport_exchange_complete_task (ex, 0, NULL);

  if (ex->stream != NULL && ex->stream->exchange == ex)
    {
      ex->stream->exchange = NULL;
      ex->stream->open = FALSE;
    }
  ex->stream = NULL;
  ex->body_kind = BODY_DRAIN;
  ex->length = 0;

  if (ex->reading)
    {
      mcp_http_transport_exchange_arm_timer (ex, DRAIN_TIMEOUT_MS, WAIT_BODY);
      return;
    }

  /* The end is usually there already (the last chunk came with the
   * answer): taken now, the connection is free before the caller, told
   * of the answer, sends its next request. */
  if (G_IS_POLLABLE_INPUT_STREAM (ex->body) &&
      g_pollable_input_stream_can_poll (G_POLLABLE_INPUT_STREAM (ex->body)))
    {
      g_autoptr(GError) error = NULL;
      char buffer[1024];
      gssize n;

      while ((n = g_pollable_input_stream_read_nonblocking (G_POLLABLE_INPUT_STREAM (ex->body),
                                                            buffer, sizeof buffer, NULL,
                                                            &error)) > 0 &&
             ex->length <= DRAIN_MAX)
        ex->length += n;

      if (n == 0)
        ex->at_eof = TRUE;
      if (n == 0 || ex->length > DRAIN_MAX ||
          !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK))
        {
          mcp_http_transport_exchange_detach (ex, NULL);
          return;
        }
    }

  mcp_http_transport_exchange_arm_timer (ex, DRAIN_TIMEOUT_MS, WAIT_BODY);
  mcp_http_transport_exchange_read (ex);
}

Stream *
mcp_http_transport_stream_new (McpHttpTransport *self,
                               const char       *key,
                               JsonNode         *id,
                               const char       *method)
{
  Stream *stream = g_new0 (Stream, 1);

  stream->self = self;
  stream->key = g_strdup (key);
  stream->id = id != NULL ? json_node_copy (id) : NULL;
  stream->method = g_strdup (method);
  stream->retry_ms = -1;
  stream->backoff_ms = FIRST_BACKOFF_MS;

  return stream;
}

void
mcp_http_transport_stream_free (Stream *stream)
{
  mcp_clear_source (&stream->timer);
  if (stream->exchange != NULL)
    mcp_http_transport_exchange_detach (stream->exchange,
                                        "the connection to the server was closed");
  g_free (stream->key);
  g_clear_pointer (&stream->id, json_node_unref);
  g_free (stream->method);
  g_free (stream->last_event_id);
  g_free (stream->end_cause);
  g_free (stream);
}

/* Forgets a stream: answered, failed, cancelled or given up. Its exchange,
 * if any, is abandoned; a POST still waiting for its headers was evidently
 * delivered if the stream was answered. */
void
mcp_http_transport_stream_remove (McpHttpTransport *self,
                                  Stream           *stream,
                                  const char       *failure)
{
  if (stream->exchange != NULL)
    mcp_http_transport_exchange_detach (stream->exchange, failure);

  if (stream->ended)
    self->n_ended--;

  if (stream == self->listen)
    {
      self->listen = NULL;
      mcp_http_transport_stream_free (stream);
      mcp_http_transport_release_held (self);
    }
  else
    g_hash_table_remove (self->requests, stream->key);
}

/* Sending */

/* The POST of the exchange's message, ready to go; again for a resend. */
void
mcp_http_transport_post_prepare (McpHttpTransport *self,
                                 Exchange         *ex)
{
  GBytes *line = mcp_message_get_line (ex->message);
  g_autoptr(GBytes) bytes = NULL;

  g_clear_object (&ex->msg);
  g_clear_pointer (&ex->session, g_free);
  ex->msg = soup_message_new_from_uri ("POST", base_uri (self));

  /* The body is the traced text without its newline: a view, not a copy. */
  bytes = g_bytes_new_from_bytes (line, 0, g_bytes_get_size (line) - 1);
  soup_message_set_request_body_from_bytes (ex->msg, "application/json", bytes);

  mcp_http_transport_apply_headers (self, ex);

  /* Without this libsoup opens a new connection for every POST; with it,
   * a POST goes on a connection kept from an earlier exchange, and is
   * still never repeated by libsoup when that connection breaks. */
  soup_message_add_flags (ex->msg, SOUP_MESSAGE_IDEMPOTENT);
}

void
mcp_http_transport_exchange_begin (McpHttpTransport *self,
                                   Exchange         *ex)
{
  guint timeout_ms = ex->role == ROLE_DELETE ? MCP_HTTP_DELETE_TIMEOUT_MS
                                              : base_idle_timeout (self);

  mcp_http_transport_exchange_arm_timer (ex, timeout_ms, WAIT_HEADERS);

  soup_session_send_async (self->session, ex->msg, G_PRIORITY_DEFAULT, ex->cancellable,
                           mcp_http_transport_exchange_sent_cb,
                           mcp_http_transport_exchange_ref (ex));
}

void
mcp_http_transport_exchange_start (McpHttpTransport *self,
                                   Exchange         *ex)
{
  g_ptr_array_add (self->exchanges, ex);

  if (self->hold_source != NULL && ex->role == ROLE_POST)
    {
      g_queue_push_tail (&self->held, mcp_http_transport_exchange_ref (ex));
      return;
    }

  mcp_http_transport_exchange_begin (self, ex);
}

/* The GET stream is open, refused or failed: what waited for it goes out,
 * in order, but for what was given up meanwhile. */
void
mcp_http_transport_release_held (McpHttpTransport *self)
{
  Exchange *ex;

  mcp_clear_source (&self->hold_source);
  while ((ex = g_queue_pop_head (&self->held)) != NULL)
    {
      if (ex->self != NULL)
        mcp_http_transport_exchange_begin (self, ex);
      mcp_http_transport_exchange_unref (ex);
    }
}

gboolean
mcp_http_transport_hold_expired_cb (gpointer user_data)
{
  McpHttpTransport *self = MCP_HTTP_TRANSPORT (user_data);

  g_clear_pointer (&self->hold_source, g_source_unref);
  mcp_http_transport_release_held (self);

  return G_SOURCE_REMOVE;
}

void
mcp_http_transport_start_get (McpHttpTransport *self,
                              Stream           *stream)
{
  Exchange *ex = mcp_http_transport_exchange_new (self,
                                                  stream == self->listen ? ROLE_LISTEN : ROLE_RESUME,
                                                  stream);

  ex->msg = soup_message_new_from_uri ("GET", base_uri (self));
  mcp_http_transport_apply_headers (self, ex);
  mcp_http_transport_exchange_start (self, ex);
}

void
mcp_http_transport_send_delete (McpHttpTransport *self)
{
  Exchange *ex = mcp_http_transport_exchange_new (self, ROLE_DELETE, NULL);

  self->delete_pending = TRUE;
  ex->msg = soup_message_new_from_uri ("DELETE", base_uri (self));
  mcp_http_transport_apply_headers (self, ex);
  mcp_http_transport_exchange_start (self, ex);
}

void
mcp_http_transport_open_listen (McpHttpTransport *self)
{
  if (self->state != STATE_RUNNING || self->stateless || self->listen != NULL)
    return;

  self->listen = mcp_http_transport_stream_new (self, NULL, NULL, NULL);
  if (self->hold_source == NULL)
    self->hold_source = mcp_http_transport_schedule (self, LISTEN_WAIT_MS,
                                                     mcp_http_transport_hold_expired_cb, self);
  mcp_http_transport_start_get (self, self->listen);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-sse-transport"

#include "config.h"

#include <string.h>

#include "mcp-sse-transport-private.h"
#include "mcp-error.h"
#include "mcp-format-private.h"
#include "mcp-http-util-private.h"
#include "mcp-line-framer.h"
#include "mcp-revision.h"

/* Bytes asked for per read of the event stream. */
#define READ_CHUNK (64 * 1024)

/* Stop reading the stream while this many large messages wait for the
 * parser, so that a server sending big messages faster than they parse
 * cannot grow the queue without bound; TCP then pushes back on it. */
#define MAX_PENDING_TEXTS 4

void
mcp_sse_transport_emit_closed (McpSseTransport *self,
                               const GError    *error)
{
  if (self->closed_emitted)
    return;

  self->closed_emitted = TRUE;
  mcp_transport_emit_closed (MCP_TRANSPORT (self), error);
}

/* The connection */

static void
close_stream (McpSseTransport *self)
{
  /* A read still pending closes the stream when it comes back cancelled;
   * closing a stream before its end drops the connection without reading
   * the rest. */
  if (self->stream != NULL && !self->reading)
    g_input_stream_close (self->stream, NULL, NULL);
  g_clear_object (&self->stream);
  g_clear_object (&self->stream_message);
}

/* Lets go of everything: the stream, the timers and every message not yet
 * accepted. Signals are the caller's business. */
void
mcp_sse_transport_stop (McpSseTransport *self)
{
  Post *post;

  self->state = STATE_CLOSED;
  g_cancellable_cancel (self->cancellable);
  mcp_clear_source (&self->start_cancel_source);
  mcp_clear_source (&self->endpoint_source);
  mcp_clear_source (&self->idle_source);
  mcp_clear_source (&self->finish_source);
  mcp_clear_source (&self->post_timeout_source);
  close_stream (self);
  g_clear_error (&self->ended);

  self->post_in_flight = NULL;
  while ((post = g_queue_pop_head (&self->post_queue)) != NULL)
    {
      mcp_sse_transport_post_abandon (post);
      mcp_sse_transport_post_free (post);
    }
  while (self->live_posts->len > 0)
    {
      post = g_ptr_array_steal_index_fast (self->live_posts, self->live_posts->len - 1);
      post->self = NULL;
      mcp_sse_transport_post_abandon (post);
      g_cancellable_cancel (post->cancellable);
    }

  if (self->reader != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->reader, self);
      g_clear_object (&self->reader);
    }
}

void
mcp_sse_transport_fail_start (McpSseTransport *self,
                              GError          *error)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->start_task);

  mcp_sse_transport_stop (self);

  if (task != NULL)
    g_task_return_error (task, error);
  else
    g_error_free (error);
}

/* Ends the connection for @error, whatever state it is in. */
static void
end_connection (McpSseTransport *self,
                GError          *error)
{
  if (self->state == STATE_CONNECTING)
    {
      mcp_sse_transport_fail_start (self, error);
      return;
    }

  if (self->state == STATE_OPEN)
    {
      mcp_sse_transport_stop (self);
      mcp_sse_transport_emit_closed (self, error);
    }

  g_error_free (error);
}

/* Once the stream has ended, "closed" waits until every message the
 * server sent before has been delivered. */
static void
try_finish (McpSseTransport *self)
{
  if (self->state != STATE_OPEN || self->ended == NULL)
    return;

  if (self->reader != NULL && mcp_message_reader_get_n_pending (self->reader) > 0)
    return;

  end_connection (self, g_steal_pointer (&self->ended));
}

static gboolean
finish_cb (gpointer user_data)
{
  McpSseTransport *self = MCP_SSE_TRANSPORT (user_data);
  g_autoptr(McpSseTransport) hold = g_object_ref (self);

  g_clear_pointer (&self->finish_source, g_source_unref);
  try_finish (self);

  return G_SOURCE_REMOVE;
}

static void
schedule_finish (McpSseTransport *self)
{
  if (self->ended != NULL && self->finish_source == NULL)
    self->finish_source = mcp_sse_transport_schedule (self, 0, finish_cb,
                                                      "[mcp] event stream ended");
}

/* The stream ended, with @error or at its end (%NULL). */
static void
stream_ended (McpSseTransport *self,
              GError          *error)
{
  if (self->state == STATE_CONNECTING)
    {
      if (error == NULL)
        error = g_error_new (MCP_ERROR, MCP_ERROR_CLOSED,
                             "%s closed the event stream before naming the endpoint to post "
                             "messages to; is this the SSE endpoint of an MCP server?",
                             self->description);
      mcp_sse_transport_fail_start (self, error);
      return;
    }

  if (self->state != STATE_OPEN || self->ended != NULL)
    {
      g_clear_error (&error);
      return;
    }

  if (error == NULL)
    error = g_error_new_literal (MCP_ERROR, MCP_ERROR_CLOSED,
                                 "the server closed the event stream; a legacy HTTP+SSE "
                                 "connection cannot be resumed");

  self->ended = error;
  close_stream (self);
  mcp_clear_source (&self->idle_source);
  try_finish (self);
}

static void
open_connection (McpSseTransport *self)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->start_task);

  self->state = STATE_OPEN;
  mcp_clear_source (&self->endpoint_source);
  mcp_clear_source (&self->start_cancel_source);

  g_task_return_boolean (task, TRUE);
}

static void
handle_endpoint (McpSseTransport   *self,
                 const McpSseEvent *event)
{
  g_autoptr(GUri) endpoint = NULL;
  g_autoptr(GError) error = NULL;

  if (self->endpoint_uri != NULL)
    {
      if (!self->told_ignored_endpoint)
        {
          g_autofree char *first = mcp_sse_transport_describe_uri (self->endpoint_uri, TRUE);

          mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "ignored another endpoint event from the server; messages still "
                      "go to the first endpoint, %s", first);
          self->told_ignored_endpoint = TRUE;
        }
      return;
    }

  if (memchr (event->data, '\0', event->data_length) == NULL)
    endpoint = g_uri_parse_relative (mcp_http_transport_base_get_uri (MCP_HTTP_TRANSPORT_BASE (self)),
                                     event->data, SOUP_HTTP_URI_FLAGS, &error);

  if (endpoint == NULL)
    {
      g_autofree char *quoted = mcp_sse_transport_quote_text (event->data, event->data_length);

      mcp_sse_transport_fail_start (self,
                                    g_error_new (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                                 "the server named an endpoint that is not a URL "
                                                 "(“%s”); nothing was sent", quoted));
      return;
    }

  if (!mcp_http_same_origin (mcp_http_transport_base_get_uri (MCP_HTTP_TRANSPORT_BASE (self)),
                             endpoint))
    {
      g_autofree char *origin = mcp_sse_transport_describe_uri (endpoint, FALSE);

      mcp_sse_transport_fail_start (self,
                                    g_error_new (MCP_ERROR, MCP_ERROR_FORBIDDEN_ORIGIN,
                                                 "the server named an endpoint on another origin "
                                                 "(%s); nothing was sent", origin));
      return;
    }

  self->endpoint_uri = g_steal_pointer (&endpoint);
  self->endpoint = g_uri_to_string (self->endpoint_uri);
  open_connection (self);
}

static void
event_cb (const McpSseEvent *event,
          gpointer           user_data)
{
  McpSseTransport *self = MCP_SSE_TRANSPORT (user_data);

  /* A handler may have ended the connection in the middle of a chunk. */
  if (self->state != STATE_CONNECTING && self->state != STATE_OPEN)
    return;

  if (g_str_equal (event->type, "endpoint"))
    {
      handle_endpoint (self, event);
      return;
    }

  if (!g_str_equal (event->type, "message"))
    {
      if (!self->told_ignored_type)
        {
          g_autofree char *type = mcp_sse_transport_quote_text (event->type, -1);

          mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "ignored an event of type “%s”; only message and endpoint events "
                      "mean something on this transport", type);
          self->told_ignored_type = TRUE;
        }
      return;
    }

  if (self->endpoint_uri == NULL)
    {
      mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "ignored a message the server sent before it named its endpoint");
      return;
    }

  mcp_message_reader_push (self->reader, event->data, event->data_length);
}

static void
stream_read_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  GInputStream *stream = G_INPUT_STREAM (object);
  g_autoptr(McpSseTransport) self = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  const char *data;
  gsize length;

  bytes = g_input_stream_read_bytes_finish (stream, result, &error);

  /* The transport let go of the stream while this read was pending. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_input_stream_close (stream, NULL, NULL);
      return;
    }

  self = g_object_ref (MCP_SSE_TRANSPORT (user_data));
  self->reading = FALSE;

  if (bytes == NULL)
    {
      stream_ended (self, g_error_new (MCP_ERROR, MCP_ERROR_CLOSED,
                                       "the event stream from %s broke: %s",
                                       self->description, error->message));
      return;
    }

  data = g_bytes_get_data (bytes, &length);
  if (length == 0)
    {
      mcp_sse_parser_finish (self->parser);
      stream_ended (self, NULL);
      return;
    }

  self->last_activity = g_get_monotonic_time ();

  if (!mcp_sse_parser_push (self->parser, data, length, event_cb, self, &error))
    {
      g_autofree char *cap =
        mcp_format_size (mcp_http_transport_base_get_max_message_size (MCP_HTTP_TRANSPORT_BASE (self)));

      if (g_error_matches (error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE))
        end_connection (self, g_error_new (MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE,
                                           "the server sent an event larger than the %s limit "
                                           "on its event stream; the connection was closed",
                                           cap));
      else
        end_connection (self, g_error_new (MCP_ERROR, MCP_ERROR_CLOSED,
                                           "could not read the event stream: %s",
                                           error->message));
      return;
    }

  mcp_sse_transport_read_stream (self);
}

void
mcp_sse_transport_read_stream (McpSseTransport *self)
{
  if (self->stream == NULL || self->reading || self->ended != NULL ||
      (self->state != STATE_CONNECTING && self->state != STATE_OPEN))
    return;

  if (mcp_message_reader_get_n_pending (self->reader) >= MAX_PENDING_TEXTS)
    return;

  self->reading = TRUE;
  g_input_stream_read_bytes_async (self->stream, READ_CHUNK, G_PRIORITY_DEFAULT,
                                   self->cancellable, stream_read_cb, self);
}

static gboolean
idle_cb (gpointer user_data)
{
  McpSseTransport *self = MCP_SSE_TRANSPORT (user_data);
  g_autoptr(McpSseTransport) hold = g_object_ref (self);
  g_autofree char *duration = NULL;
  gint64 now = g_get_monotonic_time ();
  guint idle_timeout_ms = mcp_http_transport_base_get_idle_timeout (MCP_HTTP_TRANSPORT_BASE (self));
  gint64 limit_us = (gint64) idle_timeout_ms * 1000;

  g_clear_pointer (&self->idle_source, g_source_unref);

  /* Not reading because messages wait for the parser is not silence. */
  if (!self->reading)
    self->last_activity = now;

  if (now - self->last_activity < limit_us)
    {
      guint remaining_ms = (guint) ((limit_us - (now - self->last_activity) + 999) / 1000);

      self->idle_source = mcp_sse_transport_schedule (self, remaining_ms, idle_cb,
                                                      "[mcp] event stream idle");
      return G_SOURCE_REMOVE;
    }

  duration = mcp_format_duration (idle_timeout_ms);
  end_connection (self, g_error_new (MCP_ERROR, MCP_ERROR_TIMEOUT,
                                     "the event stream from %s was silent for %s, so the "
                                     "connection was taken as dead and closed",
                                     self->description, duration));

  return G_SOURCE_REMOVE;
}

void
mcp_sse_transport_stream_sent_cb (GObject      *object,
                                  GAsyncResult *result,
                                  gpointer      user_data)
{
  g_autoptr(McpSseTransport) self = NULL;
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  SoupMessageHeaders *headers;
  const char *content_type;
  guint idle_timeout_ms;
  guint status;

  stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = g_object_ref (MCP_SSE_TRANSPORT (user_data));

  if (stream == NULL)
    {
      int code = MCP_ERROR_CLOSED;

      /* As the Streamable HTTP transport does: a wrong address or
       * certificate is told apart from a broken link. */
      if (error->domain == G_TLS_ERROR)
        code = MCP_ERROR_TLS;
      else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED) ||
               g_error_matches (error, G_IO_ERROR, G_IO_ERROR_HOST_NOT_FOUND) ||
               g_error_matches (error, G_IO_ERROR, G_IO_ERROR_HOST_UNREACHABLE) ||
               g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NETWORK_UNREACHABLE) ||
               error->domain == G_RESOLVER_ERROR)
        code = MCP_ERROR_UNREACHABLE;

      mcp_sse_transport_fail_start (self, g_error_new (MCP_ERROR, code,
                                                       "could not connect to %s: %s",
                                                       self->description, error->message));
      return;
    }

  status = soup_message_get_status (self->stream_message);
  headers = soup_message_get_response_headers (self->stream_message);

  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      g_input_stream_close (stream, NULL, NULL);
      mcp_sse_transport_fail_start (self, mcp_sse_transport_stream_status_error (self, status,
                                                                                 headers));
      return;
    }

  content_type = soup_message_headers_get_content_type (headers, NULL);
  if (content_type == NULL || g_ascii_strcasecmp (content_type, "text/event-stream") != 0)
    {
      g_autofree char *quoted = content_type != NULL ? mcp_sse_transport_quote_text (content_type,
                                                                                     -1) : NULL;

      g_input_stream_close (stream, NULL, NULL);
      mcp_sse_transport_fail_start (self,
                                    g_error_new (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                                 "%s answered with %s%s instead of an event stream "
                                                 "(text/event-stream); is this the SSE endpoint of "
                                                 "an MCP server?", self->description,
                                                 quoted != NULL ? "content of type "
                                                                : "content of no type",
                                                 quoted != NULL ? quoted : ""));
      return;
    }

  self->stream = g_steal_pointer (&stream);
  self->last_activity = g_get_monotonic_time ();
  idle_timeout_ms = mcp_http_transport_base_get_idle_timeout (MCP_HTTP_TRANSPORT_BASE (self));
  if (idle_timeout_ms > 0)
    self->idle_source = mcp_sse_transport_schedule (self, idle_timeout_ms, idle_cb,
                                                    "[mcp] event stream idle");

  mcp_sse_transport_read_stream (self);
}

gboolean
mcp_sse_transport_endpoint_timeout_cb (gpointer user_data)
{
  McpSseTransport *self = MCP_SSE_TRANSPORT (user_data);
  g_autoptr(McpSseTransport) hold = g_object_ref (self);
  g_autofree char *duration = mcp_format_duration (self->endpoint_timeout_ms);

  g_clear_pointer (&self->endpoint_source, g_source_unref);

  if (self->stream == NULL)
    mcp_sse_transport_fail_start (self,
                                  g_error_new (MCP_ERROR, MCP_ERROR_TIMEOUT,
                                               "%s did not answer the event-stream request "
                                               "within %s", self->description, duration));
  else
    mcp_sse_transport_fail_start (self,
                                  g_error_new (MCP_ERROR, MCP_ERROR_TIMEOUT,
                                               "%s did not name the endpoint to post messages to "
                                               "within %s of opening the event stream",
                                               self->description, duration));

  return G_SOURCE_REMOVE;
}

gboolean
mcp_sse_transport_start_cancelled_cb (GCancellable *cancellable,
                                      gpointer      user_data)
{
  McpSseTransport *self = MCP_SSE_TRANSPORT (user_data);
  g_autoptr(McpSseTransport) hold = g_object_ref (self);

  g_clear_pointer (&self->start_cancel_source, g_source_unref);
  mcp_sse_transport_fail_start (self,
                                g_error_new (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                             "connecting to %s was cancelled", self->description));

  return G_SOURCE_REMOVE;
}

void
mcp_sse_transport_reader_message_cb (McpSseTransport *self,
                                     McpMessage      *message)
{
  if (self->state == STATE_OPEN)
    mcp_transport_emit_message (MCP_TRANSPORT (self), message);

  mcp_sse_transport_read_stream (self);
  schedule_finish (self);
}

void
mcp_sse_transport_reader_invalid_cb (McpSseTransport *self,
                                     const GError    *error,
                                     const char      *excerpt)
{
  if (g_error_matches (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE))
    mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "dropped an event that is not a JSON-RPC message: %s (%s)",
                excerpt, error->message);
  else
    mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "dropped an event that is not JSON: %s (%s)", excerpt, error->message);

  mcp_sse_transport_read_stream (self);
  schedule_finish (self);
}

void
mcp_sse_transport_reader_misbehaving_cb (McpSseTransport *self,
                                         const GError    *error)
{
  end_connection (self, g_error_new (MCP_ERROR, MCP_ERROR_MISBEHAVING,
                                     "%s; the connection was closed", error->message));
}

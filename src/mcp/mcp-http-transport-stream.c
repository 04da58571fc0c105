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

/* Bytes asked for per read of a reply body. */
#define READ_CHUNK (64 * 1024)

/* Of the body of a refusal (a status other than 2xx) no more is read than
 * this: it only serves the excerpt and a JSON-RPC error it may hold. */
#define REFUSAL_BODY_MAX (64 * 1024)

/* How long the body of a refusal may take; what came by then is quoted. */
#define REFUSAL_BODY_TIMEOUT_MS 10000

/* Delivering */

void
mcp_http_transport_emit_closed (McpHttpTransport *self,
                                const GError     *error)
{
  if (self->closed_emitted)
    return;

  self->closed_emitted = TRUE;
  mcp_transport_emit_closed (MCP_TRANSPORT (self), error);
}

static gboolean
reader_busy (McpHttpTransport *self)
{
  return self->reader != NULL && mcp_message_reader_get_n_pending (self->reader) > 0;
}

/* A message made here (an error response for a request that failed) goes
 * out behind whatever the reader still parses, so that a stream's messages
 * keep their order. */
static void
deliver_local (McpHttpTransport *self,
               McpMessage       *message)
{
  if (self->closed_emitted)
    return;

  if (reader_busy (self))
    {
      g_queue_push_tail (&self->local, mcp_message_ref (message));
      return;
    }

  mcp_transport_emit_message (MCP_TRANSPORT (self), message);
}

static void
flush_local (McpHttpTransport *self)
{
  McpMessage *message;

  while (!self->closed_emitted && !reader_busy (self) &&
         (message = g_queue_pop_head (&self->local)) != NULL)
    {
      mcp_transport_emit_message (MCP_TRANSPORT (self), message);
      mcp_message_unref (message);
    }
}

/* Answers a request that will get no answer from the server. */
void
mcp_http_transport_request_fail (McpHttpTransport *self,
                                 Stream           *stream,
                                 int               code,
                                 const char       *text,
                                 JsonNode         *data)
{
  g_autoptr(McpMessage) response = mcp_message_new_error (stream->id, code, text, data);

  mcp_http_transport_stream_remove (self, stream, text);
  deliver_local (self, response);
}

/* The data of an error answering a refused request: the status, the
 * JSON-RPC error the body held if any, and the challenge of a 401 or 403,
 * which names what authorization the server wants. */
JsonNode *
mcp_http_transport_status_data (SoupMessage *msg,
                                JsonNode    *rpc_error)
{
  g_autoptr(JsonObject) object = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);
  guint status = soup_message_get_status (msg);
  const char *challenge;

  json_object_set_int_member (object, "status", status);
  if (rpc_error != NULL)
    json_object_set_member (object, "error", json_node_copy (rpc_error));

  challenge = soup_message_headers_get_list (soup_message_get_response_headers (msg),
                                             "WWW-Authenticate");
  if (challenge != NULL && (status == SOUP_STATUS_UNAUTHORIZED || status == SOUP_STATUS_FORBIDDEN))
    json_object_set_string_member (object, "wwwAuthenticate", challenge);

  json_node_set_object (node, object);

  return node;
}

void
mcp_http_transport_drop_reader (McpHttpTransport *self)
{
  if (self->reader == NULL)
    return;

  g_signal_handlers_disconnect_by_data (self->reader, self);
  g_clear_object (&self->reader);
  g_queue_clear_full (&self->local, (GDestroyNotify) mcp_message_unref);
}

/* Abandons every stream and exchange; requests get no answer here. */
void
mcp_http_transport_abandon_all (McpHttpTransport *self,
                                const char       *why)
{
  g_hash_table_remove_all (self->requests);
  self->n_ended = 0;

  if (self->listen != NULL)
    {
      Stream *listen = g_steal_pointer (&self->listen);

      mcp_http_transport_stream_free (listen);
    }

  mcp_clear_source (&self->hold_source);
  g_queue_clear_full (&self->held, (GDestroyNotify) mcp_http_transport_exchange_unref);

  while (self->exchanges->len > 0)
    mcp_http_transport_exchange_detach (g_ptr_array_index (self->exchanges,
                                                           self->exchanges->len - 1), why);
}

void
mcp_http_transport_complete_close_tasks (McpHttpTransport *self)
{
  GTask *task;

  while ((task = g_queue_pop_head (&self->close_tasks)) != NULL)
    {
      g_task_return_boolean (task, TRUE);
      g_object_unref (task);
    }
}

/* Reconnecting */

static guint
reconnect_delay (Stream *stream)
{
  guint delay;

  /* The server's `retry` is obeyed exactly, within sane bounds. */
  if (stream->retry_ms >= 0)
    return (guint) CLAMP (stream->retry_ms, MCP_HTTP_MIN_RETRY_MS, MCP_HTTP_MAX_RETRY_MS);

  delay = stream->backoff_ms;
  stream->backoff_ms = MIN (stream->backoff_ms * 2, MAX_BACKOFF_MS);
  return delay;
}

static gboolean
reconnect_cb (gpointer user_data)
{
  Stream *stream = user_data;

  g_clear_pointer (&stream->timer, g_source_unref);
  mcp_http_transport_start_get (stream->self, stream);

  return G_SOURCE_REMOVE;
}

static void
schedule_reconnect (McpHttpTransport *self,
                    Stream           *stream,
                    const char       *cause)
{
  guint delay = reconnect_delay (stream);
  g_autofree char *duration = mcp_format_duration (delay);

  stream->n_reconnects++;
  if (stream == self->listen)
    mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "the server’s event stream ended%s%s%s; reopening it in %s",
                cause ? " (" : "", cause ? cause : "", cause ? ")" : "", duration);
  else
    mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "the stream answering a %s request ended before the answer%s%s%s; "
                "resuming it in %s", stream->method,
                cause ? " (" : "", cause ? cause : "", cause ? ")" : "", duration);

  stream->timer = mcp_http_transport_schedule (self, delay, reconnect_cb, stream);
}

/* A request's stream ended without its answer, and everything that came
 * before was delivered: resume it, or give up and say why. */
static void
resume_or_fail (McpHttpTransport *self,
                Stream           *stream)
{
  const char *cause = stream->end_cause;
  g_autofree char *text = NULL;

  /* Without an event id there is nothing to resume from; the 2026-07-28
   * shape has no resumption at all. */
  if (self->stateless || stream->last_event_id == NULL || stream->last_event_id[0] == '\0')
    {
      if (cause != NULL)
        text = g_strdup_printf ("the stream from the server ended before it answered: %s", cause);
      else
        text = g_strdup ("the server closed the stream before answering");
      mcp_http_transport_request_fail (self, stream, MCP_ERROR_CLOSED, text, NULL);
      return;
    }

  if (stream->n_reconnects >= MCP_HTTP_MAX_RECONNECTS)
    {
      text = g_strdup_printf ("the server ended the stream %u times in a row without "
                              "answering%s%s; gave up after %u reconnections",
                              stream->n_reconnects + 1,
                              cause ? ": " : "", cause ? cause : "", stream->n_reconnects);
      mcp_http_transport_request_fail (self, stream, MCP_ERROR_CLOSED, text, NULL);
      return;
    }

  schedule_reconnect (self, stream, cause);
}

void
mcp_http_transport_listen_ended (McpHttpTransport *self,
                                 const char       *cause)
{
  Stream *stream = self->listen;

  if (self->state != STATE_RUNNING || self->stateless)
    {
      mcp_http_transport_stream_remove (self, stream, NULL);
      return;
    }

  mcp_http_transport_emit_interrupted (self,
                 cause != NULL ? cause : "the server ended its event stream");

  if (stream->n_reconnects >= MCP_HTTP_MAX_RECONNECTS)
    {
      mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "the server’s event stream ended %u times in a row without a message; "
                  "it is not reopened, so only answers to requests will arrive",
                  stream->n_reconnects + 1);
      mcp_http_transport_stream_remove (self, stream, NULL);
      return;
    }

  schedule_reconnect (self, stream, cause);
}

void
mcp_http_transport_stream_ended (McpHttpTransport *self,
                                 Stream           *stream,
                                 BodyKind          kind,
                                 const char       *cause)
{
  if (!stream->ended)
    self->n_ended++;

  stream->ended = TRUE;
  stream->ended_kind = kind;
  g_free (stream->end_cause);
  stream->end_cause = g_strdup (cause);

  mcp_http_transport_settle_streams (self);
}

/* Decides about the streams that ended without their answer, once the
 * reader has delivered all it was given: the answer may be among it. */
void
mcp_http_transport_settle_streams (McpHttpTransport *self)
{
  g_autoptr(GPtrArray) keys = NULL;
  GHashTableIter iter;
  gpointer value;

  if (self->n_ended == 0 || self->state != STATE_RUNNING || reader_busy (self))
    return;

  keys = g_ptr_array_new_with_free_func (g_free);
  g_hash_table_iter_init (&iter, self->requests);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (((Stream *) value)->ended)
      g_ptr_array_add (keys, g_strdup (((Stream *) value)->key));

  for (guint i = 0; i < keys->len; i++)
    {
      Stream *stream = g_hash_table_lookup (self->requests, g_ptr_array_index (keys, i));

      if (stream == NULL || !stream->ended || self->state != STATE_RUNNING)
        continue;

      stream->ended = FALSE;
      self->n_ended--;

      if (stream->ended_kind == BODY_JSON)
        mcp_http_transport_request_fail (self, stream, MCP_ERROR_INVALID_MESSAGE,
                                         "the server’s JSON reply holds no response to the request",
                                         NULL);
      else
        resume_or_fail (self, stream);
    }
}

/* Reading replies */

/* A body is held in one buffer that grows at most once past its first
 * size, and then straight to the most it may hold: growing by doubling
 * would, once the allocator serves such sizes from the heap, copy and so
 * briefly hold twice what arrived. Pages never written are not resident,
 * so the large allocation costs only what is used. */
static void
body_append (Exchange   *ex,
             const char *data,
             gsize       length,
             gsize       limit)
{
  g_assert (ex->length + length <= limit);

  if (ex->length + length > ex->allocated)
    {
      ex->allocated = limit;
      ex->data = g_realloc (ex->data, ex->allocated);
    }

  memcpy (ex->data + ex->length, data, length);
  ex->length += length;
}

static void
body_reserve (Exchange *ex,
              gsize     size)
{
  ex->allocated = size;
  ex->data = g_malloc (size);
  ex->length = 0;
}

static void
exchange_read_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data);

void
mcp_http_transport_exchange_read (Exchange *ex)
{
  ex->reading = TRUE;
  g_input_stream_read_bytes_async (ex->body, READ_CHUNK, G_PRIORITY_DEFAULT, ex->cancellable,
                                   exchange_read_cb, mcp_http_transport_exchange_ref (ex));
}

void
mcp_http_transport_start_json (McpHttpTransport *self,
                               Exchange         *ex)
{
  SoupMessageHeaders *headers = soup_message_get_response_headers (ex->msg);
  goffset declared = 0;

  /* A length declared past the cap fails before anything is read; a
   * compressed body is counted as it is decoded. */
  if (soup_message_headers_get_encoding (headers) == SOUP_ENCODING_CONTENT_LENGTH &&
      soup_message_headers_get_one (headers, "Content-Encoding") == NULL)
    declared = soup_message_headers_get_content_length (headers);

  if (declared > 0 && (guint64) declared > base_max_message_size (self))
    {
      mcp_http_transport_fail_too_large (self, "a reply");
      return;
    }

  ex->body_kind = BODY_JSON;
  body_reserve (ex, declared > 0 ? (gsize) declared
                                 : MIN (READ_CHUNK, base_max_message_size (self)));
  mcp_http_transport_exchange_arm_timer (ex, base_idle_timeout (self), WAIT_BODY);
  mcp_http_transport_exchange_read (ex);
}

void
mcp_http_transport_start_sse (McpHttpTransport *self,
                              Exchange         *ex)
{
  ex->body_kind = BODY_SSE;
  ex->parser = mcp_sse_parser_new (base_max_message_size (self));
  if (ex->stream != NULL)
    ex->stream->open = TRUE;
  mcp_http_transport_exchange_arm_timer (ex, base_idle_timeout (self), WAIT_EVENT);
  mcp_http_transport_exchange_read (ex);
}

void
mcp_http_transport_start_refusal (McpHttpTransport *self,
                                  Exchange         *ex)
{
  ex->body_kind = BODY_REFUSAL;
  body_reserve (ex, 4096);
  mcp_http_transport_exchange_arm_timer (ex, MIN (base_idle_timeout (self), REFUSAL_BODY_TIMEOUT_MS),
                                         WAIT_BODY);
  mcp_http_transport_exchange_read (ex);
}

static JsonNode *
find_rpc_error (Exchange *ex)
{
  g_autoptr(JsonNode) node = NULL;
  JsonObject *error;

  if (ex->length == 0)
    return NULL;

  node = mcp_json_parse (ex->data, ex->length, NULL);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;

  error = mcp_json_get_object (json_node_get_object (node), "error");
  if (error == NULL)
    return NULL;

  return json_node_init_object (json_node_alloc (), error);
}

char *
mcp_http_transport_describe_status (SoupMessage *msg)
{
  guint status = soup_message_get_status (msg);
  const char *reason = soup_message_get_reason_phrase (msg);
  g_autofree char *clean = NULL;

  if (reason == NULL || reason[0] == '\0')
    return g_strdup_printf ("HTTP %u", status);

  clean = mcp_http_make_excerpt (reason, strlen (reason));
  return g_strdup_printf ("HTTP %u %s", status, clean);
}

static char *
describe_refusal (McpHttpTransport *self,
                  Exchange         *ex)
{
  guint status = soup_message_get_status (ex->msg);
  g_autofree char *status_text = mcp_http_transport_describe_status (ex->msg);

  if (SOUP_STATUS_IS_REDIRECTION (status))
    {
      SoupMessageHeaders *headers = soup_message_get_response_headers (ex->msg);
      const char *location = soup_message_headers_get_one (headers, "Location");
      g_autoptr(GUri) target = NULL;

      if (location != NULL)
        target = g_uri_parse_relative (base_uri (self), location, SOUP_HTTP_URI_FLAGS, NULL);

      if (target == NULL || g_uri_get_host (target) == NULL || g_uri_get_host (target)[0] == '\0')
        return g_strdup_printf ("the server answered %s without a usable Location", status_text);

      if (!mcp_http_same_origin (target, base_uri (self)))
        {
          g_autofree char *origin = mcp_http_describe_origin (target);

          return g_strdup_printf ("the server redirected the request to %s, another origin "
                                  "(%s); it was not followed, so that headers and credentials "
                                  "stay with %s", origin, status_text, self->origin);
        }
      else
        {
          g_autofree char *where = mcp_http_describe_url (target);

          return g_strdup_printf ("the server redirected the request to %s (%s); redirects "
                                  "are not followed", where, status_text);
        }
    }

  if (ex->length > 0)
    {
      g_autofree char *excerpt = mcp_http_make_excerpt (ex->data, ex->length);

      if (excerpt[0] != '\0')
        return g_strdup_printf ("the server answered %s: %s", status_text, excerpt);
    }

  return g_strdup_printf ("the server answered %s", status_text);
}

static void
refusal_done (McpHttpTransport *self,
              Exchange         *ex)
{
  g_autofree char *text = describe_refusal (self, ex);
  g_autoptr(JsonNode) rpc_error = find_rpc_error (ex);
  g_autoptr(JsonNode) data = mcp_http_transport_status_data (ex->msg, rpc_error);
  Stream *stream = ex->stream;

  mcp_http_transport_exchange_complete_task (ex, MCP_ERROR_HTTP_STATUS, text);

  if (ex->role == ROLE_RESUME)
    {
      g_autofree char *why = g_strdup_printf ("the server closed the stream before answering "
                                              "and refused to resume it: %s", text);

      mcp_http_transport_request_fail (self, stream, MCP_ERROR_HTTP_STATUS, why, data);
    }
  else if (stream != NULL)
    mcp_http_transport_request_fail (self, stream, MCP_ERROR_HTTP_STATUS, text, data);
  else
    {
      const char *method = mcp_message_get_method (ex->message);

      mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "the server refused %s: %s", method ? method : "a response", text);
      mcp_http_transport_exchange_detach (ex, NULL);
    }
}

static void
sse_event_cb (const McpSseEvent *event,
              gpointer           user_data)
{
  Exchange *ex = user_data;
  McpHttpTransport *self = ex->self;

  /* A handler of an earlier event may have ended the exchange, or taken
   * the answer, after which the stream has nothing more to say. */
  if (self == NULL || self->reader == NULL || ex->body_kind == BODY_DRAIN)
    return;

  ex->event_seen = TRUE;

  /* JSON-RPC comes in events without a type or of type "message". */
  if (!g_str_equal (event->type, "message"))
    return;

  /* A stream that brings messages is alive, however often it breaks. */
  if (ex->stream != NULL)
    {
      ex->stream->n_reconnects = 0;
      ex->stream->backoff_ms = FIRST_BACKOFF_MS;
    }

  mcp_message_reader_push (self->reader, event->data, event->data_length);
}

/* Returns whether to read on. */
static gboolean
sse_push (McpHttpTransport *self,
          Exchange         *ex,
          const char       *data,
          gsize             length)
{
  g_autoptr(GError) error = NULL;
  gboolean line_end = memchr (data, '\n', length) != NULL || memchr (data, '\r', length) != NULL;
  const char *last_id;
  gint64 retry;
  Stream *stream;

  ex->event_seen = FALSE;
  if (!mcp_sse_parser_push (ex->parser, data, length, sse_event_cb, ex, &error))
    {
      if (ex->self != NULL)
        mcp_http_transport_fail_too_large (self, "an event");
      return FALSE;
    }

  if (ex->self == NULL)
    return FALSE;

  /* The answer came in this chunk, and what follows it is drained. */
  if (ex->body_kind == BODY_DRAIN)
    return TRUE;

  stream = ex->stream;
  last_id = mcp_sse_parser_get_last_id (ex->parser);
  if (last_id != NULL && g_strcmp0 (last_id, stream->last_event_id) != 0)
    {
      g_free (stream->last_event_id);
      stream->last_event_id = g_strdup (last_id);
    }

  retry = mcp_sse_parser_get_retry (ex->parser);
  if (retry >= 0)
    stream->retry_ms = retry;

  /* The stream is alive when it completes an event, or a line between
   * events (a keep-alive comment); bytes alone that never end an event
   * do not count. */
  if (ex->event_seen || (line_end && mcp_sse_parser_get_buffered (ex->parser) == 0))
    mcp_http_transport_exchange_arm_timer (ex, base_idle_timeout (self), WAIT_EVENT);

  return TRUE;
}

static void
body_ended (McpHttpTransport *self,
            Exchange         *ex,
            const char       *cause)
{
  Stream *stream = ex->stream;

  switch (ex->body_kind)
    {
    case BODY_JSON:
      {
        g_autoptr(GBytes) text = NULL;
        g_autofree char *key = NULL;

        if (cause != NULL)
          {
            g_autofree char *why = g_strdup_printf ("the reply from the server broke off: %s",
                                                    cause);

            mcp_http_transport_request_fail (self, stream, MCP_ERROR_CLOSED, why, NULL);
            return;
          }

        /* The reader takes the buffer as it is, without a copy. */
        text = g_bytes_new_take (g_steal_pointer (&ex->data), ex->length);
        key = g_strdup (stream->key);
        mcp_http_transport_exchange_detach (ex, NULL);
        if (self->reader != NULL)
          mcp_message_reader_push_bytes (self->reader, text);

        /* Unless that was the answer, the request gets one from us. */
        stream = g_hash_table_lookup (self->requests, key);
        if (stream != NULL && self->state == STATE_RUNNING)
          mcp_http_transport_stream_ended (self, stream, BODY_JSON, NULL);
      }
      break;

    case BODY_SSE:
      mcp_sse_parser_finish (ex->parser);

      /* A standalone stream that stayed open until it fell silent did not
       * fail quickly: a quiet server without keep-alives is followed for
       * as long as it lasts, one reconnection per idle timeout. */
      if (ex->role == ROLE_LISTEN && ex->abort_reason != NULL && ex->wait == WAIT_EVENT)
        {
          stream->n_reconnects = 0;
          stream->backoff_ms = FIRST_BACKOFF_MS;
        }

      mcp_http_transport_exchange_detach (ex, NULL);
      if (ex->role == ROLE_LISTEN)
        mcp_http_transport_listen_ended (self, cause);
      else
        mcp_http_transport_stream_ended (self, stream, BODY_SSE, cause);
      break;

    case BODY_REFUSAL:
      refusal_done (self, ex);
      break;

    case BODY_DRAIN:
      /* Read to its end, the connection goes back to libsoup's pool;
       * otherwise libsoup closes it, which is all there is to do. */
      mcp_http_transport_exchange_detach (ex, NULL);
      break;

    case BODY_NONE:
    default:
      g_assert_not_reached ();
    }
}

static void
exchange_read_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(Exchange) ex = user_data;
  g_autoptr(McpHttpTransport) self = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  const char *data;
  gsize length;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error);
  ex->reading = FALSE;
  if (ex->self == NULL)
    return;

  self = g_object_ref (ex->self);

  if (bytes == NULL)
    {
      body_ended (self, ex, ex->abort_reason != NULL ? ex->abort_reason : error->message);
      return;
    }

  data = g_bytes_get_data (bytes, &length);
  if (length == 0)
    {
      ex->at_eof = TRUE;
      body_ended (self, ex, NULL);
      return;
    }

  switch (ex->body_kind)
    {
    case BODY_JSON:
      if (length > base_max_message_size (self) - ex->length)
        {
          mcp_http_transport_fail_too_large (self, "a reply");
          return;
        }
      body_append (ex, data, length, base_max_message_size (self));
      break;

    case BODY_REFUSAL:
      body_append (ex, data, MIN (length, REFUSAL_BODY_MAX - ex->length), REFUSAL_BODY_MAX);
      if (ex->length >= REFUSAL_BODY_MAX)
        {
          body_ended (self, ex, NULL);
          return;
        }
      break;

    case BODY_SSE:
      if (!sse_push (self, ex, data, length))
        return;
      break;

    case BODY_DRAIN:
      ex->length += length;
      if (ex->length > DRAIN_MAX)
        {
          body_ended (self, ex, "too much followed the answer");
          return;
        }
      break;

    case BODY_NONE:
    default:
      g_assert_not_reached ();
    }

  /* Draining may have begun, with a read of its own, while the events of
   * this chunk were delivered. */
  if (ex->self != NULL && !ex->reading)
    mcp_http_transport_exchange_read (ex);
}

/* The message reader */

static void
reader_drained (McpHttpTransport *self)
{
  if (reader_busy (self))
    return;

  flush_local (self);
  mcp_http_transport_settle_streams (self);
}

void
mcp_http_transport_reader_message_cb (McpHttpTransport *self,
                                      McpMessage       *message)
{
  g_autoptr(McpHttpTransport) hold = g_object_ref (self);
  McpMessageKind kind = mcp_message_get_kind (message);

  if (self->closed_emitted)
    return;

  /* An answer, on whichever stream it came: the request's own stream has
   * nothing more to say. */
  if (kind == MCP_MESSAGE_RESULT || kind == MCP_MESSAGE_ERROR)
    {
      g_autofree char *key = mcp_message_dup_id_string (message);
      Stream *stream = key != NULL ? g_hash_table_lookup (self->requests, key) : NULL;
      Exchange *ex = stream != NULL ? stream->exchange : NULL;

      /* The event stream that brought it is read to its end rather than
       * cut, so that its connection serves the next request. */
      if (ex != NULL && ex->role == ROLE_POST && ex->body_kind == BODY_SSE)
        mcp_http_transport_exchange_drain (ex);
      if (stream != NULL)
        mcp_http_transport_stream_remove (self, stream, NULL);
    }

  mcp_transport_emit_message (MCP_TRANSPORT (self), message);
  reader_drained (self);
}

void
mcp_http_transport_reader_invalid_cb (McpHttpTransport *self,
                                      const GError     *error,
                                      const char       *excerpt)
{
  g_autoptr(McpHttpTransport) hold = g_object_ref (self);

  if (g_error_matches (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE))
    mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "dropped a message from the server that is not JSON-RPC: %s (%s)",
                excerpt, error->message);
  else
    mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "dropped a message from the server that is not JSON: %s (%s)",
                excerpt, error->message);

  reader_drained (self);
}

void
mcp_http_transport_reader_misbehaving_cb (McpHttpTransport *self,
                                          const GError     *error)
{
  mcp_http_transport_fail_connection (self,
                                      g_error_new (MCP_ERROR, MCP_ERROR_MISBEHAVING,
                                                   "%s; the connection was closed", error->message));
}

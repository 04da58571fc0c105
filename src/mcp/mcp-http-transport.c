/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-http-transport"

#include "config.h"

#include <string.h>

#include <libsoup/soup.h>

#include "mcp-error.h"
#include "mcp-format-private.h"
#include "mcp-http-util-private.h"
#include "mcp-json.h"
#include "mcp-json-private.h"
#include "mcp-line-framer.h"
#include "mcp-message-reader.h"
#include "mcp-revision.h"
#include "mcp-sse-parser.h"
#include "mcp-http-transport.h"

/* Bytes asked for per read of a reply body. */
#define READ_CHUNK (64 * 1024)

/* Of the body of a refusal (a status other than 2xx) no more is read than
 * this: it only serves the excerpt and a JSON-RPC error it may hold. */
#define REFUSAL_BODY_MAX (64 * 1024)

/* How long the body of a refusal may take; what came by then is quoted. */
#define REFUSAL_BODY_TIMEOUT_MS 10000

/* After the answer, what is left of a reply (the end of an event stream,
 * the empty body of a 202) is read to its end, so that libsoup keeps the
 * connection for the next request. A server that keeps going past the
 * answer has this long and this much before the connection is dropped. */
#define DRAIN_TIMEOUT_MS 2000
#define DRAIN_MAX        (64 * 1024)

/* The wait before reconnecting a stream whose server named no `retry`:
 * doubling from the first to the last. */
#define FIRST_BACKOFF_MS 1000
#define MAX_BACKOFF_MS   (30 * 1000)

/* While the standalone GET stream is being opened, POSTs wait for it, at
 * most this long. A server sends a request that belongs to no request of
 * ours (an elicitation a tool needs, for the SDK's servers) on that stream
 * only, and drops it if the stream is not open yet; the tool call that
 * causes it must not overtake the GET. */
#define LISTEN_WAIT_MS 2000

/* Every open stream holds a connection of its own under HTTP/1.1: the
 * standalone GET, each request still streaming its answer, and the POSTs
 * that answer the server's requests meanwhile. libsoup's default of two per
 * host would make the third wait behind the first two. */
#define MAX_CONNECTIONS_PER_HOST 32
#define MAX_CONNECTIONS          64

/**
 * McpHttpTransport:
 *
 * Talks to a remote MCP server over Streamable HTTP with one SoupSession of
 * its own. Each message is a POST; a request's answer comes as one JSON
 * body or as an event stream that may carry the server's own requests and
 * notifications first; after `notifications/initialized` a standalone GET
 * stream carries what the server sends unasked, and what the client sends
 * meanwhile waits (at most 2 s) until that stream is open, so that nothing
 * the server sends there in reply is lost.
 *
 * Headers and credentials only ever go to the configured origin: redirects
 * are not followed, and a redirect fails the request with the origin it
 * pointed to. Proxies are not used.
 *
 * Limits, so that no server can hold memory or a request without bound:
 * - a JSON reply or one event of a stream may hold at most the message
 *   size (10 MiB unless set), counted in decoded bytes; more fails the
 *   connection;
 * - the headers of a reply must come within the idle timeout, and a JSON
 *   reply must be complete within the idle timeout after its headers;
 * - an event stream must end an event, or a line between events (such as a
 *   keep-alive comment), within the idle timeout, so that neither silence
 *   nor a trickle of one byte a second that never ends an event keeps it;
 * - a stream that ends before its request was answered is resumed with
 *   `Last-Event-ID` after the server's `retry`, at most
 *   %MCP_HTTP_MAX_RECONNECTS times in a row without a message.
 */

typedef enum {
  STATE_NEW,
  STATE_RUNNING,
  STATE_CLOSING,
  STATE_CLOSED,
} State;

/* What one HTTP exchange is for. */
typedef enum {
  ROLE_POST,     /* one message to the server */
  ROLE_RESUME,   /* a GET resuming the stream of a request */
  ROLE_LISTEN,   /* the standalone GET stream */
  ROLE_DELETE,   /* ending the session */
} Role;

/* What an exchange's timer waits for. */
typedef enum {
  WAIT_HEADERS,
  WAIT_BODY,
  WAIT_EVENT,
} Wait;

/* How the body of a reply is read. */
typedef enum {
  BODY_NONE,
  BODY_JSON,
  BODY_SSE,
  BODY_REFUSAL,
  BODY_DRAIN,    /* the rest of a reply whose answer is in */
} BodyKind;

typedef struct _Stream Stream;

/* One HTTP request and its reply, from the send until the body is read or
 * abandoned. Reference counted: the transport's list holds one reference
 * and each callback in flight another, so that an exchange given up while
 * a callback runs stays valid until that callback returns. */
typedef struct {
  guint              ref_count;
  McpHttpTransport  *self;          /* NULL once detached */
  Role               role;
  Stream            *stream;        /* what it carries, for requests and GETs */
  McpMessage        *message;       /* ROLE_POST */
  GTask             *task;          /* ROLE_POST with a callback, until accepted */
  SoupMessage       *msg;
  char              *session;       /* the session id it carried */
  GCancellable      *cancellable;
  GInputStream      *body;
  gboolean           at_eof;
  gboolean           reading;       /* a read of the body is in flight */
  gboolean           resent;        /* sent again after its connection broke */
  BodyKind           body_kind;
  char              *data;          /* a JSON or refusal body */
  gsize              length;
  gsize              allocated;
  McpSseParser      *parser;        /* an event stream */
  gboolean           opens_listen;  /* notifications/initialized, holding POSTs */
  gboolean           event_seen;
  GSource           *timer;
  Wait               wait;
  guint              timer_ms;
  char              *abort_reason;  /* set when the timer fired */
} Exchange;

/* A stream of answers that may outlive one exchange: the answer to a
 * request (its POST, then the GETs that resume it) or the standalone GET. */
struct _Stream {
  McpHttpTransport  *self;          /* the owner, which outlives it */
  char              *key;           /* the request's id key; NULL for the GET stream */
  JsonNode          *id;
  char              *method;
  Exchange          *exchange;      /* the exchange reading it now, if any */
  char              *last_event_id;
  gint64             retry_ms;      /* the server's `retry`, or -1 */
  guint              n_reconnects;  /* in a row, without a message */
  guint              backoff_ms;
  GSource           *timer;         /* the wait before reconnecting */
  gboolean           open;          /* headers of an event stream arrived */
  gboolean           ended;         /* its exchange ended; waiting for the reader */
  BodyKind           ended_kind;
  char              *end_cause;
};

struct _McpHttpTransport
{
  GObject            parent_instance;

  char              *url;
  GUri              *uri;
  char              *origin;
  char              *description;
  GPtrArray         *headers;          /* name, value, name, value… */
  gsize              max_message_size;
  guint              idle_timeout_ms;
  char              *protocol_version;
  gboolean           stateless;
  gboolean           allow_batches;
  char              *session_id;

  State              state;
  GMainContext      *context;
  SoupSession       *session;
  McpMessageReader  *reader;
  GPtrArray         *exchanges;        /* Exchange, every one in flight */
  GHashTable        *requests;         /* id key → Stream */
  Stream            *listen;
  guint              n_ended;
  GQueue             held;             /* Exchange, POSTs waiting for the GET stream */
  GSource           *hold_source;      /* while they wait */
  GQueue             local;            /* McpMessage made here, behind the reader */
  gboolean           listen_refusal_logged;
  gboolean           unreachable_logged;
  gboolean           closed_emitted;
  gboolean           delete_pending;
  GQueue             close_tasks;
};

enum {
  PROP_0,
  PROP_URL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SIGNAL_INTERRUPTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void mcp_http_transport_iface_init (McpTransportInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (McpHttpTransport, mcp_http_transport, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (MCP_TYPE_TRANSPORT,
                                                      mcp_http_transport_iface_init))

static void exchange_read     (Exchange         *ex);
static void fail_connection   (McpHttpTransport *self,
                               GError           *error);
static void settle_streams    (McpHttpTransport *self);
static void release_held      (McpHttpTransport *self);
static void start_get         (McpHttpTransport *self,
                               Stream           *stream);

/* Small helpers */

static void
clear_source (GSource **source)
{
  if (*source == NULL)
    return;

  g_source_destroy (*source);
  g_clear_pointer (source, g_source_unref);
}

static GSource *
schedule (McpHttpTransport *self,
          guint             delay_ms,
          GSourceFunc       func,
          gpointer          data)
{
  GSource *source = g_timeout_source_new (delay_ms);

  g_source_set_callback (source, func, data, NULL);
  g_source_attach (source, self->context);

  return source;
}

/* The code a request that never reached the server fails with, so that
 * a caller can tell a wrong address or certificate from a broken link. */
static int
unreachable_code (Exchange     *ex,
                  const GError *error)
{
  if (ex->abort_reason != NULL)
    return MCP_ERROR_CLOSED;
  if (error->domain == G_TLS_ERROR)
    return MCP_ERROR_TLS;
  if (mcp_http_is_unreachable (error))
    return MCP_ERROR_UNREACHABLE;

  return MCP_ERROR_CLOSED;
}

static char *
id_key_from_node (JsonNode *id)
{
  if (id == NULL || !JSON_NODE_HOLDS_VALUE (id))
    return NULL;

  if (json_node_get_value_type (id) == G_TYPE_INT64)
    return g_strdup_printf ("i:%" G_GINT64_FORMAT, json_node_get_int (id));
  if (json_node_get_value_type (id) == G_TYPE_STRING)
    return g_strconcat ("s:", json_node_get_string (id), NULL);

  return NULL;
}

/* Exchanges and streams */

static Exchange *
exchange_new (McpHttpTransport *self,
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

static Exchange *
exchange_ref (Exchange *ex)
{
  ex->ref_count++;
  return ex;
}

static void
exchange_unref (Exchange *ex)
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

  clear_source (&ex->timer);
  g_clear_pointer (&ex->message, mcp_message_unref);
  g_clear_object (&ex->msg);
  g_clear_object (&ex->cancellable);
  g_free (ex->data);
  g_clear_pointer (&ex->parser, mcp_sse_parser_free);
  g_free (ex->session);
  g_free (ex->abort_reason);
  g_free (ex);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Exchange, exchange_unref)

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
static void
exchange_complete_task (Exchange   *ex,
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
static void
exchange_detach (Exchange   *ex,
                 const char *failure)
{
  McpHttpTransport *self = ex->self;

  if (self == NULL)
    return;

  exchange_complete_task (ex, MCP_ERROR_CLOSED, failure);
  clear_source (&ex->timer);

  /* Refused or failed, it opens no stream; what it held goes out. */
  if (ex->opens_listen)
    {
      ex->opens_listen = FALSE;
      release_held (self);
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

static void
exchange_arm_timer (Exchange *ex,
                    guint     timeout_ms,
                    Wait      wait)
{
  clear_source (&ex->timer);
  ex->wait = wait;
  ex->timer_ms = timeout_ms;
  ex->timer = schedule (ex->self, timeout_ms, exchange_timeout_cb, ex);
}

static void exchange_read (Exchange *ex);

/* The exchange has given what it was for; its body is read to the end
 * without being looked at, so that the connection can carry the next
 * request. Its stream, if any, is no longer its business. */
static void
exchange_drain (Exchange *ex)
{
  exchange_complete_task (ex, 0, NULL);

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
      exchange_arm_timer (ex, DRAIN_TIMEOUT_MS, WAIT_BODY);
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
          exchange_detach (ex, NULL);
          return;
        }
    }

  exchange_arm_timer (ex, DRAIN_TIMEOUT_MS, WAIT_BODY);
  exchange_read (ex);
}

static Stream *
stream_new (McpHttpTransport *self,
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

static void
stream_free (Stream *stream)
{
  clear_source (&stream->timer);
  if (stream->exchange != NULL)
    exchange_detach (stream->exchange, "the connection to the server was closed");
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
static void
stream_remove (McpHttpTransport *self,
               Stream           *stream,
               const char       *failure)
{
  if (stream->exchange != NULL)
    exchange_detach (stream->exchange, failure);

  if (stream->ended)
    self->n_ended--;

  if (stream == self->listen)
    {
      self->listen = NULL;
      stream_free (stream);
      release_held (self);
    }
  else
    g_hash_table_remove (self->requests, stream->key);
}

/* Delivering */

static void
emit_closed (McpHttpTransport *self,
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
static void
request_fail (McpHttpTransport *self,
              Stream           *stream,
              int               code,
              const char       *text,
              JsonNode         *data)
{
  g_autoptr(McpMessage) response = mcp_message_new_error (stream->id, code, text, data);

  stream_remove (self, stream, text);
  deliver_local (self, response);
}

/* The data of an error answering a refused request: the status, the
 * JSON-RPC error the body held if any, and the challenge of a 401 or 403,
 * which names what authorization the server wants. */
static JsonNode *
status_data (SoupMessage *msg,
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

static void
drop_reader (McpHttpTransport *self)
{
  if (self->reader == NULL)
    return;

  g_signal_handlers_disconnect_by_data (self->reader, self);
  g_clear_object (&self->reader);
  g_queue_clear_full (&self->local, (GDestroyNotify) mcp_message_unref);
}

/* Abandons every stream and exchange; requests get no answer here. */
static void
abandon_all (McpHttpTransport *self,
             const char       *why)
{
  g_hash_table_remove_all (self->requests);
  self->n_ended = 0;

  if (self->listen != NULL)
    {
      Stream *listen = g_steal_pointer (&self->listen);

      stream_free (listen);
    }

  clear_source (&self->hold_source);
  g_queue_clear_full (&self->held, (GDestroyNotify) exchange_unref);

  while (self->exchanges->len > 0)
    exchange_detach (g_ptr_array_index (self->exchanges, self->exchanges->len - 1), why);
}

static void
complete_close_tasks (McpHttpTransport *self)
{
  GTask *task;

  while ((task = g_queue_pop_head (&self->close_tasks)) != NULL)
    {
      g_task_return_boolean (task, TRUE);
      g_object_unref (task);
    }
}

/* Building and sending HTTP requests */

static gboolean
is_reserved_header (const char *name)
{
  static const char * const reserved[] = {
    "Accept", "Content-Type", "Content-Length", "Host", "Last-Event-ID", "Mcp-Session-Id",
    "MCP-Protocol-Version", "Mcp-Method", "Mcp-Name", "Transfer-Encoding", "Connection",
  };

  for (guint i = 0; i < G_N_ELEMENTS (reserved); i++)
    if (g_ascii_strcasecmp (name, reserved[i]) == 0)
      return TRUE;

  return FALSE;
}

/* The revision a request of the 2026-07-28 shape names in its `_meta`: the
 * header must match it, also on the probe sent before any revision was
 * agreed on. */
static const char *
body_protocol_version (McpMessage *message)
{
  JsonObject *params = mcp_message_get_params (message);
  JsonObject *meta = params != NULL ? mcp_json_get_object (params, "_meta") : NULL;

  return meta != NULL ? mcp_json_get_string (meta, "io.modelcontextprotocol/protocolVersion")
                      : NULL;
}

static void
apply_headers (McpHttpTransport *self,
               Exchange         *ex)
{
  SoupMessageHeaders *headers = soup_message_get_request_headers (ex->msg);
  const char *method = ex->message != NULL ? mcp_message_get_method (ex->message) : NULL;
  gboolean initialize = ex->role == ROLE_POST && g_strcmp0 (method, "initialize") == 0;
  const char *version = initialize ? NULL : self->protocol_version;
  gboolean stateless = self->stateless;

  if (ex->message != NULL && body_protocol_version (ex->message) != NULL)
    {
      version = body_protocol_version (ex->message);
      stateless = mcp_revision_is_stateless (mcp_revision_from_string (version));
    }

  /* The headers the protocol sets itself are never taken from the
   * configuration. */
  for (guint i = 0; i + 1 < self->headers->len; i += 2)
    if (!is_reserved_header (g_ptr_array_index (self->headers, i)))
      soup_message_headers_replace (headers, g_ptr_array_index (self->headers, i),
                                    g_ptr_array_index (self->headers, i + 1));

  switch (ex->role)
    {
    case ROLE_POST:
      soup_message_headers_replace (headers, "Accept", "application/json, text/event-stream");
      break;

    case ROLE_RESUME:
    case ROLE_LISTEN:
      soup_message_headers_replace (headers, "Accept", "text/event-stream");
      if (ex->stream->last_event_id != NULL && ex->stream->last_event_id[0] != '\0')
        soup_message_headers_replace (headers, "Last-Event-ID", ex->stream->last_event_id);
      break;

    case ROLE_DELETE:
    default:
      break;
    }

  /* A new session starts without the old one's id and before a version
   * was negotiated. */
  if (self->session_id != NULL && !stateless && !initialize)
    {
      soup_message_headers_replace (headers, "Mcp-Session-Id", self->session_id);
      ex->session = g_strdup (self->session_id);
    }

  if (version != NULL)
    soup_message_headers_replace (headers, "MCP-Protocol-Version", version);

  if (stateless && method != NULL)
    {
      JsonObject *params = mcp_message_get_params (ex->message);
      const char *name = NULL;

      soup_message_headers_replace (headers, "Mcp-Method", method);

      if (g_str_equal (method, "tools/call") || g_str_equal (method, "prompts/get"))
        name = params != NULL ? mcp_json_get_string (params, "name") : NULL;
      else if (g_str_equal (method, "resources/read"))
        name = params != NULL ? mcp_json_get_string (params, "uri") : NULL;
      /* The tasks extension names the task it is about. */
      else if (g_str_equal (method, "tasks/get") || g_str_equal (method, "tasks/update") ||
               g_str_equal (method, "tasks/cancel"))
        name = params != NULL ? mcp_json_get_string (params, "taskId") : NULL;

      if (name != NULL)
        {
          g_autofree char *value = mcp_http_encode_header_value (name);

          soup_message_headers_replace (headers, "Mcp-Name", value);
        }
    }

  soup_message_add_flags (ex->msg, SOUP_MESSAGE_NO_REDIRECT);
}

/* The POST of the exchange's message, ready to go; again for a resend. */
static void
post_prepare (McpHttpTransport *self,
              Exchange         *ex)
{
  g_autoptr(GBytes) bytes = NULL;
  GString *body = g_string_sized_new (256);

  g_clear_object (&ex->msg);
  g_clear_pointer (&ex->session, g_free);
  ex->msg = soup_message_new_from_uri ("POST", self->uri);

  mcp_message_write (ex->message, body);
  bytes = g_string_free_to_bytes (body);
  soup_message_set_request_body_from_bytes (ex->msg, "application/json", bytes);

  apply_headers (self, ex);

  /* Without this libsoup opens a new connection for every POST; with it,
   * a POST goes on a connection kept from an earlier exchange, and is
   * still never repeated by libsoup when that connection breaks. */
  soup_message_add_flags (ex->msg, SOUP_MESSAGE_IDEMPOTENT);
}

static void exchange_sent_cb (GObject      *object,
                              GAsyncResult *result,
                              gpointer      user_data);

static void
exchange_begin (McpHttpTransport *self,
                Exchange         *ex)
{
  exchange_arm_timer (ex, ex->role == ROLE_DELETE ? MCP_HTTP_DELETE_TIMEOUT_MS
                                                  : self->idle_timeout_ms, WAIT_HEADERS);

  soup_session_send_async (self->session, ex->msg, G_PRIORITY_DEFAULT, ex->cancellable,
                           exchange_sent_cb, exchange_ref (ex));
}

static void
exchange_start (McpHttpTransport *self,
                Exchange         *ex)
{
  g_ptr_array_add (self->exchanges, ex);

  if (self->hold_source != NULL && ex->role == ROLE_POST)
    {
      g_queue_push_tail (&self->held, exchange_ref (ex));
      return;
    }

  exchange_begin (self, ex);
}

/* The GET stream is open, refused or failed: what waited for it goes out,
 * in order, but for what was given up meanwhile. */
static void
release_held (McpHttpTransport *self)
{
  Exchange *ex;

  clear_source (&self->hold_source);
  while ((ex = g_queue_pop_head (&self->held)) != NULL)
    {
      if (ex->self != NULL)
        exchange_begin (self, ex);
      exchange_unref (ex);
    }
}

static gboolean
hold_expired_cb (gpointer user_data)
{
  McpHttpTransport *self = MCP_HTTP_TRANSPORT (user_data);

  g_clear_pointer (&self->hold_source, g_source_unref);
  release_held (self);

  return G_SOURCE_REMOVE;
}

static void
start_get (McpHttpTransport *self,
           Stream           *stream)
{
  Exchange *ex = exchange_new (self, stream == self->listen ? ROLE_LISTEN : ROLE_RESUME, stream);

  ex->msg = soup_message_new_from_uri ("GET", self->uri);
  apply_headers (self, ex);
  exchange_start (self, ex);
}

static void
send_delete (McpHttpTransport *self)
{
  Exchange *ex = exchange_new (self, ROLE_DELETE, NULL);

  self->delete_pending = TRUE;
  ex->msg = soup_message_new_from_uri ("DELETE", self->uri);
  apply_headers (self, ex);
  exchange_start (self, ex);
}

static void
open_listen (McpHttpTransport *self)
{
  if (self->state != STATE_RUNNING || self->stateless || self->listen != NULL)
    return;

  self->listen = stream_new (self, NULL, NULL, NULL);
  if (self->hold_source == NULL)
    self->hold_source = schedule (self, LISTEN_WAIT_MS, hold_expired_cb, self);
  start_get (self, self->listen);
}

/* Closing */

static void
finish_close (McpHttpTransport *self)
{
  self->state = STATE_CLOSED;
  g_clear_pointer (&self->session_id, g_free);
  emit_closed (self, NULL);
  complete_close_tasks (self);
}

static void
delete_done (McpHttpTransport *self)
{
  if (!self->delete_pending)
    return;

  self->delete_pending = FALSE;
  if (self->state == STATE_CLOSING)
    finish_close (self);
}

/* The server broke the protocol, or a limit, badly enough that nothing
 * more it sends can be trusted: everything stops, and "closed" says why. */
static void
fail_connection (McpHttpTransport *self,
                 GError           *error)
{
  g_autoptr(McpHttpTransport) hold = g_object_ref (self);
  g_autoptr(GError) reason = error;
  gboolean had_session;

  if (self->state == STATE_CLOSED || self->state == STATE_NEW)
    return;

  had_session = self->session_id != NULL && !self->stateless;
  self->state = STATE_CLOSED;
  drop_reader (self);
  abandon_all (self, reason->message);

  mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "closing the connection: %s", reason->message);
  emit_closed (self, reason);
  complete_close_tasks (self);

  /* The session is of no further use; the server may as well know. */
  if (had_session)
    send_delete (self);
  g_clear_pointer (&self->session_id, g_free);
}

static void
fail_too_large (McpHttpTransport *self,
                const char       *what)
{
  g_autofree char *cap = mcp_format_size (self->max_message_size);

  fail_connection (self, g_error_new (MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE,
                                      "the server sent %s larger than the %s limit",
                                      what, cap));
}

/* Sessions */

/* Takes the session id from the reply to `initialize`; an id that breaks
 * the rules fails the connection, and is shown in part only. */
static gboolean
take_session_id (McpHttpTransport *self,
                 Exchange         *ex)
{
  SoupMessageHeaders *headers = soup_message_get_response_headers (ex->msg);
  /* Several of the header would be joined with ", ", which is no valid id. */
  const char *value = soup_message_headers_get_list (headers, "Mcp-Session-Id");

  if (value == NULL)
    {
      g_clear_pointer (&self->session_id, g_free);
      return TRUE;
    }

  if (!mcp_http_session_id_is_valid (value))
    {
      g_autofree char *described = mcp_http_describe_bad_session_id (value);

      fail_connection (self, g_error_new (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                          "the server sent %s, but a session id must be 1 to "
                                          "%d visible ASCII characters",
                                          described, MCP_HTTP_SESSION_ID_MAX));
      return FALSE;
    }

  g_free (self->session_id);
  self->session_id = g_strdup (value);
  return TRUE;
}

/* A 404 to an HTTP request that carried the session id: the server has
 * forgotten the session. */
static void
session_expired (McpHttpTransport *self,
                 Exchange         *ex)
{
  if (g_strcmp0 (ex->session, self->session_id) != 0)
    return;

  g_clear_pointer (&self->session_id, g_free);
  mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "the server no longer knows the session (HTTP 404); a new one is needed");

  /* The event stream belonged to the old session; the next session opens
   * its own. */
  if (self->listen != NULL)
    stream_remove (self, self->listen, NULL);
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
  start_get (stream->self, stream);

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

  stream->timer = schedule (self, delay, reconnect_cb, stream);
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
      request_fail (self, stream, MCP_ERROR_CLOSED, text, NULL);
      return;
    }

  if (stream->n_reconnects >= MCP_HTTP_MAX_RECONNECTS)
    {
      text = g_strdup_printf ("the server ended the stream %u times in a row without "
                              "answering%s%s; gave up after %u reconnections",
                              stream->n_reconnects + 1,
                              cause ? ": " : "", cause ? cause : "", stream->n_reconnects);
      request_fail (self, stream, MCP_ERROR_CLOSED, text, NULL);
      return;
    }

  schedule_reconnect (self, stream, cause);
}

static void
listen_ended (McpHttpTransport *self,
              const char       *cause)
{
  Stream *stream = self->listen;

  if (self->state != STATE_RUNNING || self->stateless)
    {
      stream_remove (self, stream, NULL);
      return;
    }

  g_signal_emit (self, signals[SIGNAL_INTERRUPTED], 0,
                 cause != NULL ? cause : "the server ended its event stream");

  if (stream->n_reconnects >= MCP_HTTP_MAX_RECONNECTS)
    {
      mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "the server’s event stream ended %u times in a row without a message; "
                  "it is not reopened, so only answers to requests will arrive",
                  stream->n_reconnects + 1);
      stream_remove (self, stream, NULL);
      return;
    }

  schedule_reconnect (self, stream, cause);
}

static void
stream_ended (McpHttpTransport *self,
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

  settle_streams (self);
}

/* Decides about the streams that ended without their answer, once the
 * reader has delivered all it was given: the answer may be among it. */
static void
settle_streams (McpHttpTransport *self)
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
        request_fail (self, stream, MCP_ERROR_INVALID_MESSAGE,
                      "the server’s JSON reply holds no response to the request", NULL);
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

static void
exchange_read (Exchange *ex)
{
  ex->reading = TRUE;
  g_input_stream_read_bytes_async (ex->body, READ_CHUNK, G_PRIORITY_DEFAULT, ex->cancellable,
                                   exchange_read_cb, exchange_ref (ex));
}

static void
start_json (McpHttpTransport *self,
            Exchange         *ex)
{
  SoupMessageHeaders *headers = soup_message_get_response_headers (ex->msg);
  goffset declared = 0;

  /* A length declared past the cap fails before anything is read; a
   * compressed body is counted as it is decoded. */
  if (soup_message_headers_get_encoding (headers) == SOUP_ENCODING_CONTENT_LENGTH &&
      soup_message_headers_get_one (headers, "Content-Encoding") == NULL)
    declared = soup_message_headers_get_content_length (headers);

  if (declared > 0 && (guint64) declared > self->max_message_size)
    {
      fail_too_large (self, "a reply");
      return;
    }

  ex->body_kind = BODY_JSON;
  body_reserve (ex, declared > 0 ? (gsize) declared : MIN (READ_CHUNK, self->max_message_size));
  exchange_arm_timer (ex, self->idle_timeout_ms, WAIT_BODY);
  exchange_read (ex);
}

static void
start_sse (McpHttpTransport *self,
           Exchange         *ex)
{
  ex->body_kind = BODY_SSE;
  ex->parser = mcp_sse_parser_new (self->max_message_size);
  if (ex->stream != NULL)
    ex->stream->open = TRUE;
  exchange_arm_timer (ex, self->idle_timeout_ms, WAIT_EVENT);
  exchange_read (ex);
}

static void
start_refusal (McpHttpTransport *self,
               Exchange         *ex)
{
  ex->body_kind = BODY_REFUSAL;
  body_reserve (ex, 4096);
  exchange_arm_timer (ex, MIN (self->idle_timeout_ms, REFUSAL_BODY_TIMEOUT_MS), WAIT_BODY);
  exchange_read (ex);
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

static char *
describe_status (SoupMessage *msg)
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
  g_autofree char *status_text = describe_status (ex->msg);

  if (SOUP_STATUS_IS_REDIRECTION (status))
    {
      SoupMessageHeaders *headers = soup_message_get_response_headers (ex->msg);
      const char *location = soup_message_headers_get_one (headers, "Location");
      g_autoptr(GUri) target = NULL;

      if (location != NULL)
        target = g_uri_parse_relative (self->uri, location, SOUP_HTTP_URI_FLAGS, NULL);

      if (target == NULL || g_uri_get_host (target) == NULL || g_uri_get_host (target)[0] == '\0')
        return g_strdup_printf ("the server answered %s without a usable Location", status_text);

      if (!mcp_http_same_origin (target, self->uri))
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
  g_autoptr(JsonNode) data = status_data (ex->msg, rpc_error);
  Stream *stream = ex->stream;

  exchange_complete_task (ex, MCP_ERROR_HTTP_STATUS, text);

  if (ex->role == ROLE_RESUME)
    {
      g_autofree char *why = g_strdup_printf ("the server closed the stream before answering "
                                              "and refused to resume it: %s", text);

      request_fail (self, stream, MCP_ERROR_HTTP_STATUS, why, data);
    }
  else if (stream != NULL)
    request_fail (self, stream, MCP_ERROR_HTTP_STATUS, text, data);
  else
    {
      const char *method = mcp_message_get_method (ex->message);

      mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "the server refused %s: %s", method ? method : "a response", text);
      exchange_detach (ex, NULL);
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
        fail_too_large (self, "an event");
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
    exchange_arm_timer (ex, self->idle_timeout_ms, WAIT_EVENT);

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

            request_fail (self, stream, MCP_ERROR_CLOSED, why, NULL);
            return;
          }

        /* The reader takes the buffer as it is, without a copy. */
        text = g_bytes_new_take (g_steal_pointer (&ex->data), ex->length);
        key = g_strdup (stream->key);
        exchange_detach (ex, NULL);
        if (self->reader != NULL)
          mcp_message_reader_push_bytes (self->reader, text);

        /* Unless that was the answer, the request gets one from us. */
        stream = g_hash_table_lookup (self->requests, key);
        if (stream != NULL && self->state == STATE_RUNNING)
          stream_ended (self, stream, BODY_JSON, NULL);
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

      exchange_detach (ex, NULL);
      if (ex->role == ROLE_LISTEN)
        listen_ended (self, cause);
      else
        stream_ended (self, stream, BODY_SSE, cause);
      break;

    case BODY_REFUSAL:
      refusal_done (self, ex);
      break;

    case BODY_DRAIN:
      /* Read to its end, the connection goes back to libsoup's pool;
       * otherwise libsoup closes it, which is all there is to do. */
      exchange_detach (ex, NULL);
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
      if (length > self->max_message_size - ex->length)
        {
          fail_too_large (self, "a reply");
          return;
        }
      body_append (ex, data, length, self->max_message_size);
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
    exchange_read (ex);
}

/* Replies */

/* Requests that change nothing on the server, or nothing more when made
 * twice: the only ones sent again when their connection breaks before the
 * answer, since nothing proves that the server did not receive them. A
 * second initialize only leaves the first session unused. */
static gboolean
method_is_repeatable (const char *method)
{
  static const char * const repeatable[] = {
    "ping", "server/discover", "initialize", "tools/list", "prompts/list", "prompts/get",
    "resources/list", "resources/templates/list", "resources/read", "completion/complete",
    "logging/setLevel", "resources/subscribe", "resources/unsubscribe",
  };

  for (guint i = 0; method != NULL && i < G_N_ELEMENTS (repeatable); i++)
    if (g_str_equal (method, repeatable[i]))
      return TRUE;

  return FALSE;
}

static void
post_failed (McpHttpTransport *self,
             Exchange         *ex,
             const GError     *error)
{
  g_autofree char *text = NULL;
  Stream *stream = ex->stream;
  gboolean unreachable = ex->abort_reason == NULL && mcp_http_is_unreachable (error);
  const char *method = mcp_message_get_method (ex->message);

  /* A connection kept from an earlier request can turn out closed by the
   * server just as the request goes out. libsoup never sends a POST twice
   * by itself; a request that may be made twice is sent once more, on a
   * new connection, and any other fails below, saying it was not. */
  if (!unreachable && ex->abort_reason == NULL && !ex->resent && stream != NULL &&
      self->state == STATE_RUNNING && method_is_repeatable (method) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "the connection broke before the "
                                     "server answered %s (%s); sending it again on a new "
                                     "connection", method, error->message);
      ex->resent = TRUE;
      post_prepare (self, ex);
      soup_message_add_flags (ex->msg, SOUP_MESSAGE_NEW_CONNECTION);
      exchange_begin (self, ex);
      return;
    }

  if (unreachable)
    text = g_strdup_printf ("could not reach the server at %s: %s", self->origin, error->message);
  else if (ex->abort_reason != NULL)
    text = g_strdup (ex->abort_reason);
  else if (ex->resent || stream == NULL || method_is_repeatable (method))
    text = g_strdup_printf ("the connection to the server broke before it answered: %s",
                            error->message);
  else
    text = g_strdup_printf ("the connection to the server broke before it answered (%s); "
                            "%s was not sent again, since the server may have received it "
                            "and acted on it", error->message, method);

  /* One line says the server is down, not one per message. */
  if (unreachable && !self->unreachable_logged)
    {
      self->unreachable_logged = TRUE;
      mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "%s", text);
    }
  else if (stream == NULL && !unreachable)
    mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "could not send %s: %s", method ? method : "a response", text);

  if (ex->abort_reason == NULL)
    g_signal_emit (self, signals[SIGNAL_INTERRUPTED], 0, text);

  if (stream != NULL)
    request_fail (self, stream, unreachable_code (ex, error), text, NULL);
  else
    exchange_detach (ex, text);
}

static void
exchange_failed (McpHttpTransport *self,
                 Exchange         *ex,
                 const GError     *error)
{
  const char *cause = ex->abort_reason != NULL ? ex->abort_reason : error->message;
  Stream *stream = ex->stream;

  switch (ex->role)
    {
    case ROLE_POST:
      post_failed (self, ex, error);
      break;

    case ROLE_RESUME:
      exchange_detach (ex, NULL);
      stream_ended (self, stream, BODY_SSE, cause);
      break;

    case ROLE_LISTEN:
      release_held (self);
      exchange_detach (ex, NULL);
      listen_ended (self, cause);
      break;

    case ROLE_DELETE:
    default:
      exchange_detach (ex, NULL);
      delete_done (self);
      break;
    }
}

static gboolean
has_content_type (SoupMessage *msg,
                  const char  *expected)
{
  SoupMessageHeaders *headers = soup_message_get_response_headers (msg);
  const char *type = soup_message_headers_get_content_type (headers, NULL);

  return type != NULL && g_ascii_strcasecmp (type, expected) == 0;
}

static void
post_headers (McpHttpTransport *self,
              Exchange         *ex)
{
  guint status = soup_message_get_status (ex->msg);
  McpMessageKind kind = mcp_message_get_kind (ex->message);
  const char *method = mcp_message_get_method (ex->message);
  Stream *stream = ex->stream;

  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      if (status == SOUP_STATUS_NOT_FOUND && ex->session != NULL)
        {
          const char *text = "the server no longer knows the session (HTTP 404 Not Found); "
                             "a new session must be initialized";
          g_autoptr(JsonNode) data = status_data (ex->msg, NULL);

          session_expired (self, ex);
          exchange_complete_task (ex, MCP_ERROR_SESSION_EXPIRED, text);
          if (stream != NULL)
            request_fail (self, stream, MCP_ERROR_SESSION_EXPIRED, text, data);
          else
            exchange_detach (ex, NULL);
          return;
        }

      start_refusal (self, ex);
      return;
    }

  if (kind == MCP_MESSAGE_REQUEST && g_strcmp0 (method, "initialize") == 0 &&
      !self->stateless && !take_session_id (self, ex))
    return;

  exchange_complete_task (ex, 0, NULL);

  if (kind != MCP_MESSAGE_REQUEST)
    {
      /* Whatever a body holds (some servers answer a notification with 200
       * and a JSON body), it answers nothing of ours and is not read. */
      gboolean initialized = ex->opens_listen;

      ex->opens_listen = FALSE;
      exchange_drain (ex);
      if (initialized)
        open_listen (self);
      return;
    }

  if (has_content_type (ex->msg, "application/json"))
    start_json (self, ex);
  else if (has_content_type (ex->msg, "text/event-stream"))
    start_sse (self, ex);
  else
    {
      SoupMessageHeaders *headers = soup_message_get_response_headers (ex->msg);
      const char *type = soup_message_headers_get_content_type (headers, NULL);
      g_autofree char *status_text = describe_status (ex->msg);
      g_autofree char *text = NULL;

      if (type != NULL)
        {
          g_autofree char *clean = mcp_http_make_excerpt (type, strlen (type));

          text = g_strdup_printf ("the server accepted the request (%s) but answered with %s "
                                  "instead of JSON or an event stream", status_text, clean);
        }
      else
        text = g_strdup_printf ("the server accepted the request (%s) but sent no answer",
                                status_text);

      request_fail (self, stream, MCP_ERROR_INVALID_MESSAGE, text, NULL);
    }
}

static void
get_headers (McpHttpTransport *self,
             Exchange         *ex)
{
  guint status = soup_message_get_status (ex->msg);
  g_autofree char *status_text = describe_status (ex->msg);
  Stream *stream = ex->stream;

  if (ex->role == ROLE_LISTEN)
    release_held (self);

  if (SOUP_STATUS_IS_SUCCESSFUL (status) && has_content_type (ex->msg, "text/event-stream"))
    {
      start_sse (self, ex);
      return;
    }

  /* Any other answer means the server keeps no such stream: not an error,
   * since the stream is optional. */
  if (ex->role == ROLE_LISTEN)
    {
      if (!self->listen_refusal_logged)
        {
          self->listen_refusal_logged = TRUE;
          mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "the server offers no stream for the messages it sends unasked "
                      "(it answered %s); only answers to requests will arrive", status_text);
        }
      exchange_drain (ex);
      stream_remove (self, stream, NULL);
      return;
    }

  if (status == SOUP_STATUS_NOT_FOUND && ex->session != NULL)
    {
      g_autoptr(JsonNode) data = status_data (ex->msg, NULL);

      session_expired (self, ex);
      request_fail (self, stream, MCP_ERROR_SESSION_EXPIRED,
                    "the server no longer knows the session (HTTP 404 Not Found), so the "
                    "stream of the request cannot be resumed; a new session must be initialized",
                    data);
      return;
    }

  if (SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      g_autofree char *text = g_strdup_printf ("the server closed the stream before answering, "
                                               "and answered its resumption (%s) with no event "
                                               "stream", status_text);

      request_fail (self, stream, MCP_ERROR_CLOSED, text, NULL);
      return;
    }

  start_refusal (self, ex);
}

static void
exchange_sent_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(Exchange) ex = user_data;
  g_autoptr(McpHttpTransport) self = NULL;
  g_autoptr(GError) error = NULL;
  GInputStream *body;

  body = soup_session_send_finish (SOUP_SESSION (object), result, &error);

  /* The body is closed with the exchange, whatever becomes of it. */
  ex->body = body;
  if (ex->self == NULL)
    return;

  self = g_object_ref (ex->self);
  clear_source (&ex->timer);

  if (body == NULL)
    {
      exchange_failed (self, ex, error);
      return;
    }

  if (SOUP_STATUS_IS_SUCCESSFUL (soup_message_get_status (ex->msg)))
    self->unreachable_logged = FALSE;

  switch (ex->role)
    {
    case ROLE_POST:
      post_headers (self, ex);
      break;

    case ROLE_RESUME:
    case ROLE_LISTEN:
      get_headers (self, ex);
      break;

    case ROLE_DELETE:
    default:
      exchange_detach (ex, NULL);
      delete_done (self);
      break;
    }
}

/* The message reader */

static void
reader_drained (McpHttpTransport *self)
{
  if (reader_busy (self))
    return;

  flush_local (self);
  settle_streams (self);
}

static void
reader_message_cb (McpHttpTransport *self,
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
        exchange_drain (ex);
      if (stream != NULL)
        stream_remove (self, stream, NULL);
    }

  mcp_transport_emit_message (MCP_TRANSPORT (self), message);
  reader_drained (self);
}

static void
reader_invalid_cb (McpHttpTransport *self,
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

static void
reader_misbehaving_cb (McpHttpTransport *self,
                       const GError     *error)
{
  fail_connection (self, g_error_new (MCP_ERROR, MCP_ERROR_MISBEHAVING,
                                      "%s; the connection was closed", error->message));
}

/* McpTransport */

static void
mcp_http_transport_start_async (McpTransport        *transport,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  McpHttpTransport *self = MCP_HTTP_TRANSPORT (transport);
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_http_transport_start_async);

  if (self->state != STATE_NEW)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_BUSY,
                               "the transport was already started; a transport connects once");
      return;
    }

  if (g_task_return_error_if_cancelled (task))
    return;

  if (self->uri == NULL)
    {
      g_autoptr(GUri) uri = mcp_http_parse_url (self->url != NULL ? self->url : "", &error);

      g_assert (uri == NULL);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* Nothing is sent yet: the first POST, `initialize`, meets the server. */
  self->context = g_main_context_ref_thread_default ();
  self->session = soup_session_new_with_options ("max-conns", MAX_CONNECTIONS,
                                                 "max-conns-per-host", MAX_CONNECTIONS_PER_HOST,
                                                 "timeout", 0,
                                                 "user-agent", "Steward/" PACKAGE_VERSION,
                                                 NULL);
  soup_session_set_proxy_resolver (self->session, NULL);

  self->reader = mcp_message_reader_new ();
  mcp_message_reader_set_allow_batches (self->reader, self->allow_batches);
  g_signal_connect_object (self->reader, "message",
                           G_CALLBACK (reader_message_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->reader, "invalid",
                           G_CALLBACK (reader_invalid_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->reader, "misbehaving",
                           G_CALLBACK (reader_misbehaving_cb), self, G_CONNECT_SWAPPED);

  self->state = STATE_RUNNING;
  g_task_return_boolean (task, TRUE);
}

static gboolean
mcp_http_transport_start_finish (McpTransport  *transport,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, transport), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
mcp_http_transport_send_async (McpTransport        *transport,
                               McpMessage          *message,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  McpHttpTransport *self = MCP_HTTP_TRANSPORT (transport);
  McpMessageKind kind = mcp_message_get_kind (message);
  const char *method = mcp_message_get_method (message);
  g_autoptr(GTask) task = NULL;
  Stream *stream = NULL;
  Exchange *ex;

  if (callback != NULL)
    {
      task = g_task_new (self, cancellable, callback, user_data);
      g_task_set_source_tag (task, mcp_http_transport_send_async);
      /* A POST under way is not called back: a request the server may have
       * taken cannot be unsent. */
      g_task_set_check_cancellable (task, FALSE);
    }

  if (self->state != STATE_RUNNING)
    {
      if (task != NULL)
        g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_CLOSED,
                                 self->state == STATE_NEW
                                 ? "the transport has not been started"
                                 : "the connection to the server is closed");
      return;
    }

  if (g_cancellable_is_cancelled (cancellable))
    {
      if (task != NULL)
        g_task_return_error_if_cancelled (task);
      return;
    }

  if (kind == MCP_MESSAGE_NOTIFICATION && g_str_equal (method, "notifications/cancelled"))
    {
      JsonObject *params = mcp_message_get_params (message);
      g_autofree char *key = NULL;
      Stream *cancelled = NULL;

      if (params != NULL)
        key = id_key_from_node (json_object_get_member (params, "requestId"));
      if (key != NULL)
        cancelled = g_hash_table_lookup (self->requests, key);

      /* The client gave up on the request, so its stream is of no more use;
       * in the 2026-07-28 shape closing it is the cancellation itself, and
       * nothing is posted. */
      if (cancelled != NULL)
        stream_remove (self, cancelled, NULL);

      if (self->stateless)
        {
          if (task != NULL)
            g_task_return_boolean (task, TRUE);
          return;
        }
    }

  if (kind == MCP_MESSAGE_REQUEST)
    {
      g_autofree char *key = mcp_message_dup_id_string (message);

      if (g_hash_table_contains (self->requests, key))
        {
          mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "did not send a %s request: a request with the same id is still "
                      "waiting for its answer", method);
          if (task != NULL)
            g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                     "a request with the same id is still waiting for its "
                                     "answer");
          return;
        }

      stream = stream_new (self, key, mcp_message_get_id (message), method);
      g_hash_table_insert (self->requests, stream->key, stream);
    }

  ex = exchange_new (self, ROLE_POST, stream);
  ex->message = mcp_message_ref (message);
  ex->task = g_steal_pointer (&task);
  post_prepare (self, ex);
  exchange_start (self, ex);

  /* What the client sends next waits for the GET stream this opens. */
  if (kind == MCP_MESSAGE_NOTIFICATION && g_str_equal (method, "notifications/initialized") &&
      !self->stateless && self->listen == NULL && self->hold_source == NULL)
    {
      ex->opens_listen = TRUE;
      self->hold_source = schedule (self, LISTEN_WAIT_MS, hold_expired_cb, self);
    }
}

static gboolean
mcp_http_transport_send_finish (McpTransport  *transport,
                                GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, transport), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
mcp_http_transport_close_async (McpTransport        *transport,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  McpHttpTransport *self = MCP_HTTP_TRANSPORT (transport);
  g_autoptr(McpHttpTransport) hold = g_object_ref (self);
  g_autoptr(GPtrArray) answers = NULL;
  g_autoptr(GTask) task = NULL;
  GHashTableIter iter;
  gpointer value;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_http_transport_close_async);
  /* The close goes on regardless; it is bounded by the DELETE's timeout. */
  g_task_set_check_cancellable (task, FALSE);

  if (self->state == STATE_NEW || self->state == STATE_CLOSED)
    {
      self->state = STATE_CLOSED;
      g_task_return_boolean (task, TRUE);
      return;
    }

  g_queue_push_tail (&self->close_tasks, g_steal_pointer (&task));
  if (self->state == STATE_CLOSING)
    return;

  self->state = STATE_CLOSING;

  /* What the reader still parses is dropped with it; requests still
   * waiting are answered here, so that none waits for a timeout. */
  drop_reader (self);
  answers = g_ptr_array_new_with_free_func ((GDestroyNotify) mcp_message_unref);
  g_hash_table_iter_init (&iter, self->requests);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (answers, mcp_message_new_error (((Stream *) value)->id, MCP_ERROR_CLOSED,
                                                     "the connection to the server was closed "
                                                     "before it answered", NULL));

  abandon_all (self, "the connection to the server was closed");

  for (guint i = 0; i < answers->len && !self->closed_emitted; i++)
    mcp_transport_emit_message (MCP_TRANSPORT (self), g_ptr_array_index (answers, i));

  if (self->state != STATE_CLOSING)
    return;

  if (self->session_id != NULL && !self->stateless)
    send_delete (self);
  else
    finish_close (self);
}

static gboolean
mcp_http_transport_close_finish (McpTransport  *transport,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, transport), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
mcp_http_transport_set_protocol_version (McpTransport *transport,
                                         const char   *version)
{
  McpHttpTransport *self = MCP_HTTP_TRANSPORT (transport);
  McpRevision revision = mcp_revision_from_string (version);

  g_free (self->protocol_version);
  self->protocol_version = g_strdup (version);
  self->stateless = mcp_revision_is_stateless (revision);
  self->allow_batches = mcp_revision_allows_batches (revision);

  if (self->reader != NULL)
    mcp_message_reader_set_allow_batches (self->reader, self->allow_batches);

  /* The 2026-07-28 shape has no sessions and no GET stream. */
  if (self->stateless)
    {
      g_clear_pointer (&self->session_id, g_free);
      if (self->listen != NULL)
        stream_remove (self, self->listen, NULL);
    }
}

static const char *
mcp_http_transport_get_description (McpTransport *transport)
{
  McpHttpTransport *self = MCP_HTTP_TRANSPORT (transport);

  return self->description != NULL ? self->description : "(an invalid URL)";
}

static void
mcp_http_transport_iface_init (McpTransportInterface *iface)
{
  iface->start_async = mcp_http_transport_start_async;
  iface->start_finish = mcp_http_transport_start_finish;
  iface->send_async = mcp_http_transport_send_async;
  iface->send_finish = mcp_http_transport_send_finish;
  iface->close_async = mcp_http_transport_close_async;
  iface->close_finish = mcp_http_transport_close_finish;
  iface->set_protocol_version = mcp_http_transport_set_protocol_version;
  iface->get_description = mcp_http_transport_get_description;
}

/* GObject */

static void
mcp_http_transport_dispose (GObject *object)
{
  McpHttpTransport *self = MCP_HTTP_TRANSPORT (object);

  if (self->state != STATE_NEW)
    self->state = STATE_CLOSED;

  drop_reader (self);
  abandon_all (self, "the transport was destroyed");
  if (self->session != NULL)
    soup_session_abort (self->session);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (mcp_http_transport_parent_class)->dispose (object);
}

static void
mcp_http_transport_finalize (GObject *object)
{
  McpHttpTransport *self = MCP_HTTP_TRANSPORT (object);

  g_assert (g_queue_is_empty (&self->close_tasks));

  g_clear_pointer (&self->url, g_free);
  g_clear_pointer (&self->uri, g_uri_unref);
  g_clear_pointer (&self->origin, g_free);
  g_clear_pointer (&self->description, g_free);
  g_clear_pointer (&self->headers, g_ptr_array_unref);
  g_clear_pointer (&self->protocol_version, g_free);
  g_clear_pointer (&self->session_id, g_free);
  g_clear_pointer (&self->exchanges, g_ptr_array_unref);
  g_clear_pointer (&self->requests, g_hash_table_unref);
  g_clear_pointer (&self->context, g_main_context_unref);

  G_OBJECT_CLASS (mcp_http_transport_parent_class)->finalize (object);
}

static void
mcp_http_transport_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  McpHttpTransport *self = MCP_HTTP_TRANSPORT (object);

  switch (prop_id)
    {
    case PROP_URL:
      g_value_set_string (value, self->url);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_http_transport_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  McpHttpTransport *self = MCP_HTTP_TRANSPORT (object);

  switch (prop_id)
    {
    case PROP_URL:
      self->url = g_value_dup_string (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_http_transport_constructed (GObject *object)
{
  McpHttpTransport *self = MCP_HTTP_TRANSPORT (object);

  G_OBJECT_CLASS (mcp_http_transport_parent_class)->constructed (object);

  /* A URL that does not parse is reported by start_async(). */
  if (self->url != NULL)
    self->uri = mcp_http_parse_url (self->url, NULL);

  if (self->uri != NULL)
    {
      self->origin = mcp_http_describe_origin (self->uri);
      self->description = mcp_http_describe_url (self->uri);
    }
}

static void
mcp_http_transport_class_init (McpHttpTransportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = mcp_http_transport_constructed;
  object_class->dispose = mcp_http_transport_dispose;
  object_class->finalize = mcp_http_transport_finalize;
  object_class->get_property = mcp_http_transport_get_property;
  object_class->set_property = mcp_http_transport_set_property;

  properties[PROP_URL] =
    g_param_spec_string ("url", NULL, NULL,
                         NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * McpHttpTransport::interrupted:
   * @reason: what broke, in words a person can read
   *
   * The connection to the server broke while the transport goes on: the
   * standalone GET stream ended, or a request could not reach the server
   * or lost its connection before the answer. The transport reopens the
   * stream and sends later messages as before; whoever wants to know
   * whether the server still answers asks it (a ping).
   */
  signals[SIGNAL_INTERRUPTED] =
    g_signal_new ("interrupted", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
mcp_http_transport_init (McpHttpTransport *self)
{
  self->headers = g_ptr_array_new_with_free_func (g_free);
  self->max_message_size = MCP_DEFAULT_MAX_MESSAGE_SIZE;
  self->idle_timeout_ms = MCP_HTTP_IDLE_TIMEOUT_MS;
  self->exchanges = g_ptr_array_new_with_free_func ((GDestroyNotify) exchange_unref);
  self->requests = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                          (GDestroyNotify) stream_free);
  g_queue_init (&self->held);
  g_queue_init (&self->local);
  g_queue_init (&self->close_tasks);
}

/**
 * mcp_http_transport_new:
 * @url: the server's MCP endpoint, http:// or https://
 *
 * Returns: (transfer full) (nullable): a transport for @url, or %NULL with
 *   @error set when @url is not an http or https URL with a host
 */
McpHttpTransport *
mcp_http_transport_new (const char  *url,
                        GError     **error)
{
  g_autoptr(GUri) uri = NULL;

  g_return_val_if_fail (url != NULL, NULL);

  uri = mcp_http_parse_url (url, error);
  if (uri == NULL)
    return NULL;

  return g_object_new (MCP_TYPE_HTTP_TRANSPORT, "url", url, NULL);
}

const char *
mcp_http_transport_get_url (McpHttpTransport *self)
{
  g_return_val_if_fail (MCP_IS_HTTP_TRANSPORT (self), NULL);

  return self->url;
}

static gboolean
is_header_name (const char *name)
{
  if (name == NULL || name[0] == '\0')
    return FALSE;

  for (const char *p = name; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && strchr ("!#$%&'*+-.^_`|~", *p) == NULL)
      return FALSE;

  return TRUE;
}

/**
 * mcp_http_transport_set_header:
 * @name: a header name
 * @value: (nullable): its value, or %NULL to remove it
 *
 * Adds a header to every request to the server (an `Authorization`, an API
 * key). Headers the protocol sets itself (Accept, Content-Type,
 * Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID, Mcp-Method,
 * Mcp-Name) cannot be overridden and are ignored. Values are never logged.
 */
void
mcp_http_transport_set_header (McpHttpTransport *self,
                               const char       *name,
                               const char       *value)
{
  g_return_if_fail (MCP_IS_HTTP_TRANSPORT (self));
  g_return_if_fail (is_header_name (name));
  g_return_if_fail (value == NULL || strpbrk (value, "\r\n") == NULL);

  for (guint i = 0; i + 1 < self->headers->len; i += 2)
    if (g_ascii_strcasecmp (g_ptr_array_index (self->headers, i), name) == 0)
      {
        g_ptr_array_remove_range (self->headers, i, 2);
        break;
      }

  if (value != NULL)
    {
      g_ptr_array_add (self->headers, g_strdup (name));
      g_ptr_array_add (self->headers, g_strdup (value));
    }
}

/**
 * mcp_http_transport_set_max_message_size:
 * @max_size: the largest JSON reply or event the server may send, in
 *   decoded bytes
 *
 * Takes effect for replies that start after the call.
 */
void
mcp_http_transport_set_max_message_size (McpHttpTransport *self,
                                         gsize             max_size)
{
  g_return_if_fail (MCP_IS_HTTP_TRANSPORT (self));
  g_return_if_fail (max_size > 0);

  self->max_message_size = max_size;
}

/**
 * mcp_http_transport_set_idle_timeout:
 * @timeout_ms: how long a reply's headers may take, how long a JSON reply
 *   may take to arrive whole, and how long an event stream may go without
 *   ending an event or a line between events
 *
 * Defaults to %MCP_HTTP_IDLE_TIMEOUT_MS; takes effect for what starts after
 * the call.
 */
void
mcp_http_transport_set_idle_timeout (McpHttpTransport *self,
                                     guint             timeout_ms)
{
  g_return_if_fail (MCP_IS_HTTP_TRANSPORT (self));
  g_return_if_fail (timeout_ms > 0);

  self->idle_timeout_ms = timeout_ms;
}

guint
mcp_http_transport_get_idle_timeout (McpHttpTransport *self)
{
  g_return_val_if_fail (MCP_IS_HTTP_TRANSPORT (self), 0);

  return self->idle_timeout_ms;
}

/**
 * mcp_http_transport_has_session:
 *
 * Returns: whether the server gave a session id that is still in use
 */
gboolean
mcp_http_transport_has_session (McpHttpTransport *self)
{
  g_return_val_if_fail (MCP_IS_HTTP_TRANSPORT (self), FALSE);

  return self->session_id != NULL;
}

/**
 * mcp_http_transport_is_listening:
 *
 * Returns: whether the standalone GET stream, which carries what the server
 *   sends unasked, is open now
 */
gboolean
mcp_http_transport_is_listening (McpHttpTransport *self)
{
  g_return_val_if_fail (MCP_IS_HTTP_TRANSPORT (self), FALSE);

  return self->listen != NULL && self->listen->open;
}

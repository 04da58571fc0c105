/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* What the parts of McpHttpTransport share: mcp-http-transport.c (the
 * object, the McpTransport interface, the session and closing),
 * mcp-http-transport-exchange.c (HTTP exchanges, the streams they carry,
 * and sending POSTs and GETs), mcp-http-transport-headers.c (the headers
 * of a request, and what the status and headers of a reply decide) and
 * mcp-http-transport-stream.c (reading replies: JSON, event streams, their
 * resumption, and handing messages to the reader). */

#include "mcp-soup.h"

#include "mcp-http-transport-base-private.h"
#include "mcp-http-transport.h"
#include "mcp-message-reader.h"
#include "mcp-source-private.h"
#include "mcp-sse-parser.h"

G_BEGIN_DECLS

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
  McpHttpTransportBase parent_instance;

  char              *origin;
  char              *description;
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

/* mcp-http-transport.c */
void      mcp_http_transport_emit_interrupted       (McpHttpTransport  *self,
                                                     const char        *text);
GSource  *mcp_http_transport_schedule               (McpHttpTransport  *self,
                                                     guint              delay_ms,
                                                     GSourceFunc        func,
                                                     gpointer           data);
int       mcp_http_transport_unreachable_code       (Exchange          *ex,
                                                     const GError      *error);
void      mcp_http_transport_delete_done            (McpHttpTransport  *self);
void      mcp_http_transport_fail_connection        (McpHttpTransport  *self,
                                                     GError            *error);
void      mcp_http_transport_fail_too_large         (McpHttpTransport  *self,
                                                     const char        *what);
gboolean  mcp_http_transport_take_session_id        (McpHttpTransport  *self,
                                                     Exchange          *ex);
void      mcp_http_transport_session_expired        (McpHttpTransport  *self,
                                                     Exchange          *ex);

/* mcp-http-transport-exchange.c */
Exchange *mcp_http_transport_exchange_new           (McpHttpTransport  *self,
                                                     Role               role,
                                                     Stream            *stream);
Exchange *mcp_http_transport_exchange_ref           (Exchange          *ex);
void      mcp_http_transport_exchange_unref         (Exchange          *ex);
void      mcp_http_transport_exchange_complete_task (Exchange          *ex,
                                                     int                code,
                                                     const char        *failure);
void      mcp_http_transport_exchange_detach        (Exchange          *ex,
                                                     const char        *failure);
void      mcp_http_transport_exchange_arm_timer     (Exchange          *ex,
                                                     guint              timeout_ms,
                                                     Wait               wait);
void      mcp_http_transport_exchange_drain         (Exchange          *ex);
Stream   *mcp_http_transport_stream_new             (McpHttpTransport  *self,
                                                     const char        *key,
                                                     JsonNode          *id,
                                                     const char        *method);
void      mcp_http_transport_stream_free            (Stream            *stream);
void      mcp_http_transport_stream_remove          (McpHttpTransport  *self,
                                                     Stream            *stream,
                                                     const char        *failure);
void      mcp_http_transport_post_prepare           (McpHttpTransport  *self,
                                                     Exchange          *ex);
void      mcp_http_transport_exchange_begin         (McpHttpTransport  *self,
                                                     Exchange          *ex);
void      mcp_http_transport_exchange_start         (McpHttpTransport  *self,
                                                     Exchange          *ex);
void      mcp_http_transport_release_held           (McpHttpTransport  *self);
gboolean  mcp_http_transport_hold_expired_cb        (gpointer           user_data);
void      mcp_http_transport_start_get              (McpHttpTransport  *self,
                                                     Stream            *stream);
void      mcp_http_transport_send_delete            (McpHttpTransport  *self);
void      mcp_http_transport_open_listen            (McpHttpTransport  *self);

/* mcp-http-transport-headers.c */
void      mcp_http_transport_apply_headers          (McpHttpTransport  *self,
                                                     Exchange          *ex);
void      mcp_http_transport_exchange_sent_cb       (GObject           *object,
                                                     GAsyncResult      *result,
                                                     gpointer           user_data);

/* mcp-http-transport-stream.c */
void      mcp_http_transport_emit_closed            (McpHttpTransport  *self,
                                                     const GError      *error);
void      mcp_http_transport_request_fail           (McpHttpTransport  *self,
                                                     Stream            *stream,
                                                     int                code,
                                                     const char        *text,
                                                     JsonNode          *data);
JsonNode *mcp_http_transport_status_data            (SoupMessage       *msg,
                                                     JsonNode          *rpc_error);
void      mcp_http_transport_drop_reader            (McpHttpTransport  *self);
void      mcp_http_transport_abandon_all            (McpHttpTransport  *self,
                                                     const char        *why);
void      mcp_http_transport_complete_close_tasks   (McpHttpTransport  *self);
void      mcp_http_transport_listen_ended           (McpHttpTransport  *self,
                                                     const char        *cause);
void      mcp_http_transport_stream_ended           (McpHttpTransport  *self,
                                                     Stream            *stream,
                                                     BodyKind           kind,
                                                     const char        *cause);
void      mcp_http_transport_settle_streams         (McpHttpTransport  *self);
void      mcp_http_transport_exchange_read          (Exchange          *ex);
void      mcp_http_transport_start_json             (McpHttpTransport  *self,
                                                     Exchange          *ex);
void      mcp_http_transport_start_sse              (McpHttpTransport  *self,
                                                     Exchange          *ex);
void      mcp_http_transport_start_refusal          (McpHttpTransport  *self,
                                                     Exchange          *ex);
char     *mcp_http_transport_describe_status        (SoupMessage       *msg);
void      mcp_http_transport_reader_message_cb      (McpHttpTransport  *self,
                                                     McpMessage        *message);
void      mcp_http_transport_reader_invalid_cb      (McpHttpTransport  *self,
                                                     const GError      *error,
                                                     const char        *excerpt);
void      mcp_http_transport_reader_misbehaving_cb  (McpHttpTransport  *self,
                                                     const GError      *error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Exchange, mcp_http_transport_exchange_unref)

/* What McpHttpTransportBase keeps, as every request reads it. */
static inline GUri *
base_uri (McpHttpTransport *self)
{
  return mcp_http_transport_base_get_uri (MCP_HTTP_TRANSPORT_BASE (self));
}

static inline gsize
base_max_message_size (McpHttpTransport *self)
{
  return mcp_http_transport_base_get_max_message_size (MCP_HTTP_TRANSPORT_BASE (self));
}

static inline guint
base_idle_timeout (McpHttpTransport *self)
{
  return mcp_http_transport_base_get_idle_timeout (MCP_HTTP_TRANSPORT_BASE (self));
}

G_END_DECLS

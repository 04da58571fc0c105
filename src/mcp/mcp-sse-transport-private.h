/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* What the parts of McpSseTransport share: mcp-sse-transport.c (the object
 * and the McpTransport interface), mcp-sse-transport-stream.c (the event
 * stream, the endpoint and the end of the connection),
 * mcp-sse-transport-post.c (the POSTs of messages) and
 * mcp-sse-transport-errors.c (the errors made of a refusal or a redirect). */

#include "mcp-soup.h"

#include "mcp-http-transport-base-private.h"
#include "mcp-message-reader.h"
#include "mcp-source-private.h"
#include "mcp-sse-parser.h"
#include "mcp-sse-transport.h"

G_BEGIN_DECLS

/* Text from the server quoted in an error or a diagnostic is cut here. */
#define QUOTE_MAX_CHARS 200
typedef enum {
  STATE_NEW,
  STATE_CONNECTING,  /* the GET is out; waiting for the endpoint */
  STATE_OPEN,
  STATE_CLOSED,
} State;

typedef struct _Post Post;

struct _McpSseTransport
{
  McpHttpTransportBase parent_instance;

  char              *description;
  guint              endpoint_timeout_ms;
  guint              post_timeout_ms;
  gboolean           allow_batches;

  State              state;
  GMainContext      *context;
  SoupSession       *session;

  /* Cancelled when the connection ends and in dispose, so that stream
   * callbacks arriving afterwards know to leave the transport alone. */
  GCancellable      *cancellable;
  GTask             *start_task;
  GSource           *start_cancel_source;
  GSource           *endpoint_source;
  GSource           *idle_source;
  GSource           *finish_source;
  gint64             last_activity;

  SoupMessage       *stream_message;
  GInputStream      *stream;
  gboolean           reading;
  McpSseParser      *parser;
  McpMessageReader  *reader;
  GUri              *endpoint_uri;
  char              *endpoint;
  GError            *ended;   /* why the stream ended, while the reader drains */
  gboolean           closed_emitted;
  gboolean           told_ignored_type;
  gboolean           told_ignored_endpoint;

  /* POSTs go one at a time: those waiting their turn, the one waiting for
   * its status, and every one started and not yet finished. */
  GQueue             post_queue;
  Post              *post_in_flight;
  GSource           *post_timeout_source;
  GPtrArray         *live_posts;
};

/* One message to POST. While it waits in the queue the transport owns it;
 * once started, its chain of callbacks does, and the transport only points
 * at it from live_posts. */
struct _Post
{
  McpSseTransport *self;         /* NULL once the transport let go of it */
  GBytes          *body;
  JsonNode        *id;           /* a request's id, else NULL */
  char            *what;         /* "tools/call request", for messages */
  GTask           *task;         /* NULL when the caller asked for no answer */
  GCancellable    *cancellable;
  SoupMessage     *message;
  GInputStream    *response;
  GString         *excerpt;      /* of a refusal's body */
  gsize            received;
};

/* mcp-sse-transport.c */
GSource *mcp_sse_transport_schedule              (McpSseTransport     *self,
                                                  guint                delay_ms,
                                                  GSourceFunc          func,
                                                  const char          *name);

/* mcp-sse-transport-post.c */
char    *mcp_sse_transport_describe_message      (McpMessage          *message);
void     mcp_sse_transport_post_free             (Post                *post);
void     mcp_sse_transport_post_abandon          (Post                *post);
void     mcp_sse_transport_post_next             (McpSseTransport     *self);

/* mcp-sse-transport-stream.c */
void     mcp_sse_transport_emit_closed           (McpSseTransport     *self,
                                                  const GError        *error);
void     mcp_sse_transport_stop                  (McpSseTransport     *self);
void     mcp_sse_transport_fail_start            (McpSseTransport     *self,
                                                  GError              *error);
void     mcp_sse_transport_read_stream           (McpSseTransport     *self);
void     mcp_sse_transport_stream_sent_cb        (GObject             *object,
                                                  GAsyncResult        *result,
                                                  gpointer             user_data);
gboolean mcp_sse_transport_endpoint_timeout_cb   (gpointer             user_data);
gboolean mcp_sse_transport_start_cancelled_cb    (GCancellable        *cancellable,
                                                  gpointer             user_data);
void     mcp_sse_transport_reader_message_cb     (McpSseTransport     *self,
                                                  McpMessage          *message);
void     mcp_sse_transport_reader_invalid_cb     (McpSseTransport     *self,
                                                  const GError        *error,
                                                  const char          *excerpt);
void     mcp_sse_transport_reader_misbehaving_cb (McpSseTransport     *self,
                                                  const GError        *error);

/* mcp-sse-transport-errors.c */
char    *mcp_sse_transport_quote_text            (const char          *data,
                                                  gssize               length);
char    *mcp_sse_transport_describe_uri          (GUri                *uri,
                                                  gboolean             with_path);
void     mcp_sse_transport_set_status_data       (GError              *error,
                                                  guint                status);
GError  *mcp_sse_transport_redirect_error        (McpSseTransport     *self,
                                                  GUri                *from,
                                                  guint                status,
                                                  SoupMessageHeaders  *headers,
                                                  const char          *what);
GError  *mcp_sse_transport_stream_status_error   (McpSseTransport     *self,
                                                  guint                status,
                                                  SoupMessageHeaders  *headers);

G_END_DECLS

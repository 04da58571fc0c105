/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-sse-transport"

#include "config.h"

#include <string.h>

#include <libsoup/soup.h>

#include "mcp-error.h"
#include "mcp-format-private.h"
#include "mcp-line-framer.h"
#include "mcp-message-reader.h"
#include "mcp-revision.h"
#include "mcp-sse-parser.h"
#include "mcp-sse-transport.h"

/* Bytes asked for per read of the event stream. */
#define READ_CHUNK (64 * 1024)

/* Stop reading the stream while this many large messages wait for the
 * parser, so that a server sending big messages faster than they parse
 * cannot grow the queue without bound; TCP then pushes back on it. */
#define MAX_PENDING_TEXTS 4

/* The answer to a POST carries nothing we need (replies come on the
 * stream). It is read to its end so that the connection can serve the next
 * POST, but no further than this: a longer one costs the connection. */
#define POST_BODY_MAX (64 * 1024)
#define POST_READ_CHUNK (8 * 1024)

/* The stream holds one connection for as long as it lasts; POSTs need one
 * more, and another while the answer to the previous one is still read. */
#define MAX_CONNS_PER_HOST 4

/* Text from the server quoted in an error or a diagnostic is cut here. */
#define QUOTE_MAX_CHARS 200

/**
 * McpSseTransport:
 *
 * Talks to a remote MCP server through the HTTP+SSE transport of
 * 2024-11-05, deprecated since 2025-03-26 but still what many servers
 * speak.
 *
 * Nothing goes anywhere but the configured origin: the endpoint the server
 * names must have the stream's scheme, host and port, redirects are never
 * followed, and so the configured headers (tokens among them) reach only
 * the server the person chose.
 */

typedef enum {
  STATE_NEW,
  STATE_CONNECTING,  /* the GET is out; waiting for the endpoint */
  STATE_OPEN,
  STATE_CLOSED,
} State;

typedef struct {
  char *name;
  char *value;
} Header;

typedef struct _Post Post;

struct _McpSseTransport
{
  GObject            parent_instance;

  char              *url;
  GUri              *uri;
  char              *description;
  GPtrArray         *headers;
  gsize              max_message_size;
  guint              endpoint_timeout_ms;
  guint              idle_timeout_ms;
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

enum {
  PROP_0,
  PROP_URL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void mcp_sse_transport_iface_init (McpTransportInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (McpSseTransport, mcp_sse_transport, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (MCP_TYPE_TRANSPORT,
                                                      mcp_sse_transport_iface_init))

static void read_stream  (McpSseTransport *self);
static void post_next    (McpSseTransport *self);

static void
clear_source (GSource **source)
{
  if (*source == NULL)
    return;

  g_source_destroy (*source);
  g_clear_pointer (source, g_source_unref);
}

static GSource *
schedule (McpSseTransport *self,
          guint            delay_ms,
          GSourceFunc      func,
          const char      *name)
{
  GSource *source = delay_ms > 0 ? g_timeout_source_new (delay_ms) : g_idle_source_new ();

  g_source_set_callback (source, func, self, NULL);
  g_source_set_static_name (source, name);
  g_source_attach (source, self->context);

  return source;
}

/* Text the server chose, made safe to show: valid UTF-8, no control or
 * invisible formatting characters, and not too long. */
static char *
quote_text (const char *data,
            gssize      length)
{
  g_autofree char *valid = g_utf8_make_valid (data, length);
  GString *text = g_string_new (NULL);
  guint n_chars = 0;

  for (const char *p = valid; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (n_chars == QUOTE_MAX_CHARS)
        {
          g_string_append (text, "…");
          break;
        }

      if (g_unichar_iscntrl (c) || g_unichar_type (c) == G_UNICODE_FORMAT)
        g_string_append_c (text, ' ');
      else
        g_string_append_unichar (text, c);
      n_chars++;
    }

  return g_strstrip (g_string_free (text, FALSE));
}

static int
default_port (const char *scheme)
{
  if (g_ascii_strcasecmp (scheme, "http") == 0)
    return 80;
  if (g_ascii_strcasecmp (scheme, "https") == 0)
    return 443;

  return -1;
}

static int
effective_port (GUri *uri)
{
  int port = g_uri_get_port (uri);

  return port > 0 ? port : default_port (g_uri_get_scheme (uri));
}

/* The origin as browsers define it: scheme, host and port, with a missing
 * port taken as the scheme's default. */
static gboolean
same_origin (GUri *a,
             GUri *b)
{
  const char *host_a = g_uri_get_host (a);
  const char *host_b = g_uri_get_host (b);

  return g_ascii_strcasecmp (g_uri_get_scheme (a), g_uri_get_scheme (b)) == 0 &&
         host_a != NULL && host_b != NULL &&
         g_ascii_strcasecmp (host_a, host_b) == 0 &&
         effective_port (a) == effective_port (b);
}

/* A URL without what may be secret in it: user, password, query, fragment. */
static char *
describe_uri (GUri    *uri,
              gboolean with_path)
{
  g_autofree char *text = NULL;

  const char *scheme = g_uri_get_scheme (uri);
  int port = effective_port (uri);

  /* Without normalizing, which would make an empty path "/". */
  text = g_uri_join (G_URI_FLAGS_ENCODED, scheme, NULL, g_uri_get_host (uri),
                     port == default_port (scheme) ? -1 : port,
                     with_path ? g_uri_get_path (uri) : "", NULL, NULL);

  return quote_text (text, -1);
}

static JsonNode *
status_data (guint status)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);
  JsonObject *object = json_object_new ();

  json_object_set_int_member (object, "status", status);
  json_node_take_object (node, object);

  return node;
}

static void
set_status_data (GError *error,
                 guint   status)
{
  g_autoptr(JsonNode) data = status_data (status);

  mcp_error_set_data (error, data);
}

/* The server answered @what with a redirect. It is not followed: the
 * target could be anywhere, and the headers would go with the request. */
static GError *
redirect_error (McpSseTransport    *self,
                GUri               *from,
                guint               status,
                SoupMessageHeaders *headers,
                const char         *what)
{
  const char *location = soup_message_headers_get_one (headers, "Location");
  g_autoptr(GUri) target = NULL;
  GError *error;

  if (location != NULL)
    target = g_uri_parse_relative (from, location, SOUP_HTTP_URI_FLAGS, NULL);

  if (target == NULL)
    error = g_error_new (MCP_ERROR, MCP_ERROR_HTTP_STATUS,
                         "the server answered %s with a redirect (HTTP %u) to no valid URL; "
                         "redirects are not followed", what, status);
  else if (!same_origin (self->uri, target))
    {
      g_autofree char *origin = describe_uri (target, FALSE);

      error = g_error_new (MCP_ERROR, MCP_ERROR_FORBIDDEN_ORIGIN,
                           "the server redirected %s to another origin (%s) with HTTP %u; "
                           "redirects are not followed, so nothing was sent there",
                           what, origin, status);
    }
  else
    {
      g_autofree char *url = describe_uri (target, TRUE);

      error = g_error_new (MCP_ERROR, MCP_ERROR_HTTP_STATUS,
                           "the server redirected %s to %s with HTTP %u; redirects are not "
                           "followed, so configure that URL instead", what, url, status);
    }

  set_status_data (error, status);

  return error;
}

/* Why the GET that opens the stream was refused, in words that say what
 * to do about it. */
static GError *
stream_status_error (McpSseTransport    *self,
                     guint               status,
                     SoupMessageHeaders *headers)
{
  GError *error;

  if (SOUP_STATUS_IS_REDIRECTION (status))
    return redirect_error (self, self->uri, status, headers, "the event-stream request");

  switch (status)
    {
    case SOUP_STATUS_UNAUTHORIZED:
      error = g_error_new (MCP_ERROR, MCP_ERROR_HTTP_STATUS,
                           "%s needs authorization (HTTP 401 Unauthorized); configure a token "
                           "or an Authorization header for this server", self->description);
      break;

    case SOUP_STATUS_FORBIDDEN:
      error = g_error_new (MCP_ERROR, MCP_ERROR_HTTP_STATUS,
                           "%s refused the connection (HTTP 403 Forbidden); the credentials "
                           "configured for this server are not accepted", self->description);
      break;

    case SOUP_STATUS_NOT_FOUND:
      error = g_error_new (MCP_ERROR, MCP_ERROR_HTTP_STATUS,
                           "there is no event stream at %s (HTTP 404 Not Found); check the URL",
                           self->description);
      break;

    default:
      error = g_error_new (MCP_ERROR, MCP_ERROR_HTTP_STATUS,
                           "%s answered the event-stream request with HTTP %u %s",
                           self->description, status, soup_status_get_phrase (status));
      break;
    }

  set_status_data (error, status);

  return error;
}

static void
apply_headers (McpSseTransport *self,
               SoupMessage     *message)
{
  SoupMessageHeaders *headers = soup_message_get_request_headers (message);

  for (guint i = 0; i < self->headers->len; i++)
    {
      Header *header = g_ptr_array_index (self->headers, i);

      soup_message_headers_replace (headers, header->name, header->value);
    }
}

static void
header_free (Header *header)
{
  g_free (header->name);
  g_free (header->value);
  g_free (header);
}

static void
emit_closed (McpSseTransport *self,
             const GError    *error)
{
  if (self->closed_emitted)
    return;

  self->closed_emitted = TRUE;
  mcp_transport_emit_closed (MCP_TRANSPORT (self), error);
}

/* Posts */

static char *
describe_message (McpMessage *message)
{
  switch (mcp_message_get_kind (message))
    {
    case MCP_MESSAGE_REQUEST:
      return g_strdup_printf ("%s request", mcp_message_get_method (message));
    case MCP_MESSAGE_NOTIFICATION:
      return g_strdup_printf ("%s notification", mcp_message_get_method (message));
    case MCP_MESSAGE_RESULT:
    case MCP_MESSAGE_ERROR:
    default:
      return g_strdup ("response");
    }
}

static void
post_free (Post *post)
{
  g_assert (post->task == NULL);

  if (post->response != NULL)
    g_input_stream_close (post->response, NULL, NULL);
  g_clear_object (&post->response);
  g_clear_object (&post->message);
  g_clear_object (&post->cancellable);
  g_clear_pointer (&post->body, g_bytes_unref);
  g_clear_pointer (&post->id, json_node_unref);
  if (post->excerpt != NULL)
    g_string_free (post->excerpt, TRUE);
  g_free (post->what);
  g_free (post);
}

static void
post_succeed (Post *post)
{
  g_autoptr(GTask) task = g_steal_pointer (&post->task);

  if (task != NULL)
    g_task_return_boolean (task, TRUE);
}

/* The message did not reach the server. A caller waiting for the send
 * learns it from the task; otherwise a request is answered in the server's
 * place, so that it fails at once with the reason instead of timing out. */
static void
post_fail (McpSseTransport *self,
           Post            *post,
           GError          *error)
{
  g_autoptr(GTask) task = g_steal_pointer (&post->task);

  mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "%s", error->message);

  if (task != NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  if (post->id != NULL && self->state == STATE_OPEN)
    {
      g_autoptr(McpMessage) reply = NULL;

      reply = mcp_message_new_error (post->id, error->code, error->message,
                                     mcp_error_get_data (error));
      mcp_transport_emit_message (MCP_TRANSPORT (self), reply);
    }

  g_error_free (error);
}

/* For a post the connection ended under. */
static void
post_abandon (Post *post)
{
  g_autoptr(GTask) task = g_steal_pointer (&post->task);

  if (task != NULL)
    g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_CLOSED,
                             "the connection to the server closed before the %s was accepted",
                             post->what);
}

static void
post_detach (McpSseTransport *self,
             Post            *post)
{
  g_ptr_array_remove_fast (self->live_posts, post);
  post->self = NULL;
}

static GError *
post_status_error (McpSseTransport *self,
                   Post            *post,
                   guint            status)
{
  g_autofree char *excerpt = NULL;
  GError *error;

  if (post->excerpt != NULL && post->excerpt->len > 0)
    excerpt = quote_text (post->excerpt->str, post->excerpt->len);

  if (status == SOUP_STATUS_UNAUTHORIZED)
    error = g_error_new (MCP_ERROR, MCP_ERROR_HTTP_STATUS,
                         "the server refused the %s: it needs authorization (HTTP 401 "
                         "Unauthorized)", post->what);
  else
    error = g_error_new (MCP_ERROR, MCP_ERROR_HTTP_STATUS,
                         "the server refused the %s with HTTP %u %s%s%s", post->what, status,
                         soup_status_get_phrase (status),
                         excerpt != NULL && excerpt[0] != '\0' ? ": " : "",
                         excerpt != NULL ? excerpt : "");

  set_status_data (error, status);

  return error;
}

static void post_read (Post *post);

static void
post_read_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Post *post = user_data;
  g_autoptr(McpSseTransport) self = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  guint status;
  gsize length = 0;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error);

  if (post->self == NULL)
    {
      post_free (post);
      return;
    }

  self = g_object_ref (post->self);
  status = soup_message_get_status (post->message);

  if (bytes != NULL)
    {
      const char *data = g_bytes_get_data (bytes, &length);

      post->received += length;
      if (post->excerpt != NULL && post->excerpt->len < QUOTE_MAX_CHARS * 4)
        g_string_append_len (post->excerpt, data,
                             MIN (length, QUOTE_MAX_CHARS * 4 - post->excerpt->len));
    }

  if (length > 0 && post->received <= POST_BODY_MAX)
    {
      post_read (post);
      return;
    }

  post_detach (self, post);
  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    post_fail (self, post, post_status_error (self, post, status));
  post_free (post);
}

static void
post_read (Post *post)
{
  g_input_stream_read_bytes_async (post->response, POST_READ_CHUNK, G_PRIORITY_DEFAULT,
                                   post->cancellable, post_read_cb, post);
}

static void
post_sent_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Post *post = user_data;
  g_autoptr(McpSseTransport) self = NULL;
  g_autoptr(GError) error = NULL;
  guint status;

  post->response = soup_session_send_finish (SOUP_SESSION (object), result, &error);

  /* Given up on (timed out, or the connection ended): nothing to report. */
  if (post->self == NULL)
    {
      post_free (post);
      return;
    }

  self = g_object_ref (post->self);
  g_assert (self->post_in_flight == post);
  self->post_in_flight = NULL;
  clear_source (&self->post_timeout_source);

  if (post->response == NULL)
    {
      post_detach (self, post);
      post_fail (self, post, g_error_new (MCP_ERROR, MCP_ERROR_CLOSED,
                                          "could not post the %s to %s: %s",
                                          post->what, self->description, error->message));
      post_free (post);
      post_next (self);
      return;
    }

  status = soup_message_get_status (post->message);

  if (SOUP_STATUS_IS_REDIRECTION (status))
    {
      g_autofree char *what = g_strconcat ("the ", post->what, NULL);

      post_detach (self, post);
      post_fail (self, post, redirect_error (self, self->endpoint_uri, status,
                                             soup_message_get_response_headers (post->message),
                                             what));
      post_free (post);
      post_next (self);
      return;
    }

  /* The server took the message (it answers on the stream), so the next
   * one may go while this answer is read to its end. A refusal is
   * reported once its body says why. */
  if (SOUP_STATUS_IS_SUCCESSFUL (status))
    post_succeed (post);
  else
    post->excerpt = g_string_new (NULL);

  post_read (post);
  post_next (self);
}

static gboolean
post_timeout_cb (gpointer user_data)
{
  McpSseTransport *self = MCP_SSE_TRANSPORT (user_data);
  g_autoptr(McpSseTransport) hold = g_object_ref (self);
  g_autofree char *duration = mcp_format_duration (self->post_timeout_ms);
  Post *post = g_steal_pointer (&self->post_in_flight);

  g_clear_pointer (&self->post_timeout_source, g_source_unref);

  if (post != NULL)
    {
      post_detach (self, post);
      post_fail (self, post, g_error_new (MCP_ERROR, MCP_ERROR_TIMEOUT,
                                          "the server did not accept the %s within %s",
                                          post->what, duration));
      /* Its callback frees it. */
      g_cancellable_cancel (post->cancellable);
    }

  post_next (self);

  return G_SOURCE_REMOVE;
}

static void
post_next (McpSseTransport *self)
{
  while (self->post_in_flight == NULL && self->state == STATE_OPEN)
    {
      Post *post = g_queue_pop_head (&self->post_queue);

      if (post == NULL)
        return;

      if (post->task != NULL && g_task_return_error_if_cancelled (post->task))
        {
          g_clear_object (&post->task);
          post_free (post);
          continue;
        }

      post->message = soup_message_new_from_uri (SOUP_METHOD_POST, self->endpoint_uri);
      soup_message_add_flags (post->message, SOUP_MESSAGE_NO_REDIRECT | SOUP_MESSAGE_IDEMPOTENT);
      apply_headers (self, post->message);
      soup_message_set_request_body_from_bytes (post->message, "application/json", post->body);

      post->self = self;
      post->cancellable = g_cancellable_new ();
      g_ptr_array_add (self->live_posts, post);
      self->post_in_flight = post;
      if (self->post_timeout_ms > 0)
        self->post_timeout_source = schedule (self, self->post_timeout_ms, post_timeout_cb,
                                              "[mcp] message post timeout");

      soup_session_send_async (self->session, post->message, G_PRIORITY_DEFAULT,
                               post->cancellable, post_sent_cb, post);
    }
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
static void
stop (McpSseTransport *self)
{
  Post *post;

  self->state = STATE_CLOSED;
  g_cancellable_cancel (self->cancellable);
  clear_source (&self->start_cancel_source);
  clear_source (&self->endpoint_source);
  clear_source (&self->idle_source);
  clear_source (&self->finish_source);
  clear_source (&self->post_timeout_source);
  close_stream (self);
  g_clear_error (&self->ended);

  self->post_in_flight = NULL;
  while ((post = g_queue_pop_head (&self->post_queue)) != NULL)
    {
      post_abandon (post);
      post_free (post);
    }
  while (self->live_posts->len > 0)
    {
      post = g_ptr_array_steal_index_fast (self->live_posts, self->live_posts->len - 1);
      post->self = NULL;
      post_abandon (post);
      g_cancellable_cancel (post->cancellable);
    }

  if (self->reader != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->reader, self);
      g_clear_object (&self->reader);
    }
}

static void
fail_start (McpSseTransport *self,
            GError          *error)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->start_task);

  stop (self);

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
      fail_start (self, error);
      return;
    }

  if (self->state == STATE_OPEN)
    {
      stop (self);
      emit_closed (self, error);
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
    self->finish_source = schedule (self, 0, finish_cb, "[mcp] event stream ended");
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
      fail_start (self, error);
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
  clear_source (&self->idle_source);
  try_finish (self);
}

static void
open_connection (McpSseTransport *self)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->start_task);

  self->state = STATE_OPEN;
  clear_source (&self->endpoint_source);
  clear_source (&self->start_cancel_source);

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
          g_autofree char *first = describe_uri (self->endpoint_uri, TRUE);

          mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "ignored another endpoint event from the server; messages still "
                      "go to the first endpoint, %s", first);
          self->told_ignored_endpoint = TRUE;
        }
      return;
    }

  if (memchr (event->data, '\0', event->data_length) == NULL)
    endpoint = g_uri_parse_relative (self->uri, event->data, SOUP_HTTP_URI_FLAGS, &error);

  if (endpoint == NULL)
    {
      g_autofree char *quoted = quote_text (event->data, event->data_length);

      fail_start (self, g_error_new (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                     "the server named an endpoint that is not a URL "
                                     "(“%s”); nothing was sent", quoted));
      return;
    }

  if (!same_origin (self->uri, endpoint))
    {
      g_autofree char *origin = describe_uri (endpoint, FALSE);

      fail_start (self, g_error_new (MCP_ERROR, MCP_ERROR_FORBIDDEN_ORIGIN,
                                     "the server named an endpoint on another origin (%s); "
                                     "nothing was sent", origin));
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
          g_autofree char *type = quote_text (event->type, -1);

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
      g_autofree char *cap = mcp_format_size (self->max_message_size);

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

  read_stream (self);
}

static void
read_stream (McpSseTransport *self)
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
  gint64 limit_us = (gint64) self->idle_timeout_ms * 1000;

  g_clear_pointer (&self->idle_source, g_source_unref);

  /* Not reading because messages wait for the parser is not silence. */
  if (!self->reading)
    self->last_activity = now;

  if (now - self->last_activity < limit_us)
    {
      guint remaining_ms = (guint) ((limit_us - (now - self->last_activity) + 999) / 1000);

      self->idle_source = schedule (self, remaining_ms, idle_cb, "[mcp] event stream idle");
      return G_SOURCE_REMOVE;
    }

  duration = mcp_format_duration (self->idle_timeout_ms);
  end_connection (self, g_error_new (MCP_ERROR, MCP_ERROR_TIMEOUT,
                                     "the event stream from %s was silent for %s, so the "
                                     "connection was taken as dead and closed",
                                     self->description, duration));

  return G_SOURCE_REMOVE;
}

static void
stream_sent_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(McpSseTransport) self = NULL;
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  SoupMessageHeaders *headers;
  const char *content_type;
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

      fail_start (self, g_error_new (MCP_ERROR, code, "could not connect to %s: %s",
                                     self->description, error->message));
      return;
    }

  status = soup_message_get_status (self->stream_message);
  headers = soup_message_get_response_headers (self->stream_message);

  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      g_input_stream_close (stream, NULL, NULL);
      fail_start (self, stream_status_error (self, status, headers));
      return;
    }

  content_type = soup_message_headers_get_content_type (headers, NULL);
  if (content_type == NULL || g_ascii_strcasecmp (content_type, "text/event-stream") != 0)
    {
      g_autofree char *quoted = content_type != NULL ? quote_text (content_type, -1) : NULL;

      g_input_stream_close (stream, NULL, NULL);
      fail_start (self, g_error_new (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                     "%s answered with %s%s instead of an event stream "
                                     "(text/event-stream); is this the SSE endpoint of an MCP "
                                     "server?", self->description,
                                     quoted != NULL ? "content of type " : "content of no type",
                                     quoted != NULL ? quoted : ""));
      return;
    }

  self->stream = g_steal_pointer (&stream);
  self->last_activity = g_get_monotonic_time ();
  if (self->idle_timeout_ms > 0)
    self->idle_source = schedule (self, self->idle_timeout_ms, idle_cb, "[mcp] event stream idle");

  read_stream (self);
}

static gboolean
endpoint_timeout_cb (gpointer user_data)
{
  McpSseTransport *self = MCP_SSE_TRANSPORT (user_data);
  g_autoptr(McpSseTransport) hold = g_object_ref (self);
  g_autofree char *duration = mcp_format_duration (self->endpoint_timeout_ms);

  g_clear_pointer (&self->endpoint_source, g_source_unref);

  if (self->stream == NULL)
    fail_start (self, g_error_new (MCP_ERROR, MCP_ERROR_TIMEOUT,
                                   "%s did not answer the event-stream request within %s",
                                   self->description, duration));
  else
    fail_start (self, g_error_new (MCP_ERROR, MCP_ERROR_TIMEOUT,
                                   "%s did not name the endpoint to post messages to within %s "
                                   "of opening the event stream", self->description, duration));

  return G_SOURCE_REMOVE;
}

static gboolean
start_cancelled_cb (GCancellable *cancellable,
                    gpointer      user_data)
{
  McpSseTransport *self = MCP_SSE_TRANSPORT (user_data);
  g_autoptr(McpSseTransport) hold = g_object_ref (self);

  g_clear_pointer (&self->start_cancel_source, g_source_unref);
  fail_start (self, g_error_new (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                 "connecting to %s was cancelled", self->description));

  return G_SOURCE_REMOVE;
}

static void
reader_message_cb (McpSseTransport *self,
                   McpMessage      *message)
{
  if (self->state == STATE_OPEN)
    mcp_transport_emit_message (MCP_TRANSPORT (self), message);

  read_stream (self);
  schedule_finish (self);
}

static void
reader_invalid_cb (McpSseTransport *self,
                   const GError    *error,
                   const char      *excerpt)
{
  if (g_error_matches (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE))
    mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "dropped an event that is not a JSON-RPC message: %s (%s)",
                excerpt, error->message);
  else
    mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "dropped an event that is not JSON: %s (%s)", excerpt, error->message);

  read_stream (self);
  schedule_finish (self);
}

static void
reader_misbehaving_cb (McpSseTransport *self,
                       const GError    *error)
{
  end_connection (self, g_error_new (MCP_ERROR, MCP_ERROR_MISBEHAVING,
                                     "%s; the connection was closed", error->message));
}

/* McpTransport */

static void
mcp_sse_transport_start_async (McpTransport        *transport,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  McpSseTransport *self = MCP_SSE_TRANSPORT (transport);
  g_autoptr(GTask) task = NULL;
  SoupMessageHeaders *headers;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_sse_transport_start_async);
  /* Once the endpoint is known the connection is open, whatever happened
   * to the cancellable meanwhile. */
  g_task_set_check_cancellable (task, FALSE);

  if (self->state != STATE_NEW)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_BUSY,
                               "the transport was already started; a transport connects once");
      return;
    }

  if (self->uri == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                               "the transport has no valid URL to connect to");
      return;
    }

  if (g_task_return_error_if_cancelled (task))
    return;

  self->state = STATE_CONNECTING;
  self->context = g_main_context_ref_thread_default ();
  self->session = soup_session_new_with_options ("max-conns-per-host", MAX_CONNS_PER_HOST,
                                                 "user-agent", "Steward/" PACKAGE_VERSION,
                                                 NULL);
  self->parser = mcp_sse_parser_new (self->max_message_size);
  self->reader = mcp_message_reader_new ();
  mcp_message_reader_set_allow_batches (self->reader, self->allow_batches);
  g_signal_connect_object (self->reader, "message",
                           G_CALLBACK (reader_message_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->reader, "invalid",
                           G_CALLBACK (reader_invalid_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->reader, "misbehaving",
                           G_CALLBACK (reader_misbehaving_cb), self, G_CONNECT_SWAPPED);

  self->stream_message = soup_message_new_from_uri (SOUP_METHOD_GET, self->uri);
  soup_message_add_flags (self->stream_message, SOUP_MESSAGE_NO_REDIRECT);
  apply_headers (self, self->stream_message);
  headers = soup_message_get_request_headers (self->stream_message);
  soup_message_headers_replace (headers, "Accept", "text/event-stream");
  soup_message_headers_replace (headers, "Cache-Control", "no-cache");

  self->start_task = g_steal_pointer (&task);
  if (cancellable != NULL)
    {
      self->start_cancel_source = g_cancellable_source_new (cancellable);
      g_source_set_callback (self->start_cancel_source, G_SOURCE_FUNC (start_cancelled_cb),
                             self, NULL);
      g_source_set_static_name (self->start_cancel_source, "[mcp] connect cancelled");
      g_source_attach (self->start_cancel_source, self->context);
    }
  if (self->endpoint_timeout_ms > 0)
    self->endpoint_source = schedule (self, self->endpoint_timeout_ms, endpoint_timeout_cb,
                                      "[mcp] endpoint timeout");

  soup_session_send_async (self->session, self->stream_message, G_PRIORITY_DEFAULT,
                           self->cancellable, stream_sent_cb, self);
}

static gboolean
mcp_sse_transport_start_finish (McpTransport  *transport,
                                GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, transport), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
mcp_sse_transport_send_async (McpTransport        *transport,
                              McpMessage          *message,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  McpSseTransport *self = MCP_SSE_TRANSPORT (transport);
  g_autoptr(GTask) task = NULL;
  GString *body;
  Post *post;

  /* A caller that wants no answer gets no task: it learns of a broken
   * connection from "closed", and of a refused request from its answer. */
  if (callback != NULL)
    {
      task = g_task_new (self, cancellable, callback, user_data);
      g_task_set_source_tag (task, mcp_sse_transport_send_async);
      /* A message the server accepted was sent, whatever happened to the
       * cancellable afterwards. */
      g_task_set_check_cancellable (task, FALSE);
    }

  if (self->state != STATE_OPEN || self->ended != NULL)
    {
      if (task != NULL)
        g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_CLOSED,
                                 self->state == STATE_NEW || self->state == STATE_CONNECTING
                                 ? "the connection to the server is not open yet"
                                 : "the connection to the server is closed");
      return;
    }

  body = g_string_sized_new (256);
  mcp_message_write (message, body);

  post = g_new0 (Post, 1);
  post->body = g_string_free_to_bytes (body);
  post->what = describe_message (message);
  post->task = g_steal_pointer (&task);
  if (mcp_message_get_kind (message) == MCP_MESSAGE_REQUEST)
    post->id = json_node_copy (mcp_message_get_id (message));

  g_queue_push_tail (&self->post_queue, post);
  post_next (self);
}

static gboolean
mcp_sse_transport_send_finish (McpTransport  *transport,
                               GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, transport), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
mcp_sse_transport_close_async (McpTransport        *transport,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  McpSseTransport *self = MCP_SSE_TRANSPORT (transport);
  g_autoptr(McpSseTransport) hold = g_object_ref (self);
  g_autoptr(GTask) task = NULL;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_sse_transport_close_async);

  switch (self->state)
    {
    case STATE_NEW:
      self->state = STATE_CLOSED;
      break;

    case STATE_CONNECTING:
      fail_start (self, g_error_new (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                     "the connection to %s was closed before the server named "
                                     "its endpoint", self->description));
      emit_closed (self, NULL);
      break;

    case STATE_OPEN:
      stop (self);
      emit_closed (self, NULL);
      break;

    case STATE_CLOSED:
    default:
      break;
    }

  /* Nothing is left to wait for: the legacy transport has no session to
   * end, and dropping the stream is what tells the server we are gone. */
  g_task_return_boolean (task, TRUE);
}

static gboolean
mcp_sse_transport_close_finish (McpTransport  *transport,
                                GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, transport), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
mcp_sse_transport_set_protocol_version (McpTransport *transport,
                                        const char   *version)
{
  McpSseTransport *self = MCP_SSE_TRANSPORT (transport);

  self->allow_batches = mcp_revision_allows_batches (mcp_revision_from_string (version));
  if (self->reader != NULL)
    mcp_message_reader_set_allow_batches (self->reader, self->allow_batches);
}

static const char *
mcp_sse_transport_get_description (McpTransport *transport)
{
  return MCP_SSE_TRANSPORT (transport)->description;
}

static void
mcp_sse_transport_iface_init (McpTransportInterface *iface)
{
  iface->start_async = mcp_sse_transport_start_async;
  iface->start_finish = mcp_sse_transport_start_finish;
  iface->send_async = mcp_sse_transport_send_async;
  iface->send_finish = mcp_sse_transport_send_finish;
  iface->close_async = mcp_sse_transport_close_async;
  iface->close_finish = mcp_sse_transport_close_finish;
  iface->set_protocol_version = mcp_sse_transport_set_protocol_version;
  iface->get_description = mcp_sse_transport_get_description;
}

/* GObject */

static GUri *
parse_url (const char  *url,
           GError     **error)
{
  g_autoptr(GUri) uri = NULL;
  g_autoptr(GError) local_error = NULL;
  const char *scheme;
  const char *host;

  uri = g_uri_parse (url, SOUP_HTTP_URI_FLAGS, &local_error);
  if (uri == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "“%s” is not a valid URL: %s", url, local_error->message);
      return NULL;
    }

  scheme = g_uri_get_scheme (uri);
  if (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "“%s” is not an http or https URL", url);
      return NULL;
    }

  host = g_uri_get_host (uri);
  if (host == NULL || host[0] == '\0')
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "“%s” names no host", url);
      return NULL;
    }

  return g_steal_pointer (&uri);
}

static void
mcp_sse_transport_dispose (GObject *object)
{
  McpSseTransport *self = MCP_SSE_TRANSPORT (object);

  /* No task can be pending here (each holds a reference), so stopping
   * reports nothing to anyone. */
  if (self->state == STATE_CONNECTING || self->state == STATE_OPEN)
    stop (self);
  g_cancellable_cancel (self->cancellable);

  if (self->reader != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->reader, self);
      g_clear_object (&self->reader);
    }
  g_clear_object (&self->session);

  G_OBJECT_CLASS (mcp_sse_transport_parent_class)->dispose (object);
}

static void
mcp_sse_transport_finalize (GObject *object)
{
  McpSseTransport *self = MCP_SSE_TRANSPORT (object);

  g_assert (self->live_posts->len == 0);
  g_assert (g_queue_is_empty (&self->post_queue));

  g_clear_pointer (&self->url, g_free);
  g_clear_pointer (&self->uri, g_uri_unref);
  g_clear_pointer (&self->description, g_free);
  g_clear_pointer (&self->headers, g_ptr_array_unref);
  g_clear_pointer (&self->parser, mcp_sse_parser_free);
  g_clear_pointer (&self->endpoint_uri, g_uri_unref);
  g_clear_pointer (&self->endpoint, g_free);
  g_clear_pointer (&self->live_posts, g_ptr_array_unref);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_clear_error (&self->ended);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (mcp_sse_transport_parent_class)->finalize (object);
}

static void
mcp_sse_transport_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  McpSseTransport *self = MCP_SSE_TRANSPORT (object);

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
mcp_sse_transport_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  McpSseTransport *self = MCP_SSE_TRANSPORT (object);

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
mcp_sse_transport_constructed (GObject *object)
{
  McpSseTransport *self = MCP_SSE_TRANSPORT (object);
  g_autoptr(GError) error = NULL;

  G_OBJECT_CLASS (mcp_sse_transport_parent_class)->constructed (object);

  if (self->url == NULL)
    self->url = g_strdup ("");

  self->uri = parse_url (self->url, &error);
  if (self->uri == NULL)
    {
      g_critical ("McpSseTransport needs an http or https URL: %s", error->message);
      self->description = g_strdup (self->url);
      return;
    }

  self->description = describe_uri (self->uri, TRUE);
}

static void
mcp_sse_transport_class_init (McpSseTransportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = mcp_sse_transport_constructed;
  object_class->dispose = mcp_sse_transport_dispose;
  object_class->finalize = mcp_sse_transport_finalize;
  object_class->get_property = mcp_sse_transport_get_property;
  object_class->set_property = mcp_sse_transport_set_property;

  properties[PROP_URL] =
    g_param_spec_string ("url", NULL, NULL,
                         NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
mcp_sse_transport_init (McpSseTransport *self)
{
  self->headers = g_ptr_array_new_with_free_func ((GDestroyNotify) header_free);
  self->max_message_size = MCP_DEFAULT_MAX_MESSAGE_SIZE;
  self->endpoint_timeout_ms = MCP_SSE_ENDPOINT_TIMEOUT_MS;
  self->idle_timeout_ms = MCP_SSE_IDLE_TIMEOUT_MS;
  self->post_timeout_ms = MCP_SSE_POST_TIMEOUT_MS;
  self->cancellable = g_cancellable_new ();
  self->live_posts = g_ptr_array_new ();
  g_queue_init (&self->post_queue);
}

/* Public API */

/**
 * mcp_sse_transport_new:
 * @url: the URL of the server's event stream, http or https
 *
 * Returns: (transfer full) (nullable): a transport that connects to @url
 *   once started, or %NULL with @error set when @url is not one
 */
McpSseTransport *
mcp_sse_transport_new (const char  *url,
                       GError     **error)
{
  g_autoptr(GUri) uri = NULL;

  g_return_val_if_fail (url != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  uri = parse_url (url, error);
  if (uri == NULL)
    return NULL;

  return g_object_new (MCP_TYPE_SSE_TRANSPORT, "url", url, NULL);
}

const char *
mcp_sse_transport_get_url (McpSseTransport *self)
{
  g_return_val_if_fail (MCP_IS_SSE_TRANSPORT (self), NULL);

  return self->url;
}

/**
 * mcp_sse_transport_get_endpoint:
 *
 * Returns: (nullable): the URL messages are posted to, as the server named
 *   it and resolved against the stream's URL, or %NULL before it is known
 */
const char *
mcp_sse_transport_get_endpoint (McpSseTransport *self)
{
  g_return_val_if_fail (MCP_IS_SSE_TRANSPORT (self), NULL);

  return self->endpoint;
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

static gboolean
is_header_value (const char *value)
{
  for (const guchar *p = (const guchar *) value; *p != '\0'; p++)
    if ((*p < 0x20 && *p != '\t') || *p == 0x7f)
      return FALSE;

  return TRUE;
}

/**
 * mcp_sse_transport_set_header:
 * @name: an HTTP header name
 * @value: (nullable): its value, or %NULL to stop sending it
 *
 * Sends a header (an `Authorization` token, say) with every request to the
 * server; it never goes to any other origin. Takes effect with the next
 * request.
 */
void
mcp_sse_transport_set_header (McpSseTransport *self,
                              const char      *name,
                              const char      *value)
{
  Header *header;

  g_return_if_fail (MCP_IS_SSE_TRANSPORT (self));
  g_return_if_fail (is_header_name (name));
  g_return_if_fail (value == NULL || is_header_value (value));

  for (guint i = 0; i < self->headers->len; i++)
    {
      header = g_ptr_array_index (self->headers, i);
      if (g_ascii_strcasecmp (header->name, name) == 0)
        {
          g_ptr_array_remove_index (self->headers, i);
          break;
        }
    }

  if (value == NULL)
    return;

  header = g_new0 (Header, 1);
  header->name = g_strdup (name);
  header->value = g_strdup (value);
  g_ptr_array_add (self->headers, header);
}

/**
 * mcp_sse_transport_set_max_message_size:
 * @max_size: the largest event the server may send, in bytes
 *
 * Takes effect when the transport is started.
 */
void
mcp_sse_transport_set_max_message_size (McpSseTransport *self,
                                        gsize            max_size)
{
  g_return_if_fail (MCP_IS_SSE_TRANSPORT (self));
  g_return_if_fail (max_size > 0);

  self->max_message_size = max_size;
}

/**
 * mcp_sse_transport_set_endpoint_timeout:
 * @timeout_ms: how long the server may take to answer the GET and name
 *   its endpoint, or 0 to wait as long as it takes
 *
 * Takes effect when the transport is started.
 */
void
mcp_sse_transport_set_endpoint_timeout (McpSseTransport *self,
                                        guint            timeout_ms)
{
  g_return_if_fail (MCP_IS_SSE_TRANSPORT (self));

  self->endpoint_timeout_ms = timeout_ms;
}

/**
 * mcp_sse_transport_set_idle_timeout:
 * @timeout_ms: how long the event stream may be silent, or 0 for ever
 *
 * Takes effect when the stream opens.
 */
void
mcp_sse_transport_set_idle_timeout (McpSseTransport *self,
                                    guint            timeout_ms)
{
  g_return_if_fail (MCP_IS_SSE_TRANSPORT (self));

  self->idle_timeout_ms = timeout_ms;
}

/**
 * mcp_sse_transport_set_post_timeout:
 * @timeout_ms: how long the server may take to accept a message, or 0
 *   to wait as long as it takes
 *
 * Takes effect with the next message posted.
 */
void
mcp_sse_transport_set_post_timeout (McpSseTransport *self,
                                    guint            timeout_ms)
{
  g_return_if_fail (MCP_IS_SSE_TRANSPORT (self));

  self->post_timeout_ms = timeout_ms;
}

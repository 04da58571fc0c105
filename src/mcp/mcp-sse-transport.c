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

/* The stream holds one connection for as long as it lasts; POSTs need one
 * more, and another while the answer to the previous one is still read. */
#define MAX_CONNS_PER_HOST 4

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

static void mcp_sse_transport_iface_init (McpTransportInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (McpSseTransport, mcp_sse_transport, MCP_TYPE_HTTP_TRANSPORT_BASE,
                               G_IMPLEMENT_INTERFACE (MCP_TYPE_TRANSPORT,
                                                      mcp_sse_transport_iface_init))

GSource *
mcp_sse_transport_schedule (McpSseTransport *self,
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

/* McpTransport */

static void
mcp_sse_transport_start_async (McpTransport        *transport,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  McpSseTransport *self = MCP_SSE_TRANSPORT (transport);
  McpHttpTransportBase *base = MCP_HTTP_TRANSPORT_BASE (self);
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

  if (mcp_http_transport_base_get_uri (base) == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                               "the transport has no valid URL to connect to");
      return;
    }

  if (g_task_return_error_if_cancelled (task))
    return;

  self->state = STATE_CONNECTING;
  self->context = g_main_context_ref_thread_default ();
  self->session = g_object_new (SOUP_TYPE_SESSION,
                                "max-conns-per-host", MAX_CONNS_PER_HOST,
                                "user-agent", "Steward/" PACKAGE_VERSION,
                                NULL);
  self->parser = mcp_sse_parser_new (mcp_http_transport_base_get_max_message_size (base));
  self->reader = mcp_message_reader_new ();
  mcp_message_reader_set_allow_batches (self->reader, self->allow_batches);
  g_signal_connect_object (self->reader, "message",
                           G_CALLBACK (mcp_sse_transport_reader_message_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->reader, "invalid",
                           G_CALLBACK (mcp_sse_transport_reader_invalid_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->reader, "misbehaving",
                           G_CALLBACK (mcp_sse_transport_reader_misbehaving_cb),
                           self, G_CONNECT_SWAPPED);

  self->stream_message = soup_message_new_from_uri ("GET",
                                                    mcp_http_transport_base_get_uri (base));
  soup_message_add_flags (self->stream_message, SOUP_MESSAGE_NO_REDIRECT);
  headers = soup_message_get_request_headers (self->stream_message);
  mcp_http_transport_base_apply_headers (base, headers);
  soup_message_headers_replace (headers, "Accept", "text/event-stream");
  soup_message_headers_replace (headers, "Cache-Control", "no-cache");

  self->start_task = g_steal_pointer (&task);
  if (cancellable != NULL)
    {
      self->start_cancel_source = g_cancellable_source_new (cancellable);
      g_source_set_callback (self->start_cancel_source,
                             G_SOURCE_FUNC (mcp_sse_transport_start_cancelled_cb),
                             self, NULL);
      g_source_set_static_name (self->start_cancel_source, "[mcp] connect cancelled");
      g_source_attach (self->start_cancel_source, self->context);
    }
  if (self->endpoint_timeout_ms > 0)
    self->endpoint_source = mcp_sse_transport_schedule (self, self->endpoint_timeout_ms,
                                                        mcp_sse_transport_endpoint_timeout_cb,
                                                        "[mcp] endpoint timeout");

  soup_session_send_async (self->session, self->stream_message, G_PRIORITY_DEFAULT,
                           self->cancellable, mcp_sse_transport_stream_sent_cb, self);
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
  post->what = mcp_sse_transport_describe_message (message);
  post->task = g_steal_pointer (&task);
  if (mcp_message_get_kind (message) == MCP_MESSAGE_REQUEST)
    post->id = json_node_copy (mcp_message_get_id (message));

  g_queue_push_tail (&self->post_queue, post);
  mcp_sse_transport_post_next (self);
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
      mcp_sse_transport_fail_start (self,
                                    g_error_new (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                 "the connection to %s was closed before the "
                                                 "server named its endpoint", self->description));
      mcp_sse_transport_emit_closed (self, NULL);
      break;

    case STATE_OPEN:
      mcp_sse_transport_stop (self);
      mcp_sse_transport_emit_closed (self, NULL);
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

static void
mcp_sse_transport_dispose (GObject *object)
{
  McpSseTransport *self = MCP_SSE_TRANSPORT (object);

  /* No task can be pending here (each holds a reference), so stopping
   * reports nothing to anyone. */
  if (self->state == STATE_CONNECTING || self->state == STATE_OPEN)
    mcp_sse_transport_stop (self);
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

  g_clear_pointer (&self->description, g_free);
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
mcp_sse_transport_constructed (GObject *object)
{
  McpSseTransport *self = MCP_SSE_TRANSPORT (object);
  McpHttpTransportBase *base = MCP_HTTP_TRANSPORT_BASE (self);
  g_autoptr(GUri) uri = NULL;
  g_autoptr(GError) error = NULL;
  const char *url;

  G_OBJECT_CLASS (mcp_sse_transport_parent_class)->constructed (object);

  if (mcp_http_transport_base_get_uri (base) != NULL)
    {
      self->description = mcp_sse_transport_describe_uri (mcp_http_transport_base_get_uri (base),
                                                          TRUE);
      return;
    }

  /* Parsed again only to say why it failed. */
  url = mcp_http_transport_base_get_url (base);
  uri = mcp_http_parse_url (url, &error);
  g_assert (uri == NULL);
  g_critical ("McpSseTransport needs an http or https URL: %s", error->message);
  self->description = g_strdup (url);
}

static void
mcp_sse_transport_class_init (McpSseTransportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = mcp_sse_transport_constructed;
  object_class->dispose = mcp_sse_transport_dispose;
  object_class->finalize = mcp_sse_transport_finalize;
}

static void
mcp_sse_transport_init (McpSseTransport *self)
{
  mcp_http_transport_base_set_idle_timeout (MCP_HTTP_TRANSPORT_BASE (self),
                                            MCP_SSE_IDLE_TIMEOUT_MS);
  self->endpoint_timeout_ms = MCP_SSE_ENDPOINT_TIMEOUT_MS;
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
  return mcp_http_transport_base_new (MCP_TYPE_SSE_TRANSPORT, url, error);
}

const char *
mcp_sse_transport_get_url (McpSseTransport *self)
{
  g_return_val_if_fail (MCP_IS_SSE_TRANSPORT (self), NULL);

  return mcp_http_transport_base_get_url (MCP_HTTP_TRANSPORT_BASE (self));
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
  g_return_if_fail (MCP_IS_SSE_TRANSPORT (self));
  g_return_if_fail (value == NULL || is_header_value (value));

  mcp_http_transport_base_set_header (MCP_HTTP_TRANSPORT_BASE (self), name, value);
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

  mcp_http_transport_base_set_max_message_size (MCP_HTTP_TRANSPORT_BASE (self), max_size);
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

  mcp_http_transport_base_set_idle_timeout (MCP_HTTP_TRANSPORT_BASE (self), timeout_ms);
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

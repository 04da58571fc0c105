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

/* Every open stream holds a connection of its own under HTTP/1.1: the
 * standalone GET, each request still streaming its answer, and the POSTs
 * that answer the server's requests meanwhile. libsoup's default of two per
 * host would make the third wait behind the first two. */
#define MAX_CONNECTIONS_PER_HOST 32
#define MAX_CONNECTIONS          64

enum {
  SIGNAL_INTERRUPTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void mcp_http_transport_iface_init (McpTransportInterface *iface);

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
G_DEFINE_FINAL_TYPE_WITH_CODE (McpHttpTransport, mcp_http_transport, MCP_TYPE_HTTP_TRANSPORT_BASE,
                               G_IMPLEMENT_INTERFACE (MCP_TYPE_TRANSPORT,
                                                      mcp_http_transport_iface_init))

/* The other parts emit "interrupted" through this: the signal ids are kept
 * here. */
void
mcp_http_transport_emit_interrupted (McpHttpTransport *self,
                                     const char       *text)
{
  g_signal_emit (self, signals[SIGNAL_INTERRUPTED], 0, text);
}

/* Small helpers */

GSource *
mcp_http_transport_schedule (McpHttpTransport *self,
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
int
mcp_http_transport_unreachable_code (Exchange     *ex,
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

/* Closing */

static void
finish_close (McpHttpTransport *self)
{
  self->state = STATE_CLOSED;
  g_clear_pointer (&self->session_id, g_free);
  mcp_http_transport_emit_closed (self, NULL);
  mcp_http_transport_complete_close_tasks (self);
}

void
mcp_http_transport_delete_done (McpHttpTransport *self)
{
  if (!self->delete_pending)
    return;

  self->delete_pending = FALSE;
  if (self->state == STATE_CLOSING)
    finish_close (self);
}

/* The server broke the protocol, or a limit, badly enough that nothing
 * more it sends can be trusted: everything stops, and "closed" says why. */
void
mcp_http_transport_fail_connection (McpHttpTransport *self,
                                    GError           *error)
{
  g_autoptr(McpHttpTransport) hold = g_object_ref (self);
  g_autoptr(GError) reason = error;
  gboolean had_session;

  if (self->state == STATE_CLOSED || self->state == STATE_NEW)
    return;

  had_session = self->session_id != NULL && !self->stateless;
  self->state = STATE_CLOSED;
  mcp_http_transport_drop_reader (self);
  mcp_http_transport_abandon_all (self, reason->message);

  mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "closing the connection: %s", reason->message);
  mcp_http_transport_emit_closed (self, reason);
  mcp_http_transport_complete_close_tasks (self);

  /* The session is of no further use; the server may as well know. */
  if (had_session)
    mcp_http_transport_send_delete (self);
  g_clear_pointer (&self->session_id, g_free);
}

void
mcp_http_transport_fail_too_large (McpHttpTransport *self,
                                   const char       *what)
{
  g_autofree char *cap = mcp_format_size (base_max_message_size (self));

  mcp_http_transport_fail_connection (self,
                                      g_error_new (MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE,
                                                   "the server sent %s larger than the %s limit",
                                                   what, cap));
}

/* Sessions */

/* Takes the session id from the reply to `initialize`; an id that breaks
 * the rules fails the connection, and is shown in part only. */
gboolean
mcp_http_transport_take_session_id (McpHttpTransport *self,
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

      mcp_http_transport_fail_connection (self,
                                          g_error_new (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                                       "the server sent %s, but a session id "
                                                       "must be 1 to %d visible ASCII characters",
                                                       described, MCP_HTTP_SESSION_ID_MAX));
      return FALSE;
    }

  g_free (self->session_id);
  self->session_id = g_strdup (value);
  return TRUE;
}

/* A 404 to an HTTP request that carried the session id: the server has
 * forgotten the session. */
void
mcp_http_transport_session_expired (McpHttpTransport *self,
                                    Exchange         *ex)
{
  if (g_strcmp0 (ex->session, self->session_id) != 0)
    return;

  g_clear_pointer (&self->session_id, g_free);
  mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "the server no longer knows the session (HTTP 404); a new one is needed");

  /* The event stream belonged to the old session; the next session opens
   * its own. */
  if (self->listen != NULL)
    mcp_http_transport_stream_remove (self, self->listen, NULL);
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

  if (base_uri (self) == NULL)
    {
      const char *url = mcp_http_transport_base_get_url (MCP_HTTP_TRANSPORT_BASE (self));
      g_autoptr(GUri) uri = mcp_http_parse_url (url, &error);

      g_assert (uri == NULL);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* Nothing is sent yet: the first POST, `initialize`, meets the server. */
  self->context = g_main_context_ref_thread_default ();
  self->session = g_object_new (SOUP_TYPE_SESSION,
                                "max-conns", MAX_CONNECTIONS,
                                "max-conns-per-host", MAX_CONNECTIONS_PER_HOST,
                                "timeout", 0,
                                "user-agent", "Steward/" PACKAGE_VERSION,
                                NULL);
  soup_session_set_proxy_resolver (self->session, NULL);

  self->reader = mcp_message_reader_new ();
  mcp_message_reader_set_allow_batches (self->reader, self->allow_batches);
  g_signal_connect_object (self->reader, "message",
                           G_CALLBACK (mcp_http_transport_reader_message_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->reader, "invalid",
                           G_CALLBACK (mcp_http_transport_reader_invalid_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->reader, "misbehaving",
                           G_CALLBACK (mcp_http_transport_reader_misbehaving_cb),
                           self, G_CONNECT_SWAPPED);

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
        mcp_http_transport_stream_remove (self, cancelled, NULL);

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

      stream = mcp_http_transport_stream_new (self, key, mcp_message_get_id (message), method);
      g_hash_table_insert (self->requests, stream->key, stream);
    }

  ex = mcp_http_transport_exchange_new (self, ROLE_POST, stream);
  ex->message = mcp_message_ref (message);
  ex->task = g_steal_pointer (&task);
  mcp_http_transport_post_prepare (self, ex);
  mcp_http_transport_exchange_start (self, ex);

  /* What the client sends next waits for the GET stream this opens. */
  if (kind == MCP_MESSAGE_NOTIFICATION && g_str_equal (method, "notifications/initialized") &&
      !self->stateless && self->listen == NULL && self->hold_source == NULL)
    {
      ex->opens_listen = TRUE;
      self->hold_source = mcp_http_transport_schedule (self, LISTEN_WAIT_MS,
                                                       mcp_http_transport_hold_expired_cb, self);
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
  mcp_http_transport_drop_reader (self);
  answers = g_ptr_array_new_with_free_func ((GDestroyNotify) mcp_message_unref);
  g_hash_table_iter_init (&iter, self->requests);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (answers, mcp_message_new_error (((Stream *) value)->id, MCP_ERROR_CLOSED,
                                                     "the connection to the server was closed "
                                                     "before it answered", NULL));

  mcp_http_transport_abandon_all (self, "the connection to the server was closed");

  for (guint i = 0; i < answers->len && !self->closed_emitted; i++)
    mcp_transport_emit_message (MCP_TRANSPORT (self), g_ptr_array_index (answers, i));

  if (self->state != STATE_CLOSING)
    return;

  if (self->session_id != NULL && !self->stateless)
    mcp_http_transport_send_delete (self);
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
        mcp_http_transport_stream_remove (self, self->listen, NULL);
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

  mcp_http_transport_drop_reader (self);
  mcp_http_transport_abandon_all (self, "the transport was destroyed");
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

  g_clear_pointer (&self->origin, g_free);
  g_clear_pointer (&self->description, g_free);
  g_clear_pointer (&self->protocol_version, g_free);
  g_clear_pointer (&self->session_id, g_free);
  g_clear_pointer (&self->exchanges, g_ptr_array_unref);
  g_clear_pointer (&self->requests, g_hash_table_unref);
  g_clear_pointer (&self->context, g_main_context_unref);

  G_OBJECT_CLASS (mcp_http_transport_parent_class)->finalize (object);
}

static void
mcp_http_transport_constructed (GObject *object)
{
  McpHttpTransport *self = MCP_HTTP_TRANSPORT (object);

  G_OBJECT_CLASS (mcp_http_transport_parent_class)->constructed (object);

  /* A URL that does not parse is reported by start_async(). */
  if (base_uri (self) != NULL)
    {
      self->origin = mcp_http_describe_origin (base_uri (self));
      self->description = mcp_http_describe_url (base_uri (self));
    }
}

static void
mcp_http_transport_class_init (McpHttpTransportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = mcp_http_transport_constructed;
  object_class->dispose = mcp_http_transport_dispose;
  object_class->finalize = mcp_http_transport_finalize;

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
  mcp_http_transport_base_set_idle_timeout (MCP_HTTP_TRANSPORT_BASE (self),
                                            MCP_HTTP_IDLE_TIMEOUT_MS);
  self->exchanges =
    g_ptr_array_new_with_free_func ((GDestroyNotify) mcp_http_transport_exchange_unref);
  self->requests = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                          (GDestroyNotify) mcp_http_transport_stream_free);
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
  return mcp_http_transport_base_new (MCP_TYPE_HTTP_TRANSPORT, url, error);
}

const char *
mcp_http_transport_get_url (McpHttpTransport *self)
{
  g_return_val_if_fail (MCP_IS_HTTP_TRANSPORT (self), NULL);

  return mcp_http_transport_base_get_url (MCP_HTTP_TRANSPORT_BASE (self));
}

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
  g_return_if_fail (mcp_http_is_header_name (name));

  /* Kept out here rather than skipped on every request. */
  if (is_reserved_header (name))
    return;

  mcp_http_transport_base_set_header (MCP_HTTP_TRANSPORT_BASE (self), name, value);
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

  mcp_http_transport_base_set_max_message_size (MCP_HTTP_TRANSPORT_BASE (self), max_size);
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

  mcp_http_transport_base_set_idle_timeout (MCP_HTTP_TRANSPORT_BASE (self), timeout_ms);
}

guint
mcp_http_transport_get_idle_timeout (McpHttpTransport *self)
{
  g_return_val_if_fail (MCP_IS_HTTP_TRANSPORT (self), 0);

  return base_idle_timeout (self);
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

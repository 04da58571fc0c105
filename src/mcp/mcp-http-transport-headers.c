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

/* Request headers */

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

void
mcp_http_transport_apply_headers (McpHttpTransport *self,
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

  /* The headers the protocol sets itself never got into the configured
   * ones: mcp_http_transport_set_header() keeps them out. */
  mcp_http_transport_base_apply_headers (MCP_HTTP_TRANSPORT_BASE (self), headers);

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
      mcp_http_transport_post_prepare (self, ex);
      soup_message_add_flags (ex->msg, SOUP_MESSAGE_NEW_CONNECTION);
      mcp_http_transport_exchange_begin (self, ex);
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
    mcp_http_transport_emit_interrupted (self, text);

  if (stream != NULL)
    mcp_http_transport_request_fail (self, stream, mcp_http_transport_unreachable_code (ex, error),
                                     text, NULL);
  else
    mcp_http_transport_exchange_detach (ex, text);
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
      mcp_http_transport_exchange_detach (ex, NULL);
      mcp_http_transport_stream_ended (self, stream, BODY_SSE, cause);
      break;

    case ROLE_LISTEN:
      mcp_http_transport_release_held (self);
      mcp_http_transport_exchange_detach (ex, NULL);
      mcp_http_transport_listen_ended (self, cause);
      break;

    case ROLE_DELETE:
    default:
      mcp_http_transport_exchange_detach (ex, NULL);
      mcp_http_transport_delete_done (self);
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
          g_autoptr(JsonNode) data = mcp_http_transport_status_data (ex->msg, NULL);

          mcp_http_transport_session_expired (self, ex);
          mcp_http_transport_exchange_complete_task (ex, MCP_ERROR_SESSION_EXPIRED, text);
          if (stream != NULL)
            mcp_http_transport_request_fail (self, stream, MCP_ERROR_SESSION_EXPIRED, text, data);
          else
            mcp_http_transport_exchange_detach (ex, NULL);
          return;
        }

      mcp_http_transport_start_refusal (self, ex);
      return;
    }

  if (kind == MCP_MESSAGE_REQUEST && g_strcmp0 (method, "initialize") == 0 &&
      !self->stateless && !mcp_http_transport_take_session_id (self, ex))
    return;

  mcp_http_transport_exchange_complete_task (ex, 0, NULL);

  if (kind != MCP_MESSAGE_REQUEST)
    {
      /* Whatever a body holds (some servers answer a notification with 200
       * and a JSON body), it answers nothing of ours and is not read. */
      gboolean initialized = ex->opens_listen;

      ex->opens_listen = FALSE;
      mcp_http_transport_exchange_drain (ex);
      if (initialized)
        mcp_http_transport_open_listen (self);
      return;
    }

  if (has_content_type (ex->msg, "application/json"))
    mcp_http_transport_start_json (self, ex);
  else if (has_content_type (ex->msg, "text/event-stream"))
    mcp_http_transport_start_sse (self, ex);
  else
    {
      SoupMessageHeaders *headers = soup_message_get_response_headers (ex->msg);
      const char *type = soup_message_headers_get_content_type (headers, NULL);
      g_autofree char *status_text = mcp_http_transport_describe_status (ex->msg);
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

      mcp_http_transport_request_fail (self, stream, MCP_ERROR_INVALID_MESSAGE, text, NULL);
    }
}

static void
get_headers (McpHttpTransport *self,
             Exchange         *ex)
{
  guint status = soup_message_get_status (ex->msg);
  g_autofree char *status_text = mcp_http_transport_describe_status (ex->msg);
  Stream *stream = ex->stream;

  if (ex->role == ROLE_LISTEN)
    mcp_http_transport_release_held (self);

  if (SOUP_STATUS_IS_SUCCESSFUL (status) && has_content_type (ex->msg, "text/event-stream"))
    {
      mcp_http_transport_start_sse (self, ex);
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
      mcp_http_transport_exchange_drain (ex);
      mcp_http_transport_stream_remove (self, stream, NULL);
      return;
    }

  if (status == SOUP_STATUS_NOT_FOUND && ex->session != NULL)
    {
      g_autoptr(JsonNode) data = mcp_http_transport_status_data (ex->msg, NULL);

      mcp_http_transport_session_expired (self, ex);
      mcp_http_transport_request_fail (self, stream, MCP_ERROR_SESSION_EXPIRED,
                                       "the server no longer knows the session (HTTP 404 Not "
                                       "Found), so the stream of the request cannot be resumed; "
                                       "a new session must be initialized",
                                       data);
      return;
    }

  if (SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      g_autofree char *text = g_strdup_printf ("the server closed the stream before answering, "
                                               "and answered its resumption (%s) with no event "
                                               "stream", status_text);

      mcp_http_transport_request_fail (self, stream, MCP_ERROR_CLOSED, text, NULL);
      return;
    }

  mcp_http_transport_start_refusal (self, ex);
}

void
mcp_http_transport_exchange_sent_cb (GObject      *object,
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
  mcp_clear_source (&ex->timer);

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
      mcp_http_transport_exchange_detach (ex, NULL);
      mcp_http_transport_delete_done (self);
      break;
    }
}

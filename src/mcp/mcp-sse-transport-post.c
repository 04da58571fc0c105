/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-sse-transport"

#include "config.h"

#include <string.h>

#include "mcp-sse-transport-private.h"
#include "mcp-error.h"
#include "mcp-format-private.h"
#include "mcp-line-framer.h"
#include "mcp-revision.h"

/* The answer to a POST carries nothing we need (replies come on the
 * stream). It is read to its end so that the connection can serve the next
 * POST, but no further than this: a longer one costs the connection. */
#define POST_BODY_MAX (64 * 1024)
#define POST_READ_CHUNK (8 * 1024)

/* Posts */

char *
mcp_sse_transport_describe_message (McpMessage *message)
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

void
mcp_sse_transport_post_free (Post *post)
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
void
mcp_sse_transport_post_abandon (Post *post)
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
    excerpt = mcp_sse_transport_quote_text (post->excerpt->str, post->excerpt->len);

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

  mcp_sse_transport_set_status_data (error, status);

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
      mcp_sse_transport_post_free (post);
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
  mcp_sse_transport_post_free (post);
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
      mcp_sse_transport_post_free (post);
      return;
    }

  self = g_object_ref (post->self);
  g_assert (self->post_in_flight == post);
  self->post_in_flight = NULL;
  mcp_clear_source (&self->post_timeout_source);

  if (post->response == NULL)
    {
      post_detach (self, post);
      post_fail (self, post, g_error_new (MCP_ERROR, MCP_ERROR_CLOSED,
                                          "could not post the %s to %s: %s",
                                          post->what, self->description, error->message));
      mcp_sse_transport_post_free (post);
      mcp_sse_transport_post_next (self);
      return;
    }

  status = soup_message_get_status (post->message);

  if (SOUP_STATUS_IS_REDIRECTION (status))
    {
      g_autofree char *what = g_strconcat ("the ", post->what, NULL);
      SoupMessageHeaders *headers = soup_message_get_response_headers (post->message);

      post_detach (self, post);
      post_fail (self, post, mcp_sse_transport_redirect_error (self, self->endpoint_uri, status,
                                                               headers, what));
      mcp_sse_transport_post_free (post);
      mcp_sse_transport_post_next (self);
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
  mcp_sse_transport_post_next (self);
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

  mcp_sse_transport_post_next (self);

  return G_SOURCE_REMOVE;
}

void
mcp_sse_transport_post_next (McpSseTransport *self)
{
  while (self->post_in_flight == NULL && self->state == STATE_OPEN)
    {
      Post *post = g_queue_pop_head (&self->post_queue);

      if (post == NULL)
        return;

      if (post->task != NULL && g_task_return_error_if_cancelled (post->task))
        {
          g_clear_object (&post->task);
          mcp_sse_transport_post_free (post);
          continue;
        }

      post->message = soup_message_new_from_uri ("POST", self->endpoint_uri);
      soup_message_add_flags (post->message, SOUP_MESSAGE_NO_REDIRECT | SOUP_MESSAGE_IDEMPOTENT);
      mcp_http_transport_base_apply_headers (MCP_HTTP_TRANSPORT_BASE (self),
                                             soup_message_get_request_headers (post->message));
      soup_message_set_request_body_from_bytes (post->message, "application/json", post->body);

      post->self = self;
      post->cancellable = g_cancellable_new ();
      g_ptr_array_add (self->live_posts, post);
      self->post_in_flight = post;
      if (self->post_timeout_ms > 0)
        self->post_timeout_source = mcp_sse_transport_schedule (self, self->post_timeout_ms,
                                                                post_timeout_cb,
                                                                "[mcp] message post timeout");

      soup_session_send_async (self->session, post->message, G_PRIORITY_DEFAULT,
                               post->cancellable, post_sent_cb, post);
    }
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-auth"

#include "config.h"

#include <string.h>

#include "mcp-soup.h"

#include "mcp-auth-flow.h"

#include "mcp-auth-loopback.h"

/**
 * McpAuthLoopback:
 *
 * The redirect URI of a native app (RFC 8252 §7.3): an HTTP server on
 * 127.0.0.1 on a port the system picks, which takes the one redirect that
 * carries the authorization response and shows the person a page saying
 * they may close the tab. Requests with another path or a wrong `state`
 * are answered 404 or 400 and change nothing, so that another program on
 * the machine cannot end the wait with a forged answer.
 */
struct _McpAuthLoopback
{
  GObject     parent_instance;

  SoupServer *server;
  char       *redirect_uri;
  char       *done_page;
  GTask      *task;
  char       *state;
  GCancellable *cancellable;
  gulong      cancelled_id;
};

G_DEFINE_FINAL_TYPE (McpAuthLoopback, mcp_auth_loopback, G_TYPE_OBJECT)

#define CALLBACK_PATH "/callback"

static void
respond (SoupServerMessage *msg,
         guint              status,
         const char        *html)
{
  soup_server_message_set_status (msg, status, NULL);
  soup_server_message_set_response (msg, "text/html; charset=utf-8", SOUP_MEMORY_COPY,
                                    html, strlen (html));
}

static void
stop_watching (McpAuthLoopback *self)
{
  if (self->cancelled_id != 0)
    g_cancellable_disconnect (self->cancellable, self->cancelled_id);
  self->cancelled_id = 0;
  g_clear_object (&self->cancellable);
}

static void
callback_cb (SoupServer        *server,
             SoupServerMessage *msg,
             const char        *path,
             GHashTable        *query,
             gpointer           user_data)
{
  McpAuthLoopback *self = user_data;
  g_autoptr(GTask) task = NULL;
  const char *state;

  if (g_strcmp0 (soup_server_message_get_method (msg), "GET") != 0 ||
      g_strcmp0 (path, CALLBACK_PATH) != 0)
    {
      respond (msg, SOUP_STATUS_NOT_FOUND, "<!DOCTYPE html><title>404</title>");
      return;
    }

  state = query != NULL ? g_hash_table_lookup (query, "state") : NULL;
  if (self->task == NULL || state == NULL || g_strcmp0 (state, self->state) != 0)
    {
      respond (msg, SOUP_STATUS_BAD_REQUEST,
               "<!DOCTYPE html><title>400</title><p>This answer was not expected.</p>");
      return;
    }

  respond (msg, SOUP_STATUS_OK, self->done_page);

  stop_watching (self);
  task = g_steal_pointer (&self->task);
  g_clear_pointer (&self->state, g_free);
  g_task_return_pointer (task, g_hash_table_ref (query), (GDestroyNotify) g_hash_table_unref);
}

static void
mcp_auth_loopback_dispose (GObject *object)
{
  McpAuthLoopback *self = MCP_AUTH_LOOPBACK (object);

  stop_watching (self);
  if (self->server != NULL)
    soup_server_disconnect (self->server);
  g_clear_object (&self->server);

  if (self->task != NULL)
    {
      g_autoptr(GTask) task = g_steal_pointer (&self->task);

      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                               "The sign-in was abandoned");
    }

  G_OBJECT_CLASS (mcp_auth_loopback_parent_class)->dispose (object);
}

static void
mcp_auth_loopback_finalize (GObject *object)
{
  McpAuthLoopback *self = MCP_AUTH_LOOPBACK (object);

  g_free (self->redirect_uri);
  g_free (self->done_page);
  g_free (self->state);

  G_OBJECT_CLASS (mcp_auth_loopback_parent_class)->finalize (object);
}

static void
mcp_auth_loopback_class_init (McpAuthLoopbackClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = mcp_auth_loopback_dispose;
  object_class->finalize = mcp_auth_loopback_finalize;
}

static void
mcp_auth_loopback_init (McpAuthLoopback *self)
{
}

/**
 * mcp_auth_loopback_new:
 * @done_page: the HTML the browser shows once the answer arrived
 *
 * Returns: (transfer full) (nullable): a loopback server already
 *   listening, or %NULL when no port could be had
 */
McpAuthLoopback *
mcp_auth_loopback_new (const char  *done_page,
                       GError     **error)
{
  g_autoptr(McpAuthLoopback) self = g_object_new (MCP_TYPE_AUTH_LOOPBACK, NULL);
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  GSList *uris;

  self->done_page = g_strdup (done_page);
  self->server = g_object_new (SOUP_TYPE_SERVER, "server-header", NULL, NULL);
  soup_server_add_handler (self->server, NULL, callback_cb, self, NULL);

  if (!soup_server_listen (self->server, address, 0, error))
    return NULL;

  uris = soup_server_get_uris (self->server);
  g_assert (uris != NULL);
  /* 127.0.0.1 rather than "localhost", which could resolve elsewhere
   * (RFC 8252 §8.3). */
  self->redirect_uri = g_strdup_printf ("http://127.0.0.1:%d" CALLBACK_PATH,
                                        g_uri_get_port (uris->data));
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);

  return g_steal_pointer (&self);
}

const char *
mcp_auth_loopback_get_redirect_uri (McpAuthLoopback *self)
{
  g_return_val_if_fail (MCP_IS_AUTH_LOOPBACK (self), NULL);

  return self->redirect_uri;
}

static void
cancelled_cb (GCancellable    *cancellable,
              McpAuthLoopback *self)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->task);

  /* A handler cannot disconnect itself; the cancellable fires only once. */
  self->cancelled_id = 0;
  if (task != NULL)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "The sign-in was cancelled");
}

/**
 * mcp_auth_loopback_wait_async:
 * @state: the `state` of the authorization request; only an answer that
 *   carries it ends the wait
 *
 * Waits for the browser to bring the authorization response.
 */
void
mcp_auth_loopback_wait_async (McpAuthLoopback     *self,
                              const char          *state,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (MCP_IS_AUTH_LOOPBACK (self));
  g_return_if_fail (self->task == NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_auth_loopback_wait_async);

  if (g_task_return_error_if_cancelled (task))
    return;

  self->task = g_steal_pointer (&task);
  g_free (self->state);
  self->state = g_strdup (state);

  if (cancellable != NULL)
    {
      self->cancellable = g_object_ref (cancellable);
      self->cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (cancelled_cb),
                                                  self, NULL);
    }
}

/**
 * mcp_auth_loopback_wait_finish:
 *
 * Returns: (transfer full) (element-type utf8 utf8): the parameters of the
 *   redirect (`code`, `state`, `iss`, or `error`…)
 */
GHashTable *
mcp_auth_loopback_wait_finish (McpAuthLoopback  *self,
                               GAsyncResult     *result,
                               GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-server-watch"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-http-transport.h"

#include "steward-server-watch.h"

struct _StewardServerWatch
{
  GObject       parent_instance;

  McpClient    *client;
  GCancellable *cancellable;    /* of the ping in flight, NULL when none */
  guint         timeout_source;
  guint         tick_source;
  guint         interval_ms;   /* 0: as the stream suggests */
  gboolean      lost;
};

enum {
  SIGNAL_LOST,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (StewardServerWatch, steward_server_watch, G_TYPE_OBJECT)

static void schedule_tick (StewardServerWatch *self);

static void
lose (StewardServerWatch *self,
      const char         *reason)
{
  if (self->lost)
    return;

  self->lost = TRUE;
  g_clear_handle_id (&self->tick_source, g_source_remove);
  g_signal_emit (self, signals[SIGNAL_LOST], 0, reason);
}

static void
ping_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(StewardServerWatch) self = user_data;
  g_autoptr(GError) error = NULL;
  gboolean timed_out = self->timeout_source == 0;

  if (mcp_client_ping_finish (MCP_CLIENT (object), result, &error))
    {
      g_clear_handle_id (&self->timeout_source, g_source_remove);
      g_clear_object (&self->cancellable);
      return;
    }

  /* Cancelled by dispose: nobody is listening any more. */
  if (self->cancellable == NULL)
    return;

  g_clear_handle_id (&self->timeout_source, g_source_remove);
  g_clear_object (&self->cancellable);

  if (timed_out)
    {
      g_autofree char *reason = NULL;

      /* Translators: %u is a number of seconds. */
      reason = g_strdup_printf (_("it did not answer a ping within %u s"),
                                STEWARD_SERVER_WATCH_TIMEOUT_MS / 1000);
      lose (self, reason);
    }
  else
    lose (self, error->message);
}

static gboolean
ping_timeout_cb (gpointer user_data)
{
  StewardServerWatch *self = user_data;

  self->timeout_source = 0;
  g_cancellable_cancel (self->cancellable);

  return G_SOURCE_REMOVE;
}

static void
ping (StewardServerWatch *self)
{
  if (self->lost || self->cancellable != NULL)
    return;

  self->cancellable = g_cancellable_new ();
  self->timeout_source = g_timeout_add (STEWARD_SERVER_WATCH_TIMEOUT_MS, ping_timeout_cb, self);
  mcp_client_ping_async (self->client, self->cancellable, ping_cb, g_object_ref (self));
}

static gboolean
tick_cb (gpointer user_data)
{
  StewardServerWatch *self = user_data;

  self->tick_source = 0;
  ping (self);
  schedule_tick (self);

  return G_SOURCE_REMOVE;
}

/* A server with its event stream open tells us that it went by closing
 * it (the legacy transport's stream is always open, and its end closes the
 * client); a Streamable HTTP server without one must be asked more often. */
static void
schedule_tick (StewardServerWatch *self)
{
  McpTransport *transport = mcp_client_get_transport (self->client);
  gboolean listening = !MCP_IS_HTTP_TRANSPORT (transport) ||
                       mcp_http_transport_is_listening (MCP_HTTP_TRANSPORT (transport));

  guint interval = listening ? STEWARD_SERVER_WATCH_LISTENING_INTERVAL_MS
                             : STEWARD_SERVER_WATCH_INTERVAL_MS;

  if (self->lost)
    return;

  if (self->interval_ms > 0)
    interval = self->interval_ms;
  self->tick_source = g_timeout_add (interval, tick_cb, self);
}

static void
interrupted_cb (StewardServerWatch *self,
                const char         *reason,
                McpTransport       *transport)
{
  g_debug ("connection interrupted: %s", reason);
  ping (self);
}

static void
steward_server_watch_dispose (GObject *object)
{
  StewardServerWatch *self = STEWARD_SERVER_WATCH (object);

  g_clear_handle_id (&self->tick_source, g_source_remove);
  g_clear_handle_id (&self->timeout_source, g_source_remove);
  if (self->cancellable != NULL)
    {
      g_autoptr(GCancellable) cancellable = g_steal_pointer (&self->cancellable);

      g_cancellable_cancel (cancellable);
    }
  g_clear_object (&self->client);

  G_OBJECT_CLASS (steward_server_watch_parent_class)->dispose (object);
}

static void
steward_server_watch_class_init (StewardServerWatchClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = steward_server_watch_dispose;

  signals[SIGNAL_LOST] =
    g_signal_new ("lost", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
steward_server_watch_init (StewardServerWatch *self)
{
}

/**
 * steward_server_watch_new:
 * @client: a connected client of a remote server
 *
 * Returns: (transfer full): a watch that pings @client until it is
 *   disposed or the server is lost
 */
StewardServerWatch *
steward_server_watch_new (McpClient *client)
{
  StewardServerWatch *self;
  McpTransport *transport;

  g_return_val_if_fail (MCP_IS_CLIENT (client), NULL);

  self = g_object_new (STEWARD_TYPE_SERVER_WATCH, NULL);
  self->client = g_object_ref (client);

  transport = mcp_client_get_transport (client);
  if (MCP_IS_HTTP_TRANSPORT (transport))
    g_signal_connect_object (transport, "interrupted", G_CALLBACK (interrupted_cb), self,
                             G_CONNECT_SWAPPED);
  schedule_tick (self);

  return self;
}

void
steward_server_watch_set_interval (StewardServerWatch *self,
                                   guint               interval_ms)
{
  g_return_if_fail (STEWARD_IS_SERVER_WATCH (self));

  self->interval_ms = interval_ms;
  g_clear_handle_id (&self->tick_source, g_source_remove);
  schedule_tick (self);
}

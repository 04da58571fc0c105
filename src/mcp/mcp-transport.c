/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-transport"

#include "config.h"

#include "mcp-transport.h"

enum {
  SIGNAL_MESSAGE,
  SIGNAL_LOG,
  SIGNAL_CLOSED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_INTERFACE (McpTransport, mcp_transport, G_TYPE_OBJECT)

static void
mcp_transport_default_init (McpTransportInterface *iface)
{
  /**
   * McpTransport::message:
   * @message: a message from the peer
   */
  signals[SIGNAL_MESSAGE] =
    g_signal_new ("message", G_TYPE_FROM_INTERFACE (iface), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                  MCP_TYPE_MESSAGE | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * McpTransport::log:
   * @kind: an #McpTransportLogKind
   * @text: one line of text
   */
  signals[SIGNAL_LOG] =
    g_signal_new ("log", G_TYPE_FROM_INTERFACE (iface), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2,
                  G_TYPE_INT, G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * McpTransport::closed:
   * @error: (nullable): why, or %NULL when we closed it ourselves
   */
  signals[SIGNAL_CLOSED] =
    g_signal_new ("closed", G_TYPE_FROM_INTERFACE (iface), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                  G_TYPE_ERROR | G_SIGNAL_TYPE_STATIC_SCOPE);
}

void
mcp_transport_start_async (McpTransport        *self,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_return_if_fail (MCP_IS_TRANSPORT (self));

  MCP_TRANSPORT_GET_IFACE (self)->start_async (self, cancellable, callback, user_data);
}

gboolean
mcp_transport_start_finish (McpTransport  *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (MCP_IS_TRANSPORT (self), FALSE);

  return MCP_TRANSPORT_GET_IFACE (self)->start_finish (self, result, error);
}

void
mcp_transport_send_async (McpTransport        *self,
                          McpMessage          *message,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_return_if_fail (MCP_IS_TRANSPORT (self));
  g_return_if_fail (message != NULL);

  MCP_TRANSPORT_GET_IFACE (self)->send_async (self, message, cancellable, callback, user_data);
}

gboolean
mcp_transport_send_finish (McpTransport  *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (MCP_IS_TRANSPORT (self), FALSE);

  return MCP_TRANSPORT_GET_IFACE (self)->send_finish (self, result, error);
}

void
mcp_transport_close_async (McpTransport        *self,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_return_if_fail (MCP_IS_TRANSPORT (self));

  MCP_TRANSPORT_GET_IFACE (self)->close_async (self, cancellable, callback, user_data);
}

gboolean
mcp_transport_close_finish (McpTransport  *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (MCP_IS_TRANSPORT (self), FALSE);

  return MCP_TRANSPORT_GET_IFACE (self)->close_finish (self, result, error);
}

void
mcp_transport_set_protocol_version (McpTransport *self,
                                    const char   *version)
{
  McpTransportInterface *iface;

  g_return_if_fail (MCP_IS_TRANSPORT (self));

  iface = MCP_TRANSPORT_GET_IFACE (self);
  if (iface->set_protocol_version != NULL)
    iface->set_protocol_version (self, version);
}

const char *
mcp_transport_get_description (McpTransport *self)
{
  McpTransportInterface *iface;

  g_return_val_if_fail (MCP_IS_TRANSPORT (self), NULL);

  iface = MCP_TRANSPORT_GET_IFACE (self);
  return iface->get_description ? iface->get_description (self) : G_OBJECT_TYPE_NAME (self);
}

void
mcp_transport_emit_message (McpTransport *self,
                            McpMessage   *message)
{
  g_signal_emit (self, signals[SIGNAL_MESSAGE], 0, message);
}

void
mcp_transport_emit_log (McpTransport        *self,
                        McpTransportLogKind  kind,
                        const char          *text)
{
  g_signal_emit (self, signals[SIGNAL_LOG], 0, (int) kind, text);
}

/**
 * mcp_transport_emit_diagnostic:
 *
 * Emits "log" with %MCP_TRANSPORT_LOG_DIAGNOSTIC and the formatted text.
 */
void
mcp_transport_emit_diagnostic (McpTransport *self,
                               const char   *format,
                               ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);

  mcp_transport_emit_log (self, MCP_TRANSPORT_LOG_DIAGNOSTIC, text);
}

void
mcp_transport_emit_closed (McpTransport *self,
                           const GError *error)
{
  g_signal_emit (self, signals[SIGNAL_CLOSED], 0, error);
}

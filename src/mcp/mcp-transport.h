/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "mcp-message.h"

G_BEGIN_DECLS

#define MCP_TYPE_TRANSPORT (mcp_transport_get_type ())

G_DECLARE_INTERFACE (McpTransport, mcp_transport, MCP, TRANSPORT, GObject)

/**
 * McpTransportLogKind:
 * @MCP_TRANSPORT_LOG_STDERR: one line the server wrote to its stderr
 * @MCP_TRANSPORT_LOG_DIAGNOSTIC: something the transport noticed (a dropped
 *   non-JSON line, a reconnect, a signal sent), in words a person can read
 */
typedef enum {
  MCP_TRANSPORT_LOG_STDERR,
  MCP_TRANSPORT_LOG_DIAGNOSTIC,
} McpTransportLogKind;

/**
 * McpTransportInterface:
 * @start_async: spawn or connect; completes when messages can be sent
 * @send_async: queue one message; completes when it is handed to the peer
 *   (written to the pipe, or accepted by the HTTP server). With a %NULL
 *   callback nothing is reported for this message alone: a transport that
 *   can no longer deliver emits "closed", and one that failed to deliver a
 *   single request (an HTTP error) emits an error response for its id
 * @close_async: shut down gracefully, completes when the peer is gone;
 *   "closed" is emitted before it completes
 * @set_protocol_version: told the negotiated revision, for transports whose
 *   framing depends on it (batches, HTTP headers); may be %NULL
 * @get_description: a short text naming the peer ("npx -y server", a URL)
 *
 * Signals, all emitted on the thread-default main context of the caller of
 * start_async: "message" (McpMessage) for each received message, in order;
 * "log" (McpTransportLogKind, text); "closed" (GError or %NULL for a clean
 * close we asked for), once.
 */
struct _McpTransportInterface
{
  GTypeInterface parent_iface;

  void         (*start_async)          (McpTransport         *self,
                                        GCancellable         *cancellable,
                                        GAsyncReadyCallback   callback,
                                        gpointer              user_data);
  gboolean     (*start_finish)         (McpTransport         *self,
                                        GAsyncResult         *result,
                                        GError              **error);
  void         (*send_async)           (McpTransport         *self,
                                        McpMessage           *message,
                                        GCancellable         *cancellable,
                                        GAsyncReadyCallback   callback,
                                        gpointer              user_data);
  gboolean     (*send_finish)          (McpTransport         *self,
                                        GAsyncResult         *result,
                                        GError              **error);
  void         (*close_async)          (McpTransport         *self,
                                        GCancellable         *cancellable,
                                        GAsyncReadyCallback   callback,
                                        gpointer              user_data);
  gboolean     (*close_finish)         (McpTransport         *self,
                                        GAsyncResult         *result,
                                        GError              **error);
  void         (*set_protocol_version) (McpTransport         *self,
                                        const char           *version);
  const char  *(*get_description)      (McpTransport         *self);
};

void         mcp_transport_start_async           (McpTransport         *self,
                                                  GCancellable         *cancellable,
                                                  GAsyncReadyCallback   callback,
                                                  gpointer              user_data);
gboolean     mcp_transport_start_finish          (McpTransport         *self,
                                                  GAsyncResult         *result,
                                                  GError              **error);
void         mcp_transport_send_async            (McpTransport         *self,
                                                  McpMessage           *message,
                                                  GCancellable         *cancellable,
                                                  GAsyncReadyCallback   callback,
                                                  gpointer              user_data);
gboolean     mcp_transport_send_finish           (McpTransport         *self,
                                                  GAsyncResult         *result,
                                                  GError              **error);
void         mcp_transport_close_async           (McpTransport         *self,
                                                  GCancellable         *cancellable,
                                                  GAsyncReadyCallback   callback,
                                                  gpointer              user_data);
gboolean     mcp_transport_close_finish          (McpTransport         *self,
                                                  GAsyncResult         *result,
                                                  GError              **error);
void         mcp_transport_set_protocol_version  (McpTransport         *self,
                                                  const char           *version);
const char  *mcp_transport_get_description       (McpTransport         *self);

/* For implementations: emit the interface's signals. */
void         mcp_transport_emit_message          (McpTransport         *self,
                                                  McpMessage           *message);
void         mcp_transport_emit_log              (McpTransport         *self,
                                                  McpTransportLogKind   kind,
                                                  const char           *text);
void         mcp_transport_emit_diagnostic       (McpTransport         *self,
                                                  const char           *format,
                                                  ...) G_GNUC_PRINTF (2, 3);
void         mcp_transport_emit_closed           (McpTransport         *self,
                                                  const GError         *error);

G_END_DECLS

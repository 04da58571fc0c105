/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-client.h"

G_BEGIN_DECLS

typedef enum {
  MCP_HTTP_KIND_AUTO,
  MCP_HTTP_KIND_STREAMABLE,
  MCP_HTTP_KIND_SSE,
} McpHttpKind;

/**
 * McpClientSetupFunc:
 * @client: a client not yet connected
 *
 * Configures each client made while connecting (delegate, revision,
 * timeouts, signal handlers) before it connects.
 */
typedef void (*McpClientSetupFunc) (McpClient *client,
                                    gpointer   user_data);

McpTransport *mcp_http_kind_new_transport  (McpHttpKind          kind,
                                            const char          *url,
                                            GHashTable          *headers,
                                            GError             **error);
gboolean      mcp_http_kind_from_string    (const char          *string,
                                            McpHttpKind         *kind);
void          mcp_connect_http_async       (const char          *url,
                                            GHashTable          *headers,
                                            McpHttpKind          kind,
                                            McpClientSetupFunc   setup,
                                            gpointer             setup_data,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
McpClient    *mcp_connect_http_finish      (GAsyncResult        *result,
                                            GError             **error);

G_END_DECLS

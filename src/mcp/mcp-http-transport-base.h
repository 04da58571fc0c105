/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define MCP_TYPE_HTTP_TRANSPORT_BASE (mcp_http_transport_base_get_type ())

G_DECLARE_DERIVABLE_TYPE (McpHttpTransportBase, mcp_http_transport_base,
                          MCP, HTTP_TRANSPORT_BASE, GObject)

/**
 * McpHttpTransportBaseClass:
 *
 * What the two HTTP transports, %McpHttpTransport (Streamable HTTP) and
 * %McpSseTransport (the legacy HTTP+SSE), have in common: the server's URL,
 * the headers sent with every request, and the limits on what the server
 * sends. Each transport implements %McpTransport itself.
 */
struct _McpHttpTransportBaseClass
{
  GObjectClass parent_class;
};

const char *mcp_http_transport_base_get_url              (McpHttpTransportBase *self);
void        mcp_http_transport_base_set_header           (McpHttpTransportBase *self,
                                                          const char           *name,
                                                          const char           *value);
gsize       mcp_http_transport_base_get_max_message_size (McpHttpTransportBase *self);
void        mcp_http_transport_base_set_max_message_size (McpHttpTransportBase *self,
                                                          gsize                 max_size);
guint       mcp_http_transport_base_get_idle_timeout     (McpHttpTransportBase *self);
void        mcp_http_transport_base_set_idle_timeout     (McpHttpTransportBase *self,
                                                          guint                 timeout_ms);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-transport.h"

G_BEGIN_DECLS

/* How long the server may take to name its endpoint after the stream opens. */
#define MCP_SSE_ENDPOINT_TIMEOUT_MS (30 * 1000)

#define MCP_TYPE_SSE_TRANSPORT (mcp_sse_transport_get_type ())

G_DECLARE_FINAL_TYPE (McpSseTransport, mcp_sse_transport, MCP, SSE_TRANSPORT, GObject)

/**
 * McpSseTransport:
 *
 * The legacy HTTP+SSE transport of 2024-11-05: a GET opens an event stream
 * whose first `endpoint` event names, relative to the stream's URL, where
 * every message is POSTed; answers come back on the stream. The endpoint
 * must have the stream's origin, or the connection fails before anything
 * is posted; later `endpoint` events are ignored.
 */
McpSseTransport *mcp_sse_transport_new                   (const char       *url,
                                                          GError          **error);
const char      *mcp_sse_transport_get_url               (McpSseTransport  *self);
const char      *mcp_sse_transport_get_endpoint          (McpSseTransport  *self);
void             mcp_sse_transport_set_header            (McpSseTransport  *self,
                                                          const char       *name,
                                                          const char       *value);
void             mcp_sse_transport_set_max_message_size  (McpSseTransport  *self,
                                                          gsize             max_size);

G_END_DECLS

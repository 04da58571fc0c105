/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-http-transport-base.h"
#include "mcp-transport.h"

G_BEGIN_DECLS

/* How long the server may take to name its endpoint after the stream opens. */
#define MCP_SSE_ENDPOINT_TIMEOUT_MS (30 * 1000)
/* How long the event stream may stay silent (not even a comment) before the
 * connection is taken as dead. The legacy transport cannot resume a stream,
 * so this is generous. */
#define MCP_SSE_IDLE_TIMEOUT_MS     (5 * 60 * 1000)
/* How long the server may take to accept one POSTed message. Messages are
 * posted one after the other, so one the server never answers would hold
 * up every later one. */
#define MCP_SSE_POST_TIMEOUT_MS     (30 * 1000)

#define MCP_TYPE_SSE_TRANSPORT (mcp_sse_transport_get_type ())

G_DECLARE_FINAL_TYPE (McpSseTransport, mcp_sse_transport, MCP, SSE_TRANSPORT,
                      McpHttpTransportBase)

/**
 * McpSseTransport:
 *
 * The legacy HTTP+SSE transport of 2024-11-05: a GET opens an event stream
 * whose first `endpoint` event names, relative to the stream's URL, where
 * every message is POSTed; answers come back on the stream. The endpoint
 * must have the stream's origin, or the connection fails before anything
 * is posted; later `endpoint` events are ignored.
 *
 * Messages are posted in order, each once the previous one was accepted,
 * because servers handle them in the order they arrive. A request the HTTP
 * server refuses (a status other than 2xx, or no answer in time) is
 * answered by the transport itself with an error response for its id, in
 * %MCP_ERROR with %MCP_ERROR_HTTP_STATUS and the status in the error's data
 * (`{"status": 500}`), %MCP_ERROR_TIMEOUT or %MCP_ERROR_CLOSED. Redirects
 * are never followed, and the configured headers go to the configured
 * origin only. The stream cannot be resumed: when it ends, the connection
 * is closed.
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
void             mcp_sse_transport_set_endpoint_timeout  (McpSseTransport  *self,
                                                          guint             timeout_ms);
void             mcp_sse_transport_set_idle_timeout      (McpSseTransport  *self,
                                                          guint             timeout_ms);
void             mcp_sse_transport_set_post_timeout      (McpSseTransport  *self,
                                                          guint             timeout_ms);

G_END_DECLS

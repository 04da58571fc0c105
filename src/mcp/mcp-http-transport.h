/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-http-transport-base.h"
#include "mcp-transport.h"

G_BEGIN_DECLS

/* How long a stream may stay silent before it is taken as dead. Servers
 * send keep-alive comments far more often than this. The same bound applies
 * to the wait for a reply's headers and to a whole JSON reply, so that a
 * server trickling one byte a second cannot hold a request forever. */
#define MCP_HTTP_IDLE_TIMEOUT_MS   (5 * 60 * 1000)
/* Reconnections of one stream in a row that bring no message, before it is
 * given up. A reconnection that delivers a message starts the count again,
 * so a server that polls (SEP-1699) while it reports progress is followed
 * for as long as the request lasts. */
#define MCP_HTTP_MAX_RECONNECTS    5
/* Bounds on a server's `retry` field, in milliseconds. */
#define MCP_HTTP_MIN_RETRY_MS      100
#define MCP_HTTP_MAX_RETRY_MS      (60 * 1000)
/* How long the DELETE that ends a session may take when closing. */
#define MCP_HTTP_DELETE_TIMEOUT_MS 2000

#define MCP_TYPE_HTTP_TRANSPORT (mcp_http_transport_get_type ())

G_DECLARE_FINAL_TYPE (McpHttpTransport, mcp_http_transport, MCP, HTTP_TRANSPORT,
                      McpHttpTransportBase)

/**
 * McpHttpTransport:
 *
 * The Streamable HTTP transport (2025-03-26 to 2025-11-25, and the
 * sessionless shape of 2026-07-28). Every message is a POST; replies come
 * as JSON or as a text/event-stream; the standalone GET stream carries what
 * the server sends unasked. A request the HTTP server refuses (a status
 * other than 2xx) is answered by the transport itself with an error
 * response for its id, in %MCP_ERROR with %MCP_ERROR_HTTP_STATUS and the
 * status in the error's data (`{"status": 404}`, plus `"error"` when the
 * body was a JSON-RPC error and `"wwwAuthenticate"` with the challenge of a
 * 401 or 403), so the client's request fails at once with the reason.
 * A request that never reached the server fails with %MCP_ERROR_UNREACHABLE
 * or %MCP_ERROR_TLS.
 *
 * Signals: "interrupted" (a reason) when the standalone GET stream ends or
 * a request finds the server gone, while the transport itself goes on.
 */
McpHttpTransport *mcp_http_transport_new                   (const char        *url,
                                                            GError           **error);
const char       *mcp_http_transport_get_url               (McpHttpTransport  *self);
void              mcp_http_transport_set_header            (McpHttpTransport  *self,
                                                            const char        *name,
                                                            const char        *value);
void              mcp_http_transport_set_max_message_size  (McpHttpTransport  *self,
                                                            gsize              max_size);
void              mcp_http_transport_set_idle_timeout      (McpHttpTransport  *self,
                                                            guint              timeout_ms);
guint             mcp_http_transport_get_idle_timeout      (McpHttpTransport  *self);
gboolean          mcp_http_transport_has_session           (McpHttpTransport  *self);
gboolean          mcp_http_transport_is_listening          (McpHttpTransport  *self);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define MCP_ERROR (mcp_error_quark ())

/**
 * McpError:
 *
 * Codes in the MCP_ERROR domain. Negative codes are JSON-RPC codes: a peer's
 * error response keeps its code (any integer, also ones not listed here), and
 * an error we answer a peer with uses the code as it stands. Positive codes
 * are local conditions that never travel on the wire.
 */
typedef enum {
  MCP_ERROR_USER_REJECTED                      = -1,
  MCP_ERROR_PARSE_ERROR                        = -32700,
  MCP_ERROR_INVALID_REQUEST                    = -32600,
  MCP_ERROR_METHOD_NOT_FOUND                   = -32601,
  MCP_ERROR_INVALID_PARAMS                     = -32602,
  MCP_ERROR_INTERNAL_ERROR                     = -32603,
  MCP_ERROR_RESOURCE_NOT_FOUND                 = -32002,
  MCP_ERROR_HEADER_MISMATCH                    = -32020,
  MCP_ERROR_MISSING_REQUIRED_CLIENT_CAPABILITY = -32021,
  MCP_ERROR_UNSUPPORTED_PROTOCOL_VERSION       = -32022,
  MCP_ERROR_URL_ELICITATION_REQUIRED           = -32042,

  MCP_ERROR_TIMEOUT = 1,
  MCP_ERROR_CLOSED,
  MCP_ERROR_MESSAGE_TOO_LARGE,
  MCP_ERROR_TOO_DEEP,
  MCP_ERROR_INVALID_UTF8,
  MCP_ERROR_INVALID_MESSAGE,
  MCP_ERROR_UNSUPPORTED_VERSION,
  MCP_ERROR_CAPABILITY_MISSING,
  MCP_ERROR_SPAWN_FAILED,
  MCP_ERROR_EXITED,
  MCP_ERROR_MISBEHAVING,
  MCP_ERROR_OVERLOADED,
  MCP_ERROR_NOT_READY,
  MCP_ERROR_HTTP_STATUS,
  MCP_ERROR_SESSION_EXPIRED,
  MCP_ERROR_FORBIDDEN_ORIGIN,
  /* Nothing answered at the address: refused, no such host, no route. */
  MCP_ERROR_UNREACHABLE,
  /* The secure connection failed: a certificate not accepted, not TLS. */
  MCP_ERROR_TLS,
} McpError;

GQuark      mcp_error_quark     (void);
gboolean    mcp_error_is_rpc    (const GError *error);
JsonNode   *mcp_error_get_data  (const GError *error);
void        mcp_error_set_data  (GError       *error,
                                 JsonNode     *data);
GError     *mcp_error_new_rpc   (int           code,
                                 const char   *message,
                                 JsonNode     *data);

G_END_DECLS

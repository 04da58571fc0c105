/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "mcp-auth-metadata.h"
#include "mcp-auth-token.h"

G_BEGIN_DECLS

#define MCP_AUTH_ERROR (mcp_auth_error_quark ())

/**
 * McpAuthError:
 * @MCP_AUTH_ERROR_UNREACHABLE: a metadata, registration or token request
 *   reached nobody
 * @MCP_AUTH_ERROR_HTTP: such a request was refused
 * @MCP_AUTH_ERROR_DISCOVERY: the server's authorization server could not be
 *   found
 * @MCP_AUTH_ERROR_METADATA: metadata that a client cannot use
 * @MCP_AUTH_ERROR_ISSUER_MISMATCH: metadata whose `issuer` is not the one it
 *   was looked up for
 * @MCP_AUTH_ERROR_RESOURCE_MISMATCH: protected resource metadata for
 *   another server
 * @MCP_AUTH_ERROR_REGISTRATION: no way for this client to register; the
 *   message says what the server needs
 * @MCP_AUTH_ERROR_DENIED: the authorization server said no
 * @MCP_AUTH_ERROR_ISS: the authorization response's `iss` (RFC 9207) is
 *   missing where promised, or names another server
 * @MCP_AUTH_ERROR_TOKEN: the token endpoint's answer is unusable
 * @MCP_AUTH_ERROR_CLIENT: the client's own credentials are unusable
 * @MCP_AUTH_ERROR_STEP_UP_LIMIT: the server keeps asking for more scopes
 */
typedef enum {
  MCP_AUTH_ERROR_UNREACHABLE,
  MCP_AUTH_ERROR_HTTP,
  MCP_AUTH_ERROR_DISCOVERY,
  MCP_AUTH_ERROR_METADATA,
  MCP_AUTH_ERROR_ISSUER_MISMATCH,
  MCP_AUTH_ERROR_RESOURCE_MISMATCH,
  MCP_AUTH_ERROR_REGISTRATION,
  MCP_AUTH_ERROR_DENIED,
  MCP_AUTH_ERROR_ISS,
  MCP_AUTH_ERROR_TOKEN,
  MCP_AUTH_ERROR_CLIENT,
  MCP_AUTH_ERROR_STEP_UP_LIMIT,
} McpAuthError;

/**
 * McpAuthOpenFunc:
 * @url: the authorization request, to open in the person's browser
 *
 * Shows the person the authorization server. The flow then waits for the
 * redirect, or for its cancellable.
 */
typedef void (*McpAuthOpenFunc) (const char *url,
                                 gpointer    user_data);

#define MCP_TYPE_AUTH_FLOW (mcp_auth_flow_get_type ())

G_DECLARE_FINAL_TYPE (McpAuthFlow, mcp_auth_flow, MCP, AUTH_FLOW, GObject)

GQuark        mcp_auth_error_quark                 (void);

McpAuthFlow  *mcp_auth_flow_new                    (const char           *server_url);
void          mcp_auth_flow_set_client_name        (McpAuthFlow          *self,
                                                    const char           *name);
void          mcp_auth_flow_set_client             (McpAuthFlow          *self,
                                                    const char           *client_id,
                                                    const char           *client_secret);
void          mcp_auth_flow_set_client_metadata_url (McpAuthFlow         *self,
                                                    const char           *url);
void          mcp_auth_flow_set_scope              (McpAuthFlow          *self,
                                                    const char           *scope);
void          mcp_auth_flow_set_client_key         (McpAuthFlow          *self,
                                                    const char           *private_key_pem);
void          mcp_auth_flow_set_client_credentials (McpAuthFlow          *self,
                                                    gboolean              client_credentials);
void          mcp_auth_flow_set_done_page          (McpAuthFlow          *self,
                                                    const char           *html);
void          mcp_auth_flow_set_open_func          (McpAuthFlow          *self,
                                                    McpAuthOpenFunc       func,
                                                    gpointer              user_data,
                                                    GDestroyNotify        destroy);
const McpAuthServerMetadata *
              mcp_auth_flow_get_server_metadata    (McpAuthFlow          *self);
const char   *mcp_auth_flow_get_resource           (McpAuthFlow          *self);

void          mcp_auth_flow_discover_async         (McpAuthFlow          *self,
                                                    const char           *www_authenticate,
                                                    GCancellable         *cancellable,
                                                    GAsyncReadyCallback   callback,
                                                    gpointer              user_data);
gboolean      mcp_auth_flow_discover_finish        (McpAuthFlow          *self,
                                                    GAsyncResult         *result,
                                                    GError              **error);
void          mcp_auth_flow_authorize_async        (McpAuthFlow          *self,
                                                    const char           *www_authenticate,
                                                    GCancellable         *cancellable,
                                                    GAsyncReadyCallback   callback,
                                                    gpointer              user_data);
McpAuthToken *mcp_auth_flow_authorize_finish       (McpAuthFlow          *self,
                                                    GAsyncResult         *result,
                                                    GError              **error);
void          mcp_auth_flow_refresh_async          (McpAuthFlow          *self,
                                                    const McpAuthToken   *token,
                                                    GCancellable         *cancellable,
                                                    GAsyncReadyCallback   callback,
                                                    gpointer              user_data);
McpAuthToken *mcp_auth_flow_refresh_finish         (McpAuthFlow          *self,
                                                    GAsyncResult         *result,
                                                    GError              **error);
void          mcp_auth_flow_revoke_async           (McpAuthFlow          *self,
                                                    const McpAuthToken   *token,
                                                    GCancellable         *cancellable,
                                                    GAsyncReadyCallback   callback,
                                                    gpointer              user_data);
gboolean      mcp_auth_flow_revoke_finish          (McpAuthFlow          *self,
                                                    GAsyncResult         *result,
                                                    GError              **error);

G_END_DECLS

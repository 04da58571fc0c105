/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/**
 * McpAuthToken:
 * @access_token: what goes after `Bearer`
 * @refresh_token: (nullable): what gets a new one without the person
 * @scope: (nullable): the scopes granted, space-separated
 * @expires_at: when the access token ends, in seconds since the epoch, or
 *   0 when the server did not say
 * @issuer: the authorization server that granted it
 * @resource: the resource it was granted for (RFC 8707)
 * @client_id: the client it was granted to, which a refresh must name
 * @id_token: (nullable): the OpenID Connect ID token that came with it,
 *   kept only to show who signed in
 *
 * A grant from an authorization server. Every member but the issuer, the
 * resource and the client id is a secret: it goes to the keyring and the
 * redactor, never to a file or a log.
 */
typedef struct {
  char   *access_token;
  char   *refresh_token;
  char   *scope;
  gint64  expires_at;
  char   *issuer;
  char   *resource;
  char   *client_id;
  char   *id_token;
} McpAuthToken;

#define MCP_TYPE_AUTH_TOKEN (mcp_auth_token_get_type ())

GType         mcp_auth_token_get_type      (void) G_GNUC_CONST;
McpAuthToken *mcp_auth_token_parse_response (JsonNode           *node,
                                             GError            **error);
McpAuthToken *mcp_auth_token_copy          (const McpAuthToken *token);
void          mcp_auth_token_free          (McpAuthToken       *token);
gboolean      mcp_auth_token_expires_within (const McpAuthToken *token,
                                             gint64              now,
                                             gint64              seconds);
char         *mcp_auth_token_serialize     (const McpAuthToken *token);
McpAuthToken *mcp_auth_token_deserialize   (const char         *text,
                                             GError            **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (McpAuthToken, mcp_auth_token_free)

G_END_DECLS

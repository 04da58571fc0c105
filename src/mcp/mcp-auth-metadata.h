/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/**
 * McpAuthResourceMetadata:
 * @resource: the protected resource's identifier
 * @authorization_servers: the issuers that grant tokens for it
 * @scopes_supported: (nullable): the scopes it knows, when it says
 *
 * Protected Resource Metadata (RFC 9728), the members a client uses.
 */
typedef struct {
  char  *resource;
  char **authorization_servers;
  char **scopes_supported;
} McpAuthResourceMetadata;

/**
 * McpAuthServerMetadata:
 *
 * Authorization Server Metadata (RFC 8414, or OpenID Connect Discovery),
 * the members a client uses. Lists are %NULL when the server left them out,
 * which RFC 8414 gives a meaning of its own (token endpoint
 * authentication then defaults to `client_secret_basic`).
 */
typedef struct {
  char     *issuer;
  char     *authorization_endpoint;
  char     *token_endpoint;
  char     *registration_endpoint;
  char     *revocation_endpoint;
  /* OpenID Connect: where to ask who signed in. */
  char     *userinfo_endpoint;
  char    **scopes_supported;
  char    **grant_types_supported;
  char    **code_challenge_methods_supported;
  char    **token_endpoint_auth_methods_supported;
  char    **token_endpoint_auth_signing_alg_values_supported;
  gboolean  client_id_metadata_document_supported;
  gboolean  authorization_response_iss_parameter_supported;
} McpAuthServerMetadata;

McpAuthResourceMetadata *mcp_auth_resource_metadata_parse  (JsonNode                *node,
                                                            GError                 **error);
void                     mcp_auth_resource_metadata_free   (McpAuthResourceMetadata *metadata);

McpAuthServerMetadata   *mcp_auth_server_metadata_parse    (JsonNode                *node,
                                                            GError                 **error);
McpAuthServerMetadata   *mcp_auth_server_metadata_new_fallback (const char          *base_url);
void                     mcp_auth_server_metadata_free     (McpAuthServerMetadata   *metadata);
gboolean                 mcp_auth_server_metadata_supports (char                   **list,
                                                            const char              *value);

char                   **mcp_auth_resource_metadata_urls   (const char              *server_url);
char                   **mcp_auth_server_metadata_urls     (const char              *issuer);
gboolean                 mcp_auth_issuer_matches           (const char              *expected,
                                                            const char              *issuer);
gboolean                 mcp_auth_resource_covers          (const char              *resource,
                                                            const char              *server_url);
char                    *mcp_auth_canonical_resource       (const char              *server_url);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (McpAuthResourceMetadata, mcp_auth_resource_metadata_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (McpAuthServerMetadata, mcp_auth_server_metadata_free)

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/**
 * McpAuthChallenge:
 * @error: the `error` parameter (`invalid_token`, `insufficient_scope`…)
 * @scope: the scopes the server asks for, space-separated
 * @resource_metadata: where the server's protected resource metadata is
 *   (RFC 9728 §5.1)
 * @error_description: the server's own words, for a person
 *
 * The parameters of the `Bearer` challenge of a `WWW-Authenticate` header
 * (RFC 6750 §3), each %NULL when the server did not send it.
 */
typedef struct {
  char *error;
  char *scope;
  char *resource_metadata;
  char *error_description;
} McpAuthChallenge;

#define MCP_TYPE_AUTH_CHALLENGE (mcp_auth_challenge_get_type ())

GType             mcp_auth_challenge_get_type  (void) G_GNUC_CONST;
McpAuthChallenge *mcp_auth_challenge_parse     (const char             *header);
McpAuthChallenge *mcp_auth_challenge_copy      (const McpAuthChallenge *challenge);
void              mcp_auth_challenge_free      (McpAuthChallenge       *challenge);
char             *mcp_auth_challenge_from_error (const GError          *error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (McpAuthChallenge, mcp_auth_challenge_free)

G_END_DECLS

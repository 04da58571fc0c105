/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-auth"

#include "config.h"

#include <string.h>

#include "mcp-auth-flow.h"
#include "mcp-json-private.h"

#include "mcp-auth-token.h"

G_DEFINE_BOXED_TYPE (McpAuthToken, mcp_auth_token, mcp_auth_token_copy, mcp_auth_token_free)

/* The characters RFC 6750 §2.1 allows in a bearer token; anything else
 * could break the Authorization header it goes into. */
static gboolean
is_b64token (const char *token)
{
  if (token == NULL || token[0] == '\0')
    return FALSE;

  for (const char *p = token; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && strchr ("-._~+/=", *p) == NULL)
      return FALSE;

  return TRUE;
}

/**
 * mcp_auth_token_parse_response:
 * @node: the JSON of a successful token response (RFC 6749 §5.1)
 *
 * Returns: (transfer full) (nullable): the token, without issuer and
 *   resource (the caller knows them), or %NULL with %MCP_AUTH_ERROR_TOKEN
 */
McpAuthToken *
mcp_auth_token_parse_response (JsonNode  *node,
                               GError   **error)
{
  g_autoptr(McpAuthToken) token = g_new0 (McpAuthToken, 1);
  JsonObject *object;
  const char *type;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error_literal (error, MCP_AUTH_ERROR, MCP_AUTH_ERROR_TOKEN,
                           "The token endpoint's answer is not a JSON object");
      return NULL;
    }

  object = json_node_get_object (node);
  type = mcp_json_get_string (object, "token_type");
  if (type == NULL || g_ascii_strcasecmp (type, "Bearer") != 0)
    {
      g_set_error (error, MCP_AUTH_ERROR, MCP_AUTH_ERROR_TOKEN,
                   "The token endpoint granted a token of type `%s`; only Bearer tokens "
                   "are supported", type != NULL ? type : "none");
      return NULL;
    }

  token->access_token = g_strdup (mcp_json_get_string (object, "access_token"));
  if (!is_b64token (token->access_token))
    {
      g_set_error_literal (error, MCP_AUTH_ERROR, MCP_AUTH_ERROR_TOKEN,
                           "The token endpoint's answer holds no usable access_token");
      return NULL;
    }

  token->refresh_token = g_strdup (mcp_json_get_string (object, "refresh_token"));
  token->scope = g_strdup (mcp_json_get_string (object, "scope"));
  token->id_token = g_strdup (mcp_json_get_string (object, "id_token"));
  if (mcp_json_has_number (object, "expires_in"))
    {
      double in = mcp_json_get_number (object, "expires_in", 0);

      if (in > 0 && in < G_MAXINT32)
        token->expires_at = g_get_real_time () / G_USEC_PER_SEC + (gint64) in;
    }

  return g_steal_pointer (&token);
}

McpAuthToken *
mcp_auth_token_copy (const McpAuthToken *token)
{
  McpAuthToken *copy = g_new0 (McpAuthToken, 1);

  copy->access_token = g_strdup (token->access_token);
  copy->refresh_token = g_strdup (token->refresh_token);
  copy->scope = g_strdup (token->scope);
  copy->expires_at = token->expires_at;
  copy->issuer = g_strdup (token->issuer);
  copy->resource = g_strdup (token->resource);
  copy->client_id = g_strdup (token->client_id);
  copy->id_token = g_strdup (token->id_token);

  return copy;
}

void
mcp_auth_token_free (McpAuthToken *token)
{
  if (token == NULL)
    return;

  /* Secrets do not linger in freed memory. */
  if (token->access_token != NULL)
    memset (token->access_token, 0, strlen (token->access_token));
  if (token->refresh_token != NULL)
    memset (token->refresh_token, 0, strlen (token->refresh_token));
  g_free (token->access_token);
  g_free (token->refresh_token);
  g_free (token->scope);
  g_free (token->issuer);
  g_free (token->resource);
  g_free (token->client_id);
  g_free (token->id_token);
  g_free (token);
}

/**
 * mcp_auth_token_expires_within:
 * @now: seconds since the epoch
 *
 * Returns: whether @token ends within @seconds of @now; a token without an
 *   expiry never does, until a server refuses it
 */
gboolean
mcp_auth_token_expires_within (const McpAuthToken *token,
                               gint64              now,
                               gint64              seconds)
{
  return token->expires_at != 0 && token->expires_at - now <= seconds;
}

/**
 * mcp_auth_token_serialize:
 *
 * Returns: (transfer full): @token as JSON, the form kept in the keyring
 */
char *
mcp_auth_token_serialize (const McpAuthToken *token)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "access_token");
  json_builder_add_string_value (builder, token->access_token);
  if (token->refresh_token != NULL)
    {
      json_builder_set_member_name (builder, "refresh_token");
      json_builder_add_string_value (builder, token->refresh_token);
    }
  if (token->scope != NULL)
    {
      json_builder_set_member_name (builder, "scope");
      json_builder_add_string_value (builder, token->scope);
    }
  json_builder_set_member_name (builder, "expires_at");
  json_builder_add_int_value (builder, token->expires_at);
  json_builder_set_member_name (builder, "issuer");
  json_builder_add_string_value (builder, token->issuer);
  json_builder_set_member_name (builder, "resource");
  json_builder_add_string_value (builder, token->resource);
  json_builder_set_member_name (builder, "client_id");
  json_builder_add_string_value (builder, token->client_id);
  if (token->id_token != NULL)
    {
      json_builder_set_member_name (builder, "id_token");
      json_builder_add_string_value (builder, token->id_token);
    }
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  return mcp_json_to_string (root, FALSE);
}

/**
 * mcp_auth_token_deserialize:
 *
 * Returns: (transfer full) (nullable): the token @text holds
 */
McpAuthToken *
mcp_auth_token_deserialize (const char  *text,
                            GError     **error)
{
  g_autoptr(JsonNode) node = mcp_json_from_string (text, NULL);
  g_autoptr(McpAuthToken) token = g_new0 (McpAuthToken, 1);
  JsonObject *object;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error_literal (error, MCP_AUTH_ERROR, MCP_AUTH_ERROR_TOKEN,
                           "The stored sign-in is not readable; sign in again");
      return NULL;
    }

  object = json_node_get_object (node);
  token->access_token = g_strdup (mcp_json_get_string (object, "access_token"));
  token->refresh_token = g_strdup (mcp_json_get_string (object, "refresh_token"));
  token->scope = g_strdup (mcp_json_get_string (object, "scope"));
  token->expires_at = (gint64) mcp_json_get_number (object, "expires_at", 0);
  token->issuer = g_strdup (mcp_json_get_string (object, "issuer"));
  token->resource = g_strdup (mcp_json_get_string (object, "resource"));
  token->client_id = g_strdup (mcp_json_get_string (object, "client_id"));
  token->id_token = g_strdup (mcp_json_get_string (object, "id_token"));

  if (!is_b64token (token->access_token))
    {
      g_set_error_literal (error, MCP_AUTH_ERROR, MCP_AUTH_ERROR_TOKEN,
                           "The stored sign-in holds no access token; sign in again");
      return NULL;
    }

  return g_steal_pointer (&token);
}

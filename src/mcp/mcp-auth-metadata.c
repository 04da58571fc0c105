/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-auth"

#include "config.h"

#include <string.h>

#include "mcp-auth-flow.h"
#include "mcp-json-private.h"

#include "mcp-auth-metadata.h"

static char **
read_strings (JsonObject *object,
              const char *member)
{
  JsonArray *array = mcp_json_get_array (object, member);
  g_autoptr(GStrvBuilder) builder = NULL;

  if (array == NULL)
    return NULL;

  builder = g_strv_builder_new ();
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);

      if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
        g_strv_builder_add (builder, json_node_get_string (node));
    }

  return g_strv_builder_end (builder);
}

/* An endpoint must be an absolute https URL, or http on loopback, which is
 * what a local authorization server and the test suites use. */
static gboolean
is_acceptable_url (const char *url)
{
  g_autoptr(GUri) uri = url != NULL ? g_uri_parse (url, G_URI_FLAGS_NONE, NULL) : NULL;
  const char *host;

  if (uri == NULL || g_uri_get_host (uri) == NULL || g_uri_get_fragment (uri) != NULL)
    return FALSE;

  if (g_strcmp0 (g_uri_get_scheme (uri), "https") == 0)
    return TRUE;

  host = g_uri_get_host (uri);
  return g_strcmp0 (g_uri_get_scheme (uri), "http") == 0 &&
         (g_str_equal (host, "localhost") || g_str_equal (host, "127.0.0.1") ||
          g_str_equal (host, "::1") || g_str_equal (host, "[::1]"));
}

static gboolean
check_url (const char  *what,
           const char  *url,
           gboolean     required,
           GError     **error)
{
  if (url == NULL && !required)
    return TRUE;

  if (url == NULL)
    {
      g_set_error (error, MCP_AUTH_ERROR, MCP_AUTH_ERROR_METADATA,
                   "The authorization server's metadata has no %s", what);
      return FALSE;
    }

  if (!is_acceptable_url (url))
    {
      g_set_error (error, MCP_AUTH_ERROR, MCP_AUTH_ERROR_METADATA,
                   "The authorization server's %s `%s` is not an https:// URL", what, url);
      return FALSE;
    }

  return TRUE;
}

/* Both kinds of metadata are one JSON object; @whose names the document in
 * the error otherwise. */
static JsonObject *
metadata_object (JsonNode    *node,
                 const char  *whose,
                 GError     **error)
{
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, MCP_AUTH_ERROR, MCP_AUTH_ERROR_METADATA,
                   "The %s metadata is not a JSON object", whose);
      return NULL;
    }

  return json_node_get_object (node);
}

/**
 * mcp_auth_resource_metadata_parse:
 *
 * Returns: (transfer full) (nullable): the metadata, or %NULL with
 *   %MCP_AUTH_ERROR_METADATA when @node is not usable metadata
 */
McpAuthResourceMetadata *
mcp_auth_resource_metadata_parse (JsonNode  *node,
                                  GError   **error)
{
  g_autoptr(McpAuthResourceMetadata) metadata = NULL;
  JsonObject *object;

  object = metadata_object (node, "protected resource", error);
  if (object == NULL)
    return NULL;

  metadata = g_new0 (McpAuthResourceMetadata, 1);
  metadata->resource = g_strdup (mcp_json_get_string (object, "resource"));
  metadata->authorization_servers = read_strings (object, "authorization_servers");
  metadata->scopes_supported = read_strings (object, "scopes_supported");

  if (metadata->resource == NULL)
    {
      g_set_error_literal (error, MCP_AUTH_ERROR, MCP_AUTH_ERROR_METADATA,
                           "The protected resource metadata names no resource");
      return NULL;
    }

  if (metadata->authorization_servers == NULL || metadata->authorization_servers[0] == NULL)
    {
      g_set_error_literal (error, MCP_AUTH_ERROR, MCP_AUTH_ERROR_METADATA,
                           "The protected resource metadata names no authorization server");
      return NULL;
    }

  return g_steal_pointer (&metadata);
}

void
mcp_auth_resource_metadata_free (McpAuthResourceMetadata *metadata)
{
  if (metadata == NULL)
    return;

  g_free (metadata->resource);
  g_strfreev (metadata->authorization_servers);
  g_strfreev (metadata->scopes_supported);
  g_free (metadata);
}

/**
 * mcp_auth_server_metadata_parse:
 *
 * Returns: (transfer full) (nullable): the metadata, or %NULL with
 *   %MCP_AUTH_ERROR_METADATA when @node lacks what a client needs
 */
McpAuthServerMetadata *
mcp_auth_server_metadata_parse (JsonNode  *node,
                                GError   **error)
{
  g_autoptr(McpAuthServerMetadata) metadata = NULL;
  JsonObject *object;

  object = metadata_object (node, "authorization server", error);
  if (object == NULL)
    return NULL;

  metadata = g_new0 (McpAuthServerMetadata, 1);
  metadata->issuer = g_strdup (mcp_json_get_string (object, "issuer"));
  metadata->authorization_endpoint =
    g_strdup (mcp_json_get_string (object, "authorization_endpoint"));
  metadata->token_endpoint = g_strdup (mcp_json_get_string (object, "token_endpoint"));
  metadata->registration_endpoint =
    g_strdup (mcp_json_get_string (object, "registration_endpoint"));
  metadata->revocation_endpoint = g_strdup (mcp_json_get_string (object, "revocation_endpoint"));
  metadata->userinfo_endpoint = g_strdup (mcp_json_get_string (object, "userinfo_endpoint"));
  metadata->scopes_supported = read_strings (object, "scopes_supported");
  metadata->grant_types_supported = read_strings (object, "grant_types_supported");
  metadata->code_challenge_methods_supported =
    read_strings (object, "code_challenge_methods_supported");
  metadata->token_endpoint_auth_methods_supported =
    read_strings (object, "token_endpoint_auth_methods_supported");
  metadata->token_endpoint_auth_signing_alg_values_supported =
    read_strings (object, "token_endpoint_auth_signing_alg_values_supported");
  metadata->client_id_metadata_document_supported =
    mcp_json_get_boolean (object, "client_id_metadata_document_supported", FALSE);
  metadata->authorization_response_iss_parameter_supported =
    mcp_json_get_boolean (object, "authorization_response_iss_parameter_supported", FALSE);

  if (metadata->issuer == NULL)
    {
      g_set_error_literal (error, MCP_AUTH_ERROR, MCP_AUTH_ERROR_METADATA,
                           "The authorization server metadata names no issuer");
      return NULL;
    }

  if (!check_url ("token endpoint", metadata->token_endpoint, TRUE, error) ||
      !check_url ("authorization endpoint", metadata->authorization_endpoint, FALSE, error) ||
      !check_url ("registration endpoint", metadata->registration_endpoint, FALSE, error) ||
      !check_url ("revocation endpoint", metadata->revocation_endpoint, FALSE, error))
    return NULL;

  /* Who signed in is only shown: an unusable userinfo endpoint is left
   * out rather than refusing the sign-in. */
  if (!check_url ("userinfo endpoint", metadata->userinfo_endpoint, FALSE, NULL))
    g_clear_pointer (&metadata->userinfo_endpoint, g_free);

  return g_steal_pointer (&metadata);
}

/**
 * mcp_auth_server_metadata_new_fallback:
 * @base_url: the MCP server's URL
 *
 * The endpoints the 2025-03-26 revision has a client assume when a server
 * publishes no metadata: `/authorize`, `/token` and `/register` at the root
 * of the server's origin.
 *
 * Returns: (transfer full): metadata with those endpoints
 */
McpAuthServerMetadata *
mcp_auth_server_metadata_new_fallback (const char *base_url)
{
  g_autoptr(GUri) uri = g_uri_parse (base_url, G_URI_FLAGS_NONE, NULL);
  McpAuthServerMetadata *metadata = g_new0 (McpAuthServerMetadata, 1);
  g_autofree char *origin = NULL;

  g_return_val_if_fail (uri != NULL, metadata);

  origin = g_uri_join (G_URI_FLAGS_NONE, g_uri_get_scheme (uri), NULL, g_uri_get_host (uri),
                       g_uri_get_port (uri), "", NULL, NULL);
  metadata->issuer = g_strdup (origin);
  metadata->authorization_endpoint = g_strconcat (origin, "/authorize", NULL);
  metadata->token_endpoint = g_strconcat (origin, "/token", NULL);
  metadata->registration_endpoint = g_strconcat (origin, "/register", NULL);

  return metadata;
}

void
mcp_auth_server_metadata_free (McpAuthServerMetadata *metadata)
{
  if (metadata == NULL)
    return;

  g_free (metadata->issuer);
  g_free (metadata->authorization_endpoint);
  g_free (metadata->token_endpoint);
  g_free (metadata->registration_endpoint);
  g_free (metadata->revocation_endpoint);
  g_free (metadata->userinfo_endpoint);
  g_strfreev (metadata->scopes_supported);
  g_strfreev (metadata->grant_types_supported);
  g_strfreev (metadata->code_challenge_methods_supported);
  g_strfreev (metadata->token_endpoint_auth_methods_supported);
  g_strfreev (metadata->token_endpoint_auth_signing_alg_values_supported);
  g_free (metadata);
}

/**
 * mcp_auth_server_metadata_supports:
 * @list: (nullable): one of the metadata's lists
 *
 * Returns: whether @list holds @value
 */
gboolean
mcp_auth_server_metadata_supports (char       **list,
                                   const char  *value)
{
  return list != NULL && g_strv_contains ((const char * const *) list, value);
}

/* The URL's path without its trailing slash: "" for the root. */
static char *
trimmed_path (GUri *uri)
{
  const char *path = g_uri_get_path (uri);
  gsize n = strlen (path);

  while (n > 0 && path[n - 1] == '/')
    n--;

  return g_strndup (path, n);
}

/* g_strv_builder_take() is newer than GLib 2.74. */
static void
take (GStrvBuilder *builder,
      char         *string)
{
  g_strv_builder_add (builder, string);
  g_free (string);
}

static char *
origin_of (GUri *uri)
{
  return g_uri_join (G_URI_FLAGS_NONE, g_uri_get_scheme (uri), NULL, g_uri_get_host (uri),
                     g_uri_get_port (uri), "", NULL, NULL);
}

/* The origin of @url and its trimmed path, where metadata is looked for;
 * FALSE for a URL without a host. */
static gboolean
split_url (const char  *url,
           char       **origin,
           char       **path)
{
  g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);

  if (uri == NULL || g_uri_get_host (uri) == NULL)
    return FALSE;

  *origin = origin_of (uri);
  *path = trimmed_path (uri);
  return TRUE;
}

/**
 * mcp_auth_resource_metadata_urls:
 * @server_url: the MCP server's URL
 *
 * Where to look for Protected Resource Metadata when the server's challenge
 * does not say (RFC 9728 §3.1): the well-known path with the server's path
 * after it, then the one at the root.
 *
 * Returns: (transfer full) (nullable): the URLs to try in order
 */
char **
mcp_auth_resource_metadata_urls (const char *server_url)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autofree char *origin = NULL;
  g_autofree char *path = NULL;

  if (!split_url (server_url, &origin, &path))
    return NULL;

  if (path[0] != '\0')
    take (builder,
                         g_strconcat (origin, "/.well-known/oauth-protected-resource", path, NULL));
  take (builder, g_strconcat (origin, "/.well-known/oauth-protected-resource", NULL));

  return g_strv_builder_end (builder);
}

/**
 * mcp_auth_server_metadata_urls:
 * @issuer: the authorization server's issuer identifier
 *
 * Where to look for its metadata, in the order of the MCP authorization
 * spec: for an issuer with a path (a tenant), RFC 8414 with the path after
 * the well-known part, then OpenID Connect the same way, then OpenID
 * Connect with the well-known part after the path; for one without, RFC
 * 8414 then OpenID Connect at the root.
 *
 * Returns: (transfer full) (nullable): the URLs to try in order
 */
char **
mcp_auth_server_metadata_urls (const char *issuer)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autofree char *origin = NULL;
  g_autofree char *path = NULL;

  if (!split_url (issuer, &origin, &path))
    return NULL;

  if (path[0] != '\0')
    {
      take (builder, g_strconcat (origin, "/.well-known/oauth-authorization-server",
                                                 path, NULL));
      take (builder, g_strconcat (origin, "/.well-known/openid-configuration",
                                                 path, NULL));
      take (builder, g_strconcat (origin, path, "/.well-known/openid-configuration",
                                                 NULL));
    }
  else
    {
      take (builder, g_strconcat (origin, "/.well-known/oauth-authorization-server",
                                                 NULL));
      take (builder, g_strconcat (origin, "/.well-known/openid-configuration",
                                                 NULL));
    }

  return g_strv_builder_end (builder);
}

/**
 * mcp_auth_issuer_matches:
 * @expected: the issuer the metadata was looked up for
 * @issuer: the `issuer` the metadata holds
 *
 * RFC 8414 §3.3: the two must be identical, character for character, or
 * an attacker's metadata could stand in for the real server's.
 */
gboolean
mcp_auth_issuer_matches (const char *expected,
                         const char *issuer)
{
  return expected != NULL && issuer != NULL && g_str_equal (expected, issuer);
}

/**
 * mcp_auth_resource_covers:
 * @resource: the `resource` of the protected resource metadata
 * @server_url: the MCP server's URL
 *
 * Whether the metadata may speak for the server: the same origin, and the
 * server's path at or below the resource's (RFC 9728 §7.3 asks for the
 * identical URL; a resource for the whole origin covers its paths, as
 * metadata at the root says).
 */
gboolean
mcp_auth_resource_covers (const char *resource,
                          const char *server_url)
{
  g_autoptr(GUri) a = resource != NULL ? g_uri_parse (resource, G_URI_FLAGS_NONE, NULL) : NULL;
  g_autoptr(GUri) b = g_uri_parse (server_url, G_URI_FLAGS_NONE, NULL);
  g_autofree char *origin_a = NULL;
  g_autofree char *origin_b = NULL;
  g_autofree char *path_a = NULL;
  g_autofree char *path_b = NULL;

  if (a == NULL || b == NULL || g_uri_get_host (a) == NULL || g_uri_get_host (b) == NULL)
    return FALSE;

  origin_a = origin_of (a);
  origin_b = origin_of (b);
  if (g_ascii_strcasecmp (origin_a, origin_b) != 0)
    return FALSE;

  path_a = trimmed_path (a);
  path_b = trimmed_path (b);

  return g_str_has_prefix (path_b, path_a) &&
         (path_b[strlen (path_a)] == '\0' || path_b[strlen (path_a)] == '/');
}

/**
 * mcp_auth_canonical_resource:
 *
 * Returns: (transfer full): the server's URL as a resource indicator (RFC
 *   8707): no fragment, no query, a lowercase scheme and host
 */
char *
mcp_auth_canonical_resource (const char *server_url)
{
  g_autoptr(GUri) uri = g_uri_parse (server_url, G_URI_FLAGS_NONE, NULL);
  g_autofree char *scheme = NULL;
  g_autofree char *host = NULL;

  if (uri == NULL)
    return g_strdup (server_url);

  scheme = g_ascii_strdown (g_uri_get_scheme (uri), -1);
  host = g_ascii_strdown (g_uri_get_host (uri) != NULL ? g_uri_get_host (uri) : "", -1);

  return g_uri_join (G_URI_FLAGS_NONE, scheme, NULL, host, g_uri_get_port (uri),
                     g_uri_get_path (uri), NULL, NULL);
}

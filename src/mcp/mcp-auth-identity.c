/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-auth-identity"

#include "config.h"

#include "mcp-soup.h"
#include <string.h>

#include "mcp-auth-flow.h"

#include "mcp-auth-identity.h"

/* Who signed in, for the person to recognise the account: the claims of
 * an ID token, a JWT access token or the userinfo endpoint are shown,
 * never trusted, so no signature is checked here. The name a person
 * reads best comes first. */
static const char * const display_claims[] = { "name", "preferred_username", "email" };

/* A userinfo answer larger than this is not an answer. */
#define USERINFO_MAX_BYTES (64 * 1024)
#define USERINFO_TIMEOUT_S 30

/**
 * mcp_auth_identity_from_claims:
 * @claims: an ID token's, a JWT's or the userinfo endpoint's claims
 *
 * Returns: (transfer full) (nullable): the first of `name`,
 *   `preferred_username` and `email` that is a non-empty string, as valid
 *   UTF-8
 */
char *
mcp_auth_identity_from_claims (JsonObject *claims)
{
  for (guint i = 0; i < G_N_ELEMENTS (display_claims); i++)
    {
      JsonNode *node = json_object_get_member (claims, display_claims[i]);

      if (node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
          json_node_get_value_type (node) == G_TYPE_STRING &&
          *json_node_get_string (node) != '\0')
        return g_utf8_make_valid (json_node_get_string (node), -1);
    }

  return NULL;
}

/**
 * mcp_auth_identity_from_jwt:
 * @jwt: a token that may be a JWT
 *
 * Returns: (transfer full) (nullable): who @jwt names, or %NULL when it is
 *   opaque or names nobody
 */
char *
mcp_auth_identity_from_jwt (const char *jwt)
{
  g_auto(GStrv) parts = NULL;
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GString) padded = NULL;
  g_autofree guchar *payload = NULL;
  JsonNode *root;
  gsize length = 0;

  if (jwt == NULL)
    return NULL;

  parts = g_strsplit (jwt, ".", -1);
  if (g_strv_length (parts) != 3)
    return NULL;

  /* base64url without padding, turned into what GLib decodes. */
  padded = g_string_new (parts[1]);
  g_strdelimit (padded->str, "-", '+');
  g_strdelimit (padded->str, "_", '/');
  while (padded->len % 4 != 0)
    g_string_append_c (padded, '=');
  payload = g_base64_decode (padded->str, &length);
  if (payload == NULL || length == 0)
    return NULL;

  parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, (const char *) payload, length, NULL) ||
      (root = json_parser_get_root (parser)) == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return NULL;

  return mcp_auth_identity_from_claims (json_node_get_object (root));
}

static gboolean
granted_openid (const McpAuthToken *token)
{
  g_auto(GStrv) scopes = NULL;

  if (token->scope == NULL)
    return FALSE;

  scopes = g_strsplit (token->scope, " ", -1);
  return g_strv_contains ((const char * const *) scopes, "openid");
}

/**
 * mcp_auth_identity_from_token:
 * @token: a grant
 *
 * Who @token was granted to: the ID token's claims when `openid` was
 * granted and an ID token came with it, otherwise those of a JWT access
 * token.
 *
 * Returns: (transfer full) (nullable): who signed in, or %NULL when
 *   @token does not say
 */
char *
mcp_auth_identity_from_token (const McpAuthToken *token)
{
  if (token->id_token != NULL && granted_openid (token))
    {
      g_autofree char *name = mcp_auth_identity_from_jwt (token->id_token);

      if (name != NULL)
        return g_steal_pointer (&name);
    }

  return mcp_auth_identity_from_jwt (token->access_token);
}

typedef struct {
  SoupSession *session;
  GByteArray  *body;
} Fetch;

static void
fetch_free (Fetch *fetch)
{
  g_clear_object (&fetch->session);
  g_clear_pointer (&fetch->body, g_byte_array_unref);
  g_free (fetch);
}

static void
answer (GTask      *task,
        GByteArray *body)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonNode *root;
  char *name;

  if (!json_parser_load_from_data (parser, (const char *) body->data, body->len, NULL) ||
      (root = json_parser_get_root (parser)) == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_task_return_new_error (task, MCP_AUTH_ERROR, MCP_AUTH_ERROR_HTTP,
                               "The userinfo endpoint's answer is not a JSON object");
      return;
    }

  name = mcp_auth_identity_from_claims (json_node_get_object (root));
  if (name == NULL)
    {
      g_task_return_new_error (task, MCP_AUTH_ERROR, MCP_AUTH_ERROR_HTTP,
                               "The userinfo endpoint names no one by name, user name or "
                               "email");
      return;
    }

  g_task_return_pointer (task, name, g_free);
}

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Fetch *fetch = g_task_get_task_data (task);
  GInputStream *stream = G_INPUT_STREAM (object);
  GCancellable *cancellable;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  bytes = g_input_stream_read_bytes_finish (stream, result, &error);
  if (bytes == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (g_bytes_get_size (bytes) == 0)
    {
      answer (task, fetch->body);
      return;
    }

  g_byte_array_append (fetch->body, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  if (fetch->body->len > USERINFO_MAX_BYTES)
    {
      g_task_return_new_error (task, MCP_AUTH_ERROR, MCP_AUTH_ERROR_HTTP,
                               "The userinfo endpoint answered with more than %d bytes",
                               USERINFO_MAX_BYTES);
      return;
    }

  cancellable = g_task_get_cancellable (task);
  g_input_stream_read_bytes_async (stream, USERINFO_MAX_BYTES + 1 - fetch->body->len,
                                   G_PRIORITY_DEFAULT, cancellable, read_cb,
                                   g_steal_pointer (&task));
}

static void
sent_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  SoupMessage *message;
  guint status;

  stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);
  if (stream == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  message = soup_session_get_async_result_message (SOUP_SESSION (object), result);
  status = soup_message_get_status (message);
  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      g_task_return_new_error (task, MCP_AUTH_ERROR, MCP_AUTH_ERROR_HTTP,
                               "The userinfo endpoint answered with HTTP status %u", status);
      return;
    }

  /* Read in pieces up to one byte more than allowed, which tells a flood
   * from an answer without reading it whole. */
  g_input_stream_read_bytes_async (stream, USERINFO_MAX_BYTES + 1, G_PRIORITY_DEFAULT,
                                   g_task_get_cancellable (task), read_cb,
                                   g_object_ref (task));
}

/**
 * mcp_auth_identity_fetch_userinfo_async:
 * @endpoint: the authorization server's `userinfo_endpoint`
 * @access_token: the token to ask with
 *
 * Asks the OpenID Connect userinfo endpoint who @access_token belongs to.
 */
void
mcp_auth_identity_fetch_userinfo_async (const char          *endpoint,
                                        const char          *access_token,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  g_autoptr(SoupSession) session = NULL;
  g_autoptr(SoupMessage) message = NULL;
  g_autofree char *authorization = NULL;
  Fetch *fetch;

  g_task_set_source_tag (task, mcp_auth_identity_fetch_userinfo_async);

  message = soup_message_new ("GET", endpoint);
  if (message == NULL)
    {
      g_task_return_new_error (task, MCP_AUTH_ERROR, MCP_AUTH_ERROR_METADATA,
                               "The userinfo endpoint `%s` is not a URL", endpoint);
      return;
    }

  authorization = g_strconcat ("Bearer ", access_token, NULL);
  soup_message_headers_replace (soup_message_get_request_headers (message), "Authorization",
                                authorization);
  soup_message_headers_replace (soup_message_get_request_headers (message), "Accept",
                                "application/json");

  /* The session lives as long as the request: the task holds it. */
  session = g_object_new (SOUP_TYPE_SESSION,
                          "timeout", USERINFO_TIMEOUT_S,
                          "user-agent", "Steward",
                          NULL);
  fetch = g_new0 (Fetch, 1);
  fetch->session = g_object_ref (session);
  fetch->body = g_byte_array_new ();
  g_task_set_task_data (task, fetch, (GDestroyNotify) fetch_free);
  soup_session_send_async (session, message, G_PRIORITY_DEFAULT, cancellable, sent_cb,
                           g_steal_pointer (&task));
}

/**
 * mcp_auth_identity_fetch_userinfo_finish:
 *
 * Returns: (transfer full) (nullable): who the userinfo endpoint names
 */
char *
mcp_auth_identity_fetch_userinfo_finish (GAsyncResult  *result,
                                         GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

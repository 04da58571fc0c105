/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-auth"

#include "config.h"

#include <string.h>

#include "mcp-auth-jwt.h"
#include "mcp-json-private.h"

#include "mcp-auth-flow-private.h"

/* The token endpoint of an McpAuthFlow: requests with JSON answers, the
 * client authenticated as the authorization server wants, and the
 * requests about a token the flow got earlier (refresh and revocation). */

/* Metadata and token answers are small; a server sending more is not one
 * to believe. */
#define MAX_ANSWER_SIZE (256 * 1024)

static void
send_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  SoupMessage *msg = g_task_get_task_data (task);
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;
  guint status;
  gsize size = 0;
  const char *data;

  body = soup_session_send_and_read_finish (SOUP_SESSION (object), result, &error);
  if (body == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_task_return_error (task, g_steal_pointer (&error));
      else
        g_task_return_new_error (task, MCP_AUTH_ERROR, MCP_AUTH_ERROR_UNREACHABLE,
                                 "%s could not be reached: %s",
                                 g_uri_get_host (soup_message_get_uri (msg)), error->message);
      return;
    }

  data = g_bytes_get_data (body, &size);
  status = soup_message_get_status (msg);
  if (size > 0 && size <= MAX_ANSWER_SIZE)
    {
      g_autofree char *text = g_strndup (data, size);

      node = mcp_json_from_string (text, NULL);
    }

  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      JsonObject *answer = node != NULL && JSON_NODE_HOLDS_OBJECT (node) ?
                           json_node_get_object (node) : NULL;
      const char *code = answer != NULL ? mcp_json_get_string (answer, "error") : NULL;
      const char *description = answer != NULL ?
                                mcp_json_get_string (answer, "error_description") : NULL;
      g_autofree char *url = g_uri_to_string_partial (soup_message_get_uri (msg),
                                                      G_URI_HIDE_QUERY | G_URI_HIDE_USERINFO);

      g_task_return_new_error (task, MCP_AUTH_ERROR, MCP_AUTH_ERROR_HTTP,
                               "%s answered %u%s%s%s%s", url, status,
                               code != NULL ? ": " : "", code != NULL ? code : "",
                               description != NULL ? " — " : "",
                               description != NULL ? description : "");
      return;
    }

  if (node == NULL)
    {
      g_autofree char *url = g_uri_to_string_partial (soup_message_get_uri (msg),
                                                      G_URI_HIDE_QUERY | G_URI_HIDE_USERINFO);

      g_task_return_new_error (task, MCP_AUTH_ERROR, MCP_AUTH_ERROR_METADATA,
                               "%s did not answer with JSON", url);
      return;
    }

  g_task_return_pointer (task, g_steal_pointer (&node), (GDestroyNotify) json_node_unref);
}

/* Sends @msg (taken) and reads a JSON answer. */
void
mcp_auth_flow_send_json_async (McpAuthFlow         *self,
                               SoupMessage         *msg,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_task_data (task, msg, g_object_unref);
  soup_message_headers_replace (soup_message_get_request_headers (msg), "Accept",
                                "application/json");
  soup_session_send_and_read_async (self->session, msg, G_PRIORITY_DEFAULT, cancellable,
                                    send_cb, task);
}

JsonNode *
mcp_auth_flow_send_json_finish (McpAuthFlow   *self,
                                GAsyncResult  *result,
                                GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Client authentication at the token endpoint */

const char *
mcp_auth_flow_client_id (McpAuthFlow *self)
{
  return self->client_id != NULL ? self->client_id : self->registered_id;
}

static const char *
client_secret (McpAuthFlow *self)
{
  return self->client_id != NULL ? self->client_secret : self->registered_secret;
}

/* The method the server asked for at registration, else the best one the
 * metadata lists for what the client has: a key, a secret or nothing.
 * Without a list RFC 8414 says `client_secret_basic`. */
static const char *
auth_method (McpAuthFlow *self)
{
  char **methods = self->server_metadata->token_endpoint_auth_methods_supported;

  if (self->private_key_pem != NULL)
    return "private_key_jwt";
  if (self->client_id == NULL && self->registered_method != NULL)
    return self->registered_method;
  if (client_secret (self) == NULL)
    return "none";
  if (methods == NULL || mcp_auth_server_metadata_supports (methods, "client_secret_basic"))
    return "client_secret_basic";
  if (mcp_auth_server_metadata_supports (methods, "client_secret_post"))
    return "client_secret_post";
  if (mcp_auth_server_metadata_supports (methods, "client_secret_jwt"))
    return "client_secret_jwt";
  if (mcp_auth_server_metadata_supports (methods, "none"))
    return "none";
  return "client_secret_basic";
}

/* The token endpoint request, with the client authenticated as the server
 * wants. @form is taken. */
SoupMessage *
mcp_auth_flow_new_token_request (McpAuthFlow  *self,
                                 const char   *url,
                                 GHashTable   *form,
                                 GError      **error)
{
  const char *method = auth_method (self);
  const char *secret = client_secret (self);
  const char *id = mcp_auth_flow_client_id (self);
  g_autoptr(GHashTable) fields = form;
  g_autofree char *basic = NULL;
  SoupMessage *msg;

  if (g_str_equal (method, "client_secret_basic") && secret != NULL)
    {
      /* RFC 6749 §2.3.1: each part form-encoded before Base64. */
      g_autofree char *user = g_uri_escape_string (id, NULL, FALSE);
      g_autofree char *password = g_uri_escape_string (secret, NULL, FALSE);
      g_autofree char *pair = g_strconcat (user, ":", password, NULL);
      g_autofree char *encoded = g_base64_encode ((const guchar *) pair, strlen (pair));

      basic = g_strconcat ("Basic ", encoded, NULL);
    }
  else if (g_str_equal (method, "client_secret_post") && secret != NULL)
    {
      g_hash_table_replace (fields, g_strdup ("client_id"), g_strdup (id));
      g_hash_table_replace (fields, g_strdup ("client_secret"), g_strdup (secret));
    }
  else if (g_str_equal (method, "private_key_jwt") || g_str_equal (method, "client_secret_jwt"))
    {
      char *assertion;

      if (g_str_equal (method, "private_key_jwt") && self->private_key_pem != NULL)
        assertion = mcp_auth_jwt_sign_with_key (self->private_key_pem, id,
                                                self->server_metadata->issuer, error);
      else if (secret != NULL)
        assertion = mcp_auth_jwt_sign_with_secret (secret, id, self->server_metadata->issuer);
      else
        {
          g_set_error (error, MCP_AUTH_ERROR, MCP_AUTH_ERROR_CLIENT,
                       "The authorization server wants %s, and no key or secret was given",
                       method);
          return NULL;
        }

      if (assertion == NULL)
        return NULL;

      g_hash_table_replace (fields, g_strdup ("client_id"), g_strdup (id));
      g_hash_table_replace (fields, g_strdup ("client_assertion_type"),
                            g_strdup ("urn:ietf:params:oauth:client-assertion-type:jwt-bearer"));
      g_hash_table_replace (fields, g_strdup ("client_assertion"), assertion);
    }
  else
    g_hash_table_replace (fields, g_strdup ("client_id"), g_strdup (id));

  msg = soup_message_new_from_encoded_form ("POST", url, soup_form_encode_hash (fields));
  if (msg == NULL)
    {
      g_set_error (error, MCP_AUTH_ERROR, MCP_AUTH_ERROR_METADATA,
                   "The token endpoint `%s` is not a URL", url);
      return NULL;
    }

  if (basic != NULL)
    soup_message_headers_replace (soup_message_get_request_headers (msg), "Authorization", basic);

  return msg;
}

GHashTable *
mcp_auth_form_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

void
mcp_auth_form_add (GHashTable *form,
                   const char *name,
                   const char *value)
{
  if (value != NULL)
    g_hash_table_replace (form, g_strdup (name), g_strdup (value));
}

/* The token endpoint's answer to a request sent with
 * mcp_auth_flow_send_json_async(), with what the flow knows added: where
 * the token is from and for, and @scope where the answer names none. */
McpAuthToken *
mcp_auth_flow_token_finish (McpAuthFlow   *self,
                            GAsyncResult  *result,
                            const char    *scope,
                            GError       **error)
{
  g_autoptr(JsonNode) node = mcp_auth_flow_send_json_finish (self, result, error);
  McpAuthToken *token;

  if (node == NULL)
    return NULL;

  token = mcp_auth_token_parse_response (node, error);
  if (token == NULL)
    return NULL;

  token->issuer = g_strdup (self->server_metadata->issuer);
  token->resource = g_strdup (self->resource);
  token->client_id = g_strdup (mcp_auth_flow_client_id (self));
  if (token->scope == NULL)
    token->scope = g_strdup (scope);

  return token;
}

/* Refresh and revocation: a request about a token the flow got before,
 * sent once the authorization server is known. The token is the task
 * data; the source tag tells which request it is. */

static void
refresh_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpAuthFlow *self = g_task_get_source_object (task);
  const McpAuthToken *old = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  McpAuthToken *token;

  token = mcp_auth_flow_token_finish (self, result, old->scope, &error);
  if (token == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* RFC 6749 §6: a server that does not rotate refresh tokens sends none,
   * and the old one stays good. */
  if (token->refresh_token == NULL)
    token->refresh_token = g_strdup (old->refresh_token);

  g_task_return_pointer (task, token, (GDestroyNotify) mcp_auth_token_free);
}

static void
revoke_sent_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GError) error = NULL;
  SoupMessage *msg = g_object_get_data (G_OBJECT (task), "message");

  body = soup_session_send_and_read_finish (SOUP_SESSION (object), result, &error);
  if (body == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* RFC 7009 §2.2: 200 whether or not the token was still known. */
  if (!SOUP_STATUS_IS_SUCCESSFUL (soup_message_get_status (msg)))
    {
      g_task_return_new_error (task, MCP_AUTH_ERROR, MCP_AUTH_ERROR_HTTP,
                               "The authorization server refused to revoke the sign-in (%u)",
                               soup_message_get_status (msg));
      return;
    }

  g_task_return_boolean (task, TRUE);
}

static void
discovered_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpAuthFlow *self = MCP_AUTH_FLOW (object);
  const McpAuthToken *token = g_task_get_task_data (task);
  gboolean refresh = g_task_get_source_tag (task) == mcp_auth_flow_refresh_async;
  g_autoptr(GHashTable) form = mcp_auth_form_new ();
  g_autoptr(GError) error = NULL;
  GCancellable *cancellable;
  const char *endpoint;
  SoupMessage *msg;

  if (!mcp_auth_flow_discover_finish (self, result, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (refresh)
    {
      endpoint = self->server_metadata->token_endpoint;
      mcp_auth_form_add (form, "grant_type", "refresh_token");
      mcp_auth_form_add (form, "refresh_token", token->refresh_token);
      mcp_auth_form_add (form, "resource", self->resource);
    }
  else
    {
      /* Nothing to tell a server that offers no revocation: forgetting the
       * token is all a client can do. */
      endpoint = self->server_metadata->revocation_endpoint;
      if (endpoint == NULL)
        {
          g_task_return_boolean (task, FALSE);
          return;
        }

      mcp_auth_form_add (form, "token", token->refresh_token != NULL ? token->refresh_token :
                                                                       token->access_token);
      mcp_auth_form_add (form, "token_type_hint", token->refresh_token != NULL ?
                                                  "refresh_token" : "access_token");
    }

  /* The client that got the token, unless one is configured, asks. */
  if (self->client_id == NULL && self->registered_id == NULL)
    self->registered_id = g_strdup (token->client_id);

  msg = mcp_auth_flow_new_token_request (self, endpoint, g_steal_pointer (&form), &error);
  if (msg == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* The cancellable is read before the task is handed on. */
  cancellable = g_task_get_cancellable (task);
  if (refresh)
    {
      mcp_auth_flow_send_json_async (self, msg, cancellable, refresh_cb, g_steal_pointer (&task));
      return;
    }

  g_object_set_data_full (G_OBJECT (task), "message", msg, g_object_unref);
  soup_session_send_and_read_async (self->session, msg, G_PRIORITY_DEFAULT, cancellable,
                                    revoke_sent_cb, g_steal_pointer (&task));
}

static GTask *
new_token_task (McpAuthFlow         *self,
                const McpAuthToken  *token,
                gpointer             source_tag,
                GCancellable        *cancellable,
                GAsyncReadyCallback  callback,
                gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, mcp_auth_token_copy (token), (GDestroyNotify) mcp_auth_token_free);

  return task;
}

/**
 * mcp_auth_flow_refresh_async:
 * @token: a token with a refresh token
 *
 * Gets a new access token without the person (RFC 6749 §6).
 */
void
mcp_auth_flow_refresh_async (McpAuthFlow         *self,
                             const McpAuthToken  *token,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (MCP_IS_AUTH_FLOW (self));
  g_return_if_fail (token != NULL);

  task = new_token_task (self, token, mcp_auth_flow_refresh_async,
                         cancellable, callback, user_data);
  if (token->refresh_token == NULL)
    {
      g_task_return_new_error (task, MCP_AUTH_ERROR, MCP_AUTH_ERROR_TOKEN,
                               "The sign-in cannot be renewed without the person: the server "
                               "gave no refresh token");
      return;
    }

  mcp_auth_flow_discover_async (self, NULL, cancellable, discovered_cb, g_steal_pointer (&task));
}

McpAuthToken *
mcp_auth_flow_refresh_finish (McpAuthFlow   *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * mcp_auth_flow_revoke_async:
 *
 * Asks the authorization server to forget @token (RFC 7009), where it
 * offers that. Finishes with %FALSE and no error when it does not.
 */
void
mcp_auth_flow_revoke_async (McpAuthFlow         *self,
                            const McpAuthToken  *token,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_return_if_fail (MCP_IS_AUTH_FLOW (self));
  g_return_if_fail (token != NULL);

  mcp_auth_flow_discover_async (self, NULL, cancellable, discovered_cb,
                                new_token_task (self, token, mcp_auth_flow_revoke_async,
                                                cancellable, callback, user_data));
}

/**
 * mcp_auth_flow_revoke_finish:
 *
 * Returns: whether the server revoked the token; %FALSE without an error
 *   when it offers no revocation
 */
gboolean
mcp_auth_flow_revoke_finish (McpAuthFlow   *self,
                             GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

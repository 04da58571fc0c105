/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-auth"

#include "config.h"

#include <string.h>

#include <libsoup/soup.h>

#include "mcp-auth-challenge.h"
#include "mcp-auth-jwt.h"
#include "mcp-auth-loopback.h"
#include "mcp-auth-pkce.h"
#include "mcp-json-private.h"

#include "mcp-auth-flow.h"

/**
 * McpAuthFlow:
 *
 * Signs a client in to one MCP server as the MCP authorization spec
 * describes (2025-03-26 to 2026-07-28): discovery from the server's
 * challenge or well-known locations, client registration (a pre-registered
 * client, a Client ID Metadata Document, or Dynamic Client Registration as
 * a native app), the authorization code grant with PKCE S256, `state` and
 * RFC 8707 resource indicators, answered on a loopback redirect, with the
 * RFC 9207 `iss` checked before the code is redeemed. Or, for a machine
 * client, the client credentials grant.
 *
 * Discovery and registration are kept between calls, so that a step-up for
 * more scopes, a refresh and a revocation go to the same server with the
 * same client. Where tokens are kept is the caller's business.
 */
struct _McpAuthFlow
{
  GObject                  parent_instance;

  SoupSession             *session;
  char                    *server_url;
  char                    *client_name;
  char                    *done_page;

  /* What the person or the configuration gave. */
  char                    *client_id;
  char                    *client_secret;
  char                    *client_metadata_url;
  char                    *scope;
  char                    *private_key_pem;
  gboolean                 client_credentials;

  McpAuthOpenFunc          open_func;
  gpointer                 open_data;
  GDestroyNotify           open_destroy;

  /* What was discovered and registered. */
  McpAuthResourceMetadata *resource_metadata;
  McpAuthServerMetadata   *server_metadata;
  char                    *resource;
  gboolean                 legacy;
  char                    *registered_id;
  char                    *registered_secret;
  char                    *registered_method;
  char                    *requested_scope;
  /* Kept for the flow's life, so that a step-up uses the redirect URI the
   * client registered with. */
  McpAuthLoopback         *loopback;
};

G_DEFINE_FINAL_TYPE (McpAuthFlow, mcp_auth_flow, G_TYPE_OBJECT)

G_DEFINE_QUARK (mcp-auth-error-quark, mcp_auth_error)

/* Metadata and token answers are small; a server sending more is not one
 * to believe. */
#define MAX_ANSWER_SIZE (256 * 1024)
#define REQUEST_TIMEOUT_S 30

static const char default_done_page[] =
  "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Signed in</title></head>"
  "<body><p>You are signed in. You may close this tab.</p></body></html>";

/* HTTP with JSON answers */

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
static void
send_json_async (McpAuthFlow         *self,
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

static JsonNode *
send_json_finish (McpAuthFlow   *self,
                  GAsyncResult  *result,
                  GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Client authentication at the token endpoint */

static const char *
client_id (McpAuthFlow *self)
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
static SoupMessage *
new_token_request (McpAuthFlow  *self,
                   const char   *url,
                   GHashTable   *form,
                   GError      **error)
{
  const char *method = auth_method (self);
  const char *secret = client_secret (self);
  const char *id = client_id (self);
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

static GHashTable *
new_form (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

static void
form_add (GHashTable *form,
          const char *name,
          const char *value)
{
  if (value != NULL)
    g_hash_table_replace (form, g_strdup (name), g_strdup (value));
}

/* The token answer, with what the flow knows added. */
static McpAuthToken *
read_token (McpAuthFlow  *self,
            JsonNode     *node,
            const char   *scope,
            GError      **error)
{
  McpAuthToken *token = mcp_auth_token_parse_response (node, error);

  if (token == NULL)
    return NULL;

  token->issuer = g_strdup (self->server_metadata->issuer);
  token->resource = g_strdup (self->resource);
  token->client_id = g_strdup (client_id (self));
  if (token->scope == NULL)
    token->scope = g_strdup (scope);

  return token;
}

/* One sign-in */

typedef struct {
  McpAuthChallenge *challenge;
  char            **urls;
  guint             next_url;
  char             *issuer;
  char             *verifier;
  char             *state;
  char             *scope;
  gboolean          discover_only;
} Run;

static void
run_free (Run *run)
{
  mcp_auth_challenge_free (run->challenge);
  g_strfreev (run->urls);
  g_free (run->issuer);
  g_free (run->verifier);
  g_free (run->state);
  g_free (run->scope);
  g_free (run);
}

static void fetch_resource_metadata (GTask *task);
static void fetch_server_metadata   (GTask *task);
static void after_discovery         (GTask *task);

static void
resource_metadata_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpAuthFlow *self = g_task_get_source_object (task);
  Run *run = g_task_get_task_data (task);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(McpAuthResourceMetadata) metadata = NULL;

  node = send_json_finish (self, result, &error);
  if (node == NULL && (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
                       g_error_matches (error, MCP_AUTH_ERROR, MCP_AUTH_ERROR_UNREACHABLE)))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (node != NULL)
    metadata = mcp_auth_resource_metadata_parse (node, NULL);

  if (metadata == NULL)
    {
      fetch_resource_metadata (g_steal_pointer (&task));
      return;
    }

  /* RFC 9728 §7.3: metadata for another resource must not be followed,
   * or a server could send the person's sign-in elsewhere. */
  if (!mcp_auth_resource_covers (metadata->resource, self->server_url))
    {
      g_task_return_new_error (task, MCP_AUTH_ERROR, MCP_AUTH_ERROR_RESOURCE_MISMATCH,
                               "The server's protected resource metadata is for `%s`, not for "
                               "`%s`; signing in there could hand a token to another server",
                               metadata->resource, self->server_url);
      return;
    }

  g_free (self->resource);
  self->resource = g_strdup (metadata->resource);
  run->issuer = g_strdup (metadata->authorization_servers[0]);
  g_clear_pointer (&self->resource_metadata, mcp_auth_resource_metadata_free);
  self->resource_metadata = g_steal_pointer (&metadata);
  self->legacy = FALSE;

  g_clear_pointer (&run->urls, g_strfreev);
  run->urls = mcp_auth_server_metadata_urls (run->issuer);
  run->next_url = 0;
  fetch_server_metadata (g_steal_pointer (&task));
}

/* Takes @task. */
static void
fetch_resource_metadata (GTask *task)
{
  McpAuthFlow *self = g_task_get_source_object (task);
  Run *run = g_task_get_task_data (task);
  g_autoptr(GUri) server = NULL;
  SoupMessage *msg;

  if (run->urls == NULL || run->urls[run->next_url] == NULL)
    {
      /* No metadata: a server of the 2025-03-26 revision, whose own origin
       * is its authorization server. */
      g_autofree char *origin = NULL;

      server = g_uri_parse (self->server_url, G_URI_FLAGS_NONE, NULL);
      origin = g_uri_join (G_URI_FLAGS_NONE, g_uri_get_scheme (server), NULL,
                           g_uri_get_host (server), g_uri_get_port (server), "", NULL, NULL);
      self->legacy = TRUE;
      g_free (self->resource);
      self->resource = mcp_auth_canonical_resource (self->server_url);
      run->issuer = g_steal_pointer (&origin);
      g_clear_pointer (&run->urls, g_strfreev);
      run->urls = mcp_auth_server_metadata_urls (run->issuer);
      run->next_url = 0;
      fetch_server_metadata (task);
      return;
    }

  msg = soup_message_new ("GET", run->urls[run->next_url++]);
  if (msg == NULL)
    {
      fetch_resource_metadata (task);
      return;
    }

  send_json_async (self, msg, g_task_get_cancellable (task), resource_metadata_cb, task);
}

static void
server_metadata_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpAuthFlow *self = g_task_get_source_object (task);
  Run *run = g_task_get_task_data (task);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(McpAuthServerMetadata) metadata = NULL;

  node = send_json_finish (self, result, &error);
  if (node == NULL && (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
                       g_error_matches (error, MCP_AUTH_ERROR, MCP_AUTH_ERROR_UNREACHABLE)))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (node == NULL)
    {
      fetch_server_metadata (g_steal_pointer (&task));
      return;
    }

  metadata = mcp_auth_server_metadata_parse (node, &error);
  if (metadata == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* The 2025-03-26 revision derived the metadata's place from the MCP
   * server, not from an issuer, so there is nothing to hold it to. */
  if (!self->legacy && !mcp_auth_issuer_matches (run->issuer, metadata->issuer))
    {
      g_task_return_new_error (task, MCP_AUTH_ERROR, MCP_AUTH_ERROR_ISSUER_MISMATCH,
                               "The authorization server metadata found for `%s` says it is "
                               "`%s`; it was not used, as it may not be that server's",
                               run->issuer, metadata->issuer);
      return;
    }

  g_clear_pointer (&self->server_metadata, mcp_auth_server_metadata_free);
  self->server_metadata = g_steal_pointer (&metadata);
  after_discovery (g_steal_pointer (&task));
}

/* Takes @task. */
static void
fetch_server_metadata (GTask *task)
{
  McpAuthFlow *self = g_task_get_source_object (task);
  Run *run = g_task_get_task_data (task);
  SoupMessage *msg;

  if (run->urls == NULL || run->urls[run->next_url] == NULL)
    {
      if (self->legacy)
        {
          g_clear_pointer (&self->server_metadata, mcp_auth_server_metadata_free);
          self->server_metadata = mcp_auth_server_metadata_new_fallback (self->server_url);
          after_discovery (task);
          return;
        }

      g_task_return_new_error (task, MCP_AUTH_ERROR, MCP_AUTH_ERROR_DISCOVERY,
                               "The authorization server `%s` publishes no metadata, neither "
                               "RFC 8414 nor OpenID Connect", run->issuer);
      g_object_unref (task);
      return;
    }

  msg = soup_message_new ("GET", run->urls[run->next_url++]);
  if (msg == NULL)
    {
      fetch_server_metadata (task);
      return;
    }

  send_json_async (self, msg, g_task_get_cancellable (task), server_metadata_cb, task);
}

static gboolean
has_scope (const char *scopes,
           const char *scope)
{
  g_auto(GStrv) parts = scopes != NULL ? g_strsplit (scopes, " ", -1) : NULL;

  return parts != NULL && g_strv_contains ((const char * const *) parts, scope);
}

/* The scopes to ask for, as the spec's strategy has it: those of the
 * challenge (with those asked for before, on a step-up), else those
 * configured, else all the resource lists, else none at all; with `offline_access` added only where
 * the authorization server lists it, for a refresh token. */
static char *
choose_scope (McpAuthFlow      *self,
              McpAuthChallenge *challenge)
{
  g_autoptr(GString) scope = NULL;
  char **supported = self->server_metadata->scopes_supported;
  char **grants = self->server_metadata->grant_types_supported;

  if (challenge != NULL && challenge->scope != NULL && challenge->scope[0] != '\0')
    {
      scope = g_string_new (challenge->scope);
      if (g_strcmp0 (challenge->error, "insufficient_scope") == 0 &&
          self->requested_scope != NULL)
        {
          g_auto(GStrv) before = g_strsplit (self->requested_scope, " ", -1);

          for (guint i = 0; before[i] != NULL; i++)
            if (before[i][0] != '\0' && !has_scope (scope->str, before[i]))
              g_string_append_printf (scope, " %s", before[i]);
        }
    }
  else if (self->scope != NULL)
    scope = g_string_new (self->scope);
  else if (self->resource_metadata != NULL && self->resource_metadata->scopes_supported != NULL &&
           self->resource_metadata->scopes_supported[0] != NULL)
    {
      g_autofree char *all = g_strjoinv (" ", self->resource_metadata->scopes_supported);

      scope = g_string_new (all);
    }

  if (scope == NULL)
    return NULL;

  if (mcp_auth_server_metadata_supports (supported, "offline_access") &&
      (grants == NULL || mcp_auth_server_metadata_supports (grants, "refresh_token")) &&
      !has_scope (scope->str, "offline_access"))
    g_string_append (scope, " offline_access");

  return g_string_free (g_steal_pointer (&scope), FALSE);
}

static void
token_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpAuthFlow *self = g_task_get_source_object (task);
  Run *run = g_task_get_task_data (task);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  McpAuthToken *token;

  node = send_json_finish (self, result, &error);
  token = node != NULL ? read_token (self, node, run->scope, &error) : NULL;
  if (token == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_free (self->requested_scope);
  self->requested_scope = g_strdup (run->scope);
  g_task_return_pointer (task, token, (GDestroyNotify) mcp_auth_token_free);
}

/* Takes @task and @form. */
static void
request_token (GTask      *task,
               GHashTable *form)
{
  McpAuthFlow *self = g_task_get_source_object (task);
  GError *error = NULL;
  SoupMessage *msg;

  msg = new_token_request (self, self->server_metadata->token_endpoint, form, &error);
  if (msg == NULL)
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  send_json_async (self, msg, g_task_get_cancellable (task), token_cb, task);
}

static void
redirect_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  GTask *task = user_data;
  McpAuthFlow *self = g_task_get_source_object (task);
  Run *run = g_task_get_task_data (task);
  g_autoptr(GHashTable) answer = NULL;
  g_autoptr(GError) error = NULL;
  const char *iss;
  const char *code;
  GHashTable *form;

  answer = mcp_auth_loopback_wait_finish (MCP_AUTH_LOOPBACK (object), result, &error);
  if (answer == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      g_object_unref (task);
      return;
    }

  /* RFC 9207: an answer that names another issuer, or none where the
   * server promised to, may come from a mix-up attack; its code is not
   * redeemed. */
  iss = g_hash_table_lookup (answer, "iss");
  if (iss != NULL && !g_str_equal (iss, self->server_metadata->issuer))
    {
      g_task_return_new_error (task, MCP_AUTH_ERROR, MCP_AUTH_ERROR_ISS,
                               "The sign-in answer came from `%s`, not from `%s` where it was "
                               "asked for; it was refused", iss, self->server_metadata->issuer);
      g_object_unref (task);
      return;
    }
  if (iss == NULL && self->server_metadata->authorization_response_iss_parameter_supported)
    {
      g_task_return_new_error (task, MCP_AUTH_ERROR, MCP_AUTH_ERROR_ISS,
                               "The sign-in answer does not say which server sent it, although "
                               "`%s` promises to; it was refused", self->server_metadata->issuer);
      g_object_unref (task);
      return;
    }

  if (g_hash_table_contains (answer, "error"))
    {
      const char *description = g_hash_table_lookup (answer, "error_description");

      g_task_return_new_error (task, MCP_AUTH_ERROR, MCP_AUTH_ERROR_DENIED,
                               "The authorization server refused the sign-in: %s%s%s",
                               (const char *) g_hash_table_lookup (answer, "error"),
                               description != NULL ? " — " : "",
                               description != NULL ? description : "");
      g_object_unref (task);
      return;
    }

  code = g_hash_table_lookup (answer, "code");
  if (code == NULL || code[0] == '\0')
    {
      g_task_return_new_error (task, MCP_AUTH_ERROR, MCP_AUTH_ERROR_DENIED,
                               "The sign-in answer holds no authorization code");
      g_object_unref (task);
      return;
    }

  form = new_form ();
  form_add (form, "grant_type", "authorization_code");
  form_add (form, "code", code);
  form_add (form, "redirect_uri", mcp_auth_loopback_get_redirect_uri (self->loopback));
  form_add (form, "code_verifier", run->verifier);
  form_add (form, "resource", self->resource);
  request_token (task, form);
}

static char *
authorization_url (McpAuthFlow *self,
                   Run         *run)
{
  g_autoptr(GHashTable) query = new_form ();
  g_autofree char *challenge = mcp_auth_pkce_challenge (run->verifier);
  g_autofree char *encoded = NULL;
  const char *endpoint = self->server_metadata->authorization_endpoint;

  form_add (query, "response_type", "code");
  form_add (query, "client_id", client_id (self));
  form_add (query, "redirect_uri", mcp_auth_loopback_get_redirect_uri (self->loopback));
  form_add (query, "code_challenge", challenge);
  form_add (query, "code_challenge_method", "S256");
  form_add (query, "state", run->state);
  form_add (query, "resource", self->resource);
  form_add (query, "scope", run->scope);
  encoded = soup_form_encode_hash (query);

  return g_strconcat (endpoint, strchr (endpoint, '?') != NULL ? "&" : "?", encoded, NULL);
}

/* Takes @task. */
static void
open_browser (GTask *task)
{
  McpAuthFlow *self = g_task_get_source_object (task);
  Run *run = g_task_get_task_data (task);
  g_autofree char *url = NULL;

  if (self->open_func == NULL)
    {
      g_task_return_new_error (task, MCP_AUTH_ERROR, MCP_AUTH_ERROR_CLIENT,
                               "There is no browser to sign in with");
      g_object_unref (task);
      return;
    }

  run->verifier = mcp_auth_pkce_new_verifier ();
  run->state = mcp_auth_random_string (16);
  url = authorization_url (self, run);

  mcp_auth_loopback_wait_async (self->loopback, run->state, g_task_get_cancellable (task),
                                redirect_cb, task);
  self->open_func (url, self->open_data);
}

static void
registration_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GTask *task = user_data;
  McpAuthFlow *self = g_task_get_source_object (task);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *answer;

  node = send_json_finish (self, result, &error);
  if (node == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      g_object_unref (task);
      return;
    }

  answer = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  if (answer == NULL || mcp_json_get_string (answer, "client_id") == NULL)
    {
      g_task_return_new_error (task, MCP_AUTH_ERROR, MCP_AUTH_ERROR_REGISTRATION,
                               "The authorization server's registration answer holds no "
                               "client_id");
      g_object_unref (task);
      return;
    }

  g_free (self->registered_id);
  self->registered_id = g_strdup (mcp_json_get_string (answer, "client_id"));
  g_free (self->registered_secret);
  self->registered_secret = g_strdup (mcp_json_get_string (answer, "client_secret"));
  g_free (self->registered_method);
  self->registered_method = g_strdup (mcp_json_get_string (answer, "token_endpoint_auth_method"));

  open_browser (task);
}

/* Dynamic Client Registration (RFC 7591) as a native app. Takes @task. */
static void
register_client (GTask *task)
{
  McpAuthFlow *self = g_task_get_source_object (task);
  Run *run = g_task_get_task_data (task);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *body = NULL;
  SoupMessage *msg;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "client_name");
  json_builder_add_string_value (builder, self->client_name);
  json_builder_set_member_name (builder, "application_type");
  json_builder_add_string_value (builder, "native");
  json_builder_set_member_name (builder, "redirect_uris");
  json_builder_begin_array (builder);
  json_builder_add_string_value (builder, mcp_auth_loopback_get_redirect_uri (self->loopback));
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "grant_types");
  json_builder_begin_array (builder);
  json_builder_add_string_value (builder, "authorization_code");
  json_builder_add_string_value (builder, "refresh_token");
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "response_types");
  json_builder_begin_array (builder);
  json_builder_add_string_value (builder, "code");
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "token_endpoint_auth_method");
  json_builder_add_string_value (builder, "none");
  if (run->scope != NULL)
    {
      json_builder_set_member_name (builder, "scope");
      json_builder_add_string_value (builder, run->scope);
    }
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  body = mcp_json_to_string (root, FALSE);

  msg = soup_message_new ("POST", self->server_metadata->registration_endpoint);
  soup_message_set_request_body_from_bytes (msg, "application/json",
                                            g_bytes_new_take (g_steal_pointer (&body),
                                                              strlen (body)));
  send_json_async (self, msg, g_task_get_cancellable (task), registration_cb, task);
}

/* Takes @task. */
static void
after_discovery (GTask *task)
{
  McpAuthFlow *self = g_task_get_source_object (task);
  Run *run = g_task_get_task_data (task);
  McpAuthServerMetadata *metadata = self->server_metadata;
  g_autoptr(GError) error = NULL;

  if (run->discover_only)
    {
      g_task_return_boolean (task, TRUE);
      g_object_unref (task);
      return;
    }

  run->scope = choose_scope (self, run->challenge);

  if (self->client_credentials)
    {
      GHashTable *form;

      if (self->client_id == NULL)
        {
          g_task_return_new_error (task, MCP_AUTH_ERROR, MCP_AUTH_ERROR_CLIENT,
                                   "The client credentials grant needs a client id");
          g_object_unref (task);
          return;
        }

      form = new_form ();
      form_add (form, "grant_type", "client_credentials");
      form_add (form, "resource", self->resource);
      form_add (form, "scope", run->scope);
      request_token (task, form);
      return;
    }

  /* PKCE is required; metadata that does not list S256 means a server
   * that may ignore it (2025-11-25, "Authorization Code Protection"). The
   * 2025-03-26 fallback has no list to check. */
  if (!self->legacy && !mcp_auth_server_metadata_supports (metadata->code_challenge_methods_supported,
                                                           "S256"))
    {
      g_task_return_new_error (task, MCP_AUTH_ERROR, MCP_AUTH_ERROR_METADATA,
                               "The authorization server `%s` does not say it supports PKCE "
                               "with S256, which signing in requires", metadata->issuer);
      g_object_unref (task);
      return;
    }

  if (metadata->authorization_endpoint == NULL)
    {
      g_task_return_new_error (task, MCP_AUTH_ERROR, MCP_AUTH_ERROR_METADATA,
                               "The authorization server `%s` has no authorization endpoint",
                               metadata->issuer);
      g_object_unref (task);
      return;
    }

  if (self->loopback == NULL)
    self->loopback = mcp_auth_loopback_new (self->done_page != NULL ? self->done_page :
                                            default_done_page, &error);
  if (self->loopback == NULL)
    {
      g_task_return_new_error (task, MCP_AUTH_ERROR, MCP_AUTH_ERROR_CLIENT,
                               "No local port for the sign-in answer: %s", error->message);
      g_object_unref (task);
      return;
    }

  /* Registration, in the spec's order of preference. */
  if (self->client_id != NULL)
    open_browser (task);
  else if (self->client_metadata_url != NULL && metadata->client_id_metadata_document_supported)
    {
      g_free (self->registered_id);
      self->registered_id = g_strdup (self->client_metadata_url);
      g_clear_pointer (&self->registered_secret, g_free);
      g_free (self->registered_method);
      self->registered_method = g_strdup ("none");
      open_browser (task);
    }
  else if (self->registered_id != NULL)
    open_browser (task);
  else if (metadata->registration_endpoint != NULL)
    register_client (task);
  else
    {
      g_task_return_new_error (task, MCP_AUTH_ERROR, MCP_AUTH_ERROR_REGISTRATION,
                               "The authorization server `%s` accepts neither Client ID Metadata "
                               "Documents nor Dynamic Client Registration: register a client "
                               "there, with the redirect URI http://127.0.0.1/callback (any "
                               "port), and enter its client id",
                               metadata->issuer);
      g_object_unref (task);
    }
}

static void
start_run (McpAuthFlow *self,
           GTask       *task)
{
  Run *run = g_task_get_task_data (task);

  if (self->server_metadata != NULL)
    {
      after_discovery (task);
      return;
    }

  if (run->challenge != NULL && run->challenge->resource_metadata != NULL)
    {
      g_auto(GStrv) known = mcp_auth_resource_metadata_urls (self->server_url);
      g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

      g_strv_builder_add (builder, run->challenge->resource_metadata);
      if (known != NULL)
        g_strv_builder_addv (builder, (const char **) known);
      run->urls = g_strv_builder_end (builder);
    }
  else
    run->urls = mcp_auth_resource_metadata_urls (self->server_url);

  fetch_resource_metadata (task);
}

/* Lifecycle */

static void
mcp_auth_flow_dispose (GObject *object)
{
  McpAuthFlow *self = MCP_AUTH_FLOW (object);

  if (self->open_destroy != NULL)
    self->open_destroy (self->open_data);
  self->open_destroy = NULL;
  self->open_func = NULL;
  g_clear_object (&self->loopback);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (mcp_auth_flow_parent_class)->dispose (object);
}

static void
mcp_auth_flow_finalize (GObject *object)
{
  McpAuthFlow *self = MCP_AUTH_FLOW (object);

  g_free (self->server_url);
  g_free (self->client_name);
  g_free (self->done_page);
  g_free (self->client_id);
  g_free (self->client_secret);
  g_free (self->client_metadata_url);
  g_free (self->scope);
  g_free (self->private_key_pem);
  mcp_auth_resource_metadata_free (self->resource_metadata);
  mcp_auth_server_metadata_free (self->server_metadata);
  g_free (self->resource);
  g_free (self->registered_id);
  g_free (self->registered_secret);
  g_free (self->registered_method);
  g_free (self->requested_scope);

  G_OBJECT_CLASS (mcp_auth_flow_parent_class)->finalize (object);
}

static void
mcp_auth_flow_class_init (McpAuthFlowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = mcp_auth_flow_dispose;
  object_class->finalize = mcp_auth_flow_finalize;
}

static void
mcp_auth_flow_init (McpAuthFlow *self)
{
  /* Redirects are not followed: a metadata or token request that is sent
   * elsewhere could carry the client's credentials along. */
  self->session = soup_session_new_with_options ("timeout", REQUEST_TIMEOUT_S,
                                                 "user-agent", "Steward", NULL);
  self->client_name = g_strdup ("Steward");
}

/* Public API */

/**
 * mcp_auth_flow_new:
 * @server_url: the MCP server to sign in to
 *
 * Returns: (transfer full): a flow with nothing discovered yet
 */
McpAuthFlow *
mcp_auth_flow_new (const char *server_url)
{
  McpAuthFlow *self;

  g_return_val_if_fail (server_url != NULL, NULL);

  self = g_object_new (MCP_TYPE_AUTH_FLOW, NULL);
  self->server_url = g_strdup (server_url);

  return self;
}

void
mcp_auth_flow_set_client_name (McpAuthFlow *self,
                               const char  *name)
{
  g_return_if_fail (MCP_IS_AUTH_FLOW (self));
  g_return_if_fail (name != NULL);

  g_free (self->client_name);
  self->client_name = g_strdup (name);
}

/**
 * mcp_auth_flow_set_client:
 * @client_id: (nullable): a client registered with the authorization server
 *   beforehand
 * @client_secret: (nullable): its secret, for a confidential client
 */
void
mcp_auth_flow_set_client (McpAuthFlow *self,
                          const char  *client_id,
                          const char  *client_secret)
{
  g_return_if_fail (MCP_IS_AUTH_FLOW (self));

  g_free (self->client_id);
  self->client_id = g_strdup (client_id);
  g_free (self->client_secret);
  self->client_secret = g_strdup (client_secret);
}

/**
 * mcp_auth_flow_set_client_metadata_url:
 * @url: (nullable): the https URL of the client's Client ID Metadata
 *   Document, its client id where the server supports them
 */
void
mcp_auth_flow_set_client_metadata_url (McpAuthFlow *self,
                                       const char  *url)
{
  g_return_if_fail (MCP_IS_AUTH_FLOW (self));

  g_free (self->client_metadata_url);
  self->client_metadata_url = g_strdup (url);
}

/* @scope: (nullable): space-separated scopes for a challenge naming none */
void
mcp_auth_flow_set_scope (McpAuthFlow *self,
                         const char  *scope)
{
  g_return_if_fail (MCP_IS_AUTH_FLOW (self));
  g_free (self->scope);
  self->scope = g_strdup (scope);
}

/**
 * mcp_auth_flow_set_client_key:
 * @private_key_pem: (nullable): the key for `private_key_jwt`
 */
void
mcp_auth_flow_set_client_key (McpAuthFlow *self,
                              const char  *private_key_pem)
{
  g_return_if_fail (MCP_IS_AUTH_FLOW (self));

  g_free (self->private_key_pem);
  self->private_key_pem = g_strdup (private_key_pem);
}

/**
 * mcp_auth_flow_set_client_credentials:
 *
 * Whether to use the client credentials grant (a machine signs in as
 * itself) rather than sign a person in through the browser.
 */
void
mcp_auth_flow_set_client_credentials (McpAuthFlow *self,
                                      gboolean     client_credentials)
{
  g_return_if_fail (MCP_IS_AUTH_FLOW (self));

  self->client_credentials = !!client_credentials;
}

/**
 * mcp_auth_flow_set_done_page:
 * @html: what the browser shows once the answer arrived, in the person's
 *   language
 */
void
mcp_auth_flow_set_done_page (McpAuthFlow *self,
                             const char  *html)
{
  g_return_if_fail (MCP_IS_AUTH_FLOW (self));

  g_free (self->done_page);
  self->done_page = g_strdup (html);
}

void
mcp_auth_flow_set_open_func (McpAuthFlow     *self,
                             McpAuthOpenFunc  func,
                             gpointer         user_data,
                             GDestroyNotify   destroy)
{
  g_return_if_fail (MCP_IS_AUTH_FLOW (self));

  if (self->open_destroy != NULL)
    self->open_destroy (self->open_data);
  self->open_func = func;
  self->open_data = user_data;
  self->open_destroy = destroy;
}

/**
 * mcp_auth_flow_get_server_metadata:
 *
 * Returns: (nullable): the authorization server's metadata, once
 *   discovered
 */
const McpAuthServerMetadata *
mcp_auth_flow_get_server_metadata (McpAuthFlow *self)
{
  g_return_val_if_fail (MCP_IS_AUTH_FLOW (self), NULL);

  return self->server_metadata;
}

/**
 * mcp_auth_flow_get_resource:
 *
 * Returns: (nullable): the resource tokens are asked for (RFC 8707), once
 *   discovered: the protected resource metadata's, or the server's URL
 */
const char *
mcp_auth_flow_get_resource (McpAuthFlow *self)
{
  g_return_val_if_fail (MCP_IS_AUTH_FLOW (self), NULL);

  return self->resource;
}

static GTask *
new_run_task (McpAuthFlow         *self,
              const char          *www_authenticate,
              gboolean             discover_only,
              gpointer             source_tag,
              GCancellable        *cancellable,
              GAsyncReadyCallback  callback,
              gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  Run *run = g_new0 (Run, 1);

  g_task_set_source_tag (task, source_tag);
  run->challenge = mcp_auth_challenge_parse (www_authenticate);
  run->discover_only = discover_only;
  g_task_set_task_data (task, run, (GDestroyNotify) run_free);

  return task;
}

/**
 * mcp_auth_flow_discover_async:
 * @www_authenticate: (nullable): the challenge of the server's 401
 *
 * Finds the server's authorization server, so that a person can be shown
 * where they will sign in before they do.
 */
void
mcp_auth_flow_discover_async (McpAuthFlow         *self,
                              const char          *www_authenticate,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_return_if_fail (MCP_IS_AUTH_FLOW (self));

  start_run (self, new_run_task (self, www_authenticate, TRUE, mcp_auth_flow_discover_async,
                                 cancellable, callback, user_data));
}

gboolean
mcp_auth_flow_discover_finish (McpAuthFlow   *self,
                               GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * mcp_auth_flow_authorize_async:
 * @www_authenticate: (nullable): the challenge of the server's 401, or of
 *   its 403 `insufficient_scope` for a step-up
 *
 * Signs in: discovers what is not known yet, registers where needed, opens
 * the browser through the open function and waits for the redirect, or
 * uses the client credentials grant.
 */
void
mcp_auth_flow_authorize_async (McpAuthFlow         *self,
                               const char          *www_authenticate,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_return_if_fail (MCP_IS_AUTH_FLOW (self));

  start_run (self, new_run_task (self, www_authenticate, FALSE, mcp_auth_flow_authorize_async,
                                 cancellable, callback, user_data));
}

/**
 * mcp_auth_flow_authorize_finish:
 *
 * Returns: (transfer full) (nullable): the token, with its issuer,
 *   resource and client
 */
McpAuthToken *
mcp_auth_flow_authorize_finish (McpAuthFlow   *self,
                                GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
refresh_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpAuthFlow *self = g_task_get_source_object (task);
  const McpAuthToken *old = g_task_get_task_data (task);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  McpAuthToken *token;

  node = send_json_finish (self, result, &error);
  token = node != NULL ? read_token (self, node, old->scope, &error) : NULL;
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
refresh_discovered_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpAuthFlow *self = MCP_AUTH_FLOW (object);
  const McpAuthToken *old = g_task_get_task_data (task);
  g_autoptr(GHashTable) form = new_form ();
  g_autoptr(GError) error = NULL;
  GCancellable *cancellable;
  SoupMessage *msg;

  if (!mcp_auth_flow_discover_finish (self, result, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (self->client_id == NULL && self->registered_id == NULL)
    self->registered_id = g_strdup (old->client_id);

  form_add (form, "grant_type", "refresh_token");
  form_add (form, "refresh_token", old->refresh_token);
  form_add (form, "resource", self->resource);
  msg = new_token_request (self, self->server_metadata->token_endpoint,
                           g_steal_pointer (&form), &error);
  if (msg == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* The cancellable is read before the task is handed on. */
  cancellable = g_task_get_cancellable (task);
  send_json_async (self, msg, cancellable, refresh_cb, g_steal_pointer (&task));
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

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_auth_flow_refresh_async);
  g_task_set_task_data (task, mcp_auth_token_copy (token), (GDestroyNotify) mcp_auth_token_free);

  if (token->refresh_token == NULL)
    {
      g_task_return_new_error (task, MCP_AUTH_ERROR, MCP_AUTH_ERROR_TOKEN,
                               "The sign-in cannot be renewed without the person: the server "
                               "gave no refresh token");
      return;
    }

  mcp_auth_flow_discover_async (self, NULL, cancellable, refresh_discovered_cb,
                                g_steal_pointer (&task));
}

McpAuthToken *
mcp_auth_flow_refresh_finish (McpAuthFlow   *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
revoke_sent_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GError) error = NULL;
  SoupMessage *msg = g_task_get_task_data (task);

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
revoke_discovered_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpAuthFlow *self = MCP_AUTH_FLOW (object);
  const McpAuthToken *token = g_object_get_data (G_OBJECT (task), "token");
  g_autoptr(GHashTable) form = new_form ();
  g_autoptr(GError) error = NULL;
  GCancellable *cancellable;
  SoupMessage *msg;

  if (!mcp_auth_flow_discover_finish (self, result, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* Nothing to tell a server that offers no revocation: forgetting the
   * token is all a client can do. */
  if (self->server_metadata->revocation_endpoint == NULL)
    {
      g_task_return_boolean (task, FALSE);
      return;
    }

  if (self->client_id == NULL && self->registered_id == NULL)
    self->registered_id = g_strdup (token->client_id);

  form_add (form, "token", token->refresh_token != NULL ? token->refresh_token :
                                                          token->access_token);
  form_add (form, "token_type_hint", token->refresh_token != NULL ? "refresh_token" :
                                                                    "access_token");
  msg = new_token_request (self, self->server_metadata->revocation_endpoint,
                           g_steal_pointer (&form), &error);
  if (msg == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_task_set_task_data (task, msg, g_object_unref);
  cancellable = g_task_get_cancellable (task);
  soup_session_send_and_read_async (self->session, msg, G_PRIORITY_DEFAULT, cancellable,
                                    revoke_sent_cb, g_steal_pointer (&task));
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
  GTask *task;

  g_return_if_fail (MCP_IS_AUTH_FLOW (self));
  g_return_if_fail (token != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_auth_flow_revoke_async);
  g_object_set_data_full (G_OBJECT (task), "token", mcp_auth_token_copy (token),
                          (GDestroyNotify) mcp_auth_token_free);
  mcp_auth_flow_discover_async (self, NULL, cancellable, revoke_discovered_cb, task);
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

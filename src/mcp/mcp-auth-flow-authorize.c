/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-auth"

#include "config.h"

#include <string.h>

#include "mcp-auth-pkce.h"
#include "mcp-json-private.h"

#include "mcp-auth-flow-private.h"

/* Signing in once the authorization server is known: the scopes to ask
 * for, the client's registration, the browser and its loopback redirect
 * for the authorization code grant, or the client credentials grant. */

static const char default_done_page[] =
  "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Signed in</title></head>"
  "<body><p>You are signed in. You may close this tab.</p></body></html>";

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
  McpAuthRun *run = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  McpAuthToken *token;

  token = mcp_auth_flow_token_finish (self, result, run->scope, &error);
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

  msg = mcp_auth_flow_new_token_request (self, self->server_metadata->token_endpoint, form, &error);
  if (msg == NULL)
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  mcp_auth_flow_send_json_async (self, msg, g_task_get_cancellable (task), token_cb, task);
}

static void
redirect_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  GTask *task = user_data;
  McpAuthFlow *self = g_task_get_source_object (task);
  McpAuthRun *run = g_task_get_task_data (task);
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

  form = mcp_auth_form_new ();
  mcp_auth_form_add (form, "grant_type", "authorization_code");
  mcp_auth_form_add (form, "code", code);
  mcp_auth_form_add (form, "redirect_uri", mcp_auth_loopback_get_redirect_uri (self->loopback));
  mcp_auth_form_add (form, "code_verifier", run->verifier);
  mcp_auth_form_add (form, "resource", self->resource);
  request_token (task, form);
}

static char *
authorization_url (McpAuthFlow *self,
                   McpAuthRun  *run)
{
  g_autoptr(GHashTable) query = mcp_auth_form_new ();
  g_autofree char *challenge = mcp_auth_pkce_challenge (run->verifier);
  g_autofree char *encoded = NULL;
  const char *endpoint = self->server_metadata->authorization_endpoint;

  mcp_auth_form_add (query, "response_type", "code");
  mcp_auth_form_add (query, "client_id", mcp_auth_flow_client_id (self));
  mcp_auth_form_add (query, "redirect_uri", mcp_auth_loopback_get_redirect_uri (self->loopback));
  mcp_auth_form_add (query, "code_challenge", challenge);
  mcp_auth_form_add (query, "code_challenge_method", "S256");
  mcp_auth_form_add (query, "state", run->state);
  mcp_auth_form_add (query, "resource", self->resource);
  mcp_auth_form_add (query, "scope", run->scope);
  encoded = soup_form_encode_hash (query);

  return g_strconcat (endpoint, strchr (endpoint, '?') != NULL ? "&" : "?", encoded, NULL);
}

/* Takes @task. */
static void
open_browser (GTask *task)
{
  McpAuthFlow *self = g_task_get_source_object (task);
  McpAuthRun *run = g_task_get_task_data (task);
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

  node = mcp_auth_flow_send_json_finish (self, result, &error);
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
  McpAuthRun *run = g_task_get_task_data (task);
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
  mcp_auth_flow_send_json_async (self, msg, g_task_get_cancellable (task), registration_cb, task);
}

/* Takes @task. */
void
mcp_auth_flow_after_discovery (GTask *task)
{
  McpAuthFlow *self = g_task_get_source_object (task);
  McpAuthRun *run = g_task_get_task_data (task);
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

      form = mcp_auth_form_new ();
      mcp_auth_form_add (form, "grant_type", "client_credentials");
      mcp_auth_form_add (form, "resource", self->resource);
      mcp_auth_form_add (form, "scope", run->scope);
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

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-auth"

#include "config.h"

#include "mcp-auth-flow-private.h"

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
G_DEFINE_FINAL_TYPE (McpAuthFlow, mcp_auth_flow, G_TYPE_OBJECT)

G_DEFINE_QUARK (mcp-auth-error-quark, mcp_auth_error)

#define REQUEST_TIMEOUT_S 30

/* One sign-in */

static void
run_free (McpAuthRun *run)
{
  mcp_auth_challenge_free (run->challenge);
  g_strfreev (run->urls);
  g_free (run->issuer);
  g_free (run->verifier);
  g_free (run->state);
  g_free (run->scope);
  g_free (run);
}

static void
start_run (McpAuthFlow *self,
           GTask       *task)
{
  /* Discovery is kept between runs: a step-up, a refresh or a revocation
   * goes to the server the first run found. */
  if (self->server_metadata != NULL)
    mcp_auth_flow_after_discovery (task);
  else
    mcp_auth_flow_run_discovery (task);
}

/* Lifecycle */

static void
mcp_auth_flow_dispose (GObject *object)
{
  McpAuthFlow *self = MCP_AUTH_FLOW (object);

  mcp_auth_flow_set_open_func (self, NULL, NULL, NULL);
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
  self->session = g_object_new (SOUP_TYPE_SESSION,
                                "timeout", REQUEST_TIMEOUT_S,
                                "user-agent", "Steward",
                                NULL);
  self->client_name = g_strdup ("Steward");
}

/* Public API */

static void
replace_string (char       **place,
                const char  *value)
{
  g_free (*place);
  *place = g_strdup (value);
}

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

  replace_string (&self->client_name, name);
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

  replace_string (&self->client_id, client_id);
  replace_string (&self->client_secret, client_secret);
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

  replace_string (&self->client_metadata_url, url);
}

/* @scope: (nullable): space-separated scopes for a challenge naming none */
void
mcp_auth_flow_set_scope (McpAuthFlow *self,
                         const char  *scope)
{
  g_return_if_fail (MCP_IS_AUTH_FLOW (self));

  replace_string (&self->scope, scope);
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

  replace_string (&self->private_key_pem, private_key_pem);
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

  replace_string (&self->done_page, html);
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
  McpAuthRun *run = g_new0 (McpAuthRun, 1);

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


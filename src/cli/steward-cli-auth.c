/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mcp-auth-challenge.h"
#include "mcp-auth-flow.h"
#include "mcp-error.h"
#include "steward-client-metadata.h"
#include "steward-redactor.h"

#include "steward-cli-output.h"

#include "steward-cli-auth.h"

/**
 * StewardCliAuth:
 *
 * Signing steward-cli in to a remote server that answers `401` with a
 * Bearer challenge, or `403 insufficient_scope`: the person through the
 * browser (or an address printed for them), or the client itself with the
 * client credentials grant. For a server of the servers file the token
 * is kept in the keyring (StewardAuthStore) and used, or refreshed, by the
 * next run; for a bare --url it lives as long as the run. The redactor
 * learns every token, so that no output shows it.
 */
struct _StewardCliAuth
{
  GObject             parent_instance;

  McpAuthFlow        *flow;
  StewardAuthStore   *store;
  StewardCliAuthorize mode;
  guint               n_authorizations;
  /* The stored token was offered once; a 401 after it asks for a new one. */
  gboolean            tried_stored;
};

G_DEFINE_FINAL_TYPE (StewardCliAuth, steward_cli_auth, G_TYPE_OBJECT)

/* Sign-ins in one run: the first, then step-ups. A server that keeps
 * asking for more after that will not be satisfied by asking again. */
#define MAX_AUTHORIZATIONS 3

static const char done_page_format[] =
  "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>%s</title></head>"
  "<body style=\"font-family: sans-serif; margin: 4em auto; max-width: 32em\">"
  "<h1>%s</h1><p>%s</p></body></html>";

static void
print_url (const char *url)
{
  g_autofree char *text = NULL;

  /* Translators: steward-cli prints this, then the address on a line of
   * its own, when the person must sign in in a browser. */
  text = g_strdup_printf ("%s\n  %s\n", _("To sign in, open this address in a browser:"), url);
  steward_cli_print_err (text);
}

static void
open_cb (const char *url,
         gpointer    user_data)
{
  StewardCliAuth *self = user_data;
  g_autoptr(GError) error = NULL;

  if (self->mode == STEWARD_CLI_AUTHORIZE_PRINT)
    {
      print_url (url);
      return;
    }

  /* The desktop's handler for https: a browser, or, inside Flatpak, the
   * OpenURI portal, which asks the host to open it. */
  if (!g_app_info_launch_default_for_uri (url, NULL, &error))
    {
      steward_cli_complain (_("cannot open a browser (%s)"), error->message);
      print_url (url);
    }
}

/**
 * steward_cli_read_option_file:
 * @option: the option that named @path, for the error
 *
 * Returns: (transfer full) (nullable): the contents of a file an option
 *   names, such as a client secret
 */
char *
steward_cli_read_option_file (const char  *path,
                              const char  *option,
                              GError     **error)
{
  g_autofree char *contents = NULL;
  g_autoptr(GError) local_error = NULL;

  if (!g_file_get_contents (path, &contents, NULL, &local_error))
    {
      g_set_error (error, STEWARD_CLI_ERROR, STEWARD_CLI_ERROR_INVALID_VALUE,
                   /* Translators: the first placeholder is an option such as
                    * --client-secret-file. */
                   _("%s: cannot read %s: %s"), option, path, local_error->message);
      return NULL;
    }

  return g_steal_pointer (&contents);
}

static void
steward_cli_auth_dispose (GObject *object)
{
  StewardCliAuth *self = STEWARD_CLI_AUTH (object);

  g_clear_object (&self->flow);
  g_clear_object (&self->store);

  G_OBJECT_CLASS (steward_cli_auth_parent_class)->dispose (object);
}

static void
steward_cli_auth_class_init (StewardCliAuthClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = steward_cli_auth_dispose;
}

static void
steward_cli_auth_init (StewardCliAuth *self)
{
}

/* The flags, else the servers file's "oauth" block, else Steward's
 * own Client ID Metadata Document: a client id given on the command line
 * comes with its own secret or none. */
static gboolean
set_client (StewardCliAuth       *self,
            StewardCliOptions    *options,
            StewardServerConfig  *server,
            const char           *server_secret,
            GError              **error)
{
  StewardServerOAuth *oauth = server != NULL ? steward_server_config_get_oauth (server) : NULL;
  const char * const *scopes = oauth != NULL ? steward_server_oauth_get_scopes (oauth) : NULL;
  g_autofree char *secret = NULL;
  g_autofree char *key = NULL;
  g_autofree char *metadata_url = NULL;
  const char *client_id = options->client_id;

  if (options->client_secret_file != NULL)
    {
      secret = steward_cli_read_option_file (options->client_secret_file, "--client-secret-file",
                                             error);
      if (secret == NULL)
        return FALSE;
      g_strstrip (secret);
    }
  else if (client_id == NULL && oauth != NULL && steward_server_oauth_get_client_id (oauth))
    {
      client_id = steward_server_oauth_get_client_id (oauth);
      secret = g_strdup (server_secret);
    }

  if (secret != NULL)
    steward_redact_add_secret (secret);

  if (options->client_key_file != NULL)
    {
      key = steward_cli_read_option_file (options->client_key_file, "--client-key-file", error);
      if (key == NULL)
        return FALSE;
      mcp_auth_flow_set_client_key (self->flow, key);
      memset (key, 0, strlen (key));
    }

  mcp_auth_flow_set_client (self->flow, client_id, secret);
  if (secret != NULL)
    memset (secret, 0, strlen (secret));

  /* The flow offers it only to servers that accept such documents, and
   * only without a client id. */
  if (options->client_metadata_url != NULL)
    metadata_url = g_strdup (options->client_metadata_url);
  else if (server != NULL)
    metadata_url = steward_server_config_dup_client_metadata_url (server);
  else
    metadata_url = steward_client_metadata_dup_url ();
  mcp_auth_flow_set_client_metadata_url (self->flow, metadata_url);

  if (scopes != NULL)
    {
      g_autofree char *scope = g_strjoinv (" ", (char **) scopes);

      mcp_auth_flow_set_scope (self->flow, scope);
    }

  return TRUE;
}

/**
 * steward_cli_auth_new:
 * @url: the remote server
 * @server: (nullable): its entry in the servers file, for its "oauth"
 * @server_secret: (nullable): the entry's client secret, from the keyring
 *
 * Returns: (transfer full) (nullable): how to sign in to @url as @options
 *   and the entry say, or %NULL when a file they name cannot be read
 */
StewardCliAuth *
steward_cli_auth_new (StewardCliOptions    *options,
                      const char           *url,
                      StewardServerConfig  *server,
                      const char           *server_secret,
                      GError              **error)
{
  g_autoptr(StewardCliAuth) self = g_object_new (STEWARD_TYPE_CLI_AUTH, NULL);
  g_autofree char *page = NULL;

  self->mode = options->authorize;
  self->flow = mcp_auth_flow_new (url);
  mcp_auth_flow_set_client_name (self->flow, "Steward CLI");
  mcp_auth_flow_set_open_func (self->flow, open_cb, self, NULL);

  if (!set_client (self, options, server, server_secret, error))
    return NULL;

  mcp_auth_flow_set_client_credentials (self->flow, options->client_credentials);

  page = g_strdup_printf (done_page_format, _("Signed in"), _("Signed in"),
                          _("steward-cli has what it needs. You may close this tab."));
  mcp_auth_flow_set_done_page (self->flow, page);

  return g_steal_pointer (&self);
}

/**
 * steward_cli_auth_get_challenge:
 * @error: why a connection or a request failed
 *
 * Returns: (transfer full) (nullable): the challenge to sign in with, when
 *   @error is a `401` with a Bearer challenge or a `403` asking for more
 *   scopes, and sign-ins are left
 */
char *
steward_cli_auth_get_challenge (StewardCliAuth *self,
                                const GError   *error)
{
  g_return_val_if_fail (STEWARD_IS_CLI_AUTH (self), NULL);

  if (self->n_authorizations >= MAX_AUTHORIZATIONS)
    return NULL;

  return mcp_auth_challenge_from_error (error);
}

static void
finish_with (GTask              *task,
             const McpAuthToken *token)
{
  steward_redact_add_secret (token->access_token);
  if (token->refresh_token != NULL)
    steward_redact_add_secret (token->refresh_token);

  g_task_return_pointer (task, g_strconcat ("Bearer ", token->access_token, NULL), g_free);
}

static void
saved_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  /* The sign-in still works for this run; the next one asks again. */
  if (!steward_auth_store_save_finish (STEWARD_AUTH_STORE (object), result, &error))
    steward_cli_complain (_("the sign-in could not be kept in the keyring: %s"),
                          error->message);
}

/* Keeps @token for the next run, where there is a keyring to keep it in. */
static void
remember (StewardCliAuth     *self,
          const McpAuthToken *token)
{
  if (self->store != NULL)
    steward_auth_store_save_async (self->store, token, NULL, saved_cb, NULL);
}

static void
authorize_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StewardCliAuth *self = g_task_get_source_object (task);
  g_autoptr(McpAuthToken) token = NULL;
  GError *error = NULL;

  token = mcp_auth_flow_authorize_finish (MCP_AUTH_FLOW (object), result, &error);
  if (token == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  remember (self, token);
  finish_with (task, token);
}

/* Takes @task. */
static void
sign_in (StewardCliAuth *self,
         GTask          *task)
{
  const char *challenge = g_task_get_task_data (task);

  self->n_authorizations++;
  mcp_auth_flow_authorize_async (self->flow, challenge, g_task_get_cancellable (task),
                                 authorize_cb, task);
}

static void
refreshed_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  GTask *task = user_data;
  StewardCliAuth *self = g_task_get_source_object (task);
  g_autoptr(McpAuthToken) token = NULL;

  token = mcp_auth_flow_refresh_finish (MCP_AUTH_FLOW (object), result, NULL);
  if (token == NULL)
    {
      /* A refresh token that no longer works: the person signs in. */
      sign_in (self, task);
      return;
    }

  remember (self, token);
  finish_with (task, token);
  g_object_unref (task);
}

static void
loaded_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  GTask *task = user_data;
  StewardCliAuth *self = g_task_get_source_object (task);
  g_autoptr(McpAuthToken) token = NULL;
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;

  token = steward_auth_store_load_finish (STEWARD_AUTH_STORE (object), result, NULL);
  if (token != NULL && !mcp_auth_token_expires_within (token, now, 60))
    {
      finish_with (task, token);
      g_object_unref (task);
      return;
    }

  /* Expired, or about to: renewed without the person where it can be. */
  if (token != NULL && token->refresh_token != NULL)
    {
      mcp_auth_flow_refresh_async (self->flow, token, g_task_get_cancellable (task),
                                   refreshed_cb, task);
      return;
    }

  sign_in (self, task);
}

static void
discovered_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  GTask *task = user_data;
  StewardCliAuth *self = g_task_get_source_object (task);
  GError *error = NULL;

  if (!mcp_auth_flow_discover_finish (self->flow, result, &error))
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  steward_auth_store_load_for_flow_async (self->store, self->flow,
                                          g_task_get_cancellable (task), loaded_cb, task);
}

/**
 * steward_cli_auth_set_store:
 * @store: (nullable): where to keep tokens between runs
 */
void
steward_cli_auth_set_store (StewardCliAuth   *self,
                            StewardAuthStore *store)
{
  g_return_if_fail (STEWARD_IS_CLI_AUTH (self));

  g_set_object (&self->store, store);
}

/**
 * steward_cli_auth_authorize_async:
 * @challenge: what steward_cli_auth_get_challenge() gave
 *
 * Signs in, for the value of an `Authorization` header: with the token
 * the keyring holds for this server the first time, renewed if it ran
 * out, else through the person or the client credentials.
 */
void
steward_cli_auth_authorize_async (StewardCliAuth      *self,
                                  const char          *challenge,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (STEWARD_IS_CLI_AUTH (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_cli_auth_authorize_async);
  g_task_set_task_data (task, g_strdup (challenge), g_free);

  if (self->store != NULL && !self->tried_stored)
    {
      self->tried_stored = TRUE;
      mcp_auth_flow_discover_async (self->flow, challenge, cancellable, discovered_cb, task);
      return;
    }

  sign_in (self, task);
}

/**
 * steward_cli_auth_authorize_finish:
 *
 * Returns: (transfer full) (nullable): the `Authorization` header's value
 */
char *
steward_cli_auth_authorize_finish (StewardCliAuth  *self,
                                   GAsyncResult    *result,
                                   GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Looking at and ending a kept sign-in. Both first find the server's
 * authorization server, as the keyring item belongs to it and the
 * server together. */

static void
stored_token_loaded_cb (GObject      *object,
                        GAsyncResult *result,
                        gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpAuthToken *token;
  GError *error = NULL;

  token = steward_auth_store_load_finish (STEWARD_AUTH_STORE (object), result, &error);
  if (token == NULL && g_error_matches (error, STEWARD_SECRETS_ERROR,
                                        STEWARD_SECRETS_ERROR_NOT_FOUND))
    {
      g_clear_error (&error);
      g_task_return_pointer (task, NULL, NULL);
      return;
    }
  if (token == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  g_task_return_pointer (task, token, (GDestroyNotify) mcp_auth_token_free);
}

static void
stored_discovered_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StewardCliAuth *self = g_task_get_source_object (task);
  GCancellable *cancellable;
  GError *error = NULL;

  if (!mcp_auth_flow_discover_finish (self->flow, result, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  cancellable = g_task_get_cancellable (task);
  steward_auth_store_load_for_flow_async (self->store, self->flow, cancellable,
                                          stored_token_loaded_cb, g_steal_pointer (&task));
}

/**
 * steward_cli_auth_lookup_async:
 *
 * Finds the sign-in the keyring keeps for the server, asking the server
 * which authorization server it uses now. Needs a store.
 */
void
steward_cli_auth_lookup_async (StewardCliAuth      *self,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (STEWARD_IS_CLI_AUTH (self));
  g_return_if_fail (self->store != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_cli_auth_lookup_async);
  mcp_auth_flow_discover_async (self->flow, NULL, cancellable, stored_discovered_cb, task);
}

/**
 * steward_cli_auth_lookup_finish:
 *
 * Returns: (transfer full) (nullable): the kept tokens, or %NULL without
 *   an error when there are none
 */
McpAuthToken *
steward_cli_auth_lookup_finish (StewardCliAuth  *self,
                                GAsyncResult    *result,
                                GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
forgotten_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (!steward_auth_store_forget_finish (STEWARD_AUTH_STORE (object), result, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  g_task_return_int (task, GPOINTER_TO_INT (g_task_get_task_data (task)));
}

static void
forget (GTask                *task,
        StewardCliSignOut     outcome)
{
  StewardCliAuth *self = g_task_get_source_object (task);
  const McpAuthServerMetadata *metadata = mcp_auth_flow_get_server_metadata (self->flow);

  g_task_set_task_data (task, GINT_TO_POINTER (outcome), NULL);
  steward_auth_store_forget_async (self->store, metadata->issuer,
                                   mcp_auth_flow_get_resource (self->flow),
                                   g_task_get_cancellable (task), forgotten_cb, task);
}

static void
revoked_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  GTask *task = user_data;
  g_autoptr(GError) error = NULL;
  gboolean revoked;

  revoked = mcp_auth_flow_revoke_finish (MCP_AUTH_FLOW (object), result, &error);

  /* The sign-in ends here whatever the server says: a token it would not
   * revoke still lapses when it expires, and this computer keeps none. */
  if (error != NULL)
    steward_cli_complain (_("the server did not revoke the sign-in (%s); it is removed from "
                            "the keyring all the same"),
                          error->message);

  forget (task, revoked ? STEWARD_CLI_SIGN_OUT_REVOKED : STEWARD_CLI_SIGN_OUT_FORGOTTEN);
}

static void
sign_out_looked_up_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  GTask *task = user_data;
  StewardCliAuth *self = STEWARD_CLI_AUTH (object);
  g_autoptr(McpAuthToken) token = NULL;
  GError *error = NULL;

  token = steward_cli_auth_lookup_finish (self, result, &error);
  if (error != NULL)
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  if (token == NULL)
    {
      g_task_return_int (task, STEWARD_CLI_SIGN_OUT_NOT_SIGNED_IN);
      g_object_unref (task);
      return;
    }

  /* The refresh token is the one to revoke where there is one: it is
   * what would mint new access tokens. */
  mcp_auth_flow_revoke_async (self->flow, token, g_task_get_cancellable (task), revoked_cb,
                              task);
}

/**
 * steward_cli_auth_sign_out_async:
 *
 * Ends the sign-in the keyring keeps for the server: revokes it at the
 * authorization server (RFC 7009) where that offers revocation, then
 * removes it from the keyring. Needs a store.
 */
void
steward_cli_auth_sign_out_async (StewardCliAuth      *self,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (STEWARD_IS_CLI_AUTH (self));
  g_return_if_fail (self->store != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_cli_auth_sign_out_async);
  steward_cli_auth_lookup_async (self, cancellable, sign_out_looked_up_cb, task);
}

/**
 * steward_cli_auth_sign_out_finish:
 *
 * Returns: what became of the sign-in, or -1 with an error when the
 *   server or the keyring could not be reached
 */
StewardCliSignOut
steward_cli_auth_sign_out_finish (StewardCliAuth  *self,
                                  GAsyncResult    *result,
                                  GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), -1);

  return g_task_propagate_int (G_TASK (result), error);
}

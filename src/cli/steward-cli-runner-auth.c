/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-cli"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-cli-output.h"
#include "steward-cli-runner-private.h"

/* `auth status` and `auth sign-out`: what the keyring keeps for a remote
 * server, and ending it. Neither connects to the server as an MCP client;
 * both ask it only where its authorization server is, since the keyring
 * keeps a sign-in per authorization server and server. */

static int
exit_for (const GError *error)
{
  /* The server or its authorization server could not be asked; anything
   * else is the keyring's. */
  return error->domain == MCP_AUTH_ERROR ? STEWARD_CLI_EXIT_CONNECTION : STEWARD_CLI_EXIT_USAGE;
}

static char *
format_time (gint64 when)
{
  g_autoptr(GDateTime) time = g_date_time_new_from_unix_local (when);

  return time != NULL ? g_date_time_format (time, "%Y-%m-%d %H:%M") : g_strdup ("?");
}

static void
print_status (StewardCliRunner   *self,
              const McpAuthToken *token)
{
  g_autofree char *text = NULL;
  g_autofree char *when = NULL;
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;

  if (token == NULL)
    {
      /* Translators: the placeholder is the server's address. */
      text = g_strdup_printf (_("Not signed in to %s.\n"), self->url);
      steward_cli_print_out (text);
      return;
    }

  /* Translators: the placeholders are the server's address, the
   * authorization server's and the client id Steward signed in as. */
  text = g_strdup_printf (_("Signed in to %s through %s, as client %s.\n"),
                          token->resource, token->issuer, token->client_id);
  steward_cli_print_out (text);
  g_clear_pointer (&text, g_free);

  if (token->expires_at == 0)
    return;

  when = format_time (token->expires_at);
  if (token->expires_at > now)
    text = g_strdup_printf (_("The access token expires at %s.\n"), when);
  else if (token->refresh_token != NULL)
    text = g_strdup_printf (_("The access token expired at %s; the next connection renews "
                              "it.\n"), when);
  else
    text = g_strdup_printf (_("The access token expired at %s; the next connection signs in "
                              "again.\n"), when);
  steward_cli_print_out (text);
}

static void
looked_up_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(StewardCliRunner) self = user_data;
  g_autoptr(McpAuthToken) token = NULL;
  g_autoptr(GError) error = NULL;

  token = steward_cli_auth_lookup_finish (STEWARD_CLI_AUTH (object), result, &error);
  if (error != NULL)
    {
      steward_cli_complain (_("cannot tell whether you are signed in: %s"), error->message);
      self->exit_code = exit_for (error);
    }
  else
    print_status (self, token);

  g_main_loop_quit (self->loop);
}

static void
signed_out_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(StewardCliRunner) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  StewardCliSignOut outcome;

  outcome = steward_cli_auth_sign_out_finish (STEWARD_CLI_AUTH (object), result, &error);
  if (error != NULL)
    {
      steward_cli_complain (_("cannot sign out: %s"), error->message);
      self->exit_code = exit_for (error);
      g_main_loop_quit (self->loop);
      return;
    }

  switch (outcome)
    {
    case STEWARD_CLI_SIGN_OUT_NOT_SIGNED_IN:
      /* Translators: the placeholder is the server's address. */
      text = g_strdup_printf (_("Not signed in to %s; nothing to sign out of.\n"), self->url);
      break;
    case STEWARD_CLI_SIGN_OUT_FORGOTTEN:
      text = g_strdup_printf (_("Signed out of %s: the keyring no longer holds the sign-in. "
                                "The server did not revoke it; it lapses when it expires.\n"),
                              self->url);
      break;
    case STEWARD_CLI_SIGN_OUT_REVOKED:
    default:
      text = g_strdup_printf (_("Signed out of %s: the server revoked the sign-in, and the "
                                "keyring no longer holds it.\n"),
                              self->url);
      break;
    }

  steward_cli_print_out (text);
  g_main_loop_quit (self->loop);
}

/**
 * steward_cli_runner_run_auth:
 * @server: (nullable): the servers file's entry, for its "oauth" client
 *
 * Runs `auth status` or `auth sign-out` for the remote server resolved
 * into @self.
 *
 * Returns: the exit status
 */
int
steward_cli_runner_run_auth (StewardCliRunner    *self,
                             StewardServerConfig *server)
{
  StewardCliOptions *options = self->options;
  g_autoptr(StewardSecrets) secrets = NULL;
  g_autoptr(StewardAuthStore) store = NULL;
  g_autoptr(GError) error = NULL;
  const char *secret;

  if (self->url == NULL)
    {
      steward_cli_complain (_("`auth` goes with a remote server: --url, or --server with a "
                              "\"url\" entry"));
      return STEWARD_CLI_EXIT_USAGE;
    }

  /* Revocation authenticates as the client that was signed in, so the
   * same client settings as for signing in. */
  secret = self->server_oauth != NULL ? g_hash_table_lookup (self->server_oauth, "clientSecret")
                                      : NULL;
  self->auth = steward_cli_auth_new (options, self->url, server, secret, &error);
  if (self->auth == NULL)
    {
      steward_cli_complain ("%s", error->message);
      return STEWARD_CLI_EXIT_USAGE;
    }

  secrets = steward_secrets_new ();
  store = steward_auth_store_new (secrets);
  steward_cli_auth_set_store (self->auth, store);

  if (options->command == STEWARD_CLI_COMMAND_AUTH_STATUS)
    steward_cli_auth_lookup_async (self->auth, self->cancellable, looked_up_cb,
                                   g_object_ref (self));
  else
    steward_cli_auth_sign_out_async (self->auth, self->cancellable, signed_out_cb,
                                     g_object_ref (self));

  g_main_loop_run (self->loop);
  return self->exit_code;
}

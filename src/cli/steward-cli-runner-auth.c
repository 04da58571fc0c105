/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mcp-auth-flow.h"
#include "steward-config.h"

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

/* What the keyring holds for @url, in lines each starting with @indent. */
static char *
describe_status (const char         *url,
                 const McpAuthToken *token,
                 const char         *indent)
{
  g_autoptr(GString) text = g_string_new (indent);
  g_autofree char *when = NULL;
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;

  if (token == NULL)
    {
      /* Translators: the placeholder is the server's address. */
      g_string_append_printf (text, _("Not signed in to %s.\n"), url);
      return g_string_free (g_steal_pointer (&text), FALSE);
    }

  /* Translators: the placeholders are the server's address, the
   * authorization server's and the client id Steward signed in as. */
  g_string_append_printf (text, _("Signed in to %s through %s, as client %s.\n"),
                          token->resource, token->issuer, token->client_id);

  if (token->expires_at == 0)
    return g_string_free (g_steal_pointer (&text), FALSE);

  when = format_time (token->expires_at);
  g_string_append (text, indent);
  if (token->expires_at > now)
    g_string_append_printf (text, _("The access token expires at %s.\n"), when);
  else if (token->refresh_token != NULL)
    g_string_append_printf (text, _("The access token expired at %s; the next connection "
                                    "renews it.\n"), when);
  else
    g_string_append_printf (text, _("The access token expired at %s; the next connection "
                                    "signs in again.\n"), when);

  return g_string_free (g_steal_pointer (&text), FALSE);
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
    {
      g_autofree char *text = describe_status (self->url, token, "");

      steward_cli_print_out (text);
    }

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

/* `auth status` without a server: every remote server of the servers
 * file, asked at once, printed in the file's order once all answered. */

typedef struct {
  StewardCliRunner  *runner;
  GPtrArray         *servers;   /* StewardServerConfig */
  GPtrArray         *lines;     /* what to print for each, in order */
  guint              pending;
} StatusAll;

typedef struct {
  StatusAll *all;
  guint      index;
} StatusOne;

static void
status_all_looked_up_cb (GObject      *object,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  StatusOne *one = user_data;
  StatusAll *all = one->all;
  StewardServerConfig *server = g_ptr_array_index (all->servers, one->index);
  g_autoptr(McpAuthToken) token = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *status = NULL;

  token = steward_cli_auth_lookup_finish (STEWARD_CLI_AUTH (object), result, &error);
  if (error != NULL)
    {
      status = g_strdup_printf ("  %s\n", error->message);
      all->runner->exit_code = exit_for (error);
    }
  else
    status = describe_status (steward_server_config_get_url (server), token, "  ");

  g_ptr_array_index (all->lines, one->index) =
    g_strdup_printf ("%s:\n%s", steward_server_config_get_name (server), status);
  g_free (one);

  if (--all->pending == 0)
    g_main_loop_quit (all->runner->loop);
}

/**
 * steward_cli_runner_run_auth_all:
 *
 * Runs `auth status` for each remote server of the servers file.
 *
 * Returns: the exit status
 */
int
steward_cli_runner_run_auth_all (StewardCliRunner *self)
{
  StewardCliOptions *options = self->options;
  g_autoptr(StewardConfig) config = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(StewardSecrets) secrets = steward_secrets_new ();
  g_autoptr(StewardAuthStore) store = steward_auth_store_new (secrets);
  g_autoptr(GPtrArray) servers = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) auths = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GError) error = NULL;
  GListModel *model;
  StatusAll all = { self, servers, lines, 0 };

  if (options->config_path != NULL)
    file = g_file_new_for_commandline_arg (options->config_path);
  config = steward_config_new (file);
  if (!steward_config_load (config, NULL, &error))
    {
      steward_cli_complain ("%s", error->message);
      return STEWARD_CLI_EXIT_USAGE;
    }

  model = steward_config_get_servers (config);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(StewardServerConfig) server = g_list_model_get_item (model, i);

      if (steward_server_config_is_remote (server))
        g_ptr_array_add (servers, g_steal_pointer (&server));
    }

  if (servers->len == 0)
    {
      steward_cli_print_out (_("No server of the servers file is reached at a URL, so none is "
                               "signed in to.\n"));
      return STEWARD_CLI_EXIT_OK;
    }

  /* Every sign-in set up before any is asked for, so that a failure
   * leaves nothing running. Only the client's id matters for looking; no
   * secret is read. */
  for (guint i = 0; i < servers->len; i++)
    {
      StewardServerConfig *server = g_ptr_array_index (servers, i);
      StewardCliAuth *auth;

      auth = steward_cli_auth_new (options, steward_server_config_get_url (server), server,
                                   NULL, &error);
      if (auth == NULL)
        {
          steward_cli_complain ("%s", error->message);
          return STEWARD_CLI_EXIT_USAGE;
        }

      steward_cli_auth_set_store (auth, store);
      g_ptr_array_add (auths, auth);
    }

  g_ptr_array_set_size (lines, servers->len);
  for (guint i = 0; i < servers->len; i++)
    {
      StatusOne *one = g_new0 (StatusOne, 1);

      one->all = &all;
      one->index = i;
      all.pending++;
      steward_cli_auth_lookup_async (g_ptr_array_index (auths, i), self->cancellable,
                                     status_all_looked_up_cb, one);
    }

  g_main_loop_run (self->loop);

  for (guint i = 0; i < lines->len; i++)
    steward_cli_print_out (g_ptr_array_index (lines, i));

  return self->exit_code;
}

/* `auth set-client`: the client a remote entry signs in as, written into
 * its "oauth" block, the secret into the keyring. */

static void
keyring_done_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* The keyring answers over D-Bus, and the file is written only once it
 * has; steward-cli has nothing else to do meanwhile. */
static GAsyncResult *
wait_for (GAsyncResult **result)
{
  while (*result == NULL)
    g_main_context_iteration (NULL, TRUE);

  return *result;
}

static char *
store_client_secret (StewardSecrets  *secrets,
                     const char      *server,
                     const char      *old_id,
                     const char      *secret,
                     GError         **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autofree char *label = NULL;
  g_autofree char *id = NULL;

  /* Translators: the keyring's name for a client secret; the placeholder
   * is the server's name. */
  label = g_strdup_printf (_("Steward: %s client secret"), server);
  steward_secrets_store_async (secrets, old_id, STEWARD_SECRET_KIND_CLIENT_SECRET, label, secret,
                               NULL, keyring_done_cb, &result);
  id = steward_secrets_store_finish (secrets, wait_for (&result), error);

  return id != NULL ? steward_secret_reference_new (id) : NULL;
}

static gboolean
save_server (StewardConfig        *config,
             StewardServerConfig  *server,
             GError              **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  steward_config_put_server (config, server);
  steward_config_save_async (config, NULL, keyring_done_cb, &result);
  return steward_config_save_finish (config, wait_for (&result), error);
}

/**
 * steward_cli_runner_set_client:
 *
 * Runs `auth set-client`: keeps the client of --client-id (with the
 * secret of --client-secret-file, or as a public client) or the document
 * of --client-metadata-url in the entry's "oauth" block, its scopes and
 * other members as they were.
 *
 * Returns: the exit status
 */
int
steward_cli_runner_set_client (StewardCliRunner *self)
{
  StewardCliOptions *options = self->options;
  g_autoptr(StewardConfig) config = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(StewardSecrets) secrets = NULL;
  g_autoptr(StewardServerOAuth) oauth = NULL;
  g_autoptr(StewardServerConfig) changed = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *secret = NULL;
  g_autofree char *reference = NULL;
  g_autofree char *old_id = NULL;
  g_autofree char *text = NULL;
  StewardServerConfig *server;
  StewardServerOAuth *old;
  const char *client_id;
  const char *name = options->server_name;

  if (options->config_path != NULL)
    file = g_file_new_for_commandline_arg (options->config_path);
  config = steward_config_new (file);
  if (!steward_config_load (config, NULL, &error) ||
      (server = steward_config_lookup (config, name, &error)) == NULL)
    {
      steward_cli_complain ("%s", error->message);
      return STEWARD_CLI_EXIT_USAGE;
    }

  if (!steward_server_config_is_remote (server))
    {
      steward_cli_complain (_("`auth` goes with a remote server: --url, or --server with a "
                              "\"url\" entry"));
      return STEWARD_CLI_EXIT_USAGE;
    }

  old = steward_server_config_get_oauth (server);
  if (old != NULL)
    old_id = steward_secret_reference_get_id (steward_server_oauth_get_client_secret (old));

  if (options->client_secret_file != NULL)
    {
      secret = steward_cli_read_option_file (options->client_secret_file,
                                             "--client-secret-file", &error);
      if (secret == NULL)
        {
          steward_cli_complain ("%s", error->message);
          return STEWARD_CLI_EXIT_USAGE;
        }
      g_strstrip (secret);
    }

  secrets = steward_secrets_new ();
  if (secret != NULL)
    {
      reference = store_client_secret (secrets, name, old_id, secret, &error);
      memset (secret, 0, strlen (secret));
      if (reference == NULL)
        {
          steward_cli_complain ("%s", error->message);
          return STEWARD_CLI_EXIT_USAGE;
        }
    }
  else if (options->client_id == NULL && old != NULL)
    reference = g_strdup (steward_server_oauth_get_client_secret (old));

  client_id = options->client_id;
  if (client_id == NULL && old != NULL)
    client_id = steward_server_oauth_get_client_id (old);

  oauth = steward_server_oauth_new (client_id, reference,
                                    old != NULL ? steward_server_oauth_get_scopes (old) : NULL,
                                    options->client_metadata_url != NULL
                                    ? options->client_metadata_url
                                    : old != NULL
                                    ? steward_server_oauth_get_client_metadata_url (old)
                                    : NULL);
  changed = steward_server_config_with_oauth (server, oauth);
  if (!save_server (config, changed, &error))
    {
      steward_cli_complain ("%s", error->message);
      return STEWARD_CLI_EXIT_USAGE;
    }

  /* A public client now, or another one: the old secret serves nobody. */
  if (old_id != NULL && reference == NULL)
    {
      g_autoptr(GAsyncResult) result = NULL;

      steward_secrets_clear_async (secrets, old_id, NULL, keyring_done_cb, &result);
      if (!steward_secrets_clear_finish (secrets, wait_for (&result), &error))
        steward_cli_complain ("%s", error->message);
    }

  if (client_id != NULL)
    /* Translators: the placeholders are a server's name and a client id. */
    text = g_strdup_printf (_("Server `%s` signs in as client %s.\n"), name, client_id);
  else
    /* Translators: the placeholders are a server's name and an address. */
    text = g_strdup_printf (_("Server `%s` offers %s as Steward's client id.\n"), name,
                            options->client_metadata_url);
  steward_cli_print_out (text);

  return STEWARD_CLI_EXIT_OK;
}

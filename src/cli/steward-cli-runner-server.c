/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-cli"

#include "config.h"

#include <gio/gunixinputstream.h>
#include <glib/gi18n.h>
#include <string.h>

#include "steward-config.h"
#include "steward-sandbox-launch.h"

#include "steward-cli-format.h"
#include "steward-cli-output.h"
#include "steward-cli-runner-private.h"

/* Finding the server the command is for and preparing what it needs:
 * its secrets, its transport, its delegate. */

StewardServerConfig *
steward_cli_runner_resolve_server (StewardCliRunner  *self,
                                   GError           **error)
{
  StewardCliOptions *options = self->options;
  g_autoptr(StewardConfig) config = NULL;
  g_autoptr(GFile) file = NULL;
  StewardServerConfig *server;

  if (options->server_argv != NULL)
    {
      g_autoptr(JsonObject) json = json_object_new ();
      JsonArray *args = json_array_new ();

      for (guint i = 1; options->server_argv[i] != NULL; i++)
        json_array_add_string_element (args, options->server_argv[i]);
      json_object_set_string_member (json, "command", options->server_argv[0]);
      json_object_set_array_member (json, "args", args);

      return steward_server_config_new_from_json ("--stdio", json, error);
    }

  if (options->config_path != NULL)
    file = g_file_new_for_commandline_arg (options->config_path);

  config = steward_config_new (file);
  if (!steward_config_load (config, NULL, error))
    return NULL;

  server = steward_config_lookup (config, options->server_name, error);
  return server ? g_object_ref (server) : NULL;
}

static gboolean
has_references (GHashTable *table)
{
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, table);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (strstr (value, "${keyring:") != NULL)
      return TRUE;

  return FALSE;
}

static void
resolved_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

/* Replaces "${keyring:ID}" in @table's values with the secrets. The
 * keyring answers over D-Bus; steward-cli has nothing else to do until it
 * has, so it waits here, before its main loop runs. */
static GHashTable *
resolve_references (StewardCliRunner  *self,
                    StewardSecrets    *secrets,
                    const char        *name,
                    const char        *what,
                    GHashTable        *table,
                    GError           **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) local_error = NULL;
  GHashTable *resolved;

  if (!has_references (table))
    return g_hash_table_ref (table);

  steward_secrets_resolve_async (secrets, table, self->cancellable, resolved_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);

  resolved = steward_secrets_resolve_finish (secrets, result, &local_error);
  if (resolved == NULL)
    /* Translators: the second placeholder is "environment" or "headers";
     * the third says which secret is missing, or why the keyring cannot
     * be reached. */
    g_set_error (error, STEWARD_CLI_ERROR, STEWARD_CLI_ERROR_USAGE,
                 _("server `%s`, %s: %s"), name, what, local_error->message);

  return resolved;
}

gboolean
steward_cli_runner_resolve_secrets (StewardCliRunner     *self,
                                    StewardServerConfig  *server,
                                    GError              **error)
{
  const char *name = steward_server_config_get_name (server);
  g_autoptr(StewardSecrets) secrets = steward_secrets_new ();
  g_autoptr(GHashTable) oauth_table = NULL;
  StewardServerOAuth *oauth;

  /* Translators: fills the second placeholder of "server `%s`, %s: %s". */
  self->server_env = resolve_references (self, secrets, name, _("environment"),
                                         steward_server_config_get_env (server), error);
  if (self->server_env == NULL)
    return FALSE;

  /* Translators: fills the second placeholder of "server `%s`, %s: %s". */
  self->server_headers = resolve_references (self, secrets, name, _("headers"),
                                             steward_server_config_get_headers (server), error);
  if (self->server_headers == NULL)
    return FALSE;

  oauth = steward_server_config_get_oauth (server);
  if (oauth == NULL || steward_server_oauth_get_client_secret (oauth) == NULL)
    return TRUE;

  oauth_table = g_hash_table_new (g_str_hash, g_str_equal);
  g_hash_table_insert (oauth_table, (char *) "clientSecret",
                       (char *) steward_server_oauth_get_client_secret (oauth));
  /* Translators: fills the second placeholder of "server `%s`, %s: %s". */
  self->server_oauth = resolve_references (self, secrets, name, _("oauth client secret"),
                                           oauth_table, error);
  return self->server_oauth != NULL;
}

/* What a remote entry of the servers file says, with the command line's
 * --header and --transport on top. */
gboolean
steward_cli_runner_resolve_remote (StewardCliRunner     *self,
                                   StewardServerConfig  *server,
                                   GError              **error)
{
  StewardCliOptions *options = self->options;
  const char *name = steward_server_config_get_name (server);
  g_autofree char *where = g_strdup_printf (_("server `%s`"), name);
  JsonObject *json = steward_server_config_get_json (server);
  GHashTableIter iter;
  gpointer key;
  gpointer value;

  if (!steward_server_config_is_remote (server))
    {
      if (g_hash_table_size (options->headers) == 0 && !options->transport_given)
        return TRUE;

      g_set_error (error, STEWARD_CLI_ERROR, STEWARD_CLI_ERROR_USAGE,
                   _("--header and --transport go with a remote server; server `%s` is started "
                     "with a command"),
                   name);
      return FALSE;
    }

  if (options->env != NULL || options->cwd != NULL)
    {
      g_set_error (error, STEWARD_CLI_ERROR, STEWARD_CLI_ERROR_USAGE,
                   _("--env and --cwd go with a server that steward-cli starts; server `%s` is "
                     "remote"),
                   name);
      return FALSE;
    }

  self->url = g_strdup (steward_server_config_get_url (server));
  self->headers = steward_cli_headers_new ();

  g_hash_table_iter_init (&iter, self->server_headers);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      if (!steward_cli_check_header (where, key, value, error))
        return FALSE;
      g_hash_table_replace (self->headers, g_strdup (key), g_strdup (value));
    }

  g_hash_table_iter_init (&iter, options->headers);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_replace (self->headers, g_strdup (key), g_strdup (value));

  /* An entry that names no transport gets the specification's
   * backwards-compatible probe, which tries Streamable HTTP first. */
  if (options->transport_given)
    self->kind = options->transport;
  else if (!json_object_has_member (json, "transport") && !json_object_has_member (json, "type"))
    self->kind = MCP_HTTP_KIND_AUTO;
  else if (steward_server_config_get_transport (server) == STEWARD_SERVER_TRANSPORT_SSE)
    self->kind = MCP_HTTP_KIND_SSE;
  else
    self->kind = MCP_HTTP_KIND_STREAMABLE;

  return TRUE;
}

/* The server's sandbox: its entry's permissions with the roots given on
 * the command line, the folder --cwd names, or none with --no-sandbox. */
static StewardSandboxProfile *
new_profile (StewardCliRunner     *self,
             StewardServerConfig  *server,
             const char           *cwd)
{
  StewardCliOptions *options = self->options;
  g_autoptr(GPtrArray) roots = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(StewardServerConfig) moved = NULL;

  if (options->no_sandbox)
    return steward_sandbox_profile_new_unconfined ();

  for (guint i = 0; options->roots != NULL && options->roots[i] != NULL; i++)
    g_ptr_array_add (roots, g_canonicalize_filename (options->roots[i], NULL));
  g_ptr_array_add (roots, NULL);

  if (cwd != NULL)
    {
      g_autoptr(JsonObject) json = json_object_new ();
      JsonObject *entry = steward_server_config_get_json (server);
      GList *members = json_object_get_members (entry);

      for (GList *l = members; l != NULL; l = l->next)
        json_object_set_member (json, l->data,
                                json_node_copy (json_object_get_member (entry, l->data)));
      g_list_free (members);
      json_object_set_string_member (json, "cwd", cwd);
      moved = steward_server_config_new_from_json (steward_server_config_get_name (server), json,
                                                   NULL);
    }

  return steward_sandbox_profile_new (moved != NULL ? moved : server,
                                      (const char * const *) roots->pdata);
}

McpTransport *
steward_cli_runner_create_stdio_transport (StewardCliRunner     *self,
                                           StewardServerConfig  *server,
                                           GError              **error)
{
  StewardCliOptions *options = self->options;
  g_auto(GStrv) argv = steward_server_config_dup_argv (server);
  g_autoptr(GHashTable) env = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(StewardSandboxProfile) profile = NULL;
  g_autofree char *cwd = NULL;
  GHashTableIter iter;
  const char *name;
  const char *value;

  g_hash_table_iter_init (&iter, self->server_env);
  while (g_hash_table_iter_next (&iter, (gpointer *) &name, (gpointer *) &value))
    g_hash_table_replace (env, g_strdup (name), g_strdup (value));

  for (guint i = 0; options->env != NULL && options->env[i] != NULL; i++)
    {
      g_auto(GStrv) pair = g_strsplit (options->env[i], "=", 2);

      g_hash_table_replace (env, g_strdup (pair[0]), g_strdup (pair[1]));
    }

  if (options->cwd != NULL)
    {
      g_autoptr(GFile) folder = g_file_new_for_commandline_arg (options->cwd);

      cwd = g_file_get_path (folder);
      if (cwd == NULL)
        cwd = g_strdup (options->cwd);
    }
  else
    cwd = g_strdup (steward_server_config_get_cwd (server));

  profile = new_profile (self, server, options->cwd != NULL ? cwd : NULL);

  return MCP_TRANSPORT (steward_sandbox_launch_new_transport (profile,
                                                              (const char * const *) argv,
                                                              cwd, env, error));
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_ascii_strcasecmp (*(const char * const *) a, *(const char * const *) b);
}

/* Where --verbose says it connects to: without the user information, query
 * and fragment of the URL, which can hold keys, and with header names but
 * never their values. */
void
steward_cli_runner_describe_remote (StewardCliRunner *self)
{
  g_autoptr(GUri) uri = g_uri_parse (self->url, G_URI_FLAGS_NONE, NULL);
  g_autofree char *shown = NULL;
  g_autofree char *clean = NULL;
  g_autofree char *names = NULL;
  g_autofree char *line = NULL;
  g_autofree const char **keys = NULL;
  const char *how;
  guint n_keys;

  if (!self->options->verbose)
    return;

  shown = uri ? g_uri_to_string_partial (uri, G_URI_HIDE_USERINFO | G_URI_HIDE_QUERY |
                                              G_URI_HIDE_FRAGMENT)
              : g_strdup (self->url);
  clean = steward_cli_sanitize (shown, FALSE);

  switch (self->kind)
    {
    case MCP_HTTP_KIND_STREAMABLE:
      how = _("with the Streamable HTTP transport");
      break;

    case MCP_HTTP_KIND_SSE:
      how = _("with the legacy HTTP+SSE transport");
      break;

    case MCP_HTTP_KIND_AUTO:
    default:
      how = _("with Streamable HTTP, or the legacy HTTP+SSE transport if it is refused");
      break;
    }

  keys = (const char **) g_hash_table_get_keys_as_array (self->headers, &n_keys);
  qsort (keys, n_keys, sizeof (char *), compare_names);
  names = g_strjoinv (", ", (char **) keys);

  if (n_keys > 0)
    line = g_strdup_printf (_("[connect] %s %s; headers (values not shown): %s\n"), clean, how,
                            names);
  else
    line = g_strdup_printf (_("[connect] %s %s\n"), clean, how);
  steward_cli_print_err (line);
}

gboolean
steward_cli_runner_create_delegate (StewardCliRunner  *self,
                                    GError           **error)
{
  StewardCliOptions *options = self->options;
  g_autoptr(GInputStream) input = NULL;

  if (options->sampling == STEWARD_CLI_SAMPLING_MANUAL ||
      options->elicitation == STEWARD_CLI_ELICITATION_MANUAL)
    input = g_unix_input_stream_new (STDIN_FILENO, FALSE);

  self->delegate = steward_cli_delegate_new (options->sampling, options->elicitation, input);

  for (guint i = 0; options->roots != NULL && options->roots[i] != NULL; i++)
    if (!steward_cli_delegate_add_root (self->delegate, options->roots[i], error))
      return FALSE;

  return TRUE;
}

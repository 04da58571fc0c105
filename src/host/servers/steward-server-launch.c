/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-server"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mcp-connect.h"
#include "mcp-error.h"
#include "mcp-stdio-transport.h"

#include "steward-approval.h"
#include "steward-approvals.h"
#include "steward-config.h"
#include "steward-log-entry.h"
#include "steward-log-store.h"
#include "steward-redactor.h"
#include "steward-roots.h"
#include "steward-sampling-broker.h"
#include "steward-network-choice.h"
#include "steward-sandbox-launch.h"
#include "steward-sandbox.h"
#include "steward-secrets.h"

#include "steward-server-failure.h"
#include "steward-server-private.h"
#include "steward-server-watch.h"
#include "steward-trace-names.h"

/* Where a command is looked for when no PATH is set, as execvp() does. */
#define DEFAULT_SEARCH_PATH "/bin:/usr/bin"

static void
setup_client (McpClient *client,
              gpointer   user_data)
{
  StewardServer *self = user_data;

  /* Probing a remote server may try a second transport with a new
   * client; the first is dropped. */
  steward_server_drop_client (self);
  self->client = g_object_ref (client);
  steward_trace_names_reset (self->trace_names);

  mcp_client_set_client_info (client, "steward", "Steward", PACKAGE_VERSION);
  mcp_client_set_delegate (client, MCP_CLIENT_DELEGATE (self));

  g_signal_connect_object (mcp_client_get_transport (client), "log",
                           G_CALLBACK (steward_server_transport_log_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (client, "trace", G_CALLBACK (steward_server_client_trace_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (client, "log-message",
                           G_CALLBACK (steward_server_client_log_message_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (client, "diagnostic", G_CALLBACK (steward_server_client_diagnostic_cb),
                           self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (client, "closed", G_CALLBACK (steward_server_client_closed_cb), self,
                           G_CONNECT_SWAPPED);
  steward_server_watch_overdue (self, client);

  g_object_notify (G_OBJECT (self), "client");
}

static void
become_ready (StewardServer *self)
{
  const char *revision = mcp_client_get_protocol_version (self->client);
  g_autofree char *text = NULL;

  self->connected = TRUE;
  self->answered = TRUE;
  self->reconnect_attempt = 0;
  self->ready_since = g_get_monotonic_time ();

  if (steward_server_config_is_remote (self->config))
    {
      self->watch = steward_server_watch_new (self->client);
      if (self->watch_interval_ms > 0)
        steward_server_watch_set_interval (self->watch, self->watch_interval_ms);
      g_signal_connect_object (self->watch, "lost", G_CALLBACK (steward_server_watch_lost_cb), self,
                               G_CONNECT_SWAPPED);
    }
  g_clear_pointer (&self->resolved, g_hash_table_unref);
  steward_server_set_revision (self, revision);

  /* Translators: the status of a server that is connected; %s is the
   * protocol revision, such as 2025-11-25. */
  text = g_strdup_printf (_("Ready · %s"), revision ? revision : "?");
  steward_server_set_status (self, STEWARD_SERVER_STATUS_READY, text, NULL);
  steward_server_host_event (self, STEWARD_LOG_LEVEL_INFO, _("Ready, speaking revision %s"),
                             revision ? revision : "?");
}

static void
connect_failed (StewardServer *self,
                const GError  *error)
{
  g_autoptr(StewardServerFailure) failure = steward_server_describe_failure (self, error);
  StewardServerFailureKind kind = steward_server_failure_get_kind (failure);
  g_autofree char *detail = NULL;

  /* A remote server that wants the person signed in. */
  if (steward_server_try_sign_in (self, error))
    return;

  if (self->answered && kind != STEWARD_SERVER_FAILURE_SPAWN &&
      kind != STEWARD_SERVER_FAILURE_NOT_FOUND && kind != STEWARD_SERVER_FAILURE_UNAUTHORIZED &&
      kind != STEWARD_SERVER_FAILURE_TLS)
    {
      /* It ran before: away for now, or crashing. */
      if (steward_server_config_is_remote (self->config))
        steward_server_disconnected (self, steward_server_failure_get_cause (failure));
      else
        steward_server_crashed (self, steward_server_failure_get_cause (failure));
      return;
    }

  /* It never answered, or answers that its address or credentials are
   * wrong: something in its settings, which a restart cannot mend. It is
   * tried again when the person asks, or when the settings change. */
  steward_server_drop_client (self);
  detail = steward_server_build_detail (self, error->message);
  steward_server_fail (self, steward_server_failure_get_summary (failure), detail);
}

static void
connect_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(Attempt) attempt = user_data;
  StewardServer *self = attempt->self;
  g_autoptr(GError) error = NULL;

  if (!mcp_client_connect_finish (MCP_CLIENT (object), result, &error))
    {
      if (steward_server_attempt_is_current (attempt) && MCP_CLIENT (object) == self->client)
        connect_failed (self, error);
      return;
    }

  if (!steward_server_attempt_is_current (attempt) || MCP_CLIENT (object) != self->client)
    return;

  become_ready (self);
}

static void
connect_http_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(Attempt) attempt = user_data;
  StewardServer *self = attempt->self;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(GError) error = NULL;

  client = mcp_connect_http_finish (result, &error);

  if (!steward_server_attempt_is_current (attempt))
    {
      /* Connected after all, but no longer wanted. */
      if (client != NULL && client != self->client)
        mcp_client_close_async (client, NULL, NULL, NULL);
      return;
    }

  if (client == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        connect_failed (self, error);
      return;
    }

  g_assert (client == self->client);
  become_ready (self);
}

static McpHttpKind
http_kind (StewardServerConfig *config)
{
  JsonObject *json = steward_server_config_get_json (config);

  /* An entry that names no transport gets the specification's
   * backwards-compatible probe, Streamable HTTP first. */
  if (!json_object_has_member (json, "transport") && !json_object_has_member (json, "type"))
    return MCP_HTTP_KIND_AUTO;
  if (steward_server_config_get_transport (config) == STEWARD_SERVER_TRANSPORT_SSE)
    return MCP_HTTP_KIND_SSE;

  return MCP_HTTP_KIND_STREAMABLE;
}

/* A local server starts with the permissions of its sandbox profile
 * (steward-sandbox-profile.h), built from its entry and the roots shared
 * with it. */
static McpStdioTransport *
new_stdio_transport (StewardServer  *self,
                     char          **argv,
                     GHashTable     *resolved,
                     GError        **error)
{
  GListModel *roots = G_LIST_MODEL (self->roots);
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(StewardSandboxProfile) profile = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (roots); i++)
    {
      g_autoptr(StewardRoot) root = g_list_model_get_item (roots, i);

      if (steward_root_is_visible_to (root, self->name))
        g_ptr_array_add (paths, g_strdup (steward_root_get_path (root)));
    }
  g_ptr_array_add (paths, NULL);

  profile = steward_sandbox_profile_new (self->config, (const char * const *) paths->pdata);

  return steward_sandbox_launch_new_transport (profile, (const char * const *) argv,
                                               steward_server_config_get_cwd (self->config),
                                               resolved, error);
}

static void
connect_now (StewardServer *self)
{
  StewardServerConfig *config = self->config;
  g_autoptr(GHashTable) resolved = g_steal_pointer (&self->resolved);

  if (steward_server_config_is_remote (config))
    {
      steward_server_add_authorization (self, resolved);
      mcp_connect_http_async (steward_server_config_get_url (config), resolved,
                              http_kind (config), setup_client, self, self->cancellable,
                              connect_http_cb, steward_server_attempt_new (self));
    }
  else
    {
      g_auto(GStrv) argv = steward_server_config_dup_argv (config);
      g_autoptr(McpStdioTransport) transport = NULL;
      g_autoptr(McpClient) client = NULL;
      g_autoptr(GError) error = NULL;

      transport = new_stdio_transport (self, argv, resolved, &error);
      if (transport == NULL)
        {
          steward_server_fail (self, error->message,
                               _("Or choose “Edit…” in the server’s menu and turn on “Full "
                                 "access (no sandbox)”, only if you trust the server with "
                                 "everything you can do on this computer."));
          return;
        }

      client = mcp_client_new (MCP_TRANSPORT (transport));
      setup_client (client, self);
      mcp_client_connect_async (client, self->cancellable, connect_cb,
                                steward_server_attempt_new (self));
    }
}

static void
resolve_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(Attempt) attempt = user_data;
  StewardServer *self = attempt->self;
  g_autoptr(GError) error = NULL;
  GHashTable *values;

  values = steward_secrets_resolve_finish (STEWARD_SECRETS (object), result, &error);
  if (!steward_server_attempt_is_current (attempt))
    {
      g_clear_pointer (&values, g_hash_table_unref);
      return;
    }

  if (values == NULL)
    {
      /* The keyring's error names the variable or header and the secret. */
      steward_server_fail (self, error->message,
                           _("Store the secret again in the server’s settings, then start the "
                             "server."));
      return;
    }

  g_clear_pointer (&self->resolved, g_hash_table_unref);
  self->resolved = values;
  connect_now (self);
}

static gboolean
has_reference (GHashTable *table)
{
  GHashTableIter iter;
  gpointer value;

  if (table == NULL)
    return FALSE;

  g_hash_table_iter_init (&iter, table);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (value != NULL && strstr (value, "${keyring:") != NULL)
      return TRUE;

  return FALSE;
}

/* Replaces the "${keyring:ID}" references among the environment or the
 * headers with the secrets. Without any, the keyring is not asked. */
static void
resolve_secrets (StewardServer *self)
{
  StewardServerConfig *config = self->config;
  GHashTable *table = steward_server_config_is_remote (config)
                      ? steward_server_config_get_headers (config)
                      : steward_server_config_get_env (config);

  g_clear_pointer (&self->resolved, g_hash_table_unref);

  if (has_reference (table))
    {
      steward_secrets_resolve_async (self->secrets, table, self->cancellable, resolve_cb,
                                     steward_server_attempt_new (self));
      return;
    }

  self->resolved = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  if (table != NULL)
    {
      GHashTableIter iter;
      gpointer name;
      gpointer value;

      g_hash_table_iter_init (&iter, table);
      while (g_hash_table_iter_next (&iter, &name, &value))
        g_hash_table_insert (self->resolved, g_strdup (name), g_strdup (value));
    }

  connect_now (self);
}

static gboolean
is_executable_file (const char *path)
{
  return g_file_test (path, G_FILE_TEST_IS_EXECUTABLE) &&
         !g_file_test (path, G_FILE_TEST_IS_DIR);
}

/* Whether the command can be found the way the transport will look for
 * it: on the PATH the server gets (ours, unless the config sets one), or
 * relative to its working folder. Gives the program found in @found (NULL
 * where Steward cannot see it: a program on the host seen from inside
 * Flatpak), or says why not in @reason. */
gboolean
steward_server_find_command (StewardServer  *self,
                             char          **found,
                             char          **reason,
                             char          **detail)
{
  StewardServerConfig *config = self->config;
  const char *command = steward_server_config_get_command (config);
  const char *cwd = steward_server_config_get_cwd (config);
  GHashTable *env = steward_server_config_get_env (config);
  const char *search_path = env ? g_hash_table_lookup (env, "PATH") : NULL;
  g_autofree char *current = g_get_current_dir ();
  g_autofree char *path_id = NULL;
  g_auto(GStrv) dirs = NULL;

  *found = NULL;

  if (command == NULL || command[0] == '\0')
    {
      *reason = g_strdup (_("no command is configured"));
      *detail = g_strdup (_("Give the server a command in its settings."));
      return FALSE;
    }

  /* From inside Flatpak the host's programs cannot be seen, so a server
   * that runs there is not looked for. */
  if (steward_sandbox_is_flatpak () && steward_server_config_get_run_on_host (config))
    {
      if (steward_sandbox_can_spawn_on_host ())
        return TRUE;

      *reason = g_strdup (_("Steward may not start programs on the host"));
      *detail = steward_sandbox_diagnose_no_host ();
      return FALSE;
    }

  if (cwd == NULL)
    cwd = current;

  if (strchr (command, '/') != NULL)
    {
      g_autofree char *path = g_path_is_absolute (command)
                              ? g_strdup (command)
                              : g_build_filename (cwd, command, NULL);

      if (is_executable_file (path))
        {
          *found = g_canonicalize_filename (path, NULL);
          return TRUE;
        }

      if (!g_file_test (path, G_FILE_TEST_EXISTS) && steward_sandbox_is_flatpak ())
        {
          *reason = steward_sandbox_diagnose_missing (command);
          /* Translators: %s is a path, such as /home/ada/bin/server. */
          *detail = g_strdup_printf (_("Steward looked for %s inside its sandbox."), path);
          return FALSE;
        }

      if (g_file_test (path, G_FILE_TEST_EXISTS))
        /* Translators: %s is a command, such as /opt/server/run. */
        *reason = g_strdup_printf (_("`%s` is not an executable file"), command);
      else
        *reason = g_strdup_printf (_("`%s` was not found"), command);
      *detail = g_strdup_printf (_("Steward looked for %s. Check the server’s command, or "
                                   "install the program."),
                                 path);
      return FALSE;
    }

  path_id = search_path ? steward_secret_reference_get_id (search_path) : NULL;
  if (search_path == NULL || path_id != NULL)
    search_path = g_getenv ("PATH");
  if (search_path == NULL)
    search_path = DEFAULT_SEARCH_PATH;

  dirs = g_strsplit (search_path, ":", -1);
  for (guint i = 0; dirs[i] != NULL; i++)
    {
      const char *dir = dirs[i][0] != '\0' ? dirs[i] : ".";
      g_autofree char *path = g_path_is_absolute (dir)
                              ? g_build_filename (dir, command, NULL)
                              : g_build_filename (cwd, dir, command, NULL);

      if (is_executable_file (path))
        {
          *found = g_canonicalize_filename (path, NULL);
          return TRUE;
        }
    }

  if (steward_sandbox_is_flatpak ())
    {
      *reason = steward_sandbox_diagnose_missing (command);
      /* Translators: %s is a list of folders, such as /app/bin:/usr/bin. */
      *detail = g_strdup_printf (_("Steward looked in %s inside its sandbox."), search_path);
      return FALSE;
    }

  /* Translators: %s is a command, such as npx. */
  *reason = g_strdup_printf (_("`%s` was not found on PATH"), command);
  *detail = g_strdup_printf (_("Steward looked in %s. Install the program, or give its full "
                               "path as the server’s command."),
                             search_path);
  return FALSE;
}

void
steward_server_launch (StewardServer *self)
{
  g_autofree char *target = steward_server_format_target (self->config);

  self->generation++;
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  g_queue_clear_full (&self->stderr_lines, g_free);

  if (!steward_server_config_is_remote (self->config))
    {
      g_autofree char *found = NULL;
      g_autofree char *reason = NULL;
      g_autofree char *detail = NULL;

      if (!steward_server_find_command (self, &found, &reason, &detail))
        {
          steward_server_fail (self, reason, detail);
          return;
        }

      steward_server_host_event (self, STEWARD_LOG_LEVEL_INFO, _("Starting: %s"), target);
    }
  else
    steward_server_host_event (self, STEWARD_LOG_LEVEL_INFO, _("Connecting to %s"), target);

  if (self->reconnect_attempt > 0)
    {
      g_autofree char *text = NULL;

      /* Translators: the status of a remote server while Steward tries to
       * reach it again; %u counts the attempts. */
      text = g_strdup_printf (_("Disconnected — reconnecting (attempt %u)"),
                              self->reconnect_attempt);
      steward_server_set_status (self, STEWARD_SERVER_STATUS_DISCONNECTED, text, self->detail_text);
    }
  else
    steward_server_set_status (self, STEWARD_SERVER_STATUS_STARTING, _("Starting…"), NULL);
  resolve_secrets (self);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-sandbox-launch"

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "mcp-error.h"

#include "steward-bwrap.h"
#include "steward-sandbox-launch.h"
#include "steward-sandbox.h"

/* What a server that may open windows needs of the session to find the
 * display. */
static const char * const display_variables[] = {
  "DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY", "XDG_RUNTIME_DIR", NULL
};

static void
set_env (McpStdioTransport *transport,
         GHashTable        *env)
{
  GHashTableIter iter;
  gpointer name;
  gpointer value;

  if (env == NULL)
    return;

  g_hash_table_iter_init (&iter, env);
  while (g_hash_table_iter_next (&iter, &name, &value))
    mcp_stdio_transport_setenv (transport, name, value);
}

static void
set_display (McpStdioTransport *transport)
{
  for (guint i = 0; display_variables[i] != NULL; i++)
    {
      const char *value = g_getenv (display_variables[i]);

      if (value != NULL)
        mcp_stdio_transport_setenv (transport, display_variables[i], value);
    }
}

static McpStdioTransport *
new_flatpak_transport (StewardSandboxProfile *profile,
                       const char * const    *argv,
                       const char            *cwd,
                       GHashTable            *env)
{
  g_autoptr(GHashTable) session_env = NULL;
  g_autofree const char **passed = NULL;
  g_auto(GStrv) parent = g_get_environ ();
  g_auto(GStrv) wrapped = NULL;
  McpStdioTransport *transport;

  if (!steward_sandbox_profile_get_full_access (profile))
    session_env = steward_sandbox_dup_session_env ((const char * const *) parent);
  if (env != NULL)
    passed = (const char **) g_hash_table_get_keys_as_array (env, NULL);

  wrapped = steward_sandbox_wrap_profile_argv (profile, argv, cwd, session_env, passed);
  transport = mcp_stdio_transport_new ((const char * const *) wrapped);
  set_env (transport, env);

  return transport;
}

/* Inside bubblewrap a missing program would only show as bwrap's own
 * complaint once the sandbox is up: it is looked for first, as the
 * transport does for a program it starts itself, on the server's PATH
 * and from its working folder. */
static gboolean
check_program (const char  *program,
               const char  *cwd,
               GHashTable  *env,
               GError     **error)
{
  const char *search_path = env != NULL ? g_hash_table_lookup (env, "PATH") : NULL;
  g_autofree char *current = g_get_current_dir ();
  g_auto(GStrv) dirs = NULL;

  if (cwd == NULL)
    cwd = current;

  if (strchr (program, '/') != NULL)
    {
      g_autofree char *path = g_path_is_absolute (program)
                              ? g_strdup (program)
                              : g_build_filename (cwd, program, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_EXECUTABLE) &&
          !g_file_test (path, G_FILE_TEST_IS_DIR))
        return TRUE;

      g_set_error (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED,
                   /* Translators: the first %s is a command, the second a path. */
                   _("command `%s` not found or not executable (looked for %s)"),
                   program, path);
      return FALSE;
    }

  if (search_path == NULL)
    search_path = g_getenv ("PATH");
  if (search_path == NULL)
    search_path = "/bin:/usr/bin";

  dirs = g_strsplit (search_path, ":", -1);
  for (guint i = 0; dirs[i] != NULL; i++)
    {
      const char *dir = dirs[i][0] != '\0' ? dirs[i] : ".";
      g_autofree char *path = g_path_is_absolute (dir)
                              ? g_build_filename (dir, program, NULL)
                              : g_build_filename (cwd, dir, program, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_EXECUTABLE) &&
          !g_file_test (path, G_FILE_TEST_IS_DIR))
        return TRUE;
    }

  g_set_error (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED,
               /* Translators: the first %s is a command, the second a list of folders. */
               _("command `%s` not found on PATH (%s)"), program, search_path);
  return FALSE;
}

/**
 * steward_sandbox_launch_new_transport:
 * @profile: what the server may do
 * @argv: (array zero-terminated=1): its program and arguments
 * @cwd: (nullable): the folder to start it in
 * @env: (element-type utf8 utf8) (nullable): its configured variables
 * @error: where to say why it cannot start
 *
 * Returns: (transfer full) (nullable): a transport not yet started
 */
McpStdioTransport *
steward_sandbox_launch_new_transport (StewardSandboxProfile  *profile,
                                      const char * const     *argv,
                                      const char             *cwd,
                                      GHashTable             *env,
                                      GError                **error)
{
  g_autoptr(McpStdioTransport) transport = NULL;
  g_auto(GStrv) parent = NULL;
  g_auto(GStrv) wrapped = NULL;
  const char *state_dir;

  g_return_val_if_fail (STEWARD_IS_SANDBOX_PROFILE (profile), NULL);
  g_return_val_if_fail (argv != NULL && argv[0] != NULL, NULL);

  if (steward_sandbox_is_flatpak ())
    return new_flatpak_transport (profile, argv, cwd, env);

  if (steward_sandbox_profile_get_full_access (profile))
    {
      transport = mcp_stdio_transport_new (argv);
      set_display (transport);
      set_env (transport, env);
      if (cwd != NULL)
        mcp_stdio_transport_set_cwd (transport, cwd);
      return g_steal_pointer (&transport);
    }

  if (!steward_bwrap_check (error) || !check_program (argv[0], cwd, env, error))
    return NULL;

  /* A few hundred bytes of metadata at most, once per start. */
  state_dir = steward_sandbox_profile_get_state_dir (profile);
  if (g_mkdir_with_parents (state_dir, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   /* Translators: the first %s is a folder, the second why it failed. */
                   _("Could not create the server’s own folder %s: %s"),
                   state_dir, g_strerror (saved_errno));
      return NULL;
    }

  parent = g_get_environ ();
  wrapped = steward_bwrap_wrap_argv (profile, argv, cwd, (const char * const *) parent);
  transport = mcp_stdio_transport_new ((const char * const *) wrapped);
  if (steward_sandbox_profile_get_display (profile))
    set_display (transport);
  set_env (transport, env);

  return g_steal_pointer (&transport);
}

/**
 * steward_sandbox_launch_dup_unavailable:
 *
 * Returns: (transfer full) (nullable): why local servers cannot run in a
 *   sandbox here, or NULL when they can
 */
char *
steward_sandbox_launch_dup_unavailable (void)
{
  g_autoptr(GError) error = NULL;

  if (steward_sandbox_is_flatpak () || steward_bwrap_check (&error))
    return NULL;

  return g_strdup (error->message);
}

/**
 * steward_sandbox_launch_describe:
 * @config: a local server's entry
 *
 * Returns: (transfer full): its permissions in words, and why the sandbox
 *   cannot run when it cannot
 */
JsonObject *
steward_sandbox_launch_describe (StewardServerConfig *config)
{
  g_autoptr(StewardSandboxProfile) profile = steward_sandbox_profile_new (config, NULL);
  gboolean sandboxed = !steward_sandbox_profile_get_full_access (profile);
  /* In a sandbox the network is not a sentence but a switch, below. */
  g_auto(GStrv) lines = sandboxed
                        ? steward_sandbox_profile_dup_descriptions_but_network (profile)
                        : steward_sandbox_profile_dup_descriptions (profile);
  JsonObject *object = json_object_new ();
  JsonArray *array = json_array_new ();

  for (guint i = 0; lines[i] != NULL; i++)
    json_array_add_string_element (array, lines[i]);
  json_object_set_array_member (object, "permissions", array);

  if (sandboxed)
    {
      g_autofree char *unavailable = steward_sandbox_launch_dup_unavailable ();
      g_autofree char *reason = steward_sandbox_profile_dup_network_reason (profile);
      JsonObject *network = json_object_new ();

      /* The person decides it in the consent dialog; the answer comes
       * back as {"network": bool} (steward-network-choice.h). */
      json_object_set_boolean_member (network, "allowed",
                                      steward_sandbox_profile_get_network (profile));
      json_object_set_string_member (network, "reason", reason);
      json_object_set_object_member (object, "network", network);

      if (unavailable != NULL)
        json_object_set_string_member (object, "unavailable", unavailable);
    }

  return object;
}

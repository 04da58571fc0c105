/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-sandbox"

#include "config.h"

#include <glib/gi18n.h>
#include <stdlib.h>
#include <string.h>

#include "mcp-stdio-transport.h"

#include "steward-sandbox.h"

/* The bus name behind `flatpak-spawn --host`. */
#define FLATPAK_BUS_NAME "org.freedesktop.Flatpak"

/* What a sandboxed server keeps of the session: who and where the person
 * is, their language and time zone. Unlike McpStdioTransport's list, no
 * PATH (the sandbox has its own, the one Steward's check looked in), no
 * XDG folders (Steward's own, which the server must not see) and no
 * display or bus (the server's sandbox has none). */
static const char * const session_allowlist[] = {
  "HOME",
  "USER",
  "LOGNAME",
  "LANG",
  "LANGUAGE",
  "TZ",
  "TERM",
  /* And the locale's categories, which McpStdioTransport names. */
  NULL
};

static char *info_file_for_testing;
static char *env_helper_for_testing;
/* -1 until the info file was read. */
static int can_spawn_on_host = -1;

static const char *
info_file (void)
{
  return info_file_for_testing != NULL ? info_file_for_testing : STEWARD_SANDBOX_INFO_FILE;
}

static const char *
env_helper (void)
{
  return env_helper_for_testing != NULL ? env_helper_for_testing
                                        : LIBEXECDIR "/steward-sandbox-env";
}

/**
 * steward_sandbox_is_flatpak:
 *
 * Returns: whether Steward runs inside a Flatpak sandbox, which Flatpak
 *   marks with its info file at the root
 */
gboolean
steward_sandbox_is_flatpak (void)
{
  return g_file_test (info_file (), G_FILE_TEST_EXISTS);
}

/* A policy key may name a bus name or, ending in ".*", every name under a
 * prefix; "talk" and "own" both allow calls. */
static gboolean
policy_allows_talk (const char *key,
                    const char *value)
{
  gboolean matches;

  if (g_str_has_suffix (key, ".*"))
    {
      g_autofree char *prefix = g_strndup (key, strlen (key) - 1);

      matches = g_str_has_prefix (FLATPAK_BUS_NAME, prefix);
    }
  else
    matches = g_str_equal (key, FLATPAK_BUS_NAME);

  return matches && (g_strcmp0 (value, "talk") == 0 || g_strcmp0 (value, "own") == 0);
}

/**
 * steward_sandbox_info_allows_host:
 * @info: the text of a `.flatpak-info` file
 * @length: its length in bytes, or -1 when it ends with a NUL
 *
 * Returns: whether the sandbox it describes may call
 *   org.freedesktop.Flatpak: its `[Session Bus Policy]` lets it talk to
 *   (or own) that name, or its `[Context]` shares the whole session bus.
 *   Text that is not a key file allows nothing.
 */
gboolean
steward_sandbox_info_allows_host (const char *info,
                                  gssize      length)
{
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_auto(GStrv) sockets = NULL;
  g_auto(GStrv) keys = NULL;

  g_return_val_if_fail (info != NULL, FALSE);

  if (!g_key_file_load_from_data (keyfile, info, length < 0 ? (gsize) -1 : (gsize) length,
                                  G_KEY_FILE_NONE, NULL))
    return FALSE;

  sockets = g_key_file_get_string_list (keyfile, "Context", "sockets", NULL, NULL);
  if (sockets != NULL && g_strv_contains ((const char * const *) sockets, "session-bus"))
    return TRUE;

  keys = g_key_file_get_keys (keyfile, "Session Bus Policy", NULL, NULL);
  for (guint i = 0; keys != NULL && keys[i] != NULL; i++)
    {
      g_autofree char *value = g_key_file_get_value (keyfile, "Session Bus Policy", keys[i],
                                                     NULL);

      if (value != NULL && policy_allows_talk (keys[i], g_strstrip (value)))
        return TRUE;
    }

  return FALSE;
}

/**
 * steward_sandbox_can_spawn_on_host:
 *
 * Returns: whether Steward runs in Flatpak with the permission to start
 *   programs on the host (`--talk-name=org.freedesktop.Flatpak`, which the
 *   manifest does not grant; a person adds it with `flatpak override`)
 */
gboolean
steward_sandbox_can_spawn_on_host (void)
{
  if (can_spawn_on_host < 0)
    {
      g_autofree char *info = NULL;
      gsize length = 0;

      /* A file of a few hundred bytes that Flatpak keeps in memory, read
       * once: it cannot change while the sandbox runs. */
      can_spawn_on_host = g_file_get_contents (info_file (), &info, &length, NULL) &&
                          steward_sandbox_info_allows_host (info, length);
    }

  return can_spawn_on_host;
}

/**
 * steward_sandbox_dup_session_env:
 * @parent_env: (array zero-terminated=1): NAME=VALUE strings
 *
 * Returns: (transfer full) (element-type utf8 utf8): the variables of
 *   @parent_env that a sandboxed server gets, by name
 */
GHashTable *
steward_sandbox_dup_session_env (const char * const *parent_env)
{
  GHashTable *env = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  for (guint i = 0; parent_env != NULL && parent_env[i] != NULL; i++)
    {
      const char *equals = strchr (parent_env[i], '=');
      g_autofree char *name = NULL;

      if (equals == NULL || equals == parent_env[i])
        continue;

      name = g_strndup (parent_env[i], equals - parent_env[i]);
      if (g_strv_contains (session_allowlist, name) ||
          mcp_stdio_transport_is_locale_variable (name))
        g_hash_table_replace (env, g_steal_pointer (&name), g_strdup (equals + 1));
    }

  return env;
}

static char **wrap_argv (const char * const *argv,
                         const char * const *roots,
                         const char * const *readable,
                         const char         *cwd,
                         GHashTable         *session_env,
                         const char * const *passed,
                         gboolean            allow_network,
                         gboolean            on_host);

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/**
 * steward_sandbox_wrap_argv:
 * @argv: (array zero-terminated=1): the server's program and arguments
 * @roots: (array zero-terminated=1) (nullable): folders to expose to a
 *   sandboxed server, read and write
 * @cwd: (nullable): the folder to start it in
 * @session_env: (element-type utf8 utf8) (nullable): variables to set
 *   through the arguments
 * @passed: (array zero-terminated=1) (nullable): names of variables handed
 *   over through the helper's environment
 * @allow_network: whether a sandboxed server may use the network
 * @on_host: start it on the host instead, with full access
 *
 * Returns: (transfer full): the argument vector to spawn
 */
char **
steward_sandbox_wrap_argv (const char * const *argv,
                           const char * const *roots,
                           const char         *cwd,
                           GHashTable         *session_env,
                           const char * const *passed,
                           gboolean            allow_network,
                           gboolean            on_host)
{
  return wrap_argv (argv, roots, NULL, cwd, session_env, passed, allow_network, on_host);
}

/**
 * steward_sandbox_wrap_profile_argv:
 * @profile: what the server may do
 * @argv: (array zero-terminated=1): the server's program and arguments
 * @cwd: (nullable): the folder to start it in
 * @session_env: (element-type utf8 utf8) (nullable): variables to set
 *   through the arguments
 * @passed: (array zero-terminated=1) (nullable): names of variables handed
 *   over through the helper's environment
 *
 * Like steward_sandbox_wrap_argv(), with the roots, the network and the
 * host taken from @profile, and its granted paths exposed read-only.
 *
 * Returns: (transfer full): the argument vector to spawn
 */
char **
steward_sandbox_wrap_profile_argv (StewardSandboxProfile *profile,
                                   const char * const    *argv,
                                   const char            *cwd,
                                   GHashTable            *session_env,
                                   const char * const    *passed)
{
  g_return_val_if_fail (STEWARD_IS_SANDBOX_PROFILE (profile), NULL);

  return wrap_argv (argv, steward_sandbox_profile_get_writable (profile),
                    steward_sandbox_profile_get_readable (profile), cwd, session_env, passed,
                    steward_sandbox_profile_get_network (profile),
                    steward_sandbox_profile_get_full_access (profile));
}

static char **
wrap_argv (const char * const *argv,
           const char * const *roots,
           const char * const *readable,
           const char         *cwd,
           GHashTable         *session_env,
           const char * const *passed,
           gboolean            allow_network,
           gboolean            on_host)
{
  GPtrArray *wrapped;

  g_return_val_if_fail (argv != NULL && argv[0] != NULL, NULL);

  wrapped = g_ptr_array_new ();

  if (passed != NULL && passed[0] != NULL)
    {
      g_ptr_array_add (wrapped, g_strdup (env_helper ()));
      for (guint i = 0; passed[i] != NULL; i++)
        g_ptr_array_add (wrapped, g_strconcat ("--pass=", passed[i], NULL));
      g_ptr_array_add (wrapped, g_strdup ("--"));
    }

  /* flatpak-spawn takes its options up to the first argument that does
   * not start with a dash, so every option carries its value after "=". */
  g_ptr_array_add (wrapped, g_strdup ("flatpak-spawn"));
  if (on_host)
    g_ptr_array_add (wrapped, g_strdup ("--host"));
  else
    {
      g_ptr_array_add (wrapped, g_strdup ("--sandbox"));
      for (guint i = 0; roots != NULL && roots[i] != NULL; i++)
        g_ptr_array_add (wrapped, g_strconcat ("--sandbox-expose-path=", roots[i], NULL));
      for (guint i = 0; readable != NULL && readable[i] != NULL; i++)
        g_ptr_array_add (wrapped, g_strconcat ("--sandbox-expose-path-ro=", readable[i], NULL));
      /* The portal gives a spawned sandbox the app's network otherwise. */
      if (!allow_network)
        g_ptr_array_add (wrapped, g_strdup ("--no-network"));
    }

  /* The server ends when Steward's connection to the bus does, even if
   * Steward could not stop it. */
  g_ptr_array_add (wrapped, g_strdup ("--watch-bus"));

  /* Without --clear-env a sandboxed server would get the environment
   * Steward was started with, and not only the allowlist. On the host the
   * server gets the session's own environment, which Steward cannot see
   * from inside and which holds the PATH its programs are on. */
  if (!on_host)
    g_ptr_array_add (wrapped, g_strdup ("--clear-env"));

  if (cwd != NULL)
    g_ptr_array_add (wrapped, g_strconcat ("--directory=", cwd, NULL));

  if (session_env != NULL)
    {
      g_autofree const char **names = NULL;
      guint n_names;

      names = (const char **) g_hash_table_get_keys_as_array (session_env, &n_names);
      qsort (names, n_names, sizeof (char *), compare_strings);
      for (guint i = 0; i < n_names; i++)
        g_ptr_array_add (wrapped, g_strconcat ("--env=", names[i], "=",
                                               g_hash_table_lookup (session_env, names[i]),
                                               NULL));
    }

  g_ptr_array_add (wrapped, g_strdup ("--"));
  for (guint i = 0; argv[i] != NULL; i++)
    g_ptr_array_add (wrapped, g_strdup (argv[i]));
  g_ptr_array_add (wrapped, NULL);

  return (char **) g_ptr_array_free (wrapped, FALSE);
}

/**
 * steward_sandbox_diagnose_missing:
 * @program: a command that is not on the sandbox's PATH
 *
 * Returns: (transfer full): a sentence that says why the program is
 *   missing and what the person can do
 */
char *
steward_sandbox_diagnose_missing (const char *program)
{
  g_return_val_if_fail (program != NULL, NULL);

  return g_strdup_printf (
    /* Translators: the first %s is a command, such as uvx; the second is a
     * command line to run in a terminal. */
    _("`%s` is not available inside the Flatpak: Steward starts servers in a sandbox that "
      "has Node.js (node, npm and npx) and the programs of the GNOME runtime, but nothing "
      "installed on this computer. Use a server that runs with those, or allow Steward to "
      "start servers on the host with `%s`, restart Steward and turn on “Run on the host” "
      "for this server."),
    program,
    "flatpak override --user --talk-name=" FLATPAK_BUS_NAME " " APPLICATION_ID);
}

/**
 * steward_sandbox_diagnose_no_host:
 *
 * Returns: (transfer full): why a server set to run on the host does not
 *   start, and how to grant the permission it needs
 */
char *
steward_sandbox_diagnose_no_host (void)
{
  return g_strdup_printf (
    /* Translators: %s is a command line to run in a terminal. */
    _("This server is set to run on the host, with full access to your computer, but "
      "Steward is not allowed to start programs outside its sandbox. To allow it, run `%s` "
      "and restart Steward; or turn off “Run on the host” for this server."),
    "flatpak override --user --talk-name=" FLATPAK_BUS_NAME " " APPLICATION_ID);
}

/**
 * steward_sandbox_set_paths_for_testing:
 * @info_file_path: (nullable): a file to read instead of /.flatpak-info
 * @env_helper_path: (nullable): a program to use instead of the installed
 *   steward-sandbox-env
 *
 * Also forgets what the info file said.
 */
void
steward_sandbox_set_paths_for_testing (const char *info_file_path,
                                       const char *env_helper_path)
{
  g_free (info_file_for_testing);
  info_file_for_testing = g_strdup (info_file_path);
  g_free (env_helper_for_testing);
  env_helper_for_testing = g_strdup (env_helper_path);
  can_spawn_on_host = -1;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-stdio-transport"

#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <gio/gunixinputstream.h>
#include <gio/gunixoutputstream.h>
#include <glib-unix.h>

#include "mcp-stdio-transport-private.h"
#include "mcp-error.h"
#include "mcp-format-private.h"
#include "mcp-line-framer.h"
#include "mcp-revision.h"

/* What a server inherits from the session: where to find programs and its
 * home, who the user is, the locale and time zone, and where temporary,
 * config, cache and data files go. Not the session bus nor the runtime
 * folder that holds it (through the bus a server could ask the keyring for
 * every secret), nor the display: the host adds those for a server the
 * person allowed them. Proxies are not passed on because their URLs often
 * carry credentials; a person who needs them configures them for the
 * server. */
static const char * const environment_allowlist[] = {
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "LANG",
  "LANGUAGE",
  "TZ",
  "TMPDIR",
  "TERM",
  "XDG_DATA_DIRS",
  "XDG_CONFIG_DIRS",
  "XDG_CONFIG_HOME",
  "XDG_CACHE_HOME",
  "XDG_DATA_HOME",
  "XDG_STATE_HOME",
  NULL
};

/* The locale's categories (locale(7)), rather than anything that starts
 * with LC_, which other programs use for their own variables. */
static const char * const locale_variables[] = {
  "LC_ALL",
  "LC_ADDRESS",
  "LC_COLLATE",
  "LC_CTYPE",
  "LC_IDENTIFICATION",
  "LC_MEASUREMENT",
  "LC_MESSAGES",
  "LC_MONETARY",
  "LC_NAME",
  "LC_NUMERIC",
  "LC_PAPER",
  "LC_TELEPHONE",
  "LC_TIME",
  NULL
};

/* The search path execvp() uses when the environment has no PATH. */
#define DEFAULT_SEARCH_PATH "/bin:/usr/bin"

static gboolean
is_safe_for_display (const char *arg)
{
  if (*arg == '\0')
    return FALSE;

  for (const char *p = arg; *p != '\0'; p++)
    {
      guchar c = (guchar) *p;

      if (c < 0x80 && !g_ascii_isalnum (c) && strchr ("@%+=:,./-_", c) == NULL)
        return FALSE;
    }

  return TRUE;
}

char *
mcp_stdio_transport_describe_argv (const char * const *argv)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; argv[i] != NULL; i++)
    {
      if (i > 0)
        g_string_append_c (text, ' ');

      if (is_safe_for_display (argv[i]))
        g_string_append (text, argv[i]);
      else
        {
          g_autofree char *quoted = g_shell_quote (argv[i]);

          g_string_append (text, quoted);
        }
    }

  return g_string_free (text, FALSE);
}

/**
 * mcp_stdio_transport_is_locale_variable:
 * @name: an environment variable's name
 *
 * Returns: whether @name is one of the locale's categories, which a server
 *   inherits from the session (and so does a sandboxed one)
 */
gboolean
mcp_stdio_transport_is_locale_variable (const char *name)
{
  return g_strv_contains (locale_variables, name);
}

static gboolean
is_allowed_variable (const char *name)
{
  return g_strv_contains (environment_allowlist, name) ||
         mcp_stdio_transport_is_locale_variable (name);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

char **
mcp_stdio_transport_build_environment (McpStdioTransport *self)
{
  g_auto(GStrv) parent = g_get_environ ();
  g_autoptr(GPtrArray) names = NULL;
  GHashTableIter iter;
  gpointer key;
  GPtrArray *env = g_ptr_array_new ();

  for (guint i = 0; parent[i] != NULL; i++)
    {
      const char *equals = strchr (parent[i], '=');
      g_autofree char *name = NULL;

      if (equals == NULL)
        continue;

      name = g_strndup (parent[i], equals - parent[i]);
      if (is_allowed_variable (name) && !g_hash_table_contains (self->configured_env, name))
        g_ptr_array_add (env, g_strdup (parent[i]));
    }

  /* Configured variables come last and in a fixed order, so that the same
   * configuration always gives the same environment. */
  names = g_ptr_array_new ();
  g_hash_table_iter_init (&iter, self->configured_env);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (names, key);
  g_ptr_array_sort (names, compare_names);

  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      const char *value = g_hash_table_lookup (self->configured_env, name);

      if (value != NULL)
        g_ptr_array_add (env, g_strconcat (name, "=", value, NULL));
    }

  g_ptr_array_add (env, NULL);

  return (char **) g_ptr_array_free (env, FALSE);
}

static gboolean
is_executable_file (const char *path)
{
  return g_file_test (path, G_FILE_TEST_IS_EXECUTABLE) &&
         !g_file_test (path, G_FILE_TEST_IS_DIR);
}

/* Resolves the command the way execvp() in the child would, but on the
 * child's PATH and relative to the child's working folder, so that a
 * missing command is reported by name before anything is spawned. */
static char *
find_program (const char  *program,
              const char  *search_path,
              const char  *cwd,
              GError     **error)
{
  g_auto(GStrv) dirs = NULL;

  if (strchr (program, '/') != NULL)
    {
      g_autofree char *path = g_path_is_absolute (program)
                              ? g_strdup (program)
                              : g_build_filename (cwd, program, NULL);

      if (!g_file_test (path, G_FILE_TEST_EXISTS))
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED,
                       "command `%s` not found (looked for %s)", program, path);
          return NULL;
        }
      if (!is_executable_file (path))
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED,
                       "command `%s` is not an executable file", program);
          return NULL;
        }

      return g_steal_pointer (&path);
    }

  dirs = g_strsplit (search_path, ":", -1);
  for (guint i = 0; dirs[i] != NULL; i++)
    {
      /* An empty entry means the working folder, as for execvp(). */
      const char *dir = dirs[i][0] != '\0' ? dirs[i] : ".";
      g_autofree char *path = g_path_is_absolute (dir)
                              ? g_build_filename (dir, program, NULL)
                              : g_build_filename (cwd, dir, program, NULL);

      if (is_executable_file (path))
        return g_steal_pointer (&path);
    }

  g_set_error (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED,
               "command `%s` not found on PATH (%s)", program, search_path);
  return NULL;
}

/* Runs in the child between fork and exec: only async-signal-safe calls. */
static void
child_setup (gpointer user_data)
{
  struct sigaction action;
  sigset_t none;

  setpgid (0, 0);

  /* The parent ignores SIGPIPE (see class_init); the server should get the
   * default disposition, as it would from a shell. */
  memset (&action, 0, sizeof action);
  action.sa_handler = SIG_DFL;
  sigemptyset (&action.sa_mask);
  sigaction (SIGPIPE, &action, NULL);

  sigemptyset (&none);
  sigprocmask (SIG_SETMASK, &none, NULL);
}

gboolean
mcp_stdio_transport_spawn (McpStdioTransport  *self,
                           GError            **error)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) subprocess = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *program = NULL;
  g_autofree char *current_dir = NULL;
  g_auto(GStrv) env = mcp_stdio_transport_build_environment (self);
  g_auto(GStrv) argv = NULL;
  const char *search_path;
  const char *identifier;
  const char *cwd;

  if (self->cwd != NULL && !g_file_test (self->cwd, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED,
                   "could not start `%s`: the working folder %s does not exist",
                   self->argv[0], self->cwd);
      return FALSE;
    }

  current_dir = g_get_current_dir ();
  cwd = self->cwd != NULL ? self->cwd : current_dir;
  search_path = g_environ_getenv (env, "PATH");
  if (search_path == NULL)
    search_path = DEFAULT_SEARCH_PATH;

  program = find_program (self->argv[0], search_path, cwd, error);
  if (program == NULL)
    return FALSE;

  /* The resolved path is what runs, so that the child cannot end up
   * executing something other than what the check found. */
  argv = g_strdupv (self->argv);
  g_free (argv[0]);
  argv[0] = g_steal_pointer (&program);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                        G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_set_environ (launcher, env);
  if (self->cwd != NULL)
    g_subprocess_launcher_set_cwd (launcher, self->cwd);
  g_subprocess_launcher_set_child_setup (launcher, child_setup, NULL, NULL);

  subprocess = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv, &local_error);
  if (subprocess == NULL)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED,
                   "could not start `%s`: %s", self->argv[0], local_error->message);
      return FALSE;
    }

  self->subprocess = g_steal_pointer (&subprocess);

  /* GLib forgets the pid once it has reaped the child; a server that is
   * already gone has no group left to signal either. */
  identifier = g_subprocess_get_identifier (self->subprocess);
  self->pid = identifier != NULL ? (GPid) g_ascii_strtoll (identifier, NULL, 10) : 0;
  self->spawned_env = g_steal_pointer (&env);
  self->stdin_pipe = g_object_ref (g_subprocess_get_stdin_pipe (self->subprocess));
  self->stdout_pipe = g_object_ref (g_subprocess_get_stdout_pipe (self->subprocess));
  self->stderr_pipe = g_object_ref (g_subprocess_get_stderr_pipe (self->subprocess));
  self->stdin_fd = g_unix_output_stream_get_fd (G_UNIX_OUTPUT_STREAM (self->stdin_pipe));
  self->stdout_fd = g_unix_input_stream_get_fd (G_UNIX_INPUT_STREAM (self->stdout_pipe));
  self->stderr_fd = g_unix_input_stream_get_fd (G_UNIX_INPUT_STREAM (self->stderr_pipe));
  g_unix_set_fd_nonblocking (self->stdin_fd, TRUE, NULL);
  g_unix_set_fd_nonblocking (self->stdout_fd, TRUE, NULL);
  g_unix_set_fd_nonblocking (self->stderr_fd, TRUE, NULL);

  return TRUE;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-bwrap"

#include "config.h"

#include <glib/gi18n.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "steward-bwrap.h"

#define BWRAP_PROGRAM "/usr/bin/bwrap"

static char *program_for_testing;

/* Where a person's files, the session's sockets and other people's homes
 * live: hidden behind an empty file system each. */
static const char * const hidden_folders[] = {
  "/home", "/root", "/tmp", "/var/tmp", "/run", "/mnt", "/media", NULL
};

/* Variables that point into what the sandbox hides, or at the session's
 * bus, keyring and agents: removed even if the server's environment got
 * them from its configuration. */
static const char * const unset_always[] = {
  "DBUS_SESSION_BUS_ADDRESS",
  "DBUS_SYSTEM_BUS_ADDRESS",
  "SSH_AUTH_SOCK",
  "GPG_AGENT_INFO",
  "GNOME_KEYRING_CONTROL",
  "XDG_CONFIG_HOME",
  "XDG_CACHE_HOME",
  "XDG_DATA_HOME",
  "XDG_STATE_HOME",
  "TMPDIR",
  NULL
};

static const char * const unset_without_display[] = {
  "XDG_RUNTIME_DIR",
  "DISPLAY",
  "WAYLAND_DISPLAY",
  "XAUTHORITY",
  NULL
};

G_DEFINE_QUARK (steward-bwrap-error-quark, steward_bwrap_error)

static const char *
program (void)
{
  return program_for_testing != NULL ? program_for_testing : BWRAP_PROGRAM;
}

/* Reads a number from a file under /proc/sys; -1 when there is none. */
static gint64
read_sysctl (const char *path)
{
  g_autofree char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return -1;

  return g_ascii_strtoll (g_strstrip (text), NULL, 10);
}

/**
 * steward_bwrap_check:
 * @error: where to say why the sandbox cannot run
 *
 * Returns: whether bubblewrap can start sandboxed servers here
 */
gboolean
steward_bwrap_check (GError **error)
{
  struct stat info;

  if (stat (program (), &info) != 0 || !S_ISREG (info.st_mode) ||
      access (program (), X_OK) != 0)
    {
      g_set_error (error, STEWARD_BWRAP_ERROR, STEWARD_BWRAP_ERROR_MISSING,
                   /* Translators: %s is a path, such as /usr/bin/bwrap. */
                   _("The sandbox for local servers needs bubblewrap (%s), which is not "
                     "installed. Install the “bubblewrap” package, or start this server "
                     "with full access."),
                   program ());
      return FALSE;
    }

  /* A set-user-ID bubblewrap, or one run by root, makes its namespaces
   * itself; any other needs the kernel to let users make them. */
  if ((info.st_mode & S_ISUID) != 0 || geteuid () == 0)
    return TRUE;

  if (read_sysctl ("/proc/sys/user/max_user_namespaces") == 0 ||
      read_sysctl ("/proc/sys/kernel/unprivileged_userns_clone") == 0)
    {
      g_set_error (error, STEWARD_BWRAP_ERROR, STEWARD_BWRAP_ERROR_NO_NAMESPACES,
                   _("The sandbox for local servers cannot run on this computer: the system "
                     "does not let programs create user namespaces, which bubblewrap "
                     "needs. Ask the administrator to allow them, or start this server "
                     "with full access."));
      return FALSE;
    }

  return TRUE;
}

static void
add (GPtrArray  *argv,
     const char *first,
     ...)
{
  va_list args;

  va_start (args, first);
  for (const char *arg = first; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, g_strdup (arg));
  va_end (args);
}

static const char *
lookup (const char * const *env,
        const char         *name)
{
  return g_environ_getenv ((char **) env, name);
}

/* The display's sockets, for a server with the Display permission: the
 * X server's folder and authority file, and the Wayland socket. */
static void
add_display (GPtrArray          *argv,
             const char * const *env)
{
  const char *xauthority = lookup (env, "XAUTHORITY");
  const char *wayland = lookup (env, "WAYLAND_DISPLAY");
  const char *runtime = lookup (env, "XDG_RUNTIME_DIR");

  add (argv, "--bind-try", "/tmp/.X11-unix", "/tmp/.X11-unix", NULL);
  if (xauthority != NULL && g_path_is_absolute (xauthority))
    add (argv, "--ro-bind-try", xauthority, xauthority, NULL);
  if (wayland != NULL)
    {
      g_autofree char *socket = g_path_is_absolute (wayland)
                                ? g_strdup (wayland)
                                : runtime != NULL ? g_build_filename (runtime, wayland, NULL)
                                                  : NULL;

      if (socket != NULL)
        add (argv, "--bind-try", socket, socket, NULL);
    }
  add (argv, "--dev-bind-try", "/dev/dri", "/dev/dri", NULL);
}

static gboolean
is_under (const char *path,
          const char *folder)
{
  gsize length = strlen (folder);

  return strncmp (path, folder, length) == 0 && (path[length] == '\0' || path[length] == '/');
}

/* Whether the sandbox replaces the folder that holds @path. */
static gboolean
is_hidden (const char *path)
{
  const char *home = g_get_home_dir ();

  for (guint i = 0; hidden_folders[i] != NULL; i++)
    if (is_under (path, hidden_folders[i]))
      return TRUE;

  return home != NULL && !g_str_equal (home, "/") && is_under (path, home);
}

/* Mounts a granted path where it really is: bubblewrap cannot mount
 * through a symbolic link. Where the path the server was given leads
 * through one inside a hidden folder, the link is made again there. A
 * path that does not exist grants nothing. */
static void
add_granted (GPtrArray  *argv,
             const char *option,
             const char *path)
{
  g_autofree char *real = realpath (path, NULL);

  if (real == NULL)
    return;

  add (argv, option, real, real, NULL);
  if (!g_str_equal (real, path) && is_hidden (path))
    add (argv, "--symlink", real, path, NULL);
}

/* Where /etc/resolv.conf points into /run (systemd-resolved), its folder
 * comes back so that names resolve. */
static void
add_resolver (GPtrArray *argv)
{
  g_autofree char *target = g_file_read_link ("/etc/resolv.conf", NULL);
  g_autofree char *absolute = NULL;
  g_autofree char *folder = NULL;

  if (target == NULL)
    return;

  absolute = g_canonicalize_filename (target, "/etc");
  if (!g_str_has_prefix (absolute, "/run/"))
    return;

  folder = g_path_get_dirname (absolute);
  add (argv, "--ro-bind-try", folder, folder, NULL);
}

/**
 * steward_bwrap_wrap_argv:
 * @profile: what the server may do; not full access
 * @argv: (array zero-terminated=1): the server's program and arguments
 * @cwd: (nullable): the folder to start it in; its own folder otherwise
 * @parent_env: (array zero-terminated=1) (nullable): NAME=VALUE strings
 *
 * Returns: (transfer full): the argument vector to spawn
 */
char **
steward_bwrap_wrap_argv (StewardSandboxProfile *profile,
                         const char * const    *argv,
                         const char            *cwd,
                         const char * const    *parent_env)
{
  const char *state_dir = steward_sandbox_profile_get_state_dir (profile);
  const char * const *readable = steward_sandbox_profile_get_readable (profile);
  const char * const *writable = steward_sandbox_profile_get_writable (profile);
  gboolean display = steward_sandbox_profile_get_display (profile);
  const char *home = g_get_home_dir ();
  GPtrArray *wrapped;

  g_return_val_if_fail (STEWARD_IS_SANDBOX_PROFILE (profile), NULL);
  g_return_val_if_fail (!steward_sandbox_profile_get_full_access (profile), NULL);
  g_return_val_if_fail (argv != NULL && argv[0] != NULL, NULL);

  wrapped = g_ptr_array_new ();
  add (wrapped, program (), "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", NULL);

  for (guint i = 0; hidden_folders[i] != NULL; i++)
    if (g_file_test (hidden_folders[i], G_FILE_TEST_IS_DIR) &&
        !g_file_test (hidden_folders[i], G_FILE_TEST_IS_SYMLINK))
      add (wrapped, "--tmpfs", hidden_folders[i], NULL);
  /* A home outside /home, such as /var/lib/someone. */
  if (home != NULL && g_path_is_absolute (home) && !g_str_equal (home, "/") &&
      g_file_test (home, G_FILE_TEST_IS_DIR))
    add (wrapped, "--tmpfs", home, NULL);

  if (steward_sandbox_profile_get_network (profile))
    add_resolver (wrapped);
  if (display)
    add_display (wrapped, parent_env);

  /* Granted paths first, roots after: a root inside a granted folder
   * stays writable. */
  for (guint i = 0; readable[i] != NULL; i++)
    add_granted (wrapped, "--ro-bind-try", readable[i]);
  for (guint i = 0; writable[i] != NULL; i++)
    add_granted (wrapped, "--bind-try", writable[i]);
  add_granted (wrapped, "--bind", state_dir);

  add (wrapped, "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
       NULL);
  if (!steward_sandbox_profile_get_network (profile))
    add (wrapped, "--unshare-net", NULL);
  /* A session of its own, so that a server cannot push input into the
   * terminal steward-cli runs in (TIOCSTI); the server dies with us. */
  add (wrapped, "--new-session", "--die-with-parent", "--cap-drop", "ALL", NULL);

  add (wrapped, "--setenv", "HOME", state_dir, NULL);
  for (guint i = 0; unset_always[i] != NULL; i++)
    add (wrapped, "--unsetenv", unset_always[i], NULL);
  for (guint i = 0; !display && unset_without_display[i] != NULL; i++)
    add (wrapped, "--unsetenv", unset_without_display[i], NULL);

  add (wrapped, "--chdir", cwd != NULL ? cwd : state_dir, "--", NULL);
  for (guint i = 0; argv[i] != NULL; i++)
    g_ptr_array_add (wrapped, g_strdup (argv[i]));
  g_ptr_array_add (wrapped, NULL);

  return (char **) g_ptr_array_free (wrapped, FALSE);
}

/**
 * steward_bwrap_set_program_for_testing:
 * @path: (nullable): a program to run instead of /usr/bin/bwrap
 */
void
steward_bwrap_set_program_for_testing (const char *path)
{
  g_free (program_for_testing);
  program_for_testing = g_strdup (path);
}

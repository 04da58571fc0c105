/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-sandbox-profile"

#include "config.h"

#include <glib/gi18n.h>
#include <stdlib.h>
#include <string.h>

#include "steward-sandbox-profile.h"

struct _StewardSandboxProfile
{
  GObject   parent_instance;

  gboolean  full_access;
  gboolean  network;
  gboolean  network_is_default;
  gboolean  display;
  char     *command;
  GStrv     writable;
  GStrv     readable;
  char     *state_dir;
};

G_DEFINE_FINAL_TYPE (StewardSandboxProfile, steward_sandbox_profile, G_TYPE_OBJECT)

/* Programs that fetch the server they run from a package registry each
 * time it starts (or the first time), and so need the network to work at
 * all. */
static const char * const package_runners[] = {
  "npx", "pnpx", "bunx", "uvx", "pipx", "uv", "npm", "pnpm", "yarn", "bun", "deno", NULL
};

static void
steward_sandbox_profile_finalize (GObject *object)
{
  StewardSandboxProfile *self = STEWARD_SANDBOX_PROFILE (object);

  g_clear_pointer (&self->command, g_free);
  g_clear_pointer (&self->writable, g_strfreev);
  g_clear_pointer (&self->readable, g_strfreev);
  g_clear_pointer (&self->state_dir, g_free);

  G_OBJECT_CLASS (steward_sandbox_profile_parent_class)->finalize (object);
}

static void
steward_sandbox_profile_class_init (StewardSandboxProfileClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = steward_sandbox_profile_finalize;
}

static void
steward_sandbox_profile_init (StewardSandboxProfile *self)
{
}

/**
 * steward_sandbox_default_network:
 * @command: (nullable): a server's command
 *
 * Returns: whether a server started by @command gets the network when its
 *   entry does not say: package runners do, as they download the server
 */
gboolean
steward_sandbox_default_network (const char *command)
{
  g_autofree char *base = NULL;

  if (command == NULL || command[0] == '\0')
    return FALSE;

  base = g_path_get_basename (command);
  return g_strv_contains (package_runners, base);
}

/* A folder name from a server's name that cannot climb out of the folder
 * of folders: only safe characters, and a digest of the name so that two
 * names that differ in the others get two folders. */
static char *
dup_state_dir (const char *name)
{
  g_autofree char *digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, name, -1);
  g_autoptr(GString) safe = g_string_new (NULL);

  for (const char *p = name; *p != '\0' && safe->len < 40; p++)
    g_string_append_c (safe, g_ascii_isalnum (*p) || *p == '-' || *p == '_' ? *p : '_');

  g_string_append_printf (safe, "-%.12s", digest);

  return g_build_filename (g_get_user_state_dir (), "steward", "servers", safe->str, NULL);
}

static gboolean
is_under (const char *path,
          const char *folder)
{
  gsize length = strlen (folder);

  return strncmp (path, folder, length) == 0 && (path[length] == '\0' || path[length] == '/');
}

static void
add_path (GPtrArray  *paths,
          const char *path)
{
  g_autofree char *canonical = NULL;

  if (path == NULL || !g_path_is_absolute (path))
    return;

  canonical = g_canonicalize_filename (path, NULL);
  /* The root of the file system is the system, which the sandbox shows
   * read-only already; granting it would undo the hidden home. */
  if (g_str_equal (canonical, "/"))
    return;
  /* The session's sockets (its bus, keyring, agents) and other processes
   * stay out even when an argument names them. */
  if (is_under (canonical, "/run/user") || is_under (canonical, "/proc") ||
      (g_getenv ("XDG_RUNTIME_DIR") != NULL && is_under (canonical, g_getenv ("XDG_RUNTIME_DIR"))))
    return;

  for (guint i = 0; i < paths->len; i++)
    if (g_str_equal (g_ptr_array_index (paths, i), canonical))
      return;

  g_ptr_array_add (paths, g_steal_pointer (&canonical));
}

/* A path the command names, and what it needs to be used: through a
 * symbolic link, the file it points to as well; for a file, the folder of
 * its program: the project that holds it when it lies in a node_modules
 * folder (a package reads its siblings and dependencies), its own folder
 * otherwise (a script imports the modules beside it). */
static void
add_command_path (GPtrArray  *paths,
                  const char *path)
{
  g_autofree char *real = NULL;
  const char *names[2];

  if (path == NULL || !g_path_is_absolute (path))
    return;

  real = realpath (path, NULL);
  names[0] = path;
  names[1] = real;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      const char *name = names[i];
      const char *modules;

      if (name == NULL)
        continue;

      add_path (paths, name);
      if (!g_file_test (name, G_FILE_TEST_IS_REGULAR))
        continue;

      modules = strstr (name, "/node_modules/");
      if (modules != NULL && modules != name)
        {
          g_autofree char *project = g_strndup (name, modules - name);

          add_path (paths, project);
        }
      else
        {
          g_autofree char *folder = g_path_get_dirname (name);

          add_path (paths, folder);
        }
    }
}

/* An argument names a path when it is one ("/srv/data") or is an option
 * with one as its value ("--root=/srv/data"). */
static const char *
argument_path (const char *arg)
{
  const char *equals;

  if (arg[0] == '/')
    return arg;

  equals = strchr (arg, '=');
  if (arg[0] == '-' && equals != NULL && equals[1] == '/')
    return equals + 1;

  return NULL;
}

static GStrv
strv_from_array (GPtrArray *paths)
{
  g_ptr_array_add (paths, NULL);
  return (GStrv) g_ptr_array_free (paths, FALSE);
}

/**
 * steward_sandbox_profile_new:
 * @config: a local server's entry
 * @roots: (array zero-terminated=1) (nullable): the folders shared with it
 *
 * Returns: (transfer full): what the server may do from its sandbox
 */
StewardSandboxProfile *
steward_sandbox_profile_new (StewardServerConfig *config,
                             const char * const  *roots)
{
  StewardSandboxProfile *self;
  GPtrArray *writable = g_ptr_array_new ();
  GPtrArray *readable = g_ptr_array_new ();
  const char * const *args;
  const char * const *granted;

  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (config), NULL);

  self = g_object_new (STEWARD_TYPE_SANDBOX_PROFILE, NULL);
  self->command = g_strdup (steward_server_config_get_command (config));
  self->full_access = steward_server_config_get_run_on_host (config);
  self->network_is_default = !steward_server_config_has_network (config);
  self->network = self->network_is_default ? steward_sandbox_default_network (self->command)
                                           : steward_server_config_get_network (config);
  self->display = steward_server_config_get_display (config);
  self->state_dir = dup_state_dir (steward_server_config_get_name (config));

  for (guint i = 0; roots != NULL && roots[i] != NULL; i++)
    add_path (writable, roots[i]);

  granted = steward_server_config_get_readable (config);
  for (guint i = 0; granted[i] != NULL; i++)
    add_path (readable, granted[i]);
  add_command_path (readable, self->command);
  /* A program found on the PATH in the home folder (nvm's node and npx,
   * pipx's or uv's tools in ~/.local/bin) is hidden with the home unless
   * granted; one installed with the system is seen anyway. */
  if (self->command != NULL && strchr (self->command, '/') == NULL)
    {
      g_autofree char *found = g_find_program_in_path (self->command);

      if (found != NULL && g_get_home_dir () != NULL &&
          is_under (found, g_get_home_dir ()) && !g_str_equal (g_get_home_dir (), "/"))
        add_command_path (readable, found);
    }
  add_path (readable, steward_server_config_get_cwd (config));
  args = steward_server_config_get_args (config);
  for (guint i = 0; args != NULL && args[i] != NULL; i++)
    add_command_path (readable, argument_path (args[i]));

  self->writable = strv_from_array (writable);
  self->readable = strv_from_array (readable);

  return self;
}

/**
 * steward_sandbox_profile_new_unconfined:
 *
 * Returns: (transfer full): a profile with full access, no sandbox
 */
StewardSandboxProfile *
steward_sandbox_profile_new_unconfined (void)
{
  StewardSandboxProfile *self = g_object_new (STEWARD_TYPE_SANDBOX_PROFILE, NULL);

  self->full_access = TRUE;
  self->network = TRUE;
  self->display = TRUE;
  self->writable = g_new0 (char *, 1);
  self->readable = g_new0 (char *, 1);

  return self;
}

gboolean
steward_sandbox_profile_get_full_access (StewardSandboxProfile *self)
{
  g_return_val_if_fail (STEWARD_IS_SANDBOX_PROFILE (self), FALSE);

  return self->full_access;
}

gboolean
steward_sandbox_profile_get_network (StewardSandboxProfile *self)
{
  g_return_val_if_fail (STEWARD_IS_SANDBOX_PROFILE (self), FALSE);

  return self->network;
}

gboolean
steward_sandbox_profile_network_is_default (StewardSandboxProfile *self)
{
  g_return_val_if_fail (STEWARD_IS_SANDBOX_PROFILE (self), FALSE);

  return self->network_is_default;
}

gboolean
steward_sandbox_profile_get_display (StewardSandboxProfile *self)
{
  g_return_val_if_fail (STEWARD_IS_SANDBOX_PROFILE (self), FALSE);

  return self->display;
}

const char * const *
steward_sandbox_profile_get_writable (StewardSandboxProfile *self)
{
  g_return_val_if_fail (STEWARD_IS_SANDBOX_PROFILE (self), NULL);

  return (const char * const *) self->writable;
}

const char * const *
steward_sandbox_profile_get_readable (StewardSandboxProfile *self)
{
  g_return_val_if_fail (STEWARD_IS_SANDBOX_PROFILE (self), NULL);

  return (const char * const *) self->readable;
}

/**
 * steward_sandbox_profile_get_state_dir:
 *
 * Returns: (nullable): the server's own folder, NULL without a sandbox
 */
const char *
steward_sandbox_profile_get_state_dir (StewardSandboxProfile *self)
{
  g_return_val_if_fail (STEWARD_IS_SANDBOX_PROFILE (self), NULL);

  return self->state_dir;
}

static char *
join_paths (const char * const *paths)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; paths[i] != NULL; i++)
    {
      if (i > 0)
        /* Translators: separates folders in a list, such as "/srv/a, /srv/b". */
        g_string_append (text, _(", "));
      g_string_append (text, paths[i]);
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}

static char **
describe (StewardSandboxProfile *self,
          gboolean               with_network)
{
  g_autoptr(GStrvBuilder) lines = g_strv_builder_new ();

  if (self->full_access)
    {
      g_strv_builder_add (lines, _("Full access (no sandbox): the server can do anything you "
                                   "can on this computer — read and change all your files, "
                                   "use the network and your session, and read the secrets "
                                   "Steward keeps in your keyring."));
      return g_strv_builder_end (lines);
    }

  g_strv_builder_add (lines, _("Runs in a sandbox: it sees the system’s programs read-only, a "
                               "private /tmp and none of your home folder, and cannot reach "
                               "your session bus, keyring, other programs’ processes or "
                               "Steward’s settings."));

  if (self->state_dir != NULL)
    {
      g_autofree char *line = g_strdup_printf (
        /* Translators: %s is a folder, such as ~/.local/state/steward/servers/files. */
        _("Writes in its own folder, which is its home in the sandbox: %s"), self->state_dir);

      g_strv_builder_add (lines, line);
    }

  if (self->writable[0] != NULL)
    {
      g_autofree char *paths = join_paths ((const char * const *) self->writable);
      /* Translators: %s is a list of folders. */
      g_autofree char *line = g_strdup_printf (_("Reads and writes the folders you share with "
                                                 "it on the Roots page: %s"), paths);

      g_strv_builder_add (lines, line);
    }
  else
    g_strv_builder_add (lines, _("Reads and writes the folders you share with it on the Roots "
                                 "page, and no others."));

  if (self->readable[0] != NULL)
    {
      g_autofree char *paths = join_paths ((const char * const *) self->readable);
      /* Translators: %s is a list of files and folders. */
      g_autofree char *line = g_strdup_printf (_("Reads, without changing: %s"), paths);

      g_strv_builder_add (lines, line);
    }

  if (!with_network)
    ;
  else if (self->network && self->network_is_default)
    {
      g_autofree char *base = g_path_get_basename (self->command);
      g_autofree char *line = g_strdup_printf (
        /* Translators: %s is a command, such as npx. */
        _("Network: allowed, because `%s` downloads the server when it starts. With the "
          "network, the server can also reach services on this computer that listen on it."),
        base);

      g_strv_builder_add (lines, line);
    }
  else if (self->network)
    g_strv_builder_add (lines, _("Network: allowed. With the network, the server can also "
                                 "reach services on this computer that listen on it."));
  else
    g_strv_builder_add (lines, _("Network: off."));

  if (self->display)
    g_strv_builder_add (lines, _("Display: may open windows on your screen, and so see and "
                                 "type into other windows."));
  else
    g_strv_builder_add (lines, _("Display: off, it cannot open windows."));

  return g_strv_builder_end (lines);
}

/**
 * steward_sandbox_profile_dup_descriptions:
 *
 * Returns: (transfer full): the permissions as sentences a person reads,
 *   the same wherever they are shown
 */
char **
steward_sandbox_profile_dup_descriptions (StewardSandboxProfile *self)
{
  g_return_val_if_fail (STEWARD_IS_SANDBOX_PROFILE (self), NULL);

  return describe (self, TRUE);
}

/**
 * steward_sandbox_profile_dup_descriptions_but_network:
 *
 * Returns: (transfer full): the same sentences without the network's, for
 *   a view that shows the network as a switch the person may turn
 */
char **
steward_sandbox_profile_dup_descriptions_but_network (StewardSandboxProfile *self)
{
  g_return_val_if_fail (STEWARD_IS_SANDBOX_PROFILE (self), NULL);

  return describe (self, FALSE);
}

/**
 * steward_sandbox_profile_dup_network_reason:
 *
 * Returns: (transfer full): why the network is on or off by default for
 *   this server: package runners get it, as they download the server
 */
char *
steward_sandbox_profile_dup_network_reason (StewardSandboxProfile *self)
{
  g_autofree char *base = NULL;

  g_return_val_if_fail (STEWARD_IS_SANDBOX_PROFILE (self), NULL);

  if (steward_sandbox_default_network (self->command))
    {
      base = g_path_get_basename (self->command);
      return g_strdup_printf (
        /* Translators: %s is a command, such as npx. */
        _("On by default, because `%s` downloads the server when it starts. With the "
          "network, the server can also reach services on this computer that listen on it."),
        base);
    }

  return g_strdup (_("Off by default: only package runners such as npx and uvx, which "
                     "download the server when it starts, get the network without asking."));
}

/**
 * steward_sandbox_profile_add_to_fingerprint:
 * @config: a server's entry
 * @builder: a builder inside the fingerprint's array
 *
 * Adds an object with the permissions @config sets, or nothing when it
 * sets none: "network" and "runOnHost" as before this profile existed, so
 * that entries with only those keep their fingerprints, then "display" and
 * "readable" when set.
 */
void
steward_sandbox_profile_add_to_fingerprint (StewardServerConfig *config,
                                            JsonBuilder         *builder)
{
  const char * const *readable;
  gboolean display;

  g_return_if_fail (STEWARD_IS_SERVER_CONFIG (config));
  g_return_if_fail (JSON_IS_BUILDER (builder));

  readable = steward_server_config_get_readable (config);
  display = steward_server_config_get_display (config);

  if (!steward_server_config_has_network (config) &&
      !steward_server_config_get_run_on_host (config) && !display && readable[0] == NULL)
    return;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "network");
  json_builder_add_boolean_value (builder, steward_server_config_get_network (config));
  json_builder_set_member_name (builder, "runOnHost");
  json_builder_add_boolean_value (builder, steward_server_config_get_run_on_host (config));
  if (display)
    {
      json_builder_set_member_name (builder, "display");
      json_builder_add_boolean_value (builder, TRUE);
    }
  if (readable[0] != NULL)
    {
      json_builder_set_member_name (builder, "readable");
      json_builder_begin_array (builder);
      for (guint i = 0; readable[i] != NULL; i++)
        json_builder_add_string_value (builder, readable[i]);
      json_builder_end_array (builder);
    }
  json_builder_end_object (builder);
}

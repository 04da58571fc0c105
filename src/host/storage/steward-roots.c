/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-roots"

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "mcp-json.h"
#include "steward-file-store.h"

#include "steward-roots.h"

/* roots.json lists a few folders; anything far larger is a mistake. */
#define MAX_FILE_SIZE (1024 * 1024)

/* Longer paths cannot be opened anyway. */
#define MAX_PATH_BYTES PATH_MAX

struct _StewardRoot
{
  GObject   parent_instance;

  char     *path;
  char     *uri;
  char     *name;
  gboolean  all_servers;
  GStrv     servers;   /* sorted, never NULL */
};

enum {
  ROOT_PROP_0,
  ROOT_PROP_PATH,
  ROOT_PROP_URI,
  ROOT_PROP_NAME,
  ROOT_PROP_ALL_SERVERS,
  ROOT_PROP_SERVERS,
  ROOT_N_PROPS
};

static GParamSpec *root_properties[ROOT_N_PROPS];

G_DEFINE_FINAL_TYPE (StewardRoot, steward_root, G_TYPE_OBJECT)

struct _StewardRoots
{
  StewardFileBacked parent_instance;

  GFile            *file;   /* roots.json, or NULL; the base's */
  GPtrArray        *roots;
  GCancellable     *cancellable;

  /* One write at a time, in order: a change during a write asks for one
   * more write of the newest state once it is done. The base's. */
  StewardFileStore *store;
};

enum {
  CHANGED,
  SAVE_FAILED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void steward_roots_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StewardRoots, steward_roots, STEWARD_TYPE_FILE_BACKED,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      steward_roots_list_model_init))

G_DEFINE_QUARK (steward-roots-error-quark, steward_roots_error)

/* StewardRoot ------------------------------------------------------------ */

static void
steward_root_finalize (GObject *object)
{
  StewardRoot *self = STEWARD_ROOT (object);

  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->uri, g_free);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->servers, g_strfreev);

  G_OBJECT_CLASS (steward_root_parent_class)->finalize (object);
}

static void
steward_root_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  StewardRoot *self = STEWARD_ROOT (object);

  switch (prop_id)
    {
    case ROOT_PROP_PATH:
      g_value_set_string (value, self->path);
      break;

    case ROOT_PROP_URI:
      g_value_set_string (value, self->uri);
      break;

    case ROOT_PROP_NAME:
      g_value_set_string (value, self->name);
      break;

    case ROOT_PROP_ALL_SERVERS:
      g_value_set_boolean (value, self->all_servers);
      break;

    case ROOT_PROP_SERVERS:
      g_value_set_boxed (value, self->servers);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_root_class_init (StewardRootClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = steward_root_finalize;
  object_class->get_property = steward_root_get_property;

  /* Read-only: a root changes only through its StewardRoots, which saves
   * the change and tells the servers. */
  root_properties[ROOT_PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, NULL, flags);
  root_properties[ROOT_PROP_URI] =
    g_param_spec_string ("uri", NULL, NULL, NULL, flags);
  root_properties[ROOT_PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL, flags);
  root_properties[ROOT_PROP_ALL_SERVERS] =
    g_param_spec_boolean ("all-servers", NULL, NULL, TRUE, flags);
  root_properties[ROOT_PROP_SERVERS] =
    g_param_spec_boxed ("servers", NULL, NULL, G_TYPE_STRV, flags);

  g_object_class_install_properties (object_class, ROOT_N_PROPS, root_properties);
}

static void
steward_root_init (StewardRoot *self)
{
  self->all_servers = TRUE;
  self->servers = g_new0 (char *, 1);
}

static StewardRoot *
steward_root_new (const char *canonical_path)
{
  StewardRoot *self = g_object_new (STEWARD_TYPE_ROOT, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (canonical_path);

  self->path = g_strdup (canonical_path);
  self->uri = g_file_get_uri (file);
  self->name = g_filename_display_basename (canonical_path);

  return self;
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* Takes @servers, an array of strings. */
static void
root_set_servers (StewardRoot *self,
                  GPtrArray   *servers)
{
  g_ptr_array_sort (servers, compare_strings);
  g_ptr_array_add (servers, NULL);

  g_strfreev (self->servers);
  self->servers = (GStrv) g_ptr_array_steal (servers, NULL);
  g_ptr_array_unref (servers);
}

const char *
steward_root_get_uri (StewardRoot *self)
{
  g_return_val_if_fail (STEWARD_IS_ROOT (self), NULL);

  return self->uri;
}

const char *
steward_root_get_path (StewardRoot *self)
{
  g_return_val_if_fail (STEWARD_IS_ROOT (self), NULL);

  return self->path;
}

const char *
steward_root_get_name (StewardRoot *self)
{
  g_return_val_if_fail (STEWARD_IS_ROOT (self), NULL);

  return self->name;
}

gboolean
steward_root_get_all_servers (StewardRoot *self)
{
  g_return_val_if_fail (STEWARD_IS_ROOT (self), FALSE);

  return self->all_servers;
}

/**
 * steward_root_is_visible_to:
 * @server: (nullable): a server's name
 *
 * Returns: whether @server sees the root; a %NULL server sees only the
 *   roots that every server sees
 */
gboolean
steward_root_is_visible_to (StewardRoot *self,
                            const char  *server)
{
  g_return_val_if_fail (STEWARD_IS_ROOT (self), FALSE);

  if (self->all_servers)
    return TRUE;

  return server != NULL && g_strv_contains ((const char * const *) self->servers, server);
}

const char * const *
steward_root_get_servers (StewardRoot *self)
{
  g_return_val_if_fail (STEWARD_IS_ROOT (self), NULL);

  return (const char * const *) self->servers;
}

/* Paths ------------------------------------------------------------------ */

static gboolean
path_is_below (const char *ancestor,
               const char *path)
{
  gsize n = strlen (ancestor);

  if (strcmp (ancestor, "/") == 0)
    return path[0] == '/' && path[1] != '\0';

  return strncmp (path, ancestor, n) == 0 && path[n] == '/' && path[n + 1] != '\0';
}

char *
steward_roots_canonicalize_len (const char  *path,
                                gssize       length,
                                const char  *cwd,
                                GError     **error)
{
  g_autofree char *current = NULL;
  g_autofree char *real = NULL;
  g_autoptr(GString) joined = NULL;
  g_autoptr(GString) result = NULL;
  const char *p;
  const char *end;

  if (path == NULL)
    length = 0;
  else if (length < 0)
    length = strlen (path);

  if (length == 0)
    {
      g_set_error_literal (error, STEWARD_ROOTS_ERROR, STEWARD_ROOTS_ERROR_INVALID,
                           _("The folder’s path is empty."));
      return NULL;
    }

  if (memchr (path, '\0', length) != NULL)
    {
      g_set_error_literal (error, STEWARD_ROOTS_ERROR, STEWARD_ROOTS_ERROR_INVALID,
                           _("The folder’s path holds a NUL byte, which no file name can hold."));
      return NULL;
    }

  joined = g_string_sized_new (length + 1);

  if (path[0] != '/')
    {
      if (cwd == NULL)
        cwd = current = g_get_current_dir ();

      if (cwd[0] != '/')
        {
          g_autofree char *shown = g_filename_display_name (cwd);

          g_set_error (error, STEWARD_ROOTS_ERROR, STEWARD_ROOTS_ERROR_INVALID,
                       _("A relative path needs an absolute folder to start from, "
                         "and “%s” is not one."), shown);
          return NULL;
        }

      g_string_append (joined, cwd);
      g_string_append_c (joined, '/');
    }
  g_string_append_len (joined, path, length);

  /* "." and ".." lexically, before symlinks are followed: the person chose
   * the folder by the path they saw. */
  result = g_string_sized_new (joined->len + 1);
  p = joined->str;
  end = p + joined->len;
  while (p < end)
    {
      const char *segment;
      gsize n;

      while (p < end && *p == '/')
        p++;
      segment = p;
      while (p < end && *p != '/')
        p++;
      n = p - segment;

      if (n == 0 || (n == 1 && segment[0] == '.'))
        continue;

      if (n == 2 && segment[0] == '.' && segment[1] == '.')
        {
          const char *slash = strrchr (result->str, '/');

          if (slash != NULL)
            g_string_truncate (result, slash - result->str);
          continue;
        }

      g_string_append_c (result, '/');
      g_string_append_len (result, segment, n);
    }

  if (result->len == 0)
    g_string_append_c (result, '/');

  if (result->len >= MAX_PATH_BYTES)
    {
      g_set_error (error, STEWARD_ROOTS_ERROR, STEWARD_ROOTS_ERROR_INVALID,
                   _("The folder’s path is longer than the %d bytes this system allows."),
                   MAX_PATH_BYTES - 1);
      return NULL;
    }

  real = realpath (result->str, NULL);
  if (real != NULL && real[0] == '/')
    return g_steal_pointer (&real);

  return g_string_free (g_steal_pointer (&result), FALSE);
}

char *
steward_roots_canonicalize (const char  *path,
                            const char  *cwd,
                            GError     **error)
{
  return steward_roots_canonicalize_len (path, -1, cwd, error);
}

/* Folders in the home folder that hold keys, passwords or tokens. */
static const struct {
  const char *folder;
  const char *holds;
} secret_folders[] = {
  /* Translators: these complete "~/.ssh holds …". */
  { ".ssh", N_("your SSH keys") },
  { ".gnupg", N_("your GnuPG keys") },
  { ".config", N_("the settings of your apps, many with passwords and access tokens") },
  { ".local/share/keyrings", N_("your keyring of saved passwords") },
  { ".aws", N_("your Amazon Web Services credentials") },
  { ".azure", N_("your Azure credentials") },
  { ".kube", N_("your Kubernetes credentials") },
  { ".docker", N_("your container registry logins") },
  { ".password-store", N_("your password store") },
  { ".mozilla", N_("your Firefox profiles, with saved passwords and cookies") },
  { ".thunderbird", N_("your mail and its passwords") },
  { ".pki", N_("your certificates and their private keys") },
  { ".var/app", N_("the data of your Flatpak apps, with their passwords and cookies") },
};

/* System folders; @inside: whatever is in them too. /var and /usr hold
 * ordinary folders (/var/home is the home of some systems), so only the
 * folders themselves count. */
static const struct {
  const char *folder;
  gboolean    inside;
  const char *holds;
} system_folders[] = {
  /* Translators: these complete "“/etc” holds …". */
  { "/etc", TRUE, N_("the system’s configuration, including some passwords") },
  { "/root", TRUE, N_("the administrator’s files") },
  { "/var", FALSE, N_("the system’s data, logs and mail") },
  { "/usr", FALSE, N_("every program installed") },
  { "/boot", TRUE, N_("the system’s kernel and boot loader") },
  { "/proc", TRUE, N_("every running program, with the keys in their environments") },
  { "/sys", TRUE, N_("the kernel’s and the hardware’s settings") },
  { "/dev", TRUE, N_("the computer’s devices, its disks among them") },
  { "/run", TRUE, N_("the sockets of running services, your keyring’s among them") },
};

/* "~/…" for a path in @home, else the path, for display. */
static char *
display_path (const char *path,
              const char *home)
{
  g_autofree char *shown = g_filename_display_name (path);

  if (strcmp (path, home) == 0)
    return g_strdup ("~");
  if (path_is_below (home, path) && strcmp (home, "/") != 0)
    {
      g_autofree char *rest = g_filename_display_name (path + strlen (home) + 1);

      return g_strconcat ("~/", rest, NULL);
    }

  return g_steal_pointer (&shown);
}

static gboolean
check_home (const char  *path,
            const char  *home,
            char       **reason)
{
  if (strcmp (path, home) == 0)
    {
      *reason = g_strdup (_("Your home folder holds everything you own, including keys in "
                            "~/.ssh, passwords in your keyring and the settings of every app."));
      return TRUE;
    }

  if (path_is_below (path, home))
    {
      g_autofree char *shown = g_filename_display_name (path);

      *reason = g_strdup_printf (_("“%s” holds your home folder, and with it everything you "
                                   "own, including keys in ~/.ssh and passwords in your "
                                   "keyring."), shown);
      return TRUE;
    }

  for (gsize i = 0; i < G_N_ELEMENTS (secret_folders); i++)
    {
      g_autofree char *secret = g_build_filename (home, secret_folders[i].folder, NULL);
      g_autofree char *secret_shown = NULL;
      g_autofree char *shown = NULL;
      const char *holds = _(secret_folders[i].holds);

      if (strcmp (path, secret) != 0 && !path_is_below (secret, path) &&
          !path_is_below (path, secret))
        continue;

      secret_shown = display_path (secret, home);
      shown = display_path (path, home);

      if (strcmp (path, secret) == 0)
        /* Translators: "~/.ssh holds your SSH keys. …" */
        *reason = g_strdup_printf (_("%s holds %s. A server that can read it could act "
                                     "as you."), secret_shown, holds);
      else if (path_is_below (secret, path))
        /* Translators: "“~/.ssh/old” is inside ~/.ssh, which holds your SSH keys. …" */
        *reason = g_strdup_printf (_("“%s” is inside %s, which holds %s. A server that can "
                                     "read it could act as you."), shown, secret_shown, holds);
      else
        /* Translators: "“~/.local” contains ~/.local/share/keyrings, which holds …" */
        *reason = g_strdup_printf (_("“%s” contains %s, which holds %s. A server that can "
                                     "read it could act as you."), shown, secret_shown, holds);
      return TRUE;
    }

  return FALSE;
}

gboolean
steward_roots_is_dangerous (const char  *canonical_path,
                            char       **reason)
{
  g_autofree char *local_reason = NULL;
  g_autofree char *real_home = NULL;
  const char *home;
  gboolean in_home = FALSE;

  g_return_val_if_fail (canonical_path != NULL, FALSE);

  if (reason != NULL)
    *reason = NULL;

  if (strcmp (canonical_path, "/") == 0)
    {
      if (reason != NULL)
        *reason = g_strdup (_("“/” is the whole computer: every file on it, including your "
                              "keys, your passwords and the system’s own files."));
      return TRUE;
    }

  /* Roots are canonical, so the home folder is compared in both forms:
   * as the environment names it and with its symlinks resolved. */
  home = g_get_home_dir ();
  if (home != NULL && home[0] == '/')
    real_home = steward_roots_canonicalize (home, "/", NULL);

  for (guint i = 0; i < 2; i++)
    {
      const char *h = i == 0 ? home : real_home;

      if (h == NULL || h[0] != '/' || (i == 1 && g_strcmp0 (home, real_home) == 0))
        continue;

      if (check_home (canonical_path, h, &local_reason))
        {
          if (reason != NULL)
            *reason = g_steal_pointer (&local_reason);
          return TRUE;
        }

      in_home = in_home || path_is_below (h, canonical_path);
    }

  /* Inside the home folder, only the secret folders count: a home in /var
   * or /root is the person's own. */
  if (in_home)
    return FALSE;

  for (gsize i = 0; i < G_N_ELEMENTS (system_folders); i++)
    {
      const char *folder = system_folders[i].folder;
      g_autofree char *shown = NULL;

      if (strcmp (canonical_path, folder) != 0 &&
          !(system_folders[i].inside && path_is_below (folder, canonical_path)))
        continue;

      if (reason != NULL)
        {
          shown = g_filename_display_name (canonical_path);
          if (strcmp (canonical_path, folder) == 0)
            /* Translators: "“/etc” holds the system’s configuration, …" */
            *reason = g_strdup_printf (_("“%s” holds %s."), shown, _(system_folders[i].holds));
          else
            *reason = g_strdup_printf (_("“%s” is inside %s, which holds %s."),
                                       shown, folder, _(system_folders[i].holds));
        }
      return TRUE;
    }

  return FALSE;
}

/* StewardRoots: the list ------------------------------------------------- */

static GType
steward_roots_get_item_type (GListModel *model)
{
  return STEWARD_TYPE_ROOT;
}

static guint
steward_roots_get_n_items (GListModel *model)
{
  return STEWARD_ROOTS (model)->roots->len;
}

static gpointer
steward_roots_get_item (GListModel *model,
                        guint       position)
{
  StewardRoots *self = STEWARD_ROOTS (model);

  if (position >= self->roots->len)
    return NULL;

  return g_object_ref (g_ptr_array_index (self->roots, position));
}

static void
steward_roots_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = steward_roots_get_item_type;
  iface->get_n_items = steward_roots_get_n_items;
  iface->get_item = steward_roots_get_item;
}

/* Tells the servers who see @root that their view changed. */
static void
emit_view_changed (StewardRoots *self,
                   StewardRoot  *root)
{
  if (root->all_servers)
    {
      g_signal_emit (self, signals[CHANGED], 0, NULL);
      return;
    }

  for (guint i = 0; root->servers[i] != NULL; i++)
    g_signal_emit (self, signals[CHANGED], 0, root->servers[i]);
}

static char *
dup_file_label (StewardRoots *self)
{
  return self->file != NULL ? g_file_get_parse_name (self->file) : g_strdup ("roots.json");
}

/* Saving ----------------------------------------------------------------- */

/* A tree of its own, which the store turns into text on its worker. */
static JsonNode *
serialize (StewardRoots *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "roots");
  json_builder_begin_array (builder);

  for (guint i = 0; i < self->roots->len; i++)
    {
      StewardRoot *root = g_ptr_array_index (self->roots, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "path");
      json_builder_add_string_value (builder, root->path);
      json_builder_set_member_name (builder, "servers");
      if (root->all_servers)
        {
          json_builder_add_null_value (builder);
        }
      else
        {
          json_builder_begin_array (builder);
          for (guint j = 0; root->servers[j] != NULL; j++)
            json_builder_add_string_value (builder, root->servers[j]);
          json_builder_end_array (builder);
        }
      json_builder_end_object (builder);
    }

  json_builder_end_array (builder);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

/* The store's error, worded for the shared folders. */
static GError *
save_error_new (StewardRoots *self,
                const GError *error)
{
  g_autofree char *label = g_file_get_parse_name (self->file);

  return g_error_new (STEWARD_ROOTS_ERROR, STEWARD_ROOTS_ERROR_SAVE,
                      _("%s: the shared folders could not be saved: %s"),
                      label, error->message);
}

static void
write_failed_cb (StewardRoots *self,
                 const GError *error)
{
  g_autoptr(GError) reported = save_error_new (self, error);

  g_signal_emit (self, signals[SAVE_FAILED], 0, reported);
}

static void
schedule_save (StewardRoots *self)
{
  g_autoptr(JsonNode) root = NULL;

  if (self->store == NULL)
    return;

  root = serialize (self);
  steward_file_store_save_json (self->store, root);
}

/* Loading ---------------------------------------------------------------- */

static GPtrArray *
parse_roots (StewardRoots  *self,
             JsonObject    *top,
             GError       **error)
{
  g_autoptr(GPtrArray) roots = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree char *label = dup_file_label (self);
  JsonArray *array;

  array = mcp_json_get_array (top, "roots");
  if (array == NULL)
    {
      g_set_error (error, STEWARD_ROOTS_ERROR, STEWARD_ROOTS_ERROR_LOAD,
                   _("%s: the file must hold an object with a \"roots\" array"), label);
      return NULL;
    }

  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      g_autoptr(StewardRoot) root = NULL;
      g_autoptr(GError) path_error = NULL;
      g_autofree char *canonical = NULL;
      JsonObject *object;
      JsonNode *path_node;
      JsonNode *servers_node;
      const char *path;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        {
          g_set_error (error, STEWARD_ROOTS_ERROR, STEWARD_ROOTS_ERROR_LOAD,
                       _("%s: root %u must be an object"), label, i + 1);
          return NULL;
        }

      object = json_node_get_object (element);
      path_node = json_object_get_member (object, "path");
      if (path_node == NULL || !JSON_NODE_HOLDS_VALUE (path_node) ||
          json_node_get_value_type (path_node) != G_TYPE_STRING)
        {
          g_set_error (error, STEWARD_ROOTS_ERROR, STEWARD_ROOTS_ERROR_LOAD,
                       _("%s: root %u needs a \"path\" string"), label, i + 1);
          return NULL;
        }

      path = json_node_get_string (path_node);
      if (path[0] != '/')
        {
          g_set_error (error, STEWARD_ROOTS_ERROR, STEWARD_ROOTS_ERROR_LOAD,
                       _("%s: root %u: “%s” is not an absolute path"), label, i + 1, path);
          return NULL;
        }

      /* The file may have been edited by hand, or a folder replaced by a
       * symlink since: bring the path to its canonical form again. */
      canonical = steward_roots_canonicalize (path, "/", &path_error);
      if (canonical == NULL || !g_utf8_validate (canonical, -1, NULL))
        {
          g_set_error (error, STEWARD_ROOTS_ERROR, STEWARD_ROOTS_ERROR_LOAD,
                       _("%s: root %u: “%s” cannot be a shared folder: %s"), label, i + 1,
                       path, path_error != NULL ? path_error->message : _("not UTF-8"));
          return NULL;
        }

      /* The same folder twice is harmless; keep the first. */
      for (guint j = 0; j < roots->len; j++)
        {
          if (strcmp (((StewardRoot *) g_ptr_array_index (roots, j))->path, canonical) == 0)
            g_clear_pointer (&canonical, g_free);
        }
      if (canonical == NULL)
        continue;

      root = steward_root_new (canonical);

      servers_node = json_object_get_member (object, "servers");
      if (servers_node != NULL && !JSON_NODE_HOLDS_NULL (servers_node))
        {
          g_autoptr(GPtrArray) servers = g_ptr_array_new_with_free_func (g_free);
          JsonArray *names;

          if (!JSON_NODE_HOLDS_ARRAY (servers_node))
            {
              g_set_error (error, STEWARD_ROOTS_ERROR, STEWARD_ROOTS_ERROR_LOAD,
                           _("%s: root %u: \"servers\" must be null or an array of names"),
                           label, i + 1);
              return NULL;
            }

          names = json_node_get_array (servers_node);
          for (guint j = 0; j < json_array_get_length (names); j++)
            {
              JsonNode *name = json_array_get_element (names, j);
              const char *server;

              if (!JSON_NODE_HOLDS_VALUE (name) || json_node_get_value_type (name) != G_TYPE_STRING)
                {
                  g_set_error (error, STEWARD_ROOTS_ERROR, STEWARD_ROOTS_ERROR_LOAD,
                               _("%s: root %u: \"servers\" must hold only names"),
                               label, i + 1);
                  return NULL;
                }

              server = json_node_get_string (name);
              if (!g_ptr_array_find_with_equal_func (servers, server, g_str_equal, NULL))
                g_ptr_array_add (servers, g_strdup (server));
            }

          root->all_servers = FALSE;
          root_set_servers (root, g_steal_pointer (&servers));
        }

      g_ptr_array_add (roots, g_steal_pointer (&root));
    }

  return g_steal_pointer (&roots);
}

static void
apply_roots (StewardRoots *self,
             GPtrArray    *roots)
{
  g_autoptr(GPtrArray) old = g_steal_pointer (&self->roots);

  self->roots = g_ptr_array_ref (roots);

  if (old->len == 0 && roots->len == 0)
    return;

  g_list_model_items_changed (G_LIST_MODEL (self), 0, old->len, roots->len);
  g_signal_emit (self, signals[CHANGED], 0, NULL);
}

static gboolean
load_object (StewardRoots  *self,
             JsonObject    *top,
             GError       **error)
{
  g_autoptr(GPtrArray) roots = parse_roots (self, top, error);

  if (roots == NULL)
    return FALSE;

  apply_roots (self, roots);
  return TRUE;
}

/* A missing file is no roots yet. A file too large, not JSON or not an
 * object is damage, and the store's error names the file and the cause. */
static gboolean
handle_read_error (StewardRoots  *self,
                   GError        *read_error,
                   GError       **error)
{
  g_autofree char *label = dup_file_label (self);

  if (g_error_matches (read_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    return TRUE;

  if (g_error_matches (read_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_propagate_error (error, g_error_copy (read_error));
  else if (read_error->domain == STEWARD_FILE_STORE_ERROR)
    g_set_error_literal (error, STEWARD_ROOTS_ERROR, STEWARD_ROOTS_ERROR_LOAD,
                         read_error->message);
  else
    g_set_error (error, STEWARD_ROOTS_ERROR, STEWARD_ROOTS_ERROR_LOAD,
                 _("%s: the shared folders could not be read: %s"), label, read_error->message);
  return FALSE;
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StewardRoots *self = g_task_get_source_object (task);
  g_autoptr(GError) read_error = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) top = NULL;

  top = steward_file_store_load_finish (STEWARD_FILE_STORE (object), result, &read_error);
  if (top == NULL)
    {
      if (handle_read_error (self, read_error, &error))
        g_task_return_boolean (task, TRUE);
      else
        g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (g_task_return_error_if_cancelled (task))
    return;

  if (load_object (self, top, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, g_steal_pointer (&error));
}

/* GObject ---------------------------------------------------------------- */

static void
steward_roots_dispose (GObject *object)
{
  StewardRoots *self = STEWARD_ROOTS (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->file = NULL;
  if (self->roots != NULL)
    g_ptr_array_set_size (self->roots, 0);

  G_OBJECT_CLASS (steward_roots_parent_class)->dispose (object);
}

static void
steward_roots_finalize (GObject *object)
{
  StewardRoots *self = STEWARD_ROOTS (object);

  g_clear_pointer (&self->roots, g_ptr_array_unref);

  G_OBJECT_CLASS (steward_roots_parent_class)->finalize (object);
}

static void
steward_roots_constructed (GObject *object)
{
  StewardRoots *self = STEWARD_ROOTS (object);

  G_OBJECT_CLASS (steward_roots_parent_class)->constructed (object);

  self->file = steward_file_backed_get_file (STEWARD_FILE_BACKED (self));
  self->store = steward_file_backed_get_store (STEWARD_FILE_BACKED (self));
  if (self->store != NULL)
    g_signal_connect_object (self->store, "write-failed", G_CALLBACK (write_failed_cb),
                             self, G_CONNECT_SWAPPED);
}

static void
steward_roots_class_init (StewardRootsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  StewardFileBackedClass *backed_class = STEWARD_FILE_BACKED_CLASS (klass);

  object_class->constructed = steward_roots_constructed;
  object_class->dispose = steward_roots_dispose;
  object_class->finalize = steward_roots_finalize;

  backed_class->max_size = MAX_FILE_SIZE;
  backed_class->store_flags = STEWARD_FILE_STORE_PRIVATE | STEWARD_FILE_STORE_PRETTY;

  /**
   * StewardRoots::changed:
   * @server: (nullable): the server whose view changed, or %NULL for all
   */
  signals[CHANGED] =
    g_signal_new ("changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * StewardRoots::save-failed:
   * @error: why roots.json could not be written
   */
  signals[SAVE_FAILED] =
    g_signal_new ("save-failed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_ERROR);
}

static void
steward_roots_init (StewardRoots *self)
{
  self->roots = g_ptr_array_new_with_free_func (g_object_unref);
  self->cancellable = g_cancellable_new ();
}

/* Public API ------------------------------------------------------------- */

StewardRoots *
steward_roots_new (GFile *file)
{
  g_return_val_if_fail (file == NULL || G_IS_FILE (file), NULL);

  return g_object_new (STEWARD_TYPE_ROOTS, "file", file, NULL);
}

gboolean
steward_roots_load (StewardRoots  *self,
                    GError       **error)
{
  g_autoptr(GError) read_error = NULL;
  g_autoptr(JsonObject) top = NULL;

  g_return_val_if_fail (STEWARD_IS_ROOTS (self), FALSE);

  if (self->file == NULL)
    return TRUE;

  top = steward_file_store_load (self->store, NULL, &read_error);
  if (top == NULL)
    return handle_read_error (self, read_error, error);

  return load_object (self, top, error);
}

void
steward_roots_load_async (StewardRoots        *self,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (STEWARD_IS_ROOTS (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_roots_load_async);

  if (self->file == NULL)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  steward_file_store_load_async (self->store, cancellable, load_cb, g_steal_pointer (&task));
}

gboolean
steward_roots_load_finish (StewardRoots  *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (STEWARD_IS_ROOTS (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == steward_roots_load_async,
                        FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

void
steward_roots_save_async (StewardRoots        *self,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(JsonNode) root = NULL;

  g_return_if_fail (STEWARD_IS_ROOTS (self));

  root = serialize (self);
  steward_file_backed_save_async (STEWARD_FILE_BACKED (self), root, cancellable,
                                  callback, user_data);
}

gboolean
steward_roots_save_finish (StewardRoots  *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (STEWARD_IS_ROOTS (self), FALSE);

  if (steward_file_backed_save_finish (STEWARD_FILE_BACKED (self), result, &local_error))
    return TRUE;

  g_propagate_error (error, save_error_new (self, local_error));
  return FALSE;
}

StewardRoot *
steward_roots_lookup (StewardRoots *self,
                      const char   *canonical_path)
{
  g_return_val_if_fail (STEWARD_IS_ROOTS (self), NULL);
  g_return_val_if_fail (canonical_path != NULL, NULL);

  for (guint i = 0; i < self->roots->len; i++)
    {
      StewardRoot *root = g_ptr_array_index (self->roots, i);

      if (strcmp (root->path, canonical_path) == 0)
        return root;
    }

  return NULL;
}

/**
 * steward_roots_add:
 * @folder: a folder the person chose
 *
 * Checks the folder on the calling thread: a stat of a local path, which
 * the person just picked in a file chooser.
 *
 * Returns: (transfer none): the new root, or %NULL with an error
 */
StewardRoot *
steward_roots_add (StewardRoots  *self,
                   GFile         *folder,
                   GError       **error)
{
  g_autofree char *path = NULL;
  g_autofree char *canonical = NULL;
  g_autofree char *shown = NULL;
  g_autoptr(StewardRoot) root = NULL;
  GStatBuf buf;

  g_return_val_if_fail (STEWARD_IS_ROOTS (self), NULL);
  g_return_val_if_fail (G_IS_FILE (folder), NULL);

  path = g_file_get_path (folder);
  if (path == NULL)
    {
      g_autofree char *name = g_file_get_parse_name (folder);

      g_set_error (error, STEWARD_ROOTS_ERROR, STEWARD_ROOTS_ERROR_NOT_LOCAL,
                   _("“%s” is not on this computer; only local folders can be shared "
                     "with servers."), name);
      return NULL;
    }

  canonical = steward_roots_canonicalize (path, NULL, error);
  if (canonical == NULL)
    return NULL;

  shown = g_filename_display_name (canonical);

  if (!g_utf8_validate (canonical, -1, NULL))
    {
      g_set_error (error, STEWARD_ROOTS_ERROR, STEWARD_ROOTS_ERROR_INVALID,
                   _("The path of “%s” is not valid UTF-8, so it cannot be saved or sent "
                     "to servers; rename the folder to share it."), shown);
      return NULL;
    }

  if (g_stat (canonical, &buf) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, STEWARD_ROOTS_ERROR, STEWARD_ROOTS_ERROR_NOT_A_FOLDER,
                   _("“%s” cannot be shared: %s"), shown, g_strerror (saved_errno));
      return NULL;
    }

  if (!S_ISDIR (buf.st_mode))
    {
      g_set_error (error, STEWARD_ROOTS_ERROR, STEWARD_ROOTS_ERROR_NOT_A_FOLDER,
                   _("“%s” is a file, not a folder; share the folder that holds it."), shown);
      return NULL;
    }

  if (steward_roots_lookup (self, canonical) != NULL)
    {
      g_set_error (error, STEWARD_ROOTS_ERROR, STEWARD_ROOTS_ERROR_EXISTS,
                   _("“%s” is already shared."), shown);
      return NULL;
    }

  root = steward_root_new (canonical);
  g_ptr_array_add (self->roots, g_object_ref (root));

  g_list_model_items_changed (G_LIST_MODEL (self), self->roots->len - 1, 0, 1);
  emit_view_changed (self, root);
  schedule_save (self);

  return root;
}

void
steward_roots_remove (StewardRoots *self,
                      StewardRoot  *root)
{
  g_autoptr(StewardRoot) removed = NULL;
  guint position;

  g_return_if_fail (STEWARD_IS_ROOTS (self));
  g_return_if_fail (STEWARD_IS_ROOT (root));

  if (!g_ptr_array_find (self->roots, root, &position))
    return;

  removed = g_ptr_array_steal_index (self->roots, position);

  g_list_model_items_changed (G_LIST_MODEL (self), position, 1, 0);
  emit_view_changed (self, removed);
  schedule_save (self);
}

void
steward_roots_set_all_servers (StewardRoots *self,
                               StewardRoot  *root,
                               gboolean      all_servers)
{
  g_return_if_fail (STEWARD_IS_ROOTS (self));
  g_return_if_fail (STEWARD_IS_ROOT (root));

  all_servers = !!all_servers;
  if (root->all_servers == all_servers || !g_ptr_array_find (self->roots, root, NULL))
    return;

  root->all_servers = all_servers;
  g_object_notify_by_pspec (G_OBJECT (root), root_properties[ROOT_PROP_ALL_SERVERS]);

  if (all_servers && root->servers[0] != NULL)
    {
      root_set_servers (root, g_ptr_array_new_with_free_func (g_free));
      g_object_notify_by_pspec (G_OBJECT (root), root_properties[ROOT_PROP_SERVERS]);
    }

  g_signal_emit (self, signals[CHANGED], 0, NULL);
  schedule_save (self);
}

void
steward_roots_set_server_allowed (StewardRoots *self,
                                  StewardRoot  *root,
                                  const char   *server,
                                  gboolean      allowed)
{
  g_autoptr(GPtrArray) servers = NULL;
  gboolean present;

  g_return_if_fail (STEWARD_IS_ROOTS (self));
  g_return_if_fail (STEWARD_IS_ROOT (root));
  g_return_if_fail (server != NULL);

  if (root->all_servers || !g_ptr_array_find (self->roots, root, NULL))
    return;

  present = g_strv_contains ((const char * const *) root->servers, server);
  if (present == !!allowed)
    return;

  servers = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; root->servers[i] != NULL; i++)
    {
      if (strcmp (root->servers[i], server) != 0)
        g_ptr_array_add (servers, g_strdup (root->servers[i]));
    }
  if (allowed)
    g_ptr_array_add (servers, g_strdup (server));
  root_set_servers (root, g_steal_pointer (&servers));

  g_object_notify_by_pspec (G_OBJECT (root), root_properties[ROOT_PROP_SERVERS]);
  g_signal_emit (self, signals[CHANGED], 0, server);
  schedule_save (self);
}

/**
 * steward_roots_list_for_server:
 * @server: (nullable): the server asking
 *
 * Returns: (transfer full): {"roots": [{"uri": …, "name": …}, …]}
 */
JsonObject *
steward_roots_list_for_server (StewardRoots *self,
                               const char   *server)
{
  JsonObject *result;
  JsonArray *list;

  g_return_val_if_fail (STEWARD_IS_ROOTS (self), NULL);

  result = json_object_new ();
  list = json_array_new ();

  for (guint i = 0; i < self->roots->len; i++)
    {
      StewardRoot *root = g_ptr_array_index (self->roots, i);
      JsonObject *entry;

      if (!steward_root_is_visible_to (root, server))
        continue;

      entry = json_object_new ();
      json_object_set_string_member (entry, "uri", root->uri);
      json_object_set_string_member (entry, "name", root->name);
      json_array_add_object_element (list, entry);
    }

  json_object_set_array_member (result, "roots", list);
  return result;
}

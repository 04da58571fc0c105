/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-config"

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "mcp-json.h"

#include "steward-config-private.h"
#include "steward-secrets.h"
#include "steward-config.h"

/**
 * StewardConfig:
 *
 * The servers file (`mcpServers`, the shape other hosts use too) and the
 * consents beside it. Servers are kept sorted by name; writes replace the
 * whole file atomically and keep what other hosts wrote in it.
 */

enum {
  PROP_0,
  PROP_FILE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

guint steward_config_signals[STEWARD_CONFIG_N_SIGNALS];

G_DEFINE_FINAL_TYPE (StewardConfig, steward_config, G_TYPE_OBJECT)

G_DEFINE_QUARK (steward-config-error-quark, steward_config_error)

char *
steward_config_dup_file_label (StewardConfig *self)
{
  return g_file_get_parse_name (self->file);
}

const char *
steward_config_describe_node (JsonNode *node)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    return _("an object");
  if (JSON_NODE_HOLDS_ARRAY (node))
    return _("an array");
  if (JSON_NODE_HOLDS_NULL (node))
    return _("null");

  switch (json_node_get_value_type (node))
    {
    case G_TYPE_STRING:
      return _("a string");
    case G_TYPE_BOOLEAN:
      return _("a boolean");
    default:
      return _("a number");
    }
}

static int
compare_names (const char *a,
               const char *b)
{
  int result = g_ascii_strcasecmp (a, b);

  return result != 0 ? result : strcmp (a, b);
}

int
steward_config_compare_name_pointers (const void *a,
                                      const void *b)
{
  return compare_names (*(const char * const *) a, *(const char * const *) b);
}

static int
compare_servers (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  return compare_names (steward_server_config_get_name ((StewardServerConfig *) a),
                        steward_server_config_get_name ((StewardServerConfig *) b));
}

static int
compare_server_pointers (gconstpointer a,
                         gconstpointer b)
{
  return compare_servers (*(gpointer const *) a, *(gpointer const *) b, NULL);
}

/* Reading */

static GPtrArray *
parse_servers (JsonNode  *root,
               GError   **error)
{
  g_autoptr(GPtrArray) servers = g_ptr_array_new_with_free_func (g_object_unref);
  JsonNode *mcp_servers;
  JsonObjectIter iter;
  const char *name;
  JsonNode *entry;

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_INVALID,
                   _("the file must hold a JSON object with \"mcpServers\", not %s"),
                   steward_config_describe_node (root));
      return NULL;
    }

  mcp_servers = json_object_get_member (json_node_get_object (root), "mcpServers");
  if (mcp_servers == NULL)
    {
      g_set_error_literal (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_INVALID,
                           _("the file has no \"mcpServers\" object"));
      return NULL;
    }

  if (!JSON_NODE_HOLDS_OBJECT (mcp_servers))
    {
      g_set_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_INVALID,
                   _("\"mcpServers\" must be an object, not %s"),
                   steward_config_describe_node (mcp_servers));
      return NULL;
    }

  json_object_iter_init_ordered (&iter, json_node_get_object (mcp_servers));
  while (json_object_iter_next_ordered (&iter, &name, &entry))
    {
      StewardServerConfig *server;

      if (!JSON_NODE_HOLDS_OBJECT (entry))
        {
          g_set_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_INVALID,
                       _("server `%s`: must be an object, not %s"),
                       name, steward_config_describe_node (entry));
          return NULL;
        }

      server = steward_server_config_new_from_json (name, json_node_get_object (entry), error);
      if (server == NULL)
        return NULL;

      g_ptr_array_add (servers, server);
    }

  g_ptr_array_sort (servers, compare_server_pointers);
  return g_steal_pointer (&servers);
}

/* The JSON reader reports where it stopped as a byte offset; a person
 * looks for a line and a column, as their editor shows them. */
char *
steward_config_describe_parse_error (const char *message,
                                     const char *data,
                                     gsize       length)
{
  const char *at = strstr (message, "(at byte ");
  const char *digits;
  const char *close;
  g_autofree char *position = NULL;
  guint64 offset;
  guint line = 1;
  guint column = 1;

  if (at == NULL)
    return g_strdup (message);

  digits = at + strlen ("(at byte ");
  close = strchr (digits, ')');
  offset = g_ascii_strtoull (digits, NULL, 10);
  if (close == NULL || offset > length)
    return g_strdup (message);

  for (const char *p = data; p < data + offset; p = g_utf8_next_char (p))
    {
      if (*p == '\n')
        {
          line++;
          column = 1;
        }
      else
        column++;
    }

  /* Translators: where a servers file stops being valid JSON. */
  position = g_strdup_printf (_("line %u, column %u"), line, column);
  return g_strdup_printf ("%.*s(%s)%s", (int) (at - message), message, position, close + 1);
}

/**
 * steward_config_parse_json:
 *
 * Reads a file of other hosts' configuration as strictly as the servers
 * file: the same size limit, the same depth limit, and errors that give
 * the line and column.
 */
JsonNode *
steward_config_parse_json (const char  *data,
                           gsize        length,
                           GError     **error)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *detail = NULL;

  if (length > STEWARD_CONFIG_MAX_FILE_SIZE)
    {
      g_set_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_PARSE,
                   _("the file is larger than %u KiB, far more than a list of servers needs"),
                   STEWARD_CONFIG_MAX_FILE_SIZE / 1024);
      return NULL;
    }

  root = mcp_json_parse (data, (gssize) length, &local_error);
  if (root == NULL)
    {
      detail = steward_config_describe_parse_error (local_error->message, data, length);
      g_set_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_PARSE,
                   _("the file is not valid JSON: %s"), detail);
      return NULL;
    }

  return g_steal_pointer (&root);
}

/* Replaces the list with @servers (sorted) in one splice, so that views of
 * the list see a single change; entries that did not change keep their
 * objects. Returns whether anything changed. */
static gboolean
replace_servers (StewardConfig *self,
                 GPtrArray     *servers)
{
  GListModel *model = G_LIST_MODEL (self->servers);
  guint n_old = g_list_model_get_n_items (model);
  g_autofree gpointer *items = g_new0 (gpointer, servers->len + 1);
  gboolean changed = n_old != servers->len;

  for (guint i = 0; i < servers->len; i++)
    {
      StewardServerConfig *server = g_ptr_array_index (servers, i);
      g_autoptr(StewardServerConfig) old = NULL;

      /* Our own references: the splice drops the store's before it takes
       * new ones. */
      items[i] = g_object_ref (server);
      for (guint j = 0; j < n_old; j++)
        {
          g_autoptr(StewardServerConfig) candidate = g_list_model_get_item (model, j);

          if (steward_server_config_equal (candidate, server))
            {
              g_object_unref (items[i]);
              items[i] = g_steal_pointer (&candidate);
              break;
            }
        }

      old = i < n_old ? g_list_model_get_item (model, i) : NULL;
      changed |= old != items[i];
    }

  if (changed)
    g_list_store_splice (self->servers, 0, n_old, items, servers->len);

  for (guint i = 0; i < servers->len; i++)
    g_object_unref (items[i]);

  return changed;
}

/* Reads @data and, when it is a good servers file, makes it the current
 * one. Sets *@changed to whether the list of servers changed. */
static gboolean
apply_data (StewardConfig  *self,
            const char     *data,
            gsize           length,
            gboolean       *changed,
            GError        **error)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GPtrArray) servers = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *label = steward_config_dup_file_label (self);
  gboolean list_changed;

  root = steward_config_parse_json (data, length, &local_error);
  if (root != NULL)
    servers = parse_servers (root, &local_error);

  if (servers == NULL)
    {
      g_set_error (error, local_error->domain, local_error->code,
                   "%s: %s", label, local_error->message);
      return FALSE;
    }

  g_clear_pointer (&self->root, json_object_unref);
  self->root = json_object_ref (json_node_get_object (root));
  g_clear_pointer (&self->content, g_bytes_unref);
  self->content = g_bytes_new (data, length);

  list_changed = replace_servers (self, servers);
  if (changed != NULL)
    *changed = list_changed;

  return TRUE;
}

static void
set_read_error (StewardConfig  *self,
                GError         *io_error,
                GError        **error)
{
  g_autofree char *label = steward_config_dup_file_label (self);

  if (g_error_matches (io_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    g_set_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_NOT_FOUND,
                 _("%s: there is no servers file here"), label);
  else if (g_error_matches (io_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_propagate_error (error, g_error_copy (io_error));
  else
    g_set_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_READ,
                 _("%s: cannot read the servers file: %s"), label, io_error->message);
}

static gboolean
load_more_cb (const char *file_contents,
              goffset     file_size,
              gpointer    user_data)
{
  return file_size <= STEWARD_CONFIG_MAX_FILE_SIZE;
}

/* GObject */

static void
steward_config_dispose (GObject *object)
{
  StewardConfig *self = STEWARD_CONFIG (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->reload_source, g_source_remove);
  g_clear_handle_id (&self->consents_reload_source, g_source_remove);
  if (self->file_monitor != NULL)
    g_file_monitor_cancel (self->file_monitor);
  if (self->dir_monitor != NULL)
    g_file_monitor_cancel (self->dir_monitor);
  if (self->consents_monitor != NULL)
    g_file_monitor_cancel (self->consents_monitor);
  g_clear_object (&self->file_monitor);
  g_clear_object (&self->dir_monitor);
  g_clear_object (&self->consents_monitor);
  g_clear_object (&self->consent_store);
  g_clear_object (&self->servers);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (steward_config_parent_class)->dispose (object);
}

static void
steward_config_finalize (GObject *object)
{
  StewardConfig *self = STEWARD_CONFIG (object);

  g_clear_object (&self->file);
  g_clear_object (&self->consents_file);
  g_clear_object (&self->store);
  g_clear_object (&self->consents_store);
  g_clear_pointer (&self->root, json_object_unref);
  g_clear_pointer (&self->content, g_bytes_unref);
  g_clear_pointer (&self->consents, g_hash_table_unref);
  g_clear_pointer (&self->pending_consents, g_hash_table_unref);
  g_clear_pointer (&self->unsealed_consents, g_hash_table_unref);
  g_clear_pointer (&self->writing_batch, g_hash_table_unref);
  g_clear_pointer (&self->consents_content, g_bytes_unref);

  G_OBJECT_CLASS (steward_config_parent_class)->finalize (object);
}

static void
steward_config_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  StewardConfig *self = STEWARD_CONFIG (object);

  switch (prop_id)
    {
    case PROP_FILE:
      g_value_set_object (value, self->file);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_config_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  StewardConfig *self = STEWARD_CONFIG (object);

  switch (prop_id)
    {
    case PROP_FILE:
      self->file = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_config_constructed (GObject *object)
{
  StewardConfig *self = STEWARD_CONFIG (object);
  g_autoptr(GFile) folder = NULL;

  G_OBJECT_CLASS (steward_config_parent_class)->constructed (object);

  if (self->file == NULL)
    self->file = steward_config_get_default_file ();

  folder = g_file_get_parent (self->file);
  self->consents_file = folder ? g_file_get_child (folder, "consents.json")
                               : g_file_new_for_path ("consents.json");

  self->store = steward_file_store_new (self->file, STEWARD_CONFIG_MAX_FILE_SIZE,
                                        STEWARD_FILE_STORE_PRIVATE |
                                        STEWARD_FILE_STORE_FOLLOW_LINKS);
  self->consents_store = steward_file_store_new (self->consents_file,
                                                 STEWARD_CONFIG_MAX_FILE_SIZE,
                                                 STEWARD_FILE_STORE_PRIVATE |
                                                 STEWARD_FILE_STORE_FOLLOW_LINKS);
}

static void
steward_config_class_init (StewardConfigClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = steward_config_constructed;
  object_class->dispose = steward_config_dispose;
  object_class->finalize = steward_config_finalize;
  object_class->get_property = steward_config_get_property;
  object_class->set_property = steward_config_set_property;

  /**
   * StewardConfig:file:
   *
   * The servers file; the default one when none is given.
   */
  properties[PROP_FILE] =
    g_param_spec_object ("file", NULL, NULL,
                         G_TYPE_FILE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * StewardConfig::changed:
   *
   * The file was edited elsewhere and the servers in it differ from the
   * list; the list has been updated already.
   */
  steward_config_signals[STEWARD_CONFIG_SIGNAL_CHANGED] =
    g_signal_new ("changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  /**
   * StewardConfig::load-failed:
   * @error: why, naming the file (and the line and column of bad JSON)
   *
   * The servers file was edited elsewhere and cannot be used now; the list
   * keeps the servers it had. Or, with %STEWARD_CONFIG_ERROR_CONSENTS,
   * consents.json could not be read or was damaged, whenever that was
   * found (a load, a reload, a consent written): a damaged file has been
   * renamed to consents.json.damaged (the error says to what), and no
   * server has consent from it; the servers file is not concerned.
   */
  steward_config_signals[STEWARD_CONFIG_SIGNAL_LOAD_FAILED] =
    g_signal_new ("load-failed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_ERROR);

  /**
   * StewardConfig::save-failed:
   * @error: why, naming the file
   *
   * Recorded consents could not be written; they are tried again with the
   * next one, and hold until the application quits.
   */
  steward_config_signals[STEWARD_CONFIG_SIGNAL_SAVE_FAILED] =
    g_signal_new ("save-failed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_ERROR);

  /**
   * StewardConfig::consents-changed:
   *
   * consents.json was changed elsewhere (edited, emptied, deleted or found
   * damaged) and a server's consent came, went or changed: ask
   * steward_config_has_consent() again. Consents recorded here do not
   * emit it.
   */
  steward_config_signals[STEWARD_CONFIG_SIGNAL_CONSENTS_CHANGED] =
    g_signal_new ("consents-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

static void
steward_config_init (StewardConfig *self)
{
  self->servers = g_list_store_new (STEWARD_TYPE_SERVER_CONFIG);
  self->cancellable = g_cancellable_new ();
  self->consents = steward_consent_table_new ();
  self->pending_consents = steward_consent_table_new ();
  self->unsealed_consents = steward_consent_table_new ();
}

/**
 * steward_config_get_default_file:
 *
 * Returns: (transfer full): `$XDG_CONFIG_HOME/steward/servers.json`
 */
GFile *
steward_config_get_default_file (void)
{
  g_autofree char *path = g_build_filename (g_get_user_config_dir (), "steward",
                                            "servers.json", NULL);

  return g_file_new_for_path (path);
}

/**
 * steward_config_new:
 * @file: (nullable): the servers file, or %NULL for the default one
 *
 * Nothing is read until one of the load functions is called. The consents
 * live in consents.json in the same folder.
 */
StewardConfig *
steward_config_new (GFile *file)
{
  g_return_val_if_fail (file == NULL || G_IS_FILE (file), NULL);

  return g_object_new (STEWARD_TYPE_CONFIG, "file", file, NULL);
}

GFile *
steward_config_get_file (StewardConfig *self)
{
  g_return_val_if_fail (STEWARD_IS_CONFIG (self), NULL);

  return self->file;
}

/**
 * steward_config_get_servers:
 *
 * Returns: (transfer none): the #StewardServerConfig of each server,
 *   sorted by name; a load replaces what changed in one splice, put and
 *   remove change one item
 */
GListModel *
steward_config_get_servers (StewardConfig *self)
{
  g_return_val_if_fail (STEWARD_IS_CONFIG (self), NULL);

  return G_LIST_MODEL (self->servers);
}

static gboolean
find_server (StewardConfig *self,
             const char    *name,
             guint         *position)
{
  GListModel *model = G_LIST_MODEL (self->servers);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(StewardServerConfig) server = g_list_model_get_item (model, i);

      if (g_str_equal (steward_server_config_get_name (server), name))
        {
          *position = i;
          return TRUE;
        }
    }

  return FALSE;
}

/**
 * steward_config_lookup:
 * @name: a server's name
 *
 * Returns: (transfer none) (nullable): the server, or %NULL with
 *   %STEWARD_CONFIG_ERROR_NO_SUCH_SERVER and the names there are
 */
StewardServerConfig *
steward_config_lookup (StewardConfig  *self,
                       const char     *name,
                       GError        **error)
{
  g_autoptr(GString) names = g_string_new (NULL);
  g_autofree char *label = NULL;
  guint n_items;

  g_return_val_if_fail (STEWARD_IS_CONFIG (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  n_items = g_list_model_get_n_items (G_LIST_MODEL (self->servers));
  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr(StewardServerConfig) server = NULL;
      const char *server_name;

      server = g_list_model_get_item (G_LIST_MODEL (self->servers), i);
      server_name = steward_server_config_get_name (server);

      if (g_str_equal (server_name, name))
        return server;

      g_string_append_printf (names, "%s`%s`", names->len > 0 ? ", " : "", server_name);
    }

  label = steward_config_dup_file_label (self);
  if (n_items == 0)
    g_set_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_NO_SUCH_SERVER,
                 _("%s: no server is named `%s`; the file lists no servers"), label, name);
  else
    g_set_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_NO_SUCH_SERVER,
                 _("%s: no server is named `%s`; the file lists %s"), label, name, names->str);
  return NULL;
}

/**
 * steward_config_load_from_data:
 * @data: the text of a servers file
 * @length: its length in bytes
 *
 * Replaces the servers with those in @data. On failure the servers stay as
 * they were and the error names the file, the server and the member, or
 * the line and column where the text stops being JSON.
 */
gboolean
steward_config_load_from_data (StewardConfig  *self,
                               const char     *data,
                               gsize           length,
                               GError        **error)
{
  g_return_val_if_fail (STEWARD_IS_CONFIG (self), FALSE);
  g_return_val_if_fail (data != NULL || length == 0, FALSE);

  return apply_data (self, data ? data : "", length, NULL, error);
}

/**
 * steward_config_load:
 *
 * Reads the servers file, and the consents beside it, synchronously; for
 * command-line tools, which have nothing else to do meanwhile. Applications
 * use steward_config_load_async().
 */
gboolean
steward_config_load (StewardConfig  *self,
                     GCancellable   *cancellable,
                     GError        **error)
{
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *buffer = NULL;
  gsize length = 0;

  g_return_val_if_fail (STEWARD_IS_CONFIG (self), FALSE);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), FALSE);

  stream = g_file_read (self->file, cancellable, &local_error);
  if (stream == NULL)
    {
      set_read_error (self, local_error, error);
      return FALSE;
    }

  /* One byte more than allowed, so that an oversized file is noticed. */
  buffer = g_malloc (STEWARD_CONFIG_MAX_FILE_SIZE + 1);
  if (!g_input_stream_read_all (G_INPUT_STREAM (stream), buffer, STEWARD_CONFIG_MAX_FILE_SIZE + 1,
                                &length, cancellable, &local_error))
    {
      set_read_error (self, local_error, error);
      return FALSE;
    }

  if (!apply_data (self, buffer, length, NULL, error))
    return FALSE;

  steward_config_load_consents_sync (self, cancellable);
  return TRUE;
}

static void
load_consents_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StewardConfig *self = g_task_get_source_object (task);
  g_autoptr(StewardConsentsRead) read = NULL;
  g_autoptr(GError) error = NULL;

  read = steward_config_read_consents_finish (result, &error);
  if (read == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  steward_config_take_consents_read (self, read, FALSE);
  g_task_return_boolean (task, TRUE);
}

static void
load_contents_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StewardConfig *self = g_task_get_source_object (task);
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  GCancellable *cancellable;
  gsize length = 0;

  if (!g_file_load_partial_contents_finish (G_FILE (object), result, &contents, &length, NULL,
                                            &local_error))
    {
      set_read_error (self, local_error, &error);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (!apply_data (self, contents, length, NULL, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  cancellable = g_task_get_cancellable (task);
  steward_config_read_consents_async (self->consents_file, cancellable, load_consents_cb,
                       g_steal_pointer (&task));
}

void
steward_config_load_async (StewardConfig       *self,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (STEWARD_IS_CONFIG (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_config_load_async);

  g_file_load_partial_contents_async (self->file, cancellable, load_more_cb, load_contents_cb,
                                      g_steal_pointer (&task));
}

gboolean
steward_config_load_finish (StewardConfig  *self,
                            GAsyncResult   *result,
                            GError        **error)
{
  g_return_val_if_fail (STEWARD_IS_CONFIG (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == steward_config_load_async,
                        FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Writing */

static gboolean
is_known_member (const char *name)
{
  static const char * const known[] = {
    "command", "args", "env", "cwd", "url", "headers", "transport", "type", "disabled",
    "network", "runOnHost",
  };

  for (guint i = 0; i < G_N_ELEMENTS (known); i++)
    if (g_str_equal (name, known[i]))
      return TRUE;

  return FALSE;
}

/* A new entry for an existing name keeps the members of the old one that
 * this version does not know (another host's "autoApprove", say): the
 * person edited what Steward shows, not those. */
static StewardServerConfig *
keep_unknown_members (StewardServerConfig *old,
                      StewardServerConfig *server)
{
  JsonObject *old_json = steward_server_config_get_json (old);
  JsonObject *new_json = steward_server_config_get_json (server);
  g_autoptr(JsonObject) merged = NULL;
  g_autoptr(GError) error = NULL;
  StewardServerConfig *result;
  JsonObjectIter iter;
  const char *name;
  JsonNode *member;

  json_object_iter_init_ordered (&iter, old_json);
  while (json_object_iter_next_ordered (&iter, &name, &member))
    {
      if (is_known_member (name) || json_object_has_member (new_json, name))
        continue;

      if (merged == NULL)
        {
          JsonObjectIter new_iter;
          const char *new_name;
          JsonNode *new_member;

          merged = json_object_new ();
          json_object_iter_init_ordered (&new_iter, new_json);
          while (json_object_iter_next_ordered (&new_iter, &new_name, &new_member))
            json_object_set_member (merged, new_name, json_node_copy (new_member));
        }

      json_object_set_member (merged, name, json_node_copy (member));
    }

  if (merged == NULL)
    return g_object_ref (server);

  result = steward_server_config_new_from_json (steward_server_config_get_name (server), merged,
                                                &error);
  /* Members the reader does not know cannot make an entry invalid. */
  return result ? result : g_object_ref (server);
}

/**
 * steward_config_put_server:
 * @server: the entry
 *
 * Adds @server at its place by name, or replaces the entry with its name
 * (one items-changed either way). Nothing is written until
 * steward_config_save_async(). A replaced entry's members that this
 * version does not know are kept, so the list may hold a copy of @server.
 */
void
steward_config_put_server (StewardConfig       *self,
                           StewardServerConfig *server)
{
  const char *name;
  guint position;

  g_return_if_fail (STEWARD_IS_CONFIG (self));
  g_return_if_fail (STEWARD_IS_SERVER_CONFIG (server));

  name = steward_server_config_get_name (server);
  if (find_server (self, name, &position))
    {
      g_autoptr(StewardServerConfig) old = g_list_model_get_item (G_LIST_MODEL (self->servers),
                                                                  position);
      g_autoptr(StewardServerConfig) merged = keep_unknown_members (old, server);
      gpointer items[] = { merged };

      g_list_store_splice (self->servers, position, 1, items, 1);
      return;
    }

  g_list_store_insert_sorted (self->servers, server, compare_servers, NULL);
}

/**
 * steward_config_remove_server:
 * @name: a server's name
 *
 * Returns: whether there was a server with that name to remove
 */
gboolean
steward_config_remove_server (StewardConfig *self,
                              const char    *name)
{
  guint position;

  g_return_val_if_fail (STEWARD_IS_CONFIG (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  if (!find_server (self, name, &position))
    return FALSE;

  g_list_store_remove (self->servers, position);
  return TRUE;
}

typedef struct {
  GBytes *bytes;
  GBytes *previous;
} SaveData;

static void
save_data_free (SaveData *data)
{
  g_clear_pointer (&data->bytes, g_bytes_unref);
  g_clear_pointer (&data->previous, g_bytes_unref);
  g_free (data);
}

static void schedule_reload (StewardConfig *self);

static void
save_written_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StewardConfig *self = g_task_get_source_object (task);
  SaveData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  self->saving--;

  if (!steward_file_store_save_finish (STEWARD_FILE_STORE (object), result, &error))
    {
      g_autofree char *label = steward_config_dup_file_label (self);

      /* The file still holds what it held before. */
      if (self->content == data->bytes)
        {
          g_clear_pointer (&self->content, g_bytes_unref);
          self->content = data->previous ? g_bytes_ref (data->previous) : NULL;
        }

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_task_return_error (task, g_steal_pointer (&error));
      else
        g_task_return_new_error (task, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_WRITE,
                                 _("%s: cannot save the servers file: %s"), label,
                                 error->message);
    }
  else
    g_task_return_boolean (task, TRUE);

  if (self->saving == 0 && self->reload_again)
    {
      self->reload_again = FALSE;
      schedule_reload (self);
    }
}

/**
 * steward_config_save_async:
 *
 * Writes the servers, sorted by name, with the top-level members and the
 * server members that were read and are not Steward's, as pretty JSON. The
 * file is replaced atomically (a new file is written beside it and renamed
 * over it) with mode 0600, in a folder made with mode 0700 when missing; a
 * symbolic link is followed, so a linked file stays linked. Saves run one
 * after the other, and those made while a write runs end in one more.
 */
void
steward_config_save_async (StewardConfig       *self,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  SaveData *data;

  g_return_if_fail (STEWARD_IS_CONFIG (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_config_save_async);
  data = g_new0 (SaveData, 1);
  g_task_set_task_data (task, data, (GDestroyNotify) save_data_free);

  /* The list as it is now; saves made while a write runs are folded into
   * one more write, so that the newest list ends on disk. */
  data->bytes = steward_config_serialize_servers (self);
  data->previous = self->content ? g_bytes_ref (self->content) : NULL;
  g_clear_pointer (&self->content, g_bytes_unref);
  self->content = g_bytes_ref (data->bytes);

  self->saving++;
  steward_file_store_save_async (self->store, data->bytes, cancellable, save_written_cb,
                                 g_steal_pointer (&task));
}

gboolean
steward_config_save_finish (StewardConfig  *self,
                            GAsyncResult   *result,
                            GError        **error)
{
  g_return_val_if_fail (STEWARD_IS_CONFIG (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == steward_config_save_async,
                        FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Watching */

static void
reload_read_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  StewardConfig *self;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) reported = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *contents = NULL;
  gboolean changed = FALSE;
  gsize length = 0;

  if (!g_file_load_partial_contents_finish (G_FILE (object), result, &contents, &length, NULL,
                                            &error) &&
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = STEWARD_CONFIG (user_data);
  self->reloading = FALSE;

  /* A save that started meanwhile makes what was read stale; read again
   * once it is written. */
  if (self->saving > 0)
    {
      self->reload_again = TRUE;
      return;
    }

  /* More events came while reading: this read may be older than the file. */
  if (self->reload_again)
    {
      self->reload_again = FALSE;
      schedule_reload (self);
    }

  if (error != NULL)
    {
      set_read_error (self, error, &reported);
      g_signal_emit (self, steward_config_signals[STEWARD_CONFIG_SIGNAL_LOAD_FAILED], 0, reported);
      return;
    }

  bytes = g_bytes_new_take (g_steal_pointer (&contents), length);
  if (self->content != NULL && g_bytes_equal (bytes, self->content))
    return;

  if (!apply_data (self, g_bytes_get_data (bytes, NULL), length, &changed, &reported))
    {
      /* Remembered, so that the same damage is reported once. */
      g_clear_pointer (&self->content, g_bytes_unref);
      self->content = g_steal_pointer (&bytes);
      g_signal_emit (self, steward_config_signals[STEWARD_CONFIG_SIGNAL_LOAD_FAILED], 0, reported);
      return;
    }

  if (changed)
    g_signal_emit (self, steward_config_signals[STEWARD_CONFIG_SIGNAL_CHANGED], 0);
}

static gboolean
reload_cb (gpointer user_data)
{
  StewardConfig *self = user_data;

  self->reload_source = 0;

  if (self->reloading || self->saving > 0)
    {
      self->reload_again = TRUE;
      return G_SOURCE_REMOVE;
    }

  self->reloading = TRUE;
  g_file_load_partial_contents_async (self->file, self->cancellable, load_more_cb,
                                      reload_read_cb, self);
  return G_SOURCE_REMOVE;
}

static void
schedule_reload (StewardConfig *self)
{
  g_clear_handle_id (&self->reload_source, g_source_remove);
  self->reload_source = g_timeout_add (RELOAD_DELAY_MS, reload_cb, self);
}

static gboolean
event_concerns (GFile *file,
                GFile *other_file,
                GFile *target)
{
  return g_file_equal (file, target) || (other_file != NULL && g_file_equal (other_file, target));
}

static void
file_changed_cb (GFileMonitor      *monitor,
                 GFile             *file,
                 GFile             *other_file,
                 GFileMonitorEvent  event,
                 StewardConfig     *self)
{
  if (event == G_FILE_MONITOR_EVENT_ATTRIBUTE_CHANGED ||
      event == G_FILE_MONITOR_EVENT_PRE_UNMOUNT ||
      event == G_FILE_MONITOR_EVENT_UNMOUNTED)
    return;

  if (monitor == self->consents_monitor)
    {
      steward_config_schedule_consents_reload (self);
      return;
    }

  /* The folder's monitor reports every file in it; only ours count. */
  if (monitor == self->dir_monitor)
    {
      if (event_concerns (file, other_file, self->consents_file))
        steward_config_schedule_consents_reload (self);
      if (!event_concerns (file, other_file, self->file))
        return;
    }

  schedule_reload (self);
}

/**
 * steward_config_watch:
 *
 * Follows edits made elsewhere: changes to the file, or to its folder for
 * editors that write a new file and rename it over the old one, are read
 * once they settle (~200 ms). Our own saves are recognised by their
 * content and not echoed. A reload that changes the servers emits
 * #StewardConfig::changed; a damaged file emits
 * #StewardConfig::load-failed and the list stays as it was.
 *
 * consents.json is followed the same way: a consent taken out of it, or
 * the file deleted, takes the consent back at once, and
 * #StewardConfig::consents-changed says so. A damaged consents.json is
 * kept aside (#StewardConfig::load-failed) and counts as no consent.
 */
void
steward_config_watch (StewardConfig *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) folder = NULL;

  g_return_if_fail (STEWARD_IS_CONFIG (self));

  if (self->file_monitor != NULL || self->dir_monitor != NULL || self->consents_monitor != NULL)
    return;

  self->file_monitor = g_file_monitor_file (self->file, G_FILE_MONITOR_WATCH_MOVES, NULL,
                                            &error);
  if (self->file_monitor == NULL)
    g_message ("Edits to the servers file made elsewhere will not be noticed: %s",
               error->message);
  else
    g_signal_connect_object (self->file_monitor, "changed", G_CALLBACK (file_changed_cb),
                             self, 0);
  g_clear_error (&error);

  /* Besides the folder's monitor, for a consents.json that links to a
   * file elsewhere. */
  self->consents_monitor = g_file_monitor_file (self->consents_file, G_FILE_MONITOR_WATCH_MOVES,
                                                NULL, &error);
  if (self->consents_monitor == NULL)
    g_message ("Consents taken back in the consents file elsewhere will not be noticed: %s",
               error->message);
  else
    g_signal_connect_object (self->consents_monitor, "changed", G_CALLBACK (file_changed_cb),
                             self, 0);
  g_clear_error (&error);

  folder = g_file_get_parent (self->file);
  if (folder != NULL)
    self->dir_monitor = g_file_monitor_directory (folder, G_FILE_MONITOR_WATCH_MOVES, NULL,
                                                  &error);
  if (self->dir_monitor != NULL)
    g_signal_connect_object (self->dir_monitor, "changed", G_CALLBACK (file_changed_cb),
                             self, 0);
  else if (error != NULL)
    g_debug ("Cannot watch the folder of the servers file: %s", error->message);
}

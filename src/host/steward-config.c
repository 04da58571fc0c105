/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-config"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mcp-json.h"

#include "steward-config.h"

struct _StewardConfig
{
  GObject     parent_instance;

  GFile      *file;
  GListStore *servers;
};

enum {
  PROP_0,
  PROP_FILE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (StewardConfig, steward_config, G_TYPE_OBJECT)

G_DEFINE_QUARK (steward-config-error-quark, steward_config_error)

static char *
dup_file_label (StewardConfig *self)
{
  return g_file_get_parse_name (self->file);
}

static const char *
describe_node (JsonNode *node)
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

static GListStore *
parse_servers (JsonNode  *root,
               GError   **error)
{
  g_autoptr(GListStore) servers = g_list_store_new (STEWARD_TYPE_SERVER_CONFIG);
  JsonNode *mcp_servers;
  JsonObjectIter iter;
  const char *name;
  JsonNode *entry;

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_INVALID,
                   _("the file must hold a JSON object with \"mcpServers\", not %s"),
                   describe_node (root));
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
                   describe_node (mcp_servers));
      return NULL;
    }

  json_object_iter_init_ordered (&iter, json_node_get_object (mcp_servers));
  while (json_object_iter_next_ordered (&iter, &name, &entry))
    {
      g_autoptr(StewardServerConfig) server = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (entry))
        {
          g_set_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_INVALID,
                       _("server `%s`: must be an object, not %s"),
                       name, describe_node (entry));
          return NULL;
        }

      server = steward_server_config_new_from_json (name, json_node_get_object (entry), error);
      if (server == NULL)
        return NULL;

      g_list_store_append (servers, server);
    }

  return g_steal_pointer (&servers);
}

static GListStore *
parse_data (const char  *data,
            gsize        length,
            GError     **error)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) local_error = NULL;

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
      g_set_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_PARSE,
                   _("the file is not valid JSON: %s"), local_error->message);
      return NULL;
    }

  return parse_servers (root, error);
}

static gboolean
apply_data (StewardConfig  *self,
            const char     *data,
            gsize           length,
            GError        **error)
{
  g_autoptr(GListStore) servers = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *label = dup_file_label (self);
  g_autofree gpointer *items = NULL;
  guint n_items;

  servers = parse_data (data, length, &local_error);
  if (servers == NULL)
    {
      g_set_error (error, local_error->domain, local_error->code,
                   "%s: %s", label, local_error->message);
      return FALSE;
    }

  /* One splice, so that views of the list see a single change. */
  n_items = g_list_model_get_n_items (G_LIST_MODEL (servers));
  items = g_new0 (gpointer, n_items + 1);
  for (guint i = 0; i < n_items; i++)
    items[i] = g_list_model_get_item (G_LIST_MODEL (servers), i);

  g_list_store_splice (self->servers, 0, g_list_model_get_n_items (G_LIST_MODEL (self->servers)),
                       items, n_items);

  for (guint i = 0; i < n_items; i++)
    g_object_unref (items[i]);

  return TRUE;
}

static void
set_read_error (StewardConfig  *self,
                GError         *io_error,
                GError        **error)
{
  g_autofree char *label = dup_file_label (self);

  if (g_error_matches (io_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    g_set_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_NOT_FOUND,
                 _("%s: there is no servers file here"), label);
  else if (g_error_matches (io_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_propagate_error (error, g_error_copy (io_error));
  else
    g_set_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_READ,
                 _("%s: cannot read the servers file: %s"), label, io_error->message);
}

static void
steward_config_dispose (GObject *object)
{
  StewardConfig *self = STEWARD_CONFIG (object);

  g_clear_object (&self->file);
  g_clear_object (&self->servers);

  G_OBJECT_CLASS (steward_config_parent_class)->dispose (object);
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

  G_OBJECT_CLASS (steward_config_parent_class)->constructed (object);

  if (self->file == NULL)
    self->file = steward_config_get_default_file ();
}

static void
steward_config_class_init (StewardConfigClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = steward_config_constructed;
  object_class->dispose = steward_config_dispose;
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
}

static void
steward_config_init (StewardConfig *self)
{
  self->servers = g_list_store_new (STEWARD_TYPE_SERVER_CONFIG);
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
 * Nothing is read until one of the load functions is called.
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
 * Returns: (transfer none): the #StewardServerConfig of each server, in
 *   the order of the file; replaced as a whole by each successful load
 */
GListModel *
steward_config_get_servers (StewardConfig *self)
{
  g_return_val_if_fail (STEWARD_IS_CONFIG (self), NULL);

  return G_LIST_MODEL (self->servers);
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

  label = dup_file_label (self);
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
 * they were and the error names the file, the server and the member.
 */
gboolean
steward_config_load_from_data (StewardConfig  *self,
                               const char     *data,
                               gsize           length,
                               GError        **error)
{
  g_return_val_if_fail (STEWARD_IS_CONFIG (self), FALSE);
  g_return_val_if_fail (data != NULL || length == 0, FALSE);

  return apply_data (self, data ? data : "", length, error);
}

/**
 * steward_config_load:
 *
 * Reads the servers file synchronously; for command-line tools, which have
 * nothing else to do meanwhile. Applications use steward_config_load_async().
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

  return apply_data (self, buffer, length, error);
}

static gboolean
load_more_cb (const char *file_contents,
              goffset     file_size,
              gpointer    user_data)
{
  return file_size <= STEWARD_CONFIG_MAX_FILE_SIZE;
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
  gsize length = 0;

  if (!g_file_load_partial_contents_finish (G_FILE (object), result, &contents, &length, NULL,
                                            &local_error))
    {
      set_read_error (self, local_error, &error);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (!apply_data (self, contents, length, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_task_return_boolean (task, TRUE);
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

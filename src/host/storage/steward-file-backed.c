/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-file-backed"

#include "config.h"

#include "steward-file-backed.h"

/*
 * StewardFileBacked:
 *
 * The base of the host's types that keep their state in one JSON file:
 * the model catalogue, the providers, the shared folders, the sampling
 * journal. It holds the file, given at construction, and makes the store
 * for it that the subclass asks for in its class structure.
 */

typedef struct
{
  GFile            *file;
  StewardFileStore *store;
} StewardFileBackedPrivate;

enum {
  PROP_0,
  PROP_FILE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (StewardFileBacked, steward_file_backed, G_TYPE_OBJECT)

static void
flushed_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (steward_file_store_flush_finish (STEWARD_FILE_STORE (object), result, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, g_steal_pointer (&error));
}

static void
steward_file_backed_constructed (GObject *object)
{
  StewardFileBacked *self = STEWARD_FILE_BACKED (object);
  StewardFileBackedPrivate *priv = steward_file_backed_get_instance_private (self);
  StewardFileBackedClass *klass = STEWARD_FILE_BACKED_GET_CLASS (self);

  G_OBJECT_CLASS (steward_file_backed_parent_class)->constructed (object);

  if (priv->file != NULL && klass->max_size > 0)
    priv->store = steward_file_store_new (priv->file, klass->max_size, klass->store_flags);
}

static void
steward_file_backed_finalize (GObject *object)
{
  StewardFileBacked *self = STEWARD_FILE_BACKED (object);
  StewardFileBackedPrivate *priv = steward_file_backed_get_instance_private (self);

  g_clear_object (&priv->store);
  g_clear_object (&priv->file);

  G_OBJECT_CLASS (steward_file_backed_parent_class)->finalize (object);
}

static void
steward_file_backed_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  StewardFileBacked *self = STEWARD_FILE_BACKED (object);
  StewardFileBackedPrivate *priv = steward_file_backed_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_FILE:
      g_value_set_object (value, priv->file);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_file_backed_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  StewardFileBacked *self = STEWARD_FILE_BACKED (object);
  StewardFileBackedPrivate *priv = steward_file_backed_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_FILE:
      priv->file = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_file_backed_class_init (StewardFileBackedClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = steward_file_backed_constructed;
  object_class->finalize = steward_file_backed_finalize;
  object_class->get_property = steward_file_backed_get_property;
  object_class->set_property = steward_file_backed_set_property;

  /**
   * StewardFileBacked:file:
   *
   * The file the state is kept in, or %NULL to keep it in memory alone.
   */
  properties[PROP_FILE] =
    g_param_spec_object ("file", NULL, NULL,
                         G_TYPE_FILE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
steward_file_backed_init (StewardFileBacked *self)
{
}

/**
 * steward_file_backed_get_file:
 *
 * Returns: (transfer none) (nullable): the file, or %NULL when the state
 *   is kept in memory
 */
GFile *
steward_file_backed_get_file (StewardFileBacked *self)
{
  StewardFileBackedPrivate *priv = steward_file_backed_get_instance_private (self);

  g_return_val_if_fail (STEWARD_IS_FILE_BACKED (self), NULL);

  return priv->file;
}

/**
 * steward_file_backed_get_store:
 *
 * Returns: (transfer none) (nullable): the store of the file, or %NULL
 *   when there is no file or the type asks for no store
 */
StewardFileStore *
steward_file_backed_get_store (StewardFileBacked *self)
{
  StewardFileBackedPrivate *priv = steward_file_backed_get_instance_private (self);

  g_return_val_if_fail (STEWARD_IS_FILE_BACKED (self), NULL);

  return priv->store;
}

/**
 * steward_file_backed_save_async:
 * @root: the state as the subclass serialises it
 *
 * Writes @root to the file atomically on a worker, through the store, so
 * that saves never overlap and the file holds every change made before the
 * call once it finishes. With no file there is nothing to write, and the
 * save succeeds at once. The store's error is returned as it is: the
 * subclass says in its own words what could not be saved.
 */
void
steward_file_backed_save_async (StewardFileBacked   *self,
                                JsonNode            *root,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  StewardFileBackedPrivate *priv = steward_file_backed_get_instance_private (self);
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (STEWARD_IS_FILE_BACKED (self));
  g_return_if_fail (root != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_file_backed_save_async);

  if (priv->store == NULL)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  steward_file_store_save_json (priv->store, root);
  steward_file_store_flush_async (priv->store, NULL, flushed_cb, g_steal_pointer (&task));
}

gboolean
steward_file_backed_save_finish (StewardFileBacked  *self,
                                 GAsyncResult       *result,
                                 GError            **error)
{
  g_return_val_if_fail (STEWARD_IS_FILE_BACKED (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        steward_file_backed_save_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-log-snapshot"

#include "config.h"

#include "steward-log-snapshot.h"

struct _StewardLogSnapshot
{
  GObject    parent_instance;

  GType      item_type;
  GPtrArray *items;
};

static GType
steward_log_snapshot_get_item_type (GListModel *model)
{
  return STEWARD_LOG_SNAPSHOT (model)->item_type;
}

static guint
steward_log_snapshot_get_n_items (GListModel *model)
{
  return STEWARD_LOG_SNAPSHOT (model)->items->len;
}

static gpointer
steward_log_snapshot_get_item (GListModel *model,
                               guint       position)
{
  StewardLogSnapshot *self = STEWARD_LOG_SNAPSHOT (model);

  if (position >= self->items->len)
    return NULL;

  return g_object_ref (g_ptr_array_index (self->items, position));
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = steward_log_snapshot_get_item_type;
  iface->get_n_items = steward_log_snapshot_get_n_items;
  iface->get_item = steward_log_snapshot_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (StewardLogSnapshot, steward_log_snapshot, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static void
steward_log_snapshot_dispose (GObject *object)
{
  StewardLogSnapshot *self = STEWARD_LOG_SNAPSHOT (object);

  g_ptr_array_set_size (self->items, 0);

  G_OBJECT_CLASS (steward_log_snapshot_parent_class)->dispose (object);
}

static void
steward_log_snapshot_finalize (GObject *object)
{
  StewardLogSnapshot *self = STEWARD_LOG_SNAPSHOT (object);

  g_ptr_array_unref (self->items);

  G_OBJECT_CLASS (steward_log_snapshot_parent_class)->finalize (object);
}

static void
steward_log_snapshot_class_init (StewardLogSnapshotClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = steward_log_snapshot_dispose;
  object_class->finalize = steward_log_snapshot_finalize;
}

static void
steward_log_snapshot_init (StewardLogSnapshot *self)
{
  self->item_type = G_TYPE_OBJECT;
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
}

StewardLogSnapshot *
steward_log_snapshot_new (GListModel *model)
{
  StewardLogSnapshot *self;
  guint n_items;
  guint i;

  g_return_val_if_fail (model == NULL || G_IS_LIST_MODEL (model), NULL);

  self = g_object_new (STEWARD_TYPE_LOG_SNAPSHOT, NULL);
  if (model == NULL)
    return self;

  self->item_type = g_list_model_get_item_type (model);
  n_items = g_list_model_get_n_items (model);
  g_ptr_array_unref (self->items);
  self->items = g_ptr_array_new_full (n_items, g_object_unref);
  for (i = 0; i < n_items; i++)
    {
      gpointer item = g_list_model_get_item (model, i);

      if (item != NULL)
        g_ptr_array_add (self->items, item);
    }

  return self;
}

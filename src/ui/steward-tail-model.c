/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-tail-model"

#include "config.h"

#include "steward-tail-model.h"

struct _StewardTailModel
{
  GObject     parent_instance;

  GListModel *model;
  gulong      changed_id;
  guint       offset;
};

static GType
steward_tail_model_get_item_type (GListModel *list)
{
  StewardTailModel *self = STEWARD_TAIL_MODEL (list);

  return self->model != NULL ? g_list_model_get_item_type (self->model) : G_TYPE_OBJECT;
}

static guint
steward_tail_model_get_n_items (GListModel *list)
{
  StewardTailModel *self = STEWARD_TAIL_MODEL (list);
  guint n = self->model != NULL ? g_list_model_get_n_items (self->model) : 0;

  return n > self->offset ? n - self->offset : 0;
}

static gpointer
steward_tail_model_get_item (GListModel *list,
                             guint       position)
{
  StewardTailModel *self = STEWARD_TAIL_MODEL (list);

  if (self->model == NULL || position >= steward_tail_model_get_n_items (list))
    return NULL;

  return g_list_model_get_item (self->model, self->offset + position);
}

static void
steward_tail_model_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = steward_tail_model_get_item_type;
  iface->get_n_items = steward_tail_model_get_n_items;
  iface->get_item = steward_tail_model_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (StewardTailModel, steward_tail_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      steward_tail_model_list_model_init))

static void
items_changed_cb (StewardTailModel *self,
                  guint             position,
                  guint             removed,
                  guint             added,
                  GListModel       *model)
{
  guint n_after = g_list_model_get_n_items (model);
  guint n_before = n_after - added + removed;
  guint shown_before = n_before > self->offset ? n_before - self->offset : 0;

  if (position >= self->offset)
    {
      g_list_model_items_changed (G_LIST_MODEL (self), position - self->offset, removed, added);
      return;
    }

  /* A change among the items not shown moves the offset along, so that
   * the same items stay shown. */
  if (position + removed <= self->offset)
    {
      self->offset = self->offset + added - removed;
      return;
    }

  /* A change across the first item shown: everything from it is new. */
  self->offset = position;
  g_list_model_items_changed (G_LIST_MODEL (self), 0, shown_before,
                              steward_tail_model_get_n_items (G_LIST_MODEL (self)));
}

static void
steward_tail_model_dispose (GObject *object)
{
  StewardTailModel *self = STEWARD_TAIL_MODEL (object);

  g_clear_signal_handler (&self->changed_id, self->model);
  g_clear_object (&self->model);

  G_OBJECT_CLASS (steward_tail_model_parent_class)->dispose (object);
}

static void
steward_tail_model_class_init (StewardTailModelClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = steward_tail_model_dispose;
}

static void
steward_tail_model_init (StewardTailModel *self)
{
}

StewardTailModel *
steward_tail_model_new (void)
{
  return g_object_new (STEWARD_TYPE_TAIL_MODEL, NULL);
}

GListModel *
steward_tail_model_get_model (StewardTailModel *self)
{
  g_return_val_if_fail (STEWARD_IS_TAIL_MODEL (self), NULL);

  return self->model;
}

void
steward_tail_model_set_model (StewardTailModel *self,
                              GListModel       *model,
                              guint             shown)
{
  guint before;
  guint n;

  g_return_if_fail (STEWARD_IS_TAIL_MODEL (self));
  g_return_if_fail (model == NULL || G_IS_LIST_MODEL (model));

  before = steward_tail_model_get_n_items (G_LIST_MODEL (self));

  g_clear_signal_handler (&self->changed_id, self->model);
  g_set_object (&self->model, model);

  n = model != NULL ? g_list_model_get_n_items (model) : 0;
  self->offset = n > shown ? n - shown : 0;
  if (model != NULL)
    self->changed_id = g_signal_connect_swapped (model, "items-changed",
                                                 G_CALLBACK (items_changed_cb), self);

  if (before > 0 || n > self->offset)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, before,
                                steward_tail_model_get_n_items (G_LIST_MODEL (self)));
}

guint
steward_tail_model_get_hidden (StewardTailModel *self)
{
  g_return_val_if_fail (STEWARD_IS_TAIL_MODEL (self), 0);

  return self->offset;
}

void
steward_tail_model_reveal (StewardTailModel *self,
                           guint             count)
{
  guint revealed;

  g_return_if_fail (STEWARD_IS_TAIL_MODEL (self));

  revealed = MIN (count, self->offset);
  if (revealed == 0)
    return;

  self->offset -= revealed;
  g_list_model_items_changed (G_LIST_MODEL (self), 0, 0, revealed);
}

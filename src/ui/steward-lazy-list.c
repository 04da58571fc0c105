/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-lazy-list"

#include "config.h"

#include "steward-lazy-list.h"

struct _StewardLazyList
{
  GObject             parent_instance;

  GtkSliceListModel  *slice;
  GtkAdjustment      *adjustment;
  guint               batch;
  guint               grow_id;
};

G_DEFINE_FINAL_TYPE (StewardLazyList, steward_lazy_list, G_TYPE_OBJECT)

/* Whether less than a screenful of rows is left below the one shown, so
 * that scrolling on would reach the end of what the list holds so far. */
static gboolean
near_end (StewardLazyList *self)
{
  double page = gtk_adjustment_get_page_size (self->adjustment);
  double below = gtk_adjustment_get_upper (self->adjustment) -
                 gtk_adjustment_get_value (self->adjustment) - page;

  return page > 0 && below < page;
}

static gboolean
grow_cb (gpointer user_data)
{
  StewardLazyList *self = user_data;
  GListModel *model = gtk_slice_list_model_get_model (self->slice);
  guint size = gtk_slice_list_model_get_size (self->slice);

  self->grow_id = 0;

  if (model == NULL || size >= g_list_model_get_n_items (model) || !near_end (self))
    return G_SOURCE_REMOVE;

  /* The list's new height changes the adjustment, which checks again. */
  gtk_slice_list_model_set_size (self->slice, size + self->batch);

  return G_SOURCE_REMOVE;
}

/* The adjustment changes while the list is allocated, when its model must
 * not: the list grows from an idle. */
static void
adjustment_changed_cb (StewardLazyList *self)
{
  if (self->grow_id == 0 && near_end (self))
    self->grow_id = g_idle_add (grow_cb, self);
}

static void
steward_lazy_list_dispose (GObject *object)
{
  StewardLazyList *self = STEWARD_LAZY_LIST (object);

  g_clear_handle_id (&self->grow_id, g_source_remove);
  if (self->adjustment != NULL)
    g_signal_handlers_disconnect_by_data (self->adjustment, self);
  g_clear_object (&self->adjustment);
  g_clear_object (&self->slice);

  G_OBJECT_CLASS (steward_lazy_list_parent_class)->dispose (object);
}

static void
steward_lazy_list_class_init (StewardLazyListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = steward_lazy_list_dispose;
}

static void
steward_lazy_list_init (StewardLazyList *self)
{
}

/**
 * steward_lazy_list_new:
 * @model: (transfer none): the whole list
 * @batch: how many items it starts with, and how many more it takes at a
 *   time
 */
StewardLazyList *
steward_lazy_list_new (GListModel *model,
                       guint       batch)
{
  StewardLazyList *self;

  g_return_val_if_fail (G_IS_LIST_MODEL (model), NULL);
  g_return_val_if_fail (batch > 0, NULL);

  self = g_object_new (STEWARD_TYPE_LAZY_LIST, NULL);
  self->batch = batch;
  self->slice = gtk_slice_list_model_new (g_object_ref (model), 0, batch);

  return self;
}

/**
 * steward_lazy_list_get_model:
 *
 * Returns: (transfer none): the items handed to the list so far
 */
GListModel *
steward_lazy_list_get_model (StewardLazyList *self)
{
  g_return_val_if_fail (STEWARD_IS_LAZY_LIST (self), NULL);

  return G_LIST_MODEL (self->slice);
}

/**
 * steward_lazy_list_set_adjustment:
 * @adjustment: the vertical adjustment of the list view shown
 *
 * Scrolling it towards the end of the items handed over so far hands
 * over more.
 */
void
steward_lazy_list_set_adjustment (StewardLazyList *self,
                                  GtkAdjustment   *adjustment)
{
  g_return_if_fail (STEWARD_IS_LAZY_LIST (self));
  g_return_if_fail (adjustment == NULL || GTK_IS_ADJUSTMENT (adjustment));

  if (self->adjustment == adjustment)
    return;

  if (self->adjustment != NULL)
    g_signal_handlers_disconnect_by_data (self->adjustment, self);
  g_set_object (&self->adjustment, adjustment);
  if (adjustment == NULL)
    return;

  g_signal_connect_object (adjustment, "changed", G_CALLBACK (adjustment_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (adjustment, "value-changed", G_CALLBACK (adjustment_changed_cb),
                           self, G_CONNECT_SWAPPED);
  adjustment_changed_cb (self);
}

/**
 * steward_lazy_list_reset:
 *
 * Goes back to the first batch, as when the whole list changes (a search,
 * say) and what was scrolled past is no longer what it was.
 */
void
steward_lazy_list_reset (StewardLazyList *self)
{
  g_return_if_fail (STEWARD_IS_LAZY_LIST (self));

  gtk_slice_list_model_set_size (self->slice, self->batch);
}

/**
 * steward_lazy_list_reveal:
 *
 * Hands over the items up to @position of the whole list (and a batch
 * after it), so that the list can show and choose it.
 */
void
steward_lazy_list_reveal (StewardLazyList *self,
                          guint            position)
{
  g_return_if_fail (STEWARD_IS_LAZY_LIST (self));

  if (position >= gtk_slice_list_model_get_size (self->slice))
    gtk_slice_list_model_set_size (self->slice, position + self->batch);
}

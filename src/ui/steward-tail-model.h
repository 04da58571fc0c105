/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define STEWARD_TYPE_TAIL_MODEL (steward_tail_model_get_type ())

G_DECLARE_FINAL_TYPE (StewardTailModel, steward_tail_model, STEWARD, TAIL_MODEL, GObject)

/* The last items of a list model: those from an offset on. Items added at
 * the end show as they come; steward_tail_model_reveal() moves the offset
 * back, which the list sees as items inserted at the start (a list view
 * keeps its rows and its place), unlike GtkSliceListModel, whose every
 * change of offset replaces all its items. */
StewardTailModel *steward_tail_model_new        (void);
GListModel       *steward_tail_model_get_model  (StewardTailModel *self);
/* Shows the last @shown items of @model (nullable). */
void              steward_tail_model_set_model  (StewardTailModel *self,
                                                 GListModel       *model,
                                                 guint             shown);
/* How many items at the start are not shown. */
guint             steward_tail_model_get_hidden (StewardTailModel *self);
/* Shows up to @count more items before the first one shown. */
void              steward_tail_model_reveal     (StewardTailModel *self,
                                                 guint             count);

G_END_DECLS

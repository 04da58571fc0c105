/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define STEWARD_TYPE_LAZY_LIST (steward_lazy_list_get_type ())

G_DECLARE_FINAL_TYPE (StewardLazyList, steward_lazy_list, STEWARD, LAZY_LIST, GObject)

/* The first items of a long model, and more of them as a list view is
 * scrolled towards the end of those: a list view makes a row for up to
 * 200 items around where it shows, whatever its height, and a long list
 * would make them all each time it is shown, searched or listed again. */
StewardLazyList *steward_lazy_list_new            (GListModel      *model,
                                                   guint            batch);
GListModel      *steward_lazy_list_get_model      (StewardLazyList *self);
void             steward_lazy_list_set_adjustment (StewardLazyList *self,
                                                   GtkAdjustment   *adjustment);
void             steward_lazy_list_reset          (StewardLazyList *self);
void             steward_lazy_list_reveal         (StewardLazyList *self,
                                                   guint            position);

G_END_DECLS

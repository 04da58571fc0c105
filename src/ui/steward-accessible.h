/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/*
 * Names for the parts of GTK 4.8 and libadwaita 1.2 widgets that take the
 * keyboard focus but have no accessible name of their own, so that a
 * screen reader has something to say when it gets there.
 */

/* The button inside @drop_down, which takes the focus, is named after the
 * drop-down's own accessible label. */
void       steward_accessible_name_drop_down    (GtkDropDown    *drop_down);
/* The row GtkListView wraps around the child of @list_item, which takes
 * the focus, is named after that child (gtk_list_item_set_accessible_label
 * came with GTK 4.12). Call it when binding: only then is the child in
 * that row. */
void       steward_accessible_name_list_item    (GtkListItem    *list_item);
/* @row, whose header takes the focus, is named after its title, now and
 * when the title changes, for a screen reader to say where the focus is. */
void       steward_accessible_name_expander_row (AdwExpanderRow *row);
/* The first button under @root, depth first, that shows the icon
 * @icon_name, or that has the style class @css_class; NULL for either
 * means any. For a toolkit's own button that has no name, such as the
 * search button of a preferences or shortcuts window. */
GtkWidget *steward_accessible_find_button       (GtkWidget      *root,
                                                 const char     *icon_name,
                                                 const char     *css_class);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-accessible"

#include "config.h"

#include "steward-accessible.h"

void
steward_accessible_name_drop_down (GtkDropDown *drop_down)
{
  GtkWidget *child;

  g_return_if_fail (GTK_IS_DROP_DOWN (drop_down));

  /* GTK 4.8 builds a drop-down from a toggle button and a popover, and
   * names neither. A relation rather than a copy of the text keeps the
   * name right when the drop-down's changes. */
  for (child = gtk_widget_get_first_child (GTK_WIDGET (drop_down));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_TOGGLE_BUTTON (child))
        gtk_accessible_update_relation (GTK_ACCESSIBLE (child),
                                        GTK_ACCESSIBLE_RELATION_LABELLED_BY, drop_down, NULL,
                                        -1);
    }
}

void
steward_accessible_name_list_item (GtkListItem *list_item)
{
  GtkWidget *child;
  GtkWidget *row;

  g_return_if_fail (GTK_IS_LIST_ITEM (list_item));

  child = gtk_list_item_get_child (list_item);
  row = child != NULL ? gtk_widget_get_parent (child) : NULL;
  if (row == NULL)
    return;

  gtk_accessible_update_relation (GTK_ACCESSIBLE (row),
                                  GTK_ACCESSIBLE_RELATION_LABELLED_BY, child, NULL,
                                  -1);
}

static void
expander_title_changed_cb (AdwPreferencesRow *row)
{
  const char *title = adw_preferences_row_get_title (row);

  gtk_accessible_update_property (GTK_ACCESSIBLE (row),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, title != NULL ? title : "",
                                  -1);
}

void
steward_accessible_name_expander_row (AdwExpanderRow *row)
{
  g_return_if_fail (ADW_IS_EXPANDER_ROW (row));

  /* libadwaita 1.2 names the header row inside, from the title, but not
   * the expander row around it. */
  g_signal_connect (row, "notify::title", G_CALLBACK (expander_title_changed_cb), NULL);
  expander_title_changed_cb (ADW_PREFERENCES_ROW (row));
}

GtkWidget *
steward_accessible_find_button (GtkWidget  *root,
                                const char *icon_name,
                                const char *css_class)
{
  g_return_val_if_fail (GTK_IS_WIDGET (root), NULL);

  if (GTK_IS_BUTTON (root) &&
      (icon_name == NULL || g_strcmp0 (gtk_button_get_icon_name (GTK_BUTTON (root)),
                                       icon_name) == 0) &&
      (css_class == NULL || gtk_widget_has_css_class (root, css_class)))
    return root;

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = steward_accessible_find_button (child, icon_name, css_class);

      if (found != NULL)
        return found;
    }

  return NULL;
}

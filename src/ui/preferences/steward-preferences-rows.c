/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-preferences-rows"

#include "config.h"

#include "steward-preferences-rows.h"

GtkWidget *
steward_prefs_new_button (const char *label,
                          const char *accessible,
                          const char *action,
                          const char *target)
{
  GtkWidget *button = gtk_button_new_with_mnemonic (label);

  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, accessible,
                                  -1);
  if (action != NULL)
    {
      gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "s", target);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
    }

  return button;
}

void
steward_prefs_clear_rows (AdwPreferencesGroup *group,
                          GPtrArray           *rows)
{
  for (guint i = 0; i < rows->len; i++)
    adw_preferences_group_remove (group, g_ptr_array_index (rows, i));
  g_ptr_array_set_size (rows, 0);
}

void
steward_prefs_add_placeholder (AdwPreferencesGroup *group,
                               GPtrArray           *rows,
                               const char          *title)
{
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  gtk_widget_add_css_class (row, "dim-label");
  adw_preferences_group_add (group, row);
  g_ptr_array_add (rows, row);
}

GtkWidget *
steward_prefs_find_row (GPtrArray  *rows,
                        const char *name)
{
  for (guint i = 0; i < rows->len; i++)
    {
      GtkWidget *row = g_ptr_array_index (rows, i);

      if (g_strcmp0 (gtk_widget_get_name (row), name) == 0)
        return row;
    }

  return NULL;
}

static void
save_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!steward_model_catalog_save_finish (STEWARD_MODEL_CATALOG (object), result, &error))
    g_warning ("%s", error->message);
}

void
steward_prefs_save_catalog (StewardModelCatalog *catalog)
{
  steward_model_catalog_save_async (catalog, NULL, save_done_cb, NULL);
}

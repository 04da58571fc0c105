/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-models-page"

#include "config.h"

#include <glib/gi18n.h>
#include <stdlib.h>

#include "steward-error-row.h"
#include "steward-model-row.h"
#include "steward-preferences-rows.h"

#include "steward-models-page.h"

struct _StewardModelsPage
{
  AdwPreferencesPage   parent_instance;

  StewardModelCatalog *catalog;
  GPtrArray           *hint_rows;
  GtkStringList       *hint_models;

  AdwPreferencesGroup *refresh_group;
  GtkListBox          *model_list;
  AdwPreferencesGroup *hints_group;
  AdwEntryRow         *hint_entry_row;
  AdwComboRow         *hint_model_row;
  StewardErrorRow     *hint_error_row;
};

G_DEFINE_FINAL_TYPE (StewardModelsPage, steward_models_page, ADW_TYPE_PREFERENCES_PAGE)

static void
scores_edited_cb (StewardModelsPage *self,
                  double             cost,
                  double             speed,
                  double             intelligence,
                  StewardModelRow   *row)
{
  StewardModel *model = steward_model_row_get_model (row);

  steward_model_catalog_set_scores (self->catalog, steward_model_get_id (model), cost, speed,
                                    intelligence);
  steward_prefs_save_catalog (self->catalog);
}

static GtkWidget *
create_model_row (gpointer item,
                  gpointer user_data)
{
  StewardModelsPage *self = user_data;
  GtkWidget *row = steward_model_row_new (STEWARD_MODEL (item));

  g_signal_connect_object (row, "scores-edited", G_CALLBACK (scores_edited_cb), self,
                           G_CONNECT_SWAPPED);

  return row;
}

static void
remove_model_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  StewardModelsPage *self = STEWARD_MODELS_PAGE (widget);

  steward_model_catalog_remove (self->catalog, g_variant_get_string (parameter, NULL));
  steward_prefs_save_catalog (self->catalog);
}

/* The hint form offers the catalogue's models by id. */
static void
rebuild_hint_models (StewardModelsPage *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->catalog));
  g_autofree char *selected = NULL;
  GObject *item = adw_combo_row_get_selected_item (self->hint_model_row);

  if (item != NULL)
    selected = g_strdup (gtk_string_object_get_string (GTK_STRING_OBJECT (item)));

  gtk_string_list_splice (self->hint_models, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->hint_models)), NULL);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(StewardModel) model = g_list_model_get_item (G_LIST_MODEL (self->catalog), i);

      gtk_string_list_append (self->hint_models, steward_model_get_id (model));
      if (g_strcmp0 (selected, steward_model_get_id (model)) == 0)
        adw_combo_row_set_selected (self->hint_model_row, i);
    }
}

/* The hint map */

static void
remove_hint_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  StewardModelsPage *self = STEWARD_MODELS_PAGE (widget);

  steward_model_catalog_set_hint (self->catalog, g_variant_get_string (parameter, NULL), NULL);
  steward_prefs_save_catalog (self->catalog);
}

/* A form's error goes as soon as the person changes what caused it. */
static void
hint_form_changed_cb (StewardModelsPage        *self)
{
  steward_error_row_clear (self->hint_error_row);
}

static void
add_hint_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  StewardModelsPage *self = STEWARD_MODELS_PAGE (widget);
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->hint_entry_row));
  g_autofree char *hint = g_strstrip (g_strdup (text ? text : ""));
  GObject *item = adw_combo_row_get_selected_item (self->hint_model_row);

  if (*hint == '\0')
    {
      steward_error_row_set_error (self->hint_error_row, _("The hint could not be added"),
                                   _("Write the hint first, such as “sonnet”"));
      return;
    }

  if (item == NULL)
    {
      steward_error_row_set_error (self->hint_error_row, _("The hint could not be added"),
                                   _("There is no model to send the hint to yet"));
      return;
    }

  steward_model_catalog_set_hint (self->catalog, hint,
                                  gtk_string_object_get_string (GTK_STRING_OBJECT (item)));
  steward_prefs_save_catalog (self->catalog);
  gtk_editable_set_text (GTK_EDITABLE (self->hint_entry_row), "");
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

static void
rebuild_hint_rows (StewardModelsPage        *self)
{
  GHashTable *hints = steward_model_catalog_get_hints (self->catalog);
  g_autofree const char **keys = NULL;
  guint n = 0;

  steward_prefs_clear_rows (self->hints_group, self->hint_rows);

  keys = (const char **) g_hash_table_get_keys_as_array (hints, &n);
  qsort (keys, n, sizeof (char *), compare_strings);

  for (guint i = 0; i < n; i++)
    {
      const char *model = g_hash_table_lookup (hints, keys[i]);
      g_autofree char *title = NULL;
      g_autofree char *accessible = NULL;
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *button;

      /* Translators: a hint family, then the model it sends to. */
      title = g_strdup_printf (_("%s → %s"), keys[i], model);
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
      if (steward_model_catalog_lookup (self->catalog, model) == NULL)
        adw_action_row_set_subtitle (ADW_ACTION_ROW (row), _("This model is not in your list"));
      gtk_widget_set_name (row, keys[i]);

      /* Translators: %s is a hint ("sonnet"); read by screen readers. */
      accessible = g_strdup_printf (_("Remove the hint “%s”"), keys[i]);
      button = steward_prefs_new_button (_("_Remove"), accessible, "prefs.remove-hint", keys[i]);
      gtk_widget_add_css_class (button, "flat");
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);

      adw_preferences_group_add (self->hints_group, row);
      g_ptr_array_add (self->hint_rows, row);
    }

  if (n == 0)
    steward_prefs_add_placeholder (self->hints_group, self->hint_rows,
                     _("No hints: a server’s names are matched against your models’ names"));
}

static void
catalog_items_changed_cb (StewardModelsPage *self)
{
  rebuild_hint_models (self);
  rebuild_hint_rows (self);
}

static void
steward_models_page_dispose (GObject *object)
{
  StewardModelsPage *self = STEWARD_MODELS_PAGE (object);

  if (self->catalog != NULL)
    g_signal_handlers_disconnect_by_data (self->catalog, self);

  gtk_widget_dispose_template (GTK_WIDGET (self), STEWARD_TYPE_MODELS_PAGE);

  g_clear_pointer (&self->hint_rows, g_ptr_array_unref);
  g_clear_object (&self->hint_models);
  g_clear_object (&self->catalog);

  G_OBJECT_CLASS (steward_models_page_parent_class)->dispose (object);
}

static void
steward_models_page_class_init (StewardModelsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = steward_models_page_dispose;

  g_type_ensure (STEWARD_TYPE_ERROR_ROW);
  g_type_ensure (STEWARD_TYPE_MODEL_ROW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/stewardmcp/Steward/"
                                               "preferences/steward-models-page.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardModelsPage, refresh_group);
  gtk_widget_class_bind_template_child (widget_class, StewardModelsPage, model_list);
  gtk_widget_class_bind_template_child (widget_class, StewardModelsPage, hints_group);
  gtk_widget_class_bind_template_child (widget_class, StewardModelsPage, hint_entry_row);
  gtk_widget_class_bind_template_child (widget_class, StewardModelsPage, hint_model_row);
  gtk_widget_class_bind_template_child (widget_class, StewardModelsPage, hint_error_row);
  gtk_widget_class_bind_template_callback (widget_class, hint_form_changed_cb);

  gtk_widget_class_install_action (widget_class, "prefs.remove-model", "s", remove_model_action);
  gtk_widget_class_install_action (widget_class, "prefs.add-hint", NULL, add_hint_action);
  gtk_widget_class_install_action (widget_class, "prefs.remove-hint", "s", remove_hint_action);
}

static void
steward_models_page_init (StewardModelsPage *self)
{
  GtkWidget *placeholder = adw_action_row_new ();

  self->hint_rows = g_ptr_array_new ();
  self->hint_models = gtk_string_list_new (NULL);

  gtk_widget_init_template (GTK_WIDGET (self));

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (placeholder),
                                 _("No models yet: refresh a provider’s models above"));
  gtk_widget_add_css_class (placeholder, "dim-label");
  gtk_list_box_set_placeholder (self->model_list, placeholder);
  adw_combo_row_set_model (self->hint_model_row, G_LIST_MODEL (self->hint_models));
}

/**
 * steward_models_page_set_catalog:
 *
 * Shows @catalog's models and hints, and follows them; set once, before
 * the page is shown.
 */
void
steward_models_page_set_catalog (StewardModelsPage   *self,
                                 StewardModelCatalog *catalog)
{
  g_return_if_fail (STEWARD_IS_MODELS_PAGE (self));
  g_return_if_fail (STEWARD_IS_MODEL_CATALOG (catalog));
  g_return_if_fail (self->catalog == NULL);

  self->catalog = g_object_ref (catalog);
  gtk_list_box_bind_model (self->model_list, G_LIST_MODEL (self->catalog), create_model_row,
                           self, NULL);
  g_signal_connect_object (self->catalog, "items-changed",
                           G_CALLBACK (catalog_items_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->catalog, "hints-changed",
                           G_CALLBACK (rebuild_hint_rows), self, G_CONNECT_SWAPPED);

  rebuild_hint_models (self);
  rebuild_hint_rows (self);
}

AdwPreferencesGroup *
steward_models_page_get_refresh_group (StewardModelsPage *self)
{
  g_return_val_if_fail (STEWARD_IS_MODELS_PAGE (self), NULL);

  return self->refresh_group;
}

AdwExpanderRow *
steward_models_page_get_model_row (StewardModelsPage *self,
                                   const char        *id)
{
  g_return_val_if_fail (STEWARD_IS_MODELS_PAGE (self), NULL);

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->model_list));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (STEWARD_IS_MODEL_ROW (child)
          && g_strcmp0 (steward_model_get_id (steward_model_row_get_model (STEWARD_MODEL_ROW (child))),
                        id) == 0)
        return ADW_EXPANDER_ROW (child);
    }

  return NULL;
}

AdwActionRow *
steward_models_page_get_hint_row (StewardModelsPage *self,
                                  const char        *hint)
{
  g_return_val_if_fail (STEWARD_IS_MODELS_PAGE (self), NULL);

  return (AdwActionRow *) steward_prefs_find_row (self->hint_rows, hint);
}

void
steward_models_page_get_hint_form (StewardModelsPage  *self,
                                   AdwEntryRow       **hint,
                                   AdwComboRow       **model)
{
  g_return_if_fail (STEWARD_IS_MODELS_PAGE (self));

  *hint = self->hint_entry_row;
  *model = self->hint_model_row;
}

GtkWidget *
steward_models_page_get_hint_error_row (StewardModelsPage *self)
{
  g_return_val_if_fail (STEWARD_IS_MODELS_PAGE (self), NULL);

  return GTK_WIDGET (self->hint_error_row);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-preferences-window"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "steward-accessible.h"
#include "steward-manual-provider.h"
#include "steward-provider-migration.h"

#include "steward-error-row.h"
#include "steward-models-page.h"
#include "steward-preferences-rows.h"
#include "steward-calls-page.h"
#include "steward-providers-page.h"
#include "steward-sampling-page.h"

#include "steward-preferences-window-private.h"


/* The nicks of the "color-scheme" key, in the order of the style row. */
static const char * const color_scheme_keys[] = { "follow", "light", "dark" };

struct _StewardPreferencesWindow
{
  AdwPreferencesWindow   parent_instance;

  StewardHost           *host;
  StewardProviders      *providers;
  StewardModelCatalog   *catalog;
  GSettings             *settings;
  GCancellable          *cancellable;

  /* Provider id → the row under its refresh row that shows its error. */
  GHashTable            *refresh_error_rows;
  GPtrArray             *refresh_rows;

  StewardProvidersPage  *providers_page;
  AdwPreferencesGroup   *refresh_group;
  StewardModelsPage     *models_page;
  StewardSamplingPage   *sampling_page;
  AdwComboRow           *color_scheme_row;
};

enum {
  PROP_0,
  PROP_HOST,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (StewardPreferencesWindow, steward_preferences_window,
                     ADW_TYPE_PREFERENCES_WINDOW)

/* Shorter, for the template bindings. */
typedef StewardPreferencesWindow Prefs;

/* libadwaita 1.2 reads a toast's title as markup: escape what we show. */
static void
show_toast (StewardPreferencesWindow *self,
            const char               *title)
{
  g_autofree char *escaped = g_markup_escape_text (title, -1);

  adw_preferences_window_add_toast (ADW_PREFERENCES_WINDOW (self), adw_toast_new (escaped));
}

/* Providers */

static GtkWidget *
create_refresh_row (StewardPreferencesWindow *self,
                    StewardProvider          *provider)
{
  const char *id = steward_provider_get_id (provider);
  const char *name = steward_provider_get_display_name (provider);
  g_autofree char *accessible = NULL;
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *button;

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), name);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), steward_provider_is_local (provider)
                                                     ? _("On this computer")
                                                     : _("Over the network"));
  /* Translators: %s is a provider's name; read by screen readers. */
  accessible = g_strdup_printf (_("Refresh the models of %s"), name);
  button = steward_prefs_new_button (_("Refresh _Models"), accessible, "prefs.refresh-models", id);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), button);
  gtk_widget_set_name (row, id);

  return row;
}

/* Under the refresh row, the error the last refresh ended with, as the
 * Providers page keeps it, until a refresh works, the provider is edited or
 * the person dismisses it. */
static void
show_refresh_error (StewardPreferencesWindow *self,
                    const char               *id)
{
  GtkWidget *row = g_hash_table_lookup (self->refresh_error_rows, id);
  const char *message = steward_providers_page_get_error (self->providers_page, id);
  g_autofree char *title = steward_providers_page_dup_error_title (self->providers_page, id);

  if (row == NULL)
    return;
  if (message != NULL && title != NULL)
    steward_error_row_set_error (STEWARD_ERROR_ROW (row), title, message);
  else
    steward_error_row_clear (STEWARD_ERROR_ROW (row));
}

static void
refresh_error_dismissed_cb (StewardPreferencesWindow *self,
                            GtkWidget                *row)
{
  steward_providers_page_set_error (self->providers_page, gtk_widget_get_name (row), NULL);
}

static GtkWidget *
create_refresh_error_row (StewardPreferencesWindow *self,
                          StewardProvider          *provider)
{
  const char *id = steward_provider_get_id (provider);
  GtkWidget *row = steward_error_row_new ();

  gtk_widget_set_name (row, id);
  steward_error_row_set_retry (STEWARD_ERROR_ROW (row), "prefs.refresh-models", id);
  g_signal_connect_object (row, "dismissed", G_CALLBACK (refresh_error_dismissed_cb), self,
                           G_CONNECT_SWAPPED);

  return row;
}

static void
rebuild_refresh_rows (StewardPreferencesWindow *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->providers));

  steward_prefs_clear_rows (self->refresh_group, self->refresh_rows);
  g_hash_table_remove_all (self->refresh_error_rows);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(StewardProvider) provider = g_list_model_get_item (G_LIST_MODEL (self->providers),
                                                                   i);
      const char *id = steward_provider_get_id (provider);
      GtkWidget *row;

      /* The person is always there to write an answer; no models to find. */
      if (g_strcmp0 (id, STEWARD_MANUAL_PROVIDER_ID) == 0)
        continue;

      row = create_refresh_row (self, provider);
      adw_preferences_group_add (self->refresh_group, row);
      g_ptr_array_add (self->refresh_rows, row);

      row = create_refresh_error_row (self, provider);
      adw_preferences_group_add (self->refresh_group, row);
      g_ptr_array_add (self->refresh_rows, row);
      g_hash_table_replace (self->refresh_error_rows, g_strdup (id), row);
      show_refresh_error (self, id);
    }

  if (self->refresh_rows->len == 0)
    steward_prefs_add_placeholder (self->refresh_group, self->refresh_rows,
                                   _("Add a provider to find its models"));
}

/* Settings from before providers.json become providers, once. */
static void
migrated_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  steward_providers_migrate_legacy_finish (STEWARD_PROVIDERS (object), result, &error);
  if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_warning ("A provider set up before could not be kept: %s", error->message);
}

/* Models */

typedef struct
{
  StewardPreferencesWindow *self;
  char                     *provider_id;
  gboolean                  local;
} Refresh;

static void
refresh_free (Refresh *refresh)
{
  g_free (refresh->provider_id);
  g_free (refresh);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Refresh, refresh_free)

static void
list_models_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(Refresh) refresh = user_data;
  g_autoptr(GPtrArray) names = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *title = NULL;
  StewardPreferencesWindow *self;
  guint before;
  guint added;

  names = steward_provider_list_models_finish (STEWARD_PROVIDER (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = refresh->self;
  if (names == NULL)
    {
      steward_providers_page_set_error (self->providers_page, refresh->provider_id, error->message);
      return;
    }

  steward_providers_page_set_error (self->providers_page, refresh->provider_id, NULL);

  before = g_list_model_get_n_items (G_LIST_MODEL (self->catalog));
  for (guint i = 0; i < names->len; i++)
    steward_model_catalog_add (self->catalog, refresh->provider_id,
                               g_ptr_array_index (names, i), refresh->local);
  added = g_list_model_get_n_items (G_LIST_MODEL (self->catalog)) - before;
  steward_prefs_save_catalog (self->catalog);

  title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                        "%u model found, %u new",
                                        "%u models found, %u new",
                                        names->len),
                           names->len, added);
  show_toast (self, title);
}

static void
refresh_models_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  StewardPreferencesWindow *self = STEWARD_PREFERENCES_WINDOW (widget);
  StewardProvider *provider = steward_providers_lookup (self->providers,
                                                        g_variant_get_string (parameter, NULL));
  Refresh *refresh;

  if (provider == NULL)
    return;

  refresh = g_new0 (Refresh, 1);
  refresh->self = self;
  refresh->provider_id = g_strdup (steward_provider_get_id (provider));
  refresh->local = steward_provider_is_local (provider);
  steward_provider_list_models_async (provider, self->cancellable, list_models_cb, refresh);
}

static AdwColorScheme
color_scheme_from_index (guint index)
{
  switch (index)
    {
    case 1:
      return ADW_COLOR_SCHEME_FORCE_LIGHT;
    case 2:
      return ADW_COLOR_SCHEME_FORCE_DARK;
    default:
      return ADW_COLOR_SCHEME_DEFAULT;
    }
}

static guint
color_scheme_index (GSettings *settings)
{
  g_autofree char *scheme = g_settings_get_string (settings, "color-scheme");
  guint i;

  for (i = 0; i < G_N_ELEMENTS (color_scheme_keys); i++)
    {
      if (g_strcmp0 (scheme, color_scheme_keys[i]) == 0)
        return i;
    }

  return 0;
}

static void
color_scheme_setting_cb (StewardPreferencesWindow *self)
{
  guint index = color_scheme_index (self->settings);

  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      color_scheme_from_index (index));
  if (adw_combo_row_get_selected (self->color_scheme_row) != index)
    adw_combo_row_set_selected (self->color_scheme_row, index);
}

static void
color_scheme_selected_cb (StewardPreferencesWindow *self)
{
  guint selected = adw_combo_row_get_selected (self->color_scheme_row);

  if (selected >= G_N_ELEMENTS (color_scheme_keys))
    return;

  if (selected != color_scheme_index (self->settings))
    g_settings_set_string (self->settings, "color-scheme", color_scheme_keys[selected]);
}

static void
steward_preferences_window_constructed (GObject *object)
{
  StewardPreferencesWindow *self = STEWARD_PREFERENCES_WINDOW (object);

  G_OBJECT_CLASS (steward_preferences_window_parent_class)->constructed (object);

  g_return_if_fail (STEWARD_IS_HOST (self->host));

  self->providers = g_object_ref (steward_host_get_providers (self->host));
  self->catalog = g_object_ref (steward_host_get_model_catalog (self->host));
  steward_providers_page_set_host (self->providers_page, self->host);
  steward_models_page_set_catalog (self->models_page, self->catalog);
  self->refresh_group = steward_models_page_get_refresh_group (self->models_page);
  steward_sampling_page_set_host (self->sampling_page, self->host);

  steward_providers_migrate_legacy_async (self->providers, self->settings,
                                          steward_host_get_secrets (self->host),
                                          self->cancellable, migrated_cb, NULL);

  g_signal_connect_object (self->providers, "items-changed",
                           G_CALLBACK (rebuild_refresh_rows), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->providers_page, "error-changed",
                           G_CALLBACK (show_refresh_error), self, G_CONNECT_SWAPPED);

  rebuild_refresh_rows (self);
}

static void
steward_preferences_window_dispose (GObject *object)
{
  StewardPreferencesWindow *self = STEWARD_PREFERENCES_WINDOW (object);

  g_cancellable_cancel (self->cancellable);

  if (self->providers != NULL)
    g_signal_handlers_disconnect_by_data (self->providers, self);
  if (self->catalog != NULL)
    g_signal_handlers_disconnect_by_data (self->catalog, self);
  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);

  gtk_widget_dispose_template (GTK_WIDGET (self), STEWARD_TYPE_PREFERENCES_WINDOW);

  g_clear_pointer (&self->refresh_rows, g_ptr_array_unref);
  g_clear_pointer (&self->refresh_error_rows, g_hash_table_unref);
  g_clear_object (&self->settings);
  g_clear_object (&self->catalog);
  g_clear_object (&self->providers);
  g_clear_object (&self->host);

  G_OBJECT_CLASS (steward_preferences_window_parent_class)->dispose (object);
}

static void
steward_preferences_window_finalize (GObject *object)
{
  StewardPreferencesWindow *self = STEWARD_PREFERENCES_WINDOW (object);

  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (steward_preferences_window_parent_class)->finalize (object);
}

static void
steward_preferences_window_get_property (GObject    *object,
                                         guint       prop_id,
                                         GValue     *value,
                                         GParamSpec *pspec)
{
  StewardPreferencesWindow *self = STEWARD_PREFERENCES_WINDOW (object);

  switch (prop_id)
    {
    case PROP_HOST:
      g_value_set_object (value, self->host);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_preferences_window_set_property (GObject      *object,
                                         guint         prop_id,
                                         const GValue *value,
                                         GParamSpec   *pspec)
{
  StewardPreferencesWindow *self = STEWARD_PREFERENCES_WINDOW (object);

  switch (prop_id)
    {
    case PROP_HOST:
      self->host = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_preferences_window_class_init (StewardPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = steward_preferences_window_constructed;
  object_class->dispose = steward_preferences_window_dispose;
  object_class->finalize = steward_preferences_window_finalize;
  object_class->get_property = steward_preferences_window_get_property;
  object_class->set_property = steward_preferences_window_set_property;

  properties[PROP_HOST] =
    g_param_spec_object ("host", NULL, NULL,
                         STEWARD_TYPE_HOST,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (STEWARD_TYPE_PROVIDERS_PAGE);
  g_type_ensure (STEWARD_TYPE_MODELS_PAGE);
  g_type_ensure (STEWARD_TYPE_SAMPLING_PAGE);
  g_type_ensure (STEWARD_TYPE_CALLS_PAGE);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/stewardmcp/Steward/"
                                                             "steward-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, Prefs, providers_page);
  gtk_widget_class_bind_template_child (widget_class, Prefs, models_page);
  gtk_widget_class_bind_template_child (widget_class, Prefs, sampling_page);
  gtk_widget_class_bind_template_child (widget_class, Prefs, color_scheme_row);

  gtk_widget_class_install_action (widget_class, "prefs.refresh-models", "s",
                                   refresh_models_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
steward_preferences_window_init (StewardPreferencesWindow *self)
{
  GtkWidget *search;

  self->cancellable = g_cancellable_new ();
  self->refresh_rows = g_ptr_array_new ();
  self->refresh_error_rows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  gtk_widget_init_template (GTK_WIDGET (self));
  /* libadwaita 1.2 gives its search button an icon and a tooltip only. */
  search = steward_accessible_find_button (GTK_WIDGET (self), "edit-find-symbolic", NULL);
  if (search != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (search),
                                    GTK_ACCESSIBLE_PROPERTY_LABEL, _("Search"),
                                    -1);

  self->settings = g_settings_new (APPLICATION_ID);

  adw_combo_row_set_selected (self->color_scheme_row, color_scheme_index (self->settings));
  g_signal_connect_object (self->color_scheme_row, "notify::selected",
                           G_CALLBACK (color_scheme_selected_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed::color-scheme",
                           G_CALLBACK (color_scheme_setting_cb), self, G_CONNECT_SWAPPED);
}

GtkWidget *
steward_preferences_window_new (StewardHost *host)
{
  g_return_val_if_fail (STEWARD_IS_HOST (host), NULL);

  return g_object_new (STEWARD_TYPE_PREFERENCES_WINDOW, "host", host, NULL);
}

void
steward_preferences_window_apply_sampling_defaults (StewardHost *host,
                                                    GSettings   *settings)
{
  steward_sampling_page_apply_defaults (host, settings);
}

/**
 * steward_preferences_window_get_key_row:
 * @key_id: the keyring id of a provider's key ("provider.anthropic")
 */
AdwActionRow *
steward_preferences_window_get_key_row (StewardPreferencesWindow *self,
                                        const char               *key_id)
{
  g_return_val_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self), NULL);

  return steward_providers_page_get_key_row (self->providers_page, key_id);
}

AdwMessageDialog *
steward_preferences_window_get_key_dialog (StewardPreferencesWindow *self)
{
  g_return_val_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self), NULL);

  return steward_providers_page_get_key_dialog (self->providers_page);
}

AdwComboRow *
steward_preferences_window_get_color_scheme_row (StewardPreferencesWindow *self)
{
  g_return_val_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self), NULL);

  return self->color_scheme_row;
}

AdwActionRow *
steward_preferences_window_get_ollama_row (StewardPreferencesWindow *self)
{
  g_return_val_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self), NULL);

  return steward_providers_page_get_ollama_row (self->providers_page);
}

AdwExpanderRow *
steward_preferences_window_get_provider_row (StewardPreferencesWindow *self,
                                             const char               *id)
{
  g_return_val_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self), NULL);

  return steward_providers_page_get_provider_row (self->providers_page, id);
}

AdwActionRow *
steward_preferences_window_get_refresh_row (StewardPreferencesWindow *self,
                                            const char               *id)
{
  g_return_val_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self), NULL);

  return (AdwActionRow *) steward_prefs_find_row (self->refresh_rows, id);
}

AdwExpanderRow *
steward_preferences_window_get_model_row (StewardPreferencesWindow *self,
                                          const char               *id)
{
  g_return_val_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self), NULL);

  return steward_models_page_get_model_row (self->models_page, id);
}

AdwActionRow *
steward_preferences_window_get_hint_row (StewardPreferencesWindow *self,
                                         const char               *hint)
{
  g_return_val_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self), NULL);

  return steward_models_page_get_hint_row (self->models_page, hint);
}

AdwExpanderRow *
steward_preferences_window_get_server_row (StewardPreferencesWindow *self,
                                           const char               *server)
{
  g_return_val_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self), NULL);

  return steward_sampling_page_get_server_row (self->sampling_page, server);
}

void
steward_preferences_window_get_add_rows (StewardPreferencesWindow  *self,
                                         AdwComboRow              **kind,
                                         AdwEntryRow              **name,
                                         AdwEntryRow              **url)
{
  g_return_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self));

  steward_providers_page_get_add_rows (self->providers_page, kind, name, url);
}

void
steward_preferences_window_get_hint_rows (StewardPreferencesWindow  *self,
                                          AdwEntryRow              **hint,
                                          AdwComboRow              **model)
{
  g_return_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self));

  steward_models_page_get_hint_form (self->models_page, hint, model);
}

GtkWidget *
steward_preferences_window_get_refresh_error_row (StewardPreferencesWindow *self,
                                                  const char               *id)
{
  g_return_val_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self), NULL);

  return g_hash_table_lookup (self->refresh_error_rows, id);
}

GtkWidget *
steward_preferences_window_get_add_error_row (StewardPreferencesWindow *self)
{
  g_return_val_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self), NULL);

  return steward_providers_page_get_add_error_row (self->providers_page);
}

GtkWidget *
steward_preferences_window_get_hint_error_row (StewardPreferencesWindow *self)
{
  g_return_val_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self), NULL);

  return steward_models_page_get_hint_error_row (self->models_page);
}

StewardModelsPage *
steward_preferences_window_get_models_page (StewardPreferencesWindow *self)
{
  g_return_val_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self), NULL);

  return self->models_page;
}

StewardProvidersPage *
steward_preferences_window_get_providers_page (StewardPreferencesWindow *self)
{
  g_return_val_if_fail (STEWARD_IS_PREFERENCES_WINDOW (self), NULL);

  return self->providers_page;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-sampling-page"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-audit-dialog.h"
#include "steward-sampling-row.h"

#include "steward-sampling-page.h"

typedef struct
{
  StewardSamplingPolicy policy;
  guint                 max_tokens;
  guint                 per_minute;
  guint                 daily_tokens;
} SamplingDefaults;

struct _StewardSamplingPage
{
  AdwPreferencesPage     parent_instance;

  StewardHost           *host;
  StewardSamplingBroker *broker;
  StewardModelCatalog   *catalog;
  GListModel            *registry;
  GSettings             *settings;
  gboolean               syncing;

  AdwComboRow           *default_policy_row;
  GtkSpinButton         *default_max_tokens_spin;
  GtkSpinButton         *default_per_minute_spin;
  GtkSpinButton         *default_daily_tokens_spin;
  GtkListBox            *server_list;
};

G_DEFINE_FINAL_TYPE (StewardSamplingPage, steward_sampling_page, ADW_TYPE_PREFERENCES_PAGE)

static void
show_audit_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  StewardSamplingPage *self = STEWARD_SAMPLING_PAGE (widget);
  GtkWidget *dialog = steward_audit_dialog_new (self->host);

  gtk_window_set_transient_for (GTK_WINDOW (dialog),
                                GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (self))));
  gtk_window_set_modal (GTK_WINDOW (dialog), TRUE);
  gtk_window_present (GTK_WINDOW (dialog));
}

static SamplingDefaults
read_sampling_defaults (GSettings *settings)
{
  g_autofree char *policy = g_settings_get_string (settings, "sampling-default-policy");
  SamplingDefaults defaults;

  defaults.policy = g_strcmp0 (policy, "deny") == 0 ? STEWARD_SAMPLING_POLICY_DENY
                                                    : STEWARD_SAMPLING_POLICY_ASK;
  defaults.max_tokens = g_settings_get_uint (settings, "sampling-default-max-tokens");
  defaults.per_minute = g_settings_get_uint (settings, "sampling-default-per-minute");
  defaults.daily_tokens = g_settings_get_uint (settings, "sampling-default-daily-tokens");

  return defaults;
}

static GtkWidget *
create_server_row (gpointer item,
                   gpointer user_data)
{
  StewardSamplingPage *self = user_data;

  return steward_sampling_row_new (self->broker, self->catalog,
                                   steward_server_get_name (STEWARD_SERVER (item)));
}

static void
registry_items_changed_cb (StewardSamplingPage      *self)
{
  steward_sampling_page_apply_defaults (self->host, self->settings);
}

static void
default_policy_selected_cb (StewardSamplingPage      *self)
{
  guint selected = adw_combo_row_get_selected (self->default_policy_row);

  if (self->syncing || selected == GTK_INVALID_LIST_POSITION)
    return;

  g_settings_set_string (self->settings, "sampling-default-policy",
                         selected == 0 ? "deny" : "ask");
}

static void
sync_default_policy (StewardSamplingPage      *self)
{
  SamplingDefaults defaults = read_sampling_defaults (self->settings);

  self->syncing = TRUE;
  adw_combo_row_set_selected (self->default_policy_row,
                              defaults.policy == STEWARD_SAMPLING_POLICY_DENY ? 0 : 1);
  self->syncing = FALSE;
}

static void
steward_sampling_page_dispose (GObject *object)
{
  StewardSamplingPage *self = STEWARD_SAMPLING_PAGE (object);

  if (self->registry != NULL)
    g_signal_handlers_disconnect_by_data (self->registry, self);
  if (self->broker != NULL)
    g_signal_handlers_disconnect_by_data (self->broker, self);
  if (self->catalog != NULL)
    g_signal_handlers_disconnect_by_data (self->catalog, self);
  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);

  gtk_widget_dispose_template (GTK_WIDGET (self), STEWARD_TYPE_SAMPLING_PAGE);

  g_clear_object (&self->settings);
  g_clear_object (&self->registry);
  g_clear_object (&self->catalog);
  g_clear_object (&self->broker);
  g_clear_object (&self->host);

  G_OBJECT_CLASS (steward_sampling_page_parent_class)->dispose (object);
}

static void
steward_sampling_page_class_init (StewardSamplingPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = steward_sampling_page_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/stewardmcp/Steward/"
                                               "preferences/steward-sampling-page.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingPage, default_policy_row);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingPage,
                                        default_max_tokens_spin);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingPage,
                                        default_per_minute_spin);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingPage,
                                        default_daily_tokens_spin);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingPage, server_list);

  gtk_widget_class_install_action (widget_class, "prefs.show-audit", NULL, show_audit_action);
}

static void
steward_sampling_page_init (StewardSamplingPage *self)
{
  GtkWidget *placeholder = adw_action_row_new ();

  gtk_widget_init_template (GTK_WIDGET (self));

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (placeholder),
                                 _("No servers are set up yet"));
  gtk_widget_add_css_class (placeholder, "dim-label");
  gtk_list_box_set_placeholder (self->server_list, placeholder);
  self->settings = g_settings_new (APPLICATION_ID);

  g_settings_bind (self->settings, "sampling-default-max-tokens",
                   gtk_spin_button_get_adjustment (self->default_max_tokens_spin), "value",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "sampling-default-per-minute",
                   gtk_spin_button_get_adjustment (self->default_per_minute_spin), "value",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "sampling-default-daily-tokens",
                   gtk_spin_button_get_adjustment (self->default_daily_tokens_spin), "value",
                   G_SETTINGS_BIND_DEFAULT);

  sync_default_policy (self);
  g_signal_connect_object (self->default_policy_row, "notify::selected",
                           G_CALLBACK (default_policy_selected_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed::sampling-default-policy",
                           G_CALLBACK (sync_default_policy), self, G_CONNECT_SWAPPED);
}

/**
 * steward_sampling_page_set_host:
 *
 * Shows @host's servers and their sampling settings, and follows them;
 * set once, before the page is shown.
 */
void
steward_sampling_page_set_host (StewardSamplingPage *self,
                                StewardHost         *host)
{
  g_return_if_fail (STEWARD_IS_SAMPLING_PAGE (self));
  g_return_if_fail (STEWARD_IS_HOST (host));
  g_return_if_fail (self->host == NULL);

  self->host = g_object_ref (host);
  self->broker = g_object_ref (steward_host_get_sampling_broker (host));
  self->catalog = g_object_ref (steward_host_get_model_catalog (host));
  self->registry = g_object_ref (G_LIST_MODEL (steward_host_get_registry (host)));

  /* Connected before the list is bound: a new server has its defaults
   * before its row shows its settings. */
  g_signal_connect_object (self->registry, "items-changed",
                           G_CALLBACK (registry_items_changed_cb), self, G_CONNECT_SWAPPED);
  steward_sampling_page_apply_defaults (self->host, self->settings);
  gtk_list_box_bind_model (self->server_list, self->registry, create_server_row, self, NULL);
}

static gboolean
has_builtin_values (StewardSamplingSettings *sampling)
{
  return steward_sampling_settings_get_policy (sampling) == STEWARD_SAMPLING_POLICY_ASK &&
         steward_sampling_settings_get_max_tokens (sampling) ==
           STEWARD_SAMPLING_DEFAULT_MAX_TOKENS &&
         steward_sampling_settings_get_per_minute (sampling) ==
           STEWARD_SAMPLING_DEFAULT_PER_MINUTE &&
         steward_sampling_settings_get_daily_tokens (sampling) ==
           STEWARD_SAMPLING_DEFAULT_DAILY_TOKENS;
}

void
steward_sampling_page_apply_defaults (StewardHost *host,
                                      GSettings   *settings)
{
  StewardSamplingBroker *broker;
  GListModel *registry;
  SamplingDefaults defaults;
  g_auto(GStrv) seen = NULL;
  g_autoptr(GStrvBuilder) builder = NULL;
  gboolean changed = FALSE;
  guint n_servers;
  guint i;

  g_return_if_fail (STEWARD_IS_HOST (host));
  g_return_if_fail (G_IS_SETTINGS (settings));

  broker = steward_host_get_sampling_broker (host);
  registry = G_LIST_MODEL (steward_host_get_registry (host));
  defaults = read_sampling_defaults (settings);
  seen = g_settings_get_strv (settings, "sampling-defaults-applied");
  builder = g_strv_builder_new ();
  g_strv_builder_addv (builder, (const char **) seen);

  n_servers = g_list_model_get_n_items (registry);
  for (i = 0; i < n_servers; i++)
    {
      g_autoptr(StewardServer) server = g_list_model_get_item (registry, i);
      const char *name = steward_server_get_name (server);
      StewardSamplingSettings *sampling;

      if (g_strv_contains ((const char * const *) seen, name))
        continue;

      /* The broker has no defaults of its own to set, so a server still on
       * the broker's built-in values gets these once; a server that already
       * has settings (from policies.json) keeps them. */
      sampling = steward_sampling_broker_get_settings (broker, name);
      if (has_builtin_values (sampling))
        {
          if (defaults.policy != STEWARD_SAMPLING_POLICY_ASK)
            steward_sampling_settings_set_policy (sampling, defaults.policy);
          if (defaults.max_tokens != STEWARD_SAMPLING_DEFAULT_MAX_TOKENS)
            steward_sampling_settings_set_max_tokens (sampling, defaults.max_tokens);
          if (defaults.per_minute != STEWARD_SAMPLING_DEFAULT_PER_MINUTE)
            steward_sampling_settings_set_per_minute (sampling, defaults.per_minute);
          if (defaults.daily_tokens != STEWARD_SAMPLING_DEFAULT_DAILY_TOKENS)
            steward_sampling_settings_set_daily_tokens (sampling, defaults.daily_tokens);
        }

      g_strv_builder_add (builder, name);
      changed = TRUE;
    }

  if (changed)
    {
      g_auto(GStrv) now_seen = g_strv_builder_end (builder);

      g_settings_set_strv (settings, "sampling-defaults-applied", (const char * const *) now_seen);
    }
}

AdwExpanderRow *
steward_sampling_page_get_server_row (StewardSamplingPage *self,
                                      const char          *server)
{
  g_return_val_if_fail (STEWARD_IS_SAMPLING_PAGE (self), NULL);

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->server_list));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (STEWARD_IS_SAMPLING_ROW (child)
          && g_strcmp0 (steward_sampling_row_get_server_name (STEWARD_SAMPLING_ROW (child)),
                        server) == 0)
        return ADW_EXPANDER_ROW (child);
    }

  return NULL;
}


/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-sampling-page"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-accessible.h"
#include "steward-audit-dialog.h"

#include "steward-sampling-page.h"

typedef enum {
  LIMIT_MAX_TOKENS,
  LIMIT_PER_MINUTE,
  LIMIT_DAILY_TOKENS,
} Limit;

typedef struct
{
  StewardSamplingPolicy policy;
  guint                 max_tokens;
  guint                 per_minute;
  guint                 daily_tokens;
} SamplingDefaults;

static const char * const policy_labels[] = {
  [STEWARD_SAMPLING_POLICY_DENY] = N_("Deny"),
  [STEWARD_SAMPLING_POLICY_ASK] = N_("Ask Every Time"),
  [STEWARD_SAMPLING_POLICY_ALLOW_SESSION] = N_("Allow for This Session"),
  [STEWARD_SAMPLING_POLICY_ALWAYS] = N_("Always Allow"),
};

struct _StewardSamplingPage
{
  AdwPreferencesPage     parent_instance;

  StewardHost           *host;
  StewardSamplingBroker *broker;
  StewardModelCatalog   *catalog;
  GListModel            *registry;
  GSettings             *settings;
  GPtrArray             *server_rows;
  gboolean               syncing;

  AdwComboRow           *default_policy_row;
  GtkSpinButton         *default_max_tokens_spin;
  GtkSpinButton         *default_per_minute_spin;
  GtkSpinButton         *default_daily_tokens_spin;
  AdwPreferencesGroup   *servers_group;
};

G_DEFINE_FINAL_TYPE (StewardSamplingPage, steward_sampling_page, ADW_TYPE_PREFERENCES_PAGE)

#define SERVER_KEY "steward-server"
#define LIMIT_KEY  "steward-limit"
#define MODEL_KEY  "steward-model"

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

static guint
get_limit (StewardSamplingSettings *sampling,
           Limit                    limit)
{
  switch (limit)
    {
    case LIMIT_MAX_TOKENS:
      return steward_sampling_settings_get_max_tokens (sampling);
    case LIMIT_PER_MINUTE:
      return steward_sampling_settings_get_per_minute (sampling);
    case LIMIT_DAILY_TOKENS:
    default:
      return steward_sampling_settings_get_daily_tokens (sampling);
    }
}

static void
set_limit (StewardSamplingSettings *sampling,
           Limit                    limit,
           guint                    value)
{
  switch (limit)
    {
    case LIMIT_MAX_TOKENS:
      steward_sampling_settings_set_max_tokens (sampling, value);
      break;
    case LIMIT_PER_MINUTE:
      steward_sampling_settings_set_per_minute (sampling, value);
      break;
    case LIMIT_DAILY_TOKENS:
    default:
      steward_sampling_settings_set_daily_tokens (sampling, value);
      break;
    }
}

static StewardSamplingSettings *
get_sampling (StewardSamplingPage *self,
              const char          *server)
{
  return steward_sampling_broker_get_settings (self->broker, server);
}

static char *
describe_server (StewardSamplingPage      *self,
                 const char               *server)
{
  StewardSamplingPolicy policy = steward_sampling_settings_get_policy (get_sampling (self, server));
  guint used = steward_sampling_broker_get_tokens_used (self->broker, server);
  const char *policy_label = (guint) policy < G_N_ELEMENTS (policy_labels) ?
                             _(policy_labels[policy]) : "";

  /* Translators: a sampling policy ("Ask Every Time"), then a count of tokens. */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%s · %u token used today",
                                       "%s · %u tokens used today",
                                       used),
                          policy_label, used);
}

static void
sync_server_row (StewardSamplingPage      *self,
                 GtkWidget                *row)
{
  const char *server = g_object_get_data (G_OBJECT (row), SERVER_KEY);
  AdwComboRow *policy_row = g_object_get_data (G_OBJECT (row), "steward-policy-row");
  GtkLabel *used_label = g_object_get_data (G_OBJECT (row), "steward-used-label");
  GtkSwitch *local_switch = g_object_get_data (G_OBJECT (row), "steward-local-switch");
  GtkSwitch *any_switch = g_object_get_data (G_OBJECT (row), "steward-any-switch");
  GPtrArray *checks = g_object_get_data (G_OBJECT (row), "steward-checks");
  StewardSamplingSettings *sampling;
  const char * const *allowed;
  g_autofree char *subtitle = NULL;
  g_autofree char *used = NULL;
  Limit limit;

  if (server == NULL)
    return;

  sampling = get_sampling (self, server);
  self->syncing = TRUE;

  adw_combo_row_set_selected (policy_row, steward_sampling_settings_get_policy (sampling));
  for (limit = LIMIT_MAX_TOKENS; limit <= LIMIT_DAILY_TOKENS; limit++)
    {
      static const char * const keys[] = {
        "steward-max-spin", "steward-minute-spin", "steward-daily-spin",
      };
      GtkSpinButton *spin = g_object_get_data (G_OBJECT (row), keys[limit]);

      gtk_spin_button_set_value (spin, get_limit (sampling, limit));
    }

  used = g_strdup_printf ("%u", steward_sampling_broker_get_tokens_used (self->broker, server));
  gtk_label_set_text (used_label, used);
  subtitle = describe_server (self, server);
  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (row), subtitle);

  allowed = steward_sampling_settings_get_models (sampling);
  gtk_switch_set_active (local_switch, steward_sampling_settings_get_local_only (sampling));
  gtk_switch_set_active (any_switch, allowed == NULL);
  for (guint i = 0; i < checks->len; i++)
    {
      GtkCheckButton *check = g_ptr_array_index (checks, i);
      const char *id = g_object_get_data (G_OBJECT (check), MODEL_KEY);

      gtk_check_button_set_active (check, allowed == NULL || g_strv_contains (allowed, id));
      gtk_widget_set_sensitive (GTK_WIDGET (check), allowed != NULL);
    }

  self->syncing = FALSE;
}

static void
local_only_cb (StewardSamplingPage      *self,
               GParamSpec               *pspec,
               GtkSwitch                *widget)
{
  const char *server = g_object_get_data (G_OBJECT (widget), SERVER_KEY);

  if (!self->syncing)
    steward_sampling_settings_set_local_only (get_sampling (self, server),
                                              gtk_switch_get_active (widget));
}

/* The models the server's checks allow, as they are now. */
static void
apply_model_checks (StewardSamplingPage      *self,
                    const char               *server,
                    GPtrArray                *checks)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) models = NULL;

  for (guint i = 0; i < checks->len; i++)
    {
      GtkCheckButton *check = g_ptr_array_index (checks, i);

      if (gtk_check_button_get_active (check))
        g_strv_builder_add (builder, g_object_get_data (G_OBJECT (check), MODEL_KEY));
    }

  models = g_strv_builder_end (builder);
  steward_sampling_settings_set_models (get_sampling (self, server),
                                        (const char * const *) models);
}

static void
any_model_cb (StewardSamplingPage      *self,
              GParamSpec               *pspec,
              GtkSwitch                *widget)
{
  const char *server = g_object_get_data (G_OBJECT (widget), SERVER_KEY);
  GPtrArray *checks = g_object_get_data (G_OBJECT (widget), "steward-checks");

  if (self->syncing)
    return;

  /* Turned off, the list starts as every model there is now, and the
   * person takes away from it; models found later are not let in. */
  if (gtk_switch_get_active (widget))
    steward_sampling_settings_set_models (get_sampling (self, server), NULL);
  else
    apply_model_checks (self, server, checks);
}

static void
model_check_cb (StewardSamplingPage      *self,
                GtkCheckButton           *check)
{
  const char *server = g_object_get_data (G_OBJECT (check), SERVER_KEY);
  GPtrArray *checks = g_object_get_data (G_OBJECT (check), "steward-checks");

  if (!self->syncing)
    apply_model_checks (self, server, checks);
}

static GtkSwitch *
add_switch_row (AdwExpanderRow *row,
                const char     *server,
                const char     *title,
                const char     *subtitle,
                const char     *accessible,
                const char     *name)
{
  GtkWidget *switch_row = adw_action_row_new ();
  GtkWidget *widget = gtk_switch_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (switch_row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (switch_row), subtitle);
  gtk_widget_set_valign (widget, GTK_ALIGN_CENTER);
  gtk_widget_set_name (widget, name);
  gtk_accessible_update_property (GTK_ACCESSIBLE (widget),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, accessible,
                                  -1);
  g_object_set_data_full (G_OBJECT (widget), SERVER_KEY, g_strdup (server), g_free);
  adw_action_row_add_suffix (ADW_ACTION_ROW (switch_row), widget);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (switch_row), widget);
  adw_expander_row_add_row (row, switch_row);

  return GTK_SWITCH (widget);
}

/* Which of the person's models may answer the server's requests. */
static void
add_model_rows (StewardSamplingPage      *self,
                AdwExpanderRow           *row,
                const char               *server)
{
  g_autofree char *accessible = NULL;
  g_autofree char *name = NULL;
  GPtrArray *checks = g_ptr_array_new ();
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->catalog));
  GtkSwitch *local_switch;
  GtkSwitch *any_switch;

  g_object_set_data_full (G_OBJECT (row), "steward-checks", checks,
                          (GDestroyNotify) g_ptr_array_unref);

  /* Translators: %s is a server's name; read by screen readers. */
  accessible = g_strdup_printf (_("Only models on this computer answer “%s”"), server);
  name = g_strdup_printf ("local-only:%s", server);
  local_switch = add_switch_row (row, server, _("Only Models on This Computer"),
                                 _("Nothing of its requests leaves this computer"),
                                 accessible, name);
  g_signal_connect_object (local_switch, "notify::active",
                           G_CALLBACK (local_only_cb), self, G_CONNECT_SWAPPED);
  g_object_set_data (G_OBJECT (row), "steward-local-switch", local_switch);

  g_free (accessible);
  g_free (name);
  /* Translators: %s is a server's name; read by screen readers. */
  accessible = g_strdup_printf (_("Any of your models may answer “%s”"), server);
  name = g_strdup_printf ("any-model:%s", server);
  any_switch = add_switch_row (row, server, _("Any of Your Models"),
                               _("Turn off to choose the models below"), accessible, name);
  g_object_set_data (G_OBJECT (any_switch), "steward-checks", checks);
  g_signal_connect_object (any_switch, "notify::active",
                           G_CALLBACK (any_model_cb), self, G_CONNECT_SWAPPED);
  g_object_set_data (G_OBJECT (row), "steward-any-switch", any_switch);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(StewardModel) model = g_list_model_get_item (G_LIST_MODEL (self->catalog), i);
      const char *id = steward_model_get_id (model);
      GtkWidget *model_row = adw_action_row_new ();
      GtkWidget *check = gtk_check_button_new ();
      g_autofree char *check_accessible = NULL;
      g_autofree char *check_name = g_strdup_printf ("allow:%s:%s", server, id);

      /* Translators: the first %s is a model, the second a server; read by screen readers. */
      check_accessible = g_strdup_printf (_("“%s” may answer “%s”"), id, server);
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (model_row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (model_row), id);
      gtk_widget_set_name (check, check_name);
      gtk_widget_set_valign (check, GTK_ALIGN_CENTER);
      gtk_accessible_update_property (GTK_ACCESSIBLE (check),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, check_accessible,
                                      -1);
      g_object_set_data_full (G_OBJECT (check), SERVER_KEY, g_strdup (server), g_free);
      g_object_set_data_full (G_OBJECT (check), MODEL_KEY, g_strdup (id), g_free);
      g_object_set_data (G_OBJECT (check), "steward-checks", checks);
      g_signal_connect_object (check, "toggled",
                               G_CALLBACK (model_check_cb), self, G_CONNECT_SWAPPED);
      adw_action_row_add_prefix (ADW_ACTION_ROW (model_row), check);
      adw_action_row_set_activatable_widget (ADW_ACTION_ROW (model_row), check);
      adw_expander_row_add_row (row, model_row);
      g_ptr_array_add (checks, check);
    }
}

static void
policy_selected_cb (StewardSamplingPage      *self,
                    GParamSpec               *pspec,
                    AdwComboRow              *policy_row)
{
  const char *server = g_object_get_data (G_OBJECT (policy_row), SERVER_KEY);
  guint selected = adw_combo_row_get_selected (policy_row);

  if (self->syncing || selected > STEWARD_SAMPLING_POLICY_ALWAYS)
    return;

  if (steward_sampling_settings_get_policy (get_sampling (self, server)) != selected)
    steward_sampling_settings_set_policy (get_sampling (self, server), selected);
}

static void
limit_changed_cb (StewardSamplingPage      *self,
                  GtkSpinButton            *spin)
{
  const char *server = g_object_get_data (G_OBJECT (spin), SERVER_KEY);
  Limit limit = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (spin), LIMIT_KEY));
  guint value = (guint) gtk_spin_button_get_value_as_int (spin);

  if (self->syncing)
    return;

  if (get_limit (get_sampling (self, server), limit) != value)
    set_limit (get_sampling (self, server), limit, value);
}

static char *
describe_limit (Limit       limit,
                const char *server)
{
  /* Translators: each %s is a server's name; read by screen readers. */
  switch (limit)
    {
    case LIMIT_MAX_TOKENS:
      return g_strdup_printf (_("Most tokens per answer for “%s”"), server);
    case LIMIT_PER_MINUTE:
      return g_strdup_printf (_("Requests per minute for “%s”"), server);
    case LIMIT_DAILY_TOKENS:
    default:
      return g_strdup_printf (_("Tokens per day for “%s”"), server);
    }
}

static GtkSpinButton *
add_limit_row (StewardSamplingPage      *self,
               AdwExpanderRow           *row,
               const char               *server,
               Limit                     limit)
{
  static const struct {
    const char *title;
    double      lower;
    double      upper;
    double      step;
  } limits[] = {
    [LIMIT_MAX_TOKENS] = { N_("Most Tokens per Answer"), 1, 1000000, 256 },
    [LIMIT_PER_MINUTE] = { N_("Requests per Minute"), 0, 600, 1 },
    [LIMIT_DAILY_TOKENS] = { N_("Tokens per Day"), 0, 100000000, 1000 },
  };
  GtkWidget *limit_row = adw_action_row_new ();
  GtkWidget *spin = gtk_spin_button_new_with_range (limits[limit].lower, limits[limit].upper,
                                                    limits[limit].step);
  g_autofree char *accessible = describe_limit (limit, server);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (limit_row), _(limits[limit].title));
  gtk_widget_set_valign (spin, GTK_ALIGN_CENTER);
  gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (spin), TRUE);
  gtk_spin_button_set_digits (GTK_SPIN_BUTTON (spin), 0);
  gtk_accessible_update_property (GTK_ACCESSIBLE (spin),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, accessible,
                                  -1);
  g_object_set_data_full (G_OBJECT (spin), SERVER_KEY, g_strdup (server), g_free);
  g_object_set_data (G_OBJECT (spin), LIMIT_KEY, GINT_TO_POINTER (limit));
  g_signal_connect_object (spin, "value-changed",
                           G_CALLBACK (limit_changed_cb), self, G_CONNECT_SWAPPED);

  adw_action_row_add_suffix (ADW_ACTION_ROW (limit_row), spin);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (limit_row), spin);
  adw_expander_row_add_row (row, limit_row);

  return GTK_SPIN_BUTTON (spin);
}

static void
sampling_notify_cb (StewardSamplingSettings *sampling,
                    GParamSpec              *pspec,
                    GtkWidget               *row)
{
  StewardSamplingPage *self = g_object_get_data (G_OBJECT (row), "steward-page");

  if (self != NULL)
    sync_server_row (self, row);
}

static GtkWidget *
create_server_row (StewardSamplingPage      *self,
                   const char               *server)
{
  GtkWidget *row = adw_expander_row_new ();
  GtkWidget *policy_row = adw_combo_row_new ();
  GtkWidget *used_row = adw_action_row_new ();
  GtkWidget *used_label = gtk_label_new (NULL);
  g_autoptr(GtkStringList) policies = gtk_string_list_new (NULL);
  guint i;

  /* Server names are shown as they are, never as markup. */
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), server);
  steward_accessible_name_expander_row (ADW_EXPANDER_ROW (row));
  g_object_set_data_full (G_OBJECT (row), SERVER_KEY, g_strdup (server), g_free);

  for (i = 0; i < G_N_ELEMENTS (policy_labels); i++)
    gtk_string_list_append (policies, _(policy_labels[i]));
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (policy_row), _("Sampling Requests"));
  adw_combo_row_set_model (ADW_COMBO_ROW (policy_row), G_LIST_MODEL (policies));
  g_object_set_data_full (G_OBJECT (policy_row), SERVER_KEY, g_strdup (server), g_free);
  g_signal_connect_object (policy_row, "notify::selected",
                           G_CALLBACK (policy_selected_cb), self, G_CONNECT_SWAPPED);
  adw_expander_row_add_row (ADW_EXPANDER_ROW (row), policy_row);
  g_object_set_data (G_OBJECT (row), "steward-policy-row", policy_row);

  g_object_set_data (G_OBJECT (row), "steward-max-spin",
                     add_limit_row (self, ADW_EXPANDER_ROW (row), server, LIMIT_MAX_TOKENS));
  g_object_set_data (G_OBJECT (row), "steward-minute-spin",
                     add_limit_row (self, ADW_EXPANDER_ROW (row), server, LIMIT_PER_MINUTE));
  g_object_set_data (G_OBJECT (row), "steward-daily-spin",
                     add_limit_row (self, ADW_EXPANDER_ROW (row), server, LIMIT_DAILY_TOKENS));

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (used_row), _("Tokens Used Today"));
  gtk_widget_add_css_class (used_label, "numeric");
  gtk_label_set_use_markup (GTK_LABEL (used_label), FALSE);
  adw_action_row_add_suffix (ADW_ACTION_ROW (used_row), used_label);
  adw_expander_row_add_row (ADW_EXPANDER_ROW (row), used_row);
  g_object_set_data (G_OBJECT (row), "steward-used-label", used_label);

  add_model_rows (self, ADW_EXPANDER_ROW (row), server);

  /* A change made elsewhere (another window, a load) shows here. */
  g_object_set_data (G_OBJECT (row), "steward-page", self);
  g_signal_connect_object (get_sampling (self, server), "notify",
                           G_CALLBACK (sampling_notify_cb), row, 0);
  sync_server_row (self, row);

  return row;
}

static void
rebuild_server_rows (StewardSamplingPage      *self)
{
  guint n_servers = g_list_model_get_n_items (self->registry);
  guint i;

  for (i = 0; i < self->server_rows->len; i++)
    adw_preferences_group_remove (self->servers_group, g_ptr_array_index (self->server_rows, i));
  g_ptr_array_set_size (self->server_rows, 0);

  for (i = 0; i < n_servers; i++)
    {
      g_autoptr(StewardServer) server = g_list_model_get_item (self->registry, i);
      GtkWidget *row = create_server_row (self, steward_server_get_name (server));

      adw_preferences_group_add (self->servers_group, row);
      g_ptr_array_add (self->server_rows, row);
    }

  if (n_servers == 0)
    {
      GtkWidget *row = adw_action_row_new ();

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("No servers are set up yet"));
      gtk_widget_add_css_class (row, "dim-label");
      adw_preferences_group_add (self->servers_group, row);
      g_ptr_array_add (self->server_rows, row);
    }
}

static void
registry_items_changed_cb (StewardSamplingPage      *self)
{
  steward_sampling_page_apply_defaults (self->host, self->settings);
  rebuild_server_rows (self);
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

  g_clear_pointer (&self->server_rows, g_ptr_array_unref);
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
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingPage, servers_group);

  gtk_widget_class_install_action (widget_class, "prefs.show-audit", NULL, show_audit_action);
}

static void
steward_sampling_page_init (StewardSamplingPage *self)
{
  self->server_rows = g_ptr_array_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
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

  g_signal_connect_object (self->registry, "items-changed",
                           G_CALLBACK (registry_items_changed_cb), self, G_CONNECT_SWAPPED);
  /* The servers' lists of models follow the catalogue. */
  g_signal_connect_object (self->catalog, "items-changed",
                           G_CALLBACK (rebuild_server_rows), self, G_CONNECT_SWAPPED);

  steward_sampling_page_apply_defaults (self->host, self->settings);
  rebuild_server_rows (self);
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

  for (guint i = 0; i < self->server_rows->len; i++)
    {
      GtkWidget *row = g_ptr_array_index (self->server_rows, i);

      if (g_strcmp0 (g_object_get_data (G_OBJECT (row), SERVER_KEY), server) == 0)
        return ADW_EXPANDER_ROW (row);
    }

  return NULL;
}


/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-sampling-row"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-accessible.h"

#include "steward-sampling-row.h"

struct _StewardSamplingRow
{
  AdwExpanderRow           parent_instance;

  StewardSamplingBroker   *broker;
  StewardModelCatalog     *catalog;
  StewardSamplingSettings *sampling;
  char                    *server;
  gboolean                 syncing;

  /* One row per model of the catalogue, its check button, and the
   * model's id, in the catalogue's order. */
  GPtrArray               *model_rows;
  GPtrArray               *checks;
  GPtrArray               *model_ids;

  AdwComboRow             *policy_row;
  GtkSpinButton           *max_tokens_spin;
  GtkSpinButton           *per_minute_spin;
  GtkSpinButton           *daily_tokens_spin;
  GtkLabel                *used_label;
  GtkSwitch               *local_switch;
  GtkSwitch               *any_switch;
};

G_DEFINE_FINAL_TYPE (StewardSamplingRow, steward_sampling_row, ADW_TYPE_EXPANDER_ROW)

enum {
  PROP_0,
  PROP_BROKER,
  PROP_CATALOG,
  PROP_SERVER_NAME,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
sync_from_settings (StewardSamplingRow *self)
{
  const char * const *allowed = steward_sampling_settings_get_models (self->sampling);
  StewardSamplingPolicy policy = steward_sampling_settings_get_policy (self->sampling);
  guint used = steward_sampling_broker_get_tokens_used (self->broker, self->server);
  g_autofree char *used_text = g_strdup_printf ("%u", used);
  g_autofree char *subtitle = NULL;
  GListModel *policies = adw_combo_row_get_model (self->policy_row);
  g_autoptr(GtkStringObject) policy_label = g_list_model_get_item (policies, policy);

  /* Translators: a sampling policy ("Ask Every Time"), then a count of tokens. */
  subtitle = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "%s · %u token used today",
                                           "%s · %u tokens used today",
                                           used),
                              policy_label != NULL ? gtk_string_object_get_string (policy_label)
                                                   : "",
                              used);
  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (self), subtitle);
  gtk_label_set_text (self->used_label, used_text);

  /* The widgets following the settings are no change of the person's. */
  self->syncing = TRUE;

  adw_combo_row_set_selected (self->policy_row, policy);
  gtk_spin_button_set_value (self->max_tokens_spin,
                             steward_sampling_settings_get_max_tokens (self->sampling));
  gtk_spin_button_set_value (self->per_minute_spin,
                             steward_sampling_settings_get_per_minute (self->sampling));
  gtk_spin_button_set_value (self->daily_tokens_spin,
                             steward_sampling_settings_get_daily_tokens (self->sampling));
  gtk_switch_set_active (self->local_switch,
                         steward_sampling_settings_get_local_only (self->sampling));
  gtk_switch_set_active (self->any_switch, allowed == NULL);
  for (guint i = 0; i < self->checks->len; i++)
    {
      GtkCheckButton *check = g_ptr_array_index (self->checks, i);
      const char *id = g_ptr_array_index (self->model_ids, i);

      gtk_check_button_set_active (check, allowed == NULL || g_strv_contains (allowed, id));
      gtk_widget_set_sensitive (GTK_WIDGET (check), allowed != NULL);
    }

  self->syncing = FALSE;
}

static void
policy_selected_cb (StewardSamplingRow *self)
{
  guint selected = adw_combo_row_get_selected (self->policy_row);

  if (self->syncing || self->sampling == NULL || selected > STEWARD_SAMPLING_POLICY_ALWAYS)
    return;

  if (steward_sampling_settings_get_policy (self->sampling) != selected)
    steward_sampling_settings_set_policy (self->sampling, selected);
}

static void
limit_changed_cb (StewardSamplingRow *self,
                  GtkSpinButton      *spin)
{
  guint value = (guint) gtk_spin_button_get_value_as_int (spin);

  if (self->syncing || self->sampling == NULL)
    return;

  if (spin == self->max_tokens_spin
      && steward_sampling_settings_get_max_tokens (self->sampling) != value)
    steward_sampling_settings_set_max_tokens (self->sampling, value);
  else if (spin == self->per_minute_spin
           && steward_sampling_settings_get_per_minute (self->sampling) != value)
    steward_sampling_settings_set_per_minute (self->sampling, value);
  else if (spin == self->daily_tokens_spin
           && steward_sampling_settings_get_daily_tokens (self->sampling) != value)
    steward_sampling_settings_set_daily_tokens (self->sampling, value);
}

static void
local_only_cb (StewardSamplingRow *self)
{
  if (!self->syncing && self->sampling != NULL)
    steward_sampling_settings_set_local_only (self->sampling,
                                              gtk_switch_get_active (self->local_switch));
}

/* The models the checks allow, as they are now. */
static void
apply_model_checks (StewardSamplingRow *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) models = NULL;

  for (guint i = 0; i < self->checks->len; i++)
    {
      if (gtk_check_button_get_active (g_ptr_array_index (self->checks, i)))
        g_strv_builder_add (builder, g_ptr_array_index (self->model_ids, i));
    }

  models = g_strv_builder_end (builder);
  steward_sampling_settings_set_models (self->sampling, (const char * const *) models);
}

static void
any_model_cb (StewardSamplingRow *self)
{
  if (self->syncing || self->sampling == NULL)
    return;

  /* Turned off, the list starts as every model there is now, and the
   * person takes away from it; models found later are not let in. */
  if (gtk_switch_get_active (self->any_switch))
    steward_sampling_settings_set_models (self->sampling, NULL);
  else
    apply_model_checks (self);
}

static void
model_check_cb (StewardSamplingRow *self)
{
  if (!self->syncing)
    apply_model_checks (self);
}

/* Which of the person's models may answer the server's requests. */
static void
rebuild_model_rows (StewardSamplingRow *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->catalog));

  for (guint i = 0; i < self->model_rows->len; i++)
    adw_expander_row_remove (ADW_EXPANDER_ROW (self), g_ptr_array_index (self->model_rows, i));
  g_ptr_array_set_size (self->model_rows, 0);
  g_ptr_array_set_size (self->checks, 0);
  g_ptr_array_set_size (self->model_ids, 0);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(StewardModel) model = g_list_model_get_item (G_LIST_MODEL (self->catalog), i);
      const char *id = steward_model_get_id (model);
      GtkWidget *model_row = adw_action_row_new ();
      GtkWidget *check = gtk_check_button_new ();
      g_autofree char *accessible = NULL;
      g_autofree char *name = g_strdup_printf ("allow:%s:%s", self->server, id);

      /* Translators: the first %s is a model, the second a server; read by screen readers. */
      accessible = g_strdup_printf (_("“%s” may answer “%s”"), id, self->server);
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (model_row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (model_row), id);
      gtk_widget_set_name (check, name);
      gtk_widget_set_valign (check, GTK_ALIGN_CENTER);
      gtk_accessible_update_property (GTK_ACCESSIBLE (check),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, accessible,
                                      -1);
      g_signal_connect_object (check, "toggled", G_CALLBACK (model_check_cb), self,
                               G_CONNECT_SWAPPED);
      adw_action_row_add_prefix (ADW_ACTION_ROW (model_row), check);
      adw_action_row_set_activatable_widget (ADW_ACTION_ROW (model_row), check);
      adw_expander_row_add_row (ADW_EXPANDER_ROW (self), model_row);

      g_ptr_array_add (self->model_rows, model_row);
      g_ptr_array_add (self->checks, check);
      g_ptr_array_add (self->model_ids, g_strdup (id));
    }

  sync_from_settings (self);
}

static void
label_widget (GtkWidget  *widget,
              const char *name,
              const char *accessible)
{
  gtk_widget_set_name (widget, name);
  gtk_accessible_update_property (GTK_ACCESSIBLE (widget),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, accessible,
                                  -1);
}

static void
steward_sampling_row_constructed (GObject *object)
{
  StewardSamplingRow *self = STEWARD_SAMPLING_ROW (object);
  g_autofree char *name = NULL;
  g_autofree char *accessible = NULL;

  G_OBJECT_CLASS (steward_sampling_row_parent_class)->constructed (object);

  self->sampling = g_object_ref (steward_sampling_broker_get_settings (self->broker,
                                                                       self->server));

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self), self->server);
  steward_accessible_name_expander_row (ADW_EXPANDER_ROW (self));
  gtk_widget_set_name (GTK_WIDGET (self), self->server);

  /* Translators: each %s is a server's name; read by screen readers. */
  accessible = g_strdup_printf (_("Most tokens per answer for “%s”"), self->server);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->max_tokens_spin),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, accessible,
                                  -1);
  g_free (accessible);
  /* Translators: each %s is a server's name; read by screen readers. */
  accessible = g_strdup_printf (_("Requests per minute for “%s”"), self->server);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->per_minute_spin),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, accessible,
                                  -1);
  g_free (accessible);
  /* Translators: each %s is a server's name; read by screen readers. */
  accessible = g_strdup_printf (_("Tokens per day for “%s”"), self->server);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->daily_tokens_spin),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, accessible,
                                  -1);
  g_free (accessible);

  /* Translators: %s is a server's name; read by screen readers. */
  accessible = g_strdup_printf (_("Only models on this computer answer “%s”"), self->server);
  name = g_strdup_printf ("local-only:%s", self->server);
  label_widget (GTK_WIDGET (self->local_switch), name, accessible);
  g_free (accessible);
  g_free (name);
  /* Translators: %s is a server's name; read by screen readers. */
  accessible = g_strdup_printf (_("Any of your models may answer “%s”"), self->server);
  name = g_strdup_printf ("any-model:%s", self->server);
  label_widget (GTK_WIDGET (self->any_switch), name, accessible);

  /* A change made elsewhere (another window, a load) shows here, and the
   * models offered follow the catalogue. */
  g_signal_connect_object (self->sampling, "notify", G_CALLBACK (sync_from_settings), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->catalog, "items-changed", G_CALLBACK (rebuild_model_rows),
                           self, G_CONNECT_SWAPPED);
  rebuild_model_rows (self);
}

static void
steward_sampling_row_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  StewardSamplingRow *self = STEWARD_SAMPLING_ROW (object);

  switch (prop_id)
    {
    case PROP_BROKER:
      g_value_set_object (value, self->broker);
      break;
    case PROP_CATALOG:
      g_value_set_object (value, self->catalog);
      break;
    case PROP_SERVER_NAME:
      g_value_set_string (value, self->server);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_sampling_row_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  StewardSamplingRow *self = STEWARD_SAMPLING_ROW (object);

  switch (prop_id)
    {
    case PROP_BROKER:
      self->broker = g_value_dup_object (value);
      break;
    case PROP_CATALOG:
      self->catalog = g_value_dup_object (value);
      break;
    case PROP_SERVER_NAME:
      self->server = g_value_dup_string (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_sampling_row_dispose (GObject *object)
{
  StewardSamplingRow *self = STEWARD_SAMPLING_ROW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), STEWARD_TYPE_SAMPLING_ROW);

  g_clear_object (&self->sampling);
  g_clear_object (&self->catalog);
  g_clear_object (&self->broker);

  G_OBJECT_CLASS (steward_sampling_row_parent_class)->dispose (object);
}

static void
steward_sampling_row_finalize (GObject *object)
{
  StewardSamplingRow *self = STEWARD_SAMPLING_ROW (object);

  g_ptr_array_unref (self->model_rows);
  g_ptr_array_unref (self->checks);
  g_ptr_array_unref (self->model_ids);
  g_free (self->server);

  G_OBJECT_CLASS (steward_sampling_row_parent_class)->finalize (object);
}

static void
steward_sampling_row_class_init (StewardSamplingRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = steward_sampling_row_constructed;
  object_class->get_property = steward_sampling_row_get_property;
  object_class->set_property = steward_sampling_row_set_property;
  object_class->dispose = steward_sampling_row_dispose;
  object_class->finalize = steward_sampling_row_finalize;

  properties[PROP_BROKER] =
    g_param_spec_object ("broker", NULL, NULL,
                         STEWARD_TYPE_SAMPLING_BROKER,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CATALOG] =
    g_param_spec_object ("catalog", NULL, NULL,
                         STEWARD_TYPE_MODEL_CATALOG,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SERVER_NAME] =
    g_param_spec_string ("server-name", NULL, NULL,
                         NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/stewardmcp/Steward/"
                                               "preferences/steward-sampling-row.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingRow, policy_row);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingRow, max_tokens_spin);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingRow, per_minute_spin);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingRow, daily_tokens_spin);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingRow, used_label);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingRow, local_switch);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingRow, any_switch);
  gtk_widget_class_bind_template_callback (widget_class, policy_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, limit_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, local_only_cb);
  gtk_widget_class_bind_template_callback (widget_class, any_model_cb);
}

static void
steward_sampling_row_init (StewardSamplingRow *self)
{
  self->model_rows = g_ptr_array_new ();
  self->checks = g_ptr_array_new ();
  self->model_ids = g_ptr_array_new_with_free_func (g_free);

  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
steward_sampling_row_new (StewardSamplingBroker *broker,
                          StewardModelCatalog   *catalog,
                          const char            *server)
{
  g_return_val_if_fail (STEWARD_IS_SAMPLING_BROKER (broker), NULL);
  g_return_val_if_fail (STEWARD_IS_MODEL_CATALOG (catalog), NULL);
  g_return_val_if_fail (server != NULL, NULL);

  return g_object_new (STEWARD_TYPE_SAMPLING_ROW,
                       "broker", broker,
                       "catalog", catalog,
                       "server-name", server,
                       NULL);
}

const char *
steward_sampling_row_get_server_name (StewardSamplingRow *self)
{
  g_return_val_if_fail (STEWARD_IS_SAMPLING_ROW (self), NULL);

  return self->server;
}

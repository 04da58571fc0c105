/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-model-row"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-accessible.h"

#include "steward-model-row.h"

struct _StewardModelRow
{
  AdwExpanderRow  parent_instance;

  StewardModel   *model;
  gboolean        syncing;

  GtkLabel       *local_label;
  GtkSpinButton  *cost_spin;
  GtkSpinButton  *speed_spin;
  GtkSpinButton  *intelligence_spin;
  GtkButton      *remove_button;
};

G_DEFINE_FINAL_TYPE (StewardModelRow, steward_model_row, ADW_TYPE_EXPANDER_ROW)

enum {
  PROP_0,
  PROP_MODEL,
  N_PROPS
};

enum {
  SCORES_EDITED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
sync_from_model (StewardModelRow *self)
{
  /* Translators: three scores from 0 to 1 of a model. */
  g_autofree char *subtitle = g_strdup_printf (_("Cost %.2f · Speed %.2f · Intelligence %.2f"),
                                               steward_model_get_cost (self->model),
                                               steward_model_get_speed (self->model),
                                               steward_model_get_intelligence (self->model));

  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (self), subtitle);

  /* Each spin button changes on its own: until all three follow the
   * model, their values mix old and new scores. */
  self->syncing = TRUE;
  gtk_spin_button_set_value (self->cost_spin, steward_model_get_cost (self->model));
  gtk_spin_button_set_value (self->speed_spin, steward_model_get_speed (self->model));
  gtk_spin_button_set_value (self->intelligence_spin,
                             steward_model_get_intelligence (self->model));
  self->syncing = FALSE;
}

static void
score_changed_cb (StewardModelRow *self)
{
  double cost = gtk_spin_button_get_value (self->cost_spin);
  double speed = gtk_spin_button_get_value (self->speed_spin);
  double intelligence = gtk_spin_button_get_value (self->intelligence_spin);

  /* The spin buttons following the model are no change of the person's. */
  if (self->syncing || self->model == NULL
      || (cost == steward_model_get_cost (self->model)
          && speed == steward_model_get_speed (self->model)
          && intelligence == steward_model_get_intelligence (self->model)))
    return;

  g_signal_emit (self, signals[SCORES_EDITED], 0, cost, speed, intelligence);
}

static void
name_spin (GtkSpinButton *spin,
           const char    *score,
           const char    *id,
           const char    *accessible)
{
  /* Named "cost:ollama/qwen2.5:7b" and so on, for tests to find. */
  g_autofree char *name = g_strdup_printf ("%s:%s", score, id);

  gtk_widget_set_name (GTK_WIDGET (spin), name);
  gtk_accessible_update_property (GTK_ACCESSIBLE (spin),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, accessible,
                                  -1);
}

static void
steward_model_row_constructed (GObject *object)
{
  StewardModelRow *self = STEWARD_MODEL_ROW (object);
  const char *id = steward_model_get_id (self->model);
  g_autofree char *cost = NULL;
  g_autofree char *speed = NULL;
  g_autofree char *intelligence = NULL;
  g_autofree char *remove = NULL;

  G_OBJECT_CLASS (steward_model_row_parent_class)->constructed (object);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self), id);
  steward_accessible_name_expander_row (ADW_EXPANDER_ROW (self));
  gtk_widget_set_name (GTK_WIDGET (self), id);
  gtk_widget_set_visible (GTK_WIDGET (self->local_label), steward_model_get_local (self->model));

  /* Translators: %s is a model ("ollama/qwen2.5:7b"); read by screen readers. */
  cost = g_strdup_printf (_("Cost of “%s”"), id);
  /* Translators: %s is a model ("ollama/qwen2.5:7b"); read by screen readers. */
  speed = g_strdup_printf (_("Speed of “%s”"), id);
  /* Translators: %s is a model ("ollama/qwen2.5:7b"); read by screen readers. */
  intelligence = g_strdup_printf (_("Intelligence of “%s”"), id);
  name_spin (self->cost_spin, "cost", id, cost);
  name_spin (self->speed_spin, "speed", id, speed);
  name_spin (self->intelligence_spin, "intelligence", id, intelligence);

  /* Translators: %s is a model; read by screen readers. */
  remove = g_strdup_printf (_("Remove the model “%s”"), id);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->remove_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, remove,
                                  -1);
  gtk_actionable_set_action_target (GTK_ACTIONABLE (self->remove_button), "s", id);

  g_signal_connect_object (self->model, "notify", G_CALLBACK (sync_from_model), self,
                           G_CONNECT_SWAPPED);
  sync_from_model (self);
}

static void
steward_model_row_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  StewardModelRow *self = STEWARD_MODEL_ROW (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      g_value_set_object (value, self->model);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_model_row_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  StewardModelRow *self = STEWARD_MODEL_ROW (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      self->model = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_model_row_dispose (GObject *object)
{
  StewardModelRow *self = STEWARD_MODEL_ROW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), STEWARD_TYPE_MODEL_ROW);
  g_clear_object (&self->model);

  G_OBJECT_CLASS (steward_model_row_parent_class)->dispose (object);
}

static void
steward_model_row_class_init (StewardModelRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = steward_model_row_constructed;
  object_class->get_property = steward_model_row_get_property;
  object_class->set_property = steward_model_row_set_property;
  object_class->dispose = steward_model_row_dispose;

  properties[PROP_MODEL] =
    g_param_spec_object ("model", NULL, NULL,
                         STEWARD_TYPE_MODEL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * StewardModelRow::scores-edited:
   * @cost: the new cost, from 0 to 1
   * @speed: the new speed
   * @intelligence: the new intelligence
   *
   * The person changed one of the model's scores.
   */
  signals[SCORES_EDITED] =
    g_signal_new ("scores-edited",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3, G_TYPE_DOUBLE, G_TYPE_DOUBLE, G_TYPE_DOUBLE);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/stewardmcp/Steward/"
                                               "preferences/steward-model-row.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardModelRow, local_label);
  gtk_widget_class_bind_template_child (widget_class, StewardModelRow, cost_spin);
  gtk_widget_class_bind_template_child (widget_class, StewardModelRow, speed_spin);
  gtk_widget_class_bind_template_child (widget_class, StewardModelRow, intelligence_spin);
  gtk_widget_class_bind_template_child (widget_class, StewardModelRow, remove_button);
  gtk_widget_class_bind_template_callback (widget_class, score_changed_cb);
}

static void
steward_model_row_init (StewardModelRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
steward_model_row_new (StewardModel *model)
{
  g_return_val_if_fail (STEWARD_IS_MODEL (model), NULL);

  return g_object_new (STEWARD_TYPE_MODEL_ROW, "model", model, NULL);
}

StewardModel *
steward_model_row_get_model (StewardModelRow *self)
{
  g_return_val_if_fail (STEWARD_IS_MODEL_ROW (self), NULL);

  return self->model;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-provider-row"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-accessible.h"
#include "steward-error-row.h"

#include "steward-provider-row.h"

struct _StewardProviderRow
{
  AdwExpanderRow   parent_instance;

  StewardProvider *provider;
  char            *key_id;

  StewardErrorRow *error_row;
  AdwActionRow    *key_row;
  GtkButton       *set_button;
  GtkButton       *clear_button;
  AdwEntryRow     *name_row;
  AdwEntryRow     *url_row;
  GtkButton       *remove_button;
};

enum {
  PROP_0,
  PROP_PROVIDER,
  PROP_KEY_ID,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  EDITED,
  ERROR_DISMISSED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (StewardProviderRow, steward_provider_row, ADW_TYPE_EXPANDER_ROW)

/* Both fields go together, whichever was applied: a provider is put
 * again whole. */
static void
apply_cb (StewardProviderRow *self)
{
  const char *name_text = gtk_editable_get_text (GTK_EDITABLE (self->name_row));
  const char *url_text = gtk_editable_get_text (GTK_EDITABLE (self->url_row));
  g_autofree char *name = g_strstrip (g_strdup (name_text != NULL ? name_text : ""));
  g_autofree char *url = g_strstrip (g_strdup (url_text != NULL ? url_text : ""));

  g_signal_emit (self, signals[EDITED], 0, name, url);
}

static void
error_dismissed_cb (StewardProviderRow *self)
{
  g_signal_emit (self, signals[ERROR_DISMISSED], 0);
}

static void
steward_provider_row_dispose (GObject *object)
{
  StewardProviderRow *self = STEWARD_PROVIDER_ROW (object);

  g_clear_object (&self->provider);

  G_OBJECT_CLASS (steward_provider_row_parent_class)->dispose (object);
}

static void
steward_provider_row_finalize (GObject *object)
{
  StewardProviderRow *self = STEWARD_PROVIDER_ROW (object);

  g_free (self->key_id);

  G_OBJECT_CLASS (steward_provider_row_parent_class)->finalize (object);
}

static void
steward_provider_row_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  StewardProviderRow *self = STEWARD_PROVIDER_ROW (object);

  switch (prop_id)
    {
    case PROP_PROVIDER:
      g_value_set_object (value, self->provider);
      break;
    case PROP_KEY_ID:
      g_value_set_string (value, self->key_id);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_provider_row_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  StewardProviderRow *self = STEWARD_PROVIDER_ROW (object);

  switch (prop_id)
    {
    case PROP_PROVIDER:
      self->provider = g_value_dup_object (value);
      break;
    case PROP_KEY_ID:
      self->key_id = g_value_dup_string (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_provider_row_class_init (StewardProviderRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = steward_provider_row_dispose;
  object_class->finalize = steward_provider_row_finalize;
  object_class->get_property = steward_provider_row_get_property;
  object_class->set_property = steward_provider_row_set_property;

  properties[PROP_PROVIDER] =
    g_param_spec_object ("provider", NULL, NULL,
                         STEWARD_TYPE_PROVIDER,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * StewardProviderRow:key-id:
   *
   * The keyring id of the key the row shows: the provider's own, or the
   * one a key set now would get.
   */
  properties[PROP_KEY_ID] =
    g_param_spec_string ("key-id", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * StewardProviderRow::edited:
   * @name: the name in the field, trimmed
   * @base_url: the base URL in the field, trimmed
   */
  signals[EDITED] = g_signal_new ("edited", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                  0, NULL, NULL, NULL, G_TYPE_NONE, 2,
                                  G_TYPE_STRING, G_TYPE_STRING);
  /**
   * StewardProviderRow::error-dismissed:
   *
   * The person closed the provider's error without fixing it.
   */
  signals[ERROR_DISMISSED] = g_signal_new ("error-dismissed", G_TYPE_FROM_CLASS (klass),
                                           G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                           G_TYPE_NONE, 0);

  g_type_ensure (STEWARD_TYPE_ERROR_ROW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/stewardmcp/Steward/"
                                               "preferences/steward-provider-row.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardProviderRow, error_row);
  gtk_widget_class_bind_template_child (widget_class, StewardProviderRow, key_row);
  gtk_widget_class_bind_template_child (widget_class, StewardProviderRow, set_button);
  gtk_widget_class_bind_template_child (widget_class, StewardProviderRow, clear_button);
  gtk_widget_class_bind_template_child (widget_class, StewardProviderRow, name_row);
  gtk_widget_class_bind_template_child (widget_class, StewardProviderRow, url_row);
  gtk_widget_class_bind_template_child (widget_class, StewardProviderRow, remove_button);
  gtk_widget_class_bind_template_callback (widget_class, apply_cb);
  gtk_widget_class_bind_template_callback (widget_class, error_dismissed_cb);
}

static void
steward_provider_row_init (StewardProviderRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  steward_accessible_name_expander_row (ADW_EXPANDER_ROW (self));
}

static void
name_button (GtkButton  *button,
             const char *accessible,
             const char *id)
{
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, accessible,
                                  -1);
  gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "s", id);
}

/**
 * steward_provider_row_new:
 * @key_id: the keyring id of the key the row shows
 * @kind: what kind of provider it is, as a person reads it
 * @base_url: (nullable): where it is
 */
GtkWidget *
steward_provider_row_new (StewardProvider *provider,
                          const char      *key_id,
                          const char      *kind,
                          const char      *base_url)
{
  StewardProviderRow *self;
  const char *id;
  const char *name;
  g_autofree char *subtitle = NULL;
  g_autofree char *accessible = NULL;

  g_return_val_if_fail (STEWARD_IS_PROVIDER (provider), NULL);
  g_return_val_if_fail (key_id != NULL, NULL);
  g_return_val_if_fail (kind != NULL, NULL);

  self = g_object_new (STEWARD_TYPE_PROVIDER_ROW,
                       "provider", provider,
                       "key-id", key_id,
                       NULL);
  id = steward_provider_get_id (provider);
  name = steward_provider_get_display_name (provider);

  /* Names and addresses are shown as they are, never as markup. */
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self), name);
  subtitle = base_url != NULL ? g_strdup_printf ("%s · %s", kind, base_url) : g_strdup (kind);
  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (self), subtitle);
  gtk_widget_set_name (GTK_WIDGET (self), id);
  gtk_editable_set_text (GTK_EDITABLE (self->name_row), name);
  gtk_editable_set_text (GTK_EDITABLE (self->url_row), base_url != NULL ? base_url : "");

  /* Translators: %s is a provider's name; read by screen readers. */
  accessible = g_strdup_printf (_("Set the %s API key"), name);
  name_button (self->set_button, accessible, id);
  g_free (accessible);
  /* Translators: %s is a provider's name; read by screen readers. */
  accessible = g_strdup_printf (_("Clear the %s API key"), name);
  name_button (self->clear_button, accessible, id);
  g_free (accessible);
  /* Translators: %s is a provider's name; read by screen readers. */
  accessible = g_strdup_printf (_("Remove the provider %s"), name);
  name_button (self->remove_button, accessible, id);

  return GTK_WIDGET (self);
}

StewardProvider *
steward_provider_row_get_provider (StewardProviderRow *self)
{
  g_return_val_if_fail (STEWARD_IS_PROVIDER_ROW (self), NULL);

  return self->provider;
}

const char *
steward_provider_row_get_key_id (StewardProviderRow *self)
{
  g_return_val_if_fail (STEWARD_IS_PROVIDER_ROW (self), NULL);

  return self->key_id;
}

AdwActionRow *
steward_provider_row_get_key_row (StewardProviderRow *self)
{
  g_return_val_if_fail (STEWARD_IS_PROVIDER_ROW (self), NULL);

  return self->key_row;
}

void
steward_provider_row_set_key_state (StewardProviderRow *self,
                                    const char         *subtitle,
                                    gboolean            is_set)
{
  g_return_if_fail (STEWARD_IS_PROVIDER_ROW (self));

  adw_action_row_set_subtitle (self->key_row, subtitle);
  gtk_button_set_label (self->set_button, is_set ? _("_Replace…") : _("_Set…"));
  gtk_widget_set_visible (GTK_WIDGET (self->clear_button), is_set);
}

void
steward_provider_row_set_error (StewardProviderRow *self,
                                const char         *title,
                                const char         *message)
{
  g_return_if_fail (STEWARD_IS_PROVIDER_ROW (self));

  steward_error_row_set_error (self->error_row, title, message);
  /* Where the person will see it without looking for it. */
  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (self), TRUE);
}

void
steward_provider_row_clear_error (StewardProviderRow *self)
{
  g_return_if_fail (STEWARD_IS_PROVIDER_ROW (self));

  steward_error_row_clear (self->error_row);
}

AdwEntryRow *
steward_provider_row_get_name_row (StewardProviderRow *self)
{
  g_return_val_if_fail (STEWARD_IS_PROVIDER_ROW (self), NULL);

  return self->name_row;
}

AdwEntryRow *
steward_provider_row_get_url_row (StewardProviderRow *self)
{
  g_return_val_if_fail (STEWARD_IS_PROVIDER_ROW (self), NULL);

  return self->url_row;
}

GtkWidget *
steward_provider_row_get_error_row (StewardProviderRow *self)
{
  g_return_val_if_fail (STEWARD_IS_PROVIDER_ROW (self), NULL);

  return GTK_WIDGET (self->error_row);
}

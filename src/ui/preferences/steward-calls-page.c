/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-calls-page"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-calls-page.h"

struct _StewardCallsPage
{
  AdwPreferencesPage  parent_instance;

  GSettings          *settings;
  GtkSpinButton      *threshold_spin;
};

G_DEFINE_FINAL_TYPE (StewardCallsPage, steward_calls_page, ADW_TYPE_PREFERENCES_PAGE)

static void
steward_calls_page_dispose (GObject *object)
{
  StewardCallsPage *self = STEWARD_CALLS_PAGE (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), STEWARD_TYPE_CALLS_PAGE);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (steward_calls_page_parent_class)->dispose (object);
}

static void
steward_calls_page_class_init (StewardCallsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = steward_calls_page_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/stewardmcp/Steward/"
                                               "preferences/steward-calls-page.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardCallsPage, threshold_spin);
}

static void
steward_calls_page_init (StewardCallsPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = g_settings_new (APPLICATION_ID);
  g_settings_bind (self->settings, "task-threshold",
                   gtk_spin_button_get_adjustment (self->threshold_spin), "value",
                   G_SETTINGS_BIND_DEFAULT);
}

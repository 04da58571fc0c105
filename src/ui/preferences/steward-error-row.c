/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-error-row"

#include "config.h"

#include "steward-error-row.h"

struct _StewardErrorRow
{
  AdwActionRow  parent_instance;

  GtkButton    *retry_button;
  GtkButton    *dismiss_button;
};

enum {
  DISMISSED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (StewardErrorRow, steward_error_row, ADW_TYPE_ACTION_ROW)

static void
dismiss_clicked_cb (StewardErrorRow *self)
{
  steward_error_row_clear (self);
  g_signal_emit (self, signals[DISMISSED], 0);
}

static void
steward_error_row_class_init (StewardErrorRowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  /**
   * StewardErrorRow::dismissed:
   *
   * The person closed the error without fixing it.
   */
  signals[DISMISSED] = g_signal_new ("dismissed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                     0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/stewardmcp/Steward/"
                                               "preferences/steward-error-row.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardErrorRow, retry_button);
  gtk_widget_class_bind_template_child (widget_class, StewardErrorRow, dismiss_button);
  gtk_widget_class_bind_template_callback (widget_class, dismiss_clicked_cb);
}

static void
steward_error_row_init (StewardErrorRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
steward_error_row_new (void)
{
  return g_object_new (STEWARD_TYPE_ERROR_ROW, NULL);
}

/**
 * steward_error_row_set_error:
 * @title: what failed, such as “Could not list the models of “Ollama””
 * @message: why, as the error put it; shown as text, never markup
 */
void
steward_error_row_set_error (StewardErrorRow *self,
                             const char      *title,
                             const char      *message)
{
  g_return_if_fail (STEWARD_IS_ERROR_ROW (self));
  g_return_if_fail (title != NULL);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self), message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
}

void
steward_error_row_clear (StewardErrorRow *self)
{
  g_return_if_fail (STEWARD_IS_ERROR_ROW (self));

  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self), "");
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self), "");
}

void
steward_error_row_set_retry (StewardErrorRow *self,
                             const char      *action,
                             const char      *target)
{
  g_return_if_fail (STEWARD_IS_ERROR_ROW (self));

  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->retry_button), NULL);
  if (action != NULL)
    gtk_actionable_set_action_target (GTK_ACTIONABLE (self->retry_button), "s",
                                      target != NULL ? target : "");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->retry_button), action);
  gtk_widget_set_visible (GTK_WIDGET (self->retry_button), action != NULL);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-error-banner"

#include "config.h"

#include "steward-error-banner.h"

struct _StewardErrorBanner
{
  AdwBin       parent_instance;

  GtkRevealer *revealer;
  GtkLabel    *label;

  char        *message;
};

enum {
  DISMISSED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (StewardErrorBanner, steward_error_banner, ADW_TYPE_BIN)

static void
dismiss_clicked_cb (StewardErrorBanner *self)
{
  steward_error_banner_clear (self);
  g_signal_emit (self, signals[DISMISSED], 0);
}

static void
steward_error_banner_finalize (GObject *object)
{
  StewardErrorBanner *self = STEWARD_ERROR_BANNER (object);

  g_free (self->message);

  G_OBJECT_CLASS (steward_error_banner_parent_class)->finalize (object);
}

static void
steward_error_banner_class_init (StewardErrorBannerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = steward_error_banner_finalize;

  /**
   * StewardErrorBanner::dismissed:
   *
   * The person closed the error without the action succeeding.
   */
  signals[DISMISSED] = g_signal_new ("dismissed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                     0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/stewardmcp/Steward/"
                                               "steward-error-banner.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardErrorBanner, revealer);
  gtk_widget_class_bind_template_child (widget_class, StewardErrorBanner, label);
  gtk_widget_class_bind_template_callback (widget_class, dismiss_clicked_cb);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_ALERT);
}

static void
steward_error_banner_init (StewardErrorBanner *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
steward_error_banner_new (void)
{
  return g_object_new (STEWARD_TYPE_ERROR_BANNER, NULL);
}

/**
 * steward_error_banner_set_message:
 * @message: what failed and why, as one sentence; shown as text, never
 *   markup, since it often quotes a file name or a server's words
 *
 * Shows @message in place of any earlier one: a second failure of the same
 * kind replaces the first rather than piling up.
 */
void
steward_error_banner_set_message (StewardErrorBanner *self,
                                  const char         *message)
{
  g_return_if_fail (STEWARD_IS_ERROR_BANNER (self));
  g_return_if_fail (message != NULL);

  g_free (self->message);
  self->message = g_strdup (message);
  gtk_label_set_text (self->label, message);
  gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
  gtk_revealer_set_reveal_child (self->revealer, TRUE);
}

const char *
steward_error_banner_get_message (StewardErrorBanner *self)
{
  g_return_val_if_fail (STEWARD_IS_ERROR_BANNER (self), NULL);

  return self->message;
}

void
steward_error_banner_clear (StewardErrorBanner *self)
{
  g_return_if_fail (STEWARD_IS_ERROR_BANNER (self));

  g_clear_pointer (&self->message, g_free);
  gtk_revealer_set_reveal_child (self->revealer, FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
  gtk_label_set_text (self->label, "");
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-app-window"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-app-window.h"

/* Picture in picture: small enough to sit beside the main window. */
#define PIP_WIDTH  420
#define PIP_HEIGHT 320

struct _StewardAppWindow
{
  AdwWindow  parent_instance;

  AdwBin    *content;
  gboolean   closing;
};

G_DEFINE_FINAL_TYPE (StewardAppWindow, steward_app_window, ADW_TYPE_WINDOW)

enum {
  SIGNAL_CLOSED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static gboolean
steward_app_window_close_request (GtkWindow *window)
{
  StewardAppWindow *self = STEWARD_APP_WINDOW (window);

  /* The view decides what happens to its page: it takes the page back
   * and destroys this window itself. */
  if (!self->closing)
    {
      self->closing = TRUE;
      g_signal_emit (self, signals[SIGNAL_CLOSED], 0);
      return TRUE;
    }

  return FALSE;
}

static void
steward_app_window_class_init (StewardAppWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  window_class->close_request = steward_app_window_close_request;

  signals[SIGNAL_CLOSED] =
    g_signal_new ("closed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
steward_app_window_init (StewardAppWindow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  self->content = ADW_BIN (adw_bin_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->content), TRUE);
  gtk_box_append (GTK_BOX (box), adw_header_bar_new ());
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->content));
  adw_window_set_content (ADW_WINDOW (self), box);
}

StewardAppWindow *
steward_app_window_new (GtkWindow  *parent,
                        const char *title,
                        gboolean    fullscreen)
{
  StewardAppWindow *self = g_object_new (STEWARD_TYPE_APP_WINDOW,
                                         "title", title,
                                         "transient-for", parent,
                                         "default-width", PIP_WIDTH,
                                         "default-height", PIP_HEIGHT,
                                         NULL);

  if (fullscreen)
    gtk_window_fullscreen (GTK_WINDOW (self));

  return self;
}

void
steward_app_window_set_content (StewardAppWindow *self,
                                GtkWidget        *content)
{
  g_return_if_fail (STEWARD_IS_APP_WINDOW (self));

  adw_bin_set_child (self->content, content);
}

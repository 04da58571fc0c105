/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "bench-bare-window"

#include "config.h"

/*
 * The peer for Steward's start-up and memory figures: the least a
 * libadwaita application can be, a window with a header bar and a status
 * page, started and measured the same way as Steward (bench-app). Like
 * Steward it is a unique application, so it too owns a name on the
 * session bus before its window comes up, and its window has Steward's
 * default size, so that both first frames paint as many pixels.
 */

#include <adwaita.h>

static void
activate_cb (GApplication *application)
{
  GtkWidget *window = adw_application_window_new (GTK_APPLICATION (application));
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *page = adw_status_page_new ();

  gtk_window_set_title (GTK_WINDOW (window), "Bare Window");
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  adw_status_page_set_title (ADW_STATUS_PAGE (page), "Bare Window");
  gtk_widget_set_vexpand (page, TRUE);
  gtk_box_append (GTK_BOX (box), adw_header_bar_new ());
  gtk_box_append (GTK_BOX (box), page);
  adw_application_window_set_content (ADW_APPLICATION_WINDOW (window), box);
  gtk_window_present (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(AdwApplication) app = adw_application_new ("io.github.stewardmcp.BareWindow",
                                                       G_APPLICATION_DEFAULT_FLAGS);

  g_signal_connect (app, "activate", G_CALLBACK (activate_cb), NULL);
  return g_application_run (G_APPLICATION (app), argc, argv);
}

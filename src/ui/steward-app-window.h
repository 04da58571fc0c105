/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define STEWARD_TYPE_APP_WINDOW (steward_app_window_get_type ())

G_DECLARE_FINAL_TYPE (StewardAppWindow, steward_app_window, STEWARD, APP_WINDOW, AdwWindow)

/*
 * The window an MCP Apps view moves into when it asks for the fullscreen
 * or picture-in-picture display mode: fullscreen, or small beside the main
 * window. Closing it (its close button, Escape) emits "closed", and the
 * view goes back to its place.
 */
StewardAppWindow *steward_app_window_new         (GtkWindow        *parent,
                                                  const char       *title,
                                                  gboolean          fullscreen);
/* @content: the web view, or NULL to take it out. */
void              steward_app_window_set_content (StewardAppWindow *self,
                                                  GtkWidget        *content);

G_END_DECLS

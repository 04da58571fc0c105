/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "steward-host.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_WINDOW (steward_window_get_type ())

G_DECLARE_FINAL_TYPE (StewardWindow, steward_window, STEWARD, WINDOW, AdwApplicationWindow)

/* The main window: a sidebar of servers with live status, plus Chat, Logs
 * and Roots; the page of the selected server. Actions win.add-server,
 * win.import-servers, win.show-chat, win.new-conversation (Ctrl+T),
 * win.review-tool-changes, win.show-logs, win.show-roots,
 * win.show-server(s). */
GtkWidget *steward_window_new         (GtkApplication *application,
                                       StewardHost    *host);
void       steward_window_show_server (StewardWindow  *self,
                                       const char     *name);
void       steward_window_show_logs   (StewardWindow  *self,
                                       const char     *server);
void       steward_window_show_roots  (StewardWindow  *self);
void       steward_window_add_toast   (StewardWindow  *self,
                                       AdwToast       *toast);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "steward-server.h"
#include "steward-tool-pins.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_SERVER_PAGE (steward_server_page_get_type ())

G_DECLARE_FINAL_TYPE (StewardServerPage, steward_server_page, STEWARD, SERVER_PAGE, AdwBin)

/* One server: status banner with start/stop/restart/enable, and a view
 * switcher over Info, Tools, Resources and Prompts. */
GtkWidget     *steward_server_page_new            (StewardServer     *server);
StewardServer *steward_server_page_get_server     (StewardServerPage *self);
gboolean       steward_server_page_select         (StewardServerPage *self,
                                                   const char        *page,
                                                   const char        *key);
GtkWidget     *steward_server_page_get_pane       (StewardServerPage *self,
                                                   const char        *page);
GListModel    *steward_server_page_get_list_model (StewardServerPage *self,
                                                   const char        *page);

void               steward_server_page_set_tool_pins (StewardServerPage *self,
                                                      StewardToolPins   *pins);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "steward-approvals.h"
#include "steward-server.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_SERVER_ROW (steward_server_row_get_type ())

G_DECLARE_FINAL_TYPE (StewardServerRow, steward_server_row, STEWARD, SERVER_ROW, GtkListBoxRow)

/* A sidebar row: the server's name, its status sentence and a status icon,
 * named "NAME, STATUS" for assistive technologies, with a menu of what can
 * be done to it (win.server-* actions targeted at its name). */
GtkWidget     *steward_server_row_new        (StewardServer    *server);
StewardServer *steward_server_row_get_server (StewardServerRow *self);
GMenuModel    *steward_server_row_get_menu   (StewardServerRow *self);
/* Shows how many of @approvals (the host's queue) wait for the person on
 * behalf of this server, with a button that opens them (win.show-approvals),
 * so that no request waits unseen when notifications do not show. */
void           steward_server_row_watch_approvals (StewardServerRow *self,
                                                   StewardApprovals *approvals);

G_END_DECLS

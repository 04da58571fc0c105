/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "steward-host.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_LOG_VIEW (steward_log_view_get_type ())

G_DECLARE_FINAL_TYPE (StewardLogView, steward_log_view, STEWARD, LOG_VIEW, AdwBin)

/* The log viewer over the host's StewardLogStore: filter by level, source,
 * server and text; set a server's log level; pause/follow; copy; export. */
GtkWidget *steward_log_view_new        (StewardHost    *host);
/* NULL shows every server. */
void       steward_log_view_set_server (StewardLogView *self,
                                        const char     *server);

G_END_DECLS

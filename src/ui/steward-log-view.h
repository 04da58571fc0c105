/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "steward-host.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_LOG_VIEW (steward_log_view_get_type ())

G_DECLARE_FINAL_TYPE (StewardLogView, steward_log_view, STEWARD, LOG_VIEW, AdwBin)

/* The log viewer over the host's StewardLogStore: filter by level, source,
 * server and text; set a server's log level; pause/follow; copy; export.
 *
 * Properties (all notify): "server" (NULL for every server), "search-text",
 * "min-level" (a StewardLogLevel), "sources" (a mask of 1 << StewardLogSource),
 * "follow" and "paused". */
GtkWidget  *steward_log_view_new           (StewardHost          *host);
/* NULL shows every server. */
void        steward_log_view_set_server    (StewardLogView       *self,
                                            const char           *server);
const char *steward_log_view_get_server    (StewardLogView       *self);

/* The entries shown: the store through the filters, frozen while paused. */
GListModel *steward_log_view_get_model     (StewardLogView       *self);

/* Writes the entries shown to @file (what "Export…" does once a file is
 * chosen): JSON lines when @as_json, else text. */
void        steward_log_view_export_async  (StewardLogView       *self,
                                            GFile                *file,
                                            gboolean              as_json,
                                            GCancellable         *cancellable,
                                            GAsyncReadyCallback   callback,
                                            gpointer              user_data);
gboolean    steward_log_view_export_finish (StewardLogView       *self,
                                            GAsyncResult         *result,
                                            GError              **error);
/* Exports as "Export…" does and shows the outcome: a failure stays shown
 * until dismissed or an export succeeds. */
void        steward_log_view_export_to     (StewardLogView       *self,
                                            GFile                *file);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "steward-log-entry.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_LOG_ROW (steward_log_row_get_type ())

G_DECLARE_FINAL_TYPE (StewardLogRow, steward_log_row, STEWARD, LOG_ROW, GtkWidget)

/* Room for "HH:MM:SS.mmm" and for "1023.9 KB" with their terminators. */
#define STEWARD_LOG_TIME_LEN 16

/*
 * One entry of the log viewer as a single line: time, server, source,
 * direction and size for protocol messages, level, logger and the one-line
 * text. The list recycles rows, so setting an entry only replaces the
 * labels' text.
 */
GtkWidget  *steward_log_row_new              (void);
void        steward_log_row_set_entry        (StewardLogRow       *self,
                                              StewardLogEntry     *entry);

/* Shared with the view's copy and detail text. */
void        steward_log_row_format_time      (gint64               time_us,
                                              char                 buffer[STEWARD_LOG_TIME_LEN]);
void        steward_log_row_format_size      (gsize                size,
                                              char                 buffer[STEWARD_LOG_SIZE_LEN]);
const char *steward_log_row_source_label     (StewardLogSource     source);
const char *steward_log_row_level_label      (StewardLogLevel      level);
const char *steward_log_row_direction_arrow  (StewardLogDirection  direction);
/* A line of plain text for the clipboard ("12:00:01.250  files  Protocol
 * info  → 1.2 KB  tools/call 7"); with @with_detail the detail follows on
 * the next lines. */
void        steward_log_row_describe_entry   (StewardLogEntry     *entry,
                                              GString             *out,
                                              gboolean             with_detail);

G_END_DECLS

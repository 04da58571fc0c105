/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "steward-log-entry.h"

G_BEGIN_DECLS

/*
 * The bounded store of log entries from every server and from the host: a
 * ring of at most "capacity" entries (100,000 by default) exposed as a
 * GListModel of StewardLogEntry, oldest first. Appends are cheap and are
 * announced to the model's observers in batches, at most once per
 * "batch-interval" (16 ms), so that a flood of 10,000 entries per second
 * costs the UI one items-changed per frame. Text that may hold secrets is
 * redacted (steward-redactor.h) before anything reads an entry, on every
 * path into the store, host events included. A protocol message appended
 * with steward_log_store_append_message() is kept as its parts, its text
 * shared with the client, and made into an entry, and redacted, the first
 * time the model is asked for it: nearly all never are.
 *
 * When the ring overflows, a batch is announced as two changes: the
 * oldest entries removed at position 0, then the new ones added at the
 * end. "n-dropped" counts every entry that fell out, or never got in
 * because one batch held more than the ring. Entries are also bounded by
 * "max-bytes", so that big payloads cannot take more memory than small
 * ones.
 */

#define STEWARD_TYPE_LOG_STORE (steward_log_store_get_type ())

G_DECLARE_FINAL_TYPE (StewardLogStore, steward_log_store, STEWARD, LOG_STORE, GObject)

/* @capacity: the most entries kept, 0 for the default. */
StewardLogStore *steward_log_store_new            (guint                 capacity);
guint            steward_log_store_get_capacity   (StewardLogStore      *self);
/* Takes a reference. */
void             steward_log_store_append         (StewardLogStore      *self,
                                                   StewardLogEntry      *entry);
void             steward_log_store_append_message (StewardLogStore      *self,
                                                   gint64                time_us,
                                                   const char           *server,
                                                   StewardLogDirection   direction,
                                                   const char           *summary,
                                                   GBytes               *text,
                                                   gsize                 text_length,
                                                   gboolean              cut,
                                                   gsize                 size);
/* Convenience for host events (consent, start, crash, restart…). */
void             steward_log_store_add_host_event (StewardLogStore      *self,
                                                   const char           *server,
                                                   StewardLogLevel       level,
                                                   const char           *format,
                                                   ...) G_GNUC_PRINTF (4, 5);
/* How long appends wait to be announced together, in milliseconds. */
guint            steward_log_store_get_batch_interval (StewardLogStore    *self);
void             steward_log_store_set_batch_interval (StewardLogStore    *self,
                                                       guint               interval_ms);
/* About how much memory the entries may take (48 MiB by default); past
 * it, the oldest fall out as when the ring is full. */
guint64          steward_log_store_get_max_bytes  (StewardLogStore      *self);
void             steward_log_store_set_max_bytes  (StewardLogStore      *self,
                                                   guint64               max_bytes);
/* Makes pending appends visible to observers now (tests, export). */
void             steward_log_store_flush          (StewardLogStore      *self);
void             steward_log_store_clear          (StewardLogStore      *self);
guint64          steward_log_store_get_n_dropped  (StewardLogStore      *self);

/* Writes the entries of @model (the whole store, or a filtered view of it)
 * as text, one entry per line with time, server, source, level and text,
 * or as JSON lines when @as_json. Runs on a worker over a snapshot. */
void             steward_log_store_export_async   (GListModel           *model,
                                                   GFile                *file,
                                                   gboolean              as_json,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
gboolean         steward_log_store_export_finish  (GAsyncResult         *result,
                                                   GError              **error);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "steward-file-backed.h"

G_BEGIN_DECLS

/* The time sampling goes by, in wall-clock microseconds: the per-minute
 * windows, the local day of the token budget and the journal's "time".
 * Tests move it instead of waiting a minute or a day. */
typedef gint64 (*StewardSamplingClock) (gpointer user_data);

#define STEWARD_TYPE_SAMPLING_JOURNAL (steward_sampling_journal_get_type ())

G_DECLARE_FINAL_TYPE (StewardSamplingJournal, steward_sampling_journal, STEWARD, SAMPLING_JOURNAL,
                      StewardFileBacked)

/*
 * The audit journal (one JSON record a line, docs in
 * steward-sampling-broker.h) and the daily token budget it keeps: the
 * tokens each server spent on the local day, counted in memory as
 * requests spend them and counted again from the file when Steward
 * starts. Without a file, the budget is kept in memory alone.
 */
StewardSamplingJournal *steward_sampling_journal_new              (GFile                  *file);
void                    steward_sampling_journal_set_clock        (StewardSamplingJournal *self,
                                                                   StewardSamplingClock    clock,
                                                                   gpointer                user_data);
gint64                  steward_sampling_journal_now              (StewardSamplingJournal *self);

/* Writes @record as one line, with any secret in it redacted, after the
 * lines appended before it; a failure is a warning. */
void                    steward_sampling_journal_append           (StewardSamplingJournal *self,
                                                                   JsonObject             *record);

/* Tokens counted against @server's budget today. */
guint                   steward_sampling_journal_get_tokens_used  (StewardSamplingJournal *self,
                                                                   const char             *server);
void                    steward_sampling_journal_add_tokens       (StewardSamplingJournal *self,
                                                                   const char             *server,
                                                                   gint64                  tokens);

/* Counts again, from the file, the tokens each server used today (by
 * each record's "time"), so that the budget holds across restarts. Fails
 * only when cancelled: a journal that cannot be read is a warning and
 * damaged lines are skipped. */
void                    steward_sampling_journal_recount_async    (StewardSamplingJournal *self,
                                                                   GCancellable           *cancellable,
                                                                   GAsyncReadyCallback     callback,
                                                                   gpointer                user_data);
gboolean                steward_sampling_journal_recount_finish   (StewardSamplingJournal *self,
                                                                   GAsyncResult           *result,
                                                                   GError                **error);
/* The same, waiting on a main context of its own: for tests and the CLI. */
void                    steward_sampling_journal_recount          (StewardSamplingJournal *self);

/* The records, oldest first (an array of JsonObject); damaged lines are
 * skipped. */
void                    steward_sampling_journal_read_async       (StewardSamplingJournal *self,
                                                                   GCancellable           *cancellable,
                                                                   GAsyncReadyCallback     callback,
                                                                   gpointer                user_data);
GPtrArray              *steward_sampling_journal_read_finish      (StewardSamplingJournal *self,
                                                                   GAsyncResult           *result,
                                                                   GError                **error);

G_END_DECLS

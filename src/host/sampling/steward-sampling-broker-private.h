/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "steward-sampling-broker.h"
#include "steward-sampling-file-queue.h"
#include "steward-sampling-journal.h"
#include "steward-sampling-json.h"

G_BEGIN_DECLS

/*
 * The broker's seams, for the host's own model back ends and for tests;
 * nothing outside src/host and tests/ includes this.
 */

/* Tests move the clock (StewardSamplingClock, steward-sampling-journal.h)
 * instead of waiting a minute or a day. */
void steward_sampling_broker_set_clock (StewardSamplingBroker *self,
                                        StewardSamplingClock   clock,
                                        gpointer               user_data);

/* What a provider produced for one request. Tokens are -1 when the
 * provider did not report them; the broker then estimates. */
typedef struct {
  char   *text;
  char   *model;
  char   *stop_reason;
  gint64  input_tokens;
  gint64  output_tokens;
} StewardSamplingAnswer;

StewardSamplingAnswer *steward_sampling_answer_new  (const char            *text,
                                                     const char            *model);
void                   steward_sampling_answer_free (StewardSamplingAnswer *answer);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StewardSamplingAnswer, steward_sampling_answer_free)

/*
 * A seam for tests in place of the models: choose_model() names the model
 * for a request and the sentence that explains the choice (both newly
 * allocated). generate_async() streams an answer into @approval with
 * steward_approval_append_answer() and finishes with the whole of it; when
 * it is NULL the person writes the answer.
 */
typedef struct {
  char                  *(*choose_model)    (gpointer               provider,
                                             JsonObject            *params,
                                             char                 **reason);
  void                   (*generate_async)  (gpointer               provider,
                                             const char            *model,
                                             JsonObject            *params,
                                             StewardApproval       *approval,
                                             GCancellable          *cancellable,
                                             GAsyncReadyCallback    callback,
                                             gpointer               user_data);
  StewardSamplingAnswer *(*generate_finish) (gpointer               provider,
                                             GAsyncResult          *result,
                                             GError               **error);
} StewardSamplingProviderFuncs;

/* steward_sampling_broker_set_models() with any list of StewardProvider,
 * so that tests can bring providers of their own. */
void steward_sampling_broker_set_model_sources (StewardSamplingBroker *self,
                                                GListModel            *providers,
                                                StewardModelCatalog   *catalog);

/* @funcs must outlive the broker; NULL restores the manual provider, or
 * the models given to steward_sampling_broker_set_models(). */
void steward_sampling_broker_set_provider (StewardSamplingBroker              *self,
                                           const StewardSamplingProviderFuncs *funcs,
                                           gpointer                            provider);

/*
 * What the broker's files share (steward-sampling-broker*.c): the instance
 * struct, the per-server state, the clock and the per-minute windows.
 */

typedef struct {
  char                    *name;

  /* What the person chose, saved to policies.json when it changes. */
  StewardSamplingSettings *settings;

  /* Requests in a row that carried tool results: a tool loop's rounds. */
  guint                    tool_rounds;

  /* When requests were let in, for the per-minute windows (gint64). */
  GArray                  *sampling_times;
  GArray                  *elicitation_times;

  /* At most one sampling approval open; the rest wait, oldest first. */
  GTask                   *open;
  GQueue                   waiting;
  gboolean                 pumping;

  GTask                   *open_elicitation;
} StewardSamplingServerState;

struct _StewardSamplingBroker
{
  GObject                             parent_instance;

  StewardApprovals                   *approvals;
  GFile                              *policies;
  StewardSamplingJournal             *journal;   /* and the daily budget */

  GHashTable                         *servers;   /* name → StewardSamplingServerState */

  const StewardSamplingProviderFuncs *provider_funcs;
  gpointer                            provider;

  /* Where answers come from once the person set up models. */
  GListModel                         *model_providers;
  StewardModelCatalog                *catalog;

  /* policies.json is read and written here, in the order asked. */
  StewardSamplingFileQueue           *queue;
  guint                               save_source_id;
  gboolean                            loading;   /* policies.json being applied */
};

gint64                      steward_sampling_broker_now              (StewardSamplingBroker *self);
StewardSamplingServerState *steward_sampling_broker_get_server_state (StewardSamplingBroker *self,
                                                                      const char            *server);
/* Saves policies.json soon, unless the change came from loading it. */
void                        steward_sampling_broker_settings_changed (StewardSamplingBroker *self);

/* How many of @times fall in the minute before @now, dropping the older
 * ones; @oldest is the first of those left. */
guint                       steward_sampling_window_count            (GArray                *times,
                                                                      gint64                 now,
                                                                      gint64                *oldest);
guint                       steward_sampling_seconds_until_free      (gint64                 oldest,
                                                                      gint64                 now);

GError                     *steward_sampling_new_withdrawn           (void);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "steward-sampling-broker.h"

G_BEGIN_DECLS

/*
 * The broker's seams, for the host's own model back ends and for tests;
 * nothing outside src/host and tests/ includes this.
 */

/* The time the broker goes by, in wall-clock microseconds: the per-minute
 * windows, the local day of the token budget and the journal's "time".
 * Tests move it instead of waiting a minute or a day. */
typedef gint64 (*StewardSamplingClock) (gpointer user_data);

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

G_END_DECLS

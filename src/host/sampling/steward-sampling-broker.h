/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "steward-approvals.h"
#include "steward-model-catalog.h"
#include "steward-providers.h"
#include "steward-sampling-settings.h"

G_BEGIN_DECLS

/*
 * The sampling half of the host's McpClientDelegate (docs/ARCHITECTURE.md §4):
 * per-server policy, rate limit, queue bound, maxTokens clamp, daily token
 * budget, the two-stage approval, the answer (from the model the person's
 * catalogue offers, or written by the person), the audit record.
 *
 * Policies and limits are kept in policies.json in the config folder
 * ({"servers": {"NAME": {"sampling": "ask", "maxTokens": 4096,
 * "perMinute": 5, "dailyTokens": 100000, "models": ["ollama/qwen2.5:7b"],
 * "localOnly": true}}}); "allow for this session" is never written.
 * "models" lists the model ids the server's requests may use (absent: all
 * of the catalogue's) and "localOnly" keeps them to models on this
 * computer; both are written only when set.
 *
 * With the providers and the model catalogue (steward_sampling_broker_
 * set_models), stage 1 shows the model StewardModelSelector chose and
 * why, and the answer streams from that model's provider into the
 * approval after "continue"; when no model may answer, the person writes
 * it. The request's systemPrompt, messages, temperature, stopSequences,
 * metadata, maxTokens (clamped) and, in 2025-11-25, tools and toolChoice
 * go to the provider. A model's tool_use blocks go back to the server in
 * the result (stopReason "toolUse"): the server runs the tools and asks
 * again with tool_result blocks, at most STEWARD_SAMPLING_MAX_TOOL_ROUNDS
 * times in a row. Steward shares no other context whatever
 * "includeContext" asks; the approval's request then says so in
 * "_steward": {"includeContext": SENTENCE}, and a model's tool calls are
 * shown there too ("_steward": {"toolUse": [BLOCK…]}). "_steward" is the
 * host's own: a server's is dropped, and it never reaches a provider. The audit journal is JSON lines, one record per request:
 * {"time", "server", "decision" (sent|rejected|denied|limited|failed),
 * "reason", "model", "maxTokens", "messages", "inputTokens",
 * "outputTokens", "edited": bool}. "provider" names the provider whose
 * model answered ("manual" when the person wrote it), and the tokens are
 * all the request spent, every regenerated answer included, as the daily
 * budget counts them.
 *
 * Beside those, a record may hold "decision": "cancelled" (the server
 * withdrew the request or its connection ended), "cause",
 * "maxTokensRequested" (when "maxTokens" was clamped), "promptChars" and
 * "answerChars" (sizes), and "summary": the first 200 characters of the
 * last user message. Nothing else of the conversation is written.
 *
 * When "maxTokens" is above the server's cap, the approval's request
 * carries the clamped value and the approval's "max-tokens-requested"
 * property the value the server asked for.
 *
 * Refusals for load (rate limit, budget, full queue, a second elicitation)
 * are MCP_ERROR_OVERLOADED errors, which McpClient answers as -32603 with
 * the same message; a rejection is MCP_ERROR_USER_REJECTED (-1, "User
 * rejected sampling request"); a request withdrawn by the server ends with
 * G_IO_ERROR_CANCELLED.
 *
 * Each server's settings are a StewardSamplingSettings
 * (steward_sampling_broker_get_settings): a change to any of its
 * properties is saved to policies.json by itself, and a load sets them
 * all, so that whoever shows them follows their notify signals.
 */

#define STEWARD_SAMPLING_QUEUE_SIZE           3   /* waiting per server besides the open one */
/* Requests in a row whose last message holds tool results. */
#define STEWARD_SAMPLING_MAX_TOOL_ROUNDS      10

#define STEWARD_TYPE_SAMPLING_BROKER (steward_sampling_broker_get_type ())

G_DECLARE_FINAL_TYPE (StewardSamplingBroker, steward_sampling_broker, STEWARD, SAMPLING_BROKER, GObject)

/* @policies: policies.json, or NULL to keep them in memory; @journal: the
 * audit journal (audit.jsonl in $XDG_STATE_HOME/steward/), or NULL. */
StewardSamplingBroker *steward_sampling_broker_new              (StewardApprovals       *approvals,
                                                                 GFile                  *policies,
                                                                 GFile                  *journal);
/* Reads policies.json at once, for tests and the CLI; the app uses
 * load_async. A missing file is no error (the defaults apply); a damaged
 * one is a G_IO_ERROR_INVALID_DATA error that names the file. Both loads
 * also count again, from the journal, the tokens each server used today
 * (local day, by each record's "time"), so that the daily budget holds
 * across restarts; a journal that cannot be read is a warning, not an
 * error, and damaged lines are skipped. */
gboolean               steward_sampling_broker_load             (StewardSamplingBroker  *self,
                                                                 GError                **error);
void                   steward_sampling_broker_load_async       (StewardSamplingBroker  *self,
                                                                 GCancellable           *cancellable,
                                                                 GAsyncReadyCallback     callback,
                                                                 gpointer                user_data);
gboolean               steward_sampling_broker_load_finish      (StewardSamplingBroker  *self,
                                                                 GAsyncResult           *result,
                                                                 GError                **error);
/* Setters save policies.json by themselves (atomically, soon after);
 * save_async writes now and finishes once the file holds every change
 * made before the call. */
void                   steward_sampling_broker_save_async       (StewardSamplingBroker  *self,
                                                                 GCancellable           *cancellable,
                                                                 GAsyncReadyCallback     callback,
                                                                 gpointer                user_data);
gboolean               steward_sampling_broker_save_finish      (StewardSamplingBroker  *self,
                                                                 GAsyncResult           *result,
                                                                 GError                **error);
GFile                 *steward_sampling_broker_get_policies     (StewardSamplingBroker  *self);
GFile                 *steward_sampling_broker_get_journal      (StewardSamplingBroker  *self);

/* @server's settings, made with the defaults when first asked for. */
StewardSamplingSettings *steward_sampling_broker_get_settings   (StewardSamplingBroker  *self,
                                                                 const char             *server);
/* Where answers come from; until it is called, the person writes them. */
void                   steward_sampling_broker_set_models       (StewardSamplingBroker  *self,
                                                                 StewardProviders       *providers,
                                                                 StewardModelCatalog    *catalog);
/* Tokens counted against @server's budget today. */
guint                  steward_sampling_broker_get_tokens_used  (StewardSamplingBroker  *self,
                                                                 const char             *server);

/* Answers one sampling/createMessage. @cause (nullable) says what caused it.
 * Fails at once with MCP_ERROR_USER_REJECTED-style JSON-RPC errors when the
 * policy denies, the rate limit or budget is exhausted, or the queue is
 * full; otherwise waits for the person. */
void                   steward_sampling_broker_create_message_async  (StewardSamplingBroker *self,
                                                                      const char            *server,
                                                                      JsonObject            *params,
                                                                      const char            *cause,
                                                                      GCancellable          *cancellable,
                                                                      GAsyncReadyCallback    callback,
                                                                      gpointer               user_data);
JsonObject            *steward_sampling_broker_create_message_finish (StewardSamplingBroker *self,
                                                                      GAsyncResult          *result,
                                                                      GError               **error);

/* Elicitation: at most one open per server, at most 10 per minute; the
 * approval's ACCEPT data is the content object. */
void                   steward_sampling_broker_elicit_async          (StewardSamplingBroker *self,
                                                                      const char            *server,
                                                                      JsonObject            *params,
                                                                      GCancellable          *cancellable,
                                                                      GAsyncReadyCallback    callback,
                                                                      gpointer               user_data);
JsonObject            *steward_sampling_broker_elicit_finish         (StewardSamplingBroker *self,
                                                                      GAsyncResult          *result,
                                                                      GError               **error);

/* Reads the audit journal (newest last) on a worker; an array of
 * JsonObject. Damaged lines are skipped and counted in the result's
 * length difference, never fatal. */
void                   steward_sampling_broker_read_journal_async    (StewardSamplingBroker *self,
                                                                      GCancellable          *cancellable,
                                                                      GAsyncReadyCallback    callback,
                                                                      gpointer               user_data);
GPtrArray             *steward_sampling_broker_read_journal_finish   (StewardSamplingBroker *self,
                                                                      GAsyncResult          *result,
                                                                      GError               **error);

G_END_DECLS

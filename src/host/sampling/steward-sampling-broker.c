/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-sampling-broker"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-sampling-request.h"

#include "steward-model-selector.h"

#include "steward-sampling-broker-private.h"
#include "steward-sampling-notes.h"

#define WINDOW_USEC               ((gint64) 60 * G_USEC_PER_SEC)

/* The words and code the specification shows for a refusal. */
#define USER_REJECTED_MESSAGE     "User rejected sampling request"

enum {
  PROP_0,
  PROP_APPROVALS,
  PROP_POLICIES,
  PROP_JOURNAL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (StewardSamplingBroker, steward_sampling_broker, G_TYPE_OBJECT)

/* The manual provider: no model, the person writes the answer. */

static char *
manual_choose_model (gpointer     provider,
                     JsonObject  *params,
                     char       **reason)
{
  *reason = g_strdup (_("No model is configured, so you write the answer."));
  return g_strdup ("manual");
}

static const StewardSamplingProviderFuncs manual_provider = {
  manual_choose_model,
  NULL,
  NULL,
};

StewardSamplingAnswer *
steward_sampling_answer_new (const char *text,
                             const char *model)
{
  StewardSamplingAnswer *answer = g_new0 (StewardSamplingAnswer, 1);

  answer->text = g_strdup (text ? text : "");
  answer->model = g_strdup (model);
  answer->stop_reason = g_strdup ("endTurn");
  answer->input_tokens = -1;
  answer->output_tokens = -1;

  return answer;
}

void
steward_sampling_answer_free (StewardSamplingAnswer *answer)
{
  if (answer == NULL)
    return;

  g_free (answer->text);
  g_free (answer->model);
  g_free (answer->stop_reason);
  g_free (answer);
}

/* Time */

/* One clock for the windows here and the journal's budget and stamps. */
gint64
steward_sampling_broker_now (StewardSamplingBroker *self)
{
  return steward_sampling_journal_now (self->journal);
}

/* Drops the times that left the window and says how many are in it; the
 * oldest one left tells when the window opens again. A time in the future
 * means the wall clock went back, and it is forgotten rather than letting
 * it hold the window shut. */
guint
steward_sampling_window_count (GArray *times,
                               gint64  now,
                               gint64 *oldest)
{
  guint kept = 0;

  for (guint i = 0; i < times->len; i++)
    {
      gint64 t = g_array_index (times, gint64, i);

      if (t > now - WINDOW_USEC && t <= now)
        g_array_index (times, gint64, kept++) = t;
    }
  g_array_set_size (times, kept);

  if (oldest != NULL)
    *oldest = kept > 0 ? g_array_index (times, gint64, 0) : now;

  return kept;
}

guint
steward_sampling_seconds_until_free (gint64 oldest,
                                     gint64 now)
{
  gint64 wait = oldest + WINDOW_USEC - now;

  return (guint) MAX (1, (wait + G_USEC_PER_SEC - 1) / G_USEC_PER_SEC);
}

/* Per-server state */

static void
server_state_free (StewardSamplingServerState *state)
{
  g_free (state->name);
  g_array_unref (state->sampling_times);
  g_array_unref (state->elicitation_times);
  g_clear_object (&state->settings);
  g_clear_object (&state->open);
  g_queue_clear_full (&state->waiting, g_object_unref);
  g_clear_object (&state->open_elicitation);
  g_free (state);
}

StewardSamplingServerState *
steward_sampling_broker_get_server_state (StewardSamplingBroker *self,
                                          const char            *server)
{
  StewardSamplingServerState *state = g_hash_table_lookup (self->servers, server);

  if (state != NULL)
    return state;

  state = g_new0 (StewardSamplingServerState, 1);
  state->name = g_strdup (server);
  state->settings = steward_sampling_settings_new (server);
  g_signal_connect_object (state->settings, "notify",
                           G_CALLBACK (steward_sampling_broker_settings_changed), self,
                           G_CONNECT_SWAPPED);
  state->sampling_times = g_array_new (FALSE, FALSE, sizeof (gint64));
  state->elicitation_times = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_queue_init (&state->waiting);
  g_hash_table_insert (self->servers, state->name, state);

  return state;
}

/* Returns a copy of @params with maxTokens at most @cap, and what the
 * request asked for when it was more (else 0). "_steward" is the host's
 * word to the person: a server's own, or the one an edit brought back,
 * is dropped. */
static JsonObject *
clamp_params (JsonObject *params,
              guint       cap,
              guint      *requested)
{
  JsonObject *copy = steward_sampling_json_copy_object (params);
  gint64 max_tokens = 0;

  if (json_object_has_member (copy, "_steward"))
    json_object_remove_member (copy, "_steward");

  mcp_json_get_int64 (copy, "maxTokens", G_MININT64, G_MAXINT64, &max_tokens);
  *requested = 0;
  if (max_tokens > (gint64) cap)
    {
      *requested = (guint) MIN (max_tokens, (gint64) G_MAXUINT);
      json_object_set_int_member (copy, "maxTokens", cap);
    }

  return copy;
}

static GError *
new_rejection (void)
{
  return mcp_error_new_rpc (MCP_ERROR_USER_REJECTED, USER_REJECTED_MESSAGE, NULL);
}

GError *
steward_sampling_new_withdrawn (void)
{
  return g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                              _("The server withdrew the request"));
}

static void
request_free (StewardSamplingRequest *request)
{
  g_free (request->server);
  g_free (request->cause);
  g_clear_pointer (&request->params, json_object_unref);
  g_free (request->model);
  g_free (request->model_reason);
  g_clear_object (&request->chosen);
  g_free (request->provider_id);
  g_free (request->include_context);
  if (request->approval != NULL)
    g_clear_signal_handler (&request->responded_id, request->approval);
  g_clear_object (&request->approval);
  if (request->cancel_source != NULL)
    g_source_destroy (request->cancel_source);
  g_clear_pointer (&request->cancel_source, g_source_unref);
  if (request->generation != NULL)
    g_cancellable_cancel (request->generation);
  g_clear_object (&request->generation);
  g_free (request->produced);
  g_free (request->produced_by);
  g_free (request->produced_stop);
  g_clear_pointer (&request->tool_uses, json_array_unref);
  g_free (request);
}

/* Sampling requests */

static void pump (StewardSamplingBroker      *self,
                  StewardSamplingServerState *state);

StewardProvider *
steward_sampling_broker_find_provider (StewardSamplingBroker *self,
                                       const char            *id)
{
  guint n = self->model_providers ? g_list_model_get_n_items (self->model_providers) : 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(StewardProvider) provider = g_list_model_get_item (self->model_providers, i);

      if (g_strcmp0 (steward_provider_get_id (provider), id) == 0)
        return g_steal_pointer (&provider);
    }

  return NULL;
}

/* The models @state's server may use whose provider is set up: a model
 * whose provider was removed cannot answer. */
static char **
dup_usable_models (StewardSamplingBroker      *self,
                   StewardSamplingServerState *state)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->catalog));
  const char * const *models = steward_sampling_settings_get_models (state->settings);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(StewardModel) model = g_list_model_get_item (G_LIST_MODEL (self->catalog), i);
      g_autoptr(StewardProvider) provider = NULL;
      const char *id = steward_model_get_id (model);

      if (models != NULL && !g_strv_contains (models, id))
        continue;

      provider = steward_sampling_broker_find_provider (self, steward_model_get_provider (model));
      if (provider != NULL)
        g_strv_builder_add (builder, id);
    }

  return g_strv_builder_end (builder);
}

/* The model for a request, and the sentence that says why: from the test
 * seam when one is set, else from the person's models, else the person. */
static void
choose_model (StewardSamplingBroker      *self,
              StewardSamplingServerState *state,
              StewardSamplingRequest     *request)
{
  g_auto(GStrv) usable = NULL;
  JsonObject *preferences;
  StewardModel *chosen;
  gboolean local_only;

  if (self->provider_funcs != &manual_provider || self->catalog == NULL)
    {
      request->model = self->provider_funcs->choose_model (self->provider, request->params,
                                                           &request->model_reason);
      if (self->provider_funcs == &manual_provider)
        request->provider_id = g_strdup ("manual");
      return;
    }

  usable = dup_usable_models (self, state);
  preferences = mcp_json_get_object (request->params, "modelPreferences");
  local_only = steward_sampling_settings_get_local_only (state->settings);
  chosen = steward_model_selector_select (self->catalog, preferences,
                                          (const char * const *) usable, local_only,
                                          &request->model_reason);
  if (chosen == NULL)
    {
      request->model = g_strdup ("manual");
      request->provider_id = g_strdup ("manual");
      return;
    }

  request->chosen = chosen;
  request->model = g_strdup (steward_model_get_id (chosen));
  request->provider_id = g_strdup (steward_model_get_provider (chosen));
}

/* Every request ends here, exactly once: the audit record, the queue, the
 * answer to the server, then the next request of the same server. */
void
steward_sampling_broker_request_complete (StewardSamplingBroker *self,
                                          GTask                 *task,
                                          const char            *decision,
                                          JsonObject            *result,
                                          GError                *error,
                                          gint64                 input_tokens,
                                          gint64                 output_tokens)
{
  g_autoptr(GTask) owned = NULL;
  StewardSamplingRequest *request = g_task_get_task_data (task);
  StewardSamplingServerState *state = request->state;
  gboolean was_open = FALSE;

  if (request->done)
    {
      g_clear_error (&error);
      return;
    }
  request->done = TRUE;

  if (request->cancel_source != NULL)
    g_source_destroy (request->cancel_source);
  if (request->generation != NULL)
    g_cancellable_cancel (request->generation);
  if (request->approval != NULL)
    g_clear_signal_handler (&request->responded_id, request->approval);

  steward_sampling_broker_record (self, request, decision, error, result, input_tokens,
                                  output_tokens);

  if (state->open == task)
    {
      owned = g_steal_pointer (&state->open);
      was_open = TRUE;
    }
  else if (g_queue_remove (&state->waiting, task))
    owned = task;
  else
    owned = g_object_ref (task);

  if (error != NULL)
    g_task_return_error (owned, error);
  else
    g_task_return_pointer (owned, json_object_ref (result), (GDestroyNotify) json_object_unref);

  if (was_open)
    pump (self, state);
}

void
steward_sampling_broker_request_fail (StewardSamplingBroker *self,
                                      GTask                 *task,
                                      const char            *decision,
                                      GError                *error)
{
  StewardSamplingRequest *request = g_task_get_task_data (task);

  /* Tokens a provider reported were spent even when nothing is sent. */
  steward_sampling_broker_request_complete (self, task, decision, NULL, error,
                    request->spent_input, request->spent_output);
}

/* The params as the person sees them: the request, and what Steward has
 * to say about it under "_steward". */
static JsonObject *
annotate (StewardSamplingRequest *request)
{
  JsonObject *shown;
  JsonObject *notes;

  if (request->include_context == NULL && request->tool_uses == NULL)
    return json_object_ref (request->params);

  shown = steward_sampling_json_copy_object (request->params);
  notes = json_object_new ();
  if (request->include_context != NULL)
    json_object_set_string_member (notes, "includeContext", request->include_context);
  if (request->tool_uses != NULL)
    {
      g_autoptr(JsonNode) uses = json_node_init_array (json_node_alloc (), request->tool_uses);

      json_object_set_member (notes, "toolUse", steward_sampling_json_copy_node (uses));
    }
  json_object_set_object_member (shown, "_steward", notes);

  return shown;
}

void
steward_sampling_request_show (StewardSamplingRequest *request)
{
  g_autoptr(JsonObject) shown = annotate (request);

  steward_approval_set_request (request->approval, shown);
}

static void
continue_request (StewardSamplingBroker *self,
                  GTask                 *task,
                  JsonObject            *data)
{
  StewardSamplingRequest *request = g_task_get_task_data (task);
  g_autoptr(JsonObject) params = NULL;
  g_autoptr(GError) error = NULL;
  guint requested = 0;

  if (steward_approval_get_stage (request->approval) != STEWARD_APPROVAL_STAGE_REQUEST)
    {
      g_debug ("Ignoring “continue” for a sampling request past its first stage");
      return;
    }

  if (data != NULL && !mcp_sampling_request_validate (data, &error))
    {
      /* The person can fix the edit; the request stays at stage 1. */
      steward_approval_set_error_text (request->approval, error->message);
      return;
    }

  if (data != NULL)
    {
      guint cap = steward_sampling_settings_get_max_tokens (request->state->settings);

      params = clamp_params (data, cap, &requested);
      if (!steward_sampling_json_equal (params, request->params))
        request->edited = TRUE;
      g_clear_pointer (&request->params, json_object_unref);
      request->params = json_object_ref (params);
      g_free (request->include_context);
      request->include_context = steward_sampling_describe_include_context (params);
      steward_sampling_request_show (request);
    }

  /* The person may have picked another of the models offered. */
  if (steward_sampling_picked_model (request->approval, request->model) != NULL)
    {
      g_set_object (&request->chosen,
                    steward_model_catalog_lookup (self->catalog,
                                                  steward_approval_get_model (request->approval)));
      g_free (request->model);
      request->model = g_strdup (steward_model_get_id (request->chosen));
      g_free (request->provider_id);
      request->provider_id = g_strdup (steward_model_get_provider (request->chosen));
    }

  steward_approval_set_stage (request->approval, STEWARD_APPROVAL_STAGE_RESPONSE);
  steward_sampling_broker_generate (self, task);
}

static void
responded_cb (StewardApproval       *approval,
              StewardApprovalAction  action,
              JsonObject            *data,
              gpointer               user_data)
{
  GTask *task = user_data;
  StewardSamplingBroker *self = g_task_get_source_object (task);

  switch (action)
    {
    case STEWARD_APPROVAL_ACTION_CONTINUE:
      continue_request (self, task, data);
      break;

    case STEWARD_APPROVAL_ACTION_REGENERATE:
      if (steward_approval_get_stage (approval) == STEWARD_APPROVAL_STAGE_RESPONSE)
        steward_sampling_broker_generate (self, task);
      break;

    case STEWARD_APPROVAL_ACTION_SEND:
      steward_sampling_broker_send_answer (self, task, data);
      break;

    case STEWARD_APPROVAL_ACTION_REJECT:
    case STEWARD_APPROVAL_ACTION_CANCEL:
    case STEWARD_APPROVAL_ACTION_DENY:
    case STEWARD_APPROVAL_ACTION_DECLINE:
    case STEWARD_APPROVAL_ACTION_ALLOW:
    case STEWARD_APPROVAL_ACTION_ACCEPT:
    default:
      /* Any other way of closing the dialog is a refusal too: nothing
       * reaches the server without the person's "send". */
      steward_sampling_broker_request_fail (self, task, "rejected", new_rejection ());
      break;
    }
}

static gboolean
request_cancelled_cb (GCancellable *cancellable,
                      gpointer      user_data)
{
  GTask *task = user_data;
  StewardSamplingBroker *self = g_task_get_source_object (task);
  StewardSamplingRequest *request = g_task_get_task_data (task);

  /* The dialog closes before the next request of the server opens. */
  if (request->approval != NULL)
    {
      g_clear_signal_handler (&request->responded_id, request->approval);
      steward_approval_withdraw (request->approval);
    }

  steward_sampling_broker_request_fail (self, task, "cancelled", steward_sampling_new_withdrawn ());

  return G_SOURCE_REMOVE;
}

/* Opens the approval for a request whose turn came. */
static void
request_begin (StewardSamplingBroker *self,
               GTask                 *task)
{
  StewardSamplingRequest *request = g_task_get_task_data (task);
  StewardSamplingSettings *settings = request->state->settings;
  StewardSamplingPolicy policy = steward_sampling_settings_get_policy (settings);
  g_autoptr(JsonObject) shown = NULL;

  if (g_cancellable_is_cancelled (g_task_get_cancellable (task)))
    {
      steward_sampling_broker_request_fail (self, task, "cancelled",
                                            steward_sampling_new_withdrawn ());
      return;
    }

  /* The person may have turned sampling off while it waited. */
  if (policy == STEWARD_SAMPLING_POLICY_DENY)
    {
      steward_sampling_broker_request_fail (self, task, "denied", new_rejection ());
      return;
    }

  shown = annotate (request);
  request->approval = steward_approval_new (STEWARD_APPROVAL_KIND_SAMPLING, request->server,
                                            shown);
  steward_approval_set_cause (request->approval, request->cause);
  steward_approval_set_model (request->approval, request->model, request->model_reason);
  steward_approval_set_max_tokens_requested (request->approval, request->max_tokens_requested);
  steward_approval_set_policy_text (request->approval, steward_sampling_describe_policy (policy));
  steward_approval_set_budget (request->approval,
                               steward_sampling_settings_get_daily_tokens (settings),
                               steward_sampling_journal_get_tokens_used (self->journal,
                                                                         request->server));
  if (request->chosen != NULL && self->catalog != NULL)
    {
      g_auto(GStrv) usable = dup_usable_models (self, request->state);
      g_autoptr(JsonArray) choices = NULL;

      gboolean local_only = steward_sampling_settings_get_local_only (settings);

      choices = steward_sampling_model_choices_new (self->catalog, (const char * const *) usable,
                                                    local_only);
      steward_approval_set_model_choices (request->approval, choices);
    }
  if (policy != STEWARD_SAMPLING_POLICY_ASK)
    steward_approval_set_stage (request->approval, STEWARD_APPROVAL_STAGE_RESPONSE);

  request->responded_id = g_signal_connect (request->approval, "responded",
                                            G_CALLBACK (responded_cb), task);

  steward_approvals_add (self->approvals, request->approval);

  if (policy != STEWARD_SAMPLING_POLICY_ASK)
    steward_sampling_broker_generate (self, task);
}

/* Gives the turn to the oldest waiting request while none is open. */
static void
pump (StewardSamplingBroker      *self,
      StewardSamplingServerState *state)
{
  if (state->pumping)
    return;

  state->pumping = TRUE;
  while (state->open == NULL && !g_queue_is_empty (&state->waiting))
    {
      state->open = g_queue_pop_head (&state->waiting);
      request_begin (self, state->open);
    }
  state->pumping = FALSE;
}

/* GObject */

static void
steward_sampling_broker_dispose (GObject *object)
{
  StewardSamplingBroker *self = STEWARD_SAMPLING_BROKER (object);

  g_clear_handle_id (&self->save_source_id, g_source_remove);
  g_clear_object (&self->approvals);
  g_clear_object (&self->model_providers);
  g_clear_object (&self->catalog);

  G_OBJECT_CLASS (steward_sampling_broker_parent_class)->dispose (object);
}

static void
steward_sampling_broker_finalize (GObject *object)
{
  StewardSamplingBroker *self = STEWARD_SAMPLING_BROKER (object);

  g_clear_object (&self->policies_store);
  g_clear_pointer (&self->servers, g_hash_table_unref);
  g_clear_object (&self->policies);
  g_clear_object (&self->journal);

  G_OBJECT_CLASS (steward_sampling_broker_parent_class)->finalize (object);
}

static void
steward_sampling_broker_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  StewardSamplingBroker *self = STEWARD_SAMPLING_BROKER (object);

  switch (prop_id)
    {
    case PROP_APPROVALS:
      g_value_set_object (value, self->approvals);
      break;
    case PROP_POLICIES:
      g_value_set_object (value, self->policies);
      break;
    case PROP_JOURNAL:
      g_value_set_object (value,
                          steward_file_backed_get_file (STEWARD_FILE_BACKED (self->journal)));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_sampling_broker_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  StewardSamplingBroker *self = STEWARD_SAMPLING_BROKER (object);

  switch (prop_id)
    {
    case PROP_APPROVALS:
      self->approvals = g_value_dup_object (value);
      break;
    case PROP_POLICIES:
      steward_sampling_broker_set_policies_file (self, g_value_get_object (value));
      break;
    case PROP_JOURNAL:
      self->journal = steward_sampling_journal_new (g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_sampling_broker_class_init (StewardSamplingBrokerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = steward_sampling_broker_dispose;
  object_class->finalize = steward_sampling_broker_finalize;
  object_class->get_property = steward_sampling_broker_get_property;
  object_class->set_property = steward_sampling_broker_set_property;

  properties[PROP_APPROVALS] =
    g_param_spec_object ("approvals", NULL, NULL, STEWARD_TYPE_APPROVALS,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_POLICIES] =
    g_param_spec_object ("policies", NULL, NULL, G_TYPE_FILE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_JOURNAL] =
    g_param_spec_object ("journal", NULL, NULL, G_TYPE_FILE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
steward_sampling_broker_init (StewardSamplingBroker *self)
{
  self->servers = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                         (GDestroyNotify) server_state_free);
  self->provider_funcs = &manual_provider;
}

/* Public API */

/**
 * steward_sampling_broker_new:
 * @approvals: where approvals go
 * @policies: (nullable): policies.json
 * @journal: (nullable): the audit journal
 */
StewardSamplingBroker *
steward_sampling_broker_new (StewardApprovals *approvals,
                             GFile            *policies,
                             GFile            *journal)
{
  g_return_val_if_fail (STEWARD_IS_APPROVALS (approvals), NULL);
  g_return_val_if_fail (policies == NULL || G_IS_FILE (policies), NULL);
  g_return_val_if_fail (journal == NULL || G_IS_FILE (journal), NULL);

  return g_object_new (STEWARD_TYPE_SAMPLING_BROKER,
                       "approvals", approvals,
                       "policies", policies,
                       "journal", journal,
                       NULL);
}

/**
 * steward_sampling_broker_get_journal:
 *
 * Returns: (transfer none) (nullable): the audit journal
 */
GFile *
steward_sampling_broker_get_journal (StewardSamplingBroker *self)
{
  g_return_val_if_fail (STEWARD_IS_SAMPLING_BROKER (self), NULL);

  return steward_file_backed_get_file (STEWARD_FILE_BACKED (self->journal));
}

/**
 * steward_sampling_broker_get_settings:
 *
 * Returns: (transfer none): @server's settings
 */
StewardSamplingSettings *
steward_sampling_broker_get_settings (StewardSamplingBroker *self,
                                      const char            *server)
{
  g_return_val_if_fail (STEWARD_IS_SAMPLING_BROKER (self), NULL);
  g_return_val_if_fail (server != NULL, NULL);

  return steward_sampling_broker_get_server_state (self, server)->settings;
}

guint
steward_sampling_broker_get_tokens_used (StewardSamplingBroker *self,
                                         const char            *server)
{
  g_return_val_if_fail (STEWARD_IS_SAMPLING_BROKER (self), 0);
  g_return_val_if_fail (server != NULL, 0);

  return steward_sampling_journal_get_tokens_used (self->journal, server);
}

void
steward_sampling_broker_create_message_async (StewardSamplingBroker *self,
                                              const char            *server,
                                              JsonObject            *params,
                                              const char            *cause,
                                              GCancellable          *cancellable,
                                              GAsyncReadyCallback    callback,
                                              gpointer               user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) empty = NULL;
  StewardSamplingServerState *state;
  StewardSamplingSettings *settings;
  StewardSamplingRequest *request;
  gint64 now;
  gint64 oldest;
  guint per_minute;
  guint daily_tokens;
  guint n_open;

  g_return_if_fail (STEWARD_IS_SAMPLING_BROKER (self));
  g_return_if_fail (server != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_sampling_broker_create_message_async);

  state = steward_sampling_broker_get_server_state (self, server);
  now = steward_sampling_broker_now (self);

  request = g_new0 (StewardSamplingRequest, 1);
  request->state = state;
  request->server = g_strdup (server);
  request->cause = g_strdup (cause);
  request->input_tokens = -1;
  request->output_tokens = -1;
  g_task_set_task_data (task, request, (GDestroyNotify) request_free);

  if (params == NULL)
    params = empty = json_object_new ();

  if (!mcp_sampling_request_validate (params, &error))
    {
      request->params = steward_sampling_json_copy_object (params);
      steward_sampling_broker_request_fail (self, task, "failed", g_steal_pointer (&error));
      return;
    }

  settings = state->settings;
  request->params = clamp_params (params, steward_sampling_settings_get_max_tokens (settings),
                                  &request->max_tokens_requested);
  request->include_context = steward_sampling_describe_include_context (request->params);
  choose_model (self, state, request);

  if (steward_sampling_settings_get_policy (settings) == STEWARD_SAMPLING_POLICY_DENY)
    {
      steward_sampling_broker_request_fail (self, task, "denied", new_rejection ());
      return;
    }

  /* A server that runs tools through sampling asks again with their
   * results; a loop of those ends after so many rounds. */
  if (mcp_sampling_request_is_tool_round (request->params))
    state->tool_rounds++;
  else
    state->tool_rounds = 0;
  if (state->tool_rounds > STEWARD_SAMPLING_MAX_TOOL_ROUNDS)
    {
      error = g_error_new (MCP_ERROR, MCP_ERROR_OVERLOADED,
                           _("Server `%s` sent %u sampling requests in a row with tool results; "
                             "a tool loop may take at most %u rounds. It can start again with a "
                             "request that brings no tool results."),
                           server, state->tool_rounds, STEWARD_SAMPLING_MAX_TOOL_ROUNDS);
      steward_sampling_broker_request_fail (self, task, "limited", g_steal_pointer (&error));
      return;
    }

  per_minute = steward_sampling_settings_get_per_minute (settings);
  if (steward_sampling_window_count (state->sampling_times, now, &oldest) >= per_minute)
    {
      guint seconds = steward_sampling_seconds_until_free (oldest, now);

      error = g_error_new (MCP_ERROR, MCP_ERROR_OVERLOADED,
                           g_dngettext (GETTEXT_PACKAGE,
                                        "Server `%s` asked for sampling more than %u times a "
                                        "minute. It can ask again in %u second.",
                                        "Server `%s` asked for sampling more than %u times a "
                                        "minute. It can ask again in %u seconds.",
                                        seconds),
                           server, per_minute, seconds);
      steward_sampling_broker_request_fail (self, task, "limited", g_steal_pointer (&error));
      return;
    }

  daily_tokens = steward_sampling_settings_get_daily_tokens (settings);
  if (steward_sampling_journal_get_tokens_used (self->journal, server) >= daily_tokens)
    {
      error = g_error_new (MCP_ERROR, MCP_ERROR_OVERLOADED,
                           _("Server `%s` has used its sampling budget of %u tokens for today. "
                             "It can ask again tomorrow."),
                           server, daily_tokens);
      steward_sampling_broker_request_fail (self, task, "limited", g_steal_pointer (&error));
      return;
    }

  n_open = state->open != NULL ? 1 : 0;
  if (n_open + g_queue_get_length (&state->waiting) >= 1 + STEWARD_SAMPLING_QUEUE_SIZE)
    {
      error = g_error_new (MCP_ERROR, MCP_ERROR_OVERLOADED,
                           _("Server `%s` already has a sampling request open and %u waiting. "
                             "It can ask again once the person has answered."),
                           server, g_queue_get_length (&state->waiting));
      steward_sampling_broker_request_fail (self, task, "limited", g_steal_pointer (&error));
      return;
    }

  g_array_append_val (state->sampling_times, now);

  /* The server may withdraw its request at any time, also while it waits. */
  if (cancellable != NULL)
    {
      request->cancel_source = g_cancellable_source_new (cancellable);
      g_source_set_callback (request->cancel_source, G_SOURCE_FUNC (request_cancelled_cb),
                             task, NULL);
      g_source_attach (request->cancel_source, g_task_get_context (task));
    }

  g_queue_push_tail (&state->waiting, g_steal_pointer (&task));
  pump (self, state);
}

/**
 * steward_sampling_broker_create_message_finish:
 *
 * Returns: (transfer full): the CreateMessageResult to send back
 */
JsonObject *
steward_sampling_broker_create_message_finish (StewardSamplingBroker  *self,
                                               GAsyncResult           *result,
                                               GError                **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        steward_sampling_broker_create_message_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
read_journal_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  GPtrArray *records;

  records = steward_sampling_journal_read_finish (STEWARD_SAMPLING_JOURNAL (object), result,
                                                  &error);
  if (records == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, records, (GDestroyNotify) g_ptr_array_unref);
}

void
steward_sampling_broker_read_journal_async (StewardSamplingBroker *self,
                                            GCancellable          *cancellable,
                                            GAsyncReadyCallback    callback,
                                            gpointer               user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (STEWARD_IS_SAMPLING_BROKER (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_sampling_broker_read_journal_async);

  steward_sampling_journal_read_async (self->journal, cancellable, read_journal_cb,
                                       g_steal_pointer (&task));
}

/**
 * steward_sampling_broker_read_journal_finish:
 *
 * Returns: (transfer full) (element-type JsonObject): the records, oldest
 *   first
 */
GPtrArray *
steward_sampling_broker_read_journal_finish (StewardSamplingBroker  *self,
                                             GAsyncResult           *result,
                                             GError                **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        steward_sampling_broker_read_journal_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

void
steward_sampling_broker_set_clock (StewardSamplingBroker *self,
                                   StewardSamplingClock   clock,
                                   gpointer               user_data)
{
  g_return_if_fail (STEWARD_IS_SAMPLING_BROKER (self));

  steward_sampling_journal_set_clock (self->journal, clock, user_data);
}

void
steward_sampling_broker_set_provider (StewardSamplingBroker              *self,
                                      const StewardSamplingProviderFuncs *funcs,
                                      gpointer                            provider)
{
  g_return_if_fail (STEWARD_IS_SAMPLING_BROKER (self));
  g_return_if_fail (funcs == NULL || funcs->choose_model != NULL);
  g_return_if_fail (funcs == NULL || funcs->generate_async == NULL ||
                    funcs->generate_finish != NULL);

  self->provider_funcs = funcs ? funcs : &manual_provider;
  self->provider = funcs ? provider : NULL;
}

void
steward_sampling_broker_set_model_sources (StewardSamplingBroker *self,
                                           GListModel            *providers,
                                           StewardModelCatalog   *catalog)
{
  g_return_if_fail (STEWARD_IS_SAMPLING_BROKER (self));
  g_return_if_fail (providers == NULL || G_IS_LIST_MODEL (providers));
  g_return_if_fail (catalog == NULL || STEWARD_IS_MODEL_CATALOG (catalog));

  g_set_object (&self->model_providers, providers);
  g_set_object (&self->catalog, catalog);
}

/**
 * steward_sampling_broker_set_models:
 * @providers: (nullable): the providers the person set up
 * @catalog: (nullable): the person's models
 *
 * From now on, requests go to the model the selector chooses among
 * @catalog's models whose provider is in @providers; %NULL for either
 * leaves the answers to the person.
 */
void
steward_sampling_broker_set_models (StewardSamplingBroker *self,
                                    StewardProviders      *providers,
                                    StewardModelCatalog   *catalog)
{
  g_return_if_fail (STEWARD_IS_SAMPLING_BROKER (self));
  g_return_if_fail (providers == NULL || G_IS_LIST_MODEL (providers));

  steward_sampling_broker_set_model_sources (self, providers ? G_LIST_MODEL (providers) : NULL,
                                             catalog);
}

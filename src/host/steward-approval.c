/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-approval"

#include "config.h"

#include "steward-approval.h"

struct _StewardApproval
{
  GObject               parent_instance;

  StewardApprovalKind   kind;
  char                 *server;
  JsonObject           *request;
  StewardApprovalStage  stage;
  gint64                created;

  char                 *cause;
  char                 *model;
  char                 *model_reason;
  guint                 max_tokens_requested;
  char                 *policy_text;
  JsonArray            *model_choices;
  guint                 daily_tokens;
  guint                 tokens_used;
  GString              *answer;
  char                 *error_text;
  char                 *task_id;
  char                 *task_tool;
  GDateTime            *task_started;

  guint                 finished : 1;
  guint                 generating : 1;
  guint                 withdrawn : 1;
};

enum {
  PROP_0,
  PROP_KIND,
  PROP_SERVER,
  PROP_REQUEST,
  PROP_STAGE,
  PROP_FINISHED,
  PROP_CREATED,
  PROP_CAUSE,
  PROP_MODEL,
  PROP_MODEL_REASON,
  PROP_MAX_TOKENS_REQUESTED,
  PROP_POLICY_TEXT,
  PROP_ANSWER_TEXT,
  PROP_GENERATING,
  PROP_ERROR_TEXT,
  PROP_WITHDRAWN,
  PROP_TASK_ID,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SIGNAL_RESPONDED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (StewardApproval, steward_approval, G_TYPE_OBJECT)

G_DEFINE_ENUM_TYPE (StewardApprovalKind, steward_approval_kind,
  G_DEFINE_ENUM_VALUE (STEWARD_APPROVAL_KIND_CONSENT, "consent"),
  G_DEFINE_ENUM_VALUE (STEWARD_APPROVAL_KIND_SAMPLING, "sampling"),
  G_DEFINE_ENUM_VALUE (STEWARD_APPROVAL_KIND_ELICITATION, "elicitation"),
  G_DEFINE_ENUM_VALUE (STEWARD_APPROVAL_KIND_TOOL_CALL, "tool-call"),
  G_DEFINE_ENUM_VALUE (STEWARD_APPROVAL_KIND_OVERDUE, "overdue"))

G_DEFINE_ENUM_TYPE (StewardApprovalStage, steward_approval_stage,
  G_DEFINE_ENUM_VALUE (STEWARD_APPROVAL_STAGE_REQUEST, "request"),
  G_DEFINE_ENUM_VALUE (STEWARD_APPROVAL_STAGE_RESPONSE, "response"))

G_DEFINE_ENUM_TYPE (StewardApprovalAction, steward_approval_action,
  G_DEFINE_ENUM_VALUE (STEWARD_APPROVAL_ACTION_ALLOW, "allow"),
  G_DEFINE_ENUM_VALUE (STEWARD_APPROVAL_ACTION_DENY, "deny"),
  G_DEFINE_ENUM_VALUE (STEWARD_APPROVAL_ACTION_CONTINUE, "continue"),
  G_DEFINE_ENUM_VALUE (STEWARD_APPROVAL_ACTION_REGENERATE, "regenerate"),
  G_DEFINE_ENUM_VALUE (STEWARD_APPROVAL_ACTION_SEND, "send"),
  G_DEFINE_ENUM_VALUE (STEWARD_APPROVAL_ACTION_REJECT, "reject"),
  G_DEFINE_ENUM_VALUE (STEWARD_APPROVAL_ACTION_ACCEPT, "accept"),
  G_DEFINE_ENUM_VALUE (STEWARD_APPROVAL_ACTION_DECLINE, "decline"),
  G_DEFINE_ENUM_VALUE (STEWARD_APPROVAL_ACTION_CANCEL, "cancel"))

/* Sets a string property and notifies only when it changed. */
static gboolean
set_string (StewardApproval  *self,
            char            **field,
            const char       *value,
            guint             prop_id)
{
  if (g_strcmp0 (*field, value) == 0)
    return FALSE;

  g_free (*field);
  *field = g_strdup (value);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
  return TRUE;
}

static void
steward_approval_finalize (GObject *object)
{
  StewardApproval *self = STEWARD_APPROVAL (object);

  g_clear_pointer (&self->server, g_free);
  g_clear_pointer (&self->request, json_object_unref);
  g_clear_pointer (&self->cause, g_free);
  g_clear_pointer (&self->model, g_free);
  g_clear_pointer (&self->model_reason, g_free);
  g_clear_pointer (&self->policy_text, g_free);
  g_clear_pointer (&self->model_choices, json_array_unref);
  g_string_free (self->answer, TRUE);
  g_clear_pointer (&self->error_text, g_free);
  g_clear_pointer (&self->task_id, g_free);
  g_clear_pointer (&self->task_tool, g_free);
  g_clear_pointer (&self->task_started, g_date_time_unref);

  G_OBJECT_CLASS (steward_approval_parent_class)->finalize (object);
}

static void
steward_approval_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  StewardApproval *self = STEWARD_APPROVAL (object);

  switch (prop_id)
    {
    case PROP_KIND:
      g_value_set_enum (value, self->kind);
      break;
    case PROP_SERVER:
      g_value_set_string (value, self->server);
      break;
    case PROP_REQUEST:
      g_value_set_boxed (value, self->request);
      break;
    case PROP_STAGE:
      g_value_set_enum (value, self->stage);
      break;
    case PROP_FINISHED:
      g_value_set_boolean (value, self->finished);
      break;
    case PROP_CREATED:
      g_value_set_int64 (value, self->created);
      break;
    case PROP_TASK_ID:
      g_value_set_string (value, self->task_id);
      break;
    case PROP_CAUSE:
      g_value_set_string (value, self->cause);
      break;
    case PROP_MODEL:
      g_value_set_string (value, self->model);
      break;
    case PROP_MODEL_REASON:
      g_value_set_string (value, self->model_reason);
      break;
    case PROP_MAX_TOKENS_REQUESTED:
      g_value_set_uint (value, self->max_tokens_requested);
      break;
    case PROP_POLICY_TEXT:
      g_value_set_string (value, self->policy_text);
      break;
    case PROP_ANSWER_TEXT:
      g_value_set_string (value, self->answer->str);
      break;
    case PROP_GENERATING:
      g_value_set_boolean (value, self->generating);
      break;
    case PROP_ERROR_TEXT:
      g_value_set_string (value, self->error_text);
      break;
    case PROP_WITHDRAWN:
      g_value_set_boolean (value, self->withdrawn);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_approval_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  StewardApproval *self = STEWARD_APPROVAL (object);

  switch (prop_id)
    {
    case PROP_KIND:
      self->kind = g_value_get_enum (value);
      break;
    case PROP_SERVER:
      self->server = g_value_dup_string (value);
      break;
    case PROP_REQUEST:
      steward_approval_set_request (self, g_value_get_boxed (value));
      break;
    case PROP_STAGE:
      steward_approval_set_stage (self, g_value_get_enum (value));
      break;
    case PROP_CAUSE:
      steward_approval_set_cause (self, g_value_get_string (value));
      break;
    case PROP_MAX_TOKENS_REQUESTED:
      steward_approval_set_max_tokens_requested (self, g_value_get_uint (value));
      break;
    case PROP_POLICY_TEXT:
      steward_approval_set_policy_text (self, g_value_get_string (value));
      break;
    case PROP_ANSWER_TEXT:
      steward_approval_set_answer_text (self, g_value_get_string (value));
      break;
    case PROP_GENERATING:
      steward_approval_set_generating (self, g_value_get_boolean (value));
      break;
    case PROP_ERROR_TEXT:
      steward_approval_set_error_text (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_approval_class_init (StewardApprovalClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = steward_approval_finalize;
  object_class->get_property = steward_approval_get_property;
  object_class->set_property = steward_approval_set_property;

  properties[PROP_KIND] =
    g_param_spec_enum ("kind", NULL, NULL,
                       STEWARD_TYPE_APPROVAL_KIND, STEWARD_APPROVAL_KIND_CONSENT,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SERVER] =
    g_param_spec_string ("server", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_REQUEST] =
    g_param_spec_boxed ("request", NULL, NULL, JSON_TYPE_OBJECT,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STAGE] =
    g_param_spec_enum ("stage", NULL, NULL,
                       STEWARD_TYPE_APPROVAL_STAGE, STEWARD_APPROVAL_STAGE_REQUEST,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FINISHED] =
    g_param_spec_boolean ("finished", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CREATED] =
    g_param_spec_int64 ("created", NULL, NULL, 0, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_CAUSE] =
    g_param_spec_string ("cause", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_MODEL] =
    g_param_spec_string ("model", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_MODEL_REASON] =
    g_param_spec_string ("model-reason", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_MAX_TOKENS_REQUESTED] =
    g_param_spec_uint ("max-tokens-requested", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_POLICY_TEXT] =
    g_param_spec_string ("policy-text", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ANSWER_TEXT] =
    g_param_spec_string ("answer-text", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_GENERATING] =
    g_param_spec_boolean ("generating", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ERROR_TEXT] =
    g_param_spec_string ("error-text", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_WITHDRAWN] =
    g_param_spec_boolean ("withdrawn", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TASK_ID] =
    g_param_spec_string ("task-id", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * StewardApproval::responded:
   * @action: the StewardApprovalAction
   * @data: (nullable): the edited params, the result or the content
   *
   * The person (or a test, or the CLI) answered. Emitted before
   * "finished" changes, so that the object waiting for the answer sees it
   * first.
   */
  signals[SIGNAL_RESPONDED] =
    g_signal_new ("responded",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2,
                  STEWARD_TYPE_APPROVAL_ACTION,
                  JSON_TYPE_OBJECT | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
steward_approval_init (StewardApproval *self)
{
  self->answer = g_string_new (NULL);
  self->created = g_get_real_time ();
}

/**
 * steward_approval_new:
 * @kind: what is asked
 * @server: the server that asks
 * @request: (nullable): what the server asked, see the header
 *
 * Returns: (transfer full): a new approval at stage REQUEST
 */
StewardApproval *
steward_approval_new (StewardApprovalKind  kind,
                      const char          *server,
                      JsonObject          *request)
{
  g_return_val_if_fail (server != NULL, NULL);

  return g_object_new (STEWARD_TYPE_APPROVAL,
                       "kind", kind,
                       "server", server,
                       "request", request,
                       NULL);
}

gboolean
steward_approval_action_is_final (StewardApprovalAction action)
{
  return action != STEWARD_APPROVAL_ACTION_CONTINUE &&
         action != STEWARD_APPROVAL_ACTION_REGENERATE;
}

StewardApprovalKind
steward_approval_get_kind (StewardApproval *self)
{
  g_return_val_if_fail (STEWARD_IS_APPROVAL (self), STEWARD_APPROVAL_KIND_CONSENT);

  return self->kind;
}

const char *
steward_approval_get_server (StewardApproval *self)
{
  g_return_val_if_fail (STEWARD_IS_APPROVAL (self), NULL);

  return self->server;
}

/**
 * steward_approval_get_request:
 *
 * Returns: (transfer none) (nullable): what the server asked
 */
JsonObject *
steward_approval_get_request (StewardApproval *self)
{
  g_return_val_if_fail (STEWARD_IS_APPROVAL (self), NULL);

  return self->request;
}

void
steward_approval_set_request (StewardApproval *self,
                              JsonObject      *request)
{
  g_return_if_fail (STEWARD_IS_APPROVAL (self));

  if (self->request == request)
    return;

  g_clear_pointer (&self->request, json_object_unref);
  if (request != NULL)
    self->request = json_object_ref (request);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REQUEST]);
}

StewardApprovalStage
steward_approval_get_stage (StewardApproval *self)
{
  g_return_val_if_fail (STEWARD_IS_APPROVAL (self), STEWARD_APPROVAL_STAGE_REQUEST);

  return self->stage;
}

void
steward_approval_set_stage (StewardApproval      *self,
                            StewardApprovalStage  stage)
{
  g_return_if_fail (STEWARD_IS_APPROVAL (self));

  if (self->stage == stage)
    return;

  self->stage = stage;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STAGE]);
}

gboolean
steward_approval_get_finished (StewardApproval *self)
{
  g_return_val_if_fail (STEWARD_IS_APPROVAL (self), FALSE);

  return self->finished;
}

gint64
steward_approval_get_created (StewardApproval *self)
{
  g_return_val_if_fail (STEWARD_IS_APPROVAL (self), 0);

  return self->created;
}

const char *
steward_approval_get_cause (StewardApproval *self)
{
  g_return_val_if_fail (STEWARD_IS_APPROVAL (self), NULL);

  return self->cause;
}

void
steward_approval_set_cause (StewardApproval *self,
                            const char      *cause)
{
  g_return_if_fail (STEWARD_IS_APPROVAL (self));

  set_string (self, &self->cause, cause, PROP_CAUSE);
}

/**
 * steward_approval_set_task:
 * @task_id: the id of the task the request was raised for
 * @tool: (nullable): the tool the task runs
 * @started: when the task started
 *
 * Ties a sampling or elicitation request to the task of this approval's
 * server that it was raised for, so that the dialog can say so and the
 * task can offer the question.
 */
void
steward_approval_set_task (StewardApproval *self,
                           const char      *task_id,
                           const char      *tool,
                           GDateTime       *started)
{
  g_return_if_fail (STEWARD_IS_APPROVAL (self));
  g_return_if_fail (task_id != NULL);
  g_return_if_fail (started != NULL);

  g_free (self->task_tool);
  self->task_tool = g_strdup (tool);
  g_clear_pointer (&self->task_started, g_date_time_unref);
  self->task_started = g_date_time_ref (started);
  /* Notified last, when the rest can be read. */
  set_string (self, &self->task_id, task_id, PROP_TASK_ID);
}

/* Returns: (nullable): the id of the task the request belongs to */
const char *
steward_approval_get_task_id (StewardApproval *self)
{
  g_return_val_if_fail (STEWARD_IS_APPROVAL (self), NULL);

  return self->task_id;
}

/* Returns: (nullable): the tool the request's task runs */
const char *
steward_approval_get_task_tool (StewardApproval *self)
{
  g_return_val_if_fail (STEWARD_IS_APPROVAL (self), NULL);

  return self->task_tool;
}

/* Returns: (nullable) (transfer none): when the request's task started */
GDateTime *
steward_approval_get_task_started (StewardApproval *self)
{
  g_return_val_if_fail (STEWARD_IS_APPROVAL (self), NULL);

  return self->task_started;
}

const char *
steward_approval_get_model (StewardApproval *self)
{
  g_return_val_if_fail (STEWARD_IS_APPROVAL (self), NULL);

  return self->model;
}

const char *
steward_approval_get_model_reason (StewardApproval *self)
{
  g_return_val_if_fail (STEWARD_IS_APPROVAL (self), NULL);

  return self->model_reason;
}

void
steward_approval_set_model (StewardApproval *self,
                            const char      *model,
                            const char      *reason)
{
  g_return_if_fail (STEWARD_IS_APPROVAL (self));

  g_object_freeze_notify (G_OBJECT (self));
  set_string (self, &self->model, model, PROP_MODEL);
  set_string (self, &self->model_reason, reason, PROP_MODEL_REASON);
  g_object_thaw_notify (G_OBJECT (self));
}

guint
steward_approval_get_max_tokens_requested (StewardApproval *self)
{
  g_return_val_if_fail (STEWARD_IS_APPROVAL (self), 0);

  return self->max_tokens_requested;
}

void
steward_approval_set_max_tokens_requested (StewardApproval *self,
                                           guint            max_tokens)
{
  g_return_if_fail (STEWARD_IS_APPROVAL (self));

  if (self->max_tokens_requested == max_tokens)
    return;

  self->max_tokens_requested = max_tokens;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_TOKENS_REQUESTED]);
}

JsonArray *
steward_approval_get_model_choices (StewardApproval *self)
{
  g_return_val_if_fail (STEWARD_IS_APPROVAL (self), NULL);

  return self->model_choices;
}

void
steward_approval_set_model_choices (StewardApproval *self,
                                    JsonArray       *choices)
{
  g_return_if_fail (STEWARD_IS_APPROVAL (self));

  if (choices != NULL)
    json_array_ref (choices);
  g_clear_pointer (&self->model_choices, json_array_unref);
  self->model_choices = choices;
}

void
steward_approval_get_budget (StewardApproval *self,
                             guint           *daily,
                             guint           *used)
{
  g_return_if_fail (STEWARD_IS_APPROVAL (self));

  if (daily != NULL)
    *daily = self->daily_tokens;
  if (used != NULL)
    *used = self->tokens_used;
}

void
steward_approval_set_budget (StewardApproval *self,
                             guint            daily,
                             guint            used)
{
  g_return_if_fail (STEWARD_IS_APPROVAL (self));

  self->daily_tokens = daily;
  self->tokens_used = used;
}

const char *
steward_approval_get_policy_text (StewardApproval *self)
{
  g_return_val_if_fail (STEWARD_IS_APPROVAL (self), NULL);

  return self->policy_text;
}

void
steward_approval_set_policy_text (StewardApproval *self,
                                  const char      *text)
{
  g_return_if_fail (STEWARD_IS_APPROVAL (self));

  set_string (self, &self->policy_text, text, PROP_POLICY_TEXT);
}

/**
 * steward_approval_get_answer_text:
 *
 * Returns: the answer so far; never %NULL
 */
const char *
steward_approval_get_answer_text (StewardApproval *self)
{
  g_return_val_if_fail (STEWARD_IS_APPROVAL (self), NULL);

  return self->answer->str;
}

void
steward_approval_set_answer_text (StewardApproval *self,
                                  const char      *text)
{
  g_return_if_fail (STEWARD_IS_APPROVAL (self));

  if (text == NULL)
    text = "";

  if (g_str_equal (self->answer->str, text))
    return;

  g_string_assign (self->answer, text);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ANSWER_TEXT]);
}

void
steward_approval_append_answer (StewardApproval *self,
                                const char      *delta)
{
  g_return_if_fail (STEWARD_IS_APPROVAL (self));

  if (delta == NULL || delta[0] == '\0')
    return;

  g_string_append (self->answer, delta);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ANSWER_TEXT]);
}

gboolean
steward_approval_get_generating (StewardApproval *self)
{
  g_return_val_if_fail (STEWARD_IS_APPROVAL (self), FALSE);

  return self->generating;
}

void
steward_approval_set_generating (StewardApproval *self,
                                 gboolean         generating)
{
  g_return_if_fail (STEWARD_IS_APPROVAL (self));

  generating = !!generating;
  if (self->generating == (guint) generating)
    return;

  self->generating = generating;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GENERATING]);
}

const char *
steward_approval_get_error_text (StewardApproval *self)
{
  g_return_val_if_fail (STEWARD_IS_APPROVAL (self), NULL);

  return self->error_text;
}

void
steward_approval_set_error_text (StewardApproval *self,
                                 const char      *text)
{
  g_return_if_fail (STEWARD_IS_APPROVAL (self));

  set_string (self, &self->error_text, text, PROP_ERROR_TEXT);
}

gboolean
steward_approval_get_withdrawn (StewardApproval *self)
{
  g_return_val_if_fail (STEWARD_IS_APPROVAL (self), FALSE);

  return self->withdrawn;
}

/**
 * steward_approval_respond:
 * @action: the answer
 * @data: (nullable): what goes with it (see StewardApprovalAction)
 *
 * Emits "responded". A final action also finishes the approval, once:
 * a dialog and a desktop notification may both answer the same request,
 * and only the first answer counts.
 */
void
steward_approval_respond (StewardApproval       *self,
                          StewardApprovalAction  action,
                          JsonObject            *data)
{
  g_autoptr(GObject) keep = NULL;
  gboolean final;

  g_return_if_fail (STEWARD_IS_APPROVAL (self));

  if (self->finished)
    {
      g_autofree char *name = g_enum_to_string (STEWARD_TYPE_APPROVAL_ACTION, action);

      g_debug ("Ignoring “%s” for a finished approval from server `%s`", name, self->server);
      return;
    }

  final = steward_approval_action_is_final (action);

  /* Marked before the emission so that a handler which answers again is
   * ignored, and held so that a handler dropping the last reference does
   * not take the object away under us. */
  keep = g_object_ref (G_OBJECT (self));
  if (final)
    self->finished = TRUE;

  g_signal_emit (self, signals[SIGNAL_RESPONDED], 0, action, data);

  if (final)
    {
      steward_approval_set_generating (self, FALSE);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FINISHED]);
    }
}

void
steward_approval_withdraw (StewardApproval *self)
{
  g_return_if_fail (STEWARD_IS_APPROVAL (self));

  if (self->finished)
    return;

  self->withdrawn = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WITHDRAWN]);
  steward_approval_respond (self, STEWARD_APPROVAL_ACTION_CANCEL, NULL);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/*
 * One thing waiting for a person: consent to start a server, a sampling
 * request (two stages), an elicitation. The object that needs the answer
 * (StewardServer, StewardSamplingBroker…) creates it, puts it in
 * StewardApprovals and listens to "responded". The UI presents it and
 * calls one of the respond functions; tests and the CLI call them directly.
 *
 * Sampling: stage REQUEST shows "request" (the server's params, editable);
 * steward_approval_continue() hands the edited params back. The broker
 * then fills "answer-text" (streamed; with the manual provider it stays
 * empty for the person to write), sets "generating" while it does, and
 * moves to stage RESPONSE; steward_approval_send() returns the final
 * result, steward_approval_regenerate() asks for another answer.
 *
 * Once responded with a final action (send, accept, decline, cancel,
 * reject, allow, deny), "finished" becomes TRUE and StewardApprovals drops
 * it.
 *
 * Every getter is a property that notifies: "kind", "server", "request",
 * "stage", "finished", "created" (wall-clock microseconds), "cause",
 * "model", "model-reason", "max-tokens-requested", "policy-text",
 * "answer-text", "generating", "error-text", "withdrawn", "task-id". The signal
 * "responded" (StewardApprovalAction action, JsonObject *data) runs before
 * "finished" is notified; responding to a finished approval does nothing.
 */

typedef enum {
  STEWARD_APPROVAL_KIND_CONSENT,       /* start a server with this exact command */
  STEWARD_APPROVAL_KIND_SAMPLING,
  STEWARD_APPROVAL_KIND_ELICITATION,
  STEWARD_APPROVAL_KIND_TOOL_CALL,     /* a chat's model calls a tool; ALLOW data: edited arguments */
  STEWARD_APPROVAL_KIND_OVERDUE,       /* a call past its timeout; ALLOW keeps waiting, DENY stops it */
} StewardApprovalKind;

typedef enum {
  STEWARD_APPROVAL_STAGE_REQUEST,
  STEWARD_APPROVAL_STAGE_RESPONSE,
} StewardApprovalStage;

typedef enum {
  STEWARD_APPROVAL_ACTION_ALLOW,       /* consent given; data: {"network": bool} or NULL */
  STEWARD_APPROVAL_ACTION_DENY,        /* consent refused */
  STEWARD_APPROVAL_ACTION_CONTINUE,    /* sampling stage 1 → 2, data: edited params */
  STEWARD_APPROVAL_ACTION_REGENERATE,  /* sampling stage 2, another answer */
  STEWARD_APPROVAL_ACTION_SEND,        /* sampling stage 2, data: the result */
  STEWARD_APPROVAL_ACTION_REJECT,      /* sampling, either stage */
  STEWARD_APPROVAL_ACTION_ACCEPT,      /* elicitation, data: the content object */
  STEWARD_APPROVAL_ACTION_DECLINE,     /* elicitation */
  STEWARD_APPROVAL_ACTION_CANCEL,      /* elicitation dismissed, or the server withdrew */
} StewardApprovalAction;

#define STEWARD_TYPE_APPROVAL_KIND   (steward_approval_kind_get_type ())
#define STEWARD_TYPE_APPROVAL_STAGE  (steward_approval_stage_get_type ())
#define STEWARD_TYPE_APPROVAL_ACTION (steward_approval_action_get_type ())

GType steward_approval_kind_get_type   (void) G_GNUC_CONST;
GType steward_approval_stage_get_type  (void) G_GNUC_CONST;
GType steward_approval_action_get_type (void) G_GNUC_CONST;

/* Whether @action ends the approval (everything but CONTINUE and
 * REGENERATE). */
gboolean steward_approval_action_is_final (StewardApprovalAction action);

#define STEWARD_TYPE_APPROVAL (steward_approval_get_type ())

G_DECLARE_FINAL_TYPE (StewardApproval, steward_approval, STEWARD, APPROVAL, GObject)

/* @request: consent: {"command", "args", "cwd", "env" (names only), "url",
 * "headers" (names only), "changed": bool, "previous": {…} when changed,
 * "remembered": bool, FALSE when the keyring cannot seal the consent};
 * sampling: the sampling/createMessage params; elicitation: the
 * elicitation/create params; tool call: {"server", "tool", "arguments",
 * "annotations", "definition", "pinState", "conversation", "toolCallId"};
 * overdue: {"tool", "waited" (seconds)}. */
StewardApproval      *steward_approval_new               (StewardApprovalKind   kind,
                                                          const char           *server,
                                                          JsonObject           *request);

StewardApprovalKind   steward_approval_get_kind          (StewardApproval      *self);
const char           *steward_approval_get_server        (StewardApproval      *self);
JsonObject           *steward_approval_get_request       (StewardApproval      *self);
/* Replaces the request, for instance with the params the person edited
 * before a sampling request went on to stage 2. */
void                  steward_approval_set_request       (StewardApproval      *self,
                                                          JsonObject           *request);
StewardApprovalStage  steward_approval_get_stage         (StewardApproval      *self);
gboolean              steward_approval_get_finished      (StewardApproval      *self);
gint64                steward_approval_get_created       (StewardApproval      *self);

/* What caused it, when known ("tool call `trigger-sampling-request`"), for
 * the dialog; NULL when unknown. */
const char           *steward_approval_get_cause         (StewardApproval      *self);
void                  steward_approval_set_cause         (StewardApproval      *self,
                                                          const char           *cause);
/* Sampling and elicitation raised for a task of the same server: the
 * task's id, tool and start; NULL when the request belongs to no task the
 * host follows. "task-id" notifies once all three are set. */
void                  steward_approval_set_task          (StewardApproval      *self,
                                                          const char           *task_id,
                                                          const char           *tool,
                                                          GDateTime            *started);
const char           *steward_approval_get_task_id       (StewardApproval      *self);
const char           *steward_approval_get_task_tool     (StewardApproval      *self);
GDateTime            *steward_approval_get_task_started  (StewardApproval      *self);
/* Sampling: the model chosen and the sentence that explains why. */
const char           *steward_approval_get_model         (StewardApproval      *self);
const char           *steward_approval_get_model_reason  (StewardApproval      *self);
void                  steward_approval_set_model         (StewardApproval      *self,
                                                          const char           *model,
                                                          const char           *reason);
/* Sampling: "maxTokens" as the server asked for it, when the broker
 * clamped it to the server's cap (the request then carries the clamped
 * value); 0 when nothing was clamped. */
guint                 steward_approval_get_max_tokens_requested (StewardApproval *self);
void                  steward_approval_set_max_tokens_requested (StewardApproval *self,
                                                                 guint            max_tokens);
/* Sampling: the models the person may pick instead of the one chosen,
 * each {"id", "name", "provider", "local"}; NULL when only the person can
 * answer. Picking one is steward_approval_set_model() before "continue". */
JsonArray            *steward_approval_get_model_choices (StewardApproval      *self);
void                  steward_approval_set_model_choices (StewardApproval      *self,
                                                          JsonArray            *choices);
/* Sampling: the server's daily token budget and what it used of it today
 * when the request was shown (0 and 0 when unknown). */
void                  steward_approval_get_budget        (StewardApproval      *self,
                                                          guint                *daily,
                                                          guint                *used);
void                  steward_approval_set_budget        (StewardApproval      *self,
                                                          guint                 daily,
                                                          guint                 used);
/* Sampling: the current policy for this server, as a sentence. */
const char           *steward_approval_get_policy_text   (StewardApproval      *self);
void                  steward_approval_set_policy_text   (StewardApproval      *self,
                                                          const char           *text);
/* Sampling stage 2, set by the broker. */
void                  steward_approval_set_stage         (StewardApproval      *self,
                                                          StewardApprovalStage  stage);
const char           *steward_approval_get_answer_text   (StewardApproval      *self);
void                  steward_approval_set_answer_text   (StewardApproval      *self,
                                                          const char           *text);
void                  steward_approval_append_answer     (StewardApproval      *self,
                                                          const char           *delta);
gboolean              steward_approval_get_generating    (StewardApproval      *self);
void                  steward_approval_set_generating    (StewardApproval      *self,
                                                          gboolean              generating);
/* An error from the provider, shown in stage 2 (NULL when none). */
const char           *steward_approval_get_error_text    (StewardApproval      *self);
void                  steward_approval_set_error_text    (StewardApproval      *self,
                                                          const char           *text);

/* Emits "responded" (action, data-or-NULL); final actions set "finished". */
void                  steward_approval_respond           (StewardApproval      *self,
                                                          StewardApprovalAction action,
                                                          JsonObject           *data);
/* The server withdrew its request, or the connection ended: responds
 * CANCEL and sets "withdrawn", so that the UI can say so. */
void                  steward_approval_withdraw          (StewardApproval      *self);
gboolean              steward_approval_get_withdrawn     (StewardApproval      *self);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "steward-approval.h"
#include "steward-overdue.h"

G_BEGIN_DECLS

/*
 * One tool call a model made in a chat: which server and tool, the
 * arguments (as approved, possibly edited), its state, its result as the
 * person sees it and as the model gets it (capped, hidden characters
 * stripped), and the approvals (sampling, elicitation) the server raised
 * while it ran, so that the chat can show them nested under the call.
 *
 * A tool with an MCP Apps view shows it under the call; what the view
 * asks of the chat comes through the call: "view-message" (JsonArray
 * *content) for a ui/message, which the chat puts to the person, and
 * "view-context" for ui/update-model-context, which the next message to
 * the model carries.
 */

typedef enum {
  STEWARD_TOOL_CALL_WAITING,    /* for the person's approval */
  STEWARD_TOOL_CALL_RUNNING,
  STEWARD_TOOL_CALL_DONE,
  STEWARD_TOOL_CALL_FAILED,     /* the tool reported an error, or the call failed */
  STEWARD_TOOL_CALL_DENIED,     /* the person declined it */
} StewardToolCallState;

#define STEWARD_TYPE_TOOL_CALL (steward_tool_call_get_type ())

G_DECLARE_FINAL_TYPE (StewardToolCall, steward_tool_call, STEWARD, TOOL_CALL, GObject)

#define STEWARD_TYPE_TOOL_CALL_STATE (steward_tool_call_state_get_type ())
GType steward_tool_call_state_get_type (void) G_GNUC_CONST;

/* Every getter is a property that notifies: "id", "server", "tool",
 * "arguments", "state", "result", "is-error", "error", "approval",
 * "status", "fraction", "overdue", "view-context". The
 * setters are for the chat engine and the conversation store. */
StewardToolCall      *steward_tool_call_new             (const char      *id,
                                                         const char      *server,
                                                         const char      *tool,
                                                         JsonObject      *arguments);
const char           *steward_tool_call_get_id          (StewardToolCall *self);
const char           *steward_tool_call_get_server      (StewardToolCall *self);
const char           *steward_tool_call_get_tool        (StewardToolCall *self);
JsonObject           *steward_tool_call_get_arguments   (StewardToolCall *self);
/* Takes a copy of @arguments (nullable) as the person left them; TRUE when
 * they differ from the call's, which are then replaced. */
gboolean              steward_tool_call_edit_arguments  (StewardToolCall *self,
                                                         JsonObject      *arguments);
StewardToolCallState  steward_tool_call_get_state       (StewardToolCall *self);
/* The result's content blocks (MCP shape), or NULL while not done. */
JsonArray            *steward_tool_call_get_result      (StewardToolCall *self);
const char           *steward_tool_call_get_error       (StewardToolCall *self);
/* StewardApproval objects raised by the server while this call ran. */
GListModel           *steward_tool_call_get_approvals   (StewardToolCall *self);

void                  steward_tool_call_set_arguments   (StewardToolCall      *self,
                                                         JsonObject           *arguments);
void                  steward_tool_call_set_state       (StewardToolCall      *self,
                                                         StewardToolCallState  state);
/* Whether the result is the tool's report of an error ("isError"). */
gboolean              steward_tool_call_get_is_error    (StewardToolCall      *self);
void                  steward_tool_call_set_result      (StewardToolCall      *self,
                                                         JsonArray            *result,
                                                         gboolean              is_error);
void                  steward_tool_call_set_error       (StewardToolCall      *self,
                                                         const char           *error);
/* The TOOL_CALL approval waiting for the person while the state is
 * WAITING, so that the chat can show it in place; NULL otherwise. */
StewardApproval      *steward_tool_call_get_approval    (StewardToolCall      *self);
void                  steward_tool_call_set_approval    (StewardToolCall      *self,
                                                         StewardApproval      *approval);
void                  steward_tool_call_add_approval    (StewardToolCall      *self,
                                                         StewardApproval      *approval);
/* While it runs: the server's progress and status (a task's status
 * message), and the question put when it ran past its timeout. */
const char           *steward_tool_call_get_status      (StewardToolCall      *self);
double                steward_tool_call_get_fraction    (StewardToolCall      *self);
void                  steward_tool_call_set_progress    (StewardToolCall      *self,
                                                         double                progress,
                                                         double                total,
                                                         const char           *message);
StewardOverdue       *steward_tool_call_get_overdue     (StewardToolCall      *self);
void                  steward_tool_call_set_overdue     (StewardToolCall      *self,
                                                         StewardOverdue       *overdue);

/* The result's structuredContent as the tool returned it (not for the
 * model: for the call's view, MCP Apps); set before the result. */
JsonNode             *steward_tool_call_get_structured_content (StewardToolCall *self);
void                  steward_tool_call_set_structured_content (StewardToolCall *self,
                                                                JsonNode        *structured);
/* MCP Apps: the last context the call's view set for the model; the same
 * again changes nothing. take_view_context() returns it once after each
 * change (a new reference), else NULL. */
JsonObject           *steward_tool_call_get_view_context  (StewardToolCall      *self);
void                  steward_tool_call_set_view_context  (StewardToolCall      *self,
                                                           JsonObject           *context);
JsonObject           *steward_tool_call_take_view_context (StewardToolCall      *self);
/* MCP Apps: the view asked to add a message to the chat (ui/message):
 * emits "view-message". */
void                  steward_tool_call_post_view_message (StewardToolCall      *self,
                                                           JsonArray            *content);

const char           *steward_tool_call_state_to_string   (StewardToolCallState  state);
gboolean              steward_tool_call_state_from_string (const char           *string,
                                                           StewardToolCallState *state);

G_END_DECLS

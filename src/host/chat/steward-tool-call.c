/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-tool-call"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-chat-private.h"
#include "steward-tool-call.h"

/**
 * StewardToolCall:
 *
 * One tool call a model made in a chat, as the person follows it: waiting
 * for approval, running, done, failed or declined, with its arguments,
 * its result as the model gets it, and the sampling or elicitation
 * requests the server raised meanwhile.
 */
struct _StewardToolCall
{
  GObject               parent_instance;

  char                 *id;
  char                 *server;
  char                 *tool;
  JsonObject           *arguments;
  StewardToolCallState  state;
  JsonArray            *result;
  char                 *error;
  StewardApproval      *approval;
  GListStore           *approvals;
  char                 *status;     /* the server's word while it runs */
  double                fraction;   /* done so far, 0 to 1, or -1 */
  StewardOverdue       *overdue;    /* the open question past the timeout */
  JsonNode             *structured;   /* the result's structuredContent */
  JsonObject           *view_context; /* the last its view set (MCP Apps) */

  guint                 is_error : 1;
  guint                 view_context_pending : 1;
};

enum {
  PROP_0,
  PROP_ID,
  PROP_SERVER,
  PROP_TOOL,
  PROP_ARGUMENTS,
  PROP_STATE,
  PROP_RESULT,
  PROP_IS_ERROR,
  PROP_ERROR,
  PROP_APPROVAL,
  PROP_STATUS,
  PROP_FRACTION,
  PROP_OVERDUE,
  PROP_VIEW_CONTEXT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SIGNAL_VIEW_MESSAGE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (StewardToolCall, steward_tool_call, G_TYPE_OBJECT)

G_DEFINE_ENUM_TYPE (StewardToolCallState, steward_tool_call_state,
  G_DEFINE_ENUM_VALUE (STEWARD_TOOL_CALL_WAITING, "waiting"),
  G_DEFINE_ENUM_VALUE (STEWARD_TOOL_CALL_RUNNING, "running"),
  G_DEFINE_ENUM_VALUE (STEWARD_TOOL_CALL_DONE, "done"),
  G_DEFINE_ENUM_VALUE (STEWARD_TOOL_CALL_FAILED, "failed"),
  G_DEFINE_ENUM_VALUE (STEWARD_TOOL_CALL_DENIED, "denied"))

static void
steward_tool_call_dispose (GObject *object)
{
  StewardToolCall *self = STEWARD_TOOL_CALL (object);

  g_clear_object (&self->approval);
  g_clear_object (&self->overdue);
  if (self->approvals != NULL)
    g_list_store_remove_all (self->approvals);

  G_OBJECT_CLASS (steward_tool_call_parent_class)->dispose (object);
}

static void
steward_tool_call_finalize (GObject *object)
{
  StewardToolCall *self = STEWARD_TOOL_CALL (object);

  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->server, g_free);
  g_clear_pointer (&self->tool, g_free);
  g_clear_pointer (&self->arguments, json_object_unref);
  g_clear_pointer (&self->result, json_array_unref);
  g_clear_pointer (&self->error, g_free);
  g_clear_pointer (&self->status, g_free);
  g_clear_pointer (&self->view_context, json_object_unref);
  g_clear_pointer (&self->structured, json_node_unref);
  g_clear_object (&self->approvals);

  G_OBJECT_CLASS (steward_tool_call_parent_class)->finalize (object);
}

static void
steward_tool_call_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  StewardToolCall *self = STEWARD_TOOL_CALL (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_string (value, self->id);
      break;

    case PROP_SERVER:
      g_value_set_string (value, self->server);
      break;

    case PROP_TOOL:
      g_value_set_string (value, self->tool);
      break;

    case PROP_ARGUMENTS:
      g_value_set_boxed (value, self->arguments);
      break;

    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;

    case PROP_RESULT:
      g_value_set_boxed (value, self->result);
      break;

    case PROP_IS_ERROR:
      g_value_set_boolean (value, self->is_error);
      break;

    case PROP_ERROR:
      g_value_set_string (value, self->error);
      break;

    case PROP_APPROVAL:
      g_value_set_object (value, self->approval);
      break;

    case PROP_STATUS:
      g_value_set_string (value, self->status);
      break;

    case PROP_FRACTION:
      g_value_set_double (value, self->fraction);
      break;

    case PROP_OVERDUE:
      g_value_set_object (value, self->overdue);
      break;

    case PROP_VIEW_CONTEXT:
      g_value_set_boxed (value, self->view_context);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_tool_call_class_init (StewardToolCallClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = steward_tool_call_dispose;
  object_class->finalize = steward_tool_call_finalize;
  object_class->get_property = steward_tool_call_get_property;

  properties[PROP_ID] =
    g_param_spec_string ("id", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_SERVER] =
    g_param_spec_string ("server", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_TOOL] =
    g_param_spec_string ("tool", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_ARGUMENTS] =
    g_param_spec_boxed ("arguments", NULL, NULL, JSON_TYPE_OBJECT,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL,
                       STEWARD_TYPE_TOOL_CALL_STATE, STEWARD_TOOL_CALL_WAITING,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_RESULT] =
    g_param_spec_boxed ("result", NULL, NULL, JSON_TYPE_ARRAY,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_IS_ERROR] =
    g_param_spec_boolean ("is-error", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ERROR] =
    g_param_spec_string ("error", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_APPROVAL] =
    g_param_spec_object ("approval", NULL, NULL, STEWARD_TYPE_APPROVAL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STATUS] =
    g_param_spec_string ("status", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FRACTION] =
    g_param_spec_double ("fraction", NULL, NULL, -1, 1, -1,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_OVERDUE] =
    g_param_spec_object ("overdue", NULL, NULL, STEWARD_TYPE_OVERDUE,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_VIEW_CONTEXT] =
    g_param_spec_boxed ("view-context", NULL, NULL, JSON_TYPE_OBJECT,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SIGNAL_VIEW_MESSAGE] =
    g_signal_new ("view-message", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 1, JSON_TYPE_ARRAY);
}

static void
steward_tool_call_init (StewardToolCall *self)
{
  self->fraction = -1;
  self->approvals = g_list_store_new (STEWARD_TYPE_APPROVAL);
}

/* Internal API */

/**
 * steward_tool_call_new_from_json:
 * @json: an entry of a message's "toolCalls" in a conversation file
 *
 * A call that was waiting or running when the file was written did not
 * survive Steward closing, so it comes back as failed.
 *
 * Returns: (transfer full): the call
 */
StewardToolCall *
steward_tool_call_new_from_json (JsonObject *json)
{
  StewardToolCall *self;
  JsonObject *arguments = mcp_json_get_object (json, "arguments");
  JsonArray *result = mcp_json_get_array (json, "result");
  g_autoptr(JsonObject) empty = NULL;
  StewardToolCallState state = STEWARD_TOOL_CALL_FAILED;

  if (arguments == NULL)
    arguments = empty = json_object_new ();

  self = steward_tool_call_new (mcp_json_get_string (json, "id"),
                                mcp_json_get_string (json, "server"),
                                mcp_json_get_string (json, "tool"),
                                arguments);

  steward_tool_call_state_from_string (mcp_json_get_string (json, "state"), &state);
  if (state == STEWARD_TOOL_CALL_WAITING || state == STEWARD_TOOL_CALL_RUNNING)
    {
      state = STEWARD_TOOL_CALL_FAILED;
      self->error = g_strdup (_("Steward closed before the call finished"));
    }
  else
    {
      self->error = g_strdup (mcp_json_get_string (json, "error"));
    }
  self->state = state;

  if (result != NULL)
    self->result = json_array_ref (result);
  self->is_error = mcp_json_get_boolean (json, "isError", FALSE);
  if (json_object_has_member (json, "structuredContent") &&
      !JSON_NODE_HOLDS_NULL (json_object_get_member (json, "structuredContent")))
    self->structured = steward_chat_json_copy (json_object_get_member (json, "structuredContent"));

  return self;
}

/**
 * steward_tool_call_to_json:
 *
 * Returns: (transfer full): the call as the conversation file keeps it,
 *   sharing nothing with @self
 */
JsonObject *
steward_tool_call_to_json (StewardToolCall *self)
{
  JsonObject *json = json_object_new ();

  json_object_set_string_member (json, "id", self->id);
  json_object_set_string_member (json, "server", self->server);
  json_object_set_string_member (json, "tool", self->tool);
  json_object_set_object_member (json, "arguments",
                                 steward_chat_json_copy_object (self->arguments));
  json_object_set_string_member (json, "state", steward_tool_call_state_to_string (self->state));
  if (self->result != NULL)
    json_object_set_array_member (json, "result", steward_chat_json_copy_array (self->result));
  else
    json_object_set_null_member (json, "result");
  if (self->is_error)
    json_object_set_boolean_member (json, "isError", TRUE);
  if (self->structured != NULL)
    json_object_set_member (json, "structuredContent", steward_chat_json_copy (self->structured));
  steward_chat_json_set_string_or_null (json, "error", self->error);

  return json;
}

/* Public API */

/**
 * steward_tool_call_new:
 * @id: the id the model gave the call (its tool_use block's "id")
 * @server: the server's name
 * @tool: the tool's name on that server
 * @arguments: the arguments the model chose
 *
 * Returns: (transfer full): a call waiting for approval
 */
StewardToolCall *
steward_tool_call_new (const char *id,
                       const char *server,
                       const char *tool,
                       JsonObject *arguments)
{
  StewardToolCall *self;

  g_return_val_if_fail (arguments != NULL, NULL);

  self = g_object_new (STEWARD_TYPE_TOOL_CALL, NULL);
  self->id = g_strdup (id != NULL ? id : "");
  self->server = g_strdup (server != NULL ? server : "");
  self->tool = g_strdup (tool != NULL ? tool : "");
  self->arguments = json_object_ref (arguments);

  return self;
}

const char *
steward_tool_call_get_id (StewardToolCall *self)
{
  g_return_val_if_fail (STEWARD_IS_TOOL_CALL (self), NULL);

  return self->id;
}

const char *
steward_tool_call_get_server (StewardToolCall *self)
{
  g_return_val_if_fail (STEWARD_IS_TOOL_CALL (self), NULL);

  return self->server;
}

const char *
steward_tool_call_get_tool (StewardToolCall *self)
{
  g_return_val_if_fail (STEWARD_IS_TOOL_CALL (self), NULL);

  return self->tool;
}

JsonObject *
steward_tool_call_get_arguments (StewardToolCall *self)
{
  g_return_val_if_fail (STEWARD_IS_TOOL_CALL (self), NULL);

  return self->arguments;
}

StewardToolCallState
steward_tool_call_get_state (StewardToolCall *self)
{
  g_return_val_if_fail (STEWARD_IS_TOOL_CALL (self), STEWARD_TOOL_CALL_FAILED);

  return self->state;
}

JsonArray *
steward_tool_call_get_result (StewardToolCall *self)
{
  g_return_val_if_fail (STEWARD_IS_TOOL_CALL (self), NULL);

  return self->result;
}

const char *
steward_tool_call_get_error (StewardToolCall *self)
{
  g_return_val_if_fail (STEWARD_IS_TOOL_CALL (self), NULL);

  return self->error;
}

/**
 * steward_tool_call_get_approvals:
 *
 * Returns: (transfer none): a #GListModel of #StewardApproval
 */
GListModel *
steward_tool_call_get_approvals (StewardToolCall *self)
{
  g_return_val_if_fail (STEWARD_IS_TOOL_CALL (self), NULL);

  return G_LIST_MODEL (self->approvals);
}

void
steward_tool_call_set_arguments (StewardToolCall *self,
                                 JsonObject      *arguments)
{
  g_return_if_fail (STEWARD_IS_TOOL_CALL (self));
  g_return_if_fail (arguments != NULL);

  if (arguments == self->arguments)
    return;

  json_object_ref (arguments);
  g_clear_pointer (&self->arguments, json_object_unref);
  self->arguments = arguments;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ARGUMENTS]);
}

gboolean
steward_tool_call_edit_arguments (StewardToolCall *self,
                                  JsonObject      *arguments)
{
  g_autoptr(JsonNode) before = NULL;
  g_autoptr(JsonNode) after = NULL;
  g_autoptr(JsonObject) copy = NULL;

  g_return_val_if_fail (STEWARD_IS_TOOL_CALL (self), FALSE);

  if (arguments == NULL)
    return FALSE;

  if (self->arguments != NULL)
    {
      before = json_node_init_object (json_node_alloc (), self->arguments);
      after = json_node_init_object (json_node_alloc (), arguments);
      if (json_node_equal (before, after))
        return FALSE;
    }

  /* A deep copy: the approval's object is the dialog's. */
  copy = steward_chat_json_copy_object (arguments);
  steward_tool_call_set_arguments (self, copy);

  return TRUE;
}

void
steward_tool_call_set_state (StewardToolCall      *self,
                             StewardToolCallState  state)
{
  g_return_if_fail (STEWARD_IS_TOOL_CALL (self));

  if (self->state == state)
    return;

  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

gboolean
steward_tool_call_get_is_error (StewardToolCall *self)
{
  g_return_val_if_fail (STEWARD_IS_TOOL_CALL (self), FALSE);

  return self->is_error;
}

/**
 * steward_tool_call_set_result:
 * @result: (nullable): content blocks, as the model gets them
 * @is_error: whether they report an error
 */
void
steward_tool_call_set_result (StewardToolCall *self,
                              JsonArray       *result,
                              gboolean         is_error)
{
  g_return_if_fail (STEWARD_IS_TOOL_CALL (self));

  is_error = !!is_error;

  if (result != self->result)
    {
      if (result != NULL)
        json_array_ref (result);
      g_clear_pointer (&self->result, json_array_unref);
      self->result = result;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RESULT]);
    }

  if (self->is_error != is_error)
    {
      self->is_error = is_error;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_IS_ERROR]);
    }
}

void
steward_tool_call_set_error (StewardToolCall *self,
                             const char      *error)
{
  g_return_if_fail (STEWARD_IS_TOOL_CALL (self));

  if (g_strcmp0 (self->error, error) == 0)
    return;

  g_free (self->error);
  self->error = g_strdup (error);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
}

/**
 * steward_tool_call_get_approval:
 *
 * Returns: (transfer none) (nullable): the approval the call waits for
 */
StewardApproval *
steward_tool_call_get_approval (StewardToolCall *self)
{
  g_return_val_if_fail (STEWARD_IS_TOOL_CALL (self), NULL);

  return self->approval;
}

void
steward_tool_call_set_approval (StewardToolCall *self,
                                StewardApproval *approval)
{
  g_return_if_fail (STEWARD_IS_TOOL_CALL (self));
  g_return_if_fail (!approval || STEWARD_IS_APPROVAL (approval));

  if (g_set_object (&self->approval, approval))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_APPROVAL]);
}

void
steward_tool_call_add_approval (StewardToolCall *self,
                                StewardApproval *approval)
{
  g_return_if_fail (STEWARD_IS_TOOL_CALL (self));
  g_return_if_fail (STEWARD_IS_APPROVAL (approval));

  g_list_store_append (self->approvals, approval);
}

/**
 * steward_tool_call_get_status:
 *
 * Returns: (nullable): what the server last said of the running call (a
 *   task's status message, a progress message), or %NULL
 */
const char *
steward_tool_call_get_status (StewardToolCall *self)
{
  g_return_val_if_fail (STEWARD_IS_TOOL_CALL (self), NULL);

  return self->status;
}

/* Returns: how much of the call is done, 0 to 1, or -1 when unknown */
double
steward_tool_call_get_fraction (StewardToolCall *self)
{
  g_return_val_if_fail (STEWARD_IS_TOOL_CALL (self), -1);

  return self->fraction;
}

/**
 * steward_tool_call_set_progress:
 * @progress: the server's progress so far
 * @total: its total, or a negative number when it gave none
 * @message: (nullable): its words, kept until others come
 *
 * What the server reports while the call runs, from progress
 * notifications or, for a call that became a task, the task's status.
 */
void
steward_tool_call_set_progress (StewardToolCall *self,
                                double           progress,
                                double           total,
                                const char      *message)
{
  double fraction = total > 0 ? CLAMP (progress / total, 0, 1) : -1;

  g_return_if_fail (STEWARD_IS_TOOL_CALL (self));

  if (message != NULL && g_strcmp0 (message, self->status) != 0)
    {
      g_free (self->status);
      self->status = g_strdup (message);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATUS]);
    }
  if (fraction != self->fraction)
    {
      self->fraction = fraction;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRACTION]);
    }
}

/**
 * steward_tool_call_get_overdue:
 *
 * Returns: (transfer none) (nullable): the question the call's server put
 *   when it ran past its timeout, while it is open
 */
StewardOverdue *
steward_tool_call_get_overdue (StewardToolCall *self)
{
  g_return_val_if_fail (STEWARD_IS_TOOL_CALL (self), NULL);

  return self->overdue;
}

void
steward_tool_call_set_overdue (StewardToolCall *self,
                               StewardOverdue  *overdue)
{
  g_return_if_fail (STEWARD_IS_TOOL_CALL (self));
  g_return_if_fail (!overdue || STEWARD_IS_OVERDUE (overdue));

  if (g_set_object (&self->overdue, overdue))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OVERDUE]);
}

/**
 * steward_tool_call_get_structured_content:
 *
 * Returns: (transfer none) (nullable): the result's structuredContent, as
 *   the tool returned it, for the call's view
 */
JsonNode *
steward_tool_call_get_structured_content (StewardToolCall *self)
{
  g_return_val_if_fail (STEWARD_IS_TOOL_CALL (self), NULL);

  return self->structured;
}

/**
 * steward_tool_call_set_structured_content:
 * @structured: (nullable): the result's structuredContent
 *
 * Set before the result, which is what the call's view waits for.
 */
void
steward_tool_call_set_structured_content (StewardToolCall *self,
                                          JsonNode        *structured)
{
  g_return_if_fail (STEWARD_IS_TOOL_CALL (self));

  g_clear_pointer (&self->structured, json_node_unref);
  if (structured != NULL)
    self->structured = steward_chat_json_copy (structured);
}

/**
 * steward_tool_call_get_view_context:
 *
 * Returns: (transfer none) (nullable): the last context the call's view
 *   set for the model ({"content", "structuredContent"})
 */
JsonObject *
steward_tool_call_get_view_context (StewardToolCall *self)
{
  g_return_val_if_fail (STEWARD_IS_TOOL_CALL (self), NULL);

  return self->view_context;
}

/**
 * steward_tool_call_set_view_context:
 * @context: (nullable): what the view set, {"content", "structuredContent"}
 *
 * Replaces the context the view set before. The same context again
 * changes nothing, so that a view repeating itself does not make the model
 * read it twice.
 */
void
steward_tool_call_set_view_context (StewardToolCall *self,
                                    JsonObject      *context)
{
  g_autoptr(JsonNode) old = NULL;
  g_autoptr(JsonNode) new = NULL;

  g_return_if_fail (STEWARD_IS_TOOL_CALL (self));

  if (self->view_context == context)
    return;

  if (self->view_context != NULL && context != NULL)
    {
      old = json_node_init_object (json_node_alloc (), self->view_context);
      new = json_node_init_object (json_node_alloc (), context);
      if (json_node_equal (old, new))
        return;
    }

  g_clear_pointer (&self->view_context, json_object_unref);
  if (context != NULL)
    self->view_context = steward_chat_json_copy_object (context);
  self->view_context_pending = context != NULL;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VIEW_CONTEXT]);
}

/**
 * steward_tool_call_take_view_context:
 *
 * The view's context once after each change: the chat gives the model only
 * what it has not read yet.
 *
 * Returns: (transfer full) (nullable): the context set since the last
 *   call, or %NULL when there is nothing new
 */
JsonObject *
steward_tool_call_take_view_context (StewardToolCall *self)
{
  g_return_val_if_fail (STEWARD_IS_TOOL_CALL (self), NULL);

  if (!self->view_context_pending || self->view_context == NULL)
    return NULL;

  self->view_context_pending = FALSE;
  return json_object_ref (self->view_context);
}

/**
 * steward_tool_call_post_view_message:
 * @content: the content blocks of the view's ui/message
 *
 * Emits "view-message", for the chat to put to the person.
 */
void
steward_tool_call_post_view_message (StewardToolCall *self,
                                     JsonArray       *content)
{
  g_return_if_fail (STEWARD_IS_TOOL_CALL (self));
  g_return_if_fail (content != NULL);

  g_signal_emit (self, signals[SIGNAL_VIEW_MESSAGE], 0, content);
}

const char *
steward_tool_call_state_to_string (StewardToolCallState state)
{
  switch (state)
    {
    case STEWARD_TOOL_CALL_WAITING:
      return "waiting";
    case STEWARD_TOOL_CALL_RUNNING:
      return "running";
    case STEWARD_TOOL_CALL_DONE:
      return "done";
    case STEWARD_TOOL_CALL_FAILED:
      return "failed";
    case STEWARD_TOOL_CALL_DENIED:
      return "denied";
    default:
      g_return_val_if_reached ("failed");
    }
}

gboolean
steward_tool_call_state_from_string (const char           *string,
                                     StewardToolCallState *state)
{
  static const StewardToolCallState states[] = {
    STEWARD_TOOL_CALL_WAITING, STEWARD_TOOL_CALL_RUNNING, STEWARD_TOOL_CALL_DONE,
    STEWARD_TOOL_CALL_FAILED, STEWARD_TOOL_CALL_DENIED,
  };

  if (string == NULL)
    return FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (states); i++)
    if (g_str_equal (string, steward_tool_call_state_to_string (states[i])))
      {
        *state = states[i];
        return TRUE;
      }

  return FALSE;
}

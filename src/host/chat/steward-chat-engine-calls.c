/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-chat-engine"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mcp-error.h"
#include "mcp-tool.h"

#include "steward-chat-engine-private.h"
#include "steward-chat-private.h"
#include "steward-text.h"
#include "steward-tool-pins.h"

/* Tool calls */

void
steward_chat_engine_log_call (StewardChatEngine *self,
                              StewardToolCall   *call,
                              StewardLogLevel    level,
                              const char        *decision)
{
  StewardLogStore *store = steward_chat_engine_log_store (self);

  if (store == NULL)
    return;

  /* Translators: a host event; the first %s is a tool, the second what
   * became of the call. */
  steward_log_store_add_host_event (store, steward_tool_call_get_server (call), level,
                                    _("Chat tool call “%s”: %s"),
                                    steward_tool_call_get_tool (call), decision);
}

void
steward_chat_engine_end_call (GTask                *task,
                              StewardToolCallState  state,
                              JsonArray            *result,
                              gboolean              is_error,
                              const char           *error)
{
  Turn *turn = g_task_get_task_data (task);
  StewardToolCall *call = turn->call;

  if (turn->overdue_id != 0)
    g_signal_handler_disconnect (turn->overdue_server, turn->overdue_id);
  turn->overdue_id = 0;
  g_clear_object (&turn->overdue_server);

  steward_tool_call_set_approval (call, NULL);
  steward_tool_call_set_overdue (call, NULL);
  steward_tool_call_set_result (call, result, is_error);
  steward_tool_call_set_error (call, error);
  steward_tool_call_set_state (call, state);

  g_clear_object (&turn->call);
  g_clear_pointer (&turn->call_server, g_free);
}

static void
fail_call (GTask      *task,
           const char *error)
{
  g_autoptr(JsonArray) result = steward_chat_engine_single_text (error);
  Turn *turn = g_task_get_task_data (task);
  StewardChatEngine *self = g_task_get_source_object (task);

  steward_chat_engine_log_call (self, turn->call, STEWARD_LOG_LEVEL_WARNING, error);
  steward_chat_engine_end_call (task, STEWARD_TOOL_CALL_FAILED, result, TRUE, error);
}

/* The tool_use block of the call in the answer, to show the model the
 * arguments that really ran. */
static void
update_tool_use (Turn            *turn,
                 StewardToolCall *call)
{
  JsonArray *content = steward_chat_message_get_content (turn->answer);

  for (guint i = 0; i < json_array_get_length (content); i++)
    {
      JsonObject *block = steward_chat_engine_tool_use_block (content, i);

      if (block != NULL &&
          g_strcmp0 (mcp_json_get_string (block, "id"), steward_tool_call_get_id (call)) == 0)
        json_object_set_object_member (block, "input",
                                       steward_chat_json_copy_object (
                                         steward_tool_call_get_arguments (call)));
    }

  steward_chat_message_set_content (turn->answer, content);
}

static void
call_tool_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StewardChatEngine *self = g_task_get_source_object (task);
  Turn *turn = g_task_get_task_data (task);
  g_autoptr(McpToolResult) tool_result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonArray) blocks = NULL;
  gboolean is_error;

  tool_result = steward_server_call_tool_finish (STEWARD_SERVER (object), result, &error);
  if (turn->finished)
    return;

  if (tool_result == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_autoptr(JsonArray) stopped = NULL;

          stopped = steward_chat_engine_single_text ("The person stopped the call.");

          steward_chat_engine_log_call (self, turn->call, STEWARD_LOG_LEVEL_INFO, _("stopped"));
          steward_chat_engine_end_call (task, STEWARD_TOOL_CALL_FAILED, stopped, TRUE,
                                        _("Stopped before it finished"));
          steward_chat_engine_finish_stopped (task);
          return;
        }

      fail_call (task, error->message);
      turn->next_call++;
      steward_chat_engine_process_calls (task);
      return;
    }

  blocks = steward_chat_engine_convert_result (tool_result);
  is_error = mcp_tool_result_get_is_error (tool_result);
  /* The model reads the blocks; a view of the tool reads this too. */
  steward_tool_call_set_structured_content (turn->call,
                                            mcp_tool_result_get_structured_content (tool_result));
  steward_chat_engine_log_call (self, turn->call,
                                is_error ? STEWARD_LOG_LEVEL_WARNING : STEWARD_LOG_LEVEL_INFO,
                                is_error ? _("the tool reported an error") : _("done"));
  steward_chat_engine_end_call (task, is_error ? STEWARD_TOOL_CALL_FAILED : STEWARD_TOOL_CALL_DONE,
                                blocks,
                                is_error, is_error ? _("The tool reported an error") : NULL);

  turn->next_call++;
  steward_chat_engine_process_calls (task);
}

/* The server's progress and, for a call that became a task, the task's
 * status message, shown on the call as it runs. */
static void
call_progress_cb (double      progress,
                  double      total,
                  const char *message,
                  gpointer    user_data)
{
  steward_tool_call_set_progress (STEWARD_TOOL_CALL (user_data), progress, total, message);
}

static void
overdue_open_cb (StewardOverdue  *question,
                 GParamSpec      *pspec,
                 StewardToolCall *call)
{
  if (!steward_overdue_get_open (question) && steward_tool_call_get_overdue (call) == question)
    steward_tool_call_set_overdue (call, NULL);
}

/* A call of this turn ran past its timeout: the question goes on the
 * call, where the chat shows it. The turn's cancellable names the call,
 * since a turn runs one call at a time. */
static gboolean
call_overdue_cb (StewardServer  *server,
                 StewardOverdue *question,
                 GTask          *task)
{
  Turn *turn = g_task_get_task_data (task);

  if (turn->call == NULL || steward_overdue_get_call (question) != turn->cancellable)
    return FALSE;

  g_signal_connect_object (question, "notify::open", G_CALLBACK (overdue_open_cb), turn->call,
                           0);
  steward_tool_call_set_overdue (turn->call, question);
  return TRUE;
}

static void
run_call (GTask *task)
{
  StewardChatEngine *self = g_task_get_source_object (task);
  Turn *turn = g_task_get_task_data (task);
  StewardServer *server = steward_chat_engine_lookup_server (self, turn->call_server);

  if (server == NULL)
    {
      fail_call (task, _("The server is gone"));
      turn->next_call++;
      steward_chat_engine_process_calls (task);
      return;
    }

  steward_tool_call_set_state (turn->call, STEWARD_TOOL_CALL_RUNNING);

  /* The turn's cancellable names this call to the server: while it runs,
   * the server gives it for the sampling and elicitation it causes. */
  turn->overdue_server = g_object_ref (server);
  turn->overdue_id = g_signal_connect_object (server, "call-overdue",
                                              G_CALLBACK (call_overdue_cb), task, 0);

  steward_server_call_tool_async (server, steward_tool_call_get_tool (turn->call),
                                  steward_tool_call_get_arguments (turn->call),
                                  call_progress_cb, g_object_ref (turn->call), g_object_unref,
                                  turn->cancellable, call_tool_cb, g_object_ref (task));
}

/* The tool as the server offers it now, which may differ from what the
 * model was offered. */
static McpTool *
current_tool (StewardChatEngine *self,
              const char        *server_name,
              const char        *tool_name)
{
  StewardServer *server = steward_chat_engine_lookup_server (self, server_name);
  McpClient *client = server != NULL ? steward_server_get_client (server) : NULL;
  GListModel *list;

  if (client == NULL || steward_server_get_status (server) != STEWARD_SERVER_STATUS_READY)
    return NULL;

  list = mcp_client_get_tools (client);
  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr(McpTool) tool = g_list_model_get_item (list, i);

      if (g_strcmp0 (mcp_item_get_name (MCP_ITEM (tool)), tool_name) == 0)
        return g_steal_pointer (&tool);
    }

  return NULL;
}

static void
approval_responded_cb (StewardApproval       *approval,
                       StewardApprovalAction  action,
                       JsonObject            *data,
                       GTask                 *task)
{
  StewardChatEngine *self = g_task_get_source_object (task);
  Turn *turn = g_task_get_task_data (task);
  g_autoptr(McpTool) tool = NULL;
  g_autoptr(JsonArray) declined = NULL;
  gboolean edited;

  if (!steward_approval_action_is_final (action) || approval != turn->approval)
    return;

  /* The handler holds the task; keep it while this handler goes on. */
  g_object_ref (task);
  g_signal_handler_disconnect (approval, turn->responded_id);
  turn->responded_id = 0;
  g_clear_object (&turn->approval);
  steward_tool_call_set_approval (turn->call, NULL);

  if (action == STEWARD_APPROVAL_ACTION_ALLOW)
    {
      /* The dialog hands the arguments back whether or not they changed. */
      edited = steward_tool_call_edit_arguments (turn->call, data);
      if (edited)
        update_tool_use (turn, turn->call);

      /* What the person allowed is the definition they saw: pin it. */
      tool = current_tool (self, turn->call_server, steward_tool_call_get_tool (turn->call));
      if (tool != NULL && steward_chat_engine_tool_pins (self) != NULL)
        steward_tool_pins_approve (steward_chat_engine_tool_pins (self), turn->call_server, tool);

      steward_chat_engine_log_call (self, turn->call, STEWARD_LOG_LEVEL_INFO,
                                    edited ? _("allowed by the person, with the arguments as "
                                               "edited")
                                           : _("allowed by the person"));
      run_call (task);
    }
  else if (g_cancellable_is_cancelled (turn->cancellable))
    {
      /* The stop handler withdrew it and ends the turn. */
    }
  else
    {
      declined = steward_chat_engine_single_text ("The person declined this call.");
      steward_chat_engine_log_call (self, turn->call, STEWARD_LOG_LEVEL_INFO,
                                    action == STEWARD_APPROVAL_ACTION_DENY
                                    ? _("declined by the person") : _("dismissed"));
      steward_chat_engine_end_call (task, STEWARD_TOOL_CALL_DENIED, declined, TRUE, NULL);
      turn->next_call++;
      steward_chat_engine_process_calls (task);
    }

  g_object_unref (task);
}

static void
unref_closure_data (gpointer  data,
                    GClosure *closure)
{
  g_object_unref (data);
}

static JsonObject *
build_approval_request (Turn                *turn,
                        McpTool             *tool,
                        StewardToolPinState  state)
{
  JsonObject *request = json_object_new ();
  JsonObject *definition = mcp_item_get_json (MCP_ITEM (tool));
  JsonObject *annotations = mcp_json_get_object (definition, "annotations");

  json_object_set_string_member (request, "server", turn->call_server);
  json_object_set_string_member (request, "tool", steward_tool_call_get_tool (turn->call));
  json_object_set_object_member (request, "arguments",
                                 steward_chat_json_copy_object (
                                   steward_tool_call_get_arguments (turn->call)));
  json_object_set_object_member (request, "annotations",
                                 annotations != NULL ? steward_chat_json_copy_object (annotations)
                                                     : json_object_new ());
  json_object_set_object_member (request, "definition",
                                 steward_chat_json_copy_object (definition));
  json_object_set_string_member (request, "pinState", steward_tool_pin_state_to_string (state));
  json_object_set_string_member (request, "conversation",
                                 steward_conversation_get_id (turn->conversation));
  json_object_set_string_member (request, "toolCallId", steward_tool_call_get_id (turn->call));

  return request;
}

static void
start_call (GTask *task)
{
  StewardChatEngine *self = g_task_get_source_object (task);
  Turn *turn = g_task_get_task_data (task);
  StewardToolCall *call = turn->call;
  StewardToolPins *pins = steward_chat_engine_tool_pins (self);
  g_autoptr(McpTool) tool = NULL;
  g_autoptr(JsonObject) request = NULL;
  g_autofree char *cause = NULL;
  StewardToolPinState state;
  StewardToolPolicy policy;

  tool = current_tool (self, turn->call_server, steward_tool_call_get_tool (call));
  if (tool == NULL)
    {
      fail_call (task, _("The server does not offer this tool any more"));
      turn->next_call++;
      steward_chat_engine_process_calls (task);
      return;
    }

  state = steward_tool_pins_check (pins, turn->call_server, tool);
  policy = steward_tool_pins_decide (pins, turn->call_server, tool);

  /* A standing "allow" covers the definition the person knows; one that
   * changed since, or a tool new on the server, is asked about first. */
  if (policy == STEWARD_TOOL_POLICY_ALLOW && state == STEWARD_TOOL_PIN_OK)
    {
      steward_chat_engine_log_call (self, call, STEWARD_LOG_LEVEL_INFO, _("allowed by policy"));
      run_call (task);
      return;
    }

  request = build_approval_request (turn, tool, state);
  turn->approval = steward_approval_new (STEWARD_APPROVAL_KIND_TOOL_CALL, turn->call_server,
                                         request);
  /* Translators: what caused a tool-call approval; %s is a chat's title. */
  cause = g_strdup_printf (_("The chat “%s”"),
                           steward_conversation_get_title (turn->conversation));
  steward_approval_set_cause (turn->approval, cause);
  /* While the person decides, the handler is what holds the turn. */
  turn->responded_id = g_signal_connect_data (turn->approval, "responded",
                                              G_CALLBACK (approval_responded_cb),
                                              g_object_ref (task),
                                              unref_closure_data, 0);
  steward_tool_call_set_approval (call, turn->approval);
  steward_chat_engine_log_call (self, call, STEWARD_LOG_LEVEL_INFO, _("waiting for the person"));
  steward_approvals_add (self->approvals, turn->approval);
}

/* Goes through this round's calls one by one, then on to the next round. */
void
steward_chat_engine_process_calls (GTask *task)
{
  StewardChatEngine *self = g_task_get_source_object (task);
  Turn *turn = g_task_get_task_data (task);

  while (!turn->finished && turn->call == NULL)
    {
      StewardToolCall *call;
      const char *server;

      if (g_cancellable_is_cancelled (turn->cancellable))
        {
          steward_chat_engine_finish_stopped (task);
          return;
        }

      if (turn->next_call >= turn->calls->len)
        {
          turn->round++;
          if (turn->round >= self->max_rounds)
            {
              g_autofree char *note = NULL;

              note = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                   "Stopped after %u round of tool calls. Send a "
                                                   "message to go on.",
                                                   "Stopped after %u rounds of tool calls. Send a "
                                                   "message to go on.",
                                                   turn->round),
                                      turn->round);
              steward_chat_message_set_note (turn->answer, note);
              steward_chat_engine_finish (task, NULL);
              return;
            }
          steward_chat_engine_next_round (task);
          return;
        }

      call = g_ptr_array_index (turn->calls, turn->next_call);
      server = steward_tool_call_get_server (call);
      turn->call = g_object_ref (call);
      turn->call_server = g_strdup (server);

      if (*server == '\0')
        {
          g_autofree char *error = NULL;

          /* Translators: %s is the tool name a model used. */
          error = g_strdup_printf (_("The model asked for “%s”, which is not offered"),
                                   steward_tool_call_get_tool (call));
          fail_call (task, error);
          turn->next_call++;
          continue;
        }

      /* It goes on by itself: through the person, the server, or back
       * here for the next call. */
      start_call (task);
      return;
    }
}

/* Streaming */

StewardToolCall *
steward_chat_engine_find_call (Turn       *turn,
                               const char *id)
{
  for (guint i = 0; i < turn->calls->len; i++)
    {
      StewardToolCall *call = g_ptr_array_index (turn->calls, i);

      if (g_strcmp0 (steward_tool_call_get_id (call), id) == 0)
        return call;
    }

  return NULL;
}

/* A tool call the model made: named in this round's offer, or not. */
void
steward_chat_engine_add_call (Turn       *turn,
                              JsonObject *block)
{
  const char *name = mcp_json_get_string (block, "name");
  const char *id = mcp_json_get_string (block, "id");
  JsonObject *input = mcp_json_get_object (block, "input");
  g_autoptr(JsonObject) arguments = NULL;
  g_autoptr(StewardToolCall) call = NULL;
  Offered *offered;

  offered = name != NULL ? g_hash_table_lookup (turn->offered, name) : NULL;
  arguments = input != NULL ? steward_chat_json_copy_object (input) : json_object_new ();

  if (offered != NULL)
    call = steward_tool_call_new (id, offered->server, mcp_item_get_name (MCP_ITEM (offered->tool)),
                                  arguments);
  else
    call = steward_tool_call_new (id, "", name != NULL ? name : "", arguments);

  g_ptr_array_add (turn->calls, g_object_ref (call));
  steward_chat_message_add_tool_call (turn->answer, call);
}

/* Gives @block an id when the provider gave none: tool_result blocks
 * need one to answer. */
void
steward_chat_engine_ensure_id (Turn       *turn,
                               JsonObject *block)
{
  const char *id = mcp_json_get_string (block, "id");
  g_autofree char *made = NULL;

  if (id != NULL && *id != '\0')
    return;

  made = g_strdup_printf ("call-%u-%u", turn->round, turn->calls->len);
  json_object_set_string_member (block, "id", made);
}

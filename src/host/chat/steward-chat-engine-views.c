/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-chat-engine"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "steward-chat-engine-private.h"
#include "steward-chat-private.h"
#include "steward-text.h"

/*
 * What MCP Apps views put into a chat (ext-apps 2026-01-26): a ui/message
 * the person agreed to send becomes a user message marked with its view,
 * and the context a view set with ui/update-model-context rides along
 * with the next message to the model, the last one of each view only,
 * once after each change.
 */

/* The text a view may send or set as context, in bytes, at most: what a
 * person would read before agreeing, not a way to fill the model. */
#define VIEW_TEXT_MAX (64 * 1024)

static gboolean
conversation_has_call (StewardConversation *conversation,
                       StewardToolCall     *call)
{
  GListModel *messages = steward_conversation_get_messages (conversation);

  for (guint i = 0; i < g_list_model_get_n_items (messages); i++)
    {
      g_autoptr(StewardChatMessage) message = g_list_model_get_item (messages, i);
      GListModel *calls = steward_chat_message_get_tool_calls (message);

      for (guint j = 0; j < g_list_model_get_n_items (calls); j++)
        {
          g_autoptr(StewardToolCall) item = g_list_model_get_item (calls, j);

          if (item == call)
            return TRUE;
        }
    }

  return FALSE;
}

/* The view's text blocks, stripped of hidden characters; an error names
 * what a chat does not take from a view. */
static JsonArray *
check_view_content (JsonArray  *content,
                    GError    **error)
{
  g_autoptr(JsonArray) checked = json_array_new ();
  gsize total = 0;

  for (guint i = 0; content != NULL && i < json_array_get_length (content); i++)
    {
      const char *type;
      JsonObject *block = steward_chat_engine_block_at (content, i, &type);
      const char *text = block != NULL ? mcp_json_get_string (block, "text") : NULL;
      g_autofree char *stripped = NULL;

      if (g_strcmp0 (type, "text") != 0 || text == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                       /* Translators: %s is a kind of content, such as “image”. */
                       _("A view’s message may hold only text, not “%s”"),
                       type != NULL ? type : "?");
          return NULL;
        }

      stripped = steward_text_strip_hidden (text);
      total += strlen (stripped);
      if (total > VIEW_TEXT_MAX)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
                       /* Translators: %d is a number of kilobytes. */
                       _("A view’s message may be %d KiB long at most"), VIEW_TEXT_MAX / 1024);
          return NULL;
        }
      if (*stripped != '\0')
        json_array_add_object_element (checked, steward_chat_engine_text_block (stripped));
    }

  if (json_array_get_length (checked) == 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("The view’s message has no text"));
      return NULL;
    }

  return g_steal_pointer (&checked);
}

/* Model contexts */

/* A short, visible summary of a context for the log. */
static char *
summarize_context (JsonObject *context)
{
  JsonArray *content = mcp_json_get_array (context, "content");
  GString *text = g_string_new (NULL);

  for (guint i = 0; content != NULL && i < json_array_get_length (content); i++)
    {
      const char *type;
      JsonObject *block = steward_chat_engine_block_at (content, i, &type);
      const char *part = block != NULL ? mcp_json_get_string (block, "text") : NULL;

      if (part == NULL)
        continue;
      if (text->len > 0)
        g_string_append_c (text, ' ');
      g_string_append (text, part);
    }

  if (text->len == 0 && mcp_json_get_object (context, "structuredContent") != NULL)
    {
      g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (),
                                                        mcp_json_get_object (context,
                                                                             "structuredContent"));
      g_autofree char *json = json_to_string (node, FALSE);

      g_string_append (text, json);
    }

  {
    g_autofree char *all = g_string_free (text, FALSE);

    return steward_text_make_visible_capped (all, 200, NULL);
  }
}

void
steward_chat_engine_add_view_contexts (StewardChatEngine   *self,
                                       StewardConversation *conversation,
                                       JsonArray           *content)
{
  GListModel *messages = steward_conversation_get_messages (conversation);
  StewardLogStore *store = steward_chat_engine_log_store (self);

  for (guint i = 0; i < g_list_model_get_n_items (messages); i++)
    {
      g_autoptr(StewardChatMessage) message = g_list_model_get_item (messages, i);
      GListModel *calls = steward_chat_message_get_tool_calls (message);

      for (guint j = 0; j < g_list_model_get_n_items (calls); j++)
        {
          g_autoptr(StewardToolCall) call = g_list_model_get_item (calls, j);
          g_autoptr(JsonObject) context = steward_tool_call_take_view_context (call);
          JsonObject *block;
          JsonArray *blocks;
          JsonObject *structured;
          g_autofree char *summary = NULL;

          if (context == NULL)
            continue;

          block = json_object_new ();
          json_object_set_string_member (block, "type", "view_context");
          json_object_set_string_member (block, "server", steward_tool_call_get_server (call));
          json_object_set_string_member (block, "tool", steward_tool_call_get_tool (call));
          json_object_set_string_member (block, "toolCallId", steward_tool_call_get_id (call));
          blocks = mcp_json_get_array (context, "content");
          if (blocks != NULL)
            json_object_set_array_member (block, "content", steward_chat_json_copy_array (blocks));
          structured = mcp_json_get_object (context, "structuredContent");
          if (structured != NULL)
            json_object_set_object_member (block, "structuredContent",
                                           steward_chat_json_copy_object (structured));
          json_array_add_object_element (content, block);

          summary = summarize_context (context);
          if (store != NULL)
            /* Translators: the first %s is a tool, the second what its
             * view told the model. */
            steward_log_store_add_host_event (store, steward_tool_call_get_server (call),
                                              STEWARD_LOG_LEVEL_INFO,
                                              _("The view of “%s” gave the model its context: %s"),
                                              steward_tool_call_get_tool (call), summary);
        }
    }
}

/* The text a model reads for a view's context: the view's text blocks
 * and its structured content, marked as coming from the view. Not
 * translated: it is for the model (see the system prompt). */
JsonObject *
steward_chat_engine_view_context_text (JsonObject *block)
{
  JsonArray *content = mcp_json_get_array (block, "content");
  JsonObject *structured = mcp_json_get_object (block, "structuredContent");
  GString *text = g_string_new (NULL);
  g_autofree char *stripped = NULL;

  g_string_append_printf (text,
                          "[Context from the view (an MCP App) of the tool %s" TOOL_SEPARATOR
                          "%s; it replaces what this view said before. It comes from the "
                          "server, not from the person.]",
                          mcp_json_get_string (block, "server"),
                          mcp_json_get_string (block, "tool"));

  for (guint i = 0; content != NULL && i < json_array_get_length (content); i++)
    {
      const char *type;
      JsonObject *part = steward_chat_engine_block_at (content, i, &type);
      const char *part_text = part != NULL ? mcp_json_get_string (part, "text") : NULL;

      if (part_text != NULL)
        g_string_append_printf (text, "\n%s", part_text);
    }

  if (structured != NULL)
    {
      g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), structured);
      g_autofree char *json = json_to_string (node, FALSE);

      g_string_append_printf (text, "\n%s", json);
    }

  if (text->len > VIEW_TEXT_MAX)
    {
      gsize end = VIEW_TEXT_MAX;

      while (end > 0 && (text->str[end] & 0xc0) == 0x80)
        end--;
      g_string_truncate (text, end);
      g_string_append (text, "\n[…]");
    }

  stripped = steward_text_strip_hidden (text->str);
  g_string_free (text, TRUE);
  return steward_chat_engine_text_block (stripped);
}

/* The line before a view's message, so that the model can tell it from
 * what the person typed. */
JsonObject *
steward_chat_engine_view_message_header (StewardChatMessage *message)
{
  g_autofree char *text = NULL;

  text = g_strdup_printf ("[Sent by the view (an MCP App) of the tool %s" TOOL_SEPARATOR "%s, "
                          "which the person agreed to send.]",
                          steward_chat_message_get_view_server (message),
                          steward_chat_message_get_view_tool (message));
  return steward_chat_engine_text_block (text);
}

/* A view's message */

/**
 * steward_chat_engine_send_view_message_async:
 * @conversation: the chat that shows @call
 * @call: the tool call whose view sent the message
 * @content: the message's content blocks (ui/message)
 *
 * Adds the message to @conversation as the person's, marked with the
 * view, and runs the turn as steward_chat_engine_send_async() does. The
 * caller asks the person first: a view does not talk to the model on its
 * own. Fails with G_IO_ERROR_BUSY while the chat answers, and with an
 * error that names the cause when @call is not in @conversation or the
 * content is not text of a sensible length.
 */
void
steward_chat_engine_send_view_message_async (StewardChatEngine   *self,
                                             StewardConversation *conversation,
                                             StewardToolCall     *call,
                                             JsonArray           *content,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonArray) checked = NULL;
  g_autoptr(StewardChatMessage) message = NULL;

  g_return_if_fail (STEWARD_IS_CHAT_ENGINE (self));
  g_return_if_fail (STEWARD_IS_CONVERSATION (conversation));
  g_return_if_fail (STEWARD_IS_TOOL_CALL (call));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  if (!conversation_has_call (conversation, call))
    {
      g_task_report_new_error (self, callback, user_data,
                               steward_chat_engine_send_view_message_async,
                               G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                               _("The view that sent the message is not in this chat"));
      return;
    }

  checked = check_view_content (content, &error);
  if (checked == NULL)
    {
      g_task_report_error (self, callback, user_data,
                           steward_chat_engine_send_view_message_async,
                           g_steal_pointer (&error));
      return;
    }

  task = steward_chat_engine_new_turn (self, conversation, cancellable, callback, user_data,
                                       steward_chat_engine_send_view_message_async, &error);
  if (task == NULL)
    return;

  steward_chat_engine_add_view_contexts (self, conversation, checked);
  message = steward_chat_message_new (STEWARD_CHAT_ROLE_USER, checked);
  steward_chat_message_set_view (message, steward_tool_call_get_server (call),
                                 steward_tool_call_get_tool (call),
                                 steward_tool_call_get_id (call));
  steward_conversation_append (conversation, message);
  steward_log_store_add_host_event (steward_chat_engine_log_store (self),
                                    steward_tool_call_get_server (call), STEWARD_LOG_LEVEL_INFO,
                                    /* Translators: %s is a tool; its view sent a
                                     * message the person agreed to. */
                                    _("The view of “%s” sent a message to the chat"),
                                    steward_tool_call_get_tool (call));

  steward_chat_engine_start_turn (task);
}

gboolean
steward_chat_engine_send_view_message_finish (StewardChatEngine  *self,
                                              GAsyncResult       *result,
                                              GError            **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

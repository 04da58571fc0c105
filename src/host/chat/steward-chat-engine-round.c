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

static void
event_cb (StewardProviderEvent  event,
          JsonObject           *data,
          gpointer              user_data)
{
  GTask *task = user_data;
  Turn *turn = g_task_get_task_data (task);
  g_autoptr(JsonObject) block = NULL;

  if (turn->finished || turn->answer == NULL)
    return;

  switch (event)
    {
    case STEWARD_PROVIDER_EVENT_TEXT:
      steward_chat_message_append_text (turn->answer, mcp_json_get_string (data, "text"));
      break;

    case STEWARD_PROVIDER_EVENT_TOOL_CALL:
      block = steward_chat_json_copy_object (data);
      json_object_set_string_member (block, "type", "tool_use");
      steward_chat_engine_ensure_id (turn, block);
      if (steward_chat_engine_find_call (turn, mcp_json_get_string (block, "id")) != NULL)
        break;
      steward_chat_message_append_block (turn->answer, block);
      steward_chat_engine_add_call (turn, block);
      break;

    case STEWARD_PROVIDER_EVENT_USAGE:
      steward_chat_message_set_usage (turn->answer, data);
      break;

    default:
      break;
    }
}

JsonObject *
steward_chat_engine_block_at (JsonArray   *content,
                              guint        index,
                              const char **type)
{
  JsonNode *node = json_array_get_element (content, index);
  JsonObject *block;

  *type = NULL;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return NULL;

  block = json_node_get_object (node);
  *type = mcp_json_get_string (block, "type");
  return block;
}

JsonObject *
steward_chat_engine_tool_use_block (JsonArray *content,
                                    guint      index)
{
  const char *type;
  JsonObject *block = steward_chat_engine_block_at (content, index, &type);

  return g_strcmp0 (type, "tool_use") == 0 ? block : NULL;
}

/* The answer as the provider finished it is the one that counts; tool
 * calls seen while streaming keep their blocks in it. */
static void
settle_answer (Turn       *turn,
               JsonObject *answer)
{
  JsonArray *final = mcp_json_get_array (answer, "content");
  JsonObject *usage = mcp_json_get_object (answer, "usage");
  g_autoptr(JsonArray) content = NULL;
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  if (final == NULL || json_array_get_length (final) == 0)
    content = steward_chat_json_copy_array (steward_chat_message_get_content (turn->answer));
  else
    content = steward_chat_json_copy_array (final);

  for (guint i = 0; i < json_array_get_length (content); i++)
    {
      JsonObject *block = steward_chat_engine_tool_use_block (content, i);

      if (block == NULL)
        continue;

      steward_chat_engine_ensure_id (turn, block);
      g_hash_table_add (seen, (gpointer) mcp_json_get_string (block, "id"));
      if (steward_chat_engine_find_call (turn, mcp_json_get_string (block, "id")) == NULL)
        steward_chat_engine_add_call (turn, block);
    }

  for (guint i = 0; i < turn->calls->len; i++)
    {
      StewardToolCall *call = g_ptr_array_index (turn->calls, i);
      g_autofree char *name = NULL;
      const char *server;
      JsonObject *block;

      if (g_hash_table_contains (seen, steward_tool_call_get_id (call)))
        continue;

      server = steward_tool_call_get_server (call);
      name = *server != '\0' ? g_strconcat (server, TOOL_SEPARATOR,
                                            steward_tool_call_get_tool (call), NULL)
                             : g_strdup (steward_tool_call_get_tool (call));
      block = json_object_new ();
      json_object_set_string_member (block, "type", "tool_use");
      json_object_set_string_member (block, "id", steward_tool_call_get_id (call));
      json_object_set_string_member (block, "name", name);
      json_object_set_object_member (block, "input",
                                     steward_chat_json_copy_object (
                                       steward_tool_call_get_arguments (call)));
      json_array_add_object_element (content, block);
    }

  steward_chat_message_set_content (turn->answer, content);
  if (usage != NULL)
    steward_chat_message_set_usage (turn->answer, usage);

  if (g_strcmp0 (mcp_json_get_string (answer, "stopReason"), "maxTokens") == 0)
    /* Translators: under an answer the model could not finish. */
    steward_chat_message_set_note (turn->answer,
                                   _("The answer reached the most tokens it may have"));
}

static void
chat_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Turn *turn = g_task_get_task_data (task);
  g_autoptr(JsonObject) answer = NULL;
  g_autoptr(GError) error = NULL;

  answer = steward_provider_chat_finish (STEWARD_PROVIDER (object), result, &error);
  if (turn->finished)
    return;

  steward_chat_message_set_streaming (turn->answer, FALSE);

  if (answer == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          steward_chat_engine_finish_stopped (task);
          return;
        }

      steward_chat_message_set_error (turn->answer, error->message);
      steward_chat_engine_finish (task, g_steal_pointer (&error));
      return;
    }

  settle_answer (turn, answer);

  if (g_cancellable_is_cancelled (turn->cancellable))
    {
      steward_chat_engine_finish_stopped (task);
      return;
    }

  if (turn->calls->len == 0)
    {
      steward_chat_engine_finish (task, NULL);
      return;
    }

  turn->next_call = 0;
  steward_chat_engine_process_calls (task);
}

static void
prepared_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StewardChatEngine *self = g_task_get_source_object (task);
  Turn *turn = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) request = NULL;
  g_autoptr(JsonArray) tools = NULL;
  g_autofree char *system_prompt = NULL;

  /* A tool that could not be hashed ahead is hashed when checked. */
  if (!steward_tool_pins_prepare_finish (STEWARD_TOOL_PINS (object), result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_debug ("Hashing the tools ahead failed: %s", error->message);

  if (turn->finished)
    return;
  if (g_cancellable_is_cancelled (turn->cancellable))
    {
      steward_chat_engine_finish_stopped (task);
      return;
    }

  request = json_object_new ();
  json_object_set_string_member (request, "model", turn->model_name);
  system_prompt = steward_chat_engine_build_system_prompt (self);
  json_object_set_string_member (request, "systemPrompt", system_prompt);
  json_object_set_array_member (request, "messages",
                                steward_chat_engine_build_messages (turn->conversation));
  json_object_set_int_member (request, "maxTokens", self->max_tokens);
  tools = steward_chat_engine_build_tools (self, turn);
  if (json_array_get_length (tools) > 0)
    {
      JsonObject *choice = json_object_new ();

      json_object_set_array_member (request, "tools", g_steal_pointer (&tools));
      json_object_set_string_member (choice, "mode", "auto");
      json_object_set_object_member (request, "toolChoice", choice);
    }

  g_clear_object (&turn->answer);
  g_ptr_array_set_size (turn->calls, 0);
  turn->next_call = 0;

  turn->answer = steward_chat_message_new (STEWARD_CHAT_ROLE_ASSISTANT, NULL);
  steward_chat_message_set_model (turn->answer, turn->model_id);
  steward_chat_message_set_streaming (turn->answer, TRUE);
  steward_conversation_append (turn->conversation, turn->answer);

  steward_provider_chat_async (turn->provider, request, event_cb, g_object_ref (task),
                               g_object_unref, turn->cancellable, chat_cb, g_object_ref (task));
}

void
steward_chat_engine_next_round (GTask *task)
{
  StewardChatEngine *self = g_task_get_source_object (task);
  Turn *turn = g_task_get_task_data (task);
  g_autoptr(GPtrArray) tools = NULL;

  if (g_cancellable_is_cancelled (turn->cancellable))
    {
      steward_chat_engine_finish_stopped (task);
      return;
    }

  tools = steward_chat_engine_collect_tools (self);
  steward_tool_pins_prepare_async (steward_chat_engine_tool_pins (self), tools, turn->cancellable,
                                   prepared_cb,
                                   g_object_ref (task));
}

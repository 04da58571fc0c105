/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "mcp-json.h"

#include "steward-chat-message.h"
#include "steward-conversation.h"
#include "steward-tool-call.h"

G_BEGIN_DECLS

/*
 * What the chat's objects share among themselves: copies of JSON that
 * share nothing (so that a worker can own a snapshot while the main
 * thread goes on changing the original), and the conversation file's
 * shape (steward-conversation-store.h).
 */

JsonNode            *steward_chat_json_copy            (JsonNode            *node);
JsonObject          *steward_chat_json_copy_object     (JsonObject          *object);
JsonArray           *steward_chat_json_copy_array      (JsonArray           *array);

/* What writes an item of a list model into the conversation file. */
typedef JsonObject *(*StewardChatItemToJson) (gpointer item);

JsonArray           *steward_chat_json_array_from_model (GListModel           *model,
                                                         StewardChatItemToJson to_json);
/* A string member, or null where @value is %NULL: the file names every
 * member it may have. */
void                 steward_chat_json_set_string_or_null (JsonObject       *object,
                                                           const char       *member,
                                                           const char       *value);

/* Wall-clock microseconds as an ISO 8601 stamp in UTC, and back (0 when
 * the stamp is missing or not one). */
char                *steward_chat_time_to_string       (gint64               time);
gint64               steward_chat_time_from_string     (const char          *stamp);

StewardToolCall     *steward_tool_call_new_from_json   (JsonObject          *json);
JsonObject          *steward_tool_call_to_json         (StewardToolCall     *self);

/* @error: set when @json is not a message. */
StewardChatMessage  *steward_chat_message_new_from_json (JsonObject         *json,
                                                         GError            **error);
JsonObject          *steward_chat_message_to_json      (StewardChatMessage  *self);

StewardConversation *steward_conversation_new_from_json (JsonObject         *json,
                                                         GError            **error);
/* A snapshot that shares nothing with @self. */
JsonObject          *steward_conversation_to_json      (StewardConversation *self);

G_END_DECLS

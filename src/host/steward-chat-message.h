/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/*
 * One message of a conversation. Its content is an array of blocks in the
 * provider's neutral shape (steward-provider.h). An assistant message that
 * is still streaming grows: "text" notifies on every delta, "streaming" is
 * TRUE until the turn ends. Tool calls the model made in this message are
 * a GListModel of StewardToolCall ("tool-calls").
 */

typedef enum {
  STEWARD_CHAT_ROLE_USER,
  STEWARD_CHAT_ROLE_ASSISTANT,
} StewardChatRole;

#define STEWARD_TYPE_CHAT_MESSAGE (steward_chat_message_get_type ())

G_DECLARE_FINAL_TYPE (StewardChatMessage, steward_chat_message, STEWARD, CHAT_MESSAGE, GObject)

StewardChatMessage *steward_chat_message_new            (StewardChatRole     role,
                                                         JsonArray          *content);
StewardChatRole     steward_chat_message_get_role       (StewardChatMessage *self);
/* The text blocks joined: what the person reads. */
const char         *steward_chat_message_get_text       (StewardChatMessage *self);
JsonArray          *steward_chat_message_get_content    (StewardChatMessage *self);
gboolean            steward_chat_message_get_streaming  (StewardChatMessage *self);
/* The model that wrote it (assistant), or NULL. */
const char         *steward_chat_message_get_model      (StewardChatMessage *self);
/* An error that ended this turn, shown under it, or NULL. */
const char         *steward_chat_message_get_error      (StewardChatMessage *self);
GListModel         *steward_chat_message_get_tool_calls (StewardChatMessage *self);
gint64              steward_chat_message_get_time       (StewardChatMessage *self);

G_END_DECLS

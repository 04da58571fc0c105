/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "steward-tool-call.h"

G_BEGIN_DECLS

/*
 * One message of a conversation. Its content is an array of blocks in the
 * provider's neutral shape (steward-provider.h). An assistant message that
 * is still streaming grows: "text" notifies on every delta, "streaming" is
 * TRUE until the turn ends. Tool calls the model made in this message are
 * a GListModel of StewardToolCall ("tool-calls").
 *
 * Every getter is a property that notifies ("role", "text", "content",
 * "streaming", "model", "error", "note", "usage", "time"); "changed" is
 * emitted after anything in the message changed, its tool calls included,
 * so that the conversation can be saved. The setters are for the chat
 * engine and the conversation store.
 */

typedef enum {
  STEWARD_CHAT_ROLE_USER,
  STEWARD_CHAT_ROLE_ASSISTANT,
} StewardChatRole;

#define STEWARD_TYPE_CHAT_ROLE (steward_chat_role_get_type ())
GType steward_chat_role_get_type (void) G_GNUC_CONST;

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
/* Something the person should know about how the turn ended that is not
 * an error: it was stopped (the partial answer is kept), or the loop
 * limit was reached. NULL when there is nothing to say. */
const char         *steward_chat_message_get_note       (StewardChatMessage *self);
/* {"inputTokens", "outputTokens"} as the provider counted them, or NULL. */
JsonObject         *steward_chat_message_get_usage      (StewardChatMessage *self);

void                steward_chat_message_set_content    (StewardChatMessage *self,
                                                         JsonArray          *content);
/* Appends @delta to the last text block (a new one when the last block is
 * not text). */
void                steward_chat_message_append_text    (StewardChatMessage *self,
                                                         const char         *delta);
void                steward_chat_message_append_block   (StewardChatMessage *self,
                                                         JsonObject         *block);
void                steward_chat_message_set_streaming  (StewardChatMessage *self,
                                                         gboolean            streaming);
void                steward_chat_message_set_model      (StewardChatMessage *self,
                                                         const char         *model);
void                steward_chat_message_set_error      (StewardChatMessage *self,
                                                         const char         *error);
void                steward_chat_message_set_note       (StewardChatMessage *self,
                                                         const char         *note);
void                steward_chat_message_set_usage      (StewardChatMessage *self,
                                                         JsonObject         *usage);
void                steward_chat_message_set_time       (StewardChatMessage *self,
                                                         gint64              time);
void                steward_chat_message_add_tool_call  (StewardChatMessage *self,
                                                         StewardToolCall    *call);
/* A user message an MCP Apps view sent (ui/message): the server and tool
 * of the view's call, NULL for a message the person typed. Set once,
 * before the message joins a conversation; kept in the file as "view". */
void                steward_chat_message_set_view        (StewardChatMessage *self,
                                                          const char         *server,
                                                          const char         *tool,
                                                          const char         *call_id);
const char         *steward_chat_message_get_view_server (StewardChatMessage *self);
const char         *steward_chat_message_get_view_tool   (StewardChatMessage *self);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "steward-chat-message.h"

G_BEGIN_DECLS

/*
 * A chat: id, title, the model chosen for it ("provider/name", or NULL for
 * the default), and its messages as a GListModel of StewardChatMessage.
 * "busy" while a turn runs.
 *
 * Properties (all notify): "id", "title", "model", "busy", "created",
 * "updated" (wall-clock microseconds of the last message added or taken
 * away: a rename does not move a chat to the top). "changed" is emitted after anything in the
 * conversation changed, its messages and their tool calls included, so
 * that the store can save it. The title is the person's, or else the
 * first line of the first message (60 characters at most), or else "New
 * chat".
 */

#define STEWARD_TYPE_CONVERSATION (steward_conversation_get_type ())

G_DECLARE_FINAL_TYPE (StewardConversation, steward_conversation, STEWARD, CONVERSATION, GObject)

/* @id (nullable): NULL makes a new one. */
StewardConversation *steward_conversation_new  (const char          *id);
const char  *steward_conversation_get_id       (StewardConversation *self);
const char  *steward_conversation_get_title    (StewardConversation *self);
void         steward_conversation_set_title    (StewardConversation *self,
                                                const char          *title);
const char  *steward_conversation_get_model    (StewardConversation *self);
void         steward_conversation_set_model    (StewardConversation *self,
                                                const char          *model);
GListModel  *steward_conversation_get_messages (StewardConversation *self);
gboolean     steward_conversation_get_busy     (StewardConversation *self);
gint64       steward_conversation_get_updated  (StewardConversation *self);
gint64       steward_conversation_get_created  (StewardConversation *self);
void         steward_conversation_set_busy     (StewardConversation *self,
                                                gboolean             busy);
void         steward_conversation_append       (StewardConversation *self,
                                                StewardChatMessage  *message);
/* Removes the messages from @position to the end. */
void         steward_conversation_truncate     (StewardConversation *self,
                                                guint                position);
/* Whether the title or any message's text holds @query, ignoring case:
 * the sidebar's search. */
gboolean     steward_conversation_matches      (StewardConversation *self,
                                                const char          *query);

G_END_DECLS

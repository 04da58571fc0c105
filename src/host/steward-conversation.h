/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "steward-chat-message.h"

G_BEGIN_DECLS

/*
 * A chat: id, title, the model chosen for it ("provider/name", or NULL for
 * the default), and its messages as a GListModel of StewardChatMessage.
 * "busy" while a turn runs.
 */

#define STEWARD_TYPE_CONVERSATION (steward_conversation_get_type ())

G_DECLARE_FINAL_TYPE (StewardConversation, steward_conversation, STEWARD, CONVERSATION, GObject)

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

G_END_DECLS

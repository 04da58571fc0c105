/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "steward-conversation.h"
#include "steward-host.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_CHAT_PAGE (steward_chat_page_get_type ())

G_DECLARE_FINAL_TYPE (StewardChatPage, steward_chat_page, STEWARD, CHAT_PAGE, AdwBin)

/* The chat (docs/ARCHITECTURE.md §4 "Chat", §5): a sidebar of the conversations
 * (new, rename, delete, search), the shown conversation's messages in a
 * list that reuses its rows (StewardMessageRow), and the composer: Enter
 * sends, Shift+Enter starts a new line, a model per conversation, Attach
 * Resource… (a resource of a running server, read and attached), "/"
 * lists the running servers' prompts as "server/prompt" and inserts the
 * chosen one's messages after asking for its arguments (with the
 * server's completions); Stop while a turn runs, Regenerate, Edit Last
 * Message. A banner says when tool definitions changed and opens their
 * review. Actions: chat.new, chat.rename, chat.delete, chat.send,
 * chat.stop, chat.regenerate, chat.edit-last, chat.cancel-edit,
 * chat.search, chat.review-tool-changes. */
GtkWidget           *steward_chat_page_new              (StewardHost         *host);
StewardHost         *steward_chat_page_get_host         (StewardChatPage     *self);
/* The conversation shown, or NULL. */
StewardConversation *steward_chat_page_get_conversation (StewardChatPage     *self);
void                 steward_chat_page_set_conversation (StewardChatPage     *self,
                                                         StewardConversation *conversation);
/* Makes a conversation, shows it and puts the focus in the composer. */
void                 steward_chat_page_new_conversation (StewardChatPage     *self);

G_END_DECLS

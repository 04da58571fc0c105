/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "steward-chat-page.h"

G_BEGIN_DECLS

/* For the tests, which drive the page as a person would. */

GtkTextView    *steward_chat_page_get_composer         (StewardChatPage *self);
GtkListView    *steward_chat_page_get_message_list     (StewardChatPage *self);
GtkListView    *steward_chat_page_get_conversation_list (StewardChatPage *self);
GtkEditable    *steward_chat_page_get_search_entry     (StewardChatPage *self);
GtkDropDown    *steward_chat_page_get_model_dropdown   (StewardChatPage *self);
/* The prompts offered after "/", as "server/prompt", one a line; NULL
 * when the list is not shown. */
char           *steward_chat_page_dup_prompt_choices   (StewardChatPage *self);
/* The attachments waiting to be sent, as content blocks. */
JsonArray      *steward_chat_page_get_attachments      (StewardChatPage *self);
/* How many of the conversation's earliest messages the list does not
 * show yet (until the person scrolls up to them). */
guint           steward_chat_page_get_n_hidden_messages (StewardChatPage *self);
/* Whether the list is still being held at its end while a conversation
 * it just showed is laid out. */
gboolean        steward_chat_page_get_settling          (StewardChatPage *self);
/* How many tool definitions wait for review, as the banner says. */
guint           steward_chat_page_get_n_tool_changes   (StewardChatPage *self);
/* Attaches resource @uri of @server as the Attach Resource menu does. */
void            steward_chat_page_attach_resource      (StewardChatPage *self,
                                                        const char      *server,
                                                        const char      *uri);

G_END_DECLS

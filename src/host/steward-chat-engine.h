/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "steward-conversation.h"

G_BEGIN_DECLS

typedef struct _StewardHost StewardHost;

/*
 * The chat (ARCHITECTURE §4 "Chat"): the person's message → the
 * conversation's model with the enabled servers' tools (named
 * "server__tool", pinned definitions only) and the servers' instructions →
 * tool calls → approval per policy (a TOOL_CALL approval whose request is
 * {"server", "tool", "arguments", "annotations", "definition"}; ALLOW data
 * = the arguments as edited) → steward_server_call_tool_async → results
 * capped at 256 KiB of text with a marker and hidden characters stripped →
 * back to the model … until it stops or the loop limit ("max-rounds",
 * default 10) is reached. Tool policy per server and tool: "ask" (the
 * default for destructive or open-world tools and for every tool until the
 * person chose) or "allow".
 */

#define STEWARD_TYPE_CHAT_ENGINE (steward_chat_engine_get_type ())

G_DECLARE_FINAL_TYPE (StewardChatEngine, steward_chat_engine, STEWARD, CHAT_ENGINE, GObject)

StewardChatEngine *steward_chat_engine_new                (StewardHost         *host);
/* @attachments (nullable): content blocks to add to the message (embedded
 * resources the person attached). Resolves when the turn ends. */
void               steward_chat_engine_send_async         (StewardChatEngine   *self,
                                                           StewardConversation *conversation,
                                                           const char          *text,
                                                           JsonArray           *attachments,
                                                           GCancellable        *cancellable,
                                                           GAsyncReadyCallback  callback,
                                                           gpointer             user_data);
gboolean           steward_chat_engine_send_finish        (StewardChatEngine   *self,
                                                           GAsyncResult        *result,
                                                           GError             **error);
/* Drops the last answer and asks again. */
void               steward_chat_engine_regenerate_async   (StewardChatEngine   *self,
                                                           StewardConversation *conversation,
                                                           GCancellable        *cancellable,
                                                           GAsyncReadyCallback  callback,
                                                           gpointer             user_data);
gboolean           steward_chat_engine_regenerate_finish  (StewardChatEngine   *self,
                                                           GAsyncResult        *result,
                                                           GError             **error);
/* Replaces the last user message's text, drops what followed, asks again. */
void               steward_chat_engine_edit_last_async    (StewardChatEngine   *self,
                                                           StewardConversation *conversation,
                                                           const char          *text,
                                                           GCancellable        *cancellable,
                                                           GAsyncReadyCallback  callback,
                                                           gpointer             user_data);
gboolean           steward_chat_engine_edit_last_finish   (StewardChatEngine   *self,
                                                           GAsyncResult        *result,
                                                           GError             **error);

G_END_DECLS

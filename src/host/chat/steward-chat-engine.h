/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "steward-approvals.h"
#include "steward-conversation.h"
#include "steward-log-store.h"
#include "steward-model-catalog.h"
#include "steward-provider.h"
#include "steward-providers.h"
#include "steward-server-registry.h"
#include "steward-tool-pins.h"

G_BEGIN_DECLS


/*
 * The chat (docs/ARCHITECTURE.md §4 "Chat"): the person's message → the
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
 *
 * Each round of the loop is one assistant message in the conversation,
 * with its tool calls; the results go back to the model as a user message
 * of tool_result blocks built from those calls. A turn that ends early
 * says why on its last message: "error" for a failure, "note" for a stop
 * or the loop limit. A conversation runs one turn at a time; sending
 * while it is busy fails with G_IO_ERROR_BUSY. Sampling and elicitation
 * requests that a running call raises join that call's "approvals".
 * Tool calls are logged as host events (server, tool, decision).
 *
 * MCP Apps: the context each view last set (ui/update-model-context)
 * joins the next message to the model as a "view_context" block, once
 * after each change; a view's ui/message, once the person agreed, is a
 * user message marked with its view (steward_chat_message_get_view_tool()).
 *
 * The model is the conversation's ("provider/name"); without one, the
 * first catalogue model of the first configured provider that is not the
 * manual one. The manual provider cannot chat: the turn then fails with
 * STEWARD_CHAT_ENGINE_ERROR_NO_MODEL.
 */

#define STEWARD_CHAT_ENGINE_ERROR (steward_chat_engine_error_quark ())

typedef enum {
  STEWARD_CHAT_ENGINE_ERROR_NO_MODEL,     /* none configured, or not found */
  STEWARD_CHAT_ENGINE_ERROR_NO_MESSAGE,   /* nothing to regenerate or edit */
} StewardChatEngineError;

/* Text of all tool results of one call, at most, before the marker. */
#define STEWARD_CHAT_RESULT_MAX_TEXT  (256 * 1024)
/* Tool names as models get them ("server__tool"), at most. */
#define STEWARD_CHAT_TOOL_NAME_MAX    64
#define STEWARD_CHAT_DEFAULT_ROUNDS   10

#define STEWARD_TYPE_CHAT_ENGINE (steward_chat_engine_get_type ())

G_DECLARE_FINAL_TYPE (StewardChatEngine, steward_chat_engine, STEWARD, CHAT_ENGINE, GObject)

GQuark             steward_chat_engine_error_quark        (void);

StewardChatEngine *steward_chat_engine_new                (StewardServerRegistry *registry,
                                                           StewardApprovals      *approvals,
                                                           StewardProviders      *providers,
                                                           StewardModelCatalog   *catalog,
                                                           StewardLogStore       *log_store,
                                                           StewardToolPins       *pins);
/* Stops every turn and refuses new ones, letting go of what it was
 * handed; the host calls it as it goes. */
void               steward_chat_engine_close              (StewardChatEngine   *self);
/* Properties "max-rounds" (default STEWARD_CHAT_DEFAULT_ROUNDS) and
 * "max-tokens" (per answer, default 4096). */
guint              steward_chat_engine_get_max_rounds     (StewardChatEngine   *self);
void               steward_chat_engine_set_max_rounds     (StewardChatEngine   *self,
                                                           guint                max_rounds);
guint              steward_chat_engine_get_max_tokens     (StewardChatEngine   *self);
void               steward_chat_engine_set_max_tokens     (StewardChatEngine   *self,
                                                           guint                max_tokens);
/* A provider beside the configured ones, found first by its id (the
 * command line's, tests'). */
void               steward_chat_engine_add_provider       (StewardChatEngine   *self,
                                                           StewardProvider     *provider);
/* Stops the conversation's turn, as cancelling its cancellable does: the
 * partial answer stays, marked; a running tool call is cancelled. */
void               steward_chat_engine_stop               (StewardChatEngine   *self,
                                                           StewardConversation *conversation);
/* Stops every turn (quit). */
void               steward_chat_engine_stop_all           (StewardChatEngine   *self);
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
/* A message an MCP Apps view sent (ui/message) that the person agreed
 * to: added as the person's, marked with the view of @call, then the turn
 * runs as for send_async (steward-chat-engine-views.c). */
void               steward_chat_engine_send_view_message_async  (StewardChatEngine   *self,
                                                                 StewardConversation *conversation,
                                                                 StewardToolCall     *call,
                                                                 JsonArray           *content,
                                                                 GCancellable        *cancellable,
                                                                 GAsyncReadyCallback  callback,
                                                                 gpointer             user_data);
gboolean           steward_chat_engine_send_view_message_finish (StewardChatEngine   *self,
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

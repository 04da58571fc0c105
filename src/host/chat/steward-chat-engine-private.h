/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* What the parts of StewardChatEngine share: steward-chat-engine.c (the
 * object, a turn from start to finish, and the public API),
 * steward-chat-engine-request.c (the messages, system prompt and tools put
 * to the model), steward-chat-engine-round.c (one round: the model's answer
 * as it streams in) and steward-chat-engine-calls.c (the model's tool calls,
 * through their approvals to the servers). */

#include "mcp-tool.h"

#include "steward-approval.h"
#include "steward-chat-engine.h"
#include "steward-provider.h"
#include "steward-server.h"

G_BEGIN_DECLS

/* The separator between a server's name and its tool's. */
#define TOOL_SEPARATOR              "__"

struct _StewardChatEngine
{
  GObject      parent_instance;

  /* Handed over at construction by the host, which owns them all and
   * the engine too; dropped by steward_chat_engine_close(). */
  StewardServerRegistry *registry;
  StewardApprovals      *approvals;
  StewardProviders      *configured;
  StewardModelCatalog   *catalog;
  StewardLogStore       *log_store;
  StewardToolPins       *pins;

  guint        max_rounds;
  guint        max_tokens;
  GHashTable  *providers;       /* id → StewardProvider, beside the configured ones */
  GHashTable  *turns;           /* StewardConversation → Turn, while one runs */
  GHashTable  *reported;        /* tool names already logged as not offered */
};

/* A tool as offered to the model in this round. */
typedef struct {
  char    *server;
  McpTool *tool;
} Offered;

/* One turn: from the person's message until the model is done. */
typedef struct {
  StewardConversation *conversation;
  GCancellable        *cancellable;     /* the turn's own */
  GCancellable        *outer;           /* the caller's, linked to ours */
  gulong               outer_id;
  gulong               cancelled_id;
  StewardProvider     *provider;
  char                *model_id;
  char                *model_name;
  guint                round;
  StewardChatMessage  *answer;          /* this round's */
  GHashTable          *offered;         /* "server__tool" → Offered */
  GPtrArray           *calls;           /* this round's StewardToolCall */
  guint                next_call;
  StewardToolCall     *call;            /* waiting or running */
  char                *call_server;
  StewardServer       *overdue_server;  /* asks the running call's questions */
  gulong               overdue_id;
  StewardApproval     *approval;        /* the one the call waits for */
  gulong               responded_id;
  guint                finished : 1;
} Turn;

/* steward-chat-engine.c */
StewardLogStore *steward_chat_engine_log_store           (StewardChatEngine    *self);
StewardToolPins *steward_chat_engine_tool_pins           (StewardChatEngine    *self);
StewardServer   *steward_chat_engine_lookup_server       (StewardChatEngine    *self,
                                                          const char           *name);
void             steward_chat_engine_finish              (GTask                *task,
                                                          GError               *error);
void             steward_chat_engine_finish_stopped      (GTask                *task);
/* A turn for @conversation, or NULL with @error set (and returned through
 * the task) when the engine is closing or the chat is busy. */
GTask           *steward_chat_engine_new_turn            (StewardChatEngine    *self,
                                                          StewardConversation  *conversation,
                                                          GCancellable         *cancellable,
                                                          GAsyncReadyCallback   callback,
                                                          gpointer              user_data,
                                                          gpointer              source_tag,
                                                          GError              **error);
void             steward_chat_engine_start_turn          (GTask                *task);

/* steward-chat-engine-views.c */
/* Appends to @content a "view_context" block for each view of
 * @conversation that set a context since the last message took it. */
void             steward_chat_engine_add_view_contexts   (StewardChatEngine    *self,
                                                          StewardConversation  *conversation,
                                                          JsonArray            *content);
JsonObject      *steward_chat_engine_view_context_text   (JsonObject           *block);
JsonObject      *steward_chat_engine_view_message_header (StewardChatMessage   *message);

/* steward-chat-engine-request.c */
JsonObject      *steward_chat_engine_text_block          (const char           *text);
JsonArray       *steward_chat_engine_single_text         (const char           *text);
JsonArray       *steward_chat_engine_convert_result      (McpToolResult        *result);
JsonArray       *steward_chat_engine_build_messages      (StewardConversation  *conversation);
char            *steward_chat_engine_build_system_prompt (StewardChatEngine    *self);
GPtrArray       *steward_chat_engine_collect_tools       (StewardChatEngine    *self);
JsonArray       *steward_chat_engine_build_tools         (StewardChatEngine    *self,
                                                          Turn                 *turn);

/* steward-chat-engine-calls.c */
void             steward_chat_engine_log_call            (StewardChatEngine    *self,
                                                          StewardToolCall      *call,
                                                          StewardLogLevel       level,
                                                          const char           *decision);
void             steward_chat_engine_end_call            (GTask                *task,
                                                          StewardToolCallState  state,
                                                          JsonArray            *result,
                                                          gboolean              is_error,
                                                          const char           *error);
void             steward_chat_engine_process_calls       (GTask                *task);
StewardToolCall *steward_chat_engine_find_call           (Turn                 *turn,
                                                          const char           *id);
void             steward_chat_engine_add_call            (Turn                 *turn,
                                                          JsonObject           *block);
void             steward_chat_engine_ensure_id           (Turn                 *turn,
                                                          JsonObject           *block);

/* steward-chat-engine-round.c */
void             steward_chat_engine_next_round          (GTask                *task);
/* The @index-th block of @content when it is an object, with its type
 * (%NULL when it has none); else %NULL. */
JsonObject      *steward_chat_engine_block_at            (JsonArray            *content,
                                                          guint                 index,
                                                          const char          **type);
/* The @index-th block of @content when it is a tool_use block, else
 * %NULL. */
JsonObject      *steward_chat_engine_tool_use_block      (JsonArray            *content,
                                                          guint                 index);

G_END_DECLS

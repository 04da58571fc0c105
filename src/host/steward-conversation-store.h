/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "steward-conversation.h"

G_BEGIN_DECLS

/*
 * Conversations, newest first, as a GListModel of StewardConversation,
 * one file each under $XDG_DATA_HOME/steward/conversations/ID.json, written
 * atomically after every change (debounced). Loading runs on a worker; a
 * damaged file is reported ("load-failed" with the file and the reason)
 * and moved aside as ID.json.damaged, never lost or overwritten.
 */

#define STEWARD_TYPE_CONVERSATION_STORE (steward_conversation_store_get_type ())

G_DECLARE_FINAL_TYPE (StewardConversationStore, steward_conversation_store, STEWARD, CONVERSATION_STORE, GObject)

StewardConversationStore *steward_conversation_store_new          (GFile                    *folder);
void                      steward_conversation_store_load_async   (StewardConversationStore *self,
                                                                   GCancellable             *cancellable,
                                                                   GAsyncReadyCallback       callback,
                                                                   gpointer                  user_data);
gboolean                  steward_conversation_store_load_finish  (StewardConversationStore *self,
                                                                   GAsyncResult             *result,
                                                                   GError                  **error);
StewardConversation      *steward_conversation_store_create       (StewardConversationStore *self);
void                      steward_conversation_store_delete       (StewardConversationStore *self,
                                                                   StewardConversation      *conversation);
StewardConversation      *steward_conversation_store_lookup       (StewardConversationStore *self,
                                                                   const char               *id);
/* Writes pending changes now (quit). */
void                      steward_conversation_store_flush_async  (StewardConversationStore *self,
                                                                   GCancellable             *cancellable,
                                                                   GAsyncReadyCallback       callback,
                                                                   gpointer                  user_data);
gboolean                  steward_conversation_store_flush_finish (StewardConversationStore *self,
                                                                   GAsyncResult             *result,
                                                                   GError                  **error);

G_END_DECLS

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
 *
 * A change is written 200 ms after the last one (2 s at most after the
 * first while changes keep coming, as while an answer streams); a write
 * that fails emits "save-failed" (conversation, message) and is tried
 * again at the next change. The file's name is the conversation's id.
 * Call flush_async before dropping the store: changes still waiting for
 * their 200 ms are not written otherwise.
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
GFile                    *steward_conversation_store_get_folder   (StewardConversationStore *self);
/* Whether load_async has finished ("loaded" notifies). */
gboolean                  steward_conversation_store_get_loaded   (StewardConversationStore *self);
/* Writes pending changes now (quit). */
void                      steward_conversation_store_flush_async  (StewardConversationStore *self,
                                                                   GCancellable             *cancellable,
                                                                   GAsyncReadyCallback       callback,
                                                                   gpointer                  user_data);
gboolean                  steward_conversation_store_flush_finish (StewardConversationStore *self,
                                                                   GAsyncResult             *result,
                                                                   GError                  **error);

G_END_DECLS

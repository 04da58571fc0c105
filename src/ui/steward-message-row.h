/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "steward-chat-message.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_MESSAGE_ROW (steward_message_row_get_type ())

G_DECLARE_FINAL_TYPE (StewardMessageRow, steward_message_row, STEWARD, MESSAGE_ROW, AdwBin)

/* One message of a conversation: who wrote it (and the model), the
 * assistant's text as markdown (StewardMarkdownView, following the
 * stream), the person's text as plain text with what they attached, the
 * note and the error that ended the turn, and the tool calls the model
 * made (StewardToolCallRow each). A row is reused for other messages as
 * the list scrolls: set "message" again, or to NULL to let one go. Set
 * to NULL and back to the same message, it keeps its tool calls' rows
 * and their views as they were. */
GtkWidget          *steward_message_row_new         (void);
StewardChatMessage *steward_message_row_get_message (StewardMessageRow  *self);
void                steward_message_row_set_message (StewardMessageRow  *self,
                                                     StewardChatMessage *message);

G_END_DECLS

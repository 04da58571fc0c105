/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "steward-tool-call.h"

G_BEGIN_DECLS

/*
 * A message an MCP Apps view in a chat asked to send (ui/message) goes to
 * the model only when the person agrees: this asks them, over the window
 * of @widget, showing the message and naming the view, and on "Send"
 * hands it to the chat engine for the chat that shows @call. Why it could
 * not be sent (the chat is answering, the message is not text…) is said
 * in a second dialog. One question a view at a time: a message sent while
 * the person is asked about another is left out, with a warning in the
 * log.
 */
void steward_view_message_dialog_present (GtkWidget       *widget,
                                          StewardToolCall *call,
                                          JsonArray       *content);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "steward-tool-call.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_TOOL_CALL_ROW (steward_tool_call_row_get_type ())

G_DECLARE_FINAL_TYPE (StewardToolCallRow, steward_tool_call_row, STEWARD, TOOL_CALL_ROW, AdwBin)

/* One tool call in a conversation, collapsed to a line (server / tool and
 * its state) that expands to the arguments as pretty JSON, the result
 * through StewardContentView, the error, and the requests the server made
 * while it ran (sampling, elicitation) with their outcome and a button to
 * open a pending one. While the call waits for the person, a button opens
 * its approval. The details are built the first time they are shown.
 * A tool with an MCP Apps view shows it under the line; a message the view
 * asks to send is put to the person (steward-view-message-dialog.h). */
GtkWidget       *steward_tool_call_row_new          (StewardToolCall    *call);
StewardToolCall *steward_tool_call_row_get_call     (StewardToolCallRow *self);
gboolean         steward_tool_call_row_get_expanded (StewardToolCallRow *self);
void             steward_tool_call_row_set_expanded (StewardToolCallRow *self,
                                                     gboolean            expanded);

G_END_DECLS

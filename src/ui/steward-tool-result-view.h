/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "mcp-tool-result.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_TOOL_RESULT_VIEW (steward_tool_result_view_get_type ())

G_DECLARE_FINAL_TYPE (StewardToolResultView, steward_tool_result_view, STEWARD, TOOL_RESULT_VIEW, AdwBin)

/* The outcome of one tool call: each content block through
 * StewardContentView, structuredContent as pretty JSON in a collapsed
 * expander, a result the tool
 * marked isError or a failed call as an error banner with its words. */
GtkWidget     *steward_tool_result_view_new_for_result (McpToolResult         *result);
GtkWidget     *steward_tool_result_view_new_for_error  (const GError          *error);
McpToolResult *steward_tool_result_view_get_result     (StewardToolResultView *self);
void           steward_tool_result_view_set_text_height (StewardToolResultView *self,
                                                         int                    height);
GtkWidget     *steward_tool_result_view_get_structured_expander (StewardToolResultView *self);

G_END_DECLS

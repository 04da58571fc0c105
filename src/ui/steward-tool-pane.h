/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "mcp-tool.h"
#include "steward-server.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_TOOL_PANE (steward_tool_pane_get_type ())

G_DECLARE_FINAL_TYPE (StewardToolPane, steward_tool_pane, STEWARD, TOOL_PANE, AdwBin)

/* One tool of a server: its description and badges, the form built from
 * its input schema, Call (Ctrl+Return) and, while the call runs, its
 * progress and Cancel; the result below. Calls go through the server, so
 * that what they cause (a sampling request, say) names them. */
GtkWidget *steward_tool_pane_new             (StewardServer   *server,
                                              McpTool         *tool);
McpTool   *steward_tool_pane_get_tool        (StewardToolPane *self);
/* The StewardSchemaForm, for the tests that fill it. */
GtkWidget *steward_tool_pane_get_form        (StewardToolPane *self);
/* The StewardToolResultView of the last call, or NULL. */
GtkWidget *steward_tool_pane_get_result_view (StewardToolPane *self);
gboolean   steward_tool_pane_get_running     (StewardToolPane *self);

G_END_DECLS

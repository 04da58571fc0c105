/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-item.h"

G_BEGIN_DECLS

#define MCP_TYPE_TOOL (mcp_tool_get_type ())

G_DECLARE_FINAL_TYPE (McpTool, mcp_tool, MCP, TOOL, McpItem)

McpTool     *mcp_tool_new                  (JsonObject  *json,
                                            GError     **error);
JsonObject  *mcp_tool_get_input_schema     (McpTool     *self);
JsonObject  *mcp_tool_get_output_schema    (McpTool     *self);
gboolean     mcp_tool_get_read_only_hint   (McpTool     *self);
gboolean     mcp_tool_get_destructive_hint (McpTool     *self);
gboolean     mcp_tool_get_idempotent_hint  (McpTool     *self);
gboolean     mcp_tool_get_open_world_hint  (McpTool     *self);
const char  *mcp_tool_get_task_support     (McpTool     *self);

/* MCP Apps (mcp-app-resource-meta.h): the `ui://` resource that shows
 * this tool's calls, from `_meta.ui.resourceUri` (or the older flat
 * `_meta["ui/resourceUri"]`), or NULL. */
const char  *mcp_tool_get_ui_resource_uri  (McpTool     *self);
/* Who may call the tool, from `_meta.ui.visibility` (both by default):
 * the model (offered in chats), and the tool's own views. A tool visible
 * to the app alone is shown on the Tools page as app-only. */
gboolean     mcp_tool_get_visible_to_model (McpTool     *self);
gboolean     mcp_tool_get_visible_to_app   (McpTool     *self);

G_END_DECLS

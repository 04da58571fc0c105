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

G_END_DECLS

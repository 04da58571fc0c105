/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-content.h"

G_BEGIN_DECLS

#define MCP_TYPE_TOOL_RESULT (mcp_tool_result_get_type ())

G_DECLARE_FINAL_TYPE (McpToolResult, mcp_tool_result, MCP, TOOL_RESULT, GObject)

McpToolResult *mcp_tool_result_new                     (JsonObject     *json);
JsonObject    *mcp_tool_result_get_json                (McpToolResult  *self);
GPtrArray     *mcp_tool_result_get_content             (McpToolResult  *self);
JsonNode      *mcp_tool_result_get_structured_content  (McpToolResult  *self);
gboolean       mcp_tool_result_get_is_error            (McpToolResult  *self);
char          *mcp_tool_result_dup_text                (McpToolResult  *self);

G_END_DECLS

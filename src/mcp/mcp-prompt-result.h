/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-content.h"

G_BEGIN_DECLS

#define MCP_TYPE_PROMPT_RESULT (mcp_prompt_result_get_type ())

G_DECLARE_FINAL_TYPE (McpPromptResult, mcp_prompt_result, MCP, PROMPT_RESULT, GObject)

McpPromptResult *mcp_prompt_result_new                  (JsonObject       *json);
JsonObject      *mcp_prompt_result_get_json             (McpPromptResult  *self);
const char      *mcp_prompt_result_get_description      (McpPromptResult  *self);
guint            mcp_prompt_result_get_n_messages       (McpPromptResult  *self);
const char      *mcp_prompt_result_get_message_role     (McpPromptResult  *self,
                                                         guint             index);
McpContent      *mcp_prompt_result_get_message_content  (McpPromptResult  *self,
                                                         guint             index);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-item.h"

G_BEGIN_DECLS

#define MCP_TYPE_PROMPT (mcp_prompt_get_type ())

G_DECLARE_FINAL_TYPE (McpPrompt, mcp_prompt, MCP, PROMPT, McpItem)

McpPrompt   *mcp_prompt_new                     (JsonObject  *json,
                                                 GError     **error);
guint        mcp_prompt_get_n_arguments         (McpPrompt   *self);
const char  *mcp_prompt_get_argument_name       (McpPrompt   *self,
                                                 guint        index);
const char  *mcp_prompt_get_argument_description (McpPrompt  *self,
                                                 guint        index);
gboolean     mcp_prompt_get_argument_required   (McpPrompt   *self,
                                                 guint        index);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-item.h"

G_BEGIN_DECLS

#define MCP_TYPE_RESOURCE_TEMPLATE (mcp_resource_template_get_type ())

G_DECLARE_FINAL_TYPE (McpResourceTemplate, mcp_resource_template, MCP, RESOURCE_TEMPLATE, McpItem)

McpResourceTemplate  *mcp_resource_template_new                (JsonObject           *json,
                                                                GError              **error);
const char           *mcp_resource_template_get_uri_template   (McpResourceTemplate  *self);
char                **mcp_resource_template_dup_variables      (McpResourceTemplate  *self);
char                 *mcp_resource_template_expand             (McpResourceTemplate  *self,
                                                                GHashTable           *values);

G_END_DECLS

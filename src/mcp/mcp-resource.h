/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-item.h"

G_BEGIN_DECLS

#define MCP_TYPE_RESOURCE (mcp_resource_get_type ())

G_DECLARE_FINAL_TYPE (McpResource, mcp_resource, MCP, RESOURCE, McpItem)

McpResource *mcp_resource_new      (JsonObject   *json,
                                    GError      **error);
const char  *mcp_resource_get_uri  (McpResource  *self);
gint64       mcp_resource_get_size (McpResource  *self);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-tool"

#include "config.h"

#include "mcp-json-private.h"
#include "mcp-tool.h"

struct _McpTool
{
  McpItem parent_instance;
};

G_DEFINE_FINAL_TYPE (McpTool, mcp_tool, MCP_TYPE_ITEM)

static void
mcp_tool_class_init (McpToolClass *klass)
{
  MCP_ITEM_CLASS (klass)->key_member = "name";
}

static void
mcp_tool_init (McpTool *self)
{
}

McpTool *
mcp_tool_new (JsonObject  *json,
              GError     **error)
{
  return mcp_item_new_for_type (MCP_TYPE_TOOL, json, error);
}

JsonObject *
mcp_tool_get_input_schema (McpTool *self)
{
  g_return_val_if_fail (MCP_IS_TOOL (self), NULL);

  return mcp_json_get_object (mcp_item_get_json (MCP_ITEM (self)), "inputSchema");
}

JsonObject *
mcp_tool_get_output_schema (McpTool *self)
{
  g_return_val_if_fail (MCP_IS_TOOL (self), NULL);

  return mcp_json_get_object (mcp_item_get_json (MCP_ITEM (self)), "outputSchema");
}

static gboolean
get_hint (McpTool    *self,
          const char *hint,
          gboolean    default_value)
{
  JsonObject *annotations = mcp_json_get_object (mcp_item_get_json (MCP_ITEM (self)),
                                                 "annotations");

  return mcp_json_get_boolean (annotations, hint, default_value);
}

/* The defaults are the specification's: assume the worst of a tool that
 * says nothing about itself. */
gboolean
mcp_tool_get_read_only_hint (McpTool *self)
{
  g_return_val_if_fail (MCP_IS_TOOL (self), FALSE);

  return get_hint (self, "readOnlyHint", FALSE);
}

gboolean
mcp_tool_get_destructive_hint (McpTool *self)
{
  g_return_val_if_fail (MCP_IS_TOOL (self), TRUE);

  return get_hint (self, "destructiveHint", TRUE);
}

gboolean
mcp_tool_get_idempotent_hint (McpTool *self)
{
  g_return_val_if_fail (MCP_IS_TOOL (self), FALSE);

  return get_hint (self, "idempotentHint", FALSE);
}

gboolean
mcp_tool_get_open_world_hint (McpTool *self)
{
  g_return_val_if_fail (MCP_IS_TOOL (self), TRUE);

  return get_hint (self, "openWorldHint", TRUE);
}

/**
 * mcp_tool_get_task_support:
 *
 * Returns: "forbidden", "optional" or "required" (2025-11-25 tasks)
 */
const char *
mcp_tool_get_task_support (McpTool *self)
{
  JsonObject *execution;
  const char *support;

  g_return_val_if_fail (MCP_IS_TOOL (self), "forbidden");

  execution = mcp_json_get_object (mcp_item_get_json (MCP_ITEM (self)), "execution");
  support = mcp_json_get_string (execution, "taskSupport");

  return support ? support : "forbidden";
}

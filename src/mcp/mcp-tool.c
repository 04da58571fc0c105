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

static JsonObject *
get_ui_meta (McpTool *self)
{
  JsonObject *meta = mcp_json_get_object (mcp_item_get_json (MCP_ITEM (self)), "_meta");

  return mcp_json_get_object (meta, "ui");
}

/* Only a `ui://` address names a view; anything else would be fetched
 * from a place no one reviewed. */
const char *
mcp_tool_get_ui_resource_uri (McpTool *self)
{
  JsonObject *meta;
  const char *uri;

  g_return_val_if_fail (MCP_IS_TOOL (self), NULL);

  uri = mcp_json_get_string (get_ui_meta (self), "resourceUri");
  if (uri == NULL)
    {
      meta = mcp_json_get_object (mcp_item_get_json (MCP_ITEM (self)), "_meta");
      uri = mcp_json_get_string (meta, "ui/resourceUri");
    }

  return uri != NULL && g_str_has_prefix (uri, "ui://") && uri[5] != '\0' ? uri : NULL;
}

/* A lone name is read as a list of one, so that a server that wrote
 * "app" still keeps the tool from the model; any other shape reads as the
 * default, both. */
static gboolean
get_visible_to (McpTool    *self,
                const char *audience)
{
  JsonObject *ui = get_ui_meta (self);
  JsonNode *node = ui != NULL ? json_object_get_member (ui, "visibility") : NULL;
  JsonArray *visibility;
  guint n;

  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
      json_node_get_value_type (node) == G_TYPE_STRING)
    return g_strcmp0 (json_node_get_string (node), audience) == 0;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return TRUE;

  visibility = json_node_get_array (node);
  n = json_array_get_length (visibility);
  for (guint i = 0; i < n; i++)
    {
      JsonNode *element = json_array_get_element (visibility, i);

      if (JSON_NODE_HOLDS_VALUE (element) && json_node_get_value_type (element) == G_TYPE_STRING &&
          g_strcmp0 (json_node_get_string (element), audience) == 0)
        return TRUE;
    }

  return FALSE;
}

gboolean
mcp_tool_get_visible_to_model (McpTool *self)
{
  g_return_val_if_fail (MCP_IS_TOOL (self), TRUE);

  return get_visible_to (self, "model");
}

gboolean
mcp_tool_get_visible_to_app (McpTool *self)
{
  g_return_val_if_fail (MCP_IS_TOOL (self), TRUE);

  return get_visible_to (self, "app");
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-resource"

#include "config.h"

#include "mcp-json-private.h"
#include "mcp-resource.h"

struct _McpResource
{
  McpItem parent_instance;
};

G_DEFINE_FINAL_TYPE (McpResource, mcp_resource, MCP_TYPE_ITEM)

static void
mcp_resource_class_init (McpResourceClass *klass)
{
  MCP_ITEM_CLASS (klass)->key_member = "uri";
}

static void
mcp_resource_init (McpResource *self)
{
}

McpResource *
mcp_resource_new (JsonObject  *json,
                  GError     **error)
{
  return mcp_item_new_for_type (MCP_TYPE_RESOURCE, json, error);
}

const char *
mcp_resource_get_uri (McpResource *self)
{
  g_return_val_if_fail (MCP_IS_RESOURCE (self), NULL);

  return mcp_item_get_key (MCP_ITEM (self));
}

/**
 * mcp_resource_get_size:
 *
 * Returns: the size in bytes the server announced, or -1
 */
gint64
mcp_resource_get_size (McpResource *self)
{
  JsonObject *json;

  g_return_val_if_fail (MCP_IS_RESOURCE (self), -1);

  json = mcp_item_get_json (MCP_ITEM (self));
  if (!mcp_json_has_number (json, "size"))
    return -1;

  return (gint64) mcp_json_get_number (json, "size", -1);
}

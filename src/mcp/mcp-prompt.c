/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-prompt"

#include "config.h"

#include "mcp-json-private.h"
#include "mcp-prompt.h"

struct _McpPrompt
{
  McpItem parent_instance;
};

G_DEFINE_FINAL_TYPE (McpPrompt, mcp_prompt, MCP_TYPE_ITEM)

static void
mcp_prompt_class_init (McpPromptClass *klass)
{
  MCP_ITEM_CLASS (klass)->key_member = "name";
}

static void
mcp_prompt_init (McpPrompt *self)
{
}

McpPrompt *
mcp_prompt_new (JsonObject  *json,
                GError     **error)
{
  return mcp_item_new_for_type (MCP_TYPE_PROMPT, json, error);
}

static JsonArray *
get_arguments (McpPrompt *self)
{
  return mcp_json_get_array (mcp_item_get_json (MCP_ITEM (self)), "arguments");
}

static JsonObject *
get_argument (McpPrompt *self,
              guint      index)
{
  JsonArray *arguments = get_arguments (self);
  JsonNode *node;

  if (arguments == NULL || index >= json_array_get_length (arguments))
    return NULL;

  node = json_array_get_element (arguments, index);
  return JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

guint
mcp_prompt_get_n_arguments (McpPrompt *self)
{
  JsonArray *arguments;

  g_return_val_if_fail (MCP_IS_PROMPT (self), 0);

  arguments = get_arguments (self);
  return arguments ? json_array_get_length (arguments) : 0;
}

const char *
mcp_prompt_get_argument_name (McpPrompt *self,
                              guint      index)
{
  g_return_val_if_fail (MCP_IS_PROMPT (self), NULL);

  return mcp_json_get_string (get_argument (self, index), "name");
}

const char *
mcp_prompt_get_argument_description (McpPrompt *self,
                                     guint      index)
{
  g_return_val_if_fail (MCP_IS_PROMPT (self), NULL);

  return mcp_json_get_string (get_argument (self, index), "description");
}

gboolean
mcp_prompt_get_argument_required (McpPrompt *self,
                                  guint      index)
{
  g_return_val_if_fail (MCP_IS_PROMPT (self), FALSE);

  return mcp_json_get_boolean (get_argument (self, index), "required", FALSE);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-tool-result"

#include "config.h"

#include "mcp-json-private.h"
#include "mcp-tool-result.h"

struct _McpToolResult
{
  GObject     parent_instance;

  JsonObject *json;
  GPtrArray  *content;
};

G_DEFINE_FINAL_TYPE (McpToolResult, mcp_tool_result, G_TYPE_OBJECT)

static void
mcp_tool_result_finalize (GObject *object)
{
  McpToolResult *self = MCP_TOOL_RESULT (object);

  g_clear_pointer (&self->json, json_object_unref);
  g_clear_pointer (&self->content, g_ptr_array_unref);

  G_OBJECT_CLASS (mcp_tool_result_parent_class)->finalize (object);
}

static void
mcp_tool_result_class_init (McpToolResultClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = mcp_tool_result_finalize;
}

static void
mcp_tool_result_init (McpToolResult *self)
{
}

/**
 * mcp_tool_result_new:
 * @json: a `tools/call` result
 */
McpToolResult *
mcp_tool_result_new (JsonObject *json)
{
  McpToolResult *self;

  g_return_val_if_fail (json != NULL, NULL);

  self = g_object_new (MCP_TYPE_TOOL_RESULT, NULL);
  self->json = json_object_ref (json);
  self->content = mcp_content_array_from_json (json_object_get_member (json, "content"));

  return self;
}

JsonObject *
mcp_tool_result_get_json (McpToolResult *self)
{
  g_return_val_if_fail (MCP_IS_TOOL_RESULT (self), NULL);

  return self->json;
}

/**
 * mcp_tool_result_get_content:
 *
 * Returns: (transfer none) (element-type McpContent): the content blocks
 */
GPtrArray *
mcp_tool_result_get_content (McpToolResult *self)
{
  g_return_val_if_fail (MCP_IS_TOOL_RESULT (self), NULL);

  return self->content;
}

JsonNode *
mcp_tool_result_get_structured_content (McpToolResult *self)
{
  g_return_val_if_fail (MCP_IS_TOOL_RESULT (self), NULL);

  return json_object_get_member (self->json, "structuredContent");
}

gboolean
mcp_tool_result_get_is_error (McpToolResult *self)
{
  g_return_val_if_fail (MCP_IS_TOOL_RESULT (self), FALSE);

  return mcp_json_get_boolean (self->json, "isError", FALSE);
}

/**
 * mcp_tool_result_dup_text:
 *
 * Returns: the text blocks joined by newlines
 */
char *
mcp_tool_result_dup_text (McpToolResult *self)
{
  GString *text = g_string_new (NULL);

  g_return_val_if_fail (MCP_IS_TOOL_RESULT (self), NULL);

  for (guint i = 0; i < self->content->len; i++)
    {
      McpContent *content = g_ptr_array_index (self->content, i);

      if (mcp_content_get_content_type (content) != MCP_CONTENT_TEXT)
        continue;
      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, mcp_content_get_text (content));
    }

  return g_string_free (text, FALSE);
}

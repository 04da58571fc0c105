/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-prompt-result"

#include "config.h"

#include "mcp-json-private.h"
#include "mcp-prompt-result.h"

struct _McpPromptResult
{
  GObject     parent_instance;

  JsonObject *json;
  GPtrArray  *roles;
  GPtrArray  *contents;
};

G_DEFINE_FINAL_TYPE (McpPromptResult, mcp_prompt_result, G_TYPE_OBJECT)

static void
mcp_prompt_result_finalize (GObject *object)
{
  McpPromptResult *self = MCP_PROMPT_RESULT (object);

  g_clear_pointer (&self->json, json_object_unref);
  g_clear_pointer (&self->roles, g_ptr_array_unref);
  g_clear_pointer (&self->contents, g_ptr_array_unref);

  G_OBJECT_CLASS (mcp_prompt_result_parent_class)->finalize (object);
}

static void
mcp_prompt_result_class_init (McpPromptResultClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = mcp_prompt_result_finalize;
}

static void
mcp_prompt_result_init (McpPromptResult *self)
{
  self->roles = g_ptr_array_new_with_free_func (g_free);
  self->contents = g_ptr_array_new_with_free_func (g_object_unref);
}

/**
 * mcp_prompt_result_new:
 * @json: a `prompts/get` result
 *
 * Messages that are not objects with a content object are skipped.
 */
McpPromptResult *
mcp_prompt_result_new (JsonObject *json)
{
  McpPromptResult *self;
  JsonArray *messages;

  g_return_val_if_fail (json != NULL, NULL);

  self = g_object_new (MCP_TYPE_PROMPT_RESULT, NULL);
  self->json = json_object_ref (json);

  messages = mcp_json_get_array (json, "messages");
  for (guint i = 0; messages != NULL && i < json_array_get_length (messages); i++)
    {
      JsonNode *node = json_array_get_element (messages, i);
      JsonObject *message = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      JsonObject *content = mcp_json_get_object (message, "content");
      const char *role = mcp_json_get_string (message, "role");

      if (content == NULL)
        continue;

      g_ptr_array_add (self->roles, g_strdup (role ? role : "user"));
      g_ptr_array_add (self->contents, mcp_content_new (content));
    }

  return self;
}

JsonObject *
mcp_prompt_result_get_json (McpPromptResult *self)
{
  g_return_val_if_fail (MCP_IS_PROMPT_RESULT (self), NULL);

  return self->json;
}

const char *
mcp_prompt_result_get_description (McpPromptResult *self)
{
  g_return_val_if_fail (MCP_IS_PROMPT_RESULT (self), NULL);

  return mcp_json_get_string (self->json, "description");
}

guint
mcp_prompt_result_get_n_messages (McpPromptResult *self)
{
  g_return_val_if_fail (MCP_IS_PROMPT_RESULT (self), 0);

  return self->contents->len;
}

const char *
mcp_prompt_result_get_message_role (McpPromptResult *self,
                                    guint            index)
{
  g_return_val_if_fail (MCP_IS_PROMPT_RESULT (self), NULL);
  g_return_val_if_fail (index < self->roles->len, NULL);

  return g_ptr_array_index (self->roles, index);
}

McpContent *
mcp_prompt_result_get_message_content (McpPromptResult *self,
                                       guint            index)
{
  g_return_val_if_fail (MCP_IS_PROMPT_RESULT (self), NULL);
  g_return_val_if_fail (index < self->contents->len, NULL);

  return g_ptr_array_index (self->contents, index);
}

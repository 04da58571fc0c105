/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-sampling-request"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-sampling-request.h"

/* A whole number, also when written as 100.0. */
static gboolean
get_integer (JsonObject *object,
             const char *member,
             gint64     *value)
{
  JsonNode *node = object ? json_object_get_member (object, member) : NULL;
  double d;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;

  switch (json_node_get_value_type (node))
    {
    case G_TYPE_INT64:
      *value = json_node_get_int (node);
      return TRUE;

    case G_TYPE_DOUBLE:
      d = json_node_get_double (node);
      if (!(d >= -9.0e15 && d <= 9.0e15) || d != (double) (gint64) d)
        return FALSE;
      *value = (gint64) d;
      return TRUE;

    default:
      return FALSE;
    }
}

/* The text blocks of a content, single or array; other blocks (images,
 * audio, tool use) count for nothing here. */
static void
append_content_text (GString  *out,
                     JsonNode *content)
{
  if (content == NULL)
    return;

  if (JSON_NODE_HOLDS_ARRAY (content))
    {
      JsonArray *blocks = json_node_get_array (content);

      for (guint i = 0; i < json_array_get_length (blocks); i++)
        append_content_text (out, json_array_get_element (blocks, i));
      return;
    }

  if (JSON_NODE_HOLDS_OBJECT (content))
    {
      JsonObject *block = json_node_get_object (content);
      const char *text = mcp_json_get_string (block, "text");

      if (g_strcmp0 (mcp_json_get_string (block, "type"), "text") == 0 && text != NULL)
        {
          if (out->len > 0)
            g_string_append_c (out, '\n');
          g_string_append (out, text);
        }
    }
}

char *
mcp_sampling_content_dup_text (JsonNode *content)
{
  GString *out = g_string_new (NULL);

  append_content_text (out, content);
  return g_string_free (out, FALSE);
}

/* A content is one block or an array of them (2025-11-25). */
guint
mcp_sampling_content_get_n_blocks (JsonNode *content)
{
  if (content != NULL && JSON_NODE_HOLDS_ARRAY (content))
    return json_array_get_length (json_node_get_array (content));

  return content != NULL && JSON_NODE_HOLDS_OBJECT (content) ? 1 : 0;
}

JsonObject *
mcp_sampling_content_get_block (JsonNode *content,
                                guint     index)
{
  JsonNode *node = content;

  if (JSON_NODE_HOLDS_ARRAY (content))
    node = json_array_get_element (json_node_get_array (content), index);

  return JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

static JsonNode *
get_content (JsonArray *messages,
             guint      index)
{
  JsonNode *node = json_array_get_element (messages, index);

  return json_object_get_member (json_node_get_object (node), "content");
}

static gboolean
has_tool_result (JsonNode   *content,
                 const char *id)
{
  for (guint i = 0; i < mcp_sampling_content_get_n_blocks (content); i++)
    {
      JsonObject *block = mcp_sampling_content_get_block (content, i);

      if (g_strcmp0 (mcp_json_get_string (block, "type"), "tool_result") == 0 &&
          g_strcmp0 (mcp_json_get_string (block, "toolUseId"), id) == 0)
        return TRUE;
    }

  return FALSE;
}

/* Sampling with tools (2025-11-25): a user message with tool results
 * holds nothing else, and every tool use of an assistant message has its
 * result in the message after it. The errors are the specification's. */
static gboolean
validate_tool_messages (JsonArray  *messages,
                        GError    **error)
{
  guint n_messages = json_array_get_length (messages);

  for (guint i = 0; i < n_messages; i++)
    {
      JsonNode *content = get_content (messages, i);
      gboolean user = g_strcmp0 (mcp_json_get_string (json_array_get_object_element (messages, i),
                                             "role"), "user") == 0;
      guint n_results = 0;
      guint n_uses = 0;
      guint n_blocks = mcp_sampling_content_get_n_blocks (content);

      for (guint j = 0; j < n_blocks; j++)
        {
          JsonObject *block = mcp_sampling_content_get_block (content, j);
          const char *type = mcp_json_get_string (block, "type");

          if (g_strcmp0 (type, "tool_result") == 0)
            {
              if (mcp_json_get_string (block, "toolUseId") == NULL)
                {
                  g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                               _("A tool result in “messages[%u]” has no “toolUseId”"), i);
                  return FALSE;
                }
              n_results++;
            }
          else if (g_strcmp0 (type, "tool_use") == 0)
            {
              if (mcp_json_get_string (block, "id") == NULL ||
                  mcp_json_get_string (block, "name") == NULL)
                {
                  g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                               _("A tool use in “messages[%u]” needs an “id” and a “name”"),
                               i);
                  return FALSE;
                }
              n_uses++;
            }
        }

      if (n_results > 0 && (!user || n_results != n_blocks))
        {
          g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                               _("Tool results mixed with other content"));
          return FALSE;
        }

      if (n_uses == 0 || user)
        continue;

      for (guint j = 0; j < n_blocks; j++)
        {
          JsonObject *block = mcp_sampling_content_get_block (content, j);

          if (g_strcmp0 (mcp_json_get_string (block, "type"), "tool_use") != 0)
            continue;

          if (i + 1 >= n_messages ||
              !has_tool_result (get_content (messages, i + 1), mcp_json_get_string (block, "id")))
            {
              g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                                   _("Tool result missing in request"));
              return FALSE;
            }
        }
    }

  return TRUE;
}

static gboolean
validate_tools (JsonObject  *params,
                GError     **error)
{
  JsonNode *tools = json_object_get_member (params, "tools");
  JsonNode *choice = json_object_get_member (params, "toolChoice");
  const char *mode;

  if (tools != NULL && !JSON_NODE_HOLDS_NULL (tools))
    {
      JsonArray *array = JSON_NODE_HOLDS_ARRAY (tools) ? json_node_get_array (tools) : NULL;

      for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
        {
          JsonNode *tool = json_array_get_element (array, i);

          if (!JSON_NODE_HOLDS_OBJECT (tool) ||
              mcp_json_get_string (json_node_get_object (tool), "name") == NULL)
            array = NULL;
        }

      if (array == NULL)
        {
          g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                               _("“tools” must be an array of tools, each with a “name”"));
          return FALSE;
        }
    }

  if (choice != NULL && !JSON_NODE_HOLDS_NULL (choice))
    {
      mode = JSON_NODE_HOLDS_OBJECT (choice)
             ? mcp_json_get_string (json_node_get_object (choice), "mode")
             : NULL;
      if (!JSON_NODE_HOLDS_OBJECT (choice) ||
          (json_object_has_member (json_node_get_object (choice), "mode") &&
           g_strcmp0 (mode, "auto") != 0 && g_strcmp0 (mode, "required") != 0 &&
           g_strcmp0 (mode, "none") != 0))
        {
          g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                               _("“toolChoice” must be an object whose “mode” is “auto”, "
                                 "“required” or “none”"));
          return FALSE;
        }
    }

  return TRUE;
}

gboolean
mcp_sampling_request_validate (JsonObject  *params,
                               GError     **error)
{
  JsonArray *messages = mcp_json_get_array (params, "messages");
  JsonNode *system_prompt;
  gint64 max_tokens;

  if (messages == NULL)
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                           _("The sampling request has no “messages” array"));
      return FALSE;
    }

  if (json_array_get_length (messages) == 0)
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                           _("The sampling request’s “messages” array is empty"));
      return FALSE;
    }

  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      JsonNode *node = json_array_get_element (messages, i);
      JsonObject *message;
      const char *role;
      JsonNode *content;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                       _("“messages[%u]” must be an object"), i);
          return FALSE;
        }

      message = json_node_get_object (node);
      role = mcp_json_get_string (message, "role");
      if (g_strcmp0 (role, "user") != 0 && g_strcmp0 (role, "assistant") != 0)
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                       _("“messages[%u].role” must be “user” or “assistant”"), i);
          return FALSE;
        }

      content = json_object_get_member (message, "content");
      if (content == NULL || !(JSON_NODE_HOLDS_OBJECT (content) || JSON_NODE_HOLDS_ARRAY (content)))
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                       _("“messages[%u].content” must be a content block or an array of them"),
                       i);
          return FALSE;
        }
    }

  if (!get_integer (params, "maxTokens", &max_tokens) || max_tokens <= 0)
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                           _("“maxTokens” must be a whole number greater than 0"));
      return FALSE;
    }

  system_prompt = json_object_get_member (params, "systemPrompt");
  if (system_prompt != NULL && !JSON_NODE_HOLDS_NULL (system_prompt) &&
      mcp_json_get_string (params, "systemPrompt") == NULL)
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                           _("“systemPrompt” must be a string"));
      return FALSE;
    }

  return validate_tool_messages (messages, error) && validate_tools (params, error);
}

/* Whether the request's last message brings tool results: a round of a
 * tool loop the server runs through sampling. */
gboolean
mcp_sampling_request_is_tool_round (JsonObject *params)
{
  JsonArray *messages = mcp_json_get_array (params, "messages");
  guint n = messages ? json_array_get_length (messages) : 0;
  JsonNode *last = n > 0 ? json_array_get_element (messages, n - 1) : NULL;
  JsonNode *content;

  if (last == NULL || !JSON_NODE_HOLDS_OBJECT (last))
    return FALSE;

  content = json_object_get_member (json_node_get_object (last), "content");
  for (guint i = 0; i < mcp_sampling_content_get_n_blocks (content); i++)
    {
      JsonObject *block = mcp_sampling_content_get_block (content, i);

      if (g_strcmp0 (mcp_json_get_string (block, "type"), "tool_result") == 0)
        return TRUE;
    }

  return FALSE;
}

gboolean
mcp_sampling_result_validate (JsonObject  *result,
                              GError     **error)
{
  JsonNode *content = json_object_get_member (result, "content");
  gboolean valid = FALSE;

  if (g_strcmp0 (mcp_json_get_string (result, "role"), "assistant") != 0)
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INTERNAL_ERROR,
                           _("The answer must have the role “assistant”"));
      return FALSE;
    }

  if (content != NULL && JSON_NODE_HOLDS_OBJECT (content))
    valid = mcp_json_get_string (json_node_get_object (content), "type") != NULL;
  else if (content != NULL && JSON_NODE_HOLDS_ARRAY (content))
    {
      JsonArray *blocks = json_node_get_array (content);

      valid = json_array_get_length (blocks) > 0;
      for (guint i = 0; valid && i < json_array_get_length (blocks); i++)
        {
          JsonNode *block = json_array_get_element (blocks, i);

          valid = JSON_NODE_HOLDS_OBJECT (block) &&
                  mcp_json_get_string (json_node_get_object (block), "type") != NULL;
        }
    }

  if (!valid)
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INTERNAL_ERROR,
                           _("The answer has no content to send"));
      return FALSE;
    }

  return TRUE;
}

gboolean
mcp_elicitation_request_validate (JsonObject  *params,
                                  gboolean    *url_mode,
                                  GError     **error)
{
  const char *mode = mcp_json_get_string (params, "mode");
  JsonNode *mode_node = params ? json_object_get_member (params, "mode") : NULL;
  JsonObject *schema;

  if (params == NULL)
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                           _("The elicitation request has no params"));
      return FALSE;
    }

  if (mcp_json_get_string (params, "message") == NULL)
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                           _("The elicitation request has no “message” string"));
      return FALSE;
    }

  if (mode_node != NULL && mode == NULL)
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                           _("The elicitation request’s “mode” must be a string"));
      return FALSE;
    }

  if (g_strcmp0 (mode, "url") == 0)
    {
      *url_mode = TRUE;
      if (mcp_json_get_string (params, "url") == NULL)
        {
          g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                               _("The URL elicitation request has no “url” string"));
          return FALSE;
        }
      if (mcp_json_get_string (params, "elicitationId") == NULL)
        {
          g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                               _("The URL elicitation request has no “elicitationId” string"));
          return FALSE;
        }
      return TRUE;
    }

  if (mode != NULL && !g_str_equal (mode, "form"))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                   _("The elicitation mode “%s” is not one Steward knows"), mode);
      return FALSE;
    }

  *url_mode = FALSE;
  schema = mcp_json_get_object (params, "requestedSchema");
  if (schema == NULL)
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                           _("The elicitation request has no “requestedSchema” object"));
      return FALSE;
    }

  if (g_strcmp0 (mcp_json_get_string (schema, "type"), "object") != 0)
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                           _("“requestedSchema.type” must be “object”"));
      return FALSE;
    }

  if (mcp_json_get_object (schema, "properties") == NULL)
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                           _("“requestedSchema.properties” must be an object"));
      return FALSE;
    }

  return TRUE;
}


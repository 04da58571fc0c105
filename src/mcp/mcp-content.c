/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-content"

#include "config.h"

#include <string.h>

#include "mcp-content.h"
#include "mcp-error.h"
#include "mcp-json-private.h"

struct _McpContent
{
  GObject         parent_instance;

  JsonObject     *json;
  McpContentType  type;
  McpContent     *resource;
};

G_DEFINE_FINAL_TYPE (McpContent, mcp_content, G_TYPE_OBJECT)

static const struct {
  const char     *name;
  McpContentType  type;
} type_names[] = {
  { "text",          MCP_CONTENT_TEXT },
  { "image",         MCP_CONTENT_IMAGE },
  { "audio",         MCP_CONTENT_AUDIO },
  { "resource_link", MCP_CONTENT_RESOURCE_LINK },
  { "resource",      MCP_CONTENT_RESOURCE },
  { "tool_use",      MCP_CONTENT_TOOL_USE },
  { "tool_result",   MCP_CONTENT_TOOL_RESULT },
};

static void
mcp_content_finalize (GObject *object)
{
  McpContent *self = MCP_CONTENT (object);

  g_clear_pointer (&self->json, json_object_unref);
  g_clear_object (&self->resource);

  G_OBJECT_CLASS (mcp_content_parent_class)->finalize (object);
}

static void
mcp_content_class_init (McpContentClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = mcp_content_finalize;
}

static void
mcp_content_init (McpContent *self)
{
}

/**
 * mcp_content_new:
 * @json: a content block as the server sent it
 */
McpContent *
mcp_content_new (JsonObject *json)
{
  McpContent *self;
  const char *type;

  g_return_val_if_fail (json != NULL, NULL);

  self = g_object_new (MCP_TYPE_CONTENT, NULL);
  self->json = json_object_ref (json);
  self->type = MCP_CONTENT_UNKNOWN;

  type = mcp_json_get_string (json, "type");
  for (guint i = 0; type != NULL && i < G_N_ELEMENTS (type_names); i++)
    if (g_str_equal (type, type_names[i].name))
      self->type = type_names[i].type;

  if (self->type == MCP_CONTENT_RESOURCE)
    {
      JsonObject *resource = mcp_json_get_object (json, "resource");

      if (resource != NULL)
        self->resource = mcp_content_new_for_resource (resource);
    }

  return self;
}

/**
 * mcp_content_new_for_resource:
 * @json: text or blob resource contents (`uri`, `mimeType`, `text`|`blob`)
 *
 * Contents of a resource read, or inside an embedded resource, typed as
 * text or, when they carry a blob, as %MCP_CONTENT_RESOURCE with data.
 */
McpContent *
mcp_content_new_for_resource (JsonObject *json)
{
  McpContent *self;

  g_return_val_if_fail (json != NULL, NULL);

  self = g_object_new (MCP_TYPE_CONTENT, NULL);
  self->json = json_object_ref (json);
  self->type = json_object_has_member (json, "blob") ? MCP_CONTENT_RESOURCE : MCP_CONTENT_TEXT;

  return self;
}

/**
 * mcp_content_array_from_json:
 * @node: (nullable): one content block or an array of them (sampling
 *   messages may carry either since 2025-11-25)
 *
 * Returns: (transfer full) (element-type McpContent): the blocks; entries
 *   that are not objects are skipped
 */
GPtrArray *
mcp_content_array_from_json (JsonNode *node)
{
  GPtrArray *array = g_ptr_array_new_with_free_func (g_object_unref);

  if (node == NULL)
    return array;

  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      g_ptr_array_add (array, mcp_content_new (json_node_get_object (node)));
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *elements = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (elements); i++)
        {
          JsonNode *element = json_array_get_element (elements, i);

          if (JSON_NODE_HOLDS_OBJECT (element))
            g_ptr_array_add (array, mcp_content_new (json_node_get_object (element)));
        }
    }

  return array;
}

McpContentType
mcp_content_get_content_type (McpContent *self)
{
  g_return_val_if_fail (MCP_IS_CONTENT (self), MCP_CONTENT_UNKNOWN);

  return self->type;
}

const char *
mcp_content_get_type_name (McpContent *self)
{
  const char *type;

  g_return_val_if_fail (MCP_IS_CONTENT (self), NULL);

  type = mcp_json_get_string (self->json, "type");
  if (type != NULL)
    return type;

  return self->type == MCP_CONTENT_RESOURCE ? "blob" : "text";
}

JsonObject *
mcp_content_get_json (McpContent *self)
{
  g_return_val_if_fail (MCP_IS_CONTENT (self), NULL);

  return self->json;
}

const char *
mcp_content_get_text (McpContent *self)
{
  g_return_val_if_fail (MCP_IS_CONTENT (self), NULL);

  if (self->resource != NULL)
    return mcp_content_get_text (self->resource);

  return mcp_json_get_string (self->json, "text");
}

const char *
mcp_content_get_mime_type (McpContent *self)
{
  g_return_val_if_fail (MCP_IS_CONTENT (self), NULL);

  if (self->resource != NULL)
    return mcp_content_get_mime_type (self->resource);

  return mcp_json_get_string (self->json, "mimeType");
}

const char *
mcp_content_get_uri (McpContent *self)
{
  g_return_val_if_fail (MCP_IS_CONTENT (self), NULL);

  if (self->resource != NULL)
    return mcp_content_get_uri (self->resource);

  return mcp_json_get_string (self->json, "uri");
}

const char *
mcp_content_get_name (McpContent *self)
{
  g_return_val_if_fail (MCP_IS_CONTENT (self), NULL);

  return mcp_json_get_string (self->json, "name");
}

static const char *
get_base64 (McpContent *self)
{
  const char *data;

  if (self->resource != NULL)
    return get_base64 (self->resource);

  data = mcp_json_get_string (self->json, "data");
  return data ? data : mcp_json_get_string (self->json, "blob");
}

/**
 * mcp_content_is_blob:
 *
 * Returns: whether the block carries base64 data (an image, audio, or a
 *   blob resource) rather than text
 */
gboolean
mcp_content_is_blob (McpContent *self)
{
  g_return_val_if_fail (MCP_IS_CONTENT (self), FALSE);

  return get_base64 (self) != NULL;
}

/**
 * mcp_content_dup_data:
 *
 * Decodes the base64 data of an image, audio or blob.
 *
 * Returns: (transfer full) (nullable): the bytes, or %NULL with an error
 *   when there is no data or it is not base64
 */
GBytes *
mcp_content_dup_data (McpContent  *self,
                      GError     **error)
{
  const char *base64;
  guchar *data;
  gsize length = 0;

  g_return_val_if_fail (MCP_IS_CONTENT (self), NULL);

  base64 = get_base64 (self);
  if (base64 == NULL)
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           "the content carries no data");
      return NULL;
    }

  /* g_base64_decode skips what is not base64, so check the alphabet first
   * and say so instead of handing out garbage. */
  for (const char *p = base64; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '+' && *p != '/' && *p != '=' &&
        *p != '\n' && *p != '\r')
      {
        g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                             "the content's data is not valid base64");
        return NULL;
      }

  data = g_base64_decode (base64, &length);
  return g_bytes_new_take (data, length);
}

/**
 * mcp_content_get_data_size:
 *
 * Returns: the decoded size of the data, computed without decoding it
 */
gsize
mcp_content_get_data_size (McpContent *self)
{
  const char *base64;
  gsize length;
  gsize padding = 0;

  g_return_val_if_fail (MCP_IS_CONTENT (self), 0);

  base64 = get_base64 (self);
  if (base64 == NULL)
    return 0;

  length = strlen (base64);
  while (length > padding && base64[length - 1 - padding] == '=')
    padding++;

  return (length / 4) * 3 + ((length % 4) ? (length % 4) - 1 : 0) - MIN (padding, 2);
}

McpContent *
mcp_content_get_resource (McpContent *self)
{
  g_return_val_if_fail (MCP_IS_CONTENT (self), NULL);

  return self->resource;
}

static JsonObject *
get_annotations (McpContent *self)
{
  return mcp_json_get_object (self->json, "annotations");
}

JsonArray *
mcp_content_get_audience (McpContent *self)
{
  g_return_val_if_fail (MCP_IS_CONTENT (self), NULL);

  return mcp_json_get_array (get_annotations (self), "audience");
}

/**
 * mcp_content_get_priority:
 *
 * Returns: the annotated priority from 0 to 1, or -1 when none was given
 */
double
mcp_content_get_priority (McpContent *self)
{
  g_return_val_if_fail (MCP_IS_CONTENT (self), -1);

  return mcp_json_get_number (get_annotations (self), "priority", -1);
}

const char *
mcp_content_get_last_modified (McpContent *self)
{
  g_return_val_if_fail (MCP_IS_CONTENT (self), NULL);

  return mcp_json_get_string (get_annotations (self), "lastModified");
}

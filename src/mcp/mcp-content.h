/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef enum {
  MCP_CONTENT_UNKNOWN,
  MCP_CONTENT_TEXT,
  MCP_CONTENT_IMAGE,
  MCP_CONTENT_AUDIO,
  MCP_CONTENT_RESOURCE_LINK,
  MCP_CONTENT_RESOURCE,
  MCP_CONTENT_TOOL_USE,
  MCP_CONTENT_TOOL_RESULT,
} McpContentType;

#define MCP_TYPE_CONTENT (mcp_content_get_type ())

G_DECLARE_FINAL_TYPE (McpContent, mcp_content, MCP, CONTENT, GObject)

/**
 * McpContent:
 *
 * One content block (of a tool result, a prompt message, a sampling
 * message) or one entry of a resource read: the text or base64 data it
 * carries, its MIME type, URI and annotations. Unknown block types are kept
 * as %MCP_CONTENT_UNKNOWN with their JSON, never dropped.
 */
McpContent      *mcp_content_new                (JsonObject  *json);
McpContent      *mcp_content_new_for_resource   (JsonObject  *json);
GPtrArray       *mcp_content_array_from_json    (JsonNode    *node);

McpContentType   mcp_content_get_content_type   (McpContent  *self);
const char      *mcp_content_get_type_name      (McpContent  *self);
JsonObject      *mcp_content_get_json           (McpContent  *self);
const char      *mcp_content_get_text           (McpContent  *self);
const char      *mcp_content_get_mime_type      (McpContent  *self);
const char      *mcp_content_get_uri            (McpContent  *self);
const char      *mcp_content_get_name           (McpContent  *self);
gboolean         mcp_content_is_blob            (McpContent  *self);
GBytes          *mcp_content_dup_data           (McpContent  *self,
                                                 GError     **error);
gsize            mcp_content_get_data_size      (McpContent  *self);
McpContent      *mcp_content_get_resource       (McpContent  *self);
JsonArray       *mcp_content_get_audience       (McpContent  *self);
double           mcp_content_get_priority       (McpContent  *self);
const char      *mcp_content_get_last_modified  (McpContent  *self);

G_END_DECLS

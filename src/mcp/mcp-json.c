/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-json"

#include "config.h"

#include <string.h>

#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-jsonrpc.h"

static JsonNode *
get_value (JsonObject *object,
           const char *member,
           GType       type)
{
  JsonNode *node;

  if (object == NULL)
    return NULL;

  node = json_object_get_member (object, member);
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != type)
    return NULL;

  return node;
}

const char *
mcp_json_get_string (JsonObject *object,
                     const char *member)
{
  JsonNode *node = get_value (object, member, G_TYPE_STRING);

  return node ? json_node_get_string (node) : NULL;
}

JsonObject *
mcp_json_get_object (JsonObject *object,
                     const char *member)
{
  JsonNode *node = object ? json_object_get_member (object, member) : NULL;

  return (node && JSON_NODE_HOLDS_OBJECT (node)) ? json_node_get_object (node) : NULL;
}

JsonArray *
mcp_json_get_array (JsonObject *object,
                    const char *member)
{
  JsonNode *node = object ? json_object_get_member (object, member) : NULL;

  return (node && JSON_NODE_HOLDS_ARRAY (node)) ? json_node_get_array (node) : NULL;
}

gboolean
mcp_json_get_boolean (JsonObject *object,
                      const char *member,
                      gboolean    default_value)
{
  JsonNode *node = get_value (object, member, G_TYPE_BOOLEAN);

  return node ? json_node_get_boolean (node) : default_value;
}

gboolean
mcp_json_has_number (JsonObject *object,
                     const char *member)
{
  return get_value (object, member, G_TYPE_INT64) != NULL ||
         get_value (object, member, G_TYPE_DOUBLE) != NULL;
}

double
mcp_json_get_number (JsonObject *object,
                     const char *member,
                     double      default_value)
{
  JsonNode *node;

  if ((node = get_value (object, member, G_TYPE_INT64)) != NULL)
    return (double) json_node_get_int (node);
  if ((node = get_value (object, member, G_TYPE_DOUBLE)) != NULL)
    return json_node_get_double (node);

  return default_value;
}

char *
mcp_json_to_string (JsonNode *node,
                    gboolean  pretty)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();

  json_generator_set_pretty (generator, pretty);
  json_generator_set_indent (generator, 2);
  json_generator_set_root (generator, node);

  return json_generator_to_data (generator, NULL);
}

/**
 * mcp_json_from_string:
 *
 * Parses JSON typed by a person or read from a file, with the same depth
 * guard as messages from peers.
 */
JsonNode *
mcp_json_from_string (const char  *text,
                      GError     **error)
{
  g_autoptr(JsonParser) parser = NULL;
  gsize length = strlen (text);

  if (!mcp_jsonrpc_check_text (text, length, MCP_JSONRPC_MAX_DEPTH, error))
    return NULL;

  parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, text, (gssize) length, error))
    return NULL;

  if (json_parser_get_root (parser) == NULL)
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_PARSE_ERROR, "the text is empty");
      return NULL;
    }

  return json_node_copy (json_parser_get_root (parser));
}

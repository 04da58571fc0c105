/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-json-copy"

#include "config.h"

#include "steward-json-copy.h"

static JsonNode *
copy_node (JsonNode *node,
           guint     depth)
{
  JsonNode *copy;

  if (depth > STEWARD_JSON_COPY_MAX_DEPTH)
    return json_node_init_null (json_node_alloc ());

  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *object = json_node_get_object (node);
        g_autoptr(JsonObject) out = json_object_new ();
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;

        json_object_iter_init_ordered (&iter, object);
        while (json_object_iter_next_ordered (&iter, &name, &member))
          json_object_set_member (out, name, copy_node (member, depth + 1));
        return json_node_init_object (json_node_alloc (), out);
      }

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        guint length = json_array_get_length (array);
        g_autoptr(JsonArray) out = json_array_sized_new (length);

        for (guint i = 0; i < length; i++)
          json_array_add_element (out, copy_node (json_array_get_element (array, i), depth + 1));
        return json_node_init_array (json_node_alloc (), out);
      }

    case JSON_NODE_VALUE:
      /* json_node_copy() would share the JsonValue itself. */
      copy = json_node_alloc ();
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_STRING:
          return json_node_init_string (copy, json_node_get_string (node));
        case G_TYPE_INT64:
          return json_node_init_int (copy, json_node_get_int (node));
        case G_TYPE_DOUBLE:
          return json_node_init_double (copy, json_node_get_double (node));
        case G_TYPE_BOOLEAN:
          return json_node_init_boolean (copy, json_node_get_boolean (node));
        default:
          return json_node_init_null (copy);
        }

    case JSON_NODE_NULL:
    default:
      return json_node_init_null (json_node_alloc ());
    }
}

/**
 * steward_json_copy:
 * @node: any JSON node
 *
 * Returns: (transfer full): a copy of @node that shares nothing with it
 */
JsonNode *
steward_json_copy (JsonNode *node)
{
  g_return_val_if_fail (node != NULL, NULL);

  return copy_node (node, 0);
}

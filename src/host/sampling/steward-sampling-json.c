/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-sampling-broker"

#include "config.h"

#include "steward-sampling-json.h"

JsonNode *
steward_sampling_json_copy_node (JsonNode *node)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *source = json_node_get_object (node);
      g_autoptr(JsonObject) copy = json_object_new ();
      JsonObjectIter iter;
      const char *name;
      JsonNode *member;

      json_object_iter_init_ordered (&iter, source);
      while (json_object_iter_next_ordered (&iter, &name, &member))
        json_object_set_member (copy, name, steward_sampling_json_copy_node (member));

      return json_node_init_object (json_node_alloc (), copy);
    }

  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *source = json_node_get_array (node);
      guint length = json_array_get_length (source);
      g_autoptr(JsonArray) copy = json_array_sized_new (length);

      for (guint i = 0; i < length; i++)
        {
          JsonNode *element = json_array_get_element (source, i);

          json_array_add_element (copy, steward_sampling_json_copy_node (element));
        }

      return json_node_init_array (json_node_alloc (), copy);
    }

  return json_node_copy (node);
}

JsonObject *
steward_sampling_json_copy_object (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), object);
  g_autoptr(JsonNode) copy = steward_sampling_json_copy_node (node);

  return json_object_ref (json_node_get_object (copy));
}

gboolean
steward_sampling_json_equal (JsonObject *a,
                             JsonObject *b)
{
  g_autoptr(JsonNode) node_a = json_node_init_object (json_node_alloc (), a);
  g_autoptr(JsonNode) node_b = json_node_init_object (json_node_alloc (), b);

  return json_node_equal (node_a, node_b);
}

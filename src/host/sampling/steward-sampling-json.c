/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-sampling-broker"

#include "config.h"

#include "steward-json-copy.h"

#include "steward-sampling-json.h"

JsonNode *
steward_sampling_json_copy_node (JsonNode *node)
{
  return steward_json_copy (node);
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

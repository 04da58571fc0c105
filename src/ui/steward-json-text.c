/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-json-text"

#include "config.h"

#include "steward-json-text.h"

/**
 * steward_json_to_text:
 * @node: the JSON to show
 *
 * Returns: (transfer full): @node, pretty, with two spaces a level
 */
char *
steward_json_to_text (JsonNode *node)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();

  g_return_val_if_fail (node != NULL, NULL);

  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  json_generator_set_root (generator, node);
  return json_generator_to_data (generator, NULL);
}

/**
 * steward_json_object_to_text:
 * @object: the JSON object to show
 *
 * Returns: (transfer full): @object, pretty, with two spaces a level
 */
char *
steward_json_object_to_text (JsonObject *object)
{
  g_autoptr(JsonNode) node = NULL;

  g_return_val_if_fail (object != NULL, NULL);

  node = json_node_init_object (json_node_alloc (), object);
  return steward_json_to_text (node);
}

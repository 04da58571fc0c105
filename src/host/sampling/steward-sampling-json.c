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
        json_array_add_element (copy, steward_sampling_json_copy_node (json_array_get_element (source, i)));

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

const char *
steward_sampling_json_get_string (JsonObject *object,
                                  const char *member)
{
  JsonNode *node = object ? json_object_get_member (object, member) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (node);
}

JsonObject *
steward_sampling_json_get_object (JsonObject *object,
                                  const char *member)
{
  JsonNode *node = object ? json_object_get_member (object, member) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;

  return json_node_get_object (node);
}

JsonArray *
steward_sampling_json_get_array (JsonObject *object,
                                 const char *member)
{
  JsonNode *node = object ? json_object_get_member (object, member) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;

  return json_node_get_array (node);
}

/* A whole number, also when written as 100.0. */
gboolean
steward_sampling_json_get_integer (JsonObject *object,
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

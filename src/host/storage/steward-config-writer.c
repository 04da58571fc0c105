/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-config"

#include "config.h"

#include "mcp-json.h"

#include "steward-config-private.h"

/* The servers and consents files as people write them by hand, so that
 * a file someone edits keeps its look after Steward saves it. */

static void
append_indent (GString *out,
               guint    depth)
{
  for (guint i = 0; i < depth; i++)
    g_string_append (out, "  ");
}

static void
append_string (GString    *out,
               const char *text)
{
  g_string_append_c (out, '"');
  mcp_json_append_escaped (out, text, TRUE);
  g_string_append_c (out, '"');
}

static void
append_node (GString  *out,
             JsonNode *node,
             guint     depth)
{
  char number[G_ASCII_DTOSTR_BUF_SIZE];
  JsonObjectIter iter;
  const char *name;
  JsonNode *member;
  JsonArray *array;
  gboolean first = TRUE;

  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      g_string_append_c (out, '{');
      json_object_iter_init_ordered (&iter, json_node_get_object (node));
      while (json_object_iter_next_ordered (&iter, &name, &member))
        {
          g_string_append (out, first ? "\n" : ",\n");
          first = FALSE;
          append_indent (out, depth + 1);
          append_string (out, name);
          g_string_append (out, ": ");
          append_node (out, member, depth + 1);
        }
      if (!first)
        {
          g_string_append_c (out, '\n');
          append_indent (out, depth);
        }
      g_string_append_c (out, '}');
      break;

    case JSON_NODE_ARRAY:
      array = json_node_get_array (node);
      g_string_append_c (out, '[');
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          g_string_append (out, i == 0 ? "\n" : ",\n");
          append_indent (out, depth + 1);
          append_node (out, json_array_get_element (array, i), depth + 1);
        }
      if (json_array_get_length (array) > 0)
        {
          g_string_append_c (out, '\n');
          append_indent (out, depth);
        }
      g_string_append_c (out, ']');
      break;

    case JSON_NODE_NULL:
      g_string_append (out, "null");
      break;

    case JSON_NODE_VALUE:
    default:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_STRING:
          append_string (out, json_node_get_string (node));
          break;
        case G_TYPE_BOOLEAN:
          g_string_append (out, json_node_get_boolean (node) ? "true" : "false");
          break;
        case G_TYPE_INT64:
          g_string_append_printf (out, "%" G_GINT64_FORMAT, json_node_get_int (node));
          break;
        default:
          g_string_append (out, g_ascii_dtostr (number, sizeof number,
                                                json_node_get_double (node)));
        }
    }
}

/* Pretty JSON as people write it by hand: two spaces, "name": value, a
 * newline at the end. */
GBytes *
steward_config_object_to_bytes (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  GString *out = g_string_new (NULL);

  json_node_set_object (node, object);
  append_node (out, node, 0);
  g_string_append_c (out, '\n');

  return g_string_free_to_bytes (out);
}

GBytes *
steward_config_serialize_servers (StewardConfig *self)
{
  g_autoptr(JsonObject) root = json_object_new ();
  GListModel *model = G_LIST_MODEL (self->servers);
  JsonObject *servers = json_object_new ();
  gboolean placed = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(StewardServerConfig) server = g_list_model_get_item (model, i);

      json_object_set_object_member (servers, steward_server_config_get_name (server),
                                     json_object_ref (steward_server_config_get_json (server)));
    }

  /* Other members stay where they were, "mcpServers" among them. */
  if (self->root != NULL)
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *member;

      json_object_iter_init_ordered (&iter, self->root);
      while (json_object_iter_next_ordered (&iter, &name, &member))
        {
          if (g_str_equal (name, "mcpServers"))
            {
              json_object_set_object_member (root, name, json_object_ref (servers));
              placed = TRUE;
            }
          else
            json_object_set_member (root, name, json_node_copy (member));
        }
    }

  if (!placed)
    json_object_set_object_member (root, "mcpServers", json_object_ref (servers));

  json_object_unref (servers);
  return steward_config_object_to_bytes (root);
}

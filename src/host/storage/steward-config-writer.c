/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-config"

#include "config.h"

#include "mcp-json-private.h"

#include "steward-config-private.h"

/* The servers and consents files as people write them by hand (two
 * spaces, "name": value, a newline at the end), so that a file someone
 * edits keeps its look after Steward saves it. */
GBytes *
steward_config_object_to_bytes (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), object);
  GString *out = g_string_new (NULL);

  mcp_json_append (out, node, TRUE);
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

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-item"

#include "config.h"

#include "mcp-error.h"
#include "mcp-item.h"
#include "mcp-json-private.h"

typedef struct
{
  JsonObject *json;
} McpItemPrivate;

enum {
  PROP_0,
  PROP_JSON,
  PROP_NAME,
  PROP_TITLE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_TYPE_WITH_PRIVATE (McpItem, mcp_item, G_TYPE_OBJECT)

static void
mcp_item_finalize (GObject *object)
{
  McpItemPrivate *priv = mcp_item_get_instance_private (MCP_ITEM (object));

  g_clear_pointer (&priv->json, json_object_unref);

  G_OBJECT_CLASS (mcp_item_parent_class)->finalize (object);
}

static void
mcp_item_get_property (GObject    *object,
                       guint       prop_id,
                       GValue     *value,
                       GParamSpec *pspec)
{
  McpItem *self = MCP_ITEM (object);
  McpItemPrivate *priv = mcp_item_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_JSON:
      g_value_set_boxed (value, priv->json);
      break;

    case PROP_NAME:
      g_value_set_string (value, mcp_item_get_name (self));
      break;

    case PROP_TITLE:
      g_value_set_string (value, mcp_item_get_title (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_item_set_property (GObject      *object,
                       guint         prop_id,
                       const GValue *value,
                       GParamSpec   *pspec)
{
  McpItemPrivate *priv = mcp_item_get_instance_private (MCP_ITEM (object));

  switch (prop_id)
    {
    case PROP_JSON:
      priv->json = g_value_dup_boxed (value);
      if (priv->json == NULL)
        priv->json = json_object_new ();
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_item_class_init (McpItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = mcp_item_finalize;
  object_class->get_property = mcp_item_get_property;
  object_class->set_property = mcp_item_set_property;

  klass->key_member = "name";

  properties[PROP_JSON] =
    g_param_spec_boxed ("json", NULL, NULL, JSON_TYPE_OBJECT,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
mcp_item_init (McpItem *self)
{
}

gpointer
mcp_item_new_for_type (GType        type,
                       JsonObject  *json,
                       GError     **error)
{
  g_autoptr(GTypeClass) klass = g_type_class_ref (type);
  const char *key = MCP_ITEM_CLASS (klass)->key_member;

  g_return_val_if_fail (g_type_is_a (type, MCP_TYPE_ITEM), NULL);
  g_return_val_if_fail (json != NULL, NULL);

  if (mcp_json_get_string (json, key) == NULL)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   "the server listed an entry without a \"%s\"", key);
      return NULL;
    }

  return g_object_new (type, "json", json, NULL);
}

JsonObject *
mcp_item_get_json (McpItem *self)
{
  McpItemPrivate *priv = mcp_item_get_instance_private (self);

  g_return_val_if_fail (MCP_IS_ITEM (self), NULL);

  return priv->json;
}

const char *
mcp_item_get_key (McpItem *self)
{
  g_return_val_if_fail (MCP_IS_ITEM (self), NULL);

  return mcp_json_get_string (mcp_item_get_json (self), MCP_ITEM_GET_CLASS (self)->key_member);
}

const char *
mcp_item_get_name (McpItem *self)
{
  g_return_val_if_fail (MCP_IS_ITEM (self), NULL);

  return mcp_json_get_string (mcp_item_get_json (self), "name");
}

const char *
mcp_item_get_title (McpItem *self)
{
  JsonObject *json;
  const char *title;

  g_return_val_if_fail (MCP_IS_ITEM (self), NULL);

  json = mcp_item_get_json (self);
  if ((title = mcp_json_get_string (json, "title")) != NULL)
    return title;

  /* Tools may carry their title in the annotations (2025-03-26). */
  return mcp_json_get_string (mcp_json_get_object (json, "annotations"), "title");
}

/**
 * mcp_item_get_display_name:
 *
 * Returns: the title when there is one, else the name (the order the
 *   specification gives), else the identifying key
 */
const char *
mcp_item_get_display_name (McpItem *self)
{
  const char *title = mcp_item_get_title (self);
  const char *name = mcp_item_get_name (self);

  if (title != NULL && *title != '\0')
    return title;

  return (name != NULL && *name != '\0') ? name : mcp_item_get_key (self);
}

const char *
mcp_item_get_description (McpItem *self)
{
  g_return_val_if_fail (MCP_IS_ITEM (self), NULL);

  return mcp_json_get_string (mcp_item_get_json (self), "description");
}

const char *
mcp_item_get_mime_type (McpItem *self)
{
  g_return_val_if_fail (MCP_IS_ITEM (self), NULL);

  return mcp_json_get_string (mcp_item_get_json (self), "mimeType");
}

JsonArray *
mcp_item_get_icons (McpItem *self)
{
  g_return_val_if_fail (MCP_IS_ITEM (self), NULL);

  return mcp_json_get_array (mcp_item_get_json (self), "icons");
}

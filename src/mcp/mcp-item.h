/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define MCP_TYPE_ITEM (mcp_item_get_type ())

G_DECLARE_DERIVABLE_TYPE (McpItem, mcp_item, MCP, ITEM, GObject)

/**
 * McpItem:
 *
 * What tools, resources, resource templates and prompts share: a name, an
 * optional title and description, icons, and the JSON object the server sent,
 * kept whole so that nothing a newer revision adds is lost.
 */
struct _McpItemClass
{
  GObjectClass parent_class;

  /* The member that identifies an item of this kind ("name", "uri", …). */
  const char *key_member;
};

JsonObject  *mcp_item_get_json          (McpItem     *self);
const char  *mcp_item_get_key           (McpItem     *self);
const char  *mcp_item_get_name          (McpItem     *self);
const char  *mcp_item_get_title         (McpItem     *self);
const char  *mcp_item_get_display_name  (McpItem     *self);
const char  *mcp_item_get_description   (McpItem     *self);
const char  *mcp_item_get_mime_type     (McpItem     *self);
JsonArray   *mcp_item_get_icons         (McpItem     *self);

/* For subclasses: a typed constructor checks @json has the key member. */
gpointer     mcp_item_new_for_type      (GType        type,
                                         JsonObject  *json,
                                         GError     **error);

G_END_DECLS

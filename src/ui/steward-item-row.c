/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-item-row"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-prompt.h"
#include "mcp-resource.h"
#include "mcp-resource-template.h"
#include "mcp-tool.h"
#include "steward-text.h"

#include "steward-item-row.h"

/* Names, URIs and titles are short in any honest list; more is cut. */
#define MAX_LINE_BYTES 1024

struct _StewardItemRow
{
  AdwBin     parent_instance;

  McpItem   *item;
  gboolean   expanded;

  GtkLabel  *title_label;
  GtkWidget *warning_icon;
  GtkLabel  *key_label;
  GtkLabel  *description_label;
  GtkWidget *badge_box;
  GtkWidget *read_only_badge;
  GtkWidget *destructive_badge;
  GtkWidget *idempotent_badge;
  GtkWidget *open_world_badge;
  GtkWidget *kind_badge;
};

enum {
  PROP_0,
  PROP_ITEM,
  PROP_EXPANDED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (StewardItemRow, steward_item_row, ADW_TYPE_BIN)

static void
set_label (GtkLabel   *label,
           const char *text)
{
  g_autofree char *visible = NULL;

  gtk_widget_set_visible (GTK_WIDGET (label), text != NULL && *text != '\0');
  if (text == NULL)
    {
      gtk_label_set_text (label, "");
      return;
    }

  visible = steward_text_make_visible_capped (text, MAX_LINE_BYTES, NULL);
  gtk_label_set_text (label, visible);
}

static void
set_badge (StewardItemRow *self,
           GtkWidget      *badge,
           gboolean        shown)
{
  gtk_widget_set_visible (badge, shown);
  if (shown)
    gtk_widget_set_visible (self->badge_box, TRUE);
}

static void
show_tool (StewardItemRow *self,
           McpTool        *tool)
{
  JsonObject *json = mcp_item_get_json (MCP_ITEM (tool));
  JsonNode *annotations = json_object_get_member (json, "annotations");
  gboolean read_only;

  /* Without annotations the server said nothing, and badges would only
   * repeat the protocol's cautious defaults on every tool. */
  if (annotations == NULL || !JSON_NODE_HOLDS_OBJECT (annotations))
    return;

  read_only = mcp_tool_get_read_only_hint (tool);
  set_badge (self, self->read_only_badge, read_only);
  set_badge (self, self->destructive_badge, !read_only && mcp_tool_get_destructive_hint (tool));
  set_badge (self, self->idempotent_badge, !read_only && mcp_tool_get_idempotent_hint (tool));
  set_badge (self, self->open_world_badge, mcp_tool_get_open_world_hint (tool));
}

static void
show_resource (StewardItemRow *self,
               McpResource    *resource)
{
  const char *mime_type = mcp_item_get_mime_type (MCP_ITEM (resource));
  gint64 size = mcp_resource_get_size (resource);
  g_autoptr(GString) key = g_string_new (mcp_resource_get_uri (resource));

  if (mime_type != NULL)
    g_string_append_printf (key, " · %s", mime_type);
  if (size >= 0)
    {
      g_autofree char *text = g_format_size (size);

      g_string_append_printf (key, " · %s", text);
    }

  set_label (self->key_label, key->str);
}

static void
update (StewardItemRow *self)
{
  McpItem *item = self->item;
  const char *description;
  const char *key;
  const char *title;

  gtk_widget_set_visible (self->badge_box, FALSE);
  gtk_widget_set_visible (self->read_only_badge, FALSE);
  gtk_widget_set_visible (self->destructive_badge, FALSE);
  gtk_widget_set_visible (self->idempotent_badge, FALSE);
  gtk_widget_set_visible (self->open_world_badge, FALSE);
  gtk_widget_set_visible (self->kind_badge, FALSE);

  if (item == NULL)
    {
      set_label (self->title_label, NULL);
      set_label (self->key_label, NULL);
      set_label (self->description_label, NULL);
      gtk_widget_set_visible (self->warning_icon, FALSE);
      return;
    }

  title = mcp_item_get_display_name (item);
  key = mcp_item_get_key (item);
  description = mcp_item_get_description (item);

  set_label (self->title_label, title);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  gtk_label_get_text (self->title_label), -1);

  /* What identifies the item, when the title does not already say it. */
  set_label (self->key_label, g_strcmp0 (key, title) != 0 ? key : NULL);

  if (description != NULL)
    {
      g_autofree char *shown = steward_text_for_display (description);

      /* A list row shows one line of it, so that a row is laid out once
       * rather than wrapped at each width its list tries (most of a long
       * list's cost to show); the pane shows it whole. */
      if (!self->expanded)
        g_strdelimit (shown, "\n", ' ');
      gtk_label_set_text (self->description_label, shown);
      gtk_widget_set_visible (GTK_WIDGET (self->description_label), TRUE);
    }
  else
    {
      set_label (self->description_label, NULL);
    }
  gtk_widget_set_visible (self->warning_icon,
                          steward_text_has_hidden (description) ||
                          steward_text_has_hidden (mcp_item_get_title (item)));

  if (MCP_IS_TOOL (item))
    {
      show_tool (self, MCP_TOOL (item));
    }
  else if (MCP_IS_RESOURCE (item))
    {
      show_resource (self, MCP_RESOURCE (item));
    }
  else if (MCP_IS_RESOURCE_TEMPLATE (item))
    {
      McpResourceTemplate *template = MCP_RESOURCE_TEMPLATE (item);

      set_label (self->key_label, mcp_resource_template_get_uri_template (template));
      set_badge (self, self->kind_badge, TRUE);
    }
}

static void
steward_item_row_dispose (GObject *object)
{
  StewardItemRow *self = STEWARD_ITEM_ROW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), STEWARD_TYPE_ITEM_ROW);
  g_clear_object (&self->item);

  G_OBJECT_CLASS (steward_item_row_parent_class)->dispose (object);
}

static void
steward_item_row_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  StewardItemRow *self = STEWARD_ITEM_ROW (object);

  switch (prop_id)
    {
    case PROP_ITEM:
      g_value_set_object (value, self->item);
      break;

    case PROP_EXPANDED:
      g_value_set_boolean (value, self->expanded);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_item_row_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  StewardItemRow *self = STEWARD_ITEM_ROW (object);

  switch (prop_id)
    {
    case PROP_ITEM:
      steward_item_row_set_item (self, g_value_get_object (value));
      break;

    case PROP_EXPANDED:
      steward_item_row_set_expanded (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_item_row_class_init (StewardItemRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = steward_item_row_dispose;
  object_class->get_property = steward_item_row_get_property;
  object_class->set_property = steward_item_row_set_property;

  properties[PROP_ITEM] =
    g_param_spec_object ("item", NULL, NULL, MCP_TYPE_ITEM,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_EXPANDED] =
    g_param_spec_boolean ("expanded", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/stewardmcp/Steward/steward-item-row.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardItemRow, title_label);
  gtk_widget_class_bind_template_child (widget_class, StewardItemRow, warning_icon);
  gtk_widget_class_bind_template_child (widget_class, StewardItemRow, key_label);
  gtk_widget_class_bind_template_child (widget_class, StewardItemRow, description_label);
  gtk_widget_class_bind_template_child (widget_class, StewardItemRow, badge_box);
  gtk_widget_class_bind_template_child (widget_class, StewardItemRow, read_only_badge);
  gtk_widget_class_bind_template_child (widget_class, StewardItemRow, destructive_badge);
  gtk_widget_class_bind_template_child (widget_class, StewardItemRow, idempotent_badge);
  gtk_widget_class_bind_template_child (widget_class, StewardItemRow, open_world_badge);
  gtk_widget_class_bind_template_child (widget_class, StewardItemRow, kind_badge);
}

static void
steward_item_row_init (StewardItemRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
steward_item_row_new (void)
{
  return g_object_new (STEWARD_TYPE_ITEM_ROW, NULL);
}

McpItem *
steward_item_row_get_item (StewardItemRow *self)
{
  g_return_val_if_fail (STEWARD_IS_ITEM_ROW (self), NULL);

  return self->item;
}

void
steward_item_row_set_item (StewardItemRow *self,
                           McpItem        *item)
{
  g_return_if_fail (STEWARD_IS_ITEM_ROW (self));
  g_return_if_fail (item == NULL || MCP_IS_ITEM (item));

  if (!g_set_object (&self->item, item))
    return;

  update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ITEM]);
}

/**
 * steward_item_row_set_expanded:
 *
 * Shows the whole description, selectable, as the head of a detail pane
 * rather than a list row.
 */
void
steward_item_row_set_expanded (StewardItemRow *self,
                               gboolean        expanded)
{
  g_return_if_fail (STEWARD_IS_ITEM_ROW (self));

  expanded = !!expanded;
  if (self->expanded == expanded)
    return;

  self->expanded = expanded;
  gtk_label_set_wrap (self->description_label, expanded);
  gtk_label_set_ellipsize (self->description_label,
                           expanded ? PANGO_ELLIPSIZE_NONE : PANGO_ELLIPSIZE_END);
  gtk_label_set_selectable (self->description_label, expanded);
  gtk_label_set_selectable (self->key_label, expanded);
  gtk_label_set_ellipsize (self->key_label,
                           expanded ? PANGO_ELLIPSIZE_NONE : PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_wrap (self->key_label, expanded);
  gtk_label_set_wrap_mode (self->key_label, PANGO_WRAP_CHAR);
  gtk_label_set_wrap (self->title_label, expanded);
  gtk_label_set_ellipsize (self->title_label,
                           expanded ? PANGO_ELLIPSIZE_NONE : PANGO_ELLIPSIZE_END);
  if (expanded)
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self->title_label), "heading");
      gtk_widget_add_css_class (GTK_WIDGET (self->title_label), "title-2");
      gtk_widget_remove_css_class (GTK_WIDGET (self->description_label), "caption");
    }
  else
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self->title_label), "title-2");
      gtk_widget_add_css_class (GTK_WIDGET (self->title_label), "heading");
      gtk_widget_add_css_class (GTK_WIDGET (self->description_label), "caption");
    }
  if (self->item != NULL)
    update (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EXPANDED]);
}

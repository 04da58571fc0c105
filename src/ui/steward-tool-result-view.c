/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-tool-result-view"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-content-view.h"
#include "steward-hyphenation.h"
#include "steward-json-text.h"
#include "steward-text.h"

#include "steward-tool-result-view.h"

struct _StewardToolResultView
{
  AdwBin         parent_instance;

  McpToolResult *result;

  GtkWidget     *error_banner;
  GtkLabel      *error_title;
  GtkLabel      *error_label;
  GtkWidget     *content_box;
  GtkExpander   *structured_expander;
  GtkWidget     *structured_scroller;
  GtkTextView   *structured_view;
  GtkWidget     *empty_label;
};

G_DEFINE_FINAL_TYPE (StewardToolResultView, steward_tool_result_view, ADW_TYPE_BIN)

static void
show_error (StewardToolResultView *self,
            const char            *title,
            const char            *text)
{
  g_autofree char *visible = steward_text_for_display (text);

  gtk_label_set_text (self->error_title, title);
  gtk_label_set_text (self->error_label, visible);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), *visible != '\0');
  gtk_widget_set_visible (self->error_banner, TRUE);
}

static void
show_result (StewardToolResultView *self)
{
  GPtrArray *content = mcp_tool_result_get_content (self->result);
  JsonNode *structured = mcp_tool_result_get_structured_content (self->result);
  gboolean is_error = mcp_tool_result_get_is_error (self->result);
  guint shown = 0;

  if (is_error)
    {
      g_autofree char *text = mcp_tool_result_dup_text (self->result);

      show_error (self, _("The tool reported an error"), text);
    }

  for (guint i = 0; content != NULL && i < content->len; i++)
    {
      McpContent *block = g_ptr_array_index (content, i);

      /* The banner already says what an error's text blocks say. */
      if (is_error && mcp_content_get_content_type (block) == MCP_CONTENT_TEXT)
        continue;

      gtk_box_append (GTK_BOX (self->content_box), steward_content_view_new (block));
      shown++;
    }

  if (structured != NULL)
    {
      g_autofree char *json = steward_json_to_text (structured);
      g_autofree char *visible = NULL;

      visible = steward_text_for_display (json);
      gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->structured_view), visible, -1);
      /* Collapsed: the content blocks say the same for a person, and a
       * large object would push them out of sight. */
      gtk_widget_set_visible (GTK_WIDGET (self->structured_expander), TRUE);
      shown++;
    }

  gtk_widget_set_visible (self->empty_label, shown == 0 && !is_error);
}

static void
steward_tool_result_view_dispose (GObject *object)
{
  StewardToolResultView *self = STEWARD_TOOL_RESULT_VIEW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), STEWARD_TYPE_TOOL_RESULT_VIEW);
  g_clear_object (&self->result);

  G_OBJECT_CLASS (steward_tool_result_view_parent_class)->dispose (object);
}

static void
steward_tool_result_view_class_init (StewardToolResultViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = steward_tool_result_view_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/stewardmcp/Steward/steward-tool-result-view.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardToolResultView, error_banner);
  gtk_widget_class_bind_template_child (widget_class, StewardToolResultView, error_title);
  gtk_widget_class_bind_template_child (widget_class, StewardToolResultView, error_label);
  gtk_widget_class_bind_template_child (widget_class, StewardToolResultView, content_box);
  gtk_widget_class_bind_template_child (widget_class, StewardToolResultView, structured_expander);
  gtk_widget_class_bind_template_child (widget_class, StewardToolResultView, structured_scroller);
  gtk_widget_class_bind_template_child (widget_class, StewardToolResultView, structured_view);
  gtk_widget_class_bind_template_child (widget_class, StewardToolResultView, empty_label);
}

static void
steward_tool_result_view_init (StewardToolResultView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  steward_text_view_keep_words (self->structured_view);
}

GtkWidget *
steward_tool_result_view_new_for_result (McpToolResult *result)
{
  StewardToolResultView *self;

  g_return_val_if_fail (MCP_IS_TOOL_RESULT (result), NULL);

  self = g_object_new (STEWARD_TYPE_TOOL_RESULT_VIEW, NULL);
  self->result = g_object_ref (result);
  show_result (self);

  return GTK_WIDGET (self);
}

GtkWidget *
steward_tool_result_view_new_for_error (const GError *error)
{
  StewardToolResultView *self;

  g_return_val_if_fail (error != NULL, NULL);

  self = g_object_new (STEWARD_TYPE_TOOL_RESULT_VIEW, NULL);
  show_error (self, _("The call failed"), error->message);

  return GTK_WIDGET (self);
}

/**
 * steward_tool_result_view_get_result:
 *
 * Returns: (transfer none) (nullable): the result shown, or NULL for a
 *   failed call
 */
McpToolResult *
steward_tool_result_view_get_result (StewardToolResultView *self)
{
  g_return_val_if_fail (STEWARD_IS_TOOL_RESULT_VIEW (self), NULL);

  return self->result;
}

/**
 * steward_tool_result_view_set_text_height:
 * @height: the height of the visible part of the pane, in pixels
 *
 * Lets each long text in the result, and the structured content, take up to
 * @height, so that a large result fills the pane it is read in instead of a
 * small box.
 */
void
steward_tool_result_view_set_text_height (StewardToolResultView *self,
                                          int                    height)
{
  g_return_if_fail (STEWARD_IS_TOOL_RESULT_VIEW (self));

  height = MAX (height, 120);
  for (GtkWidget *child = gtk_widget_get_first_child (self->content_box);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (STEWARD_IS_CONTENT_VIEW (child))
        steward_content_view_set_text_height (STEWARD_CONTENT_VIEW (child), height);
    }
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (self->structured_scroller),
                                              height);
}

/**
 * steward_tool_result_view_get_structured_expander:
 *
 * Returns: (transfer none): the expander that holds the structured content
 */
GtkWidget *
steward_tool_result_view_get_structured_expander (StewardToolResultView *self)
{
  g_return_val_if_fail (STEWARD_IS_TOOL_RESULT_VIEW (self), NULL);

  return GTK_WIDGET (self->structured_expander);
}

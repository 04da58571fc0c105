/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-tool-review-dialog"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-client.h"
#include "mcp-tool.h"
#include "steward-server.h"
#include "steward-text.h"

#include "steward-tool-review-dialog.h"

/* The most of a description one row shows; the rest is cut, visibly. */
#define MAX_DESCRIPTION 4096

struct _StewardToolReviewDialog
{
  AdwWindow        parent_instance;

  char            *server;
  StewardToolPins *pins;
  /* McpTool and its GtkSwitch, one pair per row. */
  GPtrArray       *tools;
  GPtrArray       *switches;
  GtkListBox      *list;
};

G_DEFINE_FINAL_TYPE (StewardToolReviewDialog, steward_tool_review_dialog, ADW_TYPE_WINDOW)

/* First contact only: a server with no pin at all. A tool new on a
 * server the person reviewed before goes to StewardToolChangeDialog. */
static gboolean
needs_review (StewardToolPins *pins,
              const char      *server,
              McpTool         *tool)
{
  return steward_tool_pins_check (pins, server, tool) == STEWARD_TOOL_PIN_UNPINNED;
}

static void
offer_clicked_cb (StewardToolReviewDialog *self)
{
  /* Each tool listed was seen: pinned as shown, on or off as chosen. */
  for (guint i = 0; i < self->tools->len; i++)
    {
      McpTool *tool = g_ptr_array_index (self->tools, i);
      GtkSwitch *toggle = g_ptr_array_index (self->switches, i);

      steward_tool_pins_approve (self->pins, self->server, tool);
      steward_tool_pins_set_enabled (self->pins, self->server,
                                     mcp_item_get_name (MCP_ITEM (tool)),
                                     gtk_switch_get_active (toggle));
    }

  gtk_window_destroy (GTK_WINDOW (self));
}

static void
add_tool_row (StewardToolReviewDialog *self,
              McpTool                 *tool)
{
  const char *name = mcp_item_get_name (MCP_ITEM (tool));
  const char *description = mcp_item_get_description (MCP_ITEM (tool));
  g_autofree char *visible_name = steward_text_make_visible_capped (name, 256, NULL);
  g_autofree char *visible_description = NULL;
  gboolean hidden = steward_text_has_hidden (name) ||
                    (description != NULL && steward_text_has_hidden (description));
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *toggle = gtk_switch_new ();
  g_autofree char *switch_label = NULL;

  visible_description = description != NULL && *description != '\0'
                        ? steward_text_make_visible_capped (description, MAX_DESCRIPTION, NULL)
                        : g_strdup (_("No description"));

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), visible_name);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), visible_description);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 0);

  if (hidden)
    {
      GtkWidget *warning = gtk_image_new_from_icon_name ("dialog-warning-symbolic");
      const char *why = _("Hidden characters, shown as ⟨U+XXXX⟩: they can carry instructions "
                          "to a model that a person does not see. Switched off.");

      gtk_widget_add_css_class (warning, "warning");
      gtk_widget_set_tooltip_text (warning, why);
      gtk_accessible_update_property (GTK_ACCESSIBLE (warning),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, why,
                                      -1);
      adw_action_row_add_prefix (ADW_ACTION_ROW (row), warning);
    }

  /* A tool that hides text from the person starts switched off. */
  gtk_switch_set_active (GTK_SWITCH (toggle), !hidden);
  gtk_widget_set_valign (toggle, GTK_ALIGN_CENTER);
  /* Translators: how a screen reader names a tool's switch. */
  switch_label = g_strdup_printf (_("Offer “%s” to models"), visible_name);
  gtk_accessible_update_property (GTK_ACCESSIBLE (toggle),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, switch_label,
                                  -1);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), toggle);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), toggle);

  g_ptr_array_add (self->tools, g_object_ref (tool));
  g_ptr_array_add (self->switches, toggle);
  gtk_list_box_append (self->list, row);
}

static void
build (StewardToolReviewDialog *self,
       GListModel              *tools)
{
  g_autofree char *visible_server = steward_text_make_visible_capped (self->server, 256, NULL);
  g_autofree char *title = NULL;
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *content = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *header = adw_header_bar_new ();
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *clamp = adw_clamp_new ();
  GtkWidget *intro;
  GtkWidget *offer;

  /* Translators: a dialog's title; %s is a server's name. */
  title = g_strdup_printf (_("Review the Tools of “%s”"), visible_server);
  gtk_window_set_title (GTK_WINDOW (self), title);

  offer = gtk_button_new_with_mnemonic (_("_Offer to Models"));
  gtk_widget_add_css_class (offer, "suggested-action");
  g_signal_connect_object (offer, "clicked", G_CALLBACK (offer_clicked_cb), self,
                           G_CONNECT_SWAPPED);
  adw_header_bar_pack_end (ADW_HEADER_BAR (header), offer);
  gtk_box_append (GTK_BOX (box), header);

  intro = gtk_label_new (_("Models in your chats see these tools and their descriptions, and "
                           "may ask to use them. None is offered until you have looked at "
                           "them; switch off what you do not want a model to use."));
  gtk_label_set_wrap (GTK_LABEL (intro), TRUE);
  gtk_label_set_xalign (GTK_LABEL (intro), 0);
  gtk_box_append (GTK_BOX (content), intro);

  self->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->list, GTK_SELECTION_NONE);
  gtk_widget_add_css_class (GTK_WIDGET (self->list), "boxed-list");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->list),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Tools"),
                                  -1);
  gtk_box_append (GTK_BOX (content), GTK_WIDGET (self->list));

  for (guint i = 0; i < g_list_model_get_n_items (tools); i++)
    {
      g_autoptr(McpTool) tool = g_list_model_get_item (tools, i);

      if (needs_review (self->pins, self->server, tool))
        add_tool_row (self, tool);
    }

  gtk_widget_set_margin_top (content, 18);
  gtk_widget_set_margin_bottom (content, 18);
  gtk_widget_set_margin_start (content, 12);
  gtk_widget_set_margin_end (content, 12);
  adw_clamp_set_child (ADW_CLAMP (clamp), content);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), clamp);
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_box_append (GTK_BOX (box), scroller);
  adw_window_set_content (ADW_WINDOW (self), box);
}

static void
steward_tool_review_dialog_dispose (GObject *object)
{
  StewardToolReviewDialog *self = STEWARD_TOOL_REVIEW_DIALOG (object);

  g_clear_pointer (&self->tools, g_ptr_array_unref);
  g_clear_pointer (&self->switches, g_ptr_array_unref);
  g_clear_object (&self->pins);

  G_OBJECT_CLASS (steward_tool_review_dialog_parent_class)->dispose (object);
}

static void
steward_tool_review_dialog_finalize (GObject *object)
{
  StewardToolReviewDialog *self = STEWARD_TOOL_REVIEW_DIALOG (object);

  g_free (self->server);

  G_OBJECT_CLASS (steward_tool_review_dialog_parent_class)->finalize (object);
}

static void
steward_tool_review_dialog_class_init (StewardToolReviewDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = steward_tool_review_dialog_dispose;
  object_class->finalize = steward_tool_review_dialog_finalize;

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
steward_tool_review_dialog_init (StewardToolReviewDialog *self)
{
  self->tools = g_ptr_array_new_with_free_func (g_object_unref);
  /* The switches belong to their rows. */
  self->switches = g_ptr_array_new ();
  gtk_window_set_default_size (GTK_WINDOW (self), 600, 560);
  gtk_window_set_modal (GTK_WINDOW (self), TRUE);
}

/**
 * steward_tool_review_dialog_new:
 *
 * Returns: (transfer none): a new dialog; set it transient for the window
 *   it belongs to and present it
 */
GtkWidget *
steward_tool_review_dialog_new (const char      *server,
                                GListModel      *tools,
                                StewardToolPins *pins)
{
  StewardToolReviewDialog *self;

  g_return_val_if_fail (server != NULL, NULL);
  g_return_val_if_fail (G_IS_LIST_MODEL (tools), NULL);
  g_return_val_if_fail (STEWARD_IS_TOOL_PINS (pins), NULL);

  self = g_object_new (STEWARD_TYPE_TOOL_REVIEW_DIALOG, NULL);
  self->server = g_strdup (server);
  self->pins = g_object_ref (pins);
  build (self, tools);

  return GTK_WIDGET (self);
}

static GListModel *
ready_tools (StewardServer *server)
{
  McpClient *client = steward_server_get_client (server);

  if (steward_server_get_status (server) != STEWARD_SERVER_STATUS_READY || client == NULL)
    return NULL;

  return mcp_client_get_tools (client);
}

static guint
count_for (StewardServer   *server,
           StewardToolPins *pins)
{
  GListModel *tools = ready_tools (server);
  guint count = 0;

  for (guint i = 0; tools != NULL && i < g_list_model_get_n_items (tools); i++)
    {
      g_autoptr(McpTool) tool = g_list_model_get_item (tools, i);

      count += needs_review (pins, steward_server_get_name (server), tool);
    }

  return count;
}

GtkWidget *
steward_tool_review_dialog_new_for_registry (StewardServerRegistry *registry,
                                             StewardToolPins       *pins)
{
  GListModel *servers = G_LIST_MODEL (registry);

  g_return_val_if_fail (STEWARD_IS_SERVER_REGISTRY (registry), NULL);
  g_return_val_if_fail (STEWARD_IS_TOOL_PINS (pins), NULL);

  for (guint i = 0; i < g_list_model_get_n_items (servers); i++)
    {
      g_autoptr(StewardServer) server = g_list_model_get_item (servers, i);

      if (count_for (server, pins) > 0)
        return steward_tool_review_dialog_new (steward_server_get_name (server),
                                               ready_tools (server), pins);
    }

  return NULL;
}

guint
steward_tool_review_dialog_count_unreviewed (StewardServerRegistry *registry,
                                             StewardToolPins       *pins,
                                             const char            *server)
{
  GListModel *servers = G_LIST_MODEL (registry);
  guint count = 0;

  g_return_val_if_fail (STEWARD_IS_SERVER_REGISTRY (registry), 0);
  g_return_val_if_fail (STEWARD_IS_TOOL_PINS (pins), 0);

  for (guint i = 0; i < g_list_model_get_n_items (servers); i++)
    {
      g_autoptr(StewardServer) item = g_list_model_get_item (servers, i);

      if (server == NULL || g_strcmp0 (steward_server_get_name (item), server) == 0)
        count += count_for (item, pins);
    }

  return count;
}

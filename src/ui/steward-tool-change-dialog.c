/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-tool-change-dialog"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-client.h"
#include "mcp-tool.h"
#include "steward-accessible.h"
#include "steward-server.h"
#include "steward-text.h"

#include "steward-tool-diff.h"
#include "steward-tool-change-dialog.h"

struct _StewardToolChangeDialog
{
  AdwWindow              parent_instance;

  GtkStack              *stack;
  GtkListBox            *changes_list;

  StewardServerRegistry *registry;
  StewardToolPins       *pins;
  guint                  rebuild_id;
};

enum {
  PROP_0,
  PROP_REGISTRY,
  PROP_PINS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (StewardToolChangeDialog, steward_tool_change_dialog, ADW_TYPE_WINDOW)

typedef void (*ChangeFunc) (StewardServer       *server,
                            McpTool             *tool,
                            StewardToolPinState  state,
                            gpointer             user_data);

/* Every tool of a running server that waits for the person. */
static guint
foreach_change (StewardServerRegistry *registry,
                StewardToolPins       *pins,
                ChangeFunc             func,
                gpointer               user_data)
{
  GListModel *servers = G_LIST_MODEL (registry);
  guint n_servers = g_list_model_get_n_items (servers);
  guint count = 0;

  for (guint i = 0; i < n_servers; i++)
    {
      g_autoptr(StewardServer) server = g_list_model_get_item (servers, i);
      McpClient *client = steward_server_get_client (server);
      GListModel *tools;
      guint n_tools;

      if (steward_server_get_status (server) != STEWARD_SERVER_STATUS_READY || client == NULL)
        continue;

      tools = mcp_client_get_tools (client);
      n_tools = tools != NULL ? g_list_model_get_n_items (tools) : 0;
      for (guint j = 0; j < n_tools; j++)
        {
          g_autoptr(McpTool) tool = g_list_model_get_item (tools, j);
          StewardToolPinState state = steward_tool_pins_check (pins,
                                                               steward_server_get_name (server),
                                                               tool);

          if (state != STEWARD_TOOL_PIN_CHANGED && state != STEWARD_TOOL_PIN_NEW)
            continue;

          count++;
          if (func != NULL)
            func (server, tool, state, user_data);
        }
    }

  return count;
}

static void
approve_clicked_cb (GtkButton *button,
                    gpointer   user_data)
{
  StewardToolChangeDialog *self = user_data;
  const char *server = g_object_get_data (G_OBJECT (button), "server");
  McpTool *tool = g_object_get_data (G_OBJECT (button), "tool");

  /* The pins say they changed, and the list follows. */
  steward_tool_pins_approve (self->pins, server, tool);
}

static void
add_change_row (StewardServer       *server,
                McpTool             *tool,
                StewardToolPinState  state,
                gpointer             user_data)
{
  StewardToolChangeDialog *self = user_data;
  const char *server_name = steward_server_get_name (server);
  const char *tool_name = mcp_item_get_name (MCP_ITEM (tool));
  g_autofree char *visible_server = steward_text_make_visible_capped (server_name, 256, NULL);
  g_autofree char *visible_tool = steward_text_make_visible_capped (tool_name, 256, NULL);
  g_autofree char *title = NULL;
  g_autofree char *pinned = NULL;
  g_autofree char *current = steward_tool_pretty_json (tool);
  GtkWidget *row = adw_expander_row_new ();
  GtkWidget *button = gtk_button_new_with_mnemonic (_("_Approve New Definition"));
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *view = gtk_text_view_new ();
  guint added = 0, removed = 0;
  g_autofree char *subtitle = NULL;

  /* Translators: a server's name and one of its tools' names. */
  title = g_strdup_printf (_("%s / %s"), visible_server, visible_tool);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  steward_accessible_name_expander_row (ADW_EXPANDER_ROW (row));

  if (state == STEWARD_TOOL_PIN_CHANGED)
    pinned = steward_tool_pins_dup_pinned (self->pins, server_name, tool_name);
  steward_tool_diff_fill (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)), pinned, current,
                          &added, &removed);

  if (state == STEWARD_TOOL_PIN_NEW)
    subtitle = g_strdup (_("New on this server"));
  else
    /* Translators: how much of a tool's definition changed, in lines. */
    subtitle = g_strdup_printf (_("Changed since you approved it: %u lines added, %u removed"),
                                added, removed);
  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (row), subtitle);

  gtk_text_view_set_editable (GTK_TEXT_VIEW (view), FALSE);
  gtk_text_view_set_monospace (GTK_TEXT_VIEW (view), TRUE);
  gtk_text_view_set_top_margin (GTK_TEXT_VIEW (view), 6);
  gtk_text_view_set_bottom_margin (GTK_TEXT_VIEW (view), 6);
  gtk_text_view_set_left_margin (GTK_TEXT_VIEW (view), 6);
  gtk_accessible_update_property (GTK_ACCESSIBLE (view),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Changes to the tool’s definition"),
                                  -1);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), view);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroller), 320);
  adw_expander_row_add_row (ADW_EXPANDER_ROW (row), scroller);

  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  g_object_set_data_full (G_OBJECT (button), "server", g_strdup (server_name), g_free);
  g_object_set_data_full (G_OBJECT (button), "tool", g_object_ref (tool), g_object_unref);
  g_signal_connect (button, "clicked", G_CALLBACK (approve_clicked_cb), self);
  adw_expander_row_add_action (ADW_EXPANDER_ROW (row), button);

  gtk_list_box_append (self->changes_list, row);
}

static void
rebuild (StewardToolChangeDialog *self)
{
  GtkWidget *child;
  guint count;

  g_clear_handle_id (&self->rebuild_id, g_source_remove);

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->changes_list))) != NULL)
    gtk_list_box_remove (self->changes_list, child);

  count = foreach_change (self->registry, self->pins, add_change_row, self);
  gtk_stack_set_visible_child_name (self->stack, count > 0 ? "list" : "empty");
}

static gboolean
rebuild_cb (gpointer user_data)
{
  StewardToolChangeDialog *self = user_data;

  self->rebuild_id = 0;
  rebuild (self);
  return G_SOURCE_REMOVE;
}

/* Changes come in bursts (a server restarting, several approvals); the
 * list is built once they settle. */
static void
queue_rebuild (StewardToolChangeDialog *self)
{
  if (self->rebuild_id == 0)
    self->rebuild_id = g_idle_add (rebuild_cb, self);
}

static void
steward_tool_change_dialog_constructed (GObject *object)
{
  StewardToolChangeDialog *self = STEWARD_TOOL_CHANGE_DIALOG (object);

  G_OBJECT_CLASS (steward_tool_change_dialog_parent_class)->constructed (object);

  g_return_if_fail (self->registry != NULL && self->pins != NULL);

  g_signal_connect_object (self->pins, "changed", G_CALLBACK (queue_rebuild),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->registry, "items-changed", G_CALLBACK (queue_rebuild),
                           self, G_CONNECT_SWAPPED);
  rebuild (self);
}

static void
steward_tool_change_dialog_dispose (GObject *object)
{
  StewardToolChangeDialog *self = STEWARD_TOOL_CHANGE_DIALOG (object);

  g_clear_handle_id (&self->rebuild_id, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), STEWARD_TYPE_TOOL_CHANGE_DIALOG);
  g_clear_object (&self->registry);
  g_clear_object (&self->pins);

  G_OBJECT_CLASS (steward_tool_change_dialog_parent_class)->dispose (object);
}

static void
steward_tool_change_dialog_get_property (GObject    *object,
                                         guint       prop_id,
                                         GValue     *value,
                                         GParamSpec *pspec)
{
  StewardToolChangeDialog *self = STEWARD_TOOL_CHANGE_DIALOG (object);

  switch (prop_id)
    {
    case PROP_REGISTRY:
      g_value_set_object (value, self->registry);
      break;
    case PROP_PINS:
      g_value_set_object (value, self->pins);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_tool_change_dialog_set_property (GObject      *object,
                                         guint         prop_id,
                                         const GValue *value,
                                         GParamSpec   *pspec)
{
  StewardToolChangeDialog *self = STEWARD_TOOL_CHANGE_DIALOG (object);

  switch (prop_id)
    {
    case PROP_REGISTRY:
      g_set_object (&self->registry, g_value_get_object (value));
      break;
    case PROP_PINS:
      g_set_object (&self->pins, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_tool_change_dialog_class_init (StewardToolChangeDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = steward_tool_change_dialog_constructed;
  object_class->dispose = steward_tool_change_dialog_dispose;
  object_class->get_property = steward_tool_change_dialog_get_property;
  object_class->set_property = steward_tool_change_dialog_set_property;

  properties[PROP_REGISTRY] =
    g_param_spec_object ("registry", NULL, NULL,
                         STEWARD_TYPE_SERVER_REGISTRY,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  properties[PROP_PINS] =
    g_param_spec_object ("pins", NULL, NULL,
                         STEWARD_TYPE_TOOL_PINS,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/stewardmcp/Steward/"
                                                             "steward-tool-change-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardToolChangeDialog, stack);
  gtk_widget_class_bind_template_child (widget_class, StewardToolChangeDialog, changes_list);
}

static void
steward_tool_change_dialog_init (StewardToolChangeDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * steward_tool_change_dialog_new:
 *
 * Returns: (transfer none): a new dialog; set it transient for the window
 *   it belongs to and present it
 */
GtkWidget *
steward_tool_change_dialog_new (StewardServerRegistry *registry,
                                StewardToolPins       *pins)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_REGISTRY (registry), NULL);
  g_return_val_if_fail (STEWARD_IS_TOOL_PINS (pins), NULL);

  return g_object_new (STEWARD_TYPE_TOOL_CHANGE_DIALOG,
                       "registry", registry,
                       "pins", pins,
                       NULL);
}

guint
steward_tool_change_dialog_count_changes (StewardServerRegistry *registry,
                                          StewardToolPins       *pins)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_REGISTRY (registry), 0);
  g_return_val_if_fail (STEWARD_IS_TOOL_PINS (pins), 0);

  return foreach_change (registry, pins, NULL, NULL);
}

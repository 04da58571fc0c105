/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-tool-pane"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-client-tasks.h"

#include "steward-app-view-module.h"
#include "steward-application.h"
#include "steward-item-row.h"
#include "steward-overdue-prompt.h"
#include "steward-schema-form.h"
#include "steward-text.h"
#include "steward-tool-result-view.h"
#include "steward-ui-call.h"

#include "steward-tool-pane.h"

/* How often the bar moves while the server gives no total. */
#define PULSE_MS 150

struct _StewardToolPane
{
  AdwBin          parent_instance;

  StewardServer  *server;
  McpTool        *tool;
  GCancellable   *cancellable;       /* the running call, or NULL */
  StewardOverduePrompt *overdue;     /* asks to wait on past the timeout */
  guint           pulse_id;

  StewardItemRow *header;
  AdwBin         *form_bin;
  GtkWidget      *call_button;
  GtkWidget      *cancel_button;
  GtkCheckButton *task_check;
  GtkWidget      *progress_box;
  GtkProgressBar *progress_bar;
  GtkLabel       *progress_label;
  GtkLabel       *status_label;
  AdwBin         *result_bin;
  AdwBin         *app_bin;
  GtkWidget      *form;

  guint           scroll_tick_id;    /* scrolling to a new result, or 0 */
  int             result_height;     /* the result's height at the last frame */
  guint           steady_frames;     /* frames it has kept that height */
};

enum {
  PROP_0,
  PROP_RUNNING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* What a result shows above and around its text: the kind line, margins. */
#define RESULT_CHROME_HEIGHT 48

/* Frames a result keeps its height before the pane stops following it. */
#define SETTLE_FRAMES 10

G_DEFINE_FINAL_TYPE (StewardToolPane, steward_tool_pane, ADW_TYPE_BIN)

static gboolean
pulse_cb (gpointer user_data)
{
  StewardToolPane *self = user_data;

  gtk_progress_bar_pulse (self->progress_bar);
  return G_SOURCE_CONTINUE;
}

static void
set_running (StewardToolPane *self,
             gboolean         running)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "tool.call", !running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "tool.cancel", running);
  gtk_widget_set_visible (self->cancel_button, running);
  gtk_widget_set_visible (self->progress_box, running);
  gtk_widget_set_visible (GTK_WIDGET (self->progress_label), FALSE);
  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  gtk_progress_bar_set_show_text (self->progress_bar, FALSE);

  g_clear_handle_id (&self->pulse_id, g_source_remove);
  if (running)
    self->pulse_id = g_timeout_add (PULSE_MS, pulse_cb, self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
}

static void
progress_cb (double      progress,
             double      total,
             const char *message,
             gpointer    user_data)
{
  StewardToolPane *self = steward_ui_call_get_widget (user_data);

  if (self == NULL)
    return;

  if (total > 0)
    {
      g_autofree char *text = g_strdup_printf ("%.0f / %.0f", progress, total);

      g_clear_handle_id (&self->pulse_id, g_source_remove);
      gtk_progress_bar_set_fraction (self->progress_bar, CLAMP (progress / total, 0.0, 1.0));
      gtk_progress_bar_set_text (self->progress_bar, text);
      gtk_progress_bar_set_show_text (self->progress_bar, TRUE);
    }
  else
    {
      gtk_progress_bar_pulse (self->progress_bar);
    }

  if (message != NULL)
    {
      g_autofree char *visible = steward_text_make_visible_capped (message, 1024, NULL);

      gtk_label_set_text (self->progress_label, visible);
      gtk_widget_set_visible (GTK_WIDGET (self->progress_label), TRUE);
    }
}

/* Once the result has its place, the pane scrolls so that it starts at the
 * top: a person who pressed Call wants to read what came back, not the form
 * they just filled in. A long text measures its lines over several frames
 * and the result grows as it does, so the pane follows it until its top is
 * at the top, or its height has settled where the pane cannot scroll that
 * far. */
static gboolean
scroll_to_result_tick (GtkWidget     *widget,
                       GdkFrameClock *frame_clock,
                       gpointer       user_data)
{
  StewardToolPane *self = STEWARD_TOOL_PANE (widget);
  GtkWidget *scroller = gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW);
  GtkWidget *view = adw_bin_get_child (self->result_bin);
  GtkWidget *viewport;
  GtkAdjustment *adjustment;
  int height;
  double x, y;

  if (scroller == NULL || view == NULL)
    goto done;
  height = gtk_widget_get_height (view);
  if (height == 0)
    return G_SOURCE_CONTINUE;

  viewport = gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scroller));
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  if (!gtk_widget_translate_coordinates (view, viewport, 0, 0, &x, &y) || ABS (y) < 1)
    goto done;
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_value (adjustment) + y);

  if (height != self->result_height)
    {
      self->result_height = height;
      self->steady_frames = 0;
    }
  else if (++self->steady_frames >= SETTLE_FRAMES)
    {
      goto done;
    }

  return G_SOURCE_CONTINUE;

done:
  self->scroll_tick_id = 0;
  return G_SOURCE_REMOVE;
}

static void
follow_new_result (StewardToolPane *self)
{
  if (self->scroll_tick_id != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->scroll_tick_id);
  self->result_height = 0;
  self->steady_frames = 0;
  self->scroll_tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self),
                                                       scroll_to_result_tick, NULL, NULL);
}

static void
show_result (StewardToolPane *self,
             GtkWidget       *view)
{
  GtkWidget *scroller;

  adw_bin_set_child (self->result_bin, view);
  if (view == NULL)
    return;

  /* A long text in the result gets the whole height of the pane. */
  scroller = gtk_widget_get_ancestor (GTK_WIDGET (self), GTK_TYPE_SCROLLED_WINDOW);
  if (scroller != NULL)
    {
      GtkAdjustment *adjustment;

      adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
      steward_tool_result_view_set_text_height (STEWARD_TOOL_RESULT_VIEW (view),
                                                (int) gtk_adjustment_get_page_size (adjustment)
                                                - RESULT_CHROME_HEIGHT);
    }
  follow_new_result (self);
}

/* A tool with a view shows it under the result from the moment it is
 * called: the view gets the arguments first, the answer when it comes. */
static void
show_app_view (StewardToolPane *self,
               JsonObject      *arguments)
{
  GApplication *app = g_application_get_default ();
  GtkWidget *view = NULL;

  if (STEWARD_IS_APPLICATION (app) && steward_app_view_tool_has_view (self->tool))
    {
      StewardHost *host = steward_application_get_host (STEWARD_APPLICATION (app));

      view = steward_app_view_module_new_view (host, self->server, self->tool, arguments);
    }
  adw_bin_set_child (self->app_bin, view);
}

static void
tell_app_view (StewardToolPane *self,
               McpToolResult   *result,
               const char      *cancelled)
{
  GtkWidget *view = adw_bin_get_child (self->app_bin);

  if (view == NULL)
    return;

  if (result != NULL)
    steward_app_view_module_set_result (view, result);
  else
    steward_app_view_module_set_cancelled (view, cancelled);
}

static void
call_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  StewardToolPane *self = steward_ui_call_finish (user_data);
  g_autoptr(McpToolResult) tool_result = NULL;
  g_autoptr(GError) error = NULL;

  tool_result = steward_server_call_tool_finish (STEWARD_SERVER (object), result, &error);
  if (self == NULL)
    return;

  g_clear_object (&self->cancellable);
  g_clear_object (&self->overdue);
  set_running (self, FALSE);

  if (tool_result != NULL)
    show_result (self, steward_tool_result_view_new_for_result (tool_result));
  else
    show_result (self, steward_tool_result_view_new_for_error (error));
  tell_app_view (self, tool_result, error != NULL ? error->message : NULL);
}

/* The server asks about each of its calls past the timeout; this pane
 * answers for its own call only, the one its cancellable names. */
static gboolean
call_overdue_cb (StewardToolPane *self,
                 StewardOverdue  *question)
{
  if (self->cancellable == NULL || steward_overdue_get_call (question) != self->cancellable)
    return FALSE;

  g_clear_object (&self->overdue);
  self->overdue = steward_overdue_prompt_new (GTK_WIDGET (self), question);
  return TRUE;
}

static void
call_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  StewardToolPane *self = STEWARD_TOOL_PANE (widget);
  StewardSchemaForm *form = STEWARD_SCHEMA_FORM (self->form);
  g_autoptr(JsonObject) arguments = NULL;
  McpClient *client;

  if (self->cancellable != NULL)
    return;

  if (!steward_schema_form_validate (form))
    {
      gtk_label_set_text (self->status_label, _("Some arguments need attention."));
      gtk_widget_set_visible (GTK_WIDGET (self->status_label), TRUE);
      return;
    }

  arguments = steward_schema_form_dup_values (form);
  if (arguments == NULL)
    arguments = json_object_new ();

  /* The choice holds for this call and the next: one already running
   * cannot become a task. */
  client = steward_server_get_client (self->server);
  if (client != NULL && gtk_widget_get_visible (GTK_WIDGET (self->task_check)))
    mcp_client_set_long_running (client, mcp_item_get_name (MCP_ITEM (self->tool)),
                                 gtk_check_button_get_active (self->task_check));

  gtk_widget_set_visible (GTK_WIDGET (self->status_label), FALSE);
  show_result (self, NULL);
  show_app_view (self, arguments);
  self->cancellable = g_cancellable_new ();
  set_running (self, TRUE);

  steward_server_call_tool_async (self->server, mcp_item_get_name (MCP_ITEM (self->tool)),
                                  arguments,
                                  progress_cb, steward_ui_call_new (self, self->cancellable),
                                  steward_ui_call_free,
                                  self->cancellable, call_cb,
                                  steward_ui_call_new (self, self->cancellable));
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  StewardToolPane *self = STEWARD_TOOL_PANE (widget);

  if (self->cancellable == NULL)
    return;

  /* The core tells the server (notifications/cancelled); the answer, if
   * one still comes, is dropped. */
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->overdue);
  set_running (self, FALSE);
  tell_app_view (self, NULL, _("The call was cancelled."));
  gtk_label_set_text (self->status_label, _("The call was cancelled."));
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), TRUE);
}

static void
steward_tool_pane_dispose (GObject *object)
{
  StewardToolPane *self = STEWARD_TOOL_PANE (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->overdue);
  g_clear_handle_id (&self->pulse_id, g_source_remove);

  gtk_widget_dispose_template (GTK_WIDGET (self), STEWARD_TYPE_TOOL_PANE);

  g_clear_object (&self->server);
  g_clear_object (&self->tool);

  G_OBJECT_CLASS (steward_tool_pane_parent_class)->dispose (object);
}

static void
steward_tool_pane_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  StewardToolPane *self = STEWARD_TOOL_PANE (object);

  switch (prop_id)
    {
    case PROP_RUNNING:
      g_value_set_boolean (value, steward_tool_pane_get_running (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_tool_pane_class_init (StewardToolPaneClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = steward_tool_pane_dispose;
  object_class->get_property = steward_tool_pane_get_property;

  properties[PROP_RUNNING] =
    g_param_spec_boolean ("running", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_action (widget_class, "tool.call", NULL, call_action);
  gtk_widget_class_install_action (widget_class, "tool.cancel", NULL, cancel_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, GDK_CONTROL_MASK,
                                       "tool.call", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Enter, GDK_CONTROL_MASK,
                                       "tool.call", NULL);

  g_type_ensure (STEWARD_TYPE_ITEM_ROW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/stewardmcp/Steward/steward-tool-pane.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardToolPane, header);
  gtk_widget_class_bind_template_child (widget_class, StewardToolPane, form_bin);
  gtk_widget_class_bind_template_child (widget_class, StewardToolPane, call_button);
  gtk_widget_class_bind_template_child (widget_class, StewardToolPane, task_check);
  gtk_widget_class_bind_template_child (widget_class, StewardToolPane, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, StewardToolPane, progress_box);
  gtk_widget_class_bind_template_child (widget_class, StewardToolPane, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, StewardToolPane, progress_label);
  gtk_widget_class_bind_template_child (widget_class, StewardToolPane, status_label);
  gtk_widget_class_bind_template_child (widget_class, StewardToolPane, result_bin);
  gtk_widget_class_bind_template_child (widget_class, StewardToolPane, app_bin);
}

static void
steward_tool_pane_init (StewardToolPane *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "tool.cancel", FALSE);
}

GtkWidget *
steward_tool_pane_new (StewardServer *server,
                       McpTool       *tool)
{
  StewardToolPane *self;
  JsonObject *schema;
  g_autoptr(JsonObject) empty = NULL;
  McpClient *client;

  g_return_val_if_fail (STEWARD_IS_SERVER (server), NULL);
  g_return_val_if_fail (MCP_IS_TOOL (tool), NULL);

  self = g_object_new (STEWARD_TYPE_TOOL_PANE, NULL);
  self->server = g_object_ref (server);
  g_signal_connect_object (server, "call-overdue", G_CALLBACK (call_overdue_cb), self,
                           G_CONNECT_SWAPPED);
  self->tool = g_object_ref (tool);
  steward_item_row_set_item (self->header, MCP_ITEM (tool));

  schema = mcp_tool_get_input_schema (tool);
  if (schema == NULL)
    {
      empty = json_object_new ();
      json_object_set_string_member (empty, "type", "object");
      schema = empty;
    }
  self->form = steward_schema_form_new (schema);
  adw_bin_set_child (self->form_bin, self->form);

  /* Only a tool that may run either way gets the choice: one that needs a
   * task always runs as one, and in 2026-07-28 the server decides. */
  client = steward_server_get_client (server);
  if (client != NULL && mcp_client_supports_tasks (client) &&
      g_str_equal (mcp_tool_get_task_support (tool), "optional") &&
      !mcp_revision_is_stateless (mcp_client_get_revision (client)))
    {
      gtk_widget_set_visible (GTK_WIDGET (self->task_check), TRUE);
      gtk_check_button_set_active (self->task_check,
                                   mcp_client_get_long_running (client,
                                                                mcp_item_get_name (MCP_ITEM (tool))));
    }

  return GTK_WIDGET (self);
}

McpTool *
steward_tool_pane_get_tool (StewardToolPane *self)
{
  g_return_val_if_fail (STEWARD_IS_TOOL_PANE (self), NULL);

  return self->tool;
}

GtkWidget *
steward_tool_pane_get_form (StewardToolPane *self)
{
  g_return_val_if_fail (STEWARD_IS_TOOL_PANE (self), NULL);

  return self->form;
}

GtkWidget *
steward_tool_pane_get_result_view (StewardToolPane *self)
{
  g_return_val_if_fail (STEWARD_IS_TOOL_PANE (self), NULL);

  return adw_bin_get_child (self->result_bin);
}

gboolean
steward_tool_pane_get_running (StewardToolPane *self)
{
  g_return_val_if_fail (STEWARD_IS_TOOL_PANE (self), FALSE);

  return self->cancellable != NULL;
}

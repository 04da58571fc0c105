/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-task-row"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-tool-result.h"

#include "steward-task-row.h"

/* A result longer than this is cut in the row; the whole of it is in the
 * journal and in the chat that asked for it. */
#define MAX_RESULT_CHARS 4000

struct _StewardTaskRow
{
  GtkListBoxRow     parent_instance;

  StewardTaskEntry *entry;

  GtkImage         *status_icon;
  GtkLabel         *title_label;
  GtkLabel         *subtitle_label;
  GtkLabel         *message_label;
  GtkLabel         *elapsed_label;
  GtkButton        *cancel_button;
  GtkProgressBar   *progress_bar;
  GtkExpander      *result_expander;
  GtkLabel         *result_label;
};

G_DEFINE_FINAL_TYPE (StewardTaskRow, steward_task_row, GTK_TYPE_LIST_BOX_ROW)

enum {
  SIGNAL_CANCEL,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const char *
status_text (McpTaskStatus status)
{
  switch (status)
    {
    case MCP_TASK_WORKING:
      /* Translators: the status of a task that runs. */
      return C_("task", "Working");
    case MCP_TASK_INPUT_REQUIRED:
      return C_("task", "Waiting for your answer");
    case MCP_TASK_COMPLETED:
      return C_("task", "Completed");
    case MCP_TASK_FAILED:
      return C_("task", "Failed");
    case MCP_TASK_CANCELLED:
      return C_("task", "Cancelled");
    case MCP_TASK_FORGOTTEN:
      /* Translators: the server no longer knows the task, e.g. after it
       * restarted; nothing more will come of it. */
      return C_("task", "Forgotten by the server");
    default:
      return "";
    }
}

static const char *
status_icon (McpTaskStatus status)
{
  switch (status)
    {
    case MCP_TASK_WORKING:
      return "content-loading-symbolic";
    case MCP_TASK_INPUT_REQUIRED:
      return "dialog-question-symbolic";
    case MCP_TASK_COMPLETED:
      return "object-select-symbolic";
    case MCP_TASK_FAILED:
      return "dialog-error-symbolic";
    case MCP_TASK_CANCELLED:
      return "process-stop-symbolic";
    case MCP_TASK_FORGOTTEN:
    default:
      return "dialog-warning-symbolic";
    }
}

static char *
format_elapsed (GTimeSpan span)
{
  gint64 seconds = MAX (span / G_TIME_SPAN_SECOND, 0);

  /* A task of a month is shown in hours all the same. */
  seconds = MIN (seconds, G_MAXINT);

  if (seconds < 3600)
    /* Translators: minutes and seconds a task has run, e.g. "2:05". */
    return g_strdup_printf (_("%d:%02d"), (int) (seconds / 60), (int) (seconds % 60));

  /* Translators: hours, minutes and seconds a task has run. */
  return g_strdup_printf (_("%d:%02d:%02d"), (int) (seconds / 3600),
                          (int) (seconds / 60 % 60), (int) (seconds % 60));
}

/**
 * steward_task_row_tick:
 *
 * Brings the time so far up to date (once a second while the task runs).
 */
void
steward_task_row_tick (StewardTaskRow *self)
{
  GDateTime *started = steward_task_entry_get_started (self->entry);
  GDateTime *finished = steward_task_entry_get_finished (self->entry);
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *elapsed = format_elapsed (g_date_time_difference (finished ? finished : now,
                                                                     started));

  gtk_label_set_label (self->elapsed_label, elapsed);
}

static void
update (StewardTaskRow *self)
{
  McpTask *task = steward_task_entry_get_task (self->entry);
  McpTaskStatus status = mcp_task_get_status (task);
  const char *tool = mcp_task_get_tool_name (task);
  const char *message = mcp_task_get_status_message (task);
  const GError *error = mcp_task_get_error (task);
  JsonObject *result = mcp_task_get_result (task);
  gboolean running = !mcp_task_is_terminal (task);
  g_autofree char *subtitle = NULL;
  g_autofree char *accessible = NULL;
  double total = mcp_task_get_total (task);

  gtk_label_set_label (self->title_label, tool ? tool : mcp_task_get_id (task));
  /* Translators: under a task's tool: its server, then its status. */
  subtitle = g_strdup_printf (_("%s · %s"), steward_task_entry_get_server_name (self->entry),
                              status_text (status));
  gtk_label_set_label (self->subtitle_label, subtitle);
  gtk_label_set_label (self->message_label, message ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->message_label), message != NULL && *message != '\0');
  gtk_image_set_from_icon_name (self->status_icon, status_icon (status));

  gtk_widget_set_visible (GTK_WIDGET (self->cancel_button), running);
  gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), running);
  if (running && total > 0)
    gtk_progress_bar_set_fraction (self->progress_bar,
                                   CLAMP (mcp_task_get_progress (task) / total, 0.0, 1.0));
  else if (running)
    gtk_progress_bar_pulse (self->progress_bar);

  if (result != NULL)
    {
      g_autoptr(McpToolResult) tool_result = mcp_tool_result_new (result);
      g_autofree char *text = mcp_tool_result_dup_text (tool_result);
      g_autofree char *shown = NULL;

      if (text != NULL && g_utf8_strlen (text, -1) > MAX_RESULT_CHARS)
        {
          g_autofree char *start = g_utf8_substring (text, 0, MAX_RESULT_CHARS);

          shown = g_strconcat (start, "…", NULL);
        }
      gtk_label_set_label (self->result_label, shown ? shown : text ? text : "");
    }
  else if (error != NULL)
    gtk_label_set_label (self->result_label, error->message);
  gtk_widget_set_visible (GTK_WIDGET (self->result_expander), result != NULL || error != NULL);

  /* Translators: how a screen reader names a task's row: the tool, its
   * server and its status. */
  accessible = g_strdup_printf (_("%s on %s: %s"), tool ? tool : mcp_task_get_id (task),
                                steward_task_entry_get_server_name (self->entry),
                                status_text (status));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  accessible, -1);

  steward_task_row_tick (self);
}

static void
cancel_clicked_cb (StewardTaskRow *self,
                   GtkButton      *button)
{
  gtk_widget_set_sensitive (GTK_WIDGET (button), FALSE);
  g_signal_emit (self, signals[SIGNAL_CANCEL], 0);
}

static void
steward_task_row_dispose (GObject *object)
{
  StewardTaskRow *self = STEWARD_TASK_ROW (object);

  g_clear_object (&self->entry);

  G_OBJECT_CLASS (steward_task_row_parent_class)->dispose (object);
}

static void
steward_task_row_class_init (StewardTaskRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = steward_task_row_dispose;

  /**
   * StewardTaskRow::cancel:
   *
   * The person asked to cancel the task.
   */
  signals[SIGNAL_CANCEL] = g_signal_new ("cancel", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                         0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/stewardmcp/Steward/"
                                                             "steward-task-row.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardTaskRow, status_icon);
  gtk_widget_class_bind_template_child (widget_class, StewardTaskRow, title_label);
  gtk_widget_class_bind_template_child (widget_class, StewardTaskRow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, StewardTaskRow, message_label);
  gtk_widget_class_bind_template_child (widget_class, StewardTaskRow, elapsed_label);
  gtk_widget_class_bind_template_child (widget_class, StewardTaskRow, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, StewardTaskRow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, StewardTaskRow, result_expander);
  gtk_widget_class_bind_template_child (widget_class, StewardTaskRow, result_label);
  gtk_widget_class_bind_template_callback (widget_class, cancel_clicked_cb);
}

static void
steward_task_row_init (StewardTaskRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
steward_task_row_new (StewardTaskEntry *entry)
{
  StewardTaskRow *self;

  g_return_val_if_fail (STEWARD_IS_TASK_ENTRY (entry), NULL);

  self = g_object_new (STEWARD_TYPE_TASK_ROW, NULL);
  self->entry = g_object_ref (entry);
  g_signal_connect_object (entry, "changed", G_CALLBACK (update), self, G_CONNECT_SWAPPED);
  update (self);

  return GTK_WIDGET (self);
}

StewardTaskEntry *
steward_task_row_get_entry (StewardTaskRow *self)
{
  g_return_val_if_fail (STEWARD_IS_TASK_ROW (self), NULL);

  return self->entry;
}

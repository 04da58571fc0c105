/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-tasks-page"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-task-list.h"
#include "steward-task-row.h"
#include "steward-tasks-page.h"

struct _StewardTasksPage
{
  AdwBin           parent_instance;

  StewardHost     *host;
  StewardTaskList *tasks;
  guint            tick_id;

  GtkStack        *stack;
  AdwStatusPage   *empty_page;
  GtkListBox      *list_box;
};

enum {
  PROP_0,
  PROP_HOST,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (StewardTasksPage, steward_tasks_page, ADW_TYPE_BIN)

/* Whether an entry was seen running, so that its end is told only once. */
#define WAS_RUNNING_KEY "steward-tasks-page-was-running"

static void
update_stack (StewardTasksPage *self)
{
  gtk_stack_set_visible_child_name (self->stack,
                                    g_list_model_get_n_items (G_LIST_MODEL (self->tasks)) > 0
                                      ? "list" : "empty");
}

static void
row_cancel_cb (StewardTaskRow   *row,
               StewardTasksPage *self)
{
  steward_task_list_cancel (self->tasks, steward_task_row_get_entry (row));
}

static GtkWidget *
create_row (gpointer item,
            gpointer user_data)
{
  StewardTasksPage *self = user_data;
  GtkWidget *row = steward_task_row_new (item);

  g_signal_connect_object (row, "cancel", G_CALLBACK (row_cancel_cb), self, 0);
  return row;
}

/* A task that ends while the window is not in front says so on the
 * desktop; one that ends while the person looks shows it in its row. */
static void
entry_changed_cb (StewardTaskEntry *entry,
                  StewardTasksPage *self)
{
  McpTask *task = steward_task_entry_get_task (entry);
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GApplication *app = g_application_get_default ();
  g_autoptr(GNotification) notification = NULL;
  g_autofree char *id = NULL;
  g_autofree char *title = NULL;
  const char *tool = mcp_task_get_tool_name (task);
  const char *message = mcp_task_get_status_message (task);

  if (!mcp_task_is_terminal (task))
    {
      g_object_set_data (G_OBJECT (entry), WAS_RUNNING_KEY, GINT_TO_POINTER (TRUE));
      return;
    }
  if (g_object_get_data (G_OBJECT (entry), WAS_RUNNING_KEY) == NULL)
    return;
  g_object_set_data (G_OBJECT (entry), WAS_RUNNING_KEY, NULL);

  if (app == NULL || (GTK_IS_WINDOW (root) && gtk_window_is_active (GTK_WINDOW (root))))
    return;

  switch (mcp_task_get_status (task))
    {
    case MCP_TASK_COMPLETED:
      /* Translators: a desktop notification; %s is the tool's name. */
      title = g_strdup_printf (_("“%s” finished"), tool ? tool : mcp_task_get_id (task));
      break;
    case MCP_TASK_CANCELLED:
      title = g_strdup_printf (_("“%s” was cancelled"), tool ? tool : mcp_task_get_id (task));
      break;
    default:
      title = g_strdup_printf (_("“%s” did not finish"), tool ? tool : mcp_task_get_id (task));
      break;
    }

  notification = g_notification_new (title);
  /* Translators: the body of the notification: the server's name. */
  if (message != NULL)
    {
      g_autofree char *body = g_strdup_printf (_("%s: %s"),
                                               steward_task_entry_get_server_name (entry),
                                               message);

      g_notification_set_body (notification, body);
    }
  else
    g_notification_set_body (notification, steward_task_entry_get_server_name (entry));

  id = g_strdup_printf ("task-%s", mcp_task_get_id (task));
  g_application_send_notification (app, id, notification);
}

static void
watch_entries (StewardTasksPage *self,
               guint             position,
               guint             added)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(StewardTaskEntry) entry = g_list_model_get_item (G_LIST_MODEL (self->tasks), i);

      if (!mcp_task_is_terminal (steward_task_entry_get_task (entry)))
        g_object_set_data (G_OBJECT (entry), WAS_RUNNING_KEY, GINT_TO_POINTER (TRUE));
      g_signal_connect_object (entry, "changed", G_CALLBACK (entry_changed_cb), self, 0);
    }
}

static void
items_changed_cb (GListModel       *model,
                  guint             position,
                  guint             removed,
                  guint             added,
                  StewardTasksPage *self)
{
  watch_entries (self, position, added);
  update_stack (self);
}

/* The time so far of the rows whose tasks run goes on once a second. */
static gboolean
tick_cb (gpointer user_data)
{
  StewardTasksPage *self = user_data;
  GtkWidget *child;

  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    return G_SOURCE_CONTINUE;

  for (child = gtk_widget_get_first_child (GTK_WIDGET (self->list_box));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (STEWARD_IS_TASK_ROW (child) &&
        !mcp_task_is_terminal (steward_task_entry_get_task (
                                 steward_task_row_get_entry (STEWARD_TASK_ROW (child)))))
      steward_task_row_tick (STEWARD_TASK_ROW (child));

  return G_SOURCE_CONTINUE;
}

static void
steward_tasks_page_constructed (GObject *object)
{
  StewardTasksPage *self = STEWARD_TASKS_PAGE (object);

  G_OBJECT_CLASS (steward_tasks_page_parent_class)->constructed (object);

  self->tasks = g_object_ref (steward_task_list_get_for_host (self->host));
  gtk_list_box_bind_model (self->list_box, G_LIST_MODEL (self->tasks), create_row, self, NULL);
  g_signal_connect_object (self->tasks, "items-changed", G_CALLBACK (items_changed_cb), self, 0);
  watch_entries (self, 0, g_list_model_get_n_items (G_LIST_MODEL (self->tasks)));
  update_stack (self);

  self->tick_id = g_timeout_add_seconds (1, tick_cb, self);
}

static void
steward_tasks_page_dispose (GObject *object)
{
  StewardTasksPage *self = STEWARD_TASKS_PAGE (object);

  g_clear_handle_id (&self->tick_id, g_source_remove);
  if (self->list_box != NULL)
    gtk_list_box_bind_model (self->list_box, NULL, NULL, NULL, NULL);
  g_clear_object (&self->tasks);
  g_clear_object (&self->host);

  G_OBJECT_CLASS (steward_tasks_page_parent_class)->dispose (object);
}

static void
steward_tasks_page_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  StewardTasksPage *self = STEWARD_TASKS_PAGE (object);

  switch (prop_id)
    {
    case PROP_HOST:
      g_value_set_object (value, self->host);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_tasks_page_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  StewardTasksPage *self = STEWARD_TASKS_PAGE (object);

  switch (prop_id)
    {
    case PROP_HOST:
      self->host = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* The page is made with the window, to follow the tasks from the start,
 * but is seldom shown: a 128 px icon has no pre-rendered form in the icon
 * theme, and looking it up renders its SVG, which loads librsvg into the
 * app before its first frame. */
static void
steward_tasks_page_map (GtkWidget *widget)
{
  StewardTasksPage *self = STEWARD_TASKS_PAGE (widget);

  if (adw_status_page_get_icon_name (self->empty_page) == NULL)
    adw_status_page_set_icon_name (self->empty_page, "alarm-symbolic");

  GTK_WIDGET_CLASS (steward_tasks_page_parent_class)->map (widget);
}

static void
steward_tasks_page_class_init (StewardTasksPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = steward_tasks_page_constructed;
  object_class->dispose = steward_tasks_page_dispose;
  object_class->get_property = steward_tasks_page_get_property;
  object_class->set_property = steward_tasks_page_set_property;

  widget_class->map = steward_tasks_page_map;

  properties[PROP_HOST] =
    g_param_spec_object ("host", NULL, NULL,
                         STEWARD_TYPE_HOST,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/stewardmcp/Steward/"
                                                             "steward-tasks-page.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardTasksPage, stack);
  gtk_widget_class_bind_template_child (widget_class, StewardTasksPage, empty_page);
  gtk_widget_class_bind_template_child (widget_class, StewardTasksPage, list_box);
}

static void
steward_tasks_page_init (StewardTasksPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
steward_tasks_page_new (StewardHost *host)
{
  g_return_val_if_fail (STEWARD_IS_HOST (host), NULL);

  return g_object_new (STEWARD_TYPE_TASKS_PAGE, "host", host, NULL);
}

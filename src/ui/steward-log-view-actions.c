/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-log-view"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-client.h"
#include "steward-file-chooser.h"
#include "steward-log-row.h"
#include "steward-log-view-private.h"

/* The actions that act on the entries or a server rather than on what is
 * shown: set a server's level, copy, export. */

typedef struct
{
  StewardLogView *self;
  char           *server;
  char           *level;
} SetLevelData;

static void
set_level_data_free (SetLevelData *data)
{
  g_object_unref (data->self);
  g_free (data->server);
  g_free (data->level);
  g_free (data);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SetLevelData, set_level_data_free)

static void
set_level_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(SetLevelData) data = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *title = NULL;

  if (!mcp_client_set_log_level_finish (MCP_CLIENT (object), result, &error))
    {
      if (g_cancellable_is_cancelled (data->self->cancellable))
        return;

      /* Translators: %s is a server's name, then the reason. */
      title = g_strdup_printf (_("Could not set the log level of “%s”: %s"),
                               data->server, error->message);
      steward_error_banner_set_message (data->self->error_banner, title);
      return;
    }

  if (g_cancellable_is_cancelled (data->self->cancellable))
    return;

  /* Translators: a server's name and a log level ("warning"). */
  title = g_strdup_printf (_("“%s” now logs from “%s” up"), data->server, data->level);
  steward_error_banner_clear (data->self->error_banner);
  steward_log_view_show_toast (data->self, title);
}

static void
set_level_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  StewardLogView *self = STEWARD_LOG_VIEW (widget);
  const char *level = g_variant_get_string (parameter, NULL);
  StewardServer *server = steward_log_view_lookup_chosen_server (self);
  McpClient *client = server != NULL ? steward_server_get_client (server) : NULL;
  SetLevelData *data;

  if (client == NULL || !mcp_log_level_is_valid (level))
    return;

  data = g_new0 (SetLevelData, 1);
  data->self = g_object_ref (self);
  data->server = g_strdup (self->server);
  data->level = g_strdup (level);
  mcp_client_set_log_level_async (client, level, self->cancellable, set_level_cb, data);
}

static void
copy_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  StewardLogView *self = STEWARD_LOG_VIEW (widget);
  StewardLogEntry *selected = gtk_single_selection_get_selected_item (self->selection);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *title = NULL;
  guint n_copied = 0;

  if (selected != NULL)
    {
      steward_log_row_describe_entry (selected, text, TRUE);
      n_copied = 1;
    }
  else
    {
      GListModel *model = steward_log_view_get_shown_model (self);
      guint n_items = g_list_model_get_n_items (model);
      guint i;

      for (i = 0; i < n_items; i++)
        {
          g_autoptr(StewardLogEntry) entry = g_list_model_get_item (model, i);

          steward_log_row_describe_entry (entry, text, FALSE);
        }
      n_copied = n_items;
    }

  if (n_copied == 0)
    return;

  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text->str);
  title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Copied %u entry", "Copied %u entries",
                                        n_copied),
                           n_copied);
  steward_log_view_show_toast (self, title);
}

static void
export_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  StewardLogView *self = STEWARD_LOG_VIEW (object);
  g_autoptr(GFile) file = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  g_autofree char *title = NULL;

  if (!steward_log_view_export_finish (self, result, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;

      /* The person has to choose another place: keep the reason in view
       * until they do, not in a toast that goes. */
      title = g_strdup_printf (_("Could not export the log: %s"), error->message);
      steward_error_banner_set_message (self->error_banner, title);
      return;
    }

  name = g_file_get_basename (file);
  /* Translators: %s is a file name. */
  title = g_strdup_printf (_("Log exported to “%s”"), name);
  steward_error_banner_clear (self->error_banner);
  steward_log_view_show_toast (self, title);
}

/**
 * steward_log_view_export_to:
 * @file: where the entries shown go; JSON Lines when its name ends in
 *   “.jsonl” or “.json”, text otherwise
 *
 * Exports as the Export button does once a place is chosen, and reports
 * the outcome: a failure stays shown until dismissed or an export works.
 */
void
steward_log_view_export_to (StewardLogView *self,
                            GFile          *file)
{
  g_autofree char *name = NULL;
  gboolean as_json;

  g_return_if_fail (STEWARD_IS_LOG_VIEW (self));
  g_return_if_fail (G_IS_FILE (file));

  name = g_file_get_basename (file);
  as_json = name != NULL && (g_str_has_suffix (name, ".jsonl") || g_str_has_suffix (name, ".json"));
  steward_log_view_export_async (self, file, as_json, self->cancellable,
                                 export_done_cb, g_object_ref (file));
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  StewardLogView *self = STEWARD_LOG_VIEW (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  g_autoptr(GListStore) filters = g_list_store_new (GTK_TYPE_FILE_FILTER);
  g_autoptr(GtkFileFilter) text_filter = gtk_file_filter_new ();
  g_autoptr(GtkFileFilter) json_filter = gtk_file_filter_new ();
  StewardFileQuestion question = {
    .action = GTK_FILE_CHOOSER_ACTION_SAVE,
    .title = _("Export Log"),
    .accept_label = _("_Export"),
    .filters = G_LIST_MODEL (filters),
    .initial_name = "steward-log.txt",
  };

  gtk_file_filter_set_name (text_filter, _("Text (.txt)"));
  gtk_file_filter_add_suffix (text_filter, "txt");
  gtk_file_filter_add_suffix (text_filter, "log");
  g_list_store_append (filters, text_filter);
  gtk_file_filter_set_name (json_filter, _("JSON Lines (.jsonl)"));
  gtk_file_filter_add_suffix (json_filter, "jsonl");
  g_list_store_append (filters, json_filter);

  steward_file_chooser_choose_for (self, &self->export_chooser,
                                   GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                   &question,
                                   (StewardFileChosenFunc) steward_log_view_export_to);
}

void
steward_log_view_install_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "log.set-level", "s", set_level_action);
  gtk_widget_class_install_action (widget_class, "log.copy", NULL, copy_action);
  gtk_widget_class_install_action (widget_class, "log.export", NULL, export_action);
}

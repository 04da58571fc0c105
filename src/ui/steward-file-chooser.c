/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-file-chooser"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-file-chooser.h"

typedef struct
{
  GtkFileChooserNative *chooser;
  gulong                cancelled_id;
} ChooseData;

static void
choose_data_free (ChooseData *data)
{
  gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (data->chooser));
  g_object_unref (data->chooser);
  g_free (data);
}

/* Answers the task once, whichever comes first: the person's response or
 * the caller's cancellation; @file (transfer full) is %NULL for none. */
static void
complete (GTask *task,
          GFile *file)
{
  ChooseData *data = g_task_get_task_data (task);

  /* A plain disconnect: g_cancellable_disconnect() would wait for the
   * "cancelled" handler this may run from. */
  if (data->cancelled_id != 0)
    g_signal_handler_disconnect (g_task_get_cancellable (task), data->cancelled_id);
  data->cancelled_id = 0;
  g_signal_handlers_disconnect_by_data (data->chooser, task);
  gtk_native_dialog_hide (GTK_NATIVE_DIALOG (data->chooser));

  if (file != NULL)
    g_task_return_pointer (task, file, g_object_unref);
  else
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                             _("No file was chosen"));

  /* The reference the open chooser held. */
  g_object_unref (task);
}

static void
response_cb (GtkNativeDialog *chooser,
             int              response,
             GTask           *task)
{
  GFile *file = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

  complete (task, file);
}

static void
cancelled_cb (GCancellable *cancellable,
              GTask        *task)
{
  complete (task, NULL);
}

void
steward_file_chooser_choose_async (GtkWindow            *parent,
                                   GtkFileChooserAction  action,
                                   const char           *title,
                                   const char           *accept_label,
                                   GListModel           *filters,
                                   const char           *initial_name,
                                   GFile                *initial_file,
                                   GCancellable         *cancellable,
                                   GAsyncReadyCallback   callback,
                                   gpointer              user_data)
{
  g_autoptr(GTask) task = NULL;
  ChooseData *data;

  g_return_if_fail (parent == NULL || GTK_IS_WINDOW (parent));
  g_return_if_fail (title != NULL);
  g_return_if_fail (accept_label != NULL);
  g_return_if_fail (filters == NULL || G_IS_LIST_MODEL (filters));
  g_return_if_fail (initial_file == NULL || G_IS_FILE (initial_file));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_file_chooser_choose_async);

  data = g_new0 (ChooseData, 1);
  data->chooser = gtk_file_chooser_native_new (title, parent, action, accept_label,
                                               _("_Cancel"));
  g_task_set_task_data (task, data, (GDestroyNotify) choose_data_free);

  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (data->chooser), TRUE);
  if (initial_name != NULL)
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (data->chooser), initial_name);
  if (initial_file != NULL)
    gtk_file_chooser_set_file (GTK_FILE_CHOOSER (data->chooser), initial_file, NULL);
  for (guint i = 0; filters != NULL && i < g_list_model_get_n_items (filters); i++)
    {
      g_autoptr(GtkFileFilter) filter = g_list_model_get_item (filters, i);

      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (data->chooser), filter);
    }

  if (g_task_return_error_if_cancelled (task))
    return;

  /* The open chooser holds a reference to the task until complete(). */
  g_object_ref (task);
  g_signal_connect (data->chooser, "response", G_CALLBACK (response_cb), task);
  if (cancellable != NULL)
    data->cancelled_id = g_signal_connect (cancellable, "cancelled",
                                           G_CALLBACK (cancelled_cb), task);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (data->chooser));
}

GFile *
steward_file_chooser_choose_finish (GAsyncResult  *result,
                                    GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        steward_file_chooser_choose_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

typedef struct
{
  GObject               *owner;
  GCancellable         **busy;
  StewardFileChosenFunc  chosen;
} ChooseForData;

static void
chosen_for_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  ChooseForData *data = user_data;
  g_autoptr(GObject) owner = data->owner;
  g_autoptr(GFile) file = steward_file_chooser_choose_finish (result, NULL);

  g_clear_object (data->busy);

  if (file != NULL)
    data->chosen (owner, file);

  g_free (data);
}

void
steward_file_chooser_choose_for (gpointer                   owner,
                                 GCancellable             **busy,
                                 GtkWindow                 *parent,
                                 const StewardFileQuestion *question,
                                 StewardFileChosenFunc      chosen)
{
  ChooseForData *data;

  g_return_if_fail (G_IS_OBJECT (owner));
  g_return_if_fail (busy != NULL);
  g_return_if_fail (question != NULL);
  g_return_if_fail (chosen != NULL);

  if (*busy != NULL)
    return;

  data = g_new0 (ChooseForData, 1);
  data->owner = g_object_ref (owner);
  data->busy = busy;
  data->chosen = chosen;

  *busy = g_cancellable_new ();
  steward_file_chooser_choose_async (parent, question->action, question->title,
                                     question->accept_label, question->filters,
                                     question->initial_name, question->initial_file,
                                     *busy, chosen_for_cb, data);
}

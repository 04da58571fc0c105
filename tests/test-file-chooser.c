/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-file-chooser"

#include "config.h"

#include <adwaita.h>

#include "steward-file-chooser.h"

/* The shared file chooser answers once, with G_IO_ERROR_CANCELLED, when
 * the view that opened it goes; a chooser asked for after that never
 * opens. What the person picks comes from the native chooser itself. */

typedef struct
{
  gboolean  done;
  GFile    *file;
  GError   *error;
} Answer;

static void
chosen_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  Answer *answer = user_data;

  g_assert_false (answer->done);
  answer->file = steward_file_chooser_choose_finish (result, &answer->error);
  answer->done = TRUE;
}

static gboolean
timed_out_cb (gpointer user_data)
{
  gboolean *timed_out = user_data;

  *timed_out = TRUE;
  return G_SOURCE_REMOVE;
}

static void
wait_for_answer (Answer *answer)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add_seconds (10, timed_out_cb, &timed_out);

  while (!answer->done && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (timed_out);
  g_source_remove (id);
}

static void
test_cancelled_while_open (void)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GListStore) filters = g_list_store_new (GTK_TYPE_FILE_FILTER);
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  GtkWidget *window = gtk_window_new ();
  Answer answer = { 0 };

  gtk_file_filter_add_suffix (filter, "json");
  g_list_store_append (filters, filter);
  gtk_window_present (GTK_WINDOW (window));

  steward_file_chooser_choose_async (GTK_WINDOW (window), GTK_FILE_CHOOSER_ACTION_SAVE,
                                     "Export", "_Export", G_LIST_MODEL (filters),
                                     "steward.json", NULL, cancellable, chosen_cb, &answer);
  /* Still open: nothing is answered until the person or the view acts. */
  g_main_context_iteration (NULL, FALSE);
  g_assert_false (answer.done);

  g_cancellable_cancel (cancellable);
  wait_for_answer (&answer);
  g_assert_null (answer.file);
  g_assert_error (answer.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  g_clear_error (&answer.error);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_cancelled_before (void)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GFile) start = g_file_new_for_path (g_get_tmp_dir ());
  Answer answer = { 0 };

  g_cancellable_cancel (cancellable);
  steward_file_chooser_choose_async (NULL, GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                     "Add Folder", "_Add", NULL, NULL, start, cancellable,
                                     chosen_cb, &answer);
  wait_for_answer (&answer);
  g_assert_null (answer.file);
  g_assert_error (answer.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&answer.error);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/steward/file-chooser/cancelled-while-open", test_cancelled_while_open);
  g_test_add_func ("/steward/file-chooser/cancelled-before", test_cancelled_before);

  return g_test_run ();
}

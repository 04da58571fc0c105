/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-sampling-broker"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-sampling-file-queue.h"

struct _StewardSamplingFileQueue
{
  GThreadPool *pool;
};

typedef struct {
  GFile                   *file;
  StewardSamplingFileWork  work;
  gpointer                 data;
  GDestroyNotify           data_free;
  GTask                   *task;         /* NULL for appends: nobody waits for them */
  GMainContext            *context;

  /* What the worker found, handed back on the main context. */
  GError                  *error;
  gpointer                 result;
  GDestroyNotify           result_free;
} Job;

static void
job_free (Job *job)
{
  g_clear_object (&job->file);
  if (job->data != NULL && job->data_free != NULL)
    job->data_free (job->data);
  g_clear_object (&job->task);
  g_clear_pointer (&job->context, g_main_context_unref);
  g_clear_error (&job->error);
  if (job->result != NULL && job->result_free != NULL)
    job->result_free (job->result);
  g_free (job);
}

static gboolean
ensure_parent (GFile   *file,
               GError **error)
{
  g_autoptr(GFile) parent = g_file_get_parent (file);
  g_autoptr(GError) local_error = NULL;

  if (parent == NULL)
    return TRUE;

  if (!g_file_make_directory_with_parents (parent, NULL, &local_error) &&
      !g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_EXISTS))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  return TRUE;
}

static gpointer
append_work (GFile         *file,
             gpointer       data,
             GCancellable  *cancellable,
             GError       **error)
{
  g_autoptr(GFileOutputStream) stream = NULL;
  g_autoptr(GError) local_error = NULL;
  gsize length;
  const char *contents = g_bytes_get_data (data, &length);

  if (ensure_parent (file, &local_error))
    stream = g_file_append_to (file, G_FILE_CREATE_PRIVATE, NULL, &local_error);

  if (stream != NULL &&
      g_output_stream_write_all (G_OUTPUT_STREAM (stream), contents, length, NULL, NULL,
                                 &local_error))
    g_output_stream_close (G_OUTPUT_STREAM (stream), NULL, &local_error);

  if (local_error != NULL)
    {
      g_autofree char *label = g_file_get_parse_name (file);

      g_set_error (error, G_IO_ERROR, local_error->code,
                   "Cannot write the sampling journal %s: %s",
                   label, local_error->message);
    }

  return NULL;
}

/* Back on the main context. The task is returned and let go of here, never
 * on the worker, so that the last reference to its source object is never
 * dropped on another thread. */
static gboolean
job_complete_cb (gpointer data)
{
  Job *job = data;

  if (job->task == NULL)
    g_warning ("%s", job->error->message);
  else if (job->error != NULL)
    g_task_return_error (job->task, g_steal_pointer (&job->error));
  else
    g_task_return_pointer (job->task, g_steal_pointer (&job->result), job->result_free);

  return G_SOURCE_REMOVE;
}

static void
job_run (gpointer data,
         gpointer user_data)
{
  Job *job = data;
  g_autoptr(GSource) source = NULL;
  GCancellable *cancellable = job->task ? g_task_get_cancellable (job->task) : NULL;

  job->result = job->work (job->file, job->data, cancellable, &job->error);

  /* A journal line written needs no answer. */
  if (job->task == NULL && job->error == NULL)
    {
      job_free (job);
      return;
    }

  source = g_idle_source_new ();
  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, job_complete_cb, job, (GDestroyNotify) job_free);
  g_source_set_static_name (source, "[steward] sampling file work");
  g_source_attach (source, job->context);
}

StewardSamplingFileQueue *
steward_sampling_file_queue_new (void)
{
  StewardSamplingFileQueue *queue = g_new0 (StewardSamplingFileQueue, 1);

  queue->pool = g_thread_pool_new (job_run, NULL, 1, FALSE, NULL);

  return queue;
}

void
steward_sampling_file_queue_free (StewardSamplingFileQueue *queue)
{
  if (queue == NULL)
    return;

  /* Lines still queued are written before the queue goes: a journal line
   * is never lost at exit, and nothing writes into a folder after its
   * owner has let it go. Only appends can be left here (a job with a task
   * keeps the queue's owner alive), and they are short. */
  g_thread_pool_free (queue->pool, FALSE, TRUE);
  g_free (queue);
}

void
steward_sampling_file_queue_push (StewardSamplingFileQueue *queue,
                                  GFile                    *file,
                                  StewardSamplingFileWork   work,
                                  gpointer                  data,
                                  GDestroyNotify            data_free,
                                  GTask                    *task,
                                  GDestroyNotify            result_free)
{
  Job *job = g_new0 (Job, 1);

  job->file = g_object_ref (file);
  job->work = work;
  job->data = data;
  job->data_free = data_free;
  job->task = task ? g_object_ref (task) : NULL;
  job->context = task ? g_main_context_ref (g_task_get_context (task))
                      : g_main_context_ref_thread_default ();
  job->result_free = result_free;

  g_thread_pool_push (queue->pool, job, NULL);
}

void
steward_sampling_file_queue_append (StewardSamplingFileQueue *queue,
                                    GFile                    *file,
                                    GBytes                   *bytes)
{
  steward_sampling_file_queue_push (queue, file, append_work, g_bytes_ref (bytes),
                                    (GDestroyNotify) g_bytes_unref, NULL, NULL);
}

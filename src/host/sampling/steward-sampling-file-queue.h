/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/*
 * The sampling files' worker (policies.json, the audit journal): one
 * thread runs the work, one piece at a time in the order asked, so that
 * appends stay in order and a read sees every write asked before it.
 * Private to src/host/sampling.
 */
typedef struct _StewardSamplingFileQueue StewardSamplingFileQueue;

/* Runs on the worker; returns the task's result, or NULL with @error set
 * (NULL without an error is a result too). */
typedef gpointer (*StewardSamplingFileWork) (GFile         *file,
                                             gpointer       data,
                                             GCancellable  *cancellable,
                                             GError       **error);

StewardSamplingFileQueue *steward_sampling_file_queue_new    (void);
/* Work still queued goes on without the queue: it holds all it needs. */
void                      steward_sampling_file_queue_free   (StewardSamplingFileQueue *queue);

/* Runs @work on @file after everything pushed before, and returns @task
 * on its main context with the result (freed with @result_free if nobody
 * takes it) or the error: a task is never let go of on the worker. */
void                      steward_sampling_file_queue_push   (StewardSamplingFileQueue *queue,
                                                              GFile                    *file,
                                                              StewardSamplingFileWork   work,
                                                              gpointer                  data,
                                                              GDestroyNotify            data_free,
                                                              GTask                    *task,
                                                              GDestroyNotify            result_free);

/* Replaces policies.json with @bytes (private to the person, atomically);
 * the task returns TRUE. */
void                      steward_sampling_file_queue_write  (StewardSamplingFileQueue *queue,
                                                              GFile                    *file,
                                                              GBytes                   *bytes,
                                                              GTask                    *task);
/* Appends @bytes to the journal; nobody waits, and a failure is a
 * warning. */
void                      steward_sampling_file_queue_append (StewardSamplingFileQueue *queue,
                                                              GFile                    *file,
                                                              GBytes                   *bytes);
/* The task returns the GBytes of @file, or NULL when there is none. */
void                      steward_sampling_file_queue_read   (StewardSamplingFileQueue *queue,
                                                              GFile                    *file,
                                                              GTask                    *task);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StewardSamplingFileQueue, steward_sampling_file_queue_free)

G_END_DECLS

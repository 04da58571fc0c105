/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "mcp-task.h"
#include "steward-approval.h"
#include "steward-host.h"

G_BEGIN_DECLS

/*
 * Every task the host's servers run, running and recent, as a GListModel
 * of StewardTaskEntry, newest first. Tasks come in as clients start to
 * follow them (a task-only tool called from the Tools page or the chat),
 * and are journalled in the state folder (tasks.json, written whole and
 * atomically) so that after Steward starts again, or a remote server
 * reconnects, the ones still running are followed again: a server that
 * still knows a task gives its result; one that forgot it (a local server
 * that restarted, an expired task) leaves it marked forgotten, with what
 * the server said.
 */

#define STEWARD_TYPE_TASK_ENTRY (steward_task_entry_get_type ())

G_DECLARE_FINAL_TYPE (StewardTaskEntry, steward_task_entry, STEWARD, TASK_ENTRY, GObject)

const char      *steward_task_entry_get_server_name  (StewardTaskEntry *self);
McpTask         *steward_task_entry_get_task         (StewardTaskEntry *self);
GDateTime       *steward_task_entry_get_started      (StewardTaskEntry *self);
GDateTime       *steward_task_entry_get_finished     (StewardTaskEntry *self);
gboolean         steward_task_entry_get_following    (StewardTaskEntry *self);
/* The question (sampling, elicitation) the task waits on; "changed" when
 * one comes or is answered. */
StewardApproval *steward_task_entry_get_question     (StewardTaskEntry *self);

#define STEWARD_TYPE_TASK_LIST (steward_task_list_get_type ())

G_DECLARE_FINAL_TYPE (StewardTaskList, steward_task_list, STEWARD, TASK_LIST, GObject)

StewardTaskList  *steward_task_list_get_for_host  (StewardHost       *host);
StewardTaskList  *steward_task_list_new           (StewardHost       *host,
                                                   GFile             *journal);
void              steward_task_list_cancel        (StewardTaskList   *self,
                                                   StewardTaskEntry  *entry);
void              steward_task_list_flush_async   (StewardTaskList   *self,
                                                   GCancellable      *cancellable,
                                                   GAsyncReadyCallback callback,
                                                   gpointer           user_data);
gboolean          steward_task_list_flush_finish  (StewardTaskList   *self,
                                                   GAsyncResult      *result,
                                                   GError           **error);

G_END_DECLS

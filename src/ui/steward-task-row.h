/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "steward-task-list.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_TASK_ROW (steward_task_row_get_type ())

G_DECLARE_FINAL_TYPE (StewardTaskRow, steward_task_row, STEWARD, TASK_ROW, GtkListBoxRow)

/* One task: its tool and server, status and the server's message, progress,
 * time so far, Cancel while it runs, and the result once it ended. */
GtkWidget        *steward_task_row_new        (StewardTaskEntry *entry);
StewardTaskEntry *steward_task_row_get_entry  (StewardTaskRow   *self);
void              steward_task_row_tick       (StewardTaskRow   *self);

G_END_DECLS

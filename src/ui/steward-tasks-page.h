/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "steward-host.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_TASKS_PAGE (steward_tasks_page_get_type ())

G_DECLARE_FINAL_TYPE (StewardTasksPage, steward_tasks_page, STEWARD, TASKS_PAGE, AdwBin)

/* Tasks: every running and recent task of every server, newest first; a
 * desktop notification when one ends while the window is not in front. */
GtkWidget *steward_tasks_page_new (StewardHost *host);

G_END_DECLS

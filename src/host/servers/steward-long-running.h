/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "steward-host.h"

G_BEGIN_DECLS

/*
 * The person's threshold after which calls become tasks, and the tools it
 * caught. A call already sent as an ordinary request cannot become a task
 * (sending it again would run the tool twice), so it runs on, and past its
 * timeout the person is asked whether to keep waiting. But when a call of
 * a tool that allows tasks (2025-11-25 `taskSupport: "optional"`) runs
 * past the threshold, the tool is remembered for its server, in the state
 * folder (long-running.json), and its later calls go as tasks, in this
 * run of Steward and the next. Tools that need a task always get one, and
 * tools that take none never do; in 2026-07-28 the server decides.
 */

#define STEWARD_LONG_RUNNING_DEFAULT_THRESHOLD 30

#define STEWARD_TYPE_LONG_RUNNING (steward_long_running_get_type ())

G_DECLARE_FINAL_TYPE (StewardLongRunning, steward_long_running, STEWARD, LONG_RUNNING, GObject)

StewardLongRunning *steward_long_running_get_for_host  (StewardHost        *host);
StewardLongRunning *steward_long_running_new           (StewardHost        *host,
                                                        GFile              *file);
/* Seconds; 0 remembers no tool. The "threshold" property. */
guint               steward_long_running_get_threshold (StewardLongRunning *self);
void                steward_long_running_set_threshold (StewardLongRunning *self,
                                                        guint               seconds);
gboolean            steward_long_running_contains      (StewardLongRunning *self,
                                                        const char         *server,
                                                        const char         *tool);

G_END_DECLS

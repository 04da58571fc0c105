/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "steward-server.h"

G_BEGIN_DECLS

/* The restart policy's defaults (docs/ARCHITECTURE.md §3; docs/SECURITY.md,
 * "Hostile or broken servers"). */
#define STEWARD_SERVER_BACKOFF_BASE_MS   1000
#define STEWARD_SERVER_BACKOFF_MAX_MS    (30 * 1000)
#define STEWARD_SERVER_CRASH_WINDOW_MS   (3 * 60 * 1000)
#define STEWARD_SERVER_CRASH_LIMIT       5
/* The longest wait between attempts to reach a remote server that went
 * away, so that it is Ready within a few seconds of coming back. */
#define STEWARD_SERVER_RECONNECT_MAX_MS  4000
/* How many of the last stderr lines a server keeps for its diagnosis. */
#define STEWARD_SERVER_STDERR_LINES      20

/* Tests shorten the restart policy so that a crash loop runs in a second
 * rather than minutes: the first delay, its ceiling, and the window in
 * which STEWARD_SERVER_CRASH_LIMIT crashes make the server give up. */
void   steward_server_set_backoff_for_testing (StewardServer *self,
                                               guint          base_ms,
                                               guint          max_ms,
                                               guint          window_ms);
/* Makes the watch of a connected remote server ping every @interval_ms,
 * so that a test sees a server that hangs without waiting for the
 * default interval. */
void   steward_server_set_watch_interval_for_testing (StewardServer *self,
                                                      guint          interval_ms);
/* Writes @config, an entry of this server, to the servers file (saved in
 * the background) and takes it, as a change of its settings does. */
void   steward_server_put_config              (StewardServer       *self,
                                               StewardServerConfig *config);
/* The last stderr lines kept, oldest first, joined by newlines; NULL when
 * the server wrote none. */
char  *steward_server_dup_stderr_tail         (StewardServer *self);

G_END_DECLS

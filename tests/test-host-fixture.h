/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "steward-host.h"
#include "steward-server.h"

G_BEGIN_DECLS

/* What the tests that run a StewardHost over temporary folders share:
 * the folders, consent recorded as the consent dialog records it, and
 * waiting on the main loop for what the host does. */

/* Runs the main loop until @condition holds; fails after @seconds. The
 * tick wakes the loop so the deadline is seen even when nothing happens. */
#define test_loop_until(condition, seconds)                                    \
  G_STMT_START {                                                              \
    gint64 deadline_ = g_get_monotonic_time () + (seconds) * G_USEC_PER_SEC;   \
    guint tick_ = g_timeout_add (50, test_tick_cb, NULL);                      \
    while (!(condition))                                                      \
      {                                                                       \
        if (g_get_monotonic_time () >= deadline_)                             \
          g_error ("timed out after %d s waiting for: %s", (int) (seconds),    \
                   #condition);                                               \
        g_main_context_iteration (NULL, TRUE);                                \
      }                                                                       \
    g_source_remove (tick_);                                                  \
  } G_STMT_END

gboolean     test_tick_cb          (gpointer             user_data);
void         test_store_result_cb  (GObject             *object,
                                    GAsyncResult        *result,
                                    gpointer             user_data);

void         test_write_text       (const char          *path,
                                    const char          *text);
char        *test_read_text        (const char          *path);
void         test_remove_tree      (const char          *path);
char        *test_make_top         (const char          *name);
StewardHost *test_host_new_in      (const char          *top);
void         test_host_start       (StewardHost         *host,
                                    guint                seconds);
void         test_host_shutdown    (StewardHost         *host,
                                    guint                seconds);
void         test_wait_for_status  (StewardServer       *server,
                                    StewardServerStatus  status,
                                    guint                seconds);
void         test_record_consent   (StewardConfig       *config,
                                    StewardServerConfig *server_config);

G_END_DECLS

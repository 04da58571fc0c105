/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-client.h"

G_BEGIN_DECLS

/*
 * The load that tests/test-stall.c and tests/bench/bench-stall.c put on
 * the main loop: tests/servers/stdio-server.py sending a large message
 * ("big") or a flood of log notifications ("flood") through the stdio
 * transport and the client. What each of them measures while the load
 * runs (turns of the loop, or the gaps between a heartbeat's ticks) is
 * its own, in a source it attaches before stall_load_run().
 */

typedef struct {
  guint     count;      /* log notifications */
  gint64    next_seq;
  gboolean  in_order;   /* whether their "seq" counted up from 0 */
  gsize     big_size;   /* the large message's "pad", once it arrived */
} StallSeen;

typedef gboolean (*StallDoneFunc) (StallSeen *seen);

McpClient *stall_load_connect (const char    *server_path);
void       stall_load_run     (McpClient     *client,
                               const char    *method,
                               const char    *params,
                               StallSeen     *seen,
                               StallDoneFunc  done,
                               guint          deadline_s);
void       stall_load_close   (McpClient     *client);

G_END_DECLS

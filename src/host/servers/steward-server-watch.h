/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-client.h"

G_BEGIN_DECLS

/*
 * Watches that a connected remote server still answers. It asks (a ping)
 * when the transport says the connection broke (the event stream ended, a
 * request found nobody there), and now and then besides: often for a
 * server without an open event stream, whose going away nothing else
 * would tell, seldom for one whose stream would. A ping that fails or
 * takes longer than the timeout emits "lost" with the reason, once.
 */

#define STEWARD_SERVER_WATCH_INTERVAL_MS           4000
#define STEWARD_SERVER_WATCH_LISTENING_INTERVAL_MS (30 * 1000)
#define STEWARD_SERVER_WATCH_TIMEOUT_MS            3000

#define STEWARD_TYPE_SERVER_WATCH (steward_server_watch_get_type ())

G_DECLARE_FINAL_TYPE (StewardServerWatch, steward_server_watch, STEWARD, SERVER_WATCH, GObject)

/* Signals: "lost" (reason), once. */
StewardServerWatch *steward_server_watch_new          (McpClient          *client);
/* Pings every @interval_ms whether or not a stream is open, instead of
 * the intervals above; 0 goes back to them. For tests. */
void                steward_server_watch_set_interval (StewardServerWatch *self,
                                                       guint               interval_ms);

G_END_DECLS

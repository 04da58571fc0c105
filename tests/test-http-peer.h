/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The reference server "everything" over Streamable HTTP (or the legacy
 * HTTP+SSE transport) on the loopback interface, for tests that need a
 * remote server to go away and come back. It is run from
 * $STEWARD_PEERS_DIR. */

typedef struct _TestHttpPeer TestHttpPeer;

/* A port nothing listens on, a moment ago. */
guint16       test_free_port       (void);
/* Starts it on @port, serving /mcp, and waits until it listens. */
TestHttpPeer *test_http_peer_start (guint16       port);
/* The same over the legacy transport, serving /sse. */
TestHttpPeer *test_http_peer_start_sse (guint16   port);
/* Sends @signum to it: SIGSTOP makes it hang with its connections open. */
void          test_http_peer_signal (TestHttpPeer *peer,
                                     int           signum);
/* Kills it at once (SIGKILL, as a crash would) and waits for its end. */
void          test_http_peer_kill  (TestHttpPeer *peer);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The reference server "everything" over Streamable HTTP (or the legacy
 * HTTP+SSE transport) on the loopback interface, for tests that need a
 * remote server to go away and come back. It is run from
 * $STEWARD_PEERS_DIR. */

typedef struct _TestHttpPeer TestHttpPeer;

/* Express listens on every interface unless told otherwise; the server is
 * kept on the loopback interface by giving listen() a host when it was
 * called with a port alone. */
#define TEST_LOOPBACK_ONLY \
  "data:text/javascript,import net from \"node:net\";" \
  "const listen = net.Server.prototype.listen;" \
  "net.Server.prototype.listen = function (...args) {" \
  "  if ((typeof args[0] === \"number\" || typeof args[0] === \"string\") &&" \
  "      typeof args[1] !== \"string\")" \
  "    args.splice (1, 0, \"127.0.0.1\");" \
  "  return listen.apply (this, args);" \
  "};"

/* The installed server's script, under $STEWARD_PEERS_DIR. */
char         *test_everything_script (void);

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

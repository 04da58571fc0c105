/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/**
 * KeepaliveServer:
 *
 * tests/servers/keepalive-server.py, run for one test: a Streamable HTTP
 * server of the handshake era that keeps connections open and records
 * each request it receives, with the connection it came on, as the
 * records below (read as they arrive, on the main loop).
 */
typedef struct {
  GSubprocess      *process;
  GDataInputStream *out;
  GCancellable     *cancellable;
  GPtrArray        *records;  /* JsonObject */
  char             *url;
} KeepaliveServer;

KeepaliveServer *keepalive_server_start        (const char      *first_option,
                                                ...) G_GNUC_NULL_TERMINATED;
void             keepalive_server_stop         (KeepaliveServer *server);
guint            keepalive_server_count_posts  (KeepaliveServer *server,
                                                const char      *method);
JsonObject      *keepalive_server_find_post    (KeepaliveServer *server,
                                                const char      *method,
                                                guint            nth);
guint            keepalive_server_count_connections (KeepaliveServer *server);
gboolean         keepalive_server_has_closed   (KeepaliveServer *server,
                                                gint64           conn);

G_END_DECLS

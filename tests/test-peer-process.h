/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-client.h"

G_BEGIN_DECLS

/*
 * What the tests that drive a real server through McpClient (everything,
 * modern, tasks) do alike: start the server over HTTP and wait until it
 * listens, connect and close a client, and stop the server. Each test
 * chooses its server, its transport and its delegate.
 */

/* A loopback port nothing listened on a moment ago, as text. */
char        *test_peer_free_port (void);
/* Spawns @argv with @launcher (which pipes stderr), waits until a line of
 * its stderr holds @ready, and from then on reads its stderr so that the
 * server never blocks on it. */
GSubprocess *test_peer_spawn     (GSubprocessLauncher *launcher,
                                  const char * const  *argv,
                                  const char          *ready);
/* Stops *@server with SIGTERM, waits for its end and clears it; does
 * nothing when *@server is %NULL. */
void         test_peer_stop      (GSubprocess        **server);

/* A GAsyncReadyCallback that keeps the result in the GAsyncResult *
 * @user_data points to, for wait_for (result != NULL). */
void         test_store_result_cb (GObject        *object,
                                   GAsyncResult   *result,
                                   gpointer        user_data);

/* Connects @client, asserting that it succeeds. */
void         test_client_connect (McpClient           *client);
/* Closes @client, asserting that it closes cleanly, and that nothing but
 * the caller held it. */
void         test_client_close   (McpClient           *client);

G_END_DECLS

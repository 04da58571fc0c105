/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-http-peer"

#include "config.h"

#include <string.h>

#include "test-http-peer.h"

#define DEADLINE_S 30

struct _TestHttpPeer
{
  GSubprocess      *process;
  GDataInputStream *err;
  GCancellable     *cancellable;
  char             *ready_line;
  gboolean          listening;
  gboolean          exited;
};

static gboolean
flag_cb (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

static void
wait_for (gboolean   *flag,
          gboolean   *other,
          const char *what)
{
  gboolean timed_out = FALSE;
  guint timer = g_timeout_add_seconds (DEADLINE_S, flag_cb, &timed_out);

  while (!*flag && !(other != NULL && *other) && !timed_out)
    g_main_context_iteration (NULL, TRUE);

  if (timed_out)
    g_error ("gave up after %d s waiting for the reference server to %s", DEADLINE_S, what);
  g_source_remove (timer);
}

static void
line_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  TestHttpPeer *peer = user_data;
  g_autofree char *line = NULL;

  line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (object), result, NULL,
                                                    NULL);
  if (line == NULL)
    return;

  g_test_message ("peer: %s", line);
  if (strstr (line, peer->ready_line) != NULL)
    peer->listening = TRUE;
  g_data_input_stream_read_line_async (peer->err, G_PRIORITY_DEFAULT, peer->cancellable,
                                       line_cb, peer);
}

static void
exited_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_subprocess_wait_finish (G_SUBPROCESS (object), result, NULL);
  *(gboolean *) user_data = TRUE;
}

char *
test_everything_script (void)
{
  const char *peers = g_getenv ("STEWARD_PEERS_DIR");

  g_assert_nonnull (peers);
  return g_build_filename (peers, "@modelcontextprotocol", "server-everything", "dist",
                           "index.js", NULL);
}

guint16
test_free_port (void)
{
  g_autoptr(GSocket) socket = NULL;
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GError) error = NULL;

  socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP,
                         &error);
  g_assert_no_error (error);
  g_assert_true (g_socket_bind (socket, any, FALSE, &error));
  bound = g_socket_get_local_address (socket, &error);
  g_assert_no_error (error);

  return g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
}

static TestHttpPeer *
peer_start (guint16     port,
            const char *transport,
            const char *ready_words)
{
  g_autofree char *script = test_everything_script ();
  g_autofree char *port_text = g_strdup_printf ("%u", port);
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GError) error = NULL;
  TestHttpPeer *peer = g_new0 (TestHttpPeer, 1);

  /* It says on stderr when it listens; its stdout is not read. */
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_setenv (launcher, "PORT", port_text, TRUE);
  peer->process = g_subprocess_launcher_spawn (launcher, &error, "node", "--import",
                                               TEST_LOOPBACK_ONLY, script, transport, NULL);
  g_assert_no_error (error);

  peer->ready_line = g_strdup_printf ("%s %u", ready_words, port);
  peer->cancellable = g_cancellable_new ();
  peer->err = g_data_input_stream_new (g_subprocess_get_stderr_pipe (peer->process));
  g_data_input_stream_read_line_async (peer->err, G_PRIORITY_DEFAULT, peer->cancellable,
                                       line_cb, peer);
  g_subprocess_wait_async (peer->process, NULL, exited_cb, &peer->exited);

  wait_for (&peer->listening, &peer->exited, "listen");
  g_assert_false (peer->exited);

  return peer;
}

TestHttpPeer *
test_http_peer_start (guint16 port)
{
  return peer_start (port, "streamableHttp", "listening on port");
}

TestHttpPeer *
test_http_peer_start_sse (guint16 port)
{
  return peer_start (port, "sse", "running on port");
}

void
test_http_peer_signal (TestHttpPeer *peer,
                       int           signum)
{
  g_subprocess_send_signal (peer->process, signum);
}

void
test_http_peer_kill (TestHttpPeer *peer)
{
  g_subprocess_force_exit (peer->process);
  wait_for (&peer->exited, NULL, "exit");

  g_cancellable_cancel (peer->cancellable);
  g_object_unref (peer->cancellable);
  g_object_unref (peer->err);
  g_object_unref (peer->process);
  g_free (peer->ready_line);
  g_free (peer);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-peer-process"

#include "config.h"

#include <signal.h>
#include <string.h>

#include "mcp-scripted-transport.h"
#include "test-peer-process.h"

void
test_store_result_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

char *
test_peer_free_port (void)
{
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GSocket) socket = NULL;
  g_autoptr(GError) error = NULL;

  socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP,
                         &error);
  g_assert_no_error (error);
  g_assert_true (g_socket_bind (socket, any, TRUE, &error));
  bound = g_socket_get_local_address (socket, &error);
  g_assert_no_error (error);

  return g_strdup_printf ("%u", g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)));
}

typedef struct {
  char     *line;
  gboolean  done;
} LineRead;

static void
read_line_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  LineRead *read = user_data;
  g_autoptr(GError) error = NULL;

  read->line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (object), result,
                                                          NULL, &error);
  g_assert_no_error (error);
  read->done = TRUE;
}

/* Reads what the server writes on stderr until it exits: a server whose
 * stderr is closed on it would die of it at its next log line. */
static void
drain_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GBytes) bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result,
                                                              NULL);

  if (bytes != NULL && g_bytes_get_size (bytes) > 0)
    g_input_stream_read_bytes_async (G_INPUT_STREAM (object), 4096, G_PRIORITY_DEFAULT, NULL,
                                     drain_cb, NULL);
}

GSubprocess *
test_peer_spawn (GSubprocessLauncher *launcher,
                 const char * const  *argv,
                 const char          *ready)
{
  g_autoptr(GSubprocess) server = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autoptr(GError) error = NULL;

  server = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);

  lines = g_data_input_stream_new (g_subprocess_get_stderr_pipe (server));
  for (;;)
    {
      LineRead read = { NULL, FALSE };
      g_autofree char *line = NULL;

      g_data_input_stream_read_line_async (lines, G_PRIORITY_DEFAULT, NULL, read_line_cb, &read);
      wait_for (read.done);
      line = read.line;
      if (line == NULL)
        g_error ("%s closed its stderr before it said “%s”", argv[1], ready);
      if (strstr (line, ready) != NULL)
        break;
    }

  g_filter_input_stream_set_close_base_stream (G_FILTER_INPUT_STREAM (lines), FALSE);
  g_input_stream_read_bytes_async (g_subprocess_get_stderr_pipe (server), 4096,
                                   G_PRIORITY_DEFAULT, NULL, drain_cb, NULL);

  return g_steal_pointer (&server);
}

void
test_peer_stop (GSubprocess **server)
{
  g_autoptr(GError) error = NULL;

  if (*server == NULL)
    return;

  g_subprocess_send_signal (*server, SIGTERM);
  g_subprocess_wait (*server, NULL, &error);
  g_assert_no_error (error);
  g_clear_object (server);
}

void
test_client_connect (McpClient *client)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  mcp_client_connect_async (client, NULL, test_store_result_cb, &result);
  wait_for (result != NULL);
  g_assert_true (mcp_client_connect_finish (client, result, &error));
  g_assert_no_error (error);
}

void
test_client_close (McpClient *client)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_client_close_async (client, NULL, test_store_result_cb, &result);
  wait_for (result != NULL);
  g_assert_true (mcp_client_close_finish (client, result, NULL));
  g_clear_object (&result);

  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_finalize_object (client);
}

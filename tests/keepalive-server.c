/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "keepalive-server"

#include "config.h"

#include <stdarg.h>

#include "keepalive-server.h"
#include "mcp-json-private.h"
#include "mcp-json.h"
#include "mcp-scripted-transport.h"

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autofree char *line = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  KeepaliveServer *server = user_data;

  line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (object), result, NULL,
                                                    &error);
  if (line == NULL)
    return;

  node = mcp_json_parse (line, -1, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  if (server->url == NULL)
    server->url = g_strdup_printf ("http://127.0.0.1:%d/mcp",
                                   (int) mcp_json_get_number (json_node_get_object (node),
                                                              "port", 0));
  else
    g_ptr_array_add (server->records, json_object_ref (json_node_get_object (node)));

  g_data_input_stream_read_line_async (server->out, G_PRIORITY_DEFAULT, server->cancellable,
                                       read_cb, server);
}

/**
 * keepalive_server_start:
 * @first_option: the first of the server's options, then the others,
 *   ending with %NULL
 *
 * Returns: the server, listening, its URL known
 */
KeepaliveServer *
keepalive_server_start (const char *first_option,
                        ...)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "servers", "keepalive-server.py",
                                                 NULL);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  KeepaliveServer *server = g_new0 (KeepaliveServer, 1);
  const char *option;
  va_list args;

  g_ptr_array_add (argv, path);
  va_start (args, first_option);
  for (option = first_option; option != NULL; option = va_arg (args, const char *))
    g_ptr_array_add (argv, (char *) option);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  server->process = g_subprocess_newv ((const char * const *) argv->pdata,
                                       G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                       G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error);
  g_assert_no_error (error);
  server->out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (server->process));
  server->cancellable = g_cancellable_new ();
  server->records = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
  g_data_input_stream_read_line_async (server->out, G_PRIORITY_DEFAULT, server->cancellable,
                                       read_cb, server);
  wait_for (server->url != NULL);

  return server;
}

void
keepalive_server_stop (KeepaliveServer *server)
{
  g_cancellable_cancel (server->cancellable);
  g_output_stream_close (g_subprocess_get_stdin_pipe (server->process), NULL, NULL);
  g_subprocess_wait (server->process, NULL, NULL);
  g_clear_object (&server->process);
  g_clear_object (&server->out);
  g_clear_object (&server->cancellable);
  g_ptr_array_unref (server->records);
  g_free (server->url);
  g_free (server);
}

/* The POSTs of @method the server has recorded so far. */
guint
keepalive_server_count_posts (KeepaliveServer *server,
                              const char      *method)
{
  guint n = 0;

  for (guint i = 0; i < server->records->len; i++)
    if (g_strcmp0 (mcp_json_get_string (g_ptr_array_index (server->records, i), "method"),
                   method) == 0)
      n++;

  return n;
}

/* The @nth POST of @method, from 0, or %NULL. */
JsonObject *
keepalive_server_find_post (KeepaliveServer *server,
                            const char      *method,
                            guint            nth)
{
  for (guint i = 0; i < server->records->len; i++)
    {
      JsonObject *record = g_ptr_array_index (server->records, i);

      if (g_strcmp0 (mcp_json_get_string (record, "method"), method) == 0 && nth-- == 0)
        return record;
    }

  return NULL;
}

/* How many connections carried the requests recorded so far. */
guint
keepalive_server_count_connections (KeepaliveServer *server)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_direct_hash, g_direct_equal);

  for (guint i = 0; i < server->records->len; i++)
    {
      JsonObject *record = g_ptr_array_index (server->records, i);

      if (mcp_json_get_string (record, "http") != NULL)
        g_hash_table_add (seen, GINT_TO_POINTER ((int) mcp_json_get_number (record, "conn", 0)));
    }

  return g_hash_table_size (seen);
}

gboolean
keepalive_server_has_closed (KeepaliveServer *server,
                             gint64           conn)
{
  for (guint i = 0; i < server->records->len; i++)
    {
      JsonObject *record = g_ptr_array_index (server->records, i);

      if (mcp_json_get_boolean (record, "closed", FALSE) &&
          (gint64) mcp_json_get_number (record, "conn", 0) == conn)
        return TRUE;
    }

  return FALSE;
}

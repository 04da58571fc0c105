/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "stall-load"

#include "config.h"

#include <string.h>

#include "mcp-json-private.h"
#include "mcp-stdio-transport.h"
#include "stall-load.h"

/* How long connecting and closing may take. */
#define SETUP_DEADLINE_S 20

static gboolean
tick_cb (gpointer user_data)
{
  return G_SOURCE_CONTINUE;
}

/* Runs the main context until @done holds, failing after @deadline_s; a
 * ticking source makes sure the deadline is looked at even when nothing
 * else happens. */
static void
run_until (gboolean  (*done) (gpointer data),
           gpointer    data,
           guint       deadline_s)
{
  gint64 deadline = g_get_monotonic_time () + deadline_s * G_USEC_PER_SEC;
  guint tick = g_timeout_add (100, tick_cb, NULL);

  while (!done (data))
    {
      if (g_get_monotonic_time () >= deadline)
        g_error ("stdio-server.py did not finish within %u s", deadline_s);
      g_main_context_iteration (NULL, TRUE);
    }

  g_source_remove (tick);
}

static void
store_result_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static gboolean
result_arrived (gpointer data)
{
  return *(GAsyncResult **) data != NULL;
}

McpClient *
stall_load_connect (const char *server_path)
{
  const char *argv[] = { server_path, NULL };
  g_autoptr(McpStdioTransport) transport = mcp_stdio_transport_new (argv);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpClient *client;

  mcp_stdio_transport_set_max_message_size (transport, 32 * 1024 * 1024);
  client = mcp_client_new (MCP_TRANSPORT (transport));
  mcp_client_connect_async (client, NULL, store_result_cb, &result);
  run_until (result_arrived, &result, SETUP_DEADLINE_S);
  mcp_client_connect_finish (client, result, &error);
  g_assert_no_error (error);

  return client;
}

void
stall_load_close (McpClient *client)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_client_close_async (client, NULL, store_result_cb, &result);
  run_until (result_arrived, &result, SETUP_DEADLINE_S);
}

static void
notification_cb (McpClient  *client,
                 const char *method,
                 JsonObject *params,
                 gpointer    user_data)
{
  StallSeen *seen = user_data;

  if (g_str_equal (method, "big"))
    seen->big_size = strlen (mcp_json_get_string (params, "pad"));
}

static void
log_message_cb (McpClient  *client,
                const char *level,
                const char *logger,
                JsonNode   *data,
                gpointer    user_data)
{
  StallSeen *seen = user_data;
  gint64 seq = json_object_get_int_member (json_node_get_object (data), "seq");

  seen->in_order &= seq == seen->next_seq;
  seen->next_seq = seq + 1;
  seen->count++;
}

typedef struct {
  GAsyncResult   *result;
  StallSeen      *seen;
  StallDoneFunc   done;
} Waiting;

static gboolean
all_arrived (gpointer data)
{
  Waiting *waiting = data;

  return waiting->result != NULL && waiting->done (waiting->seen);
}

/* Sends one request that makes the server send (@params is its JSON), and
 * runs the main loop until its answer and everything @done waits for have
 * arrived. */
void
stall_load_run (McpClient     *client,
                const char    *method,
                const char    *params,
                StallSeen     *seen,
                StallDoneFunc  done,
                guint          deadline_s)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(GError) error = NULL;
  Waiting waiting = { NULL, seen, done };
  gulong notification_id;
  gulong log_id;

  node = mcp_json_from_string (params, &error);
  g_assert_no_error (error);

  seen->in_order = TRUE;
  notification_id = g_signal_connect (client, "notification", G_CALLBACK (notification_cb),
                                      seen);
  log_id = g_signal_connect (client, "log-message", G_CALLBACK (log_message_cb), seen);

  mcp_client_request_async (client, method, json_node_get_object (node), NULL, NULL, NULL,
                            NULL, store_result_cb, &waiting.result);
  run_until (all_arrived, &waiting, deadline_s);

  g_signal_handler_disconnect (client, notification_id);
  g_signal_handler_disconnect (client, log_id);

  reply = mcp_client_request_finish (client, waiting.result, &error);
  g_clear_object (&waiting.result);
  g_assert_no_error (error);
}

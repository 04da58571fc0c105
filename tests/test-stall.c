/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-stall"

#include "config.h"

#include <string.h>

#include "mcp-client.h"
#include "mcp-json-private.h"
#include "mcp-scripted-transport.h"
#include "mcp-stdio-transport.h"

/* What a person would feel: while a server sends a 20 MiB message, or
 * 10,000 notifications a second, through the stdio transport and the
 * client, the main loop keeps turning. A 5 ms timeout ticks throughout
 * and the largest gap between its ticks is the stall. */

#define HEARTBEAT_MS   5
#define STALL_LIMIT_US (50 * 1000)
#define ATTEMPTS       3

typedef struct {
  gint64 last;
  gint64 max_gap;
} Heartbeat;

static gboolean
heartbeat_cb (gpointer user_data)
{
  Heartbeat *hb = user_data;
  gint64 now = g_get_monotonic_time ();

  hb->max_gap = MAX (hb->max_gap, now - hb->last);
  hb->last = now;
  return G_SOURCE_CONTINUE;
}

static void
store_result_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static McpClient *
connect_server (void)
{
  g_autofree char *server = g_test_build_filename (G_TEST_DIST, "servers", "stdio-server.py",
                                                   NULL);
  const char *argv[] = { server, NULL };
  g_autoptr(McpStdioTransport) transport = mcp_stdio_transport_new (argv);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpClient *client;

  mcp_stdio_transport_set_max_message_size (transport, 32 * 1024 * 1024);
  client = mcp_client_new (MCP_TRANSPORT (transport));
  mcp_client_connect_async (client, NULL, store_result_cb, &result);
  wait_for (result != NULL);
  g_assert_true (mcp_client_connect_finish (client, result, &error));
  g_assert_no_error (error);

  return client;
}

static void
close_client (McpClient *client)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_client_close_async (client, NULL, store_result_cb, &result);
  wait_for (result != NULL);
  g_clear_object (&result);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_finalize_object (client);
}

typedef struct {
  guint   count;
  gint64  next_seq;
  gboolean in_order;
  gsize   big_size;
} Seen;

static void
notification_cb (McpClient  *client,
                 const char *method,
                 JsonObject *params,
                 gpointer    user_data)
{
  Seen *seen = user_data;

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
  Seen *seen = user_data;
  gint64 seq = json_object_get_int_member (json_node_get_object (data), "seq");

  seen->in_order &= seq == seen->next_seq;
  seen->next_seq = seq + 1;
  seen->count++;
}

/* Runs one request that makes the server send, and returns the largest
 * gap of the heartbeat from the request until everything arrived. */
static gint64
measure (McpClient  *client,
         const char *method,
         const char *params,
         Seen       *seen,
         gboolean  (*done) (Seen *seen))
{
  g_autoptr(JsonObject) object = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(GError) error = NULL;
  Heartbeat hb = { g_get_monotonic_time (), 0 };
  guint source;

  {
    g_autoptr(JsonNode) node = mcp_json_from_string (params, &error);

    g_assert_no_error (error);
    object = json_object_ref (json_node_get_object (node));
  }

  source = g_timeout_add (HEARTBEAT_MS, heartbeat_cb, &hb);
  mcp_client_request_async (client, method, object, NULL, NULL, NULL, NULL,
                            store_result_cb, &result);
  wait_for (result != NULL && done (seen));
  heartbeat_cb (&hb);
  g_source_remove (source);

  reply = mcp_client_request_finish (client, result, &error);
  g_assert_no_error (error);

  return hb.max_gap;
}

static gboolean
big_done (Seen *seen)
{
  return seen->big_size > 0;
}

static gboolean
flood_done (Seen *seen)
{
  return seen->count == 10000;
}

static void
test_big_message (void)
{
  McpClient *client = connect_server ();
  gint64 best = G_MAXINT64;

  for (guint attempt = 0; attempt < ATTEMPTS && best >= STALL_LIMIT_US; attempt++)
    {
      Seen seen = { 0 };
      gulong id = g_signal_connect (client, "notification", G_CALLBACK (notification_cb), &seen);
      gint64 gap;

      gap = measure (client, "big", "{\"size\":20971520,\"count\":1}", &seen, big_done);
      g_signal_handler_disconnect (client, id);
      g_assert_cmpuint (seen.big_size, ==, 20971520);
      g_test_message ("20 MiB message: largest main-loop gap %.1f ms", gap / 1000.0);
      best = MIN (best, gap);
    }

  g_assert_cmpint (best, <, STALL_LIMIT_US);
  close_client (client);
}

static void
test_notification_flood (void)
{
  McpClient *client = connect_server ();
  gint64 best = G_MAXINT64;

  for (guint attempt = 0; attempt < ATTEMPTS && best >= STALL_LIMIT_US; attempt++)
    {
      Seen seen = { 0, 0, TRUE, 0 };
      gulong id = g_signal_connect (client, "log-message", G_CALLBACK (log_message_cb), &seen);
      gint64 started = g_get_monotonic_time ();
      gint64 gap;

      gap = measure (client, "flood", "{\"count\":10000,\"rate\":10000}", &seen, flood_done);
      g_signal_handler_disconnect (client, id);
      g_assert_true (seen.in_order);
      g_test_message ("10,000 notifications in %.2f s: largest main-loop gap %.1f ms",
                      (g_get_monotonic_time () - started) / (double) G_USEC_PER_SEC,
                      gap / 1000.0);
      best = MIN (best, gap);
    }

  g_assert_cmpint (best, <, STALL_LIMIT_US);
  close_client (client);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/steward/stall/big-message", test_big_message);
  g_test_add_func ("/steward/stall/notification-flood", test_notification_flood);

  return g_test_run ();
}

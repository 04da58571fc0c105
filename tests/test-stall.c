/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-stall"

#include "config.h"

#include <string.h>

#include "mcp-client.h"
#include "mcp-json-private.h"
#include "mcp-scripted-transport.h"
#include "mcp-stdio-transport.h"

/* While a server sends a 20 MiB message, or a flood of notifications,
 * through the stdio transport and the client, the main loop keeps turning:
 * the transport reads at most READ_SLICE bytes of the server's stdout per
 * turn, and a large text is parsed on a worker. How long the loop waits
 * between turns depends on the machine and its load; that figure is
 * tests/bench/bench-stall's. What is asserted here holds on any machine:
 * a message arrives whole and in order, over at least as many turns as its
 * size needs, and no turn delivers more than one slice's worth. */

/* MAX_READS_PER_WAKEUP × READ_CHUNK in mcp-stdio-transport.c. */
#define READ_SLICE (16 * 64 * 1024)

/* The shortest line the flood's notifications make: stdio-server.py writes
 * compact JSON, and this is its first one. */
#define FLOOD_LINE "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"," \
                   "\"params\":{\"level\":\"info\",\"data\":{\"seq\":0}}}\n"
#define FLOOD_COUNT 30000

/* Counts the turns of the main loop: every turn prepares every source of
 * the highest priority first, and this one never becomes ready itself. */
typedef struct {
  GSource  source;
  guint    turns;
  guint   *delivered;
  guint    delivered_before;
  guint    most_in_a_turn;
} TurnCounter;

static gboolean
turn_counter_prepare (GSource *source,
                      int     *timeout)
{
  TurnCounter *counter = (TurnCounter *) source;

  counter->turns++;
  if (counter->delivered != NULL)
    {
      counter->most_in_a_turn = MAX (counter->most_in_a_turn,
                                     *counter->delivered - counter->delivered_before);
      counter->delivered_before = *counter->delivered;
    }
  *timeout = -1;
  return FALSE;
}

static GSourceFuncs turn_counter_funcs = { turn_counter_prepare, NULL, NULL, NULL, NULL, NULL };

static TurnCounter *
turn_counter_new (guint *delivered)
{
  TurnCounter *counter = (TurnCounter *) g_source_new (&turn_counter_funcs, sizeof *counter);

  counter->delivered = delivered;
  counter->delivered_before = delivered != NULL ? *delivered : 0;
  g_source_set_priority (&counter->source, G_PRIORITY_HIGH);
  g_source_set_static_name (&counter->source, "[test] main-loop turns");
  g_source_attach (&counter->source, NULL);

  return counter;
}

static void
turn_counter_free (TurnCounter *counter)
{
  g_source_destroy (&counter->source);
  g_source_unref (&counter->source);
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

/* Runs one request that makes the server send, until everything arrived,
 * and returns how many times the main loop turned meanwhile. */
static guint
run_request (McpClient  *client,
             const char *method,
             const char *params,
             Seen       *seen,
             guint      *delivered,
             gboolean  (*done) (Seen *seen),
             guint      *most_in_a_turn)
{
  g_autoptr(JsonObject) object = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(GError) error = NULL;
  TurnCounter *counter;
  guint turns;

  {
    g_autoptr(JsonNode) node = mcp_json_from_string (params, &error);

    g_assert_no_error (error);
    object = json_object_ref (json_node_get_object (node));
  }

  counter = turn_counter_new (delivered);
  mcp_client_request_async (client, method, object, NULL, NULL, NULL, NULL,
                            store_result_cb, &result);
  wait_for (result != NULL && done (seen));
  turns = counter->turns;
  if (most_in_a_turn != NULL)
    *most_in_a_turn = MAX (counter->most_in_a_turn, *delivered - counter->delivered_before);
  turn_counter_free (counter);

  reply = mcp_client_request_finish (client, result, &error);
  g_assert_no_error (error);

  return turns;
}

static gboolean
big_done (Seen *seen)
{
  return seen->big_size > 0;
}

static gboolean
flood_done (Seen *seen)
{
  return seen->count == FLOOD_COUNT;
}

static void
test_big_message (void)
{
  McpClient *client = connect_server ();
  const gsize size = 20 * 1024 * 1024;
  g_autofree char *params = g_strdup_printf ("{\"size\":%" G_GSIZE_FORMAT ",\"count\":1}", size);
  Seen seen = { 0 };
  gulong id = g_signal_connect (client, "notification", G_CALLBACK (notification_cb), &seen);
  guint turns;

  turns = run_request (client, "big", params, &seen, NULL, big_done, NULL);
  g_signal_handler_disconnect (client, id);

  g_test_message ("a 20 MiB message arrived over %u main-loop turns", turns);
  g_assert_cmpuint (seen.big_size, ==, size);
  /* Never more than one slice of the pipe per turn. */
  g_assert_cmpuint (turns, >=, size / READ_SLICE);
  close_client (client);
}

static void
test_notification_flood (void)
{
  McpClient *client = connect_server ();
  g_autofree char *params = g_strdup_printf ("{\"count\":%u,\"rate\":1000000000}", FLOOD_COUNT);
  Seen seen = { 0, 0, TRUE, 0 };
  gulong id = g_signal_connect (client, "log-message", G_CALLBACK (log_message_cb), &seen);
  guint most_in_a_turn = 0;
  guint turns;

  /* As fast as the server can write: the pipe stays full, and only the
   * transport's own bound keeps one turn from taking the whole flood. */
  turns = run_request (client, "flood", params, &seen, &seen.count, flood_done, &most_in_a_turn);
  g_signal_handler_disconnect (client, id);

  g_test_message ("%u notifications arrived over %u main-loop turns, at most %u in one",
                  FLOOD_COUNT, turns, most_in_a_turn);
  g_assert_cmpuint (seen.count, ==, FLOOD_COUNT);
  g_assert_true (seen.in_order);
  g_assert_cmpuint (most_in_a_turn, <=, READ_SLICE / (sizeof FLOOD_LINE - 1));
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

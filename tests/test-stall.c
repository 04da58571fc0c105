/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-stall"

#include "config.h"

#include "stall-load.h"

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

/* How long the server may take to send either; far more than it needs. */
#define WAIT_S 20

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

static McpClient *
connect_server (void)
{
  g_autofree char *server = g_test_build_filename (G_TEST_DIST, "servers", "stdio-server.py",
                                                   NULL);

  return stall_load_connect (server);
}

static void
close_client (McpClient *client)
{
  stall_load_close (client);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_finalize_object (client);
}

/* Runs one request that makes the server send, until everything arrived,
 * and returns how many times the main loop turned meanwhile. */
static guint
run_request (McpClient     *client,
             const char    *method,
             const char    *params,
             StallSeen     *seen,
             guint         *delivered,
             StallDoneFunc  done,
             guint         *most_in_a_turn)
{
  TurnCounter *counter;
  guint turns;

  counter = turn_counter_new (delivered);
  stall_load_run (client, method, params, seen, done, WAIT_S);
  turns = counter->turns;
  if (most_in_a_turn != NULL)
    *most_in_a_turn = MAX (counter->most_in_a_turn, *delivered - counter->delivered_before);
  turn_counter_free (counter);

  return turns;
}

static gboolean
big_done (StallSeen *seen)
{
  return seen->big_size > 0;
}

static gboolean
flood_done (StallSeen *seen)
{
  return seen->count == FLOOD_COUNT;
}

static void
test_big_message (void)
{
  McpClient *client = connect_server ();
  const gsize size = 20 * 1024 * 1024;
  g_autofree char *params = g_strdup_printf ("{\"size\":%" G_GSIZE_FORMAT ",\"count\":1}", size);
  StallSeen seen = { 0 };
  guint turns;

  turns = run_request (client, "big", params, &seen, NULL, big_done, NULL);

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
  StallSeen seen = { 0 };
  guint most_in_a_turn = 0;
  guint turns;

  /* As fast as the server can write: the pipe stays full, and only the
   * transport's own bound keeps one turn from taking the whole flood. */
  turns = run_request (client, "flood", params, &seen, &seen.count, flood_done, &most_in_a_turn);

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

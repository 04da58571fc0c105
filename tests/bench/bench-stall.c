/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "bench-stall"

#include "config.h"

#include <string.h>

#include "mcp-client.h"
#include "mcp-json-private.h"
#include "mcp-stdio-transport.h"

/* How long the main loop goes without turning while a server sends a
 * 20 MiB message, or 10,000 notifications a second for a second, through
 * the stdio transport and the client: what a person would feel as a
 * frozen window. A 5 ms timeout ticks throughout, and the largest gap
 * between its ticks is the stall. The goal is 50 ms; this reports, it
 * never fails (tests/test-stall.c asserts what holds on any machine).
 *
 *   bench-stall [--rounds N]
 *
 * It runs tests/servers/stdio-server.py, found through BENCH_SERVERS_DIR. */

#define HEARTBEAT_MS 5
#define GOAL_MS      50.0
#define DEADLINE_S   60

typedef struct {
  gint64 last;
  gint64 max_gap;
} Heartbeat;

typedef struct {
  guint    count;
  gsize    big_size;
} Seen;

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

static void
run_until (gboolean  (*done) (gpointer data),
           gpointer    data)
{
  gint64 deadline = g_get_monotonic_time () + DEADLINE_S * G_USEC_PER_SEC;

  while (!done (data))
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("the server did not finish within %d s", DEADLINE_S);
      g_main_context_iteration (NULL, TRUE);
    }
}

static gboolean
result_arrived (gpointer data)
{
  return *(GAsyncResult **) data != NULL;
}

static McpClient *
connect_server (void)
{
  g_autofree char *server = g_build_filename (BENCH_SERVERS_DIR, "stdio-server.py", NULL);
  const char *argv[] = { server, NULL };
  g_autoptr(McpStdioTransport) transport = mcp_stdio_transport_new (argv);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpClient *client;

  mcp_stdio_transport_set_max_message_size (transport, 32 * 1024 * 1024);
  client = mcp_client_new (MCP_TRANSPORT (transport));
  mcp_client_connect_async (client, NULL, store_result_cb, &result);
  run_until (result_arrived, &result);
  if (!mcp_client_connect_finish (client, result, &error))
    g_error ("could not connect to stdio-server.py: %s", error->message);

  return client;
}

static void
close_client (McpClient *client)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_client_close_async (client, NULL, store_result_cb, &result);
  run_until (result_arrived, &result);
  g_object_unref (client);
}

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
  ((Seen *) user_data)->count++;
}

typedef struct {
  GAsyncResult *result;
  Seen         *seen;
  gboolean    (*done) (Seen *seen);
} Waiting;

static gboolean
all_arrived (gpointer data)
{
  Waiting *waiting = data;

  return waiting->result != NULL && waiting->done (waiting->seen);
}

/* Sends one request that makes the server send, and returns the largest
 * gap of the heartbeat until everything arrived. */
static gint64
measure (McpClient  *client,
         const char *method,
         const char *params,
         Seen       *seen,
         gboolean  (*done) (Seen *seen))
{
  g_autoptr(JsonNode) node = mcp_json_from_string (params, NULL);
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(GError) error = NULL;
  Waiting waiting = { NULL, seen, done };
  Heartbeat hb = { g_get_monotonic_time (), 0 };
  guint source;

  source = g_timeout_add (HEARTBEAT_MS, heartbeat_cb, &hb);
  mcp_client_request_async (client, method, json_node_get_object (node), NULL, NULL, NULL,
                            NULL, store_result_cb, &waiting.result);
  run_until (all_arrived, &waiting);
  heartbeat_cb (&hb);
  g_source_remove (source);

  reply = mcp_client_request_finish (client, waiting.result, &error);
  g_clear_object (&waiting.result);
  if (reply == NULL)
    g_error ("%s failed: %s", method, error->message);

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

static int
compare_gaps (gconstpointer a,
              gconstpointer b)
{
  gint64 x = *(const gint64 *) a;
  gint64 y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

static void
report (const char *what,
        GArray     *gaps)
{
  gint64 *values = (gint64 *) (gpointer) gaps->data;

  g_array_sort (gaps, compare_gaps);
  g_print ("| %-40s | %8.1f | %8.1f | %8.1f | %5.0f |\n", what,
           values[0] / 1000.0, values[gaps->len / 2] / 1000.0,
           values[gaps->len - 1] / 1000.0, GOAL_MS);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) big = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) flood = g_array_new (FALSE, FALSE, sizeof (gint64));
  int rounds = 5;
  GOptionEntry entries[] = {
    { "rounds", 0, 0, G_OPTION_ARG_INT, &rounds, "How often to measure each figure", "N" },
    { NULL }
  };
  McpClient *client;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || rounds < 1)
    {
      g_printerr ("%s\n", error != NULL ? error->message : "--rounds must be at least 1");
      return 2;
    }

  client = connect_server ();
  for (int round = 0; round < rounds; round++)
    {
      Seen seen = { 0 };
      gulong id;
      gint64 gap;

      id = g_signal_connect (client, "notification", G_CALLBACK (notification_cb), &seen);
      gap = measure (client, "big", "{\"size\":20971520,\"count\":1}", &seen, big_done);
      g_signal_handler_disconnect (client, id);
      g_array_append_val (big, gap);

      seen = (Seen) { 0 };
      id = g_signal_connect (client, "log-message", G_CALLBACK (log_message_cb), &seen);
      gap = measure (client, "flood", "{\"count\":10000,\"rate\":10000}", &seen, flood_done);
      g_signal_handler_disconnect (client, id);
      g_array_append_val (flood, gap);
    }
  close_client (client);

  g_print ("Largest main-loop gap, ms, over %d rounds (%u CPUs)\n\n", rounds,
           g_get_num_processors ());
  g_print ("| %-40s | %8s | %8s | %8s | %5s |\n", "while the server sends", "best", "median",
           "worst", "goal");
  g_print ("|%s|%s|%s|%s|%s|\n", "------------------------------------------",
           "----------", "----------", "----------", "-------");
  report ("a 20 MiB message", big);
  report ("10,000 notifications at 10,000/s", flood);

  return 0;
}

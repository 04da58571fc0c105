/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "bench-stall"

#include "config.h"

#include "stall-load.h"

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

static gboolean
heartbeat_cb (gpointer user_data)
{
  Heartbeat *hb = user_data;
  gint64 now = g_get_monotonic_time ();

  hb->max_gap = MAX (hb->max_gap, now - hb->last);
  hb->last = now;
  return G_SOURCE_CONTINUE;
}

/* Sends one request that makes the server send, and returns the largest
 * gap of the heartbeat until everything arrived. */
static gint64
measure (McpClient     *client,
         const char    *method,
         const char    *params,
         StallSeen     *seen,
         StallDoneFunc  done)
{
  Heartbeat hb = { g_get_monotonic_time (), 0 };
  guint source;

  source = g_timeout_add (HEARTBEAT_MS, heartbeat_cb, &hb);
  stall_load_run (client, method, params, seen, done, DEADLINE_S);
  heartbeat_cb (&hb);
  g_source_remove (source);

  return hb.max_gap;
}

static gboolean
big_done (StallSeen *seen)
{
  return seen->big_size > 0;
}

static gboolean
flood_done (StallSeen *seen)
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
  g_autofree char *server = NULL;
  McpClient *client;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || rounds < 1)
    {
      g_printerr ("%s\n", error != NULL ? error->message : "--rounds must be at least 1");
      return 2;
    }

  server = g_build_filename (BENCH_SERVERS_DIR, "stdio-server.py", NULL);
  client = stall_load_connect (server);
  for (int round = 0; round < rounds; round++)
    {
      StallSeen seen = { 0 };
      gint64 gap;

      gap = measure (client, "big", "{\"size\":20971520,\"count\":1}", &seen, big_done);
      g_array_append_val (big, gap);

      seen = (StallSeen) { 0 };
      gap = measure (client, "flood", "{\"count\":10000,\"rate\":10000}", &seen, flood_done);
      g_array_append_val (flood, gap);
    }
  stall_load_close (client);
  g_object_unref (client);

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

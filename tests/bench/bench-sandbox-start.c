/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "bench-sandbox-start"

#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "mcp-client.h"
#include "steward-sandbox-launch.h"

/*
 * bench-sandbox-start [-n RUNS] -- PROGRAM [ARGUMENT]…
 *
 * What the sandbox adds to a local server's start: the time from spawning
 * the server to the end of `initialize`, through the launcher the host
 * uses, unconfined (full access) and under bubblewrap with the default
 * profile, alternating so that both see the same machine. Prints the
 * median and the 90th percentile of each, and the difference of the
 * medians. A time to read, never a pass or a failure.
 */

typedef struct {
  GMainLoop *loop;
  McpClient *client;
  gint64     started;
  gint64     ready;
  gboolean   failed;
} Run;

static void
close_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  Run *run = user_data;

  mcp_client_close_finish (MCP_CLIENT (object), result, NULL);
  g_main_loop_quit (run->loop);
}

static void
connect_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Run *run = user_data;
  g_autoptr(GError) error = NULL;

  run->ready = g_get_monotonic_time ();
  if (!mcp_client_connect_finish (MCP_CLIENT (object), result, &error))
    {
      g_printerr ("bench-sandbox-start: %s\n", error->message);
      run->failed = TRUE;
    }
  mcp_client_close_async (run->client, NULL, close_cb, run);
}

static double
start_once (StewardSandboxProfile *profile,
            const char * const    *argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpStdioTransport) transport = NULL;
  Run run = { 0, };

  run.loop = g_main_loop_new (NULL, FALSE);
  run.started = g_get_monotonic_time ();
  transport = steward_sandbox_launch_new_transport (profile, argv, NULL, NULL, &error);
  if (transport == NULL)
    {
      g_printerr ("bench-sandbox-start: %s\n", error->message);
      exit (1);
    }
  run.client = mcp_client_new (MCP_TRANSPORT (transport));
  mcp_client_connect_async (run.client, NULL, connect_cb, &run);
  g_main_loop_run (run.loop);
  g_object_unref (run.client);
  g_main_loop_unref (run.loop);
  if (run.failed)
    exit (1);

  return (run.ready - run.started) / 1000.0;
}

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a;
  double y = *(const double *) b;

  return (x > y) - (x < y);
}

static double
percentile (GArray *times,
            double  fraction)
{
  guint index = (guint) (fraction * (times->len - 1) + 0.5);

  g_array_sort (times, compare_doubles);
  return g_array_index (times, double, index);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(StewardSandboxProfile) unconfined = steward_sandbox_profile_new_unconfined ();
  g_autoptr(StewardSandboxProfile) sandboxed = NULL;
  g_autoptr(StewardServerConfig) config = NULL;
  g_autoptr(GArray) plain = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) boxed = g_array_new (FALSE, FALSE, sizeof (double));
  const char * const *server;
  int runs = 30;
  int first = 1;

  if (argc > 2 && g_str_equal (argv[1], "-n"))
    {
      runs = atoi (argv[2]);
      first = 3;
    }
  if (first >= argc || !g_str_equal (argv[first], "--") || first + 1 >= argc || runs < 1)
    {
      g_printerr ("Usage: bench-sandbox-start [-n RUNS] -- PROGRAM [ARGUMENT]…\n");
      return 2;
    }

  server = (const char * const *) argv + first + 1;
  config = steward_server_config_new_stdio ("bench", server[0], server + 1, NULL, NULL);
  sandboxed = steward_sandbox_profile_new (config, NULL);

  /* One of each first, untimed: the page cache and bwrap's first run. */
  start_once (unconfined, server);
  start_once (sandboxed, server);

  for (int i = 0; i < runs; i++)
    {
      double t = start_once (unconfined, server);

      g_array_append_val (plain, t);
      t = start_once (sandboxed, server);
      g_array_append_val (boxed, t);
    }

  printf ("start to initialized, %d runs each (ms)\n", runs);
  printf ("%-12s median %7.2f   p90 %7.2f\n", "unconfined", percentile (plain, 0.5),
          percentile (plain, 0.9));
  printf ("%-12s median %7.2f   p90 %7.2f\n", "sandboxed", percentile (boxed, 0.5),
          percentile (boxed, 0.9));
  printf ("the sandbox adds %.2f ms to the median start\n",
          percentile (boxed, 0.5) - percentile (plain, 0.5));

  return 0;
}

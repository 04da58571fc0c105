/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "bench-steward"

#include "config.h"

/*
 * Steward's side of the tools/call benchmark: McpStdioTransport (or, with
 * --url, McpHttpTransport) and McpClient as the host uses them, on the
 * default main context. After connecting it calls `echo` again and again,
 * each call started from the previous call's callback, so that the time per
 * call is one full round trip through the client, the pipes or loopback,
 * and the server.
 *
 *   bench-steward [--calls N] [--warmup N] -- SERVER [ARGS...]
 *   bench-steward [--calls N] [--warmup N] --url URL
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "mcp-client.h"
#include "mcp-http-transport.h"
#include "mcp-stdio-transport.h"

/* The same text the other two clients send. */
#define MESSAGE "Hello from the Steward benchmark"

typedef struct {
  GMainLoop  *loop;
  McpClient  *client;
  JsonObject *arguments;
  guint       warmup;
  guint       calls;
  guint       done;
  gint64      start_us;
  gint64      end_us;
  gint64      cpu_start_us;
  gint64      cpu_end_us;
  GError     *error;
} Bench;

static void call_next (Bench *bench);

/* The process's own CPU time, user and system: unlike the wall clock it
 * does not grow when other work on the machine delays us. */
static gint64
cpu_time_us (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return (gint64) (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * G_USEC_PER_SEC +
         usage.ru_utime.tv_usec + usage.ru_stime.tv_usec;
}

static void
close_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  Bench *bench = user_data;
  g_autoptr(GError) error = NULL;

  /* The numbers are taken by now; a server that needed a signal to go
   * away is worth a word but does not spoil them. */
  if (!mcp_client_close_finish (MCP_CLIENT (object), result, &error))
    g_printerr ("bench-steward: closing: %s\n", error->message);
  g_main_loop_quit (bench->loop);
}

static void
finish (Bench  *bench,
        GError *error)
{
  if (error != NULL)
    g_propagate_error (&bench->error, error);
  mcp_client_close_async (bench->client, NULL, close_cb, bench);
}

static void
call_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Bench *bench = user_data;
  g_autoptr(McpToolResult) reply = NULL;
  g_autofree char *text = NULL;
  GError *error = NULL;

  reply = mcp_client_call_tool_finish (MCP_CLIENT (object), result, &error);
  if (reply == NULL)
    {
      finish (bench, error);
      return;
    }

  /* Every answer is read, as a host would, and checked, so that a fast
   * wrong answer cannot pass for a fast client. */
  text = mcp_tool_result_dup_text (reply);
  if (mcp_tool_result_get_is_error (reply) || g_strcmp0 (text, "Echo: " MESSAGE) != 0)
    {
      finish (bench, g_error_new (G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                                  "call %u answered “%s” instead of the echo",
                                  bench->done + 1, text ? text : "(no text)"));
      return;
    }

  bench->done++;
  if (bench->done == bench->warmup + bench->calls)
    {
      bench->end_us = g_get_monotonic_time ();
      bench->cpu_end_us = cpu_time_us ();
      finish (bench, NULL);
      return;
    }

  call_next (bench);
}

static void
call_next (Bench *bench)
{
  if (bench->done == bench->warmup)
    {
      bench->start_us = g_get_monotonic_time ();
      bench->cpu_start_us = cpu_time_us ();
    }

  mcp_client_call_tool_async (bench->client, "echo", bench->arguments,
                              NULL, NULL, NULL, NULL, call_cb, bench);
}

static void
connect_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Bench *bench = user_data;
  GError *error = NULL;

  if (!mcp_client_connect_finish (MCP_CLIENT (object), result, &error))
    {
      g_propagate_error (&bench->error, error);
      g_main_loop_quit (bench->loop);
      return;
    }

  call_next (bench);
}

static long
peak_rss_kib (void)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return -1;
  line = strstr (status, "\nVmHWM:");
  return line ? strtol (line + strlen ("\nVmHWM:"), NULL, 10) : -1;
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(McpTransport) transport = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) server_argv = NULL;
  g_autofree char *url = NULL;
  int calls = 10000;
  int warmup = 2000;
  Bench bench = { 0 };
  double seconds;
  const GOptionEntry entries[] = {
    { "calls", 0, 0, G_OPTION_ARG_INT, &calls, "Calls to time", "N" },
    { "warmup", 0, 0, G_OPTION_ARG_INT, &warmup, "Calls made first and not timed", "N" },
    { "url", 0, 0, G_OPTION_ARG_STRING, &url, "A server over Streamable HTTP", "URL" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &server_argv, NULL, NULL },
    { NULL }
  };

  context = g_option_context_new ("--url URL | -- SERVER [ARGS…]");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("bench-steward: %s\n", error->message);
      return EXIT_FAILURE;
    }
  if ((url == NULL) == (server_argv == NULL || server_argv[0] == NULL) ||
      calls <= 0 || warmup < 0)
    {
      g_printerr ("usage: bench-steward [--calls N] [--warmup N] --url URL | -- SERVER [ARGS…]\n");
      return EXIT_FAILURE;
    }

  if (url != NULL)
    {
      transport = MCP_TRANSPORT (mcp_http_transport_new (url, &error));
      if (transport == NULL)
        {
          g_printerr ("bench-steward: %s\n", error->message);
          return EXIT_FAILURE;
        }
    }
  else
    transport = MCP_TRANSPORT (mcp_stdio_transport_new ((const char * const *) server_argv));

  bench.loop = g_main_loop_new (NULL, FALSE);
  bench.client = mcp_client_new (transport);
  bench.calls = (guint) calls;
  bench.warmup = (guint) warmup;
  bench.arguments = json_object_new ();
  json_object_set_string_member (bench.arguments, "message", MESSAGE);
  mcp_client_set_client_info (bench.client, "steward-bench", NULL, PACKAGE_VERSION);
  /* What a host does once it knows a server's revision: no probe. */
  if (url != NULL)
    mcp_client_set_requested_revision (bench.client, MCP_REVISION_2025_11_25);

  mcp_client_connect_async (bench.client, NULL, connect_cb, &bench);
  g_main_loop_run (bench.loop);

  g_clear_object (&bench.client);
  g_clear_pointer (&bench.arguments, json_object_unref);
  g_clear_pointer (&bench.loop, g_main_loop_unref);

  if (bench.error != NULL)
    {
      g_printerr ("bench-steward: %s\n", bench.error->message);
      g_clear_error (&bench.error);
      return EXIT_FAILURE;
    }

  seconds = (double) (bench.end_us - bench.start_us) / G_USEC_PER_SEC;
  g_print ("{\"client\":\"steward\",\"calls\":%u,\"seconds\":%.6f,\"us_per_call\":%.3f,"
           "\"peak_rss_kib\":%ld,\"cpu_us_per_call\":%.3f}\n",
           bench.calls, seconds, seconds * 1e6 / bench.calls, peak_rss_kib (),
           (double) (bench.cpu_end_us - bench.cpu_start_us) / bench.calls);
  return EXIT_SUCCESS;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "bench-host"

#include "config.h"

/*
 * The host's side of the tools/call benchmark: the same calls as
 * bench-steward, but through StewardHost and StewardServer as the app
 * makes them. The server is one entry of a servers file in a temporary
 * configuration folder, started by the host once its consent is recorded;
 * its tools are pinned as a person's review pins them; every message goes
 * through the host's log store, which redacts each entry as it is made.
 * What this costs above bench-steward is what the host adds to a call.
 *
 *   bench-host [--calls N] [--warmup N] -- SERVER [ARGS...]
 *   bench-host [--calls N] [--warmup N] --url URL
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "steward-host.h"
#include "steward-server.h"
#include "test-host-fixture.h"

/* The same text the other clients send. */
#define MESSAGE     "Hello from the Steward benchmark"
#define SERVER_NAME "bench"

typedef struct {
  McpClient     *client;
  StewardServer *server;
  JsonObject    *arguments;
  guint          warmup;
  guint          calls;
  guint          done;
  gboolean       finished;
  gint64         start_us;
  gint64         end_us;
  gint64         cpu_start_us;
  gint64         cpu_end_us;
  GError        *error;
} Bench;

static void call_next (Bench *bench);

static gint64
cpu_time_us (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return (gint64) (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * G_USEC_PER_SEC +
         usage.ru_utime.tv_usec + usage.ru_stime.tv_usec;
}

static void
call_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Bench *bench = user_data;
  g_autoptr(McpToolResult) reply = NULL;
  g_autofree char *text = NULL;

  reply = steward_server_call_tool_finish (STEWARD_SERVER (object), result, &bench->error);
  if (reply == NULL)
    {
      bench->finished = TRUE;
      return;
    }

  /* Checked as bench-steward checks it: a fast wrong answer is no answer. */
  text = mcp_tool_result_dup_text (reply);
  if (mcp_tool_result_get_is_error (reply) || g_strcmp0 (text, "Echo: " MESSAGE) != 0)
    {
      bench->error = g_error_new (G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                                  "call %u answered “%s” instead of the echo",
                                  bench->done + 1, text ? text : "(no text)");
      bench->finished = TRUE;
      return;
    }

  bench->done++;
  if (bench->done == bench->warmup + bench->calls)
    {
      bench->end_us = g_get_monotonic_time ();
      bench->cpu_end_us = cpu_time_us ();
      bench->finished = TRUE;
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

  steward_server_call_tool_async (bench->server, "echo", bench->arguments,
                                  NULL, NULL, NULL, NULL, call_cb, bench);
}

/* servers.json with the one server, as a person would write it. */
static void
write_servers_file (const char  *top,
                    char       **server_argv,
                    const char  *url)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *path = g_build_filename (top, "config", "servers.json", NULL);
  g_autofree char *text = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "mcpServers");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, SERVER_NAME);
  json_builder_begin_object (builder);
  if (url != NULL)
    {
      json_builder_set_member_name (builder, "url");
      json_builder_add_string_value (builder, url);
    }
  else
    {
      json_builder_set_member_name (builder, "command");
      json_builder_add_string_value (builder, server_argv[0]);
      json_builder_set_member_name (builder, "args");
      json_builder_begin_array (builder);
      for (guint i = 1; server_argv[i] != NULL; i++)
        json_builder_add_string_value (builder, server_argv[i]);
      json_builder_end_array (builder);
    }
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  text = json_to_string (root, TRUE);
  test_write_text (path, text);
}

/* Pins every tool the server lists, as the review of its tools does. */
static void
pin_tools (StewardHost   *host,
           StewardServer *server)
{
  StewardToolPins *pins = steward_host_get_tool_pins (host);
  GListModel *tools = mcp_client_get_tools (steward_server_get_client (server));

  for (guint i = 0; i < g_list_model_get_n_items (tools); i++)
    {
      g_autoptr(McpTool) tool = g_list_model_get_item (tools, i);

      steward_tool_pins_approve (pins, SERVER_NAME, tool);
      g_assert_true (steward_tool_pins_is_offered (pins, SERVER_NAME, tool));
    }
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
  g_autoptr(GError) error = NULL;
  g_autoptr(StewardHost) host = NULL;
  StewardServerConfig *server_config;
  g_auto(GStrv) server_argv = NULL;
  g_autofree char *url = NULL;
  g_autofree char *top = NULL;
  StewardConfig *config;
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
      g_printerr ("bench-host: %s\n", error->message);
      return EXIT_FAILURE;
    }
  if ((url == NULL) == (server_argv == NULL || server_argv[0] == NULL) ||
      calls <= 0 || warmup < 0)
    {
      g_printerr ("usage: bench-host [--calls N] [--warmup N] --url URL | -- SERVER [ARGS…]\n");
      return EXIT_FAILURE;
    }

  top = test_make_top ("bench-host");
  write_servers_file (top, server_argv, url);
  host = test_host_new_in (top);

  config = steward_host_get_config (host);
  if (!steward_config_load (config, NULL, &error) ||
      (server_config = steward_config_lookup (config, SERVER_NAME, &error)) == NULL)
    {
      g_printerr ("bench-host: %s\n", error->message);
      test_remove_tree (top);
      return EXIT_FAILURE;
    }
  test_record_consent (config, server_config);

  test_host_start (host, 60);
  bench.server = steward_server_registry_lookup (steward_host_get_registry (host), SERVER_NAME);
  g_assert_nonnull (bench.server);
  test_wait_for_status (bench.server, STEWARD_SERVER_STATUS_READY, 90);
  pin_tools (host, bench.server);

  bench.calls = (guint) calls;
  bench.warmup = (guint) warmup;
  bench.arguments = json_object_new ();
  json_object_set_string_member (bench.arguments, "message", MESSAGE);

  call_next (&bench);
  while (!bench.finished)
    g_main_context_iteration (NULL, TRUE);

  test_host_shutdown (host, 20);
  g_clear_pointer (&bench.arguments, json_object_unref);
  g_clear_object (&host);
  test_remove_tree (top);

  if (bench.error != NULL)
    {
      g_printerr ("bench-host: %s\n", bench.error->message);
      g_clear_error (&bench.error);
      return EXIT_FAILURE;
    }

  seconds = (double) (bench.end_us - bench.start_us) / G_USEC_PER_SEC;
  g_print ("{\"client\":\"host\",\"calls\":%u,\"seconds\":%.6f,\"us_per_call\":%.3f,"
           "\"peak_rss_kib\":%ld,\"cpu_us_per_call\":%.3f}\n",
           bench.calls, seconds, seconds * 1e6 / bench.calls, peak_rss_kib (),
           (double) (bench.cpu_end_us - bench.cpu_start_us) / bench.calls);
  return EXIT_SUCCESS;
}

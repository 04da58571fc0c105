/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "bench-tools-page"

#include "config.h"

/*
 * The Tools page of a server with 1,000 tools (tools-server), as the app
 * shows it: the server an entry of a servers file, started by the host
 * (in its sandbox) once consent is recorded, the page watching its tool
 * pins as the window has it. Each figure is the main loop's busy time
 * (bench-frames.h: the wall time it did not spend waiting in poll) and
 * the main thread's CPU time, from the change to the end of the first
 * frame painted after it:
 *
 *  - show: the page made and shown on its Tools tab;
 *  - list: the server says its tools changed; from that notification,
 *    through the new tools/list (its answer read, traced and parsed) and
 *    the list updated, to the frame (the server's own time is waiting,
 *    so it is not counted); every tool changed, then only one;
 *  - filter: a search typed into the Tools search entry (its delay is
 *    waiting too), and the search cleared again;
 *  - choose: a tool chosen, its pane and form built.
 *
 * Each is done several times and reported as the median. The target is
 * 100 ms of main-loop time for each.
 *
 *   run-in-session bench-tools-page [--tools N] [--rounds N] -- TOOLS-SERVER
 */

#include <adwaita.h>
#include <stdlib.h>
#include <string.h>

#include "bench-frames.h"
#include "steward-host.h"
#include "steward-server-page.h"
#include "steward-server.h"
#include "test-host-fixture.h"

#define SERVER_NAME "catalog"

typedef struct
{
  GtkWidget     *window;
  BenchFrames   *frames;
  StewardServer *server;
  GtkWidget     *page;
  GListModel    *tools;
  guint          list_changes;
  gboolean       notified;
  BenchBusy      notified_mark;
} Bench;

typedef struct
{
  const char *label;
  const char *key;
  gint64      busy_us[32];
  gint64      cpu_us[32];
  guint       n;
} Figure;

static void
write_servers_file (const char *top,
                    const char *server_path,
                    guint       n_tools)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *path = g_build_filename (top, "config", "servers.json", NULL);
  g_autofree char *text = NULL;
  g_autofree char *count = g_strdup_printf ("%u", n_tools);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "mcpServers");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, SERVER_NAME);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "command");
  json_builder_add_string_value (builder, server_path);
  json_builder_set_member_name (builder, "args");
  json_builder_begin_array (builder);
  json_builder_add_string_value (builder, "--tools");
  json_builder_add_string_value (builder, count);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  text = json_to_string (root, TRUE);
  test_write_text (path, text);
}

static GtkWidget *
find_widget (GtkWidget *widget,
             GType      type)
{
  if (g_type_is_a (G_OBJECT_TYPE (widget), type))
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, type);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static GtkWidget *
tools_tab (GtkWidget *page,
           gboolean   show)
{
  AdwViewStack *stack = ADW_VIEW_STACK (find_widget (page, ADW_TYPE_VIEW_STACK));

  g_assert_nonnull (stack);
  if (show)
    adw_view_stack_set_visible_child_name (stack, "tools");
  return adw_view_stack_get_child_by_name (stack, "tools");
}

/* How many tools have @text in their name. */
static guint
count_named (GListModel *tools,
             const char *text)
{
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (tools); i++)
    {
      g_autoptr(McpItem) tool = g_list_model_get_item (tools, i);

      n += strstr (mcp_item_get_name (tool), text) != NULL;
    }

  return n;
}

/* Runs the loop until a frame was painted after @condition came true. */
static void
until_painted_after (Bench    *bench,
                     gboolean *condition)
{
  guint64 painted;

  while (!*condition)
    g_main_context_iteration (NULL, TRUE);
  painted = bench_frames_get_painted (bench->frames);
  while (bench_frames_get_painted (bench->frames) == painted)
    g_main_context_iteration (NULL, TRUE);
}

static void
record (Figure          *figure,
        const BenchBusy *mark)
{
  g_assert_cmpuint (figure->n, <, G_N_ELEMENTS (figure->busy_us));
  figure->busy_us[figure->n] = bench_busy_since_us (mark);
  figure->cpu_us[figure->n] = bench_cpu_since_us (mark);
  figure->n++;
}

static void
items_changed_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  gpointer    user_data)
{
  *(gboolean *) user_data = TRUE;
}

static void
notification_cb (McpClient  *client,
                 const char *method,
                 JsonObject *params,
                 Bench      *bench)
{
  if (g_strcmp0 (method, "notifications/tools/list_changed") == 0 && !bench->notified)
    {
      bench_busy_mark (&bench->notified_mark);
      bench->notified = TRUE;
    }
}

static void
touched_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpToolResult) reply = NULL;

  reply = steward_server_call_tool_finish (STEWARD_SERVER (object), result, &error);
  if (reply == NULL)
    g_error ("Calling catalog_touch: %s", error->message);
}

static void
measure_list (Bench  *bench,
              gint64  only,
              Figure *figure)
{
  g_autoptr(JsonObject) arguments = json_object_new ();
  gboolean changed = FALSE;
  gulong handler;

  if (only >= 0)
    json_object_set_int_member (arguments, "only", only);
  bench->notified = FALSE;
  handler = g_signal_connect (bench->tools, "items-changed", G_CALLBACK (items_changed_cb),
                              &changed);
  steward_server_call_tool_async (bench->server, "catalog_touch", arguments,
                                  NULL, NULL, NULL, NULL, touched_cb, NULL);
  until_painted_after (bench, &changed);
  g_assert_true (bench->notified);
  record (figure, &bench->notified_mark);
  g_signal_handler_disconnect (bench->tools, handler);
  bench_settle (300);
}

static void
measure_filter (Bench       *bench,
                GtkEditable *search,
                const char  *text,
                guint        expected,
                Figure      *figure)
{
  BenchBusy mark;
  gboolean changed = FALSE;
  gulong handler;

  handler = g_signal_connect (bench->tools, "items-changed", G_CALLBACK (items_changed_cb),
                              &changed);
  bench_busy_mark (&mark);
  gtk_editable_set_text (search, text);
  until_painted_after (bench, &changed);
  record (figure, &mark);
  g_signal_handler_disconnect (bench->tools, handler);
  g_assert_cmpuint (g_list_model_get_n_items (bench->tools), ==, expected);
  bench_settle (300);
}

static void
report (Figure  *figure,
        GString *json)
{
  gint64 busy = bench_median (figure->busy_us, figure->n);
  gint64 cpu = bench_median (figure->cpu_us, figure->n);

  g_print ("%-26s main loop busy %.1f ms, CPU %.1f ms (median of %u; target 100 ms)\n",
           figure->label, busy / 1000.0, cpu / 1000.0, figure->n);
  g_string_append_printf (json, ", \"%s_busy_ms\": %.2f, \"%s_cpu_ms\": %.2f",
                          figure->key, busy / 1000.0, figure->key, cpu / 1000.0);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) json = g_string_new (NULL);
  g_autoptr(StewardHost) host = NULL;
  g_autofree char *top = NULL;
  g_auto(GStrv) server_argv = NULL;
  StewardServerConfig *server_config;
  StewardConfig *config;
  GtkEditable *search;
  Bench bench = { 0 };
  Figure show = { "show Tools page:", "show" };
  Figure list = { "list again (list_changed):", "list" };
  Figure list_one = { "list again, one changed:", "list_one" };
  Figure filter = { "filter (type a search):", "filter" };
  Figure unfilter = { "clear the search:", "unfilter" };
  Figure choose = { "choose a tool:", "choose" };
  int n_tools = 1000;
  guint n_matches;
  int rounds = 5;
  const GOptionEntry entries[] = {
    { "tools", 0, 0, G_OPTION_ARG_INT, &n_tools, "Tools the server lists (1000)", "N" },
    { "rounds", 0, 0, G_OPTION_ARG_INT, &rounds, "Times each figure is taken (5)", "N" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &server_argv, NULL, NULL },
    { NULL }
  };

  g_setenv ("GSETTINGS_SCHEMA_DIR", BENCH_SCHEMA_DIR, FALSE);
  g_setenv ("GSETTINGS_BACKEND", "memory", FALSE);

  context = g_option_context_new ("-- TOOLS-SERVER");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("bench-tools-page: %s\n", error->message);
      return EXIT_FAILURE;
    }
  if (server_argv == NULL || server_argv[0] == NULL || n_tools < 10)
    {
      g_printerr ("usage: bench-tools-page [--tools N] [--rounds N] -- TOOLS-SERVER\n");
      return EXIT_FAILURE;
    }
  rounds = CLAMP (rounds, 1, 32);

  gtk_init ();
  adw_init ();
  bench_busy_init ();

  top = test_make_top ("bench-tools-page");
  write_servers_file (top, server_argv[0], n_tools);
  host = test_host_new_in (top);
  config = steward_host_get_config (host);
  if (!steward_config_load (config, NULL, &error) ||
      (server_config = steward_config_lookup (config, SERVER_NAME, &error)) == NULL)
    {
      g_printerr ("bench-tools-page: %s\n", error->message);
      test_remove_tree (top);
      return EXIT_FAILURE;
    }
  test_record_consent (config, server_config);
  test_host_start (host, 60);
  bench.server = steward_server_registry_lookup (steward_host_get_registry (host), SERVER_NAME);
  g_assert_nonnull (bench.server);
  test_wait_for_status (bench.server, STEWARD_SERVER_STATUS_READY, 90);
  test_loop_until (g_list_model_get_n_items (
                     mcp_client_get_tools (steward_server_get_client (bench.server))) ==
                   (guint) n_tools, 30);
  g_signal_connect (steward_server_get_client (bench.server), "notification",
                    G_CALLBACK (notification_cb), &bench);

  bench.window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (bench.window), 1000, 700);
  gtk_window_present (GTK_WINDOW (bench.window));
  bench_settle (300);
  bench.frames = bench_frames_new (bench.window);

  /* Show: the page made, on its Tools tab, to its first frame. */
  for (int round = 0; round < rounds; round++)
    {
      BenchBusy mark;
      gboolean shown = TRUE;

      gtk_window_set_child (GTK_WINDOW (bench.window), NULL);
      bench_settle (300);
      bench_busy_mark (&mark);
      bench.page = steward_server_page_new (bench.server);
      steward_server_page_set_tool_pins (STEWARD_SERVER_PAGE (bench.page),
                                         steward_host_get_tool_pins (host));
      tools_tab (bench.page, TRUE);
      gtk_window_set_child (GTK_WINDOW (bench.window), bench.page);
      until_painted_after (&bench, &shown);
      record (&show, &mark);
      bench_settle (300);
    }
  bench.tools = steward_server_page_get_list_model (STEWARD_SERVER_PAGE (bench.page), "tools");
  g_assert_cmpuint (g_list_model_get_n_items (bench.tools), ==, (guint) n_tools);
  search = GTK_EDITABLE (find_widget (tools_tab (bench.page, FALSE), GTK_TYPE_SEARCH_ENTRY));
  g_assert_nonnull (search);

  for (int round = 0; round < rounds; round++)
    measure_list (&bench, -1, &list);
  for (int round = 0; round < rounds; round++)
    measure_list (&bench, 5, &list_one);
  g_assert_cmpuint (g_list_model_get_n_items (bench.tools), ==, (guint) n_tools);

  /* "invoices_update" names one tool in 80. */
  n_matches = count_named (bench.tools, "invoices_update");
  g_assert_cmpuint (n_matches, >, 0);
  for (int round = 0; round < rounds; round++)
    {
      measure_filter (&bench, search, "invoices_update", n_matches, &filter);
      measure_filter (&bench, search, "", n_tools, &unfilter);
    }

  for (int round = 0; round < rounds; round++)
    {
      g_autoptr(McpTool) tool = g_list_model_get_item (bench.tools,
                                                       n_tools / 2 + (guint) round);
      BenchBusy mark;
      gboolean chosen = TRUE;

      bench_busy_mark (&mark);
      g_assert_true (steward_server_page_select (STEWARD_SERVER_PAGE (bench.page), "tools",
                                                 mcp_item_get_name (MCP_ITEM (tool))));
      until_painted_after (&bench, &chosen);
      record (&choose, &mark);
      g_assert_nonnull (steward_server_page_get_pane (STEWARD_SERVER_PAGE (bench.page),
                                                      "tools"));
      bench_settle (300);
    }

  g_print ("tools:                     %d\n", n_tools);
  report (&show, json);
  report (&list, json);
  report (&list_one, json);
  report (&filter, json);
  report (&unfilter, json);
  report (&choose, json);
  g_print ("{\"tools\": %d, \"rounds\": %d%s}\n", n_tools, rounds, json->str);

  bench_frames_free (bench.frames);
  gtk_window_destroy (GTK_WINDOW (bench.window));
  test_host_shutdown (host, 20);
  g_clear_object (&host);
  test_remove_tree (top);

  return EXIT_SUCCESS;
}

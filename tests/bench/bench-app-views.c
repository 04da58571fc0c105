/* SPDX-License-Identifier: GPL-3.0-or-later */

/*
 * What MCP Apps views cost in memory: the resident set of the process and
 * of the WebKit processes it started, with a bare window, with the host
 * and a ready server but no view, then with 1 and with 5 live views of the
 * same server, each shown until its page answered ui/initialize.
 *
 *   bench-app-views [--server basic|app-server] [--settle SECONDS]
 *
 * The views are StewardAppView widgets, as the Tools page and the chat
 * show them, of a real server: by default
 * @modelcontextprotocol/server-basic-vanillajs from tests/peers (its tool
 * get-time), or tests/servers/app-server.py (its tool show), a page of a
 * few lines. It needs a display: run it under tests/run-in-session.
 * Prints a table and one JSON line; nothing passes or fails.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include <adwaita.h>

#include "steward-app-view.h"
#include "test-host-fixture.h"

#define N_VIEWS_MAX 5

typedef struct
{
  const char *name;
  double      app_rss;     /* MiB, this process */
  double      web_rss;     /* MiB, the WebKit processes together */
  double      web_pss;
  int         n_web;       /* WebKit processes */
} Figure;

/* A number of kB from a "Name:   N kB" line of a /proc file. */
static double
read_kb (const char *path,
         const char *field)
{
  g_autofree char *text = NULL;
  const char *at;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return 0;
  at = strstr (text, field);
  if (at == NULL)
    return 0;

  return g_ascii_strtod (at + strlen (field), NULL);
}

/* The WebKit processes this one started, through any number of steps
 * (WebKit runs them under bubblewrap where it can). */
static GArray *
webkit_processes (void)
{
  g_autoptr(GHashTable) parents = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) names = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr(GDir) proc = g_dir_open ("/proc", 0, NULL);
  GArray *found = g_array_new (FALSE, FALSE, sizeof (int));
  GHashTableIter iter;
  gpointer key, value;
  const char *entry;
  int self = getpid ();

  while (proc != NULL && (entry = g_dir_read_name (proc)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autofree char *stat = NULL;
      const char *open_paren, *close_paren;
      int pid = atoi (entry);
      int ppid = 0;

      if (pid <= 0)
        continue;
      path = g_strdup_printf ("/proc/%d/stat", pid);
      if (!g_file_get_contents (path, &stat, NULL, NULL))
        continue;
      open_paren = strchr (stat, '(');
      close_paren = strrchr (stat, ')');
      if (open_paren == NULL || close_paren == NULL)
        continue;
      if (sscanf (close_paren + 2, "%*c %d", &ppid) != 1)
        continue;
      g_hash_table_insert (parents, GINT_TO_POINTER (pid), GINT_TO_POINTER (ppid));
      g_hash_table_insert (names, GINT_TO_POINTER (pid),
                           g_strndup (open_paren + 1, close_paren - open_paren - 1));
    }

  g_hash_table_iter_init (&iter, names);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      int pid = GPOINTER_TO_INT (key);

      if (!g_str_has_prefix (value, "WebKit"))
        continue;
      for (int up = pid; up > 1; up = GPOINTER_TO_INT (g_hash_table_lookup (parents,
                                                                             GINT_TO_POINTER (up))))
        {
          if (up == self)
            {
              g_array_append_val (found, pid);
              break;
            }
        }
    }

  return found;
}

static Figure
measure (const char *name,
         guint       settle_seconds)
{
  g_autoptr(GArray) processes = NULL;
  gint64 until = g_get_monotonic_time () + settle_seconds * G_USEC_PER_SEC;
  Figure figure = { name, 0, 0, 0, 0 };

  /* A settling time, not a condition: the figure is read, never judged. */
  while (g_get_monotonic_time () < until)
    {
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (10000);
    }

  figure.app_rss = read_kb ("/proc/self/status", "VmRSS:") / 1024;
  processes = webkit_processes ();
  figure.n_web = processes->len;
  for (guint i = 0; i < processes->len; i++)
    {
      int pid = g_array_index (processes, int, i);
      g_autofree char *status = g_strdup_printf ("/proc/%d/status", pid);
      g_autofree char *rollup = g_strdup_printf ("/proc/%d/smaps_rollup", pid);

      figure.web_rss += read_kb (status, "VmRSS:") / 1024;
      figure.web_pss += read_kb (rollup, "Pss:") / 1024;
    }

  return figure;
}

static StewardAppView *views[N_VIEWS_MAX];

static gboolean
views_initialized (guint n)
{
  for (guint i = 0; i < n; i++)
    {
      StewardAppBridge *bridge = steward_app_view_get_bridge (views[i]);

      if (bridge == NULL || !steward_app_bridge_get_initialized (bridge))
        return FALSE;
    }

  return TRUE;
}

static McpTool *
find_tool (StewardServer *server,
           const char    *name)
{
  GListModel *tools = mcp_client_get_tools (steward_server_get_client (server));

  test_loop_until (g_list_model_get_n_items (tools) > 0, 30);
  for (guint i = 0; i < g_list_model_get_n_items (tools); i++)
    {
      g_autoptr(McpTool) tool = g_list_model_get_item (tools, i);

      if (g_strcmp0 (mcp_item_get_name (MCP_ITEM (tool)), name) == 0)
        return g_steal_pointer (&tool);
    }

  g_error ("the server has no tool %s", name);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *server_kind = NULL;
  int settle = 3;
  GOptionEntry entries[] = {
    { "server", 0, 0, G_OPTION_ARG_STRING, &server_kind,
      "basic (server-basic-vanillajs, the default) or app-server", "NAME" },
    { "settle", 0, 0, G_OPTION_ARG_INT, &settle, "Seconds to wait before each reading", "S" },
    { NULL }
  };
  g_autoptr(GOptionContext) options = g_option_context_new ("- memory of MCP Apps views");
  g_autoptr(GError) error = NULL;
  g_autofree char *top = NULL;
  g_autofree char *peer = NULL;
  g_autofree char *node = NULL;
  g_autoptr(StewardHost) host = NULL;
  g_autoptr(StewardServerConfig) plain = NULL;
  g_autoptr(StewardServerConfig) config = NULL;
  g_autoptr(StewardServer) server = NULL;
  g_autoptr(McpTool) tool = NULL;
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(JsonObject) empty = json_object_new ();
  GtkWindow *window;
  GtkWidget *box, *scroller;
  Figure figures[4];
  const char *tool_name;

  g_option_context_add_main_entries (options, entries, NULL);
  if (!g_option_context_parse (options, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  if (server_kind == NULL)
    server_kind = g_strdup ("basic");

  gtk_init ();
  adw_init ();

  /* The bare window: what any libadwaita app costs. */
  window = GTK_WINDOW (adw_window_new ());
  gtk_window_set_default_size (window, 900, 1100);
  scroller = gtk_scrolled_window_new ();
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), box);
  adw_window_set_content (ADW_WINDOW (window), scroller);
  gtk_window_present (window);
  test_loop_until (gtk_widget_get_mapped (GTK_WIDGET (window)), 30);
  figures[0] = measure ("bare window", settle);

  /* The host and the server, ready, no view. */
  top = test_make_top ("bench-app-views");
  host = test_host_new_in (top);
  if (g_str_equal (server_kind, "basic"))
    {
      const char *args[3] = { NULL, "--stdio", NULL };

      peer = g_build_filename (BENCH_PEERS_DIR, "@modelcontextprotocol",
                               "server-basic-vanillajs", "dist", "index.js", NULL);
      node = g_find_program_in_path ("node");
      if (node == NULL || !g_file_test (peer, G_FILE_TEST_EXISTS))
        {
          g_printerr ("node or server-basic-vanillajs is missing; try --server app-server\n");
          return 77;
        }
      args[0] = peer;
      plain = steward_server_config_new_stdio ("basic", node, args, NULL, NULL);
      tool_name = "get-time";
    }
  else
    {
      g_autofree char *script = g_build_filename (BENCH_SERVERS_DIR, "app-server.py", NULL);
      const char *args[] = { script, NULL };

      plain = steward_server_config_new_stdio ("app-server", "/usr/bin/python3", args, NULL,
                                               NULL);
      tool_name = "show";
    }
  config = steward_server_config_with_permissions (plain, -1, FALSE, TRUE, NULL);
  test_record_consent (steward_host_get_config (host), config);
  server = steward_server_new (steward_host_get_server_context (host), config);
  steward_server_start (server);
  test_wait_for_status (server, STEWARD_SERVER_STATUS_READY, 60);
  tool = find_tool (server, tool_name);
  {
    g_autoptr(GAsyncResult) call = NULL;

    steward_server_call_tool_async (server, tool_name, empty, NULL, NULL, NULL, NULL,
                                    test_store_result_cb, &call);
    test_loop_until (call != NULL, 30);
    result = steward_server_call_tool_finish (server, call, &error);
    g_assert_no_error (error);
  }
  figures[1] = measure ("host, 0 views", settle);

  for (guint n = 0, step = 2; n < N_VIEWS_MAX; step++)
    {
      guint want = n == 0 ? 1 : N_VIEWS_MAX;

      for (; n < want; n++)
        {
          views[n] = STEWARD_APP_VIEW (steward_app_view_new (host, server, tool, empty));
          steward_app_view_set_result (views[n], result);
          gtk_box_append (GTK_BOX (box), GTK_WIDGET (views[n]));
        }
      test_loop_until (views_initialized (n), 60);
      figures[step] = measure (n == 1 ? "1 view" : "5 views", settle);
    }

  g_print ("%-16s %10s %8s %12s %12s %12s\n", "", "app MiB", "WebKit", "WebKit RSS",
           "WebKit PSS", "total RSS");
  for (guint i = 0; i < G_N_ELEMENTS (figures); i++)
    g_print ("%-16s %10.1f %8d %12.1f %12.1f %12.1f\n", figures[i].name, figures[i].app_rss,
             figures[i].n_web, figures[i].web_rss, figures[i].web_pss,
             figures[i].app_rss + figures[i].web_rss);
  g_print ("{\"bench\": \"app-views\", \"server\": \"%s\"", server_kind);
  for (guint i = 0; i < G_N_ELEMENTS (figures); i++)
    g_print (", \"%s\": {\"app_rss_mib\": %.1f, \"webkit_processes\": %d, "
             "\"webkit_rss_mib\": %.1f, \"webkit_pss_mib\": %.1f}",
             figures[i].name, figures[i].app_rss, figures[i].n_web, figures[i].web_rss,
             figures[i].web_pss);
  g_print ("}\n");

  gtk_window_destroy (window);
  {
    g_autoptr(GAsyncResult) stopped = NULL;

    steward_server_stop_async (server, NULL, test_store_result_cb, &stopped);
    test_loop_until (stopped != NULL, 10);
  }
  test_remove_tree (top);

  return 0;
}

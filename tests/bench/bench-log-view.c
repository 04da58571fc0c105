/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "bench-log-view"

#include "config.h"

/*
 * The log view under a notification flood, as a person would watch it: a
 * window with the view following the newest entry while a timeout appends
 * a hundred entries every 10 ms (10,000 a second) for ten seconds, the way
 * a flooding server's messages arrive. It records the interval between
 * painted frames (GdkFrameClock "after-paint") and the longest gap seen by
 * a 1 ms heartbeat, which is the longest the main loop was held up. Then
 * it times a text filter over the full store, both as the view runs it
 * (in slices, heartbeat still running) and as the bare matching cost.
 *
 *   run-in-session bench-log-view [--seconds S] [--rate N]
 *
 * Prints one line per figure, then all of them as one JSON object. The
 * target (docs/SECURITY.md) is no stall above 50 ms.
 */

#include <adwaita.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "steward-log-view.h"

#define TICK_MS 10

typedef struct
{
  StewardHost     *host;
  StewardLogStore *store;
  StewardLogView  *view;
  GtkWidget       *window;

  guint            rate;
  guint            seconds;
  guint            produced;
  gint64           flood_start_us;
  gint64           flood_end_us;
  gboolean         flooding;

  /* Frame intervals while flooding, in microseconds. */
  GArray          *frame_intervals;
  gint64           last_frame_us;

  /* The heartbeat: the longest gap between two of its runs, and the CPU
   * time the main thread spent within that gap. On a loaded machine the
   * gap includes time the thread waited for a CPU or for the X server;
   * the CPU time is the work done on the main loop. The most CPU time
   * spent within any one gap is the longest piece of work. */
  gint64           last_beat_us;
  gint64           last_beat_cpu_us;
  gint64           max_stall_us;
  gint64           max_stall_cpu_us;
  gint64           max_work_us;
  gboolean         measuring;
} Bench;

static gsize
resident_bytes (void)
{
  g_autofree char *statm = NULL;
  g_auto(GStrv) fields = NULL;

  if (!g_file_get_contents ("/proc/self/statm", &statm, NULL, NULL))
    return 0;
  fields = g_strsplit (statm, " ", -1);
  if (g_strv_length (fields) < 2)
    return 0;

  return g_ascii_strtoull (fields[1], NULL, 10) * sysconf (_SC_PAGESIZE);
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir != NULL)
    {
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          remove_tree (child);
        }
    }

  g_remove (path);
}

static gint64
thread_cpu_us (void)
{
  struct timespec ts;

  if (clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
    return 0;

  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

static gboolean
heartbeat_cb (gpointer user_data)
{
  Bench *bench = user_data;
  gint64 now = g_get_monotonic_time ();
  gint64 cpu = thread_cpu_us ();

  if (bench->measuring && bench->last_beat_us != 0)
    {
      if (now - bench->last_beat_us > bench->max_stall_us)
        {
          bench->max_stall_us = now - bench->last_beat_us;
          bench->max_stall_cpu_us = cpu - bench->last_beat_cpu_us;
        }
      bench->max_work_us = MAX (bench->max_work_us, cpu - bench->last_beat_cpu_us);
    }
  bench->last_beat_us = now;
  bench->last_beat_cpu_us = cpu;

  return G_SOURCE_CONTINUE;
}

static void
after_paint_cb (GdkFrameClock *clock,
                Bench         *bench)
{
  gint64 now = g_get_monotonic_time ();

  if (bench->flooding && bench->last_frame_us != 0)
    {
      gint64 interval = now - bench->last_frame_us;

      g_array_append_val (bench->frame_intervals, interval);
    }
  bench->last_frame_us = now;
}

/* What a flooding server sends: mostly notifications/message with some
 * JSON data, and the protocol trace of each. */
static void
append_entry (Bench *bench)
{
  guint i = bench->produced++;
  g_autoptr(StewardLogEntry) entry = NULL;
  g_autofree char *text = NULL;
  g_autofree char *detail = NULL;

  if (i % 2 == 0)
    {
      text = g_strdup_printf ("progress %u of the indexing run over /home/alice/Projects", i);
      detail = g_strdup_printf ("{\n  \"level\": \"info\",\n  \"logger\": \"indexer\",\n"
                                "  \"data\": {\n    \"step\": %u,\n    \"file\": \"src/file-%u.c\"\n"
                                "  }\n}", i, i % 977);
      entry = steward_log_entry_new (g_get_real_time (), "flood", STEWARD_LOG_SOURCE_SERVER,
                                     i % 50 == 0 ? STEWARD_LOG_LEVEL_WARNING
                                                 : STEWARD_LOG_LEVEL_INFO,
                                     STEWARD_LOG_DIRECTION_NONE, "indexer", text, detail,
                                     strlen (detail));
    }
  else
    {
      text = g_strdup ("notifications/message");
      detail = g_strdup_printf ("{\n  \"jsonrpc\": \"2.0\",\n  \"method\": \"notifications/message\","
                                "\n  \"params\": {\n    \"level\": \"info\",\n    \"data\": %u\n"
                                "  }\n}", i);
      entry = steward_log_entry_new (g_get_real_time (), "flood", STEWARD_LOG_SOURCE_TRACE,
                                     STEWARD_LOG_LEVEL_DEBUG, STEWARD_LOG_DIRECTION_IN, NULL,
                                     text, detail, strlen (detail));
    }

  steward_log_store_append (bench->store, entry);
}

/* Appends what the rate asks for by now: about a hundred entries a tick,
 * more when a tick came late, so that the flood keeps its rate even when
 * the main loop falls behind. */
static gboolean
produce_cb (gpointer user_data)
{
  Bench *bench = user_data;
  gint64 now = g_get_monotonic_time ();
  guint64 due;

  if (now >= bench->flood_end_us)
    {
      bench->flooding = FALSE;
      return G_SOURCE_REMOVE;
    }

  due = (guint64) (now - bench->flood_start_us) * bench->rate / G_USEC_PER_SEC;
  while (bench->produced < due)
    append_entry (bench);

  return G_SOURCE_CONTINUE;
}

static int
compare_gint64 (gconstpointer a,
                gconstpointer b)
{
  gint64 x = *(const gint64 *) a;
  gint64 y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

static double
percentile_ms (GArray *values,
               double  fraction)
{
  guint index;

  if (values->len == 0)
    return 0;

  index = MIN (values->len - 1, (guint) (fraction * values->len));
  return g_array_index (values, gint64, index) / 1000.0;
}

static void
iterate_while (gboolean *condition)
{
  while (*condition)
    g_main_context_iteration (NULL, TRUE);
}

static gboolean
filter_pending (Bench *bench)
{
  GListModel *model = steward_log_view_get_model (bench->view);

  return GTK_IS_FILTER_LIST_MODEL (model) &&
         gtk_filter_list_model_get_pending (GTK_FILTER_LIST_MODEL (model)) > 0;
}

/* Whether the newest entry is in view, as following promises. */
static gboolean
is_at_end (Bench *bench)
{
  GtkWidget *widget = GTK_WIDGET (bench->view);
  GtkAdjustment *adjustment = NULL;

  while (widget != NULL && adjustment == NULL)
    {
      if (GTK_IS_LIST_VIEW (widget) && gtk_widget_has_css_class (widget, "steward-log-list"))
        adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (widget));
      else if (gtk_widget_get_first_child (widget) != NULL)
        widget = gtk_widget_get_first_child (widget);
      else
        {
          while (widget != NULL && gtk_widget_get_next_sibling (widget) == NULL)
            widget = gtk_widget_get_parent (widget);
          widget = widget != NULL ? gtk_widget_get_next_sibling (widget) : NULL;
        }
    }

  return adjustment != NULL &&
         gtk_adjustment_get_value (adjustment) >=
           gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment) - 1;
}

static void
settle (void)
{
  gint64 until = g_get_monotonic_time () + 200 * 1000;

  /* Let a frame or two pass so that the window is drawn and idle. */
  while (g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, FALSE);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *tmp_dir = NULL;
  g_autoptr(GFile) config_dir = NULL;
  g_autoptr(GFile) state_dir = NULL;
  GdkFrameClock *frame_clock;
  Bench bench = { 0 };
  int seconds = 10;
  int rate = 10000;
  gboolean waiting;
  gboolean followed = FALSE;
  gboolean at_end;
  guint heartbeat_id;
  gint64 start_us;
  gint64 flood_stall_us;
  gint64 flood_stall_cpu_us;
  gint64 flood_work_us;
  gint64 filter_work_us;
  gint64 filter_stall_cpu_us;
  gint64 filter_us;
  gint64 filter_stall_us;
  gint64 match_us;
  guint n_matches = 0;
  guint n_store;
  guint n_shown;
  guint n_filtered;
  guint i;
  gsize rss_before;
  gsize rss_after;
  GOptionEntry entries[] = {
    { "seconds", 0, 0, G_OPTION_ARG_INT, &seconds, "How long the flood lasts (10)", "S" },
    { "rate", 0, 0, G_OPTION_ARG_INT, &rate, "Entries a second (10000)", "N" },
    { NULL }
  };

  /* The view keeps its filters in GSettings: the build tree's schema,
   * and nothing written anywhere. */
  g_setenv ("GSETTINGS_SCHEMA_DIR", BENCH_SCHEMA_DIR, FALSE);
  g_setenv ("GSETTINGS_BACKEND", "memory", FALSE);

  context = g_option_context_new ("- the log view under a flood");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }

  gtk_init ();
  adw_init ();

  bench.rate = MAX (rate, 1);
  bench.seconds = MAX (seconds, 1);
  bench.frame_intervals = g_array_new (FALSE, FALSE, sizeof (gint64));

  tmp_dir = g_dir_make_tmp ("bench-log-view-XXXXXX", &error);
  g_assert_no_error (error);
  config_dir = g_file_new_build_filename (tmp_dir, "config", NULL);
  state_dir = g_file_new_build_filename (tmp_dir, "state", NULL);
  bench.host = steward_host_new (config_dir, state_dir);
  bench.store = steward_host_get_log_store (bench.host);

  bench.window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (bench.window), 1000, 700);
  bench.view = STEWARD_LOG_VIEW (steward_log_view_new (bench.host));
  gtk_window_set_child (GTK_WINDOW (bench.window), GTK_WIDGET (bench.view));
  gtk_window_present (GTK_WINDOW (bench.window));
  settle ();

  frame_clock = gtk_widget_get_frame_clock (bench.window);
  g_assert_nonnull (frame_clock);
  g_signal_connect (frame_clock, "after-paint", G_CALLBACK (after_paint_cb), &bench);
  heartbeat_id = g_timeout_add (1, heartbeat_cb, &bench);

  /* The flood, followed. */
  rss_before = resident_bytes ();
  bench.flooding = TRUE;
  bench.measuring = TRUE;
  bench.last_beat_us = 0;
  start_us = g_get_monotonic_time ();
  bench.flood_start_us = start_us;
  bench.flood_end_us = start_us + (gint64) bench.seconds * G_USEC_PER_SEC;
  g_timeout_add (TICK_MS, produce_cb, &bench);
  iterate_while (&bench.flooding);
  steward_log_store_flush (bench.store);
  settle ();
  bench.measuring = FALSE;
  flood_stall_us = bench.max_stall_us;
  flood_stall_cpu_us = bench.max_stall_cpu_us;
  flood_work_us = bench.max_work_us;
  rss_after = resident_bytes ();

  g_object_get (bench.view, "follow", &followed, NULL);
  at_end = is_at_end (&bench);

  g_array_sort (bench.frame_intervals, compare_gint64);
  n_store = g_list_model_get_n_items (G_LIST_MODEL (bench.store));
  n_shown = g_list_model_get_n_items (steward_log_view_get_model (bench.view));

  /* A text filter over the full store, as the view runs it. */
  bench.max_stall_us = 0;
  bench.max_stall_cpu_us = 0;
  bench.max_work_us = 0;
  bench.last_beat_us = 0;
  bench.measuring = TRUE;
  start_us = g_get_monotonic_time ();
  g_object_set (bench.view, "search-text", "file-42.c", NULL);
  waiting = TRUE;
  while (waiting)
    {
      g_main_context_iteration (NULL, TRUE);
      waiting = filter_pending (&bench);
    }
  filter_us = g_get_monotonic_time () - start_us;
  filter_stall_us = bench.max_stall_us;
  filter_stall_cpu_us = bench.max_stall_cpu_us;
  filter_work_us = bench.max_work_us;
  bench.measuring = FALSE;
  n_filtered = g_list_model_get_n_items (steward_log_view_get_model (bench.view));

  /* The bare cost of matching every entry once. */
  start_us = g_get_monotonic_time ();
  for (i = 0; i < n_store; i++)
    {
      g_autoptr(StewardLogEntry) entry = g_list_model_get_item (G_LIST_MODEL (bench.store), i);

      n_matches += steward_log_entry_matches_text (entry, "file-42.c");
    }
  match_us = g_get_monotonic_time () - start_us;

  g_print ("entries produced:          %u (%u/s for %u s)\n",
           bench.produced, bench.rate, bench.seconds);
  g_print ("entries in the store:      %u (dropped %" G_GUINT64_FORMAT ")\n",
           n_store, steward_log_store_get_n_dropped (bench.store));
  g_print ("entries shown:             %u\n", n_shown);
  g_print ("still following, at end:  %s, %s\n", followed ? "yes" : "no", at_end ? "yes" : "no");
  g_print ("frames painted:            %u\n", bench.frame_intervals->len + 1);
  g_print ("frame interval p50:        %.1f ms\n", percentile_ms (bench.frame_intervals, 0.50));
  g_print ("frame interval p99:        %.1f ms\n", percentile_ms (bench.frame_intervals, 0.99));
  g_print ("frame interval max:        %.1f ms\n", percentile_ms (bench.frame_intervals, 1.0));
  g_print ("longest main-loop stall:   %.1f ms (target: at most 50 ms), "
           "of which main-thread CPU %.1f ms\n",
           flood_stall_us / 1000.0, flood_stall_cpu_us / 1000.0);
  g_print ("longest main-loop work:    %.1f ms of CPU between two heartbeats\n",
           flood_work_us / 1000.0);
  g_print ("RSS growth over the flood: %.1f MiB\n",
           ((double) rss_after - (double) rss_before) / (1024 * 1024));
  g_print ("text filter, in the view:  %.1f ms for %u entries, %u shown, "
           "longest stall %.1f ms (CPU %.1f ms), longest work %.1f ms\n",
           filter_us / 1000.0, n_store, n_filtered, filter_stall_us / 1000.0,
           filter_stall_cpu_us / 1000.0, filter_work_us / 1000.0);
  g_print ("text filter, bare:         %.1f ms for %u entries, %u matches\n",
           match_us / 1000.0, n_store, n_matches);
  g_print ("{\"produced\": %u, \"rate\": %u, \"seconds\": %u, \"store\": %u, \"shown\": %u, "
           "\"frames\": %u, \"frame_p50_ms\": %.2f, \"frame_p99_ms\": %.2f, "
           "\"frame_max_ms\": %.2f, \"max_stall_ms\": %.2f, \"max_stall_cpu_ms\": %.2f, "
           "\"max_work_ms\": %.2f, "
           "\"rss_growth_mib\": %.2f, "
           "\"filter_view_ms\": %.2f, \"filter_view_stall_ms\": %.2f, "
           "\"filter_view_stall_cpu_ms\": %.2f, \"filter_view_work_ms\": %.2f, "
           "\"filter_bare_ms\": %.2f, "
           "\"filtered\": %u}\n",
           bench.produced, bench.rate, bench.seconds, n_store, n_shown,
           bench.frame_intervals->len + 1,
           percentile_ms (bench.frame_intervals, 0.50),
           percentile_ms (bench.frame_intervals, 0.99),
           percentile_ms (bench.frame_intervals, 1.0),
           flood_stall_us / 1000.0, flood_stall_cpu_us / 1000.0, flood_work_us / 1000.0,
           ((double) rss_after - (double) rss_before) / (1024 * 1024),
           filter_us / 1000.0, filter_stall_us / 1000.0, filter_stall_cpu_us / 1000.0,
           filter_work_us / 1000.0, match_us / 1000.0, n_filtered);

  g_source_remove (heartbeat_id);
  g_signal_handlers_disconnect_by_data (frame_clock, &bench);
  gtk_window_destroy (GTK_WINDOW (bench.window));
  g_object_unref (bench.host);
  g_array_unref (bench.frame_intervals);
  remove_tree (tmp_dir);

  return 0;
}

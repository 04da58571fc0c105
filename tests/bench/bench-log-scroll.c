/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "bench-log-scroll"

#include "config.h"

/*
 * The log view over a store at its cap (100,000 entries), read as a
 * person reads it:
 *
 *  - shown: the view made and shown over the full store, to its first
 *    painted frame (main-loop busy time and main-thread CPU time);
 *  - touchpad: from the first entry down by a step a frame (90 px, as a
 *    touchpad flick would) for a number of frames;
 *  - drag: from the first entry to the last in a fixed number of frames,
 *    as when the scroll bar is dragged: every frame shows entries the
 *    list has not shown before;
 *  - end: the view follows again and goes to the newest entry.
 *
 * Each scroll is driven by a tick callback that moves the adjustment once
 * a frame, and its frames are timed from the window's GdkFrameClock
 * (bench-frames.h).
 *
 *   run-in-session bench-log-scroll [--frames N] [--step PX] [--drag-frames N]
 *
 * Prints one line per figure, then all of them as one JSON object.
 */

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "bench-frames.h"
#include "steward-log-view.h"

typedef struct
{
  GtkWidget      *window;
  StewardLogView *view;
  GtkAdjustment  *adjustment;
  BenchFrames    *frames;

  /* A step a frame for frames_left frames, or, when step is 0, to the
   * end in frames_left frames. */
  double          step;
  guint           frames_left;
  gboolean        scrolling;
} Bench;

static void
append_message (StewardLogStore     *store,
                const char          *server,
                StewardLogDirection  direction,
                const char          *summary,
                const char          *line)
{
  g_autoptr(GBytes) text = g_bytes_new (line, strlen (line));

  steward_log_store_append_message (store, g_get_real_time (), server, direction, summary,
                                    text, strlen (line) - 1, FALSE, strlen (line) - 1);
}

/* What servers log and what the trace records, in the proportions of a
 * busy session: server messages with JSON data, traced requests and
 * answers, now and then a warning or a line of stderr. */
static void
fill (StewardLogStore *store,
      guint            n)
{
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(StewardLogEntry) entry = NULL;
      g_autofree char *text = NULL;
      g_autofree char *detail = NULL;
      const char *server = i % 3 == 0 ? "files" : i % 3 == 1 ? "everything" : "github";

      switch (i % 4)
        {
        case 0:
          text = g_strdup_printf ("indexed src/module-%u/file-%u.c (%u symbols)",
                                  i % 97, i % 977, i % 300);
          detail = g_strdup_printf ("{\n  \"level\": \"info\",\n  \"logger\": \"indexer\",\n"
                                    "  \"data\": {\n    \"step\": %u,\n"
                                    "    \"file\": \"src/module-%u/file-%u.c\"\n  }\n}",
                                    i, i % 97, i % 977);
          entry = steward_log_entry_new (g_get_real_time (), server,
                                         STEWARD_LOG_SOURCE_SERVER,
                                         i % 40 == 0 ? STEWARD_LOG_LEVEL_WARNING
                                                     : STEWARD_LOG_LEVEL_INFO,
                                         STEWARD_LOG_DIRECTION_NONE, "indexer", text, detail,
                                         strlen (detail));
          break;
        /* Protocol messages come as the host appends them: their compact
         * text, made into entries only as the view reads them. */
        case 1:
          text = g_strdup_printf ("tools/call “search_code” id %u", i);
          detail = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%u,\"method\":\"tools/call\","
                                    "\"params\":{\"name\":\"search_code\",\"arguments\":"
                                    "{\"query\":\"fn main round %u\"}}}\n", i, i);
          append_message (store, server, STEWARD_LOG_DIRECTION_OUT, text, detail);
          continue;
        case 2:
          text = g_strdup_printf ("result id %u for tools/call “search_code”", i - 1);
          detail = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%u,\"result\":{\"content\":"
                                    "[{\"type\":\"text\",\"text\":\"%u matches in 12 files\"}]}}\n",
                                    i - 1, i % 50);
          append_message (store, server, STEWARD_LOG_DIRECTION_IN, text, detail);
          continue;
        default:
          text = g_strdup_printf ("worker %u: cache hit ratio 0.%02u, %u entries evicted",
                                  i % 8, i % 100, i % 13);
          entry = steward_log_entry_new (g_get_real_time (), server,
                                         STEWARD_LOG_SOURCE_STDERR, STEWARD_LOG_LEVEL_INFO,
                                         STEWARD_LOG_DIRECTION_NONE, NULL, text, NULL, 0);
          break;
        }
      steward_log_store_append (store, entry);
    }
  steward_log_store_flush (store);
}

/* The list's own adjustment: the view's only list with this class. */
static GtkAdjustment *
find_adjustment (GtkWidget *widget)
{
  if (GTK_IS_LIST_VIEW (widget) && gtk_widget_has_css_class (widget, "steward-log-list"))
    return gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (widget));

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkAdjustment *adjustment = find_adjustment (child);

      if (adjustment != NULL)
        return adjustment;
    }

  return NULL;
}

static double
end_of (GtkAdjustment *adjustment)
{
  return gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment);
}

static gboolean
scroll_tick_cb (GtkWidget     *widget,
                GdkFrameClock *clock,
                gpointer       user_data)
{
  Bench *bench = user_data;
  double value = gtk_adjustment_get_value (bench->adjustment);
  double end = end_of (bench->adjustment);
  double step = bench->step;

  if (bench->frames_left == 0 || value >= end)
    {
      bench->scrolling = FALSE;
      return G_SOURCE_REMOVE;
    }

  /* The end moves as the list learns the height of its rows: the step
   * is worked out again each frame. */
  if (step == 0)
    step = (end - value) / bench->frames_left;
  bench->frames_left--;
  gtk_adjustment_set_value (bench->adjustment, MIN (value + step, end));
  return G_SOURCE_CONTINUE;
}

static void
scroll (Bench  *bench,
        double  step,
        guint   n_frames)
{
  bench->step = step;
  bench->frames_left = n_frames;
  bench_frames_start (bench->frames);
  bench->scrolling = TRUE;
  gtk_widget_add_tick_callback (bench->window, scroll_tick_cb, bench, NULL);
  bench_iterate_while (&bench->scrolling);
  bench_frames_stop (bench->frames);
}

static void
to_top (Bench *bench)
{
  g_object_set (bench->view, "follow", FALSE, NULL);
  gtk_adjustment_set_value (bench->adjustment, 0);
  bench_settle (300);
  g_assert_cmpfloat (gtk_adjustment_get_value (bench->adjustment), ==, 0);
}

/* Runs the loop until a frame was painted after the change just made,
 * and gives the main loop's busy and CPU time since @mark. */
static void
until_painted (Bench     *bench,
               BenchBusy *mark,
               gint64    *busy_us,
               gint64    *cpu_us)
{
  guint64 painted = bench_frames_get_painted (bench->frames);

  while (bench_frames_get_painted (bench->frames) == painted)
    g_main_context_iteration (NULL, TRUE);
  *busy_us = bench_busy_since_us (mark);
  *cpu_us = bench_cpu_since_us (mark);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) json = g_string_new (NULL);
  g_autofree char *tmp_dir = NULL;
  g_autoptr(GFile) config_dir = NULL;
  g_autoptr(GFile) state_dir = NULL;
  g_autoptr(StewardHost) host = NULL;
  StewardLogStore *store;
  Bench bench = { 0 };
  BenchBusy mark;
  int n_frames = 600;
  int drag_frames = 600;
  double step = 90;
  gint64 fill_us;
  gint64 show_busy_us;
  gint64 show_cpu_us;
  gint64 end_busy_us;
  gint64 end_cpu_us;
  guint n_entries;
  GOptionEntry entries[] = {
    { "frames", 0, 0, G_OPTION_ARG_INT, &n_frames, "Frames of touchpad scrolling (600)", "N" },
    { "step", 0, 0, G_OPTION_ARG_DOUBLE, &step, "Pixels a touchpad frame (90)", "PX" },
    { "drag-frames", 0, 0, G_OPTION_ARG_INT, &drag_frames,
      "Frames from the first entry to the last (600)", "N" },
    { NULL }
  };

  g_setenv ("GSETTINGS_SCHEMA_DIR", BENCH_SCHEMA_DIR, FALSE);
  g_setenv ("GSETTINGS_BACKEND", "memory", FALSE);

  context = g_option_context_new ("- the log view over a full store");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }

  gtk_init ();
  adw_init ();
  bench_busy_init ();

  tmp_dir = g_dir_make_tmp ("bench-log-scroll-XXXXXX", &error);
  g_assert_no_error (error);
  config_dir = g_file_new_build_filename (tmp_dir, "config", NULL);
  state_dir = g_file_new_build_filename (tmp_dir, "state", NULL);
  host = steward_host_new (config_dir, state_dir);
  store = steward_host_get_log_store (host);

  fill_us = g_get_monotonic_time ();
  fill (store, steward_log_store_get_capacity (store));
  fill_us = g_get_monotonic_time () - fill_us;
  n_entries = g_list_model_get_n_items (G_LIST_MODEL (store));
  g_assert_cmpuint (n_entries, ==, steward_log_store_get_capacity (store));

  bench.window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (bench.window), 1000, 700);
  gtk_window_present (GTK_WINDOW (bench.window));
  bench_settle (300);
  bench.frames = bench_frames_new (bench.window);

  /* Shown over the full store, following: to the newest entry. */
  bench_busy_mark (&mark);
  bench.view = STEWARD_LOG_VIEW (steward_log_view_new (host));
  gtk_window_set_child (GTK_WINDOW (bench.window), GTK_WIDGET (bench.view));
  until_painted (&bench, &mark, &show_busy_us, &show_cpu_us);
  bench_settle (500);
  bench.adjustment = find_adjustment (GTK_WIDGET (bench.view));
  g_assert_nonnull (bench.adjustment);
  g_assert_cmpuint (g_list_model_get_n_items (steward_log_view_get_model (bench.view)), ==,
                    n_entries);

  to_top (&bench);
  scroll (&bench, MAX (step, 1), MAX (n_frames, 1));
  bench_frames_report (bench.frames, "touchpad", "touchpad", json);

  to_top (&bench);
  scroll (&bench, 0, MAX (drag_frames, 1));
  bench_frames_report (bench.frames, "drag", "drag", json);
  /* Dragged all the way down: the last entry is in view. */
  g_assert_cmpfloat (gtk_adjustment_get_value (bench.adjustment), >=,
                     end_of (bench.adjustment) - 1);

  /* Back to the top, then following again: to the newest entry. */
  to_top (&bench);
  bench_busy_mark (&mark);
  g_object_set (bench.view, "follow", TRUE, NULL);
  until_painted (&bench, &mark, &end_busy_us, &end_cpu_us);
  bench_settle (300);

  g_print ("entries:                   %u (filled in %.0f ms)\n", n_entries, fill_us / 1000.0);
  g_print ("shown:                     main loop busy %.1f ms, CPU %.1f ms\n",
           show_busy_us / 1000.0, show_cpu_us / 1000.0);
  g_print ("top to newest (follow):    main loop busy %.1f ms, CPU %.1f ms\n",
           end_busy_us / 1000.0, end_cpu_us / 1000.0);
  g_print ("{\"entries\": %u, \"step_px\": %.0f, \"show_busy_ms\": %.2f, \"show_cpu_ms\": %.2f, "
           "\"follow_busy_ms\": %.2f, \"follow_cpu_ms\": %.2f%s}\n",
           n_entries, MAX (step, 1), show_busy_us / 1000.0, show_cpu_us / 1000.0,
           end_busy_us / 1000.0, end_cpu_us / 1000.0, json->str);

  bench_frames_free (bench.frames);
  gtk_window_destroy (GTK_WINDOW (bench.window));
  g_clear_object (&host);
  bench_remove_tree (tmp_dir);

  return 0;
}

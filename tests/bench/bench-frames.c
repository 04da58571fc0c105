/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "bench-frames"

#include "config.h"

#include <stdlib.h>
#include <time.h>

#include <glib/gstdio.h>

#include "bench-frames.h"

struct _BenchFrames
{
  GdkFrameClock *clock;
  GArray        *intervals;
  GArray        *work;
  GArray        *cpu;
  gint64         last_paint_us;
  gint64         start_us;
  gint64         start_cpu_us;
  guint64        painted;
  gboolean       recording;
};

gint64
bench_thread_cpu_us (void)
{
  struct timespec ts;

  if (clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
    return 0;

  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

static int
compare_gint64 (gconstpointer a,
                gconstpointer b)
{
  gint64 x = *(const gint64 *) a;
  gint64 y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

gint64
bench_median (gint64 *values,
              guint   n)
{
  if (n == 0)
    return 0;

  qsort (values, n, sizeof (gint64), compare_gint64);
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

static void
before_paint_cb (GdkFrameClock *clock,
                 BenchFrames   *frames)
{
  frames->start_us = g_get_monotonic_time ();
  frames->start_cpu_us = bench_thread_cpu_us ();
}

static void
after_paint_cb (GdkFrameClock *clock,
                BenchFrames   *frames)
{
  gint64 now = g_get_monotonic_time ();

  frames->painted++;
  if (frames->recording && frames->start_us != 0)
    {
      gint64 work = now - frames->start_us;
      gint64 cpu = bench_thread_cpu_us () - frames->start_cpu_us;

      g_array_append_val (frames->work, work);
      g_array_append_val (frames->cpu, cpu);
      if (frames->last_paint_us != 0)
        {
          gint64 interval = now - frames->last_paint_us;

          g_array_append_val (frames->intervals, interval);
        }
    }
  frames->last_paint_us = now;
  frames->start_us = 0;
}

BenchFrames *
bench_frames_new (GtkWidget *widget)
{
  BenchFrames *frames = g_new0 (BenchFrames, 1);

  frames->clock = g_object_ref (gtk_widget_get_frame_clock (widget));
  g_assert_nonnull (frames->clock);
  frames->intervals = g_array_new (FALSE, FALSE, sizeof (gint64));
  frames->work = g_array_new (FALSE, FALSE, sizeof (gint64));
  frames->cpu = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_signal_connect (frames->clock, "before-paint", G_CALLBACK (before_paint_cb), frames);
  g_signal_connect (frames->clock, "after-paint", G_CALLBACK (after_paint_cb), frames);

  return frames;
}

void
bench_frames_free (BenchFrames *frames)
{
  g_signal_handlers_disconnect_by_data (frames->clock, frames);
  g_object_unref (frames->clock);
  g_array_unref (frames->intervals);
  g_array_unref (frames->work);
  g_array_unref (frames->cpu);
  g_free (frames);
}

void
bench_frames_start (BenchFrames *frames)
{
  g_array_set_size (frames->intervals, 0);
  g_array_set_size (frames->work, 0);
  g_array_set_size (frames->cpu, 0);
  /* A frame already under way is not counted: its start was missed. */
  frames->start_us = 0;
  frames->last_paint_us = 0;
  frames->recording = TRUE;
}

void
bench_frames_stop (BenchFrames *frames)
{
  frames->recording = FALSE;
}

guint
bench_frames_get_n_frames (BenchFrames *frames)
{
  return frames->work->len;
}

guint64
bench_frames_get_painted (BenchFrames *frames)
{
  return frames->painted;
}

/* Nearest rank, on sorted @values. */
static double
percentile_ms (GArray *values,
               double  fraction)
{
  guint rank;

  if (values->len == 0)
    return 0;

  rank = (guint) (fraction * values->len + 0.999999);
  rank = CLAMP (rank, 1, values->len);
  return g_array_index (values, gint64, rank - 1) / 1000.0;
}

static guint
count_over (GArray *values,
            gint64  limit_us)
{
  guint n = 0;

  for (guint i = 0; i < values->len; i++)
    n += g_array_index (values, gint64, i) > limit_us;

  return n;
}

static void
report_one (GArray     *values,
            const char *label,
            const char *what,
            const char *key,
            const char *name,
            gint64      over_us,
            GString    *json)
{
  guint over_one;
  guint over_two;

  g_array_sort (values, compare_gint64);
  over_one = count_over (values, over_us);
  over_two = count_over (values, 2 * over_us);
  g_print ("%s %s: p50 %.1f ms, p95 %.1f ms, p99 %.1f ms, max %.1f ms; "
           "over %.1f ms: %u, over %.1f ms: %u\n",
           label, what, percentile_ms (values, 0.50), percentile_ms (values, 0.95),
           percentile_ms (values, 0.99), percentile_ms (values, 1.0),
           over_us / 1000.0, over_one, 2 * over_us / 1000.0, over_two);
  g_string_append_printf (json,
                          ", \"%s_%s_p50_ms\": %.2f, \"%s_%s_p95_ms\": %.2f, "
                          "\"%s_%s_p99_ms\": %.2f, \"%s_%s_max_ms\": %.2f, "
                          "\"%s_%s_over1\": %u, \"%s_%s_over2\": %u",
                          key, name, percentile_ms (values, 0.50),
                          key, name, percentile_ms (values, 0.95),
                          key, name, percentile_ms (values, 0.99),
                          key, name, percentile_ms (values, 1.0),
                          key, name, over_one, key, name, over_two);
}

void
bench_frames_report (BenchFrames *frames,
                     const char  *label,
                     const char  *key,
                     GString     *json)
{
  g_print ("%s frames: %u\n", label, frames->work->len);
  g_string_append_printf (json, ", \"%s_frames\": %u", key, frames->work->len);
  /* Frames come every 16.7 ms: an interval over one and a half of them
   * is a frame missed, over two and a half two or more. */
  report_one (frames->intervals, label, "interval", key, "interval", BENCH_FRAME_US * 3 / 2, json);
  report_one (frames->work, label, "frame time", key, "work", BENCH_FRAME_US, json);
  report_one (frames->cpu, label, "frame CPU", key, "cpu", BENCH_FRAME_US, json);
}

/* The main loop's busy time. */

static GPollFunc default_poll;
static gint64 waited_us;

static int
counting_poll (GPollFD *fds,
               guint    n_fds,
               int      timeout)
{
  gint64 start_us = g_get_monotonic_time ();
  int ret = default_poll (fds, n_fds, timeout);

  waited_us += g_get_monotonic_time () - start_us;
  return ret;
}

void
bench_busy_init (void)
{
  GMainContext *context = g_main_context_default ();

  if (default_poll != NULL)
    return;

  default_poll = g_main_context_get_poll_func (context);
  g_main_context_set_poll_func (context, counting_poll);
}

void
bench_busy_mark (BenchBusy *mark)
{
  mark->wall_us = g_get_monotonic_time ();
  mark->waited_us = waited_us;
  mark->cpu_us = bench_thread_cpu_us ();
}

gint64
bench_busy_since_us (const BenchBusy *mark)
{
  return (g_get_monotonic_time () - mark->wall_us) - (waited_us - mark->waited_us);
}

gint64
bench_cpu_since_us (const BenchBusy *mark)
{
  return bench_thread_cpu_us () - mark->cpu_us;
}

void
bench_iterate_while (gboolean *flag)
{
  while (*flag)
    g_main_context_iteration (NULL, TRUE);
}

static gboolean
clear_flag_cb (gpointer data)
{
  *(gboolean *) data = FALSE;
  return G_SOURCE_REMOVE;
}

void
bench_settle (guint ms)
{
  gboolean waiting = TRUE;

  g_timeout_add (ms, clear_flag_cb, &waiting);
  bench_iterate_while (&waiting);
}

void
bench_remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        bench_remove_tree (child);
      else
        g_remove (child);
    }
  g_rmdir (path);
}

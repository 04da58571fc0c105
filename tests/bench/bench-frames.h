/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/*
 * What the widget benchmarks share: frame times from a window's
 * GdkFrameClock, and how long the main loop was busy.
 *
 * A frame is timed from its "before-paint" (the frame starts: tick
 * callbacks, then layout and paint) to its "after-paint", in wall time and
 * in the main thread's CPU time; the interval is from one "after-paint" to
 * the next. On a machine others use, wall times include waiting for a
 * CPU, while the CPU time is the work the frame itself did.
 *
 * The main loop is busy whenever it is not waiting in poll(): a poll
 * function of our own counts the time spent waiting, and what is left of
 * the wall time is the time spent dispatching sources (events, timeouts,
 * idles, frames).
 */

/* 60 Hz: a frame whose work takes longer misses the next one. */
#define BENCH_FRAME_US 16667

typedef struct _BenchFrames BenchFrames;

BenchFrames *bench_frames_new          (GtkWidget   *widget);
void         bench_frames_free         (BenchFrames *frames);
/* Starts recording again, from nothing. */
void         bench_frames_start        (BenchFrames *frames);
void         bench_frames_stop         (BenchFrames *frames);
guint        bench_frames_get_n_frames (BenchFrames *frames);
/* How many frames were painted since @frames was made. */
guint64      bench_frames_get_painted  (BenchFrames *frames);
/* Prints the figures of what was recorded, one a line, each headed by
 * @label, and adds them to @json as members named after @key. */
void         bench_frames_report       (BenchFrames *frames,
                                        const char  *label,
                                        const char  *key,
                                        GString     *json);

/* The main loop's busy time. */
typedef struct
{
  gint64 wall_us;
  gint64 waited_us;
  gint64 cpu_us;
} BenchBusy;

/* Installs the poll function that counts the waiting; call once, after
 * gtk_init(). */
void         bench_busy_init           (void);
void         bench_busy_mark           (BenchBusy   *mark);
/* The main loop's busy time (wall time not spent waiting) since @mark. */
gint64       bench_busy_since_us       (const BenchBusy *mark);
/* The main thread's CPU time since @mark. */
gint64       bench_cpu_since_us        (const BenchBusy *mark);

gint64       bench_thread_cpu_us       (void);
/* The median of @n values, which it sorts. */
gint64       bench_median              (gint64      *values,
                                        guint        n);

/* Runs the main loop until *@flag is FALSE. */
void         bench_iterate_while       (gboolean    *flag);
/* Runs the main loop for @ms, so that the window is drawn and idle. */
void         bench_settle              (guint        ms);
/* Removes @path and everything below it. */
void         bench_remove_tree         (const char  *path);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* What both raw floors measure with, in plain libc like the rest of them:
 * no GLib, so that a floor costs what the kernel and the server cost. */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

static long
peak_rss_kib (void)
{
  FILE *status = fopen ("/proc/self/status", "r");
  char line[256];
  long kib = -1;

  if (status == NULL)
    return -1;
  while (fgets (line, sizeof line, status) != NULL)
    if (sscanf (line, "VmHWM: %ld kB", &kib) == 1)
      break;
  fclose (status);
  return kib;
}

/* The process's own CPU time, user and system: unlike the wall clock it
 * does not grow when other work on the machine delays us. */
static double
cpu_seconds (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return (double) (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         (double) (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

static double
now_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

static unsigned long
parse_count (const char *program,
             const char *text,
             const char *option)
{
  char *end = NULL;
  unsigned long value;

  errno = 0;
  value = strtoul (text, &end, 10);
  if (errno != 0 || end == text || *end != '\0')
    {
      fprintf (stderr, "%s: %s wants a number, not “%s”\n", program, option, text);
      exit (EXIT_FAILURE);
    }
  return value;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "bench-floor"

#include "config.h"

#include "bench-floor-common.h"

/*
 * The floor of the tools/call benchmark: what the round trips cost with no
 * client at all. It spawns the server on two pipes, does the initialize
 * exchange by hand, then writes fixed request lines and blocks in read()
 * until each answer's line is complete before it writes the next one. No
 * main loop, no parsing beyond finding the end of a line: whatever a real
 * client spends above this is the client's own cost.
 *
 *   bench-floor [--calls N] [--warmup N] -- SERVER [ARGS...]
 */

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The same text the other two clients send. */
#define MESSAGE "Hello from the Steward benchmark"

#define DEFAULT_CALLS 10000
#define DEFAULT_WARMUP 2000
#define SHUTDOWN_GRACE_MS 2000

typedef struct {
  int     fd;
  char   *data;
  size_t  start;
  size_t  len;
  size_t  cap;
} LineReader;

static void
fail (const char *what)
{
  fprintf (stderr, "bench-floor: %s: %s\n", what, errno ? strerror (errno) : "failed");
  exit (EXIT_FAILURE);
}

static void
write_all (int         fd,
           const char *data,
           size_t      len)
{
  while (len > 0)
    {
      ssize_t n = write (fd, data, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        fail ("writing to the server");
      data += n;
      len -= (size_t) n;
    }
}

/* Returns the next line (without its newline, NUL terminated) and its
 * length, reading as much as the pipe holds at a time. */
static char *
read_line (LineReader *reader,
           size_t     *len_out)
{
  for (;;)
    {
      char *begin = reader->data + reader->start;
      char *newline = memchr (begin, '\n', reader->len - reader->start);
      ssize_t n;

      if (newline != NULL)
        {
          *newline = '\0';
          *len_out = (size_t) (newline - begin);
          reader->start += *len_out + 1;
          return begin;
        }

      /* Keep the partial line and make room after it. */
      memmove (reader->data, begin, reader->len - reader->start);
      reader->len -= reader->start;
      reader->start = 0;
      if (reader->len == reader->cap)
        {
          reader->cap *= 2;
          reader->data = realloc (reader->data, reader->cap);
          if (reader->data == NULL)
            fail ("growing the read buffer");
        }

      n = read (reader->fd, reader->data + reader->len, reader->cap - reader->len);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        fail ("reading from the server");
      if (n == 0)
        {
          errno = 0;
          fail ("the server closed its stdout");
        }
      reader->len += (size_t) n;
    }
}

/* Skips what the server sends on its own (notifications, requests): every
 * one of those has a method, an answer never does. */
static char *
read_response (LineReader *reader)
{
  for (;;)
    {
      size_t len;
      char *line = read_line (reader, &len);

      if (strstr (line, "\"method\"") == NULL)
        return line;
    }
}

static pid_t
spawn_server (char **argv,
              int   *to_server,
              int   *from_server)
{
  int in_pipe[2];
  int out_pipe[2];
  pid_t pid;

  if (pipe (in_pipe) < 0 || pipe (out_pipe) < 0)
    fail ("creating pipes");

  pid = fork ();
  if (pid < 0)
    fail ("forking");

  if (pid == 0)
    {
      if (dup2 (in_pipe[0], STDIN_FILENO) < 0 || dup2 (out_pipe[1], STDOUT_FILENO) < 0)
        _exit (127);
      close (in_pipe[0]);
      close (in_pipe[1]);
      close (out_pipe[0]);
      close (out_pipe[1]);
      execvp (argv[0], argv);
      fprintf (stderr, "bench-floor: cannot run %s: %s\n", argv[0], strerror (errno));
      _exit (127);
    }

  close (in_pipe[0]);
  close (out_pipe[1]);
  *to_server = in_pipe[1];
  *from_server = out_pipe[0];
  return pid;
}

/* Closing stdin is the polite way to stop a stdio server; not every
 * server takes the hint, so a signal follows after a grace period. */
static void
stop_server (pid_t pid,
             int   to_server)
{
  close (to_server);

  for (int waited = 0; waited < SHUTDOWN_GRACE_MS; waited += 10)
    {
      struct timespec tick = { 0, 10 * 1000 * 1000 };

      if (waitpid (pid, NULL, WNOHANG) == pid)
        return;
      nanosleep (&tick, NULL);
    }

  kill (pid, SIGTERM);
  waitpid (pid, NULL, 0);
}

int
main (int    argc,
      char **argv)
{
  static const char initialize[] =
    "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":"
    "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
    "\"clientInfo\":{\"name\":\"steward-bench-floor\",\"version\":\"" PACKAGE_VERSION "\"}}}\n"
    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n";
  static const char list_tools[] =
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\n";
  unsigned long calls = DEFAULT_CALLS;
  unsigned long warmup = DEFAULT_WARMUP;
  LineReader reader = { 0 };
  char request[256];
  int to_server;
  pid_t pid;
  double start = 0;
  double cpu_start = 0;
  double seconds;
  double cpu;
  unsigned long bad = 0;
  int i;

  for (i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--") == 0)
        {
          i++;
          break;
        }
      else if (strcmp (argv[i], "--calls") == 0 && i + 1 < argc)
        calls = parse_count ("bench-floor", argv[++i], "--calls");
      else if (strcmp (argv[i], "--warmup") == 0 && i + 1 < argc)
        warmup = parse_count ("bench-floor", argv[++i], "--warmup");
      else
        break;
    }
  if (i >= argc || calls == 0)
    {
      fprintf (stderr, "usage: bench-floor [--calls N] [--warmup N] -- SERVER [ARGS...]\n");
      return EXIT_FAILURE;
    }

  /* A server that dies must show up as an error from write(), not as a
   * silent death of the benchmark. */
  signal (SIGPIPE, SIG_IGN);

  reader.cap = 64 * 1024;
  reader.data = malloc (reader.cap);
  if (reader.data == NULL)
    fail ("allocating the read buffer");
  pid = spawn_server (argv + i, &to_server, &reader.fd);

  write_all (to_server, initialize, sizeof initialize - 1);
  if (strstr (read_response (&reader), "\"protocolVersion\"") == NULL)
    {
      errno = 0;
      fail ("the server did not initialize");
    }
  write_all (to_server, list_tools, sizeof list_tools - 1);
  read_response (&reader);

  for (unsigned long n = 0; n < warmup + calls; n++)
    {
      int len = snprintf (request, sizeof request,
                          "{\"jsonrpc\":\"2.0\",\"id\":%lu,\"method\":\"tools/call\","
                          "\"params\":{\"name\":\"echo\",\"arguments\":{\"message\":\""
                          MESSAGE "\"}}}\n",
                          n + 2);

      if (n == warmup)
        {
          start = now_seconds ();
          cpu_start = cpu_seconds ();
        }
      write_all (to_server, request, (size_t) len);
      if (strstr (read_response (&reader), "Echo: " MESSAGE) == NULL)
        bad++;
    }
  seconds = now_seconds () - start;
  cpu = cpu_seconds () - cpu_start;

  stop_server (pid, to_server);
  close (reader.fd);
  free (reader.data);

  if (bad > 0)
    {
      fprintf (stderr, "bench-floor: %lu answers were not the echo\n", bad);
      return EXIT_FAILURE;
    }

  printf ("{\"client\":\"floor\",\"calls\":%lu,\"seconds\":%.6f,\"us_per_call\":%.3f,"
          "\"peak_rss_kib\":%ld,\"cpu_us_per_call\":%.3f}\n",
          calls, seconds, seconds * 1e6 / (double) calls, peak_rss_kib (),
          cpu * 1e6 / (double) calls);
  return EXIT_SUCCESS;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "flood-server"

#include "config.h"

/*
 * A minimal MCP server over stdio that floods its client with
 * notifications/message when told to, for bench-app's figures of the whole
 * app under a flood. It answers initialize, ping and logging/setLevel
 * (other requests get -32601), and waits. On SIGUSR1 it sends RATE
 * messages a second, a batch every 10 ms, for SECONDS seconds, then writes
 * how many it sent and over how long to REPORT as one JSON object, and
 * goes back to waiting. A client that reads slowly slows it down: the
 * report says what rate it really reached.
 *
 *   flood-server [RATE [SECONDS [REPORT]]]
 *
 * Like echo-server it uses nothing but libc, so that it costs the machine
 * as little as possible next to the client it floods.
 */

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TICK_NS (10 * 1000 * 1000)
#define READ_CHUNK (64 * 1024)
/* Requests from a client are small; a longer line is dropped. */
#define MAX_LINE_SIZE (16 * 1024 * 1024)

static const char * const revisions[] = {
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
  NULL,
};

typedef struct {
  const char *start;
  size_t      len;
} Span;

typedef struct {
  char   *data;
  size_t  len;
  size_t  cap;
} Buffer;

static volatile sig_atomic_t flood_asked;

static void
die (const char *what)
{
  fprintf (stderr, "flood-server: %s: %s\n", what, strerror (errno));
  exit (EXIT_FAILURE);
}

static void
buffer_append (Buffer     *buffer,
               const char *data,
               size_t      len)
{
  if (buffer->len + len > buffer->cap)
    {
      while (buffer->len + len > buffer->cap)
        buffer->cap = buffer->cap ? buffer->cap * 2 : READ_CHUNK;
      buffer->data = realloc (buffer->data, buffer->cap);
      if (buffer->data == NULL)
        die ("realloc");
    }
  memcpy (buffer->data + buffer->len, data, len);
  buffer->len += len;
}

static void
buffer_append_str (Buffer     *buffer,
                   const char *str)
{
  buffer_append (buffer, str, strlen (str));
}

static void
buffer_append_span (Buffer *buffer,
                    Span    span)
{
  buffer_append (buffer, span.start, span.len);
}

static void
write_all (Buffer *buffer)
{
  size_t done = 0;

  while (done < buffer->len)
    {
      ssize_t n = write (STDOUT_FILENO, buffer->data + done, buffer->len - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        die ("write");
      done += (size_t) n;
    }
  buffer->len = 0;
}

static int64_t
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static const char *
skip_space (const char *p,
            const char *end)
{
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
    p++;
  return p;
}

/* Returns the end of the string that starts at @p (its opening quote), or
 * NULL when it does not end on this line. */
static const char *
skip_string (const char *p,
             const char *end)
{
  for (p++; p < end; p++)
    {
      if (*p == '\\')
        p++;
      else if (*p == '"')
        return p + 1;
    }
  return NULL;
}

/* Returns the end of the JSON value at @p, or NULL when it is cut short.
 * Only the brackets are followed: the client's JSON is valid, and all that
 * is needed is where each member ends. */
static const char *
skip_value (const char *p,
            const char *end)
{
  int depth = 0;

  while (p < end)
    {
      switch (*p)
        {
        case '"':
          p = skip_string (p, end);
          if (p == NULL)
            return NULL;
          if (depth == 0)
            return p;
          continue;
        case '{':
        case '[':
          depth++;
          break;
        case '}':
        case ']':
          if (depth == 0)
            return p;
          if (--depth == 0)
            return p + 1;
          break;
        case ',':
          if (depth == 0)
            return p;
          break;
        default:
          break;
        }
      p++;
    }

  return depth == 0 ? p : NULL;
}

/* Finds the member @name of the object @object and sets @value to its
 * text, quotes and brackets included. */
static bool
find_member (Span        object,
             const char *name,
             Span       *value)
{
  const char *end = object.start + object.len;
  const char *p = skip_space (object.start, end);
  size_t name_len = strlen (name);

  if (p >= end || *p != '{')
    return false;
  p++;

  for (;;)
    {
      const char *key;
      const char *key_end;
      const char *value_start;

      p = skip_space (p, end);
      if (p >= end || *p != '"')
        return false;
      key = p + 1;
      key_end = skip_string (p, end);
      if (key_end == NULL)
        return false;
      p = skip_space (key_end, end);
      if (p >= end || *p != ':')
        return false;
      value_start = skip_space (p + 1, end);
      p = skip_value (value_start, end);
      if (p == NULL)
        return false;

      if ((size_t) (key_end - 1 - key) == name_len && memcmp (key, name, name_len) == 0)
        {
          const char *value_end = p;

          while (value_end > value_start &&
                 (value_end[-1] == ' ' || value_end[-1] == '\t' ||
                  value_end[-1] == '\r' || value_end[-1] == '\n'))
            value_end--;
          value->start = value_start;
          value->len = (size_t) (value_end - value_start);
          return true;
        }

      p = skip_space (p, end);
      if (p >= end || *p != ',')
        return false;
      p++;
    }
}

static bool
span_is (Span        span,
         const char *text)
{
  return span.len == strlen (text) && memcmp (span.start, text, span.len) == 0;
}

static void
answer (Buffer     *out,
        Span        id,
        const char *result)
{
  buffer_append_str (out, "{\"jsonrpc\":\"2.0\",\"id\":");
  buffer_append_span (out, id);
  buffer_append_str (out, ",\"result\":");
  buffer_append_str (out, result);
  buffer_append_str (out, "}\n");
}

static void
answer_initialize (Buffer *out,
                   Span    id,
                   Span    params)
{
  const char *revision = revisions[0];
  Span requested;

  if (find_member (params, "protocolVersion", &requested))
    {
      for (size_t i = 0; revisions[i] != NULL; i++)
        {
          char quoted[32];

          snprintf (quoted, sizeof quoted, "\"%s\"", revisions[i]);
          if (span_is (requested, quoted))
            revision = revisions[i];
        }
    }

  buffer_append_str (out, "{\"jsonrpc\":\"2.0\",\"id\":");
  buffer_append_span (out, id);
  buffer_append_str (out, ",\"result\":{\"protocolVersion\":\"");
  buffer_append_str (out, revision);
  buffer_append_str (out, "\",\"capabilities\":{\"logging\":{}},"
                          "\"serverInfo\":{\"name\":\"flood-server\",\"version\":\"1.0\"}}}\n");
}

static void
handle_line (Buffer     *out,
             const char *line,
             size_t      len)
{
  Span message = { line, len };
  Span id;
  Span method;
  Span params = { "{}", 2 };

  /* Notifications and the client's own responses need no answer. */
  if (!find_member (message, "id", &id) || !find_member (message, "method", &method))
    return;
  find_member (message, "params", &params);

  if (span_is (method, "\"initialize\""))
    answer_initialize (out, id, params);
  else if (span_is (method, "\"ping\"") || span_is (method, "\"logging/setLevel\""))
    answer (out, id, "{}");
  else
    {
      buffer_append_str (out, "{\"jsonrpc\":\"2.0\",\"id\":");
      buffer_append_span (out, id);
      buffer_append_str (out, ",\"error\":{\"code\":-32601,\"message\":\"Method not found\"}}\n");
    }
}

static void
append_message (Buffer   *out,
                uint64_t  n)
{
  char message[320];

  /* About the size of what a busy server logs: a sentence and a path. */
  snprintf (message, sizeof message,
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":"
            "{\"level\":\"info\",\"logger\":\"flood\",\"data\":\"entry %" PRIu64 " of the "
            "flood: indexed /home/alice/Projects/steward/src/file-%" PRIu64 ".c\"}}\n",
            n, n % 1000);
  buffer_append_str (out, message);
}

static void
flood_asked_cb (int signum)
{
  flood_asked = 1;
}

static void
write_report (const char *path,
              uint64_t    sent,
              int64_t     elapsed_ns)
{
  FILE *report;

  if (path == NULL)
    return;
  report = fopen (path, "w");
  if (report == NULL)
    die (path);
  fprintf (report, "{\"sent\": %" PRIu64 ", \"seconds\": %.3f}\n", sent, elapsed_ns / 1e9);
  fclose (report);
}

int
main (int   argc,
      char *argv[])
{
  uint64_t rate = argc > 1 ? strtoull (argv[1], NULL, 10) : 10000;
  uint64_t seconds = argc > 2 ? strtoull (argv[2], NULL, 10) : 10;
  const char *report = argc > 3 ? argv[3] : NULL;
  struct sigaction action = { 0 };
  Buffer in = { 0 };
  Buffer out = { 0 };
  bool flooding = false;
  int64_t flood_start = 0;
  uint64_t total = 0;
  uint64_t sent = 0;

  /* No SA_RESTART: the signal must wake poll(). */
  action.sa_handler = flood_asked_cb;
  sigemptyset (&action.sa_mask);
  if (sigaction (SIGUSR1, &action, NULL) < 0)
    die ("sigaction");
  signal (SIGPIPE, SIG_IGN);

  for (;;)
    {
      struct pollfd fd = { .fd = STDIN_FILENO, .events = POLLIN };
      int timeout_ms = -1;
      int ready;

      if (flood_asked && !flooding)
        {
          flood_asked = 0;
          flooding = true;
          flood_start = now_ns ();
          total = rate * seconds;
          sent = 0;
        }

      if (flooding)
        {
          int64_t elapsed = now_ns () - flood_start;
          /* Where the flood should be by now, on the 10 ms grid; a late
           * tick catches up. */
          uint64_t due = rate * (uint64_t) (elapsed / TICK_NS) * TICK_NS / 1000000000;

          if (due > total)
            due = total;
          while (sent < due)
            append_message (&out, sent++);
          write_all (&out);

          if (sent >= total)
            {
              flooding = false;
              write_report (report, sent, now_ns () - flood_start);
            }
          else
            timeout_ms = (int) ((TICK_NS - elapsed % TICK_NS) / 1000000) + 1;
        }

      ready = poll (&fd, 1, timeout_ms);
      if (ready < 0 && errno == EINTR)
        continue;
      if (ready < 0)
        die ("poll");
      if (ready == 0)
        continue;

      {
        char chunk[READ_CHUNK];
        ssize_t n = read (STDIN_FILENO, chunk, sizeof chunk);
        char *line;
        char *newline;

        if (n < 0 && errno == EINTR)
          continue;
        if (n < 0)
          die ("read");
        if (n == 0)
          return EXIT_SUCCESS;

        buffer_append (&in, chunk, (size_t) n);
        line = in.data;
        while ((newline = memchr (line, '\n', in.len - (size_t) (line - in.data))) != NULL)
          {
            handle_line (&out, line, (size_t) (newline - line));
            line = newline + 1;
          }
        in.len -= (size_t) (line - in.data);
        memmove (in.data, line, in.len);
        if (in.len > MAX_LINE_SIZE)
          in.len = 0;
        write_all (&out);
      }
    }
}

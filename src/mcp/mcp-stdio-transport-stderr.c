/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-stdio-transport"

#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <gio/gunixinputstream.h>
#include <gio/gunixoutputstream.h>
#include <glib-unix.h>

#include "mcp-stdio-transport-private.h"
#include "mcp-error.h"
#include "mcp-format-private.h"
#include "mcp-line-framer.h"
#include "mcp-revision.h"

/* A stderr line is cut after this many bytes, so that one endless line
 * cannot fill the log; the rest of it is counted, not kept. */
#define STDERR_LINE_MAX 4096

/* How many stderr lines the reason for an unexpected exit quotes. */
#define EXIT_REASON_STDERR_LINES 3
#define EXIT_REASON_LINE_CHARS   200

/* Stderr is read this much at a time. */
#define STDERR_READ_CHUNK (16 * 1024)

/* The ring starts small and doubles. Until it has its full size it has
 * never wrapped and starts at 0, so what it holds is its first
 * stderr_ring_length bytes and growing keeps them in place. */
#define STDERR_RING_FIRST_SIZE 4096

static void
ring_reserve (McpStdioTransport *self,
              gsize              needed)
{
  gsize capacity = MAX (self->stderr_ring_capacity, STDERR_RING_FIRST_SIZE);

  needed = MIN (needed, MCP_STDIO_STDERR_RING_SIZE);
  if (needed <= self->stderr_ring_capacity)
    return;

  while (capacity < needed)
    capacity *= 2;
  capacity = MIN (capacity, MCP_STDIO_STDERR_RING_SIZE);

  self->stderr_ring = g_realloc (self->stderr_ring, capacity);
  self->stderr_ring_capacity = capacity;
}

static void
ring_append (McpStdioTransport *self,
             const char        *data,
             gsize              length)
{
  const gsize size = MCP_STDIO_STDERR_RING_SIZE;
  gsize end;
  gsize first;

  ring_reserve (self, self->stderr_ring_length + length);

  if (length >= size)
    {
      memcpy (self->stderr_ring, data + length - size, size);
      self->stderr_ring_start = 0;
      self->stderr_ring_length = size;
      self->stderr_ring_wrapped = TRUE;
      return;
    }

  end = (self->stderr_ring_start + self->stderr_ring_length) % size;
  first = MIN (length, size - end);
  memcpy (self->stderr_ring + end, data, first);
  memcpy (self->stderr_ring, data + first, length - first);

  self->stderr_ring_length += length;
  if (self->stderr_ring_length > size)
    {
      self->stderr_ring_start = (self->stderr_ring_start + self->stderr_ring_length - size) % size;
      self->stderr_ring_length = size;
      self->stderr_ring_wrapped = TRUE;
    }
}

void
mcp_stdio_transport_finish_stderr_line (McpStdioTransport *self)
{
  g_autofree char *valid = NULL;
  g_autofree char *text = NULL;

  if (self->stderr_line_cut == 0 && self->stderr_line->len > 0 &&
      self->stderr_line->str[self->stderr_line->len - 1] == '\r')
    g_string_truncate (self->stderr_line, self->stderr_line->len - 1);

  if (self->stderr_line->len == 0 && self->stderr_line_cut == 0)
    return;

  valid = g_utf8_make_valid (self->stderr_line->str, self->stderr_line->len);
  if (self->stderr_line_cut > 0)
    text = g_strdup_printf ("%s [… %" G_GSIZE_FORMAT " more bytes cut]",
                            valid, self->stderr_line_cut);
  else
    text = g_steal_pointer (&valid);

  g_string_truncate (self->stderr_line, 0);
  self->stderr_line_cut = 0;

  ring_append (self, text, strlen (text));
  ring_append (self, "\n", 1);

  mcp_transport_emit_log (MCP_TRANSPORT (self), MCP_TRANSPORT_LOG_STDERR, text);
}

static void
process_stderr (McpStdioTransport *self,
                const char        *data,
                gsize              length)
{
  while (length > 0)
    {
      const char *newline = memchr (data, '\n', length);
      gsize segment = newline != NULL ? (gsize) (newline - data) : length;
      gsize room = STDERR_LINE_MAX - self->stderr_line->len;

      if (segment <= room)
        g_string_append_len (self->stderr_line, data, segment);
      else
        {
          g_string_append_len (self->stderr_line, data, room);
          self->stderr_line_cut += segment - room;
        }

      if (newline == NULL)
        break;

      mcp_stdio_transport_finish_stderr_line (self);
      data += segment + 1;
      length -= segment + 1;
    }
}

char *
mcp_stdio_transport_ring_dup_tail (McpStdioTransport *self,
                                   guint              max_lines)
{
  const gsize size = MCP_STDIO_STDERR_RING_SIZE;
  g_autofree char *linear = NULL;
  gsize first = MIN (self->stderr_ring_length, size - self->stderr_ring_start);
  const char *begin;
  const char *end;
  const char *start;
  guint count = 0;

  /* A server that never wrote to stderr has no ring at all. */
  if (self->stderr_ring_length == 0)
    return g_strdup ("");

  linear = g_malloc (self->stderr_ring_length + 1);
  begin = linear;
  end = linear + self->stderr_ring_length;
  memcpy (linear, self->stderr_ring + self->stderr_ring_start, first);
  memcpy (linear + first, self->stderr_ring, self->stderr_ring_length - first);
  linear[self->stderr_ring_length] = '\0';

  /* After the ring wrapped, its first line is only the end of a line. */
  if (self->stderr_ring_wrapped)
    {
      const char *newline = memchr (begin, '\n', end - begin);

      begin = newline != NULL ? newline + 1 : end;
    }

  /* Every line in the ring ends with a newline. */
  start = end;
  while (count < max_lines && start > begin)
    {
      const char *p = start - 1;

      while (p > begin && p[-1] != '\n')
        p--;
      start = p;
      count++;
    }

  if (start == end)
    return g_strdup ("");

  return g_strndup (start, end - start - 1);
}

static char *
describe_stderr_tail (McpStdioTransport *self)
{
  g_autofree char *tail = mcp_stdio_transport_ring_dup_tail (self, EXIT_REASON_STDERR_LINES);
  g_auto(GStrv) lines = NULL;
  GString *text;

  if (tail[0] == '\0')
    return NULL;

  text = g_string_new (NULL);
  lines = g_strsplit (tail, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (i > 0)
        g_string_append (text, " | ");

      if (g_utf8_strlen (lines[i], -1) > EXIT_REASON_LINE_CHARS)
        {
          g_autofree char *cut = g_utf8_substring (lines[i], 0, EXIT_REASON_LINE_CHARS);

          g_string_append_printf (text, "%s…", cut);
        }
      else
        g_string_append (text, lines[i]);
    }

  return g_string_free (text, FALSE);
}

static GError *
build_exit_error (McpStdioTransport *self)
{
  GString *reason = g_string_new ("server ");
  g_autofree char *stderr_tail = describe_stderr_tail (self);
  GError *error;

  if (g_subprocess_get_if_signaled (self->subprocess))
    {
      int signum = g_subprocess_get_term_sig (self->subprocess);

      g_string_append_printf (reason, "was killed by signal %d (%s)", signum, g_strsignal (signum));
    }
  else
    g_string_append_printf (reason, "exited with status %d",
                            g_subprocess_get_exit_status (self->subprocess));

  if (self->last_dropped != NULL)
    g_string_append_printf (reason, " after writing non-JSON to stdout: “%s”",
                            self->last_dropped);

  if (self->framer != NULL && mcp_line_framer_get_buffered (self->framer) > 0)
    g_string_append_printf (reason, "; it left an unfinished line of %" G_GSIZE_FORMAT
                            " bytes on stdout", mcp_line_framer_get_buffered (self->framer));

  if (stderr_tail != NULL)
    g_string_append_printf (reason, "; last stderr: %s", stderr_tail);

  error = g_error_new_literal (MCP_ERROR, MCP_ERROR_EXITED, reason->str);
  g_string_free (reason, TRUE);

  return error;
}

GError *
mcp_stdio_transport_build_closed_error (McpStdioTransport *self)
{
  /* A server that went away by itself says best why in its exit status. */
  if (!self->signalled)
    return build_exit_error (self);

  switch (self->cause)
    {
    case CAUSE_STDOUT_EOF:
      return g_error_new_literal (MCP_ERROR, MCP_ERROR_CLOSED,
                                  "server closed its stdout but did not exit, so it was stopped");
    case CAUSE_WRITE_FAILED:
      return g_error_new (MCP_ERROR, MCP_ERROR_CLOSED,
                          "could not write to the server’s stdin (%s), so it was stopped",
                          self->write_error);
    case CAUSE_EXITED:
      return build_exit_error (self);
    case CAUSE_NONE:
    case CAUSE_REQUESTED:
    case CAUSE_FAILED:
    default:
      g_assert_not_reached ();
    }

  return NULL;
}

/* What one wakeup reads at most, so that a server flooding stderr cannot
 * keep the main loop to itself. */
#define STDERR_READS_PER_WAKEUP 4

static void
stderr_ended (McpStdioTransport *self)
{
  if (self->stderr_line->len > 0 || self->stderr_line_cut > 0)
    mcp_stdio_transport_finish_stderr_line (self);

  self->stderr_done = TRUE;
  mcp_clear_source (&self->stderr_source);
  g_input_stream_close (self->stderr_pipe, NULL, NULL);
  mcp_stdio_transport_try_finish (self);
}

static gboolean
stderr_ready_cb (int          fd,
                 GIOCondition condition,
                 gpointer     user_data)
{
  g_autoptr(McpStdioTransport) self = g_object_ref (MCP_STDIO_TRANSPORT (user_data));
  /* On the stack: a pending read of its own would keep a buffer this
   * large in every transport for as long as its server is quiet. */
  char buffer[STDERR_READ_CHUNK];

  for (guint i = 0; i < STDERR_READS_PER_WAKEUP; i++)
    {
      McpPipeRead outcome;
      gsize n;

      outcome = mcp_stdio_transport_read_pipe (fd, buffer, sizeof buffer, &n);
      if (outcome == MCP_PIPE_READ_EMPTY)
        return G_SOURCE_CONTINUE;

      /* A read error ends stderr as its end does: what came is kept. */
      if (outcome != MCP_PIPE_READ_DATA)
        {
          stderr_ended (self);
          return G_SOURCE_REMOVE;
        }

      process_stderr (self, buffer, n);

      /* A handler of a line may have ended the connection. */
      if (self->stderr_source == NULL)
        return G_SOURCE_REMOVE;

      if (n < sizeof buffer)
        return G_SOURCE_CONTINUE;
    }

  return G_SOURCE_CONTINUE;
}

void
mcp_stdio_transport_read_stderr (McpStdioTransport *self)
{
  if (self->stderr_done || self->stderr_source != NULL || self->state != STATE_RUNNING)
    return;

  self->stderr_source = g_unix_fd_source_new (self->stderr_fd, G_IO_IN | G_IO_HUP | G_IO_ERR);
  g_source_set_callback (self->stderr_source, (GSourceFunc) (void (*) (void)) stderr_ready_cb,
                         self, NULL);
  g_source_set_static_name (self->stderr_source, "[mcp] server stderr");
  g_source_attach (self->stderr_source, self->context);
}

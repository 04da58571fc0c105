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
#include "mcp-source-private.h"

/* Stop reading stdout while this many large texts wait for the parser, so
 * that a server writing big messages faster than they parse cannot grow
 * the queue without bound; the pipe then pushes back on the server. */
#define MAX_PENDING_TEXTS 4

void
mcp_stdio_transport_stop_reading_stdout (McpStdioTransport *self)
{
  self->stdout_done = TRUE;
  mcp_clear_source (&self->stdout_source);
}

static void
stdout_ended (McpStdioTransport *self)
{
  self->stdout_done = TRUE;
  mcp_clear_source (&self->stdout_source);

  if (self->stdout_pipe != NULL)
    g_input_stream_close (self->stdout_pipe, NULL, NULL);
  self->stdout_fd = -1;

  mcp_stdio_transport_begin_shutdown (self, CAUSE_STDOUT_EOF);
  mcp_stdio_transport_try_finish (self);
}

static void
line_cb (const char *line,
         gsize       length,
         gpointer    user_data)
{
  McpStdioTransport *self = MCP_STDIO_TRANSPORT (user_data);

  /* A handler may have ended the connection in the middle of a chunk. */
  if (self->stdout_done || self->reader == NULL)
    return;

  mcp_message_reader_push (self->reader, line, length);
}

/* One read of a non-blocking pipe, again when a signal interrupted it. */
McpPipeRead
mcp_stdio_transport_read_pipe (int    fd,
                               char  *buffer,
                               gsize  size,
                               gsize *length)
{
  gssize n;

  do
    n = read (fd, buffer, size);
  while (n < 0 && errno == EINTR);

  *length = n > 0 ? (gsize) n : 0;
  if (n > 0)
    return MCP_PIPE_READ_DATA;
  if (n == 0)
    return MCP_PIPE_READ_END;
  if (errno == EAGAIN || errno == EWOULDBLOCK)
    return MCP_PIPE_READ_EMPTY;
  return MCP_PIPE_READ_FAILED;
}

/* Reads what the pipe holds, a chunk at a time, up to a bound so that one
 * busy server cannot keep the main loop to itself. */
#define MAX_READS_PER_WAKEUP 16

static gboolean
read_stdout_chunks (McpStdioTransport *self,
                    int                fd)
{
  g_autoptr(GError) error = NULL;
  /* On the stack rather than in each transport: the framer copies what it
   * keeps, so every server reads into the same few pages, and a nested
   * main loop that reaches another transport gets a buffer of its own. */
  char buffer[READ_CHUNK];

  for (guint i = 0; i < MAX_READS_PER_WAKEUP; i++)
    {
      gsize n;

      switch (mcp_stdio_transport_read_pipe (fd, buffer, sizeof buffer, &n))
        {
        case MCP_PIPE_READ_EMPTY:
          return G_SOURCE_CONTINUE;

        case MCP_PIPE_READ_FAILED:
          mcp_transport_emit_diagnostic (MCP_TRANSPORT (self),
                                         "could not read the server’s stdout: %s",
                                         g_strerror (errno));
          stdout_ended (self);
          return G_SOURCE_REMOVE;

        case MCP_PIPE_READ_END:
          stdout_ended (self);
          return G_SOURCE_REMOVE;

        case MCP_PIPE_READ_DATA:
        default:
          break;
        }

      if (!mcp_line_framer_push (self->framer, buffer, n, line_cb, self, &error))
        {
          g_autofree char *cap = mcp_format_size (self->max_message_size);
          g_autoptr(GError) too_large = NULL;

          too_large = g_error_new (MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE,
                                   "server wrote a message larger than the %s limit to stdout; "
                                   "the connection was closed and the server stopped", cap);
          mcp_stdio_transport_fail_connection (self, too_large);
          return G_SOURCE_REMOVE;
        }

      /* A handler may have ended the connection; or large messages wait
       * for the parser and the pipe should push back on the server. */
      if (self->stdout_source == NULL)
        return G_SOURCE_REMOVE;
      if (mcp_message_reader_get_n_pending (self->reader) >= MAX_PENDING_TEXTS)
        {
          mcp_clear_source (&self->stdout_source);
          return G_SOURCE_REMOVE;
        }

      /* A short read emptied the pipe: wait for the next wakeup rather
       * than ask again and be told EAGAIN. */
      if (n < READ_CHUNK)
        return G_SOURCE_CONTINUE;
    }

  return G_SOURCE_CONTINUE;
}

static gboolean
stdout_ready_cb (int          fd,
                 GIOCondition condition,
                 gpointer     user_data)
{
  g_autoptr(McpStdioTransport) self = g_object_ref (MCP_STDIO_TRANSPORT (user_data));
  gboolean keep;

  /* The source may recurse (see mcp_stdio_transport_read_stdout()), so a
   * message handler that runs a nested main loop reaches us again while
   * the framer and the read buffer are in use: drop the source instead,
   * and the reader asks for a new one once that handler has returned. */
  if (self->in_stdout_cb)
    {
      mcp_clear_source (&self->stdout_source);
      return G_SOURCE_REMOVE;
    }

  self->in_stdout_cb = TRUE;
  keep = read_stdout_chunks (self, fd);
  self->in_stdout_cb = FALSE;

  return keep;
}

void
mcp_stdio_transport_read_stdout (McpStdioTransport *self)
{
  if (self->stdout_done || self->stdout_source != NULL || self->state != STATE_RUNNING)
    return;

  if (mcp_message_reader_get_n_pending (self->reader) >= MAX_PENDING_TEXTS)
    return;

  self->stdout_source = g_unix_fd_source_new (self->stdout_fd, G_IO_IN | G_IO_HUP | G_IO_ERR);
  g_source_set_callback (self->stdout_source, (GSourceFunc) (void (*) (void)) stdout_ready_cb,
                         self, NULL);
  g_source_set_static_name (self->stdout_source, "[mcp] server stdout");
  /* A source that may not recurse has its fd taken out of the poll set and
   * put back around every dispatch, and each of those wakes the main
   * context up through its eventfd: two writes and a read per message.
   * stdout_ready_cb() guards against the recursion itself. */
  g_source_set_can_recurse (self->stdout_source, TRUE);
  g_source_attach (self->stdout_source, self->context);
}

void
mcp_stdio_transport_reader_message_cb (McpStdioTransport *self,
                                       McpMessage        *message)
{
  if (!self->closed_emitted)
    mcp_transport_emit_message (MCP_TRANSPORT (self), message);

  mcp_stdio_transport_read_stdout (self);
  mcp_stdio_transport_schedule_finish (self);
}

void
mcp_stdio_transport_reader_invalid_cb (McpStdioTransport *self,
                                       const GError      *error,
                                       const char        *excerpt)
{
  self->n_dropped++;
  g_free (self->last_dropped);
  self->last_dropped = g_strdup (excerpt);

  if (g_error_matches (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE))
    mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "dropped a line that is not a JSON-RPC message: %s (%s)",
                excerpt, error->message);
  else
    mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "dropped a line that is not JSON: %s (%s)", excerpt, error->message);

  mcp_stdio_transport_read_stdout (self);
  mcp_stdio_transport_schedule_finish (self);
}

void
mcp_stdio_transport_reader_misbehaving_cb (McpStdioTransport *self,
                                           const GError      *error)
{
  g_autoptr(GError) reason = NULL;

  reason = g_error_new (MCP_ERROR, MCP_ERROR_MISBEHAVING,
                        "%s (the last: “%s”); the server was stopped",
                        error->message, self->last_dropped ? self->last_dropped : "");
  mcp_stdio_transport_fail_connection (self, reason);
}

static void
write_failed (McpStdioTransport *self,
              int                errsv)
{
  const char *cause = g_strerror (errsv);

  if (self->write_error == NULL)
    self->write_error = g_strdup (cause);

  /* Nothing more can reach the server. */
  while (!g_queue_is_empty (&self->send_queue))
    mcp_stdio_transport_send_complete (g_queue_pop_head (&self->send_queue),
                                       g_error_new (MCP_ERROR, MCP_ERROR_CLOSED,
                                                    "could not write to the server’s stdin: %s",
                                                    cause));
  mcp_clear_source (&self->stdin_source);
  g_output_stream_close (self->stdin_pipe, NULL, NULL);
  g_clear_object (&self->stdin_pipe);
  self->stdin_fd = -1;
  self->close_stdin_pending = FALSE;

  if (self->state == STATE_RUNNING)
    {
      mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "could not write to the server’s stdin: %s", cause);
      mcp_stdio_transport_begin_shutdown (self, CAUSE_WRITE_FAILED);
    }
}

static gboolean
stdin_ready_cb (int          fd,
                GIOCondition condition,
                gpointer     user_data)
{
  g_autoptr(McpStdioTransport) self = g_object_ref (MCP_STDIO_TRANSPORT (user_data));

  mcp_stdio_transport_write_next (self);
  return G_SOURCE_CONTINUE;
}

/* Writes queued messages until the queue is empty or the pipe is full; a
 * full pipe is watched until it takes more. */
void
mcp_stdio_transport_write_next (McpStdioTransport *self)
{
  Send *send;

  while ((send = g_queue_peek_head (&self->send_queue)) != NULL)
    {
      gsize length;
      const char *data = g_bytes_get_data (send->bytes, &length);
      gssize n;

      if (self->stdin_pipe == NULL)
        {
          mcp_stdio_transport_fail_queued_sends (self);
          break;
        }

      /* Once a message has begun it is not cancelled on the caller's
       * behalf: half a line would garble the next message. */
      if (send->written == 0 && send->task != NULL &&
          g_cancellable_is_cancelled (g_task_get_cancellable (send->task)))
        {
          g_queue_pop_head (&self->send_queue);
          mcp_stdio_transport_send_complete (send,
                                             g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                                  "the message was cancelled "
                                                                  "before it was sent"));
          continue;
        }

      n = write (self->stdin_fd, data + send->written, length - send->written);
      if (n < 0 && errno == EINTR)
        continue;

      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        {
          if (self->stdin_source == NULL)
            {
              self->stdin_source = g_unix_fd_source_new (self->stdin_fd, G_IO_OUT | G_IO_ERR);
              g_source_set_callback (self->stdin_source,
                                     (GSourceFunc) (void (*) (void)) stdin_ready_cb, self, NULL);
              g_source_set_static_name (self->stdin_source, "[mcp] server stdin");
              g_source_attach (self->stdin_source, self->context);
            }
          return;
        }

      if (n < 0)
        {
          write_failed (self, errno);
          return;
        }

      send->written += (gsize) n;
      if (send->written == length)
        {
          g_queue_pop_head (&self->send_queue);
          mcp_stdio_transport_send_complete (send, NULL);
        }
    }

  mcp_clear_source (&self->stdin_source);

  if (self->close_stdin_pending)
    mcp_stdio_transport_close_stdin (self);
}

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

/* Once the server has exited, how long its pipes may take to report end of
 * file. Whatever it wrote last (a traceback, a final message) is read in
 * this time; a pipe held open by a process outside its group is given up. */
#define EXIT_DRAIN_MS 20

/* Sends @signum to the server's process group. Once the leader has been
 * reaped its pid may be reused, so then only the group is addressed, which
 * stays reserved for as long as any member lives. */
gboolean
mcp_stdio_transport_signal_group (McpStdioTransport *self,
                                  int                signum)
{
  if (self->pid <= 0)
    return FALSE;

  if (kill (-self->pid, signum) == 0)
    return TRUE;

  if (errno == ESRCH && !self->exited)
    return kill (self->pid, signum) == 0;

  return FALSE;
}

static void
emit_closed (McpStdioTransport *self,
             const GError      *error)
{
  if (self->closed_emitted)
    return;

  self->closed_emitted = TRUE;
  mcp_transport_emit_closed (MCP_TRANSPORT (self), error);
}

void
mcp_stdio_transport_send_complete (Send   *send,
                                   GError *error)
{
  if (send->task != NULL)
    {
      if (error != NULL)
        g_task_return_error (send->task, error);
      else
        g_task_return_boolean (send->task, TRUE);
      g_object_unref (send->task);
    }
  else if (error != NULL)
    g_error_free (error);

  g_bytes_unref (send->bytes);
  g_free (send);
}

void
mcp_stdio_transport_fail_queued_sends (McpStdioTransport *self)
{
  Send *send;

  while ((send = g_queue_pop_head (&self->send_queue)) != NULL)
    mcp_stdio_transport_send_complete (send,
                                       g_error_new_literal (MCP_ERROR, MCP_ERROR_CLOSED,
                                                            "the connection to the server closed "
                                                            "before the message was sent"));
}

void
mcp_stdio_transport_close_stdin (McpStdioTransport *self)
{
  if (self->stdin_pipe == NULL)
    return;

  if (!g_queue_is_empty (&self->send_queue))
    {
      /* Messages already queued go out first; write_next() closes. */
      self->close_stdin_pending = TRUE;
      return;
    }

  self->close_stdin_pending = FALSE;
  mcp_clear_source (&self->stdin_source);
  self->stdin_fd = -1;
  g_output_stream_close (self->stdin_pipe, NULL, NULL);
  g_clear_object (&self->stdin_pipe);
}

void
mcp_stdio_transport_close_data_free (CloseData *data)
{
  mcp_clear_source (&data->cancel_source);
  g_free (data);
}

static void
complete_close_tasks (McpStdioTransport *self)
{
  GTask *task;

  while ((task = g_queue_pop_head (&self->close_tasks)) != NULL)
    {
      CloseData *data = g_task_get_task_data (task);

      mcp_clear_source (&data->cancel_source);
      g_task_return_boolean (task, TRUE);
      g_object_unref (task);
    }
}

static void
finish (McpStdioTransport *self)
{
  g_autoptr(McpStdioTransport) hold = g_object_ref (self);

  if (self->state == STATE_STOPPED)
    return;

  self->state = STATE_STOPPED;
  mcp_clear_source (&self->escalation_source);
  mcp_clear_source (&self->drain_source);
  mcp_clear_source (&self->finish_source);

  mcp_clear_source (&self->stdout_source);
  mcp_clear_source (&self->stderr_source);
  self->stdout_done = TRUE;
  self->stderr_done = TRUE;

  if (self->stderr_line->len > 0 || self->stderr_line_cut > 0)
    mcp_stdio_transport_finish_stderr_line (self);

  if (self->cause == CAUSE_REQUESTED)
    emit_closed (self, NULL);
  else if (!self->closed_emitted)
    {
      g_autoptr(GError) error = mcp_stdio_transport_build_closed_error (self);

      emit_closed (self, error);
    }

  /* A write still waiting can only be waiting on a pipe that someone
   * outside the server's group holds open; it is abandoned. */
  g_cancellable_cancel (self->cancellable);
  mcp_stdio_transport_fail_queued_sends (self);
  mcp_stdio_transport_close_stdin (self);

  if (self->reader != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->reader, self);
      g_clear_object (&self->reader);
    }
  g_clear_pointer (&self->framer, mcp_line_framer_free);
  if (self->stdout_pipe != NULL)
    g_input_stream_close (self->stdout_pipe, NULL, NULL);
  g_clear_object (&self->stdout_pipe);
  self->stdout_fd = -1;
  if (self->stderr_pipe != NULL)
    g_input_stream_close (self->stderr_pipe, NULL, NULL);
  g_clear_object (&self->stderr_pipe);
  self->stderr_fd = -1;

  complete_close_tasks (self);
}

static gboolean
finish_cb (gpointer user_data)
{
  McpStdioTransport *self = MCP_STDIO_TRANSPORT (user_data);

  g_clear_pointer (&self->finish_source, g_source_unref);
  mcp_stdio_transport_try_finish (self);

  return G_SOURCE_REMOVE;
}

static gboolean
drain_cb (gpointer user_data)
{
  McpStdioTransport *self = MCP_STDIO_TRANSPORT (user_data);

  g_clear_pointer (&self->drain_source, g_source_unref);
  self->drain_expired = TRUE;
  mcp_stdio_transport_try_finish (self);

  return G_SOURCE_REMOVE;
}

/* The connection ends once the server has exited, its pipes are drained
 * (or had their time) and every message it sent before has been delivered. */
void
mcp_stdio_transport_try_finish (McpStdioTransport *self)
{
  if (self->state != STATE_RUNNING || !self->exited)
    return;

  if ((!self->stdout_done || !self->stderr_done) && !self->drain_expired)
    {
      if (self->drain_source == NULL)
        self->drain_source = mcp_stdio_transport_schedule (self, EXIT_DRAIN_MS, drain_cb);
      return;
    }

  if (!self->closed_emitted && self->reader != NULL &&
      mcp_message_reader_get_n_pending (self->reader) > 0)
    return;

  finish (self);
}

static gboolean escalate_cb (gpointer user_data);

static void
send_term (McpStdioTransport *self)
{
  self->stage = STAGE_TERM_SENT;
  self->signalled = TRUE;
  mcp_stdio_transport_signal_group (self, SIGTERM);

  mcp_clear_source (&self->escalation_source);
  self->escalation_source = mcp_stdio_transport_schedule (self, self->grace_ms, escalate_cb);
}

static gboolean
escalate_cb (gpointer user_data)
{
  McpStdioTransport *self = MCP_STDIO_TRANSPORT (user_data);
  g_autoptr(McpStdioTransport) hold = g_object_ref (self);
  g_autofree char *grace = mcp_format_duration (self->grace_ms);

  g_clear_pointer (&self->escalation_source, g_source_unref);

  if (self->exited)
    return G_SOURCE_REMOVE;

  if (self->stage == STAGE_STDIN_CLOSED)
    {
      switch (self->cause)
        {
        case CAUSE_STDOUT_EOF:
          mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "server closed its stdout but did not exit within %s; "
                      "sent SIGTERM to its process group", grace);
          break;
        case CAUSE_WRITE_FAILED:
          mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "server stopped reading its stdin but did not exit within %s; "
                      "sent SIGTERM to its process group", grace);
          break;
        case CAUSE_NONE:
        case CAUSE_REQUESTED:
        case CAUSE_EXITED:
        case CAUSE_FAILED:
        default:
          mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "server did not exit %s after stdin was closed; "
                      "sent SIGTERM to its process group", grace);
          break;
        }

      send_term (self);
    }
  else if (self->stage == STAGE_TERM_SENT)
    {
      mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "server did not exit %s after SIGTERM; sent SIGKILL to its process group",
                  grace);
      self->stage = STAGE_KILL_SENT;
      self->signalled = TRUE;
      mcp_stdio_transport_signal_group (self, SIGKILL);
    }

  return G_SOURCE_REMOVE;
}

/* Starts the polite shutdown: close stdin and give the server time. */
void
mcp_stdio_transport_begin_shutdown (McpStdioTransport *self,
                                    Cause              cause)
{
  if (self->stage != STAGE_NONE)
    return;

  self->cause = cause;
  self->stage = STAGE_STDIN_CLOSED;
  mcp_stdio_transport_close_stdin (self);

  if (!self->exited)
    self->escalation_source = mcp_stdio_transport_schedule (self, self->grace_ms, escalate_cb);
}

/* The server broke the protocol badly enough that nothing more it says can
 * be trusted: report it at once and stop the server without the polite
 * wait. */
void
mcp_stdio_transport_fail_connection (McpStdioTransport *self,
                                     const GError      *error)
{
  gboolean report;

  if (self->state != STATE_RUNNING)
    return;

  mcp_stdio_transport_stop_reading_stdout (self);

  /* A close we were asked for still ends without an error. */
  report = self->cause != CAUSE_REQUESTED && !self->closed_emitted;
  if (report)
    self->cause = CAUSE_FAILED;

  /* The shutdown is under way before "closed" is emitted, so that a
   * handler that closes us joins it instead of starting the polite one. */
  mcp_stdio_transport_close_stdin (self);
  if (!self->exited && self->stage < STAGE_TERM_SENT)
    {
      send_term (self);
      mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "stopping the server: %s; sent SIGTERM to its process group",
                  error->message);
    }
  else if (report)
    mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "stopping the server: %s", error->message);

  if (report)
    emit_closed (self, error);

  mcp_stdio_transport_try_finish (self);
}

void
mcp_stdio_transport_wait_cb (GObject      *object,
                             GAsyncResult *result,
                             gpointer      user_data)
{
  g_autoptr(McpStdioTransport) self = NULL;
  g_autoptr(GError) error = NULL;

  if (!g_subprocess_wait_finish (G_SUBPROCESS (object), result, &error))
    return;

  self = g_object_ref (MCP_STDIO_TRANSPORT (user_data));
  self->exited = TRUE;
  mcp_clear_source (&self->escalation_source);

  /* Whatever the server started and left behind in its group would hold
   * the pipes open and live on unseen. */
  if (self->pid > 0 && kill (-self->pid, SIGKILL) == 0 && self->stage != STAGE_KILL_SENT)
    mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "killed the processes the server left behind in its process group");

  mcp_stdio_transport_begin_shutdown (self, CAUSE_EXITED);
  mcp_stdio_transport_try_finish (self);
}

void
mcp_stdio_transport_schedule_finish (McpStdioTransport *self)
{
  if (self->exited && self->state == STATE_RUNNING && self->finish_source == NULL)
    self->finish_source = mcp_stdio_transport_schedule (self, 0, finish_cb);
}

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

/**
 * McpStdioTransport:
 *
 * Runs a local MCP server as a child process and talks to it through
 * newline-delimited JSON on its stdin and stdout.
 *
 * The child is started from an argument vector, never through a shell. Its
 * environment holds only the parent's variables on the allowlist (in
 * mcp-stdio-transport-spawn.c) plus the ones configured with
 * mcp_stdio_transport_setenv(), so that tokens and keys the desktop session
 * happens to hold do not leak into every server.
 * It runs in a process group of its own, so that shutting it down also
 * reaches the processes it started (`npx` starting `node`, for example).
 *
 * Shutdown closes stdin, waits the grace period, sends SIGTERM to the group,
 * waits again and sends SIGKILL; once the server has exited, anything left
 * in its group is killed.
 */

enum {
  PROP_0,
  PROP_ARGV,
  PROP_CWD,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void mcp_stdio_transport_iface_init (McpTransportInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (McpStdioTransport, mcp_stdio_transport, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (MCP_TYPE_TRANSPORT,
                                                      mcp_stdio_transport_iface_init))

GSource *
mcp_stdio_transport_schedule (McpStdioTransport *self,
                              guint              delay_ms,
                              GSourceFunc        func)
{
  GSource *source = delay_ms > 0 ? g_timeout_source_new (delay_ms) : g_idle_source_new ();

  g_source_set_callback (source, func, self, NULL);
  g_source_attach (source, self->context);

  return source;
}

static void
mcp_stdio_transport_start_async (McpTransport        *transport,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  McpStdioTransport *self = MCP_STDIO_TRANSPORT (transport);
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_stdio_transport_start_async);

  if (self->state != STATE_NEW)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_BUSY,
                               "the server was already started; a transport runs it once");
      return;
    }

  if (g_task_return_error_if_cancelled (task))
    return;

  if (!mcp_stdio_transport_spawn (self, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  self->state = STATE_RUNNING;
  self->context = g_main_context_ref_thread_default ();
  self->framer = mcp_line_framer_new (self->max_message_size);
  self->reader = mcp_message_reader_new ();
  mcp_message_reader_set_allow_batches (self->reader, self->allow_batches);
  g_signal_connect_object (self->reader, "message",
                           G_CALLBACK (mcp_stdio_transport_reader_message_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->reader, "invalid",
                           G_CALLBACK (mcp_stdio_transport_reader_invalid_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->reader, "misbehaving",
                           G_CALLBACK (mcp_stdio_transport_reader_misbehaving_cb),
                           self, G_CONNECT_SWAPPED);

  mcp_stdio_transport_read_stdout (self);
  mcp_stdio_transport_read_stderr (self);
  g_subprocess_wait_async (self->subprocess, self->cancellable, mcp_stdio_transport_wait_cb, self);

  g_task_return_boolean (task, TRUE);
}

static gboolean
mcp_stdio_transport_start_finish (McpTransport  *transport,
                                  GAsyncResult  *result,
                                  GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, transport), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
mcp_stdio_transport_send_async (McpTransport        *transport,
                                McpMessage          *message,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  McpStdioTransport *self = MCP_STDIO_TRANSPORT (transport);
  g_autoptr(GTask) task = NULL;
  Send *send;

  /* A caller that wants no answer gets no task: it learns of a broken
   * connection from "closed". */
  if (callback != NULL)
    {
      task = g_task_new (self, cancellable, callback, user_data);
      g_task_set_source_tag (task, mcp_stdio_transport_send_async);
      /* A message that was written was sent, whatever happened to the
       * cancellable afterwards. */
      g_task_set_check_cancellable (task, FALSE);
    }

  if (self->state != STATE_RUNNING || self->stage != STAGE_NONE || self->stdin_pipe == NULL)
    {
      if (task != NULL)
        g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_CLOSED,
                                 self->state == STATE_NEW
                                 ? "the server has not been started"
                                 : "the connection to the server is closed");
      return;
    }

  send = g_new0 (Send, 1);
  send->bytes = g_bytes_ref (mcp_message_get_line (message));
  send->task = g_steal_pointer (&task);
  g_queue_push_tail (&self->send_queue, send);

  /* Behind a message still waiting for the pipe, wait too. */
  if (self->stdin_source == NULL)
    mcp_stdio_transport_write_next (self);
}

static gboolean
mcp_stdio_transport_send_finish (McpTransport  *transport,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, transport), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static gboolean
close_cancelled_cb (GCancellable *cancellable,
                    gpointer      user_data)
{
  GTask *task = G_TASK (user_data);
  McpStdioTransport *self = g_task_get_source_object (task);
  CloseData *data = g_task_get_task_data (task);

  /* The shutdown goes on; only the caller stops waiting for it. */
  g_clear_pointer (&data->cancel_source, g_source_unref);
  if (g_queue_remove (&self->close_tasks, task))
    {
      g_task_return_error_if_cancelled (task);
      g_object_unref (task);
    }

  return G_SOURCE_REMOVE;
}

static void
mcp_stdio_transport_close_async (McpTransport        *transport,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  McpStdioTransport *self = MCP_STDIO_TRANSPORT (transport);
  g_autoptr(GTask) task = NULL;
  CloseData *data;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_stdio_transport_close_async);

  if (self->state != STATE_RUNNING)
    {
      self->state = STATE_STOPPED;
      g_task_return_boolean (task, TRUE);
      return;
    }

  if (g_task_return_error_if_cancelled (task))
    return;

  data = g_new0 (CloseData, 1);
  g_task_set_task_data (task, data, (GDestroyNotify) mcp_stdio_transport_close_data_free);
  if (cancellable != NULL)
    {
      data->cancel_source = g_cancellable_source_new (cancellable);
      g_source_set_callback (data->cancel_source, G_SOURCE_FUNC (close_cancelled_cb), task, NULL);
      g_source_attach (data->cancel_source, self->context);
    }

  g_queue_push_tail (&self->close_tasks, g_steal_pointer (&task));

  if (self->stage == STAGE_NONE)
    mcp_stdio_transport_begin_shutdown (self, CAUSE_REQUESTED);

  mcp_stdio_transport_try_finish (self);
}

static gboolean
mcp_stdio_transport_close_finish (McpTransport  *transport,
                                  GAsyncResult  *result,
                                  GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, transport), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
mcp_stdio_transport_set_protocol_version (McpTransport *transport,
                                          const char   *version)
{
  McpStdioTransport *self = MCP_STDIO_TRANSPORT (transport);

  self->allow_batches = mcp_revision_allows_batches (mcp_revision_from_string (version));
  if (self->reader != NULL)
    mcp_message_reader_set_allow_batches (self->reader, self->allow_batches);
}

static const char *
mcp_stdio_transport_get_description (McpTransport *transport)
{
  return MCP_STDIO_TRANSPORT (transport)->description;
}

static void
mcp_stdio_transport_iface_init (McpTransportInterface *iface)
{
  iface->start_async = mcp_stdio_transport_start_async;
  iface->start_finish = mcp_stdio_transport_start_finish;
  iface->send_async = mcp_stdio_transport_send_async;
  iface->send_finish = mcp_stdio_transport_send_finish;
  iface->close_async = mcp_stdio_transport_close_async;
  iface->close_finish = mcp_stdio_transport_close_finish;
  iface->set_protocol_version = mcp_stdio_transport_set_protocol_version;
  iface->get_description = mcp_stdio_transport_get_description;
}

static void
mcp_stdio_transport_dispose (GObject *object)
{
  McpStdioTransport *self = MCP_STDIO_TRANSPORT (object);

  g_cancellable_cancel (self->cancellable);
  mcp_clear_source (&self->stderr_source);
  mcp_clear_source (&self->stdout_source);
  mcp_clear_source (&self->stdin_source);
  mcp_clear_source (&self->escalation_source);
  mcp_clear_source (&self->drain_source);
  mcp_clear_source (&self->finish_source);

  /* Nobody is left to shut the server down politely. */
  if (self->subprocess != NULL && !self->exited)
    {
      mcp_stdio_transport_signal_group (self, SIGKILL);
      g_subprocess_force_exit (self->subprocess);
    }

  mcp_stdio_transport_fail_queued_sends (self);
  if (self->stdin_pipe != NULL)
    g_output_stream_close (self->stdin_pipe, NULL, NULL);
  g_clear_object (&self->stdin_pipe);
  if (self->stdout_pipe != NULL)
    g_input_stream_close (self->stdout_pipe, NULL, NULL);
  g_clear_object (&self->stdout_pipe);
  if (self->stderr_pipe != NULL)
    g_input_stream_close (self->stderr_pipe, NULL, NULL);
  g_clear_object (&self->stderr_pipe);

  if (self->reader != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->reader, self);
      g_clear_object (&self->reader);
    }
  g_clear_object (&self->subprocess);
  self->state = STATE_STOPPED;

  G_OBJECT_CLASS (mcp_stdio_transport_parent_class)->dispose (object);
}

static void
mcp_stdio_transport_finalize (GObject *object)
{
  McpStdioTransport *self = MCP_STDIO_TRANSPORT (object);

  g_clear_pointer (&self->argv, g_strfreev);
  g_clear_pointer (&self->cwd, g_free);
  g_clear_pointer (&self->configured_env, g_hash_table_unref);
  g_clear_pointer (&self->description, g_free);
  g_clear_pointer (&self->spawned_env, g_strfreev);
  g_clear_pointer (&self->framer, mcp_line_framer_free);
  g_clear_pointer (&self->write_error, g_free);
  g_clear_pointer (&self->last_dropped, g_free);
  g_string_free (self->stderr_line, TRUE);
  g_free (self->stderr_ring);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (mcp_stdio_transport_parent_class)->finalize (object);
}

static void
mcp_stdio_transport_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  McpStdioTransport *self = MCP_STDIO_TRANSPORT (object);

  switch (prop_id)
    {
    case PROP_ARGV:
      g_value_set_boxed (value, self->argv);
      break;

    case PROP_CWD:
      g_value_set_string (value, self->cwd);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_stdio_transport_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  McpStdioTransport *self = MCP_STDIO_TRANSPORT (object);

  switch (prop_id)
    {
    case PROP_ARGV:
      self->argv = g_value_dup_boxed (value);
      break;

    case PROP_CWD:
      mcp_stdio_transport_set_cwd (self, g_value_get_string (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_stdio_transport_constructed (GObject *object)
{
  McpStdioTransport *self = MCP_STDIO_TRANSPORT (object);

  G_OBJECT_CLASS (mcp_stdio_transport_parent_class)->constructed (object);

  if (self->argv == NULL || self->argv[0] == NULL || self->argv[0][0] == '\0')
    {
      g_critical ("McpStdioTransport needs an argument vector with a command");
      g_clear_pointer (&self->argv, g_strfreev);
      self->argv = g_new0 (char *, 2);
      self->argv[0] = g_strdup ("false");
    }

  self->description = mcp_stdio_transport_describe_argv ((const char * const *) self->argv);
}

static void
mcp_stdio_transport_class_init (McpStdioTransportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  struct sigaction current;

  object_class->constructed = mcp_stdio_transport_constructed;
  object_class->dispose = mcp_stdio_transport_dispose;
  object_class->finalize = mcp_stdio_transport_finalize;
  object_class->get_property = mcp_stdio_transport_get_property;
  object_class->set_property = mcp_stdio_transport_set_property;

  properties[PROP_ARGV] =
    g_param_spec_boxed ("argv", NULL, NULL,
                        G_TYPE_STRV,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  properties[PROP_CWD] =
    g_param_spec_string ("cwd", NULL, NULL,
                         NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* Writing to the stdin of a server that has died raises SIGPIPE, whose
   * default action would end the whole application; the write should fail
   * with EPIPE instead. A handler the application installed is kept. */
  if (sigaction (SIGPIPE, NULL, &current) == 0 && current.sa_handler == SIG_DFL)
    signal (SIGPIPE, SIG_IGN);
}

static void
mcp_stdio_transport_init (McpStdioTransport *self)
{
  self->configured_env = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->max_message_size = MCP_DEFAULT_MAX_MESSAGE_SIZE;
  self->grace_ms = MCP_STDIO_SHUTDOWN_GRACE_MS;
  self->cancellable = g_cancellable_new ();
  self->stdout_fd = -1;
  self->stderr_fd = -1;
  self->stdin_fd = -1;
  self->stderr_line = g_string_sized_new (256);
  g_queue_init (&self->send_queue);
  g_queue_init (&self->close_tasks);
}

/**
 * mcp_stdio_transport_new:
 * @argv: the command and its arguments; the command is looked up on the
 *   child's PATH unless it contains a slash
 *
 * Returns: (transfer full): a transport that runs @argv once started
 */
McpStdioTransport *
mcp_stdio_transport_new (const char * const *argv)
{
  g_return_val_if_fail (argv != NULL && argv[0] != NULL, NULL);

  return g_object_new (MCP_TYPE_STDIO_TRANSPORT, "argv", argv, NULL);
}

const char * const *
mcp_stdio_transport_get_argv (McpStdioTransport *self)
{
  g_return_val_if_fail (MCP_IS_STDIO_TRANSPORT (self), NULL);

  return (const char * const *) self->argv;
}

/**
 * mcp_stdio_transport_set_cwd:
 * @cwd: (nullable): the folder the server runs in, or %NULL for ours
 *
 * Takes effect when the server is started.
 */
void
mcp_stdio_transport_set_cwd (McpStdioTransport *self,
                             const char        *cwd)
{
  g_return_if_fail (MCP_IS_STDIO_TRANSPORT (self));

  if (g_strcmp0 (self->cwd, cwd) == 0)
    return;

  g_free (self->cwd);
  self->cwd = g_strdup (cwd);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CWD]);
}

const char *
mcp_stdio_transport_get_cwd (McpStdioTransport *self)
{
  g_return_val_if_fail (MCP_IS_STDIO_TRANSPORT (self), NULL);

  return self->cwd;
}

/**
 * mcp_stdio_transport_setenv:
 * @name: a variable name
 * @value: (nullable): its value, or %NULL to keep the variable out of the
 *   server's environment even if it is on the allowlist
 *
 * Adds a variable to the server's environment on top of the allowlisted
 * ones inherited from us. Takes effect when the server is started.
 */
void
mcp_stdio_transport_setenv (McpStdioTransport *self,
                            const char        *name,
                            const char        *value)
{
  g_return_if_fail (MCP_IS_STDIO_TRANSPORT (self));
  g_return_if_fail (name != NULL && name[0] != '\0' && strchr (name, '=') == NULL);

  g_hash_table_replace (self->configured_env, g_strdup (name), g_strdup (value));
}

/**
 * mcp_stdio_transport_set_max_message_size:
 * @max_size: the longest line the server may write to stdout, in bytes
 *
 * Takes effect when the server is started.
 */
void
mcp_stdio_transport_set_max_message_size (McpStdioTransport *self,
                                          gsize              max_size)
{
  g_return_if_fail (MCP_IS_STDIO_TRANSPORT (self));
  g_return_if_fail (max_size > 0);

  self->max_message_size = max_size;
}

/**
 * mcp_stdio_transport_set_shutdown_grace:
 * @grace_ms: how long each step of the shutdown waits for the server
 */
void
mcp_stdio_transport_set_shutdown_grace (McpStdioTransport *self,
                                        guint              grace_ms)
{
  g_return_if_fail (MCP_IS_STDIO_TRANSPORT (self));

  self->grace_ms = grace_ms;
}

/**
 * mcp_stdio_transport_get_pid:
 *
 * Returns: the server's process id, which is also its process group id,
 *   or 0 before it was started; it stays readable after the server exited
 */
GPid
mcp_stdio_transport_get_pid (McpStdioTransport *self)
{
  g_return_val_if_fail (MCP_IS_STDIO_TRANSPORT (self), 0);

  return self->pid;
}

/**
 * mcp_stdio_transport_dup_stderr_tail:
 * @max_lines: how many lines at most
 *
 * Returns: (transfer full): the last @max_lines complete lines the server
 *   wrote to stderr (as far as the ring still holds them), separated by
 *   newlines, or an empty string
 */
char *
mcp_stdio_transport_dup_stderr_tail (McpStdioTransport *self,
                                     guint              max_lines)
{
  g_return_val_if_fail (MCP_IS_STDIO_TRANSPORT (self), NULL);

  return mcp_stdio_transport_ring_dup_tail (self, max_lines);
}

/**
 * mcp_stdio_transport_dup_environment:
 *
 * Returns: (transfer full): the environment the server gets, or got if it
 *   was already started: the allowlisted variables of ours, then the
 *   configured ones
 */
char **
mcp_stdio_transport_dup_environment (McpStdioTransport *self)
{
  g_return_val_if_fail (MCP_IS_STDIO_TRANSPORT (self), NULL);

  if (self->spawned_env != NULL)
    return g_strdupv (self->spawned_env);

  return mcp_stdio_transport_build_environment (self);
}

/**
 * mcp_stdio_transport_get_n_dropped:
 *
 * Returns: how many texts from the server's stdout were dropped because
 *   they were not JSON-RPC messages (not UTF-8, not JSON, too deep)
 */
guint
mcp_stdio_transport_get_n_dropped (McpStdioTransport *self)
{
  g_return_val_if_fail (MCP_IS_STDIO_TRANSPORT (self), 0);

  return self->n_dropped;
}

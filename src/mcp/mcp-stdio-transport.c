/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-stdio-transport"

#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <gio/gio.h>
#include <gio/gunixinputstream.h>
#include <gio/gunixoutputstream.h>
#include <glib-unix.h>

#include "mcp-error.h"
#include "mcp-format-private.h"
#include "mcp-line-framer.h"
#include "mcp-message-reader.h"
#include "mcp-revision.h"
#include "mcp-stdio-transport.h"

/* Bytes asked for per read of the server's stdout or stderr. */
#define READ_CHUNK (64 * 1024)

/* A stderr line is cut after this many bytes, so that one endless line
 * cannot fill the log; the rest of it is counted, not kept. */
#define STDERR_LINE_MAX 4096

/* Once the server has exited, how long its pipes may take to report end of
 * file. Whatever it wrote last (a traceback, a final message) is read in
 * this time; a pipe held open by a process outside its group is given up. */
#define EXIT_DRAIN_MS 20

/* Stop reading stdout while this many large texts wait for the parser, so
 * that a server writing big messages faster than they parse cannot grow
 * the queue without bound; the pipe then pushes back on the server. */
#define MAX_PENDING_TEXTS 4

/* How many stderr lines the reason for an unexpected exit quotes. */
#define EXIT_REASON_STDERR_LINES 3
#define EXIT_REASON_LINE_CHARS   200

/**
 * McpStdioTransport:
 *
 * Runs a local MCP server as a child process and talks to it through
 * newline-delimited JSON on its stdin and stdout.
 *
 * The child is started from an argument vector, never through a shell. Its
 * environment holds only the parent's variables on the allowlist below plus
 * the ones configured with mcp_stdio_transport_setenv(), so that tokens and
 * keys the desktop session happens to hold do not leak into every server.
 * It runs in a process group of its own, so that shutting it down also
 * reaches the processes it started (`npx` starting `node`, for example).
 *
 * Shutdown closes stdin, waits the grace period, sends SIGTERM to the group,
 * waits again and sends SIGKILL; once the server has exited, anything left
 * in its group is killed.
 */

/* What a server inherits from the session: where to find programs and its
 * home, who the user is, the locale and time zone, and where temporary,
 * config, cache and data files go. Not the session bus nor the runtime
 * folder that holds it (through the bus a server could ask the keyring for
 * every secret), nor the display: the host adds those for a server the
 * person allowed them. Proxies are not passed on because their URLs often
 * carry credentials; a person who needs them configures them for the
 * server. */
static const char * const environment_allowlist[] = {
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "LANG",
  "LANGUAGE",
  "TZ",
  "TMPDIR",
  "TERM",
  "XDG_DATA_DIRS",
  "XDG_CONFIG_DIRS",
  "XDG_CONFIG_HOME",
  "XDG_CACHE_HOME",
  "XDG_DATA_HOME",
  "XDG_STATE_HOME",
  /* The locale's categories (locale(7)), rather than anything that
   * starts with LC_, which other programs use for their own variables. */
  "LC_ALL",
  "LC_ADDRESS",
  "LC_COLLATE",
  "LC_CTYPE",
  "LC_IDENTIFICATION",
  "LC_MEASUREMENT",
  "LC_MESSAGES",
  "LC_MONETARY",
  "LC_NAME",
  "LC_NUMERIC",
  "LC_PAPER",
  "LC_TELEPHONE",
  "LC_TIME",
  NULL
};

/* The search path execvp() uses when the environment has no PATH. */
#define DEFAULT_SEARCH_PATH "/bin:/usr/bin"

typedef enum {
  STATE_NEW,
  STATE_RUNNING,
  STATE_STOPPED,
} State;

/* How far the shutdown has gone. */
typedef enum {
  STAGE_NONE,
  STAGE_STDIN_CLOSED,
  STAGE_TERM_SENT,
  STAGE_KILL_SENT,
} Stage;

/* Why the connection is ending. */
typedef enum {
  CAUSE_NONE,
  CAUSE_REQUESTED,
  CAUSE_STDOUT_EOF,
  CAUSE_EXITED,
  CAUSE_WRITE_FAILED,
  CAUSE_FAILED,
} Cause;

struct _McpStdioTransport
{
  GObject            parent_instance;

  char             **argv;
  char              *cwd;
  GHashTable        *configured_env;
  gsize              max_message_size;
  guint              grace_ms;
  char              *description;
  gboolean           allow_batches;

  State              state;
  Stage              stage;
  Cause              cause;
  GMainContext      *context;
  GSubprocess       *subprocess;
  GPid               pid;
  char             **spawned_env;
  GOutputStream     *stdin_pipe;
  GInputStream      *stdout_pipe;
  GInputStream      *stderr_pipe;

  /* Each of these stops one flow; dispose and the end cancel them all. */
  GCancellable      *cancellable;
  GCancellable      *stderr_cancellable;

  /* stdout and stdin are plain non-blocking fds watched by sources that
   * live as long as they are needed: a round trip then costs one poll,
   * one read and one write, with no task or source made per message. */
  int                stdout_fd;
  int                stdin_fd;
  GSource           *stdout_source;
  GSource           *stdin_source;
  char              *read_buffer;

  McpLineFramer     *framer;
  McpMessageReader  *reader;
  gboolean           stdout_done;
  gboolean           stderr_done;
  gboolean           drain_expired;
  gboolean           exited;
  gboolean           signalled;
  gboolean           closed_emitted;
  char              *write_error;
  char              *last_dropped;
  guint              n_dropped;

  GString           *stderr_line;
  gsize              stderr_line_cut;
  guint8            *stderr_ring;
  gsize              stderr_ring_start;
  gsize              stderr_ring_length;
  gboolean           stderr_ring_wrapped;

  /* Messages to write, in order (Send); the head may be written in part. */
  GQueue             send_queue;
  gboolean           close_stdin_pending;

  GQueue             close_tasks;
  GSource           *escalation_source;
  GSource           *drain_source;
  GSource           *finish_source;
};

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

static void read_stdout    (McpStdioTransport *self);
static void try_finish     (McpStdioTransport *self);
static void write_next     (McpStdioTransport *self);

static void
clear_source (GSource **source)
{
  if (*source == NULL)
    return;

  g_source_destroy (*source);
  g_clear_pointer (source, g_source_unref);
}

static GSource *
schedule (McpStdioTransport *self,
          guint              delay_ms,
          GSourceFunc        func)
{
  GSource *source = delay_ms > 0 ? g_timeout_source_new (delay_ms) : g_idle_source_new ();

  g_source_set_callback (source, func, self, NULL);
  g_source_attach (source, self->context);

  return source;
}

static gboolean
is_safe_for_display (const char *arg)
{
  if (*arg == '\0')
    return FALSE;

  for (const char *p = arg; *p != '\0'; p++)
    {
      guchar c = (guchar) *p;

      if (c < 0x80 && !g_ascii_isalnum (c) && strchr ("@%+=:,./-_", c) == NULL)
        return FALSE;
    }

  return TRUE;
}

static char *
describe_argv (const char * const *argv)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; argv[i] != NULL; i++)
    {
      if (i > 0)
        g_string_append_c (text, ' ');

      if (is_safe_for_display (argv[i]))
        g_string_append (text, argv[i]);
      else
        {
          g_autofree char *quoted = g_shell_quote (argv[i]);

          g_string_append (text, quoted);
        }
    }

  return g_string_free (text, FALSE);
}

static gboolean
is_allowed_variable (const char *name)
{
  return g_strv_contains (environment_allowlist, name);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static char **
build_environment (McpStdioTransport *self)
{
  g_auto(GStrv) parent = g_get_environ ();
  g_autoptr(GPtrArray) names = NULL;
  GHashTableIter iter;
  gpointer key;
  GPtrArray *env = g_ptr_array_new ();

  for (guint i = 0; parent[i] != NULL; i++)
    {
      const char *equals = strchr (parent[i], '=');
      g_autofree char *name = NULL;

      if (equals == NULL)
        continue;

      name = g_strndup (parent[i], equals - parent[i]);
      if (is_allowed_variable (name) && !g_hash_table_contains (self->configured_env, name))
        g_ptr_array_add (env, g_strdup (parent[i]));
    }

  /* Configured variables come last and in a fixed order, so that the same
   * configuration always gives the same environment. */
  names = g_ptr_array_new ();
  g_hash_table_iter_init (&iter, self->configured_env);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (names, key);
  g_ptr_array_sort (names, compare_names);

  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      const char *value = g_hash_table_lookup (self->configured_env, name);

      if (value != NULL)
        g_ptr_array_add (env, g_strconcat (name, "=", value, NULL));
    }

  g_ptr_array_add (env, NULL);

  return (char **) g_ptr_array_free (env, FALSE);
}

static gboolean
is_executable_file (const char *path)
{
  return g_file_test (path, G_FILE_TEST_IS_EXECUTABLE) &&
         !g_file_test (path, G_FILE_TEST_IS_DIR);
}

/* Resolves the command the way execvp() in the child would, but on the
 * child's PATH and relative to the child's working folder, so that a
 * missing command is reported by name before anything is spawned. */
static char *
find_program (const char  *program,
              const char  *search_path,
              const char  *cwd,
              GError     **error)
{
  g_auto(GStrv) dirs = NULL;

  if (strchr (program, '/') != NULL)
    {
      g_autofree char *path = g_path_is_absolute (program)
                              ? g_strdup (program)
                              : g_build_filename (cwd, program, NULL);

      if (!g_file_test (path, G_FILE_TEST_EXISTS))
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED,
                       "command `%s` not found (looked for %s)", program, path);
          return NULL;
        }
      if (!is_executable_file (path))
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED,
                       "command `%s` is not an executable file", program);
          return NULL;
        }

      return g_steal_pointer (&path);
    }

  dirs = g_strsplit (search_path, ":", -1);
  for (guint i = 0; dirs[i] != NULL; i++)
    {
      /* An empty entry means the working folder, as for execvp(). */
      const char *dir = dirs[i][0] != '\0' ? dirs[i] : ".";
      g_autofree char *path = g_path_is_absolute (dir)
                              ? g_build_filename (dir, program, NULL)
                              : g_build_filename (cwd, dir, program, NULL);

      if (is_executable_file (path))
        return g_steal_pointer (&path);
    }

  g_set_error (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED,
               "command `%s` not found on PATH (%s)", program, search_path);
  return NULL;
}

/* Runs in the child between fork and exec: only async-signal-safe calls. */
static void
child_setup (gpointer user_data)
{
  struct sigaction action;
  sigset_t none;

  setpgid (0, 0);

  /* The parent ignores SIGPIPE (see class_init); the server should get the
   * default disposition, as it would from a shell. */
  memset (&action, 0, sizeof action);
  action.sa_handler = SIG_DFL;
  sigemptyset (&action.sa_mask);
  sigaction (SIGPIPE, &action, NULL);

  sigemptyset (&none);
  sigprocmask (SIG_SETMASK, &none, NULL);
}

/* Sends @signum to the server's process group. Once the leader has been
 * reaped its pid may be reused, so then only the group is addressed, which
 * stays reserved for as long as any member lives. */
static gboolean
signal_group (McpStdioTransport *self,
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
ring_append (McpStdioTransport *self,
             const char        *data,
             gsize              length)
{
  const gsize size = MCP_STDIO_STDERR_RING_SIZE;
  gsize end;
  gsize first;

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

static void
finish_stderr_line (McpStdioTransport *self)
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

      finish_stderr_line (self);
      data += segment + 1;
      length -= segment + 1;
    }
}

static char *
ring_dup_tail (McpStdioTransport *self,
               guint              max_lines)
{
  const gsize size = MCP_STDIO_STDERR_RING_SIZE;
  g_autofree char *linear = g_malloc (self->stderr_ring_length + 1);
  gsize first = MIN (self->stderr_ring_length, size - self->stderr_ring_start);
  const char *begin = linear;
  const char *end = linear + self->stderr_ring_length;
  const char *start;
  guint count = 0;

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
  g_autofree char *tail = ring_dup_tail (self, EXIT_REASON_STDERR_LINES);
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

static GError *
build_closed_error (McpStdioTransport *self)
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

static void
emit_closed (McpStdioTransport *self,
             const GError      *error)
{
  if (self->closed_emitted)
    return;

  self->closed_emitted = TRUE;
  mcp_transport_emit_closed (MCP_TRANSPORT (self), error);
}

typedef struct {
  GBytes *bytes;
  gsize   written;
  GTask  *task;      /* NULL when the caller asked for no answer */
} Send;

static void
send_complete (Send   *send,
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

static void
fail_queued_sends (McpStdioTransport *self)
{
  Send *send;

  while ((send = g_queue_pop_head (&self->send_queue)) != NULL)
    send_complete (send, g_error_new_literal (MCP_ERROR, MCP_ERROR_CLOSED,
                                              "the connection to the server closed before the "
                                              "message was sent"));
}

static void
close_stdin (McpStdioTransport *self)
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
  clear_source (&self->stdin_source);
  self->stdin_fd = -1;
  g_output_stream_close (self->stdin_pipe, NULL, NULL);
  g_clear_object (&self->stdin_pipe);
}

typedef struct {
  GSource *cancel_source;
} CloseData;

static void
close_data_free (CloseData *data)
{
  clear_source (&data->cancel_source);
  g_free (data);
}

static void
complete_close_tasks (McpStdioTransport *self)
{
  GTask *task;

  while ((task = g_queue_pop_head (&self->close_tasks)) != NULL)
    {
      CloseData *data = g_task_get_task_data (task);

      clear_source (&data->cancel_source);
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
  clear_source (&self->escalation_source);
  clear_source (&self->drain_source);
  clear_source (&self->finish_source);

  clear_source (&self->stdout_source);
  g_cancellable_cancel (self->stderr_cancellable);
  self->stdout_done = TRUE;
  self->stderr_done = TRUE;

  if (self->stderr_line->len > 0 || self->stderr_line_cut > 0)
    finish_stderr_line (self);

  if (self->cause == CAUSE_REQUESTED)
    emit_closed (self, NULL);
  else if (!self->closed_emitted)
    {
      g_autoptr(GError) error = build_closed_error (self);

      emit_closed (self, error);
    }

  /* A write still waiting can only be waiting on a pipe that someone
   * outside the server's group holds open; it is abandoned. */
  g_cancellable_cancel (self->cancellable);
  fail_queued_sends (self);
  close_stdin (self);

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
  g_clear_object (&self->stderr_pipe);

  complete_close_tasks (self);
}

static gboolean
finish_cb (gpointer user_data)
{
  McpStdioTransport *self = MCP_STDIO_TRANSPORT (user_data);

  g_clear_pointer (&self->finish_source, g_source_unref);
  try_finish (self);

  return G_SOURCE_REMOVE;
}

static gboolean
drain_cb (gpointer user_data)
{
  McpStdioTransport *self = MCP_STDIO_TRANSPORT (user_data);

  g_clear_pointer (&self->drain_source, g_source_unref);
  self->drain_expired = TRUE;
  try_finish (self);

  return G_SOURCE_REMOVE;
}

/* The connection ends once the server has exited, its pipes are drained
 * (or had their time) and every message it sent before has been delivered. */
static void
try_finish (McpStdioTransport *self)
{
  if (self->state != STATE_RUNNING || !self->exited)
    return;

  if ((!self->stdout_done || !self->stderr_done) && !self->drain_expired)
    {
      if (self->drain_source == NULL)
        self->drain_source = schedule (self, EXIT_DRAIN_MS, drain_cb);
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
  signal_group (self, SIGTERM);

  clear_source (&self->escalation_source);
  self->escalation_source = schedule (self, self->grace_ms, escalate_cb);
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
      signal_group (self, SIGKILL);
    }

  return G_SOURCE_REMOVE;
}

/* Starts the polite shutdown: close stdin and give the server time. */
static void
begin_shutdown (McpStdioTransport *self,
                Cause              cause)
{
  if (self->stage != STAGE_NONE)
    return;

  self->cause = cause;
  self->stage = STAGE_STDIN_CLOSED;
  close_stdin (self);

  if (!self->exited)
    self->escalation_source = schedule (self, self->grace_ms, escalate_cb);
}

static void
stop_reading_stdout (McpStdioTransport *self)
{
  self->stdout_done = TRUE;
  clear_source (&self->stdout_source);
}

/* The server broke the protocol badly enough that nothing more it says can
 * be trusted: report it at once and stop the server without the polite
 * wait. */
static void
fail_connection (McpStdioTransport *self,
                 const GError      *error)
{
  gboolean report;

  if (self->state != STATE_RUNNING)
    return;

  stop_reading_stdout (self);

  /* A close we were asked for still ends without an error. */
  report = self->cause != CAUSE_REQUESTED && !self->closed_emitted;
  if (report)
    self->cause = CAUSE_FAILED;

  /* The shutdown is under way before "closed" is emitted, so that a
   * handler that closes us joins it instead of starting the polite one. */
  close_stdin (self);
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

  try_finish (self);
}

static void
stdout_ended (McpStdioTransport *self)
{
  self->stdout_done = TRUE;
  clear_source (&self->stdout_source);

  if (self->stdout_pipe != NULL)
    g_input_stream_close (self->stdout_pipe, NULL, NULL);
  self->stdout_fd = -1;

  begin_shutdown (self, CAUSE_STDOUT_EOF);
  try_finish (self);
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

/* Reads what the pipe holds, a chunk at a time, up to a bound so that one
 * busy server cannot keep the main loop to itself. */
#define MAX_READS_PER_WAKEUP 16

static gboolean
stdout_ready_cb (int          fd,
                 GIOCondition condition,
                 gpointer     user_data)
{
  g_autoptr(McpStdioTransport) self = g_object_ref (MCP_STDIO_TRANSPORT (user_data));
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < MAX_READS_PER_WAKEUP; i++)
    {
      gssize n = read (fd, self->read_buffer, READ_CHUNK);

      if (n < 0 && errno == EINTR)
        continue;

      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        return G_SOURCE_CONTINUE;

      if (n < 0)
        {
          mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "could not read the server’s stdout: %s", g_strerror (errno));
          stdout_ended (self);
          return G_SOURCE_REMOVE;
        }

      if (n == 0)
        {
          stdout_ended (self);
          return G_SOURCE_REMOVE;
        }

      if (!mcp_line_framer_push (self->framer, self->read_buffer, (gsize) n, line_cb, self,
                                 &error))
        {
          g_autofree char *cap = mcp_format_size (self->max_message_size);
          g_autoptr(GError) too_large = NULL;

          too_large = g_error_new (MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE,
                                   "server wrote a message larger than the %s limit to stdout; "
                                   "the connection was closed and the server stopped", cap);
          fail_connection (self, too_large);
          return G_SOURCE_REMOVE;
        }

      /* A handler may have ended the connection; or large messages wait
       * for the parser and the pipe should push back on the server. */
      if (self->stdout_source == NULL)
        return G_SOURCE_REMOVE;
      if (mcp_message_reader_get_n_pending (self->reader) >= MAX_PENDING_TEXTS)
        {
          clear_source (&self->stdout_source);
          return G_SOURCE_REMOVE;
        }

      /* A short read emptied the pipe: wait for the next wakeup rather
       * than ask again and be told EAGAIN. */
      if (n < READ_CHUNK)
        return G_SOURCE_CONTINUE;
    }

  return G_SOURCE_CONTINUE;
}

static void
read_stdout (McpStdioTransport *self)
{
  if (self->stdout_done || self->stdout_source != NULL || self->state != STATE_RUNNING)
    return;

  if (mcp_message_reader_get_n_pending (self->reader) >= MAX_PENDING_TEXTS)
    return;

  self->stdout_source = g_unix_fd_source_new (self->stdout_fd, G_IO_IN | G_IO_HUP | G_IO_ERR);
  g_source_set_callback (self->stdout_source, (GSourceFunc) (void (*) (void)) stdout_ready_cb,
                         self, NULL);
  g_source_set_static_name (self->stdout_source, "[mcp] server stdout");
  g_source_attach (self->stdout_source, self->context);
}

static void read_stderr (McpStdioTransport *self);

static void
stderr_read_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  GInputStream *stream = G_INPUT_STREAM (object);
  g_autoptr(McpStdioTransport) self = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  const char *data;
  gsize length = 0;

  bytes = g_input_stream_read_bytes_finish (stream, result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_input_stream_close (stream, NULL, NULL);
      return;
    }

  self = g_object_ref (MCP_STDIO_TRANSPORT (user_data));

  if (bytes != NULL)
    {
      data = g_bytes_get_data (bytes, &length);
      process_stderr (self, data, length);
    }

  if (length == 0)
    {
      if (self->stderr_line->len > 0 || self->stderr_line_cut > 0)
        finish_stderr_line (self);

      self->stderr_done = TRUE;
      g_input_stream_close (stream, NULL, NULL);
      try_finish (self);
      return;
    }

  read_stderr (self);
}

static void
read_stderr (McpStdioTransport *self)
{
  if (self->stderr_done || self->state != STATE_RUNNING)
    return;

  g_input_stream_read_bytes_async (self->stderr_pipe, READ_CHUNK, G_PRIORITY_DEFAULT,
                                   self->stderr_cancellable, stderr_read_cb, self);
}

static void
wait_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(McpStdioTransport) self = NULL;
  g_autoptr(GError) error = NULL;

  if (!g_subprocess_wait_finish (G_SUBPROCESS (object), result, &error))
    return;

  self = g_object_ref (MCP_STDIO_TRANSPORT (user_data));
  self->exited = TRUE;
  clear_source (&self->escalation_source);

  /* Whatever the server started and left behind in its group would hold
   * the pipes open and live on unseen. */
  if (self->pid > 0 && kill (-self->pid, SIGKILL) == 0 && self->stage != STAGE_KILL_SENT)
    mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "killed the processes the server left behind in its process group");

  begin_shutdown (self, CAUSE_EXITED);
  try_finish (self);
}

static void
schedule_finish (McpStdioTransport *self)
{
  if (self->exited && self->state == STATE_RUNNING && self->finish_source == NULL)
    self->finish_source = schedule (self, 0, finish_cb);
}

static void
reader_message_cb (McpStdioTransport *self,
                   McpMessage        *message)
{
  if (!self->closed_emitted)
    mcp_transport_emit_message (MCP_TRANSPORT (self), message);

  read_stdout (self);
  schedule_finish (self);
}

static void
reader_invalid_cb (McpStdioTransport *self,
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

  read_stdout (self);
  schedule_finish (self);
}

static void
reader_misbehaving_cb (McpStdioTransport *self,
                       const GError      *error)
{
  g_autoptr(GError) reason = NULL;

  reason = g_error_new (MCP_ERROR, MCP_ERROR_MISBEHAVING,
                        "%s (the last: “%s”); the server was stopped",
                        error->message, self->last_dropped ? self->last_dropped : "");
  fail_connection (self, reason);
}

static gboolean
spawn (McpStdioTransport  *self,
       GError            **error)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) subprocess = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *program = NULL;
  g_autofree char *current_dir = NULL;
  g_auto(GStrv) env = build_environment (self);
  g_auto(GStrv) argv = NULL;
  const char *search_path;
  const char *identifier;
  const char *cwd;

  if (self->cwd != NULL && !g_file_test (self->cwd, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED,
                   "could not start `%s`: the working folder %s does not exist",
                   self->argv[0], self->cwd);
      return FALSE;
    }

  current_dir = g_get_current_dir ();
  cwd = self->cwd != NULL ? self->cwd : current_dir;
  search_path = g_environ_getenv (env, "PATH");
  if (search_path == NULL)
    search_path = DEFAULT_SEARCH_PATH;

  program = find_program (self->argv[0], search_path, cwd, error);
  if (program == NULL)
    return FALSE;

  /* The resolved path is what runs, so that the child cannot end up
   * executing something other than what the check found. */
  argv = g_strdupv (self->argv);
  g_free (argv[0]);
  argv[0] = g_steal_pointer (&program);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                        G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_set_environ (launcher, env);
  if (self->cwd != NULL)
    g_subprocess_launcher_set_cwd (launcher, self->cwd);
  g_subprocess_launcher_set_child_setup (launcher, child_setup, NULL, NULL);

  subprocess = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv, &local_error);
  if (subprocess == NULL)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED,
                   "could not start `%s`: %s", self->argv[0], local_error->message);
      return FALSE;
    }

  self->subprocess = g_steal_pointer (&subprocess);

  /* GLib forgets the pid once it has reaped the child; a server that is
   * already gone has no group left to signal either. */
  identifier = g_subprocess_get_identifier (self->subprocess);
  self->pid = identifier != NULL ? (GPid) g_ascii_strtoll (identifier, NULL, 10) : 0;
  self->spawned_env = g_steal_pointer (&env);
  self->stdin_pipe = g_object_ref (g_subprocess_get_stdin_pipe (self->subprocess));
  self->stdout_pipe = g_object_ref (g_subprocess_get_stdout_pipe (self->subprocess));
  self->stderr_pipe = g_object_ref (g_subprocess_get_stderr_pipe (self->subprocess));
  self->stdin_fd = g_unix_output_stream_get_fd (G_UNIX_OUTPUT_STREAM (self->stdin_pipe));
  self->stdout_fd = g_unix_input_stream_get_fd (G_UNIX_INPUT_STREAM (self->stdout_pipe));
  g_unix_set_fd_nonblocking (self->stdin_fd, TRUE, NULL);
  g_unix_set_fd_nonblocking (self->stdout_fd, TRUE, NULL);

  return TRUE;
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

  if (!spawn (self, &error))
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
                           G_CALLBACK (reader_message_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->reader, "invalid",
                           G_CALLBACK (reader_invalid_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->reader, "misbehaving",
                           G_CALLBACK (reader_misbehaving_cb), self, G_CONNECT_SWAPPED);

  read_stdout (self);
  read_stderr (self);
  g_subprocess_wait_async (self->subprocess, self->cancellable, wait_cb, self);

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
write_failed (McpStdioTransport *self,
              int                errsv)
{
  const char *cause = g_strerror (errsv);

  if (self->write_error == NULL)
    self->write_error = g_strdup (cause);

  /* Nothing more can reach the server. */
  while (!g_queue_is_empty (&self->send_queue))
    send_complete (g_queue_pop_head (&self->send_queue),
                   g_error_new (MCP_ERROR, MCP_ERROR_CLOSED,
                                "could not write to the server’s stdin: %s", cause));
  clear_source (&self->stdin_source);
  g_output_stream_close (self->stdin_pipe, NULL, NULL);
  g_clear_object (&self->stdin_pipe);
  self->stdin_fd = -1;
  self->close_stdin_pending = FALSE;

  if (self->state == STATE_RUNNING)
    {
      mcp_transport_emit_diagnostic (MCP_TRANSPORT (self), "could not write to the server’s stdin: %s", cause);
      begin_shutdown (self, CAUSE_WRITE_FAILED);
    }
}

static gboolean
stdin_ready_cb (int          fd,
                GIOCondition condition,
                gpointer     user_data)
{
  g_autoptr(McpStdioTransport) self = g_object_ref (MCP_STDIO_TRANSPORT (user_data));

  write_next (self);
  return G_SOURCE_CONTINUE;
}

/* Writes queued messages until the queue is empty or the pipe is full; a
 * full pipe is watched until it takes more. */
static void
write_next (McpStdioTransport *self)
{
  Send *send;

  while ((send = g_queue_peek_head (&self->send_queue)) != NULL)
    {
      gsize length;
      const char *data = g_bytes_get_data (send->bytes, &length);
      gssize n;

      if (self->stdin_pipe == NULL)
        {
          fail_queued_sends (self);
          break;
        }

      /* Once a message has begun it is not cancelled on the caller's
       * behalf: half a line would garble the next message. */
      if (send->written == 0 && send->task != NULL &&
          g_cancellable_is_cancelled (g_task_get_cancellable (send->task)))
        {
          g_queue_pop_head (&self->send_queue);
          send_complete (send, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                    "the message was cancelled before it "
                                                    "was sent"));
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
          send_complete (send, NULL);
        }
    }

  clear_source (&self->stdin_source);

  if (self->close_stdin_pending)
    close_stdin (self);
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
  GString *line;
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

  line = g_string_sized_new (256);
  mcp_message_write (message, line);
  g_string_append_c (line, '\n');

  send = g_new0 (Send, 1);
  send->bytes = g_string_free_to_bytes (line);
  send->task = g_steal_pointer (&task);
  g_queue_push_tail (&self->send_queue, send);

  /* Behind a message still waiting for the pipe, wait too. */
  if (self->stdin_source == NULL)
    write_next (self);
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
  g_task_set_task_data (task, data, (GDestroyNotify) close_data_free);
  if (cancellable != NULL)
    {
      data->cancel_source = g_cancellable_source_new (cancellable);
      g_source_set_callback (data->cancel_source, G_SOURCE_FUNC (close_cancelled_cb), task, NULL);
      g_source_attach (data->cancel_source, self->context);
    }

  g_queue_push_tail (&self->close_tasks, g_steal_pointer (&task));

  if (self->stage == STAGE_NONE)
    begin_shutdown (self, CAUSE_REQUESTED);

  try_finish (self);
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
  g_cancellable_cancel (self->stderr_cancellable);
  clear_source (&self->stdout_source);
  clear_source (&self->stdin_source);
  clear_source (&self->escalation_source);
  clear_source (&self->drain_source);
  clear_source (&self->finish_source);

  /* Nobody is left to shut the server down politely. */
  if (self->subprocess != NULL && !self->exited)
    {
      signal_group (self, SIGKILL);
      g_subprocess_force_exit (self->subprocess);
    }

  fail_queued_sends (self);
  if (self->stdin_pipe != NULL)
    g_output_stream_close (self->stdin_pipe, NULL, NULL);
  g_clear_object (&self->stdin_pipe);
  if (self->stdout_pipe != NULL)
    g_input_stream_close (self->stdout_pipe, NULL, NULL);
  g_clear_object (&self->stdout_pipe);
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
  g_clear_object (&self->stderr_cancellable);
  g_free (self->read_buffer);

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

  self->description = describe_argv ((const char * const *) self->argv);
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
  self->stderr_cancellable = g_cancellable_new ();
  self->stdout_fd = -1;
  self->stdin_fd = -1;
  self->read_buffer = g_malloc (READ_CHUNK);
  self->stderr_line = g_string_sized_new (256);
  self->stderr_ring = g_malloc (MCP_STDIO_STDERR_RING_SIZE);
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

  return ring_dup_tail (self, max_lines);
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

  return build_environment (self);
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

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* What the parts of McpStdioTransport share: mcp-stdio-transport.c (the
 * object and the McpTransport interface), mcp-stdio-transport-spawn.c
 * (the environment and starting the child), mcp-stdio-transport-io.c
 * (reading stdout and writing stdin), mcp-stdio-transport-stderr.c (what
 * the server writes to stderr, and the reasons built from it) and
 * mcp-stdio-transport-shutdown.c (stopping the server and ending the
 * connection). */

#include <gio/gio.h>

#include "mcp-line-framer.h"
#include "mcp-message-reader.h"
#include "mcp-source-private.h"
#include "mcp-stdio-transport.h"

G_BEGIN_DECLS

/* Bytes asked for per read of the server's stdout or stderr. */
#define READ_CHUNK (64 * 1024)

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

  /* stdout and stdin are plain non-blocking fds watched by sources that
   * live as long as they are needed: a round trip then costs one poll,
   * one read and one write, with no task or source made per message.
   * stderr is watched the same way, so that a quiet server holds no read
   * buffer. */
  int                stdout_fd;
  int                stdin_fd;
  int                stderr_fd;
  GSource           *stdout_source;
  GSource           *stdin_source;
  GSource           *stderr_source;

  McpLineFramer     *framer;
  McpMessageReader  *reader;
  gboolean           stdout_done;
  gboolean           in_stdout_cb;
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
  /* Grown as stderr comes, up to MCP_STDIO_STDERR_RING_SIZE: most servers
   * write little or nothing there, and each would otherwise keep the
   * whole ring from its start. */
  guint8            *stderr_ring;
  gsize              stderr_ring_capacity;
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

typedef struct {
  GBytes *bytes;
  gsize   written;
  GTask  *task;      /* NULL when the caller asked for no answer */
} Send;

typedef struct {
  GSource *cancel_source;
} CloseData;

/* mcp-stdio-transport.c */
GSource *mcp_stdio_transport_schedule              (McpStdioTransport   *self,
                                                    guint                delay_ms,
                                                    GSourceFunc          func);

/* mcp-stdio-transport-spawn.c */
char    *mcp_stdio_transport_describe_argv         (const char * const  *argv);
char   **mcp_stdio_transport_build_environment     (McpStdioTransport   *self);
gboolean mcp_stdio_transport_spawn                 (McpStdioTransport   *self,
                                                    GError             **error);

/* mcp-stdio-transport-io.c */
void     mcp_stdio_transport_stop_reading_stdout   (McpStdioTransport   *self);
void     mcp_stdio_transport_read_stdout           (McpStdioTransport   *self);
void     mcp_stdio_transport_reader_message_cb     (McpStdioTransport   *self,
                                                    McpMessage          *message);
void     mcp_stdio_transport_reader_invalid_cb     (McpStdioTransport   *self,
                                                    const GError        *error,
                                                    const char          *excerpt);
void     mcp_stdio_transport_reader_misbehaving_cb (McpStdioTransport   *self,
                                                    const GError        *error);
void     mcp_stdio_transport_write_next            (McpStdioTransport   *self);

/* What one read of a server's non-blocking pipe came to. */
typedef enum
{
  MCP_PIPE_READ_DATA,
  MCP_PIPE_READ_EMPTY,    /* nothing to read for now */
  MCP_PIPE_READ_END,
  MCP_PIPE_READ_FAILED,   /* errno says why */
} McpPipeRead;

McpPipeRead mcp_stdio_transport_read_pipe          (int                  fd,
                                                    char                *buffer,
                                                    gsize                size,
                                                    gsize               *length);

/* mcp-stdio-transport-stderr.c */
void     mcp_stdio_transport_finish_stderr_line    (McpStdioTransport   *self);
char    *mcp_stdio_transport_ring_dup_tail         (McpStdioTransport   *self,
                                                    guint                max_lines);
GError  *mcp_stdio_transport_build_closed_error    (McpStdioTransport   *self);
void     mcp_stdio_transport_read_stderr           (McpStdioTransport   *self);

/* mcp-stdio-transport-shutdown.c */
gboolean mcp_stdio_transport_signal_group          (McpStdioTransport   *self,
                                                    int                  signum);
void     mcp_stdio_transport_send_complete         (Send                *send,
                                                    GError              *error);
void     mcp_stdio_transport_fail_queued_sends     (McpStdioTransport   *self);
void     mcp_stdio_transport_close_stdin           (McpStdioTransport   *self);
void     mcp_stdio_transport_close_data_free       (CloseData           *data);
void     mcp_stdio_transport_try_finish            (McpStdioTransport   *self);
void     mcp_stdio_transport_begin_shutdown        (McpStdioTransport   *self,
                                                    Cause                cause);
void     mcp_stdio_transport_fail_connection       (McpStdioTransport   *self,
                                                    const GError        *error);
void     mcp_stdio_transport_wait_cb               (GObject             *object,
                                                    GAsyncResult        *result,
                                                    gpointer             user_data);
void     mcp_stdio_transport_schedule_finish       (McpStdioTransport   *self);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-transport.h"

G_BEGIN_DECLS

/* The server's stderr is kept in a ring of this many bytes. */
#define MCP_STDIO_STDERR_RING_SIZE (256 * 1024)

/* Shutdown: close stdin, wait, SIGTERM the group, wait, SIGKILL. */
#define MCP_STDIO_SHUTDOWN_GRACE_MS 2000

#define MCP_TYPE_STDIO_TRANSPORT (mcp_stdio_transport_get_type ())

G_DECLARE_FINAL_TYPE (McpStdioTransport, mcp_stdio_transport, MCP, STDIO_TRANSPORT, GObject)

McpStdioTransport  *mcp_stdio_transport_new                   (const char * const *argv);
const char * const *mcp_stdio_transport_get_argv              (McpStdioTransport  *self);
void                mcp_stdio_transport_set_cwd               (McpStdioTransport  *self,
                                                               const char         *cwd);
const char         *mcp_stdio_transport_get_cwd               (McpStdioTransport  *self);
void                mcp_stdio_transport_setenv                (McpStdioTransport  *self,
                                                               const char         *name,
                                                               const char         *value);
void                mcp_stdio_transport_set_max_message_size  (McpStdioTransport  *self,
                                                               gsize               max_size);
void                mcp_stdio_transport_set_shutdown_grace    (McpStdioTransport  *self,
                                                               guint               grace_ms);
GPid                mcp_stdio_transport_get_pid               (McpStdioTransport  *self);
char               *mcp_stdio_transport_dup_stderr_tail       (McpStdioTransport  *self,
                                                               guint               max_lines);
char              **mcp_stdio_transport_dup_environment       (McpStdioTransport  *self);
guint               mcp_stdio_transport_get_n_dropped         (McpStdioTransport  *self);

gboolean            mcp_stdio_transport_is_locale_variable    (const char         *name);

G_END_DECLS

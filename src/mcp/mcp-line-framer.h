/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define MCP_DEFAULT_MAX_MESSAGE_SIZE (10 * 1024 * 1024)

typedef struct _McpLineFramer McpLineFramer;

/**
 * McpLineFunc:
 * @line: the line without its newline (and without a trailing CR); not
 *   nul-terminated, valid only during the call
 * @length: its length in bytes, never 0 (empty lines are skipped)
 *
 * Called once per complete line, in order.
 */
typedef void (*McpLineFunc) (const char *line,
                             gsize       length,
                             gpointer    user_data);

McpLineFramer *mcp_line_framer_new           (gsize           max_line);
void           mcp_line_framer_free          (McpLineFramer  *self);
gboolean       mcp_line_framer_push          (McpLineFramer  *self,
                                              const char     *data,
                                              gsize           length,
                                              McpLineFunc     func,
                                              gpointer        user_data,
                                              GError        **error);
gsize          mcp_line_framer_get_buffered  (McpLineFramer  *self);
gsize          mcp_line_framer_get_max_line  (McpLineFramer  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (McpLineFramer, mcp_line_framer_free)

G_END_DECLS

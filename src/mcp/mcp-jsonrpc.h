/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-message.h"

G_BEGIN_DECLS

/* json-glib 1.6 recurses once per nesting level and crashes on deep input,
 * so depth is checked on the raw bytes before json-glib sees them. */
#define MCP_JSONRPC_MAX_DEPTH 64

gboolean   mcp_jsonrpc_check_text   (const char  *data,
                                     gsize        length,
                                     guint        max_depth,
                                     GError     **error);
GPtrArray *mcp_jsonrpc_decode       (const char  *data,
                                     gsize        length,
                                     gboolean     allow_batch,
                                     guint       *n_invalid,
                                     GError     **error);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-json.h"
#include "mcp-message.h"

G_BEGIN_DECLS

#define MCP_JSONRPC_MAX_DEPTH MCP_JSON_MAX_DEPTH

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

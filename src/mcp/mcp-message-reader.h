/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "mcp-message.h"

G_BEGIN_DECLS

/* Texts larger than this are checked and parsed on a worker thread. */
#define MCP_MESSAGE_READER_INLINE_LIMIT (64 * 1024)

/* More invalid texts than this within the window mark the peer misbehaving. */
#define MCP_MESSAGE_READER_INVALID_LIMIT     100
#define MCP_MESSAGE_READER_INVALID_WINDOW_US (10 * G_USEC_PER_SEC)

#define MCP_TYPE_MESSAGE_READER (mcp_message_reader_get_type ())

G_DECLARE_FINAL_TYPE (McpMessageReader, mcp_message_reader, MCP, MESSAGE_READER, GObject)

McpMessageReader *mcp_message_reader_new                (void);
void              mcp_message_reader_set_allow_batches  (McpMessageReader *self,
                                                         gboolean          allow_batches);
void              mcp_message_reader_push               (McpMessageReader *self,
                                                         const char       *text,
                                                         gsize             length);
void              mcp_message_reader_push_bytes         (McpMessageReader *self,
                                                         GBytes           *text);
guint             mcp_message_reader_get_n_invalid      (McpMessageReader *self);
guint             mcp_message_reader_get_n_pending      (McpMessageReader *self);

G_END_DECLS

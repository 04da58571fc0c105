/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * McpSseEvent:
 * @type: the event type ("message" when the stream named none)
 * @data: the data lines joined with "\n"; never empty (an event without data
 *   is not dispatched), nul-terminated, but it may hold NUL bytes and
 *   invalid UTF-8 as the server sent them
 * @data_length: its length in bytes, never 0
 * @id: (nullable): the last event id of the stream after this event, as the
 *   WHATWG algorithm keeps it (it persists across events until changed)
 *
 * One dispatched event, valid only during the callback.
 */
typedef struct {
  const char *type;
  const char *data;
  gsize       data_length;
  const char *id;
} McpSseEvent;

/* How far mcp_sse_parser_get_buffered() may be above the cap: a field name
 * or the start of a BOM, held while it is not yet known what they are. */
#define MCP_SSE_PARSER_SLACK 8

typedef void (*McpSseEventFunc) (const McpSseEvent *event,
                                 gpointer           user_data);

typedef struct _McpSseParser McpSseParser;

McpSseParser *mcp_sse_parser_new             (gsize            max_event_size);
void          mcp_sse_parser_free            (McpSseParser    *self);
gboolean      mcp_sse_parser_push            (McpSseParser    *self,
                                              const char      *data,
                                              gsize            length,
                                              McpSseEventFunc  func,
                                              gpointer         user_data,
                                              GError         **error);
void          mcp_sse_parser_finish          (McpSseParser    *self);
const char   *mcp_sse_parser_get_last_id     (McpSseParser    *self);
gint64        mcp_sse_parser_get_retry       (McpSseParser    *self);
gsize         mcp_sse_parser_get_buffered    (McpSseParser    *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (McpSseParser, mcp_sse_parser_free)

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "mcp-message.h"

G_BEGIN_DECLS

/*
 * The one-line summaries of protocol messages in the log, which name what
 * a request is about and what a result answers:
 *
 *   tools/call “echo” id 8
 *   result id 8 for tools/call “echo”
 *   error id 8 for tools/call “echo”: Unknown tool
 *
 * A request names its tool or prompt ("name"), or its resource ("uri");
 * the names are remembered per connection until the answer passes, so a
 * server that never answers cannot make them grow without bound.
 */

typedef struct _StewardTraceNames StewardTraceNames;

StewardTraceNames *steward_trace_names_new       (void);
void               steward_trace_names_free      (StewardTraceNames *self);
/* Forgets every request, as a new connection numbers them again. */
void               steward_trace_names_reset     (StewardTraceNames *self);
/* @outgoing: Steward sent @message. */
char              *steward_trace_names_summarize (StewardTraceNames *self,
                                                  McpMessage        *message,
                                                  gboolean           outgoing);
/* The same, written at the end of @text. */
void               steward_trace_names_append_summary (StewardTraceNames *self,
                                                       McpMessage        *message,
                                                       gboolean           outgoing,
                                                       GString           *text);

/* The id in a summary this module wrote, and whether it is of an answer
 * (result or error) rather than a request; NULL for notifications and
 * other text. */
char              *steward_trace_summary_get_id  (const char        *summary,
                                                  gboolean          *answer);

/* @value in decimal into @buffer, NUL-terminated; returns its length.
 * Every message's id passes here, where g_snprintf() costs far more. */
gsize              steward_trace_format_int64    (gint64             value,
                                                  char               buffer[24]);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StewardTraceNames, steward_trace_names_free)

G_END_DECLS

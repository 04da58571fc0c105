/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fuzz-sse-parser"

#include "config.h"

#include <stdint.h>
#include <string.h>

#include "mcp-error.h"
#include "mcp-sse-parser.h"

/*
 * Input layout:
 *   byte 0-1  the cap, 1 + (big-endian value % 512); small caps make the
 *             limit reachable in short inputs
 *   byte 2    k, how many chunk sizes follow
 *   k bytes   chunk sizes, used in turn (0 is a legal empty push)
 *   the rest  the stream
 *
 * The stream is pushed in those chunks, and again in one piece into a second
 * parser: both must dispatch the same events, fail or not alike, and end
 * with the same last event id and retry time. Then both are told the stream
 * ended and are fed it once more in one piece, as after a reconnection.
 */

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

typedef struct {
  McpSseParser *parser;
  GByteArray   *events; /* each field preceded by its length */
} Events;

static void
append_field (GByteArray *out,
              const char *bytes,
              gsize       length)
{
  g_byte_array_append (out, (const guint8 *) &length, sizeof length);
  g_byte_array_append (out, (const guint8 *) bytes, length);
}

static void
event_cb (const McpSseEvent *event,
          gpointer           user_data)
{
  Events *e = user_data;
  const char *last_id = mcp_sse_parser_get_last_id (e->parser);

  g_assert (event->type != NULL);
  g_assert (event->data != NULL);
  g_assert (event->data_length > 0);
  g_assert (event->data[event->data_length] == '\0');
  g_assert (memchr (event->data, '\r', event->data_length) == NULL);
  g_assert ((event->id == NULL) == (last_id == NULL));
  g_assert (event->id == NULL || strcmp (event->id, last_id) == 0);
  g_assert (event->id == NULL || strchr (event->id, '\r') == NULL);
  g_assert (strchr (event->type, '\r') == NULL && strchr (event->type, '\n') == NULL);

  append_field (e->events, event->type, strlen (event->type));
  append_field (e->events, event->data, event->data_length);
  /* A marker tells a missing id from an empty one. */
  g_byte_array_append (e->events, (const guint8 *) (event->id != NULL ? "i" : "n"), 1);
  if (event->id != NULL)
    append_field (e->events, event->id, strlen (event->id));
}

static gboolean
push (McpSseParser  *parser,
      const uint8_t *bytes,
      gsize          length,
      gsize          cap,
      Events        *events,
      GError       **error)
{
  gboolean ok = mcp_sse_parser_push (parser, (const char *) bytes, length, event_cb, events,
                                     error);

  g_assert (ok == (*error == NULL));
  if (!ok)
    g_assert (g_error_matches (*error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE));
  g_assert (mcp_sse_parser_get_buffered (parser) <= cap + MCP_SSE_PARSER_SLACK);

  return ok;
}

static void
assert_same_state (McpSseParser *a,
                   McpSseParser *b,
                   Events       *ea,
                   Events       *eb)
{
  const char *id_a = mcp_sse_parser_get_last_id (a);
  const char *id_b = mcp_sse_parser_get_last_id (b);

  g_assert (ea->events->len == eb->events->len);
  g_assert (ea->events->len == 0 ||
            memcmp (ea->events->data, eb->events->data, ea->events->len) == 0);
  g_assert ((id_a == NULL) == (id_b == NULL));
  g_assert (id_a == NULL || strcmp (id_a, id_b) == 0);
  g_assert (mcp_sse_parser_get_retry (a) == mcp_sse_parser_get_retry (b));
  g_assert (mcp_sse_parser_get_retry (a) >= -1);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(McpSseParser) chunked = NULL;
  g_autoptr(McpSseParser) whole = NULL;
  g_autoptr(GError) chunked_error = NULL;
  g_autoptr(GError) whole_error = NULL;
  Events a = { NULL, NULL };
  Events b = { NULL, NULL };
  const uint8_t *sizes;
  const uint8_t *stream;
  gsize cap, n_sizes, length, pos = 0;
  gboolean chunked_ok = TRUE;
  gboolean whole_ok;

  if (size < 3)
    return 0;

  cap = 1 + (((gsize) data[0] << 8 | data[1]) % 512);
  n_sizes = MIN ((gsize) data[2], size - 3);
  sizes = data + 3;
  stream = sizes + n_sizes;
  length = size - 3 - n_sizes;

  chunked = mcp_sse_parser_new (cap);
  whole = mcp_sse_parser_new (cap);
  a.parser = chunked;
  a.events = g_byte_array_new ();
  b.parser = whole;
  b.events = g_byte_array_new ();

  for (gsize i = 0; chunked_ok && pos < length; i++)
    {
      gsize n = n_sizes > 0 ? sizes[i % n_sizes] : length;

      /* When every size is zero the stream would never move: after one
       * round of them, push the rest at once. */
      if (n_sizes > 0 && i >= n_sizes && i % n_sizes == 0 && pos == 0)
        n = length;
      n = MIN (n, length - pos);

      chunked_ok = push (chunked, stream + pos, n, cap, &a, &chunked_error);
      pos += n;
    }

  whole_ok = push (whole, stream, length, cap, &b, &whole_error);

  g_assert (chunked_ok == whole_ok);
  assert_same_state (chunked, whole, &a, &b);
  if (whole_ok)
    g_assert (mcp_sse_parser_get_buffered (chunked) == mcp_sse_parser_get_buffered (whole));

  mcp_sse_parser_finish (chunked);
  mcp_sse_parser_finish (whole);
  assert_same_state (chunked, whole, &a, &b);

  if (whole_ok)
    {
      g_clear_error (&chunked_error);
      g_clear_error (&whole_error);
      chunked_ok = push (chunked, stream, length, cap, &a, &chunked_error);
      whole_ok = push (whole, stream, length, cap, &b, &whole_error);
      g_assert (chunked_ok == whole_ok);
      assert_same_state (chunked, whole, &a, &b);
    }
  else
    {
      /* A failed parser stays failed and dispatches nothing more. */
      guint before = a.events->len;

      g_clear_error (&chunked_error);
      g_assert (!push (chunked, (const uint8_t *) "data: x\n\n", 9, cap, &a, &chunked_error));
      g_assert (a.events->len == before);
    }

  g_byte_array_unref (a.events);
  g_byte_array_unref (b.events);

  return 0;
}

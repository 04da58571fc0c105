/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fuzz-line-framer"

#include "config.h"

#include <stdint.h>
#include <string.h>

#include "mcp-error.h"
#include "mcp-line-framer.h"

/*
 * Input layout:
 *   byte 0-1  the cap, 1 + (big-endian value % 512); small caps make the
 *             limit reachable in short inputs
 *   byte 2    k, how many chunk sizes follow
 *   k bytes   chunk sizes, used in turn (0 is a legal empty push)
 *   the rest  the stream
 *
 * The stream is pushed in those chunks, and again in one piece into a second
 * framer: both must deliver the same lines and fail, or not, alike.
 */

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

typedef struct {
  GByteArray *lines; /* each line preceded by its length */
  guint       count;
  gsize       cap;
} Lines;

static void
line_cb (const char *line,
         gsize       length,
         gpointer    user_data)
{
  Lines *l = user_data;

  g_assert (length > 0);
  g_assert (length <= l->cap);
  g_assert (memchr (line, '\n', length) == NULL);

  g_byte_array_append (l->lines, (const guint8 *) &length, sizeof length);
  g_byte_array_append (l->lines, (const guint8 *) line, length);
  l->count++;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(McpLineFramer) chunked = NULL;
  g_autoptr(McpLineFramer) whole = NULL;
  g_autoptr(GError) chunked_error = NULL;
  g_autoptr(GError) whole_error = NULL;
  Lines a = { NULL, 0, 0 };
  Lines b = { NULL, 0, 0 };
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

  chunked = mcp_line_framer_new (cap);
  whole = mcp_line_framer_new (cap);
  g_assert (mcp_line_framer_get_max_line (chunked) == cap);

  a.lines = g_byte_array_new ();
  a.cap = cap;
  b.lines = g_byte_array_new ();
  b.cap = cap;

  for (gsize i = 0; chunked_ok && pos < length; i++)
    {
      gsize n = n_sizes > 0 ? sizes[i % n_sizes] : length;

      /* When every size is zero the stream would never move: after one
       * round of them, push the rest at once. */
      if (n_sizes > 0 && i >= n_sizes && i % n_sizes == 0 && pos == 0)
        n = length;
      n = MIN (n, length - pos);

      chunked_ok = mcp_line_framer_push (chunked, (const char *) stream + pos, n,
                                         line_cb, &a, &chunked_error);
      g_assert (chunked_ok == (chunked_error == NULL));
      if (!chunked_ok)
        g_assert (g_error_matches (chunked_error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE));
      g_assert (mcp_line_framer_get_buffered (chunked) <= cap);
      pos += n;
    }

  whole_ok = mcp_line_framer_push (whole, (const char *) stream, length,
                                   line_cb, &b, &whole_error);
  g_assert (whole_ok == (whole_error == NULL));
  g_assert (mcp_line_framer_get_buffered (whole) <= cap);

  g_assert (chunked_ok == whole_ok);
  g_assert (a.count == b.count);
  g_assert (a.lines->len == b.lines->len);
  g_assert (a.lines->len == 0 || memcmp (a.lines->data, b.lines->data, a.lines->len) == 0);
  if (whole_ok)
    g_assert (mcp_line_framer_get_buffered (chunked) == mcp_line_framer_get_buffered (whole));

  g_byte_array_unref (a.lines);
  g_byte_array_unref (b.lines);

  return 0;
}

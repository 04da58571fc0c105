/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-line-framer"

#include "config.h"

#include <string.h>

#include "mcp-error.h"
#include "mcp-line-framer.h"

/* A stream with the shapes a server really writes: plain lines, CRLF, empty
 * lines between messages, a CR inside a line, a NUL byte inside a line and a
 * multi-byte UTF-8 character that a chunk boundary can split in two. */
static const char corpus[] =
  "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n"
  "\n"
  "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\r\n"
  "\r\n"
  "\n\n"
  "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"result\":{\"text\":\"caf\xc3\xa9 \xe2\x9c\x93\"}}\n"
  "a\rb\n"
  "x\0y\n"
  "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"bad\"}}\r\n"
  "z\n";

static const char *const corpus_lines[] = {
  "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}",
  "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}",
  "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"result\":{\"text\":\"caf\xc3\xa9 \xe2\x9c\x93\"}}",
  "a\rb",
  "x", /* followed by a NUL and "y": see expected_lines () */
  "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"bad\"}}",
  "z",
};

typedef struct {
  GPtrArray *lines;
  gsize      max_length;
} Collector;

static void
collector_init (Collector *c)
{
  c->lines = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  c->max_length = 0;
}

static void
collector_clear (Collector *c)
{
  g_clear_pointer (&c->lines, g_ptr_array_unref);
}

static void
collect_line_cb (const char *line,
                 gsize       length,
                 gpointer    user_data)
{
  Collector *c = user_data;

  g_assert_nonnull (line);
  g_assert_cmpuint (length, >, 0);
  g_assert_null (memchr (line, '\n', length));
  g_assert_false (line[length - 1] == '\r');

  c->max_length = MAX (c->max_length, length);
  g_ptr_array_add (c->lines, g_bytes_new (line, length));
}

static GPtrArray *
expected_lines (void)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  for (guint i = 0; i < G_N_ELEMENTS (corpus_lines); i++)
    {
      if (strcmp (corpus_lines[i], "x") == 0)
        g_ptr_array_add (lines, g_bytes_new ("x\0y", 3));
      else
        g_ptr_array_add (lines, g_bytes_new (corpus_lines[i], strlen (corpus_lines[i])));
    }

  return lines;
}

static void
assert_same_lines (GPtrArray *expected,
                   GPtrArray *actual)
{
  g_assert_cmpuint (actual->len, ==, expected->len);

  for (guint i = 0; i < expected->len; i++)
    {
      gsize a_len, e_len;
      const char *a = g_bytes_get_data (actual->pdata[i], &a_len);
      const char *e = g_bytes_get_data (expected->pdata[i], &e_len);

      g_assert_cmpmem (a, a_len, e, e_len);
    }
}

/* Pushes @data cut at the given offsets (ascending, each inside the data) and
 * checks the buffer never grows past the cap on the way. */
static void
push_split (const char  *data,
            gsize        length,
            const gsize *cuts,
            guint        n_cuts,
            Collector   *c)
{
  g_autoptr(McpLineFramer) framer = mcp_line_framer_new (4096);
  g_autoptr(GError) error = NULL;
  gsize start = 0;

  for (guint i = 0; i <= n_cuts; i++)
    {
      gsize end = i < n_cuts ? cuts[i] : length;
      gboolean ok;

      ok = mcp_line_framer_push (framer, data + start, end - start,
                                 collect_line_cb, c, &error);
      g_assert_no_error (error);
      g_assert_true (ok);
      g_assert_cmpuint (mcp_line_framer_get_buffered (framer), <=, 4096);
      start = end;
    }

  /* The corpus ends with a newline, so nothing may be left behind. */
  g_assert_cmpuint (mcp_line_framer_get_buffered (framer), ==, 0);
}

static void
test_whole (void)
{
  g_autoptr(GPtrArray) expected = expected_lines ();
  Collector c;

  collector_init (&c);
  push_split (corpus, sizeof corpus - 1, NULL, 0, &c);
  assert_same_lines (expected, c.lines);
  collector_clear (&c);
}

static void
test_every_split (void)
{
  g_autoptr(GPtrArray) expected = expected_lines ();
  gsize length = sizeof corpus - 1;

  for (gsize cut = 0; cut <= length; cut++)
    {
      Collector c;

      collector_init (&c);
      push_split (corpus, length, &cut, 1, &c);
      assert_same_lines (expected, c.lines);
      collector_clear (&c);
    }
}

static void
test_every_split_pair (void)
{
  g_autoptr(GPtrArray) expected = expected_lines ();
  gsize length = sizeof corpus - 1;

  for (gsize first = 0; first <= length; first++)
    {
      for (gsize second = first; second <= length; second++)
        {
          gsize cuts[2] = { first, second };
          Collector c;

          collector_init (&c);
          push_split (corpus, length, cuts, 2, &c);
          assert_same_lines (expected, c.lines);
          collector_clear (&c);
        }
    }
}

static void
test_single_bytes (void)
{
  g_autoptr(GPtrArray) expected = expected_lines ();
  g_autofree gsize *cuts = NULL;
  gsize length = sizeof corpus - 1;
  Collector c;

  cuts = g_new (gsize, length - 1);
  for (gsize i = 0; i < length - 1; i++)
    cuts[i] = i + 1;

  collector_init (&c);
  push_split (corpus, length, cuts, length - 1, &c);
  assert_same_lines (expected, c.lines);
  collector_clear (&c);
}

static void
test_random_chunks (void)
{
  g_autoptr(GPtrArray) expected = expected_lines ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (20260728);
  gsize length = sizeof corpus - 1;

  for (guint round = 0; round < 2000; round++)
    {
      g_autoptr(GArray) cuts = g_array_new (FALSE, FALSE, sizeof (gsize));
      gsize pos = 0;
      Collector c;

      for (;;)
        {
          pos += g_rand_int_range (rand, 1, 40);
          if (pos >= length)
            break;
          g_array_append_val (cuts, pos);
        }

      collector_init (&c);
      push_split (corpus, length, (gsize *) (gpointer) cuts->data, cuts->len, &c);
      assert_same_lines (expected, c.lines);
      collector_clear (&c);
    }
}

static void
test_partial_line_is_kept (void)
{
  g_autoptr(McpLineFramer) framer = mcp_line_framer_new (64);
  g_autoptr(GError) error = NULL;
  Collector c;

  collector_init (&c);

  g_assert_true (mcp_line_framer_push (framer, "one\ntw", 6, collect_line_cb, &c, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (c.lines->len, ==, 1);
  g_assert_cmpuint (mcp_line_framer_get_buffered (framer), ==, 2);

  /* A CR at the end of a chunk may be the first half of a CRLF. */
  g_assert_true (mcp_line_framer_push (framer, "o\r", 2, collect_line_cb, &c, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (c.lines->len, ==, 1);

  g_assert_true (mcp_line_framer_push (framer, "\n", 1, collect_line_cb, &c, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (c.lines->len, ==, 2);
  g_assert_cmpmem (g_bytes_get_data (c.lines->pdata[1], NULL),
                   g_bytes_get_size (c.lines->pdata[1]), "two", 3);
  g_assert_cmpuint (mcp_line_framer_get_buffered (framer), ==, 0);

  collector_clear (&c);
}

static void
test_empty_lines_skipped (void)
{
  g_autoptr(McpLineFramer) framer = mcp_line_framer_new (64);
  g_autoptr(GError) error = NULL;
  const char only_empty[] = "\n\r\n\n\r\n\n";
  Collector c;

  collector_init (&c);
  g_assert_true (mcp_line_framer_push (framer, only_empty, sizeof only_empty - 1,
                                       collect_line_cb, &c, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (c.lines->len, ==, 0);
  g_assert_cmpuint (mcp_line_framer_get_buffered (framer), ==, 0);
  collector_clear (&c);
}

static void
test_max_line_getter (void)
{
  g_autoptr(McpLineFramer) framer = mcp_line_framer_new (1234);
  g_autoptr(McpLineFramer) stock = mcp_line_framer_new (MCP_DEFAULT_MAX_MESSAGE_SIZE);

  g_assert_cmpuint (mcp_line_framer_get_max_line (framer), ==, 1234);
  g_assert_cmpuint (mcp_line_framer_get_max_line (stock), ==, MCP_DEFAULT_MAX_MESSAGE_SIZE);
  g_assert_cmpuint (mcp_line_framer_get_buffered (framer), ==, 0);
}

#define CAP 1000

static void
test_cap_exact_passes (void)
{
  g_autoptr(McpLineFramer) framer = mcp_line_framer_new (CAP);
  g_autoptr(GError) error = NULL;
  g_autofree char *line = g_malloc (CAP + 1);
  Collector c;

  memset (line, 'a', CAP);
  line[CAP] = '\n';
  collector_init (&c);

  /* In one push... */
  g_assert_true (mcp_line_framer_push (framer, line, CAP + 1, collect_line_cb, &c, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (c.lines->len, ==, 1);
  g_assert_cmpuint (c.max_length, ==, CAP);

  /* ...and with the whole line buffered before its newline arrives. */
  g_assert_true (mcp_line_framer_push (framer, line, CAP, collect_line_cb, &c, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (mcp_line_framer_get_buffered (framer), ==, CAP);
  g_assert_true (mcp_line_framer_push (framer, "\n", 1, collect_line_cb, &c, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (c.lines->len, ==, 2);
  g_assert_cmpuint (mcp_line_framer_get_buffered (framer), ==, 0);

  collector_clear (&c);
}

static void
test_cap_plus_one_in_one_push (void)
{
  g_autoptr(McpLineFramer) framer = mcp_line_framer_new (CAP);
  g_autoptr(GError) error = NULL;
  g_autofree char *line = g_malloc (CAP + 2);
  Collector c;

  memset (line, 'a', CAP + 1);
  line[CAP + 1] = '\n';
  collector_init (&c);

  g_assert_false (mcp_line_framer_push (framer, line, CAP + 2, collect_line_cb, &c, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE);
  g_assert_cmpuint (c.lines->len, ==, 0);
  g_assert_cmpuint (mcp_line_framer_get_buffered (framer), <=, CAP);

  collector_clear (&c);
}

static void
test_cap_fails_before_newline (void)
{
  g_autoptr(McpLineFramer) framer = mcp_line_framer_new (CAP);
  g_autoptr(GError) error = NULL;
  char chunk[100];
  Collector c;

  memset (chunk, 'b', sizeof chunk);
  collector_init (&c);

  /* A complete line first, so the cap is on the current line only. */
  g_assert_true (mcp_line_framer_push (framer, "ok\n", 3, collect_line_cb, &c, &error));

  for (guint i = 0; i < CAP / sizeof chunk; i++)
    {
      g_assert_true (mcp_line_framer_push (framer, chunk, sizeof chunk,
                                           collect_line_cb, &c, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (mcp_line_framer_get_buffered (framer), ==, (i + 1) * sizeof chunk);
    }

  /* Exactly at the cap with no newline yet: still fine. One more byte and
   * the line can no longer fit, whatever comes after it. */
  g_assert_cmpuint (mcp_line_framer_get_buffered (framer), ==, CAP);
  g_assert_false (mcp_line_framer_push (framer, "b", 1, collect_line_cb, &c, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE);
  g_assert_cmpuint (mcp_line_framer_get_buffered (framer), <=, CAP);
  g_assert_cmpuint (c.lines->len, ==, 1);

  collector_clear (&c);
}

static void
test_cap_huge_chunk (void)
{
  g_autoptr(McpLineFramer) framer = mcp_line_framer_new (CAP);
  g_autoptr(GError) error = NULL;
  gsize huge = 1024 * 1024;
  g_autofree char *data = g_malloc (huge);
  Collector c;

  /* A megabyte without a newline must fail in the push that carries it, not
   * be copied in whole first. */
  memset (data, 'c', huge);
  collector_init (&c);
  g_assert_false (mcp_line_framer_push (framer, data, huge, collect_line_cb, &c, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE);
  g_assert_cmpuint (mcp_line_framer_get_buffered (framer), <=, CAP);
  collector_clear (&c);
}

static void
test_cap_lines_around_it (void)
{
  g_autoptr(McpLineFramer) framer = mcp_line_framer_new (CAP);
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) stream = g_string_new (NULL);
  Collector c;

  /* Many lines of lengths up to the cap, pushed in odd-sized chunks: all
   * pass, and the buffer stays within the cap throughout. */
  for (guint n = CAP - 50; n <= CAP; n++)
    {
      for (guint i = 0; i < n; i++)
        g_string_append_c (stream, 'a' + n % 26);
      g_string_append_c (stream, '\n');
    }

  collector_init (&c);
  for (gsize pos = 0; pos < stream->len; pos += 333)
    {
      gsize n = MIN (333, stream->len - pos);

      g_assert_true (mcp_line_framer_push (framer, stream->str + pos, n,
                                           collect_line_cb, &c, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (mcp_line_framer_get_buffered (framer), <=, CAP);
    }

  g_assert_cmpuint (c.lines->len, ==, 51);
  g_assert_cmpuint (c.max_length, ==, CAP);
  for (guint i = 0; i < c.lines->len; i++)
    g_assert_cmpuint (g_bytes_get_size (c.lines->pdata[i]), ==, CAP - 50 + i);

  collector_clear (&c);
}

/* Where the chunks happen to be cut must not change the outcome, even for a
 * line that only fits the cap once its CR is stripped. */
static void
test_cap_with_crlf_any_split (void)
{
  char data[CAP + 2];
  gboolean whole_ok = FALSE;
  guint whole_lines = 0;

  memset (data, 'd', CAP);
  data[CAP] = '\r';
  data[CAP + 1] = '\n';

  for (gsize cut = 0; cut <= sizeof data; cut++)
    {
      g_autoptr(McpLineFramer) framer = mcp_line_framer_new (CAP);
      g_autoptr(GError) error = NULL;
      gboolean ok;
      Collector c;

      collector_init (&c);
      /* Not even a CR that may turn out to end the line can take the
       * buffer past the cap. */
      ok = mcp_line_framer_push (framer, data, cut, collect_line_cb, &c, &error);
      g_assert_cmpuint (mcp_line_framer_get_buffered (framer), <=, CAP);
      if (ok)
        ok = mcp_line_framer_push (framer, data + cut, sizeof data - cut,
                                   collect_line_cb, &c, &error);
      g_assert_true (ok == (error == NULL));
      g_assert_cmpuint (mcp_line_framer_get_buffered (framer), <=, CAP);

      if (cut == 0)
        {
          whole_ok = ok;
          whole_lines = c.lines->len;
        }
      else
        {
          g_assert_cmpint (ok, ==, whole_ok);
          g_assert_cmpuint (c.lines->len, ==, whole_lines);
        }

      collector_clear (&c);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/steward/line-framer/whole", test_whole);
  g_test_add_func ("/steward/line-framer/every-split", test_every_split);
  g_test_add_func ("/steward/line-framer/every-split-pair", test_every_split_pair);
  g_test_add_func ("/steward/line-framer/single-bytes", test_single_bytes);
  g_test_add_func ("/steward/line-framer/random-chunks", test_random_chunks);
  g_test_add_func ("/steward/line-framer/partial-line-kept", test_partial_line_is_kept);
  g_test_add_func ("/steward/line-framer/empty-lines-skipped", test_empty_lines_skipped);
  g_test_add_func ("/steward/line-framer/max-line", test_max_line_getter);
  g_test_add_func ("/steward/line-framer/cap-exact", test_cap_exact_passes);
  g_test_add_func ("/steward/line-framer/cap-plus-one", test_cap_plus_one_in_one_push);
  g_test_add_func ("/steward/line-framer/cap-before-newline", test_cap_fails_before_newline);
  g_test_add_func ("/steward/line-framer/cap-huge-chunk", test_cap_huge_chunk);
  g_test_add_func ("/steward/line-framer/cap-lines-around", test_cap_lines_around_it);
  g_test_add_func ("/steward/line-framer/cap-crlf-any-split", test_cap_with_crlf_any_split);

  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-sse-parser"

#include "config.h"

#include <string.h>

#include "mcp-error.h"
#include "mcp-line-framer.h"
#include "mcp-sse-parser.h"

/* Events are written down as one line each, "type|id|data", with the id
 * "(null)" when none was set and every byte outside printable ASCII (and
 * '|' and '\\') escaped, so a whole parse compares as one string and a
 * failing test prints what differs. */
static void
append_escaped (GString    *out,
                const char *bytes,
                gsize       length)
{
  for (gsize i = 0; i < length; i++)
    {
      guchar c = bytes[i];

      if (c == '\n')
        g_string_append (out, "\\n");
      else if (c < 0x20 || c > 0x7e || c == '|' || c == '\\')
        g_string_append_printf (out, "\\x%02x", c);
      else
        g_string_append_c (out, c);
    }
}

static void
collect_cb (const McpSseEvent *event,
            gpointer           user_data)
{
  GString *out = user_data;

  g_assert_nonnull (event->type);
  g_assert_nonnull (event->data);
  g_assert_cmpuint (event->data_length, >, 0);
  g_assert_cmpint (event->data[event->data_length], ==, '\0');
  g_assert_null (memchr (event->data, '\r', event->data_length));

  append_escaped (out, event->type, strlen (event->type));
  g_string_append_c (out, '|');
  if (event->id != NULL)
    append_escaped (out, event->id, strlen (event->id));
  else
    g_string_append (out, "(null)");
  g_string_append_c (out, '|');
  append_escaped (out, event->data, event->data_length);
  g_string_append_c (out, '\n');
}

static void
append_state (GString      *out,
              McpSseParser *parser)
{
  const char *id = mcp_sse_parser_get_last_id (parser);

  g_string_append (out, "last-id=");
  if (id != NULL)
    append_escaped (out, id, strlen (id));
  else
    g_string_append (out, "(null)");
  g_string_append_printf (out, " retry=%" G_GINT64_FORMAT, mcp_sse_parser_get_retry (parser));
}

/* Parses @stream cut at @cuts (ascending offsets inside it), ends it, and
 * returns the events and the final state. A failure is written down too, so
 * that streams past a small cap compare as well. */
static char *
parse_cut (const char  *stream,
           gsize        length,
           gsize        max,
           const gsize *cuts,
           guint        n_cuts)
{
  g_autoptr(McpSseParser) parser = mcp_sse_parser_new (max);
  GString *out = g_string_new (NULL);
  gsize start = 0;

  for (guint i = 0; i <= n_cuts; i++)
    {
      g_autoptr(GError) error = NULL;
      gsize end = i < n_cuts ? cuts[i] : length;
      gboolean ok;

      ok = mcp_sse_parser_push (parser, stream + start, end - start, collect_cb, out, &error);
      g_assert_cmpuint (mcp_sse_parser_get_buffered (parser), <=,
                        (max > 0 ? max : MCP_DEFAULT_MAX_MESSAGE_SIZE) + MCP_SSE_PARSER_SLACK);
      g_assert_true (ok == (error == NULL));
      if (!ok)
        {
          g_assert_error (error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE);
          g_string_append_printf (out, "failed: %s\n", error->message);
          break;
        }
      start = end;
    }

  mcp_sse_parser_finish (parser);
  append_state (out, parser);

  return g_string_free (out, FALSE);
}

static char *
parse_whole (const char *stream,
             gsize       length,
             gsize       max)
{
  return parse_cut (stream, length, max, NULL, 0);
}

static char *
parse_single_bytes (const char *stream,
                    gsize       length,
                    gsize       max)
{
  g_autofree gsize *cuts = g_new (gsize, length + 1);

  for (gsize i = 0; i + 1 < length; i++)
    cuts[i] = i + 1;

  return parse_cut (stream, length, max, cuts, length > 0 ? length - 1 : 0);
}

/* Checks that @stream gives @events and the final state, in one piece, at
 * every single split point and one byte at a time. */
static void
check_stream (const char *stream,
              gsize       length,
              const char *events,
              const char *last_id,
              gint64      retry)
{
  g_autofree char *whole = parse_whole (stream, length, 0);
  g_autofree char *bytes = parse_single_bytes (stream, length, 0);
  g_autoptr(GString) expected = g_string_new (events);

  g_string_append_printf (expected, "last-id=%s retry=%" G_GINT64_FORMAT,
                          last_id != NULL ? last_id : "(null)", retry);
  g_assert_cmpstr (whole, ==, expected->str);
  g_assert_cmpstr (bytes, ==, expected->str);

  for (gsize cut = 0; cut <= length; cut++)
    {
      g_autofree char *split = parse_cut (stream, length, 0, &cut, 1);

      g_assert_cmpstr (split, ==, expected->str);
    }
}

#define CHECK(stream, events, last_id, retry) \
  check_stream ((stream), sizeof (stream) - 1, (events), (last_id), (retry))

static void
test_lf (void)
{
  CHECK ("data: one\n\ndata: two\n\n", "message|(null)|one\nmessage|(null)|two\n", NULL, -1);
}

static void
test_cr (void)
{
  CHECK ("data: one\r\rdata: two\r\r", "message|(null)|one\nmessage|(null)|two\n", NULL, -1);
}

static void
test_crlf (void)
{
  CHECK ("data: one\r\n\r\ndata: two\r\n\r\n",
         "message|(null)|one\nmessage|(null)|two\n", NULL, -1);
}

static void
test_mixed_line_ends (void)
{
  /* LF then CR is two line ends, not one. */
  CHECK ("data: a\rdata: b\ndata: c\r\n\n\rdata: d\r\r\ndata: e\n\r",
         "message|(null)|a\\nb\\nc\nmessage|(null)|d\nmessage|(null)|e\n", NULL, -1);
}

static void
test_crlf_split (void)
{
  g_autoptr(McpSseParser) parser = mcp_sse_parser_new (0);
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  /* Taken as two line ends, the LF would end the event after "a". */
  g_assert_true (mcp_sse_parser_push (parser, "data: a\r", 8, collect_cb, out, &error));
  g_assert_no_error (error);
  g_assert_true (mcp_sse_parser_push (parser, "\n", 1, collect_cb, out, &error));
  g_assert_cmpstr (out->str, ==, "");
  g_assert_true (mcp_sse_parser_push (parser, "data: b\r", 8, collect_cb, out, &error));
  /* An empty push between the CR and its LF changes nothing. */
  g_assert_true (mcp_sse_parser_push (parser, "", 0, collect_cb, out, &error));
  g_assert_true (mcp_sse_parser_push (parser, "\n\r", 2, collect_cb, out, &error));
  g_assert_cmpstr (out->str, ==, "message|(null)|a\\nb\n");

  /* A CR ending a chunk and another CR starting the next are two. */
  g_assert_true (mcp_sse_parser_push (parser, "data: c\r", 8, collect_cb, out, &error));
  g_assert_true (mcp_sse_parser_push (parser, "\r", 1, collect_cb, out, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (out->str, ==, "message|(null)|a\\nb\nmessage|(null)|c\n");

  CHECK ("data: a\r\ndata: b\r\n\r\n", "message|(null)|a\\nb\n", NULL, -1);
}

static void
test_bom (void)
{
  CHECK ("\xef\xbb\xbf" "data: x\n\n", "message|(null)|x\n", NULL, -1);
  CHECK ("\xef\xbb\xbf" "\n" "data: x\n\n", "message|(null)|x\n", NULL, -1);

  /* Only once: a second BOM is part of a field name, which is then not
   * "data" any more. */
  CHECK ("\xef\xbb\xbf\xef\xbb\xbf" "data: x\n\ndata: y\n\n", "message|(null)|y\n", NULL, -1);

  /* Only at the very start. */
  CHECK ("data: x\n\n\xef\xbb\xbf" "data: y\n\n", "message|(null)|x\n", NULL, -1);

  /* The start of a BOM that does not complete is text. */
  CHECK ("\xef\xbb" "data: x\n\ndata: y\n\n", "message|(null)|y\n", NULL, -1);
  CHECK ("\xef" "\n" "data: y\n\n", "message|(null)|y\n", NULL, -1);
  CHECK ("\xef\xbb\xbe" "data: x\n\n", "", NULL, -1);
}

static void
test_bom_after_finish (void)
{
  g_autoptr(McpSseParser) parser = mcp_sse_parser_new (0);
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  /* The start of a BOM waits for the next byte, and is held meanwhile. */
  g_assert_true (mcp_sse_parser_push (parser, "\xef\xbb", 2, collect_cb, out, &error));
  g_assert_cmpuint (mcp_sse_parser_get_buffered (parser), ==, 2);
  g_assert_true (mcp_sse_parser_push (parser, "\xbf" "data: a\n\n", 10, collect_cb, out, &error));
  g_assert_cmpstr (out->str, ==, "message|(null)|a\n");

  /* A reconnection is a new stream, which may start with a BOM again. */
  mcp_sse_parser_finish (parser);
  g_assert_true (mcp_sse_parser_push (parser, "\xef\xbb\xbf" "data: b\n\n", 12,
                                      collect_cb, out, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (out->str, ==, "message|(null)|a\nmessage|(null)|b\n");
}

static void
test_comments (void)
{
  CHECK (": keep-alive\n\n:\n\n", "", NULL, -1);
  CHECK ("data: a\n: between the lines\ndata: b\n\n", "message|(null)|a\\nb\n", NULL, -1);
  CHECK (":data: x\n\n", "", NULL, -1);
  CHECK (":id: 1\n:retry: 10\n\n", "", NULL, -1);
}

static void
test_field_without_colon (void)
{
  /* A field with an empty value. */
  CHECK ("data\ndata\n\n", "message|(null)|\\n\n", NULL, -1);
  CHECK ("data: a\ndata\n\n", "message|(null)|a\\n\n", NULL, -1);
  CHECK ("event\ndata: x\n\n", "message|(null)|x\n", NULL, -1);
  CHECK ("id: 1\n\nid\n\n", "", "", -1);
  CHECK ("retry\n\n", "", NULL, -1);
  CHECK ("data", "", NULL, -1);
}

static void
test_space_after_colon (void)
{
  CHECK ("data:x\n\n", "message|(null)|x\n", NULL, -1);
  CHECK ("data: x\n\n", "message|(null)|x\n", NULL, -1);
  CHECK ("data:  x\n\n", "message|(null)| x\n", NULL, -1);
  CHECK ("data: x \n\n", "message|(null)|x \n", NULL, -1);
  CHECK ("data:\tx\n\n", "message|(null)|\\x09x\n", NULL, -1);
  CHECK ("data: \n\n", "", NULL, -1);
  CHECK ("data:  \n\n", "message|(null)| \n", NULL, -1);
  CHECK ("event:  spaced\ndata: x\n\n", " spaced|(null)|x\n", NULL, -1);
  CHECK ("id:  7\n\n", "", " 7", -1);
  /* The colons after the first are part of the value. */
  CHECK ("data: a: b:c\n\n", "message|(null)|a: b:c\n", NULL, -1);
}

static void
test_multiple_data_lines (void)
{
  CHECK ("data: a\ndata: b\ndata: c\n\n", "message|(null)|a\\nb\\nc\n", NULL, -1);
  CHECK ("data: a\ndata:\n\n", "message|(null)|a\\n\n", NULL, -1);
  CHECK ("data:\ndata: a\n\n", "message|(null)|\\na\n", NULL, -1);
  CHECK ("data: {\"a\":\ndata: 1}\n\n", "message|(null)|{\"a\":\\n1}\n", NULL, -1);
}

static void
test_event_types (void)
{
  CHECK ("event: endpoint\ndata: /messages?s=1\n\n", "endpoint|(null)|/messages?s=1\n", NULL, -1);
  /* The type does not outlive its event... */
  CHECK ("event: a\ndata: x\n\ndata: y\n\n", "a|(null)|x\nmessage|(null)|y\n", NULL, -1);
  /* ...even one that dispatched nothing. */
  CHECK ("event: a\n\ndata: y\n\n", "message|(null)|y\n", NULL, -1);
  CHECK ("event: a\ndata\n\ndata: y\n\n", "message|(null)|y\n", NULL, -1);
  CHECK ("event: a\nevent: b\ndata: x\n\n", "b|(null)|x\n", NULL, -1);
  CHECK ("event: a\nevent:\ndata: x\n\n", "message|(null)|x\n", NULL, -1);
  CHECK ("data: x\nevent: late\n\n", "late|(null)|x\n", NULL, -1);
  CHECK ("event: message\ndata: x\n\n", "message|(null)|x\n", NULL, -1);
}

static void
test_id_persists (void)
{
  CHECK ("id: 1\ndata: a\n\ndata: b\n\n", "message|1|a\nmessage|1|b\n", "1", -1);
  CHECK ("id: 1\ndata: a\n\nid: 2\ndata: b\n\ndata: c\n\n",
         "message|1|a\nmessage|2|b\nmessage|2|c\n", "2", -1);
  CHECK ("data: a\nid: 5\n\n", "message|5|a\n", "5", -1);
  CHECK ("id: 1\nid: 2\ndata: a\n\n", "message|2|a\n", "2", -1);
  CHECK ("data: a\n\n", "message|(null)|a\n", NULL, -1);
}

static void
test_id_reset (void)
{
  CHECK ("id: 1\ndata: a\n\nid\ndata: b\n\n", "message|1|a\nmessage||b\n", "", -1);
  CHECK ("id: 1\ndata: a\n\nid:\ndata: b\n\n", "message|1|a\nmessage||b\n", "", -1);
  CHECK ("id: 1\ndata: a\n\nid: \ndata: b\n\n", "message|1|a\nmessage||b\n", "", -1);
  CHECK ("id: 1\n\nid:\n\nid: 3\n\n", "", "3", -1);
}

static void
test_id_with_nul (void)
{
  CHECK ("id: 1\ndata: a\n\nid: 2\0x\ndata: b\n\n", "message|1|a\nmessage|1|b\n", "1", -1);
  CHECK ("id: \0\n\n", "", NULL, -1);
  /* An id rejected for a NUL does not cancel an earlier id line. */
  CHECK ("id: 1\nid: 2\0\ndata: a\n\n", "message|1|a\n", "1", -1);
}

static void
test_id_committed_at_event_end (void)
{
  /* The id of an event that never ended is not the one to resume from:
   * that event would be lost. */
  CHECK ("id: 1\ndata: a\n\nid: 2\ndata: b\n", "message|1|a\n", "1", -1);
  CHECK ("id: 1\ndata: a\n\nid: 2\n", "message|1|a\n", "1", -1);
  CHECK ("id: 1\n", "", NULL, -1);
  /* A blank line commits it, with or without data. */
  CHECK ("id: 1\n\n", "", "1", -1);
}

static void
test_retry_valid (void)
{
  CHECK ("retry: 500\n", "", NULL, 500);
  CHECK ("retry:500\n\n", "", NULL, 500);
  CHECK ("retry: 0\n", "", NULL, 0);
  CHECK ("retry: 0007\n", "", NULL, 7);
  CHECK ("retry: 100\nretry: 2000\n", "", NULL, 2000);
  /* Unlike the id, it counts as soon as its line ends. */
  CHECK ("retry: 300\ndata: a\n", "", NULL, 300);
}

static void
test_retry_invalid (void)
{
  CHECK ("retry: 5x\n", "", NULL, -1);
  CHECK ("retry: -5\n", "", NULL, -1);
  CHECK ("retry: +5\n", "", NULL, -1);
  CHECK ("retry: 5.0\n", "", NULL, -1);
  CHECK ("retry: 1e3\n", "", NULL, -1);
  CHECK ("retry: 500 \n", "", NULL, -1);
  CHECK ("retry:  500\n", "", NULL, -1);
  CHECK ("retry:\n", "", NULL, -1);
  CHECK ("retry\n", "", NULL, -1);
  CHECK ("retry: \xd9\xa5\n", "", NULL, -1);
  /* An invalid value leaves the last valid one alone. */
  CHECK ("retry: 100\nretry: x\nretry: \nretry: 1 0\n", "", NULL, 100);
  /* A line that never ended does not count. */
  CHECK ("retry: 100\nretry: 200", "", NULL, 100);
}

static void
test_retry_huge (void)
{
  CHECK ("retry: 9223372036854775807\n", "", NULL, G_MAXINT64);
  CHECK ("retry: 9223372036854775808\n", "", NULL, -1);
  CHECK ("retry: 18446744073709551616\n", "", NULL, -1);
  CHECK ("retry: 99999999999999999999999999999999\n", "", NULL, -1);
  CHECK ("retry: 10\nretry: 92233720368547758070\n", "", NULL, 10);
  CHECK ("retry: 00000000000000000000000000000000000000042\n", "", NULL, 42);
}

static void
test_empty_data_not_dispatched (void)
{
  /* MCP's priming event: nothing to dispatch, but the id and the retry
   * time are what a reconnection needs. */
  CHECK ("id: x\nretry: 500\ndata: \n\n", "", "x", 500);
  CHECK ("id: event-1\nretry: 500\ndata: \n\nevent: message\nid: event-2\ndata: {}\n\n",
         "message|event-2|{}\n", "event-2", 500);
  CHECK ("\n\n\n\r\n\r", "", NULL, -1);
  CHECK ("event: e\n\n", "", NULL, -1);
  CHECK ("data:\n\n", "", NULL, -1);
}

static void
test_finish_discards (void)
{
  g_autoptr(McpSseParser) parser = mcp_sse_parser_new (0);
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  const char first[] = "retry: 250\nid: 4\nevent: e\ndata: a\ndata: b";
  const char second[] = "data: c\n\n";

  g_assert_true (mcp_sse_parser_push (parser, first, sizeof first - 1, collect_cb, out, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (mcp_sse_parser_get_buffered (parser), >, 0);
  mcp_sse_parser_finish (parser);
  g_assert_cmpstr (out->str, ==, "");
  g_assert_cmpuint (mcp_sse_parser_get_buffered (parser), ==, 0);
  g_assert_null (mcp_sse_parser_get_last_id (parser));
  g_assert_cmpint (mcp_sse_parser_get_retry (parser), ==, 250);

  /* Nothing of the discarded event leaks into the next stream's. */
  g_assert_true (mcp_sse_parser_push (parser, second, sizeof second - 1, collect_cb, out, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (out->str, ==, "message|(null)|c\n");

  CHECK ("data: a\n", "", NULL, -1);
  CHECK ("data: a\n\ndata: b\n", "message|(null)|a\n", NULL, -1);
  CHECK ("data: a\r", "", NULL, -1);
}

static void
test_unknown_fields (void)
{
  CHECK ("foo: bar\ndata: x\n\n", "message|(null)|x\n", NULL, -1);
  /* Names are compared as bytes: case, spaces and prefixes matter. */
  CHECK ("DATA: a\nData: b\n data: c\ndata : d\ndatax: e\ndat: f\n\n", "", NULL, -1);
  CHECK ("Event: x\nID: 1\nRETRY: 5\ndata: y\n\n", "message|(null)|y\n", NULL, -1);
  CHECK ("\xc3\xa9vent: x\ndata: y\n\n", "message|(null)|y\n", NULL, -1);
  CHECK ("averyveryverylongfieldname: 1\ndata: y\n\n", "message|(null)|y\n", NULL, -1);
}

static void
test_bytes_pass_through (void)
{
  /* The parser does not judge UTF-8: the JSON reader does, later. */
  CHECK ("data: \xff\xfe\xc3\n\n", "message|(null)|\\xff\\xfe\\xc3\n", NULL, -1);
  CHECK ("data: caf\xc3\xa9\n\n", "message|(null)|caf\\xc3\\xa9\n", NULL, -1);
  CHECK ("data: a\0b\n\n", "message|(null)|a\\x00b\n", NULL, -1);
  CHECK ("id: \xff\n\n", "", "\\xff", -1);
}

static void
test_buffered (void)
{
  g_autoptr(McpSseParser) parser = mcp_sse_parser_new (0);
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  g_assert_cmpuint (mcp_sse_parser_get_buffered (parser), ==, 0);
  g_assert_true (mcp_sse_parser_push (parser, "dat", 3, collect_cb, out, &error));
  g_assert_cmpuint (mcp_sse_parser_get_buffered (parser), ==, 3);
  g_assert_true (mcp_sse_parser_push (parser, "a: abc", 6, collect_cb, out, &error));
  g_assert_cmpuint (mcp_sse_parser_get_buffered (parser), ==, 3);
  g_assert_true (mcp_sse_parser_push (parser, "\nevent: xy\n: a comment", 22,
                                      collect_cb, out, &error));
  g_assert_cmpuint (mcp_sse_parser_get_buffered (parser), ==, 5);
  g_assert_true (mcp_sse_parser_push (parser, "\nid: 12\n\n", 9, collect_cb, out, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (out->str, ==, "xy|12|abc\n");
  /* Between events nothing is in progress, whatever id was committed. */
  g_assert_cmpuint (mcp_sse_parser_get_buffered (parser), ==, 0);
  g_assert_true (mcp_sse_parser_push (parser, "id: 345", 7, collect_cb, out, &error));
  g_assert_cmpuint (mcp_sse_parser_get_buffered (parser), ==, 3);
  g_assert_true (mcp_sse_parser_push (parser, "\n", 1, collect_cb, out, &error));
  g_assert_cmpuint (mcp_sse_parser_get_buffered (parser), ==, 3);
  g_assert_true (mcp_sse_parser_push (parser, "\n: keep-alive\n", 14, collect_cb, out, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (mcp_sse_parser_get_buffered (parser), ==, 0);
  g_assert_cmpstr (mcp_sse_parser_get_last_id (parser), ==, "345");
}

typedef struct {
  const char *bytes;
  gsize       length;
} Stream;

#define STREAM(s) { (s), sizeof (s) - 1 }

/* Streams in the shapes servers write, and some they should not. */
static const Stream corpus[] = {
  STREAM ("\xef\xbb\xbf: hello\r\nretry: 1000\r\nid: event-0\r\ndata:\r\n\r\n"
          "event: message\r\nid: event-1\r\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,"
          "\"result\":{}}\r\n\r\n"),
  STREAM ("event: endpoint\ndata: /messages?sessionId=abc\n\n: ping\n\n"
          "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\n"),
  STREAM ("data: first\rdata: second\r\rid\r\rdata: caf\xc3\xa9\r\n\r\n"),
  STREAM ("retry: 500\nretry: 5x\nid: a\0b\nid: ok\nfoo\nbar: baz\n:\ndata\ndata:  x\n\n"),
  STREAM ("\xef\xbb\xbf\xef\xbb\xbf" "data: after two BOMs\n\ndata: kept\n\n"),
  STREAM ("event: a\nevent: b\ndata: 1\ndata: 2\n\nevent: c\n\ndata: 3\n\r\n\r"),
  STREAM ("id: 9\n\ndata: incomplete at the end\nid: never\n"),
};

static GString *
corpus_stream (void)
{
  GString *all = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (corpus); i++)
    g_string_append_len (all, corpus[i].bytes, corpus[i].length);

  return all;
}

static void
test_corpus_every_split (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (corpus); i++)
    {
      const Stream *s = &corpus[i];
      g_autofree char *whole = parse_whole (s->bytes, s->length, 0);
      g_autofree char *bytes = parse_single_bytes (s->bytes, s->length, 0);

      /* Something happens in every stream, or it proves little. */
      g_assert_cmpstr (whole, !=, "last-id=(null) retry=-1");
      g_assert_cmpstr (bytes, ==, whole);

      for (gsize first = 0; first <= s->length; first++)
        {
          for (gsize second = first; second <= s->length; second++)
            {
              gsize cuts[2] = { first, second };
              g_autofree char *split = parse_cut (s->bytes, s->length, 0, cuts, 2);

              g_assert_cmpstr (split, ==, whole);
            }
        }
    }
}

static void
test_corpus_whole (void)
{
  g_autoptr(GString) all = corpus_stream ();
  g_autofree char *whole = parse_whole (all->str, all->len, 0);

  g_assert_cmpstr (whole, ==,
                   "message|event-1|{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n"
                   "endpoint|event-1|/messages?sessionId=abc\n"
                   "message|event-1|{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n"
                   "message|event-1|first\\nsecond\n"
                   "message||caf\\xc3\\xa9\n"
                   "message|ok|\\n x\n"
                   "message|ok|kept\n"
                   "b|ok|1\\n2\n"
                   "message|ok|3\n"
                   "last-id=9 retry=500");
}

static void
test_corpus_random_chunks (void)
{
  g_autoptr(GString) all = corpus_stream ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (20250326);
  g_autofree char *whole = parse_whole (all->str, all->len, 0);

  for (guint round = 0; round < 3000; round++)
    {
      g_autoptr(GArray) cuts = g_array_new (FALSE, FALSE, sizeof (gsize));
      g_autofree char *split = NULL;
      gsize pos = 0;
      int longest = g_rand_int_range (rand, 2, 64);

      for (;;)
        {
          pos += g_rand_int_range (rand, 0, longest);
          if (pos >= all->len)
            break;
          g_array_append_val (cuts, pos);
        }

      split = parse_cut (all->str, all->len, 0, (gsize *) (gpointer) cuts->data, cuts->len);
      g_assert_cmpstr (split, ==, whole);
    }
}

/* With caps small enough for the corpus to pass them somewhere, chunking
 * must change neither what is dispatched before the failure nor whether it
 * fails; parse_cut () checks the buffer stays within the cap throughout. */
static void
test_cap_any_chunking (void)
{
  g_autoptr(GString) all = corpus_stream ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (20251125);
  guint failed = 0;

  for (gsize cap = 1; cap <= 64; cap++)
    {
      g_autofree char *whole = parse_whole (all->str, all->len, cap);
      g_autofree char *bytes = parse_single_bytes (all->str, all->len, cap);

      g_assert_cmpstr (bytes, ==, whole);
      if (strstr (whole, "failed: ") != NULL)
        failed++;

      for (guint round = 0; round < 50; round++)
        {
          g_autoptr(GArray) cuts = g_array_new (FALSE, FALSE, sizeof (gsize));
          g_autofree char *split = NULL;
          gsize pos = 0;

          for (;;)
            {
              pos += g_rand_int_range (rand, 0, 24);
              if (pos >= all->len)
                break;
              g_array_append_val (cuts, pos);
            }

          split = parse_cut (all->str, all->len, cap, (gsize *) (gpointer) cuts->data,
                             cuts->len);
          g_assert_cmpstr (split, ==, whole);
        }
    }

  /* The small caps fail and the large ones do not. */
  g_assert_cmpuint (failed, >, 0);
  g_assert_cmpuint (failed, <, 64);
}

#define CAP 1000

static char *
repeat (char  c,
        gsize n)
{
  char *s = g_malloc (n + 1);

  memset (s, c, n);
  s[n] = '\0';
  return s;
}

static void
test_cap_exact (void)
{
  g_autoptr(McpSseParser) parser = mcp_sse_parser_new (CAP);
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *full = repeat ('a', CAP);
  g_autofree char *half = repeat ('b', CAP / 2);

  g_assert_true (mcp_sse_parser_push (parser, "data: ", 6, collect_cb, out, &error));
  g_assert_true (mcp_sse_parser_push (parser, full, CAP, collect_cb, out, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (mcp_sse_parser_get_buffered (parser), ==, CAP);
  g_assert_true (mcp_sse_parser_push (parser, "\r\n\r\n", 4, collect_cb, out, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (out->len, ==, strlen ("message|(null)|\n") + CAP);
  g_assert_cmpuint (mcp_sse_parser_get_buffered (parser), ==, 0);

  /* Data lines and the newlines joining them add up to the cap: "b"×499,
   * "\n", "b"×500. */
  g_string_truncate (out, 0);
  g_assert_true (mcp_sse_parser_push (parser, "data: ", 6, collect_cb, out, &error));
  g_assert_true (mcp_sse_parser_push (parser, half, CAP / 2 - 1, collect_cb, out, &error));
  g_assert_true (mcp_sse_parser_push (parser, "\ndata: ", 7, collect_cb, out, &error));
  g_assert_true (mcp_sse_parser_push (parser, half, CAP / 2, collect_cb, out, &error));
  g_assert_cmpuint (mcp_sse_parser_get_buffered (parser), ==, CAP);
  g_assert_true (mcp_sse_parser_push (parser, "\n\n", 2, collect_cb, out, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (out->len, ==, strlen ("message|(null)|\\n\n") + CAP - 1);
}

static void
assert_fails_for_good (McpSseParser *parser,
                       GString      *out)
{
  g_autoptr(GError) error = NULL;
  const char later[] = "\n\ndata: x\n\n";
  gsize before = out->len;

  g_assert_false (mcp_sse_parser_push (parser, later, sizeof later - 1, collect_cb, out, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE);
  mcp_sse_parser_finish (parser);
  g_clear_error (&error);
  g_assert_false (mcp_sse_parser_push (parser, later, sizeof later - 1, collect_cb, out, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE);
  g_assert_cmpuint (out->len, ==, before);
  g_assert_cmpuint (mcp_sse_parser_get_buffered (parser), <=, MCP_SSE_PARSER_SLACK);
}

static void
test_cap_plus_one (void)
{
  g_autofree char *over = repeat ('a', CAP + 1);

  /* In one push, without a newline anywhere. */
  {
    g_autoptr(McpSseParser) parser = mcp_sse_parser_new (CAP);
    g_autoptr(GString) out = g_string_new (NULL);
    g_autoptr(GError) error = NULL;

    g_assert_true (mcp_sse_parser_push (parser, "data: ", 6, collect_cb, out, &error));
    g_assert_false (mcp_sse_parser_push (parser, over, CAP + 1, collect_cb, out, &error));
    g_assert_error (error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE);
    g_assert_cmpstr (error->message, ==,
                     "the server sent an event larger than the limit of 1000 bytes");
    g_assert_cmpuint (mcp_sse_parser_get_buffered (parser), <=, CAP);
    assert_fails_for_good (parser, out);
  }

  /* A byte at a time: the byte past the cap fails, not a later one. */
  {
    g_autoptr(McpSseParser) parser = mcp_sse_parser_new (CAP);
    g_autoptr(GString) out = g_string_new (NULL);
    g_autoptr(GError) error = NULL;

    g_assert_true (mcp_sse_parser_push (parser, "data: ", 6, collect_cb, out, &error));
    for (guint i = 0; i < CAP; i++)
      {
        g_assert_true (mcp_sse_parser_push (parser, "a", 1, collect_cb, out, &error));
        g_assert_cmpuint (mcp_sse_parser_get_buffered (parser), ==, i + 1);
      }
    g_assert_no_error (error);
    g_assert_false (mcp_sse_parser_push (parser, "a", 1, collect_cb, out, &error));
    g_assert_error (error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE);
    assert_fails_for_good (parser, out);
  }

  /* The newline that would join one more data line is the byte too many. */
  {
    g_autoptr(McpSseParser) parser = mcp_sse_parser_new (CAP);
    g_autoptr(GString) out = g_string_new (NULL);
    g_autoptr(GError) error = NULL;

    g_assert_true (mcp_sse_parser_push (parser, "data: ", 6, collect_cb, out, &error));
    g_assert_true (mcp_sse_parser_push (parser, over, CAP, collect_cb, out, &error));
    g_assert_true (mcp_sse_parser_push (parser, "\ndata", 5, collect_cb, out, &error));
    g_assert_false (mcp_sse_parser_push (parser, "\n", 1, collect_cb, out, &error));
    g_assert_error (error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE);
    assert_fails_for_good (parser, out);
  }
}

static void
test_cap_counts_type_and_id (void)
{
  g_autoptr(McpSseParser) parser = mcp_sse_parser_new (CAP);
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *id = repeat ('i', 100);
  g_autofree char *data = repeat ('d', CAP);

  /* An event carries its id and type along with its data, and all of it is
   * held at once. */
  g_assert_true (mcp_sse_parser_push (parser, "id: ", 4, collect_cb, out, &error));
  g_assert_true (mcp_sse_parser_push (parser, id, 100, collect_cb, out, &error));
  g_assert_true (mcp_sse_parser_push (parser, "\n\nevent: e\ndata: ", 17, collect_cb, out, &error));
  g_assert_true (mcp_sse_parser_push (parser, data, CAP - 101, collect_cb, out, &error));
  g_assert_cmpuint (mcp_sse_parser_get_buffered (parser), ==, CAP - 100);
  g_assert_true (mcp_sse_parser_push (parser, "\n\n", 2, collect_cb, out, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (out->len, ==, strlen ("e||\n") + 100 + CAP - 101);

  g_assert_true (mcp_sse_parser_push (parser, "event: e\ndata: ", 15, collect_cb, out, &error));
  g_assert_false (mcp_sse_parser_push (parser, data, CAP - 100, collect_cb, out, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE);
  g_assert_cmpuint (mcp_sse_parser_get_buffered (parser), <=, CAP);
}

/* Checks that @stream under @cap gives @expected in one piece, one byte at a
 * time and at every single split point. */
static void
check_capped (const char *stream,
              gsize       length,
              gsize       cap,
              const char *expected)
{
  g_autofree char *whole = parse_whole (stream, length, cap);
  g_autofree char *bytes = parse_single_bytes (stream, length, cap);

  g_assert_cmpstr (whole, ==, expected);
  g_assert_cmpstr (bytes, ==, expected);

  for (gsize cut = 0; cut <= length; cut++)
    {
      g_autofree char *split = parse_cut (stream, length, cap, &cut, 1);

      g_assert_cmpstr (split, ==, expected);
    }
}

static void
test_cap_id_before_nul (void)
{
  const char fits[] = "id: 12345678\n\nid: 1234\0\n\ndata: x\n\n";
  const char over[] = "id: 12345678\n\nid: 12345\0\n\ndata: x\n\n";

  /* An id that a NUL later voids is still held until the NUL comes, so it
   * counts against the cap up to there, wherever the chunks are cut. Every
   * line is within the cap: only the bytes held can pass it. */
  check_capped (fits, sizeof fits - 1, 12, "message|12345678|x\nlast-id=12345678 retry=-1");
  check_capped (over, sizeof over - 1, 12,
                "failed: the server sent an event larger than the limit of 12 bytes\n"
                "last-id=12345678 retry=-1");
}

/* A line of any field but data that is longer than the cap fails, even
 * though most of them are never stored. */
static void
test_cap_other_lines (void)
{
  const char *const prefixes[] = { ":", ": ", "x: ", "unknown", "retry: ", "event: ", "id: " };
  g_autofree char *fill = repeat ('0', CAP);

  for (guint i = 0; i < G_N_ELEMENTS (prefixes); i++)
    {
      g_autoptr(McpSseParser) parser = mcp_sse_parser_new (CAP);
      g_autoptr(McpSseParser) over = mcp_sse_parser_new (CAP);
      g_autoptr(GString) out = g_string_new (NULL);
      g_autoptr(GError) error = NULL;
      gsize prefix = strlen (prefixes[i]);
      gsize max_held = 0;

      /* Exactly the cap passes, and a comment or an unknown field holds
       * nothing while it comes in. */
      g_assert_true (mcp_sse_parser_push (parser, prefixes[i], prefix, collect_cb, out, &error));
      for (gsize pos = 0; pos < CAP - prefix; pos += 100)
        {
          g_assert_true (mcp_sse_parser_push (parser, fill, MIN (100, CAP - prefix - pos),
                                              collect_cb, out, &error));
          max_held = MAX (max_held, mcp_sse_parser_get_buffered (parser));
        }
      g_assert_true (mcp_sse_parser_push (parser, "\n\n", 2, collect_cb, out, &error));
      g_assert_no_error (error);

      if (prefixes[i][0] == ':' || prefixes[i][0] == 'x' || prefixes[i][0] == 'u')
        g_assert_cmpuint (max_held, <=, MCP_SSE_PARSER_SLACK);
      else
        g_assert_cmpuint (max_held, <=, CAP);

      g_assert_true (mcp_sse_parser_push (over, prefixes[i], prefix, collect_cb, out, &error));
      g_assert_true (mcp_sse_parser_push (over, fill, CAP - prefix, collect_cb, out, &error));
      g_assert_false (mcp_sse_parser_push (over, "0", 1, collect_cb, out, &error));
      g_assert_error (error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE);
      g_assert_cmpstr (error->message, ==,
                       "the server sent an event-stream line longer than the limit of 1000 bytes");
      g_assert_cmpstr (out->str, ==, "");
      assert_fails_for_good (over, out);
    }
}

static void
test_cap_huge_comment (void)
{
  g_autoptr(McpSseParser) parser = mcp_sse_parser_new (0);
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *chunk = repeat ('c', 64 * 1024);
  gsize sent = 1;
  gboolean ok = TRUE;

  g_assert_true (mcp_sse_parser_push (parser, ":", 1, collect_cb, out, &error));
  while (ok)
    {
      ok = mcp_sse_parser_push (parser, chunk, 64 * 1024, collect_cb, out, &error);
      g_assert_cmpuint (mcp_sse_parser_get_buffered (parser), <=, MCP_SSE_PARSER_SLACK);
      sent += 64 * 1024;
      g_assert_cmpuint (sent, <, 2 * MCP_DEFAULT_MAX_MESSAGE_SIZE);
    }

  g_assert_error (error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE);
  g_assert_cmpuint (sent, >, MCP_DEFAULT_MAX_MESSAGE_SIZE);
  g_assert_cmpuint (sent, <=, MCP_DEFAULT_MAX_MESSAGE_SIZE + 64 * 1024);
}

static void
count_cb (const McpSseEvent *event,
          gpointer           user_data)
{
  gsize *total = user_data;

  *total += event->data_length;
}

/* Feeds "data: " and @size bytes in @chunk-sized pushes, then the blank
 * line, and returns how long it took in microseconds. */
static gint64
time_large_event (McpSseParser *parser,
                  gsize         size,
                  gsize         chunk)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *block = repeat ('x', chunk);
  gsize total = 0;
  gint64 start = g_get_monotonic_time ();

  g_assert_true (mcp_sse_parser_push (parser, "data: ", 6, count_cb, &total, &error));
  for (gsize pos = 0; pos < size; pos += chunk)
    g_assert_true (mcp_sse_parser_push (parser, block, MIN (chunk, size - pos),
                                        count_cb, &total, &error));
  g_assert_cmpuint (mcp_sse_parser_get_buffered (parser), ==, size);
  g_assert_true (mcp_sse_parser_push (parser, "\n\n", 2, count_cb, &total, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (total, ==, size);

  return g_get_monotonic_time () - start;
}

static void
test_large_event_linear (void)
{
  g_autoptr(McpSseParser) parser = mcp_sse_parser_new (0);
  g_autoptr(GError) error = NULL;
  const gsize size = MCP_DEFAULT_MAX_MESSAGE_SIZE;
  const gsize chunks[] = { 64 * 1024, 4 * 1024 };
  g_autofree char *over = repeat ('x', size + 1);
  gsize total = 0;

  /* With appends that copied what was buffered, 64 KiB chunks would move
   * about 800 MB and 4 KiB chunks about 13 GB. */
  for (guint i = 0; i < G_N_ELEMENTS (chunks); i++)
    {
      gint64 elapsed = time_large_event (parser, size, chunks[i]);

      g_test_message ("a 10 MiB event in %" G_GSIZE_FORMAT " KiB chunks took %.1f ms",
                      chunks[i] / 1024, elapsed / 1000.0);
    }

  /* The default cap is 10 MiB, and it says so. */
  g_assert_false (mcp_sse_parser_push (parser, "data:", 5, count_cb, &total, &error) &&
                  mcp_sse_parser_push (parser, over, size + 1, count_cb, &total, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE);
  g_assert_cmpstr (error->message, ==, "the server sent an event larger than the limit of 10 MiB");
  g_assert_cmpuint (total, ==, 0);
}

static void
test_many_small_events (void)
{
  g_autoptr(McpSseParser) parser = mcp_sse_parser_new (0);
  g_autoptr(GString) stream = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  const guint n_events = 200000;
  gsize total = 0;
  gint64 start, elapsed;

  for (guint i = 0; i < n_events; i++)
    g_string_append_printf (stream, "id: %u\ndata: {\"n\":%u}\n\n", i, i % 10);

  start = g_get_monotonic_time ();
  for (gsize pos = 0; pos < stream->len; pos += 64 * 1024)
    g_assert_true (mcp_sse_parser_push (parser, stream->str + pos,
                                        MIN (64 * 1024, stream->len - pos),
                                        count_cb, &total, &error));
  elapsed = g_get_monotonic_time () - start;

  g_assert_no_error (error);
  g_assert_cmpuint (total, ==, n_events * strlen ("{\"n\":0}"));
  g_assert_cmpstr (mcp_sse_parser_get_last_id (parser), ==, "199999");
  g_test_message ("%u small events (%.1f MB) took %.1f ms",
                  n_events, stream->len / 1e6, elapsed / 1000.0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/steward/sse-parser/lf", test_lf);
  g_test_add_func ("/steward/sse-parser/cr", test_cr);
  g_test_add_func ("/steward/sse-parser/crlf", test_crlf);
  g_test_add_func ("/steward/sse-parser/mixed-line-ends", test_mixed_line_ends);
  g_test_add_func ("/steward/sse-parser/crlf-split", test_crlf_split);
  g_test_add_func ("/steward/sse-parser/bom", test_bom);
  g_test_add_func ("/steward/sse-parser/bom-after-finish", test_bom_after_finish);
  g_test_add_func ("/steward/sse-parser/comments", test_comments);
  g_test_add_func ("/steward/sse-parser/field-without-colon", test_field_without_colon);
  g_test_add_func ("/steward/sse-parser/space-after-colon", test_space_after_colon);
  g_test_add_func ("/steward/sse-parser/multiple-data-lines", test_multiple_data_lines);
  g_test_add_func ("/steward/sse-parser/event-types", test_event_types);
  g_test_add_func ("/steward/sse-parser/id-persists", test_id_persists);
  g_test_add_func ("/steward/sse-parser/id-reset", test_id_reset);
  g_test_add_func ("/steward/sse-parser/id-with-nul", test_id_with_nul);
  g_test_add_func ("/steward/sse-parser/id-committed-at-event-end",
                   test_id_committed_at_event_end);
  g_test_add_func ("/steward/sse-parser/retry-valid", test_retry_valid);
  g_test_add_func ("/steward/sse-parser/retry-invalid", test_retry_invalid);
  g_test_add_func ("/steward/sse-parser/retry-huge", test_retry_huge);
  g_test_add_func ("/steward/sse-parser/empty-data-not-dispatched",
                   test_empty_data_not_dispatched);
  g_test_add_func ("/steward/sse-parser/finish-discards", test_finish_discards);
  g_test_add_func ("/steward/sse-parser/unknown-fields", test_unknown_fields);
  g_test_add_func ("/steward/sse-parser/bytes-pass-through", test_bytes_pass_through);
  g_test_add_func ("/steward/sse-parser/buffered", test_buffered);
  g_test_add_func ("/steward/sse-parser/corpus-whole", test_corpus_whole);
  g_test_add_func ("/steward/sse-parser/corpus-every-split", test_corpus_every_split);
  g_test_add_func ("/steward/sse-parser/corpus-random-chunks", test_corpus_random_chunks);
  g_test_add_func ("/steward/sse-parser/cap-any-chunking", test_cap_any_chunking);
  g_test_add_func ("/steward/sse-parser/cap-exact", test_cap_exact);
  g_test_add_func ("/steward/sse-parser/cap-plus-one", test_cap_plus_one);
  g_test_add_func ("/steward/sse-parser/cap-counts-type-and-id", test_cap_counts_type_and_id);
  g_test_add_func ("/steward/sse-parser/cap-other-lines", test_cap_other_lines);
  g_test_add_func ("/steward/sse-parser/cap-id-before-nul", test_cap_id_before_nul);
  g_test_add_func ("/steward/sse-parser/cap-huge-comment", test_cap_huge_comment);
  g_test_add_func ("/steward/sse-parser/large-event-linear", test_large_event_linear);
  g_test_add_func ("/steward/sse-parser/many-small-events", test_many_small_events);

  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-message-reader"

#include "config.h"

#include <string.h>

#include "mcp-error.h"
#include "mcp-message-reader.h"

/* No test here should come near this; it only turns a hang into a failure. */
#define GUARD_SECONDS 60

/* The stall cases print the main loop's largest gap as a figure; the
 * goal (50 ms) is tests/bench/bench-stall's to report, as it depends on
 * the machine and its load. */
#define HEARTBEAT_MS 5

typedef struct {
  GPtrArray *messages;
  GString   *events;
  guint      n_invalid;
  guint      n_misbehaving;
  GError    *last_invalid;
  char      *last_excerpt;
  GError    *misbehaving;
} Recorder;

static void
message_cb (McpMessageReader *reader,
            McpMessage       *message,
            gpointer          user_data)
{
  Recorder *r = user_data;
  JsonObject *params = mcp_message_get_params (message);

  g_assert_true (MCP_IS_MESSAGE_READER (reader));
  g_ptr_array_add (r->messages, mcp_message_ref (message));

  if (mcp_message_get_method (message) != NULL)
    g_string_append (r->events, mcp_message_get_method (message));
  else
    g_string_append (r->events, "response");
  if (params != NULL && json_object_has_member (params, "seq"))
    g_string_append_printf (r->events, "%" G_GINT64_FORMAT,
                            json_object_get_int_member (params, "seq"));
  g_string_append_c (r->events, ' ');
}

static void
invalid_cb (McpMessageReader *reader,
            const GError     *error,
            const char       *excerpt,
            gpointer          user_data)
{
  Recorder *r = user_data;

  g_assert_nonnull (error);
  g_assert_nonnull (excerpt);
  g_assert_true (g_utf8_validate (excerpt, -1, NULL));

  r->n_invalid++;
  g_clear_error (&r->last_invalid);
  r->last_invalid = g_error_copy (error);
  g_free (r->last_excerpt);
  r->last_excerpt = g_strdup (excerpt);
  g_string_append (r->events, "invalid ");
}

static void
misbehaving_cb (McpMessageReader *reader,
                const GError     *error,
                gpointer          user_data)
{
  Recorder *r = user_data;

  g_assert_nonnull (error);
  r->n_misbehaving++;
  g_clear_error (&r->misbehaving);
  r->misbehaving = g_error_copy (error);
}

static McpMessageReader *
reader_new (Recorder *r)
{
  McpMessageReader *reader = mcp_message_reader_new ();

  r->messages = g_ptr_array_new_with_free_func ((GDestroyNotify) mcp_message_unref);
  r->events = g_string_new (NULL);
  r->n_invalid = 0;
  r->n_misbehaving = 0;
  r->last_invalid = NULL;
  r->last_excerpt = NULL;
  r->misbehaving = NULL;

  g_signal_connect (reader, "message", G_CALLBACK (message_cb), r);
  g_signal_connect (reader, "invalid", G_CALLBACK (invalid_cb), r);
  g_signal_connect (reader, "misbehaving", G_CALLBACK (misbehaving_cb), r);

  return reader;
}

static void
recorder_clear (Recorder *r)
{
  g_clear_pointer (&r->messages, g_ptr_array_unref);
  if (r->events != NULL)
    g_string_free (g_steal_pointer (&r->events), TRUE);
  g_clear_error (&r->last_invalid);
  g_clear_pointer (&r->last_excerpt, g_free);
  g_clear_error (&r->misbehaving);
}

static gboolean
guard_cb (gpointer user_data)
{
  g_error ("timed out after %d s waiting for %s", GUARD_SECONDS, (const char *) user_data);
  return G_SOURCE_REMOVE;
}

/* Runs the main loop until *@counter reaches @target. */
static void
wait_for (const guint *counter,
          guint        target,
          const char  *what)
{
  guint guard = g_timeout_add_seconds (GUARD_SECONDS, guard_cb, (gpointer) what);

  while (*counter < target)
    g_main_context_iteration (NULL, TRUE);

  g_source_remove (guard);
}

static void
finalized_cb (gpointer  user_data,
              GObject  *where_the_object_was)
{
  gint *finalized = user_data;

  /* A worker thread may hold the last reference, so this can run there:
   * wake the main loop that waits for it. */
  g_atomic_int_set (finalized, TRUE);
  g_main_context_wakeup (NULL);
}

/* Drops the last reference to @reader and waits until it is finalized. A
 * worker that parsed for it holds a reference of its own until just after
 * its result has been handed over, so finalization may lag a little behind
 * delivery; it must still happen, and nothing may keep the reader alive. */
static void
assert_finalize_soon (McpMessageReader *reader)
{
  gint finalized = FALSE;
  guint guard;

  g_object_weak_ref (G_OBJECT (reader), finalized_cb, &finalized);
  g_object_unref (reader);

  guard = g_timeout_add_seconds (GUARD_SECONDS, guard_cb, (gpointer) "the reader to be finalized");
  while (!g_atomic_int_get (&finalized))
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (guard);
}

static char *
notification (const char *method,
              guint       seq)
{
  return g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"method\":\"%s\",\"params\":{\"seq\":%u}}",
                          method, seq);
}

/* A valid notification of at least @size bytes, carried in one string. */
static char *
big_notification (const char *method,
                  gsize       size)
{
  g_autofree char *pad = g_malloc (size + 1);

  memset (pad, 'p', size);
  pad[size] = '\0';
  return g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"method\":\"%s\",\"params\":{\"pad\":\"%s\"}}",
                          method, pad);
}

static void
push_string (McpMessageReader *reader,
             const char       *text)
{
  mcp_message_reader_push (reader, text, strlen (text));
}

static void
test_small_is_delivered (void)
{
  Recorder r;
  McpMessageReader *reader = reader_new (&r);
  g_autofree char *text = notification ("notifications/progress", 4);

  push_string (reader, text);
  wait_for (&r.messages->len, 1, "one message");

  g_assert_cmpstr (r.events->str, ==, "notifications/progress4 ");
  g_assert_cmpuint (mcp_message_reader_get_n_invalid (reader), ==, 0);
  g_assert_cmpuint (mcp_message_reader_get_n_pending (reader), ==, 0);
  g_assert_cmpuint (r.n_invalid, ==, 0);

  g_assert_finalize_object (reader);
  recorder_clear (&r);
}

static void
test_order_after_large (void)
{
  Recorder r;
  McpMessageReader *reader = reader_new (&r);
  g_autofree char *big = big_notification ("big", MCP_MESSAGE_READER_INLINE_LIMIT + 4096);
  g_autoptr(GString) expected = g_string_new ("big ");

  g_assert_cmpuint (strlen (big), >, MCP_MESSAGE_READER_INLINE_LIMIT);

  push_string (reader, big);
  for (guint i = 0; i < 50; i++)
    {
      g_autofree char *small = notification ("small", i);

      push_string (reader, small);
      g_string_append_printf (expected, "small%u ", i);
    }

  /* The large text is on a worker, and nothing may overtake it. */
  g_assert_cmpuint (r.messages->len, ==, 0);
  g_assert_cmpuint (mcp_message_reader_get_n_pending (reader), >=, 1);

  wait_for (&r.messages->len, 51, "51 messages");
  g_assert_cmpstr (r.events->str, ==, expected->str);
  g_assert_cmpuint (mcp_message_reader_get_n_pending (reader), ==, 0);
  g_assert_cmpuint (strlen (json_object_get_string_member (mcp_message_get_params (r.messages->pdata[0]),
                                                           "pad")),
                    ==, MCP_MESSAGE_READER_INLINE_LIMIT + 4096);

  assert_finalize_soon (reader);
  recorder_clear (&r);
}

static void
test_order_mixed (void)
{
  Recorder r;
  McpMessageReader *reader = reader_new (&r);
  g_autofree char *big_a = big_notification ("bigA", MCP_MESSAGE_READER_INLINE_LIMIT * 3);
  g_autofree char *big_b = big_notification ("bigB", MCP_MESSAGE_READER_INLINE_LIMIT + 1);
  g_autofree char *big_bad = g_strnfill (MCP_MESSAGE_READER_INLINE_LIMIT * 2, 'x');
  g_autofree char *s1 = notification ("s", 1);
  g_autofree char *s2 = notification ("s", 2);
  g_autofree char *s3 = notification ("s", 3);
  g_autofree char *s4 = notification ("s", 4);
  g_autoptr(GBytes) bytes = NULL;

  /* Large valid and invalid texts, through both entry points, interleaved
   * with small valid and invalid ones. */
  push_string (reader, s1);
  push_string (reader, big_a);
  push_string (reader, "nonsense");
  push_string (reader, s2);
  push_string (reader, big_bad);
  bytes = g_bytes_new (big_b, strlen (big_b));
  mcp_message_reader_push_bytes (reader, bytes);
  push_string (reader, s3);
  push_string (reader, "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"x\"}");
  push_string (reader, s4);

  wait_for (&r.messages->len, 6, "six messages");
  wait_for (&r.n_invalid, 3, "three invalid texts");

  g_assert_cmpstr (r.events->str, ==, "s1 bigA invalid s2 invalid bigB s3 invalid s4 ");
  g_assert_cmpuint (mcp_message_reader_get_n_invalid (reader), ==, 3);
  g_assert_cmpuint (r.n_misbehaving, ==, 0);

  assert_finalize_soon (reader);
  recorder_clear (&r);
}

static void
test_invalid (void)
{
  Recorder r;
  McpMessageReader *reader = reader_new (&r);
  g_autofree char *valid = notification ("after", 1);
  g_autofree char *long_garbage = g_strnfill (10000, 'g');
  const char bad_utf8[] = "{\"jsonrpc\":\"2.0\",\"method\":\"\xff\"}";

  push_string (reader, "Server started on port 8080");
  wait_for (&r.n_invalid, 1, "an invalid text");
  g_assert_cmpuint (mcp_message_reader_get_n_invalid (reader), ==, 1);
  g_assert_nonnull (r.last_invalid);
  g_assert_cmpuint (r.last_invalid->domain, ==, MCP_ERROR);
  g_assert_cmpint (r.last_invalid->code, ==, MCP_ERROR_PARSE_ERROR);
  g_assert_nonnull (strstr (r.last_excerpt, "Server started"));

  mcp_message_reader_push (reader, bad_utf8, sizeof bad_utf8 - 1);
  wait_for (&r.n_invalid, 2, "a second invalid text");
  g_assert_error (r.last_invalid, MCP_ERROR, MCP_ERROR_INVALID_UTF8);
  g_assert_cmpuint (mcp_message_reader_get_n_invalid (reader), ==, 2);

  /* An excerpt is for a log line: bounded, whatever the text's size. */
  push_string (reader, long_garbage);
  wait_for (&r.n_invalid, 3, "a third invalid text");
  g_assert_cmpuint (strlen (r.last_excerpt), <, 1024);

  /* The reader keeps going after invalid texts. */
  push_string (reader, valid);
  wait_for (&r.messages->len, 1, "a message after invalid ones");
  g_assert_cmpstr (mcp_message_get_method (r.messages->pdata[0]), ==, "after");
  g_assert_cmpuint (r.n_misbehaving, ==, 0);

  g_assert_finalize_object (reader);
  recorder_clear (&r);
}

static void
test_misbehaving (void)
{
  Recorder r;
  McpMessageReader *reader = reader_new (&r);

  for (guint i = 0; i < MCP_MESSAGE_READER_INVALID_LIMIT; i++)
    push_string (reader, "not json");
  wait_for (&r.n_invalid, MCP_MESSAGE_READER_INVALID_LIMIT, "the limit of invalid texts");

  g_assert_cmpuint (mcp_message_reader_get_n_invalid (reader), ==, MCP_MESSAGE_READER_INVALID_LIMIT);
  g_assert_cmpuint (r.n_misbehaving, ==, 0);

  push_string (reader, "one too many");
  wait_for (&r.n_invalid, MCP_MESSAGE_READER_INVALID_LIMIT + 1, "one more invalid text");
  g_assert_cmpuint (r.n_misbehaving, ==, 1);
  g_assert_error (r.misbehaving, MCP_ERROR, MCP_ERROR_MISBEHAVING);

  /* Once is enough: the host stops the server on the first signal. */
  for (guint i = 0; i < 50; i++)
    push_string (reader, "still not json");
  wait_for (&r.n_invalid, MCP_MESSAGE_READER_INVALID_LIMIT + 51, "more invalid texts");
  g_assert_cmpuint (r.n_misbehaving, ==, 1);
  g_assert_cmpuint (mcp_message_reader_get_n_invalid (reader), ==,
                    MCP_MESSAGE_READER_INVALID_LIMIT + 51);

  g_assert_finalize_object (reader);
  recorder_clear (&r);
}

static void
test_batches (void)
{
  Recorder r;
  McpMessageReader *reader = reader_new (&r);
  const char *batch = "[{\"jsonrpc\":\"2.0\",\"method\":\"one\"},"
                      "{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"bad\"},"
                      "{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}]";

  /* Off by default: only one revision has batches. */
  push_string (reader, batch);
  wait_for (&r.n_invalid, 1, "a refused batch");
  g_assert_cmpuint (r.messages->len, ==, 0);

  mcp_message_reader_set_allow_batches (reader, TRUE);
  push_string (reader, batch);
  wait_for (&r.messages->len, 2, "two messages from a batch");
  g_assert_cmpstr (r.events->str, ==, "invalid invalid one response ");
  g_assert_cmpuint (mcp_message_reader_get_n_invalid (reader), ==, 2);

  g_assert_finalize_object (reader);
  recorder_clear (&r);
}

static void
test_dispose_while_parsing (void)
{
  Recorder r;
  McpMessageReader *reader = reader_new (&r);
  g_autofree char *big = big_notification ("big", 4 * 1024 * 1024);

  push_string (reader, big);
  g_assert_cmpuint (mcp_message_reader_get_n_pending (reader), ==, 1);

  /* The worker may still hold the reader; it must let go once done, and
   * deliver nothing to an object its owner dropped. */
  assert_finalize_soon (reader);

  /* Anything already queued on the main context runs now. */
  while (g_main_context_iteration (NULL, FALSE))
    ;

  g_assert_cmpuint (r.messages->len, ==, 0);
  recorder_clear (&r);
}

/* Measures the largest gap between ticks of a 5 ms timeout, the way a
 * frame clock would notice a stalled main loop. */
typedef struct {
  gint64 last;
  gint64 max_gap;
  guint  ticks;
} Heartbeat;

static gboolean
heartbeat_cb (gpointer user_data)
{
  Heartbeat *hb = user_data;
  gint64 now = g_get_monotonic_time ();

  if (hb->last != 0)
    hb->max_gap = MAX (hb->max_gap, now - hb->last);
  hb->last = now;
  hb->ticks++;

  return G_SOURCE_CONTINUE;
}

typedef struct {
  McpMessageReader *reader;
  const char       *text;
  gsize             length;
  gint64            pushed_at;
  Recorder         *recorder;
  gint              delivered_in_push;
} StallPush;

static gboolean
push_later_cb (gpointer user_data)
{
  StallPush *p = user_data;

  p->pushed_at = g_get_monotonic_time ();
  mcp_message_reader_push (p->reader, p->text, p->length);
  p->delivered_in_push = p->recorder->messages->len;
  return G_SOURCE_REMOVE;
}

/* Roughly @target bytes of a tools/list result: many small objects, the
 * shape that costs a JSON parser the most. */
static GString *
huge_result (gsize target)
{
  GString *s = g_string_sized_new (target + 512);
  guint i = 0;

  g_string_append (s, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[");
  while (s->len < target)
    {
      if (i > 0)
        g_string_append_c (s, ',');
      g_string_append_printf (s,
                              "{\"name\":\"tool_%u\",\"description\":\"Does thing number %u "
                              "with care, \\\"quoted\\\" and caf\xc3\xa9.\","
                              "\"inputSchema\":{\"type\":\"object\",\"properties\":"
                              "{\"x\":{\"type\":\"integer\",\"minimum\":%u}}}}",
                              i, i, i);
      i++;
    }
  g_string_append (s, "]}}");

  return s;
}

static void
test_stall_large (void)
{
  Recorder r;
  McpMessageReader *reader = reader_new (&r);
  GString *text = huge_result (20 * 1024 * 1024);
  Heartbeat hb = { 0, };
  StallPush push = { reader, text->str, text->len, 0, &r, -1 };
  guint heartbeat;
  gint64 delivered_at;

  heartbeat = g_timeout_add (HEARTBEAT_MS, heartbeat_cb, &hb);
  g_timeout_add (HEARTBEAT_MS * 3, push_later_cb, &push);

  wait_for (&r.messages->len, 1, "the 20 MiB message");
  delivered_at = g_get_monotonic_time ();
  /* The last stretch, from the previous tick to delivery, counts too. */
  hb.max_gap = MAX (hb.max_gap, delivered_at - hb.last);
  g_source_remove (heartbeat);

  g_test_message ("20 MiB message (%" G_GSIZE_FORMAT " bytes): delivered after "
                  "%.1f ms, %u heartbeats, largest main-loop gap %.1f ms",
                  text->len, (delivered_at - push.pushed_at) / 1000.0, hb.ticks,
                  hb.max_gap / 1000.0);

  /* Over the inline limit, the text is parsed on a worker: the push
   * returns before the message is delivered, from the main loop. */
  g_assert_cmpuint (text->len, >, MCP_MESSAGE_READER_INLINE_LIMIT);
  g_assert_cmpint (push.delivered_in_push, ==, 0);
  g_assert_cmpuint (r.messages->len, ==, 1);
  g_assert_cmpint (mcp_message_get_kind (r.messages->pdata[0]), ==, MCP_MESSAGE_RESULT);
  g_assert_cmpuint (r.n_invalid, ==, 0);

  assert_finalize_soon (reader);
  g_string_free (text, TRUE);
  recorder_clear (&r);
}

#define FLOOD_COUNT 10000
#define FLOOD_RATE  10000 /* per second */

typedef struct {
  McpMessageReader *reader;
  gint64            started;
  guint             sent;
} Flood;

static gboolean
flood_cb (gpointer user_data)
{
  Flood *f = user_data;
  gint64 elapsed = g_get_monotonic_time () - f->started;
  guint due = MIN (FLOOD_COUNT, elapsed * FLOOD_RATE / G_USEC_PER_SEC);

  /* Catch up with the clock rather than trusting the timer's precision. */
  for (; f->sent < due; f->sent++)
    {
      char text[128];
      int n = g_snprintf (text, sizeof text,
                          "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\","
                          "\"params\":{\"seq\":%u,\"progress\":%u}}",
                          f->sent, f->sent);

      mcp_message_reader_push (f->reader, text, n);
    }

  return f->sent < FLOOD_COUNT ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

static void
test_stall_flood (void)
{
  Recorder r;
  McpMessageReader *reader = reader_new (&r);
  Heartbeat hb = { 0, };
  Flood flood = { reader, 0, 0 };
  guint heartbeat;
  gint64 delivered_at;

  heartbeat = g_timeout_add (HEARTBEAT_MS, heartbeat_cb, &hb);
  flood.started = g_get_monotonic_time ();
  g_timeout_add (1, flood_cb, &flood);

  wait_for (&r.messages->len, FLOOD_COUNT, "the flood of notifications");
  delivered_at = g_get_monotonic_time ();
  hb.max_gap = MAX (hb.max_gap, delivered_at - hb.last);
  g_source_remove (heartbeat);

  g_test_message ("%u notifications at %u/s: delivered in %.1f ms, "
                  "%u heartbeats, largest main-loop gap %.1f ms",
                  FLOOD_COUNT, FLOOD_RATE, (delivered_at - flood.started) / 1000.0,
                  hb.ticks, hb.max_gap / 1000.0);

  g_assert_cmpuint (r.messages->len, ==, FLOOD_COUNT);
  for (guint i = 0; i < FLOOD_COUNT; i++)
    {
      JsonObject *params = mcp_message_get_params (r.messages->pdata[i]);

      g_assert_cmpint (json_object_get_int_member (params, "seq"), ==, i);
    }
  g_assert_cmpuint (r.n_invalid, ==, 0);

  g_assert_finalize_object (reader);
  recorder_clear (&r);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/steward/message-reader/small", test_small_is_delivered);
  g_test_add_func ("/steward/message-reader/order-after-large", test_order_after_large);
  g_test_add_func ("/steward/message-reader/order-mixed", test_order_mixed);
  g_test_add_func ("/steward/message-reader/invalid", test_invalid);
  g_test_add_func ("/steward/message-reader/misbehaving", test_misbehaving);
  g_test_add_func ("/steward/message-reader/batches", test_batches);
  g_test_add_func ("/steward/message-reader/stall-large", test_stall_large);
  g_test_add_func ("/steward/message-reader/stall-flood", test_stall_flood);
  g_test_add_func ("/steward/message-reader/dispose-while-parsing", test_dispose_while_parsing);

  return g_test_run ();
}

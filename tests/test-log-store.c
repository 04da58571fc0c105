/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-log-store"

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <unistd.h>

#include "steward-log-store.h"
#include "steward-redactor.h"

/* Long enough for a loaded machine, short enough to fail a hang. */
#define TIMEOUT_S 10

static char *tmp_dir;

static StewardLogEntry *
make_entry (const char *text,
            const char *detail)
{
  return steward_log_entry_new (g_get_real_time (), "files", STEWARD_LOG_SOURCE_STDERR,
                                STEWARD_LOG_LEVEL_INFO, STEWARD_LOG_DIRECTION_NONE,
                                NULL, text, detail, text != NULL ? strlen (text) : 0);
}

static void
append_numbered (StewardLogStore *store,
                 guint            first,
                 guint            n)
{
  for (guint i = first; i < first + n; i++)
    {
      g_autofree char *text = g_strdup_printf ("entry %u", i);
      g_autoptr(StewardLogEntry) entry = make_entry (text, NULL);

      steward_log_store_append (store, entry);
    }
}

static guint
entry_number (GListModel *model,
              guint       position)
{
  g_autoptr(StewardLogEntry) entry = g_list_model_get_item (model, position);
  guint64 number = 0;

  g_assert_nonnull (entry);
  g_assert_true (g_str_has_prefix (steward_log_entry_get_text (entry), "entry "));
  g_assert_true (g_ascii_string_to_unsigned (steward_log_entry_get_text (entry) + 6, 10,
                                             0, G_MAXUINT, &number, NULL));
  return number;
}

static gboolean
timeout_cb (gpointer user_data)
{
  gboolean *timed_out = user_data;

  *timed_out = TRUE;
  return G_SOURCE_REMOVE;
}

/* Every items-changed, and a mirror of the model kept from them alone:
 * it must match the model at each emission, or an observer would be
 * misled. */
typedef struct
{
  guint position;
  guint removed;
  guint added;
} Change;

typedef struct
{
  GArray    *changes;   /* of Change */
  GPtrArray *mirror;
} Recorder;

static void
items_changed_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  gpointer    user_data)
{
  Recorder *recorder = user_data;
  Change change = { position, removed, added };

  g_array_append_val (recorder->changes, change);

  g_assert_cmpuint (position + removed, <=, recorder->mirror->len);
  g_ptr_array_remove_range (recorder->mirror, position, removed);
  for (guint i = 0; i < added; i++)
    g_ptr_array_insert (recorder->mirror, position + i,
                        g_list_model_get_item (model, position + i));

  g_assert_cmpuint (recorder->mirror->len, ==, g_list_model_get_n_items (model));
}

static void
recorder_init (Recorder   *recorder,
               GListModel *model)
{
  recorder->changes = g_array_new (FALSE, FALSE, sizeof (Change));
  recorder->mirror = g_ptr_array_new_with_free_func (g_object_unref);
  g_signal_connect (model, "items-changed", G_CALLBACK (items_changed_cb), recorder);
}

static void
recorder_clear (Recorder   *recorder,
                GListModel *model)
{
  g_signal_handlers_disconnect_by_func (model, items_changed_cb, recorder);
  g_clear_pointer (&recorder->changes, g_array_unref);
  g_clear_pointer (&recorder->mirror, g_ptr_array_unref);
}

static void
assert_change (Recorder *recorder,
               guint     index,
               guint     position,
               guint     removed,
               guint     added)
{
  Change *change;

  g_assert_cmpuint (index, <, recorder->changes->len);
  change = &g_array_index (recorder->changes, Change, index);
  g_assert_cmpuint (change->position, ==, position);
  g_assert_cmpuint (change->removed, ==, removed);
  g_assert_cmpuint (change->added, ==, added);
}

static void
assert_mirror (Recorder   *recorder,
               GListModel *model)
{
  g_assert_cmpuint (recorder->mirror->len, ==, g_list_model_get_n_items (model));
  for (guint i = 0; i < recorder->mirror->len; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);

      g_assert_true (item == g_ptr_array_index (recorder->mirror, i));
    }
}

static void
test_entry (void)
{
  g_autofree char *long_text = NULL;
  g_autofree char *long_detail = NULL;
  g_autofree char *expected_marker = NULL;
  StewardLogEntry *entry;
  StewardLogEntry *other;
  const char *detail;

  entry = steward_log_entry_new (1234, "files", STEWARD_LOG_SOURCE_TRACE,
                                 STEWARD_LOG_LEVEL_DEBUG, STEWARD_LOG_DIRECTION_OUT,
                                 "fs", "  tools/call id 7\r\nsecond line\tend\n",
                                 "{\n  \"id\": 7\n}", 42);
  g_assert_cmpint (steward_log_entry_get_time (entry), ==, 1234);
  g_assert_cmpstr (steward_log_entry_get_server (entry), ==, "files");
  g_assert_cmpint (steward_log_entry_get_source (entry), ==, STEWARD_LOG_SOURCE_TRACE);
  g_assert_cmpint (steward_log_entry_get_level (entry), ==, STEWARD_LOG_LEVEL_DEBUG);
  g_assert_cmpint (steward_log_entry_get_direction (entry), ==, STEWARD_LOG_DIRECTION_OUT);
  g_assert_cmpstr (steward_log_entry_get_logger (entry), ==, "fs");
  /* One line, trimmed. */
  g_assert_cmpstr (steward_log_entry_get_text (entry), ==, "tools/call id 7  second line end");
  g_assert_cmpstr (steward_log_entry_get_detail (entry), ==, "{\n  \"id\": 7\n}");
  g_assert_cmpuint (steward_log_entry_get_size (entry), ==, 42);

  /* Names are interned: a flood of entries shares them. */
  other = steward_log_entry_new (1, "files", STEWARD_LOG_SOURCE_SERVER, STEWARD_LOG_LEVEL_INFO,
                                 STEWARD_LOG_DIRECTION_IN, "fs", NULL, "", 0);
  g_assert_true (steward_log_entry_get_server (entry) == steward_log_entry_get_server (other));
  g_assert_true (steward_log_entry_get_logger (entry) == steward_log_entry_get_logger (other));
  g_assert_cmpstr (steward_log_entry_get_text (other), ==, "");
  g_assert_null (steward_log_entry_get_detail (other));
  g_assert_finalize_object (other);
  g_assert_finalize_object (entry);

  /* Long text is cut after 200 characters (not bytes) with an ellipsis. */
  long_text = g_strnfill (300 * 2, 'x');
  for (guint i = 0; i < 300; i++)
    memcpy (long_text + 2 * i, "é", 2);
  long_detail = g_strnfill (STEWARD_LOG_ENTRY_MAX_DETAIL + 1000, 'd');
  entry = make_entry (long_text, long_detail);
  g_assert_cmpuint (g_utf8_strlen (steward_log_entry_get_text (entry), -1), ==,
                    STEWARD_LOG_ENTRY_MAX_TEXT_CHARS + 1);
  g_assert_true (g_str_has_suffix (steward_log_entry_get_text (entry), "é…"));

  /* The detail keeps 64 KiB and says how much it folded. */
  detail = steward_log_entry_get_detail (entry);
  expected_marker = g_strdup ("\n… (1000 bytes folded)");
  g_assert_true (g_str_has_suffix (detail, expected_marker));
  g_assert_cmpuint (strlen (detail), ==, STEWARD_LOG_ENTRY_MAX_DETAIL + strlen (expected_marker));
  g_assert_finalize_object (entry);

  /* Invalid UTF-8 from a server's stderr is replaced, never kept. */
  entry = make_entry ("bad \xff\xfe bytes", "more \xc3 bad");
  g_assert_true (g_utf8_validate (steward_log_entry_get_text (entry), -1, NULL));
  g_assert_true (g_utf8_validate (steward_log_entry_get_detail (entry), -1, NULL));
  g_assert_true (g_str_has_prefix (steward_log_entry_get_text (entry), "bad "));
  g_assert_finalize_object (entry);
}

static void
test_enums (void)
{
  static const char * const levels[] = {
    "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency",
  };
  static const char * const sources[] = { "stderr", "server", "protocol", "host" };
  static const char * const directions[] = { "none", "in", "out" };
  StewardLogLevel level;
  StewardLogSource source;
  StewardLogDirection direction;

  for (guint i = 0; i < G_N_ELEMENTS (levels); i++)
    {
      g_assert_cmpstr (steward_log_level_to_string (i), ==, levels[i]);
      g_assert_true (steward_log_level_from_string (levels[i], &level));
      g_assert_cmpint (level, ==, i);
    }
  g_assert_true (steward_log_level_from_string ("WARNING", &level));
  g_assert_cmpint (level, ==, STEWARD_LOG_LEVEL_WARNING);
  g_assert_false (steward_log_level_from_string ("warn", &level));
  g_assert_false (steward_log_level_from_string (NULL, &level));

  for (guint i = 0; i < G_N_ELEMENTS (sources); i++)
    {
      g_assert_cmpstr (steward_log_source_to_string (i), ==, sources[i]);
      g_assert_true (steward_log_source_from_string (sources[i], &source));
      g_assert_cmpint (source, ==, i);
    }
  g_assert_false (steward_log_source_from_string ("network", &source));
  /* What older exports and settings called protocol messages. */
  g_assert_true (steward_log_source_from_string ("trace", &source));
  g_assert_cmpint (source, ==, STEWARD_LOG_SOURCE_TRACE);

  for (guint i = 0; i < G_N_ELEMENTS (directions); i++)
    {
      g_assert_cmpstr (steward_log_direction_to_string (i), ==, directions[i]);
      g_assert_true (steward_log_direction_from_string (directions[i], &direction));
      g_assert_cmpint (direction, ==, i);
    }
  g_assert_false (steward_log_direction_from_string ("", &direction));

  /* The enum types name the same values, for views that bind to them. */
  for (guint i = 0; i < G_N_ELEMENTS (levels); i++)
    {
      g_autoptr(GEnumClass) klass = g_type_class_ref (STEWARD_TYPE_LOG_LEVEL);

      g_assert_cmpstr (g_enum_get_value (klass, i)->value_nick, ==, levels[i]);
    }
}

static void
test_batch (void)
{
  StewardLogStore *store = steward_log_store_new (0);
  GListModel *model = G_LIST_MODEL (store);
  Recorder recorder;
  gint64 flushed_at;
  gint64 announced_at;

  g_assert_cmpuint (steward_log_store_get_capacity (store), ==, 100000);
  recorder_init (&recorder, model);

  /* 10,000 appends within one main loop iteration: nothing is announced
   * until the batch, and then once. */
  append_numbered (store, 0, 10000);
  g_assert_cmpuint (recorder.changes->len, ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 0);

  steward_log_store_flush (store);
  g_assert_cmpuint (recorder.changes->len, ==, 1);
  assert_change (&recorder, 0, 0, 0, 10000);
  g_assert_cmpuint (entry_number (model, 0), ==, 0);
  g_assert_cmpuint (entry_number (model, 9999), ==, 9999);

  /* A second flush with nothing pending announces nothing. */
  steward_log_store_flush (store);
  g_assert_cmpuint (recorder.changes->len, ==, 1);
  flushed_at = g_get_monotonic_time ();

  /* From the main loop: one batch, never from the append itself. How long
   * after the last one it comes is the machine's to decide, and reported. */
  append_numbered (store, 10000, 10000);
  g_assert_cmpuint (recorder.changes->len, ==, 1);
  while (recorder.changes->len == 1)
    {
      gboolean timed_out = FALSE;
      guint id = g_timeout_add_seconds (TIMEOUT_S, timeout_cb, &timed_out);

      g_main_context_iteration (NULL, TRUE);
      g_assert_false (timed_out);
      g_source_remove (id);
    }
  announced_at = g_get_monotonic_time ();
  g_assert_cmpuint (recorder.changes->len, ==, 2);
  assert_change (&recorder, 1, 10000, 0, 10000);
  g_test_message ("the batch was announced %.1f ms after the last flush",
                  (announced_at - flushed_at) / 1000.0);

  /* Nothing more is pending, so the loop has nothing left to announce. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (recorder.changes->len, ==, 2);
  g_assert_cmpuint (steward_log_store_get_n_dropped (store), ==, 0);
  assert_mirror (&recorder, model);

  /* Clearing drops the pending ones too. */
  append_numbered (store, 20000, 5);
  steward_log_store_clear (store);
  assert_change (&recorder, 2, 0, 20000, 0);
  steward_log_store_flush (store);
  g_assert_cmpuint (recorder.changes->len, ==, 3);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 0);

  recorder_clear (&recorder, model);
  g_assert_finalize_object (store);
}

static void
test_overflow (void)
{
  StewardLogStore *store = steward_log_store_new (10);
  GListModel *model = G_LIST_MODEL (store);
  Recorder recorder;
  guint next = 0;
  guint64 expected_dropped = 0;

  recorder_init (&recorder, model);

  append_numbered (store, next, 7);
  next += 7;
  steward_log_store_flush (store);
  assert_change (&recorder, 0, 0, 0, 7);

  /* 7 + 5 > 10: two leave from the front, then five arrive at the end. */
  append_numbered (store, next, 5);
  next += 5;
  steward_log_store_flush (store);
  g_assert_cmpuint (recorder.changes->len, ==, 3);
  assert_change (&recorder, 1, 0, 2, 0);
  assert_change (&recorder, 2, 5, 0, 5);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 10);
  g_assert_cmpuint (steward_log_store_get_n_dropped (store), ==, 2);
  for (guint i = 0; i < 10; i++)
    g_assert_cmpuint (entry_number (model, i), ==, 2 + i);
  assert_mirror (&recorder, model);

  /* Full ring, one more: one out, one in. */
  append_numbered (store, next, 1);
  next += 1;
  steward_log_store_flush (store);
  assert_change (&recorder, 3, 0, 1, 0);
  assert_change (&recorder, 4, 9, 0, 1);
  g_assert_cmpuint (entry_number (model, 0), ==, 3);
  g_assert_cmpuint (entry_number (model, 9), ==, 12);

  /* A batch larger than the ring: every old entry leaves, the batch's
   * oldest are never shown, and all of them count as dropped. */
  append_numbered (store, next, 25);
  next += 25;
  steward_log_store_flush (store);
  assert_change (&recorder, 5, 0, 10, 0);
  assert_change (&recorder, 6, 0, 0, 10);
  g_assert_cmpuint (recorder.changes->len, ==, 7);
  g_assert_cmpuint (steward_log_store_get_n_dropped (store), ==, 2 + 1 + 10 + 15);
  for (guint i = 0; i < 10; i++)
    g_assert_cmpuint (entry_number (model, i), ==, next - 10 + i);
  assert_mirror (&recorder, model);
  expected_dropped = steward_log_store_get_n_dropped (store);

  /* Batches of every size around the ring's, wrapping it many times. */
  for (guint round = 0; round < 300; round++)
    {
      guint size = 1 + (round * 7) % 23;
      guint before = g_list_model_get_n_items (model);

      append_numbered (store, next, size);
      next += size;
      steward_log_store_flush (store);

      expected_dropped += before + size > 10 ? before + size - 10 : 0;
      g_assert_cmpuint (steward_log_store_get_n_dropped (store), ==, expected_dropped);
      g_assert_cmpuint (g_list_model_get_n_items (model), ==, MIN (before + size, 10));
      for (guint i = 0; i < g_list_model_get_n_items (model); i++)
        g_assert_cmpuint (entry_number (model, i), ==, next - g_list_model_get_n_items (model) + i);
      assert_mirror (&recorder, model);
    }

  g_assert_null (g_list_model_get_item (model, 10));
  g_assert_true (g_list_model_get_item_type (model) == STEWARD_TYPE_LOG_ENTRY);

  /* Without a main loop, pending appends stay bounded too. */
  append_numbered (store, next, 45);
  next += 45;
  steward_log_store_flush (store);
  for (guint i = 0; i < 10; i++)
    g_assert_cmpuint (entry_number (model, i), ==, next - 10 + i);
  assert_mirror (&recorder, model);
  g_assert_cmpuint (steward_log_store_get_n_dropped (store), ==, expected_dropped + 45);

  recorder_clear (&recorder, model);
  g_assert_finalize_object (store);
}

static void
test_max_bytes (void)
{
  StewardLogStore *store = steward_log_store_new (1000);
  GListModel *model = G_LIST_MODEL (store);
  g_autofree char *detail = g_strnfill (4000, 'p');
  Recorder recorder;

  recorder_init (&recorder, model);
  steward_log_store_set_max_bytes (store, 100 * 1024);
  g_assert_cmpuint (steward_log_store_get_max_bytes (store), ==, 100 * 1024);

  /* About 4 KiB each: some 24 fit in 100 KiB, whatever the capacity. */
  for (guint i = 0; i < 200; i++)
    {
      g_autofree char *text = g_strdup_printf ("entry %u", i);
      g_autoptr(StewardLogEntry) entry = make_entry (text, detail);

      steward_log_store_append (store, entry);
      if (i % 10 == 9)
        steward_log_store_flush (store);
    }
  steward_log_store_flush (store);

  g_assert_cmpuint (g_list_model_get_n_items (model), >=, 20);
  g_assert_cmpuint (g_list_model_get_n_items (model), <=, 25);
  g_assert_cmpuint (steward_log_store_get_n_dropped (store), ==,
                    200 - g_list_model_get_n_items (model));
  g_assert_cmpuint (entry_number (model, g_list_model_get_n_items (model) - 1), ==, 199);
  assert_mirror (&recorder, model);

  recorder_clear (&recorder, model);
  g_assert_finalize_object (store);
}

/* Protocol messages appended as their parts become entries the first
 * time they are read: the same entry each time after that, with what
 * steward_log_entry_new_message() would have made, and counted against
 * the byte cap alike before and after. */
static void
test_message_records (void)
{
  StewardLogStore *store = steward_log_store_new (1000);
  GListModel *model = G_LIST_MODEL (store);
  const char *json = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\","
                     "\"params\":{\"token\":\"abc123\"}}\n";
  gsize length = strlen (json) - 1;
  g_autoptr(GBytes) line = g_bytes_new (json, strlen (json));
  g_autofree char *filler = g_strnfill (4000, 'p');
  g_autofree char *big_json = g_strdup_printf ("{\"a\":\"%s\"}", filler);
  g_autoptr(GBytes) big = g_bytes_new (big_json, strlen (big_json));
  g_autoptr(StewardLogEntry) first = NULL;
  g_autoptr(StewardLogEntry) again = NULL;
  g_autoptr(StewardLogEntry) made = NULL;
  g_autoptr(StewardLogEntry) cut = NULL;
  Recorder recorder;

  recorder_init (&recorder, model);
  steward_log_store_append_message (store, 5, "files", STEWARD_LOG_DIRECTION_OUT,
                                    "tools/call id 1", line, length, FALSE, length);
  /* A text cut short is made into an entry at once. */
  steward_log_store_append_message (store, 6, "files", STEWARD_LOG_DIRECTION_IN, "answer",
                                    line, 10, TRUE, 999);
  steward_log_store_flush (store);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 2);

  first = g_list_model_get_item (model, 0);
  again = g_list_model_get_item (model, 0);
  g_assert_true (first == again);
  made = steward_log_entry_new_message (5, "files", STEWARD_LOG_DIRECTION_OUT,
                                        "tools/call id 1", json, length, FALSE, length);
  g_assert_cmpint (steward_log_entry_get_time (first), ==, 5);
  g_assert_cmpstr (steward_log_entry_get_server (first), ==, "files");
  g_assert_cmpint (steward_log_entry_get_source (first), ==, STEWARD_LOG_SOURCE_TRACE);
  g_assert_cmpint (steward_log_entry_get_direction (first), ==, STEWARD_LOG_DIRECTION_OUT);
  g_assert_cmpuint (steward_log_entry_get_size (first), ==, length);
  g_assert_cmpstr (steward_log_entry_get_text (first), ==, steward_log_entry_get_text (made));
  g_assert_cmpstr (steward_log_entry_get_detail (first), ==, steward_log_entry_get_detail (made));
  g_assert_null (strstr (steward_log_entry_get_detail (first), "abc123"));

  cut = g_list_model_get_item (model, 1);
  g_assert_true (g_str_has_suffix (steward_log_entry_get_detail (cut), "999 bytes"));
  assert_mirror (&recorder, model);
  /* It reads every item as it comes; below, most are never read. */
  recorder_clear (&recorder, model);

  /* About 4 KiB each: some 24 fit in 100 KiB, read or not. */
  steward_log_store_set_max_bytes (store, 100 * 1024);
  for (guint i = 0; i < 200; i++)
    {
      g_autofree char *text = g_strdup_printf ("entry %u", i);

      steward_log_store_append_message (store, i, "files", STEWARD_LOG_DIRECTION_IN, text, big,
                                        strlen (big_json), FALSE, strlen (big_json));
      if (i % 10 == 9)
        {
          steward_log_store_flush (store);
          /* Half of them are read, and so made into entries, as they come. */
          for (guint j = 0; j < g_list_model_get_n_items (model); j += 2)
            g_object_unref (g_list_model_get_item (model, j));
        }
    }
  steward_log_store_flush (store);

  g_assert_cmpuint (g_list_model_get_n_items (model), >=, 20);
  g_assert_cmpuint (g_list_model_get_n_items (model), <=, 25);
  g_assert_cmpuint (steward_log_store_get_n_dropped (store), ==,
                    202 - g_list_model_get_n_items (model));
  g_assert_cmpuint (entry_number (model, g_list_model_get_n_items (model) - 1), ==, 199);
  for (guint j = 0; j < g_list_model_get_n_items (model); j++)
    g_assert_cmpuint (entry_number (model, j), ==,
                      200 - g_list_model_get_n_items (model) + j);

  steward_log_store_clear (store);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 0);
  g_clear_object (&first);
  g_clear_object (&again);
  g_clear_object (&cut);
  g_assert_finalize_object (store);
}

typedef struct
{
  const char *input;
  const char *expected;   /* NULL: left as it was */
} RedactCase;

static const RedactCase redact_cases[] = {
  /* Headers, anywhere in a line. */
  { "Authorization: Bearer abcdef123456", "Authorization: [redacted]" },
  { "> authorization: Basic dXNlcjpwYXNz\r\n> Host: x",
    "> authorization: [redacted]\r\n> Host: x" },
  { "Proxy-Authorization: Basic abc", "Proxy-Authorization: [redacted]" },
  { "sent Cookie: session=abc; theme=dark", "sent Cookie: [redacted]" },
  { "Set-Cookie: id=a3fWa; Path=/; HttpOnly", "Set-Cookie: [redacted]" },
  { "Mcp-Session-Id: 1868a90c-3c8b-4a4e-9f4e-2d8f2b0c1f3e\nnext",
    "Mcp-Session-Id: [redacted]\nnext" },
  { "X-Api-Key: 123abc", "X-Api-Key: [redacted]" },
  { "Token: abc123", "Token: [redacted]" },
  { "  client_secret: abc", "  client_secret: [redacted]" },
  { "\"headers\": \"Authorization: Bearer x\\r\\nAccept: */*\"",
    "\"headers\": \"Authorization: [redacted]\\r\\nAccept: */*\"" },
  /* JSON and Python string values by key. */
  { "{\"token\": \"s3cr3t-value\", \"max_tokens\": 100}",
    "{\"token\": \"[redacted]\", \"max_tokens\": 100}" },
  { "{\"headers\": {\"Authorization\": \"Bearer xyz\"}}",
    "{\"headers\": {\"Authorization\": \"[redacted]\"}}" },
  { "{\"api_key\":\"k\",\"apiKey\":\"k2\",\"password\":\"hun\\\"ter2\",\"client_secret\":\"c\"}",
    "{\"api_key\":\"[redacted]\",\"apiKey\":\"[redacted]\",\"password\":\"[redacted]\","
    "\"client_secret\":\"[redacted]\"}" },
  { "{\"env\": {\"GITHUB_PERSONAL_ACCESS_TOKEN\": \"abc\", \"DEBUG\": \"1\"}}",
    "{\"env\": {\"GITHUB_PERSONAL_ACCESS_TOKEN\": \"[redacted]\", \"DEBUG\": \"1\"}}" },
  { "{'Cookie': 'a=b'}", "{'Cookie': '[redacted]'}" },
  { "{\"text\": \"{\\\"password\\\": \\\"hunter2\\\"}\"}",
    "{\"text\": \"{\\\"password\\\": \\\"[redacted]\\\"}\"}" },
  { "{\"mcp-session-id\": \"abc\"}", "{\"mcp-session-id\": \"[redacted]\"}" },
  { "{\"key\": \"a1b2c3d4e5f6a7b8c9d0\"}", "{\"key\": \"[redacted]\"}" },
  { "{\"refresh_token\": \"unterminated", "{\"refresh_token\": \"[redacted]" },
  /* NAME=value. */
  { "GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789 npx",
    "GITHUB_TOKEN=[redacted] npx" },
  { "https://example.com/cb?access_token=abc123&state=xyz",
    "https://example.com/cb?access_token=[redacted]&state=xyz" },
  { "--api-key=abc123def --verbose", "--api-key=[redacted] --verbose" },
  { "password = \"hunter 2\"", "password = \"[redacted]\"" },
  /* Bearer tokens and URLs. */
  { "using Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig", "using Bearer [redacted]" },
  { "https://user:pa55word@example.com/path", "https://user:[redacted]@example.com/path" },
  /* Key-shaped strings wherever they stand. */
  { "key sk-proj-abcdefghijklmnopqrstuvwxyz012345 loaded", "key [redacted] loaded" },
  { "sk-ant-api03-abcdefghijklmnopqrstuvwxyz", "[redacted]" },
  { "token ghp_abcdefghijklmnopqrstuvwxyz0123456789.", "token [redacted]." },
  { "pat github_pat_11ABCDEFG0123456789_abcdefghij", "pat [redacted]" },
  { "slack xoxb-123456789012-abcdefghijkl", "slack [redacted]" },
  { "aws AKIAIOSFODNN7EXAMPLE id", "aws [redacted] id" },
  { "gl glpat-abcdefghij0123456789xyz", "gl [redacted]" },
  { "jwt=eyJhbGciOiJIUzI1NiJ9", NULL },
  { "id eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.SflKxwRJSMeKKF2QT4", "id [redacted]" },
  /* Ordinary words stay. */
  { "The token was refreshed; check your password settings.", NULL },
  { "invalid token: expired", NULL },
  { "{\"progressToken\": \"abc-123\", \"max_tokens\": 512, \"tokenCount\": 3}", NULL },
  { "a Bearer token is required", NULL },
  { "task-1234567890abcdefghijklmnop done", NULL },
  { "WWW-Authenticate: Bearer realm=\"mcp\", error=\"invalid_token\"", NULL },
  { "cookie jar and secret garden; password reset", NULL },
  { "{\"key\": \"name\", \"type\": \"secret\"}", NULL },
  { "skip sk-short here, AKIA too", NULL },
  { "https://example.com:8080/path and git@github.com:org/repo", NULL },
  { "if token == expected", NULL },
  { "", NULL },
};

static void
test_redact (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (redact_cases); i++)
    {
      const RedactCase *c = &redact_cases[i];
      g_autofree char *redacted = steward_redact (c->input);
      g_autofree char *if_needed = steward_redact_if_needed (c->input, strlen (c->input));

      g_test_message ("%s", c->input);
      g_assert_cmpstr (redacted, ==, c->expected != NULL ? c->expected : c->input);
      g_assert_cmpstr (if_needed, ==, c->expected);
    }

  g_assert_null (steward_redact (NULL));
}

static void
test_redact_entry (void)
{
  g_autoptr(GString) detail = g_string_new (NULL);
  const char *secret = "sk-abcdefghijklmnopqrstuvwxyz0123456789";
  StewardLogStore *store = steward_log_store_new (10);
  g_autoptr(StewardLogEntry) item = NULL;
  StewardLogEntry *entry;

  /* Text and detail, before the text is made one line. */
  entry = make_entry ("POST /mcp\nAuthorization: Bearer abcdefghijkl\nAccept: */*",
                      "{\"token\": \"abc\"}");
  g_assert_cmpstr (steward_log_entry_get_text (entry), ==,
                   "POST /mcp Authorization: [redacted] Accept: */*");
  g_assert_cmpstr (steward_log_entry_get_detail (entry), ==, "{\"token\": \"[redacted]\"}");
  g_assert_finalize_object (entry);

  /* A secret across the 64 KiB cut: redacted before the cut, so no half
   * of it stays readable. */
  g_string_append_c (detail, '{');
  while (detail->len < STEWARD_LOG_ENTRY_MAX_DETAIL - 10)
    g_string_append_c (detail, ' ');
  g_string_append (detail, secret);
  g_string_append (detail, " and more");
  entry = make_entry ("big", detail->str);
  g_assert_null (strstr (steward_log_entry_get_detail (entry), "sk-abc"));
  g_assert_null (strstr (steward_log_entry_get_detail (entry), "abcdefg"));
  g_assert_true (g_str_has_suffix (steward_log_entry_get_detail (entry), "bytes folded)"));

  /* Host events through the store too. */
  steward_log_store_add_host_event (store, "files", STEWARD_LOG_LEVEL_WARNING,
                                    "started with %s", "OPENAI_API_KEY=abc123");
  steward_log_store_add_host_event (store, NULL, STEWARD_LOG_LEVEL_ERROR,
                                    "server `%s` keeps crashing:\n%s", "files",
                                    "Error: bad key sk-abcdefghijklmnopqrstuvwxyz");
  steward_log_store_append (store, entry);
  steward_log_store_flush (store);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (store)), ==, 3);

  item = g_list_model_get_item (G_LIST_MODEL (store), 0);
  g_assert_cmpstr (steward_log_entry_get_text (item), ==, "started with OPENAI_API_KEY=[redacted]");
  g_assert_cmpint (steward_log_entry_get_source (item), ==, STEWARD_LOG_SOURCE_HOST);
  g_assert_cmpint (steward_log_entry_get_level (item), ==, STEWARD_LOG_LEVEL_WARNING);
  g_assert_cmpstr (steward_log_entry_get_server (item), ==, "files");
  g_assert_null (steward_log_entry_get_detail (item));
  g_clear_object (&item);

  item = g_list_model_get_item (G_LIST_MODEL (store), 1);
  g_assert_null (steward_log_entry_get_server (item));
  g_assert_cmpstr (steward_log_entry_get_text (item), ==,
                   "server `files` keeps crashing: Error: bad key [redacted]");
  g_assert_cmpstr (steward_log_entry_get_detail (item), ==,
                   "server `files` keeps crashing:\nError: bad key [redacted]");
  g_clear_object (&item);

  g_assert_finalize_object (store);
  g_assert_finalize_object (entry);
}

/* A protocol message's entry: the compact text laid out, redacted
 * together with its summary before that, folded past what is kept. */
static void
test_message_entry (void)
{
  static const char compact[] =
    "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
    "\"arguments\":{\"message\":\"a, b: {c} [d]\\\"\",\"list\":[1,true,null],"
    "\"none\":[],\"empty\":{}}}}";
  static const char pretty[] =
    "{\n"
    "  \"jsonrpc\": \"2.0\",\n"
    "  \"id\": 7,\n"
    "  \"method\": \"tools/call\",\n"
    "  \"params\": {\n"
    "    \"name\": \"echo\",\n"
    "    \"arguments\": {\n"
    "      \"message\": \"a, b: {c} [d]\\\"\",\n"
    "      \"list\": [\n"
    "        1,\n"
    "        true,\n"
    "        null\n"
    "      ],\n"
    "      \"none\": [],\n"
    "      \"empty\": {}\n"
    "    }\n"
    "  }\n"
    "}";
  static const char secret_json[] =
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"client_secret\":\"hunter2hunter2\","
    "\"note\":\"use sk-proj-abcdefghijklmnopqrstuvwxyz0123 now\"}}";
  g_autoptr(StewardLogEntry) entry = NULL;
  g_autoptr(StewardLogEntry) secret = NULL;
  g_autoptr(StewardLogEntry) big = NULL;
  g_autoptr(StewardLogEntry) broken = NULL;
  g_autoptr(StewardLogEntry) nested = NULL;
  g_autoptr(GString) deep = NULL;
  g_autofree char *indent = NULL;
  g_autofree char *line = NULL;
  g_autoptr(GString) large = g_string_new ("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"text\":\"");
  const char *detail;

  entry = steward_log_entry_new_message (5, "files", STEWARD_LOG_DIRECTION_OUT,
                                         "tools/call “echo” id 7", compact, strlen (compact),
                                         FALSE, strlen (compact));
  g_assert_cmpint (steward_log_entry_get_source (entry), ==, STEWARD_LOG_SOURCE_TRACE);
  g_assert_cmpint (steward_log_entry_get_direction (entry), ==, STEWARD_LOG_DIRECTION_OUT);
  g_assert_cmpstr (steward_log_entry_get_text (entry), ==, "tools/call “echo” id 7");
  g_assert_cmpstr (steward_log_entry_get_detail (entry), ==, pretty);

  /* The secret in the summary and those in the message, in one pass. */
  secret = steward_log_entry_new_message (6, "files", STEWARD_LOG_DIRECTION_IN,
                                          "result id 1 sk-proj-abcdefghijklmnopqrstuvwxyz0123",
                                          secret_json, strlen (secret_json), FALSE,
                                          strlen (secret_json));
  g_assert_null (strstr (steward_log_entry_get_text (secret), "abcdefghijklmnop"));
  g_assert_nonnull (strstr (steward_log_entry_get_text (secret), STEWARD_REDACTED));
  detail = steward_log_entry_get_detail (secret);
  g_assert_true (g_str_has_prefix (detail, "{\n  \"jsonrpc\": \"2.0\""));
  g_assert_null (strstr (detail, "hunter2"));
  g_assert_null (strstr (detail, "abcdefghijklmnop"));
  g_assert_nonnull (strstr (detail, "\"client_secret\": \"" STEWARD_REDACTED "\""));

  /* Far longer than an entry keeps, with characters of several bytes
   * where the cut falls. */
  while (large->len < 200 * 1024)
    g_string_append (large, "é€𝄞, x");
  g_string_append (large, "\"}}");
  big = steward_log_entry_new_message (7, "files", STEWARD_LOG_DIRECTION_IN, "result id 2",
                                       large->str, large->len, FALSE, large->len);
  detail = steward_log_entry_get_detail (big);
  g_assert_cmpuint (strlen (detail), <=, STEWARD_LOG_ENTRY_MAX_DETAIL + 256);
  g_assert_true (g_utf8_validate (detail, -1, NULL));
  g_assert_true (g_str_has_prefix (detail, "{\n  \"jsonrpc\""));
  g_assert_null (strstr (detail, "\"}}"));
  /* The size as g_format_size() writes it, with a no-break space. */
  g_assert_true (g_str_has_suffix (detail, "\n… folded here; the whole is 204.8\u00a0kB"));

  /* Nesting deeper than a line of spaces: each level two more. */
  deep = g_string_new (NULL);
  for (guint i = 0; i < 40; i++)
    g_string_append (deep, "[\"\\\\\",");
  g_string_append (deep, "0");
  for (guint i = 0; i < 40; i++)
    g_string_append_c (deep, ']');
  nested = steward_log_entry_new_message (9, "files", STEWARD_LOG_DIRECTION_IN, "deep",
                                          deep->str, deep->len, FALSE, deep->len);
  detail = steward_log_entry_get_detail (nested);
  indent = g_strnfill (80, ' ');
  line = g_strconcat ("\n", indent, "0\n", NULL);
  g_assert_nonnull (strstr (detail, line));
  g_assert_nonnull (strstr (detail, "\n  \"\\\\\",\n"));
  g_assert_true (g_str_has_suffix (detail, "\n  ]\n]"));

  /* Text that is not JSON is laid out as far as it goes, and kept. */
  broken = steward_log_entry_new_message (8, "files", STEWARD_LOG_DIRECTION_IN, "?",
                                          "{\"a\":[1,\"open", strlen ("{\"a\":[1,\"open"),
                                          TRUE, 999);
  g_assert_true (g_str_has_prefix (steward_log_entry_get_detail (broken),
                                   "{\n  \"a\": [\n    1,\n    \"open"));
}

/* A protocol message's detail is redacted and indented when first read:
 * from any thread, once, and without changing what the store counts for
 * it. */
static gpointer
read_detail_thread (gpointer data)
{
  return (gpointer) steward_log_entry_get_detail (data);
}

static void
test_message_detail_on_read (void)
{
  const char *json = "{\"jsonrpc\":\"2.0\",\"id\":3,\"params\":{\"password\":\"hunter2\"}}";
  g_autoptr(StewardLogEntry) entry = NULL;
  g_autoptr(StewardLogEntry) cut = NULL;
  GThread *threads[4];
  const char *detail;
  gsize kept;

  entry = steward_log_entry_new_message (1, "files", STEWARD_LOG_DIRECTION_IN, "x", json,
                                         strlen (json), FALSE, strlen (json));
  kept = steward_log_entry_get_kept_bytes (entry);
  /* The compact text as it came is what is kept until then. */
  g_assert_cmpuint (kept, ==, strlen ("x") + 1 + strlen (json) + 1);

  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = g_thread_new ("read-detail", read_detail_thread, entry);
  detail = steward_log_entry_get_detail (entry);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    g_assert_true (g_thread_join (threads[i]) == detail);

  g_assert_cmpstr (detail, ==,
                   "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 3,\n  \"params\": {\n"
                   "    \"password\": \"" STEWARD_REDACTED "\"\n  }\n}");
  g_assert_true (steward_log_entry_get_detail (entry) == detail);
  g_assert_cmpuint (steward_log_entry_get_kept_bytes (entry), ==, kept);
  g_assert_true (steward_log_entry_matches_text (entry, "\"id\": 3"));

  /* Cut by the sender: the marker names the whole size. */
  cut = steward_log_entry_new_message (2, "files", STEWARD_LOG_DIRECTION_IN, "y", "{\"a\":1",
                                       strlen ("{\"a\":1"), TRUE, 999);
  g_assert_cmpstr (steward_log_entry_get_detail (cut), ==,
                   "{\n  \"a\": 1\n… folded here; the whole is 999 bytes");

  /* Bytes that are not UTF-8, or a NUL, wherever they fall among the eight
   * bytes looked at together, are made valid, as any text is. */
  for (guint at = 0; at < 16; at++)
    {
      g_autoptr(GString) odd = g_string_new ("{\"a\":\"0123456789abcdef\"}");
      g_autoptr(StewardLogEntry) made_valid = NULL;
      g_autoptr(StewardLogEntry) with_nul = NULL;

      odd->str[6 + at] = (char) 0xff;
      made_valid = steward_log_entry_new_message (3, "files", STEWARD_LOG_DIRECTION_IN, "z",
                                                  odd->str, odd->len, FALSE, odd->len);
      detail = steward_log_entry_get_detail (made_valid);
      g_assert_true (g_utf8_validate (detail, -1, NULL));
      g_assert_nonnull (strstr (detail, "\xef\xbf\xbd"));

      odd->str[6 + at] = '\0';
      with_nul = steward_log_entry_new_message (4, "files", STEWARD_LOG_DIRECTION_IN, "z",
                                                odd->str, odd->len, FALSE, odd->len);
      detail = steward_log_entry_get_detail (with_nul);
      g_assert_true (g_utf8_validate (detail, -1, NULL));
      g_assert_nonnull (strstr (detail, "\xef\xbf\xbd"));
    }
}

static void
test_matches_text (void)
{
  StewardLogEntry *entry;

  entry = steward_log_entry_new (0, "files", STEWARD_LOG_SOURCE_SERVER, STEWARD_LOG_LEVEL_INFO,
                                 STEWARD_LOG_DIRECTION_IN, "Indexer",
                                 "Read 3 files from ÉCOLE", "{\"path\": \"/srv/Data\"}", 0);

  g_assert_true (steward_log_entry_matches_text (entry, NULL));
  g_assert_true (steward_log_entry_matches_text (entry, ""));
  g_assert_true (steward_log_entry_matches_text (entry, "read 3"));
  g_assert_true (steward_log_entry_matches_text (entry, "FILES FROM"));
  g_assert_true (steward_log_entry_matches_text (entry, "école"));
  g_assert_true (steward_log_entry_matches_text (entry, "/srv/data"));
  g_assert_true (steward_log_entry_matches_text (entry, "indexer"));
  g_assert_false (steward_log_entry_matches_text (entry, "files2"));
  g_assert_false (steward_log_entry_matches_text (entry, "ecole"));
  g_assert_false (steward_log_entry_matches_text (entry, "Indexer!"));

  g_assert_finalize_object (entry);
}

static void
export_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static gboolean
export_and_wait (GListModel    *model,
                 GFile         *file,
                 gboolean       as_json,
                 GCancellable  *cancellable,
                 GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  gboolean timed_out = FALSE;
  guint id = g_timeout_add_seconds (TIMEOUT_S, timeout_cb, &timed_out);

  steward_log_store_export_async (model, file, as_json, cancellable, export_cb, &result);
  while (result == NULL && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (timed_out);
  g_source_remove (id);

  return steward_log_store_export_finish (result, error);
}

/* A short protocol message is redacted when first read, not when it
 * arrives: whatever reads it, the summary, the detail, a search or an
 * export, gets it redacted, and a secret the host learns after the
 * message arrived is taken out too. */
static void
test_message_redacted_on_read (void)
{
  const char *json = "{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{\"text\":\"said lazy-9c1e-value\","
                     "\"token\":\"abc123\"}}";
  g_autoptr(StewardLogEntry) entry = NULL;
  g_autoptr(StewardLogEntry) split = NULL;
  g_autoptr(StewardLogStore) store = NULL;
  g_autoptr(StewardLogEntry) exported_entry = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *exported = NULL;
  const char *detail;

  steward_redact_forget_secrets ();
  entry = steward_log_entry_new_message (1, "files", STEWARD_LOG_DIRECTION_IN,
                                         "result lazy-9c1e-value", json, strlen (json), FALSE,
                                         strlen (json));
  steward_redact_add_secret ("lazy-9c1e-value");

  g_assert_false (steward_log_entry_matches_text (entry, "lazy-9c1e"));
  g_assert_false (steward_log_entry_matches_text (entry, "abc123"));
  g_assert_cmpstr (steward_log_entry_get_text (entry), ==, "result " STEWARD_REDACTED);
  detail = steward_log_entry_get_detail (entry);
  g_assert_null (strstr (detail, "lazy-9c1e-value"));
  g_assert_null (strstr (detail, "abc123"));
  g_assert_nonnull (strstr (detail, "\"said " STEWARD_REDACTED "\""));

  /* A remembered secret that holds a line break spans the summary and the
   * detail as the redactor reads them together: each is redacted alone. */
  steward_redact_add_secret ("tail-7a\n{\"jsonrpc");
  split = steward_log_entry_new_message (2, "files", STEWARD_LOG_DIRECTION_OUT, "head tail-7a",
                                         "{\"jsonrpc\":\"2.0\",\"method\":\"m\"}",
                                         strlen ("{\"jsonrpc\":\"2.0\",\"method\":\"m\"}"),
                                         FALSE, 30);
  g_assert_cmpstr (steward_log_entry_get_text (split), ==, "head tail-7a");
  g_assert_nonnull (strstr (steward_log_entry_get_detail (split), "\"method\": \"m\""));

  /* An export, on its worker, reads the same redacted texts. */
  store = steward_log_store_new (0);
  exported_entry = steward_log_entry_new_message (3, "files", STEWARD_LOG_DIRECTION_IN,
                                                  "result lazy-9c1e-value", json, strlen (json),
                                                  FALSE, strlen (json));
  steward_log_store_append (store, exported_entry);
  path = g_build_filename (tmp_dir, "lazy.jsonl", NULL);
  file = g_file_new_for_path (path);
  g_assert_true (export_and_wait (G_LIST_MODEL (store), file, TRUE, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &exported, NULL, NULL));
  g_assert_null (strstr (exported, "lazy-9c1e-value"));
  g_assert_null (strstr (exported, "abc123"));
  g_assert_nonnull (strstr (exported, STEWARD_REDACTED));
  g_unlink (path);

  steward_redact_forget_secrets ();
}

static StewardLogStore *
make_export_store (void)
{
  StewardLogStore *store = steward_log_store_new (0);
  /* 2026-11-21 18:30:01.123 in UTC; the export uses local time, and the
   * tests run with TZ=UTC. */
  gint64 t = G_GINT64_CONSTANT (1795285801123000);
  g_autoptr(StewardLogEntry) first = NULL;
  g_autoptr(StewardLogEntry) second = NULL;

  first = steward_log_entry_new (t, "files", STEWARD_LOG_SOURCE_TRACE, STEWARD_LOG_LEVEL_DEBUG,
                                 STEWARD_LOG_DIRECTION_OUT, NULL, "tools/call id 1",
                                 "{\n  \"method\": \"tools/call\"\n}", 31);
  second = steward_log_entry_new (t + 5000, NULL, STEWARD_LOG_SOURCE_HOST,
                                  STEWARD_LOG_LEVEL_ERROR, STEWARD_LOG_DIRECTION_NONE,
                                  "core", "crashed \"quoted\"", NULL, 0);
  steward_log_store_append (store, first);
  steward_log_store_append (store, second);

  return store;
}

static void
test_export_text (void)
{
  StewardLogStore *store = make_export_store ();
  g_autofree char *path = g_build_filename (tmp_dir, "export.txt", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(GDir) dir = NULL;
  const char *name;

  /* An existing file is replaced whole. */
  g_file_set_contents (path, "old contents that are longer than the new ones will be, "
                       "and more and more and more and more and more and more and more\n"
                       "and more and more and more and more and more and more and more\n",
                       -1, &error);
  g_assert_no_error (error);

  /* Pending entries are taken too. */
  g_assert_true (export_and_wait (G_LIST_MODEL (store), file, FALSE, NULL, &error));
  g_assert_no_error (error);

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (contents, ==,
                   /* The window's words, and the direction and size as its
                    * rows show them. */
                   "2026-11-21 18:30:01.123  files  Protocol  debug  → 31 B  tools/call id 1\n"
                   "    {\n"
                   "      \"method\": \"tools/call\"\n"
                   "    }\n"
                   "2026-11-21 18:30:01.128  -  Steward  error  [core] crashed \"quoted\"\n");

  /* No temporary file is left beside it. */
  dir = g_dir_open (tmp_dir, 0, &error);
  g_assert_no_error (error);
  while ((name = g_dir_read_name (dir)) != NULL)
    g_assert_false (g_str_has_prefix (name, ".export.txt"));

  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_finalize_object (store);
}

static void
test_export_json (void)
{
  StewardLogStore *store = make_export_store ();
  g_autofree char *path = g_build_filename (tmp_dir, "export.jsonl", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(StewardLogEntry) odd = NULL;

  /* Everything JSON must escape, and what it must not. */
  odd = steward_log_entry_new (0, "odd \"name\"", STEWARD_LOG_SOURCE_STDERR,
                               STEWARD_LOG_LEVEL_EMERGENCY, STEWARD_LOG_DIRECTION_IN, "a\\b",
                               "back\\slash and é", "tab\there\r\n\x01\x7f \\ \" é ∑ 😀", 3);
  steward_log_store_append (store, odd);

  g_assert_true (export_and_wait (G_LIST_MODEL (store), file, TRUE, NULL, &error));
  g_assert_no_error (error);

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_suffix (contents, "\n"));
  lines = g_strsplit (contents, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 4);
  g_assert_cmpstr (lines[3], ==, "");

  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(StewardLogEntry) entry = g_list_model_get_item (G_LIST_MODEL (store), i);
      JsonObject *object;

      json_parser_load_from_data (parser, lines[i], -1, &error);
      g_assert_no_error (error);
      g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
      object = json_node_get_object (json_parser_get_root (parser));

      g_assert_cmpint (json_object_get_int_member (object, "time_us"), ==,
                       steward_log_entry_get_time (entry));
      g_assert_cmpstr (json_object_get_string_member (object, "text"), ==,
                       steward_log_entry_get_text (entry));
      g_assert_cmpstr (json_object_get_string_member_with_default (object, "detail", NULL), ==,
                       steward_log_entry_get_detail (entry));
      g_assert_cmpstr (json_object_get_string_member_with_default (object, "server", NULL), ==,
                       steward_log_entry_get_server (entry));
      g_assert_cmpstr (json_object_get_string_member_with_default (object, "logger", NULL), ==,
                       steward_log_entry_get_logger (entry));
      g_assert_cmpstr (json_object_get_string_member (object, "level"), ==,
                       steward_log_level_to_string (steward_log_entry_get_level (entry)));
      g_assert_cmpstr (json_object_get_string_member (object, "source"), ==,
                       steward_log_source_to_string (steward_log_entry_get_source (entry)));
      g_assert_cmpstr (json_object_get_string_member (object, "direction"), ==,
                       steward_log_direction_to_string (steward_log_entry_get_direction (entry)));
      g_assert_cmpint (json_object_get_int_member (object, "size"), ==,
                       steward_log_entry_get_size (entry));
    }
  g_assert_nonnull (strstr (lines[0], "\"time\":\"2026-11-21T18:30:01.123+00:00\""));
  g_assert_nonnull (strstr (lines[1], "\"server\":null"));
  g_assert_nonnull (strstr (lines[1], "\"logger\":\"core\""));

  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_finalize_object (store);
}

static void
test_export_errors (void)
{
  StewardLogStore *store = make_export_store ();
  g_autofree char *missing = g_build_filename (tmp_dir, "no", "such", "folder", "log.txt", NULL);
  g_autofree char *path = g_build_filename (tmp_dir, "kept.txt", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (missing);
  g_autoptr(GFile) kept = g_file_new_for_path (path);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;

  /* The error names the file. */
  g_assert_false (export_and_wait (G_LIST_MODEL (store), file, FALSE, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, missing));
  g_clear_error (&error);

  /* A cancelled export leaves the old file as it was. */
  g_file_set_contents (path, "keep me\n", -1, &error);
  g_assert_no_error (error);
  g_cancellable_cancel (cancellable);
  g_assert_false (export_and_wait (G_LIST_MODEL (store), kept, FALSE, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_file_get_contents (path, &contents, NULL, NULL);
  g_assert_cmpstr (contents, ==, "keep me\n");

  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_finalize_object (store);
}

static gsize
resident_bytes (void)
{
  g_autofree char *statm = NULL;
  g_auto(GStrv) fields = NULL;

  g_assert_true (g_file_get_contents ("/proc/self/statm", &statm, NULL, NULL));
  fields = g_strsplit (statm, " ", -1);
  g_assert_cmpuint (g_strv_length (fields), >=, 2);

  return g_ascii_strtoull (fields[1], NULL, 10) * sysconf (_SC_PAGESIZE);
}

/* A trace entry of an ordinary size: a summary line and a pretty
 * tools/call message with a few hundred bytes of arguments. */
static StewardLogEntry *
make_trace_entry (guint i)
{
  g_autofree char *text = g_strdup_printf ("→ tools/call read_file id %u", i);
  g_autofree char *detail = g_strdup_printf (
    "{\n"
    "  \"jsonrpc\": \"2.0\",\n"
    "  \"id\": %u,\n"
    "  \"method\": \"tools/call\",\n"
    "  \"params\": {\n"
    "    \"name\": \"read_file\",\n"
    "    \"arguments\": {\n"
    "      \"path\": \"/home/alice/Projects/steward/src/host/file-%u.c\",\n"
    "      \"head\": 120\n"
    "    },\n"
    "    \"_meta\": {\n"
    "      \"progressToken\": %u\n"
    "    }\n"
    "  }\n"
    "}", i, i, i);

  return steward_log_entry_new (g_get_real_time (), "filesystem", STEWARD_LOG_SOURCE_TRACE,
                                STEWARD_LOG_LEVEL_DEBUG, STEWARD_LOG_DIRECTION_OUT, NULL,
                                text, detail, strlen (detail));
}

static void
test_memory (void)
{
  StewardLogStore *store;
  gsize before;
  gsize after;
  gint64 start;
  gint64 elapsed;
  double mib;

  before = resident_bytes ();
  start = g_get_monotonic_time ();

  store = steward_log_store_new (100000);
  for (guint i = 0; i < 100000; i++)
    {
      g_autoptr(StewardLogEntry) entry = make_trace_entry (i);

      steward_log_store_append (store, entry);
      /* As the main loop would, about once a frame at 10,000 a second. */
      if (i % 160 == 159)
        steward_log_store_flush (store);
    }
  steward_log_store_flush (store);

  elapsed = g_get_monotonic_time () - start;
  after = resident_bytes ();
  mib = (after > before ? after - before : 0) / (1024.0 * 1024.0);

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (store)), ==, 100000);
  g_assert_cmpuint (steward_log_store_get_n_dropped (store), ==, 0);
  g_test_message ("100,000 trace entries: RSS grew by %.1f MiB (%.0f bytes per entry); "
                  "%.2f us per entry to build and append",
                  mib, mib * 1024 * 1024 / 100000, elapsed / 100000.0);
  g_assert_cmpfloat (mib, <, 60.0);

  /* Big payloads are bounded by bytes: 100,000 entries of 16 KiB would
   * be 1.6 GB. */
  {
    g_autofree char *big = g_strnfill (16 * 1024, 'b');

    before = resident_bytes ();
    for (guint i = 0; i < 100000; i++)
      {
        g_autoptr(StewardLogEntry) entry = make_entry ("big", big);

        steward_log_store_append (store, entry);
        if (i % 160 == 159)
          steward_log_store_flush (store);
      }
    steward_log_store_flush (store);
    after = resident_bytes ();
    mib = (after > before ? after - before : 0) / (1024.0 * 1024.0);
    g_test_message ("then 100,000 entries of 16 KiB: RSS grew by %.1f MiB more; %u kept",
                    mib, g_list_model_get_n_items (G_LIST_MODEL (store)));
    g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (store)), <, 3100);
    g_assert_cmpfloat (mib, <, 80.0);
  }

  g_assert_finalize_object (store);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  /* Export writes local times; pin them. */
  g_setenv ("TZ", "UTC", TRUE);

  g_test_init (&argc, &argv, NULL);

  tmp_dir = g_dir_make_tmp ("steward-test-log-store-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/steward/log-store/entry", test_entry);
  g_test_add_func ("/steward/log-store/enums", test_enums);
  g_test_add_func ("/steward/log-store/batch", test_batch);
  g_test_add_func ("/steward/log-store/overflow", test_overflow);
  g_test_add_func ("/steward/log-store/max-bytes", test_max_bytes);
  g_test_add_func ("/steward/log-store/message-records", test_message_records);
  g_test_add_func ("/steward/log-store/message-detail-on-read", test_message_detail_on_read);
  g_test_add_func ("/steward/log-store/redact", test_redact);
  g_test_add_func ("/steward/log-store/redact-entry", test_redact_entry);
  g_test_add_func ("/steward/log-store/message-entry", test_message_entry);
  g_test_add_func ("/steward/log-store/message-redacted-on-read", test_message_redacted_on_read);
  g_test_add_func ("/steward/log-store/matches-text", test_matches_text);
  g_test_add_func ("/steward/log-store/export-text", test_export_text);
  g_test_add_func ("/steward/log-store/export-json", test_export_json);
  g_test_add_func ("/steward/log-store/export-errors", test_export_errors);
  g_test_add_func ("/steward/log-store/memory", test_memory);

  status = g_test_run ();

  g_rmdir (tmp_dir);
  g_free (tmp_dir);

  return status;
}

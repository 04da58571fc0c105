/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-file-store"

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "steward-file-store.h"

/* The file-backed store: what loading refuses, how saves fold into
 * writes, when waiters wake, and a failed write. */

#define wait_until(condition, seconds)                                         \
  G_STMT_START {                                                              \
    gint64 deadline_ = g_get_monotonic_time () + (seconds) * G_USEC_PER_SEC;   \
    while (!(condition))                                                      \
      {                                                                       \
        if (g_get_monotonic_time () >= deadline_)                             \
          g_error ("timed out after %d s waiting for: %s", (int) (seconds),    \
                   #condition);                                               \
        g_main_context_iteration (NULL, TRUE);                                \
      }                                                                       \
  } G_STMT_END

typedef struct {
  char *dir;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fixture->dir = g_dir_make_tmp ("test-file-store-XXXXXX", &error);
  g_assert_no_error (error);
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir != NULL)
    while ((name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *child = g_build_filename (path, name, NULL);

        if (g_file_test (child, G_FILE_TEST_IS_DIR) &&
            !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
          remove_tree (child);
        else
          g_unlink (child);
      }
  g_rmdir (path);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  remove_tree (fixture->dir);
  g_free (fixture->dir);
}

static GFile *
child_file (Fixture    *fixture,
            const char *name)
{
  g_autofree char *path = g_build_filename (fixture->dir, name, NULL);

  return g_file_new_for_path (path);
}

static void
put_file (GFile      *file,
          const char *contents)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_file_get_path (file);

  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
}

static char *
read_file (GFile *file)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_file_get_path (file);
  char *contents = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  return contents;
}

static GBytes *
bytes_printf (const char *format,
              ...) G_GNUC_PRINTF (1, 2);

static GBytes *
bytes_printf (const char *format,
              ...)
{
  va_list args;
  char *text;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  return g_bytes_new_take (text, strlen (text));
}

static void
store_result_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static void
test_load_object (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(GFile) file = child_file (fixture, "ok.json");
  g_autoptr(StewardFileStore) store = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonObject) object = NULL;
  g_autoptr(GError) error = NULL;

  put_file (file, "{\"name\": \"files\", \"count\": 3}");
  store = steward_file_store_new (file, 1024, STEWARD_FILE_STORE_NONE);

  steward_file_store_load_async (store, NULL, store_result_cb, &result);
  wait_until (result != NULL, 10);
  object = steward_file_store_load_finish (store, result, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (object, "name"), ==, "files");
  g_assert_cmpint (json_object_get_int_member (object, "count"), ==, 3);

  g_clear_object (&result);
  g_assert_finalize_object (g_steal_pointer (&store));
}

static void
test_load_too_large (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(GFile) file = child_file (fixture, "large.json");
  g_autoptr(GString) text = g_string_new ("{\"padding\": \"");
  g_autoptr(JsonObject) object = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = g_file_get_parse_name (file);

  /* Larger than one read, so that the cap is met while reading too. */
  for (guint i = 0; i < 200000; i++)
    g_string_append_c (text, 'x');
  g_string_append (text, "\"}");
  put_file (file, text->str);

  object = steward_file_store_read_object (file, 100000, NULL, &error);
  g_assert_null (object);
  g_assert_error (error, STEWARD_FILE_STORE_ERROR, STEWARD_FILE_STORE_ERROR_TOO_LARGE);
  g_assert_nonnull (strstr (error->message, name));

  /* The same file under a cap it fits is read. */
  g_clear_error (&error);
  object = steward_file_store_read_object (file, text->len, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (json_object_has_member (object, "padding"));
}

static void
test_load_not_object (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(GFile) array = child_file (fixture, "array.json");
  g_autoptr(GFile) broken = child_file (fixture, "broken.json");
  g_autoptr(GFile) missing = child_file (fixture, "missing.json");
  g_autofree char *array_name = g_file_get_parse_name (array);
  g_autofree char *broken_name = g_file_get_parse_name (broken);
  g_autoptr(GError) error = NULL;

  put_file (array, "[1, 2, 3]");
  put_file (broken, "{\"open\": ");

  g_assert_null (steward_file_store_read_object (array, 1024, NULL, &error));
  g_assert_error (error, STEWARD_FILE_STORE_ERROR, STEWARD_FILE_STORE_ERROR_NOT_OBJECT);
  g_assert_nonnull (strstr (error->message, array_name));
  g_clear_error (&error);

  g_assert_null (steward_file_store_read_object (broken, 1024, NULL, &error));
  g_assert_error (error, STEWARD_FILE_STORE_ERROR, STEWARD_FILE_STORE_ERROR_NOT_JSON);
  g_assert_nonnull (strstr (error->message, broken_name));
  g_clear_error (&error);

  /* Missing is told apart, for callers that take it as empty. */
  g_assert_null (steward_file_store_read_object (missing, 1024, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
}

static void
test_coalesce (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GFile) file = child_file (fixture, "sub/state.json");
  g_autoptr(StewardFileStore) store = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;

  store = steward_file_store_new (file, 1024, STEWARD_FILE_STORE_NONE);
  g_assert_false (steward_file_store_is_busy (store));

  /* The first save starts a write; the nine after it, made while it
   * runs, end in one more write with the last of them. */
  for (guint i = 1; i <= 10; i++)
    {
      g_autoptr(GBytes) bytes = bytes_printf ("{\"n\": %u}", i);

      steward_file_store_save (store, bytes);
    }
  g_assert_true (steward_file_store_is_busy (store));

  steward_file_store_flush_async (store, NULL, store_result_cb, &result);
  wait_until (result != NULL, 10);
  g_assert_true (steward_file_store_flush_finish (store, result, &error));
  g_assert_no_error (error);

  g_assert_cmpuint (steward_file_store_get_n_writes (store), ==, 2);
  g_assert_false (steward_file_store_is_busy (store));
  contents = read_file (file);
  g_assert_cmpstr (contents, ==, "{\"n\": 10}");

  g_clear_object (&result);
  g_assert_finalize_object (g_steal_pointer (&store));
}

typedef struct {
  StewardFileStore *store;
  guint             writes_seen;
  gboolean          ok;
  gboolean          done;
} Waiter;

static void
save_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Waiter *waiter = user_data;
  g_autoptr(GError) error = NULL;

  waiter->ok = steward_file_store_save_finish (waiter->store, result, &error);
  waiter->writes_seen = steward_file_store_get_n_writes (waiter->store);
  waiter->done = TRUE;
}

static void
flush_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  Waiter *waiter = user_data;
  g_autoptr(GError) error = NULL;

  waiter->ok = steward_file_store_flush_finish (waiter->store, result, &error);
  waiter->writes_seen = steward_file_store_get_n_writes (waiter->store);
  waiter->done = TRUE;
}

static void
test_waiters (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(GFile) file = child_file (fixture, "state.json");
  g_autoptr(StewardFileStore) store = NULL;
  g_autoptr(GBytes) first = bytes_printf ("{\"n\": 1}");
  g_autoptr(GBytes) second = bytes_printf ("{\"n\": 2}");
  g_autoptr(GBytes) third = bytes_printf ("{\"n\": 3}");
  g_autoptr(GAsyncResult) idle = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  Waiter a = { 0 }, b = { 0 }, c = { 0 }, flush = { 0 };

  store = steward_file_store_new (file, 1024, STEWARD_FILE_STORE_PRIVATE);
  a.store = b.store = c.store = flush.store = store;

  /* With nothing to write, a flush finishes at once. */
  steward_file_store_flush_async (store, NULL, store_result_cb, &idle);
  wait_until (idle != NULL, 10);
  g_assert_true (steward_file_store_flush_finish (store, idle, &error));
  g_assert_cmpuint (steward_file_store_get_n_writes (store), ==, 0);

  steward_file_store_save_async (store, first, NULL, save_done_cb, &a);
  steward_file_store_save_async (store, second, NULL, save_done_cb, &b);
  steward_file_store_flush_async (store, NULL, flush_done_cb, &flush);
  steward_file_store_save_async (store, third, NULL, save_done_cb, &c);

  wait_until (a.done && b.done && c.done && flush.done, 10);
  g_assert_true (a.ok && b.ok && c.ok && flush.ok);

  /* The first save wakes with the first write; the two after it share
   * the second, and the flush, made before the third, wakes with it. */
  g_assert_cmpuint (a.writes_seen, ==, 1);
  g_assert_cmpuint (b.writes_seen, ==, 2);
  g_assert_cmpuint (flush.writes_seen, ==, 2);
  g_assert_cmpuint (c.writes_seen, ==, 2);
  contents = read_file (file);
  g_assert_cmpstr (contents, ==, "{\"n\": 3}");

  g_clear_object (&idle);
  g_assert_finalize_object (g_steal_pointer (&store));
}

static void
count_failure_cb (StewardFileStore *store,
                  const GError     *error,
                  gpointer          user_data)
{
  guint *failures = user_data;

  g_assert_nonnull (error);
  (*failures)++;
}

static void
test_failure (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(GFile) blocker = child_file (fixture, "blocker");
  g_autoptr(GFile) file = child_file (fixture, "blocker/state.json");
  g_autoptr(StewardFileStore) store = NULL;
  g_autoptr(GBytes) bytes = bytes_printf ("{}");
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *blocker_path = g_file_get_path (blocker);
  guint failures = 0;

  /* A plain file where the folder should be: the write cannot succeed. */
  put_file (blocker, "not a folder");
  store = steward_file_store_new (file, 1024, STEWARD_FILE_STORE_PRIVATE);
  g_signal_connect (store, "write-failed", G_CALLBACK (count_failure_cb), &failures);

  steward_file_store_save_async (store, bytes, NULL, store_result_cb, &result);
  wait_until (result != NULL, 10);
  g_assert_false (steward_file_store_save_finish (store, result, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, blocker_path));
  g_assert_cmpuint (failures, ==, 1);
  g_assert_false (steward_file_store_is_busy (store));

  /* Once the way is clear, the next save is written. */
  g_clear_object (&result);
  g_clear_error (&error);
  g_assert_cmpint (g_unlink (blocker_path), ==, 0);
  steward_file_store_save_async (store, bytes, NULL, store_result_cb, &result);
  wait_until (result != NULL, 10);
  g_assert_true (steward_file_store_save_finish (store, result, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (failures, ==, 1);

  g_clear_object (&result);
  g_assert_finalize_object (g_steal_pointer (&store));
}

static void
test_private_and_links (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(GFile) real = child_file (fixture, "real.json");
  g_autoptr(GFile) link = child_file (fixture, "link.json");
  g_autoptr(StewardFileStore) store = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonObject) object = json_object_new ();
  g_autofree char *real_path = g_file_get_path (real);
  g_autofree char *link_path = g_file_get_path (link);
  g_autofree char *contents = NULL;
  GStatBuf st;

  put_file (real, "{}");
  g_assert_cmpint (symlink ("real.json", link_path), ==, 0);

  store = steward_file_store_new (link, 1024,
                                  STEWARD_FILE_STORE_PRIVATE |
                                  STEWARD_FILE_STORE_FOLLOW_LINKS);
  json_object_set_string_member (object, "kept", "yes");
  json_node_set_object (root, object);
  steward_file_store_save_json (store, root);
  steward_file_store_flush_async (store, NULL, store_result_cb, &result);
  wait_until (result != NULL, 10);
  g_assert_true (steward_file_store_flush_finish (store, result, &error));
  g_assert_no_error (error);

  /* The link stays a link; the file it names holds the new text, private. */
  g_assert_true (g_file_test (link_path, G_FILE_TEST_IS_SYMLINK));
  contents = read_file (real);
  g_assert_cmpstr (contents, ==, "{\"kept\":\"yes\"}");
  g_assert_cmpint (g_stat (real_path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);

  g_clear_object (&result);
  g_assert_finalize_object (g_steal_pointer (&store));
}

static void
test_move_aside (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(GFile) file = child_file (fixture, "state.json");
  g_autoptr(GFile) first = NULL;
  g_autoptr(GFile) second = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *first_name = NULL;
  g_autofree char *second_name = NULL;
  g_autofree char *kept = NULL;

  /* A second damaged file never replaces the first one kept aside. */
  put_file (file, "{ damaged");
  first = steward_file_store_move_aside (file, NULL, &error);
  g_assert_no_error (error);
  put_file (file, "{ damaged again");
  second = steward_file_store_move_aside (file, NULL, &error);
  g_assert_no_error (error);

  first_name = g_file_get_basename (first);
  second_name = g_file_get_basename (second);
  g_assert_cmpstr (first_name, ==, "state.json.damaged");
  g_assert_cmpstr (second_name, ==, "state.json.damaged-1");
  kept = read_file (first);
  g_assert_cmpstr (kept, ==, "{ damaged");
  g_assert_false (g_file_query_exists (file, NULL));

  /* Nothing to move is an error, not a crash. */
  g_assert_null (steward_file_store_move_aside (file, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
}

static void
test_save_json_pretty (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(GFile) file = child_file (fixture, "pretty.json");
  g_autoptr(StewardFileStore) store = NULL;
  g_autoptr(GAsyncResult) first = NULL;
  g_autoptr(GAsyncResult) second = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) old_root = json_from_string ("{\"n\": 1}", NULL);
  g_autoptr(JsonNode) new_root = json_from_string ("{\"n\": 2, \"list\": [true]}", NULL);
  g_autofree char *contents = NULL;

  store = steward_file_store_new (file, 1024,
                                  STEWARD_FILE_STORE_PRIVATE | STEWARD_FILE_STORE_PRETTY);
  steward_file_store_save_json (store, old_root);
  steward_file_store_flush_async (store, NULL, store_result_cb, &first);
  steward_file_store_save_json (store, new_root);
  steward_file_store_flush_async (store, NULL, store_result_cb, &second);
  wait_until (first != NULL && second != NULL, 10);
  g_assert_true (steward_file_store_flush_finish (store, first, &error));
  g_assert_no_error (error);
  g_assert_true (steward_file_store_flush_finish (store, second, &error));
  g_assert_no_error (error);

  /* The newest tree, indented, and a file people read ends its line. */
  contents = read_file (file);
  g_assert_cmpstr (contents, ==, "{\n  \"n\" : 2,\n  \"list\" : [\n    true\n  ]\n}\n");

  g_clear_object (&first);
  g_clear_object (&second);
  g_assert_finalize_object (g_steal_pointer (&store));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/steward/file-store/" path, Fixture, NULL, fixture_set_up, func, \
              fixture_tear_down)

  ADD ("load-object", test_load_object);
  ADD ("load-too-large", test_load_too_large);
  ADD ("load-not-object", test_load_not_object);
  ADD ("coalesce", test_coalesce);
  ADD ("waiters", test_waiters);
  ADD ("failure", test_failure);
  ADD ("private-and-links", test_private_and_links);
  ADD ("move-aside", test_move_aside);
  ADD ("save-json-pretty", test_save_json_pretty);

#undef ADD

  return g_test_run ();
}

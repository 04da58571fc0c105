/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-roots"

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "steward-roots.h"

#define TIMEOUT_S 10

/* The canonical path of a folder of our own, and the fake home in it:
 * HOME is a symlink to home/alice there, so that both of its forms are
 * checked. */
static char *tmp_dir;
static char *home_dir;
static char *home_link;

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmp_dir, name, NULL);
}

static char *
home_path (const char *name)
{
  return g_build_filename (home_dir, name, NULL);
}

static void
make_dir (const char *path)
{
  g_assert_cmpint (g_mkdir_with_parents (path, 0700), ==, 0);
}

/* Every "changed" emission, NULL recorded as "*". */
static void
changed_cb (StewardRoots *roots,
            const char   *server,
            GPtrArray    *log)
{
  g_ptr_array_add (log, g_strdup (server != NULL ? server : "*"));
}

static char *
joined (GPtrArray *log)
{
  g_autofree char *result = NULL;

  g_ptr_array_add (log, NULL);
  result = g_strjoinv (",", (char **) log->pdata);
  g_ptr_array_set_size (log, log->len - 1);
  g_ptr_array_set_size (log, 0);

  return g_steal_pointer (&result);
}

static void
assert_changed (GPtrArray  *log,
                const char *expected)
{
  g_autofree char *got = joined (log);

  g_assert_cmpstr (got, ==, expected);
}

static gboolean
timeout_cb (gpointer user_data)
{
  gboolean *timed_out = user_data;

  *timed_out = TRUE;
  return G_SOURCE_REMOVE;
}

static void
result_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static GAsyncResult *
wait_result (GAsyncResult **result)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add_seconds (TIMEOUT_S, timeout_cb, &timed_out);

  while (*result == NULL && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (timed_out);
  g_source_remove (id);

  return *result;
}

static gboolean
save_and_wait (StewardRoots  *roots,
               GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  steward_roots_save_async (roots, NULL, result_cb, &result);
  return steward_roots_save_finish (roots, wait_result (&result), error);
}

static char *
list_json (StewardRoots *roots,
           const char   *server)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);

  json_node_take_object (node, steward_roots_list_for_server (roots, server));
  return json_to_string (node, FALSE);
}

typedef struct
{
  const char *path;
  const char *cwd;
  const char *expected;  /* NULL: an error */
} CanonicalCase;

static void
test_canonicalize (void)
{
  static const CanonicalCase cases[] = {
    { "a/b", "/base", "/base/a/b" },
    { "a/b", "/base/", "/base/a/b" },
    { ".", "/base/c", "/base/c" },
    { "../..", "/base/c/d", "/base" },
    { "../../../../..", "/base/c", "/" },
    { "x", "/base/./c/../d", "/base/d/x" },
    { "/x/./y/../z", NULL, "/x/z" },
    { "//x///y//", NULL, "/x/y" },
    { "/x/y/", NULL, "/x/y" },
    { "/..", NULL, "/" },
    { "/../../x", NULL, "/x" },
    { "/", NULL, "/" },
    { "///", NULL, "/" },
    { "/x/..", NULL, "/" },
    { "/x/...", NULL, "/x/..." },
    { "/x/.hidden/..y", NULL, "/x/.hidden/..y" },
    { "", "/base", NULL },
    { "a", "relative", NULL },
  };
  g_autofree char *real = tmp_path ("real");
  g_autofree char *sub = tmp_path ("real/sub");
  g_autofree char *link = tmp_path ("link");
  g_autofree char *through_link = tmp_path ("link/sub");
  g_autofree char *dotdot = tmp_path ("link/../real/./sub/");
  g_autofree char *missing = tmp_path ("link/missing/..//missing");
  g_autofree char *missing_expected = tmp_path ("link/missing");
  g_autofree char *long_path = g_strnfill (5000, 'a');
  g_autofree char *current = g_get_current_dir ();
  g_autofree char *relative_expected = g_build_filename (current, "x", "y", NULL);
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *canonical = NULL;

      g_test_message ("%s against %s", cases[i].path, cases[i].cwd);
      canonical = steward_roots_canonicalize (cases[i].path, cases[i].cwd, &error);
      g_assert_cmpstr (canonical, ==, cases[i].expected);
      if (cases[i].expected == NULL)
        {
          g_assert_error (error, STEWARD_ROOTS_ERROR, STEWARD_ROOTS_ERROR_INVALID);
          g_clear_error (&error);
        }
      else
        {
          g_assert_no_error (error);
        }
    }

  /* Symlinks are resolved when the path exists. */
  make_dir (sub);
  g_assert_cmpint (symlink ("real", link), ==, 0);
  {
    g_autofree char *a = steward_roots_canonicalize (link, NULL, &error);
    g_autofree char *b = steward_roots_canonicalize (through_link, NULL, &error);
    g_autofree char *c = steward_roots_canonicalize ("link/sub", tmp_dir, &error);
    g_autofree char *d = steward_roots_canonicalize (dotdot, NULL, &error);
    g_autofree char *e = steward_roots_canonicalize (missing, NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (a, ==, real);
    g_assert_cmpstr (b, ==, sub);
    g_assert_cmpstr (c, ==, sub);
    g_assert_cmpstr (d, ==, sub);
    /* A path that does not exist keeps its form, resolved lexically. */
    g_assert_cmpstr (e, ==, missing_expected);
  }

  /* Against the current folder when no other is given. */
  {
    g_autofree char *canonical = steward_roots_canonicalize ("x/./y", NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (canonical, ==, relative_expected);
  }

  /* Refused: NULL, NUL inside, too long. */
  g_assert_null (steward_roots_canonicalize (NULL, "/", &error));
  g_assert_error (error, STEWARD_ROOTS_ERROR, STEWARD_ROOTS_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_null (steward_roots_canonicalize_len ("/a\0b", 4, NULL, &error));
  g_assert_error (error, STEWARD_ROOTS_ERROR, STEWARD_ROOTS_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "NUL"));
  g_clear_error (&error);
  g_assert_null (steward_roots_canonicalize (long_path, "/", &error));
  g_assert_error (error, STEWARD_ROOTS_ERROR, STEWARD_ROOTS_ERROR_INVALID);
  g_clear_error (&error);
  {
    g_autofree char *cut = steward_roots_canonicalize_len ("/a/b/c", 4, NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (cut, ==, "/a/b");
  }

  g_assert_cmpint (g_unlink (link), ==, 0);
  g_assert_cmpint (g_rmdir (sub), ==, 0);
  g_assert_cmpint (g_rmdir (real), ==, 0);
}

static void
test_add_remove (void)
{
  StewardRoots *roots = steward_roots_new (NULL);
  GListModel *model = G_LIST_MODEL (roots);
  g_autoptr(GPtrArray) log = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *folder_path = tmp_path ("with space");
  g_autofree char *link_path = tmp_path ("space-link");
  g_autofree char *file_path = tmp_path ("plain-file");
  g_autofree char *missing_path = tmp_path ("missing");
  g_autofree char *expected_uri = NULL;
  g_autoptr(GFile) folder = NULL;
  g_autoptr(GFile) link = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFile) missing = NULL;
  g_autoptr(GFile) remote = g_file_new_for_uri ("sftp://example.com/srv");
  g_autoptr(GError) error = NULL;
  g_autoptr(StewardRoot) kept = NULL;
  StewardRoot *root;

  make_dir (folder_path);
  g_assert_cmpint (symlink ("with space", link_path), ==, 0);
  g_file_set_contents (file_path, "x", -1, &error);
  g_assert_no_error (error);
  folder = g_file_new_for_path (folder_path);
  link = g_file_new_for_path (link_path);
  file = g_file_new_for_path (file_path);
  missing = g_file_new_for_path (missing_path);
  expected_uri = g_strdup_printf ("file://%s/with%%20space", tmp_dir);

  g_signal_connect (roots, "changed", G_CALLBACK (changed_cb), log);
  g_assert_true (g_list_model_get_item_type (model) == STEWARD_TYPE_ROOT);

  root = steward_roots_add (roots, folder, &error);
  g_assert_no_error (error);
  g_assert_nonnull (root);
  kept = g_object_ref (root);
  g_assert_cmpstr (steward_root_get_path (root), ==, folder_path);
  g_assert_cmpstr (steward_root_get_uri (root), ==, expected_uri);
  g_assert_cmpstr (steward_root_get_name (root), ==, "with space");
  g_assert_true (steward_root_get_all_servers (root));
  g_assert_cmpuint (g_strv_length ((GStrv) steward_root_get_servers (root)), ==, 0);
  g_assert_true (steward_root_is_visible_to (root, "files"));
  g_assert_true (steward_root_is_visible_to (root, NULL));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 1);
  g_assert_true (steward_roots_lookup (roots, folder_path) == root);
  assert_changed (log, "*");

  /* Through a symlink it is the same folder. */
  g_assert_null (steward_roots_add (roots, link, &error));
  g_assert_error (error, STEWARD_ROOTS_ERROR, STEWARD_ROOTS_ERROR_EXISTS);
  g_assert_nonnull (strstr (error->message, "with space"));
  g_clear_error (&error);

  g_assert_null (steward_roots_add (roots, file, &error));
  g_assert_error (error, STEWARD_ROOTS_ERROR, STEWARD_ROOTS_ERROR_NOT_A_FOLDER);
  g_assert_nonnull (strstr (error->message, "plain-file"));
  g_clear_error (&error);

  g_assert_null (steward_roots_add (roots, missing, &error));
  g_assert_error (error, STEWARD_ROOTS_ERROR, STEWARD_ROOTS_ERROR_NOT_A_FOLDER);
  g_assert_nonnull (strstr (error->message, "missing"));
  g_clear_error (&error);

  g_assert_null (steward_roots_add (roots, remote, &error));
  g_assert_error (error, STEWARD_ROOTS_ERROR, STEWARD_ROOTS_ERROR_NOT_LOCAL);
  g_clear_error (&error);

  /* None of the refusals changed anything. */
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 1);
  assert_changed (log, "");

  steward_roots_remove (roots, root);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 0);
  assert_changed (log, "*");
  steward_roots_remove (roots, kept);
  assert_changed (log, "");

  /* A removed root can be added again. */
  root = steward_roots_add (roots, link, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (steward_root_get_path (root), ==, folder_path);

  g_assert_finalize_object (roots);
  g_assert_finalize_object (g_steal_pointer (&kept));
  g_assert_cmpint (g_unlink (link_path), ==, 0);
  g_assert_cmpint (g_unlink (file_path), ==, 0);
  g_assert_cmpint (g_rmdir (folder_path), ==, 0);
}

static void
count_notify_cb (GObject    *object,
                 GParamSpec *pspec,
                 guint      *count)
{
  (*count)++;
}

static void
test_servers (void)
{
  StewardRoots *roots = steward_roots_new (NULL);
  g_autoptr(GPtrArray) log = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *a_path = tmp_path ("alpha");
  g_autofree char *b_path = tmp_path ("beta");
  g_autoptr(GFile) a_file = NULL;
  g_autoptr(GFile) b_file = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *json = NULL;
  StewardRoot *a;
  StewardRoot *b;
  guint servers_notified = 0;
  guint all_notified = 0;

  make_dir (a_path);
  make_dir (b_path);
  a_file = g_file_new_for_path (a_path);
  b_file = g_file_new_for_path (b_path);

  a = steward_roots_add (roots, a_file, &error);
  g_assert_no_error (error);
  b = steward_roots_add (roots, b_file, &error);
  g_assert_no_error (error);

  g_signal_connect (roots, "changed", G_CALLBACK (changed_cb), log);
  g_signal_connect (b, "notify::servers", G_CALLBACK (count_notify_cb), &servers_notified);
  g_signal_connect (b, "notify::all-servers", G_CALLBACK (count_notify_cb), &all_notified);

  /* Allowing a server on a root every server sees changes nothing. */
  steward_roots_set_server_allowed (roots, a, "files", FALSE);
  g_assert_true (steward_root_is_visible_to (a, "files"));
  assert_changed (log, "");

  /* Only the servers on its list, none at first. */
  steward_roots_set_all_servers (roots, b, FALSE);
  g_assert_false (steward_root_get_all_servers (b));
  g_assert_false (steward_root_is_visible_to (b, "files"));
  g_assert_false (steward_root_is_visible_to (b, NULL));
  assert_changed (log, "*");
  g_assert_cmpuint (all_notified, ==, 1);
  steward_roots_set_all_servers (roots, b, FALSE);
  assert_changed (log, "");

  steward_roots_set_server_allowed (roots, b, "files", TRUE);
  assert_changed (log, "files");
  steward_roots_set_server_allowed (roots, b, "files", TRUE);
  assert_changed (log, "");
  steward_roots_set_server_allowed (roots, b, "git", TRUE);
  steward_roots_set_server_allowed (roots, b, "db", TRUE);
  steward_roots_set_server_allowed (roots, b, "db", FALSE);
  assert_changed (log, "git,db,db");
  g_assert_cmpuint (servers_notified, ==, 4);
  g_assert_cmpstr (steward_root_get_servers (b)[0], ==, "files");
  g_assert_cmpstr (steward_root_get_servers (b)[1], ==, "git");
  g_assert_null (steward_root_get_servers (b)[2]);
  g_assert_true (steward_root_is_visible_to (b, "git"));
  g_assert_false (steward_root_is_visible_to (b, "db"));

  /* roots/list per server. */
  json = list_json (roots, "files");
  expected = g_strdup_printf ("{\"roots\":[{\"uri\":\"file://%s\",\"name\":\"alpha\"},"
                              "{\"uri\":\"file://%s\",\"name\":\"beta\"}]}", a_path, b_path);
  g_assert_cmpstr (json, ==, expected);
  g_clear_pointer (&json, g_free);
  g_clear_pointer (&expected, g_free);

  json = list_json (roots, "other");
  expected = g_strdup_printf ("{\"roots\":[{\"uri\":\"file://%s\",\"name\":\"alpha\"}]}", a_path);
  g_assert_cmpstr (json, ==, expected);
  g_clear_pointer (&json, g_free);

  json = list_json (roots, NULL);
  g_assert_cmpstr (json, ==, expected);
  g_clear_pointer (&json, g_free);
  g_clear_pointer (&expected, g_free);

  /* Removing a root some servers see tells each of them. */
  g_object_ref (b);
  steward_roots_remove (roots, b);
  assert_changed (log, "files,git");
  json = list_json (roots, "files");
  expected = g_strdup_printf ("{\"roots\":[{\"uri\":\"file://%s\",\"name\":\"alpha\"}]}", a_path);
  g_assert_cmpstr (json, ==, expected);

  /* A root that is no longer in the list is left alone. */
  steward_roots_set_all_servers (roots, b, TRUE);
  g_assert_false (steward_root_get_all_servers (b));
  assert_changed (log, "");

  /* Back to every server: the list is emptied. */
  steward_roots_set_all_servers (roots, a, FALSE);
  steward_roots_set_server_allowed (roots, a, "files", TRUE);
  steward_roots_set_all_servers (roots, a, TRUE);
  assert_changed (log, "*,files,*");
  g_assert_null (steward_root_get_servers (a)[0]);

  g_assert_finalize_object (roots);
  g_assert_finalize_object (b);
  g_assert_cmpint (g_rmdir (a_path), ==, 0);
  g_assert_cmpint (g_rmdir (b_path), ==, 0);
}

static void
save_failed_cb (StewardRoots *roots,
                const GError *error,
                GError      **out)
{
  g_clear_error (out);
  *out = g_error_copy (error);
}

static void
test_persist (void)
{
  g_autofree char *config_dir = tmp_path ("config/steward");
  g_autofree char *file_path = tmp_path ("config/steward/roots.json");
  g_autofree char *a_path = tmp_path ("one");
  g_autofree char *b_path = tmp_path ("two");
  g_autoptr(GFile) file = g_file_new_for_path (file_path);
  g_autoptr(GFile) a_file = NULL;
  g_autoptr(GFile) b_file = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) log = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *contents = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *json = NULL;
  StewardRoots *roots;
  StewardRoot *b;
  GStatBuf buf;

  make_dir (a_path);
  make_dir (b_path);
  a_file = g_file_new_for_path (a_path);
  b_file = g_file_new_for_path (b_path);

  /* No file yet: no roots, no error. */
  roots = steward_roots_new (file);
  g_assert_true (steward_file_backed_get_file (STEWARD_FILE_BACKED (roots)) == file);
  g_assert_true (steward_roots_load (roots, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (roots)), ==, 0);

  /* Changes are written in the background, in order; the folder is made
   * on the way. */
  steward_roots_add (roots, a_file, &error);
  g_assert_no_error (error);
  b = steward_roots_add (roots, b_file, &error);
  g_assert_no_error (error);
  steward_roots_set_all_servers (roots, b, FALSE);
  steward_roots_set_server_allowed (roots, b, "zeta", TRUE);
  steward_roots_set_server_allowed (roots, b, "alpha", TRUE);
  g_assert_true (save_and_wait (roots, &error));
  g_assert_no_error (error);
  g_assert_finalize_object (roots);

  g_assert_true (g_file_get_contents (file_path, &contents, NULL, &error));
  g_assert_no_error (error);
  json_parser_load_from_data (parser, contents, -1, &error);
  g_assert_no_error (error);
  json = json_to_string (json_parser_get_root (parser), FALSE);
  expected = g_strdup_printf ("{\"roots\":[{\"path\":\"%s\",\"servers\":null},"
                              "{\"path\":\"%s\",\"servers\":[\"alpha\",\"zeta\"]}]}",
                              a_path, b_path);
  g_assert_cmpstr (json, ==, expected);
  g_assert_cmpint (g_stat (file_path, &buf), ==, 0);
  g_assert_cmpint (buf.st_mode & 0777, ==, 0600);

  /* Read back, asynchronously, with one change for every server. */
  roots = steward_roots_new (file);
  g_signal_connect (roots, "changed", G_CALLBACK (changed_cb), log);
  steward_roots_load_async (roots, NULL, result_cb, &result);
  g_assert_true (steward_roots_load_finish (roots, wait_result (&result), &error));
  g_assert_no_error (error);
  assert_changed (log, "*");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (roots)), ==, 2);
  b = steward_roots_lookup (roots, b_path);
  g_assert_nonnull (b);
  g_assert_false (steward_root_get_all_servers (b));
  g_assert_true (steward_root_is_visible_to (b, "alpha"));
  g_assert_true (steward_root_is_visible_to (b, "zeta"));
  g_assert_true (steward_root_get_all_servers (steward_roots_lookup (roots, a_path)));
  g_clear_object (&result);
  g_assert_finalize_object (roots);

  /* A failed write is said, and the next save_async() gets the error. */
  {
    g_autofree char *blocker = tmp_path ("blocker");
    g_autofree char *blocked_path = tmp_path ("blocker/roots.json");
    g_autoptr(GFile) blocked = g_file_new_for_path (blocked_path);
    g_autoptr(GError) signalled = NULL;

    g_file_set_contents (blocker, "a file, not a folder", -1, &error);
    g_assert_no_error (error);

    roots = steward_roots_new (blocked);
    g_signal_connect (roots, "save-failed", G_CALLBACK (save_failed_cb), &signalled);
    steward_roots_add (roots, a_file, &error);
    g_assert_no_error (error);
    g_assert_false (save_and_wait (roots, &error));
    g_assert_error (error, STEWARD_ROOTS_ERROR, STEWARD_ROOTS_ERROR_SAVE);
    g_assert_nonnull (strstr (error->message, blocked_path));
    g_assert_error (signalled, STEWARD_ROOTS_ERROR, STEWARD_ROOTS_ERROR_SAVE);
    g_clear_error (&error);
    g_assert_finalize_object (roots);
    g_assert_cmpint (g_unlink (blocker), ==, 0);
  }

  g_assert_cmpint (g_unlink (file_path), ==, 0);
  g_assert_cmpint (g_rmdir (config_dir), ==, 0);
  {
    g_autofree char *config_parent = tmp_path ("config");

    g_assert_cmpint (g_rmdir (config_parent), ==, 0);
  }
  g_assert_cmpint (g_rmdir (a_path), ==, 0);
  g_assert_cmpint (g_rmdir (b_path), ==, 0);
}

static void
test_load_errors (void)
{
  static const char * const damaged[] = {
    "not json",
    "[]",
    "{\"roots\": 3}",
    "{\"roots\": [3]}",
    "{\"roots\": [{\"servers\": null}]}",
    "{\"roots\": [{\"path\": 7}]}",
    "{\"roots\": [{\"path\": \"relative/path\"}]}",
    "{\"roots\": [{\"path\": \"/x\", \"servers\": \"files\"}]}",
    "{\"roots\": [{\"path\": \"/x\", \"servers\": [1]}]}",
  };
  g_autofree char *file_path = tmp_path ("damaged.json");
  g_autoptr(GFile) file = g_file_new_for_path (file_path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) deep = g_string_new (NULL);
  StewardRoots *roots = steward_roots_new (file);

  /* A good file first: the roots stay as they were after a bad one. */
  g_file_set_contents (file_path,
                       "{\"roots\": [{\"path\": \"/srv/./data/\"}, {\"path\": \"/srv/data\"},"
                       "             {\"path\": \"/opt/x\", \"servers\": [\"b\", \"a\", \"b\"]}],"
                       " \"later\": true}", -1, &error);
  g_assert_no_error (error);
  g_assert_true (steward_roots_load (roots, &error));
  g_assert_no_error (error);
  /* Canonical again, and each folder once. */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (roots)), ==, 2);
  g_assert_nonnull (steward_roots_lookup (roots, "/srv/data"));
  g_assert_cmpuint (g_strv_length ((GStrv) steward_root_get_servers (
                      steward_roots_lookup (roots, "/opt/x"))), ==, 2);

  for (guint i = 0; i < G_N_ELEMENTS (damaged); i++)
    {
      g_test_message ("%s", damaged[i]);
      g_file_set_contents (file_path, damaged[i], -1, &error);
      g_assert_no_error (error);

      g_assert_false (steward_roots_load (roots, &error));
      g_assert_error (error, STEWARD_ROOTS_ERROR, STEWARD_ROOTS_ERROR_LOAD);
      g_assert_nonnull (strstr (error->message, file_path));
      g_clear_error (&error);
      g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (roots)), ==, 2);
    }

  /* Deep nesting is a parse error, not a crash. */
  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  g_file_set_contents (file_path, deep->str, deep->len, &error);
  g_assert_no_error (error);
  g_assert_false (steward_roots_load (roots, &error));
  g_assert_error (error, STEWARD_ROOTS_ERROR, STEWARD_ROOTS_ERROR_LOAD);
  g_clear_error (&error);

  /* A folder instead of a file cannot be read. */
  g_assert_cmpint (g_unlink (file_path), ==, 0);
  make_dir (file_path);
  g_assert_false (steward_roots_load (roots, &error));
  g_assert_error (error, STEWARD_ROOTS_ERROR, STEWARD_ROOTS_ERROR_LOAD);
  g_assert_nonnull (strstr (error->message, file_path));
  g_clear_error (&error);

  g_assert_finalize_object (roots);
  g_assert_cmpint (g_rmdir (file_path), ==, 0);
}

typedef struct
{
  const char *path;        /* relative to the fake home when not absolute */
  gboolean    dangerous;
  const char *reason_part; /* a piece of the reason */
} DangerCase;

static void
test_dangerous (void)
{
  static const DangerCase cases[] = {
    { "/", TRUE, "whole computer" },
    { ".ssh", TRUE, "~/.ssh holds your SSH keys" },
    { ".ssh/old", TRUE, "“~/.ssh/old” is inside ~/.ssh" },
    { ".gnupg", TRUE, "GnuPG" },
    { ".config", TRUE, "~/.config holds" },
    { ".config/steward", TRUE, "inside ~/.config" },
    { ".local/share/keyrings", TRUE, "keyring" },
    { ".local", TRUE, "“~/.local” contains ~/.local/share/keyrings" },
    { ".local/share", TRUE, "contains ~/.local/share/keyrings" },
    { ".aws", TRUE, "Amazon" },
    { ".kube", TRUE, "Kubernetes" },
    { ".docker", TRUE, "registry" },
    { ".password-store", TRUE, "password store" },
    { ".mozilla/firefox", TRUE, "Firefox" },
    { ".pki", TRUE, "certificates" },
    { ".var/app/org.example.App", TRUE, "Flatpak" },
    { "Projects", FALSE, NULL },
    { "Projects/steward", FALSE, NULL },
    { ".sshx", FALSE, NULL },
    { ".local/bin", FALSE, NULL },
    { ".var", TRUE, "contains ~/.var/app" },
    { "/etc", TRUE, "“/etc” holds the system’s configuration" },
    { "/etc/ssl", TRUE, "inside /etc" },
    { "/root", TRUE, "administrator" },
    { "/var", TRUE, "/var" },
    { "/var/tmp", FALSE, NULL },
    { "/usr", TRUE, "program" },
    { "/usr/share/doc", FALSE, NULL },
    { "/boot", TRUE, "kernel" },
    { "/proc", TRUE, "running program" },
    { "/proc/self", TRUE, "inside /proc" },
    { "/sys", TRUE, "kernel" },
    { "/dev", TRUE, "devices" },
    { "/run/user", TRUE, "sockets" },
    { "/srv/data", FALSE, NULL },
    { "/opt", FALSE, NULL },
    { "/etcetera", FALSE, NULL },
  };
  g_autofree char *home_parent = g_path_get_dirname (home_dir);
  char *reason = NULL;

  g_assert_cmpstr (g_get_home_dir (), ==, home_link);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = NULL;

      path = cases[i].path[0] == '/' ? g_strdup (cases[i].path) : home_path (cases[i].path);
      g_test_message ("%s", path);

      g_assert_cmpint (steward_roots_is_dangerous (path, &reason), ==, cases[i].dangerous);
      if (cases[i].reason_part != NULL)
        {
          g_test_message ("%s", reason);
          g_assert_nonnull (strstr (reason, cases[i].reason_part));
        }
      else
        {
          g_assert_null (reason);
        }
      g_clear_pointer (&reason, g_free);
    }

  /* The home folder, in both of its forms, and every folder above it. */
  g_assert_true (steward_roots_is_dangerous (home_dir, &reason));
  g_assert_nonnull (strstr (reason, "Your home folder holds everything you own"));
  g_clear_pointer (&reason, g_free);
  g_assert_true (steward_roots_is_dangerous (home_link, &reason));
  g_assert_nonnull (strstr (reason, "Your home folder"));
  g_clear_pointer (&reason, g_free);
  g_assert_true (steward_roots_is_dangerous (home_parent, &reason));
  g_assert_nonnull (strstr (reason, "holds your home folder"));
  g_clear_pointer (&reason, g_free);
  g_assert_true (steward_roots_is_dangerous (tmp_dir, NULL));

  /* Through the symlink too. */
  {
    g_autofree char *ssh = g_build_filename (home_link, ".ssh", NULL);

    g_assert_true (steward_roots_is_dangerous (ssh, &reason));
    g_assert_nonnull (strstr (reason, "~/.ssh"));
    g_clear_pointer (&reason, g_free);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autofree char *made = NULL;
  int status;

  made = g_dir_make_tmp ("steward-test-roots-XXXXXX", &error);
  g_assert_no_error (error);
  tmp_dir = realpath (made, NULL);
  g_assert_nonnull (tmp_dir);

  /* HOME must be set before anything asks GLib for it, which caches it. */
  home_dir = tmp_path ("home/alice");
  home_link = tmp_path ("alice");
  make_dir (home_dir);
  g_assert_cmpint (symlink ("home/alice", home_link), ==, 0);
  g_setenv ("HOME", home_link, TRUE);

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/steward/roots/canonicalize", test_canonicalize);
  g_test_add_func ("/steward/roots/add-remove", test_add_remove);
  g_test_add_func ("/steward/roots/servers", test_servers);
  g_test_add_func ("/steward/roots/persist", test_persist);
  g_test_add_func ("/steward/roots/load-errors", test_load_errors);
  g_test_add_func ("/steward/roots/dangerous", test_dangerous);

  status = g_test_run ();

  g_unlink (home_link);
  g_rmdir (home_dir);
  {
    g_autofree char *home_parent = tmp_path ("home");

    g_rmdir (home_parent);
  }
  g_rmdir (tmp_dir);
  free (tmp_dir);
  g_free (home_dir);
  g_free (home_link);

  return status;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <glib/gstdio.h>

#include "test-host-fixture.h"

gboolean
test_tick_cb (gpointer user_data)
{
  return G_SOURCE_CONTINUE;
}

/* Keeps the result of an async call in the GAsyncResult * @user_data
 * points at, for test_loop_until() to see. */
void
test_store_result_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* Writes @text to @path, as a person editing a file would leave it. */
void
test_write_text (const char *path,
                 const char *text)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

/* Returns: (transfer full): what @path holds, which must be readable */
char *
test_read_text (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

static void
remove_file_tree (GFile *file)
{
  g_autoptr(GFileEnumerator) children = NULL;

  children = g_file_enumerate_children (file, G_FILE_ATTRIBUTE_STANDARD_NAME,
                                        G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL, NULL);
  if (children != NULL)
    {
      GFileInfo *info;
      GFile *child;

      while (g_file_enumerator_iterate (children, &info, &child, NULL, NULL) && info != NULL)
        remove_file_tree (child);
    }

  g_file_delete (file, NULL, NULL);
}

/* Removes @path and all below it, without following links out of it. */
void
test_remove_tree (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  remove_file_tree (file);
}

/**
 * test_make_top:
 * @name: the test's name, which the folder's name starts with
 *
 * Returns: (transfer full): a new temporary folder holding empty
 *   `config` and `state` folders, both private
 */
char *
test_make_top (const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *template = g_strconcat (name, "-XXXXXX", NULL);
  g_autofree char *config_path = NULL;
  g_autofree char *state_path = NULL;
  char *top;

  top = g_dir_make_tmp (template, &error);
  g_assert_no_error (error);
  config_path = g_build_filename (top, "config", NULL);
  state_path = g_build_filename (top, "state", NULL);
  g_assert_cmpint (g_mkdir (config_path, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (state_path, 0700), ==, 0);

  return top;
}

/* A host over @top's `config` and `state` folders, not started. */
StewardHost *
test_host_new_in (const char *top)
{
  g_autoptr(GFile) config_dir = g_file_new_build_filename (top, "config", NULL);
  g_autoptr(GFile) state_dir = g_file_new_build_filename (top, "state", NULL);

  return steward_host_new (config_dir, state_dir);
}

/* Starts @host and waits until it has loaded its configuration. */
void
test_host_start (StewardHost *host,
                 guint        seconds)
{
  steward_host_start (host);
  test_loop_until (steward_host_get_started (host), seconds);
}

/* Shuts @host down and checks that the shutdown succeeded; @host stays
 * alive, so a test can see it finalized afterwards. */
void
test_host_shutdown (StewardHost *host,
                    guint        seconds)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  steward_host_shutdown_async (host, NULL, test_store_result_cb, &result);
  test_loop_until (result != NULL, seconds);
  g_assert_true (steward_host_shutdown_finish (host, result, &error));
  g_assert_no_error (error);
}

/* Waits until @server's status is @status. */
void
test_wait_for_status (StewardServer       *server,
                      StewardServerStatus  status,
                      guint                seconds)
{
  test_loop_until (steward_server_get_status (server) == status, seconds);
}

/* Records consent for @server_config as the consent dialog does. */
void
test_record_consent (StewardConfig       *config,
                     StewardServerConfig *server_config)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (steward_config_record_consent (config, server_config, &error));
  g_assert_no_error (error);
}

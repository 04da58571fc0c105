/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-host"

#include "config.h"

#include <string.h>

#include "steward-host.h"
#include "test-host-fixture.h"

/* StewardHost over temporary folders, as the app makes it at start: the
 * servers file becomes the registry, follows edits made outside, and a
 * damaged file is kept aside. */

typedef struct {
  char        *top;
  char        *config_dir;
  char        *servers_path;
  StewardHost *host;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) config_dir = NULL;
  g_autoptr(GFile) state_dir = NULL;
  g_autofree char *state_path = NULL;

  fixture->top = g_dir_make_tmp ("test-host-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->config_dir = g_build_filename (fixture->top, "config", "steward", NULL);
  state_path = g_build_filename (fixture->top, "state", "steward", NULL);
  g_assert_cmpint (g_mkdir_with_parents (fixture->config_dir, 0700), ==, 0);
  fixture->servers_path = g_build_filename (fixture->config_dir, "servers.json", NULL);

  config_dir = g_file_new_for_path (fixture->config_dir);
  state_dir = g_file_new_for_path (state_path);
  fixture->host = steward_host_new (config_dir, state_dir);
}

static void
shutdown_host (Fixture *fixture)
{
  test_host_shutdown (fixture->host, 6);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_finalize_object (fixture->host);
  test_remove_tree (fixture->top);
  g_free (fixture->servers_path);
  g_free (fixture->config_dir);
  g_free (fixture->top);
}

/* A servers file with a lifecycle-server.py entry per name. */
static void
write_servers (Fixture    *fixture,
               const char *first_name,
               ...)
{
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "servers",
                                                   "lifecycle-server.py", NULL);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;
  const char *name;
  va_list ap;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "mcpServers");
  json_builder_begin_object (builder);
  va_start (ap, first_name);
  for (name = first_name; name != NULL; name = va_arg (ap, const char *))
    {
      json_builder_set_member_name (builder, name);
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "command");
      json_builder_add_string_value (builder, "/usr/bin/python3");
      json_builder_set_member_name (builder, "args");
      json_builder_begin_array (builder);
      json_builder_add_string_value (builder, script);
      json_builder_add_string_value (builder, "serve");
      json_builder_end_array (builder);
      json_builder_end_object (builder);
    }
  va_end (ap);
  json_builder_end_object (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  text = json_to_string (root, TRUE);
  test_write_text (fixture->servers_path, text);
}

static void
start_host (Fixture *fixture)
{
  test_host_start (fixture->host, 10);
}

static guint
n_servers (Fixture *fixture)
{
  return g_list_model_get_n_items (G_LIST_MODEL (steward_host_get_registry (fixture->host)));
}

static StewardServer *
server_at (Fixture *fixture,
           guint    position)
{
  g_autoptr(StewardServer) server = NULL;

  server = g_list_model_get_item (G_LIST_MODEL (steward_host_get_registry (fixture->host)),
                                  position);
  return server;
}

static gboolean
has_host_event (Fixture    *fixture,
                const char *needle)
{
  StewardLogStore *store = steward_host_get_log_store (fixture->host);
  GListModel *model = G_LIST_MODEL (store);

  steward_log_store_flush (store);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(StewardLogEntry) entry = g_list_model_get_item (model, i);

      if (steward_log_entry_get_source (entry) == STEWARD_LOG_SOURCE_HOST &&
          strstr (steward_log_entry_get_text (entry), needle) != NULL)
        return TRUE;
    }

  return FALSE;
}

static gboolean
file_contains (const char *path,
               const char *needle)
{
  g_autofree char *contents = NULL;

  return g_file_get_contents (path, &contents, NULL, NULL) && strstr (contents, needle) != NULL;
}

static void
test_missing_file (Fixture       *fixture,
                   gconstpointer  data)
{
  start_host (fixture);
  g_assert_cmpuint (n_servers (fixture), ==, 0);
  g_assert_false (g_file_test (fixture->servers_path, G_FILE_TEST_EXISTS));
  shutdown_host (fixture);
}

static void
test_follow (Fixture       *fixture,
             gconstpointer  data)
{
  StewardServerRegistry *registry = steward_host_get_registry (fixture->host);
  GListModel *approvals = G_LIST_MODEL (steward_host_get_approvals (fixture->host));
  StewardServer *alpha;
  StewardServer *beta;

  write_servers (fixture, "beta", "alpha", NULL);
  start_host (fixture);

  /* Sorted by name, and started: each asks for consent first. */
  g_assert_cmpuint (n_servers (fixture), ==, 2);
  alpha = server_at (fixture, 0);
  beta = server_at (fixture, 1);
  g_assert_cmpstr (steward_server_get_name (alpha), ==, "alpha");
  g_assert_cmpstr (steward_server_get_name (beta), ==, "beta");
  g_assert_true (steward_server_registry_lookup (registry, "beta") == beta);
  g_assert_null (steward_server_registry_lookup (registry, "gamma"));
  g_assert_cmpint (steward_server_get_status (alpha), ==, STEWARD_SERVER_STATUS_AWAITING_CONSENT);
  g_assert_cmpuint (g_list_model_get_n_items (approvals), ==, 2);

  /* An edit made outside adds a third; the first two stay the objects
   * they were. */
  write_servers (fixture, "alpha", "beta", "gamma", NULL);
  test_loop_until (n_servers (fixture) == 3, 10);
  g_assert_true (server_at (fixture, 0) == alpha);
  g_assert_true (server_at (fixture, 1) == beta);
  g_assert_cmpstr (steward_server_get_name (server_at (fixture, 2)), ==, "gamma");
  g_assert_cmpuint (g_list_model_get_n_items (approvals), ==, 3);

  /* And removing one stops it: its question is withdrawn. */
  write_servers (fixture, "alpha", "gamma", NULL);
  test_loop_until (n_servers (fixture) == 2, 10);
  g_assert_null (steward_server_registry_lookup (registry, "beta"));
  test_loop_until (g_list_model_get_n_items (approvals) == 2, 5);

  shutdown_host (fixture);
  g_assert_cmpint (steward_server_get_status (alpha), ==, STEWARD_SERVER_STATUS_STOPPED);
  g_assert_cmpuint (g_list_model_get_n_items (approvals), ==, 0);
}

static void
test_damaged (Fixture       *fixture,
              gconstpointer  data)
{
  static const char damaged[] = "{\"mcpServers\": {\"alpha\": {\"command\": ";
  g_autofree char *aside = g_strconcat (fixture->servers_path, ".damaged", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;

  test_write_text (fixture->servers_path, damaged);
  start_host (fixture);

  g_assert_cmpuint (n_servers (fixture), ==, 0);
  g_assert_true (has_host_event (fixture, "servers.json could not be loaded"));
  test_loop_until (has_host_event (fixture, "servers.json.damaged"), 10);

  g_file_get_contents (aside, &contents, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (contents, ==, damaged);
  g_clear_pointer (&contents, g_free);
  g_file_get_contents (fixture->servers_path, &contents, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (contents, ==, damaged);

  shutdown_host (fixture);
}

/* A second damaged start keeps the first copy and makes another. */
static void
test_damaged_again (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *aside = g_strconcat (fixture->servers_path, ".damaged", NULL);
  g_autofree char *second = g_strconcat (fixture->servers_path, ".damaged-1", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;

  test_write_text (aside, "the first damage");
  test_write_text (fixture->servers_path, "[]");
  start_host (fixture);

  test_loop_until (has_host_event (fixture, "servers.json.damaged-1"), 10);
  g_file_get_contents (aside, &contents, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (contents, ==, "the first damage");
  g_clear_pointer (&contents, g_free);
  g_file_get_contents (second, &contents, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (contents, ==, "[]");

  shutdown_host (fixture);
}

static void
test_shutdown (Fixture       *fixture,
               gconstpointer  data)
{
  GListModel *approvals = G_LIST_MODEL (steward_host_get_approvals (fixture->host));
  StewardServer *alpha;
  StewardServer *beta;
  gint64 started;

  write_servers (fixture, "alpha", "beta", NULL);
  start_host (fixture);
  alpha = server_at (fixture, 0);
  beta = server_at (fixture, 1);

  /* Allow both; they start. */
  while (g_list_model_get_n_items (approvals) > 0)
    {
      g_autoptr(StewardApproval) approval = g_list_model_get_item (approvals, 0);

      steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_ALLOW, NULL);
    }
  test_loop_until (steward_server_get_status (alpha) == STEWARD_SERVER_STATUS_READY &&
              steward_server_get_status (beta) == STEWARD_SERVER_STATUS_READY, 20);

  started = g_get_monotonic_time ();
  shutdown_host (fixture);
  g_test_message ("two servers stopped in %.2f s", (g_get_monotonic_time () - started) / 1e6);
  g_assert_cmpint (steward_server_get_status (alpha), ==, STEWARD_SERVER_STATUS_STOPPED);
  g_assert_cmpint (steward_server_get_status (beta), ==, STEWARD_SERVER_STATUS_STOPPED);
  g_assert_null (steward_server_get_client (alpha));
  g_assert_null (steward_server_get_client (beta));
}

/* Disabling writes the servers file and stops the server; enabling starts
 * it again. */
static void
test_enable (Fixture       *fixture,
             gconstpointer  data)
{
  GListModel *approvals = G_LIST_MODEL (steward_host_get_approvals (fixture->host));
  g_autoptr(StewardApproval) approval = NULL;
  StewardServer *alpha;

  write_servers (fixture, "alpha", NULL);
  start_host (fixture);
  alpha = server_at (fixture, 0);
  test_loop_until (g_list_model_get_n_items (approvals) == 1, 5);
  approval = g_list_model_get_item (approvals, 0);
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_ALLOW, NULL);
  test_loop_until (steward_server_get_status (alpha) == STEWARD_SERVER_STATUS_READY, 20);

  steward_server_set_enabled (alpha, FALSE);
  g_assert_false (steward_server_get_enabled (alpha));
  test_loop_until (steward_server_get_status (alpha) == STEWARD_SERVER_STATUS_DISABLED, 10);
  g_assert_true (server_at (fixture, 0) == alpha);
  test_loop_until (file_contains (fixture->servers_path, "\"disabled\""), 10);

  steward_server_set_enabled (alpha, TRUE);
  test_loop_until (steward_server_get_status (alpha) == STEWARD_SERVER_STATUS_READY, 20);
  g_assert_true (steward_server_get_enabled (alpha));

  shutdown_host (fixture);
  g_assert_cmpint (steward_server_get_status (alpha), ==, STEWARD_SERVER_STATUS_STOPPED);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/steward/host/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  ADD ("missing-file", test_missing_file);
  ADD ("follow", test_follow);
  ADD ("damaged", test_damaged);
  ADD ("damaged-again", test_damaged_again);
  ADD ("shutdown", test_shutdown);
  ADD ("enable", test_enable);

#undef ADD

  return g_test_run ();
}

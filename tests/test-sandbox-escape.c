/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-sandbox-escape"

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "mcp-tool.h"

#include "steward-bwrap.h"
#include "steward-host.h"
#include "steward-log-entry.h"
#include "steward-log-store.h"
#include "steward-sandbox-profile.h"
#include "steward-server-private.h"

#include "test-host-fixture.h"

/* A hostile server (tests/servers/escape-server.py) started through
 * StewardServer under the real bubblewrap, in a private session with a
 * bus and a keyring, tries to reach the bus, read the person's files,
 * write outside its roots and reach a listener on 127.0.0.1, and gets
 * nothing; what the sandbox must allow (its root, its own folder, the
 * network once granted) works. */

typedef struct {
  char             *top;
  char             *root;
  StewardHost      *host;
  GSocketService   *listener;
  guint16           port;
  guint             connections;
} Fixture;

static gboolean
incoming_cb (GSocketService    *service,
             GSocketConnection *connection,
             GObject           *source,
             gpointer           user_data)
{
  Fixture *fixture = user_data;

  fixture->connections++;
  return TRUE;
}

static void
write_file (const char *path,
            const char *text)
{
  g_autofree char *folder = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) root = NULL;
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;

  fixture->top = test_make_top ("test-sandbox-escape");
  fixture->root = g_build_filename (fixture->top, "project", NULL);
  g_assert_cmpint (g_mkdir (fixture->root, 0700), ==, 0);
  fixture->host = test_host_new_in (fixture->top);

  root = g_file_new_for_path (fixture->root);
  steward_roots_add (steward_host_get_roots (fixture->host), root, &error);
  g_assert_no_error (error);

  fixture->listener = g_socket_service_new ();
  g_socket_listener_add_address (G_SOCKET_LISTENER (fixture->listener), address,
                                 G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, NULL, &bound,
                                 &error);
  g_assert_no_error (error);
  fixture->port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  g_signal_connect (fixture->listener, "incoming", G_CALLBACK (incoming_cb), fixture);
  g_socket_service_start (fixture->listener);

  /* The person's secrets, where a server would look for them. */
  write_file (g_build_filename (g_get_home_dir (), "canary.txt", NULL), "home-canary");
  write_file (g_build_filename (g_get_home_dir (), ".ssh", "id_canary", NULL), "ssh-canary");
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_socket_service_stop (fixture->listener);
  g_socket_listener_close (G_SOCKET_LISTENER (fixture->listener));
  g_clear_object (&fixture->listener);
  g_assert_finalize_object (fixture->host);
  test_remove_tree (fixture->top);
  g_free (fixture->root);
  g_free (fixture->top);
  steward_bwrap_set_program_for_testing (NULL);
}

static StewardServerConfig *
escape_config (Fixture *fixture,
               int      network,
               gboolean full_access)
{
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "servers", "escape-server.py",
                                                   NULL);
  const char *args[] = { script, NULL };
  g_autoptr(GHashTable) env = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  g_autoptr(StewardServerConfig) config = NULL;
  const char *bus = g_getenv ("DBUS_SESSION_BUS_ADDRESS");

  g_assert_nonnull (bus);
  g_hash_table_insert (env, "PROBE_BUS_ADDRESS", g_strdup (bus));
  g_hash_table_insert (env, "PROBE_PARENT_PID", g_strdup_printf ("%d", (int) getpid ()));
  g_hash_table_insert (env, "PROBE_CANARIES",
                       g_strdup_printf ("%s/canary.txt:%s/.ssh/id_canary", g_get_home_dir (),
                                        g_get_home_dir ()));
  g_hash_table_insert (env, "PROBE_WRITES",
                       g_strdup_printf ("%s/escaped.txt", g_get_home_dir ()));
  g_hash_table_insert (env, "PROBE_PORT", g_strdup_printf ("%u", fixture->port));
  g_hash_table_insert (env, "PROBE_ROOT", g_strdup (fixture->root));

  config = steward_server_config_new_stdio ("escape", "/usr/bin/python3", args, env, NULL);
  return steward_server_config_with_permissions (config, network, FALSE, full_access, NULL);
}

static StewardServer *
start_server (Fixture             *fixture,
              StewardServerConfig *config)
{
  StewardServer *server = steward_server_new (steward_host_get_server_context (fixture->host),
                                              config);
  g_autoptr(GError) error = NULL;

  g_assert_true (steward_config_record_consent (steward_host_get_config (fixture->host), config,
                                                &error));
  g_assert_no_error (error);
  steward_server_start (server);

  return server;
}

static JsonObject *
escape (StewardServer *server)
{
  g_autoptr(JsonObject) arguments = json_object_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(McpToolResult) tool_result = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  steward_server_call_tool_async (server, "escape", arguments, NULL, NULL, NULL, NULL,
                                  test_store_result_cb, &result);
  test_loop_until (result != NULL, 60);
  tool_result = steward_server_call_tool_finish (server, result, &error);
  g_assert_no_error (error);
  text = mcp_tool_result_dup_text (tool_result);
  g_test_message ("the server reports: %s", text);

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

/* Calls a tool with arguments given as JSON; says whether the server
 * answered with an error, and its text. */
static char *
call_tool (StewardServer *server,
           const char    *tool,
           const char    *arguments,
           gboolean      *is_error)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(McpToolResult) tool_result = NULL;
  g_autoptr(GError) error = NULL;

  node = json_from_string (arguments, &error);
  g_assert_no_error (error);
  steward_server_call_tool_async (server, tool, json_node_get_object (node), NULL, NULL, NULL,
                                  NULL, test_store_result_cb, &result);
  test_loop_until (result != NULL, 60);
  tool_result = steward_server_call_tool_finish (server, result, &error);
  g_assert_no_error (error);
  *is_error = mcp_tool_result_get_is_error (tool_result);

  return mcp_tool_result_dup_text (tool_result);
}

static char *
peer_script (const char *package)
{
  const char *peers = g_getenv ("STEWARD_PEERS_DIR");
  g_autofree char *script = NULL;

  if (peers == NULL)
    return NULL;
  script = g_build_filename (peers, "@modelcontextprotocol", package, "dist", "index.js", NULL);

  return g_file_test (script, G_FILE_TEST_IS_REGULAR) ? g_steal_pointer (&script) : NULL;
}

static gboolean
log_holds (Fixture    *fixture,
           const char *needle)
{
  StewardLogStore *store = steward_host_get_log_store (fixture->host);
  GListModel *model = G_LIST_MODEL (store);

  steward_log_store_flush (store);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(StewardLogEntry) entry = g_list_model_get_item (model, i);

      if (strstr (steward_log_entry_get_text (entry), needle) != NULL)
        return TRUE;
    }

  return FALSE;
}

static void
stop_server (StewardServer *server)
{
  g_autoptr(GAsyncResult) result = NULL;

  steward_server_stop_async (server, NULL, test_store_result_cb, &result);
  test_loop_until (result != NULL, 20);
  g_assert_true (steward_server_stop_finish (server, result, NULL));
}

static void
test_nothing_gets_out (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(StewardServerConfig) config = escape_config (fixture, 0, FALSE);
  g_autoptr(StewardSandboxProfile) profile = steward_sandbox_profile_new (config, NULL);
  g_autoptr(StewardServer) server = start_server (fixture, config);
  g_autoptr(JsonObject) report = NULL;
  g_autofree char *root_file = g_build_filename (fixture->root, "written-by-server", NULL);
  g_autofree char *escaped = g_build_filename (g_get_home_dir (), "escaped.txt", NULL);
  g_autofree char *state_file = NULL;
  g_autofree char *wrote_root = NULL;
  g_autofree char *other = NULL;
  g_autoptr(GFile) other_file = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *variables;

  test_loop_until (steward_server_get_status (server) == STEWARD_SERVER_STATUS_READY, 60);
  report = escape (server);

  g_assert_cmpstr (json_object_get_string_member (report, "bus-from-environment"), ==,
                   "blocked");
  g_assert_cmpstr (json_object_get_string_member (report, "bus-from-parent"), ==, "blocked");
  g_assert_cmpstr (json_object_get_string_member (report, "environ-files"), ==, "blocked");
  g_assert_cmpstr (json_object_get_string_member (report, "usual-sockets"), ==, "blocked");
  g_assert_cmpstr (json_object_get_string_member (report, "canaries"), ==, "blocked");
  g_assert_cmpstr (json_object_get_string_member (report, "network"), ==, "blocked");
  g_assert_cmpuint (fixture->connections, ==, 0);
  variables = json_object_get_array_member (report, "variables");
  g_assert_cmpuint (json_array_get_length (variables), ==, 0);

  /* A write to the home it sees lands in the sandbox's empty home, not in
   * the person's. */
  g_assert_false (g_file_test (escaped, G_FILE_TEST_EXISTS));

  /* What it may do works: its root, and its own folder as its home. */
  wrote_root = g_strconcat ("wrote ", root_file, NULL);
  g_assert_cmpstr (json_object_get_string_member (report, "root-write"), ==, wrote_root);
  g_assert_true (g_file_test (root_file, G_FILE_TEST_IS_REGULAR));
  g_assert_cmpstr (json_object_get_string_member (report, "home"), ==,
                   steward_sandbox_profile_get_state_dir (profile));
  state_file = g_build_filename (steward_sandbox_profile_get_state_dir (profile), "state-file",
                                 NULL);
  g_assert_true (g_file_test (state_file, G_FILE_TEST_IS_REGULAR));

  /* A folder shared while it runs is not in its sandbox yet: the log says
   * that a restart brings it. */
  g_assert_false (log_holds (fixture, "The shared folders changed"));
  other = g_build_filename (fixture->top, "later", NULL);
  g_assert_cmpint (g_mkdir (other, 0700), ==, 0);
  other_file = g_file_new_for_path (other);
  steward_roots_add (steward_host_get_roots (fixture->host), other_file, &error);
  g_assert_no_error (error);
  test_loop_until (log_holds (fixture, "The shared folders changed"), 10);

  stop_server (server);
}

/* Once the person allows the network, the listener is reached: the test
 * above did not pass only because the probe is broken. */
static void
test_network_allowed (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(StewardServerConfig) config = escape_config (fixture, 1, FALSE);
  g_autoptr(StewardServer) server = start_server (fixture, config);
  g_autoptr(JsonObject) report = NULL;

  test_loop_until (steward_server_get_status (server) == STEWARD_SERVER_STATUS_READY, 60);
  report = escape (server);

  g_assert_true (g_str_has_prefix (json_object_get_string_member (report, "network"),
                                   "connected"));
  test_loop_until (fixture->connections > 0, 10);
  /* The network does not bring back the person's files. */
  g_assert_cmpstr (json_object_get_string_member (report, "canaries"), ==, "blocked");
  g_assert_cmpstr (json_object_get_string_member (report, "environ-files"), ==, "blocked");

  stop_server (server);
}

/* With "Display", the server gets the display's variables and its X
 * socket, and still nothing else. */
static void
test_display (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(StewardServerConfig) plain = escape_config (fixture, 0, FALSE);
  g_autoptr(StewardServerConfig) config = NULL;
  g_autoptr(StewardServer) server = NULL;
  g_autoptr(JsonObject) report = NULL;
  JsonArray *variables;
  gboolean has_display = FALSE;

  if (g_getenv ("DISPLAY") == NULL)
    {
      g_test_skip ("no display in this session");
      return;
    }

  config = steward_server_config_with_permissions (plain, 0, TRUE, FALSE, NULL);
  server = start_server (fixture, config);
  test_loop_until (steward_server_get_status (server) == STEWARD_SERVER_STATUS_READY, 60);
  report = escape (server);

  variables = json_object_get_array_member (report, "variables");
  for (guint i = 0; i < json_array_get_length (variables); i++)
    if (g_str_equal (json_array_get_string_element (variables, i), "DISPLAY"))
      has_display = TRUE;
  g_assert_true (has_display);
  g_assert_true (g_str_has_prefix (json_object_get_string_member (report, "usual-sockets"),
                                   "connected to '/tmp/.X11-unix/"));
  g_assert_cmpstr (json_object_get_string_member (report, "bus-from-parent"), ==, "blocked");
  g_assert_cmpstr (json_object_get_string_member (report, "canaries"), ==, "blocked");
  g_assert_cmpstr (json_object_get_string_member (report, "network"), ==, "blocked");

  stop_server (server);
}

/* Full access is what it says: the same probes get through. */
static void
test_full_access (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(StewardServerConfig) config = escape_config (fixture, -1, TRUE);
  g_autoptr(StewardServer) server = start_server (fixture, config);
  g_autoptr(JsonObject) report = NULL;

  test_loop_until (steward_server_get_status (server) == STEWARD_SERVER_STATUS_READY, 60);
  report = escape (server);

  g_assert_cmpstr (json_object_get_string_member (report, "bus-from-parent"), !=, "blocked");
  g_assert_cmpstr (json_object_get_string_member (report, "canaries"), !=, "blocked");

  stop_server (server);
}

/* Without bubblewrap the server is not started at all, and the reason
 * names what is missing. */
static void
test_unavailable (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(StewardServerConfig) config = escape_config (fixture, 0, FALSE);
  g_autoptr(StewardServer) server = NULL;

  steward_bwrap_set_program_for_testing ("/nonexistent/bwrap");
  server = start_server (fixture, config);

  test_loop_until (steward_server_get_status (server) == STEWARD_SERVER_STATUS_FAILED, 20);
  g_assert_nonnull (strstr (steward_server_get_status_text (server), "bubblewrap"));
  g_assert_null (steward_server_get_client (server));
}

/* server-filesystem given a folder as its argument: the sandbox lets it
 * read the folder, which the consent dialog listed, and not change it. */
static void
test_filesystem_folder (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autofree char *script = peer_script ("server-filesystem");
  g_autofree char *folder = g_build_filename (fixture->top, "shared", NULL);
  g_autofree char *file = g_build_filename (folder, "hello.txt", NULL);
  g_autofree char *added = g_build_filename (folder, "added.txt", NULL);
  g_autoptr(StewardServerConfig) config = NULL;
  g_autoptr(StewardServer) server = NULL;
  g_autofree char *arguments = NULL;
  g_autofree char *text = NULL;
  gboolean is_error;

  if (script == NULL)
    {
      g_test_skip ("the npm peers are not installed");
      return;
    }

  /* No root: the folder is all the server is told of, so that the write
   * below is refused by the sandbox, not by the server's own rules. */
  steward_roots_remove (steward_host_get_roots (fixture->host),
                        steward_roots_lookup (steward_host_get_roots (fixture->host),
                                              fixture->root));
  write_file (file, "hello from the person");
  config = steward_server_config_new_stdio ("files", "node",
                                            (const char *[]) { script, folder, NULL }, NULL,
                                            NULL);
  server = start_server (fixture, config);
  test_loop_until (steward_server_get_status (server) == STEWARD_SERVER_STATUS_READY, 60);

  arguments = g_strdup_printf ("{\"path\": \"%s\"}", file);
  text = call_tool (server, "read_text_file", arguments, &is_error);
  g_assert_false (is_error);
  g_assert_nonnull (strstr (text, "hello from the person"));

  g_free (arguments);
  g_free (text);
  arguments = g_strdup_printf ("{\"path\": \"%s\", \"content\": \"x\"}", added);
  text = call_tool (server, "write_file", arguments, &is_error);
  g_test_message ("write_file in a folder it may only read: %s", text);
  g_assert_true (is_error);
  g_assert_nonnull (strstr (text, "read-only file system"));
  g_assert_false (g_file_test (added, G_FILE_TEST_EXISTS));

  stop_server (server);
}

/* server-filesystem with no folder, working in the root the person
 * shared: it may change it. */
static void
test_filesystem_root (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autofree char *script = peer_script ("server-filesystem");
  g_autofree char *added = g_build_filename (fixture->root, "added.txt", NULL);
  g_autoptr(StewardServerConfig) config = NULL;
  g_autoptr(StewardServer) server = NULL;
  g_autofree char *arguments = NULL;
  g_autofree char *text = NULL;
  g_autofree char *written = NULL;
  gboolean is_error = TRUE;

  if (script == NULL)
    {
      g_test_skip ("the npm peers are not installed");
      return;
    }

  config = steward_server_config_new_stdio ("files", "node", (const char *[]) { script, NULL },
                                            NULL, NULL);
  server = start_server (fixture, config);
  test_loop_until (steward_server_get_status (server) == STEWARD_SERVER_STATUS_READY, 60);

  /* The server asks for the roots once it is ready; until it has them it
   * refuses every path. */
  arguments = g_strdup_printf ("{\"path\": \"%s\", \"content\": \"from the server\"}", added);
  for (guint attempt = 0; is_error && attempt < 50; attempt++)
    {
      g_free (text);
      text = call_tool (server, "write_file", arguments, &is_error);
    }
  g_test_message ("write_file in its root: %s", text);
  g_assert_false (is_error);
  g_assert_true (g_file_get_contents (added, &written, NULL, NULL));
  g_assert_cmpstr (written, ==, "from the server");

  stop_server (server);
}

/* tests/servers/npx-server packed into a tarball for `npx --package=`,
 * so that it installs without the network; NULL without npm. */
static char *
pack_npx_server (Fixture *fixture)
{
  g_autofree char *npm = g_find_program_in_path ("npm");
  g_autofree char *source = g_test_build_filename (G_TEST_DIST, "servers", "npx-server", NULL);
  g_autofree char *pack = g_build_filename (fixture->top, "pack", NULL);
  g_autofree char *tarball = g_build_filename (pack, "steward-npx-server-1.0.0.tgz", NULL);
  const char *pack_argv[] = { "npm", "pack", "--silent", source, NULL };
  g_autoptr(GError) error = NULL;
  int status;

  if (npm == NULL)
    return NULL;

  g_assert_cmpint (g_mkdir (pack, 0700), ==, 0);
  g_spawn_sync (pack, (char **) pack_argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
                NULL, NULL, NULL, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_true (g_file_test (tarball, G_FILE_TEST_IS_REGULAR));

  return g_strconcat ("--package=", tarball, NULL);
}

/* An `npx -y` server installs into its own folder and starts, with the
 * network off: the package comes from a local tarball. */
static void
test_npx (Fixture       *fixture,
          gconstpointer  data)
{
  g_autofree char *package = pack_npx_server (fixture);
  g_autoptr(StewardServerConfig) config = NULL;
  g_autoptr(StewardSandboxProfile) profile = NULL;
  g_autoptr(StewardServer) server = NULL;
  g_autofree char *text = NULL;
  g_autofree char *home = NULL;
  gboolean is_error;

  if (package == NULL)
    {
      g_test_skip ("npm is not installed");
      return;
    }

  config = steward_server_config_new_stdio ("npx", "npx",
                                            (const char *[]) { "-y", package,
                                                               "steward-npx-server", NULL },
                                            NULL, NULL);
  config = steward_server_config_with_permissions (g_steal_pointer (&config), 0, FALSE, FALSE,
                                                   NULL);
  profile = steward_sandbox_profile_new (config, NULL);
  server = start_server (fixture, config);
  test_loop_until (steward_server_get_status (server) == STEWARD_SERVER_STATUS_READY, 90);

  text = call_tool (server, "where", "{}", &is_error);
  g_assert_false (is_error);
  home = g_strdup_printf ("\"home\":\"%s\"", steward_sandbox_profile_get_state_dir (profile));
  g_assert_nonnull (strstr (text, home));

  stop_server (server);
}

static void
count_consent_cb (GListModel *approvals,
                  guint       position,
                  guint       removed,
                  guint       added,
                  guint      *n_consents)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(StewardApproval) approval = g_list_model_get_item (approvals, i);

      *n_consents += steward_approval_get_kind (approval) == STEWARD_APPROVAL_KIND_CONSENT;
    }
}

static gboolean
file_holds (const char *path,
            const char *needle)
{
  g_autofree char *contents = NULL;

  return g_file_get_contents (path, &contents, NULL, NULL) && strstr (contents, needle) != NULL;
}

/* The person turns the network off in the consent dialog of an `npx`
 * server, whose default is on: the entry is saved with "network": false,
 * the server starts with it at once, and nobody is asked a second time. */
static void
test_npx_network_chosen (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autofree char *package = pack_npx_server (fixture);
  StewardConfig *store = steward_host_get_config (fixture->host);
  GListModel *approvals = G_LIST_MODEL (steward_host_get_approvals (fixture->host));
  g_autofree char *servers_file = NULL;
  g_autoptr(StewardServerConfig) config = NULL;
  StewardServerConfig *saved;
  g_autoptr(StewardServer) server = NULL;
  g_autoptr(StewardApproval) approval = NULL;
  g_autoptr(JsonObject) answer = json_object_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *network;
  guint n_consents = 0;
  gboolean is_error;
  g_autofree char *text = NULL;

  if (package == NULL)
    {
      g_test_skip ("npm is not installed");
      return;
    }

  config = steward_server_config_new_stdio ("npx", "npx",
                                            (const char *[]) { "-y", package,
                                                               "steward-npx-server", NULL },
                                            NULL, NULL);
  g_assert_false (steward_server_config_has_network (config));
  steward_config_put_server (store, config);
  steward_config_save_async (store, NULL, test_store_result_cb, &result);
  test_loop_until (result != NULL, 10);
  g_assert_true (steward_config_save_finish (store, result, &error));
  g_assert_no_error (error);
  servers_file = g_file_get_path (steward_config_get_file (store));

  g_signal_connect (approvals, "items-changed", G_CALLBACK (count_consent_cb), &n_consents);
  server = steward_server_new (steward_host_get_server_context (fixture->host),
                               config);
  steward_server_start (server);
  test_loop_until (n_consents == 1, 20);
  approval = g_list_model_get_item (approvals, 0);

  /* The dialog is told the default and why. */
  network = json_object_get_object_member (
    json_object_get_object_member (steward_approval_get_request (approval), "sandbox"),
    "network");
  g_assert_nonnull (network);
  g_assert_true (json_object_get_boolean_member (network, "allowed"));
  g_assert_nonnull (strstr (json_object_get_string_member (network, "reason"), "`npx`"));

  json_object_set_boolean_member (answer, "network", FALSE);
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_ALLOW, answer);

  test_loop_until (steward_server_get_status (server) == STEWARD_SERVER_STATUS_READY, 90);
  g_assert_cmpuint (n_consents, ==, 1);
  g_assert_true (steward_server_config_has_network (steward_server_get_config (server)));
  g_assert_false (steward_server_config_get_network (steward_server_get_config (server)));
  saved = steward_config_lookup (store, "npx", &error);
  g_assert_no_error (error);
  g_assert_true (steward_server_config_has_network (saved));
  g_assert_false (steward_server_config_get_network (saved));
  g_assert_true (steward_config_has_consent (store, saved));
  g_assert_false (steward_config_has_consent (store, config));
  test_loop_until (file_holds (servers_file, "\"network\": false") ||
              file_holds (servers_file, "\"network\":false"), 10);

  text = call_tool (server, "where", "{}", &is_error);
  g_assert_false (is_error);
  g_assert_cmpuint (n_consents, ==, 1);
  g_assert_cmpint (steward_server_get_status (server), ==, STEWARD_SERVER_STATUS_READY);

  g_signal_handlers_disconnect_by_data (approvals, &n_consents);
  stop_server (server);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/steward/sandbox-escape/nothing-gets-out", Fixture, NULL, fixture_set_up,
              test_nothing_gets_out, fixture_tear_down);
  g_test_add ("/steward/sandbox-escape/network-allowed", Fixture, NULL, fixture_set_up,
              test_network_allowed, fixture_tear_down);
  g_test_add ("/steward/sandbox-escape/display", Fixture, NULL, fixture_set_up, test_display,
              fixture_tear_down);
  g_test_add ("/steward/sandbox-escape/full-access", Fixture, NULL, fixture_set_up,
              test_full_access, fixture_tear_down);
  g_test_add ("/steward/sandbox-escape/unavailable", Fixture, NULL, fixture_set_up,
              test_unavailable, fixture_tear_down);
  g_test_add ("/steward/sandbox-escape/filesystem-folder", Fixture, NULL, fixture_set_up,
              test_filesystem_folder, fixture_tear_down);
  g_test_add ("/steward/sandbox-escape/filesystem-root", Fixture, NULL, fixture_set_up,
              test_filesystem_root, fixture_tear_down);
  g_test_add ("/steward/sandbox-escape/npx", Fixture, NULL, fixture_set_up, test_npx,
              fixture_tear_down);
  g_test_add ("/steward/sandbox-escape/npx-network-chosen", Fixture, NULL, fixture_set_up,
              test_npx_network_chosen, fixture_tear_down);

  return g_test_run ();
}

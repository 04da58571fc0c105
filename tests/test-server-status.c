/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-server-status"

#include "config.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>

#include "steward-host.h"
#include "steward-server-failure.h"
#include "steward-server-private.h"
#include "test-host-fixture.h"
#include "test-http-peer.h"

/* The states StewardServer tells a person: a remote server that goes away
 * and comes back (the reference server "everything" over Streamable HTTP,
 * killed and started again on the same port), and starts that fail before
 * the server ever answered (a module that is not there, a URL that refuses,
 * one that answers 404), which fail once with a sentence naming the cause
 * and the fix instead of being restarted as crashes. */

#define DEADLINE_S 30

static gboolean
flag_cb (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Lets the main loop run a while, to see that something does not happen. */
static void
run_for (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, flag_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

/* The host */

typedef struct {
  char        *top;
  StewardHost *host;
  GArray      *statuses;   /* StewardServerStatus, each change */
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  fixture->top = test_make_top ("test-server-status");
  fixture->host = test_host_new_in (fixture->top);
  fixture->statuses = g_array_new (FALSE, FALSE, sizeof (StewardServerStatus));
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_finalize_object (fixture->host);
  g_array_unref (fixture->statuses);
  test_remove_tree (fixture->top);
  g_free (fixture->top);
}

static void
status_cb (StewardServer *server,
           GParamSpec    *pspec,
           Fixture       *fixture)
{
  StewardServerStatus status = steward_server_get_status (server);

  g_array_append_val (fixture->statuses, status);
}

static guint
count_status (Fixture             *fixture,
              StewardServerStatus  status)
{
  guint count = 0;

  for (guint i = 0; i < fixture->statuses->len; i++)
    count += g_array_index (fixture->statuses, StewardServerStatus, i) == status;

  return count;
}

/* A server with consent given, its status changes recorded. */
static StewardServer *
new_server (Fixture             *fixture,
            StewardServerConfig *config)
{
  StewardServer *server = steward_server_new (steward_host_get_server_context (fixture->host),
                                              config);

  test_record_consent (steward_host_get_config (fixture->host), config);
  g_signal_connect (server, "notify::status", G_CALLBACK (status_cb), fixture);

  return server;
}

/* A server for the remote @url, allowed to start but not started. */
static StewardServer *
new_remote_server (Fixture                *fixture,
                   const char             *name,
                   const char             *url,
                   StewardServerTransport  transport)
{
  g_autoptr(StewardServerConfig) config = NULL;

  config = steward_server_config_new_remote (name, url, transport, NULL);
  return new_server (fixture, config);
}

/* Starts @server and waits until it is Ready. */
static void
start_until_ready (StewardServer *server)
{
  steward_server_start (server);
  test_wait_for_status (server, STEWARD_SERVER_STATUS_READY, DEADLINE_S);
}

static void
stop_server (StewardServer *server)
{
  g_autoptr(GAsyncResult) result = NULL;

  steward_server_stop_async (server, NULL, test_store_result_cb, &result);
  test_loop_until (result != NULL, DEADLINE_S);
  g_assert_true (steward_server_stop_finish (server, result, NULL));
  g_assert_null (steward_server_get_client (server));
}

static gboolean
text_has (StewardServer *server,
          const char    *part)
{
  return strstr (steward_server_get_status_text (server), part) != NULL;
}

/* Picking the line */

static void
test_pick_line (void)
{
  const char *node[] = {
    "node:internal/modules/cjs/loader:1080",
    "  throw err;",
    "  ^",
    "",
    "Error: Cannot find module '/srv/missing/server.js'",
    "    at Module._resolveFilename (node:internal/modules/cjs/loader:1077:15)",
    "    at node:internal/main/run_main_module:23:47 {",
    "  code: 'MODULE_NOT_FOUND',",
    "  requireStack: []",
    "}",
    "",
    "Node.js v20.11.0",
    NULL
  };
  const char *python[] = {
    "Traceback (most recent call last):",
    "  File \"/srv/server.py\", line 3, in <module>",
    "    import mcp_missing",
    "ModuleNotFoundError: No module named 'mcp_missing'",
    NULL
  };
  const char *npm[] = {
    "npm ERR! code E404",
    "npm ERR! 404 Not Found - GET https://registry.npmjs.org/@example%2fnope - Not found",
    "npm ERR! A complete log of this run can be found in: /tmp/x.log",
    NULL
  };
  const char *plain[] = {
    "starting up",
    "cannot read /etc/server.toml: no such file or directory",
    "",
    "}",
    NULL
  };
  const char *quiet[] = { "", "   at nothing", NULL };
  g_autofree char *node_line = steward_server_failure_pick_line (node);
  g_autofree char *python_line = steward_server_failure_pick_line (python);
  g_autofree char *npm_line = steward_server_failure_pick_line (npm);
  g_autofree char *plain_line = steward_server_failure_pick_line (plain);
  g_autofree char *quiet_line = steward_server_failure_pick_line (quiet);
  g_autofree char *none = steward_server_failure_pick_line (NULL);

  g_assert_cmpstr (node_line, ==, "Error: Cannot find module '/srv/missing/server.js'");
  g_assert_cmpstr (python_line, ==, "ModuleNotFoundError: No module named 'mcp_missing'");
  g_assert_cmpstr (npm_line, ==,
                   "npm ERR! A complete log of this run can be found in: /tmp/x.log");
  g_assert_cmpstr (plain_line, ==, "cannot read /etc/server.toml: no such file or directory");
  g_assert_null (quiet_line);
  g_assert_null (none);
}

/* Starts that never reached the server */

static void
assert_failed_once (Fixture       *fixture,
                    StewardServer *server)
{
  /* Not restarted as a crash: it stays as it is. */
  run_for (1500);
  g_assert_cmpint (steward_server_get_status (server), ==, STEWARD_SERVER_STATUS_FAILED);
  g_assert_cmpuint (count_status (fixture, STEWARD_SERVER_STATUS_STARTING), ==, 1);
  g_assert_cmpuint (count_status (fixture, STEWARD_SERVER_STATUS_RESTARTING), ==, 0);
  g_assert_cmpuint (steward_server_get_retry_in (server), ==, 0);
  g_assert_false (text_has (server, "keeps crashing"));
}

static void
test_missing_module (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autofree char *node = g_find_program_in_path ("node");
  const char *args[] = { "/nonexistent/steward-test/server.js", NULL };
  g_autoptr(StewardServerConfig) config = NULL;
  StewardServer *server;
  const char *detail;

  g_assert_nonnull (node);
  config = steward_server_config_new_stdio ("no-module", node, args, NULL, NULL);
  server = new_server (fixture, config);
  steward_server_set_backoff_for_testing (server, 50, 1000, 60000);
  steward_server_start (server);

  test_wait_for_status (server, STEWARD_SERVER_STATUS_FAILED, DEADLINE_S);
  g_test_message ("status: %s", steward_server_get_status_text (server));
  g_assert_cmpstr (steward_server_get_status_text (server), ==,
                   "Failed: the module /nonexistent/steward-test/server.js was not found; check "
                   "the path in the server’s arguments, or install the package");
  detail = steward_server_get_detail_text (server);
  g_assert_nonnull (strstr (detail, "Error: Cannot find module"));
  g_assert_nonnull (strstr (detail, "Node.js v"));
  assert_failed_once (fixture, server);

  /* The person's Start tries again, once. */
  steward_server_start (server);
  test_loop_until (count_status (fixture, STEWARD_SERVER_STATUS_FAILED) == 2, DEADLINE_S);
  g_assert_cmpuint (count_status (fixture, STEWARD_SERVER_STATUS_STARTING), ==, 2);

  stop_server (server);
  g_assert_finalize_object (server);
}

static void
test_exit_at_once (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "servers",
                                                   "lifecycle-server.py", NULL);
  const char *args[] = { script, "exit-at-once", NULL };
  g_autoptr(StewardServerConfig) config = NULL;
  StewardServer *server;

  config = steward_server_config_new_stdio ("exits", "/usr/bin/python3", args, NULL, NULL);
  server = new_server (fixture, config);
  steward_server_set_backoff_for_testing (server, 50, 1000, 60000);
  steward_server_start (server);

  test_wait_for_status (server, STEWARD_SERVER_STATUS_FAILED, DEADLINE_S);
  g_test_message ("status: %s", steward_server_get_status_text (server));
  g_assert_cmpstr (steward_server_get_status_text (server), ==,
                   "Failed: it exited with status 2 before answering, saying: lifecycle-server: "
                   "no such file or directory; check its command, arguments and environment");
  g_assert_nonnull (strstr (steward_server_get_detail_text (server),
                            "cannot read /nonexistent/settings.toml"));
  assert_failed_once (fixture, server);

  stop_server (server);
  g_assert_finalize_object (server);
}

static void
test_refused (Fixture       *fixture,
              gconstpointer  data)
{
  guint16 port = test_free_port ();
  g_autofree char *url = g_strdup_printf ("http://127.0.0.1:%u/mcp", port);
  g_autofree char *expected = NULL;
  StewardServer *server;

  server = new_remote_server (fixture, "refusing", url,
                              STEWARD_SERVER_TRANSPORT_STREAMABLE_HTTP);
  steward_server_set_backoff_for_testing (server, 50, 1000, 60000);
  steward_server_start (server);

  test_wait_for_status (server, STEWARD_SERVER_STATUS_FAILED, DEADLINE_S);
  g_test_message ("status: %s", steward_server_get_status_text (server));
  expected = g_strdup_printf ("Failed: nothing answers at 127.0.0.1:%u (Connection refused); "
                              "start the server, or correct the URL", port);
  g_assert_cmpstr (steward_server_get_status_text (server), ==, expected);
  assert_failed_once (fixture, server);

  stop_server (server);
  g_assert_finalize_object (server);
}

static void
test_not_found (Fixture       *fixture,
                gconstpointer  data)
{
  guint16 port = test_free_port ();
  TestHttpPeer *peer = test_http_peer_start (port);
  g_autofree char *url = g_strdup_printf ("http://127.0.0.1:%u/no-such-endpoint", port);
  g_autofree char *expected = NULL;
  StewardServer *server;

  server = new_remote_server (fixture, "misaddressed", url,
                              STEWARD_SERVER_TRANSPORT_STREAMABLE_HTTP);
  steward_server_set_backoff_for_testing (server, 50, 1000, 60000);
  steward_server_start (server);

  test_wait_for_status (server, STEWARD_SERVER_STATUS_FAILED, DEADLINE_S);
  g_test_message ("status: %s", steward_server_get_status_text (server));
  expected = g_strdup_printf ("Failed: %s answered HTTP 404 Not Found; check the path in the URL",
                              url);
  g_assert_cmpstr (steward_server_get_status_text (server), ==, expected);
  assert_failed_once (fixture, server);

  stop_server (server);
  g_assert_finalize_object (server);
  test_http_peer_kill (peer);
}

/* Going away and coming back */

static void
test_reconnect (Fixture       *fixture,
                gconstpointer  data)
{
  guint16 port = test_free_port ();
  TestHttpPeer *peer = test_http_peer_start (port);
  g_autofree char *url = g_strdup_printf ("http://127.0.0.1:%u/mcp", port);
  StewardServer *server;
  gint64 killed;
  gint64 back;

  server = new_remote_server (fixture, "everything-http", url,
                              STEWARD_SERVER_TRANSPORT_STREAMABLE_HTTP);
  start_until_ready (server);
  g_assert_true (g_str_has_prefix (steward_server_get_status_text (server), "Ready · "));

  /* Its event stream breaks: asked, it does not answer, and it is no
   * longer Ready. */
  killed = g_get_monotonic_time ();
  test_http_peer_kill (peer);
  test_wait_for_status (server, STEWARD_SERVER_STATUS_DISCONNECTED, DEADLINE_S);
  g_test_message ("disconnected %.2f s after the kill",
                  (g_get_monotonic_time () - killed) / (double) G_USEC_PER_SEC);
  g_test_message ("status: %s", steward_server_get_status_text (server));
  g_assert_null (steward_server_get_client (server));
  g_assert_true (g_str_has_prefix (steward_server_get_status_text (server),
                                   "Disconnected — reconnecting (attempt 1"));
  g_assert_nonnull (strstr (steward_server_get_detail_text (server), "stopped answering"));

  /* Attempts that find nobody there count up; none is a crash. */
  test_loop_until (text_has (server, "(attempt 2"), DEADLINE_S);
  g_test_message ("status: %s", steward_server_get_status_text (server));
  g_assert_cmpuint (count_status (fixture, STEWARD_SERVER_STATUS_RESTARTING), ==, 0);
  g_assert_cmpuint (count_status (fixture, STEWARD_SERVER_STATUS_FAILED), ==, 0);
  g_assert_cmpuint (count_status (fixture, STEWARD_SERVER_STATUS_READY), ==, 1);

  /* Back on the same port: Ready again, with its tools. */
  peer = test_http_peer_start (port);
  back = g_get_monotonic_time ();
  test_wait_for_status (server, STEWARD_SERVER_STATUS_READY, DEADLINE_S);
  g_test_message ("ready %.2f s after the server was back",
                  (g_get_monotonic_time () - back) / (double) G_USEC_PER_SEC);
  g_assert_true (g_str_has_prefix (steward_server_get_status_text (server), "Ready · "));
  g_assert_nonnull (steward_server_get_client (server));
  g_assert_cmpuint (count_status (fixture, STEWARD_SERVER_STATUS_READY), ==, 2);
  g_assert_cmpuint (count_status (fixture, STEWARD_SERVER_STATUS_FAILED), ==, 0);

  stop_server (server);
  g_assert_finalize_object (server);
  test_http_peer_kill (peer);
}

/* A server that comes back answering that the URL is wrong is no longer
 * away but misconfigured: reconnecting stops with the sentence for a 404,
 * and the person's Start starts afresh. */
static void
test_back_wrong (Fixture       *fixture,
                 gconstpointer  data)
{
  guint16 port = test_free_port ();
  TestHttpPeer *peer = test_http_peer_start (port);
  g_autofree char *url = g_strdup_printf ("http://127.0.0.1:%u/mcp", port);
  g_autofree char *expected = NULL;
  StewardServer *server;

  server = new_remote_server (fixture, "everything-http", url,
                              STEWARD_SERVER_TRANSPORT_STREAMABLE_HTTP);
  start_until_ready (server);

  /* On the same port now: the legacy transport, which has no /mcp. */
  test_http_peer_kill (peer);
  test_wait_for_status (server, STEWARD_SERVER_STATUS_DISCONNECTED, DEADLINE_S);
  peer = test_http_peer_start_sse (port);
  test_wait_for_status (server, STEWARD_SERVER_STATUS_FAILED, DEADLINE_S);
  expected = g_strdup_printf ("Failed: %s answered HTTP 404 Not Found; check the path in the URL",
                              url);
  g_assert_cmpstr (steward_server_get_status_text (server), ==, expected);
  g_assert_cmpuint (count_status (fixture, STEWARD_SERVER_STATUS_RESTARTING), ==, 0);

  /* Started again by the person: a fresh start, not attempt N + 1. */
  steward_server_start (server);
  test_loop_until (count_status (fixture, STEWARD_SERVER_STATUS_FAILED) == 2, DEADLINE_S);
  g_assert_cmpuint (count_status (fixture, STEWARD_SERVER_STATUS_STARTING), ==, 2);
  g_assert_cmpstr (steward_server_get_status_text (server), ==, expected);

  stop_server (server);
  g_assert_finalize_object (server);
  test_http_peer_kill (peer);
}

/* Over the legacy transport, the end of the event stream closes the
 * connection: that too is a disconnection, not a crash. */
static void
test_reconnect_sse (Fixture       *fixture,
                    gconstpointer  data)
{
  guint16 port = test_free_port ();
  TestHttpPeer *peer = test_http_peer_start_sse (port);
  g_autofree char *url = g_strdup_printf ("http://127.0.0.1:%u/sse", port);
  StewardServer *server;

  server = new_remote_server (fixture, "everything-sse", url,
                              STEWARD_SERVER_TRANSPORT_SSE);
  start_until_ready (server);

  test_http_peer_kill (peer);
  test_wait_for_status (server, STEWARD_SERVER_STATUS_DISCONNECTED, DEADLINE_S);
  g_test_message ("status: %s", steward_server_get_status_text (server));
  g_assert_true (g_str_has_prefix (steward_server_get_status_text (server),
                                   "Disconnected — reconnecting (attempt 1"));
  test_loop_until (text_has (server, "(attempt 2"), DEADLINE_S);

  peer = test_http_peer_start_sse (port);
  test_wait_for_status (server, STEWARD_SERVER_STATUS_READY, DEADLINE_S);
  g_assert_cmpuint (count_status (fixture, STEWARD_SERVER_STATUS_FAILED), ==, 0);
  g_assert_cmpuint (count_status (fixture, STEWARD_SERVER_STATUS_RESTARTING), ==, 0);

  stop_server (server);
  g_assert_finalize_object (server);
  test_http_peer_kill (peer);
}

/* A server that hangs keeps its connections open: no stream ends, and
 * only a ping that is not answered in time tells. */
static void
test_hung (Fixture       *fixture,
           gconstpointer  data)
{
  guint16 port = test_free_port ();
  TestHttpPeer *peer = test_http_peer_start (port);
  g_autofree char *url = g_strdup_printf ("http://127.0.0.1:%u/mcp", port);
  StewardServer *server;

  server = new_remote_server (fixture, "everything-http", url,
                              STEWARD_SERVER_TRANSPORT_STREAMABLE_HTTP);
  steward_server_set_watch_interval_for_testing (server, 500);
  start_until_ready (server);

  test_http_peer_signal (peer, SIGSTOP);
  test_wait_for_status (server, STEWARD_SERVER_STATUS_DISCONNECTED, DEADLINE_S);
  g_test_message ("status: %s", steward_server_get_status_text (server));
  g_test_message ("detail: %s", steward_server_get_detail_text (server));
  g_assert_nonnull (strstr (steward_server_get_detail_text (server),
                            "it did not answer a ping within 3 s"));
  g_assert_null (steward_server_get_client (server));

  test_http_peer_signal (peer, SIGCONT);
  test_wait_for_status (server, STEWARD_SERVER_STATUS_READY, DEADLINE_S);
  g_assert_cmpuint (count_status (fixture, STEWARD_SERVER_STATUS_FAILED), ==, 0);
  g_assert_cmpuint (count_status (fixture, STEWARD_SERVER_STATUS_RESTARTING), ==, 0);

  stop_server (server);
  g_assert_finalize_object (server);
  test_http_peer_kill (peer);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define add(path, func) \
  g_test_add ("/steward/server-status/" path, Fixture, NULL, fixture_set_up, func, \
              fixture_tear_down)

  g_test_add_func ("/steward/server-status/pick-line", test_pick_line);
  add ("missing-module", test_missing_module);
  add ("exit-at-once", test_exit_at_once);
  add ("refused", test_refused);
  add ("not-found", test_not_found);
  add ("reconnect", test_reconnect);
  add ("back-wrong", test_back_wrong);
  add ("reconnect-sse", test_reconnect_sse);
  add ("hung", test_hung);

  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-modern"

#include "config.h"


#include "mcp-client.h"
#include "mcp-json-private.h"
#include "mcp-scripted-transport.h"
#include "mcp-http-transport.h"
#include "mcp-stdio-transport.h"
#include "mcp-tool.h"
#include "test-delegate.h"
#include "test-peer-process.h"

/* A server of the 2026-07-28 revision written with the official TypeScript
 * SDK (tests/peers/servers/modern-server.mjs), over stdio: the client finds
 * the era by itself and answers input_required results through the same
 * delegate as the server requests of the older revisions. */

typedef struct {
  GSubprocess  *server;     /* the HTTP server; over stdio the transport runs it */
  McpClient    *client;
  TestDelegate *delegate;
  gboolean      subscribed;  /* the server acknowledged subscriptions/listen */
} Fixture;

static JsonObject *
reply_cb (const char  *method,
          JsonObject  *params,
          gpointer     user_data,
          GError     **error)
{
  if (g_str_equal (method, "elicitation/create"))
    return test_parse_object ("{\"action\":\"accept\",\"content\":{\"name\":\"Ada Lovelace\"}}");
  if (g_str_equal (method, "sampling/createMessage"))
    return test_parse_object ("{\"role\":\"assistant\",\"content\":{\"type\":\"text\","
                              "\"text\":\"written by a person\"},\"model\":\"manual\","
                              "\"stopReason\":\"endTurn\"}");
  return test_parse_object ("{\"roots\":[{\"uri\":\"file:///srv/work\",\"name\":\"work\"}]}");
}

/* Starts the server over HTTP and waits until it says it listens. */
static McpTransport *
start_http_server (Fixture    *fixture,
                   const char *script)
{
  g_autofree char *port = test_peer_free_port ();
  g_autofree char *url = g_strdup_printf ("http://127.0.0.1:%s/mcp", port);
  const char *argv[] = { "node", script, "http", port, NULL };
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GError) error = NULL;
  McpTransport *transport;

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDERR_PIPE);
  fixture->server = test_peer_spawn (launcher, argv, "listening");

  transport = MCP_TRANSPORT (mcp_http_transport_new (url, &error));
  g_assert_no_error (error);
  return transport;
}

static void
acknowledged_cb (McpClient  *client,
                 const char *method,
                 JsonObject *params,
                 gpointer    user_data)
{
  ((Fixture *) user_data)->subscribed = TRUE;
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *server = g_build_filename (g_getenv ("STEWARD_PEERS_DIR"), "..", "servers",
                                              "modern-server.mjs", NULL);
  const char *argv[] = { "node", server, NULL };
  g_autoptr(McpTransport) transport = NULL;

  if (g_str_equal (data, "http"))
    transport = start_http_server (fixture, server);
  else
    transport = MCP_TRANSPORT (mcp_stdio_transport_new (argv));

  fixture->delegate = test_delegate_new (MCP_CLIENT_FEATURE_ROOTS |
                                         MCP_CLIENT_FEATURE_SAMPLING |
                                         MCP_CLIENT_FEATURE_ELICITATION_FORM);
  fixture->delegate->reply_func = reply_cb;
  fixture->client = mcp_client_new (transport);
  mcp_client_set_delegate (fixture->client, MCP_CLIENT_DELEGATE (fixture->delegate));
  g_signal_connect (fixture->client, "notification::notifications/subscriptions/acknowledged",
                    G_CALLBACK (acknowledged_cb), fixture);

  test_client_connect (fixture->client);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  test_client_close (g_steal_pointer (&fixture->client));
  g_assert_finalize_object (fixture->delegate);
  test_peer_stop (&fixture->server);
}

static char *
call_text (Fixture    *fixture,
           const char *name,
           const char *arguments)
{
  g_autoptr(JsonObject) args = arguments ? test_parse_object (arguments) : NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(McpToolResult) reply = NULL;

  mcp_client_call_tool_async (fixture->client, name, args, NULL, NULL, NULL, NULL,
                              test_store_result_cb, &result);
  wait_for (result != NULL);
  reply = mcp_client_call_tool_finish (fixture->client, result, &error);
  g_assert_no_error (error);
  g_assert_false (mcp_tool_result_get_is_error (reply));

  return mcp_tool_result_dup_text (reply);
}

static void
test_discover (Fixture       *fixture,
               gconstpointer  data)
{
  g_autofree char *echo = NULL;

  g_assert_cmpint (mcp_client_get_revision (fixture->client), ==, MCP_REVISION_2026_07_28);
  g_assert_cmpstr (mcp_client_get_server_name (fixture->client), ==, "steward-modern-test");
  g_assert_cmpstr (mcp_client_get_instructions (fixture->client), ==, "A modern test server.");
  wait_for (g_list_model_get_n_items (mcp_client_get_tools (fixture->client)) == 7);

  echo = call_text (fixture, "echo", "{\"message\":\"hello\"}");
  g_assert_cmpstr (echo, ==, "Echo: hello");
}

static void
test_input_kinds (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *name = call_text (fixture, "ask-name", NULL);
  g_autofree char *model = call_text (fixture, "think", NULL);
  g_autofree char *roots = call_text (fixture, "where", NULL);

  g_assert_cmpstr (name, ==, "Hello, Ada Lovelace");
  g_assert_cmpstr (model, ==, "The model said: written by a person");
  g_assert_cmpstr (roots, ==, "Roots: file:///srv/work");
}

static void
test_several_at_once (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autofree char *text = call_text (fixture, "all-at-once", NULL);

  /* Three questions in one round, and the server's state came back. */
  g_assert_cmpstr (text, ==, "Ada Lovelace / written by a person / 1 roots");
  g_assert_cmpuint (fixture->delegate->methods->len, ==, 3);
}

static void
test_two_rounds (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autofree char *text = call_text (fixture, "two-rounds", NULL);

  g_assert_cmpstr (text, ==, "second round: 1 roots");
  g_assert_cmpuint (fixture->delegate->methods->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (fixture->delegate->methods, 0), ==, "elicitation/create");
  g_assert_cmpstr (g_ptr_array_index (fixture->delegate->methods, 1), ==, "roots/list");
}

static void
test_list_changed (Fixture       *fixture,
                   gconstpointer  data)
{
  GListModel *tools = mcp_client_get_tools (fixture->client);
  g_autofree char *text = NULL;

  wait_for (g_list_model_get_n_items (tools) == 7);

  /* A change made before the server has taken the subscription is told
   * to nobody; once it has, the change arrives on the subscription stream
   * and the list follows. */
  wait_for (fixture->subscribed);
  text = call_text (fixture, "add-tool", NULL);
  wait_for (g_list_model_get_n_items (tools) == 8);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func)                                                                \
  G_STMT_START {                                                                       \
    g_test_add ("/steward/modern/stdio/" path, Fixture, "stdio", fixture_set_up, func, \
                fixture_tear_down);                                                    \
    g_test_add ("/steward/modern/http/" path, Fixture, "http", fixture_set_up, func,   \
                fixture_tear_down);                                                    \
  } G_STMT_END

  ADD ("discover", test_discover);
  ADD ("input-kinds", test_input_kinds);
  ADD ("several-at-once", test_several_at_once);
  ADD ("two-rounds", test_two_rounds);
  ADD ("list-changed", test_list_changed);

#undef ADD

  return g_test_run ();
}

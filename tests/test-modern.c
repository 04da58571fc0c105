/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-modern"

#include "config.h"

#include <signal.h>
#include <string.h>

#include "mcp-client.h"
#include "mcp-json-private.h"
#include "mcp-scripted-transport.h"
#include "mcp-http-transport.h"
#include "mcp-stdio-transport.h"
#include "mcp-tool.h"
#include "test-delegate.h"

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

static void
store_result_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

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

static guint16
free_port (void)
{
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GSocket) socket = NULL;
  g_autoptr(GError) error = NULL;

  socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP,
                         &error);
  g_assert_no_error (error);
  g_assert_true (g_socket_bind (socket, any, TRUE, &error));
  bound = g_socket_get_local_address (socket, &error);
  g_assert_no_error (error);

  return g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
}

static void
read_line_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  *(char **) user_data = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (object),
                                                                    result, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (*(char **) user_data);
}

/* Reads what the server writes on stderr until it exits: a server whose
 * stderr is closed on it would die of it at its next log line. */
static void
drain_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GBytes) bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result,
                                                              NULL);

  if (bytes != NULL && g_bytes_get_size (bytes) > 0)
    g_input_stream_read_bytes_async (G_INPUT_STREAM (object), 4096, G_PRIORITY_DEFAULT, NULL,
                                     drain_cb, NULL);
}

/* Starts the server over HTTP and waits until it says it listens. */
static McpTransport *
start_http_server (Fixture    *fixture,
                   const char *script)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *port = g_strdup_printf ("%u", free_port ());
  g_autofree char *url = g_strdup_printf ("http://127.0.0.1:%s/mcp", port);
  g_autofree char *line = NULL;
  McpTransport *transport;

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDERR_PIPE);
  fixture->server = g_subprocess_launcher_spawn (launcher, &error, "node", script, "http", port,
                                                 NULL);
  g_assert_no_error (error);

  lines = g_data_input_stream_new (g_subprocess_get_stderr_pipe (fixture->server));
  g_data_input_stream_read_line_async (lines, G_PRIORITY_DEFAULT, NULL, read_line_cb, &line);
  wait_for (line != NULL);
  g_assert_nonnull (strstr (line, "listening"));
  g_filter_input_stream_set_close_base_stream (G_FILTER_INPUT_STREAM (lines), FALSE);
  g_input_stream_read_bytes_async (g_subprocess_get_stderr_pipe (fixture->server), 4096,
                                   G_PRIORITY_DEFAULT, NULL, drain_cb, NULL);

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
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

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

  mcp_client_connect_async (fixture->client, NULL, store_result_cb, &result);
  wait_for (result != NULL);
  g_assert_true (mcp_client_connect_finish (fixture->client, result, &error));
  g_assert_no_error (error);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_client_close_async (fixture->client, NULL, store_result_cb, &result);
  wait_for (result != NULL);
  g_clear_object (&result);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_finalize_object (fixture->client);
  g_assert_finalize_object (fixture->delegate);

  if (fixture->server != NULL)
    {
      g_subprocess_send_signal (fixture->server, SIGTERM);
      g_assert_true (g_subprocess_wait (fixture->server, NULL, NULL));
      g_clear_object (&fixture->server);
    }
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
                              store_result_cb, &result);
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

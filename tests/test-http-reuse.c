/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-http-reuse"

#include "config.h"

#include <string.h>

#include "keepalive-server.h"
#include "mcp-client.h"
#include "mcp-connect.h"
#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-scripted-transport.h"
#include "mcp-tool.h"
#include "mcp-tool-result.h"

/* Streamable HTTP keeps its connections: requests go one after the other
 * on the same few, whether the answers come as JSON or as event streams;
 * a connection the server closed while idle is not used again; and a
 * request whose kept connection breaks just as it arrives is sent again
 * only when making it twice changes nothing, never a tools/call. Against
 * tests/servers/keepalive-server.py, which numbers the connections. */

#define N_CALLS 40

static void
store_result_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static McpClient *
connect_client (KeepaliveServer *server)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpClient *client;

  /* As steward-cli and the host connect: the era is probed. */
  mcp_connect_http_async (server->url, NULL, MCP_HTTP_KIND_AUTO, NULL, NULL, NULL,
                          store_result_cb, &result);
  wait_for (result != NULL);
  client = mcp_connect_http_finish (result, &error);
  g_assert_no_error (error);
  g_assert_cmpint (mcp_client_get_revision (client), ==, MCP_REVISION_2025_11_25);

  return client;
}

static void
close_client (McpClient *client)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_client_close_async (client, NULL, store_result_cb, &result);
  wait_for (result != NULL);
  g_object_unref (client);
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* Calls echo with @n; returns the error, if any. */
static GError *
call_echo (McpClient *client,
           guint      n)
{
  g_autoptr(JsonObject) args = json_object_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(McpToolResult) reply = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *text = NULL;
  GError *error = NULL;

  json_object_set_int_member (args, "n", n);
  mcp_client_call_tool_async (client, "echo", args, NULL, NULL, NULL, NULL, store_result_cb,
                              &result);
  wait_for (result != NULL);
  reply = mcp_client_call_tool_finish (client, result, &error);
  if (reply == NULL)
    return error;

  expected = g_strdup_printf ("{\"n\": %u}", n);
  text = mcp_tool_result_dup_text (reply);
  g_assert_cmpstr (text, ==, expected);

  return NULL;
}

static void
test_reuse (gconstpointer data)
{
  KeepaliveServer *server = keepalive_server_start ("--reply", data, NULL);
  McpClient *client = connect_client (server);

  wait_for (g_list_model_get_n_items (mcp_client_get_tools (client)) == 1);
  for (guint i = 0; i < N_CALLS; i++)
    {
      g_autoptr(GError) error = call_echo (client, i);

      g_assert_no_error (error);
    }
  wait_for (keepalive_server_count_posts (server, "tools/call") == N_CALLS);

  /* The probe, the handshake, the standalone GET the server refuses, the
   * list and every call: on one connection, or two where the GET and a
   * POST went out at the same time; one per request before. */
  g_assert_cmpuint (keepalive_server_count_connections (server), <=, 2);

  close_client (client);
  keepalive_server_stop (server);
}

/* The server closes connections idle for 0.2 s; a call after that goes
 * on a new one, without an error. */
static void
test_idle_closed (void)
{
  KeepaliveServer *server = keepalive_server_start ("--idle-close", "0.2", NULL);
  McpClient *client = connect_client (server);
  g_autoptr(GError) error = NULL;
  JsonObject *first;
  JsonObject *second;
  gint64 conn;

  error = call_echo (client, 1);
  g_assert_no_error (error);
  wait_for (keepalive_server_count_posts (server, "tools/call") == 1);
  first = keepalive_server_find_post (server, "tools/call", 0);
  conn = (gint64) mcp_json_get_number (first, "conn", 0);

  /* Until the server says it closed the connection the call went on. */
  wait_for (keepalive_server_has_closed (server, conn));

  error = call_echo (client, 2);
  g_assert_no_error (error);
  wait_for (keepalive_server_count_posts (server, "tools/call") == 2);
  second = keepalive_server_find_post (server, "tools/call", 1);
  /* Not on the closed connection. It may be one opened later or another
   * kept one still open: on a busy machine the handshake's requests can
   * leave a second connection whose idle time has not run out yet. */
  g_assert_cmpint ((gint64) mcp_json_get_number (second, "conn", 0), !=, conn);

  close_client (client);
  keepalive_server_stop (server);
}

/* The server takes the first tools/call that comes on a kept connection
 * and closes the connection without an answer, as when it gives up an
 * idle connection just as a request arrives. That call fails, saying it
 * was not sent again; the server got every call once; the next works. */
static void
test_stale_tools_call (void)
{
  KeepaliveServer *server = keepalive_server_start ("--drop-reused", "tools/call", NULL);
  McpClient *client = connect_client (server);
  guint failed = 0;

  wait_for (g_list_model_get_n_items (mcp_client_get_tools (client)) == 1);
  for (guint i = 0; i < 4; i++)
    {
      g_autoptr(GError) error = call_echo (client, i);

      if (error == NULL)
        continue;

      failed++;
      g_assert_true (error->domain == MCP_ERROR);
      if (strstr (error->message, "tools/call was not sent again, since the server may have "
                                  "received it") == NULL)
        g_error ("the failure does not say that the call was not repeated: %s",
                 error->message);
    }
  g_assert_cmpuint (failed, ==, 1);

  close_client (client);
  wait_for (keepalive_server_count_posts (server, "tools/call") >= 4);
  g_assert_cmpuint (keepalive_server_count_posts (server, "tools/call"), ==, 4);
  keepalive_server_stop (server);
}

/* The same for ping, which changes nothing: it goes again, on a new
 * connection, and the caller never knows. */
static void
test_stale_ping (void)
{
  KeepaliveServer *server = keepalive_server_start ("--drop-reused", "ping", NULL);
  McpClient *client = connect_client (server);
  JsonObject *dropped = NULL;
  JsonObject *resent = NULL;

  wait_for (g_list_model_get_n_items (mcp_client_get_tools (client)) == 1);
  for (guint i = 0; i < 4; i++)
    {
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(GError) error = NULL;

      mcp_client_ping_async (client, NULL, store_result_cb, &result);
      wait_for (result != NULL);
      g_assert_true (mcp_client_ping_finish (client, result, &error));
      g_assert_no_error (error);
    }

  /* Four pings, one of them twice: dropped on a kept connection, then
   * sent on a newer one (another request may have opened it first). */
  wait_for (keepalive_server_count_posts (server, "ping") == 5);
  for (guint i = 0; i + 1 < 5 && dropped == NULL; i++)
    {
      JsonObject *ping = keepalive_server_find_post (server, "ping", i);
      JsonObject *next = keepalive_server_find_post (server, "ping", i + 1);

      if (mcp_json_get_number (next, "conn", 0) > mcp_json_get_number (ping, "conn", 0) &&
          mcp_json_get_number (ping, "nth", 0) > 1)
        {
          dropped = ping;
          resent = next;
        }
    }
  g_assert_nonnull (dropped);
  g_assert_nonnull (resent);

  close_client (client);
  keepalive_server_stop (server);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_data_func ("/steward/http-reuse/json", "json", test_reuse);
  g_test_add_data_func ("/steward/http-reuse/sse", "sse", test_reuse);
  g_test_add_func ("/steward/http-reuse/idle-closed", test_idle_closed);
  g_test_add_func ("/steward/http-reuse/stale-tools-call", test_stale_tools_call);
  g_test_add_func ("/steward/http-reuse/stale-ping", test_stale_ping);

  return g_test_run ();
}

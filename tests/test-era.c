/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-era"

#include "config.h"

#include <string.h>

#include "mcp-client.h"
#include "mcp-connect.h"
#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-json.h"
#include "keepalive-server.h"
#include "mcp-scripted-transport.h"

/* How a client that speaks both eras tells them apart: the answer to the
 * server/discover probe, by the dual-era rules of the 2026-07-28 revision
 * (basic/versioning and the backward-compatibility sections of the stdio
 * and Streamable HTTP bindings). Anything but a recognised modern answer
 * means `initialize`, with a handshake-era revision; a modern server with
 * no revision in common is an error that says so. First on a scripted
 * transport, then over HTTP against tests/servers/keepalive-server.py. */

static void
store_result_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static gint64
id_of (McpMessage *message)
{
  gint64 id = 0;

  g_assert_true (mcp_message_get_int_id (message, &id));
  return id;
}

/* On a scripted transport */

typedef struct {
  const char *name;
  const char *answer;     /* after `"id":N,`; NULL: no answer at all */
  const char *initialize; /* the revision offered; NULL: no initialize */
  const char *failure;    /* a part of the error, when connecting fails */
} ProbeCase;

static const ProbeCase probe_cases[] = {
  /* What servers that answer every unknown method with an empty result
   * give, as the official conformance mocks do. */
  { "empty-result", "\"result\":{}", "2025-11-25", NULL },
  { "versions-not-a-list", "\"result\":{\"supportedVersions\":\"2026-07-28\"}",
    "2025-11-25", NULL },
  { "versions-empty", "\"result\":{\"supportedVersions\":[]}", "2025-11-25", NULL },
  { "versions-not-strings", "\"result\":{\"supportedVersions\":[20260728]}", "2025-11-25",
    NULL },
  /* Non-modern errors, whatever the code. */
  { "method-not-found", "\"error\":{\"code\":-32601,\"message\":\"Method not found\"}",
    "2025-11-25", NULL },
  { "invalid-params", "\"error\":{\"code\":-32602,\"message\":\"Invalid params\"}",
    "2025-11-25", NULL },
  { "not-initialized", "\"error\":{\"code\":-32000,\"message\":\"Server not initialized\"}",
    "2025-11-25", NULL },
  { "silence", NULL, "2025-11-25", NULL },
  /* A valid discover result of a server that offers only the old era. */
  { "lists-only-handshake-era",
    "\"result\":{\"supportedVersions\":[\"2024-11-05\",\"2025-06-18\"],\"capabilities\":{}}",
    "2025-06-18", NULL },
  /* A modern error naming handshake-era revisions: a server of both eras
   * that will not speak ours, so the newest it names. */
  { "unsupported-names-handshake-era",
    "\"error\":{\"code\":-32022,\"message\":\"Unsupported protocol version\","
    "\"data\":{\"supported\":[\"2025-03-26\",\"2027-01-01\"],\"requested\":\"2026-07-28\"}}",
    "2025-03-26", NULL },
  /* Modern servers with nothing in common: no initialize, which would only
   * fail less clearly, and a sentence naming both sides. */
  { "lists-only-unknown",
    "\"result\":{\"supportedVersions\":[\"2027-01-01\",\"2027-06-30\"],\"capabilities\":{}}",
    NULL, "the server supports only protocol revisions “2027-01-01”, “2027-06-30”, none of "
    "which this client speaks (it speaks 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, "
    "2024-11-05)" },
  { "unsupported-names-unknown",
    "\"error\":{\"code\":-32022,\"message\":\"Unsupported protocol version\","
    "\"data\":{\"supported\":[\"2027-01-01\"],\"requested\":\"2026-07-28\"}}",
    NULL, "the server supports only protocol revisions “2027-01-01”, none of which this "
    "client speaks" },
  { "unsupported-without-list",
    "\"error\":{\"code\":-32022,\"message\":\"Unsupported protocol version\"}",
    NULL, "the server supports only protocol revisions nothing this client can read" },
  { "missing-capability",
    "\"error\":{\"code\":-32021,\"message\":\"Sampling is required\","
    "\"data\":{\"requiredCapabilities\":{\"sampling\":{}}}}",
    NULL, "the server is of the 2026-07-28 era but refused the first request (error -32021: "
    "Sampling is required)" },
  /* What a server lists is shown safely: no control characters, no
   * unbounded line. */
  { "hostile-versions",
    "\"result\":{\"supportedVersions\":[\"2027\\u001b[2J\",\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
    "xxxxxxxxxxxxxxxxxxxxxxx\",\"2027-01-01\"]}",
    NULL, "only protocol revisions “2027-01-01” and 2 more, none of which" },
};

static void
test_probe (gconstpointer data)
{
  const ProbeCase *c = data;
  g_autoptr(McpScriptedTransport) transport = mcp_scripted_transport_new ();
  g_autoptr(McpClient) client = mcp_client_new (MCP_TRANSPORT (transport));
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpMessage *discover;

  /* Silence ends with the probe's deadline, which follows this one. */
  mcp_client_set_initialize_timeout (client, 300);
  mcp_client_connect_async (client, NULL, store_result_cb, &result);
  discover = mcp_scripted_transport_wait_sent (transport, "server/discover");
  g_assert_cmpstr (mcp_json_get_string (mcp_json_get_object (mcp_message_get_params (discover),
                                                             "_meta"),
                                        "io.modelcontextprotocol/protocolVersion"), ==,
                   "2026-07-28");

  if (c->answer != NULL)
    mcp_scripted_transport_receivef (transport, "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT
                                     ",%s}", id_of (discover), c->answer);

  if (c->initialize != NULL)
    {
      McpMessage *init = mcp_scripted_transport_wait_sent (transport, "initialize");
      JsonObject *params = mcp_message_get_params (init);

      /* A handshake-era request: its revision in the handshake, never the
       * modern one, and no modern _meta. */
      g_assert_cmpstr (mcp_json_get_string (params, "protocolVersion"), ==, c->initialize);
      g_assert_null (mcp_json_get_object (params, "_meta"));
      mcp_scripted_transport_receivef (transport,
                                       "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT
                                       ",\"result\":{\"protocolVersion\":\"%s\","
                                       "\"serverInfo\":{\"name\":\"old\",\"version\":\"1\"},"
                                       "\"capabilities\":{}}}", id_of (init), c->initialize);
      wait_for (result != NULL);
      g_assert_true (mcp_client_connect_finish (client, result, &error));
      g_assert_no_error (error);
      g_assert_cmpstr (mcp_revision_to_string (mcp_client_get_revision (client)), ==,
                       c->initialize);
      g_assert_nonnull (mcp_scripted_transport_find_sent (transport,
                                                          "notifications/initialized"));
    }
  else
    {
      wait_for (result != NULL);
      g_assert_false (mcp_client_connect_finish (client, result, &error));
      g_assert_error (error, MCP_ERROR, MCP_ERROR_UNSUPPORTED_VERSION);
      if (strstr (error->message, c->failure) == NULL)
        g_error ("“%s” does not say “%s”", error->message, c->failure);
      g_assert_null (strchr (error->message, '\x1b'));
      g_assert_null (mcp_scripted_transport_find_sent (transport, "initialize"));
    }

  g_clear_object (&client);
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* Asked for 2026-07-28 alone, a server that does not answer as one of
 * that revision is an error, not a reason to fall back. */
static void
test_pinned_modern (void)
{
  g_autoptr(McpScriptedTransport) transport = mcp_scripted_transport_new ();
  g_autoptr(McpClient) client = mcp_client_new (MCP_TRANSPORT (transport));
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpMessage *discover;

  mcp_client_set_requested_revision (client, MCP_REVISION_2026_07_28);
  mcp_client_connect_async (client, NULL, store_result_cb, &result);
  discover = mcp_scripted_transport_wait_sent (transport, "server/discover");
  mcp_scripted_transport_receivef (transport, "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT
                                   ",\"result\":{}}", id_of (discover));
  wait_for (result != NULL);
  g_assert_false (mcp_client_connect_finish (client, result, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_UNSUPPORTED_VERSION);
  g_assert_nonnull (strstr (error->message, "does not speak protocol revision 2026-07-28"));
  g_assert_nonnull (strstr (error->message, "lists no supported versions"));
  g_assert_null (mcp_scripted_transport_find_sent (transport, "initialize"));

  g_clear_object (&client);
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* Over HTTP */

static void
setup_cb (McpClient *client,
          gpointer   user_data)
{
  mcp_client_set_initialize_timeout (client, GPOINTER_TO_UINT (user_data));
}

static McpClient *
connect_http (KeepaliveServer  *server,
              guint             timeout_ms,
              GError          **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_connect_http_async (server->url, NULL, MCP_HTTP_KIND_AUTO, setup_cb,
                          GUINT_TO_POINTER (timeout_ms), NULL, store_result_cb, &result);
  wait_for (result != NULL);

  return mcp_connect_http_finish (result, error);
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

typedef struct {
  const char *name;
  const char *mode;       /* keepalive-server.py --discover */
  const char *supported;  /* its --supported */
  const char *failure;    /* NULL: it falls back and connects with 2025-11-25 */
} HttpCase;

static const HttpCase http_cases[] = {
  { "empty-result", "empty", "", NULL },
  { "not-found", "not-found", "", NULL },
  /* A 4xx without a modern error in its body. */
  { "plain-400", "text400", "", NULL },
  { "plain-404", "status404", "", NULL },
  { "silence", "silent", "", NULL },
  { "unsupported", "unsupported", "2027-01-01",
    "the server supports only protocol revisions “2027-01-01”, none of which this client "
    "speaks" },
  { "lists-only-unknown", "listed", "2027-01-01,2027-06-30",
    "the server supports only protocol revisions “2027-01-01”, “2027-06-30”, none of which" },
};

static void
test_http (gconstpointer data)
{
  const HttpCase *c = data;
  KeepaliveServer *server = keepalive_server_start ("--discover", c->mode,
                                                    "--supported", c->supported, NULL);
  g_autoptr(GError) error = NULL;
  McpClient *client;
  JsonObject *init;

  client = connect_http (server, 500, &error);

  if (c->failure != NULL)
    {
      g_assert_null (client);
      g_assert_error (error, MCP_ERROR, MCP_ERROR_UNSUPPORTED_VERSION);
      if (strstr (error->message, c->failure) == NULL)
        g_error ("“%s” does not say “%s”", error->message, c->failure);
      wait_for (keepalive_server_count_posts (server, "server/discover") == 1);
      g_assert_cmpuint (keepalive_server_count_posts (server, "initialize"), ==, 0);
      keepalive_server_stop (server);
      return;
    }

  g_assert_no_error (error);
  g_assert_cmpint (mcp_client_get_revision (client), ==, MCP_REVISION_2025_11_25);
  wait_for (keepalive_server_count_posts (server, "initialize") == 1);
  g_assert_cmpuint (keepalive_server_count_posts (server, "server/discover"), ==, 1);

  /* The handshake names a handshake-era revision in its body; its header,
   * if any, is never the modern one. */
  init = keepalive_server_find_post (server, "initialize", 0);
  g_assert_cmpstr (mcp_json_get_string (init, "version"), ==, "2025-11-25");
  g_assert_cmpstr (mcp_json_get_string (init, "header_version"), !=, "2026-07-28");

  close_client (client);
  keepalive_server_stop (server);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (probe_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/steward/era/probe/%s", probe_cases[i].name);

      g_test_add_data_func (path, &probe_cases[i], test_probe);
    }
  g_test_add_func ("/steward/era/pinned-modern", test_pinned_modern);

  for (guint i = 0; i < G_N_ELEMENTS (http_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/steward/era/http/%s", http_cases[i].name);

      g_test_add_data_func (path, &http_cases[i], test_http);
    }

  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-sse-transport"

#include "config.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "mcp-client.h"
#include "mcp-error.h"
#include "mcp-item.h"
#include "mcp-line-framer.h"
#include "mcp-scripted-transport.h"
#include "mcp-sse-transport.h"
#include "mcp-tool.h"
#include "test-delegate.h"
#include "test-http-peer.h"

/* The legacy HTTP+SSE transport against tests/servers/sse-legacy-server.py,
 * which misbehaves on request (suite "hostile"), and against the reference
 * server in its `sse` mode (suite "peers"). */

#define MIB (1024 * 1024)

/* Short enough for a test, long enough that a loaded machine does not fire
 * them by accident. */
#define SHORT_TIMEOUT_MS 300

/* AddressSanitizer keeps freed memory in quarantine, so in such a build the
 * resident size says nothing about what the transport holds on to. */
#if defined(__SANITIZE_ADDRESS__)
#define MEMORY_FIGURES_MEANINGFUL FALSE
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MEMORY_FIGURES_MEANINGFUL FALSE
#endif
#endif
#ifndef MEMORY_FIGURES_MEANINGFUL
#define MEMORY_FIGURES_MEANINGFUL TRUE
#endif

/* The test server */

typedef struct {
  GSubprocess      *process;
  GDataInputStream *lines;
  guint             port;
  guint             other_port;
} Server;

static Server *
server_new (const char *mode)
{
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "servers",
                                                   "sse-legacy-server.py", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;
  Server *server = g_new0 (Server, 1);

  server->process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                      G_SUBPROCESS_FLAGS_STDOUT_PIPE,
                                      &error, "python3", script, mode, NULL);
  g_assert_no_error (error);

  /* The server prints its ports once it listens; reading the pipe blocks
   * only this test, never the server. */
  server->lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (server->process));
  line = g_data_input_stream_read_line (server->lines, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (line);
  g_assert_cmpint (sscanf (line, "%u %u", &server->port, &server->other_port), ==, 2);

  return server;
}

static char *
server_url (Server     *server,
            const char *path)
{
  return g_strdup_printf ("http://127.0.0.1:%u%s", server->port, path);
}

static char *
other_origin (Server *server)
{
  return g_strdup_printf ("http://127.0.0.1:%u", server->other_port);
}

/* Stops the server and returns what it recorded, one JsonObject per
 * request either of its ports received. */
static GPtrArray *
server_finish (Server *server)
{
  GPtrArray *records = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
  g_autoptr(GError) error = NULL;
  char *line;

  g_assert_true (g_output_stream_close (g_subprocess_get_stdin_pipe (server->process),
                                        NULL, NULL));
  while ((line = g_data_input_stream_read_line (server->lines, NULL, NULL, &error)) != NULL)
    {
      g_ptr_array_add (records, test_parse_object (line));
      g_free (line);
    }
  g_assert_no_error (error);
  g_assert_true (g_subprocess_wait (server->process, NULL, &error));
  g_assert_no_error (error);

  g_object_unref (server->lines);
  g_object_unref (server->process);
  g_free (server);

  return records;
}

static void
server_stop (Server *server)
{
  g_ptr_array_unref (server_finish (server));
}

static const char *
record_header (JsonObject *record,
               const char *name)
{
  JsonObject *headers = json_object_get_object_member (record, "headers");

  return json_object_get_string_member_with_default (headers, name, NULL);
}

static guint
count_requests (GPtrArray  *records,
                const char *listener,
                const char *method)
{
  guint count = 0;

  for (guint i = 0; i < records->len; i++)
    {
      JsonObject *record = g_ptr_array_index (records, i);

      if (g_str_equal (json_object_get_string_member (record, "listener"), listener) &&
          (method == NULL || g_str_equal (json_object_get_string_member (record, "method"),
                                          method)))
        count++;
    }

  return count;
}

/* Driving the transport alone */

typedef struct {
  McpSseTransport *transport;
  GPtrArray       *messages;
  GPtrArray       *diagnostics;
  guint            n_closed;
  GError          *closed_error;
  gint64           closed_time;
} Harness;

static void
store_result_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GAsyncResult **out = user_data;

  g_assert_null (*out);
  *out = g_object_ref (result);
}

static void
message_cb (McpTransport *transport,
            McpMessage   *message,
            Harness      *h)
{
  g_assert_cmpuint (h->n_closed, ==, 0);
  g_ptr_array_add (h->messages, mcp_message_ref (message));
}

static void
log_cb (McpTransport        *transport,
        McpTransportLogKind  kind,
        const char          *text,
        GPtrArray           *diagnostics)
{
  g_assert_cmpint (kind, ==, MCP_TRANSPORT_LOG_DIAGNOSTIC);
  g_assert_true (g_utf8_validate (text, -1, NULL));
  g_test_message ("diagnostic: %s", text);
  g_ptr_array_add (diagnostics, g_strdup (text));
}

static void
closed_cb (McpTransport *transport,
           const GError *error,
           Harness      *h)
{
  h->n_closed++;
  h->closed_time = g_get_monotonic_time ();
  g_clear_error (&h->closed_error);
  if (error != NULL)
    h->closed_error = g_error_copy (error);
}

static gboolean
has_diagnostic (GPtrArray  *diagnostics,
                const char *part)
{
  for (guint i = 0; i < diagnostics->len; i++)
    if (strstr (g_ptr_array_index (diagnostics, i), part) != NULL)
      return TRUE;

  return FALSE;
}

static Harness *
harness_new (Server     *server,
             const char *path)
{
  g_autofree char *url = server_url (server, path);
  g_autoptr(GError) error = NULL;
  Harness *h = g_new0 (Harness, 1);

  h->transport = mcp_sse_transport_new (url, &error);
  g_assert_no_error (error);
  h->messages = g_ptr_array_new_with_free_func ((GDestroyNotify) mcp_message_unref);
  h->diagnostics = g_ptr_array_new_with_free_func (g_free);
  g_signal_connect (h->transport, "message", G_CALLBACK (message_cb), h);
  g_signal_connect (h->transport, "log", G_CALLBACK (log_cb), h->diagnostics);
  g_signal_connect (h->transport, "closed", G_CALLBACK (closed_cb), h);

  return h;
}

static gboolean
harness_start (Harness  *h,
               GError  **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_transport_start_async (MCP_TRANSPORT (h->transport), NULL, store_result_cb, &result);
  wait_for (result != NULL);

  return mcp_transport_start_finish (MCP_TRANSPORT (h->transport), result, error);
}

static void
harness_close (Harness *h)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_transport_close_async (MCP_TRANSPORT (h->transport), NULL, store_result_cb, &result);
  wait_for (result != NULL);
  g_assert_true (mcp_transport_close_finish (MCP_TRANSPORT (h->transport), result, NULL));
}

static void
harness_free (Harness *h)
{
  harness_close (h);
  g_signal_handlers_disconnect_by_data (h->transport, h);
  g_signal_handlers_disconnect_by_data (h->transport, h->diagnostics);

  /* Callbacks of the requests the close cancelled come back first. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_finalize_object (h->transport);

  g_ptr_array_unref (h->messages);
  g_ptr_array_unref (h->diagnostics);
  g_clear_error (&h->closed_error);
  g_free (h);
}

/* Driving it through McpClient, as the host does */

typedef struct {
  McpSseTransport *transport;
  McpClient       *client;
  TestDelegate    *delegate;
  GPtrArray       *diagnostics;
} Session;

static Session *
session_new (const char *url)
{
  g_autoptr(GError) error = NULL;
  Session *s = g_new0 (Session, 1);

  s->transport = mcp_sse_transport_new (url, &error);
  g_assert_no_error (error);
  s->diagnostics = g_ptr_array_new_with_free_func (g_free);
  g_signal_connect (s->transport, "log", G_CALLBACK (log_cb), s->diagnostics);

  s->delegate = test_delegate_new (MCP_CLIENT_FEATURE_SAMPLING);
  s->client = mcp_client_new (MCP_TRANSPORT (s->transport));
  mcp_client_set_delegate (s->client, MCP_CLIENT_DELEGATE (s->delegate));
  mcp_client_set_requested_revision (s->client, MCP_REVISION_2024_11_05);

  return s;
}

static gboolean
session_connect (Session  *s,
                 GError  **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_client_connect_async (s->client, NULL, store_result_cb, &result);
  wait_for (result != NULL);

  return mcp_client_connect_finish (s->client, result, error);
}

static McpToolResult *
session_call (Session     *s,
              const char  *name,
              const char  *arguments,
              GError     **error)
{
  g_autoptr(JsonObject) args = test_parse_object (arguments);
  g_autoptr(GAsyncResult) result = NULL;

  mcp_client_call_tool_async (s->client, name, args, NULL, NULL, NULL, NULL,
                              store_result_cb, &result);
  wait_for (result != NULL);

  return mcp_client_call_tool_finish (s->client, result, error);
}

static char *
session_call_text (Session    *s,
                   const char *name,
                   const char *arguments)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpToolResult) result = session_call (s, name, arguments, &error);

  g_assert_no_error (error);
  g_assert_false (mcp_tool_result_get_is_error (result));

  return mcp_tool_result_dup_text (result);
}

static McpTool *
find_tool (McpClient  *client,
           const char *name)
{
  GListModel *tools = mcp_client_get_tools (client);

  for (guint i = 0; i < g_list_model_get_n_items (tools); i++)
    {
      g_autoptr(McpTool) tool = g_list_model_get_item (tools, i);

      if (g_str_equal (mcp_item_get_name (MCP_ITEM (tool)), name))
        return tool;
    }

  return NULL;
}

static void
session_free (Session *s)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_client_close_async (s->client, NULL, store_result_cb, &result);
  wait_for (result != NULL);
  g_assert_true (mcp_client_close_finish (s->client, result, NULL));
  g_clear_object (&result);

  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_finalize_object (s->client);
  g_signal_handlers_disconnect_by_data (s->transport, s->diagnostics);
  g_assert_finalize_object (s->transport);
  g_assert_finalize_object (s->delegate);
  g_ptr_array_unref (s->diagnostics);
  g_free (s);
}

static void
assert_status_data (const GError *error,
                    gint64        status)
{
  JsonNode *data = mcp_error_get_data (error);

  g_assert_nonnull (data);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (data));
  g_assert_cmpint (json_object_get_int_member_with_default (json_node_get_object (data),
                                                            "status", 0), ==, status);
}

/* Cases */

static void
test_invalid_url (void)
{
  const char *urls[] = { "ftp://127.0.0.1/sse", "not a url", "http:///sse", "/sse" };

  for (guint i = 0; i < G_N_ELEMENTS (urls); i++)
    {
      g_autoptr(GError) error = NULL;
      McpSseTransport *transport = mcp_sse_transport_new (urls[i], &error);

      g_assert_null (transport);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
      g_test_message ("%s: %s", urls[i], error->message);
    }
}


/* Nothing listening: the start fails with the reason, naming the URL. */
static void
test_refused (void)
{
  g_autofree char *url = g_strdup_printf ("http://127.0.0.1:%u/sse", test_free_port ());
  g_autoptr(McpSseTransport) transport = mcp_sse_transport_new (url, NULL);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = g_strdup_printf ("could not connect to %s: ", url);

  mcp_transport_start_async (MCP_TRANSPORT (transport), NULL, store_result_cb, &result);
  wait_for (result != NULL);
  g_assert_false (mcp_transport_start_finish (MCP_TRANSPORT (transport), result, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_UNREACHABLE);
  g_assert_true (g_str_has_prefix (error->message, expected));
  g_clear_object (&result);

  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_finalize_object (g_steal_pointer (&transport));
}

/* A well-behaved server, through McpClient: the configured header goes with
 * every request, every message goes to the endpoint, answers come back. */
static void
test_client (void)
{
  Server *server = server_new ("normal");
  g_autofree char *url = server_url (server, "/sse");
  g_autofree char *prefix = server_url (server, "/message?sessionId=");
  g_autoptr(GPtrArray) records = NULL;
  g_autofree char *text = NULL;
  Session *s = session_new (url);
  g_autoptr(GError) error = NULL;
  guint n_posts = 0;

  mcp_sse_transport_set_header (s->transport, "Authorization", "Bearer canary-4d1f");
  mcp_sse_transport_set_header (s->transport, "X-Unset", "gone");
  mcp_sse_transport_set_header (s->transport, "x-unset", NULL);
  g_assert_cmpstr (mcp_transport_get_description (MCP_TRANSPORT (s->transport)), ==, url);
  g_assert_null (mcp_sse_transport_get_endpoint (s->transport));

  g_assert_true (session_connect (s, &error));
  g_assert_no_error (error);
  g_assert_cmpint (mcp_client_get_revision (s->client), ==, MCP_REVISION_2024_11_05);
  g_assert_cmpstr (mcp_client_get_server_name (s->client), ==, "sse-legacy");
  g_assert_true (g_str_has_prefix (mcp_sse_transport_get_endpoint (s->transport), prefix));

  wait_for (find_tool (s->client, "echo") != NULL);
  text = session_call_text (s, "echo", "{\"text\":\"hello over SSE\"}");
  g_assert_cmpstr (text, ==, "hello over SSE");

  session_free (s);
  records = server_finish (server);

  g_assert_cmpuint (count_requests (records, "other", NULL), ==, 0);
  g_assert_cmpuint (count_requests (records, "main", "GET"), ==, 1);
  for (guint i = 0; i < records->len; i++)
    {
      JsonObject *record = g_ptr_array_index (records, i);
      const char *method = json_object_get_string_member (record, "method");
      const char *path = json_object_get_string_member (record, "path");

      g_assert_cmpstr (record_header (record, "authorization"), ==, "Bearer canary-4d1f");
      g_assert_null (record_header (record, "x-unset"));
      if (g_str_equal (method, "GET"))
        {
          g_assert_cmpstr (path, ==, "/sse");
          g_assert_cmpstr (record_header (record, "accept"), ==, "text/event-stream");
        }
      else
        {
          g_assert_cmpstr (method, ==, "POST");
          g_assert_true (g_str_has_prefix (path, "/message?sessionId="));
          g_assert_cmpstr (record_header (record, "content-type"), ==, "application/json");
          n_posts++;
        }
    }
  /* initialize, notifications/initialized, tools/list, tools/call */
  g_assert_cmpuint (n_posts, >=, 4);
}

/* A relative endpoint is resolved against the stream's URL and its query
 * is kept as it was written; the server refuses any other path. */
static void
test_endpoint_query (void)
{
  Server *server = server_new ("query");
  g_autofree char *url = server_url (server, "/mcp/sse");
  g_autofree char *prefix = server_url (server, "/mcp/messages/post?sessionId=");
  g_autoptr(GPtrArray) records = NULL;
  g_autofree char *text = NULL;
  Session *s = session_new (url);
  g_autoptr(GError) error = NULL;
  const char *endpoint;

  g_assert_true (session_connect (s, &error));
  g_assert_no_error (error);

  endpoint = mcp_sse_transport_get_endpoint (s->transport);
  g_assert_true (g_str_has_prefix (endpoint, prefix));
  g_assert_true (g_str_has_suffix (endpoint, "&note=a%2Fb%26c"));

  text = session_call_text (s, "echo", "{\"text\":\"still here\"}");
  g_assert_cmpstr (text, ==, "still here");

  session_free (s);
  records = server_finish (server);
  g_assert_cmpuint (count_requests (records, "main", "POST"), >=, 3);
}

/* An endpoint on another origin fails the connection before any POST:
 * neither the other origin nor the server sees a message. */
static void
test_cross_origin (void)
{
  Server *server = server_new ("cross-origin");
  g_autofree char *origin = other_origin (server);
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;
  Harness *h = harness_new (server, "/sse");
  g_autoptr(McpMessage) ping = NULL;
  g_autoptr(JsonNode) id = json_node_new (JSON_NODE_VALUE);

  mcp_sse_transport_set_header (h->transport, "Authorization", "Bearer canary-90ab");
  g_assert_false (harness_start (h, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_FORBIDDEN_ORIGIN);
  expected = g_strdup_printf ("the server named an endpoint on another origin (%s); "
                              "nothing was sent", origin);
  g_assert_cmpstr (error->message, ==, expected);
  g_assert_null (mcp_sse_transport_get_endpoint (h->transport));

  /* Nothing can be sent afterwards either. */
  json_node_set_int (id, 1);
  ping = mcp_message_new_request (id, "ping", NULL);
  mcp_transport_send_async (MCP_TRANSPORT (h->transport), ping, NULL, store_result_cb, &result);
  wait_for (result != NULL);
  g_clear_error (&error);
  g_assert_false (mcp_transport_send_finish (MCP_TRANSPORT (h->transport), result, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_CLOSED);
  g_assert_cmpuint (h->n_closed, ==, 0);
  g_clear_object (&result);

  harness_free (h);
  records = server_finish (server);
  g_assert_cmpuint (count_requests (records, "other", NULL), ==, 0);
  g_assert_cmpuint (count_requests (records, "main", "POST"), ==, 0);
}

/* The same through McpClient: connecting fails with the reason. */
static void
test_cross_origin_client (void)
{
  Server *server = server_new ("cross-origin");
  g_autofree char *url = server_url (server, "/sse");
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(GError) error = NULL;
  Session *s = session_new (url);

  g_assert_false (session_connect (s, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_FORBIDDEN_ORIGIN);
  g_assert_nonnull (strstr (error->message, "nothing was sent"));
  g_assert_cmpint (mcp_client_get_state (s->client), ==, MCP_CLIENT_STATE_CLOSED);

  session_free (s);
  records = server_finish (server);
  g_assert_cmpuint (count_requests (records, "other", NULL), ==, 0);
  g_assert_cmpuint (count_requests (records, "main", "POST"), ==, 0);
}

/* Later endpoint events (to another origin, or elsewhere on this one) are
 * ignored with a diagnostic; messages keep going to the first endpoint. */
static void
test_second_endpoint (void)
{
  Server *server = server_new ("second-endpoint");
  g_autofree char *url = server_url (server, "/sse");
  g_autoptr(GPtrArray) records = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *prefix = server_url (server, "/message?sessionId=");
  Session *s = session_new (url);

  g_assert_true (session_connect (s, &error));
  g_assert_no_error (error);
  text = session_call_text (s, "echo", "{\"text\":\"first endpoint\"}");
  g_assert_cmpstr (text, ==, "first endpoint");
  g_assert_true (g_str_has_prefix (mcp_sse_transport_get_endpoint (s->transport), prefix));
  g_assert_true (has_diagnostic (s->diagnostics, "ignored another endpoint event"));
  g_assert_true (has_diagnostic (s->diagnostics, "ignored an event of type “heartbeat”"));

  session_free (s);
  records = server_finish (server);
  g_assert_cmpuint (count_requests (records, "other", NULL), ==, 0);
  for (guint i = 0; i < records->len; i++)
    {
      JsonObject *record = g_ptr_array_index (records, i);

      if (g_str_equal (json_object_get_string_member (record, "method"), "POST"))
        g_assert_true (g_str_has_prefix (json_object_get_string_member (record, "path"),
                                         "/message?sessionId="));
    }
}

/* A server that never names its endpoint fails the start when the
 * endpoint timeout runs out; what it sent meanwhile is ignored. */
static void
test_no_endpoint (void)
{
  Server *server = server_new ("no-endpoint");
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(GError) error = NULL;
  Harness *h = harness_new (server, "/sse");
  gint64 begin;
  gint64 elapsed_ms;

  mcp_sse_transport_set_endpoint_timeout (h->transport, SHORT_TIMEOUT_MS);
  begin = g_get_monotonic_time ();
  g_assert_false (harness_start (h, &error));
  elapsed_ms = (g_get_monotonic_time () - begin) / 1000;

  g_assert_error (error, MCP_ERROR, MCP_ERROR_TIMEOUT);
  g_assert_nonnull (strstr (error->message, "did not name the endpoint to post messages to "
                                            "within 300 ms"));
  g_assert_cmpint (elapsed_ms, >=, SHORT_TIMEOUT_MS);
  g_assert_true (has_diagnostic (h->diagnostics, "ignored a message the server sent before"));
  g_assert_cmpuint (h->messages->len, ==, 0);

  harness_free (h);
  records = server_finish (server);
  g_assert_cmpuint (count_requests (records, "main", "POST"), ==, 0);
}

static void
test_ends_early (void)
{
  Server *server = server_new ("ends-early");
  g_autoptr(GError) error = NULL;
  Harness *h = harness_new (server, "/sse");

  g_assert_false (harness_start (h, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_CLOSED);
  g_assert_nonnull (strstr (error->message, "closed the event stream before naming the "
                                            "endpoint"));

  harness_free (h);
  server_stop (server);
}

static void
test_unauthorized (void)
{
  Server *server = server_new ("unauthorized");
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(GError) error = NULL;
  Harness *h = harness_new (server, "/sse");

  g_assert_false (harness_start (h, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_HTTP_STATUS);
  g_assert_nonnull (strstr (error->message, "needs authorization (HTTP 401 Unauthorized)"));
  assert_status_data (error, 401);

  harness_free (h);
  records = server_finish (server);
  g_assert_cmpuint (count_requests (records, "main", "GET"), ==, 1);
}

static void
test_not_sse (void)
{
  Server *server = server_new ("not-sse");
  g_autoptr(GError) error = NULL;
  Harness *h = harness_new (server, "/sse");

  g_assert_false (harness_start (h, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
  g_assert_nonnull (strstr (error->message, "content of type text/html instead of an event "
                                            "stream"));

  harness_free (h);
  server_stop (server);
}

/* A redirect is never followed: the error names where it pointed, and
 * nothing (least of all the token) reaches that origin. */
static void
test_redirect (void)
{
  Server *server = server_new ("redirect");
  g_autofree char *origin = other_origin (server);
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;
  Harness *h = harness_new (server, "/sse");

  mcp_sse_transport_set_header (h->transport, "Authorization", "Bearer canary-5e77");
  g_assert_false (harness_start (h, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_FORBIDDEN_ORIGIN);
  expected = g_strdup_printf ("the server redirected the event-stream request to another origin "
                              "(%s) with HTTP 307; redirects are not followed, so nothing was "
                              "sent there", origin);
  g_assert_cmpstr (error->message, ==, expected);
  assert_status_data (error, 307);

  harness_free (h);
  records = server_finish (server);
  g_assert_cmpuint (count_requests (records, "other", NULL), ==, 0);
}

/* A stream that sends nothing at all, not even its headers' worth of
 * events, is given up after the idle timeout. */
static void
test_silent (void)
{
  Server *server = server_new ("silent");
  g_autoptr(GError) error = NULL;
  Harness *h = harness_new (server, "/sse");
  gint64 begin;
  gint64 elapsed_ms;

  mcp_sse_transport_set_idle_timeout (h->transport, SHORT_TIMEOUT_MS);
  begin = g_get_monotonic_time ();
  g_assert_false (harness_start (h, &error));
  elapsed_ms = (g_get_monotonic_time () - begin) / 1000;

  g_assert_error (error, MCP_ERROR, MCP_ERROR_TIMEOUT);
  g_assert_nonnull (strstr (error->message, "was silent for 300 ms"));
  g_assert_cmpint (elapsed_ms, >=, SHORT_TIMEOUT_MS);

  harness_free (h);
  server_stop (server);
}

/* After the endpoint, silence closes the connection with the reason. */
static void
test_idle_after_start (void)
{
  Server *server = server_new ("quiet");
  g_autoptr(GError) error = NULL;
  Harness *h = harness_new (server, "/sse");
  gint64 opened;

  mcp_sse_transport_set_idle_timeout (h->transport, SHORT_TIMEOUT_MS);
  g_assert_true (harness_start (h, &error));
  g_assert_no_error (error);
  opened = g_get_monotonic_time ();

  wait_for (h->n_closed == 1);
  g_assert_error (h->closed_error, MCP_ERROR, MCP_ERROR_TIMEOUT);
  g_assert_nonnull (strstr (h->closed_error->message, "was silent for 300 ms"));
  g_assert_cmpint ((h->closed_time - opened) / 1000, >=, SHORT_TIMEOUT_MS - 50);

  harness_free (h);
  server_stop (server);
}

/* A field of /proc/self/status such as "VmRSS", in KiB. */
static gsize
read_status_kib (const char *field)
{
  g_autofree char *contents = NULL;
  g_autofree char *key = g_strconcat ("\n", field, ":", NULL);
  const char *line;

  g_assert_true (g_file_get_contents ("/proc/self/status", &contents, NULL, NULL));
  line = strstr (contents, key);
  g_assert_nonnull (line);

  return (gsize) g_ascii_strtoull (line + strlen (key), NULL, 10);
}

/* Makes VmHWM start again from the current resident size. */
static void
reset_peak_rss (void)
{
  int fd = open ("/proc/self/clear_refs", O_WRONLY);

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (write (fd, "5", 1), ==, 1);
  g_assert_no_errno (close (fd));
}

/* An event that never ends is cut at the cap, and memory stays bounded. */
static void
test_huge_event (void)
{
  Server *warm_server = server_new ("normal");
  Server *server = server_new ("huge");
  g_autoptr(GError) error = NULL;
  Harness *warm = harness_new (warm_server, "/sse");
  Harness *h = harness_new (server, "/sse");
  gsize before_kib;
  gsize growth_kib;
  /* The promise is the cap plus 2 MiB: the parser holds at most the cap,
   * one read of 64 KiB is in flight, and libsoup, GIO and the allocator
   * keep some slack for the connection. One connection was made first, so
   * that what libsoup sets up once per process is not counted. */
  const gsize allowed_kib = (MCP_DEFAULT_MAX_MESSAGE_SIZE + 2 * MIB) / 1024;

  g_assert_true (harness_start (warm, &error));
  g_assert_no_error (error);
  harness_free (warm);
  server_stop (warm_server);

  while (g_main_context_iteration (NULL, FALSE))
    ;
  reset_peak_rss ();
  before_kib = read_status_kib ("VmRSS");

  g_assert_true (harness_start (h, &error));
  g_assert_no_error (error);
  wait_for (h->n_closed == 1);

  growth_kib = read_status_kib ("VmHWM");
  growth_kib = growth_kib > before_kib ? growth_kib - before_kib : 0;
  g_assert_error (h->closed_error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE);
  g_assert_nonnull (strstr (h->closed_error->message, "larger than the 10 MiB limit"));
  g_test_message ("peak RSS grew by %.2f MiB while the server sent an endless event "
                  "(allowed %.2f MiB)", growth_kib / 1024.0, allowed_kib / 1024.0);
  if (MEMORY_FIGURES_MEANINGFUL)
    g_assert_cmpuint (growth_kib, <=, allowed_kib);

  harness_free (h);
  server_stop (server);
}

/* A refused tools/call fails at once with the status, and the connection
 * stays usable. */
static void
test_post_500 (void)
{
  Server *server = server_new ("post-500");
  g_autofree char *url = server_url (server, "/sse");
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) ping = NULL;
  Session *s = session_new (url);

  g_assert_true (session_connect (s, &error));
  g_assert_no_error (error);

  result = session_call (s, "echo", "{\"text\":\"x\"}", &error);
  g_assert_null (result);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_HTTP_STATUS);
  g_assert_cmpstr (error->message, ==, "the server refused the tools/call request with HTTP 500 "
                                       "Internal Server Error: boom: the tool runner crashed");
  assert_status_data (error, 500);
  g_assert_true (has_diagnostic (s->diagnostics, "HTTP 500"));

  mcp_client_ping_async (s->client, NULL, store_result_cb, &ping);
  wait_for (ping != NULL);
  g_clear_error (&error);
  g_assert_true (mcp_client_ping_finish (s->client, ping, &error));
  g_assert_no_error (error);
  g_assert_cmpint (mcp_client_get_state (s->client), ==, MCP_CLIENT_STATE_READY);
  g_clear_object (&ping);

  session_free (s);
  server_stop (server);
}

/* A POST redirected to another origin is not followed there. */
static void
test_post_redirect (void)
{
  Server *server = server_new ("post-redirect");
  g_autofree char *url = server_url (server, "/sse");
  g_autofree char *origin = other_origin (server);
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GError) error = NULL;
  Session *s = session_new (url);

  mcp_sse_transport_set_header (s->transport, "Authorization", "Bearer canary-c0de");
  g_assert_true (session_connect (s, &error));
  g_assert_no_error (error);

  result = session_call (s, "echo", "{\"text\":\"x\"}", &error);
  g_assert_null (result);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_FORBIDDEN_ORIGIN);
  g_assert_nonnull (strstr (error->message, origin));
  g_assert_nonnull (strstr (error->message, "redirects are not followed"));
  assert_status_data (error, 307);

  session_free (s);
  records = server_finish (server);
  g_assert_cmpuint (count_requests (records, "other", NULL), ==, 0);
}

/* A POST the server never answers fails after the post timeout, and the
 * messages behind it go out. */
static void
test_post_hang (void)
{
  Server *server = server_new ("post-hang");
  g_autofree char *url = server_url (server, "/sse");
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  Session *s = session_new (url);

  mcp_sse_transport_set_post_timeout (s->transport, SHORT_TIMEOUT_MS);
  g_assert_true (session_connect (s, &error));
  g_assert_no_error (error);

  result = session_call (s, "hang", "{}", &error);
  g_assert_null (result);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_TIMEOUT);
  g_assert_cmpstr (error->message, ==, "the server did not accept the tools/call request "
                                       "within 300 ms");

  text = session_call_text (s, "echo", "{\"text\":\"after the hang\"}");
  g_assert_cmpstr (text, ==, "after the hang");

  session_free (s);
  server_stop (server);
}

/* The server ending the stream closes the connection with the reason, after
 * what it sent before has been delivered. */
static void
test_stream_ends (void)
{
  Server *server = server_new ("normal");
  g_autofree char *url = server_url (server, "/sse");
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  Session *s = session_new (url);
  const GError *reason;

  g_assert_true (session_connect (s, &error));
  g_assert_no_error (error);

  text = session_call_text (s, "hangup", "{}");
  g_assert_cmpstr (text, ==, "bye");

  wait_for (mcp_client_get_state (s->client) == MCP_CLIENT_STATE_CLOSED);
  reason = mcp_client_get_error (s->client);
  g_assert_error ((GError *) reason, MCP_ERROR, MCP_ERROR_CLOSED);
  g_assert_cmpstr (reason->message, ==, "the server closed the event stream; a legacy HTTP+SSE "
                                        "connection cannot be resumed");

  session_free (s);
  server_stop (server);
}

/* Messages reach the server in the order they were sent, even in a burst:
 * servers handle them in the order they arrive, and a request that
 * overtook notifications/initialized would be refused. */
static void
test_order (void)
{
  Server *server = server_new ("normal");
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(GError) error = NULL;
  Harness *h = harness_new (server, "/sse");
  const guint n_messages = 40;
  gint64 expected = 1;

  g_assert_true (harness_start (h, &error));
  g_assert_no_error (error);

  for (guint i = 1; i <= n_messages; i++)
    {
      g_autoptr(JsonNode) id = json_node_new (JSON_NODE_VALUE);
      g_autoptr(McpMessage) message = NULL;

      json_node_set_int (id, i);
      message = mcp_message_new_request (id, "ping", NULL);
      mcp_transport_send_async (MCP_TRANSPORT (h->transport), message, NULL, NULL, NULL);
    }
  wait_for (h->messages->len == n_messages);

  harness_free (h);
  records = server_finish (server);
  for (guint i = 0; i < records->len; i++)
    {
      JsonObject *record = g_ptr_array_index (records, i);
      JsonObject *message;

      if (!json_object_has_member (record, "message"))
        continue;
      message = json_object_get_object_member (record, "message");
      g_assert_cmpstr (json_object_get_string_member (message, "method"), ==, "ping");
      g_assert_cmpint (json_object_get_int_member (message, "id"), ==, expected);
      expected++;
    }
  g_assert_cmpint (expected, ==, n_messages + 1);
}

/* A message of several MiB goes out in one POST and comes back in one
 * event, parsed off the main thread. */
static void
test_large_message (void)
{
  Server *server = server_new ("normal");
  g_autofree char *url = server_url (server, "/sse");
  g_autoptr(GString) arguments = g_string_new ("{\"text\":\"");
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  const gsize size = 3 * MIB;
  Session *s = session_new (url);

  for (gsize i = 0; i < size; i++)
    g_string_append_c (arguments, 'a' + i % 26);
  g_string_append (arguments, "\"}");

  g_assert_true (session_connect (s, &error));
  g_assert_no_error (error);
  text = session_call_text (s, "echo", arguments->str);
  g_assert_cmpuint (strlen (text), ==, size);
  g_assert_true (strncmp (text, arguments->str + strlen ("{\"text\":\""), size) == 0);

  session_free (s);
  server_stop (server);
}

/* close: "closed" without an error, once; then nothing can be sent. */
static void
test_close (void)
{
  Server *server = server_new ("normal");
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(McpMessage) ping = NULL;
  g_autoptr(JsonNode) id = json_node_new (JSON_NODE_VALUE);
  Harness *h = harness_new (server, "/sse");

  g_assert_true (harness_start (h, &error));
  g_assert_no_error (error);

  /* A request with a callback: its send completes once accepted, and its
   * answer arrives on the stream. */
  json_node_set_int (id, 7);
  ping = mcp_message_new_request (id, "ping", NULL);
  mcp_transport_send_async (MCP_TRANSPORT (h->transport), ping, NULL, store_result_cb, &result);
  wait_for (result != NULL);
  g_assert_true (mcp_transport_send_finish (MCP_TRANSPORT (h->transport), result, &error));
  g_assert_no_error (error);
  g_clear_object (&result);
  wait_for (h->messages->len == 1);
  g_assert_cmpint (mcp_message_get_kind (g_ptr_array_index (h->messages, 0)), ==,
                   MCP_MESSAGE_RESULT);

  harness_close (h);
  g_assert_cmpuint (h->n_closed, ==, 1);
  g_assert_null (h->closed_error);

  mcp_transport_send_async (MCP_TRANSPORT (h->transport), ping, NULL, store_result_cb, &result);
  wait_for (result != NULL);
  g_assert_false (mcp_transport_send_finish (MCP_TRANSPORT (h->transport), result, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_CLOSED);
  g_clear_object (&result);

  /* Closing again changes nothing. */
  harness_close (h);
  g_assert_cmpuint (h->n_closed, ==, 1);

  harness_free (h);
  server_stop (server);
}

/* Closing while the server has not named its endpoint ends the start. */
static void
test_close_while_connecting (void)
{
  Server *server = server_new ("no-endpoint");
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  Harness *h = harness_new (server, "/sse");

  mcp_transport_start_async (MCP_TRANSPORT (h->transport), NULL, store_result_cb, &result);
  wait_for (has_diagnostic (h->diagnostics, "ignored a message"));
  harness_close (h);
  wait_for (result != NULL);
  g_assert_false (mcp_transport_start_finish (MCP_TRANSPORT (h->transport), result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (h->n_closed, ==, 1);
  g_assert_null (h->closed_error);
  g_clear_object (&result);

  harness_free (h);
  server_stop (server);
}

/* The reference server */

typedef struct {
  GSubprocess *process;
  GString     *stderr_tail;
  gboolean     ready;
  gboolean     stderr_done;
} Peer;

/* Runs in the child: it should not outlive this test if the test dies. */
static void
peer_child_setup (gpointer user_data)
{
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

static void
peer_stderr_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  Peer *peer = user_data;
  g_autoptr(GBytes) bytes = NULL;
  gsize length = 0;
  const char *data;

  /* The server logs every message to stderr; it is drained all along so
   * that it never blocks on a full pipe. */
  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, NULL);
  if (bytes == NULL || g_bytes_get_size (bytes) == 0)
    {
      peer->stderr_done = TRUE;
      return;
    }

  data = g_bytes_get_data (bytes, &length);
  g_string_append_len (peer->stderr_tail, data, length);
  if (strstr (peer->stderr_tail->str, "Server is running on port") != NULL)
    peer->ready = TRUE;
  if (peer->stderr_tail->len > 4096)
    g_string_erase (peer->stderr_tail, 0, peer->stderr_tail->len - 4096);

  g_input_stream_read_bytes_async (G_INPUT_STREAM (object), 4096, G_PRIORITY_DEFAULT, NULL,
                                   peer_stderr_cb, peer);
}

static Peer *
peer_new (guint port)
{
  g_autofree char *script = test_everything_script ();
  g_autofree char *port_text = g_strdup_printf ("%u", port);
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GError) error = NULL;
  Peer *peer = g_new0 (Peer, 1);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_setenv (launcher, "PORT", port_text, TRUE);
  g_subprocess_launcher_set_child_setup (launcher, peer_child_setup, NULL, NULL);
  peer->process = g_subprocess_launcher_spawn (launcher, &error, "node", script, "sse", NULL);
  g_assert_no_error (error);

  peer->stderr_tail = g_string_new (NULL);
  g_input_stream_read_bytes_async (g_subprocess_get_stderr_pipe (peer->process), 4096,
                                   G_PRIORITY_DEFAULT, NULL, peer_stderr_cb, peer);
  wait_for (peer->ready || peer->stderr_done);
  if (!peer->ready)
    g_error ("server-everything did not start: %s", peer->stderr_tail->str);

  return peer;
}

static void
peer_free (Peer *peer)
{
  g_autoptr(GError) error = NULL;

  g_subprocess_send_signal (peer->process, SIGTERM);
  g_assert_true (g_subprocess_wait (peer->process, NULL, &error));
  g_assert_no_error (error);
  wait_for (peer->stderr_done);

  g_object_unref (peer->process);
  g_string_free (peer->stderr_tail, TRUE);
  g_free (peer);
}

static void
test_everything (void)
{
  guint port = test_free_port ();
  Peer *peer = peer_new (port);
  g_autofree char *url = g_strdup_printf ("http://127.0.0.1:%u/sse", port);
  g_autoptr(GError) error = NULL;
  g_autofree char *echo = NULL;
  g_autofree char *sampled = NULL;
  Session *s = session_new (url);

  g_assert_true (session_connect (s, &error));
  g_assert_no_error (error);
  g_assert_cmpint (mcp_client_get_revision (s->client), ==, MCP_REVISION_2024_11_05);
  g_assert_cmpstr (mcp_client_get_server_name (s->client), ==, "mcp-servers/everything");
  g_assert_nonnull (strstr (mcp_sse_transport_get_endpoint (s->transport),
                            "/message?sessionId="));

  /* The sampling tool is listed once the server has seen our capability. */
  wait_for (find_tool (s->client, "echo") != NULL &&
            find_tool (s->client, "trigger-sampling-request") != NULL);

  echo = session_call_text (s, "echo", "{\"message\":\"over the legacy transport\"}");
  g_assert_cmpstr (echo, ==, "Echo: over the legacy transport");

  /* The server asks on the stream; the answer goes back as a POST. */
  sampled = session_call_text (s, "trigger-sampling-request",
                               "{\"prompt\":\"say hi\",\"maxTokens\":50}");
  g_assert_nonnull (strstr (sampled, "hello"));
  g_assert_cmpuint (s->delegate->methods->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (s->delegate->methods, 0), ==, "sampling/createMessage");

  session_free (s);
  peer_free (peer);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/steward/sse-transport/hostile/invalid-url", test_invalid_url);
  g_test_add_func ("/steward/sse-transport/hostile/refused", test_refused);
  g_test_add_func ("/steward/sse-transport/hostile/client", test_client);
  g_test_add_func ("/steward/sse-transport/hostile/endpoint-query", test_endpoint_query);
  g_test_add_func ("/steward/sse-transport/hostile/cross-origin", test_cross_origin);
  g_test_add_func ("/steward/sse-transport/hostile/cross-origin-client",
                   test_cross_origin_client);
  g_test_add_func ("/steward/sse-transport/hostile/second-endpoint", test_second_endpoint);
  g_test_add_func ("/steward/sse-transport/hostile/no-endpoint", test_no_endpoint);
  g_test_add_func ("/steward/sse-transport/hostile/ends-early", test_ends_early);
  g_test_add_func ("/steward/sse-transport/hostile/unauthorized", test_unauthorized);
  g_test_add_func ("/steward/sse-transport/hostile/not-sse", test_not_sse);
  g_test_add_func ("/steward/sse-transport/hostile/redirect", test_redirect);
  g_test_add_func ("/steward/sse-transport/hostile/silent", test_silent);
  g_test_add_func ("/steward/sse-transport/hostile/idle-after-start", test_idle_after_start);
  g_test_add_func ("/steward/sse-transport/hostile/huge-event", test_huge_event);
  g_test_add_func ("/steward/sse-transport/hostile/post-500", test_post_500);
  g_test_add_func ("/steward/sse-transport/hostile/post-redirect", test_post_redirect);
  g_test_add_func ("/steward/sse-transport/hostile/post-hang", test_post_hang);
  g_test_add_func ("/steward/sse-transport/hostile/stream-ends", test_stream_ends);
  g_test_add_func ("/steward/sse-transport/hostile/order", test_order);
  g_test_add_func ("/steward/sse-transport/hostile/large-message", test_large_message);
  g_test_add_func ("/steward/sse-transport/hostile/close", test_close);
  g_test_add_func ("/steward/sse-transport/hostile/close-while-connecting",
                   test_close_while_connecting);
  g_test_add_func ("/steward/sse-transport/peers/everything", test_everything);

  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-http-transport"

#include "config.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "mcp-client.h"
#include "mcp-error.h"
#include "mcp-http-transport.h"
#include "mcp-json-private.h"
#include "mcp-json.h"
#include "mcp-line-framer.h"
#include "mcp-tool.h"

/* McpHttpTransport against tests/servers/http-server.py, which behaves or
 * misbehaves as each test asks, and records what reached it. */

/* Every wait has a deadline far above what the step needs, so that a bug
 * fails the test instead of hanging it. */
#define DEADLINE_MS 15000

#define MIB (1024 * 1024)

/* What the transport is told to send on every request; neither may ever
 * appear in what it logs. */
#define API_KEY      "key-5b1e0c"
#define BEARER_TOKEN "canary-7f3e9d2a"

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

static gboolean
set_true_cb (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs the main loop until @cond holds, failing after @ms. */
#define WAIT_FOR(cond, ms) \
  G_STMT_START { \
    gboolean timed_out_ = FALSE; \
    guint timer_ = g_timeout_add ((ms), set_true_cb, &timed_out_); \
    while (!(cond) && !timed_out_) \
      g_main_context_iteration (NULL, TRUE); \
    if (!timed_out_) \
      g_source_remove (timer_); \
    if (!(cond)) \
      g_error ("%s:%d: gave up after %d ms waiting for %s", __FILE__, __LINE__, (ms), #cond); \
  } G_STMT_END

/* The server */

typedef struct {
  GSubprocess      *process;
  GDataInputStream *out;
  GCancellable     *cancellable;
  GPtrArray        *records;     /* JsonObject */
  int               port;
  int               other_port;
  char             *url;
  guint             n_syncs;
  gboolean          exited;
} Server;

static void
server_read_line_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *line = NULL;
  Server *server;

  line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (object), result, NULL,
                                                    &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || line == NULL)
    return;

  server = user_data;
  node = mcp_json_parse (line, -1, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));

  if (server->port == 0)
    {
      server->port = (int) json_object_get_int_member (json_node_get_object (node), "port");
      server->other_port = (int) json_object_get_int_member (json_node_get_object (node),
                                                             "other_port");
    }
  else
    g_ptr_array_add (server->records, json_object_ref (json_node_get_object (node)));

  g_data_input_stream_read_line_async (server->out, G_PRIORITY_DEFAULT, server->cancellable,
                                       server_read_line_cb, server);
}

static Server *
server_start_argv (const char * const *options)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "servers", "http-server.py", NULL);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  Server *server = g_new0 (Server, 1);

  g_ptr_array_add (argv, path);
  for (guint i = 0; options != NULL && options[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) options[i]);
  g_ptr_array_add (argv, NULL);

  server->process = g_subprocess_newv ((const char * const *) argv->pdata,
                                       G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                       G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error);
  g_assert_no_error (error);
  server->out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (server->process));
  server->cancellable = g_cancellable_new ();
  server->records = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
  g_data_input_stream_read_line_async (server->out, G_PRIORITY_DEFAULT, server->cancellable,
                                       server_read_line_cb, server);

  WAIT_FOR (server->port != 0, DEADLINE_MS);
  server->url = g_strdup_printf ("http://127.0.0.1:%d/mcp", server->port);

  return server;
}

static void
server_exited_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_subprocess_wait_finish (G_SUBPROCESS (object), result, NULL);
  *(gboolean *) user_data = TRUE;
}

/* The server exits when its stdin closes. */
static void
server_free (Server *server)
{
  g_cancellable_cancel (server->cancellable);
  g_output_stream_close (g_subprocess_get_stdin_pipe (server->process), NULL, NULL);
  g_subprocess_wait_async (server->process, NULL, server_exited_cb, &server->exited);
  WAIT_FOR (server->exited, DEADLINE_MS);

  g_object_unref (server->process);
  g_object_unref (server->out);
  g_object_unref (server->cancellable);
  g_ptr_array_unref (server->records);
  g_free (server->url);
  g_free (server);
}

static void
server_wrote_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  g_output_stream_write_all_finish (G_OUTPUT_STREAM (object), result, NULL, &error);
  g_assert_no_error (error);
}

static guint count_records (Server     *server,
                            const char *ev,
                            const char *method,
                            const char *rpc);

/* Once this returns, every record the server wrote before has been read:
 * the server answers a line on its stdin with a record of its own. */
static void
server_sync (Server *server)
{
  static char line[32];

  server->n_syncs++;
  g_snprintf (line, sizeof line, "%u\n", server->n_syncs);
  g_output_stream_write_all_async (g_subprocess_get_stdin_pipe (server->process), line,
                                   strlen (line), G_PRIORITY_DEFAULT, NULL, server_wrote_cb,
                                   NULL);
  WAIT_FOR (count_records (server, "sync", NULL, NULL) == server->n_syncs, DEADLINE_MS);
}

static const char *
record_string (JsonObject *record,
               const char *member)
{
  return mcp_json_get_string (record, member);
}

static const char *
record_header (JsonObject *record,
               const char *name)
{
  return mcp_json_get_string (mcp_json_get_object (record, "headers"), name);
}

static gint64
record_time (JsonObject *record)
{
  return json_object_get_int_member (record, "t");
}

/* What a request record's body says: the JSON-RPC method, or for a
 * tools/call the tool's name after a slash ("tools/call/drop"). */
static char *
record_rpc (JsonObject *record)
{
  JsonObject *body = mcp_json_get_object (record, "body");
  const char *method = body != NULL ? mcp_json_get_string (body, "method") : NULL;

  if (method == NULL)
    return NULL;

  if (g_str_equal (method, "tools/call"))
    return g_strconcat (method, "/",
                        mcp_json_get_string (mcp_json_get_object (body, "params"), "name"),
                        NULL);

  return g_strdup (method);
}

/* The @nth (from 0) record of event @ev, of HTTP method @method if given,
 * and of JSON-RPC method (or tools/call/NAME) @rpc if given. */
static JsonObject *
find_record (Server     *server,
             const char *ev,
             const char *method,
             const char *rpc,
             guint       nth)
{
  for (guint i = 0; i < server->records->len; i++)
    {
      JsonObject *record = g_ptr_array_index (server->records, i);
      g_autofree char *record_method = record_rpc (record);

      if (g_strcmp0 (record_string (record, "ev"), ev) != 0)
        continue;
      if (method != NULL && g_strcmp0 (record_string (record, "method"), method) != 0)
        continue;
      if (rpc != NULL && g_strcmp0 (record_method, rpc) != 0)
        continue;
      if (nth-- == 0)
        return record;
    }

  return NULL;
}

static guint
count_records (Server     *server,
               const char *ev,
               const char *method,
               const char *rpc)
{
  guint n = 0;

  while (find_record (server, ev, method, rpc, n) != NULL)
    n++;

  return n;
}

static JsonObject *
wait_record (Server     *server,
             const char *ev,
             const char *method,
             const char *rpc,
             guint       nth)
{
  WAIT_FOR (find_record (server, ev, method, rpc, nth) != NULL, DEADLINE_MS);
  return find_record (server, ev, method, rpc, nth);
}

/* The POST that carried the answer to the server's request @id. */
static JsonObject *
find_answer (Server     *server,
             const char *id)
{
  JsonObject *record;

  for (guint i = 0; (record = find_record (server, "request", "POST", NULL, i)) != NULL; i++)
    {
      JsonObject *body = mcp_json_get_object (record, "body");

      if (body != NULL && g_strcmp0 (mcp_json_get_string (body, "id"), id) == 0)
        return record;
    }

  return NULL;
}

/* GETs that resume a stream, as opposed to opening the standalone one. */
static guint
count_resumptions (Server *server)
{
  guint n = 0;

  server_sync (server);
  for (guint i = 0; find_record (server, "request", "GET", NULL, i) != NULL; i++)
    if (record_header (find_record (server, "request", "GET", NULL, i), "last-event-id") != NULL)
      n++;

  return n;
}

/* The transport */

typedef struct {
  Server           *server;
  McpHttpTransport *transport;
  GPtrArray        *messages;      /* McpMessage */
  GPtrArray        *diagnostics;   /* char * */
  guint             n_closed;
  GError           *closed_error;
  char             *session_id;
} Harness;

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
        Harness             *h)
{
  g_assert_cmpint (kind, ==, MCP_TRANSPORT_LOG_DIAGNOSTIC);
  g_assert_true (g_utf8_validate (text, -1, NULL));
  g_test_message ("diagnostic: %s", text);
  g_ptr_array_add (h->diagnostics, g_strdup (text));
}

static void
closed_cb (McpTransport *transport,
           const GError *error,
           Harness      *h)
{
  h->n_closed++;
  g_assert_cmpuint (h->n_closed, ==, 1);
  if (error != NULL)
    h->closed_error = g_error_copy (error);
}

static void
store_result_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static Harness *
harness_new_for_url (const char *url)
{
  Harness *h = g_new0 (Harness, 1);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  h->messages = g_ptr_array_new_with_free_func ((GDestroyNotify) mcp_message_unref);
  h->diagnostics = g_ptr_array_new_with_free_func (g_free);
  h->transport = mcp_http_transport_new (url, &error);
  g_assert_no_error (error);

  mcp_http_transport_set_header (h->transport, "X-Api-Key", API_KEY);
  mcp_http_transport_set_header (h->transport, "Authorization", "Bearer " BEARER_TOKEN);
  /* Headers the protocol owns are not taken from the configuration. */
  mcp_http_transport_set_header (h->transport, "Accept", "text/html");

  g_signal_connect (h->transport, "message", G_CALLBACK (message_cb), h);
  g_signal_connect (h->transport, "log", G_CALLBACK (log_cb), h);
  g_signal_connect (h->transport, "closed", G_CALLBACK (closed_cb), h);

  mcp_transport_start_async (MCP_TRANSPORT (h->transport), NULL, store_result_cb, &result);
  WAIT_FOR (result != NULL, DEADLINE_MS);
  g_assert_true (mcp_transport_start_finish (MCP_TRANSPORT (h->transport), result, &error));
  g_assert_no_error (error);

  return h;
}

static Harness *
harness_new (const char *first_option,
             ...)
{
  g_autoptr(GPtrArray) options = g_ptr_array_new ();
  Server *server;
  Harness *h;
  va_list args;

  va_start (args, first_option);
  for (const char *option = first_option; option != NULL; option = va_arg (args, const char *))
    g_ptr_array_add (options, (char *) option);
  va_end (args);
  g_ptr_array_add (options, NULL);

  server = server_start_argv ((const char * const *) options->pdata);
  h = harness_new_for_url (server->url);
  h->server = server;

  return h;
}

static void
harness_close (Harness *h)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  mcp_transport_close_async (MCP_TRANSPORT (h->transport), NULL, store_result_cb, &result);
  WAIT_FOR (result != NULL, DEADLINE_MS);
  g_assert_true (mcp_transport_close_finish (MCP_TRANSPORT (h->transport), result, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (h->n_closed, ==, 1);
}

/* Nothing the transport logged or failed with may carry a secret. */
static void
assert_no_secrets (Harness *h)
{
  for (guint i = 0; i < h->diagnostics->len; i++)
    {
      const char *text = g_ptr_array_index (h->diagnostics, i);

      g_assert_null (strstr (text, BEARER_TOKEN));
      g_assert_null (strstr (text, API_KEY));
      if (h->session_id != NULL)
        g_assert_null (strstr (text, h->session_id));
    }

  for (guint i = 0; i < h->messages->len; i++)
    {
      McpMessage *message = g_ptr_array_index (h->messages, i);

      if (mcp_message_get_kind (message) == MCP_MESSAGE_ERROR)
        {
          g_assert_null (strstr (mcp_message_get_error_message (message), BEARER_TOKEN));
          if (h->session_id != NULL)
            g_assert_null (strstr (mcp_message_get_error_message (message), h->session_id));
        }
    }
}

static void
harness_free (Harness *h)
{
  if (h->n_closed == 0)
    harness_close (h);

  assert_no_secrets (h);

  /* Whatever is still in flight settles first. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_signal_handlers_disconnect_by_data (h->transport, h);
  g_assert_finalize_object (h->transport);

  if (h->server != NULL)
    server_free (h->server);
  g_ptr_array_unref (h->messages);
  g_ptr_array_unref (h->diagnostics);
  g_clear_error (&h->closed_error);
  g_free (h->session_id);
  g_free (h);
}

static JsonObject *
parse_object (const char *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = mcp_json_parse (json, -1, &error);

  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  return json_object_ref (json_node_get_object (node));
}

static void
send_message (Harness    *h,
              McpMessage *message)
{
  mcp_transport_send_async (MCP_TRANSPORT (h->transport), message, NULL, NULL, NULL);
}

static void
send_request (Harness    *h,
              gint64      id,
              const char *method,
              const char *params)
{
  g_autoptr(JsonNode) id_node = json_node_init_int (json_node_alloc (), id);
  g_autoptr(JsonObject) object = params != NULL ? parse_object (params) : NULL;
  g_autoptr(McpMessage) message = mcp_message_new_request (id_node, method, object);

  send_message (h, message);
}

static void
send_notification (Harness    *h,
                   const char *method,
                   const char *params)
{
  g_autoptr(JsonObject) object = params != NULL ? parse_object (params) : NULL;
  g_autoptr(McpMessage) message = mcp_message_new_notification (method, object);

  send_message (h, message);
}

static void
call_tool (Harness    *h,
           gint64      id,
           const char *tool,
           const char *arguments)
{
  g_autofree char *params = g_strdup_printf ("{\"name\":\"%s\",\"arguments\":%s}", tool,
                                             arguments != NULL ? arguments : "{}");

  send_request (h, id, "tools/call", params);
}

static McpMessage *
find_response (Harness *h,
               gint64   id)
{
  for (guint i = 0; i < h->messages->len; i++)
    {
      McpMessage *message = g_ptr_array_index (h->messages, i);
      McpMessageKind kind = mcp_message_get_kind (message);
      gint64 message_id;

      if ((kind == MCP_MESSAGE_RESULT || kind == MCP_MESSAGE_ERROR) &&
          mcp_message_get_int_id (message, &message_id) && message_id == id)
        return message;
    }

  return NULL;
}

static guint
index_of (Harness    *h,
          McpMessage *message)
{
  guint index;

  g_assert_true (g_ptr_array_find (h->messages, message, &index));
  return index;
}

static McpMessage *
wait_response (Harness *h,
               gint64   id)
{
  WAIT_FOR (find_response (h, id) != NULL, DEADLINE_MS);
  return find_response (h, id);
}

static McpMessage *
wait_result (Harness *h,
             gint64   id)
{
  McpMessage *response = wait_response (h, id);

  if (mcp_message_get_kind (response) == MCP_MESSAGE_ERROR)
    g_error ("request %" G_GINT64_FORMAT " failed: %s", id,
             mcp_message_get_error_message (response));

  return response;
}

static McpMessage *
wait_error (Harness *h,
            gint64   id,
            int      code)
{
  McpMessage *response = wait_response (h, id);

  g_assert_cmpint (mcp_message_get_kind (response), ==, MCP_MESSAGE_ERROR);
  g_test_message ("request %" G_GINT64_FORMAT " failed: %s", id,
                  mcp_message_get_error_message (response));
  g_assert_cmpint (mcp_message_get_error_code (response), ==, code);

  return response;
}

static const char *
result_text (McpMessage *response)
{
  JsonArray *content = mcp_json_get_array (mcp_message_get_result (response), "content");

  g_assert_nonnull (content);
  return mcp_json_get_string (json_array_get_object_element (content, 0), "text");
}

static gboolean
has_diagnostic (Harness    *h,
                const char *part)
{
  for (guint i = 0; i < h->diagnostics->len; i++)
    if (strstr (g_ptr_array_index (h->diagnostics, i), part) != NULL)
      return TRUE;

  return FALSE;
}

static guint
count_diagnostics (Harness    *h,
                   const char *part)
{
  guint n = 0;

  for (guint i = 0; i < h->diagnostics->len; i++)
    if (strstr (g_ptr_array_index (h->diagnostics, i), part) != NULL)
      n++;

  return n;
}

static void
initialize (Harness    *h,
            const char *version)
{
  g_autofree char *params = g_strdup_printf ("{\"protocolVersion\":\"%s\",\"capabilities\":{},"
                                             "\"clientInfo\":{\"name\":\"test\","
                                             "\"version\":\"1\"}}", version);
  McpMessage *response;
  guint n_sessions;

  send_request (h, 1, "initialize", params);
  response = wait_result (h, 1);
  g_assert_cmpstr (mcp_json_get_string (mcp_message_get_result (response), "protocolVersion"),
                   ==, version);

  server_sync (h->server);
  n_sessions = count_records (h->server, "session", NULL, NULL);
  g_clear_pointer (&h->session_id, g_free);
  if (n_sessions > 0)
    {
      JsonObject *record = find_record (h->server, "session", NULL, NULL, n_sessions - 1);

      h->session_id = g_strdup (record_string (record, "id"));
      g_assert_true (mcp_http_transport_has_session (h->transport));
    }
  else
    g_assert_false (mcp_http_transport_has_session (h->transport));

  mcp_transport_set_protocol_version (MCP_TRANSPORT (h->transport), version);
  send_notification (h, "notifications/initialized", NULL);
}

/* Tests */

static void
test_url (void)
{
  const char *bad[] = { "ftp://127.0.0.1/mcp", "http://", "not a url", "mailto:a@example.org",
                        "file:///tmp/mcp" };
  g_autoptr(McpHttpTransport) transport = NULL;
  g_autoptr(McpHttpTransport) invalid = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  const char *description;

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(McpHttpTransport) refused = mcp_http_transport_new (bad[i], &error);

      g_assert_null (refused);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
      g_test_message ("%s: %s", bad[i], error->message);
      g_clear_error (&error);
    }

  /* A password or a token in the query never shows in the description. */
  transport = mcp_http_transport_new ("https://user:secret@Example.org/mcp?token=abc", &error);
  g_assert_no_error (error);
  description = mcp_transport_get_description (MCP_TRANSPORT (transport));
  g_assert_cmpstr (description, ==, "https://example.org:443/mcp?…");
  g_assert_cmpstr (mcp_http_transport_get_url (transport), ==,
                   "https://user:secret@Example.org/mcp?token=abc");
  g_assert_false (mcp_http_transport_has_session (transport));
  g_assert_false (mcp_http_transport_is_listening (transport));

  /* Starting does not contact the server: nothing listens on port 9. */
  g_clear_object (&transport);
  transport = mcp_http_transport_new ("http://127.0.0.1:9/mcp", &error);
  mcp_transport_start_async (MCP_TRANSPORT (transport), NULL, store_result_cb, &result);
  WAIT_FOR (result != NULL, DEADLINE_MS);
  g_assert_true (mcp_transport_start_finish (MCP_TRANSPORT (transport), result, &error));
  g_assert_no_error (error);
  g_clear_object (&result);

  /* Built without the constructor's check, a bad URL fails the start. */
  invalid = g_object_new (MCP_TYPE_HTTP_TRANSPORT, "url", "gopher://127.0.0.1/", NULL);
  mcp_transport_start_async (MCP_TRANSPORT (invalid), NULL, store_result_cb, &result);
  WAIT_FOR (result != NULL, DEADLINE_MS);
  g_assert_false (mcp_transport_start_finish (MCP_TRANSPORT (invalid), result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "http:// or https://"));
  g_clear_error (&error);
  g_clear_object (&result);

  mcp_transport_close_async (MCP_TRANSPORT (transport), NULL, store_result_cb, &result);
  WAIT_FOR (result != NULL, DEADLINE_MS);
  g_clear_object (&result);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_finalize_object (g_steal_pointer (&transport));
  g_assert_finalize_object (g_steal_pointer (&invalid));
}

static void
test_json (void)
{
  Harness *h = harness_new (NULL);
  JsonObject *record;
  McpMessage *response;

  initialize (h, "2025-11-25");

  /* The initialize POST: both media types accepted, the configured
   * headers, no session and no version yet. */
  record = find_record (h->server, "request", "POST", "initialize", 0);
  g_assert_cmpstr (record_header (record, "accept"), ==, "application/json, text/event-stream");
  g_assert_cmpstr (record_header (record, "content-type"), ==, "application/json");
  g_assert_cmpstr (record_header (record, "x-api-key"), ==, API_KEY);
  g_assert_cmpstr (record_header (record, "authorization"), ==, "Bearer " BEARER_TOKEN);
  g_assert_null (record_header (record, "mcp-session-id"));
  g_assert_null (record_header (record, "mcp-protocol-version"));
  g_assert_true (mcp_http_transport_has_session (h->transport));

  /* After initialization: the session and the version on everything. */
  WAIT_FOR (mcp_http_transport_is_listening (h->transport), DEADLINE_MS);
  server_sync (h->server);
  record = find_record (h->server, "request", "POST", "notifications/initialized", 0);
  g_assert_cmpstr (record_header (record, "mcp-session-id"), ==, h->session_id);
  g_assert_cmpstr (record_header (record, "mcp-protocol-version"), ==, "2025-11-25");
  record = find_record (h->server, "request", "GET", NULL, 0);
  g_assert_cmpstr (record_header (record, "accept"), ==, "text/event-stream");
  g_assert_cmpstr (record_header (record, "mcp-session-id"), ==, h->session_id);
  g_assert_cmpstr (record_header (record, "mcp-protocol-version"), ==, "2025-11-25");
  g_assert_cmpstr (record_header (record, "authorization"), ==, "Bearer " BEARER_TOKEN);
  g_assert_null (record_header (record, "last-event-id"));

  send_request (h, 3, "tools/list", NULL);
  response = wait_result (h, 3);
  g_assert_nonnull (mcp_json_get_array (mcp_message_get_result (response), "tools"));
  record = wait_record (h->server, "request", "POST", "tools/list", 0);
  g_assert_cmpstr (record_header (record, "mcp-session-id"), ==, h->session_id);
  g_assert_cmpstr (record_header (record, "mcp-protocol-version"), ==, "2025-11-25");

  call_tool (h, 4, "echo", "{\"message\":\"hello\"}");
  g_assert_cmpstr (result_text (wait_result (h, 4)), ==, "hello");

  /* Parameters of the media type do not matter. */
  call_tool (h, 5, "charset", NULL);
  g_assert_cmpstr (result_text (wait_result (h, 5)), ==, "with charset");

  /* Nothing else arrived: four answers, and no diagnostic. */
  g_assert_cmpuint (h->messages->len, ==, 4);
  g_assert_cmpuint (h->diagnostics->len, ==, 0);

  harness_free (h);
}

typedef struct {
  gboolean  done;
  gboolean  sent;
  GError   *error;
} Outcome;

static void
sent_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Outcome *outcome = user_data;

  outcome->sent = mcp_transport_send_finish (MCP_TRANSPORT (object), result, &outcome->error);
  outcome->done = TRUE;
}

static void
send_and_wait (Harness    *h,
               McpMessage *message,
               Outcome    *outcome)
{
  g_clear_error (&outcome->error);
  outcome->done = FALSE;
  mcp_transport_send_async (MCP_TRANSPORT (h->transport), message, NULL, sent_cb, outcome);
  WAIT_FOR (outcome->done, DEADLINE_MS);
}

/* A send with a callback completes once the server took the message. */
static void
test_send_callback (void)
{
  Harness *h = harness_new ("--notify-body", NULL);
  g_autoptr(McpMessage) notification = mcp_message_new_notification ("notifications/progress",
                                                                       NULL);
  Outcome outcome = { 0 };

  initialize (h, "2025-11-25");

  /* A 200 with a body for a notification is accepted; the body, though
   * it looks like a response, is no message. */
  send_and_wait (h, notification, &outcome);
  g_assert_no_error (outcome.error);
  g_assert_true (outcome.sent);

  send_request (h, 3, "tools/list", NULL);
  wait_result (h, 3);
  g_assert_cmpuint (h->messages->len, ==, 2);

  /* A refusal fails the send with the status. */
  {
    g_autoptr(JsonNode) id = json_node_init_int (json_node_alloc (), 4);
    g_autoptr(JsonObject) params = parse_object ("{\"name\":\"fail500\"}");
    g_autoptr(McpMessage) request = mcp_message_new_request (id, "tools/call", params);

    send_and_wait (h, request, &outcome);
    g_assert_false (outcome.sent);
    g_assert_error (outcome.error, MCP_ERROR, MCP_ERROR_HTTP_STATUS);
    wait_error (h, 4, MCP_ERROR_HTTP_STATUS);
  }

  harness_close (h);

  /* After the close nothing is sent. */
  send_and_wait (h, notification, &outcome);
  g_assert_false (outcome.sent);
  g_assert_error (outcome.error, MCP_ERROR, MCP_ERROR_CLOSED);
  g_clear_error (&outcome.error);

  harness_free (h);
}

static void
test_sse (void)
{
  Harness *h = harness_new ("--reply", "sse", NULL);
  g_autoptr(JsonObject) pong = json_object_new ();
  g_autoptr(JsonNode) srv_id = json_node_init_string (json_node_alloc (), "srv-1");
  g_autoptr(McpMessage) answer = mcp_message_new_result (srv_id, pong);
  McpMessage *response;
  McpMessage *first;
  McpMessage *second;
  JsonObject *record;

  initialize (h, "2025-11-25");

  /* The server's notification and request come first, in order, and an
   * event of another type is no message. */
  call_tool (h, 3, "before", NULL);
  response = wait_result (h, 3);
  g_assert_cmpstr (result_text (response), ==, "after");
  g_assert_cmpuint (index_of (h, response), ==, 3);
  first = g_ptr_array_index (h->messages, 1);
  second = g_ptr_array_index (h->messages, 2);
  g_assert_cmpint (mcp_message_get_kind (first), ==, MCP_MESSAGE_NOTIFICATION);
  g_assert_cmpstr (mcp_message_get_method (first), ==, "notifications/message");
  g_assert_cmpint (mcp_message_get_kind (second), ==, MCP_MESSAGE_REQUEST);
  g_assert_cmpstr (mcp_message_get_method (second), ==, "ping");

  /* The answer to the server's request is a POST of its own. */
  send_message (h, answer);
  WAIT_FOR ((record = find_answer (h->server, "srv-1")) != NULL, DEADLINE_MS);
  g_assert_cmpstr (record_header (record, "mcp-session-id"), ==, h->session_id);

  /* No resumption: every stream answered. */
  g_assert_cmpuint (count_resumptions (h->server), ==, 0);

  harness_free (h);
}

/* SEP-1699: a stream that ends after its priming event is resumed with a
 * GET carrying Last-Event-ID, after exactly the server's `retry`. */
static void
resume (const char *how)
{
  Harness *h = harness_new ("--reply", "sse", "--retry", "1500", NULL);
  g_autofree char *arguments = g_strdup_printf ("{\"how\":\"%s\"}", how);
  JsonObject *closed;
  JsonObject *get;
  JsonObject *primed;
  gint64 delay_us;

  initialize (h, "2025-11-25");
  call_tool (h, 3, "drop", arguments);
  g_assert_cmpstr (result_text (wait_result (h, 3)), ==, "resumed");

  server_sync (h->server);
  closed = find_record (h->server, "stream-closed", NULL, NULL, 0);
  g_assert_nonnull (closed);
  g_assert_cmpuint (count_resumptions (h->server), ==, 1);
  for (guint i = 0; (get = find_record (h->server, "request", "GET", NULL, i)) != NULL; i++)
    if (record_header (get, "last-event-id") != NULL)
      break;

  /* The id of the priming event, the session and the version. */
  primed = find_record (h->server, "resumed", NULL, NULL, 0);
  g_assert_cmpstr (record_header (get, "last-event-id"), ==,
                   record_string (primed, "last_event_id"));
  g_assert_true (g_str_has_prefix (record_header (get, "last-event-id"), "ev-"));
  g_assert_cmpstr (record_header (get, "mcp-session-id"), ==, h->session_id);
  g_assert_cmpstr (record_header (get, "mcp-protocol-version"), ==, "2025-11-25");
  g_assert_cmpstr (record_header (get, "accept"), ==, "text/event-stream");

  delay_us = record_time (get) - record_time (closed);
  /* The server's `retry` is longer than the client's own first wait, so
   * that waiting at least that long shows it was obeyed: a timer never
   * fires early, however busy the machine (and only late is up to it). */
  g_test_message ("resumed %" G_GINT64_FORMAT " ms after the stream ended (retry: 1500 ms)",
                  delay_us / 1000);
  g_assert_cmpint (delay_us, >=, (1500 - 150) * 1000);

  /* Once answered, the stream is not resumed again: a second takes the
   * server over two seconds, well past `retry`. */
  call_tool (h, 4, "slow", "{\"seconds\":2}");
  wait_result (h, 4);
  g_assert_cmpuint (count_resumptions (h->server), ==, 1);

  harness_free (h);
}

static void
test_resume (void)
{
  resume ("close");
}

static void
test_resume_after_reset (void)
{
  resume ("reset");
}

static void
test_resume_without_id (void)
{
  Harness *h = harness_new ("--reply", "sse", NULL);
  McpMessage *response;
  McpMessage *notification;

  initialize (h, "2025-11-25");
  call_tool (h, 3, "drop-no-id", NULL);
  response = wait_error (h, 3, MCP_ERROR_CLOSED);
  g_assert_cmpstr (mcp_message_get_error_message (response), ==,
                   "the server closed the stream before answering");

  /* What the stream carried came first. */
  notification = g_ptr_array_index (h->messages, index_of (h, response) - 1);
  g_assert_cmpstr (mcp_message_get_method (notification), ==, "notifications/message");
  g_assert_cmpuint (count_resumptions (h->server), ==, 0);

  harness_free (h);
}

static void
test_resume_limit (void)
{
  Harness *h = harness_new ("--reply", "sse", "--retry", "100", NULL);
  McpMessage *response;

  initialize (h, "2025-11-25");
  call_tool (h, 3, "drop-always", NULL);
  response = wait_error (h, 3, MCP_ERROR_CLOSED);
  g_assert_nonnull (strstr (mcp_message_get_error_message (response),
                            "gave up after 5 reconnections"));
  g_assert_cmpuint (count_resumptions (h->server), ==, MCP_HTTP_MAX_RECONNECTS);
  g_assert_cmpuint (count_diagnostics (h, "resuming it in 100 ms"), ==, MCP_HTTP_MAX_RECONNECTS);

  harness_free (h);
}

static void
test_get_refused (void)
{
  const char *statuses[] = { "404", "405", "400" };

  for (guint i = 0; i < G_N_ELEMENTS (statuses); i++)
    {
      Harness *h = harness_new ("--get", statuses[i], NULL);
      g_autofree char *said = g_strdup_printf ("(it answered HTTP %s Refused)", statuses[i]);

      initialize (h, "2025-11-25");
      WAIT_FOR (count_records (h->server, "request", "GET", NULL) == 1 &&
                h->diagnostics->len == 1, DEADLINE_MS);
      g_assert_true (has_diagnostic (h, "the server offers no stream for the messages it sends "
                                        "unasked"));
      g_assert_true (has_diagnostic (h, said));

      /* It is no error: requests go on, and the session stays. */
      send_request (h, 3, "tools/list", NULL);
      wait_result (h, 3);
      g_assert_cmpuint (h->n_closed, ==, 0);
      g_assert_false (mcp_http_transport_is_listening (h->transport));
      g_assert_true (mcp_http_transport_has_session (h->transport));

      /* Told once: asking again is refused again, silently. */
      send_notification (h, "notifications/initialized", NULL);
      WAIT_FOR (count_records (h->server, "request", "GET", NULL) == 2, DEADLINE_MS);
      send_request (h, 4, "tools/list", NULL);
      wait_result (h, 4);
      g_assert_cmpuint (h->diagnostics->len, ==, 1);

      harness_free (h);
    }
}

static void
test_listen (void)
{
  Harness *h = harness_new ("--listen-send", NULL);
  g_autoptr(JsonObject) pong = json_object_new ();
  g_autoptr(JsonNode) srv_id = json_node_init_string (json_node_alloc (), "srv-listen-1");
  g_autoptr(McpMessage) answer = mcp_message_new_result (srv_id, pong);
  McpMessage *notification;
  McpMessage *request;
  JsonObject *record;

  initialize (h, "2025-11-25");

  /* What the server sends unasked comes on the GET stream. */
  WAIT_FOR (h->messages->len == 3, DEADLINE_MS);
  g_assert_true (mcp_http_transport_is_listening (h->transport));
  notification = g_ptr_array_index (h->messages, 1);
  request = g_ptr_array_index (h->messages, 2);
  g_assert_cmpstr (mcp_message_get_method (notification), ==, "notifications/message");
  g_assert_cmpstr (mcp_message_get_method (request), ==, "ping");

  send_message (h, answer);
  WAIT_FOR ((record = find_answer (h->server, "srv-listen-1")) != NULL, DEADLINE_MS);
  g_assert_cmpstr (record_header (record, "mcp-session-id"), ==, h->session_id);

  /* Closing ends the stream: the server sees its client leave. */
  harness_close (h);
  WAIT_FOR (find_record (h->server, "gone", "GET", NULL, 0) != NULL, DEADLINE_MS);
  g_assert_false (mcp_http_transport_is_listening (h->transport));

  harness_free (h);
}

/* Requests sent right after initialization wait for the GET stream, so
 * that what the server sends there in reply to them is not lost. The
 * server is slow to answer the GET, then slow to write on the stream once
 * its headers are out: the call goes out when the client sees them, and
 * must find the stream open on the server, whatever runs first there. */
static void
test_listen_first (void)
{
  Harness *h = harness_new ("--listen-delay", "0.3", "--listen-pause", "0.5", NULL);
  g_autoptr(JsonObject) content = parse_object ("{\"action\":\"accept\","
                                                "\"content\":{\"name\":\"Ada\"}}");
  g_autoptr(McpMessage) answer = NULL;
  McpMessage *request = NULL;
  JsonObject *opened;
  JsonObject *call;

  initialize (h, "2025-11-25");
  call_tool (h, 3, "ask-on-listen", NULL);

  WAIT_FOR (h->messages->len == 2, DEADLINE_MS);
  request = g_ptr_array_index (h->messages, 1);
  g_assert_cmpint (mcp_message_get_kind (request), ==, MCP_MESSAGE_REQUEST);
  g_assert_cmpstr (mcp_message_get_method (request), ==, "elicitation/create");
  answer = mcp_message_new_result (mcp_message_get_id (request), content);
  send_message (h, answer);
  g_assert_cmpstr (result_text (wait_result (h, 3)), ==,
                   "{\"action\": \"accept\", \"content\": {\"name\": \"Ada\"}}");

  /* The call reached the server after the stream was open. */
  server_sync (h->server);
  opened = find_record (h->server, "listen-open", NULL, NULL, 0);
  call = find_record (h->server, "request", "POST", "tools/call/ask-on-listen", 0);
  g_assert_cmpint (record_time (call), >=, record_time (opened));
  g_assert_null (find_record (h->server, "dropped", NULL, NULL, 0));

  harness_free (h);
}

static void
test_listen_reconnect (void)
{
  Harness *h = harness_new ("--listen-close", "--retry", "200", NULL);
  JsonObject *closed;
  JsonObject *get;
  gint64 delay_us;

  initialize (h, "2025-11-25");

  WAIT_FOR ((get = find_record (h->server, "request", "GET", NULL, 1)) != NULL, DEADLINE_MS);
  closed = find_record (h->server, "stream-closed", NULL, NULL, 0);
  g_assert_cmpstr (record_header (get, "last-event-id"), ==, "listen-1");
  delay_us = record_time (get) - record_time (closed);
  g_test_message ("reopened %" G_GINT64_FORMAT " ms after the stream ended (retry: 200 ms)",
                  delay_us / 1000);
  g_assert_cmpint (delay_us, >=, (200 - 150) * 1000);

  /* Both streams delivered. */
  WAIT_FOR (h->messages->len == 3, DEADLINE_MS);
  g_assert_true (mcp_http_transport_is_listening (h->transport));
  g_assert_true (has_diagnostic (h, "the server’s event stream ended; reopening it in 200 ms"));

  harness_free (h);
}

/* A standalone stream that ends at once, again and again, is given up; one
 * that stays open but quiet is followed for as long as it lasts. */
static void
test_listen_limits (void)
{
  Harness *h = harness_new ("--listen-retry", "100", "--listen-empty", NULL);

  initialize (h, "2025-11-25");
  WAIT_FOR (has_diagnostic (h, "not reopened"), DEADLINE_MS);
  g_assert_true (has_diagnostic (h, "the server’s event stream ended 6 times in a row without "
                                    "a message; it is not reopened"));
  server_sync (h->server);
  g_assert_cmpuint (count_records (h->server, "request", "GET", NULL),
                    ==, 1 + MCP_HTTP_MAX_RECONNECTS);
  g_assert_false (mcp_http_transport_is_listening (h->transport));

  /* Requests are not affected. */
  send_request (h, 3, "tools/list", NULL);
  wait_result (h, 3);
  harness_free (h);

  h = harness_new ("--listen-retry", "100", NULL);
  mcp_http_transport_set_idle_timeout (h->transport, 300);
  initialize (h, "2025-11-25");
  WAIT_FOR (count_records (h->server, "request", "GET", NULL) > 2 * MCP_HTTP_MAX_RECONNECTS,
            DEADLINE_MS);
  g_assert_false (has_diagnostic (h, "not reopened"));
  g_assert_true (has_diagnostic (h, "(the server sent no complete event for 300 ms); "
                                    "reopening it in 100 ms"));
  harness_free (h);
}

static void
test_session_expired (void)
{
  Harness *h = harness_new (NULL);
  g_autofree char *old_session = NULL;
  McpMessage *response;
  JsonNode *data;
  JsonObject *record;

  initialize (h, "2025-11-25");
  old_session = g_strdup (h->session_id);

  call_tool (h, 3, "expire", NULL);
  response = wait_error (h, 3, MCP_ERROR_SESSION_EXPIRED);
  data = mcp_message_get_error_data (response);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (data), "status"), ==, 404);
  g_assert_false (mcp_http_transport_has_session (h->transport));
  g_assert_true (has_diagnostic (h, "no longer knows the session"));

  /* A new session starts without the old id, and gets a new one. */
  send_request (h, 4, "initialize", "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                                    "\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}");
  wait_result (h, 4);
  record = find_record (h->server, "request", "POST", "initialize", 1);
  g_assert_null (record_header (record, "mcp-session-id"));
  g_assert_true (mcp_http_transport_has_session (h->transport));

  send_request (h, 5, "tools/list", NULL);
  wait_result (h, 5);
  record = find_record (h->server, "request", "POST", "tools/list", 0);
  g_assert_nonnull (record_header (record, "mcp-session-id"));
  g_assert_cmpstr (record_header (record, "mcp-session-id"), !=, old_session);

  harness_free (h);
}

/* Without a session a 404 is an ordinary refusal. */
static void
test_not_found_without_session (void)
{
  Harness *h = harness_new ("--session", "none", NULL);
  McpMessage *response;
  JsonNode *data;

  initialize (h, "2025-11-25");
  g_assert_false (mcp_http_transport_has_session (h->transport));

  call_tool (h, 3, "expire", NULL);
  response = wait_error (h, 3, MCP_ERROR_HTTP_STATUS);
  g_assert_cmpstr (mcp_message_get_error_message (response), ==,
                   "the server answered HTTP 404 Not Found: {\"error\":\"session gone\"}");
  data = mcp_message_get_error_data (response);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (data), "status"), ==, 404);

  harness_free (h);
}

static void
test_bad_session (void)
{
  const struct {
    const char *mode;
    const char *id;        /* as libsoup hands it over */
  } cases[] = {
    { "fold", "abcdefgh ijklmnop" },
    { "cr", "abcdefgh ijklmnop" },
    { "long", NULL },
    { "nonascii", "s\xc3\xa9" "ance-\xc3\xaf" "d-0123" },
    { "space", "abcdefgh ijklmnop" },
    { "double", NULL },   /* the good one the server recorded */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Harness *h = harness_new ("--session", cases[i].mode, NULL);
      Outcome outcome = { 0 };
      g_autoptr(JsonNode) id = json_node_init_int (json_node_alloc (), 2);
      g_autoptr(McpMessage) request = mcp_message_new_request (id, "tools/list", NULL);
      g_autofree char *long_id = g_strnfill (2000, 'L');

      g_test_message ("session id mode %s", cases[i].mode);
      send_request (h, 1, "initialize", "{\"protocolVersion\":\"2025-11-25\","
                                        "\"capabilities\":{},\"clientInfo\":"
                                        "{\"name\":\"test\",\"version\":\"1\"}}");
      WAIT_FOR (h->n_closed == 1, DEADLINE_MS);

      g_assert_error (h->closed_error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
      g_test_message ("closed: %s", h->closed_error->message);
      g_assert_nonnull (strstr (h->closed_error->message, "a session id must be 1 to 1024 "
                                                          "visible ASCII characters"));
      g_assert_null (find_response (h, 1));
      g_assert_false (mcp_http_transport_has_session (h->transport));

      /* Never shown in full, nor more than its first 8 characters. */
      server_sync (h->server);
      if (g_str_equal (cases[i].mode, "double"))
        h->session_id = g_strdup (record_string (find_record (h->server, "session", NULL, NULL, 0),
                                                 "id"));
      else
        h->session_id = g_strdup (cases[i].id != NULL ? cases[i].id : long_id);
      g_assert_null (strstr (h->closed_error->message, h->session_id));
      g_assert_null (strstr (h->closed_error->message, "abcdefgh "));
      g_assert_null (strstr (h->closed_error->message, "LLLLLLLLL"));

      /* Nothing more is sent. */
      send_and_wait (h, request, &outcome);
      g_assert_error (outcome.error, MCP_ERROR, MCP_ERROR_CLOSED);
      g_clear_error (&outcome.error);
      server_sync (h->server);
      g_assert_cmpuint (count_records (h->server, "request", NULL, NULL), ==, 1);

      harness_free (h);
    }
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

static void
huge (const char *tool,
      const char *arguments,
      const char *expected)
{
  Harness *h = harness_new ("--reply", "sse", NULL);
  gsize before_kib;
  gsize peak_kib;
  gsize growth_kib;
  /* The promise is the cap plus 2 MiB, and no allowance on top is needed:
   * the event parser or the body buffer holds the cap at most, and besides
   * it only one read chunk (64 KiB) and libsoup's few KiB are in flight.
   * Measured: about 10 MiB for the event and the chunked body alike, run
   * in either order (the body buffer never doubles, see body_append() in
   * the transport), and nothing for a declared length past the cap. */
  const gsize allowed_kib = (MCP_DEFAULT_MAX_MESSAGE_SIZE + 2 * MIB) / 1024;

  initialize (h, "2025-11-25");
  WAIT_FOR (mcp_http_transport_is_listening (h->transport), DEADLINE_MS);

  /* Let the loop settle first, so that the baseline is the idle size. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  reset_peak_rss ();
  before_kib = read_status_kib ("VmRSS");

  call_tool (h, 3, tool, arguments);
  WAIT_FOR (h->n_closed == 1, DEADLINE_MS);
  peak_kib = read_status_kib ("VmHWM");
  growth_kib = peak_kib > before_kib ? peak_kib - before_kib : 0;

  g_assert_error (h->closed_error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE);
  g_assert_cmpstr (h->closed_error->message, ==, expected);
  g_assert_true (has_diagnostic (h, expected));
  g_test_message ("peak RSS grew by %.2f MiB while the server sent 100 MiB (allowed %.2f MiB)",
                  growth_kib / 1024.0, allowed_kib / 1024.0);
  if (MEMORY_FIGURES_MEANINGFUL)
    g_assert_cmpuint (growth_kib, <=, allowed_kib);

  /* The server saw the connection go before it sent everything. */
  wait_record (h->server, "gone", "POST", NULL, 0);
  server_sync (h->server);
  g_assert_null (find_record (h->server, "sent-all", NULL, NULL, 0));

  harness_free (h);
}

static void
test_huge_event (void)
{
  huge ("huge-event", NULL, "the server sent an event larger than the 10 MiB limit");
}

static void
test_huge_json (void)
{
  huge ("huge-json", NULL, "the server sent a reply larger than the 10 MiB limit");
}

static void
test_huge_declared (void)
{
  huge ("huge-json", "{\"declare\":true}", "the server sent a reply larger than the 10 MiB limit");
}

/* A server that goes silent: after the headers, or before them. */
static void
test_silent (void)
{
  const struct {
    const char *tool;
    const char *arguments;
    const char *expected;
  } cases[] = {
    { "silent", "{}", "the reply from the server broke off: the server did not finish its "
                      "reply within 1 s" },
    { "silent", "{\"sse\":true}", "the stream from the server ended before it answered: the "
                                  "server sent no complete event for 1 s" },
    { "no-headers", "{}", "the server did not answer within 1 s" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Harness *h = harness_new ("--reply", "sse", "--retry", "100", NULL);
      gint64 start;
      gint64 elapsed_ms;
      McpMessage *response;

      initialize (h, "2025-11-25");
      mcp_http_transport_set_idle_timeout (h->transport, 1000);
      g_assert_cmpuint (mcp_http_transport_get_idle_timeout (h->transport), ==, 1000);

      start = g_get_monotonic_time ();
      call_tool (h, 3, cases[i].tool, cases[i].arguments);
      response = wait_response (h, 3);
      elapsed_ms = (g_get_monotonic_time () - start) / 1000;
      g_test_message ("%s %s failed after %" G_GINT64_FORMAT " ms: %s", cases[i].tool,
                      cases[i].arguments, elapsed_ms, mcp_message_get_error_message (response));
      g_assert_cmpint (mcp_message_get_kind (response), ==, MCP_MESSAGE_ERROR);
      g_assert_cmpint (mcp_message_get_error_code (response), ==, MCP_ERROR_CLOSED);
      g_assert_cmpstr (mcp_message_get_error_message (response), ==, cases[i].expected);

      g_assert_cmpint (elapsed_ms, >=, 1000);

      harness_free (h);
    }
}

/* One byte a second: nothing else waits for it, and it is dropped at the
 * timeout even though bytes keep coming. */
static void
test_trickle (void)
{
  const struct {
    const char *arguments;
    const char *expected;
  } cases[] = {
    { "{}", "the reply from the server broke off: the server did not finish its reply within "
            "2 s" },
    { "{\"sse\":true}", "the stream from the server ended before it answered: the server sent "
                        "no complete event for 2 s" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Harness *h = harness_new ("--reply", "sse", "--retry", "100", NULL);
      gint64 start;
      gint64 elapsed_ms;
      McpMessage *response;

      initialize (h, "2025-11-25");
      mcp_http_transport_set_idle_timeout (h->transport, 2000);

      start = g_get_monotonic_time ();
      call_tool (h, 3, "trickle", cases[i].arguments);
      WAIT_FOR (find_record (h->server, "request", "POST", "tools/call/trickle", 0) != NULL,
                DEADLINE_MS);

      /* Meanwhile other requests are answered at once. */
      send_request (h, 4, "tools/list", NULL);
      wait_result (h, 4);
      g_assert_null (find_response (h, 3));

      response = wait_response (h, 3);
      elapsed_ms = (g_get_monotonic_time () - start) / 1000;
      g_test_message ("trickle %s failed after %" G_GINT64_FORMAT " ms: %s", cases[i].arguments,
                      elapsed_ms, mcp_message_get_error_message (response));
      g_assert_cmpint (mcp_message_get_error_code (response), ==, MCP_ERROR_CLOSED);
      g_assert_cmpstr (mcp_message_get_error_message (response), ==, cases[i].expected);
      g_assert_cmpint (elapsed_ms, >=, 2000);

      harness_free (h);
    }
}

static void
test_http_errors (void)
{
  Harness *h = harness_new (NULL);
  McpMessage *response;
  JsonObject *data;
  const char *text;

  initialize (h, "2025-11-25");

  /* A 500: the status and the start of the body, cleaned, in the error. */
  call_tool (h, 3, "fail500", NULL);
  response = wait_error (h, 3, MCP_ERROR_HTTP_STATUS);
  text = mcp_message_get_error_message (response);
  g_assert_true (g_str_has_prefix (text, "the server answered HTTP 500 Internal Server Error: "
                                         "database exploded [31m"));
  g_assert_true (g_str_has_suffix (text, "…"));
  g_assert_cmpint (g_utf8_strlen (text, -1), <=, 200 + 60);
  for (const char *p = text; *p != '\0'; p++)
    g_assert_cmpint ((guchar) *p, >=, 0x20);
  data = json_node_get_object (mcp_message_get_error_data (response));
  g_assert_cmpint (json_object_get_int_member (data, "status"), ==, 500);
  g_assert_false (json_object_has_member (data, "error"));

  /* A JSON-RPC error in the body of a refusal travels along. */
  call_tool (h, 4, "rpc-error", NULL);
  response = wait_error (h, 4, MCP_ERROR_HTTP_STATUS);
  data = json_node_get_object (mcp_message_get_error_data (response));
  g_assert_cmpint (json_object_get_int_member (data, "status"), ==, 400);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (data, "error"),
                                               "code"), ==, -32022);

  /* A 401 says what authorization the server wants. */
  call_tool (h, 9, "unauthorized", NULL);
  response = wait_error (h, 9, MCP_ERROR_HTTP_STATUS);
  data = json_node_get_object (mcp_message_get_error_data (response));
  g_assert_cmpint (json_object_get_int_member (data, "status"), ==, 401);
  g_assert_cmpstr (json_object_get_string_member (data, "wwwAuthenticate"), ==,
                   "Bearer error=\"invalid_token\", resource_metadata=\"http://127.0.0.1/"
                   ".well-known/oauth-protected-resource/mcp\"");
  g_assert_false (json_object_has_member (data, "error"));

  /* A reply that is neither JSON nor an event stream. */
  call_tool (h, 5, "wrong-type", NULL);
  response = wait_error (h, 5, MCP_ERROR_INVALID_MESSAGE);
  g_assert_cmpstr (mcp_message_get_error_message (response), ==,
                   "the server accepted the request (HTTP 200 OK) but answered with text/html "
                   "instead of JSON or an event stream");

  /* JSON that is not the answer: delivered as it is, and the request
   * answered by us. */
  call_tool (h, 6, "not-an-answer", NULL);
  response = wait_error (h, 6, MCP_ERROR_INVALID_MESSAGE);
  g_assert_cmpstr (mcp_message_get_error_message (response), ==,
                   "the server’s JSON reply holds no response to the request");
  g_assert_cmpstr (mcp_message_get_method (g_ptr_array_index (h->messages,
                                                              index_of (h, response) - 1)),
                   ==, "notifications/message");

  /* A connection reset: a tool call is not sent twice. */
  call_tool (h, 7, "reset", NULL);
  response = wait_error (h, 7, MCP_ERROR_CLOSED);
  g_assert_nonnull (strstr (mcp_message_get_error_message (response),
                            "tools/call was not sent again, since the server may have received"));

  /* A refused notification is only told about. */
  send_notification (h, "notifications/refused", NULL);
  WAIT_FOR (h->diagnostics->len == 1, DEADLINE_MS);
  g_assert_cmpstr (g_ptr_array_index (h->diagnostics, 0), ==,
                   "the server refused notifications/refused: the server answered HTTP 500 "
                   "Internal Server Error: cannot take it");

  /* None of it closed the connection. */
  send_request (h, 8, "tools/list", NULL);
  wait_result (h, 8);
  g_assert_cmpuint (h->n_closed, ==, 0);
  g_assert_null (find_response (h, 0));
  g_assert_cmpuint (h->messages->len, ==, 9);

  harness_free (h);
}

static void
test_batch (void)
{
  Harness *h = harness_new (NULL);
  McpMessage *response;

  /* Only 2025-03-26 has batches. */
  initialize (h, "2025-03-26");
  call_tool (h, 3, "batch", NULL);
  g_assert_cmpstr (result_text (wait_result (h, 3)), ==, "batched");
  g_assert_cmpstr (mcp_message_get_method (g_ptr_array_index (h->messages, 1)), ==,
                   "notifications/message");

  mcp_transport_set_protocol_version (MCP_TRANSPORT (h->transport), "2025-06-18");
  call_tool (h, 4, "batch", NULL);
  response = wait_error (h, 4, MCP_ERROR_INVALID_MESSAGE);
  g_assert_cmpstr (mcp_message_get_error_message (response), ==,
                   "the server’s JSON reply holds no response to the request");
  g_assert_true (has_diagnostic (h, "dropped a message from the server"));

  harness_free (h);
}

static void
interrupted_cb (McpHttpTransport *transport,
                const char       *reason,
                guint            *count)
{
  g_assert_nonnull (reason);
  (*count)++;
}

static void
test_unreachable (void)
{
  g_autoptr(GSocket) socket = NULL;
  g_autoptr(GSocketAddress) any = NULL;
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  g_autofree char *expected = NULL;
  McpMessage *response;
  guint interruptions = 0;
  Harness *h;
  guint16 port;

  /* A port that was free a moment ago, and is closed now. */
  socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP,
                         &error);
  g_assert_no_error (error);
  any = g_inet_socket_address_new (loopback, 0);
  g_assert_true (g_socket_bind (socket, any, FALSE, &error));
  bound = g_socket_get_local_address (socket, &error);
  port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  g_socket_close (socket, NULL);

  url = g_strdup_printf ("http://127.0.0.1:%u/mcp", port);
  h = harness_new_for_url (url);
  expected = g_strdup_printf ("could not reach the server at http://127.0.0.1:%u: ", port);

  /* Each request that finds nobody there says so, as an interruption
   * and with a code of its own, not as a closed connection. */
  g_signal_connect (h->transport, "interrupted", G_CALLBACK (interrupted_cb), &interruptions);

  send_request (h, 1, "initialize", "{}");
  response = wait_error (h, 1, MCP_ERROR_UNREACHABLE);
  g_assert_true (g_str_has_prefix (mcp_message_get_error_message (response), expected));
  send_request (h, 2, "tools/list", NULL);
  wait_error (h, 2, MCP_ERROR_UNREACHABLE);
  send_notification (h, "notifications/initialized", NULL);
  send_request (h, 3, "tools/list", NULL);
  wait_error (h, 3, MCP_ERROR_UNREACHABLE);
  g_assert_cmpuint (interruptions, >=, 3);

  /* Said once, not once per message. */
  g_assert_cmpuint (h->diagnostics->len, ==, 1);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (h->diagnostics, 0), expected));
  g_assert_cmpuint (h->n_closed, ==, 0);

  harness_free (h);
}

static void
test_redirect (void)
{
  Harness *h = harness_new (NULL);
  g_autofree char *other = NULL;
  g_autofree char *expected = NULL;
  McpMessage *response;
  JsonObject *data;

  initialize (h, "2025-11-25");

  other = g_strdup_printf ("http://127.0.0.1:%d", h->server->other_port);
  expected = g_strdup_printf ("the server redirected the request to %s, another origin (HTTP 307 "
                              "Temporary Redirect); it was not followed, so that headers and "
                              "credentials stay with http://127.0.0.1:%d", other,
                              h->server->port);
  call_tool (h, 3, "redirect", NULL);
  response = wait_error (h, 3, MCP_ERROR_HTTP_STATUS);
  g_assert_cmpstr (mcp_message_get_error_message (response), ==, expected);
  data = json_node_get_object (mcp_message_get_error_data (response));
  g_assert_cmpint (json_object_get_int_member (data, "status"), ==, 307);

  call_tool (h, 4, "redirect", "{\"status\":308}");
  wait_error (h, 4, MCP_ERROR_HTTP_STATUS);

  /* Not followed within the origin either. */
  call_tool (h, 5, "redirect", "{\"same\":true}");
  response = wait_error (h, 5, MCP_ERROR_HTTP_STATUS);
  g_free (expected);
  expected = g_strdup_printf ("the server redirected the request to http://127.0.0.1:%d"
                              "/elsewhere (HTTP 307 Temporary Redirect); redirects are not "
                              "followed", h->server->port);
  g_assert_cmpstr (mcp_message_get_error_message (response), ==, expected);

  /* Nothing ever reached the other origin; the main one got it all. */
  send_request (h, 6, "tools/list", NULL);
  wait_result (h, 6);
  server_sync (h->server);
  g_assert_cmpuint (count_records (h->server, "other-origin", NULL, NULL), ==, 0);
  g_assert_cmpuint (count_records (h->server, "request", "POST", "tools/call/redirect"), ==, 3);

  harness_free (h);
}

static void
test_close (void)
{
  Harness *h = harness_new (NULL);
  McpMessage *response;
  JsonObject *record;

  initialize (h, "2025-11-25");
  WAIT_FOR (mcp_http_transport_is_listening (h->transport), DEADLINE_MS);

  /* A request the server holds on to. */
  call_tool (h, 3, "no-headers", NULL);
  WAIT_FOR (find_record (h->server, "request", "POST", "tools/call/no-headers", 0) != NULL,
            DEADLINE_MS);

  harness_close (h);
  g_assert_null (h->closed_error);
  response = wait_error (h, 3, MCP_ERROR_CLOSED);
  g_assert_cmpstr (mcp_message_get_error_message (response), ==,
                   "the connection to the server was closed before it answered");
  g_assert_false (mcp_http_transport_has_session (h->transport));

  /* The session was ended, and every stream let go. */
  server_sync (h->server);
  record = find_record (h->server, "request", "DELETE", NULL, 0);
  g_assert_nonnull (record);
  g_assert_cmpstr (record_header (record, "mcp-session-id"), ==, h->session_id);
  g_assert_cmpstr (record_header (record, "mcp-protocol-version"), ==, "2025-11-25");
  g_assert_cmpstr (record_header (record, "authorization"), ==, "Bearer " BEARER_TOKEN);
  WAIT_FOR (find_record (h->server, "gone", "GET", NULL, 0) != NULL &&
            find_record (h->server, "gone", "POST", NULL, 0) != NULL, DEADLINE_MS);

  harness_free (h);

  /* A DELETE the server refuses does not matter; without a session there
   * is none. */
  h = harness_new ("--delete", "405", NULL);
  initialize (h, "2025-11-25");
  harness_close (h);
  server_sync (h->server);
  g_assert_cmpuint (count_records (h->server, "request", "DELETE", NULL), ==, 1);
  g_assert_null (h->closed_error);
  harness_free (h);

  /* A DELETE that is never answered holds the close up for a bounded
   * time only. */
  h = harness_new ("--delete", "0", NULL);
  initialize (h, "2025-11-25");
  {
    gint64 start = g_get_monotonic_time ();
    gint64 elapsed_ms;

    harness_close (h);
    elapsed_ms = (g_get_monotonic_time () - start) / 1000;
    g_test_message ("the close took %" G_GINT64_FORMAT " ms", elapsed_ms);
    g_assert_cmpint (elapsed_ms, >=, MCP_HTTP_DELETE_TIMEOUT_MS);
    g_assert_null (h->closed_error);
    wait_record (h->server, "gone", "DELETE", NULL, 0);
  }
  harness_free (h);

  h = harness_new ("--session", "none", NULL);
  initialize (h, "2025-11-25");
  harness_close (h);
  send_request (h, 9, "tools/list", NULL);
  server_sync (h->server);
  g_assert_cmpuint (count_records (h->server, "request", "DELETE", NULL), ==, 0);
  harness_free (h);
}

static void
test_cancel (void)
{
  Harness *h = harness_new (NULL);
  JsonObject *record;

  initialize (h, "2025-11-25");

  /* The client gave up on a request: its notification goes out, and the
   * request's stream is let go. */
  call_tool (h, 3, "no-headers", NULL);
  WAIT_FOR (find_record (h->server, "request", "POST", "tools/call/no-headers", 0) != NULL,
            DEADLINE_MS);
  send_notification (h, "notifications/cancelled", "{\"requestId\":3}");
  WAIT_FOR (find_record (h->server, "gone", "POST", NULL, 0) != NULL, DEADLINE_MS);
  record = wait_record (h->server, "request", "POST", "notifications/cancelled", 0);
  g_assert_cmpstr (record_header (record, "mcp-session-id"), ==, h->session_id);

  /* It gets no answer from us: the client already forgot it. */
  send_request (h, 4, "tools/list", NULL);
  wait_result (h, 4);
  g_assert_null (find_response (h, 3));

  harness_free (h);
}

/* The 2026-07-28 shape: no session, no GET, no DELETE, no resumption, and
 * the method and name mirrored into headers. */
static void
test_stateless (void)
{
  const struct {
    const char *method;
    const char *params;
    const char *name;
  } cases[] = {
    { "tools/call", "{\"name\":\"get_weather\"}", "get_weather" },
    { "tools/call", "{\"name\":\"Hello, \xe4\xb8\x96\xe7\x95\x8c\"}",
      "=?base64?SGVsbG8sIOS4lueVjA==?=" },
    { "tools/call", "{\"name\":\" padded \"}", "=?base64?IHBhZGRlZCA=?=" },
    { "tools/call", "{\"name\":\"line1\\nline2\"}", "=?base64?bGluZTEKbGluZTI=?=" },
    { "tools/call", "{\"name\":\"=?base64?literal?=\"}", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=" },
    { "resources/read", "{\"uri\":\"file:///tmp/a b.txt\"}", "file:///tmp/a b.txt" },
    { "prompts/get", "{\"name\":\"greet\"}", "greet" },
    { "tools/list", "{}", NULL },
  };
  Harness *h = harness_new ("--session", "none", "--reply", "sse", NULL);
  McpMessage *response;
  JsonObject *record;

  /* The probe goes out before any revision was agreed on; its headers
   * follow the revision its `_meta` names. */
  send_request (h, 9, "server/discover", "{\"_meta\":{\"io.modelcontextprotocol/"
                                         "protocolVersion\":\"2026-07-28\"}}");
  wait_response (h, 9);
  record = wait_record (h->server, "request", "POST", "server/discover", 0);
  g_assert_cmpstr (record_header (record, "mcp-protocol-version"), ==, "2026-07-28");
  g_assert_cmpstr (record_header (record, "mcp-method"), ==, "server/discover");
  g_assert_null (record_header (record, "mcp-name"));

  mcp_transport_set_protocol_version (MCP_TRANSPORT (h->transport), "2026-07-28");

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      send_request (h, 10 + i, cases[i].method, cases[i].params);
      wait_response (h, 10 + i);
      record = wait_record (h->server, "request", "POST", NULL, i + 1);
      g_assert_cmpstr (record_header (record, "mcp-method"), ==, cases[i].method);
      g_assert_cmpstr (record_header (record, "mcp-name"), ==, cases[i].name);
      g_assert_cmpstr (record_header (record, "mcp-protocol-version"), ==, "2026-07-28");
      g_assert_null (record_header (record, "mcp-session-id"));
    }

  /* A stream that ends early is not resumed, whatever its event ids. */
  call_tool (h, 30, "drop", "{}");
  response = wait_error (h, 30, MCP_ERROR_CLOSED);
  g_assert_cmpstr (mcp_message_get_error_message (response), ==,
                   "the server closed the stream before answering");

  /* Cancelling closes the stream; nothing is posted. */
  call_tool (h, 31, "no-headers", NULL);
  WAIT_FOR (find_record (h->server, "request", "POST", "tools/call/no-headers", 0) != NULL,
            DEADLINE_MS);
  send_notification (h, "notifications/cancelled", "{\"requestId\":31}");
  WAIT_FOR (find_record (h->server, "gone", "POST", NULL, 0) != NULL, DEADLINE_MS);

  /* No GET after the notification a stateful client would send. */
  send_notification (h, "notifications/initialized", NULL);
  send_request (h, 32, "tools/list", NULL);
  wait_result (h, 32);

  harness_close (h);
  server_sync (h->server);
  g_assert_cmpuint (count_records (h->server, "request", "GET", NULL), ==, 0);
  g_assert_cmpuint (count_records (h->server, "request", "DELETE", NULL), ==, 0);
  g_assert_cmpuint (count_records (h->server, "request", "POST", "notifications/cancelled"), ==, 0);
  g_assert_null (find_response (h, 31));

  harness_free (h);
}

/* McpClient over the transport, as the host uses it. */
static void
test_client (void)
{
  Server *server = server_start_argv ((const char *[]) { "--reply", "sse", NULL });
  g_autoptr(McpHttpTransport) transport = mcp_http_transport_new (server->url, NULL);
  g_autoptr(McpClient) client = mcp_client_new (MCP_TRANSPORT (transport));
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(McpToolResult) tool_result = NULL;
  g_autoptr(JsonObject) arguments = parse_object ("{\"message\":\"over HTTP\"}");
  g_autofree char *text = NULL;
  GListModel *tools;

  mcp_client_connect_async (client, NULL, store_result_cb, &result);
  WAIT_FOR (result != NULL, DEADLINE_MS);
  g_assert_true (mcp_client_connect_finish (client, result, &error));
  g_assert_no_error (error);
  g_clear_object (&result);
  g_assert_cmpint (mcp_client_get_revision (client), ==, MCP_REVISION_LATEST_STATEFUL);

  tools = mcp_client_get_tools (client);
  WAIT_FOR (g_list_model_get_n_items (tools) == 1, DEADLINE_MS);

  mcp_client_call_tool_async (client, "echo", arguments, NULL, NULL, NULL, NULL,
                              store_result_cb, &result);
  WAIT_FOR (result != NULL, DEADLINE_MS);
  tool_result = mcp_client_call_tool_finish (client, result, &error);
  g_assert_no_error (error);
  text = mcp_tool_result_dup_text (tool_result);
  g_assert_cmpstr (text, ==, "over HTTP");
  g_clear_object (&result);

  mcp_client_close_async (client, NULL, store_result_cb, &result);
  WAIT_FOR (result != NULL, DEADLINE_MS);
  g_assert_true (mcp_client_close_finish (client, result, &error));
  server_sync (server);
  g_assert_cmpuint (count_records (server, "request", "DELETE", NULL), ==, 1);
  g_clear_object (&result);

  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_finalize_object (g_steal_pointer (&client));
  g_assert_finalize_object (g_steal_pointer (&transport));
  server_free (server);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/steward/http-transport/url", test_url);
  g_test_add_func ("/steward/http-transport/json", test_json);
  g_test_add_func ("/steward/http-transport/send-callback", test_send_callback);
  g_test_add_func ("/steward/http-transport/sse", test_sse);
  g_test_add_func ("/steward/http-transport/resume", test_resume);
  g_test_add_func ("/steward/http-transport/resume-after-reset", test_resume_after_reset);
  g_test_add_func ("/steward/http-transport/resume-without-id", test_resume_without_id);
  g_test_add_func ("/steward/http-transport/resume-limit", test_resume_limit);
  g_test_add_func ("/steward/http-transport/get-refused", test_get_refused);
  g_test_add_func ("/steward/http-transport/listen", test_listen);
  g_test_add_func ("/steward/http-transport/listen-first", test_listen_first);
  g_test_add_func ("/steward/http-transport/listen-reconnect", test_listen_reconnect);
  g_test_add_func ("/steward/http-transport/listen-limits", test_listen_limits);
  g_test_add_func ("/steward/http-transport/session-expired", test_session_expired);
  g_test_add_func ("/steward/http-transport/not-found-without-session",
                   test_not_found_without_session);
  g_test_add_func ("/steward/http-transport/bad-session", test_bad_session);
  g_test_add_func ("/steward/http-transport/huge-event", test_huge_event);
  g_test_add_func ("/steward/http-transport/huge-json", test_huge_json);
  g_test_add_func ("/steward/http-transport/huge-declared", test_huge_declared);
  g_test_add_func ("/steward/http-transport/silent", test_silent);
  g_test_add_func ("/steward/http-transport/trickle", test_trickle);
  g_test_add_func ("/steward/http-transport/http-errors", test_http_errors);
  g_test_add_func ("/steward/http-transport/batch", test_batch);
  g_test_add_func ("/steward/http-transport/unreachable", test_unreachable);
  g_test_add_func ("/steward/http-transport/redirect", test_redirect);
  g_test_add_func ("/steward/http-transport/close", test_close);
  g_test_add_func ("/steward/http-transport/cancel", test_cancel);
  g_test_add_func ("/steward/http-transport/stateless", test_stateless);
  g_test_add_func ("/steward/http-transport/client", test_client);

  return g_test_run ();
}

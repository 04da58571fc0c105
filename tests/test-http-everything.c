/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-http-everything"

#include "config.h"

#include <string.h>

#include "mcp-client.h"
#include "mcp-error.h"
#include "mcp-http-transport.h"
#include "mcp-item.h"
#include "mcp-tool.h"
#include "test-delegate.h"
#include "test-http-peer.h"

/* The reference server "everything" in its Streamable HTTP mode, driven
 * through McpClient over McpHttpTransport: a smoke test of the transport
 * against the official SDK's server side. */

#define DEADLINE_MS 20000

static gboolean
set_true_cb (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

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

typedef struct {
  GSubprocess      *process;
  GDataInputStream *out;
  GDataInputStream *err;
  GCancellable     *cancellable;
  GPtrArray        *lines;       /* of stdout and stderr, as they come */
  gboolean          exited;
} Peer;

static void read_next (Peer             *peer,
                       GDataInputStream *stream);

static void
line_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  char *line;

  line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (object), result, NULL,
                                                    &error);
  if (line == NULL)
    return;

  g_ptr_array_add (((Peer *) user_data)->lines, line);
  read_next (user_data, G_DATA_INPUT_STREAM (object));
}

static void
read_next (Peer             *peer,
           GDataInputStream *stream)
{
  g_data_input_stream_read_line_async (stream, G_PRIORITY_DEFAULT, peer->cancellable, line_cb,
                                       peer);
}

static gboolean
peer_said (Peer       *peer,
           const char *part)
{
  for (guint i = 0; i < peer->lines->len; i++)
    if (strstr (g_ptr_array_index (peer->lines, i), part) != NULL)
      return TRUE;

  return FALSE;
}

static void
exited_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_subprocess_wait_finish (G_SUBPROCESS (object), result, NULL);
  *(gboolean *) user_data = TRUE;
}

static Peer *
peer_start (guint16 port)
{
  g_autofree char *script = test_everything_script ();
  g_autofree char *port_text = g_strdup_printf ("%u", port);
  g_autofree char *ready = g_strdup_printf ("listening on port %u", port);
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GError) error = NULL;
  Peer *peer = g_new0 (Peer, 1);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_setenv (launcher, "PORT", port_text, TRUE);
  peer->process = g_subprocess_launcher_spawn (launcher, &error, "node", "--import",
                                               TEST_LOOPBACK_ONLY, script, "streamableHttp", NULL);
  g_assert_no_error (error);

  peer->cancellable = g_cancellable_new ();
  peer->lines = g_ptr_array_new_with_free_func (g_free);
  peer->out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (peer->process));
  peer->err = g_data_input_stream_new (g_subprocess_get_stderr_pipe (peer->process));
  read_next (peer, peer->out);
  read_next (peer, peer->err);
  g_subprocess_wait_async (peer->process, NULL, exited_cb, &peer->exited);

  /* A server that cannot start says why before it exits. */
  WAIT_FOR (peer_said (peer, ready) || peer->exited, DEADLINE_MS);
  if (peer->exited)
    {
      g_ptr_array_add (peer->lines, NULL);
      g_error ("the reference server exited instead of listening:\n%s",
               g_strjoinv ("\n", (char **) peer->lines->pdata));
    }

  return peer;
}

static void
peer_stop (Peer *peer)
{
  g_subprocess_send_signal (peer->process, SIGINT);
  WAIT_FOR (peer->exited, DEADLINE_MS);

  g_cancellable_cancel (peer->cancellable);
  g_object_unref (peer->cancellable);
  g_object_unref (peer->out);
  g_object_unref (peer->err);
  g_object_unref (peer->process);
  g_ptr_array_unref (peer->lines);
  g_free (peer);
}

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
  return test_parse_object ("{\"action\":\"accept\",\"content\":{\"name\":\"Ada Lovelace\","
                            "\"check\":true,\"email\":\"ada@example.org\",\"integer\":7,"
                            "\"number\":2.5,\"untitledSingleSelectEnum\":\"Joey\","
                            "\"untitledMultipleSelectEnum\":[\"Piano\",\"Drums\"],"
                            "\"titledSingleSelectEnum\":\"hero-3\"}}");
}

static void
log_message_cb (McpClient  *client,
                const char *level,
                const char *logger,
                JsonNode   *data,
                gpointer    user_data)
{
  (*(guint *) user_data)++;
}

static char *
call_tool (McpClient  *client,
           const char *name,
           const char *arguments)
{
  g_autoptr(JsonObject) args = test_parse_object (arguments);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(McpToolResult) tool_result = NULL;
  g_autoptr(GError) error = NULL;

  mcp_client_call_tool_async (client, name, args, NULL, NULL, NULL, NULL, store_result_cb,
                              &result);
  WAIT_FOR (result != NULL, DEADLINE_MS);
  tool_result = mcp_client_call_tool_finish (client, result, &error);
  g_assert_no_error (error);
  g_assert_false (mcp_tool_result_get_is_error (tool_result));

  return mcp_tool_result_dup_text (tool_result);
}

static gboolean
has_tool (GPtrArray  *tools,
          const char *name)
{
  for (guint i = 0; i < tools->len; i++)
    if (g_str_equal (mcp_item_get_name (g_ptr_array_index (tools, i)), name))
      return TRUE;

  return FALSE;
}

static void
test_everything (void)
{
  guint16 port = test_free_port ();
  Peer *peer = peer_start (port);
  g_autofree char *url = g_strdup_printf ("http://127.0.0.1:%u/mcp", port);
  g_autoptr(McpHttpTransport) transport = mcp_http_transport_new (url, NULL);
  g_autoptr(McpClient) client = mcp_client_new (MCP_TRANSPORT (transport));
  g_autoptr(TestDelegate) delegate = test_delegate_new (MCP_CLIENT_FEATURE_ELICITATION_FORM);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) tools = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  guint n_logs = 0;

  delegate->reply_func = reply_cb;
  mcp_client_set_delegate (client, MCP_CLIENT_DELEGATE (delegate));
  mcp_client_set_requested_revision (client, MCP_REVISION_2025_11_25);
  g_signal_connect (client, "log-message", G_CALLBACK (log_message_cb), &n_logs);

  mcp_client_connect_async (client, NULL, store_result_cb, &result);
  WAIT_FOR (result != NULL, DEADLINE_MS);
  g_assert_true (mcp_client_connect_finish (client, result, &error));
  g_assert_no_error (error);
  g_clear_object (&result);
  g_assert_cmpint (mcp_client_get_revision (client), ==, MCP_REVISION_2025_11_25);
  g_assert_cmpstr (mcp_client_get_server_name (client), ==, "mcp-servers/everything");
  g_assert_true (mcp_http_transport_has_session (transport));

  /* The standalone GET stream opens after `notifications/initialized`. */
  WAIT_FOR (mcp_http_transport_is_listening (transport), DEADLINE_MS);

  /* The tools that need the client's capabilities are there by now. */
  mcp_client_list_async (client, "tools/list", NULL, store_result_cb, &result);
  WAIT_FOR (result != NULL, DEADLINE_MS);
  tools = mcp_client_list_finish (client, result, &error);
  g_assert_no_error (error);
  g_clear_object (&result);
  g_assert_true (has_tool (tools, "echo"));
  g_assert_true (has_tool (tools, "trigger-elicitation-request"));

  text = call_tool (client, "echo", "{\"message\":\"hello over HTTP\"}");
  g_assert_cmpstr (text, ==, "Echo: hello over HTTP");
  g_clear_pointer (&text, g_free);

  /* Log messages come unasked, on the GET stream. */
  mcp_client_set_log_level_async (client, "debug", NULL, store_result_cb, &result);
  WAIT_FOR (result != NULL, DEADLINE_MS);
  g_assert_true (mcp_client_set_log_level_finish (client, result, &error));
  g_clear_object (&result);
  text = call_tool (client, "toggle-simulated-logging", "{}");
  g_clear_pointer (&text, g_free);
  WAIT_FOR (n_logs > 0, DEADLINE_MS);
  text = call_tool (client, "toggle-simulated-logging", "{}");
  g_clear_pointer (&text, g_free);

  /* The server's request comes on the stream of the tool call, and the
   * delegate's answer goes back in a POST of its own. */
  text = call_tool (client, "trigger-elicitation-request", "{}");
  g_assert_nonnull (strstr (text, "Ada Lovelace"));
  g_assert_cmpuint (delegate->methods->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (delegate->methods, 0), ==, "elicitation/create");

  /* Closing ends the session on the server. */
  mcp_client_close_async (client, NULL, store_result_cb, &result);
  WAIT_FOR (result != NULL, DEADLINE_MS);
  g_assert_true (mcp_client_close_finish (client, result, &error));
  g_clear_object (&result);
  WAIT_FOR (peer_said (peer, "Received session termination request"), DEADLINE_MS);
  g_assert_false (mcp_http_transport_has_session (transport));

  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_signal_handlers_disconnect_by_data (client, &n_logs);
  g_assert_finalize_object (g_steal_pointer (&client));
  g_assert_finalize_object (g_steal_pointer (&transport));
  g_assert_finalize_object (g_steal_pointer (&delegate));
  peer_stop (peer);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/steward/http-everything/smoke", test_everything);

  return g_test_run ();
}

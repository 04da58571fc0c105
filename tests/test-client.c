/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-client"

#include "config.h"

#include <string.h>

#include "mcp-client.h"
#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-scripted-transport.h"
#include "mcp-tool.h"
#include "test-delegate.h"

/* Fixture: a client on a scripted transport, connected. */

typedef struct {
  McpScriptedTransport *transport;
  McpClient            *client;
  TestDelegate         *delegate;
} Fixture;

static void
store_result_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

#define INIT_REPLY_FORMAT                                                        \
  "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"result\":{"                \
  "\"protocolVersion\":\"%s\",\"serverInfo\":{\"name\":\"scripted\","          \
  "\"title\":\"Scripted Server\",\"version\":\"1.2.3\"},"                      \
  "\"capabilities\":%s,\"instructions\":\"Be kind.\"}}"

static const char *full_capabilities =
  "{\"tools\":{\"listChanged\":true},\"resources\":{\"subscribe\":true,\"listChanged\":true},"
  "\"prompts\":{},\"logging\":{},\"completions\":{}}";

static gint64
id_of (McpMessage *message)
{
  gint64 id = 0;

  g_assert_true (mcp_message_get_int_id (message, &id));
  return id;
}

static void
reply_empty_lists (Fixture *fixture)
{
  const char *lists[][2] = {
    { "tools/list", "tools" },
    { "resources/list", "resources" },
    { "resources/templates/list", "resourceTemplates" },
    { "prompts/list", "prompts" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (lists); i++)
    {
      McpMessage *request = mcp_scripted_transport_find_sent (fixture->transport, lists[i][0]);

      if (request != NULL)
        mcp_scripted_transport_receivef (fixture->transport,
                                         "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT
                                         ",\"result\":{\"%s\":[]}}",
                                         id_of (request), lists[i][1]);
    }
}

static void
fixture_connect (Fixture    *fixture,
                 const char *version,
                 const char *capabilities)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpMessage *init;

  mcp_client_connect_async (fixture->client, NULL, store_result_cb, &result);
  init = mcp_scripted_transport_wait_sent (fixture->transport, "initialize");
  mcp_scripted_transport_receivef (fixture->transport, INIT_REPLY_FORMAT,
                                   id_of (init), version, capabilities);
  wait_for (result != NULL);
  g_assert_true (mcp_client_connect_finish (fixture->client, result, &error));
  g_assert_no_error (error);
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  fixture->transport = mcp_scripted_transport_new ();
  fixture->client = mcp_client_new (MCP_TRANSPORT (fixture->transport));
  fixture->delegate = test_delegate_new (MCP_CLIENT_FEATURE_NONE);
  mcp_client_set_delegate (fixture->client, MCP_CLIENT_DELEGATE (fixture->delegate));

  /* These cases are about the handshake era; the modern ones say so. */
  if (data == NULL)
    mcp_client_set_requested_revision (fixture->client, MCP_REVISION_2025_11_25);
}

static void
fixture_set_up_ready (Fixture       *fixture,
                      gconstpointer  data)
{
  fixture_set_up (fixture, data);
  fixture->delegate->features = MCP_CLIENT_FEATURE_ROOTS | MCP_CLIENT_FEATURE_ROOTS_LIST_CHANGED |
                                MCP_CLIENT_FEATURE_SAMPLING | MCP_CLIENT_FEATURE_ELICITATION_FORM;
  fixture_connect (fixture, "2025-11-25", full_capabilities);
  reply_empty_lists (fixture);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_client_close_async (fixture->client, NULL, store_result_cb, &result);
  wait_for (result != NULL);
  g_assert_true (mcp_client_close_finish (fixture->client, result, NULL));
  g_clear_object (&result);

  /* Let idle callbacks that hold references run out. */
  while (g_main_context_iteration (NULL, FALSE))
    ;

  g_assert_finalize_object (fixture->client);
  g_assert_finalize_object (fixture->delegate);
  g_assert_finalize_object (fixture->transport);
}

/* Tests */

static void
test_initialize (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpMessage *init;
  JsonObject *params;
  JsonObject *caps;
  JsonObject *info;
  guint n_sent;

  fixture->delegate->features = MCP_CLIENT_FEATURE_ROOTS | MCP_CLIENT_FEATURE_ROOTS_LIST_CHANGED |
                                MCP_CLIENT_FEATURE_SAMPLING | MCP_CLIENT_FEATURE_ELICITATION_FORM |
                                MCP_CLIENT_FEATURE_ELICITATION_URL;

  mcp_client_connect_async (fixture->client, NULL, store_result_cb, &result);
  init = mcp_scripted_transport_wait_sent (fixture->transport, "initialize");
  g_assert_cmpint (mcp_client_get_state (fixture->client), ==, MCP_CLIENT_STATE_INITIALIZING);

  params = mcp_message_get_params (init);
  g_assert_cmpstr (mcp_json_get_string (params, "protocolVersion"), ==, "2025-11-25");
  info = mcp_json_get_object (params, "clientInfo");
  g_assert_cmpstr (mcp_json_get_string (info, "name"), ==, "steward");
  g_assert_nonnull (mcp_json_get_string (info, "version"));
  caps = mcp_json_get_object (params, "capabilities");
  g_assert_true (mcp_json_get_boolean (mcp_json_get_object (caps, "roots"), "listChanged", FALSE));
  g_assert_nonnull (mcp_json_get_object (caps, "sampling"));
  g_assert_nonnull (mcp_json_get_object (mcp_json_get_object (caps, "elicitation"), "form"));
  g_assert_nonnull (mcp_json_get_object (mcp_json_get_object (caps, "elicitation"), "url"));
  g_assert_null (mcp_json_get_object (caps, "tasks"));

  /* Nothing but initialize goes out before the server answers it. */
  n_sent = mcp_scripted_transport_get_sent (fixture->transport)->len;
  g_assert_cmpuint (n_sent, ==, 1);

  /* The server picks an older revision it prefers: accepted. */
  mcp_scripted_transport_receivef (fixture->transport, INIT_REPLY_FORMAT,
                                   id_of (init), "2025-03-26", full_capabilities);
  wait_for (result != NULL);
  g_assert_true (mcp_client_connect_finish (fixture->client, result, &error));
  g_assert_no_error (error);

  g_assert_cmpint (mcp_client_get_state (fixture->client), ==, MCP_CLIENT_STATE_READY);
  g_assert_cmpint (mcp_client_get_revision (fixture->client), ==, MCP_REVISION_2025_03_26);
  g_assert_cmpstr (mcp_scripted_transport_get_protocol_version (fixture->transport), ==,
                   "2025-03-26");
  g_assert_cmpstr (mcp_client_get_server_name (fixture->client), ==, "scripted");
  g_assert_cmpstr (mcp_client_get_server_title (fixture->client), ==, "Scripted Server");
  g_assert_cmpstr (mcp_client_get_server_version (fixture->client), ==, "1.2.3");
  g_assert_cmpstr (mcp_client_get_instructions (fixture->client), ==, "Be kind.");
  g_assert_true (mcp_client_has_capability (fixture->client, "resources", "subscribe"));
  g_assert_false (mcp_client_has_capability (fixture->client, "prompts", "listChanged"));

  /* initialized comes right after, then the lists the server offers. */
  g_assert_cmpstr (mcp_message_get_method (g_ptr_array_index (
                     mcp_scripted_transport_get_sent (fixture->transport), 1)), ==,
                   "notifications/initialized");
  g_assert_nonnull (mcp_scripted_transport_find_sent (fixture->transport, "tools/list"));
  g_assert_nonnull (mcp_scripted_transport_find_sent (fixture->transport, "prompts/list"));
  reply_empty_lists (fixture);
}

static void
test_initialize_older_request (Fixture       *fixture,
                               gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  McpMessage *init;
  JsonObject *caps;

  fixture->delegate->features = MCP_CLIENT_FEATURE_ELICITATION_FORM;
  mcp_client_set_requested_revision (fixture->client, MCP_REVISION_2025_06_18);
  mcp_client_connect_async (fixture->client, NULL, store_result_cb, &result);
  init = mcp_scripted_transport_wait_sent (fixture->transport, "initialize");

  /* 2025-06-18 knows elicitation only as an empty object. */
  g_assert_cmpstr (mcp_json_get_string (mcp_message_get_params (init), "protocolVersion"), ==,
                   "2025-06-18");
  caps = mcp_json_get_object (mcp_message_get_params (init), "capabilities");
  g_assert_cmpuint (json_object_get_size (mcp_json_get_object (caps, "elicitation")), ==, 0);

  mcp_scripted_transport_receivef (fixture->transport, INIT_REPLY_FORMAT,
                                   id_of (init), "2025-06-18", "{}");
  wait_for (result != NULL);
  g_assert_true (mcp_client_connect_finish (fixture->client, result, NULL));

  /* A server without tools is never asked for them. */
  g_assert_null (mcp_scripted_transport_find_sent (fixture->transport, "tools/list"));
}

static void
test_unsupported_version (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpMessage *init;

  mcp_client_connect_async (fixture->client, NULL, store_result_cb, &result);
  init = mcp_scripted_transport_wait_sent (fixture->transport, "initialize");
  mcp_scripted_transport_receivef (fixture->transport, INIT_REPLY_FORMAT,
                                   id_of (init), "1999-01-01", "{}");
  wait_for (result != NULL);

  g_assert_false (mcp_client_connect_finish (fixture->client, result, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_UNSUPPORTED_VERSION);
  g_assert_nonnull (strstr (error->message, "1999-01-01"));
  g_assert_nonnull (strstr (error->message, "2025-11-25"));
  g_assert_cmpint (mcp_client_get_state (fixture->client), ==, MCP_CLIENT_STATE_CLOSED);
  g_assert_true (mcp_scripted_transport_get_closed (fixture->transport));
  g_assert_null (mcp_scripted_transport_find_sent (fixture->transport,
                                                   "notifications/initialized"));
}

static void
test_initialize_error (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpMessage *init;

  mcp_client_connect_async (fixture->client, NULL, store_result_cb, &result);
  init = mcp_scripted_transport_wait_sent (fixture->transport, "initialize");
  mcp_scripted_transport_receivef (fixture->transport,
                                   "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"error\":"
                                   "{\"code\":-32602,\"message\":\"Unsupported protocol version\","
                                   "\"data\":{\"supported\":[\"2024-11-05\"]}}}", id_of (init));
  wait_for (result != NULL);

  g_assert_false (mcp_client_connect_finish (fixture->client, result, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS);
  g_assert_nonnull (strstr (error->message, "Unsupported protocol version"));
}

static void
test_initialize_undelivered (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpMessage *init;

  /* An HTTP transport that cannot reach the server answers the request
   * itself, without closing: connecting must fail, not wait forever. */
  mcp_client_connect_async (fixture->client, NULL, store_result_cb, &result);
  init = mcp_scripted_transport_wait_sent (fixture->transport, "initialize");
  mcp_scripted_transport_receivef (fixture->transport,
                                   "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"error\":"
                                   "{\"code\":%d,\"message\":\"connection refused\"}}",
                                   id_of (init), MCP_ERROR_CLOSED);
  wait_for (result != NULL);
  g_assert_false (mcp_client_connect_finish (fixture->client, result, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_CLOSED);
  g_assert_nonnull (strstr (error->message, "connection refused"));
  g_assert_cmpint (mcp_client_get_state (fixture->client), ==, MCP_CLIENT_STATE_CLOSED);
}

static void
test_initialize_timeout (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  mcp_client_set_initialize_timeout (fixture->client, 50);
  mcp_client_connect_async (fixture->client, NULL, store_result_cb, &result);
  wait_for (result != NULL);

  g_assert_false (mcp_client_connect_finish (fixture->client, result, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_TIMEOUT);
  /* initialize is never cancelled: the connection is dropped instead. */
  g_assert_null (mcp_scripted_transport_find_sent (fixture->transport, "notifications/cancelled"));
  g_assert_true (mcp_scripted_transport_get_closed (fixture->transport));
}

static void
test_queue_before_ready (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(GAsyncResult) connected = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonObject) reply = NULL;
  McpMessage *init;
  McpMessage *ping;

  mcp_client_connect_async (fixture->client, NULL, store_result_cb, &connected);
  mcp_client_request_async (fixture->client, "tools/list", NULL, NULL, NULL, NULL, NULL,
                            store_result_cb, &result);
  init = mcp_scripted_transport_wait_sent (fixture->transport, "initialize");
  g_assert_null (mcp_scripted_transport_find_sent (fixture->transport, "tools/list"));

  mcp_scripted_transport_receivef (fixture->transport, INIT_REPLY_FORMAT,
                                   id_of (init), "2025-11-25", "{}");
  wait_for (connected != NULL);
  ping = mcp_scripted_transport_wait_sent (fixture->transport, "tools/list");
  mcp_scripted_transport_receivef (fixture->transport,
                                   "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT
                                   ",\"result\":{\"tools\":[]}}", id_of (ping));
  wait_for (result != NULL);
  reply = mcp_client_request_finish (fixture->client, result, NULL);
  g_assert_nonnull (reply);
}

static void
test_ping (Fixture       *fixture,
           gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpMessage *ping;
  McpMessage *answer;

  mcp_client_ping_async (fixture->client, NULL, store_result_cb, &result);
  ping = mcp_scripted_transport_wait_sent (fixture->transport, "ping");
  mcp_scripted_transport_receivef (fixture->transport,
                                   "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT
                                   ",\"result\":{}}", id_of (ping));
  wait_for (result != NULL);
  g_assert_true (mcp_client_ping_finish (fixture->client, result, &error));
  g_assert_no_error (error);

  /* The server pings us with a string id, which comes back as a string. */
  mcp_scripted_transport_receive (fixture->transport,
                                  "{\"jsonrpc\":\"2.0\",\"id\":\"p-1\",\"method\":\"ping\"}");
  answer = mcp_scripted_transport_wait_response (fixture->transport, "s:p-1");
  g_assert_cmpint (mcp_message_get_kind (answer), ==, MCP_MESSAGE_RESULT);
  g_assert_cmpuint (json_object_get_size (mcp_message_get_result (answer)), ==, 0);
}

static void
test_timeout (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) reply = NULL;
  McpMessage *request;
  McpMessage *cancelled;
  JsonObject *params;

  mcp_client_set_request_timeout (fixture->client, 50);
  mcp_client_request_async (fixture->client, "tools/call", NULL, NULL, NULL, NULL, NULL,
                            store_result_cb, &result);
  request = mcp_scripted_transport_wait_sent (fixture->transport, "tools/call");
  wait_for (result != NULL);

  reply = mcp_client_request_finish (fixture->client, result, &error);
  g_assert_null (reply);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_TIMEOUT);
  g_assert_nonnull (strstr (error->message, "tools/call"));

  cancelled = mcp_scripted_transport_find_sent (fixture->transport, "notifications/cancelled");
  g_assert_nonnull (cancelled);
  params = mcp_message_get_params (cancelled);
  g_assert_cmpint (json_object_get_int_member (params, "requestId"), ==, id_of (request));
  g_assert_nonnull (mcp_json_get_string (params, "reason"));

  /* A late answer is ignored and counted, never delivered. */
  mcp_scripted_transport_receivef (fixture->transport,
                                   "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT
                                   ",\"result\":{}}", id_of (request));
  g_assert_cmpuint (mcp_client_get_n_ignored_messages (fixture->client), ==, 1);
}

typedef struct {
  guint   calls;
  gint64  id;
  char   *tool;
} OverdueState;

static gboolean
overdue_cb (McpClient  *client,
            gint64      id,
            const char *method,
            JsonObject *params,
            guint       waited_ms,
            gpointer    user_data)
{
  OverdueState *state = user_data;

  g_assert_cmpstr (method, ==, "tools/call");
  g_assert_cmpuint (waited_ms, >=, 50);
  state->calls++;
  state->id = id;
  g_free (state->tool);
  state->tool = params != NULL ? g_strdup (mcp_json_get_string (params, "name")) : NULL;
  /* Answered later, as a person would. */
  return TRUE;
}

static void
test_overdue_keep_waiting (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) params = json_object_new ();
  g_autoptr(JsonObject) reply = NULL;
  OverdueState state = { 0, };
  McpMessage *request;

  json_object_set_string_member (params, "name", "slow");
  g_signal_connect (fixture->client, "request-overdue", G_CALLBACK (overdue_cb), &state);
  mcp_client_set_request_timeout (fixture->client, 50);
  mcp_client_request_async (fixture->client, "tools/call", params, NULL, NULL, NULL, NULL,
                            store_result_cb, &result);
  request = mcp_scripted_transport_wait_sent (fixture->transport, "tools/call");
  wait_for (state.calls == 1);

  /* While the question is open the request neither fails nor is cancelled. */
  g_assert_cmpint (state.id, ==, id_of (request));
  g_assert_cmpstr (state.tool, ==, "slow");
  g_assert_null (result);
  g_assert_null (mcp_scripted_transport_find_sent (fixture->transport,
                                                   "notifications/cancelled"));

  /* Waiting on asks again after another timeout... */
  g_assert_true (mcp_client_answer_overdue (fixture->client, state.id, TRUE));
  g_assert_false (mcp_client_answer_overdue (fixture->client, state.id, TRUE));
  wait_for (state.calls == 2);
  g_assert_null (result);
  g_assert_true (mcp_client_answer_overdue (fixture->client, state.id, TRUE));

  /* ...and the late answer is delivered. */
  mcp_scripted_transport_receivef (fixture->transport,
                                   "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT
                                   ",\"result\":{\"content\":[]}}", id_of (request));
  wait_for (result != NULL);
  reply = mcp_client_request_finish (fixture->client, result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (reply);
  g_assert_true (json_object_has_member (reply, "content"));
  g_assert_null (mcp_scripted_transport_find_sent (fixture->transport,
                                                   "notifications/cancelled"));
  g_assert_false (mcp_client_answer_overdue (fixture->client, state.id, FALSE));
  g_free (state.tool);
}

static void
test_overdue_stop (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) reply = NULL;
  OverdueState state = { 0, };
  McpMessage *request;
  McpMessage *cancelled;

  g_signal_connect (fixture->client, "request-overdue", G_CALLBACK (overdue_cb), &state);
  mcp_client_set_request_timeout (fixture->client, 50);
  mcp_client_request_async (fixture->client, "tools/call", NULL, NULL, NULL, NULL, NULL,
                            store_result_cb, &result);
  request = mcp_scripted_transport_wait_sent (fixture->transport, "tools/call");
  wait_for (state.calls == 1);
  g_assert_null (result);

  g_assert_true (mcp_client_answer_overdue (fixture->client, state.id, FALSE));
  wait_for (result != NULL);
  reply = mcp_client_request_finish (fixture->client, result, &error);
  g_assert_null (reply);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_TIMEOUT);

  cancelled = mcp_scripted_transport_find_sent (fixture->transport, "notifications/cancelled");
  g_assert_nonnull (cancelled);
  g_assert_cmpint (json_object_get_int_member (mcp_message_get_params (cancelled), "requestId"),
                   ==, id_of (request));
  g_free (state.tool);
}

typedef struct {
  Fixture *fixture;
  gint64   id;
  guint    sent;
  guint    limit;
  guint    calls;
  double   last_progress;
  double   last_total;
} ProgressState;

static gboolean
send_progress_cb (gpointer user_data)
{
  ProgressState *state = user_data;

  if (state->sent == state->limit)
    return G_SOURCE_REMOVE;

  state->sent++;
  mcp_scripted_transport_receivef (state->fixture->transport,
                                   "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\","
                                   "\"params\":{\"progressToken\":%" G_GINT64_FORMAT
                                   ",\"progress\":%u,\"total\":%u,\"message\":\"step\"}}",
                                   state->id, state->sent, state->limit);
  return G_SOURCE_CONTINUE;
}

static void
progress_cb (double      progress,
             double      total,
             const char *message,
             gpointer    user_data)
{
  ProgressState *state = user_data;

  g_assert_cmpfloat (progress, >=, state->last_progress);
  g_assert_cmpstr (message, ==, "step");
  state->calls++;
  state->last_progress = progress;
  state->last_total = total;
}

static void
test_progress_resets_timeout (Fixture       *fixture,
                              gconstpointer  data)
{
  ProgressState state = { fixture, 0, 0, 8, 0, 0, 0 };
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) reply = NULL;
  McpMessage *request;
  JsonObject *meta;
  guint source;

  /* Progress every 50 ms for 400 ms keeps a 150 ms timeout from firing. */
  mcp_client_set_request_timeout (fixture->client, 150);
  mcp_client_request_async (fixture->client, "tools/call", NULL, progress_cb, &state, NULL,
                            NULL, store_result_cb, &result);
  request = mcp_scripted_transport_wait_sent (fixture->transport, "tools/call");
  meta = mcp_json_get_object (mcp_message_get_params (request), "_meta");
  g_assert_true (mcp_json_has_number (meta, "progressToken"));
  state.id = (gint64) mcp_json_get_number (meta, "progressToken", 0);

  source = g_timeout_add (50, send_progress_cb, &state);
  wait_for (state.sent == state.limit || result != NULL);
  g_assert_null (result);
  g_source_remove (source);

  mcp_scripted_transport_receivef (fixture->transport,
                                   "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT
                                   ",\"result\":{\"done\":true}}", id_of (request));
  wait_for (result != NULL);
  reply = mcp_client_request_finish (fixture->client, result, &error);
  g_assert_no_error (error);
  g_assert_true (mcp_json_get_boolean (reply, "done", FALSE));
  g_assert_cmpuint (state.calls, >=, 2);
  g_assert_cmpfloat (state.last_total, ==, 8);
}

static void
test_progress_hard_limit (Fixture       *fixture,
                          gconstpointer  data)
{
  ProgressState state = { fixture, 0, 0, G_MAXUINT, 0, 0, 0 };
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) reply = NULL;
  McpMessage *request;
  gint64 started = g_get_monotonic_time ();
  guint source;

  /* Progress forever cannot keep a request alive past the maximum (the
   * timeout is generous, so a loaded machine's late tick cannot end the
   * request first). */
  mcp_client_set_request_timeout (fixture->client, 300);
  mcp_client_set_max_request_time (fixture->client, 900);
  mcp_client_request_async (fixture->client, "tools/call", NULL, progress_cb, &state, NULL,
                            NULL, store_result_cb, &result);
  request = mcp_scripted_transport_wait_sent (fixture->transport, "tools/call");
  state.id = id_of (request);
  source = g_timeout_add (30, send_progress_cb, &state);
  wait_for (result != NULL);
  g_source_remove (source);

  reply = mcp_client_request_finish (fixture->client, result, &error);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_TIMEOUT);
  g_assert_nonnull (strstr (error->message, "progress"));
  g_assert_cmpint (g_get_monotonic_time () - started, >=, 890 * 1000);
  g_assert_nonnull (mcp_scripted_transport_find_sent (fixture->transport,
                                                      "notifications/cancelled"));
}

static void
test_progress_coalesced (Fixture       *fixture,
                         gconstpointer  data)
{
  ProgressState state = { fixture, 0, 0, 1000, 0, 0, 0 };
  g_autoptr(GAsyncResult) result = NULL;
  McpMessage *request;

  mcp_client_request_async (fixture->client, "tools/call", NULL, progress_cb, &state, NULL,
                            NULL, store_result_cb, &result);
  request = mcp_scripted_transport_wait_sent (fixture->transport, "tools/call");
  state.id = id_of (request);

  /* A burst of 1,000 arrives at once: the first is delivered, the rest
   * become one call with the latest values. */
  while (state.sent < state.limit)
    send_progress_cb (&state);
  g_assert_cmpuint (state.calls, ==, 1);
  wait_for (state.last_progress == 1000);
  g_assert_cmpuint (state.calls, ==, 2);

  /* Unknown tokens are ignored. */
  mcp_scripted_transport_receive (fixture->transport,
                                  "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\","
                                  "\"params\":{\"progressToken\":\"nope\",\"progress\":1}}");
  g_assert_cmpuint (mcp_client_get_n_ignored_messages (fixture->client), ==, 1);

  mcp_scripted_transport_receivef (fixture->transport,
                                   "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT
                                   ",\"result\":{}}", state.id);
  wait_for (result != NULL);
}

static void
test_cancel (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(McpToolResult) reply = NULL;
  McpMessage *request;
  McpMessage *cancelled;

  mcp_client_call_tool_async (fixture->client, "slow", NULL, NULL, NULL, NULL, cancellable,
                              store_result_cb, &result);
  request = mcp_scripted_transport_wait_sent (fixture->transport, "tools/call");
  g_cancellable_cancel (cancellable);
  wait_for (result != NULL);

  reply = mcp_client_call_tool_finish (fixture->client, result, &error);
  g_assert_null (reply);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  cancelled = mcp_scripted_transport_find_sent (fixture->transport, "notifications/cancelled");
  g_assert_nonnull (cancelled);
  g_assert_cmpint (json_object_get_int_member (mcp_message_get_params (cancelled), "requestId"),
                   ==, id_of (request));
}

static void
test_odd_ids (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(GAsyncResult) first = NULL;
  g_autoptr(GAsyncResult) second = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) reply = NULL;
  McpMessage *a;
  guint n_before;

  mcp_client_request_async (fixture->client, "a", NULL, NULL, NULL, NULL, NULL,
                            store_result_cb, &first);
  mcp_client_request_async (fixture->client, "b", NULL, NULL, NULL, NULL, NULL,
                            store_result_cb, &second);
  a = mcp_scripted_transport_wait_sent (fixture->transport, "a");

  n_before = mcp_client_get_n_ignored_messages (fixture->client);
  /* An id we never used, the right number as a string, and an error with
   * a null id while two requests wait: each is ignored and counted. */
  mcp_scripted_transport_receive (fixture->transport,
                                  "{\"jsonrpc\":\"2.0\",\"id\":987654,\"result\":{}}");
  mcp_scripted_transport_receivef (fixture->transport,
                                   "{\"jsonrpc\":\"2.0\",\"id\":\"%" G_GINT64_FORMAT
                                   "\",\"result\":{}}", id_of (a));
  mcp_scripted_transport_receive (fixture->transport,
                                  "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":"
                                  "{\"code\":-32700,\"message\":\"Parse error\"}}");
  g_assert_cmpuint (mcp_client_get_n_ignored_messages (fixture->client), ==, n_before + 3);
  g_assert_null (first);
  g_assert_null (second);

  /* The right answer, then a duplicate of it. */
  mcp_scripted_transport_receivef (fixture->transport,
                                   "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT
                                   ",\"result\":{\"which\":\"a\"}}", id_of (a));
  mcp_scripted_transport_receivef (fixture->transport,
                                   "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT
                                   ",\"result\":{\"which\":\"again\"}}", id_of (a));
  wait_for (first != NULL);
  reply = mcp_client_request_finish (fixture->client, first, NULL);
  g_assert_cmpstr (mcp_json_get_string (reply, "which"), ==, "a");
  g_assert_cmpuint (mcp_client_get_n_ignored_messages (fixture->client), ==, n_before + 4);

  /* With one request left, an error without an id must be its answer. */
  mcp_scripted_transport_receive (fixture->transport,
                                  "{\"jsonrpc\":\"2.0\",\"error\":"
                                  "{\"code\":-32600,\"message\":\"Invalid Request\"}}");
  wait_for (second != NULL);
  g_assert_null (mcp_client_request_finish (fixture->client, second, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_REQUEST);
}

static void
items_changed_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  gpointer    user_data)
{
  guint *count = user_data;

  (*count)++;
}

static void
test_pagination_and_list_changed (Fixture       *fixture,
                                  gconstpointer  data)
{
  GListModel *tools = mcp_client_get_tools (fixture->client);
  guint changes = 0;
  guint n_sent;
  McpMessage *request;
  GPtrArray *sent = mcp_scripted_transport_get_sent (fixture->transport);
  g_autoptr(McpTool) tool = NULL;

  g_signal_connect (tools, "items-changed", G_CALLBACK (items_changed_cb), &changes);

  fixture_connect (fixture, "2025-11-25", "{\"tools\":{\"listChanged\":true}}");
  request = mcp_scripted_transport_wait_sent (fixture->transport, "tools/list");
  g_assert_null (mcp_message_get_params (request));
  n_sent = sent->len;
  mcp_scripted_transport_receivef (fixture->transport,
                                   "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"result\":"
                                   "{\"tools\":[{\"name\":\"a\",\"inputSchema\":{\"type\":\"object\"}},"
                                   "{\"description\":\"no name: skipped\"}],\"nextCursor\":\"p2\"}}",
                                   id_of (request));

  wait_for (sent->len > n_sent);
  request = g_ptr_array_index (sent, sent->len - 1);
  g_assert_cmpstr (mcp_message_get_method (request), ==, "tools/list");
  g_assert_cmpstr (mcp_json_get_string (mcp_message_get_params (request), "cursor"), ==, "p2");
  mcp_scripted_transport_receivef (fixture->transport,
                                   "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"result\":"
                                   "{\"tools\":[{\"name\":\"b\",\"title\":\"Bee\","
                                   "\"annotations\":{\"readOnlyHint\":true}}]}}",
                                   id_of (request));
  wait_for (g_list_model_get_n_items (tools) == 2);
  g_assert_cmpuint (changes, ==, 1);
  n_sent = sent->len;

  tool = g_list_model_get_item (tools, 1);
  g_assert_cmpstr (mcp_item_get_display_name (MCP_ITEM (tool)), ==, "Bee");
  g_assert_true (mcp_tool_get_read_only_hint (tool));
  g_assert_true (mcp_tool_get_destructive_hint (tool));

  /* A change notification lists again, from the first page. */
  mcp_scripted_transport_receive (fixture->transport,
                                  "{\"jsonrpc\":\"2.0\",\"method\":"
                                  "\"notifications/tools/list_changed\"}");
  wait_for (sent->len > n_sent);
  request = g_ptr_array_index (sent, sent->len - 1);
  g_assert_cmpstr (mcp_message_get_method (request), ==, "tools/list");
  g_assert_null (mcp_message_get_params (request));
  mcp_scripted_transport_receivef (fixture->transport,
                                   "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"result\":"
                                   "{\"tools\":[{\"name\":\"c\"}]}}", id_of (request));
  wait_for (g_list_model_get_n_items (tools) == 1);
  g_assert_cmpuint (changes, ==, 2);

  g_signal_handlers_disconnect_by_data (tools, &changes);
}

typedef struct {
  guint position;
  guint removed;
  guint added;
  guint count;
} Change;

static void
record_change_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  gpointer    user_data)
{
  Change *change = user_data;

  change->position = position;
  change->removed = removed;
  change->added = added;
  change->count++;
}

static void
answer_tools (Fixture    *fixture,
              guint       n_sent,
              const char *tools)
{
  GPtrArray *sent = mcp_scripted_transport_get_sent (fixture->transport);
  McpMessage *request;

  wait_for (sent->len > n_sent);
  request = g_ptr_array_index (sent, sent->len - 1);
  g_assert_cmpstr (mcp_message_get_method (request), ==, "tools/list");
  mcp_scripted_transport_receivef (fixture->transport,
                                   "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"result\":"
                                   "{\"tools\":[%s]}}", id_of (request), tools);
}

/* Listed again, a tool as it was stays the same object and only the
 * changed range is replaced; a changed tool is a new object. */
static void
test_list_again_in_place (Fixture       *fixture,
                          gconstpointer  data)
{
  GListModel *tools = mcp_client_get_tools (fixture->client);
  GPtrArray *sent = mcp_scripted_transport_get_sent (fixture->transport);
  g_autoptr(McpTool) a = NULL;
  g_autoptr(McpTool) b = NULL;
  g_autoptr(McpTool) c = NULL;
  g_autoptr(McpTool) item = NULL;
  Change change = { 0 };
  guint n_sent;
  const char *notice = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}";

  fixture_connect (fixture, "2025-11-25", "{\"tools\":{\"listChanged\":true}}");
  mcp_scripted_transport_wait_sent (fixture->transport, "tools/list");
  answer_tools (fixture, sent->len - 1,
                "{\"name\":\"a\"},{\"name\":\"b\",\"description\":\"one\"},{\"name\":\"c\"}");
  wait_for (g_list_model_get_n_items (tools) == 3);
  a = g_list_model_get_item (tools, 0);
  b = g_list_model_get_item (tools, 1);
  c = g_list_model_get_item (tools, 2);
  g_signal_connect (tools, "items-changed", G_CALLBACK (record_change_cb), &change);

  /* b's description changes: b alone is replaced, by a new object. */
  n_sent = sent->len;
  mcp_scripted_transport_receive (fixture->transport, notice);
  answer_tools (fixture, n_sent,
                "{\"name\":\"a\"},{\"name\":\"b\",\"description\":\"two\"},{\"name\":\"c\"}");
  wait_for (change.count == 1);
  g_assert_cmpuint (change.position, ==, 1);
  g_assert_cmpuint (change.removed, ==, 1);
  g_assert_cmpuint (change.added, ==, 1);
  item = g_list_model_get_item (tools, 0);
  g_assert_true (item == a);
  g_clear_object (&item);
  item = g_list_model_get_item (tools, 1);
  g_assert_true (item != b);
  g_assert_cmpstr (mcp_item_get_description (MCP_ITEM (item)), ==, "two");
  g_assert_cmpstr (mcp_item_get_description (MCP_ITEM (b)), ==, "one");
  g_clear_object (&item);
  item = g_list_model_get_item (tools, 2);
  g_assert_true (item == c);
  g_clear_object (&item);

  /* The same list again changes nothing; a tool added at the end is
   * added alone. */
  n_sent = sent->len;
  mcp_scripted_transport_receive (fixture->transport, notice);
  answer_tools (fixture, n_sent,
                "{\"name\":\"a\"},{\"name\":\"b\",\"description\":\"two\"},"
                "{\"name\":\"c\"},{\"name\":\"d\"}");
  wait_for (g_list_model_get_n_items (tools) == 4);
  g_assert_cmpuint (change.count, ==, 2);
  g_assert_cmpuint (change.position, ==, 3);
  g_assert_cmpuint (change.removed, ==, 0);
  g_assert_cmpuint (change.added, ==, 1);

  /* A removed one goes alone. */
  n_sent = sent->len;
  mcp_scripted_transport_receive (fixture->transport, notice);
  answer_tools (fixture, n_sent,
                "{\"name\":\"b\",\"description\":\"two\"},{\"name\":\"c\"},{\"name\":\"d\"}");
  wait_for (g_list_model_get_n_items (tools) == 3);
  g_assert_cmpuint (change.count, ==, 3);
  g_assert_cmpuint (change.position, ==, 0);
  g_assert_cmpuint (change.removed, ==, 1);
  g_assert_cmpuint (change.added, ==, 0);
  item = g_list_model_get_item (tools, 1);
  g_assert_true (item == c);

  g_signal_handlers_disconnect_by_data (tools, &change);
}

static void
test_server_requests_undeclared (Fixture       *fixture,
                                 gconstpointer  data)
{
  const struct {
    const char *request;
    const char *key;
    int         code;
  } cases[] = {
    { "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"sampling/createMessage\",\"params\":"
      "{\"messages\":[],\"maxTokens\":10}}", "i:1", MCP_ERROR_METHOD_NOT_FOUND },
    { "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"roots/list\"}", "i:2", MCP_ERROR_METHOD_NOT_FOUND },
    { "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"elicitation/create\",\"params\":"
      "{\"message\":\"?\",\"requestedSchema\":{\"type\":\"object\",\"properties\":{}}}}", "i:3",
      MCP_ERROR_METHOD_NOT_FOUND },
    { "{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"method\":\"no/such\"}", "s:x",
      MCP_ERROR_METHOD_NOT_FOUND },
  };

  fixture_connect (fixture, "2025-11-25", "{}");

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      McpMessage *answer;

      mcp_scripted_transport_receive (fixture->transport, cases[i].request);
      answer = mcp_scripted_transport_wait_response (fixture->transport, cases[i].key);
      g_assert_cmpint (mcp_message_get_kind (answer), ==, MCP_MESSAGE_ERROR);
      g_assert_cmpint (mcp_message_get_error_code (answer), ==, cases[i].code);
    }
}

static void
test_server_requests (Fixture       *fixture,
                      gconstpointer  data)
{
  McpMessage *answer;
  JsonObject *result;

  /* roots/list through the delegate. */
  mcp_scripted_transport_receive (fixture->transport,
                                  "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"roots/list\"}");
  answer = mcp_scripted_transport_wait_response (fixture->transport, "i:10");
  result = mcp_message_get_result (answer);
  g_assert_nonnull (result);
  g_assert_cmpstr (mcp_json_get_string (json_array_get_object_element (
                     mcp_json_get_array (result, "roots"), 0), "uri"), ==, "file:///home/ada/src");

  /* Sampling through the delegate, which sees the params as sent. */
  mcp_scripted_transport_receive (fixture->transport,
                                  "{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":"
                                  "\"sampling/createMessage\",\"params\":{\"messages\":[{\"role\":"
                                  "\"user\",\"content\":{\"type\":\"text\",\"text\":\"hi\"}}],"
                                  "\"maxTokens\":99}}");
  answer = mcp_scripted_transport_wait_response (fixture->transport, "i:11");
  g_assert_cmpstr (mcp_json_get_string (mcp_message_get_result (answer), "model"), ==,
                   "test-model");
  g_assert_cmpint (json_object_get_int_member (g_ptr_array_index (fixture->delegate->params, 1),
                                               "maxTokens"), ==, 99);

  /* Tools in sampling were not declared: invalid params. */
  mcp_scripted_transport_receive (fixture->transport,
                                  "{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":"
                                  "\"sampling/createMessage\",\"params\":{\"messages\":[],"
                                  "\"maxTokens\":9,\"tools\":[]}}");
  answer = mcp_scripted_transport_wait_response (fixture->transport, "i:12");
  g_assert_cmpint (mcp_message_get_error_code (answer), ==, MCP_ERROR_INVALID_PARAMS);

  /* URL elicitation was not declared, form was. */
  mcp_scripted_transport_receive (fixture->transport,
                                  "{\"jsonrpc\":\"2.0\",\"id\":13,\"method\":\"elicitation/create\","
                                  "\"params\":{\"mode\":\"url\",\"message\":\"go\",\"url\":"
                                  "\"https://example.org\",\"elicitationId\":\"e1\"}}");
  answer = mcp_scripted_transport_wait_response (fixture->transport, "i:13");
  g_assert_cmpint (mcp_message_get_error_code (answer), ==, MCP_ERROR_INVALID_PARAMS);

  mcp_scripted_transport_receive (fixture->transport,
                                  "{\"jsonrpc\":\"2.0\",\"id\":14,\"method\":\"elicitation/create\","
                                  "\"params\":{\"message\":\"name?\",\"requestedSchema\":"
                                  "{\"type\":\"object\",\"properties\":{\"name\":{\"type\":"
                                  "\"string\"}}}}}");
  answer = mcp_scripted_transport_wait_response (fixture->transport, "i:14");
  g_assert_cmpstr (mcp_json_get_string (mcp_message_get_result (answer), "action"), ==, "accept");
}

static void
test_server_cancels (Fixture       *fixture,
                     gconstpointer  data)
{
  GPtrArray *sent = mcp_scripted_transport_get_sent (fixture->transport);
  guint n_sent;

  fixture->delegate->hold = TRUE;
  mcp_scripted_transport_receive (fixture->transport,
                                  "{\"jsonrpc\":\"2.0\",\"id\":\"e\",\"method\":\"elicitation/create\","
                                  "\"params\":{\"message\":\"name?\",\"requestedSchema\":"
                                  "{\"type\":\"object\",\"properties\":{}}}}");
  wait_for (fixture->delegate->held->len == 1);
  n_sent = sent->len;

  mcp_scripted_transport_receive (fixture->transport,
                                  "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\","
                                  "\"params\":{\"requestId\":\"e\",\"reason\":\"changed my mind\"}}");
  g_assert_true (g_task_get_cancellable (g_ptr_array_index (fixture->delegate->held, 0)) != NULL);
  g_assert_true (g_cancellable_is_cancelled (
                   g_task_get_cancellable (g_ptr_array_index (fixture->delegate->held, 0))));

  /* The host finishes anyway; nothing is sent for a cancelled request. */
  test_delegate_release (fixture->delegate);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (sent->len, ==, n_sent);
}

static void
test_server_request_overload (Fixture       *fixture,
                              gconstpointer  data)
{
  McpMessage *answer;

  fixture->delegate->hold = TRUE;
  for (guint i = 0; i < MCP_MAX_PENDING_SERVER_REQUESTS; i++)
    mcp_scripted_transport_receivef (fixture->transport,
                                     "{\"jsonrpc\":\"2.0\",\"id\":%u,\"method\":\"roots/list\"}",
                                     100 + i);
  wait_for (fixture->delegate->held->len == MCP_MAX_PENDING_SERVER_REQUESTS);

  /* One more is refused at once, with an answer, not dropped. */
  mcp_scripted_transport_receive (fixture->transport,
                                  "{\"jsonrpc\":\"2.0\",\"id\":999,\"method\":\"roots/list\"}");
  answer = mcp_scripted_transport_wait_response (fixture->transport, "i:999");
  g_assert_cmpint (mcp_message_get_kind (answer), ==, MCP_MESSAGE_ERROR);
  g_assert_nonnull (strstr (mcp_message_get_error_message (answer), "overloaded"));

  test_delegate_release (fixture->delegate);
  mcp_scripted_transport_wait_response (fixture->transport, "i:131");
}

static void
closed_cb (McpClient    *client,
           const GError *error,
           gpointer      user_data)
{
  GError **out = user_data;

  g_assert_nonnull (error);
  *out = g_error_copy (error);
}

static void
test_transport_closed (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) reason = NULL;
  g_autoptr(JsonObject) reply = NULL;

  g_signal_connect (fixture->client, "closed", G_CALLBACK (closed_cb), &reason);
  mcp_client_request_async (fixture->client, "tools/call", NULL, NULL, NULL, NULL, NULL,
                            store_result_cb, &result);
  mcp_scripted_transport_wait_sent (fixture->transport, "tools/call");
  mcp_scripted_transport_fail (fixture->transport, "exited with status 3");
  wait_for (result != NULL);

  reply = mcp_client_request_finish (fixture->client, result, &error);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_CLOSED);
  g_assert_nonnull (strstr (error->message, "exited with status 3"));
  g_assert_error (reason, MCP_ERROR, MCP_ERROR_EXITED);
  g_assert_cmpint (mcp_client_get_state (fixture->client), ==, MCP_CLIENT_STATE_CLOSED);
  g_assert_error ((GError *) mcp_client_get_error (fixture->client), MCP_ERROR, MCP_ERROR_EXITED);

  /* Later requests fail at once with the reason. */
  g_clear_object (&result);
  g_clear_error (&error);
  mcp_client_ping_async (fixture->client, NULL, store_result_cb, &result);
  wait_for (result != NULL);
  g_assert_false (mcp_client_ping_finish (fixture->client, result, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_CLOSED);
  g_signal_handlers_disconnect_by_data (fixture->client, &reason);
}

static void
test_tool_result (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(McpToolResult) reply = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *text = NULL;
  McpMessage *request;
  GPtrArray *content;
  McpContent *c;

  mcp_client_call_tool_async (fixture->client, "everything", NULL, NULL, NULL, NULL, NULL,
                              store_result_cb, &result);
  request = mcp_scripted_transport_wait_sent (fixture->transport, "tools/call");
  g_assert_cmpstr (mcp_json_get_string (mcp_message_get_params (request), "name"), ==,
                   "everything");
  g_assert_nonnull (mcp_json_get_object (mcp_message_get_params (request), "arguments"));
  mcp_scripted_transport_receivef (fixture->transport,
    "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"result\":{\"content\":["
    "{\"type\":\"text\",\"text\":\"one\",\"annotations\":{\"audience\":[\"user\"],"
    "\"priority\":0.5,\"lastModified\":\"2025-01-01T00:00:00Z\"}},"
    "{\"type\":\"image\",\"data\":\"aGVsbG8=\",\"mimeType\":\"image/png\"},"
    "{\"type\":\"audio\",\"data\":\"AAEC\",\"mimeType\":\"audio/wav\"},"
    "{\"type\":\"resource_link\",\"uri\":\"demo://a\",\"name\":\"a\"},"
    "{\"type\":\"resource\",\"resource\":{\"uri\":\"demo://t\",\"mimeType\":\"text/plain\","
    "\"text\":\"inner\"}},"
    "{\"type\":\"resource\",\"resource\":{\"uri\":\"demo://b\",\"blob\":\"AAECAw==\"}},"
    "{\"type\":\"hologram\",\"depth\":3},"
    "{\"type\":\"text\",\"text\":\"two\"}],"
    "\"structuredContent\":{\"temperature\":21},\"isError\":true}}", id_of (request));
  wait_for (result != NULL);

  reply = mcp_client_call_tool_finish (fixture->client, result, &error);
  g_assert_no_error (error);
  g_assert_true (mcp_tool_result_get_is_error (reply));
  g_assert_true (JSON_NODE_HOLDS_OBJECT (mcp_tool_result_get_structured_content (reply)));
  text = mcp_tool_result_dup_text (reply);
  g_assert_cmpstr (text, ==, "one\ntwo");

  content = mcp_tool_result_get_content (reply);
  g_assert_cmpuint (content->len, ==, 8);

  c = g_ptr_array_index (content, 0);
  g_assert_cmpint (mcp_content_get_content_type (c), ==, MCP_CONTENT_TEXT);
  g_assert_cmpfloat (mcp_content_get_priority (c), ==, 0.5);
  g_assert_cmpstr (mcp_content_get_last_modified (c), ==, "2025-01-01T00:00:00Z");
  g_assert_cmpuint (json_array_get_length (mcp_content_get_audience (c)), ==, 1);

  c = g_ptr_array_index (content, 1);
  g_assert_cmpint (mcp_content_get_content_type (c), ==, MCP_CONTENT_IMAGE);
  bytes = mcp_content_dup_data (c, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), "hello", 5);
  g_assert_cmpuint (mcp_content_get_data_size (c), ==, 5);

  c = g_ptr_array_index (content, 2);
  g_assert_cmpint (mcp_content_get_content_type (c), ==, MCP_CONTENT_AUDIO);
  g_assert_cmpstr (mcp_content_get_mime_type (c), ==, "audio/wav");
  g_assert_cmpuint (mcp_content_get_data_size (c), ==, 3);

  c = g_ptr_array_index (content, 3);
  g_assert_cmpint (mcp_content_get_content_type (c), ==, MCP_CONTENT_RESOURCE_LINK);
  g_assert_cmpstr (mcp_content_get_uri (c), ==, "demo://a");

  c = g_ptr_array_index (content, 4);
  g_assert_cmpint (mcp_content_get_content_type (c), ==, MCP_CONTENT_RESOURCE);
  g_assert_cmpstr (mcp_content_get_text (c), ==, "inner");
  g_assert_cmpstr (mcp_content_get_uri (c), ==, "demo://t");
  g_assert_false (mcp_content_is_blob (c));

  c = g_ptr_array_index (content, 5);
  g_assert_true (mcp_content_is_blob (c));
  g_assert_cmpuint (mcp_content_get_data_size (c), ==, 4);

  c = g_ptr_array_index (content, 6);
  g_assert_cmpint (mcp_content_get_content_type (c), ==, MCP_CONTENT_UNKNOWN);
  g_assert_cmpstr (mcp_content_get_type_name (c), ==, "hologram");
}

static void
log_message_cb (McpClient  *client,
                const char *level,
                const char *logger,
                JsonNode   *data,
                gpointer    user_data)
{
  GString *seen = user_data;

  g_string_append_printf (seen, "%s/%s/%s;", level, logger ? logger : "-",
                          data && JSON_NODE_HOLDS_VALUE (data) ? json_node_get_string (data) : "?");
}

static void
resource_updated_cb (McpClient  *client,
                     const char *uri,
                     gpointer    user_data)
{
  g_string_append_printf (user_data, "updated:%s;", uri);
}

static void
test_notifications_and_utilities (Fixture       *fixture,
                                  gconstpointer  data)
{
  g_autoptr(GString) seen = g_string_new (NULL);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) values = NULL;
  McpMessage *request;
  JsonObject *params;
  gint64 total = 0;
  gboolean has_more = FALSE;

  g_signal_connect (fixture->client, "log-message", G_CALLBACK (log_message_cb), seen);
  g_signal_connect (fixture->client, "resource-updated", G_CALLBACK (resource_updated_cb), seen);

  mcp_scripted_transport_receive (fixture->transport,
                                  "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\","
                                  "\"params\":{\"level\":\"warning\",\"logger\":\"db\","
                                  "\"data\":\"slow\"}}");
  mcp_scripted_transport_receive (fixture->transport,
                                  "{\"jsonrpc\":\"2.0\",\"method\":"
                                  "\"notifications/resources/updated\",\"params\":{\"uri\":\"demo://x\"}}");
  g_assert_cmpstr (seen->str, ==, "warning/db/slow;updated:demo://x;");

  /* Subscribing records the subscription once the server agrees. */
  mcp_client_subscribe_async (fixture->client, "demo://x", TRUE, NULL, store_result_cb, &result);
  request = mcp_scripted_transport_wait_sent (fixture->transport, "resources/subscribe");
  g_assert_false (mcp_client_is_subscribed (fixture->client, "demo://x"));
  mcp_scripted_transport_receivef (fixture->transport, "{\"jsonrpc\":\"2.0\",\"id\":%"
                                   G_GINT64_FORMAT ",\"result\":{}}", id_of (request));
  wait_for (result != NULL);
  g_assert_true (mcp_client_subscribe_finish (fixture->client, result, &error));
  g_assert_true (mcp_client_is_subscribed (fixture->client, "demo://x"));
  g_clear_object (&result);

  /* Completion carries the other arguments as context. */
  {
    g_autoptr(JsonObject) context = json_object_new ();

    json_object_set_string_member (context, "department", "Sales");
    mcp_client_complete_async (fixture->client, "ref/prompt", "team", "name", "A", context, NULL,
                               store_result_cb, &result);
  }
  request = mcp_scripted_transport_wait_sent (fixture->transport, "completion/complete");
  params = mcp_message_get_params (request);
  g_assert_cmpstr (mcp_json_get_string (mcp_json_get_object (params, "ref"), "name"), ==, "team");
  g_assert_cmpstr (mcp_json_get_string (mcp_json_get_object (
                     mcp_json_get_object (params, "context"), "arguments"), "department"), ==,
                   "Sales");
  mcp_scripted_transport_receivef (fixture->transport, "{\"jsonrpc\":\"2.0\",\"id\":%"
                                   G_GINT64_FORMAT ",\"result\":{\"completion\":{\"values\":"
                                   "[\"Alice\",\"Alan\"],\"total\":7,\"hasMore\":true}}}",
                                   id_of (request));
  wait_for (result != NULL);
  values = mcp_client_complete_finish (fixture->client, result, &total, &has_more, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (values), ==, 2);
  g_assert_cmpstr (values[0], ==, "Alice");
  g_assert_cmpint (total, ==, 7);
  g_assert_true (has_more);
  g_clear_object (&result);

  /* An invalid log level never reaches the server. */
  mcp_client_set_log_level_async (fixture->client, "loud", NULL, store_result_cb, &result);
  wait_for (result != NULL);
  g_assert_false (mcp_client_set_log_level_finish (fixture->client, result, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS);
  g_assert_null (mcp_scripted_transport_find_sent (fixture->transport, "logging/setLevel"));

  /* Roots changes are announced when the host declared listChanged. */
  mcp_client_notify_roots_changed (fixture->client);
  g_assert_nonnull (mcp_scripted_transport_find_sent (fixture->transport,
                                                      "notifications/roots/list_changed"));

  g_signal_handlers_disconnect_by_data (fixture->client, seen);
}

static void
test_capability_missing (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(McpToolResult) reply = NULL;

  fixture_connect (fixture, "2025-11-25", "{\"prompts\":{}}");
  mcp_client_call_tool_async (fixture->client, "x", NULL, NULL, NULL, NULL, NULL,
                              store_result_cb, &result);
  wait_for (result != NULL);

  reply = mcp_client_call_tool_finish (fixture->client, result, &error);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_CAPABILITY_MISSING);
  g_assert_null (mcp_scripted_transport_find_sent (fixture->transport, "tools/call"));
  mcp_scripted_transport_wait_sent (fixture->transport, "prompts/list");
  reply_empty_lists (fixture);
}

/* The 2026-07-28 era */

#define DISCOVER_REPLY_FORMAT                                                    \
  "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"result\":{"                \
  "\"resultType\":\"complete\",\"supportedVersions\":[\"2026-07-28\",\"2025-11-25\"]," \
  "\"capabilities\":%s,\"instructions\":\"Be modern.\","                        \
  "\"_meta\":{\"io.modelcontextprotocol/serverInfo\":{\"name\":\"modern\","      \
  "\"version\":\"2.0\"}},\"ttlMs\":60000,\"cacheScope\":\"public\"}}"

static void
fixture_set_up_modern (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpMessage *discover;

  fixture_set_up (fixture, data);
  fixture->delegate->features = MCP_CLIENT_FEATURE_ROOTS | MCP_CLIENT_FEATURE_SAMPLING |
                                MCP_CLIENT_FEATURE_ELICITATION_FORM;

  mcp_client_connect_async (fixture->client, NULL, store_result_cb, &result);
  discover = mcp_scripted_transport_wait_sent (fixture->transport, "server/discover");
  mcp_scripted_transport_receivef (fixture->transport, DISCOVER_REPLY_FORMAT, id_of (discover),
                                   "{\"tools\":{\"listChanged\":true},"
                                   "\"resources\":{\"subscribe\":true},\"logging\":{}}");
  wait_for (result != NULL);
  g_assert_true (mcp_client_connect_finish (fixture->client, result, &error));
  g_assert_no_error (error);
  reply_empty_lists (fixture);
}

static JsonObject *
request_meta (McpMessage *message)
{
  return mcp_json_get_object (mcp_message_get_params (message), "_meta");
}

static void
assert_modern_meta (McpMessage *message)
{
  JsonObject *meta = request_meta (message);

  g_assert_cmpstr (mcp_json_get_string (meta, "io.modelcontextprotocol/protocolVersion"), ==,
                   "2026-07-28");
  g_assert_nonnull (mcp_json_get_object (meta, "io.modelcontextprotocol/clientCapabilities"));
  g_assert_cmpstr (mcp_json_get_string (mcp_json_get_object (meta,
                                          "io.modelcontextprotocol/clientInfo"), "name"), ==,
                   "steward");
}

static void
test_modern_discover (Fixture       *fixture,
                      gconstpointer  data)
{
  McpMessage *list;
  McpMessage *listen;
  JsonObject *caps;

  g_assert_cmpint (mcp_client_get_revision (fixture->client), ==, MCP_REVISION_2026_07_28);
  g_assert_cmpstr (mcp_scripted_transport_get_protocol_version (fixture->transport), ==,
                   "2026-07-28");
  g_assert_cmpstr (mcp_client_get_server_name (fixture->client), ==, "modern");
  g_assert_cmpstr (mcp_client_get_instructions (fixture->client), ==, "Be modern.");
  g_assert_null (mcp_scripted_transport_find_sent (fixture->transport, "initialize"));
  g_assert_null (mcp_scripted_transport_find_sent (fixture->transport,
                                                   "notifications/initialized"));

  /* The probe and every request after it say who asks, in which revision,
   * with which capabilities. */
  assert_modern_meta (mcp_scripted_transport_find_sent (fixture->transport, "server/discover"));
  list = mcp_scripted_transport_find_sent (fixture->transport, "tools/list");
  assert_modern_meta (list);
  caps = mcp_json_get_object (request_meta (list), "io.modelcontextprotocol/clientCapabilities");
  g_assert_nonnull (mcp_json_get_object (caps, "sampling"));
  g_assert_nonnull (mcp_json_get_object (mcp_json_get_object (caps, "elicitation"), "form"));

  /* List changes come through one subscription stream. */
  listen = mcp_scripted_transport_wait_sent (fixture->transport, "subscriptions/listen");
  assert_modern_meta (listen);
  g_assert_true (mcp_json_get_boolean (mcp_json_get_object (mcp_message_get_params (listen),
                                                            "notifications"),
                                       "toolsListChanged", FALSE));
}

static void
test_modern_fallback (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpMessage *discover;
  McpMessage *init;

  mcp_client_connect_async (fixture->client, NULL, store_result_cb, &result);
  discover = mcp_scripted_transport_wait_sent (fixture->transport, "server/discover");

  /* A server of the handshake era does not know the method. */
  mcp_scripted_transport_receivef (fixture->transport,
                                   "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"error\":"
                                   "{\"code\":-32601,\"message\":\"Method not found\"}}",
                                   id_of (discover));
  init = mcp_scripted_transport_wait_sent (fixture->transport, "initialize");
  g_assert_cmpstr (mcp_json_get_string (mcp_message_get_params (init), "protocolVersion"), ==,
                   "2025-11-25");
  g_assert_null (request_meta (init));
  mcp_scripted_transport_receivef (fixture->transport, INIT_REPLY_FORMAT, id_of (init),
                                   "2025-11-25", "{}");
  wait_for (result != NULL);
  g_assert_true (mcp_client_connect_finish (fixture->client, result, &error));
  g_assert_cmpint (mcp_client_get_revision (fixture->client), ==, MCP_REVISION_2025_11_25);
  g_assert_nonnull (mcp_scripted_transport_find_sent (fixture->transport,
                                                      "notifications/initialized"));
}

static void
test_modern_unsupported_version (Fixture       *fixture,
                                 gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  McpMessage *discover;
  McpMessage *init;

  mcp_client_connect_async (fixture->client, NULL, store_result_cb, &result);
  discover = mcp_scripted_transport_wait_sent (fixture->transport, "server/discover");

  /* A modern error naming only older revisions: initialize with the
   * newest of them. */
  mcp_scripted_transport_receivef (fixture->transport,
                                   "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"error\":"
                                   "{\"code\":-32022,\"message\":\"Unsupported protocol version\","
                                   "\"data\":{\"supported\":[\"2024-11-05\",\"2025-06-18\"],"
                                   "\"requested\":\"2026-07-28\"}}}", id_of (discover));
  init = mcp_scripted_transport_wait_sent (fixture->transport, "initialize");
  g_assert_cmpstr (mcp_json_get_string (mcp_message_get_params (init), "protocolVersion"), ==,
                   "2025-06-18");
  mcp_scripted_transport_receivef (fixture->transport, INIT_REPLY_FORMAT, id_of (init),
                                   "2025-06-18", "{}");
  wait_for (result != NULL);
  g_assert_true (mcp_client_connect_finish (fixture->client, result, NULL));
}

static void
reply_with (Fixture    *fixture,
            McpMessage *request,
            const char *result)
{
  mcp_scripted_transport_receivef (fixture->transport,
                                   "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT
                                   ",\"result\":%s}", id_of (request), result);
}

static McpMessage *
wait_sent_after (Fixture    *fixture,
                 const char *method,
                 guint       after)
{
  GPtrArray *sent = mcp_scripted_transport_get_sent (fixture->transport);
  McpMessage *found = NULL;

  wait_for ((found = ({ McpMessage *m = NULL;
                        for (guint i = after; i < sent->len && m == NULL; i++)
                          if (g_strcmp0 (mcp_message_get_method (g_ptr_array_index (sent, i)),
                                         method) == 0)
                            m = g_ptr_array_index (sent, i);
                        m; })) != NULL);
  return found;
}

static void
test_modern_input_rounds (Fixture       *fixture,
                          gconstpointer  data)
{
  GPtrArray *sent = mcp_scripted_transport_get_sent (fixture->transport);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(McpToolResult) reply = NULL;
  g_autoptr(JsonObject) args = test_parse_object ("{\"city\":\"Paris\"}");
  g_autofree char *text = NULL;
  McpMessage *first;
  McpMessage *second;
  McpMessage *third;
  JsonObject *params;
  JsonObject *responses;

  mcp_client_call_tool_async (fixture->client, "plan-trip", args, NULL, NULL, NULL, NULL,
                              store_result_cb, &result);
  first = wait_sent_after (fixture, "tools/call", 0);

  /* Round one: three questions at once, and state to echo. */
  reply_with (fixture, first,
              "{\"resultType\":\"input_required\",\"requestState\":\"opaque-1\","
              "\"inputRequests\":{"
              "\"who\":{\"method\":\"elicitation/create\",\"params\":{\"message\":\"Name?\","
              "\"requestedSchema\":{\"type\":\"object\",\"properties\":{\"name\":"
              "{\"type\":\"string\"}}}}},"
              "\"think\":{\"method\":\"sampling/createMessage\",\"params\":{\"messages\":"
              "[{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":\"hi\"}}],"
              "\"maxTokens\":5}},"
              "\"where\":{\"method\":\"roots/list\"}}}");
  second = wait_sent_after (fixture, "tools/call", sent->len);
  g_assert_cmpint (id_of (second), !=, id_of (first));
  assert_modern_meta (second);
  params = mcp_message_get_params (second);
  g_assert_cmpstr (mcp_json_get_string (params, "name"), ==, "plan-trip");
  g_assert_cmpstr (mcp_json_get_string (mcp_json_get_object (params, "arguments"), "city"), ==,
                   "Paris");
  g_assert_cmpstr (mcp_json_get_string (params, "requestState"), ==, "opaque-1");
  responses = mcp_json_get_object (params, "inputResponses");
  g_assert_cmpuint (json_object_get_size (responses), ==, 3);
  g_assert_cmpstr (mcp_json_get_string (mcp_json_get_object (responses, "who"), "action"), ==,
                   "accept");
  g_assert_cmpstr (mcp_json_get_string (mcp_json_get_object (responses, "think"), "model"), ==,
                   "test-model");
  g_assert_nonnull (mcp_json_get_array (mcp_json_get_object (responses, "where"), "roots"));
  g_assert_cmpuint (fixture->delegate->methods->len, ==, 3);

  /* Round two asks again, without state: none may be sent back, and the
   * first round's answers are not repeated. */
  reply_with (fixture, second,
              "{\"resultType\":\"input_required\",\"inputRequests\":{"
              "\"again\":{\"method\":\"roots/list\",\"params\":{}}}}");
  third = wait_sent_after (fixture, "tools/call", sent->len);
  params = mcp_message_get_params (third);
  g_assert_null (mcp_json_get_string (params, "requestState"));
  responses = mcp_json_get_object (params, "inputResponses");
  g_assert_cmpuint (json_object_get_size (responses), ==, 1);
  g_assert_true (json_object_has_member (responses, "again"));

  reply_with (fixture, third,
              "{\"resultType\":\"complete\",\"content\":[{\"type\":\"text\",\"text\":\"done\"}]}");
  wait_for (result != NULL);
  reply = mcp_client_call_tool_finish (fixture->client, result, &error);
  g_assert_no_error (error);
  text = mcp_tool_result_dup_text (reply);
  g_assert_cmpstr (text, ==, "done");
}

typedef struct {
  gboolean    done;
  JsonObject *result;
  GError     *error;
} Reply;

static void
store_reply_cb (McpClient  *client,
                JsonObject *result,
                GError     *error,
                gpointer    user_data)
{
  Reply *reply = user_data;

  g_assert_false (reply->done);
  reply->done = TRUE;
  reply->result = result != NULL ? json_object_ref (result) : NULL;
  reply->error = error;
}

/* A call ended by a plain function keeps it through a round of input,
 * and is answered once, with the retry's result. */
static void
test_modern_input_reply (Fixture       *fixture,
                         gconstpointer  data)
{
  GPtrArray *sent = mcp_scripted_transport_get_sent (fixture->transport);
  g_autoptr(McpToolResult) tool_result = NULL;
  g_autofree char *text = NULL;
  Reply reply = { FALSE, NULL, NULL };
  McpMessage *first;
  McpMessage *second;

  mcp_client_call_tool_with_reply (fixture->client, "ask", NULL, NULL, NULL, NULL, NULL,
                                   store_reply_cb, &reply);
  first = wait_sent_after (fixture, "tools/call", 0);
  reply_with (fixture, first,
              "{\"resultType\":\"input_required\",\"requestState\":\"s\","
              "\"inputRequests\":{\"where\":{\"method\":\"roots/list\"}}}");
  second = wait_sent_after (fixture, "tools/call", sent->len);
  g_assert_cmpstr (mcp_json_get_string (mcp_message_get_params (second), "requestState"), ==,
                   "s");
  g_assert_false (reply.done);

  reply_with (fixture, second,
              "{\"resultType\":\"complete\",\"content\":[{\"type\":\"text\",\"text\":\"done\"}]}");
  wait_for (reply.done);
  g_assert_no_error (reply.error);
  tool_result = mcp_tool_result_new (reply.result);
  text = mcp_tool_result_dup_text (tool_result);
  g_assert_cmpstr (text, ==, "done");
  json_object_unref (reply.result);
}

static JsonObject *
reject_sampling_cb (const char  *method,
                    JsonObject  *params,
                    gpointer     user_data,
                    GError     **error)
{
  if (g_str_equal (method, "sampling/createMessage"))
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_USER_REJECTED,
                           "User rejected sampling request");
      return NULL;
    }
  return test_parse_object ("{\"roots\":[]}");
}

static void
test_modern_input_rejected (Fixture       *fixture,
                            gconstpointer  data)
{
  GPtrArray *sent = mcp_scripted_transport_get_sent (fixture->transport);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(McpToolResult) reply = NULL;
  McpMessage *first;
  guint n_sent;

  fixture->delegate->reply_func = reject_sampling_cb;
  mcp_client_call_tool_async (fixture->client, "ask", NULL, NULL, NULL, NULL, NULL,
                              store_result_cb, &result);
  first = wait_sent_after (fixture, "tools/call", 0);
  reply_with (fixture, first,
              "{\"resultType\":\"input_required\",\"inputRequests\":{"
              "\"think\":{\"method\":\"sampling/createMessage\",\"params\":{\"messages\":[],"
              "\"maxTokens\":5}}}}");
  wait_for (result != NULL);
  n_sent = sent->len;

  /* The person said no: the call fails with that, and nothing is retried. */
  reply = mcp_client_call_tool_finish (fixture->client, result, &error);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_USER_REJECTED);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (sent->len, ==, n_sent);
}

/* For a call made the GTask way: keeps only how it ended. */
static void
finish_into_reply_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(McpToolResult) tool_result = NULL;
  GError *error = NULL;

  tool_result = mcp_client_call_tool_finish (MCP_CLIENT (object), result, &error);
  store_reply_cb (MCP_CLIENT (object), NULL, error, user_data);
}

/* Cancelling a call while the host answers its questions cancels the
 * question put to the person, ends the call once with the cancellation,
 * and sends nothing more; whether the call ends in a task or a plain
 * function. */
static void
check_input_cancelled (Fixture  *fixture,
                       gboolean  with_reply)
{
  GPtrArray *sent = mcp_scripted_transport_get_sent (fixture->transport);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  Reply reply = { FALSE, NULL, NULL };
  McpMessage *first;
  GCancellable *host_cancellable;
  guint n_sent;

  fixture->delegate->hold = TRUE;
  if (with_reply)
    mcp_client_call_tool_with_reply (fixture->client, "ask", NULL, NULL, NULL, NULL,
                                     cancellable, store_reply_cb, &reply);
  else
    mcp_client_call_tool_async (fixture->client, "ask", NULL, NULL, NULL, NULL, cancellable,
                                finish_into_reply_cb, &reply);
  first = wait_sent_after (fixture, "tools/call", 0);
  reply_with (fixture, first,
              "{\"resultType\":\"input_required\",\"inputRequests\":{"
              "\"who\":{\"method\":\"elicitation/create\",\"params\":{\"message\":\"Name?\","
              "\"requestedSchema\":{\"type\":\"object\",\"properties\":{}}}}}}");
  wait_for (fixture->delegate->held->len == 1);
  n_sent = sent->len;

  g_cancellable_cancel (cancellable);
  host_cancellable = g_task_get_cancellable (g_ptr_array_index (fixture->delegate->held, 0));
  g_assert_true (g_cancellable_is_cancelled (host_cancellable));
  test_delegate_release (fixture->delegate);
  wait_for (reply.done);
  g_assert_null (reply.result);
  g_assert_error (reply.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (sent->len, ==, n_sent);
  g_clear_error (&reply.error);
}

static void
test_modern_input_cancelled (Fixture       *fixture,
                             gconstpointer  data)
{
  check_input_cancelled (fixture, FALSE);
}

static void
test_modern_input_reply_cancelled (Fixture       *fixture,
                                   gconstpointer  data)
{
  check_input_cancelled (fixture, TRUE);
}

static void
test_modern_round_limit (Fixture       *fixture,
                         gconstpointer  data)
{
  GPtrArray *sent = mcp_scripted_transport_get_sent (fixture->transport);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(McpToolResult) reply = NULL;
  guint rounds = 0;
  guint after = 0;

  mcp_client_call_tool_async (fixture->client, "endless", NULL, NULL, NULL, NULL, NULL,
                              store_result_cb, &result);

  /* A server that always wants more is given up on. */
  while (result == NULL)
    {
      McpMessage *call = wait_sent_after (fixture, "tools/call", after);

      after = sent->len;
      rounds++;
      reply_with (fixture, call, "{\"resultType\":\"input_required\",\"requestState\":\"x\"}");
      while (result == NULL && sent->len == after)
        g_main_context_iteration (NULL, TRUE);
    }

  reply = mcp_client_call_tool_finish (fixture->client, result, &error);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
  g_assert_cmpuint (rounds, ==, 9);
}

static void
test_modern_unknown_result_type (Fixture       *fixture,
                                 gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) reply = NULL;
  McpMessage *request;

  mcp_client_request_async (fixture->client, "tools/list", NULL, NULL, NULL, NULL, NULL,
                            store_result_cb, &result);
  request = wait_sent_after (fixture, "tools/list", 2);
  reply_with (fixture, request, "{\"resultType\":\"deferred\"}");
  wait_for (result != NULL);
  reply = mcp_client_request_finish (fixture->client, result, &error);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
  g_assert_nonnull (strstr (error->message, "deferred"));
}

static void
test_modern_subscriptions (Fixture       *fixture,
                           gconstpointer  data)
{
  GPtrArray *sent = mcp_scripted_transport_get_sent (fixture->transport);
  g_autoptr(GString) seen = g_string_new (NULL);
  g_autoptr(GAsyncResult) result = NULL;
  McpMessage *first;
  McpMessage *second;
  McpMessage *cancelled;
  JsonArray *uris;
  guint after;

  first = mcp_scripted_transport_wait_sent (fixture->transport, "subscriptions/listen");
  g_signal_connect (fixture->client, "resource-updated", G_CALLBACK (resource_updated_cb), seen);

  /* Subscribing opens the stream again with the resource in it. */
  after = sent->len;
  mcp_client_subscribe_async (fixture->client, "demo://a", TRUE, NULL, store_result_cb, &result);
  wait_for (result != NULL);
  g_assert_true (mcp_client_subscribe_finish (fixture->client, result, NULL));
  g_assert_null (mcp_scripted_transport_find_sent (fixture->transport, "resources/subscribe"));
  second = wait_sent_after (fixture, "subscriptions/listen", after);
  uris = mcp_json_get_array (mcp_json_get_object (mcp_message_get_params (second),
                                                  "notifications"), "resourceSubscriptions");
  g_assert_cmpuint (json_array_get_length (uris), ==, 1);
  g_assert_cmpstr (json_array_get_string_element (uris, 0), ==, "demo://a");

  /* The old stream was cancelled. */
  cancelled = wait_sent_after (fixture, "notifications/cancelled", after);
  g_assert_cmpint (json_object_get_int_member (mcp_message_get_params (cancelled), "requestId"),
                   ==, id_of (first));

  mcp_scripted_transport_receivef (fixture->transport,
                                   "{\"jsonrpc\":\"2.0\",\"method\":"
                                   "\"notifications/subscriptions/acknowledged\",\"params\":"
                                   "{\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":%"
                                   G_GINT64_FORMAT "},\"notifications\":{\"toolsListChanged\":true,"
                                   "\"resourceSubscriptions\":[\"demo://a\"]}}}", id_of (second));
  mcp_scripted_transport_receivef (fixture->transport,
                                   "{\"jsonrpc\":\"2.0\",\"method\":"
                                   "\"notifications/resources/updated\",\"params\":"
                                   "{\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":%"
                                   G_GINT64_FORMAT "},\"uri\":\"demo://a\"}}", id_of (second));
  g_assert_cmpstr (seen->str, ==, "updated:demo://a;");
  g_signal_handlers_disconnect_by_data (fixture->client, seen);
}

static void
test_modern_list_cache (Fixture       *fixture,
                        gconstpointer  data)
{
  GPtrArray *sent = mcp_scripted_transport_get_sent (fixture->transport);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) items = NULL;
  McpMessage *list;
  guint after = sent->len;

  /* The server said its tool list stays good for a minute. */
  mcp_client_list_async (fixture->client, "tools/list", NULL, store_result_cb, &result);
  list = wait_sent_after (fixture, "tools/list", after);
  reply_with (fixture, list, "{\"resultType\":\"complete\",\"tools\":[{\"name\":\"a\"}],"
                             "\"ttlMs\":60000,\"cacheScope\":\"public\"}");
  wait_for (result != NULL);
  items = mcp_client_list_finish (fixture->client, result, NULL);
  g_assert_cmpuint (items->len, ==, 1);
  g_clear_object (&result);
  g_clear_pointer (&items, g_ptr_array_unref);

  after = sent->len;
  mcp_client_list_async (fixture->client, "tools/list", NULL, store_result_cb, &result);
  wait_for (result != NULL);
  items = mcp_client_list_finish (fixture->client, result, NULL);
  g_assert_cmpuint (items->len, ==, 1);
  g_assert_cmpuint (sent->len, ==, after);

  /* A change announced makes it stale at once. */
  mcp_scripted_transport_receive (fixture->transport,
                                  "{\"jsonrpc\":\"2.0\",\"method\":"
                                  "\"notifications/tools/list_changed\"}");
  wait_sent_after (fixture, "tools/list", after);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, setup, func) \
  g_test_add ("/steward/client/" path, Fixture, NULL, setup, func, fixture_tear_down)

  ADD ("initialize", fixture_set_up, test_initialize);
  ADD ("initialize-older-request", fixture_set_up, test_initialize_older_request);
  ADD ("unsupported-version", fixture_set_up, test_unsupported_version);
  ADD ("initialize-error", fixture_set_up, test_initialize_error);
  ADD ("initialize-timeout", fixture_set_up, test_initialize_timeout);
  ADD ("initialize-undelivered", fixture_set_up, test_initialize_undelivered);
  ADD ("queue-before-ready", fixture_set_up, test_queue_before_ready);
  ADD ("ping", fixture_set_up_ready, test_ping);
  ADD ("timeout", fixture_set_up_ready, test_timeout);
  ADD ("overdue-keep-waiting", fixture_set_up_ready, test_overdue_keep_waiting);
  ADD ("overdue-stop", fixture_set_up_ready, test_overdue_stop);
  ADD ("progress-resets-timeout", fixture_set_up_ready, test_progress_resets_timeout);
  ADD ("progress-hard-limit", fixture_set_up_ready, test_progress_hard_limit);
  ADD ("progress-coalesced", fixture_set_up_ready, test_progress_coalesced);
  ADD ("cancel", fixture_set_up_ready, test_cancel);
  ADD ("odd-ids", fixture_set_up_ready, test_odd_ids);
  ADD ("pagination-and-list-changed", fixture_set_up, test_pagination_and_list_changed);
  ADD ("list-again-in-place", fixture_set_up, test_list_again_in_place);
  ADD ("server-requests-undeclared", fixture_set_up, test_server_requests_undeclared);
  ADD ("server-requests", fixture_set_up_ready, test_server_requests);
  ADD ("server-cancels", fixture_set_up_ready, test_server_cancels);
  ADD ("server-request-overload", fixture_set_up_ready, test_server_request_overload);
  ADD ("transport-closed", fixture_set_up_ready, test_transport_closed);
  ADD ("tool-result", fixture_set_up_ready, test_tool_result);
  ADD ("notifications-and-utilities", fixture_set_up_ready, test_notifications_and_utilities);
  ADD ("capability-missing", fixture_set_up, test_capability_missing);

#define ADD_MODERN(path, func) \
  g_test_add ("/steward/client/" path, Fixture, "modern", fixture_set_up_modern, func, \
              fixture_tear_down)
#define ADD_AUTO(path, func) \
  g_test_add ("/steward/client/" path, Fixture, "auto", fixture_set_up, func, fixture_tear_down)

  ADD_MODERN ("modern/discover", test_modern_discover);
  ADD_AUTO ("modern/fallback", test_modern_fallback);
  ADD_AUTO ("modern/unsupported-version", test_modern_unsupported_version);
  ADD_MODERN ("modern/input-rounds", test_modern_input_rounds);
  ADD_MODERN ("modern/input-rejected", test_modern_input_rejected);
  ADD_MODERN ("modern/input-cancelled", test_modern_input_cancelled);
  ADD_MODERN ("modern/input-reply", test_modern_input_reply);
  ADD_MODERN ("modern/input-reply-cancelled", test_modern_input_reply_cancelled);
  ADD_MODERN ("modern/round-limit", test_modern_round_limit);
  ADD_MODERN ("modern/unknown-result-type", test_modern_unknown_result_type);
  ADD_MODERN ("modern/subscriptions", test_modern_subscriptions);
  ADD_MODERN ("modern/list-cache", test_modern_list_cache);

#undef ADD
#undef ADD_MODERN
#undef ADD_AUTO

  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-providers"

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
/* libsoup as Steward's code calls it (mcp-soup.h); the test links it too,
 * for the calls of its own stand-in servers. */
#include "mcp-soup.h"
#include <string.h>

#include "steward-anthropic-provider.h"
#include "steward-manual-provider.h"
#include "steward-openai-provider.h"
#include "steward-providers.h"
#include "steward-secrets.h"

/* The providers against tests/servers/fake-llm.py, which speaks both wire
 * formats as each test scripts it and records what it was sent. Runs under
 * tests/run-in-session: keys come from a private, unlocked keyring. */

#define DEADLINE_MS 15000

/* Stored in the keyring and sent to the server; shaped like no known key,
 * so that only the providers' own scrubbing can keep it out of messages. */
#define CANARY_KEY "canary-5e1d7c90b2"

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

static void
result_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static JsonObject *
parse_object (const char *text)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;

  node = json_from_string (text, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  return json_object_ref (json_node_get_object (node));
}

static JsonObject *
member_object (JsonObject *object,
               const char *member)
{
  g_assert_nonnull (object);
  g_assert_true (json_object_has_member (object, member));
  return json_object_get_object_member (object, member);
}

static JsonArray *
member_array (JsonObject *object,
              const char *member)
{
  g_assert_nonnull (object);
  g_assert_true (json_object_has_member (object, member));
  return json_object_get_array_member (object, member);
}

static JsonObject *
element_object (JsonArray *array,
                guint      index)
{
  g_assert_cmpuint (index, <, json_array_get_length (array));
  return json_array_get_object_element (array, index);
}

/* The server */

typedef struct {
  GSubprocess      *process;
  GDataInputStream *out;
  int               port;
  char             *origin;
  gboolean          exited;
} Server;

static void
server_port_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  Server *server = user_data;
  g_autofree char *line = NULL;
  g_autoptr(JsonObject) object_ = NULL;

  line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (object), result, NULL,
                                                    NULL);
  g_assert_nonnull (line);
  object_ = parse_object (line);
  server->port = (int) json_object_get_int_member (object_, "port");
}

static Server *
server_start (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "servers", "fake-llm.py", NULL);
  g_autoptr(GError) error = NULL;
  Server *server = g_new0 (Server, 1);

  server->process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                      G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error,
                                      "/usr/bin/python3", path, NULL);
  g_assert_no_error (error);
  server->out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (server->process));
  g_data_input_stream_read_line_async (server->out, G_PRIORITY_DEFAULT, NULL, server_port_cb,
                                       server);
  WAIT_FOR (server->port != 0, DEADLINE_MS);
  server->origin = g_strdup_printf ("http://127.0.0.1:%d", server->port);

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
  g_output_stream_close (g_subprocess_get_stdin_pipe (server->process), NULL, NULL);
  g_subprocess_wait_async (server->process, NULL, server_exited_cb, &server->exited);
  WAIT_FOR (server->exited, DEADLINE_MS);

  g_object_unref (server->process);
  g_object_unref (server->out);
  g_free (server->origin);
  g_free (server);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Server, server_free)

static GBytes *
server_fetch (Server     *server,
              const char *method,
              const char *path,
              const char *body)
{
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autofree char *url = g_strconcat (server->origin, path, NULL);
  g_autoptr(SoupMessage) message = soup_message_new (method, url);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  GBytes *bytes;

  if (body != NULL)
    {
      g_autoptr(GBytes) data = g_bytes_new (body, strlen (body));

      soup_message_set_request_body_from_bytes (message, "application/json", data);
    }

  soup_session_send_and_read_async (session, message, G_PRIORITY_DEFAULT, NULL, result_cb,
                                    &result);
  WAIT_FOR (result != NULL, DEADLINE_MS);
  bytes = soup_session_send_and_read_finish (session, result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (soup_message_get_status (message), ==, 200);

  return bytes;
}

static void
server_script (Server     *server,
               const char *script)
{
  g_autoptr(GBytes) reply = server_fetch (server, "POST", "/_script", script);
}

static JsonArray *
server_requests (Server *server)
{
  g_autoptr(GBytes) reply = server_fetch (server, "GET", "/_requests", NULL);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = g_strndup (g_bytes_get_data (reply, NULL), g_bytes_get_size (reply));

  node = json_from_string (text, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_ARRAY (node));
  return json_array_ref (json_node_get_array (node));
}

/* The request the server received at @index. */
static JsonObject *
server_request (Server *server,
                guint   index)
{
  g_autoptr(JsonArray) requests = server_requests (server);

  return json_object_ref (element_object (requests, index));
}

/* A port nothing listens on, found by binding one and letting it go. */
static int
closed_port (void)
{
  g_autoptr(GSocket) socket = NULL;
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GError) error = NULL;
  int port;

  socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP,
                         &error);
  g_assert_no_error (error);
  g_socket_bind (socket, address, FALSE, &error);
  g_assert_no_error (error);
  bound = g_socket_get_local_address (socket, &error);
  g_assert_no_error (error);
  port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  g_socket_close (socket, NULL);

  return port;
}

/* The keyring */

static void
store_key (StewardSecrets *secrets,
           const char     *id,
           const char     *value)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *stored = NULL;

  steward_secrets_store_async (secrets, id, STEWARD_SECRET_KIND_PROVIDER_KEY, "test key", value,
                               NULL, result_cb, &result);
  WAIT_FOR (result != NULL, DEADLINE_MS);
  stored = steward_secrets_store_finish (secrets, result, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stored, ==, id);
}

static gboolean
key_exists (StewardSecrets *secrets,
            const char     *id)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  char *value;

  steward_secrets_lookup_async (secrets, id, NULL, result_cb, &result);
  WAIT_FOR (result != NULL, DEADLINE_MS);
  value = steward_secrets_lookup_finish (secrets, result, &error);
  if (value == NULL)
    {
      g_assert_error (error, STEWARD_SECRETS_ERROR, STEWARD_SECRETS_ERROR_NOT_FOUND);
      return FALSE;
    }

  steward_secret_value_free (value);
  return TRUE;
}

/* A chat turn */

typedef struct {
  GString      *text;
  guint         n_text;
  GPtrArray    *tool_calls;       /* JsonObject */
  GPtrArray    *usages;           /* JsonObject */
  GCancellable *cancel_on_text;   /* cancelled at the first delta, when set */
  gint64        cancelled_at;
  gboolean      destroyed;
} Events;

static void
events_init (Events *events)
{
  memset (events, 0, sizeof *events);
  events->text = g_string_new (NULL);
  events->tool_calls = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
  events->usages = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
}

static void
events_clear (Events *events)
{
  g_string_free (events->text, TRUE);
  g_ptr_array_unref (events->tool_calls);
  g_ptr_array_unref (events->usages);
}

static void
event_cb (StewardProviderEvent  event,
          JsonObject           *data,
          gpointer              user_data)
{
  Events *events = user_data;

  g_assert_false (events->destroyed);

  switch (event)
    {
    case STEWARD_PROVIDER_EVENT_TEXT:
      g_string_append (events->text, json_object_get_string_member (data, "text"));
      events->n_text++;
      if (events->cancel_on_text != NULL && events->cancelled_at == 0)
        {
          events->cancelled_at = g_get_monotonic_time ();
          g_cancellable_cancel (events->cancel_on_text);
        }
      break;
    case STEWARD_PROVIDER_EVENT_TOOL_CALL:
      g_ptr_array_add (events->tool_calls, json_object_ref (data));
      break;
    case STEWARD_PROVIDER_EVENT_USAGE:
      g_ptr_array_add (events->usages, json_object_ref (data));
      break;
    default:
      g_assert_not_reached ();
    }
}

static void
events_destroyed_cb (gpointer user_data)
{
  ((Events *) user_data)->destroyed = TRUE;
}

static JsonObject *
chat (StewardProvider  *provider,
      const char       *request,
      Events           *events,
      GCancellable     *cancellable,
      GError          **error)
{
  g_autoptr(JsonObject) object = parse_object (request);
  g_autoptr(GAsyncResult) result = NULL;
  JsonObject *answer;

  steward_provider_chat_async (provider, object, event_cb, events, events_destroyed_cb,
                               cancellable, result_cb, &result);
  WAIT_FOR (result != NULL, DEADLINE_MS);
  answer = steward_provider_chat_finish (provider, result, error);
  g_assert_true (events->destroyed);

  return answer;
}

/* Runs a turn that must fail, and returns its error. */
static GError *
chat_error (StewardProvider *provider,
            const char      *request)
{
  g_autoptr(JsonObject) answer = NULL;
  GError *error = NULL;
  Events events;

  events_init (&events);
  answer = chat (provider, request, &events, NULL, &error);
  g_assert_null (answer);
  g_assert_nonnull (error);
  g_assert_null (strstr (error->message, CANARY_KEY));
  events_clear (&events);

  return error;
}

static GPtrArray *
list_models (StewardProvider  *provider,
             GError          **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  steward_provider_list_models_async (provider, NULL, result_cb, &result);
  WAIT_FOR (result != NULL, DEADLINE_MS);
  return steward_provider_list_models_finish (provider, result, error);
}

static const char *
answer_text (JsonObject *answer)
{
  JsonObject *block = element_object (member_array (answer, "content"), 0);

  g_assert_cmpstr (json_object_get_string_member (block, "type"), ==, "text");
  return json_object_get_string_member (block, "text");
}

static StewardProvider *
openai_new (Server         *server,
            const char     *key_id,
            StewardSecrets *secrets)
{
  g_autofree char *base = g_strconcat (server->origin, "/v1/", NULL);

  return STEWARD_PROVIDER (steward_openai_provider_new ("fake", "Fake LLM", base, key_id,
                                                        secrets));
}

static StewardProvider *
anthropic_new (Server         *server,
               const char     *key_id,
               StewardSecrets *secrets)
{
  return STEWARD_PROVIDER (steward_anthropic_provider_new ("fake-anthropic", "Fake Claude",
                                                           server->origin, key_id, secrets));
}

#define SIMPLE_REQUEST \
  "{\"model\": \"fake-model\", \"messages\": [{\"role\": \"user\", \"content\": " \
  "{\"type\": \"text\", \"text\": \"Hi\"}}], \"maxTokens\": 100}"

/* OpenAI-compatible */

static void
test_openai_text (void)
{
  g_autoptr(Server) server = server_start ();
  g_autoptr(StewardProvider) provider = openai_new (server, NULL, NULL);
  g_autoptr(JsonObject) answer = NULL;
  g_autoptr(JsonObject) sent = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *body;
  JsonObject *usage;
  JsonArray *messages;
  Events events;

  server_script (server,
                 "{\"responses\": [{\"model\": \"fake-model-v2\", \"stream\": ["
                 "{\"text\": \"Hel\"}, {\"text\": \"lo, \"}, {\"raw\": \": keep-alive\\n\\n\"},"
                 "{\"text\": \"wörld\"}, {\"finish\": \"stop\"},"
                 "{\"usage\": {\"prompt_tokens\": 11, \"completion_tokens\": 3}},"
                 "{\"done\": true}]}]}");

  events_init (&events);
  answer = chat (provider,
                 "{\"model\": \"fake-model\", \"systemPrompt\": \"Be brief.\","
                 " \"messages\": [{\"role\": \"user\", \"content\": [{\"type\": \"text\","
                 " \"text\": \"Say hello\"}]}], \"maxTokens\": 50, \"temperature\": 0.5,"
                 " \"stopSequences\": [\"END\"]}",
                 &events, NULL, &error);
  g_assert_no_error (error);

  /* The deltas came one by one, in order, and make up the answer. */
  g_assert_cmpuint (events.n_text, ==, 3);
  g_assert_cmpstr (events.text->str, ==, "Hello, wörld");
  g_assert_cmpstr (answer_text (answer), ==, "Hello, wörld");
  g_assert_cmpuint (json_array_get_length (member_array (answer, "content")), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (answer, "role"), ==, "assistant");
  g_assert_cmpstr (json_object_get_string_member (answer, "model"), ==, "fake-model-v2");
  g_assert_cmpstr (json_object_get_string_member (answer, "stopReason"), ==, "endTurn");
  usage = member_object (answer, "usage");
  g_assert_cmpint (json_object_get_int_member (usage, "inputTokens"), ==, 11);
  g_assert_cmpint (json_object_get_int_member (usage, "outputTokens"), ==, 3);
  g_assert_cmpuint (events.usages->len, ==, 1);
  g_assert_cmpint (json_object_get_int_member (events.usages->pdata[0], "outputTokens"), ==, 3);
  g_assert_cmpuint (events.tool_calls->len, ==, 0);

  /* What went out. */
  sent = server_request (server, 0);
  g_assert_cmpstr (json_object_get_string_member (sent, "path"), ==, "/v1/chat/completions");
  g_assert_false (json_object_has_member (member_object (sent, "headers"), "authorization"));
  body = member_object (sent, "body");
  g_assert_cmpstr (json_object_get_string_member (body, "model"), ==, "fake-model");
  g_assert_true (json_object_get_boolean_member (body, "stream"));
  g_assert_true (json_object_get_boolean_member (member_object (body, "stream_options"),
                                                 "include_usage"));
  g_assert_cmpint (json_object_get_int_member (body, "max_tokens"), ==, 50);
  g_assert_cmpfloat (json_object_get_double_member (body, "temperature"), ==, 0.5);
  g_assert_cmpstr (json_array_get_string_element (member_array (body, "stop"), 0), ==, "END");
  g_assert_false (json_object_has_member (body, "tools"));
  messages = member_array (body, "messages");
  g_assert_cmpuint (json_array_get_length (messages), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (element_object (messages, 0), "role"), ==,
                   "system");
  g_assert_cmpstr (json_object_get_string_member (element_object (messages, 0), "content"), ==,
                   "Be brief.");
  /* Text alone goes as a plain string, which every server takes. */
  g_assert_cmpstr (json_object_get_string_member (element_object (messages, 1), "content"), ==,
                   "Say hello");

  events_clear (&events);
  g_assert_finalize_object (g_steal_pointer (&provider));
}

static void
test_openai_tool_calls (void)
{
  g_autoptr(Server) server = server_start ();
  g_autoptr(StewardProvider) provider = openai_new (server, NULL, NULL);
  g_autoptr(JsonObject) answer = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *content;
  JsonObject *call;
  JsonObject *input;
  Events events;

  /* Two calls whose argument fragments interleave, split mid-string and
   * mid-escape. */
  server_script (server,
                 "{\"responses\": [{\"stream\": ["
                 "{\"text\": \"Let me look.\"},"
                 "{\"tool_call\": {\"index\": 0, \"id\": \"call_a\", \"name\": \"files__read\","
                 "  \"arguments\": \"\"}},"
                 "{\"tool_call\": {\"index\": 0, \"arguments\": \"{\\\"pa\"}},"
                 "{\"tool_call\": {\"index\": 1, \"id\": \"call_b\", \"name\": \"web__fetch\","
                 "  \"arguments\": \"{\\\"url\\\": \\\"https://exa\"}},"
                 "{\"tool_call\": {\"index\": 0, \"arguments\": \"th\\\": \\\"/tmp/a \\\\\\\"\"}},"
                 "{\"tool_call\": {\"index\": 0, \"arguments\": \"q\\\\\\\"\\\", \\\"n\\\": [1, 2]}\"}},"
                 "{\"tool_call\": {\"index\": 1, \"arguments\": \"mple.org\\\"}\"}},"
                 "{\"finish\": \"tool_calls\"},"
                 "{\"usage\": {\"prompt_tokens\": 5, \"completion_tokens\": 9}},"
                 "{\"done\": true}]}]}");

  events_init (&events);
  answer = chat (provider,
                 "{\"model\": \"fake-model\", \"messages\": [{\"role\": \"user\", \"content\": "
                 "{\"type\": \"text\", \"text\": \"Read it\"}}], \"tools\": [{\"name\": "
                 "\"files__read\", \"description\": \"Reads\", \"inputSchema\": {\"type\": "
                 "\"object\"}}, {\"name\": \"web__fetch\"}], \"toolChoice\": {\"mode\": \"auto\"}}",
                 &events, NULL, &error);
  g_assert_no_error (error);

  g_assert_cmpuint (events.tool_calls->len, ==, 2);
  call = events.tool_calls->pdata[0];
  g_assert_cmpstr (json_object_get_string_member (call, "type"), ==, "tool_use");
  g_assert_cmpstr (json_object_get_string_member (call, "id"), ==, "call_a");
  g_assert_cmpstr (json_object_get_string_member (call, "name"), ==, "files__read");
  input = member_object (call, "input");
  g_assert_cmpstr (json_object_get_string_member (input, "path"), ==, "/tmp/a \"q\"");
  g_assert_cmpuint (json_array_get_length (member_array (input, "n")), ==, 2);
  call = events.tool_calls->pdata[1];
  g_assert_cmpstr (json_object_get_string_member (call, "id"), ==, "call_b");
  g_assert_cmpstr (json_object_get_string_member (member_object (call, "input"), "url"), ==,
                   "https://example.org");

  g_assert_cmpstr (json_object_get_string_member (answer, "stopReason"), ==, "toolUse");
  content = member_array (answer, "content");
  g_assert_cmpuint (json_array_get_length (content), ==, 3);
  g_assert_cmpstr (json_object_get_string_member (element_object (content, 0), "text"), ==,
                   "Let me look.");
  g_assert_cmpstr (json_object_get_string_member (element_object (content, 1), "id"), ==,
                   "call_a");
  g_assert_cmpstr (json_object_get_string_member (element_object (content, 2), "name"), ==,
                   "web__fetch");

  events_clear (&events);
  g_assert_finalize_object (g_steal_pointer (&provider));
}

static void
test_openai_bad_arguments (void)
{
  g_autoptr(Server) server = server_start ();
  g_autoptr(StewardProvider) provider = openai_new (server, NULL, NULL);
  g_autoptr(GError) error = NULL;

  server_script (server,
                 "{\"responses\": [{\"stream\": ["
                 "{\"tool_call\": {\"index\": 0, \"id\": \"c\", \"name\": \"notes__add\","
                 "  \"arguments\": \"{\\\"text\\\": \"}},"
                 "{\"tool_call\": {\"index\": 0, \"arguments\": \"oops}\"}},"
                 "{\"finish\": \"tool_calls\"}, {\"done\": true}]}]}");

  error = chat_error (provider, SIMPLE_REQUEST);
  g_assert_error (error, STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_BAD_RESPONSE);
  g_assert_nonnull (strstr (error->message, "notes__add"));

  g_assert_finalize_object (g_steal_pointer (&provider));
}

static void
test_openai_request_shape (void)
{
  g_autoptr(Server) server = server_start ();
  g_autoptr(StewardProvider) provider = openai_new (server, NULL, NULL);
  g_autoptr(JsonObject) answer = NULL;
  g_autoptr(JsonObject) sent = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *body;
  JsonArray *messages;
  JsonArray *parts;
  JsonObject *message;
  JsonObject *call;
  JsonObject *tool;
  Events events;

  server_script (server, "{\"responses\": [{\"stream\": [{\"text\": \"A cat.\"},"
                         "{\"finish\": \"stop\"}, {\"done\": true}]}]}");

  events_init (&events);
  answer = chat (provider,
                 "{\"model\": \"fake-vision\", \"messages\": ["
                 " {\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\":"
                 "  \"What is this?\"}, {\"type\": \"image\", \"data\": \"iVBORw0KGgo=\", \"mimeType\":"
                 "  \"image/png\"}]},"
                 " {\"role\": \"assistant\", \"content\": [{\"type\": \"text\", \"text\":"
                 "  \"Let me check.\"}, {\"type\": \"tool_use\", \"id\": \"call_1\", \"name\":"
                 "  \"vision__label\", \"input\": {\"x\": 1}}]},"
                 " {\"role\": \"user\", \"content\": [{\"type\": \"tool_result\", \"toolUseId\":"
                 "  \"call_1\", \"content\": [{\"type\": \"text\", \"text\": \"cat\"}, {\"type\":"
                 "  \"image\", \"data\": \"R0lGODlh\", \"mimeType\": \"image/gif\"}]}]}],"
                 " \"tools\": [{\"name\": \"vision__label\", \"description\": \"Labels\","
                 "  \"inputSchema\": {\"type\": \"object\", \"properties\": {\"x\": {\"type\":"
                 "  \"integer\"}}}}], \"toolChoice\": {\"mode\": \"required\"}}",
                 &events, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (answer_text (answer), ==, "A cat.");

  sent = server_request (server, 0);
  body = member_object (sent, "body");
  messages = member_array (body, "messages");
  g_assert_cmpuint (json_array_get_length (messages), ==, 4);

  /* The image as a data: URI beside the text. */
  parts = member_array (element_object (messages, 0), "content");
  g_assert_cmpuint (json_array_get_length (parts), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (element_object (parts, 0), "type"), ==, "text");
  g_assert_cmpstr (json_object_get_string_member (element_object (parts, 1), "type"), ==,
                   "image_url");
  g_assert_cmpstr (json_object_get_string_member (member_object (element_object (parts, 1),
                                                                 "image_url"), "url"), ==,
                   "data:image/png;base64,iVBORw0KGgo=");

  /* The call, with its arguments as a JSON string. */
  message = element_object (messages, 1);
  g_assert_cmpstr (json_object_get_string_member (message, "role"), ==, "assistant");
  g_assert_cmpstr (json_object_get_string_member (message, "content"), ==, "Let me check.");
  call = element_object (member_array (message, "tool_calls"), 0);
  g_assert_cmpstr (json_object_get_string_member (call, "id"), ==, "call_1");
  g_assert_cmpstr (json_object_get_string_member (call, "type"), ==, "function");
  g_assert_cmpstr (json_object_get_string_member (member_object (call, "function"), "name"), ==,
                   "vision__label");
  g_assert_cmpstr (json_object_get_string_member (member_object (call, "function"), "arguments"),
                   ==, "{\"x\":1}");

  /* The result as a tool message; its image in a user message after it. */
  message = element_object (messages, 2);
  g_assert_cmpstr (json_object_get_string_member (message, "role"), ==, "tool");
  g_assert_cmpstr (json_object_get_string_member (message, "tool_call_id"), ==, "call_1");
  g_assert_cmpstr (json_object_get_string_member (message, "content"), ==, "cat");
  message = element_object (messages, 3);
  g_assert_cmpstr (json_object_get_string_member (message, "role"), ==, "user");
  parts = member_array (message, "content");
  g_assert_cmpstr (json_object_get_string_member (member_object (element_object (parts, 0),
                                                                 "image_url"), "url"), ==,
                   "data:image/gif;base64,R0lGODlh");

  tool = element_object (member_array (body, "tools"), 0);
  g_assert_cmpstr (json_object_get_string_member (tool, "type"), ==, "function");
  g_assert_cmpstr (json_object_get_string_member (member_object (tool, "function"), "name"), ==,
                   "vision__label");
  g_assert_cmpstr (json_object_get_string_member (member_object (member_object (tool, "function"),
                                                                 "parameters"), "type"), ==,
                   "object");
  g_assert_cmpstr (json_object_get_string_member (body, "tool_choice"), ==, "required");

  events_clear (&events);
  g_assert_finalize_object (g_steal_pointer (&provider));
}

static void
test_openai_unsupported (void)
{
  g_autoptr(Server) server = server_start ();
  g_autoptr(StewardProvider) provider = openai_new (server, NULL, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonArray) requests = NULL;

  error = chat_error (provider,
                      "{\"messages\": [{\"role\": \"user\", \"content\": {\"type\": \"audio\","
                      " \"data\": \"AAAA\", \"mimeType\": \"audio/ogg\"}}]}");
  g_assert_error (error, STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (error->message, "Fake LLM"));

  /* Refused before anything was sent. */
  requests = server_requests (server);
  g_assert_cmpuint (json_array_get_length (requests), ==, 0);

  g_assert_finalize_object (g_steal_pointer (&provider));
}

static void
test_openai_stop_reasons (void)
{
  const struct {
    const char *finish;
    const char *expected;
  } cases[] = {
    { "stop", "endTurn" },
    { "length", "maxTokens" },
    { "content_filter", "contentFilter" },
  };
  g_autoptr(Server) server = server_start ();
  g_autoptr(StewardProvider) provider = openai_new (server, NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *script = g_strdup_printf ("{\"responses\": [{\"stream\": ["
                                                 "{\"text\": \"x\"}, {\"finish\": \"%s\"},"
                                                 "{\"done\": true}]}]}", cases[i].finish);
      g_autoptr(JsonObject) answer = NULL;
      g_autoptr(GError) error = NULL;
      Events events;

      server_script (server, script);
      events_init (&events);
      answer = chat (provider, SIMPLE_REQUEST, &events, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (json_object_get_string_member (answer, "stopReason"), ==,
                       cases[i].expected);
      /* No usage reported, none made up. */
      g_assert_false (json_object_has_member (answer, "usage"));
      events_clear (&events);
    }

  g_assert_finalize_object (g_steal_pointer (&provider));
}

/* A server that does not stream answers with one JSON body. */
static void
test_openai_whole_reply (void)
{
  g_autoptr(Server) server = server_start ();
  g_autoptr(StewardProvider) provider = openai_new (server, NULL, NULL);
  g_autoptr(JsonObject) answer = NULL;
  g_autoptr(GError) error = NULL;
  Events events;

  server_script (server,
                 "{\"responses\": [{\"body\": {\"id\": \"x\", \"object\": \"chat.completion\","
                 " \"model\": \"fake-model\", \"choices\": [{\"index\": 0, \"message\": {\"role\":"
                 " \"assistant\", \"content\": \"Whole.\", \"tool_calls\": [{\"id\": \"t1\","
                 " \"type\": \"function\", \"function\": {\"name\": \"a__b\", \"arguments\":"
                 " \"{\\\"k\\\": true}\"}}]}, \"finish_reason\": \"tool_calls\"}], \"usage\":"
                 " {\"prompt_tokens\": 2, \"completion_tokens\": 4}}}]}");

  events_init (&events);
  answer = chat (provider, SIMPLE_REQUEST, &events, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (events.text->str, ==, "Whole.");
  g_assert_cmpuint (events.tool_calls->len, ==, 1);
  g_assert_true (json_object_get_boolean_member (member_object (events.tool_calls->pdata[0],
                                                                "input"), "k"));
  g_assert_cmpstr (json_object_get_string_member (answer, "stopReason"), ==, "toolUse");
  g_assert_cmpint (json_object_get_int_member (member_object (answer, "usage"), "outputTokens"),
                   ==, 4);

  events_clear (&events);
  g_assert_finalize_object (g_steal_pointer (&provider));
}

static void
test_openai_key (void)
{
  g_autoptr(Server) server = server_start ();
  g_autoptr(StewardSecrets) secrets = steward_secrets_new ();
  g_autoptr(StewardProvider) provider = NULL;
  g_autoptr(JsonObject) answer = NULL;
  g_autoptr(JsonObject) sent = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) models = NULL;
  Events events;

  store_key (secrets, "provider.fake", CANARY_KEY);
  provider = openai_new (server, "provider.fake", secrets);

  server_script (server, "{\"responses\": [{\"stream\": [{\"text\": \"ok\"},"
                         "{\"finish\": \"stop\"}, {\"done\": true}]}]}");
  events_init (&events);
  answer = chat (provider, SIMPLE_REQUEST, &events, NULL, &error);
  g_assert_no_error (error);
  events_clear (&events);

  sent = server_request (server, 0);
  g_assert_cmpstr (json_object_get_string_member (member_object (sent, "headers"),
                                                  "authorization"), ==, "Bearer " CANARY_KEY);

  /* The key goes with the model list too. */
  models = list_models (provider, &error);
  g_assert_no_error (error);
  g_clear_pointer (&sent, json_object_unref);
  sent = server_request (server, 1);
  g_assert_cmpstr (json_object_get_string_member (sent, "path"), ==, "/v1/models");
  g_assert_cmpstr (json_object_get_string_member (member_object (sent, "headers"),
                                                  "authorization"), ==, "Bearer " CANARY_KEY);

  g_assert_finalize_object (g_steal_pointer (&provider));
  g_assert_finalize_object (g_steal_pointer (&secrets));
}

static void
test_openai_no_key (void)
{
  g_autoptr(Server) server = server_start ();
  g_autoptr(StewardSecrets) secrets = steward_secrets_new ();
  g_autoptr(StewardProvider) provider = openai_new (server, "provider.missing", secrets);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonArray) requests = NULL;

  error = chat_error (provider, SIMPLE_REQUEST);
  g_assert_error (error, STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_NO_KEY);
  g_assert_nonnull (strstr (error->message, "Fake LLM"));
  g_assert_nonnull (strstr (error->message, "Preferences"));

  requests = server_requests (server);
  g_assert_cmpuint (json_array_get_length (requests), ==, 0);

  g_assert_finalize_object (g_steal_pointer (&provider));
}

static void
test_openai_unauthorized (void)
{
  g_autoptr(Server) server = server_start ();
  g_autoptr(StewardSecrets) secrets = steward_secrets_new ();
  g_autoptr(StewardProvider) provider = NULL;
  g_autoptr(GError) error = NULL;

  store_key (secrets, "provider.fake", CANARY_KEY);
  provider = openai_new (server, "provider.fake", secrets);

  /* The server quotes the key back, as some do. */
  server_script (server,
                 "{\"responses\": [{\"status\": 401, \"body\": {\"error\": {\"message\":"
                 " \"Incorrect API key provided: " CANARY_KEY "\", \"type\":"
                 " \"invalid_request_error\", \"code\": \"invalid_api_key\"}}}]}");
  error = chat_error (provider, SIMPLE_REQUEST);
  g_assert_error (error, STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_UNAUTHORIZED);
  g_assert_nonnull (strstr (error->message, "“Fake LLM”"));
  g_assert_nonnull (strstr (error->message, "401"));
  g_assert_nonnull (strstr (error->message, "Preferences → Providers"));
  g_test_message ("401: %s", error->message);

  g_assert_finalize_object (g_steal_pointer (&provider));
  g_assert_finalize_object (g_steal_pointer (&secrets));
}

static void
test_openai_rate_limited (void)
{
  g_autoptr(Server) server = server_start ();
  g_autoptr(StewardProvider) provider = openai_new (server, NULL, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) error2 = NULL;

  server_script (server,
                 "{\"responses\": [{\"status\": 429, \"headers\": {\"Retry-After\": \"17\"},"
                 " \"body\": {\"error\": {\"message\": \"Rate limit reached\"}}},"
                 " {\"status\": 429, \"body\": \"slow down\"}]}");
  error = chat_error (provider, SIMPLE_REQUEST);
  g_assert_error (error, STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_RATE_LIMITED);
  g_assert_nonnull (strstr (error->message, "Fake LLM"));
  g_assert_nonnull (strstr (error->message, "17 seconds"));
  g_assert_nonnull (strstr (error->message, "Rate limit reached"));
  g_test_message ("429: %s", error->message);

  error2 = chat_error (provider, SIMPLE_REQUEST);
  g_assert_error (error2, STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_RATE_LIMITED);
  g_assert_nonnull (strstr (error2->message, "later"));

  g_assert_finalize_object (g_steal_pointer (&provider));
}

static void
test_openai_server_error (void)
{
  g_autoptr(Server) server = server_start ();
  g_autoptr(StewardSecrets) secrets = steward_secrets_new ();
  g_autoptr(StewardProvider) provider = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) error2 = NULL;

  store_key (secrets, "provider.fake", CANARY_KEY);
  provider = openai_new (server, "provider.fake", secrets);

  server_script (server,
                 "{\"responses\": [{\"status\": 500, \"body\": {\"error\": {\"message\":"
                 " \"CUDA out of memory with key " CANARY_KEY "\\nand more\"}}},"
                 " {\"stream\": [{\"text\": \"par\"}, {\"data\": {\"error\": {\"message\":"
                 " \"worker died\"}}}]}]}");
  error = chat_error (provider, SIMPLE_REQUEST);
  g_assert_error (error, STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_SERVER);
  g_assert_nonnull (strstr (error->message, "Fake LLM"));
  g_assert_nonnull (strstr (error->message, "500"));
  g_assert_nonnull (strstr (error->message, "CUDA out of memory"));
  g_assert_null (strchr (error->message, '\n'));
  g_test_message ("500: %s", error->message);

  /* An error inside the stream. */
  error2 = chat_error (provider, SIMPLE_REQUEST);
  g_assert_error (error2, STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_SERVER);
  g_assert_nonnull (strstr (error2->message, "worker died"));

  g_assert_finalize_object (g_steal_pointer (&provider));
  g_assert_finalize_object (g_steal_pointer (&secrets));
}

static void
test_openai_model_not_found (void)
{
  g_autoptr(Server) server = server_start ();
  g_autoptr(StewardProvider) provider = openai_new (server, NULL, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) error2 = NULL;

  server_script (server,
                 "{\"responses\": [{\"status\": 404, \"body\": {\"error\": {\"message\":"
                 " \"model \\\"nope:7b\\\" not found, try pulling it first\", \"type\":"
                 " \"api_error\"}}}, {\"status\": 404, \"body\": \"404 page not found\"}]}");
  error = chat_error (provider,
                      "{\"model\": \"nope:7b\", \"messages\": [{\"role\": \"user\", \"content\":"
                      " {\"type\": \"text\", \"text\": \"Hi\"}}]}");
  g_assert_error (error, STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_MODEL_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "“nope:7b”"));
  g_assert_nonnull (strstr (error->message, "Fake LLM"));
  g_test_message ("404: %s", error->message);

  /* A 404 that says nothing of models is a wrong address. */
  error2 = chat_error (provider, SIMPLE_REQUEST);
  g_assert_error (error2, STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_BAD_RESPONSE);
  g_assert_nonnull (strstr (error2->message, "base URL"));

  g_assert_finalize_object (g_steal_pointer (&provider));
}

static void
test_openai_network (void)
{
  int port = closed_port ();
  g_autofree char *base = g_strdup_printf ("http://127.0.0.1:%d/v1", port);
  g_autoptr(StewardProvider) provider = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) models = NULL;
  g_autofree char *where = NULL;

  provider = STEWARD_PROVIDER (steward_openai_provider_new ("gone", "Gone", base, NULL, NULL));
  error = chat_error (provider, SIMPLE_REQUEST);
  g_assert_error (error, STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_NETWORK);
  where = g_strdup_printf ("Could not reach “Gone” at http://127.0.0.1:%d/v1", port);
  g_assert_true (g_str_has_prefix (error->message, where));
  g_test_message ("network: %s", error->message);

  g_clear_error (&error);
  models = list_models (provider, &error);
  g_assert_null (models);
  g_assert_error (error, STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_NETWORK);

  g_assert_finalize_object (g_steal_pointer (&provider));
}

static void
test_openai_broken_stream (void)
{
  g_autoptr(Server) server = server_start ();
  g_autoptr(StewardProvider) provider = openai_new (server, NULL, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) error2 = NULL;

  server_script (server,
                 "{\"responses\": [{\"stream\": [{\"text\": \"Half an ans\"}, {\"close\": true}]},"
                 " {\"stream\": [{\"text\": \"Ends without saying so\"}]}]}");

  error = chat_error (provider, SIMPLE_REQUEST);
  g_assert_error (error, STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_NETWORK);
  g_assert_nonnull (strstr (error->message, "broke off"));

  /* A stream that ends cleanly but without a finish is cut all the same. */
  error2 = chat_error (provider, SIMPLE_REQUEST);
  g_assert_error (error2, STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_NETWORK);
  g_assert_nonnull (strstr (error2->message, "broke off"));

  g_assert_finalize_object (g_steal_pointer (&provider));
}

static gboolean
request_disconnected (Server *server)
{
  g_autoptr(JsonObject) request = server_request (server, 0);

  return json_object_get_boolean_member (request, "disconnected");
}

static void
test_openai_cancel (void)
{
  g_autoptr(Server) server = server_start ();
  g_autoptr(StewardProvider) provider = openai_new (server, NULL, NULL);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GString) script = g_string_new ("{\"responses\": [{\"stream\": [{\"text\": \"a\"}");
  g_autoptr(JsonObject) answer = NULL;
  g_autoptr(GError) error = NULL;
  gint64 elapsed_us;
  Events events;

  /* A slow stream: ten seconds if it ran to its end. */
  for (guint i = 0; i < 200; i++)
    g_string_append (script, ", {\"delay\": 0.05}, {\"text\": \"b\"}");
  g_string_append (script, ", {\"finish\": \"stop\"}, {\"done\": true}]}]}");
  server_script (server, script->str);

  events_init (&events);
  events.cancel_on_text = cancellable;
  answer = chat (provider, SIMPLE_REQUEST, &events, cancellable, &error);
  elapsed_us = g_get_monotonic_time () - events.cancelled_at;
  g_assert_null (answer);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (events.n_text, ==, 1);
  /* One text of 201 arrived: the answer ended at the cancellation, not at
   * the end of the stream. How soon after is the machine's figure. */
  g_test_message ("cancelled → finished in %" G_GINT64_FORMAT " µs", elapsed_us);

  /* The server finds the connection gone at its next write. */
  WAIT_FOR (request_disconnected (server), DEADLINE_MS);

  events_clear (&events);
  g_assert_finalize_object (g_steal_pointer (&provider));
}

/* What a provider sends is capped: one event, the whole answer, a reply
 * that says it is too long, and nesting that would crash a parser. */
static void
test_openai_caps (void)
{
  g_autoptr(Server) server = server_start ();
  g_autoptr(StewardProvider) provider = openai_new (server, NULL, NULL);
  g_autoptr(GString) script = g_string_new ("{\"responses\": [");
  g_autoptr(GError) event_error = NULL;
  g_autoptr(GError) answer_error = NULL;
  g_autoptr(GError) reply_error = NULL;
  g_autoptr(GError) nesting_error = NULL;

  g_string_append (script, "{\"stream\": [{\"text\": \"a\"}, {\"raw\": \"data: \"},"
                           " {\"raw_fill\": 1100000}, {\"raw\": \"\\n\\n\"}]},");
  g_string_append (script, "{\"stream\": [");
  for (guint i = 0; i < 9; i++)
    g_string_append (script, "{\"filler\": 1000000}, ");
  g_string_append (script, "{\"finish\": \"stop\"}, {\"done\": true}]},");
  g_string_append (script, "{\"body_fill\": 9000000},");
  g_string_append (script, "{\"stream\": [{\"raw\": \"data: \"}, {\"raw_fill\": 100000,"
                           " \"char\": \"[\"}, {\"raw\": \"\\n\\n\"}]}]}");
  server_script (server, script->str);

  event_error = chat_error (provider, SIMPLE_REQUEST);
  g_assert_error (event_error, STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_BAD_RESPONSE);
  g_test_message ("event: %s", event_error->message);
  g_assert_nonnull (strstr (event_error->message, "one event larger than 1.0"));

  answer_error = chat_error (provider, SIMPLE_REQUEST);
  g_assert_error (answer_error, STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_BAD_RESPONSE);
  g_assert_nonnull (strstr (answer_error->message, "larger than 8.0"));

  reply_error = chat_error (provider, SIMPLE_REQUEST);
  g_assert_error (reply_error, STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_BAD_RESPONSE);
  g_assert_nonnull (strstr (reply_error->message, "larger than 8.0"));

  nesting_error = chat_error (provider, SIMPLE_REQUEST);
  g_assert_error (nesting_error, STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_BAD_RESPONSE);
  g_test_message ("nesting: %s", nesting_error->message);

  g_assert_finalize_object (g_steal_pointer (&provider));
}

/* Events that came in one piece of the stream stop at the cancel too. */
static void
test_openai_cancel_within_chunk (void)
{
  g_autoptr(Server) server = server_start ();
  g_autoptr(StewardProvider) provider = openai_new (server, NULL, NULL);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(JsonObject) answer = NULL;
  g_autoptr(GError) error = NULL;
  Events events;

  server_script (server,
                 "{\"responses\": [{\"stream\": [{\"raw\": \"data: {\\\"choices\\\": [{\\\"index\\\":"
                 " 0, \\\"delta\\\": {\\\"content\\\": \\\"one\\\"}}]}\\n\\ndata: {\\\"choices\\\":"
                 " [{\\\"index\\\": 0, \\\"delta\\\": {\\\"content\\\": \\\"two\\\"}}]}\\n\\n\"},"
                 " {\"delay\": 1}, {\"finish\": \"stop\"}, {\"done\": true}]}]}");

  events_init (&events);
  events.cancel_on_text = cancellable;
  answer = chat (provider, SIMPLE_REQUEST, &events, cancellable, &error);
  g_assert_null (answer);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (events.n_text, ==, 1);
  g_assert_cmpstr (events.text->str, ==, "one");

  events_clear (&events);
  g_assert_finalize_object (g_steal_pointer (&provider));
}

static void
test_openai_list_models (void)
{
  g_autoptr(Server) server = server_start ();
  g_autoptr(StewardProvider) provider = openai_new (server, NULL, NULL);
  g_autoptr(GPtrArray) models = NULL;
  g_autoptr(GPtrArray) tags = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonArray) requests = NULL;

  server_script (server, "{\"models\": [\"qwen2.5:7b\", \"llama3.2:3b\"]}");
  models = list_models (provider, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (models->len, ==, 2);
  g_assert_cmpstr (models->pdata[0], ==, "qwen2.5:7b");
  g_assert_cmpstr (models->pdata[1], ==, "llama3.2:3b");

  /* An Ollama without /v1/models: its own list instead. */
  server_script (server, "{\"models\": [\"gemma2:2b\"], \"responses\": [{\"path\":"
                         " \"/v1/models\", \"status\": 404, \"body\": \"404 page not found\"}]}");
  tags = list_models (provider, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tags->len, ==, 1);
  g_assert_cmpstr (tags->pdata[0], ==, "gemma2:2b");

  requests = server_requests (server);
  g_assert_cmpuint (json_array_get_length (requests), ==, 3);
  g_assert_cmpstr (json_object_get_string_member (element_object (requests, 2), "path"), ==,
                   "/api/tags");

  g_assert_finalize_object (g_steal_pointer (&provider));
}

/* Anthropic */

static const char *anthropic_text_script =
  "{\"responses\": [{\"stream\": ["
  "{\"anthropic\": {\"type\": \"message_start\", \"message\": {\"id\": \"msg_1\", \"type\":"
  "  \"message\", \"role\": \"assistant\", \"model\": \"claude-fake-1\", \"content\": [],"
  "  \"usage\": {\"input_tokens\": 12, \"output_tokens\": 1}}}},"
  "{\"anthropic\": {\"type\": \"content_block_start\", \"index\": 0, \"content_block\":"
  "  {\"type\": \"text\", \"text\": \"\"}}},"
  "{\"anthropic\": {\"type\": \"ping\"}},"
  "{\"anthropic\": {\"type\": \"content_block_delta\", \"index\": 0, \"delta\": {\"type\":"
  "  \"text_delta\", \"text\": \"Hello\"}}},"
  "{\"anthropic\": {\"type\": \"content_block_delta\", \"index\": 0, \"delta\": {\"type\":"
  "  \"text_delta\", \"text\": \" there\"}}},"
  "{\"anthropic\": {\"type\": \"content_block_stop\", \"index\": 0}},"
  "{\"anthropic\": {\"type\": \"message_delta\", \"delta\": {\"stop_reason\": \"end_turn\","
  "  \"stop_sequence\": null}, \"usage\": {\"output_tokens\": 5}}},"
  "{\"anthropic\": {\"type\": \"message_stop\"}}]}]}";

static void
test_anthropic_text (void)
{
  g_autoptr(Server) server = server_start ();
  g_autoptr(StewardSecrets) secrets = steward_secrets_new ();
  g_autoptr(StewardProvider) provider = NULL;
  g_autoptr(JsonObject) answer = NULL;
  g_autoptr(JsonObject) sent = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *headers;
  JsonObject *body;
  JsonObject *usage;
  JsonArray *messages;
  Events events;

  store_key (secrets, "provider.fake-anthropic", CANARY_KEY);
  provider = anthropic_new (server, "provider.fake-anthropic", secrets);
  server_script (server, anthropic_text_script);

  events_init (&events);
  answer = chat (provider,
                 "{\"model\": \"claude-fake-1\", \"systemPrompt\": \"You are terse.\","
                 " \"messages\": [{\"role\": \"user\", \"content\": {\"type\": \"text\","
                 " \"text\": \"Hi\"}}], \"temperature\": 0.2, \"stopSequences\": [\"STOP\"]}",
                 &events, NULL, &error);
  g_assert_no_error (error);

  g_assert_cmpuint (events.n_text, ==, 2);
  g_assert_cmpstr (events.text->str, ==, "Hello there");
  g_assert_cmpstr (answer_text (answer), ==, "Hello there");
  g_assert_cmpstr (json_object_get_string_member (answer, "model"), ==, "claude-fake-1");
  g_assert_cmpstr (json_object_get_string_member (answer, "stopReason"), ==, "endTurn");
  usage = member_object (answer, "usage");
  g_assert_cmpint (json_object_get_int_member (usage, "inputTokens"), ==, 12);
  g_assert_cmpint (json_object_get_int_member (usage, "outputTokens"), ==, 5);
  g_assert_cmpuint (events.usages->len, ==, 1);

  sent = server_request (server, 0);
  g_assert_cmpstr (json_object_get_string_member (sent, "path"), ==, "/v1/messages");
  headers = member_object (sent, "headers");
  g_assert_cmpstr (json_object_get_string_member (headers, "x-api-key"), ==, CANARY_KEY);
  g_assert_cmpstr (json_object_get_string_member (headers, "anthropic-version"), ==,
                   "2023-06-01");
  g_assert_false (json_object_has_member (headers, "authorization"));
  body = member_object (sent, "body");
  g_assert_cmpstr (json_object_get_string_member (body, "system"), ==, "You are terse.");
  g_assert_true (json_object_get_boolean_member (body, "stream"));
  /* The API needs a limit even when the request set none. */
  g_assert_cmpint (json_object_get_int_member (body, "max_tokens"), ==, 4096);
  g_assert_cmpstr (json_array_get_string_element (member_array (body, "stop_sequences"), 0), ==,
                   "STOP");
  messages = member_array (body, "messages");
  g_assert_cmpuint (json_array_get_length (messages), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (element_object (member_array (element_object (messages, 0),
                                                                                "content"), 0),
                                                  "text"), ==, "Hi");

  events_clear (&events);
  g_assert_finalize_object (g_steal_pointer (&provider));
  g_assert_finalize_object (g_steal_pointer (&secrets));
}

static void
test_anthropic_tool_use (void)
{
  g_autoptr(Server) server = server_start ();
  g_autoptr(StewardProvider) provider = anthropic_new (server, NULL, NULL);
  g_autoptr(JsonObject) answer = NULL;
  g_autoptr(JsonObject) sent = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *body;
  JsonArray *messages;
  JsonArray *content;
  JsonObject *block;
  JsonObject *tool;
  Events events;

  server_script (server,
                 "{\"responses\": [{\"stream\": ["
                 "{\"anthropic\": {\"type\": \"message_start\", \"message\": {\"model\":"
                 "  \"claude-fake-1\", \"usage\": {\"input_tokens\": 30, \"output_tokens\": 1}}}},"
                 "{\"anthropic\": {\"type\": \"content_block_start\", \"index\": 0,"
                 "  \"content_block\": {\"type\": \"text\", \"text\": \"\"}}},"
                 "{\"anthropic\": {\"type\": \"content_block_delta\", \"index\": 0, \"delta\":"
                 "  {\"type\": \"text_delta\", \"text\": \"Checking.\"}}},"
                 "{\"anthropic\": {\"type\": \"content_block_stop\", \"index\": 0}},"
                 "{\"anthropic\": {\"type\": \"content_block_start\", \"index\": 1,"
                 "  \"content_block\": {\"type\": \"tool_use\", \"id\": \"toolu_1\", \"name\":"
                 "  \"weather__get\", \"input\": {}}}},"
                 "{\"anthropic\": {\"type\": \"content_block_delta\", \"index\": 1, \"delta\":"
                 "  {\"type\": \"input_json_delta\", \"partial_json\": \"\"}}},"
                 "{\"anthropic\": {\"type\": \"content_block_delta\", \"index\": 1, \"delta\":"
                 "  {\"type\": \"input_json_delta\", \"partial_json\": \"{\\\"city\\\": \\\"Ber\"}}},"
                 "{\"anthropic\": {\"type\": \"content_block_delta\", \"index\": 1, \"delta\":"
                 "  {\"type\": \"input_json_delta\", \"partial_json\": \"lin\\\", \\\"days\\\": 3}\"}}},"
                 "{\"anthropic\": {\"type\": \"content_block_stop\", \"index\": 1}},"
                 "{\"anthropic\": {\"type\": \"message_delta\", \"delta\": {\"stop_reason\":"
                 "  \"tool_use\"}, \"usage\": {\"output_tokens\": 40}}},"
                 "{\"anthropic\": {\"type\": \"message_stop\"}}]}]}");

  events_init (&events);
  answer = chat (provider,
                 "{\"model\": \"claude-fake-1\", \"maxTokens\": 300, \"messages\": ["
                 " {\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": \"Look\"},"
                 "  {\"type\": \"image\", \"data\": \"iVBORw0KGgo=\", \"mimeType\": \"image/png\"}]},"
                 " {\"role\": \"assistant\", \"content\": [{\"type\": \"tool_use\", \"id\":"
                 "  \"toolu_0\", \"name\": \"weather__get\", \"input\": {\"city\": \"Oslo\"}}]},"
                 " {\"role\": \"user\", \"content\": [{\"type\": \"tool_result\", \"toolUseId\":"
                 "  \"toolu_0\", \"content\": [{\"type\": \"text\", \"text\": \"rain\"}],"
                 "  \"isError\": true}]}],"
                 " \"tools\": [{\"name\": \"weather__get\", \"description\": \"Weather\","
                 "  \"inputSchema\": {\"type\": \"object\"}}], \"toolChoice\": {\"mode\":"
                 "  \"required\"}}",
                 &events, NULL, &error);
  g_assert_no_error (error);

  g_assert_cmpuint (events.tool_calls->len, ==, 1);
  block = events.tool_calls->pdata[0];
  g_assert_cmpstr (json_object_get_string_member (block, "id"), ==, "toolu_1");
  g_assert_cmpstr (json_object_get_string_member (block, "name"), ==, "weather__get");
  g_assert_cmpstr (json_object_get_string_member (member_object (block, "input"), "city"), ==,
                   "Berlin");
  g_assert_cmpint (json_object_get_int_member (member_object (block, "input"), "days"), ==, 3);
  g_assert_cmpstr (json_object_get_string_member (answer, "stopReason"), ==, "toolUse");
  content = member_array (answer, "content");
  g_assert_cmpuint (json_array_get_length (content), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (element_object (content, 0), "text"), ==,
                   "Checking.");
  g_assert_cmpstr (json_object_get_string_member (element_object (content, 1), "type"), ==,
                   "tool_use");
  g_assert_cmpint (json_object_get_int_member (member_object (answer, "usage"), "outputTokens"),
                   ==, 40);

  sent = server_request (server, 0);
  body = member_object (sent, "body");
  g_assert_false (json_object_has_member (member_object (sent, "headers"), "x-api-key"));
  g_assert_cmpint (json_object_get_int_member (body, "max_tokens"), ==, 300);
  messages = member_array (body, "messages");
  g_assert_cmpuint (json_array_get_length (messages), ==, 3);
  block = element_object (member_array (element_object (messages, 0), "content"), 1);
  g_assert_cmpstr (json_object_get_string_member (block, "type"), ==, "image");
  g_assert_cmpstr (json_object_get_string_member (member_object (block, "source"), "type"), ==,
                   "base64");
  g_assert_cmpstr (json_object_get_string_member (member_object (block, "source"), "media_type"),
                   ==, "image/png");
  g_assert_cmpstr (json_object_get_string_member (member_object (block, "source"), "data"), ==,
                   "iVBORw0KGgo=");
  block = element_object (member_array (element_object (messages, 1), "content"), 0);
  g_assert_cmpstr (json_object_get_string_member (block, "type"), ==, "tool_use");
  g_assert_cmpstr (json_object_get_string_member (member_object (block, "input"), "city"), ==,
                   "Oslo");
  block = element_object (member_array (element_object (messages, 2), "content"), 0);
  g_assert_cmpstr (json_object_get_string_member (block, "type"), ==, "tool_result");
  g_assert_cmpstr (json_object_get_string_member (block, "tool_use_id"), ==, "toolu_0");
  g_assert_true (json_object_get_boolean_member (block, "is_error"));
  g_assert_cmpstr (json_object_get_string_member (element_object (member_array (block, "content"),
                                                                  0), "text"), ==, "rain");
  tool = element_object (member_array (body, "tools"), 0);
  g_assert_cmpstr (json_object_get_string_member (tool, "name"), ==, "weather__get");
  g_assert_cmpstr (json_object_get_string_member (member_object (tool, "input_schema"), "type"),
                   ==, "object");
  g_assert_cmpstr (json_object_get_string_member (member_object (body, "tool_choice"), "type"),
                   ==, "any");

  events_clear (&events);
  g_assert_finalize_object (g_steal_pointer (&provider));
}

static void
test_anthropic_errors (void)
{
  g_autoptr(Server) server = server_start ();
  g_autoptr(StewardSecrets) secrets = steward_secrets_new ();
  g_autoptr(StewardProvider) provider = NULL;
  g_autoptr(GError) unauthorized = NULL;
  g_autoptr(GError) limited = NULL;
  g_autoptr(GError) overloaded = NULL;
  g_autoptr(GError) in_stream = NULL;
  g_autoptr(GError) missing = NULL;
  g_autoptr(GError) broken = NULL;

  store_key (secrets, "provider.fake-anthropic", CANARY_KEY);
  provider = anthropic_new (server, "provider.fake-anthropic", secrets);

  server_script (server,
                 "{\"responses\": ["
                 " {\"status\": 401, \"body\": {\"type\": \"error\", \"error\": {\"type\":"
                 "  \"authentication_error\", \"message\": \"invalid x-api-key " CANARY_KEY "\"}}},"
                 " {\"status\": 429, \"headers\": {\"retry-after\": \"42\"}, \"body\": {\"type\":"
                 "  \"error\", \"error\": {\"type\": \"rate_limit_error\", \"message\": \"slow\"}}},"
                 " {\"status\": 529, \"body\": {\"type\": \"error\", \"error\": {\"type\":"
                 "  \"overloaded_error\", \"message\": \"Overloaded\"}}},"
                 " {\"stream\": [{\"anthropic\": {\"type\": \"message_start\", \"message\":"
                 "  {\"model\": \"m\", \"usage\": {\"input_tokens\": 1}}}},"
                 "  {\"anthropic\": {\"type\": \"error\", \"error\": {\"type\":"
                 "  \"overloaded_error\", \"message\": \"Overloaded mid-way\"}}}]},"
                 " {\"status\": 404, \"body\": {\"type\": \"error\", \"error\": {\"type\":"
                 "  \"not_found_error\", \"message\": \"model: claude-none\"}}},"
                 " {\"stream\": [{\"anthropic\": {\"type\": \"message_start\", \"message\":"
                 "  {\"model\": \"m\"}}}, {\"close\": true}]}]}");

  unauthorized = chat_error (provider, SIMPLE_REQUEST);
  g_assert_error (unauthorized, STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_UNAUTHORIZED);
  g_assert_nonnull (strstr (unauthorized->message, "“Fake Claude”"));
  g_assert_nonnull (strstr (unauthorized->message, "Preferences"));

  limited = chat_error (provider, SIMPLE_REQUEST);
  g_assert_error (limited, STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_RATE_LIMITED);
  g_assert_nonnull (strstr (limited->message, "42 seconds"));

  overloaded = chat_error (provider, SIMPLE_REQUEST);
  g_assert_error (overloaded, STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_SERVER);
  g_assert_nonnull (strstr (overloaded->message, "529"));
  g_assert_nonnull (strstr (overloaded->message, "Overloaded"));

  in_stream = chat_error (provider, SIMPLE_REQUEST);
  g_assert_error (in_stream, STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_SERVER);
  g_assert_nonnull (strstr (in_stream->message, "Overloaded mid-way"));

  missing = chat_error (provider,
                        "{\"model\": \"claude-none\", \"messages\": [{\"role\": \"user\","
                        " \"content\": {\"type\": \"text\", \"text\": \"Hi\"}}]}");
  g_assert_error (missing, STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_MODEL_NOT_FOUND);
  g_assert_nonnull (strstr (missing->message, "“claude-none”"));

  broken = chat_error (provider, SIMPLE_REQUEST);
  g_assert_error (broken, STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_NETWORK);

  g_assert_finalize_object (g_steal_pointer (&provider));
  g_assert_finalize_object (g_steal_pointer (&secrets));
}

static void
test_anthropic_list_models (void)
{
  g_autoptr(Server) server = server_start ();
  g_autoptr(StewardSecrets) secrets = steward_secrets_new ();
  g_autoptr(StewardProvider) provider = NULL;
  g_autoptr(GPtrArray) models = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) sent = NULL;
  JsonObject *headers;

  store_key (secrets, "provider.fake-anthropic", CANARY_KEY);
  provider = anthropic_new (server, "provider.fake-anthropic", secrets);
  server_script (server,
                 "{\"responses\": [{\"path\": \"/v1/models\", \"body\": {\"data\": [{\"id\":"
                 " \"claude-a\"}, {\"id\": \"claude-b\"}], \"has_more\": true, \"last_id\":"
                 " \"claude-b\"}}, {\"path\": \"/v1/models\", \"body\": {\"data\": [{\"id\":"
                 " \"claude-c\"}], \"has_more\": false}}]}");

  models = list_models (provider, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (models->len, ==, 3);
  g_assert_cmpstr (models->pdata[0], ==, "claude-a");
  g_assert_cmpstr (models->pdata[2], ==, "claude-c");

  sent = server_request (server, 1);
  g_assert_cmpstr (json_object_get_string_member (sent, "path"), ==,
                   "/v1/models?limit=1000&after_id=claude-b");
  headers = member_object (sent, "headers");
  g_assert_cmpstr (json_object_get_string_member (headers, "x-api-key"), ==, CANARY_KEY);
  g_assert_cmpstr (json_object_get_string_member (headers, "anthropic-version"), ==,
                   "2023-06-01");

  g_assert_finalize_object (g_steal_pointer (&provider));
  g_assert_finalize_object (g_steal_pointer (&secrets));
}

/* The manual provider and the list */

static void
test_manual (void)
{
  g_autoptr(StewardProvider) provider = STEWARD_PROVIDER (steward_manual_provider_new ());
  g_autoptr(JsonObject) answer = NULL;
  g_autoptr(GPtrArray) models = NULL;
  g_autoptr(GError) error = NULL;
  Events events;

  g_assert_cmpstr (steward_provider_get_id (provider), ==, "manual");
  g_assert_cmpstr (steward_provider_get_display_name (provider), ==,
                   "Manual (you write the answer)");
  g_assert_true (steward_provider_is_local (provider));

  events_init (&events);
  answer = chat (provider, SIMPLE_REQUEST, &events, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (answer_text (answer), ==, "");
  g_assert_cmpstr (json_object_get_string_member (answer, "model"), ==, "manual");
  g_assert_cmpuint (events.n_text, ==, 0);
  events_clear (&events);

  models = list_models (provider, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (models->len, ==, 1);
  g_assert_cmpstr (models->pdata[0], ==, "manual");

  g_assert_finalize_object (g_steal_pointer (&provider));
}

static void
test_is_local (void)
{
  const struct {
    const char *url;
    gboolean    local;
  } cases[] = {
    { "http://localhost:11434/v1", TRUE },
    { "http://127.0.0.1:8080/v1", TRUE },
    { "http://[::1]:8000/v1", TRUE },
    { "https://api.openai.com/v1", FALSE },
    { "http://192.168.1.20:11434/v1", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(StewardOpenaiProvider) provider = steward_openai_provider_new ("p", "P",
                                                                               cases[i].url,
                                                                               NULL, NULL);

      g_assert_cmpint (steward_provider_is_local (STEWARD_PROVIDER (provider)), ==,
                       cases[i].local);
    }
}

static gboolean
detect_ollama (StewardProviders *providers)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  gboolean found;

  steward_providers_detect_ollama_async (providers, NULL, result_cb, &result);
  WAIT_FOR (result != NULL, DEADLINE_MS);
  found = steward_providers_detect_ollama_finish (providers, result, &error);
  g_assert_no_error (error);

  return found;
}

static void
test_detect_ollama (void)
{
  g_autoptr(Server) server = server_start ();
  g_autoptr(StewardProviders) providers = steward_providers_new (NULL, NULL);
  g_autofree char *closed = g_strdup_printf ("http://127.0.0.1:%d", closed_port ());
  g_autofree char *base = NULL;
  g_autoptr(JsonObject) sent = NULL;
  gint64 start;

  g_setenv ("STEWARD_OLLAMA_URL", server->origin, TRUE);
  g_assert_true (detect_ollama (providers));
  sent = server_request (server, 0);
  g_assert_cmpstr (json_object_get_string_member (sent, "path"), ==, "/api/tags");
  base = steward_providers_dup_ollama_base_url ();
  g_assert_true (g_str_has_prefix (base, server->origin));
  g_assert_true (g_str_has_suffix (base, "/v1"));

  /* Something else answering there is not Ollama. */
  server_script (server, "{\"responses\": [{\"path\": \"/api/tags\", \"body\": {\"hello\": 1}}]}");
  g_assert_false (detect_ollama (providers));

  /* Nothing listening, or something that does not answer: no Ollama,
   * and no long wait. */
  server_script (server, "{\"responses\": [{\"path\": \"/api/tags\", \"delay\": 5,"
                         " \"body\": {\"models\": []}}]}");
  start = g_get_monotonic_time ();
  g_assert_false (detect_ollama (providers));
  g_assert_cmpint (g_get_monotonic_time () - start, <, 2 * G_TIME_SPAN_SECOND);

  g_setenv ("STEWARD_OLLAMA_URL", closed, TRUE);
  start = g_get_monotonic_time ();
  g_assert_false (detect_ollama (providers));
  g_assert_cmpint (g_get_monotonic_time () - start, <, 2 * G_TIME_SPAN_SECOND);

  g_unsetenv ("STEWARD_OLLAMA_URL");
  g_assert_finalize_object (g_steal_pointer (&providers));
}

static gboolean
load (StewardProviders  *providers,
      GError           **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  steward_providers_load_async (providers, NULL, result_cb, &result);
  WAIT_FOR (result != NULL, DEADLINE_MS);
  return steward_providers_load_finish (providers, result, error);
}

static void
flush (StewardProviders *providers)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  steward_providers_flush_async (providers, NULL, result_cb, &result);
  WAIT_FOR (result != NULL, DEADLINE_MS);
  g_assert_true (steward_providers_flush_finish (providers, result, &error));
  g_assert_no_error (error);
}

static void
items_changed_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  gpointer    user_data)
{
  (*(guint *) user_data)++;
}

static void
test_store (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *aside = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *parent = NULL;
  g_autofree char *key_id = steward_providers_make_key_id ("openai");
  g_autoptr(GFile) file = NULL;
  g_autoptr(StewardSecrets) secrets = steward_secrets_new ();
  g_autoptr(StewardProviders) providers = NULL;
  g_autoptr(StewardProviders) again = NULL;
  g_autoptr(StewardProvider) first = NULL;
  g_autoptr(GError) error = NULL;
  StewardProvider *provider;
  guint changes = 0;

  dir = g_dir_make_tmp ("test-providers-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "steward", "providers.json", NULL);
  parent = g_path_get_dirname (path);
  file = g_file_new_for_path (path);
  g_assert_cmpstr (key_id, ==, "provider.openai");
  store_key (secrets, key_id, CANARY_KEY);

  /* Nothing configured: the manual provider alone. */
  providers = steward_providers_new (file, secrets);
  g_assert_true (load (providers, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (providers)), ==, 1);
  first = g_list_model_get_item (G_LIST_MODEL (providers), 0);
  g_assert_true (first == steward_providers_get_manual (providers));
  g_assert_cmpstr (steward_provider_get_id (first), ==, "manual");
  g_signal_connect (providers, "items-changed", G_CALLBACK (items_changed_cb), &changes);

  provider = steward_providers_put (providers, "ollama", STEWARD_PROVIDER_KIND_OPENAI_COMPATIBLE,
                                    "Ollama", "http://localhost:11434/v1/", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (STEWARD_IS_OPENAI_PROVIDER (provider));
  g_assert_cmpstr (steward_http_provider_get_base_url (STEWARD_HTTP_PROVIDER (provider)), ==,
                   "http://localhost:11434/v1");
  provider = steward_providers_put (providers, "openai", STEWARD_PROVIDER_KIND_OPENAI_COMPATIBLE,
                                    "OpenAI", "https://api.openai.com/v1", key_id, &error);
  g_assert_no_error (error);
  provider = steward_providers_put (providers, "claude", STEWARD_PROVIDER_KIND_ANTHROPIC,
                                    "Claude", NULL, "provider.claude", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (steward_http_provider_get_base_url (STEWARD_HTTP_PROVIDER (provider)),
                   ==, "https://api.anthropic.com");
  /* Replaced in place. */
  provider = steward_providers_put (providers, "ollama", STEWARD_PROVIDER_KIND_OPENAI_COMPATIBLE,
                                    "Ollama here", "http://127.0.0.1:11434/v1", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (changes, ==, 4);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (providers)), ==, 4);
  g_assert_true (steward_providers_lookup (providers, "ollama") == provider);
  g_assert_cmpstr (steward_provider_get_display_name (provider), ==, "Ollama here");
  g_assert_cmpint (steward_providers_get_kind (providers, "claude"), ==,
                   STEWARD_PROVIDER_KIND_ANTHROPIC);

  /* What cannot be a provider is refused, and nothing changes. */
  g_assert_null (steward_providers_put (providers, "manual", STEWARD_PROVIDER_KIND_OPENAI_COMPATIBLE,
                                        "X", "http://x", NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (steward_providers_put (providers, "bad", STEWARD_PROVIDER_KIND_OPENAI_COMPATIBLE,
                                        "Bad", "ftp://example.org", NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (steward_providers_put (providers, "bad", STEWARD_PROVIDER_KIND_OPENAI_COMPATIBLE,
                                        "Bad", "http://x", "has:colon", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (steward_providers_remove (providers, "manual", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED);
  g_clear_error (&error);
  g_assert_cmpuint (changes, ==, 4);

  flush (providers);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, "\"provider.openai\""));
  g_assert_null (strstr (contents, CANARY_KEY));

  /* Read back, in order, by a second list. */
  again = steward_providers_new (file, secrets);
  g_assert_true (load (again, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (again)), ==, 4);
  for (guint i = 0; i < 4; i++)
    {
      g_autoptr(StewardProvider) a = g_list_model_get_item (G_LIST_MODEL (providers), i);
      g_autoptr(StewardProvider) b = g_list_model_get_item (G_LIST_MODEL (again), i);

      g_assert_cmpstr (steward_provider_get_id (a), ==, steward_provider_get_id (b));
      g_assert_cmpstr (steward_provider_get_display_name (a), ==,
                       steward_provider_get_display_name (b));
      g_assert_true (G_OBJECT_TYPE (a) == G_OBJECT_TYPE (b));
    }
  provider = steward_providers_lookup (again, "openai");
  g_assert_cmpstr (steward_http_provider_get_key_id (STEWARD_HTTP_PROVIDER (provider)), ==,
                   "provider.openai");
  g_assert_cmpstr (steward_http_provider_get_base_url (STEWARD_HTTP_PROVIDER (provider)), ==,
                   "https://api.openai.com/v1");
  g_assert_finalize_object (g_steal_pointer (&again));

  /* Removing the provider removes its own key. */
  g_assert_true (steward_providers_remove (providers, "openai", &error));
  g_assert_no_error (error);
  g_assert_null (steward_providers_lookup (providers, "openai"));
  flush (providers);
  WAIT_FOR (!key_exists (secrets, key_id), DEADLINE_MS);

  again = steward_providers_new (file, secrets);
  g_assert_true (load (again, &error));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (again)), ==, 3);
  g_assert_finalize_object (g_steal_pointer (&again));

  /* A damaged file is kept aside, never overwritten. */
  g_assert_true (g_file_set_contents (path, "{\"providers\": [", -1, NULL));
  again = steward_providers_new (file, secrets);
  g_assert_false (load (again, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_test_message ("damaged: %s", error->message);
  g_clear_error (&error);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (again)), ==, 1);
  aside = g_strconcat (path, ".damaged", NULL);
  g_assert_true (g_file_test (aside, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_finalize_object (g_steal_pointer (&again));

  g_clear_object (&first);
  g_signal_handlers_disconnect_by_data (providers, &changes);
  g_assert_finalize_object (g_steal_pointer (&providers));
  g_assert_finalize_object (g_steal_pointer (&secrets));

  g_remove (aside);
  g_rmdir (parent);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/steward/providers/openai/text", test_openai_text);
  g_test_add_func ("/steward/providers/openai/tool-calls", test_openai_tool_calls);
  g_test_add_func ("/steward/providers/openai/bad-arguments", test_openai_bad_arguments);
  g_test_add_func ("/steward/providers/openai/request-shape", test_openai_request_shape);
  g_test_add_func ("/steward/providers/openai/unsupported", test_openai_unsupported);
  g_test_add_func ("/steward/providers/openai/stop-reasons", test_openai_stop_reasons);
  g_test_add_func ("/steward/providers/openai/whole-reply", test_openai_whole_reply);
  g_test_add_func ("/steward/providers/openai/key", test_openai_key);
  g_test_add_func ("/steward/providers/openai/no-key", test_openai_no_key);
  g_test_add_func ("/steward/providers/openai/unauthorized", test_openai_unauthorized);
  g_test_add_func ("/steward/providers/openai/rate-limited", test_openai_rate_limited);
  g_test_add_func ("/steward/providers/openai/server-error", test_openai_server_error);
  g_test_add_func ("/steward/providers/openai/model-not-found", test_openai_model_not_found);
  g_test_add_func ("/steward/providers/openai/network", test_openai_network);
  g_test_add_func ("/steward/providers/openai/broken-stream", test_openai_broken_stream);
  g_test_add_func ("/steward/providers/openai/cancel", test_openai_cancel);
  g_test_add_func ("/steward/providers/openai/cancel-within-chunk",
                   test_openai_cancel_within_chunk);
  g_test_add_func ("/steward/providers/openai/caps", test_openai_caps);
  g_test_add_func ("/steward/providers/openai/list-models", test_openai_list_models);
  g_test_add_func ("/steward/providers/anthropic/text", test_anthropic_text);
  g_test_add_func ("/steward/providers/anthropic/tool-use", test_anthropic_tool_use);
  g_test_add_func ("/steward/providers/anthropic/errors", test_anthropic_errors);
  g_test_add_func ("/steward/providers/anthropic/list-models", test_anthropic_list_models);
  g_test_add_func ("/steward/providers/manual", test_manual);
  g_test_add_func ("/steward/providers/is-local", test_is_local);
  g_test_add_func ("/steward/providers/detect-ollama", test_detect_ollama);
  g_test_add_func ("/steward/providers/store", test_store);

  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-everything"

#include "config.h"

#include <string.h>

#include "mcp-client.h"
#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-prompt.h"
#include "mcp-resource.h"
#include "mcp-resource-template.h"
#include "mcp-scripted-transport.h"
#include "mcp-http-transport.h"
#include "mcp-sse-transport.h"
#include "mcp-stdio-transport.h"
#include "mcp-tool.h"
#include "test-delegate.h"
#include "test-peer-process.h"

/* The reference server "everything" over stdio, as a person's Steward
 * would run it, driven through McpClient. */

/* The same coverage runs over each transport the server offers. */
typedef enum {
  KIND_STDIO,
  KIND_STREAMABLE_HTTP,
  KIND_SSE,
} Kind;

static const char * const kind_names[] = { "stdio", "streamable-http", "sse" };

typedef struct {
  Kind          kind;
  GSubprocess  *server;       /* the HTTP server, when not over stdio */
  char         *url;
  McpClient    *client;
  TestDelegate *delegate;
  char         *root_uri;
  GPtrArray    *log_levels;   /* levels of notifications/message seen */
  GPtrArray    *updated;      /* URIs of resources/updated seen */
} Fixture;

static char *
peer_path (const char *package,
           const char *file)
{
  const char *peers = g_getenv ("STEWARD_PEERS_DIR");

  g_assert_nonnull (peers);
  return g_build_filename (peers, "@modelcontextprotocol", package, file, NULL);
}

static JsonObject *
object_from (const char *json)
{
  return json ? test_parse_object (json) : NULL;
}

/* Answers the server's requests as a person using the host would. */
static JsonObject *
reply_cb (const char  *method,
          JsonObject  *params,
          gpointer     user_data,
          GError     **error)
{
  Fixture *fixture = user_data;

  if (g_str_equal (method, "roots/list"))
    {
      g_autofree char *json = g_strdup_printf ("{\"roots\":[{\"uri\":\"%s\",\"name\":\"work\"}]}",
                                               fixture->root_uri);

      return test_parse_object (json);
    }

  if (g_str_equal (method, "sampling/createMessage"))
    {
      JsonArray *messages = mcp_json_get_array (params, "messages");
      JsonObject *first = json_array_get_object_element (messages, 0);
      const char *text = mcp_json_get_string (mcp_json_get_object (first, "content"), "text");
      g_autoptr(JsonBuilder) builder = json_builder_new ();
      g_autoptr(JsonNode) node = NULL;

      if (g_strrstr (text, "reject") != NULL)
        {
          g_set_error_literal (error, MCP_ERROR, MCP_ERROR_USER_REJECTED,
                               "User rejected sampling request");
          return NULL;
        }

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "role");
      json_builder_add_string_value (builder, "assistant");
      json_builder_set_member_name (builder, "content");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "type");
      json_builder_add_string_value (builder, "text");
      json_builder_set_member_name (builder, "text");
      json_builder_add_string_value (builder, "written by a person");
      json_builder_end_object (builder);
      json_builder_set_member_name (builder, "model");
      json_builder_add_string_value (builder, "manual");
      json_builder_set_member_name (builder, "stopReason");
      json_builder_add_string_value (builder, "endTurn");
      json_builder_end_object (builder);
      node = json_builder_get_root (builder);
      return json_object_ref (json_node_get_object (node));
    }

  if (g_strcmp0 (mcp_json_get_string (params, "mode"), "url") == 0)
    return test_parse_object ("{\"action\":\"accept\"}");

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
  Fixture *fixture = user_data;

  g_ptr_array_add (fixture->log_levels, g_strdup (level));
}

static void
resource_updated_cb (McpClient  *client,
                     const char *uri,
                     gpointer    user_data)
{
  Fixture *fixture = user_data;

  g_ptr_array_add (fixture->updated, g_strdup (uri));
}

/* Starts server-everything in an HTTP mode and waits until it says it
 * listens (it prints that on stderr). */
static void
start_http_server (Fixture *fixture)
{
  g_autofree char *server = peer_path ("server-everything", "dist/index.js");
  g_autofree char *port = test_peer_free_port ();
  const char *mode = fixture->kind == KIND_SSE ? "sse" : "streamableHttp";
  const char *argv[] = { "node", server, mode, NULL };
  g_autoptr(GSubprocessLauncher) launcher = NULL;

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_setenv (launcher, "PORT", port, TRUE);
  fixture->server = test_peer_spawn (launcher, argv, port);

  fixture->url = g_strdup_printf (fixture->kind == KIND_SSE ? "http://127.0.0.1:%s/sse"
                                                             : "http://127.0.0.1:%s/mcp", port);
}

static void
stop_http_server (Fixture *fixture)
{
  test_peer_stop (&fixture->server);
  g_clear_pointer (&fixture->url, g_free);
}

static McpTransport *
new_transport (Fixture *fixture)
{
  g_autofree char *server = peer_path ("server-everything", "dist/index.js");
  const char *argv[] = { "node", server, "stdio", NULL };
  g_autoptr(GError) error = NULL;
  McpTransport *transport = NULL;

  switch (fixture->kind)
    {
    case KIND_STDIO:
      transport = MCP_TRANSPORT (mcp_stdio_transport_new (argv));
      break;

    case KIND_STREAMABLE_HTTP:
      transport = MCP_TRANSPORT (mcp_http_transport_new (fixture->url, &error));
      break;

    case KIND_SSE:
      transport = MCP_TRANSPORT (mcp_sse_transport_new (fixture->url, &error));
      break;

    default:
      g_assert_not_reached ();
    }

  g_assert_no_error (error);
  return transport;
}

static McpClient *
connect_everything (Fixture     *fixture,
                    McpRevision  revision)
{
  g_autoptr(McpTransport) transport = new_transport (fixture);
  McpClient *client;

  client = mcp_client_new (transport);
  mcp_client_set_delegate (client, MCP_CLIENT_DELEGATE (fixture->delegate));
  if (revision != MCP_REVISION_UNKNOWN)
    mcp_client_set_requested_revision (client, revision);

  test_client_connect (client);

  return client;
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  fixture->delegate = test_delegate_new (MCP_CLIENT_FEATURE_ROOTS |
                                         MCP_CLIENT_FEATURE_ROOTS_LIST_CHANGED |
                                         MCP_CLIENT_FEATURE_SAMPLING |
                                         MCP_CLIENT_FEATURE_ELICITATION_FORM |
                                         MCP_CLIENT_FEATURE_ELICITATION_URL);
  fixture->delegate->reply_func = reply_cb;
  fixture->delegate->reply_data = fixture;
  fixture->root_uri = g_strdup ("file:///srv/projects/first");
  fixture->log_levels = g_ptr_array_new_with_free_func (g_free);
  fixture->updated = g_ptr_array_new_with_free_func (g_free);
  fixture->kind = (Kind) GPOINTER_TO_UINT (data);
  if (fixture->kind != KIND_STDIO)
    start_http_server (fixture);

  fixture->client = connect_everything (fixture, MCP_REVISION_UNKNOWN);
  g_signal_connect (fixture->client, "log-message", G_CALLBACK (log_message_cb), fixture);
  g_signal_connect (fixture->client, "resource-updated", G_CALLBACK (resource_updated_cb), fixture);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_signal_handlers_disconnect_by_data (fixture->client, fixture);
  test_client_close (g_steal_pointer (&fixture->client));
  g_assert_finalize_object (fixture->delegate);
  g_ptr_array_unref (fixture->log_levels);
  g_ptr_array_unref (fixture->updated);
  g_free (fixture->root_uri);
  stop_http_server (fixture);
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

static McpToolResult *
call_tool (Fixture     *fixture,
           const char  *name,
           const char  *arguments,
           GError     **error)
{
  g_autoptr(JsonObject) args = object_from (arguments);
  g_autoptr(GAsyncResult) result = NULL;

  mcp_client_call_tool_async (fixture->client, name, args, NULL, NULL, NULL, NULL,
                              test_store_result_cb, &result);
  wait_for (result != NULL);

  return mcp_client_call_tool_finish (fixture->client, result, error);
}

static char *
call_tool_text (Fixture    *fixture,
                const char *name,
                const char *arguments)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpToolResult) result = call_tool (fixture, name, arguments, &error);

  g_assert_no_error (error);
  g_assert_false (mcp_tool_result_get_is_error (result));
  return mcp_tool_result_dup_text (result);
}

static void
ping (McpClient *client)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  mcp_client_ping_async (client, NULL, test_store_result_cb, &result);
  wait_for (result != NULL);
  g_assert_true (mcp_client_ping_finish (client, result, &error));
  g_assert_no_error (error);
}

/* Every stateful revision the server speaks is negotiated as asked. */
static void
test_revisions (gconstpointer data)
{
  Fixture fixture = { 0 };

  fixture.kind = (Kind) GPOINTER_TO_UINT (data);
  fixture.delegate = test_delegate_new (MCP_CLIENT_FEATURE_NONE);
  if (fixture.kind != KIND_STDIO)
    start_http_server (&fixture);

  for (McpRevision r = MCP_REVISION_2024_11_05; r <= MCP_REVISION_LATEST_STATEFUL; r++)
    {
      McpClient *client = connect_everything (&fixture, r);

      g_assert_cmpint (mcp_client_get_revision (client), ==, r);
      g_assert_cmpstr (mcp_client_get_server_name (client), ==, "mcp-servers/everything");
      g_assert_nonnull (mcp_client_get_instructions (client));
      ping (client);
      g_test_message ("negotiated %s", mcp_revision_to_string (r));
      test_client_close (client);
    }
  g_assert_finalize_object (fixture.delegate);
  stop_http_server (&fixture);
}

/* The tools that need a capability arrive after initialization, through
 * notifications/tools/list_changed: the list model follows. */
static void
test_list_changed (Fixture       *fixture,
                   gconstpointer  data)
{
  wait_for (find_tool (fixture->client, "trigger-sampling-request") != NULL &&
            find_tool (fixture->client, "get-roots-list") != NULL &&
            find_tool (fixture->client, "trigger-elicitation-request") != NULL);
  g_assert_nonnull (find_tool (fixture->client, "echo"));
}

static void
test_tools (Fixture       *fixture,
            gconstpointer  data)
{
  const struct {
    const char *name;
    const char *arguments;
    const char *expect;      /* in the text blocks */
    McpContentType type;     /* a block of this type must be there */
  } calls[] = {
    { "echo", "{\"message\":\"hello, world\"}", "Echo: hello, world", MCP_CONTENT_TEXT },
    { "get-annotated-message", "{\"messageType\":\"error\",\"includeImage\":true}", "Error",
      MCP_CONTENT_IMAGE },
    { "get-env", "{}", "PATH", MCP_CONTENT_TEXT },
    { "get-resource-links", "{\"count\":4}", NULL, MCP_CONTENT_RESOURCE_LINK },
    { "get-resource-reference", "{\"resourceType\":\"Text\",\"resourceId\":2}", NULL,
      MCP_CONTENT_RESOURCE },
    { "get-structured-content", "{\"location\":\"Chicago\"}", NULL, MCP_CONTENT_TEXT },
    { "get-sum", "{\"a\":19,\"b\":23}", "42", MCP_CONTENT_TEXT },
    { "get-tiny-image", "{}", NULL, MCP_CONTENT_IMAGE },
    { "gzip-file-as-resource", "{\"name\":\"hello.txt.gz\","
      "\"data\":\"data:text/plain;base64,aGVsbG8gd29ybGQ=\"}", NULL, MCP_CONTENT_RESOURCE_LINK },
    { "toggle-simulated-logging", "{}", NULL, MCP_CONTENT_TEXT },
    { "toggle-simulated-logging", "{}", NULL, MCP_CONTENT_TEXT },
    { "toggle-subscriber-updates", "{}", NULL, MCP_CONTENT_TEXT },
    { "toggle-subscriber-updates", "{}", NULL, MCP_CONTENT_TEXT },
    { "trigger-long-running-operation", "{\"duration\":0.2,\"steps\":2}", "completed",
      MCP_CONTENT_TEXT },
    { "get-roots-list", "{}", "file:///srv/projects/first", MCP_CONTENT_TEXT },
    { "trigger-elicitation-request", "{}", "Ada Lovelace", MCP_CONTENT_TEXT },
    { "trigger-url-elicitation", "{\"url\":\"https://example.org/consent\"}", NULL,
      MCP_CONTENT_TEXT },
    { "trigger-sampling-request", "{\"prompt\":\"say hi\",\"maxTokens\":50}",
      "written by a person", MCP_CONTENT_TEXT },
  };
  GListModel *tools;
  g_autoptr(GHashTable) called = g_hash_table_new (g_str_hash, g_str_equal);

  test_list_changed (fixture, data);
  tools = mcp_client_get_tools (fixture->client);

  for (guint i = 0; i < G_N_ELEMENTS (calls); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(McpToolResult) result = NULL;
      g_autofree char *text = NULL;
      GPtrArray *content;
      gboolean found = FALSE;

      g_test_message ("calling %s", calls[i].name);
      result = call_tool (fixture, calls[i].name, calls[i].arguments, &error);
      g_assert_no_error (error);
      text = mcp_tool_result_dup_text (result);
      if (mcp_tool_result_get_is_error (result))
        g_error ("%s failed: %s", calls[i].name, text);

      content = mcp_tool_result_get_content (result);
      for (guint j = 0; j < content->len; j++)
        found |= mcp_content_get_content_type (g_ptr_array_index (content, j)) == calls[i].type;
      g_assert_true (found);
      if (calls[i].expect != NULL && strstr (text, calls[i].expect) == NULL)
        g_error ("%s: “%s” not in “%s”", calls[i].name, calls[i].expect, text);

      if (g_str_equal (calls[i].name, "get-structured-content"))
        {
          JsonNode *structured = mcp_tool_result_get_structured_content (result);

          g_assert_nonnull (structured);
          g_assert_true (mcp_json_has_number (json_node_get_object (structured), "temperature"));
        }
      else if (g_str_equal (calls[i].name, "get-tiny-image"))
        {
          McpContent *image = NULL;
          g_autoptr(GBytes) png = NULL;

          for (guint j = 0; j < content->len && image == NULL; j++)
            if (mcp_content_get_content_type (g_ptr_array_index (content, j)) == MCP_CONTENT_IMAGE)
              image = g_ptr_array_index (content, j);
          png = mcp_content_dup_data (image, &error);
          g_assert_no_error (error);
          g_assert_cmpmem (g_bytes_get_data (png, NULL), 4, "\x89PNG", 4);
        }
      else if (g_str_equal (calls[i].name, "get-env") && fixture->kind == KIND_STDIO)
        {
          /* A server we start sees the allowlist, not our environment. */
          g_assert_null (strstr (text, "STEWARD_TEST_SECRET"));
        }

      g_hash_table_add (called, (gpointer) calls[i].name);
    }

  /* Every tool was called, but those that can only run as tasks, which
   * this client does not offer (so it must not call them). */
  for (guint i = 0; i < g_list_model_get_n_items (tools); i++)
    {
      g_autoptr(McpTool) tool = g_list_model_get_item (tools, i);
      const char *name = mcp_item_get_name (MCP_ITEM (tool));

      if (g_str_equal (mcp_tool_get_task_support (tool), "required"))
        continue;
      if (!g_hash_table_contains (called, name))
        g_error ("tool %s was not called", name);
    }

  /* The delegate saw the requests as the server sent them. */
  g_assert_cmpuint (fixture->delegate->methods->len, >=, 3);
}

static void
test_tool_errors (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpToolResult) result = NULL;
  g_autofree char *text = NULL;

  /* Arguments that fail validation: a tool error, not a protocol error. */
  result = call_tool (fixture, "get-sum", "{\"a\":\"one\"}", &error);
  if (result != NULL)
    {
      text = mcp_tool_result_dup_text (result);
      g_assert_true (mcp_tool_result_get_is_error (result));
    }
  else
    g_assert_true (mcp_error_is_rpc (error));
  g_clear_object (&result);
  g_clear_error (&error);

  result = call_tool (fixture, "no-such-tool", "{}", &error);
  if (result != NULL)
    g_assert_true (mcp_tool_result_get_is_error (result));
  else
    g_assert_true (mcp_error_is_rpc (error));
  g_clear_object (&result);
  g_clear_error (&error);

  /* A rejected sampling request reaches the server as the error. */
  result = call_tool (fixture, "trigger-sampling-request", "{\"prompt\":\"please reject this\"}",
                      &error);
  if (result != NULL)
    {
      g_free (text);
      text = mcp_tool_result_dup_text (result);
      g_assert_true (mcp_tool_result_get_is_error (result));
      g_assert_nonnull (strstr (text, "User rejected sampling request"));
    }
  else
    g_assert_nonnull (strstr (error->message, "User rejected sampling request"));
}

static GPtrArray *
read_resource (Fixture    *fixture,
               const char *uri)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *contents;

  mcp_client_read_resource_async (fixture->client, uri, NULL, test_store_result_cb, &result);
  wait_for (result != NULL);
  contents = mcp_client_read_resource_finish (fixture->client, result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (contents->len, >=, 1);

  return contents;
}

static void
test_resources (Fixture       *fixture,
                gconstpointer  data)
{
  GListModel *resources = mcp_client_get_resources (fixture->client);
  GListModel *templates = mcp_client_get_resource_templates (fixture->client);
  g_autoptr(GHashTable) values = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(McpResource) first = NULL;
  g_autoptr(GPtrArray) contents = NULL;
  g_autoptr(GBytes) blob = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text_uri = NULL;
  g_autofree char *blob_uri = NULL;
  McpContent *content;

  wait_for (g_list_model_get_n_items (resources) > 0 && g_list_model_get_n_items (templates) == 2);

  /* A static document. */
  first = g_list_model_get_item (resources, 0);
  g_assert_true (g_str_has_prefix (mcp_resource_get_uri (first), "demo://resource/static/"));
  contents = read_resource (fixture, mcp_resource_get_uri (first));
  content = g_ptr_array_index (contents, 0);
  g_assert_false (mcp_content_is_blob (content));
  g_assert_cmpuint (strlen (mcp_content_get_text (content)), >, 10);
  g_clear_pointer (&contents, g_ptr_array_unref);

  /* Both templates, expanded. */
  g_hash_table_insert (values, "resourceId", "3");
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(McpResourceTemplate) template = g_list_model_get_item (templates, i);
      g_auto(GStrv) variables = mcp_resource_template_dup_variables (template);
      char *uri = mcp_resource_template_expand (template, values);

      g_assert_cmpstrv (variables, ((const char *[]) { "resourceId", NULL }));
      if (strstr (uri, "/text/") != NULL)
        text_uri = uri;
      else
        blob_uri = uri;
    }
  g_assert_cmpstr (text_uri, ==, "demo://resource/dynamic/text/3");
  g_assert_cmpstr (blob_uri, ==, "demo://resource/dynamic/blob/3");

  contents = read_resource (fixture, text_uri);
  content = g_ptr_array_index (contents, 0);
  g_assert_cmpstr (mcp_content_get_uri (content), ==, text_uri);
  g_assert_nonnull (strstr (mcp_content_get_text (content), "3"));
  g_clear_pointer (&contents, g_ptr_array_unref);

  contents = read_resource (fixture, blob_uri);
  content = g_ptr_array_index (contents, 0);
  g_assert_true (mcp_content_is_blob (content));
  blob = mcp_content_dup_data (content, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (blob), >, 0);
  g_assert_cmpuint (g_bytes_get_size (blob), ==, mcp_content_get_data_size (content));
  g_clear_pointer (&contents, g_ptr_array_unref);
}

static void
subscribe (Fixture    *fixture,
           const char *uri,
           gboolean    on)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  mcp_client_subscribe_async (fixture->client, uri, on, NULL, test_store_result_cb, &result);
  wait_for (result != NULL);
  g_assert_true (mcp_client_subscribe_finish (fixture->client, result, &error));
  g_assert_no_error (error);
  g_assert_true (mcp_client_is_subscribed (fixture->client, uri) == on);
}

static void
test_subscriptions (Fixture       *fixture,
                    gconstpointer  data)
{
  const char *uri = "demo://resource/dynamic/text/1";
  g_autofree char *text = NULL;

  subscribe (fixture, uri, TRUE);
  text = call_tool_text (fixture, "toggle-subscriber-updates", "{}");
  wait_for (fixture->updated->len > 0);
  g_assert_cmpstr (g_ptr_array_index (fixture->updated, 0), ==, uri);

  g_free (text);
  text = call_tool_text (fixture, "toggle-subscriber-updates", "{}");
  subscribe (fixture, uri, FALSE);
}

static McpPromptResult *
get_prompt (Fixture     *fixture,
            const char  *name,
            const char  *arguments,
            GError     **error)
{
  g_autoptr(JsonObject) args = object_from (arguments);
  g_autoptr(GAsyncResult) result = NULL;

  mcp_client_get_prompt_async (fixture->client, name, args, NULL, test_store_result_cb, &result);
  wait_for (result != NULL);

  return mcp_client_get_prompt_finish (fixture->client, result, error);
}

static char **
complete (Fixture    *fixture,
          const char *ref_type,
          const char *ref_name,
          const char *argument,
          const char *value,
          const char *context)
{
  g_autoptr(JsonObject) ctx = object_from (context);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  char **values;

  mcp_client_complete_async (fixture->client, ref_type, ref_name, argument, value, ctx, NULL,
                             test_store_result_cb, &result);
  wait_for (result != NULL);
  values = mcp_client_complete_finish (fixture->client, result, NULL, NULL, &error);
  g_assert_no_error (error);

  return values;
}

static void
test_prompts (Fixture       *fixture,
              gconstpointer  data)
{
  const struct {
    const char *name;
    const char *arguments;
    const char *expect;
    McpContentType type;
  } prompts[] = {
    { "simple-prompt", NULL, NULL, MCP_CONTENT_TEXT },
    { "args-prompt", "{\"city\":\"Paris\",\"state\":\"Île-de-France\"}", "Paris",
      MCP_CONTENT_TEXT },
    { "completable-prompt", "{\"department\":\"Engineering\",\"name\":\"Alice\"}", "Alice",
      MCP_CONTENT_TEXT },
    { "resource-prompt", "{\"resourceType\":\"Text\",\"resourceId\":\"2\"}", NULL,
      MCP_CONTENT_RESOURCE },
  };
  GListModel *model = mcp_client_get_prompts (fixture->client);
  g_auto(GStrv) departments = NULL;
  g_auto(GStrv) names = NULL;

  wait_for (g_list_model_get_n_items (model) == G_N_ELEMENTS (prompts));

  for (guint i = 0; i < G_N_ELEMENTS (prompts); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(McpPromptResult) result = get_prompt (fixture, prompts[i].name,
                                                      prompts[i].arguments, &error);
      gboolean found_type = FALSE;
      gboolean found_text = prompts[i].expect == NULL;

      g_assert_no_error (error);
      g_assert_cmpuint (mcp_prompt_result_get_n_messages (result), >=, 1);
      for (guint j = 0; j < mcp_prompt_result_get_n_messages (result); j++)
        {
          McpContent *content = mcp_prompt_result_get_message_content (result, j);
          const char *text = mcp_content_get_text (content);

          g_assert_true (g_str_equal (mcp_prompt_result_get_message_role (result, j), "user") ||
                         g_str_equal (mcp_prompt_result_get_message_role (result, j), "assistant"));
          found_type |= mcp_content_get_content_type (content) == prompts[i].type;
          found_text |= text != NULL && prompts[i].expect != NULL &&
                        strstr (text, prompts[i].expect) != NULL;
        }
      g_assert_true (found_type);
      g_assert_true (found_text);
    }

  /* A missing required argument is the server's error to give. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(McpPromptResult) result = get_prompt (fixture, "args-prompt", "{}", &error);

    g_assert_null (result);
    g_assert_true (mcp_error_is_rpc (error));
  }

  /* Completion of one argument, then of another in the context of the first. */
  departments = complete (fixture, "ref/prompt", "completable-prompt", "department", "", NULL);
  g_assert_true (g_strv_contains ((const char * const *) departments, "Engineering"));
  names = complete (fixture, "ref/prompt", "completable-prompt", "name", "",
                    "{\"department\":\"Engineering\"}");
  g_assert_cmpuint (g_strv_length (names), >, 0);
  {
    g_auto(GStrv) ids = complete (fixture, "ref/resource", "demo://resource/dynamic/text/{resourceId}",
                                  "resourceId", "1", NULL);

    g_assert_cmpuint (g_strv_length (ids), >, 0);
  }
}

static int
level_rank (const char *level)
{
  const char *levels[] = { "debug", "info", "notice", "warning", "error", "critical", "alert",
                           "emergency" };

  for (guint i = 0; i < G_N_ELEMENTS (levels); i++)
    if (g_str_equal (level, levels[i]))
      return (int) i;

  g_error ("unknown level %s", level);
}

static void
set_log_level (Fixture    *fixture,
               const char *level)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  mcp_client_set_log_level_async (fixture->client, level, NULL, test_store_result_cb, &result);
  wait_for (result != NULL);
  g_assert_true (mcp_client_set_log_level_finish (fixture->client, result, &error));
  g_assert_no_error (error);
}

/* Each toggle on sends one message at a random level right away; the
 * server drops those below the level we set. A ping after the toggles
 * is answered only after the messages were written, so once it returns
 * every message of the round has arrived. */
static void
test_logging (Fixture       *fixture,
              gconstpointer  data)
{
  const char *levels[] = { "debug", "info", "notice", "warning", "error", "critical", "alert",
                           "emergency" };
  const guint rounds = 6;

  for (guint i = 0; i < G_N_ELEMENTS (levels); i++)
    {
      guint before = fixture->log_levels->len;

      set_log_level (fixture, levels[i]);
      for (guint r = 0; r < rounds; r++)
        {
          g_free (call_tool_text (fixture, "toggle-simulated-logging", "{}"));
          g_free (call_tool_text (fixture, "toggle-simulated-logging", "{}"));
        }
      ping (fixture->client);

      for (guint j = before; j < fixture->log_levels->len; j++)
        g_assert_cmpint (level_rank (g_ptr_array_index (fixture->log_levels, j)), >=, (int) i);
      /* At debug every message passes: at least one per round (the
       * server's own five-second timer may add one on a slow machine). */
      if (i == 0)
        g_assert_cmpuint (fixture->log_levels->len - before, >=, rounds);
      g_test_message ("level %s: %u messages", levels[i], fixture->log_levels->len - before);
    }
}

typedef struct {
  guint        calls;
  double       last;
  GCancellable *cancel_on_first;
} Progress;

static void
progress_cb (double      progress,
             double      total,
             const char *message,
             gpointer    user_data)
{
  Progress *p = user_data;

  g_assert_cmpfloat (progress, >, p->last);
  p->calls++;
  p->last = progress;
  if (p->cancel_on_first != NULL)
    g_cancellable_cancel (p->cancel_on_first);
}

static void
test_progress_and_cancel (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(JsonObject) args = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(McpToolResult) reply = NULL;
  Progress progress = { 0 };
  Progress cancelled = { 0, 0, cancellable };
  gint64 started;

  /* 4 steps over 0.8 s: progress at each step, spaced beyond coalescing. */
  args = test_parse_object ("{\"duration\":0.8,\"steps\":4}");
  mcp_client_call_tool_async (fixture->client, "trigger-long-running-operation", args,
                              progress_cb, &progress, NULL, NULL, test_store_result_cb, &result);
  wait_for (result != NULL);
  reply = mcp_client_call_tool_finish (fixture->client, result, &error);
  g_assert_no_error (error);
  g_assert_false (mcp_tool_result_get_is_error (reply));
  g_assert_cmpuint (progress.calls, >=, 3);
  g_assert_cmpfloat (progress.last, ==, 4);
  g_clear_object (&result);
  g_clear_object (&reply);
  g_clear_pointer (&args, json_object_unref);

  /* A 20 s operation, cancelled at its first progress: we are free at
   * once and the connection stays usable. */
  args = test_parse_object ("{\"duration\":20,\"steps\":20}");
  started = g_get_monotonic_time ();
  mcp_client_call_tool_async (fixture->client, "trigger-long-running-operation", args,
                              progress_cb, &cancelled, NULL, cancellable, test_store_result_cb,
                              &result);
  wait_for (result != NULL);
  reply = mcp_client_call_tool_finish (fixture->client, result, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_test_message ("the cancelled 20 s operation let go after %.1f s",
                  (g_get_monotonic_time () - started) / (double) G_USEC_PER_SEC);
  ping (fixture->client);
}

static void
count_answers_cb (McpClient         *client,
                  McpTraceDirection  direction,
                  McpMessage        *message,
                  gpointer           user_data)
{
  guint *answers = user_data;

  if (direction == MCP_TRACE_OUTGOING && mcp_message_get_kind (message) == MCP_MESSAGE_RESULT)
    (*answers)++;
}

static void
test_roots_changed (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *text = NULL;
  guint answers = 0;
  gint64 deadline;

  test_list_changed (fixture, data);
  text = call_tool_text (fixture, "get-roots-list", "{}");
  g_assert_nonnull (strstr (text, "file:///srv/projects/first"));

  /* The person picks another folder: the server is told and asks again. */
  g_signal_connect (fixture->client, "trace", G_CALLBACK (count_answers_cb), &answers);
  g_free (fixture->root_uri);
  fixture->root_uri = g_strdup ("file:///srv/projects/second");
  mcp_client_notify_roots_changed (fixture->client);
  wait_for (answers > 0);
  g_signal_handlers_disconnect_by_data (fixture->client, &answers);

  /* Our answer and the next call may reach the server by different
   * requests, so it may take a call or more before it has read the
   * answer; the roots it then reports are the new ones alone. */
  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  do
    {
      g_free (text);
      text = call_tool_text (fixture, "get-roots-list", "{}");
    }
  while (strstr (text, "file:///srv/projects/second") == NULL &&
         g_get_monotonic_time () < deadline);
  g_assert_nonnull (strstr (text, "file:///srv/projects/second"));
  g_assert_null (strstr (text, "file:///srv/projects/first"));
}

int
main (int   argc,
      char *argv[])
{
  /* A secret in our environment must not reach servers (get-env shows). */
  g_setenv ("STEWARD_TEST_SECRET", "canary-5f1c", TRUE);

  g_test_init (&argc, &argv, NULL);

  for (Kind kind = KIND_STDIO; kind <= KIND_SSE; kind++)
    {
      gconstpointer data = GUINT_TO_POINTER (kind);
      g_autofree char *revisions = g_strdup_printf ("/steward/everything/%s/revisions",
                                                    kind_names[kind]);

      g_test_add_data_func (revisions, data, test_revisions);

#define ADD(path, func)                                                               \
      G_STMT_START {                                                                  \
        g_autofree char *name_ = g_strdup_printf ("/steward/everything/%s/%s",        \
                                                  kind_names[kind], path);            \
        g_test_add (name_, Fixture, data, fixture_set_up, func, fixture_tear_down);   \
      } G_STMT_END

      ADD ("list-changed", test_list_changed);
      ADD ("tools", test_tools);
      ADD ("tool-errors", test_tool_errors);
      ADD ("resources", test_resources);
      ADD ("subscriptions", test_subscriptions);
      ADD ("prompts", test_prompts);
      ADD ("logging", test_logging);
      ADD ("progress-and-cancel", test_progress_and_cancel);
      ADD ("roots-changed", test_roots_changed);
    }

#undef ADD

  return g_test_run ();
}

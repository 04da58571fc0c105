/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-sampling-request"

#include "config.h"

#include <locale.h>
#include <string.h>

#include "mcp-error.h"
#include "mcp-json.h"
#include "mcp-sampling-request.h"

static JsonObject *
parse_object (const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = mcp_json_parse (text, -1, &error);

  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));

  return json_object_ref (json_node_get_object (node));
}

#define HELLO "{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":\"hello\"}}"

static const struct {
  const char *params;
  const char *names;   /* what the error must mention, or NULL for valid */
} requests[] = {
  { "{\"messages\":[" HELLO "],\"maxTokens\":10}", NULL },
  { "{\"messages\":[" HELLO "],\"maxTokens\":10.0,\"systemPrompt\":null}", NULL },
  { "{\"messages\":[" HELLO "],\"maxTokens\":10,\"systemPrompt\":\"be brief\","
    "\"tools\":[{\"name\":\"add\"}],\"toolChoice\":{\"mode\":\"required\"}}", NULL },
  /* A tool loop's round: the use and its result, in 2025-11-25's arrays. */
  { "{\"maxTokens\":10,\"messages\":[" HELLO ","
    "{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"u1\",\"name\":\"add\","
    "\"input\":{}}]},"
    "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"toolUseId\":\"u1\","
    "\"content\":[]}]}]}", NULL },

  { "{\"maxTokens\":10}", "“messages” array" },
  { "{\"messages\":{},\"maxTokens\":10}", "“messages” array" },
  { "{\"messages\":[],\"maxTokens\":10}", "is empty" },
  { "{\"messages\":[7],\"maxTokens\":10}", "“messages[0]” must be an object" },
  { "{\"messages\":[" HELLO ",{\"role\":\"system\",\"content\":{}}],\"maxTokens\":10}",
    "“messages[1].role”" },
  { "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"maxTokens\":10}",
    "“messages[0].content”" },
  { "{\"messages\":[" HELLO "]}", "“maxTokens”" },
  { "{\"messages\":[" HELLO "],\"maxTokens\":0}", "“maxTokens”" },
  { "{\"messages\":[" HELLO "],\"maxTokens\":2.5}", "“maxTokens”" },
  { "{\"messages\":[" HELLO "],\"maxTokens\":\"10\"}", "“maxTokens”" },
  { "{\"messages\":[" HELLO "],\"maxTokens\":10,\"systemPrompt\":3}", "“systemPrompt”" },
  { "{\"messages\":[" HELLO "],\"maxTokens\":10,\"tools\":[{}]}", "“tools”" },
  { "{\"messages\":[" HELLO "],\"maxTokens\":10,\"tools\":{}}", "“tools”" },
  { "{\"messages\":[" HELLO "],\"maxTokens\":10,\"toolChoice\":{\"mode\":\"often\"}}",
    "“toolChoice”" },
  { "{\"messages\":[" HELLO "],\"maxTokens\":10,\"toolChoice\":\"auto\"}", "“toolChoice”" },
  { "{\"maxTokens\":10,\"messages\":[{\"role\":\"user\",\"content\":"
    "[{\"type\":\"tool_result\"}]}]}", "“toolUseId”" },
  { "{\"maxTokens\":10,\"messages\":[{\"role\":\"assistant\",\"content\":"
    "[{\"type\":\"tool_use\",\"id\":\"u1\"}]}]}", "“id” and a “name”" },
  { "{\"maxTokens\":10,\"messages\":[{\"role\":\"user\",\"content\":"
    "[{\"type\":\"tool_result\",\"toolUseId\":\"u1\"},{\"type\":\"text\",\"text\":\"x\"}]}]}",
    "mixed with other content" },
  { "{\"maxTokens\":10,\"messages\":[" HELLO ",{\"role\":\"assistant\",\"content\":"
    "[{\"type\":\"tool_use\",\"id\":\"u1\",\"name\":\"add\"}]}]}", "Tool result missing" },
};

static void
test_request (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (requests); i++)
    {
      g_autoptr(JsonObject) params = parse_object (requests[i].params);
      g_autoptr(GError) error = NULL;
      gboolean valid;

      g_test_message ("%s", requests[i].params);
      valid = mcp_sampling_request_validate (params, &error);

      if (requests[i].names == NULL)
        {
          g_assert_no_error (error);
          g_assert_true (valid);
          continue;
        }

      g_assert_false (valid);
      g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS);
      g_assert_nonnull (strstr (error->message, requests[i].names));
    }
}

static void
test_tool_round (void)
{
  g_autoptr(JsonObject) plain = parse_object (requests[0].params);
  g_autoptr(JsonObject) round = parse_object (requests[3].params);
  g_autoptr(JsonObject) empty = parse_object ("{\"messages\":[]}");
  g_autoptr(JsonObject) none = parse_object ("{}");

  g_assert_false (mcp_sampling_request_is_tool_round (plain));
  g_assert_true (mcp_sampling_request_is_tool_round (round));
  /* Unchecked params never crash it. */
  g_assert_false (mcp_sampling_request_is_tool_round (empty));
  g_assert_false (mcp_sampling_request_is_tool_round (none));
}

static void
test_content (void)
{
  g_autoptr(JsonObject) one = parse_object ("{\"content\":{\"type\":\"text\",\"text\":\"a\"}}");
  g_autoptr(JsonObject) many = NULL;
  g_autofree char *text = NULL;
  JsonNode *content;

  many = parse_object ("{\"content\":[{\"type\":\"text\",\"text\":\"a\"},"
                       "{\"type\":\"image\",\"data\":\"AA==\",\"mimeType\":\"image/png\"},"
                       "7,{\"type\":\"text\",\"text\":\"b\"}]}");

  content = json_object_get_member (one, "content");
  g_assert_cmpuint (mcp_sampling_content_get_n_blocks (content), ==, 1);
  g_assert_nonnull (mcp_sampling_content_get_block (content, 0));
  text = mcp_sampling_content_dup_text (content);
  g_assert_cmpstr (text, ==, "a");
  g_clear_pointer (&text, g_free);

  content = json_object_get_member (many, "content");
  g_assert_cmpuint (mcp_sampling_content_get_n_blocks (content), ==, 4);
  g_assert_null (mcp_sampling_content_get_block (content, 2));
  text = mcp_sampling_content_dup_text (content);
  g_assert_cmpstr (text, ==, "a\nb");
  g_clear_pointer (&text, g_free);

  g_assert_cmpuint (mcp_sampling_content_get_n_blocks (NULL), ==, 0);
  text = mcp_sampling_content_dup_text (NULL);
  g_assert_cmpstr (text, ==, "");
}

static const struct {
  const char *result;
  gboolean    valid;
} results[] = {
  { "{\"role\":\"assistant\",\"content\":{\"type\":\"text\",\"text\":\"hi\"}}", TRUE },
  { "{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"u\",\"name\":\"n\"}]}",
    TRUE },
  { "{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":\"hi\"}}", FALSE },
  { "{\"role\":\"assistant\"}", FALSE },
  { "{\"role\":\"assistant\",\"content\":[]}", FALSE },
  { "{\"role\":\"assistant\",\"content\":[{\"text\":\"no type\"}]}", FALSE },
  { "{\"role\":\"assistant\",\"content\":\"hi\"}", FALSE },
};

static void
test_result (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (results); i++)
    {
      g_autoptr(JsonObject) result = parse_object (results[i].result);
      g_autoptr(GError) error = NULL;

      g_test_message ("%s", results[i].result);
      g_assert_cmpint (mcp_sampling_result_validate (result, &error), ==, results[i].valid);
      if (results[i].valid)
        g_assert_no_error (error);
      else
        g_assert_error (error, MCP_ERROR, MCP_ERROR_INTERNAL_ERROR);
    }
}

#define SCHEMA "\"requestedSchema\":{\"type\":\"object\",\"properties\":{}}"

static const struct {
  const char *params;
  gboolean    url_mode;
  const char *names;   /* what the error must mention, or NULL for valid */
} elicitations[] = {
  { "{\"message\":\"Name?\"," SCHEMA "}", FALSE, NULL },
  { "{\"mode\":\"form\",\"message\":\"Name?\"," SCHEMA "}", FALSE, NULL },
  { "{\"mode\":\"url\",\"message\":\"Sign in\",\"url\":\"https://example.org/\","
    "\"elicitationId\":\"e1\"}", TRUE, NULL },
  { "{" SCHEMA "}", FALSE, "“message”" },
  { "{\"message\":\"Name?\",\"mode\":1," SCHEMA "}", FALSE, "“mode”" },
  { "{\"message\":\"Name?\",\"mode\":\"dance\"," SCHEMA "}", FALSE, "“dance”" },
  { "{\"mode\":\"url\",\"message\":\"Sign in\",\"elicitationId\":\"e1\"}", FALSE, "“url”" },
  { "{\"mode\":\"url\",\"message\":\"Sign in\",\"url\":\"https://example.org/\"}", FALSE,
    "“elicitationId”" },
  { "{\"message\":\"Name?\"}", FALSE, "“requestedSchema”" },
  { "{\"message\":\"Name?\",\"requestedSchema\":{\"type\":\"array\",\"properties\":{}}}", FALSE,
    "“requestedSchema.type”" },
  { "{\"message\":\"Name?\",\"requestedSchema\":{\"type\":\"object\"}}", FALSE,
    "“requestedSchema.properties”" },
};

static void
test_elicitation (void)
{
  g_autoptr(GError) error = NULL;
  gboolean url_mode = TRUE;

  for (guint i = 0; i < G_N_ELEMENTS (elicitations); i++)
    {
      g_autoptr(JsonObject) params = parse_object (elicitations[i].params);
      gboolean valid;

      g_test_message ("%s", elicitations[i].params);
      url_mode = !elicitations[i].url_mode;
      valid = mcp_elicitation_request_validate (params, &url_mode, &error);

      if (elicitations[i].names == NULL)
        {
          g_assert_no_error (error);
          g_assert_true (valid);
          g_assert_cmpint (url_mode, ==, elicitations[i].url_mode);
          continue;
        }

      g_assert_false (valid);
      g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS);
      g_assert_nonnull (strstr (error->message, elicitations[i].names));
      g_clear_error (&error);
    }

  g_assert_false (mcp_elicitation_request_validate (NULL, &url_mode, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS);
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "C.UTF-8");
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/steward/sampling-request/request", test_request);
  g_test_add_func ("/steward/sampling-request/tool-round", test_tool_round);
  g_test_add_func ("/steward/sampling-request/content", test_content);
  g_test_add_func ("/steward/sampling-request/result", test_result);
  g_test_add_func ("/steward/sampling-request/elicitation", test_elicitation);

  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-jsonrpc"

#include "config.h"

#include <string.h>

#include "mcp-error.h"
#include "mcp-jsonrpc.h"
#include "mcp-message.h"

static GPtrArray *
decode (const char *text,
        gboolean    allow_batch,
        guint      *n_invalid,
        GError    **error)
{
  return mcp_jsonrpc_decode (text, strlen (text), allow_batch, n_invalid, error);
}

/* Decodes one text that must hold exactly one valid message. */
static McpMessage *
decode_one (const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) messages = NULL;

  messages = decode (text, FALSE, NULL, &error);
  if (error != NULL)
    g_test_message ("rejected: %s", text);
  g_assert_no_error (error);
  g_assert_nonnull (messages);
  g_assert_cmpuint (messages->len, ==, 1);

  return mcp_message_ref (messages->pdata[0]);
}

/* Both with and without batches allowed, a single object that breaks a rule
 * is rejected with an error in our domain. */
static void
assert_rejected (const char *text)
{
  for (guint allow = 0; allow <= 1; allow++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) messages = NULL;
      guint n_invalid = 0;

      messages = decode (text, allow, &n_invalid, &error);
      if (messages != NULL)
        g_error ("accepted (allow_batch=%u): %s", allow, text);
      g_assert_nonnull (error);
      g_assert_cmpuint (error->domain, ==, MCP_ERROR);
    }
}

static void
assert_rejected_with (const char *text,
                      gsize       length,
                      int         code)
{
  for (guint allow = 0; allow <= 1; allow++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) messages = NULL;
      guint n_invalid = 0;

      messages = mcp_jsonrpc_decode (text, length, allow, &n_invalid, &error);
      g_assert_null (messages);
      g_assert_error (error, MCP_ERROR, code);
    }
}

static void
test_request_ids (void)
{
  g_autoptr(McpMessage) by_string = NULL;
  g_autoptr(McpMessage) by_int = NULL;
  g_autoptr(McpMessage) by_negative = NULL;
  g_autoptr(McpMessage) by_big = NULL;
  g_autoptr(McpMessage) by_empty = NULL;
  gint64 id = 0;

  by_string = decode_one ("{\"jsonrpc\":\"2.0\",\"id\":\"7\",\"method\":\"ping\"}");
  g_assert_cmpint (mcp_message_get_kind (by_string), ==, MCP_MESSAGE_REQUEST);
  g_assert_cmpstr (mcp_message_get_method (by_string), ==, "ping");
  g_assert_nonnull (mcp_message_get_id (by_string));
  g_assert_cmpuint (json_node_get_value_type (mcp_message_get_id (by_string)), ==, G_TYPE_STRING);
  g_assert_cmpstr (json_node_get_string (mcp_message_get_id (by_string)), ==, "7");
  g_assert_false (mcp_message_get_int_id (by_string, &id));

  by_int = decode_one ("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}");
  g_assert_cmpint (mcp_message_get_kind (by_int), ==, MCP_MESSAGE_REQUEST);
  g_assert_true (mcp_message_get_int_id (by_int, &id));
  g_assert_cmpint (id, ==, 7);

  /* The same digits as string and as integer are different ids. */
  {
    g_autofree char *a = mcp_message_dup_id_string (by_string);
    g_autofree char *b = mcp_message_dup_id_string (by_int);

    g_assert_cmpstr (a, !=, b);
  }

  by_negative = decode_one ("{\"jsonrpc\":\"2.0\",\"id\":-3,\"method\":\"ping\"}");
  g_assert_true (mcp_message_get_int_id (by_negative, &id));
  g_assert_cmpint (id, ==, -3);

  by_big = decode_one ("{\"jsonrpc\":\"2.0\",\"id\":9007199254740993,\"method\":\"ping\"}");
  g_assert_true (mcp_message_get_int_id (by_big, &id));
  g_assert_cmpint (id, ==, G_GINT64_CONSTANT (9007199254740993));

  by_empty = decode_one ("{\"jsonrpc\":\"2.0\",\"id\":\"\",\"method\":\"ping\"}");
  g_assert_cmpint (mcp_message_get_kind (by_empty), ==, MCP_MESSAGE_REQUEST);
  g_assert_cmpstr (json_node_get_string (mcp_message_get_id (by_empty)), ==, "");
}

static void
test_bad_request_ids (void)
{
  static const char *const ids[] = {
    "null", "1.5", "2.0", "-0.5", "true", "false", "{}", "{\"a\":1}", "[]", "[1]",
  };

  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      g_autofree char *request = NULL;
      g_autofree char *result = NULL;

      request = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%s,\"method\":\"ping\"}", ids[i]);
      assert_rejected (request);
      result = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{}}", ids[i]);
      assert_rejected (result);
    }

  /* A result must say which request it answers. */
  assert_rejected ("{\"jsonrpc\":\"2.0\",\"result\":{}}");
}

static void
test_error_ids (void)
{
  g_autoptr(McpMessage) no_id = NULL;
  g_autoptr(McpMessage) null_id = NULL;
  g_autoptr(McpMessage) string_id = NULL;
  g_autoptr(McpMessage) int_id = NULL;
  gint64 id = 0;

  no_id = decode_one ("{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}");
  g_assert_cmpint (mcp_message_get_kind (no_id), ==, MCP_MESSAGE_ERROR);
  g_assert_cmpint (mcp_message_get_error_code (no_id), ==, -32700);
  g_assert_cmpstr (mcp_message_get_error_message (no_id), ==, "Parse error");
  g_assert_false (mcp_message_get_int_id (no_id, &id));
  g_assert_true (mcp_message_get_id (no_id) == NULL ||
                 JSON_NODE_HOLDS_NULL (mcp_message_get_id (no_id)));

  null_id = decode_one ("{\"jsonrpc\":\"2.0\",\"id\":null,"
                        "\"error\":{\"code\":-32600,\"message\":\"Invalid Request\"}}");
  g_assert_cmpint (mcp_message_get_kind (null_id), ==, MCP_MESSAGE_ERROR);
  g_assert_cmpint (mcp_message_get_error_code (null_id), ==, -32600);
  g_assert_true (mcp_message_get_id (null_id) == NULL ||
                 JSON_NODE_HOLDS_NULL (mcp_message_get_id (null_id)));

  string_id = decode_one ("{\"jsonrpc\":\"2.0\",\"id\":\"q\","
                          "\"error\":{\"code\":-32601,\"message\":\"nope\"}}");
  g_assert_cmpstr (json_node_get_string (mcp_message_get_id (string_id)), ==, "q");

  int_id = decode_one ("{\"jsonrpc\":\"2.0\",\"id\":12,"
                       "\"error\":{\"code\":5,\"message\":\"custom\",\"data\":[1,2]}}");
  g_assert_true (mcp_message_get_int_id (int_id, &id));
  g_assert_cmpint (id, ==, 12);
  g_assert_cmpint (mcp_message_get_error_code (int_id), ==, 5);
  g_assert_nonnull (mcp_message_get_error_data (int_id));
  g_assert_true (JSON_NODE_HOLDS_ARRAY (mcp_message_get_error_data (int_id)));

  /* An error code is an integer. */
  assert_rejected ("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":\"x\",\"message\":\"m\"}}");
  assert_rejected ("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":1.5,\"message\":\"m\"}}");
  assert_rejected ("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"message\":\"m\"}}");
  assert_rejected ("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":\"bad\"}");
}

/* Whatever the peer used as id, a reply carries the same JSON value. */
static void
test_id_echo (void)
{
  static const char *const requests[] = {
    "{\"jsonrpc\":\"2.0\",\"id\":\"42\",\"method\":\"sampling/createMessage\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":42,\"method\":\"sampling/createMessage\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":\"a\\\"b\",\"method\":\"roots/list\"}",
  };
  static const char *const wire_ids[] = { "\"id\":\"42\"", "\"id\":42", "\"id\":\"a\\\"b\"" };

  for (guint i = 0; i < G_N_ELEMENTS (requests); i++)
    {
      g_autoptr(McpMessage) request = decode_one (requests[i]);
      g_autoptr(McpMessage) result = NULL;
      g_autoptr(McpMessage) error = NULL;
      g_autofree char *result_text = NULL;
      g_autofree char *error_text = NULL;
      g_autoptr(McpMessage) result_back = NULL;
      g_autoptr(McpMessage) error_back = NULL;
      JsonNode *id = mcp_message_get_id (request);

      result = mcp_message_new_result (id, NULL);
      error = mcp_message_new_error (id, MCP_ERROR_METHOD_NOT_FOUND, "no", NULL);
      result_text = mcp_message_to_string (result, NULL);
      error_text = mcp_message_to_string (error, NULL);

      g_assert_nonnull (strstr (result_text, wire_ids[i]));
      g_assert_nonnull (strstr (error_text, wire_ids[i]));

      result_back = decode_one (result_text);
      error_back = decode_one (error_text);
      g_assert_true (json_node_equal (mcp_message_get_id (result_back), id));
      g_assert_true (json_node_equal (mcp_message_get_id (error_back), id));
      g_assert_cmpint (mcp_message_get_kind (result_back), ==, MCP_MESSAGE_RESULT);
      g_assert_cmpint (mcp_message_get_kind (error_back), ==, MCP_MESSAGE_ERROR);
    }
}

static void
test_classify (void)
{
  g_autoptr(McpMessage) request = NULL;
  g_autoptr(McpMessage) notification = NULL;
  g_autoptr(McpMessage) result = NULL;
  g_autoptr(McpMessage) error = NULL;
  JsonObject *params;

  request = decode_one ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\","
                        "\"params\":{\"name\":\"echo\",\"arguments\":{\"x\":1}}}");
  g_assert_cmpint (mcp_message_get_kind (request), ==, MCP_MESSAGE_REQUEST);
  g_assert_cmpstr (mcp_message_get_method (request), ==, "tools/call");
  params = mcp_message_get_params (request);
  g_assert_nonnull (params);
  g_assert_cmpstr (json_object_get_string_member (params, "name"), ==, "echo");

  notification = decode_one ("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
  g_assert_cmpint (mcp_message_get_kind (notification), ==, MCP_MESSAGE_NOTIFICATION);
  g_assert_cmpstr (mcp_message_get_method (notification), ==, "notifications/initialized");
  g_assert_null (mcp_message_get_id (notification));

  result = decode_one ("{\"jsonrpc\":\"2.0\",\"id\":\"r\",\"result\":{\"tools\":[]}}");
  g_assert_cmpint (mcp_message_get_kind (result), ==, MCP_MESSAGE_RESULT);
  g_assert_nonnull (mcp_message_get_result (result));
  g_assert_true (json_object_has_member (mcp_message_get_result (result), "tools"));

  error = decode_one ("{\"jsonrpc\":\"2.0\",\"id\":\"r\","
                      "\"error\":{\"code\":-32602,\"message\":\"Invalid params\"}}");
  g_assert_cmpint (mcp_message_get_kind (error), ==, MCP_MESSAGE_ERROR);
  g_assert_cmpint (mcp_message_get_error_code (error), ==, MCP_ERROR_INVALID_PARAMS);
}

static void
test_structure_rules (void)
{
  /* The jsonrpc member. */
  assert_rejected ("{\"id\":1,\"method\":\"ping\"}");
  assert_rejected ("{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}");
  assert_rejected ("{\"jsonrpc\":2.0,\"id\":1,\"method\":\"ping\"}");
  assert_rejected ("{\"jsonrpc\":null,\"id\":1,\"method\":\"ping\"}");
  assert_rejected ("{\"jsonrpc\":\"2.0 \",\"method\":\"ping\"}");

  /* Exactly one of result and error. */
  assert_rejected ("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{},"
                   "\"error\":{\"code\":1,\"message\":\"m\"}}");
  assert_rejected ("{\"jsonrpc\":\"2.0\",\"id\":1}");
  assert_rejected ("{\"jsonrpc\":\"2.0\"}");

  /* Params are an object when present. */
  assert_rejected ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":[1,2]}");
  assert_rejected ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":\"p\"}");
  assert_rejected ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":3}");
  assert_rejected ("{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":[]}");

  /* The method is a string. */
  assert_rejected ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":5}");
  assert_rejected ("{\"jsonrpc\":\"2.0\",\"method\":null}");

  /* Valid JSON that is not an object. */
  assert_rejected ("42");
  assert_rejected ("\"text\"");
  assert_rejected ("null");
  assert_rejected ("true");
}

static void
test_batch (void)
{
  const char *batch =
    "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},"
    " {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progress\":1}},"
    " {\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"bad\"},"
    " 17,"
    " {\"jsonrpc\":\"2.0\",\"id\":\"x\",\"result\":{}},"
    " {\"jsonrpc\":\"1.0\",\"id\":2,\"method\":\"old\"}]";
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) messages = NULL;
  guint n_invalid = 99;

  messages = decode (batch, TRUE, &n_invalid, &error);
  g_assert_no_error (error);
  g_assert_nonnull (messages);
  g_assert_cmpuint (n_invalid, ==, 3);
  g_assert_cmpuint (messages->len, ==, 3);
  g_assert_cmpint (mcp_message_get_kind (messages->pdata[0]), ==, MCP_MESSAGE_REQUEST);
  g_assert_cmpint (mcp_message_get_kind (messages->pdata[1]), ==, MCP_MESSAGE_NOTIFICATION);
  g_assert_cmpint (mcp_message_get_kind (messages->pdata[2]), ==, MCP_MESSAGE_RESULT);
  g_assert_cmpstr (mcp_message_get_method (messages->pdata[1]), ==, "notifications/progress");

  /* When batches are not allowed, the array as a whole is refused. */
  g_clear_pointer (&messages, g_ptr_array_unref);
  messages = decode (batch, FALSE, &n_invalid, &error);
  g_assert_null (messages);
  g_assert_nonnull (error);
  g_assert_cmpuint (error->domain, ==, MCP_ERROR);
  g_clear_error (&error);

  messages = decode ("[{\"jsonrpc\":\"2.0\",\"method\":\"a\"}]", FALSE, &n_invalid, &error);
  g_assert_null (messages);
  g_assert_nonnull (error);
  g_clear_error (&error);

  /* An empty batch is invalid in JSON-RPC 2.0. */
  messages = decode ("[]", TRUE, &n_invalid, &error);
  g_assert_null (messages);
  g_assert_nonnull (error);
  g_assert_cmpuint (error->domain, ==, MCP_ERROR);
  g_clear_error (&error);

  messages = decode ("  [ ]  ", TRUE, &n_invalid, &error);
  g_assert_null (messages);
  g_assert_nonnull (error);
  g_clear_error (&error);

  /* A batch of two valid messages keeps their order. */
  n_invalid = 99;
  messages = decode ("[{\"jsonrpc\":\"2.0\",\"method\":\"first\"},"
                     "{\"jsonrpc\":\"2.0\",\"method\":\"second\"}]", TRUE, &n_invalid, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (messages->len, ==, 2);
  g_assert_cmpuint (n_invalid, ==, 0);
  g_assert_cmpstr (mcp_message_get_method (messages->pdata[0]), ==, "first");
  g_assert_cmpstr (mcp_message_get_method (messages->pdata[1]), ==, "second");
}

static char *
nest (guint       depth,
      const char *inner)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < depth; i++)
    g_string_append_c (s, '[');
  g_string_append (s, inner);
  for (guint i = 0; i < depth; i++)
    g_string_append_c (s, ']');

  return g_string_free (s, FALSE);
}

/* A message whose nesting, counting its own object, is exactly @depth. */
static char *
message_of_depth (guint depth)
{
  g_autofree char *inner = NULL;

  g_assert_cmpuint (depth, >=, 3);
  /* The message object and the params object are two levels, the value
   * under "a" adds depth - 2 arrays. */
  inner = nest (depth - 2, "");
  return g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{\"a\":%s}}", inner);
}

static void
test_depth_limit (void)
{
  g_autofree char *ok = message_of_depth (MCP_JSONRPC_MAX_DEPTH);
  g_autofree char *deep = message_of_depth (MCP_JSONRPC_MAX_DEPTH + 1);
  g_autoptr(McpMessage) message = NULL;
  g_autofree char *arrays_ok = nest (64, "1");
  g_autofree char *arrays_deep = nest (65, "1");
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (MCP_JSONRPC_MAX_DEPTH, ==, 64);

  message = decode_one (ok);
  g_assert_cmpint (mcp_message_get_kind (message), ==, MCP_MESSAGE_NOTIFICATION);

  assert_rejected_with (deep, strlen (deep), MCP_ERROR_TOO_DEEP);

  g_assert_true (mcp_jsonrpc_check_text (arrays_ok, strlen (arrays_ok), 64, &error));
  g_assert_no_error (error);
  g_assert_false (mcp_jsonrpc_check_text (arrays_deep, strlen (arrays_deep), 64, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_TOO_DEEP);
  g_clear_error (&error);

  /* Objects count like arrays. */
  {
    GString *objects = g_string_new (NULL);

    for (guint i = 0; i < 65; i++)
      g_string_append (objects, "{\"k\":");
    g_string_append (objects, "0");
    for (guint i = 0; i < 65; i++)
      g_string_append_c (objects, '}');
    g_assert_false (mcp_jsonrpc_check_text (objects->str, objects->len, 64, &error));
    g_assert_error (error, MCP_ERROR, MCP_ERROR_TOO_DEEP);
    g_clear_error (&error);
    g_string_free (objects, TRUE);
  }
}

static void
test_depth_huge (void)
{
  guint depth = 100000;
  GString *arrays = g_string_sized_new (depth * 2);
  GString *objects = g_string_sized_new (depth * 6);
  GString *unclosed = g_string_sized_new (depth);

  for (guint i = 0; i < depth; i++)
    {
      g_string_append_c (arrays, '[');
      g_string_append (objects, "{\"a\":");
      g_string_append_c (unclosed, '[');
    }
  for (guint i = 0; i < depth; i++)
    {
      g_string_append_c (arrays, ']');
      g_string_append_c (objects, '}');
    }
  g_string_prepend (objects, "{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":");
  g_string_append_c (objects, '}');

  assert_rejected_with (arrays->str, arrays->len, MCP_ERROR_TOO_DEEP);
  assert_rejected_with (objects->str, objects->len, MCP_ERROR_TOO_DEEP);
  assert_rejected_with (unclosed->str, unclosed->len, MCP_ERROR_TOO_DEEP);

  g_string_free (arrays, TRUE);
  g_string_free (objects, TRUE);
  g_string_free (unclosed, TRUE);
}

static void
test_depth_strings (void)
{
  g_autoptr(GString) text = g_string_new ("{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{\"s\":\"");
  g_autoptr(GString) escaped = g_string_new (NULL);
  g_autoptr(GString) backslash = g_string_new (NULL);
  g_autoptr(McpMessage) message = NULL;
  g_autoptr(McpMessage) escaped_message = NULL;
  g_autofree char *deep_tail = nest (70, "");
  g_autoptr(GError) error = NULL;

  /* Brackets inside a string are text, not nesting. */
  for (guint i = 0; i < 1000; i++)
    g_string_append (text, "[{");
  g_string_append (text, "\"}}");
  message = decode_one (text->str);
  g_assert_cmpuint (strlen (json_object_get_string_member (mcp_message_get_params (message), "s")),
                    ==, 2000);

  /* An escaped quote does not end the string, so what follows it is still
   * inside. */
  g_string_append (escaped, "{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{\"s\":\"\\\"");
  g_string_append (escaped, deep_tail);
  g_string_append (escaped, "\"}}");
  escaped_message = decode_one (escaped->str);
  g_assert_cmpint (mcp_message_get_kind (escaped_message), ==, MCP_MESSAGE_NOTIFICATION);

  /* An escaped backslash does not escape the quote after it: the string ends
   * there and the brackets that follow count. */
  g_string_append (backslash, "{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{\"s\":\"\\\\\",\"t\":");
  g_string_append (backslash, deep_tail);
  g_string_append (backslash, "}}");
  assert_rejected_with (backslash->str, backslash->len, MCP_ERROR_TOO_DEEP);

  g_assert_false (mcp_jsonrpc_check_text (backslash->str, backslash->len, 64, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_TOO_DEEP);
  g_clear_error (&error);
  g_assert_true (mcp_jsonrpc_check_text (escaped->str, escaped->len, 64, &error));
  g_assert_no_error (error);
}

static void
test_invalid_utf8 (void)
{
  static const char *const bad[] = {
    "{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{\"s\":\"\xff\"}}",
    "{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{\"s\":\"\xc3\"}}",
    "{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{\"s\":\"\xc0\xaf\"}}",
    "{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{\"s\":\"\xed\xa0\x80\"}}",
    "{\"jsonrpc\":\"2.0\",\"method\":\"m\xfe\"}",
    "\xef\xbb\xbf\xff{}",
  };
  const char with_nul[] = "{\"jsonrpc\":\"2.0\",\"method\":\"m\0\"}";
  g_autoptr(McpMessage) good = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    assert_rejected_with (bad[i], strlen (bad[i]), MCP_ERROR_INVALID_UTF8);

  /* A NUL byte is not valid in a JSON text either; it must not truncate the
   * text silently into something valid. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GPtrArray) messages = NULL;

    messages = mcp_jsonrpc_decode (with_nul, sizeof with_nul - 1, FALSE, NULL, &error);
    g_assert_null (messages);
    g_assert_nonnull (error);
  }

  good = decode_one ("{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{\"s\":\"caf\xc3\xa9 \xf0\x9f\x90\xa7\"}}");
  g_assert_cmpstr (json_object_get_string_member (mcp_message_get_params (good), "s"),
                   ==, "caf\xc3\xa9 \xf0\x9f\x90\xa7");
}

static void
test_not_json (void)
{
  static const char *const texts[] = {
    "hello",
    "{",
    "{\"jsonrpc\":",
    "{\"jsonrpc\":\"2.0\",\"method\":\"m\"",
    "{\"jsonrpc\":\"2.0\" \"method\":\"m\"}",
    "[{\"jsonrpc\":\"2.0\",\"method\":\"m\"},]x",
    "Server listening on port 3000",
    "",
    "   ",
  };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    assert_rejected_with (texts[i], strlen (texts[i]), MCP_ERROR_PARSE_ERROR);
}

/* json-glib 1.6 reads a superset of JSON (it is built on GScanner): these
 * are all accepted by it, and each must be refused as not being JSON, or a
 * peer's text would mean something other than what it says. */
static void
test_strict_json (void)
{
  static const char *const texts[] = {
    /* comments, single quotes */
    "{\"jsonrpc\":\"2.0\",\"method\":\"m\" /* note */}",
    "{\"jsonrpc\":\"2.0\",\"method\":\"m\"} // note",
    "{'jsonrpc':'2.0','method':'m'}",
    /* numbers JSON does not have */
    "{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{\"a\":01}}",
    "{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{\"a\":.5}}",
    "{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{\"a\":1.}}",
    "{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{\"a\":0x10}}",
    /* escapes JSON does not have, and a \u with fewer than four hex digits */
    "{\"jsonrpc\":\"2.0\",\"method\":\"a\\x41\"}",
    "{\"jsonrpc\":\"2.0\",\"method\":\"a\\]\"}",
    "{\"jsonrpc\":\"2.0\",\"method\":\"a\\7\"}",
    "{\"jsonrpc\":\"2.0\",\"method\":\"\\udb\x14n\"}",
    "{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{\"s\":\"\\ud8\\3\"}}",
    /* a control character unescaped inside a string */
    "{\"jsonrpc\":\"2.0\",\"method\":\"a\x14\"}",
    "{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{\"s\":\"tab\there\"}}",
    /* a second value after the first: two messages on one line */
    "{\"jsonrpc\":\"2.0\",\"method\":\"m\"} {\"jsonrpc\":\"2.0\",\"method\":\"n\"}",
    "{\"jsonrpc\":\"2.0\",\"method\":\"m\"}x",
  };

  guint n_wrong = 0;

  /* Every text is tried, so one run lists all that get through. */
  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr(GPtrArray) messages = NULL;
      g_autoptr(GError) error = NULL;

      messages = decode (texts[i], FALSE, NULL, &error);
      if (messages != NULL)
        {
          g_autofree char *back = mcp_message_to_string (messages->pdata[0], NULL);

          g_test_message ("accepted: %s\n  read as: %s", texts[i], back);
          n_wrong++;
        }
      else if (!g_error_matches (error, MCP_ERROR, MCP_ERROR_PARSE_ERROR))
        {
          g_test_message ("refused with %d, not as a parse error: %s", error->code, texts[i]);
          n_wrong++;
        }
    }

  g_assert_cmpuint (n_wrong, ==, 0);
}

static void
test_wire_size (void)
{
  const char *text = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";
  g_autoptr(McpMessage) message = decode_one (text);

  g_assert_cmpuint (mcp_message_get_wire_size (message), ==, strlen (text));
}

/* Encodes @message, checks the text is one line, decodes it and checks the
 * decoded message has the same JSON. */
static McpMessage *
round_trip (McpMessage *message)
{
  g_autofree char *text = NULL;
  gsize length = 0;
  McpMessage *back;
  g_autoptr(JsonNode) a = NULL;
  g_autoptr(JsonNode) b = NULL;

  text = mcp_message_to_string (message, &length);
  g_assert_nonnull (text);
  g_assert_cmpuint (length, ==, strlen (text));
  g_assert_null (strchr (text, '\n'));
  g_assert_null (strchr (text, '\r'));

  back = decode_one (text);
  g_assert_cmpint (mcp_message_get_kind (back), ==, mcp_message_get_kind (message));

  a = mcp_message_to_node (message);
  b = mcp_message_to_node (back);
  g_assert_true (json_node_equal (a, b));

  return back;
}

static void
test_round_trip (void)
{
  g_autoptr(JsonNode) int_id = json_node_init_int (json_node_alloc (), 41);
  g_autoptr(JsonNode) string_id = json_node_init_string (json_node_alloc (), "req-\n-1");
  g_autoptr(JsonObject) params = json_object_new ();
  g_autoptr(JsonObject) result = json_object_new ();
  g_autoptr(JsonNode) data = json_node_init_string (json_node_alloc (), "line one\nline two");
  g_autoptr(McpMessage) request = NULL;
  g_autoptr(McpMessage) notification = NULL;
  g_autoptr(McpMessage) bare = NULL;
  g_autoptr(McpMessage) response = NULL;
  g_autoptr(McpMessage) failure = NULL;
  g_autoptr(McpMessage) anonymous = NULL;
  g_autoptr(McpMessage) back = NULL;
  gint64 id = 0;

  json_object_set_string_member (params, "text", "first\nsecond\r\nthird\u2028");
  json_object_set_int_member (params, "n", -7);
  json_object_set_boolean_member (params, "flag", TRUE);
  json_object_set_null_member (params, "nothing");
  json_object_set_string_member (result, "content", "a\nb\tc\"d\\e");

  request = mcp_message_new_request (int_id, "tools/call", params);
  back = round_trip (request);
  g_assert_cmpstr (mcp_message_get_method (back), ==, "tools/call");
  g_assert_true (mcp_message_get_int_id (back, &id));
  g_assert_cmpint (id, ==, 41);
  g_assert_cmpstr (json_object_get_string_member (mcp_message_get_params (back), "text"),
                   ==, "first\nsecond\r\nthird\u2028");
  g_clear_pointer (&back, mcp_message_unref);

  notification = mcp_message_new_notification ("notifications/message", params);
  back = round_trip (notification);
  g_assert_null (mcp_message_get_id (back));
  g_assert_cmpstr (mcp_message_get_method (back), ==, "notifications/message");
  g_clear_pointer (&back, mcp_message_unref);

  bare = mcp_message_new_notification ("notifications/initialized", NULL);
  back = round_trip (bare);
  g_assert_cmpint (mcp_message_get_kind (back), ==, MCP_MESSAGE_NOTIFICATION);
  g_clear_pointer (&back, mcp_message_unref);

  response = mcp_message_new_result (string_id, result);
  back = round_trip (response);
  g_assert_cmpstr (json_node_get_string (mcp_message_get_id (back)), ==, "req-\n-1");
  g_assert_cmpstr (json_object_get_string_member (mcp_message_get_result (back), "content"),
                   ==, "a\nb\tc\"d\\e");
  g_clear_pointer (&back, mcp_message_unref);

  failure = mcp_message_new_error (int_id, MCP_ERROR_INVALID_PARAMS, "bad\nparams", data);
  back = round_trip (failure);
  g_assert_cmpint (mcp_message_get_error_code (back), ==, MCP_ERROR_INVALID_PARAMS);
  g_assert_cmpstr (mcp_message_get_error_message (back), ==, "bad\nparams");
  g_assert_cmpstr (json_node_get_string (mcp_message_get_error_data (back)),
                   ==, "line one\nline two");
  g_clear_pointer (&back, mcp_message_unref);

  anonymous = mcp_message_new_error (NULL, MCP_ERROR_PARSE_ERROR, "Parse error", NULL);
  back = round_trip (anonymous);
  g_assert_cmpint (mcp_message_get_error_code (back), ==, MCP_ERROR_PARSE_ERROR);
  g_assert_false (mcp_message_get_int_id (back, &id));
  g_clear_pointer (&back, mcp_message_unref);
}

/* What we accept we must be able to send on: a decoded message encodes to a
 * text that decodes to the same message. Doubles written with an exponent and
 * lone UTF-16 surrogates in escapes are where json-glib 1.6 gets this wrong
 * (the fuzzer found both); either refusing the input or encoding it validly
 * is fine. */
static void
test_reencode (void)
{
  static const char *const texts[] = {
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"x\":1e21}}",
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"x\":-1e-300}}",
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"x\":1.5e300,\"y\":0.1,\"z\":-0.0}}",
    "{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{\"s\":\"\\ud83d\"}}",
    "{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{\"s\":\"a\\ude00b\"}}",
    "{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{\"s\":\"\\ud83d\\ude00\"}}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) messages = NULL;
      g_autoptr(McpMessage) back = NULL;

      messages = decode (texts[i], FALSE, NULL, &error);
      if (messages == NULL)
        {
          g_assert_nonnull (error);
          g_assert_cmpuint (error->domain, ==, MCP_ERROR);
          continue;
        }

      g_assert_cmpuint (messages->len, ==, 1);
      back = round_trip (messages->pdata[0]);
      g_assert_nonnull (back);
    }
}

static void
test_to_gerror (void)
{
  g_autoptr(McpMessage) message = NULL;
  g_autoptr(GError) error = NULL;

  message = decode_one ("{\"jsonrpc\":\"2.0\",\"id\":3,"
                        "\"error\":{\"code\":-32601,\"message\":\"Method not found\"}}");
  error = mcp_message_to_gerror (message);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_METHOD_NOT_FOUND);
  g_assert_true (mcp_error_is_rpc (error));
  g_assert_nonnull (strstr (error->message, "Method not found"));
}

/* An envelope is read member by member: the last of a repeated member
 * counts, as it would in an object, and members JSON-RPC does not name
 * are read (they must be valid JSON) and dropped. */
static void
test_envelope_members (void)
{
  g_autoptr(McpMessage) repeated = NULL;
  g_autoptr(McpMessage) extra = NULL;
  gint64 id = 0;

  repeated = decode_one ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\",\"id\":2,"
                         "\"method\":\"b\"}");
  g_assert_true (mcp_message_get_int_id (repeated, &id));
  g_assert_cmpint (id, ==, 2);
  g_assert_cmpstr (mcp_message_get_method (repeated), ==, "b");

  extra = decode_one ("{\"x\":{\"y\":[1,2,{\"z\":null}]},\"jsonrpc\":\"2.0\",\"id\":\"k\","
                      "\"result\":{\"ok\":true},\"other\":\"\\u00e9\"}");
  g_assert_cmpint (mcp_message_get_kind (extra), ==, MCP_MESSAGE_RESULT);
  g_assert_true (json_object_get_boolean_member (mcp_message_get_result (extra), "ok"));

  /* Broken JSON in a dropped member still fails the text. */
  assert_rejected ("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{},\"x\":[1,}");
  assert_rejected ("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}} {}");
  /* A repeated "result" beside an "error" is still two of them. */
  assert_rejected ("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{},\"error\":{\"code\":1},"
                   "\"result\":{}}");
}

/* A message keeps the text it came in when that text is written as
 * Steward writes, and only then: a trace shows that text as it stands, so
 * spacing, or an escape that could hide a secret from the redactor
 * ("\u0073k-…", "a\/b"), makes the message written anew. */
static void
test_wire_text_kept (void)
{
  static const struct {
    const char *text;
    gboolean    kept;
  } cases[] = {
    { "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"t\":\"a\\\"b\\n\"}}", TRUE },
    { "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"t\":\"caf\xc3\xa9\"}}", TRUE },
    { "{\"jsonrpc\": \"2.0\",\"id\":1,\"result\":{}}", FALSE },
    { " {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", FALSE },
    { "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\r", FALSE },
    { "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"t\":\"\\u0073k-1\"}}", FALSE },
    { "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"t\":\"a\\/b\"}}", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(McpMessage) message = decode_one (cases[i].text);
      GBytes *line = mcp_message_peek_line (message);

      g_test_message ("%s", cases[i].text);
      g_assert_true ((line != NULL) == cases[i].kept);
      if (line != NULL)
        {
          gsize length;
          const char *data = g_bytes_get_data (line, &length);

          g_assert_cmpmem (data, length - 1, cases[i].text, strlen (cases[i].text));
          g_assert_cmpint (data[length - 1], ==, '\n');
        }
      else
        {
          /* Asked for, it is written anew: compact, the escapes undone. */
          GBytes *written = mcp_message_get_line (message);

          g_assert_nonnull (written);
          g_assert_null (memchr (g_bytes_get_data (written, NULL), '\\',
                                 g_bytes_get_size (written)));
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/steward/jsonrpc/request-ids", test_request_ids);
  g_test_add_func ("/steward/jsonrpc/bad-request-ids", test_bad_request_ids);
  g_test_add_func ("/steward/jsonrpc/error-ids", test_error_ids);
  g_test_add_func ("/steward/jsonrpc/id-echo", test_id_echo);
  g_test_add_func ("/steward/jsonrpc/classify", test_classify);
  g_test_add_func ("/steward/jsonrpc/structure", test_structure_rules);
  g_test_add_func ("/steward/jsonrpc/batch", test_batch);
  g_test_add_func ("/steward/jsonrpc/depth-limit", test_depth_limit);
  g_test_add_func ("/steward/jsonrpc/depth-huge", test_depth_huge);
  g_test_add_func ("/steward/jsonrpc/depth-strings", test_depth_strings);
  g_test_add_func ("/steward/jsonrpc/invalid-utf8", test_invalid_utf8);
  g_test_add_func ("/steward/jsonrpc/not-json", test_not_json);
  g_test_add_func ("/steward/jsonrpc/wire-size", test_wire_size);
  g_test_add_func ("/steward/jsonrpc/round-trip", test_round_trip);
  g_test_add_func ("/steward/jsonrpc/reencode", test_reencode);
  g_test_add_func ("/steward/jsonrpc/to-gerror", test_to_gerror);
  g_test_add_func ("/steward/jsonrpc/strict-json", test_strict_json);
  g_test_add_func ("/steward/jsonrpc/envelope-members", test_envelope_members);
  g_test_add_func ("/steward/jsonrpc/wire-text-kept", test_wire_text_kept);

  return g_test_run ();
}

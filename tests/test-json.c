/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-json"

#include "config.h"

#include <glib.h>

#include "mcp-json.h"

/* The typed member reads every layer uses on JSON someone else wrote:
 * each type read where it is, and every other type read as absent. */

static JsonObject *
parse_object (const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = mcp_json_parse (text, -1, &error);

  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (root));
  return json_object_ref (json_node_get_object (root));
}

static void
test_strings (void)
{
  g_autoptr(JsonObject) object = parse_object ("{\"name\": \"files\", \"count\": 3, "
                                               "\"none\": null, \"list\": [\"a\"]}");

  g_assert_cmpstr (mcp_json_get_string (object, "name"), ==, "files");
  g_assert_null (mcp_json_get_string (object, "count"));
  g_assert_null (mcp_json_get_string (object, "none"));
  g_assert_null (mcp_json_get_string (object, "list"));
  g_assert_null (mcp_json_get_string (object, "missing"));
  g_assert_null (mcp_json_get_string (NULL, "name"));

  g_assert_cmpstr (mcp_json_get_string_or (object, "name", "other"), ==, "files");
  g_assert_cmpstr (mcp_json_get_string_or (object, "count", "other"), ==, "other");
  g_assert_cmpstr (mcp_json_get_string_or (object, "missing", "other"), ==, "other");
  g_assert_null (mcp_json_get_string_or (object, "missing", NULL));
}

static void
test_containers (void)
{
  g_autoptr(JsonObject) object = parse_object ("{\"inner\": {\"deep\": {\"x\": \"y\"}}, "
                                               "\"list\": [1, 2], \"text\": \"t\"}");

  g_assert_nonnull (mcp_json_get_object (object, "inner"));
  g_assert_null (mcp_json_get_object (object, "list"));
  g_assert_null (mcp_json_get_object (object, "text"));
  g_assert_cmpuint (json_array_get_length (mcp_json_get_array (object, "list")), ==, 2);
  g_assert_null (mcp_json_get_array (object, "inner"));
  g_assert_null (mcp_json_get_array (object, "missing"));

  /* Reads chain through members that may be missing. */
  g_assert_cmpstr (mcp_json_get_string (mcp_json_get_object (mcp_json_get_object (object,
                                                                                  "inner"),
                                                             "deep"), "x"), ==, "y");
  g_assert_null (mcp_json_get_string (mcp_json_get_object (mcp_json_get_object (object,
                                                                                "gone"),
                                                           "deep"), "x"));
}

static void
test_booleans_and_numbers (void)
{
  g_autoptr(JsonObject) object = parse_object ("{\"yes\": true, \"no\": false, \"one\": 1, "
                                               "\"half\": 0.5, \"word\": \"true\"}");

  g_assert_true (mcp_json_get_boolean (object, "yes", FALSE));
  g_assert_false (mcp_json_get_boolean (object, "no", TRUE));
  g_assert_true (mcp_json_get_boolean (object, "word", TRUE));
  g_assert_false (mcp_json_get_boolean (object, "one", FALSE));

  g_assert_cmpfloat (mcp_json_get_number (object, "one", -1), ==, 1);
  g_assert_cmpfloat (mcp_json_get_number (object, "half", -1), ==, 0.5);
  g_assert_cmpfloat (mcp_json_get_number (object, "word", -1), ==, -1);
  g_assert_true (mcp_json_has_number (object, "half"));
  g_assert_false (mcp_json_has_number (object, "yes"));
}

static void
test_int64 (void)
{
  g_autoptr(JsonObject) object = parse_object ("{\"small\": 5, \"big\": 9007199254740993, "
                                               "\"negative\": -4, \"whole\": 3.0, "
                                               "\"fraction\": 2.5, \"huge\": 1e300, "
                                               "\"text\": \"5\"}");
  gint64 value = 42;

  g_assert_true (mcp_json_get_int64 (object, "small", 0, 10, &value));
  g_assert_cmpint (value, ==, 5);
  g_assert_true (mcp_json_get_int64 (object, "big", 0, G_MAXINT64, &value));
  g_assert_cmpint (value, ==, G_GINT64_CONSTANT (9007199254740993));
  g_assert_true (mcp_json_get_int64 (object, "whole", 0, 10, &value));
  g_assert_cmpint (value, ==, 3);

  /* Out of range, not whole, not a number, missing: absent, and the
   * value is left alone. */
  value = 42;
  g_assert_false (mcp_json_get_int64 (object, "small", 6, 10, &value));
  g_assert_false (mcp_json_get_int64 (object, "negative", 0, 10, &value));
  g_assert_false (mcp_json_get_int64 (object, "fraction", 0, 10, &value));
  g_assert_false (mcp_json_get_int64 (object, "huge", G_MININT64, G_MAXINT64, &value));
  g_assert_false (mcp_json_get_int64 (object, "text", 0, 10, &value));
  g_assert_false (mcp_json_get_int64 (object, "missing", 0, 10, &value));
  g_assert_false (mcp_json_get_int64 (NULL, "small", 0, 10, &value));
  g_assert_cmpint (value, ==, 42);
  g_assert_true (mcp_json_get_int64 (object, "negative", -10, 0, NULL));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/steward/json/strings", test_strings);
  g_test_add_func ("/steward/json/containers", test_containers);
  g_test_add_func ("/steward/json/booleans-and-numbers", test_booleans_and_numbers);
  g_test_add_func ("/steward/json/int64", test_int64);

  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-cli-form"

#include "config.h"

#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "steward-cli-delegate.h"
#include "steward-cli-form.h"
#include "steward-cli-format.h"

static JsonObject *
parse_object (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));

  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

static char *
to_json (JsonNode *node)
{
  return steward_cli_format_json (node, FALSE);
}

static void
test_defaults (void)
{
  g_autoptr(JsonObject) schema = NULL;
  g_autoptr(JsonObject) content = NULL;
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *text = NULL;

  /* What the conformance scenario for SEP-1034 sends, plus defaults of the
   * wrong type, which must not be passed on. */
  schema = parse_object ("{\"type\": \"object\", \"properties\": {"
                         "  \"name\": {\"type\": \"string\", \"default\": \"John Doe\"},"
                         "  \"age\": {\"type\": \"integer\", \"default\": 30.0},"
                         "  \"score\": {\"type\": \"number\", \"default\": 95.5},"
                         "  \"status\": {\"type\": \"string\", \"enum\": [\"a\", \"b\"],"
                         "             \"default\": \"b\"},"
                         "  \"verified\": {\"type\": \"boolean\", \"default\": true},"
                         "  \"tags\": {\"type\": \"array\", \"items\": {\"type\": \"string\"},"
                         "           \"default\": [\"x\", \"y\"]},"
                         "  \"half\": {\"type\": \"integer\", \"default\": 2.5},"
                         "  \"flag\": {\"type\": \"boolean\", \"default\": \"yes\"},"
                         "  \"bad\": {\"type\": \"array\", \"default\": [1]},"
                         "  \"none\": {\"type\": \"string\"}"
                         "}}");

  content = steward_cli_form_dup_defaults (schema);
  json_node_set_object (node, content);
  text = to_json (node);
  g_assert_cmpstr (text, ==,
                   "{\"name\":\"John Doe\",\"age\":30,\"score\":95.5,\"status\":\"b\","
                   "\"verified\":true,\"tags\":[\"x\",\"y\"]}");
  g_assert_cmpint (json_node_get_value_type (json_object_get_member (content, "age")), ==,
                   G_TYPE_INT64);

  g_clear_pointer (&schema, json_object_unref);
  schema = parse_object ("{\"required\": [\"a\", 3, \"b\"]}");
  g_assert_true (steward_cli_form_is_required (schema, "b"));
  g_assert_false (steward_cli_form_is_required (schema, "c"));
}

typedef struct {
  const char *field;
  const char *input;
  const char *expected;   /* JSON, or NULL when the input is refused */
} ParseCase;

static void
test_parse_value (void)
{
  static const ParseCase cases[] = {
    { "{\"type\": \"boolean\"}", "Yes", "true" },
    { "{\"type\": \"boolean\"}", "0", "false" },
    { "{\"type\": \"boolean\"}", "sure", NULL },
    { "{\"type\": \"integer\", \"minimum\": 1, \"maximum\": 10}", "10", "10" },
    { "{\"type\": \"integer\", \"minimum\": 1, \"maximum\": 10}", "11", NULL },
    { "{\"type\": \"integer\"}", "1.5", NULL },
    { "{\"type\": \"integer\"}", "-3", "-3" },
    { "{\"type\": \"number\", \"minimum\": 0}", "2.5", "2.5" },
    { "{\"type\": \"number\", \"minimum\": 0}", "-0.1", NULL },
    { "{\"type\": \"number\"}", "1e3", "1000.0" },
    { "{\"type\": \"number\"}", "nan", NULL },
    { "{\"type\": \"number\"}", "12abc", NULL },
    { "{\"type\": \"string\", \"minLength\": 2, \"maxLength\": 3}", "é", NULL },
    { "{\"type\": \"string\", \"minLength\": 2, \"maxLength\": 3}", "éé", "\"éé\"" },
    { "{\"type\": \"string\", \"minLength\": 2, \"maxLength\": 3}", "abcd", NULL },
    { "{\"type\": \"string\", \"format\": \"email\"}", "a@b.example", "\"a@b.example\"" },
    { "{\"type\": \"string\", \"format\": \"email\"}", "a@b", NULL },
    { "{\"type\": \"string\", \"format\": \"email\"}", "a b@c.example", NULL },
    { "{\"type\": \"string\", \"format\": \"uri\"}", "relative/path", NULL },
    { "{\"type\": \"string\", \"format\": \"uri\"}", "mailto:a@b.example",
      "\"mailto:a@b.example\"" },
    { "{\"type\": \"string\", \"format\": \"date\"}", "2024-02-29", "\"2024-02-29\"" },
    { "{\"type\": \"string\", \"format\": \"date\"}", "2023-02-29", NULL },
    { "{\"type\": \"string\", \"format\": \"date\"}", "2024-2-9", NULL },
    { "{\"type\": \"string\", \"format\": \"date-time\"}", "2025-06-18T14:30:00Z",
      "\"2025-06-18T14:30:00Z\"" },
    { "{\"type\": \"string\", \"format\": \"date-time\"}", "2025-06-18 14:30", NULL },
    { "{\"type\": \"string\", \"enum\": [\"a\", \"b\"], \"enumNames\": [\"Apple\", \"Banana\"]}",
      "Banana", "\"b\"" },
    { "{\"type\": \"string\", \"enum\": [\"a\", \"b\"]}", "2", "\"b\"" },
    { "{\"type\": \"string\", \"enum\": [\"a\", \"b\"]}", "3", NULL },
    { "{\"type\": \"string\", \"oneOf\": [{\"const\": \"x\", \"title\": \"Ex\"}]}", "Ex", "\"x\"" },
    { "{\"type\": \"array\", \"items\": {\"enum\": [\"a\", \"b\", \"c\"]}, \"maxItems\": 2}",
      "a, 3", "[\"a\",\"c\"]" },
    { "{\"type\": \"array\", \"items\": {\"enum\": [\"a\", \"b\", \"c\"]}, \"maxItems\": 2}",
      "a,b,c", NULL },
    { "{\"type\": \"array\", \"items\": {\"anyOf\": [{\"const\": \"f\", \"title\": \"Fish\"}]},"
      " \"minItems\": 1}", " , ", NULL },
    { "{\"type\": \"array\", \"items\": {\"anyOf\": [{\"const\": \"f\", \"title\": \"Fish\"}]}}",
      "Fish", "[\"f\"]" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonObject) field = parse_object (cases[i].field);
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) value = NULL;

      g_test_message ("%s ← %s", cases[i].field, cases[i].input);
      value = steward_cli_form_parse_value (field, cases[i].input, &error);
      if (cases[i].expected == NULL)
        {
          g_assert_null (value);
          g_assert_error (error, STEWARD_CLI_ERROR, STEWARD_CLI_ERROR_INVALID_VALUE);
          g_assert_cmpuint (strlen (error->message), >, 0);
        }
      else
        {
          g_autofree char *text = NULL;

          g_assert_no_error (error);
          text = to_json (value);
          g_assert_cmpstr (text, ==, cases[i].expected);
        }
    }
}

static void
test_describe (void)
{
  g_autoptr(JsonObject) field = NULL;
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) number = json_node_init_double (json_node_alloc (), 3.14);
  g_autofree char *shown = NULL;

  field = parse_object ("{\"type\": \"string\", \"title\": \"Pet\\u001b[31m\","
                        " \"enum\": [\"c\", \"d\"], \"enumNames\": [\"Cat\", \"Dog\"],"
                        " \"default\": \"d\"}");
  text = steward_cli_form_describe_field ("pet", field, TRUE);
  g_assert_cmpstr (text, ==,
                   "pet — Pet<U+001B>[31m (required)\n"
                   "  one choice\n"
                   "  1) c — Cat\n"
                   "  2) d — Dog\n"
                   "  default: d (press Enter to keep it)\n");

  shown = steward_cli_form_format_value (number);
  g_assert_cmpstr (shown, ==, "3.14");
}

static void
test_sanitize (void)
{
  static const struct {
    const char *in;
    gboolean    multiline;
    const char *out;
  } cases[] = {
    { "plain", FALSE, "plain" },
    { "a\nb", FALSE, "a b" },
    { "a\r\nb\tc", TRUE, "a\nb\tc" },
    { "\x1b]0;title\x07", TRUE, "<U+001B>]0;title<U+0007>" },
    { "\xc2\x9b" "31m", TRUE, "<U+009B>31m" },
    { "left\xe2\x80\xaeright", TRUE, "left<U+202E>right" },
    { "zero\xe2\x80\x8bwidth", TRUE, "zero<U+200B>width" },
    { "tag\xf3\xa0\x81\x81", TRUE, "tag<U+E0041>" },
    { "bad\xff", TRUE, "bad\xef\xbf\xbd" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = steward_cli_sanitize (cases[i].in, cases[i].multiline);

      g_assert_cmpstr (out, ==, cases[i].out);
    }
}

static void
test_canonicalize (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *tmp = g_dir_make_tmp ("steward-test-roots-XXXXXX", &error);
  g_autofree char *real_tmp = NULL;
  g_autofree char *real = g_build_filename (tmp, "real", NULL);
  g_autofree char *sub = g_build_filename (real, "sub", NULL);
  g_autofree char *up = g_build_filename (tmp, "up", NULL);
  g_autofree char *loop = g_build_filename (tmp, "loop", NULL);
  g_autofree char *file = g_build_filename (tmp, "file", NULL);
  g_autofree char *through = g_build_filename (tmp, "up", "..", NULL);
  g_autofree char *looped = g_build_filename (loop, "x", NULL);
  g_autoptr(GFile) expected = NULL;
  g_autoptr(GFile) folder = NULL;

  g_assert_no_error (error);
  real_tmp = realpath (tmp, NULL);
  g_assert_cmpint (g_mkdir_with_parents (sub, 0700), ==, 0);
  /* up → real/sub, so up/.. is real, not tmp: links are followed first. */
  g_assert_cmpint (symlink ("real/sub", up), ==, 0);
  g_assert_cmpint (symlink ("loop", loop), ==, 0);
  g_file_set_contents (file, "", 0, &error);
  g_assert_no_error (error);

  folder = steward_cli_canonicalize_folder (through, &error);
  g_assert_no_error (error);
  {
    g_autofree char *path = g_build_filename (real_tmp, "real", NULL);

    expected = g_file_new_for_path (path);
  }
  g_assert_true (g_file_equal (folder, expected));
  g_clear_object (&folder);

  folder = steward_cli_canonicalize_folder (looped, &error);
  g_assert_null (folder);
  g_assert_error (error, STEWARD_CLI_ERROR, STEWARD_CLI_ERROR_USAGE);
  g_assert_nonnull (strstr (error->message, "too many symbolic links"));
  g_clear_error (&error);

  folder = steward_cli_canonicalize_folder (file, &error);
  g_assert_null (folder);
  g_assert_error (error, STEWARD_CLI_ERROR, STEWARD_CLI_ERROR_USAGE);
  g_assert_nonnull (strstr (error->message, "is not a folder"));
  g_clear_error (&error);

  folder = steward_cli_canonicalize_folder ("/", &error);
  g_assert_no_error (error);
  {
    g_autofree char *uri = g_file_get_uri (folder);

    g_assert_cmpstr (uri, ==, "file:///");
  }

  g_remove (file);
  g_remove (loop);
  g_remove (up);
  g_rmdir (sub);
  g_rmdir (real);
  g_rmdir (tmp);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/steward/cli-form/defaults", test_defaults);
  g_test_add_func ("/steward/cli-form/parse-value", test_parse_value);
  g_test_add_func ("/steward/cli-form/describe", test_describe);
  g_test_add_func ("/steward/cli-form/sanitize", test_sanitize);
  g_test_add_func ("/steward/cli-form/canonicalize", test_canonicalize);

  return g_test_run ();
}

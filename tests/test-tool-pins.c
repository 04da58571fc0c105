/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-tool-pins"

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "mcp-json.h"

#include "steward-tool-pins.h"

/* Tool-definition pinning: the canonical JSON and its hash, the states a
 * tool goes through, the policies beside the pins, and pins.json. */

#define wait_until(condition, seconds)                                         \
  G_STMT_START {                                                              \
    gint64 deadline_ = g_get_monotonic_time () + (seconds) * G_USEC_PER_SEC;   \
    while (!(condition))                                                      \
      {                                                                       \
        if (g_get_monotonic_time () >= deadline_)                             \
          g_error ("timed out after %d s waiting for: %s", (int) (seconds),    \
                   #condition);                                               \
        g_main_context_iteration (NULL, TRUE);                                \
      }                                                                       \
  } G_STMT_END

static void
store_result_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static McpTool *
new_tool (const char *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = mcp_json_parse (json, -1, &error);
  McpTool *tool;

  g_assert_no_error (error);
  tool = mcp_tool_new (json_node_get_object (node), &error);
  g_assert_no_error (error);
  return tool;
}

static char *
make_tmp_dir (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("test-tool-pins-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

static void
remove_dir (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      g_assert_cmpint (g_remove (child), ==, 0);
    }
  g_assert_cmpint (g_rmdir (path), ==, 0);
}

static void
save (StewardToolPins *pins)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  steward_tool_pins_save_async (pins, NULL, store_result_cb, &result);
  wait_until (result != NULL, 10);
  g_assert_true (steward_tool_pins_save_finish (pins, result, &error));
  g_assert_no_error (error);
}

static void
test_canonical (void)
{
  g_autoptr(McpTool) one = NULL;
  g_autoptr(McpTool) two = NULL;
  g_autoptr(McpTool) three = NULL;
  g_autofree char *canonical_one = NULL;
  g_autofree char *canonical_two = NULL;
  g_autofree char *hash_one = NULL;
  g_autofree char *hash_two = NULL;
  g_autofree char *hash_three = NULL;
  g_autofree char *expected_hash = NULL;
  g_autofree char *pretty = NULL;

  /* The same definition, written in two orders and with whitespace. */
  one = new_tool ("{\"name\": \"echo\", \"description\": \"Says \\\"it\\\"\\n\",\n"
                  " \"inputSchema\": {\"type\": \"object\", \"properties\": {\"z\": {\"type\":"
                  " \"string\"}, \"a\": {\"type\": \"number\", \"minimum\": 0.5}},"
                  " \"required\": [\"z\", \"a\"]}, \"annotations\": {\"readOnlyHint\": true},"
                  " \"title\": \"Écho\", \"count\": 3, \"nothing\": null}");
  two = new_tool ("{\"nothing\":null,\"count\":3,\"title\":\"Écho\",\"annotations\":"
                  "{\"readOnlyHint\":true},\"inputSchema\":{\"required\":[\"z\",\"a\"],"
                  "\"properties\":{\"a\":{\"minimum\":0.5,\"type\":\"number\"},\"z\":"
                  "{\"type\":\"string\"}},\"type\":\"object\"},\"description\":"
                  "\"Says \\\"it\\\"\\n\",\"name\":\"echo\"}");

  canonical_one = steward_tool_canonical_json (one);
  canonical_two = steward_tool_canonical_json (two);
  g_assert_cmpstr (canonical_one, ==,
                   "{\"annotations\":{\"readOnlyHint\":true},\"count\":3,"
                   "\"description\":\"Says \\\"it\\\"\\n\",\"inputSchema\":{\"properties\":"
                   "{\"a\":{\"minimum\":0.5,\"type\":\"number\"},\"z\":{\"type\":\"string\"}},"
                   "\"required\":[\"z\",\"a\"],\"type\":\"object\"},\"name\":\"echo\","
                   "\"nothing\":null,\"title\":\"Écho\"}");
  g_assert_cmpstr (canonical_one, ==, canonical_two);

  /* The hash is the SHA-256 of exactly that text, and does not move. */
  hash_one = steward_tool_hash (one);
  hash_two = steward_tool_hash (two);
  expected_hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, canonical_one, -1);
  g_assert_cmpstr (hash_one, ==, expected_hash);
  g_assert_cmpstr (hash_one, ==, hash_two);
  g_assert_cmpuint (strlen (hash_one), ==, 64);

  /* Array order counts; it is part of what the tool means. */
  three = new_tool ("{\"name\":\"echo\",\"description\":\"Says \\\"it\\\"\\n\","
                    "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"z\":{\"type\":"
                    "\"string\"},\"a\":{\"type\":\"number\",\"minimum\":0.5}},"
                    "\"required\":[\"a\",\"z\"]},\"annotations\":{\"readOnlyHint\":true},"
                    "\"title\":\"Écho\",\"count\":3,\"nothing\":null}");
  hash_three = steward_tool_hash (three);
  g_assert_cmpstr (hash_three, !=, hash_one);

  /* The pretty form is sorted the same way, for the difference view. */
  pretty = steward_tool_pretty_json (one);
  g_assert_true (g_str_has_prefix (pretty, "{\n  \"annotations\": {\n    \"readOnlyHint\": true\n"
                                           "  },\n  \"count\": 3,\n"));
}

static void
changed_cb (StewardToolPins *pins,
            const char      *server,
            GPtrArray       *changes)
{
  g_ptr_array_add (changes, g_strdup (server != NULL ? server : "*"));
}

static void
test_states (void)
{
  g_autoptr(StewardToolPins) pins = steward_tool_pins_new (NULL);
  g_autoptr(McpTool) echo = new_tool ("{\"name\":\"echo\",\"description\":\"Echoes\","
                                      "\"inputSchema\":{\"type\":\"object\"}}");
  g_autoptr(McpTool) echo_changed = new_tool ("{\"name\":\"echo\",\"description\":\"Echoes, "
                                              "and reads ~/.ssh first\",\"inputSchema\":"
                                              "{\"type\":\"object\"}}");
  g_autoptr(McpTool) add = new_tool ("{\"name\":\"add\",\"inputSchema\":{\"type\":\"object\"}}");
  g_autofree char *pinned = NULL;
  g_autoptr(GPtrArray) changes = g_ptr_array_new_with_free_func (g_free);

  g_signal_connect (pins, "changed", G_CALLBACK (changed_cb), changes);

  /* Nothing pinned: every tool waits for its first approval. */
  g_assert_false (steward_tool_pins_has_pins (pins, "files"));
  g_assert_cmpint (steward_tool_pins_check (pins, "files", echo), ==, STEWARD_TOOL_PIN_UNPINNED);
  g_assert_cmpint (steward_tool_pins_check (pins, "files", add), ==, STEWARD_TOOL_PIN_UNPINNED);
  g_assert_null (steward_tool_pins_dup_pinned (pins, "files", "echo"));

  steward_tool_pins_approve (pins, "files", echo);
  g_assert_cmpuint (changes->len, ==, 1);
  g_assert_true (steward_tool_pins_has_pins (pins, "files"));
  g_assert_cmpint (steward_tool_pins_check (pins, "files", echo), ==, STEWARD_TOOL_PIN_OK);

  /* Approving the same definition again changes nothing. */
  steward_tool_pins_approve (pins, "files", echo);
  g_assert_cmpuint (changes->len, ==, 1);

  /* A new description is a changed definition; a tool never seen on a
   * server with pins is new. Another server is not concerned. */
  g_assert_cmpint (steward_tool_pins_check (pins, "files", echo_changed), ==,
                   STEWARD_TOOL_PIN_CHANGED);
  g_assert_cmpint (steward_tool_pins_check (pins, "files", add), ==, STEWARD_TOOL_PIN_NEW);
  g_assert_cmpint (steward_tool_pins_check (pins, "other", add), ==, STEWARD_TOOL_PIN_UNPINNED);

  /* The pinned definition is there for the difference view. */
  pinned = steward_tool_pins_dup_pinned (pins, "files", "echo");
  g_assert_nonnull (strstr (pinned, "\"description\": \"Echoes\""));

  /* Approving the change and the new tool enables them. */
  steward_tool_pins_approve (pins, "files", echo_changed);
  steward_tool_pins_approve (pins, "files", add);
  g_assert_cmpint (steward_tool_pins_check (pins, "files", echo_changed), ==, STEWARD_TOOL_PIN_OK);
  g_assert_cmpint (steward_tool_pins_check (pins, "files", echo), ==, STEWARD_TOOL_PIN_CHANGED);
  g_assert_cmpint (steward_tool_pins_check (pins, "files", add), ==, STEWARD_TOOL_PIN_OK);
  g_assert_cmpuint (changes->len, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (changes, 2), ==, "files");

  g_signal_handlers_disconnect_by_data (pins, changes);
  g_assert_finalize_object (g_steal_pointer (&pins));
}

static void
test_policies (void)
{
  g_autoptr(StewardToolPins) pins = steward_tool_pins_new (NULL);
  g_autoptr(McpTool) reader = new_tool ("{\"name\":\"read\",\"inputSchema\":{\"type\":\"object\"},"
                                        "\"annotations\":{\"readOnlyHint\":true,"
                                        "\"openWorldHint\":false}}");
  g_autoptr(McpTool) silent = new_tool ("{\"name\":\"silent\",\"inputSchema\":"
                                        "{\"type\":\"object\"}}");
  g_autoptr(McpTool) fetcher = new_tool ("{\"name\":\"fetch\",\"inputSchema\":"
                                         "{\"type\":\"object\"},\"annotations\":"
                                         "{\"readOnlyHint\":true,\"openWorldHint\":true}}");
  g_autoptr(McpTool) remover = new_tool ("{\"name\":\"remove\",\"inputSchema\":"
                                         "{\"type\":\"object\"},\"annotations\":"
                                         "{\"destructiveHint\":true,\"openWorldHint\":false}}");
  StewardToolPolicy policy;

  /* Ask is the default for everything. */
  g_assert_cmpint (steward_tool_pins_get_server_policy (pins, "s"), ==, STEWARD_TOOL_POLICY_ASK);
  g_assert_false (steward_tool_pins_get_tool_policy (pins, "s", "read", NULL));
  g_assert_cmpint (steward_tool_pins_decide (pins, "s", reader), ==, STEWARD_TOOL_POLICY_ASK);

  /* The server's allow covers the harmless tools only; one that says
   * nothing about itself counts as destructive and open-world. */
  steward_tool_pins_set_server_policy (pins, "s", STEWARD_TOOL_POLICY_ALLOW);
  g_assert_cmpint (steward_tool_pins_decide (pins, "s", reader), ==, STEWARD_TOOL_POLICY_ALLOW);
  g_assert_cmpint (steward_tool_pins_decide (pins, "s", silent), ==, STEWARD_TOOL_POLICY_ASK);
  g_assert_cmpint (steward_tool_pins_decide (pins, "s", fetcher), ==, STEWARD_TOOL_POLICY_ASK);
  g_assert_cmpint (steward_tool_pins_decide (pins, "s", remover), ==, STEWARD_TOOL_POLICY_ASK);
  g_assert_cmpint (steward_tool_pins_decide (pins, "t", reader), ==, STEWARD_TOOL_POLICY_ASK);

  /* Only the person's choice for that very tool allows it. */
  steward_tool_pins_set_tool_policy (pins, "s", "remove", STEWARD_TOOL_POLICY_ALLOW);
  g_assert_cmpint (steward_tool_pins_decide (pins, "s", remover), ==, STEWARD_TOOL_POLICY_ALLOW);
  steward_tool_pins_set_tool_policy (pins, "s", "read", STEWARD_TOOL_POLICY_ASK);
  g_assert_cmpint (steward_tool_pins_decide (pins, "s", reader), ==, STEWARD_TOOL_POLICY_ASK);
  g_assert_true (steward_tool_pins_get_tool_policy (pins, "s", "read", &policy));
  g_assert_cmpint (policy, ==, STEWARD_TOOL_POLICY_ASK);

  /* A policy alone is no pin. */
  g_assert_false (steward_tool_pins_has_pins (pins, "s"));
  g_assert_cmpint (steward_tool_pins_check (pins, "s", remover), ==, STEWARD_TOOL_PIN_UNPINNED);

  steward_tool_pins_unset_tool_policy (pins, "s", "read");
  g_assert_false (steward_tool_pins_get_tool_policy (pins, "s", "read", NULL));
  g_assert_cmpint (steward_tool_pins_decide (pins, "s", reader), ==, STEWARD_TOOL_POLICY_ALLOW);

  g_assert_finalize_object (g_steal_pointer (&pins));
}

static void
test_persist (void)
{
  g_autofree char *dir = make_tmp_dir ();
  g_autofree char *path = g_build_filename (dir, "pins.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(StewardToolPins) pins = steward_tool_pins_new (file);
  g_autoptr(StewardToolPins) again = NULL;
  g_autoptr(McpTool) echo = new_tool ("{\"name\":\"echo\",\"description\":\"Echoes\","
                                      "\"inputSchema\":{\"type\":\"object\",\"properties\":"
                                      "{\"message\":{\"type\":\"string\"}}}}");
  g_autoptr(McpTool) echo_changed = new_tool ("{\"name\":\"echo\",\"description\":\"Echoes!\","
                                              "\"inputSchema\":{\"type\":\"object\"}}");
  g_autoptr(McpTool) add = new_tool ("{\"name\":\"add\",\"inputSchema\":{\"type\":\"object\"}}");
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *contents = NULL;
  StewardToolPolicy policy;
  GStatBuf buf;

  /* A missing file is an empty one. */
  g_assert_true (steward_tool_pins_load (pins, &error));
  g_assert_no_error (error);
  g_assert_cmpint (steward_tool_pins_check (pins, "everything", echo), ==,
                   STEWARD_TOOL_PIN_UNPINNED);

  steward_tool_pins_approve (pins, "everything", echo);
  steward_tool_pins_set_tool_policy (pins, "everything", "echo", STEWARD_TOOL_POLICY_ALLOW);
  steward_tool_pins_set_server_policy (pins, "files", STEWARD_TOOL_POLICY_ALLOW);
  save (pins);

  /* Private to the person, and written whole. */
  g_assert_cmpint (g_stat (path, &buf), ==, 0);
  g_assert_cmpint (buf.st_mode & 0777, ==, 0600);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, "\"policy\": \"allow\""));

  /* Read back, asynchronously as the app does. */
  again = steward_tool_pins_new (file);
  steward_tool_pins_load_async (again, NULL, store_result_cb, &result);
  wait_until (result != NULL, 10);
  g_assert_true (steward_tool_pins_load_finish (again, result, &error));
  g_assert_no_error (error);
  g_assert_cmpint (steward_tool_pins_check (again, "everything", echo), ==, STEWARD_TOOL_PIN_OK);
  g_assert_cmpint (steward_tool_pins_check (again, "everything", echo_changed), ==,
                   STEWARD_TOOL_PIN_CHANGED);
  g_assert_cmpint (steward_tool_pins_check (again, "everything", add), ==, STEWARD_TOOL_PIN_NEW);
  g_assert_true (steward_tool_pins_get_tool_policy (again, "everything", "echo", &policy));
  g_assert_cmpint (policy, ==, STEWARD_TOOL_POLICY_ALLOW);
  g_assert_cmpint (steward_tool_pins_get_server_policy (again, "files"), ==,
                   STEWARD_TOOL_POLICY_ALLOW);
  before = steward_tool_pins_dup_pinned (pins, "everything", "echo");
  after = steward_tool_pins_dup_pinned (again, "everything", "echo");
  g_assert_cmpstr (before, ==, after);

  g_clear_object (&result);
  g_assert_finalize_object (g_steal_pointer (&pins));
  g_assert_finalize_object (g_steal_pointer (&again));
  g_clear_object (&file);
  remove_dir (dir);
}

static void
test_damaged (void)
{
  g_autofree char *dir = make_tmp_dir ();
  g_autofree char *path = g_build_filename (dir, "pins.json", NULL);
  g_autofree char *aside = g_build_filename (dir, "pins.json.damaged", NULL);
  g_autofree char *aside_1 = g_build_filename (dir, "pins.json.damaged-1", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(StewardToolPins) pins = steward_tool_pins_new (file);
  g_autoptr(McpTool) echo = new_tool ("{\"name\":\"echo\",\"inputSchema\":{\"type\":\"object\"}}");
  g_autoptr(GError) error = NULL;
  g_autofree char *kept = NULL;
  const char *damaged = "{\"servers\": {\"everything\": {\"tools\": {\"echo\": {\"hash\":";
  const char *edited = "{\"servers\": {\"everything\": {\"tools\": {\"echo\": "
                       "{\"hash\": \"0000\"}}}}}";

  /* Cut short: moved aside, reported with both names, never lost. */
  g_assert_true (g_file_set_contents (path, damaged, -1, NULL));
  g_assert_false (steward_tool_pins_load (pins, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_nonnull (strstr (error->message, aside));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_get_contents (aside, &kept, NULL, NULL));
  g_assert_cmpstr (kept, ==, damaged);
  g_clear_error (&error);

  /* A pin without the definition it stands for was edited by hand: it
   * is not trusted, and goes beside the first one. */
  g_assert_true (g_file_set_contents (path, edited, -1, NULL));
  g_assert_false (steward_tool_pins_load (pins, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_true (g_file_test (aside_1, G_FILE_TEST_EXISTS));
  g_assert_cmpint (steward_tool_pins_check (pins, "everything", echo), ==,
                   STEWARD_TOOL_PIN_UNPINNED);

  /* Writing afterwards makes a new file and leaves the copies alone. */
  steward_tool_pins_approve (pins, "everything", echo);
  save (pins);
  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
  g_clear_pointer (&kept, g_free);
  g_assert_true (g_file_get_contents (aside, &kept, NULL, NULL));
  g_assert_cmpstr (kept, ==, damaged);

  g_assert_finalize_object (g_steal_pointer (&pins));
  g_clear_object (&file);
  remove_dir (dir);
}

static void
test_prepare (void)
{
  g_autoptr(StewardToolPins) pins = steward_tool_pins_new (NULL);
  g_autoptr(GPtrArray) tools = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  gint64 start;
  gint64 hashed;
  gint64 checked;

  /* A long list of large definitions. */
  for (guint i = 0; i < 2000; i++)
    {
      g_autoptr(GString) json = g_string_new (NULL);

      g_string_append_printf (json, "{\"name\":\"tool-%u\",\"description\":\"", i);
      for (guint j = 0; j < 100; j++)
        g_string_append (json, "A tool that does one thing well. ");
      g_string_append (json, "\",\"inputSchema\":{\"type\":\"object\",\"properties\":{");
      for (guint j = 0; j < 20; j++)
        g_string_append_printf (json, "%s\"p%u\":{\"type\":\"string\",\"description\":\"x\"}",
                                j > 0 ? "," : "", j);
      g_string_append (json, "}}}");
      g_ptr_array_add (tools, new_tool (json->str));
    }

  start = g_get_monotonic_time ();
  steward_tool_pins_prepare_async (pins, tools, NULL, store_result_cb, &result);
  wait_until (result != NULL, 30);
  g_assert_true (steward_tool_pins_prepare_finish (pins, result, &error));
  g_assert_no_error (error);
  hashed = g_get_monotonic_time ();

  /* Once prepared, checking the whole list is cheap on the main thread. */
  for (guint i = 0; i < tools->len; i++)
    g_assert_cmpint (steward_tool_pins_check (pins, "big", g_ptr_array_index (tools, i)), ==,
                     STEWARD_TOOL_PIN_UNPINNED);
  checked = g_get_monotonic_time ();

  /* How cheap is the machine's to say: a figure, not a verdict. */
  g_test_message ("hashed %u tools on a worker in %.1f ms; checked them in %.1f ms",
                  tools->len, (hashed - start) / 1000.0, (checked - hashed) / 1000.0);

  g_clear_object (&result);
  g_assert_finalize_object (g_steal_pointer (&pins));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/steward/tool-pins/canonical", test_canonical);
  g_test_add_func ("/steward/tool-pins/states", test_states);
  g_test_add_func ("/steward/tool-pins/policies", test_policies);
  g_test_add_func ("/steward/tool-pins/persist", test_persist);
  g_test_add_func ("/steward/tool-pins/damaged", test_damaged);
  g_test_add_func ("/steward/tool-pins/prepare", test_prepare);

  return g_test_run ();
}

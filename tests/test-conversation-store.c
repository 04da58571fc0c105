/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-conversation-store"

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "mcp-json.h"

#include "steward-chat-private.h"
#include "steward-conversation-store.h"

/* Conversations on disk: made, renamed and deleted; written after
 * changes and read back whole, tool calls included; a damaged file kept
 * aside and reported; a long conversation loaded without blocking. */

#define wait_until(condition, seconds)                                         \
  G_STMT_START {                                                              \
    gint64 deadline_ = g_get_monotonic_time () + (seconds) * G_USEC_PER_SEC;   \
    guint tick_ = g_timeout_add (10, tick_cb, NULL);                           \
    while (!(condition))                                                      \
      {                                                                       \
        if (g_get_monotonic_time () >= deadline_)                             \
          g_error ("timed out after %d s waiting for: %s", (int) (seconds),    \
                   #condition);                                               \
        g_main_context_iteration (NULL, TRUE);                                \
      }                                                                       \
    g_source_remove (tick_);                                                  \
  } G_STMT_END

static gboolean
tick_cb (gpointer user_data)
{
  return G_SOURCE_CONTINUE;
}

static void
store_result_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

typedef struct {
  char  *dir;
  GFile *folder;
} Fixture;

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        remove_tree (child);
      else
        g_assert_cmpint (g_remove (child), ==, 0);
    }
  g_rmdir (path);
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *top = g_dir_make_tmp ("test-conversation-store-XXXXXX", &error);

  g_assert_no_error (error);
  /* The folder does not exist yet: the first write makes it. */
  fixture->dir = g_build_filename (top, "steward", "conversations", NULL);
  fixture->folder = g_file_new_for_path (fixture->dir);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *steward = g_path_get_dirname (fixture->dir);
  g_autofree char *top = g_path_get_dirname (steward);

  g_clear_object (&fixture->folder);
  remove_tree (top);
  g_free (fixture->dir);
}

static char *
path_of (Fixture    *fixture,
         const char *name)
{
  return g_build_filename (fixture->dir, name, NULL);
}

static char *
file_of (Fixture             *fixture,
         StewardConversation *conversation)
{
  g_autofree char *name = g_strconcat (steward_conversation_get_id (conversation), ".json", NULL);

  return path_of (fixture, name);
}

static void
flush (StewardConversationStore *store)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  steward_conversation_store_flush_async (store, NULL, store_result_cb, &result);
  wait_until (result != NULL, 20);
  g_assert_true (steward_conversation_store_flush_finish (store, result, &error));
  g_assert_no_error (error);
}

typedef struct {
  GPtrArray *files;
  GPtrArray *messages;
} Failures;

static void
load_failed_cb (StewardConversationStore *store,
                GFile                    *file,
                const char               *message,
                Failures                 *failures)
{
  g_ptr_array_add (failures->files, g_file_get_path (file));
  g_ptr_array_add (failures->messages, g_strdup (message));
}

static StewardConversationStore *
load_store (Fixture  *fixture,
            Failures *failures)
{
  StewardConversationStore *store = steward_conversation_store_new (fixture->folder);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  if (failures != NULL)
    g_signal_connect (store, "load-failed", G_CALLBACK (load_failed_cb), failures);
  g_assert_false (steward_conversation_store_get_loaded (store));
  steward_conversation_store_load_async (store, NULL, store_result_cb, &result);
  wait_until (result != NULL, 60);
  g_assert_true (steward_conversation_store_load_finish (store, result, &error));
  g_assert_no_error (error);
  g_assert_true (steward_conversation_store_get_loaded (store));
  if (failures != NULL)
    g_signal_handlers_disconnect_by_data (store, failures);

  return store;
}

static JsonArray *
parse_array (const char *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = mcp_json_parse (json, -1, &error);

  g_assert_no_error (error);
  return json_array_ref (json_node_get_array (node));
}

static JsonObject *
parse_object (const char *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = mcp_json_parse (json, -1, &error);

  g_assert_no_error (error);
  return json_object_ref (json_node_get_object (node));
}

static StewardChatMessage *
user_message (const char *text)
{
  g_autoptr(JsonArray) content = json_array_new ();
  JsonObject *block = json_object_new ();

  json_object_set_string_member (block, "type", "text");
  json_object_set_string_member (block, "text", text);
  json_array_add_object_element (content, block);

  return steward_chat_message_new (STEWARD_CHAT_ROLE_USER, content);
}

static char *
to_text (StewardConversation *conversation)
{
  g_autoptr(JsonObject) json = steward_conversation_to_json (conversation);
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), json);

  return json_to_string (node, FALSE);
}

static void
test_create_rename_delete (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autoptr(StewardConversationStore) store = load_store (fixture, NULL);
  g_autoptr(StewardChatMessage) first = NULL;
  g_autoptr(StewardChatMessage) second = NULL;
  g_autoptr(StewardChatMessage) long_one = NULL;
  g_autoptr(StewardChatMessage) third = NULL;
  GListModel *list = G_LIST_MODEL (store);
  StewardConversation *one;
  StewardConversation *two;
  g_autofree char *one_path = NULL;
  g_autofree char *two_path = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(StewardConversation) item = NULL;

  /* A missing folder is an empty list. */
  g_assert_cmpuint (g_list_model_get_n_items (list), ==, 0);

  one = steward_conversation_store_create (store);
  g_object_ref (one);
  g_assert_cmpuint (g_list_model_get_n_items (list), ==, 1);
  g_assert_cmpstr (steward_conversation_get_title (one), ==, "New chat");
  g_assert_true (steward_conversation_store_lookup (store, steward_conversation_get_id (one)) ==
                 one);
  one_path = file_of (fixture, one);

  /* Written by itself, a little after the change. */
  wait_until (g_file_test (one_path, G_FILE_TEST_EXISTS), 5);

  /* The first line of the first message names it, cut to 60 characters. */
  first = user_message ("  What is in the folder I shared?\nAnd list it by size.");
  steward_conversation_append (one, first);
  g_assert_cmpstr (steward_conversation_get_title (one), ==, "What is in the folder I shared?");
  second = user_message ("Another question");
  steward_conversation_append (one, second);
  g_assert_cmpstr (steward_conversation_get_title (one), ==, "What is in the folder I shared?");

  two = steward_conversation_store_create (store);
  g_object_ref (two);
  long_one = user_message ("A very long first line that goes on and on well past the sixty "
                           "characters a title may have");
  steward_conversation_append (two, long_one);
  g_assert_cmpuint (g_utf8_strlen (steward_conversation_get_title (two), -1), ==, 60);
  g_assert_true (g_str_has_suffix (steward_conversation_get_title (two), "…"));
  two_path = file_of (fixture, two);

  /* Newest first; a new message moves a conversation to the top. */
  item = g_list_model_get_item (list, 0);
  g_assert_true (item == two);
  g_clear_object (&item);
  third = user_message ("One more");
  steward_conversation_append (one, third);
  item = g_list_model_get_item (list, 0);
  g_assert_true (item == one);
  g_clear_object (&item);

  /* A rename is the person's title, kept; it does not reorder. */
  steward_conversation_set_title (two, "  Sizes  ");
  g_assert_cmpstr (steward_conversation_get_title (two), ==, "Sizes");
  item = g_list_model_get_item (list, 0);
  g_assert_true (item == one);
  g_clear_object (&item);

  flush (store);
  g_assert_true (g_file_get_contents (two_path, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, "\"title\":\"Sizes\""));

  /* Deleting takes it out of the list and removes its file. */
  steward_conversation_store_delete (store, two);
  g_assert_cmpuint (g_list_model_get_n_items (list), ==, 1);
  g_assert_null (steward_conversation_store_lookup (store, steward_conversation_get_id (two)));
  wait_until (!g_file_test (two_path, G_FILE_TEST_EXISTS), 5);
  g_assert_true (g_file_test (one_path, G_FILE_TEST_EXISTS));

  /* Changes to a deleted conversation are not written. */
  steward_conversation_set_title (two, "Gone");
  flush (store);
  g_assert_false (g_file_test (two_path, G_FILE_TEST_EXISTS));

  g_assert_finalize_object (g_steal_pointer (&store));
  g_assert_finalize_object (one);
  g_assert_finalize_object (two);
}

static void
test_round_trip (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(StewardConversationStore) store = load_store (fixture, NULL);
  g_autoptr(StewardConversationStore) again = NULL;
  g_autoptr(JsonArray) user_content = NULL;
  g_autoptr(JsonArray) result = NULL;
  g_autoptr(JsonObject) arguments = NULL;
  g_autoptr(JsonObject) tool_use = NULL;
  g_autoptr(JsonObject) usage = NULL;
  g_autoptr(StewardChatMessage) user = NULL;
  g_autoptr(StewardChatMessage) answer = NULL;
  g_autoptr(StewardChatMessage) answer_two = NULL;
  g_autoptr(StewardToolCall) done = NULL;
  g_autoptr(StewardToolCall) waiting = NULL;
  g_autoptr(StewardConversation) loaded = NULL;
  g_autoptr(StewardConversation) older = NULL;
  g_autoptr(StewardChatMessage) loaded_answer = NULL;
  g_autoptr(StewardToolCall) loaded_done = NULL;
  g_autoptr(StewardToolCall) loaded_waiting = NULL;
  StewardConversation *conversation;
  StewardConversation *first;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  GListModel *calls;

  first = steward_conversation_store_create (store);
  steward_conversation_set_title (first, "Older");

  conversation = steward_conversation_store_create (store);
  steward_conversation_set_model (conversation, "ollama/qwen2.5:7b");

  /* The person's message, with an attached resource. */
  user_content = parse_array ("[{\"type\":\"text\",\"text\":\"Summarize this\"},"
                              "{\"type\":\"resource\",\"resource\":{\"uri\":\"file:///notes.txt\","
                              "\"mimeType\":\"text/plain\",\"text\":\"Line one\\nLine two\"}}]");
  user = steward_chat_message_new (STEWARD_CHAT_ROLE_USER, user_content);
  steward_conversation_append (conversation, user);
  g_assert_cmpstr (steward_chat_message_get_text (user), ==, "Summarize this");

  /* The model's answer streams in, then calls two tools. */
  answer = steward_chat_message_new (STEWARD_CHAT_ROLE_ASSISTANT, NULL);
  steward_chat_message_set_streaming (answer, TRUE);
  steward_chat_message_set_model (answer, "ollama/qwen2.5:7b");
  steward_conversation_append (conversation, answer);
  steward_chat_message_append_text (answer, "Let me ");
  steward_chat_message_append_text (answer, "look.");
  g_assert_cmpstr (steward_chat_message_get_text (answer), ==, "Let me look.");
  tool_use = parse_object ("{\"type\":\"tool_use\",\"id\":\"call-1\",\"name\":\"everything__echo\","
                           "\"input\":{\"message\":\"hi\"}}");
  steward_chat_message_append_block (answer, tool_use);
  steward_chat_message_append_text (answer, "And more.");
  g_assert_cmpstr (steward_chat_message_get_text (answer), ==, "Let me look.\n\nAnd more.");
  steward_chat_message_set_streaming (answer, FALSE);
  usage = parse_object ("{\"inputTokens\":12,\"outputTokens\":34}");
  steward_chat_message_set_usage (answer, usage);
  steward_chat_message_set_note (answer, "Stopped");

  arguments = parse_object ("{\"message\":\"hi\",\"nested\":{\"list\":[1,2.5,true,null]}}");
  done = steward_tool_call_new ("call-1", "everything", "echo", arguments);
  steward_chat_message_add_tool_call (answer, done);
  steward_tool_call_set_state (done, STEWARD_TOOL_CALL_RUNNING);
  result = parse_array ("[{\"type\":\"text\",\"text\":\"Echo: hi\"},{\"type\":\"image\","
                        "\"data\":\"iVBORw0KGgo=\",\"mimeType\":\"image/png\"}]");
  steward_tool_call_set_result (done, result, TRUE);
  steward_tool_call_set_error (done, "The tool said so");
  steward_tool_call_set_state (done, STEWARD_TOOL_CALL_FAILED);

  waiting = steward_tool_call_new ("call-2", "everything", "add", arguments);
  steward_chat_message_add_tool_call (answer, waiting);

  answer_two = steward_chat_message_new (STEWARD_CHAT_ROLE_ASSISTANT, NULL);
  steward_chat_message_set_error (answer_two, "No model is configured");
  steward_conversation_append (conversation, answer_two);

  before = to_text (conversation);
  flush (store);

  again = load_store (fixture, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (again)), ==, 2);
  loaded = g_list_model_get_item (G_LIST_MODEL (again), 0);
  older = g_list_model_get_item (G_LIST_MODEL (again), 1);
  g_assert_cmpstr (steward_conversation_get_id (loaded), ==,
                   steward_conversation_get_id (conversation));
  g_assert_cmpstr (steward_conversation_get_title (older), ==, "Older");
  g_assert_cmpstr (steward_conversation_get_title (loaded), ==, "Summarize this");
  g_assert_cmpstr (steward_conversation_get_model (loaded), ==, "ollama/qwen2.5:7b");
  g_assert_cmpint (steward_conversation_get_created (loaded), ==,
                   steward_conversation_get_created (conversation));
  g_assert_cmpint (steward_conversation_get_updated (loaded), ==,
                   steward_conversation_get_updated (conversation));
  g_assert_cmpuint (g_list_model_get_n_items (steward_conversation_get_messages (loaded)), ==, 3);

  loaded_answer = g_list_model_get_item (steward_conversation_get_messages (loaded), 1);
  g_assert_cmpstr (steward_chat_message_get_text (loaded_answer), ==, "Let me look.\n\nAnd more.");
  g_assert_cmpstr (steward_chat_message_get_note (loaded_answer), ==, "Stopped");
  g_assert_cmpint (steward_chat_message_get_time (loaded_answer), ==,
                   steward_chat_message_get_time (answer));
  calls = steward_chat_message_get_tool_calls (loaded_answer);
  g_assert_cmpuint (g_list_model_get_n_items (calls), ==, 2);
  loaded_done = g_list_model_get_item (calls, 0);
  g_assert_cmpint (steward_tool_call_get_state (loaded_done), ==, STEWARD_TOOL_CALL_FAILED);
  g_assert_true (steward_tool_call_get_is_error (loaded_done));
  g_assert_cmpstr (steward_tool_call_get_error (loaded_done), ==, "The tool said so");
  g_assert_cmpuint (json_array_get_length (steward_tool_call_get_result (loaded_done)), ==, 2);

  /* Byte for byte the same, but for the call that was waiting when the
   * file was written: it did not survive, and says so. */
  loaded_waiting = g_list_model_get_item (calls, 1);
  g_assert_cmpint (steward_tool_call_get_state (loaded_waiting), ==, STEWARD_TOOL_CALL_FAILED);
  g_assert_nonnull (steward_tool_call_get_error (loaded_waiting));
  steward_tool_call_set_state (loaded_waiting, STEWARD_TOOL_CALL_WAITING);
  steward_tool_call_set_error (loaded_waiting, NULL);
  after = to_text (loaded);
  g_assert_cmpstr (before, ==, after);

  g_clear_object (&loaded_answer);
  g_clear_object (&loaded_done);
  g_clear_object (&loaded_waiting);
  g_clear_object (&loaded);
  g_clear_object (&older);
  flush (again);
  g_assert_finalize_object (g_steal_pointer (&again));
  g_assert_finalize_object (g_steal_pointer (&store));
}

static void
test_damaged (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(StewardConversationStore) store = NULL;
  g_autoptr(StewardConversationStore) again = NULL;
  Failures failures = {
    g_ptr_array_new_with_free_func (g_free),
    g_ptr_array_new_with_free_func (g_free),
  };
  g_autofree char *cut = path_of (fixture, "cut-short.json");
  g_autofree char *cut_aside = path_of (fixture, "cut-short.json.damaged");
  g_autofree char *shape = path_of (fixture, "wrong-shape.json");
  g_autofree char *shape_aside = path_of (fixture, "wrong-shape.json.damaged");
  g_autofree char *shape_aside_1 = path_of (fixture, "wrong-shape.json.damaged-1");
  g_autofree char *good = path_of (fixture, "good.json");
  g_autofree char *other = path_of (fixture, "notes.txt");
  g_autofree char *kept = NULL;
  const char *cut_text = "{\"id\":\"cut-short\",\"messages\":[{\"role\":\"user\",\"cont";
  const char *shape_text = "{\"id\":\"wrong-shape\",\"messages\":[{\"role\":\"robot\","
                           "\"content\":[]}]}";

  g_assert_cmpint (g_mkdir_with_parents (fixture->dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (cut, cut_text, -1, NULL));
  g_assert_true (g_file_set_contents (shape, shape_text, -1, NULL));
  /* An older copy is already aside: the new one takes the next name. */
  g_assert_true (g_file_set_contents (shape_aside, "older", -1, NULL));
  g_assert_true (g_file_set_contents (good, "{\"id\":\"good\",\"title\":\"Fine\",\"messages\":"
                                      "[{\"role\":\"user\",\"content\":[{\"type\":\"text\","
                                      "\"text\":\"hello\"}]}]}", -1, NULL));
  g_assert_true (g_file_set_contents (other, "not a conversation", -1, NULL));

  store = load_store (fixture, &failures);

  /* The good one loads; each damaged one is reported with its name and
   * where it went, and moved aside whole. */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (store)), ==, 1);
  g_assert_nonnull (steward_conversation_store_lookup (store, "good"));
  g_assert_cmpuint (failures.files->len, ==, 2);
  for (guint i = 0; i < failures.files->len; i++)
    {
      const char *file = g_ptr_array_index (failures.files, i);
      const char *message = g_ptr_array_index (failures.messages, i);

      g_test_message ("load-failed: %s: %s", file, message);
      if (g_str_equal (file, cut))
        g_assert_nonnull (strstr (message, cut_aside));
      else if (g_str_equal (file, shape))
        {
          g_assert_nonnull (strstr (message, "Message 1"));
          g_assert_nonnull (strstr (message, shape_aside_1));
        }
      else
        g_assert_not_reached ();
    }

  g_assert_false (g_file_test (cut, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (shape, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_get_contents (cut_aside, &kept, NULL, NULL));
  g_assert_cmpstr (kept, ==, cut_text);
  g_clear_pointer (&kept, g_free);
  g_assert_true (g_file_get_contents (shape_aside_1, &kept, NULL, NULL));
  g_assert_cmpstr (kept, ==, shape_text);
  g_clear_pointer (&kept, g_free);
  g_assert_true (g_file_get_contents (shape_aside, &kept, NULL, NULL));
  g_assert_cmpstr (kept, ==, "older");
  g_assert_true (g_file_test (other, G_FILE_TEST_EXISTS));

  /* Working on afterwards leaves the copies alone, and they are not
   * read as conversations again. */
  steward_conversation_store_create (store);
  flush (store);
  g_assert_finalize_object (g_steal_pointer (&store));

  g_ptr_array_set_size (failures.files, 0);
  g_ptr_array_set_size (failures.messages, 0);
  again = load_store (fixture, &failures);
  g_assert_cmpuint (failures.files->len, ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (again)), ==, 2);
  g_assert_true (g_file_test (cut_aside, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (shape_aside_1, G_FILE_TEST_EXISTS));
  g_assert_finalize_object (g_steal_pointer (&again));

  g_ptr_array_unref (failures.files);
  g_ptr_array_unref (failures.messages);
}

/* The longest time the main loop went without running a 5 ms timer: a
 * figure to read, which depends on the machine and its load (the goal is
 * tests/bench/bench-chat's to report). */
typedef struct {
  gint64 last;
  gint64 longest;
  guint  ticks;
} Stall;

static gboolean
stall_cb (gpointer user_data)
{
  Stall *stall = user_data;
  gint64 now = g_get_monotonic_time ();

  stall->longest = MAX (stall->longest, now - stall->last);
  stall->last = now;
  stall->ticks++;
  return G_SOURCE_CONTINUE;
}

static void
test_long (Fixture       *fixture,
           gconstpointer  data)
{
  g_autoptr(StewardConversationStore) store = load_store (fixture, NULL);
  g_autoptr(StewardConversationStore) again = NULL;
  g_autoptr(StewardConversation) loaded = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) paragraph = g_string_new (NULL);
  StewardConversation *conversation;
  Stall stall = { 0, 0, 0 };
  guint stall_source;
  gint64 start;
  gint64 loaded_at;
  GStatBuf buf;
  g_autofree char *path = NULL;

  for (guint i = 0; i < 8; i++)
    g_string_append (paragraph, "Some sentence that a model could well have written here. ");

  conversation = steward_conversation_store_create (store);
  for (guint i = 0; i < 2000; i++)
    {
      g_autoptr(StewardChatMessage) message = NULL;

      if (i % 2 == 0)
        {
          g_autofree char *text = g_strdup_printf ("Question %u: %s", i, paragraph->str);

          message = user_message (text);
        }
      else
        {
          message = steward_chat_message_new (STEWARD_CHAT_ROLE_ASSISTANT, NULL);
          steward_chat_message_append_text (message, paragraph->str);
          steward_chat_message_set_model (message, "ollama/qwen2.5:7b");
          if (i % 10 == 1)
            {
              g_autoptr(JsonObject) arguments = parse_object ("{\"message\":\"hi\"}");
              g_autoptr(JsonArray) content = parse_array ("[{\"type\":\"text\","
                                                          "\"text\":\"Echo: hi\"}]");
              g_autoptr(StewardToolCall) call = NULL;

              call = steward_tool_call_new ("call", "everything", "echo", arguments);
              steward_tool_call_set_result (call, content, FALSE);
              steward_tool_call_set_state (call, STEWARD_TOOL_CALL_DONE);
              steward_chat_message_add_tool_call (message, call);
            }
        }
      steward_conversation_append (conversation, message);
    }
  flush (store);
  path = file_of (fixture, conversation);
  g_assert_cmpint (g_stat (path, &buf), ==, 0);
  g_assert_finalize_object (g_steal_pointer (&store));

  /* Loading runs on a worker: the call returns before anything is read,
   * and the main loop keeps running until the result comes back. */
  again = steward_conversation_store_new (fixture->folder);
  stall.last = g_get_monotonic_time ();
  stall_source = g_timeout_add (5, stall_cb, &stall);
  start = g_get_monotonic_time ();
  steward_conversation_store_load_async (again, NULL, store_result_cb, &result);
  g_assert_null (result);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (again)), ==, 0);
  wait_until (result != NULL, 60);
  loaded_at = g_get_monotonic_time ();
  g_source_remove (stall_source);
  g_assert_true (steward_conversation_store_load_finish (again, result, &error));
  g_assert_no_error (error);

  loaded = g_list_model_get_item (G_LIST_MODEL (again), 0);
  g_assert_cmpuint (g_list_model_get_n_items (steward_conversation_get_messages (loaded)), ==,
                    2000);
  /* Figures, not verdicts: a busy machine stretches both. */
  g_test_message ("loaded a conversation of 2000 messages (%.1f MiB) in %.1f ms; "
                  "the main loop's longest wait meanwhile was %.1f ms, over %u ticks",
                  buf.st_size / (1024.0 * 1024.0), (loaded_at - start) / 1000.0,
                  stall.longest / 1000.0, stall.ticks);

  g_clear_object (&loaded);
  g_clear_object (&result);
  g_assert_finalize_object (g_steal_pointer (&again));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/steward/conversation-store/create-rename-delete", Fixture, NULL,
              fixture_set_up, test_create_rename_delete, fixture_tear_down);
  g_test_add ("/steward/conversation-store/round-trip", Fixture, NULL,
              fixture_set_up, test_round_trip, fixture_tear_down);
  g_test_add ("/steward/conversation-store/damaged", Fixture, NULL,
              fixture_set_up, test_damaged, fixture_tear_down);
  g_test_add ("/steward/conversation-store/long", Fixture, NULL,
              fixture_set_up, test_long, fixture_tear_down);

  return g_test_run ();
}

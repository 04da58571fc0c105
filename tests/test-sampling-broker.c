/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-sampling-broker"

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "mcp-error.h"

#include "steward-redactor.h"
#include "steward-sampling-broker-private.h"

#define MINUTE ((gint64) 60 * G_USEC_PER_SEC)
#define DAY    (24 * 60 * MINUTE)

/* The clock the broker goes by; tests move it. Noon, so that a few
 * minutes either way stay on the same local day. */
static gint64 fake_now;

static gint64
fake_clock (gpointer user_data)
{
  return fake_now;
}

static void
reset_clock (void)
{
  g_autoptr(GDateTime) noon = g_date_time_new_local (2026, 3, 14, 12, 0, 0);

  fake_now = g_date_time_to_unix (noon) * G_USEC_PER_SEC;
}

/* Waiting without sleeping: the main loop runs until the condition holds,
 * and a condition that never comes fails the test. */
static gboolean timed_out;

static gboolean
timeout_cb (gpointer user_data)
{
  timed_out = TRUE;
  return G_SOURCE_REMOVE;
}

#define WAIT_UNTIL(condition) G_STMT_START {                             \
    guint timeout_id_ = g_timeout_add_seconds (10, timeout_cb, NULL);    \
    timed_out = FALSE;                                                   \
    while (!(condition) && !timed_out)                                   \
      g_main_context_iteration (NULL, TRUE);                             \
    g_assert_false (timed_out);                                          \
    g_source_remove (timeout_id_);                                       \
  } G_STMT_END

/* Runs whatever is ready without waiting: "fails at once" means by then. */
static void
run_pending (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

typedef struct {
  gboolean    done;
  JsonObject *result;
  GError     *error;
} Call;

static void
call_clear (Call *call)
{
  call->done = FALSE;
  g_clear_pointer (&call->result, json_object_unref);
  g_clear_error (&call->error);
}

static void
create_message_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  Call *call = user_data;

  g_assert_false (call->done);
  call->result = steward_sampling_broker_create_message_finish (STEWARD_SAMPLING_BROKER (object),
                                                                result, &call->error);
  g_assert_true ((call->result == NULL) != (call->error == NULL));
  call->done = TRUE;
}

static void
elicit_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Call *call = user_data;

  g_assert_false (call->done);
  call->result = steward_sampling_broker_elicit_finish (STEWARD_SAMPLING_BROKER (object),
                                                        result, &call->error);
  g_assert_true ((call->result == NULL) != (call->error == NULL));
  call->done = TRUE;
}

static JsonObject *
parse_object (const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = json_from_string (text, &error);

  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  return json_object_ref (json_node_get_object (node));
}

static JsonObject *
sampling_params (const char *question,
                 gint64      max_tokens)
{
  g_autofree char *text = g_strdup_printf ("{\"messages\": [{\"role\": \"user\", \"content\": "
                                           "{\"type\": \"text\", \"text\": \"%s\"}}], "
                                           "\"systemPrompt\": \"Be brief.\", "
                                           "\"maxTokens\": %" G_GINT64_FORMAT "}",
                                           question, max_tokens);

  return parse_object (text);
}

static const char *
first_message_text (JsonObject *params)
{
  JsonArray *messages = json_object_get_array_member (params, "messages");
  JsonObject *message = json_array_get_object_element (messages, 0);

  return json_object_get_string_member (json_object_get_object_member (message, "content"),
                                        "text");
}

static const char *
result_text (JsonObject *result)
{
  return json_object_get_string_member (json_object_get_object_member (result, "content"),
                                        "text");
}

static StewardSamplingSettings *
settings_of (StewardSamplingBroker *broker,
             const char            *server)
{
  return steward_sampling_broker_get_settings (broker, server);
}

static StewardSamplingBroker *
new_broker (StewardApprovals *approvals,
            GFile            *policies,
            GFile            *journal)
{
  StewardSamplingBroker *broker = steward_sampling_broker_new (approvals, policies, journal);

  reset_clock ();
  steward_sampling_broker_set_clock (broker, fake_clock, NULL);
  return broker;
}

static void
ask (StewardSamplingBroker *broker,
     const char            *server,
     const char            *question,
     gint64                 max_tokens,
     GCancellable          *cancellable,
     Call                  *call)
{
  g_autoptr(JsonObject) params = sampling_params (question, max_tokens);

  steward_sampling_broker_create_message_async (broker, server, params, NULL, cancellable,
                                                create_message_cb, call);
}

/* The newest approval in the list, referenced. */
static StewardApproval *
get_last (StewardApprovals *approvals)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (approvals));

  g_assert_cmpuint (n, >, 0);
  return g_list_model_get_item (G_LIST_MODEL (approvals), n - 1);
}

static guint
n_approvals (StewardApprovals *approvals)
{
  return g_list_model_get_n_items (G_LIST_MODEL (approvals));
}

static void
assert_rejected (Call *call)
{
  g_assert_true (call->done);
  g_assert_error (call->error, MCP_ERROR, MCP_ERROR_USER_REJECTED);
  g_assert_cmpint (call->error->code, ==, -1);
  g_assert_cmpstr (call->error->message, ==, "User rejected sampling request");
  g_assert_true (mcp_error_is_rpc (call->error));
}

/* Temporary folders */

static void
remove_tree (GFile *file)
{
  g_autoptr(GFileEnumerator) children = NULL;

  children = g_file_enumerate_children (file, G_FILE_ATTRIBUTE_STANDARD_NAME,
                                        G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL, NULL);
  if (children != NULL)
    {
      GFileInfo *info;
      GFile *child;

      while (g_file_enumerator_iterate (children, &info, &child, NULL, NULL) && info != NULL)
        remove_tree (child);
    }

  g_file_delete (file, NULL, NULL);
}

static GFile *
make_tmp_dir (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_dir_make_tmp ("steward-broker-XXXXXX", &error);

  g_assert_no_error (error);
  return g_file_new_for_path (path);
}

static void
done_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static GPtrArray *
read_journal (StewardSamplingBroker *broker)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *records;

  steward_sampling_broker_read_journal_async (broker, NULL, done_cb, &result);
  WAIT_UNTIL (result != NULL);
  records = steward_sampling_broker_read_journal_finish (broker, result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (records);

  return records;
}

static const char *
record_string (GPtrArray  *records,
               guint       index,
               const char *member)
{
  return json_object_get_string_member_with_default (g_ptr_array_index (records, index),
                                                     member, NULL);
}

static gint64
record_int (GPtrArray  *records,
            guint       index,
            const char *member)
{
  return json_object_get_int_member_with_default (g_ptr_array_index (records, index),
                                                  member, -100);
}

static gboolean
file_contains (GFile      *file,
               const char *needle)
{
  g_autofree char *contents = NULL;

  return g_file_load_contents (file, NULL, &contents, NULL, NULL, NULL) &&
         strstr (contents, needle) != NULL;
}

/* The unfinished approval of @kind from @server, referenced. */
static StewardApproval *
find_approval (StewardApprovals    *approvals,
               StewardApprovalKind  kind,
               const char          *server)
{
  for (guint i = 0; i < n_approvals (approvals); i++)
    {
      g_autoptr(StewardApproval) approval = g_list_model_get_item (G_LIST_MODEL (approvals), i);

      if (steward_approval_get_kind (approval) == kind &&
          g_str_equal (steward_approval_get_server (approval), server))
        return g_steal_pointer (&approval);
    }

  g_assert_not_reached ();
}

/* Policies */

static void
test_deny (void)
{
  StewardApprovals *approvals = steward_approvals_new ();
  StewardSamplingBroker *broker = new_broker (approvals, NULL, NULL);
  Call call = { 0, };

  steward_sampling_settings_set_policy (settings_of (broker, "everything"),
                                        STEWARD_SAMPLING_POLICY_DENY);
  ask (broker, "everything", "What is 6 times 7?", 100, NULL, &call);
  run_pending ();

  assert_rejected (&call);
  g_assert_cmpuint (n_approvals (approvals), ==, 0);

  /* Other servers keep the default. */
  g_assert_cmpint (steward_sampling_settings_get_policy (settings_of (broker, "files")), ==,
                   STEWARD_SAMPLING_POLICY_ASK);

  call_clear (&call);
  g_assert_finalize_object (broker);
  g_assert_finalize_object (approvals);
}

static void
test_ask (void)
{
  StewardApprovals *approvals = steward_approvals_new ();
  StewardSamplingBroker *broker = new_broker (approvals, NULL, NULL);
  g_autoptr(JsonObject) params = sampling_params ("What is 6 times 7?", 100);
  g_autoptr(JsonObject) edited = sampling_params ("What is six times seven?", 100);
  StewardApproval *approval;
  Call call = { 0, };

  steward_sampling_broker_create_message_async (broker, "everything", params,
                                                "tool call `trigger-sampling-request`", NULL,
                                                create_message_cb, &call);
  WAIT_UNTIL (n_approvals (approvals) == 1);
  approval = get_last (approvals);

  g_assert_cmpint (steward_approval_get_kind (approval), ==, STEWARD_APPROVAL_KIND_SAMPLING);
  g_assert_cmpstr (steward_approval_get_server (approval), ==, "everything");
  g_assert_cmpint (steward_approval_get_stage (approval), ==, STEWARD_APPROVAL_STAGE_REQUEST);
  g_assert_cmpstr (steward_approval_get_cause (approval), ==,
                   "tool call `trigger-sampling-request`");
  g_assert_cmpstr (steward_approval_get_model (approval), ==, "manual");
  g_assert_cmpstr (steward_approval_get_model_reason (approval), ==,
                   "No model is configured, so you write the answer.");
  g_assert_cmpstr (steward_approval_get_policy_text (approval), ==, "Ask every time");
  g_assert_cmpuint (steward_approval_get_max_tokens_requested (approval), ==, 0);
  g_assert_cmpstr (first_message_text (steward_approval_get_request (approval)), ==,
                   "What is 6 times 7?");
  g_assert_false (call.done);

  /* The person edits the question and goes on. */
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_CONTINUE, edited);
  g_assert_cmpint (steward_approval_get_stage (approval), ==, STEWARD_APPROVAL_STAGE_RESPONSE);
  g_assert_cmpstr (first_message_text (steward_approval_get_request (approval)), ==,
                   "What is six times seven?");
  g_assert_cmpstr (steward_approval_get_answer_text (approval), ==, "");
  g_assert_false (steward_approval_get_generating (approval));
  g_assert_false (steward_approval_get_finished (approval));

  /* … and writes the answer. */
  steward_approval_set_answer_text (approval, "42");
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_SEND, NULL);
  WAIT_UNTIL (call.done);

  g_assert_no_error (call.error);
  g_assert_cmpstr (json_object_get_string_member (call.result, "role"), ==, "assistant");
  g_assert_cmpstr (result_text (call.result), ==, "42");
  g_assert_cmpstr (json_object_get_string_member (call.result, "model"), ==, "manual");
  g_assert_cmpstr (json_object_get_string_member (call.result, "stopReason"), ==, "endTurn");
  g_assert_cmpuint (n_approvals (approvals), ==, 0);
  g_assert_true (steward_approval_get_finished (approval));

  call_clear (&call);
  g_assert_finalize_object (approval);
  g_assert_finalize_object (broker);
  g_assert_finalize_object (approvals);
}

/* An edit that breaks the request is said in the dialog, which stays. */
static void
test_continue_invalid (void)
{
  StewardApprovals *approvals = steward_approvals_new ();
  StewardSamplingBroker *broker = new_broker (approvals, NULL, NULL);
  g_autoptr(JsonObject) broken = parse_object ("{\"messages\": [{\"role\": \"system\", "
                                               "\"content\": {\"type\": \"text\", "
                                               "\"text\": \"hi\"}}], \"maxTokens\": 10}");
  g_autoptr(JsonObject) result = parse_object ("{\"role\": \"assistant\", \"content\": "
                                               "{\"type\": \"text\", \"text\": \"Hello\"}, "
                                               "\"model\": \"by-hand\"}");
  StewardApproval *approval;
  Call call = { 0, };

  ask (broker, "everything", "Hi", 100, NULL, &call);
  WAIT_UNTIL (n_approvals (approvals) == 1);
  approval = get_last (approvals);

  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_CONTINUE, broken);
  g_assert_cmpint (steward_approval_get_stage (approval), ==, STEWARD_APPROVAL_STAGE_REQUEST);
  g_assert_nonnull (strstr (steward_approval_get_error_text (approval), "messages[0].role"));
  g_assert_cmpstr (first_message_text (steward_approval_get_request (approval)), ==, "Hi");

  /* Going on unchanged works, and clears the error. */
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_CONTINUE, NULL);
  g_assert_cmpint (steward_approval_get_stage (approval), ==, STEWARD_APPROVAL_STAGE_RESPONSE);
  g_assert_null (steward_approval_get_error_text (approval));

  /* The dialog may build the result itself. */
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_SEND, result);
  WAIT_UNTIL (call.done);
  g_assert_no_error (call.error);
  g_assert_cmpstr (result_text (call.result), ==, "Hello");
  g_assert_cmpstr (json_object_get_string_member (call.result, "model"), ==, "by-hand");

  call_clear (&call);
  g_assert_finalize_object (approval);
  g_assert_finalize_object (broker);
  g_assert_finalize_object (approvals);
}

static void
test_reject (void)
{
  StewardApprovals *approvals = steward_approvals_new ();
  StewardSamplingBroker *broker = new_broker (approvals, NULL, NULL);
  StewardApproval *approval;
  Call call = { 0, };

  /* At the first stage. */
  ask (broker, "everything", "Tell me a secret", 100, NULL, &call);
  WAIT_UNTIL (n_approvals (approvals) == 1);
  approval = get_last (approvals);
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_REJECT, NULL);
  WAIT_UNTIL (call.done);
  assert_rejected (&call);
  g_assert_cmpuint (n_approvals (approvals), ==, 0);
  call_clear (&call);
  g_assert_finalize_object (approval);

  /* At the second. */
  ask (broker, "everything", "Tell me another", 100, NULL, &call);
  WAIT_UNTIL (n_approvals (approvals) == 1);
  approval = get_last (approvals);
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_CONTINUE, NULL);
  steward_approval_set_answer_text (approval, "No.");
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_REJECT, NULL);
  WAIT_UNTIL (call.done);
  assert_rejected (&call);
  call_clear (&call);
  g_assert_finalize_object (approval);

  /* A sampling dialog closed another way is no consent either. */
  ask (broker, "everything", "And now?", 100, NULL, &call);
  WAIT_UNTIL (n_approvals (approvals) == 1);
  approval = get_last (approvals);
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_CANCEL, NULL);
  WAIT_UNTIL (call.done);
  assert_rejected (&call);
  call_clear (&call);
  g_assert_finalize_object (approval);

  g_assert_finalize_object (broker);
  g_assert_finalize_object (approvals);
}

static void
test_always (void)
{
  const StewardSamplingPolicy policies[] = {
    STEWARD_SAMPLING_POLICY_ALWAYS,
    STEWARD_SAMPLING_POLICY_ALLOW_SESSION,
  };

  for (guint i = 0; i < G_N_ELEMENTS (policies); i++)
    {
      StewardApprovals *approvals = steward_approvals_new ();
      StewardSamplingBroker *broker = new_broker (approvals, NULL, NULL);
      StewardApproval *approval;
      Call call = { 0, };

      steward_sampling_settings_set_policy (settings_of (broker, "everything"), policies[i]);
      ask (broker, "everything", "What is 6 times 7?", 100, NULL, &call);
      WAIT_UNTIL (n_approvals (approvals) == 1);
      approval = get_last (approvals);

      /* No first stage: the approval opens at the answer. */
      g_assert_cmpint (steward_approval_get_stage (approval), ==,
                       STEWARD_APPROVAL_STAGE_RESPONSE);
      g_assert_false (steward_approval_get_generating (approval));
      g_assert_cmpstr (steward_approval_get_answer_text (approval), ==, "");
      g_assert_cmpstr (steward_approval_get_policy_text (approval), !=, "Ask every time");

      steward_approval_set_answer_text (approval, "42");
      steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_SEND, NULL);
      WAIT_UNTIL (call.done);
      g_assert_no_error (call.error);
      g_assert_cmpstr (result_text (call.result), ==, "42");

      call_clear (&call);
      g_assert_finalize_object (approval);
      g_assert_finalize_object (broker);
      g_assert_finalize_object (approvals);
    }
}

static void
test_invalid_params (void)
{
  const struct {
    const char *params;
    const char *field;
  } cases[] = {
    { "{\"maxTokens\": 10}", "messages" },
    { "{\"messages\": {}, \"maxTokens\": 10}", "messages" },
    { "{\"messages\": [], \"maxTokens\": 10}", "messages" },
    { "{\"messages\": [42], \"maxTokens\": 10}", "messages[0]" },
    { "{\"messages\": [{\"role\": \"user\", \"content\": {\"type\": \"text\", \"text\": \"a\"}},"
      " {\"role\": \"system\", \"content\": {\"type\": \"text\", \"text\": \"b\"}}],"
      " \"maxTokens\": 10}", "messages[1].role" },
    { "{\"messages\": [{\"role\": \"user\"}], \"maxTokens\": 10}", "messages[0].content" },
    { "{\"messages\": [{\"role\": \"user\", \"content\": {\"type\": \"text\", \"text\": \"a\"}}]}",
      "maxTokens" },
    { "{\"messages\": [{\"role\": \"user\", \"content\": {\"type\": \"text\", \"text\": \"a\"}}],"
      " \"maxTokens\": 0}", "maxTokens" },
    { "{\"messages\": [{\"role\": \"user\", \"content\": {\"type\": \"text\", \"text\": \"a\"}}],"
      " \"maxTokens\": 1.5}", "maxTokens" },
    { "{\"messages\": [{\"role\": \"user\", \"content\": {\"type\": \"text\", \"text\": \"a\"}}],"
      " \"maxTokens\": \"10\"}", "maxTokens" },
  };
  StewardApprovals *approvals = steward_approvals_new ();
  StewardSamplingBroker *broker = new_broker (approvals, NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonObject) params = parse_object (cases[i].params);
      g_autofree char *quoted = g_strdup_printf ("“%s”", cases[i].field);
      Call call = { 0, };

      steward_sampling_broker_create_message_async (broker, "everything", params, NULL, NULL,
                                                    create_message_cb, &call);
      run_pending ();
      g_assert_true (call.done);
      g_assert_error (call.error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS);
      g_assert_nonnull (strstr (call.error->message, quoted));
      call_clear (&call);
    }

  g_assert_cmpuint (n_approvals (approvals), ==, 0);
  g_assert_finalize_object (broker);
  g_assert_finalize_object (approvals);
}

/* Limits */

static void
reject_open (StewardApprovals *approvals,
             Call             *call)
{
  StewardApproval *approval;

  WAIT_UNTIL (n_approvals (approvals) == 1);
  approval = get_last (approvals);
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_REJECT, NULL);
  WAIT_UNTIL (call->done);
  assert_rejected (call);
  call_clear (call);
  g_assert_finalize_object (approval);
}

static void
test_rate_limit (void)
{
  StewardApprovals *approvals = steward_approvals_new ();
  StewardSamplingBroker *broker = new_broker (approvals, NULL, NULL);
  Call call = { 0, };

  g_assert_cmpuint (steward_sampling_settings_get_per_minute (settings_of (broker, "everything")),
                    ==, 5);

  for (guint i = 0; i < 5; i++)
    {
      ask (broker, "everything", "Again", 100, NULL, &call);
      reject_open (approvals, &call);
      fake_now += 2 * G_USEC_PER_SEC;
    }

  /* The sixth within the minute is refused at once, saying when. */
  fake_now += G_USEC_PER_SEC;
  ask (broker, "everything", "Again", 100, NULL, &call);
  run_pending ();
  g_assert_true (call.done);
  g_assert_error (call.error, MCP_ERROR, MCP_ERROR_OVERLOADED);
  g_assert_nonnull (strstr (call.error->message, "`everything`"));
  g_assert_nonnull (strstr (call.error->message, "in 49 seconds"));
  g_assert_cmpuint (n_approvals (approvals), ==, 0);
  call_clear (&call);

  /* Another server has its own window. */
  ask (broker, "files", "Hello", 100, NULL, &call);
  reject_open (approvals, &call);

  /* Once the first request left the window, one more may come. */
  fake_now += 50 * G_USEC_PER_SEC;
  ask (broker, "everything", "Again", 100, NULL, &call);
  reject_open (approvals, &call);

  ask (broker, "everything", "Again", 100, NULL, &call);
  run_pending ();
  g_assert_error (call.error, MCP_ERROR, MCP_ERROR_OVERLOADED);
  call_clear (&call);

  /* A lower limit applies at once. */
  fake_now += 2 * MINUTE;
  steward_sampling_settings_set_per_minute (settings_of (broker, "everything"), 1);
  ask (broker, "everything", "Again", 100, NULL, &call);
  reject_open (approvals, &call);
  ask (broker, "everything", "Again", 100, NULL, &call);
  run_pending ();
  g_assert_error (call.error, MCP_ERROR, MCP_ERROR_OVERLOADED);
  g_assert_nonnull (strstr (call.error->message, "in 60 seconds"));
  call_clear (&call);

  g_assert_finalize_object (broker);
  g_assert_finalize_object (approvals);
}

static void
test_queue (void)
{
  StewardApprovals *approvals = steward_approvals_new ();
  StewardSamplingBroker *broker = new_broker (approvals, NULL, NULL);
  Call calls[5] = { { 0, }, };
  Call other = { 0, };

  for (guint i = 0; i < G_N_ELEMENTS (calls); i++)
    {
      g_autofree char *question = g_strdup_printf ("Question %u", i);

      ask (broker, "everything", question, 100, NULL, &calls[i]);
    }
  run_pending ();

  /* One open, three waiting, the fifth refused at once. */
  g_assert_cmpuint (n_approvals (approvals), ==, 1);
  g_assert_true (calls[4].done);
  g_assert_error (calls[4].error, MCP_ERROR, MCP_ERROR_OVERLOADED);
  g_assert_nonnull (strstr (calls[4].error->message, "3 waiting"));
  for (guint i = 0; i < 4; i++)
    g_assert_false (calls[i].done);

  /* Another server is not held up by this one. */
  ask (broker, "files", "Hello", 100, NULL, &other);
  WAIT_UNTIL (n_approvals (approvals) == 2);
  g_assert_cmpuint (steward_approvals_count_for (approvals, STEWARD_APPROVAL_KIND_SAMPLING,
                                                 "everything"), ==, 1);

  /* They come one after the other, oldest first. */
  for (guint i = 0; i < 4; i++)
    {
      g_autoptr(StewardApproval) approval = NULL;
      g_autofree char *question = g_strdup_printf ("Question %u", i);

      WAIT_UNTIL (steward_approvals_count_for (approvals, STEWARD_APPROVAL_KIND_SAMPLING,
                                               "everything") == 1);
      approval = find_approval (approvals, STEWARD_APPROVAL_KIND_SAMPLING, "everything");
      g_assert_cmpstr (first_message_text (steward_approval_get_request (approval)), ==,
                       question);
      steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_REJECT, NULL);
      WAIT_UNTIL (calls[i].done);
      assert_rejected (&calls[i]);
    }

  for (guint i = 0; i < G_N_ELEMENTS (calls); i++)
    call_clear (&calls[i]);

  reject_open (approvals, &other);

  g_assert_finalize_object (broker);
  g_assert_finalize_object (approvals);
}

static void
test_clamp (void)
{
  StewardApprovals *approvals = steward_approvals_new ();
  StewardSamplingBroker *broker = new_broker (approvals, NULL, NULL);
  g_autoptr(JsonObject) raised = sampling_params ("Write a book", 9000);
  StewardApproval *approval;
  JsonObject *request;
  Call call = { 0, };

  g_assert_cmpuint (steward_sampling_settings_get_max_tokens (settings_of (broker, "everything")),
                    ==, 4096);

  ask (broker, "everything", "Write a book", 100000, NULL, &call);
  WAIT_UNTIL (n_approvals (approvals) == 1);
  approval = get_last (approvals);
  request = steward_approval_get_request (approval);
  g_assert_cmpint (json_object_get_int_member (request, "maxTokens"), ==, 4096);
  g_assert_cmpuint (steward_approval_get_max_tokens_requested (approval), ==, 100000);

  /* The cap holds for the person's edits too. */
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_CONTINUE, raised);
  request = steward_approval_get_request (approval);
  g_assert_cmpint (json_object_get_int_member (request, "maxTokens"), ==, 4096);
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_REJECT, NULL);
  WAIT_UNTIL (call.done);
  call_clear (&call);
  g_assert_finalize_object (approval);

  /* A lower cap of the server's own, and a request under it. */
  steward_sampling_settings_set_max_tokens (settings_of (broker, "everything"), 1000);
  ask (broker, "everything", "Write a page", 500, NULL, &call);
  WAIT_UNTIL (n_approvals (approvals) == 1);
  approval = get_last (approvals);
  g_assert_cmpint (json_object_get_int_member (steward_approval_get_request (approval),
                                               "maxTokens"), ==, 500);
  g_assert_cmpuint (steward_approval_get_max_tokens_requested (approval), ==, 0);
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_REJECT, NULL);
  WAIT_UNTIL (call.done);
  call_clear (&call);
  g_assert_finalize_object (approval);

  ask (broker, "everything", "Write a chapter", 2000, NULL, &call);
  WAIT_UNTIL (n_approvals (approvals) == 1);
  approval = get_last (approvals);
  g_assert_cmpint (json_object_get_int_member (steward_approval_get_request (approval),
                                               "maxTokens"), ==, 1000);
  g_assert_cmpuint (steward_approval_get_max_tokens_requested (approval), ==, 2000);
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_REJECT, NULL);
  WAIT_UNTIL (call.done);
  call_clear (&call);
  g_assert_finalize_object (approval);

  g_assert_finalize_object (broker);
  g_assert_finalize_object (approvals);
}

static void
send_written_answer (StewardApprovals *approvals,
                     Call             *call,
                     const char       *answer)
{
  StewardApproval *approval;

  WAIT_UNTIL (n_approvals (approvals) == 1);
  approval = get_last (approvals);
  if (steward_approval_get_stage (approval) == STEWARD_APPROVAL_STAGE_REQUEST)
    steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_CONTINUE, NULL);
  steward_approval_set_answer_text (approval, answer);
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_SEND, NULL);
  WAIT_UNTIL (call->done);
  g_assert_no_error (call->error);
  call_clear (call);
  g_assert_finalize_object (approval);
}

static void
test_budget (void)
{
  StewardApprovals *approvals = steward_approvals_new ();
  StewardSamplingBroker *broker = new_broker (approvals, NULL, NULL);
  Call call = { 0, };

  g_assert_cmpuint (steward_sampling_settings_get_daily_tokens (settings_of (broker, "everything")),
                    ==, 100000);
  steward_sampling_settings_set_daily_tokens (settings_of (broker, "everything"), 30);
  g_assert_cmpuint (steward_sampling_broker_get_tokens_used (broker, "everything"), ==, 0);

  /* No usage reported: ceil(chars / 4) of the prompt and the answer. The
   * prompt is "Be brief." (9) and "Count" (5): 4 tokens; the answer 39
   * characters: 10 tokens. */
  ask (broker, "everything", "Count", 100, NULL, &call);
  send_written_answer (approvals, &call, "one two three four five six seven eight");
  g_assert_cmpuint (steward_sampling_broker_get_tokens_used (broker, "everything"), ==, 4 + 10);

  ask (broker, "everything", "Count", 100, NULL, &call);
  send_written_answer (approvals, &call, "one two three four five six seven eight");
  g_assert_cmpuint (steward_sampling_broker_get_tokens_used (broker, "everything"), ==, 28);

  /* Under the budget still: one more gets in and goes over it. */
  ask (broker, "everything", "Count", 100, NULL, &call);
  send_written_answer (approvals, &call, "nine");
  g_assert_cmpuint (steward_sampling_broker_get_tokens_used (broker, "everything"), ==, 33);

  fake_now += MINUTE;
  ask (broker, "everything", "Count", 100, NULL, &call);
  run_pending ();
  g_assert_true (call.done);
  g_assert_error (call.error, MCP_ERROR, MCP_ERROR_OVERLOADED);
  g_assert_nonnull (strstr (call.error->message, "tomorrow"));
  g_assert_cmpuint (n_approvals (approvals), ==, 0);
  call_clear (&call);

  /* Other servers have their own budget. */
  g_assert_cmpuint (steward_sampling_broker_get_tokens_used (broker, "files"), ==, 0);

  /* A new day, a new budget. */
  fake_now += DAY;
  g_assert_cmpuint (steward_sampling_broker_get_tokens_used (broker, "everything"), ==, 0);
  ask (broker, "everything", "Count", 100, NULL, &call);
  send_written_answer (approvals, &call, "1");

  g_assert_finalize_object (broker);
  g_assert_finalize_object (approvals);
}

static void
test_cancel (void)
{
  StewardApprovals *approvals = steward_approvals_new ();
  StewardSamplingBroker *broker = new_broker (approvals, NULL, NULL);
  g_autoptr(GCancellable) first_cancellable = g_cancellable_new ();
  g_autoptr(GCancellable) second_cancellable = g_cancellable_new ();
  StewardApproval *approval;
  Call first = { 0, };
  Call second = { 0, };
  Call third = { 0, };

  ask (broker, "everything", "First", 100, first_cancellable, &first);
  ask (broker, "everything", "Second", 100, second_cancellable, &second);
  ask (broker, "everything", "Third", 100, NULL, &third);
  WAIT_UNTIL (n_approvals (approvals) == 1);
  approval = get_last (approvals);

  /* A waiting request the server withdraws never shows. */
  g_cancellable_cancel (second_cancellable);
  WAIT_UNTIL (second.done);
  g_assert_error (second.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (n_approvals (approvals), ==, 1);
  g_assert_false (steward_approval_get_finished (approval));

  /* The open one is withdrawn from the person, and the next one opens. */
  g_cancellable_cancel (first_cancellable);
  WAIT_UNTIL (first.done);
  g_assert_error (first.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_true (steward_approval_get_finished (approval));
  g_assert_true (steward_approval_get_withdrawn (approval));
  g_assert_finalize_object (approval);

  WAIT_UNTIL (n_approvals (approvals) == 1);
  approval = get_last (approvals);
  g_assert_cmpstr (first_message_text (steward_approval_get_request (approval)), ==, "Third");
  g_assert_false (steward_approval_get_withdrawn (approval));
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_REJECT, NULL);
  WAIT_UNTIL (third.done);
  assert_rejected (&third);
  g_assert_finalize_object (approval);

  /* A request already withdrawn when it arrives never shows either. */
  call_clear (&first);
  ask (broker, "everything", "Late", 100, first_cancellable, &first);
  WAIT_UNTIL (first.done);
  g_assert_error (first.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (n_approvals (approvals), ==, 0);

  call_clear (&first);
  call_clear (&second);
  call_clear (&third);
  g_assert_finalize_object (broker);
  g_assert_finalize_object (approvals);
}

/* A provider behind the seam: it streams "Forty-two" and reports usage. */
typedef struct {
  guint calls;
} FakeProvider;

static char *
fake_choose_model (gpointer     provider,
                   JsonObject  *params,
                   char       **reason)
{
  *reason = g_strdup ("The test picked it.");
  return g_strdup ("fake-model");
}

static gboolean
fake_answer_cb (gpointer user_data)
{
  GTask *task = user_data;
  StewardApproval *approval = g_task_get_task_data (task);
  StewardSamplingAnswer *answer;

  if (g_task_return_error_if_cancelled (task))
    return G_SOURCE_REMOVE;

  steward_approval_append_answer (approval, "Forty");
  steward_approval_append_answer (approval, "-two");

  answer = steward_sampling_answer_new ("Forty-two", "fake-model-v2");
  answer->input_tokens = 7;
  answer->output_tokens = 3;
  g_task_return_pointer (task, answer, (GDestroyNotify) steward_sampling_answer_free);

  return G_SOURCE_REMOVE;
}

static void
fake_generate_async (gpointer             provider,
                     const char          *model,
                     JsonObject          *params,
                     StewardApproval     *approval,
                     GCancellable        *cancellable,
                     GAsyncReadyCallback  callback,
                     gpointer             user_data)
{
  FakeProvider *fake = provider;
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);

  g_assert_cmpstr (model, ==, "fake-model");
  fake->calls++;
  g_task_set_task_data (task, g_object_ref (approval), g_object_unref);
  g_idle_add_full (G_PRIORITY_DEFAULT, fake_answer_cb, task, g_object_unref);
}

static StewardSamplingAnswer *
fake_generate_finish (gpointer       provider,
                      GAsyncResult  *result,
                      GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static const StewardSamplingProviderFuncs fake_provider_funcs = {
  fake_choose_model,
  fake_generate_async,
  fake_generate_finish,
};

static void
test_provider (void)
{
  g_autoptr(GFile) dir = make_tmp_dir ();
  g_autoptr(GFile) journal = g_file_get_child (dir, "audit.jsonl");
  StewardApprovals *approvals = steward_approvals_new ();
  StewardSamplingBroker *broker = new_broker (approvals, NULL, journal);
  g_autoptr(GPtrArray) records = NULL;
  FakeProvider fake = { 0, };
  StewardApproval *approval;
  JsonObject *record;
  Call call = { 0, };

  steward_sampling_broker_set_provider (broker, &fake_provider_funcs, &fake);
  steward_sampling_settings_set_policy (settings_of (broker, "everything"),
                                        STEWARD_SAMPLING_POLICY_ALWAYS);

  ask (broker, "everything", "What is 6 times 7?", 100, NULL, &call);
  WAIT_UNTIL (n_approvals (approvals) == 1);
  approval = get_last (approvals);
  g_assert_cmpstr (steward_approval_get_model (approval), ==, "fake-model");
  g_assert_cmpstr (steward_approval_get_model_reason (approval), ==, "The test picked it.");
  g_assert_cmpint (steward_approval_get_stage (approval), ==, STEWARD_APPROVAL_STAGE_RESPONSE);
  g_assert_true (steward_approval_get_generating (approval));

  WAIT_UNTIL (!steward_approval_get_generating (approval));
  g_assert_cmpstr (steward_approval_get_answer_text (approval), ==, "Forty-two");
  g_assert_cmpuint (steward_sampling_broker_get_tokens_used (broker, "everything"), ==, 10);

  /* Another answer is asked for, and spent too. */
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_REGENERATE, NULL);
  g_assert_true (steward_approval_get_generating (approval));
  g_assert_cmpstr (steward_approval_get_answer_text (approval), ==, "");
  WAIT_UNTIL (!steward_approval_get_generating (approval));
  g_assert_cmpuint (fake.calls, ==, 2);
  g_assert_cmpuint (steward_sampling_broker_get_tokens_used (broker, "everything"), ==, 20);

  /* Sent as produced: not edited, the reported usage recorded. */
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_SEND, NULL);
  WAIT_UNTIL (call.done);
  g_assert_no_error (call.error);
  g_assert_cmpstr (result_text (call.result), ==, "Forty-two");
  g_assert_cmpstr (json_object_get_string_member (call.result, "model"), ==, "fake-model-v2");
  call_clear (&call);
  g_assert_finalize_object (approval);

  /* Changed by the person before sending: edited. */
  ask (broker, "everything", "What is 6 times 7?", 100, NULL, &call);
  WAIT_UNTIL (n_approvals (approvals) == 1);
  approval = get_last (approvals);
  WAIT_UNTIL (!steward_approval_get_generating (approval));
  steward_approval_set_answer_text (approval, "Forty-two, of course.");
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_SEND, NULL);
  WAIT_UNTIL (call.done);
  g_assert_cmpstr (result_text (call.result), ==, "Forty-two, of course.");
  call_clear (&call);
  g_assert_finalize_object (approval);

  /* Rejected while the answer is still coming: the answer is dropped. */
  ask (broker, "everything", "What is 6 times 7?", 100, NULL, &call);
  WAIT_UNTIL (n_approvals (approvals) == 1);
  approval = get_last (approvals);
  g_assert_true (steward_approval_get_generating (approval));
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_REJECT, NULL);
  WAIT_UNTIL (call.done);
  assert_rejected (&call);
  g_assert_false (steward_approval_get_generating (approval));
  call_clear (&call);
  run_pending ();
  g_assert_cmpuint (fake.calls, ==, 4);
  g_assert_finalize_object (approval);

  /* The first request's record holds both of its answers, as the budget
   * counted them. */
  records = read_journal (broker);
  g_assert_cmpuint (records->len, ==, 3);
  record = g_ptr_array_index (records, 0);
  g_assert_cmpstr (record_string (records, 0, "decision"), ==, "sent");
  g_assert_cmpstr (record_string (records, 0, "model"), ==, "fake-model-v2");
  g_assert_cmpint (record_int (records, 0, "inputTokens"), ==, 14);
  g_assert_cmpint (record_int (records, 0, "outputTokens"), ==, 6);
  g_assert_false (json_object_get_boolean_member (record, "edited"));
  g_assert_cmpstr (record_string (records, 1, "decision"), ==, "sent");
  g_assert_true (json_object_get_boolean_member (g_ptr_array_index (records, 1), "edited"));
  g_assert_cmpstr (record_string (records, 2, "decision"), ==, "rejected");

  g_assert_finalize_object (broker);
  g_assert_finalize_object (approvals);
  remove_tree (dir);
}

/* Elicitation */

static JsonObject *
form_params (void)
{
  return parse_object ("{\"message\": \"Who are you?\", \"requestedSchema\": {"
                       "\"type\": \"object\", \"properties\": {"
                       "\"name\": {\"type\": \"string\", \"default\": \"Ada\"}}}}");
}

static void
elicit (StewardSamplingBroker *broker,
        const char            *server,
        JsonObject            *params,
        GCancellable          *cancellable,
        Call                  *call)
{
  steward_sampling_broker_elicit_async (broker, server, params, cancellable, elicit_cb, call);
}

static void
test_elicit (void)
{
  StewardApprovals *approvals = steward_approvals_new ();
  StewardSamplingBroker *broker = new_broker (approvals, NULL, NULL);
  g_autoptr(JsonObject) params = form_params ();
  g_autoptr(JsonObject) content = parse_object ("{\"name\": \"Grace\"}");
  StewardApproval *approval;
  JsonObject *answered;
  Call call = { 0, };

  /* Accept with content. */
  elicit (broker, "everything", params, NULL, &call);
  WAIT_UNTIL (n_approvals (approvals) == 1);
  approval = get_last (approvals);
  g_assert_cmpint (steward_approval_get_kind (approval), ==, STEWARD_APPROVAL_KIND_ELICITATION);
  g_assert_cmpstr (steward_approval_get_server (approval), ==, "everything");
  g_assert_cmpstr (json_object_get_string_member (steward_approval_get_request (approval),
                                                  "message"), ==, "Who are you?");
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_ACCEPT, content);
  WAIT_UNTIL (call.done);
  g_assert_no_error (call.error);
  g_assert_cmpstr (json_object_get_string_member (call.result, "action"), ==, "accept");
  answered = json_object_get_object_member (call.result, "content");
  g_assert_cmpstr (json_object_get_string_member (answered, "name"), ==, "Grace");
  call_clear (&call);
  g_assert_finalize_object (approval);

  /* Decline. */
  elicit (broker, "everything", params, NULL, &call);
  WAIT_UNTIL (n_approvals (approvals) == 1);
  approval = get_last (approvals);
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_DECLINE, NULL);
  WAIT_UNTIL (call.done);
  g_assert_cmpstr (json_object_get_string_member (call.result, "action"), ==, "decline");
  g_assert_false (json_object_has_member (call.result, "content"));
  call_clear (&call);
  g_assert_finalize_object (approval);

  /* Cancel, as when the dialog is closed. */
  elicit (broker, "everything", params, NULL, &call);
  WAIT_UNTIL (n_approvals (approvals) == 1);
  approval = get_last (approvals);
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_CANCEL, NULL);
  WAIT_UNTIL (call.done);
  g_assert_cmpstr (json_object_get_string_member (call.result, "action"), ==, "cancel");
  g_assert_false (json_object_has_member (call.result, "content"));
  call_clear (&call);
  g_assert_finalize_object (approval);

  g_assert_finalize_object (broker);
  g_assert_finalize_object (approvals);
}

static void
test_elicit_url (void)
{
  StewardApprovals *approvals = steward_approvals_new ();
  StewardSamplingBroker *broker = new_broker (approvals, NULL, NULL);
  g_autoptr(JsonObject) params = parse_object ("{\"mode\": \"url\", \"message\": \"Sign in\", "
                                               "\"url\": \"https://example.com/auth?x=1\", "
                                               "\"elicitationId\": \"e-1\"}");
  g_autoptr(JsonObject) no_id = parse_object ("{\"mode\": \"url\", \"message\": \"Sign in\", "
                                              "\"url\": \"https://example.com/\"}");
  g_autoptr(JsonObject) unknown = parse_object ("{\"mode\": \"carrier-pigeon\", "
                                                "\"message\": \"Coo\"}");
  g_autoptr(JsonObject) content = parse_object ("{\"ignored\": true}");
  StewardApproval *approval;
  Call call = { 0, };

  elicit (broker, "everything", params, NULL, &call);
  WAIT_UNTIL (n_approvals (approvals) == 1);
  approval = get_last (approvals);
  g_assert_cmpstr (json_object_get_string_member (steward_approval_get_request (approval),
                                                  "url"), ==, "https://example.com/auth?x=1");
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_ACCEPT, content);
  WAIT_UNTIL (call.done);
  g_assert_cmpstr (json_object_get_string_member (call.result, "action"), ==, "accept");
  /* A URL elicitation's acceptance carries no content. */
  g_assert_false (json_object_has_member (call.result, "content"));
  call_clear (&call);
  g_assert_finalize_object (approval);

  elicit (broker, "everything", no_id, NULL, &call);
  run_pending ();
  g_assert_error (call.error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS);
  g_assert_nonnull (strstr (call.error->message, "elicitationId"));
  call_clear (&call);

  elicit (broker, "everything", unknown, NULL, &call);
  run_pending ();
  g_assert_error (call.error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS);
  g_assert_nonnull (strstr (call.error->message, "carrier-pigeon"));
  call_clear (&call);

  g_assert_cmpuint (n_approvals (approvals), ==, 0);
  g_assert_finalize_object (broker);
  g_assert_finalize_object (approvals);
}

static void
test_elicit_invalid (void)
{
  const struct {
    const char *params;
    const char *field;
  } cases[] = {
    { "{\"requestedSchema\": {\"type\": \"object\", \"properties\": {}}}", "message" },
    { "{\"message\": \"Hi\"}", "requestedSchema" },
    { "{\"message\": \"Hi\", \"requestedSchema\": {\"type\": \"array\", \"properties\": {}}}",
      "requestedSchema.type" },
    { "{\"message\": \"Hi\", \"requestedSchema\": {\"type\": \"object\"}}",
      "requestedSchema.properties" },
    { "{\"mode\": \"url\", \"message\": \"Hi\", \"elicitationId\": \"x\"}", "url" },
  };
  StewardApprovals *approvals = steward_approvals_new ();
  StewardSamplingBroker *broker = new_broker (approvals, NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonObject) params = parse_object (cases[i].params);
      g_autofree char *quoted = g_strdup_printf ("“%s”", cases[i].field);
      Call call = { 0, };

      elicit (broker, "everything", params, NULL, &call);
      run_pending ();
      g_assert_true (call.done);
      g_assert_error (call.error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS);
      g_assert_nonnull (strstr (call.error->message, quoted));
      call_clear (&call);
    }

  g_assert_cmpuint (n_approvals (approvals), ==, 0);
  g_assert_finalize_object (broker);
  g_assert_finalize_object (approvals);
}

static void
test_elicit_limits (void)
{
  StewardApprovals *approvals = steward_approvals_new ();
  StewardSamplingBroker *broker = new_broker (approvals, NULL, NULL);
  g_autoptr(JsonObject) params = form_params ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  StewardApproval *approval;
  Call first = { 0, };
  Call second = { 0, };

  /* One open per server: a second is refused at once. */
  elicit (broker, "everything", params, cancellable, &first);
  elicit (broker, "everything", params, NULL, &second);
  run_pending ();
  g_assert_true (second.done);
  g_assert_error (second.error, MCP_ERROR, MCP_ERROR_OVERLOADED);
  g_assert_nonnull (strstr (second.error->message, "`everything`"));
  call_clear (&second);

  /* Another server may ask meanwhile. */
  elicit (broker, "files", params, NULL, &second);
  WAIT_UNTIL (n_approvals (approvals) == 2);
  approval = get_last (approvals);
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_DECLINE, NULL);
  WAIT_UNTIL (second.done);
  call_clear (&second);
  g_assert_finalize_object (approval);

  /* The server withdraws its question. */
  approval = get_last (approvals);
  g_cancellable_cancel (cancellable);
  WAIT_UNTIL (first.done);
  g_assert_error (first.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_true (steward_approval_get_withdrawn (approval));
  g_assert_true (steward_approval_get_finished (approval));
  g_assert_cmpuint (n_approvals (approvals), ==, 0);
  call_clear (&first);
  g_assert_finalize_object (approval);

  /* Ten a minute: "everything" asked once, nine more may come. */
  for (guint i = 0; i < 9; i++)
    {
      elicit (broker, "everything", params, NULL, &first);
      WAIT_UNTIL (n_approvals (approvals) == 1);
      approval = get_last (approvals);
      steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_CANCEL, NULL);
      WAIT_UNTIL (first.done);
      g_assert_no_error (first.error);
      call_clear (&first);
      g_assert_finalize_object (approval);
    }

  elicit (broker, "everything", params, NULL, &first);
  run_pending ();
  g_assert_error (first.error, MCP_ERROR, MCP_ERROR_OVERLOADED);
  g_assert_nonnull (strstr (first.error->message, "in 60 seconds"));
  call_clear (&first);

  fake_now += MINUTE;
  elicit (broker, "everything", params, NULL, &first);
  WAIT_UNTIL (n_approvals (approvals) == 1);
  approval = get_last (approvals);
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_DECLINE, NULL);
  WAIT_UNTIL (first.done);
  call_clear (&first);
  g_assert_finalize_object (approval);

  g_assert_finalize_object (broker);
  g_assert_finalize_object (approvals);
}

/* policies.json */

static void
save_and_wait (StewardSamplingBroker *broker)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  steward_sampling_broker_save_async (broker, NULL, done_cb, &result);
  WAIT_UNTIL (result != NULL);
  g_assert_true (steward_sampling_broker_save_finish (broker, result, &error));
  g_assert_no_error (error);
}

static void
changed_cb (StewardSamplingSettings *settings,
            GParamSpec              *pspec,
            GPtrArray               *log)
{
  g_ptr_array_add (log, g_strdup_printf ("%s:%s", steward_sampling_settings_get_server (settings),
                                         pspec->name));
}

/* Logs each notify of @server's settings as "server:property". */
static void
watch (StewardSamplingBroker *broker,
       const char            *server,
       GPtrArray             *log)
{
  g_signal_connect (settings_of (broker, server), "notify", G_CALLBACK (changed_cb), log);
}

static void
assert_log (GPtrArray          *log,
            const char * const *expected)
{
  g_ptr_array_add (log, NULL);
  g_assert_cmpstrv ((const char * const *) log->pdata, expected);
  g_ptr_array_set_size (log, 0);
}

static void
test_policies_round_trip (void)
{
  g_autoptr(GFile) dir = make_tmp_dir ();
  g_autoptr(GFile) config = g_file_get_child (dir, "config");
  g_autoptr(GFile) file = g_file_get_child (config, "policies.json");
  g_autoptr(GPtrArray) changes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(GFileInfo) info = NULL;
  StewardApprovals *approvals = steward_approvals_new ();
  StewardSamplingBroker *broker = new_broker (approvals, file, NULL);

  /* No file yet is no error: the defaults apply. */
  g_assert_true (steward_sampling_broker_load (broker, &error));
  g_assert_no_error (error);
  g_assert_true (steward_sampling_broker_get_policies (broker) == file);

  watch (broker, "everything", changes);
  watch (broker, "files", changes);
  watch (broker, "memory", changes);
  steward_sampling_settings_set_policy (settings_of (broker, "everything"),
                                        STEWARD_SAMPLING_POLICY_ALWAYS);
  steward_sampling_settings_set_policy (settings_of (broker, "everything"),
                                        STEWARD_SAMPLING_POLICY_ALWAYS);
  steward_sampling_settings_set_policy (settings_of (broker, "files"),
                                        STEWARD_SAMPLING_POLICY_DENY);
  steward_sampling_settings_set_max_tokens (settings_of (broker, "files"), 1000);
  steward_sampling_settings_set_per_minute (settings_of (broker, "files"), 2);
  steward_sampling_settings_set_daily_tokens (settings_of (broker, "files"), 5000);
  steward_sampling_settings_set_policy (settings_of (broker, "memory"),
                                        STEWARD_SAMPLING_POLICY_ALLOW_SESSION);
  /* The same value twice notifies once; the first setter of a server
   * makes it configured. */
  assert_log (changes, (const char * const []) {
    "everything:policy", "everything:configured",
    "files:policy", "files:configured", "files:max-tokens", "files:per-minute",
    "files:daily-tokens",
    "memory:policy", "memory:configured",
    NULL,
  });
  g_assert_cmpint (steward_sampling_settings_get_policy (settings_of (broker, "memory")), ==,
                   STEWARD_SAMPLING_POLICY_ALLOW_SESSION);

  /* The folder did not exist; the file is the person's alone. */
  save_and_wait (broker);
  g_assert_true (g_file_load_contents (file, NULL, &contents, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_null (strstr (contents, "allow-session"));
  info = g_file_query_info (file, G_FILE_ATTRIBUTE_UNIX_MODE, G_FILE_QUERY_INFO_NONE, NULL,
                            &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_file_info_get_attribute_uint32 (info, G_FILE_ATTRIBUTE_UNIX_MODE) & 0777,
                    ==, 0600);
  g_assert_finalize_object (broker);

  /* What a new session reads back. */
  broker = new_broker (approvals, file, NULL);
  watch (broker, "files", changes);
  steward_sampling_broker_load_async (broker, NULL, done_cb, &result);
  WAIT_UNTIL (result != NULL);
  g_assert_true (steward_sampling_broker_load_finish (broker, result, &error));
  g_assert_no_error (error);
  g_clear_object (&result);
  /* Whoever shows the settings sees what the load set. */
  assert_log (changes, (const char * const []) {
    "files:policy", "files:configured", "files:max-tokens", "files:per-minute",
    "files:daily-tokens",
    NULL,
  });
  g_assert_true (steward_sampling_settings_get_configured (settings_of (broker, "everything")));
  g_assert_false (steward_sampling_settings_get_configured (settings_of (broker, "unknown")));

  g_assert_cmpint (steward_sampling_settings_get_policy (settings_of (broker, "everything")), ==,
                   STEWARD_SAMPLING_POLICY_ALWAYS);
  g_assert_cmpuint (steward_sampling_settings_get_max_tokens (settings_of (broker, "everything")),
                    ==, 4096);
  g_assert_cmpint (steward_sampling_settings_get_policy (settings_of (broker, "files")), ==,
                   STEWARD_SAMPLING_POLICY_DENY);
  g_assert_cmpuint (steward_sampling_settings_get_max_tokens (settings_of (broker, "files")), ==,
                    1000);
  g_assert_cmpuint (steward_sampling_settings_get_per_minute (settings_of (broker, "files")), ==,
                    2);
  g_assert_cmpuint (steward_sampling_settings_get_daily_tokens (settings_of (broker, "files")), ==,
                    5000);
  /* "For this session" ended with the session. */
  g_assert_cmpint (steward_sampling_settings_get_policy (settings_of (broker, "memory")), ==,
                   STEWARD_SAMPLING_POLICY_ASK);
  g_assert_cmpint (steward_sampling_settings_get_policy (settings_of (broker, "unknown")), ==,
                   STEWARD_SAMPLING_POLICY_ASK);

  /* Setters save by themselves; a save after it lets the writes settle. */
  steward_sampling_settings_set_max_tokens (settings_of (broker, "memory"), 77);
  WAIT_UNTIL (file_contains (file, "\"maxTokens\" : 77"));
  save_and_wait (broker);
  g_assert_finalize_object (broker);

  g_assert_finalize_object (approvals);
  remove_tree (dir);
}

static void
test_policies_damaged (void)
{
  const char *damaged[] = {
    "{\"servers\": ",
    "[]",
    "{\"servers\": []}",
    "{\"servers\": {\"files\": 3}}",
    "{\"servers\": {\"files\": {\"sampling\": \"sometimes\"}}}",
    "{\"servers\": {\"files\": {\"maxTokens\": 0}}}",
    "{\"servers\": {\"files\": {\"perMinute\": -1}}}",
    "{\"servers\": {\"files\": {\"dailyTokens\": \"lots\"}}}",
  };
  g_autoptr(GFile) dir = make_tmp_dir ();
  g_autoptr(GFile) file = g_file_get_child (dir, "policies.json");
  g_autofree char *path = g_file_get_path (file);
  StewardApprovals *approvals = steward_approvals_new ();

  for (guint i = 0; i < G_N_ELEMENTS (damaged); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GAsyncResult) result = NULL;
      StewardSamplingBroker *broker = new_broker (approvals, file, NULL);

      g_assert_true (g_file_set_contents (path, damaged[i], -1, NULL));
      g_assert_false (steward_sampling_broker_load (broker, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
      g_assert_nonnull (strstr (error->message, path));
      g_clear_error (&error);

      steward_sampling_broker_load_async (broker, NULL, done_cb, &result);
      WAIT_UNTIL (result != NULL);
      g_assert_false (steward_sampling_broker_load_finish (broker, result, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
      g_clear_object (&result);

      /* The defaults stay. */
      g_assert_cmpint (steward_sampling_settings_get_policy (settings_of (broker, "files")), ==,
                       STEWARD_SAMPLING_POLICY_ASK);
      g_assert_finalize_object (broker);
    }

  g_assert_finalize_object (approvals);
  remove_tree (dir);
}

static void
test_policy_strings (void)
{
  const StewardSamplingPolicy all[] = {
    STEWARD_SAMPLING_POLICY_DENY,
    STEWARD_SAMPLING_POLICY_ASK,
    STEWARD_SAMPLING_POLICY_ALLOW_SESSION,
    STEWARD_SAMPLING_POLICY_ALWAYS,
  };
  g_autoptr(GEnumClass) klass = g_type_class_ref (STEWARD_TYPE_SAMPLING_POLICY);
  StewardSamplingPolicy policy;

  for (guint i = 0; i < G_N_ELEMENTS (all); i++)
    {
      const char *string = steward_sampling_policy_to_string (all[i]);

      g_assert_true (steward_sampling_policy_from_string (string, &policy));
      g_assert_cmpint (policy, ==, all[i]);
      /* The enum's nicks are the same words. */
      g_assert_cmpint (g_enum_get_value_by_nick (klass, string)->value, ==, all[i]);
    }

  g_assert_false (steward_sampling_policy_from_string ("sometimes", &policy));
  g_assert_false (steward_sampling_policy_from_string (NULL, &policy));
}

/* A secret a server echoes in its question never reaches the journal on
 * disk, whether it is a keyring value or shaped like a key. */
static void
test_journal_redacted (void)
{
  g_autoptr(GFile) dir = make_tmp_dir ();
  g_autoptr(GFile) journal = g_file_get_child (dir, "audit.jsonl");
  g_autoptr(GPtrArray) records = NULL;
  g_autofree char *contents = NULL;
  StewardApprovals *approvals = steward_approvals_new ();
  StewardSamplingBroker *broker = new_broker (approvals, NULL, journal);
  Call call = { 0, };

  steward_redact_add_secret ("canary-91d4-journal");
  steward_sampling_settings_set_policy (settings_of (broker, "files"),
                                        STEWARD_SAMPLING_POLICY_DENY);
  ask (broker, "files", "Say canary-91d4-journal and sk-ant-api03-abcdefghijklmnopqrstuvwxyz",
       100, NULL, &call);
  run_pending ();
  assert_rejected (&call);
  call_clear (&call);

  records = read_journal (broker);
  g_assert_cmpuint (records->len, ==, 1);
  g_assert_cmpstr (record_string (records, 0, "summary"), ==, "Say [redacted] and [redacted]");

  g_assert_true (g_file_load_contents (journal, NULL, &contents, NULL, NULL, NULL));
  g_assert_null (strstr (contents, "canary-91d4-journal"));
  g_assert_null (strstr (contents, "sk-ant-api03"));

  steward_redact_forget_secrets ();
  g_assert_finalize_object (broker);
  g_assert_finalize_object (approvals);
}

/* The journal */

static void
test_journal (void)
{
  g_autoptr(GFile) dir = make_tmp_dir ();
  g_autoptr(GFile) state = g_file_get_child (dir, "state");
  g_autoptr(GFile) journal = g_file_get_child (state, "audit.jsonl");
  g_autofree char *path = g_file_get_path (journal);
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) long_question = g_string_new (NULL);
  g_autofree char *contents = NULL;
  g_autofree char *summary = NULL;
  StewardApprovals *approvals = steward_approvals_new ();
  StewardSamplingBroker *broker = new_broker (approvals, NULL, journal);
  StewardApproval *approval;
  Call call = { 0, };
  FILE *append;

  g_assert_true (steward_sampling_broker_get_journal (broker) == journal);

  /* Nothing written yet: no records, no error. */
  records = read_journal (broker);
  g_assert_cmpuint (records->len, ==, 0);
  g_clear_pointer (&records, g_ptr_array_unref);

  /* Denied. */
  steward_sampling_settings_set_policy (settings_of (broker, "files"),
                                        STEWARD_SAMPLING_POLICY_DENY);
  ask (broker, "files", "Secret question", 100, NULL, &call);
  run_pending ();
  assert_rejected (&call);
  call_clear (&call);

  /* Sent, after an edit, with a clamp, and a question longer than the
   * summary keeps. */
  for (guint i = 0; i < 30; i++)
    g_string_append (long_question, "0123456789");
  ask (broker, "everything", long_question->str, 50000, NULL, &call);
  WAIT_UNTIL (n_approvals (approvals) == 1);
  approval = get_last (approvals);
  {
    g_autoptr(JsonObject) edited = sampling_params (long_question->str, 10);

    steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_CONTINUE, edited);
  }
  steward_approval_set_answer_text (approval, "Digits.");
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_SEND, NULL);
  WAIT_UNTIL (call.done);
  g_assert_no_error (call.error);
  call_clear (&call);
  g_assert_finalize_object (approval);

  /* Rejected. */
  ask (broker, "everything", "Another", 100, NULL, &call);
  reject_open (approvals, &call);

  /* Invalid. */
  {
    g_autoptr(JsonObject) params = parse_object ("{\"messages\": []}");

    steward_sampling_broker_create_message_async (broker, "everything", params, NULL, NULL,
                                                  create_message_cb, &call);
    run_pending ();
    g_assert_error (call.error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS);
    call_clear (&call);
  }

  /* Limited. */
  steward_sampling_settings_set_per_minute (settings_of (broker, "everything"), 2);
  ask (broker, "everything", "Too many", 100, NULL, &call);
  run_pending ();
  g_assert_error (call.error, MCP_ERROR, MCP_ERROR_OVERLOADED);
  call_clear (&call);

  records = read_journal (broker);
  g_assert_cmpuint (records->len, ==, 5);

  g_assert_cmpstr (record_string (records, 0, "decision"), ==, "denied");
  g_assert_cmpstr (record_string (records, 0, "server"), ==, "files");
  g_assert_cmpstr (record_string (records, 0, "summary"), ==, "Secret question");
  g_assert_nonnull (record_string (records, 0, "time"));

  g_assert_cmpstr (record_string (records, 1, "decision"), ==, "sent");
  g_assert_cmpstr (record_string (records, 1, "server"), ==, "everything");
  g_assert_cmpstr (record_string (records, 1, "model"), ==, "manual");
  g_assert_cmpint (record_int (records, 1, "maxTokens"), ==, 10);
  g_assert_cmpint (record_int (records, 1, "maxTokensRequested"), ==, 50000);
  g_assert_cmpint (record_int (records, 1, "messages"), ==, 1);
  g_assert_cmpint (record_int (records, 1, "promptChars"), ==, 300 + 9);
  g_assert_cmpint (record_int (records, 1, "answerChars"), ==, 7);
  g_assert_cmpint (record_int (records, 1, "inputTokens"), ==, 78);
  g_assert_cmpint (record_int (records, 1, "outputTokens"), ==, 2);
  g_assert_true (json_object_get_boolean_member (g_ptr_array_index (records, 1), "edited"));
  summary = g_strndup (long_question->str, 200);
  g_assert_cmpstr (record_string (records, 1, "summary"), ==, summary);

  g_assert_cmpstr (record_string (records, 2, "decision"), ==, "rejected");
  g_assert_false (json_object_get_boolean_member (g_ptr_array_index (records, 2), "edited"));

  g_assert_cmpstr (record_string (records, 3, "decision"), ==, "failed");
  g_assert_nonnull (strstr (record_string (records, 3, "reason"), "messages"));

  g_assert_cmpstr (record_string (records, 4, "decision"), ==, "limited");
  g_assert_nonnull (strstr (record_string (records, 4, "reason"), "in "));
  g_clear_pointer (&records, g_ptr_array_unref);

  /* Only the summary of the conversation is kept, and the answer never. */
  g_assert_true (g_file_load_contents (journal, NULL, &contents, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_null (strstr (contents, "Digits."));
  g_assert_null (strstr (contents, "Be brief."));

  info = g_file_query_info (journal, G_FILE_ATTRIBUTE_UNIX_MODE, G_FILE_QUERY_INFO_NONE, NULL,
                            &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_file_info_get_attribute_uint32 (info, G_FILE_ATTRIBUTE_UNIX_MODE) & 0777,
                    ==, 0600);

  /* A damaged line is skipped; the records after it are read. */
  append = g_fopen (path, "a");
  g_assert_nonnull (append);
  fputs ("{\"time\": \"2026-03-14T12:00:00Z\", \"server\": \"cut off\n", append);
  fputs ("\xff\xfe not even text\n", append);
  fputs ("[1, 2, 3]\n", append);
  fclose (append);

  steward_sampling_settings_set_policy (settings_of (broker, "memory"),
                                        STEWARD_SAMPLING_POLICY_DENY);
  ask (broker, "memory", "After the damage", 100, NULL, &call);
  run_pending ();
  assert_rejected (&call);
  call_clear (&call);

  records = read_journal (broker);
  g_assert_cmpuint (records->len, ==, 6);
  g_assert_cmpstr (record_string (records, 5, "server"), ==, "memory");
  g_assert_cmpstr (record_string (records, 5, "summary"), ==, "After the damage");

  g_assert_finalize_object (broker);
  g_assert_finalize_object (approvals);
  remove_tree (dir);
}

/* The daily budget across restarts */

/* A journal line as the broker writes it, stamped at a local time in the
 * fake clock's month. */
static void
append_record (GString    *journal,
               const char *server,
               int         day,
               int         hour,
               int         minute,
               gint64      input_tokens,
               gint64      output_tokens)
{
  g_autoptr(GDateTime) local = g_date_time_new_local (2026, 3, day, hour, minute, 0);
  g_autoptr(GDateTime) utc = g_date_time_to_utc (local);
  g_autofree char *stamp = g_date_time_format_iso8601 (utc);

  g_string_append_printf (journal,
                          "{\"time\": \"%s\", \"server\": \"%s\", \"decision\": \"sent\", "
                          "\"inputTokens\": %" G_GINT64_FORMAT ", "
                          "\"outputTokens\": %" G_GINT64_FORMAT ", \"edited\": false}\n",
                          stamp, server, input_tokens, output_tokens);
}

/* Today is the 14th. "everything" spent 100 + 20 + 5 + 7 = 132 tokens
 * today, "files" 40 + 2 = 42, "memory" nothing. */
static GFile *
write_journal (GFile *dir)
{
  g_autoptr(GFile) state = g_file_get_child (dir, "state");
  g_autoptr(GFile) journal = g_file_get_child (state, "audit.jsonl");
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  append_record (text, "everything", 13, 23, 59, 1000, 1000);
  append_record (text, "files", 13, 12, 0, 500, 0);
  /* In this zone, 00:30 on the 14th is still the 13th in UTC. */
  append_record (text, "everything", 14, 0, 30, 100, 20);
  append_record (text, "files", 14, 9, 0, 40, 2);
  g_string_append (text, "{\"time\": \"2026-03-14T02:00:00Z\", \"server\": \"everything\", "
                         "\"inputTokens\": 99\n");
  g_string_append (text, "\xff\xfe not even text\n");
  g_string_append (text, "{\"time\": \"yesterday\", \"server\": \"everything\", "
                         "\"inputTokens\": 50, \"outputTokens\": 50}\n");
  g_string_append (text, "{\"time\": \"2026-03-14T02:00:00Z\", "
                         "\"inputTokens\": 50, \"outputTokens\": 50}\n");
  append_record (text, "memory", 14, 10, 0, 0, 0);
  append_record (text, "everything", 14, 23, 30, 5, 7);
  /* And 00:10 on the 15th is still the 14th in UTC. */
  append_record (text, "everything", 15, 0, 10, 300, 300);

  g_assert_true (g_file_make_directory (state, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_replace_contents (journal, text->str, text->len, NULL, FALSE,
                                          G_FILE_CREATE_NONE, NULL, NULL, &error));
  g_assert_no_error (error);

  return g_steal_pointer (&journal);
}

static void
assert_spent_today (StewardSamplingBroker *broker)
{
  g_assert_cmpuint (steward_sampling_broker_get_tokens_used (broker, "everything"), ==, 132);
  g_assert_cmpuint (steward_sampling_broker_get_tokens_used (broker, "files"), ==, 42);
  g_assert_cmpuint (steward_sampling_broker_get_tokens_used (broker, "memory"), ==, 0);
  g_assert_cmpuint (steward_sampling_broker_get_tokens_used (broker, "unknown"), ==, 0);
}

static void
test_budget_restart (void)
{
  g_autoptr(GFile) dir = make_tmp_dir ();
  g_autoptr(GFile) journal = write_journal (dir);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(GDateTime) noon = g_date_time_new_local (2026, 3, 14, 12, 0, 0);
  StewardApprovals *approvals = steward_approvals_new ();
  StewardSamplingBroker *broker;
  Call call = { 0, };

  /* The test runs in a zone where the local day is not the UTC day. */
  g_assert_cmpint (g_date_time_get_utc_offset (noon), ==, 10 * G_TIME_SPAN_HOUR);

  broker = new_broker (approvals, NULL, journal);
  g_assert_true (steward_sampling_broker_load (broker, &error));
  g_assert_no_error (error);
  assert_spent_today (broker);

  /* Tomorrow the budget starts again. */
  fake_now += DAY;
  g_assert_cmpuint (steward_sampling_broker_get_tokens_used (broker, "everything"), ==, 0);
  g_assert_finalize_object (broker);

  broker = new_broker (approvals, NULL, journal);
  steward_sampling_broker_load_async (broker, NULL, done_cb, &result);
  WAIT_UNTIL (result != NULL);
  g_assert_true (steward_sampling_broker_load_finish (broker, result, &error));
  g_assert_no_error (error);
  g_clear_object (&result);
  assert_spent_today (broker);

  /* A second load counts nothing twice. */
  g_assert_true (steward_sampling_broker_load (broker, &error));
  assert_spent_today (broker);

  /* What one session spends, the next one counts: 4 + 10 tokens, as in
   * test_budget. The journal is read back so that the line is written
   * before the broker goes. */
  ask (broker, "everything", "Count", 100, NULL, &call);
  send_written_answer (approvals, &call, "one two three four five six seven eight");
  g_assert_cmpuint (steward_sampling_broker_get_tokens_used (broker, "everything"), ==, 146);
  records = read_journal (broker);
  g_assert_finalize_object (broker);

  broker = new_broker (approvals, NULL, journal);
  g_assert_true (steward_sampling_broker_load (broker, &error));
  g_assert_cmpuint (steward_sampling_broker_get_tokens_used (broker, "everything"), ==, 146);
  g_assert_cmpuint (steward_sampling_broker_get_tokens_used (broker, "files"), ==, 42);
  g_assert_finalize_object (broker);

  g_assert_finalize_object (approvals);
  remove_tree (dir);
}

static void
test_budget_spent_before_start (void)
{
  g_autoptr(GFile) dir = make_tmp_dir ();
  g_autoptr(GFile) journal = write_journal (dir);
  g_autoptr(GFile) policies = g_file_get_child (dir, "policies.json");
  g_autofree char *path = g_file_get_path (policies);
  g_autoptr(GError) error = NULL;
  StewardApprovals *approvals = steward_approvals_new ();
  StewardSamplingBroker *broker;
  Call call = { 0, };

  g_assert_true (g_file_set_contents (path, "{\"servers\": {\"everything\": "
                                      "{\"dailyTokens\": 100}}}", -1, &error));
  g_assert_no_error (error);

  broker = new_broker (approvals, policies, journal);
  g_assert_true (steward_sampling_broker_load (broker, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (steward_sampling_settings_get_daily_tokens (settings_of (broker, "everything")),
                    ==, 100);
  assert_spent_today (broker);

  /* 132 of 100 were spent before Steward started: refused at once. */
  ask (broker, "everything", "Count", 100, NULL, &call);
  run_pending ();
  g_assert_true (call.done);
  g_assert_error (call.error, MCP_ERROR, MCP_ERROR_OVERLOADED);
  g_assert_nonnull (strstr (call.error->message, "tomorrow"));
  g_assert_cmpuint (n_approvals (approvals), ==, 0);
  call_clear (&call);

  /* Another server's budget is its own. */
  ask (broker, "files", "Count", 100, NULL, &call);
  reject_open (approvals, &call);
  g_assert_finalize_object (broker);

  /* Damaged policies leave the defaults, and today's count still holds. */
  g_assert_true (g_file_set_contents (path, "{\"servers\": ", -1, &error));
  broker = new_broker (approvals, policies, journal);
  g_assert_false (steward_sampling_broker_load (broker, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_clear_error (&error);
  assert_spent_today (broker);
  g_assert_finalize_object (broker);

  g_assert_finalize_object (approvals);
  remove_tree (dir);
}

/* Models: a scripted provider behind the real StewardProvider interface */

static JsonObject *
deep_copy (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), object);
  g_autofree char *text = json_to_string (node, FALSE);

  return parse_object (text);
}

static void
collect_answer_cb (GPtrArray       *texts,
                   GParamSpec      *pspec,
                   StewardApproval *approval)
{
  g_ptr_array_add (texts, g_strdup (steward_approval_get_answer_text (approval)));
}

/* One answer the provider gives: text pieces as they stream, a usage
 * event, then the answer, or an error; a held turn streams its first
 * piece and waits to be cancelled. */
typedef struct {
  const char *deltas[4];
  gint64      input_tokens;   /* -1: no usage event */
  gint64      output_tokens;
  const char *answer;         /* JSON, or NULL for the error below */
  int         error_code;
  const char *error_message;
  gboolean    hold;
} Turn;

#define TEST_TYPE_SCRIPTED_PROVIDER (scripted_provider_get_type ())
G_DECLARE_FINAL_TYPE (ScriptedProvider, scripted_provider, TEST, SCRIPTED_PROVIDER, GObject)

struct _ScriptedProvider
{
  GObject      parent_instance;

  char        *id;
  gboolean     local;
  const Turn  *turns;
  guint        n_turns;
  guint        calls;
  guint        cancelled;
  GPtrArray   *requests;     /* JsonObject, as received */
};

static void scripted_provider_iface_init (StewardProviderInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (ScriptedProvider, scripted_provider, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (STEWARD_TYPE_PROVIDER,
                                                      scripted_provider_iface_init))

typedef struct {
  StewardProviderEventFunc  event_func;
  gpointer                  event_data;
  GDestroyNotify            event_destroy;
  const Turn               *turn;
  GSource                  *cancel_source;
} Chat;

static void
chat_free (Chat *chat)
{
  if (chat->event_destroy != NULL)
    chat->event_destroy (chat->event_data);
  if (chat->cancel_source != NULL)
    {
      g_source_destroy (chat->cancel_source);
      g_source_unref (chat->cancel_source);
    }
  g_free (chat);
}

static void
emit_text (Chat       *chat,
           const char *text)
{
  g_autoptr(JsonObject) data = json_object_new ();

  json_object_set_string_member (data, "text", text);
  chat->event_func (STEWARD_PROVIDER_EVENT_TEXT, data, chat->event_data);
}

static gboolean
chat_cancelled_cb (GCancellable *cancellable,
                   gpointer      user_data)
{
  GTask *task = user_data;
  ScriptedProvider *self = g_task_get_source_object (task);

  self->cancelled++;
  g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Cancelled");
  g_object_unref (task);

  return G_SOURCE_REMOVE;
}

static gboolean
chat_step_cb (gpointer user_data)
{
  GTask *task = user_data;
  Chat *chat = g_task_get_task_data (task);
  const Turn *turn = chat->turn;

  if (turn->hold)
    {
      emit_text (chat, turn->deltas[0]);
      chat->cancel_source = g_cancellable_source_new (g_task_get_cancellable (task));
      g_source_set_callback (chat->cancel_source, G_SOURCE_FUNC (chat_cancelled_cb), task, NULL);
      g_source_attach (chat->cancel_source, NULL);
      return G_SOURCE_REMOVE;
    }

  for (guint i = 0; i < G_N_ELEMENTS (turn->deltas) && turn->deltas[i] != NULL; i++)
    emit_text (chat, turn->deltas[i]);

  if (turn->input_tokens >= 0)
    {
      g_autoptr(JsonObject) usage = json_object_new ();

      json_object_set_int_member (usage, "inputTokens", turn->input_tokens);
      json_object_set_int_member (usage, "outputTokens", turn->output_tokens);
      chat->event_func (STEWARD_PROVIDER_EVENT_USAGE, usage, chat->event_data);
    }

  if (turn->answer != NULL)
    g_task_return_pointer (task, parse_object (turn->answer), (GDestroyNotify) json_object_unref);
  else
    g_task_return_new_error (task, STEWARD_PROVIDER_ERROR, turn->error_code, "%s",
                             turn->error_message);
  g_object_unref (task);

  return G_SOURCE_REMOVE;
}

static const char *
scripted_provider_get_id (StewardProvider *provider)
{
  return TEST_SCRIPTED_PROVIDER (provider)->id;
}

static const char *
scripted_provider_get_display_name (StewardProvider *provider)
{
  return TEST_SCRIPTED_PROVIDER (provider)->id;
}

static gboolean
scripted_provider_is_local (StewardProvider *provider)
{
  return TEST_SCRIPTED_PROVIDER (provider)->local;
}

static void
scripted_provider_list_models_async (StewardProvider     *provider,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (provider, cancellable, callback, user_data);

  g_task_return_pointer (task, g_ptr_array_new_with_free_func (g_free),
                         (GDestroyNotify) g_ptr_array_unref);
}

static GPtrArray *
scripted_provider_list_models_finish (StewardProvider  *provider,
                                  GAsyncResult     *result,
                                  GError          **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
scripted_provider_chat_async (StewardProvider          *provider,
                          JsonObject               *request,
                          StewardProviderEventFunc  event_func,
                          gpointer                  event_data,
                          GDestroyNotify            event_destroy,
                          GCancellable             *cancellable,
                          GAsyncReadyCallback       callback,
                          gpointer                  user_data)
{
  ScriptedProvider *self = TEST_SCRIPTED_PROVIDER (provider);
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  Chat *chat = g_new0 (Chat, 1);

  g_assert_cmpuint (self->calls, <, self->n_turns);

  /* The broker may free the request once this returns. */
  g_ptr_array_add (self->requests, deep_copy (request));
  chat->event_func = event_func;
  chat->event_data = event_data;
  chat->event_destroy = event_destroy;
  chat->turn = &self->turns[self->calls++];
  g_task_set_task_data (task, chat, (GDestroyNotify) chat_free);
  g_idle_add (chat_step_cb, task);
}

static JsonObject *
scripted_provider_chat_finish (StewardProvider  *provider,
                           GAsyncResult     *result,
                           GError          **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
scripted_provider_iface_init (StewardProviderInterface *iface)
{
  iface->get_id = scripted_provider_get_id;
  iface->get_display_name = scripted_provider_get_display_name;
  iface->is_local = scripted_provider_is_local;
  iface->list_models_async = scripted_provider_list_models_async;
  iface->list_models_finish = scripted_provider_list_models_finish;
  iface->chat_async = scripted_provider_chat_async;
  iface->chat_finish = scripted_provider_chat_finish;
}

static void
scripted_provider_finalize (GObject *object)
{
  ScriptedProvider *self = TEST_SCRIPTED_PROVIDER (object);

  g_free (self->id);
  g_ptr_array_unref (self->requests);

  G_OBJECT_CLASS (scripted_provider_parent_class)->finalize (object);
}

static void
scripted_provider_class_init (ScriptedProviderClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = scripted_provider_finalize;
}

static void
scripted_provider_init (ScriptedProvider *self)
{
  self->requests = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
}

static ScriptedProvider *
scripted_provider_new (const char *id,
                   gboolean    local,
                   const Turn *turns,
                   guint       n_turns)
{
  ScriptedProvider *self = g_object_new (TEST_TYPE_SCRIPTED_PROVIDER, NULL);

  self->id = g_strdup (id);
  self->local = local;
  self->turns = turns;
  self->n_turns = n_turns;

  return self;
}

/* Two providers, a local one and a remote one, and their models. */
typedef struct {
  StewardApprovals      *approvals;
  StewardSamplingBroker *broker;
  StewardModelCatalog   *catalog;
  GListStore            *providers;
  ScriptedProvider          *local;
  ScriptedProvider          *remote;
  GFile                 *dir;
  GFile                 *journal;
} Models;

static void
models_set_up (Models     *models,
               const Turn *local_turns,
               guint       n_local_turns,
               const Turn *remote_turns,
               guint       n_remote_turns)
{
  models->dir = make_tmp_dir ();
  models->journal = g_file_get_child (models->dir, "audit.jsonl");
  models->approvals = steward_approvals_new ();
  models->broker = new_broker (models->approvals, NULL, models->journal);
  models->catalog = steward_model_catalog_new (NULL);
  models->providers = g_list_store_new (STEWARD_TYPE_PROVIDER);
  models->local = scripted_provider_new ("ollama", TRUE, local_turns, n_local_turns);
  models->remote = scripted_provider_new ("anthropic", FALSE, remote_turns, n_remote_turns);

  g_list_store_append (models->providers, models->local);
  g_list_store_append (models->providers, models->remote);
  steward_model_catalog_add (models->catalog, "ollama", "qwen2.5:7b", TRUE);
  steward_model_catalog_add (models->catalog, "ollama", "llama3.1:70b", TRUE);
  steward_model_catalog_add (models->catalog, "anthropic", "claude-sonnet-4", FALSE);
  /* A model whose provider is gone can never answer. */
  steward_model_catalog_add (models->catalog, "gone", "model-9000", FALSE);
  steward_model_catalog_set_hint (models->catalog, "sonnet", "anthropic/claude-sonnet-4");

  steward_sampling_broker_set_model_sources (models->broker, G_LIST_MODEL (models->providers),
                                             models->catalog);
  steward_sampling_settings_set_per_minute (settings_of (models->broker, "everything"), 600);
}

static void
models_tear_down (Models *models)
{
  g_assert_finalize_object (models->broker);
  g_assert_finalize_object (models->approvals);
  g_assert_finalize_object (models->catalog);
  g_assert_finalize_object (models->providers);
  g_assert_finalize_object (models->local);
  g_assert_finalize_object (models->remote);
  remove_tree (models->dir);
  g_object_unref (models->journal);
  g_object_unref (models->dir);
}

static void
ask_with (StewardSamplingBroker *broker,
          const char            *params,
          Call                  *call)
{
  g_autoptr(JsonObject) object = parse_object (params);

  steward_sampling_broker_create_message_async (broker, "everything", object, NULL, NULL,
                                                create_message_cb, call);
}

#define ANSWER(text, model, stop) \
  "{\"role\": \"assistant\", \"content\": [{\"type\": \"text\", \"text\": \"" text "\"}], " \
  "\"model\": \"" model "\", \"stopReason\": \"" stop "\"}"

static void
test_models_choice (void)
{
  const struct {
    const char *preferences;
    const char *allowed;      /* comma-separated, NULL for all */
    gboolean    local_only;
    const char *model;
    const char *reason;
  } rows[] = {
    { "{\"hints\": [{\"name\": \"claude-3-sonnet\"}]}", NULL, FALSE,
      "anthropic/claude-sonnet-4",
      "“claude-3-sonnet” was asked for first; your map sends “sonnet” to "
      "“anthropic/claude-sonnet-4”." },
    { "{\"hints\": [{\"name\": \"model-9000\"}], \"speedPriority\": 1}", NULL, FALSE,
      "ollama/qwen2.5:7b",
      "No hint matched, so the best for speed among the 3 models this server may use: "
      "“ollama/qwen2.5:7b”." },
    { "{\"hints\": [{\"name\": \"sonnet\"}], \"intelligencePriority\": 1}", NULL, TRUE,
      "ollama/llama3.1:70b",
      "No hint matched, so the best for intelligence among the 2 models this server may use: "
      "“ollama/llama3.1:70b”." },
    { "{\"hints\": [{\"name\": \"qwen\"}]}", "anthropic/claude-sonnet-4", FALSE,
      "anthropic/claude-sonnet-4",
      "No hint matched, and “anthropic/claude-sonnet-4” is the only model this server may "
      "use." },
    { "{}", "", FALSE,
      "manual", "No model is allowed for this server, so you write the answer." },
  };

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      g_autofree char *params = NULL;
      g_auto(GStrv) allowed = NULL;
      StewardApproval *approval;
      Models models = { 0, };
      Call call = { 0, };

      g_test_message ("choice %u", i);
      models_set_up (&models, NULL, 0, NULL, 0);
      if (rows[i].allowed != NULL)
        allowed = *rows[i].allowed ? g_strsplit (rows[i].allowed, ",", -1) : g_new0 (char *, 1);
      steward_sampling_settings_set_models (settings_of (models.broker, "everything"),
                                            (const char * const *) allowed);
      steward_sampling_settings_set_local_only (settings_of (models.broker, "everything"),
                                                rows[i].local_only);

      params = g_strdup_printf ("{\"messages\": [{\"role\": \"user\", \"content\": "
                                "{\"type\": \"text\", \"text\": \"Hi\"}}], \"maxTokens\": 10, "
                                "\"modelPreferences\": %s}", rows[i].preferences);
      ask_with (models.broker, params, &call);
      WAIT_UNTIL (n_approvals (models.approvals) == 1);
      approval = get_last (models.approvals);
      g_assert_cmpstr (steward_approval_get_model (approval), ==, rows[i].model);
      g_assert_cmpstr (steward_approval_get_model_reason (approval), ==, rows[i].reason);

      steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_REJECT, NULL);
      WAIT_UNTIL (call.done);
      assert_rejected (&call);
      call_clear (&call);
      g_assert_finalize_object (approval);
      models_tear_down (&models);
    }
}

static void
test_models_picked (void)
{
  static const Turn local_turns[] = {
    { { "Local", NULL }, 5, 1, ANSWER ("Local", "qwen2.5:7b", "endTurn"), 0, NULL, FALSE },
  };
  static const Turn remote_turns[] = {
    { { "Remote", NULL }, 5, 1, ANSWER ("Remote", "claude-sonnet-4", "endTurn"), 0, NULL,
      FALSE },
  };
  static const char params[] =
    "{\"messages\": [{\"role\": \"user\", \"content\": {\"type\": \"text\", \"text\": \"Hi\"}}],"
    " \"maxTokens\": 10, \"modelPreferences\": {\"hints\": [{\"name\": \"qwen\"}]}}";
  StewardApproval *approval;
  JsonArray *choices;
  JsonObject *request;
  Models models = { 0, };
  Call call = { 0, };
  guint daily = 0, used = 1;

  models_set_up (&models, local_turns, G_N_ELEMENTS (local_turns),
                 remote_turns, G_N_ELEMENTS (remote_turns));
  ask_with (models.broker, params, &call);
  WAIT_UNTIL (n_approvals (models.approvals) == 1);
  approval = get_last (models.approvals);

  /* The person sees the models they may pick, never one without a
   * provider, and the budget. */
  g_assert_cmpstr (steward_approval_get_model (approval), ==, "ollama/qwen2.5:7b");
  choices = steward_approval_get_model_choices (approval);
  g_assert_nonnull (choices);
  g_assert_cmpuint (json_array_get_length (choices), ==, 3);
  for (guint i = 0; i < 3; i++)
    g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (choices, i),
                                                    "provider"), !=, "gone");
  steward_approval_get_budget (approval, &daily, &used);
  g_assert_cmpuint (daily, ==, STEWARD_SAMPLING_DEFAULT_DAILY_TOKENS);
  g_assert_cmpuint (used, ==, 0);

  /* They pick the remote one: it answers, the local one is never asked. */
  steward_approval_set_model (approval, "anthropic/claude-sonnet-4", "Picked");
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_CONTINUE, NULL);
  WAIT_UNTIL (!steward_approval_get_generating (approval));
  g_assert_cmpstr (steward_approval_get_answer_text (approval), ==, "Remote");
  g_assert_cmpuint (models.local->calls, ==, 0);
  g_assert_cmpuint (models.remote->requests->len, ==, 1);
  request = g_ptr_array_index (models.remote->requests, 0);
  g_assert_cmpstr (json_object_get_string_member (request, "model"), ==, "claude-sonnet-4");
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_REJECT, NULL);
  WAIT_UNTIL (call.done);
  call_clear (&call);
  g_assert_finalize_object (approval);

  /* A model that was not offered is not taken, whoever set it. */
  ask_with (models.broker, params, &call);
  WAIT_UNTIL (n_approvals (models.approvals) == 1);
  approval = get_last (models.approvals);
  steward_approval_set_model (approval, "gone/model-9000", "Picked");
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_CONTINUE, NULL);
  WAIT_UNTIL (!steward_approval_get_generating (approval));
  g_assert_cmpstr (steward_approval_get_answer_text (approval), ==, "Local");
  g_assert_cmpuint (models.remote->requests->len, ==, 1);
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_REJECT, NULL);
  WAIT_UNTIL (call.done);
  call_clear (&call);
  g_assert_finalize_object (approval);

  models_tear_down (&models);
}

static const char streamed_params[] =
  "{\"messages\": ["
  "  {\"role\": \"user\", \"content\": {\"type\": \"text\", \"text\": \"What is this?\"}},"
  "  {\"role\": \"assistant\", \"content\": {\"type\": \"text\", \"text\": \"Show me.\"}},"
  "  {\"role\": \"user\", \"content\": [{\"type\": \"image\", \"data\": \"iVBORw0KGgo=\", "
  "   \"mimeType\": \"image/png\"}, {\"type\": \"audio\", \"data\": \"UklGRg==\", "
  "   \"mimeType\": \"audio/wav\"}]}],"
  " \"systemPrompt\": \"Be brief.\", \"temperature\": 0.25, \"maxTokens\": 50000,"
  " \"stopSequences\": [\"END\"], \"metadata\": {\"trace\": \"t-1\"},"
  " \"includeContext\": \"thisServer\","
  " \"modelPreferences\": {\"hints\": [{\"name\": \"qwen\"}]},"
  " \"_steward\": {\"includeContext\": \"A server may not say this.\"}}";

static void
test_models_stream (void)
{
  static const Turn local_turns[] = {
    { { "Forty", "-two", NULL }, 12, 3,
      ANSWER ("Forty-two", "qwen2.5:7b-instruct", "maxTokens"), 0, NULL, FALSE },
  };
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  StewardApproval *approval;
  JsonObject *request;
  JsonObject *shown;
  JsonArray *messages;
  Models models = { 0, };
  Call call = { 0, };

  models_set_up (&models, local_turns, G_N_ELEMENTS (local_turns), NULL, 0);
  ask_with (models.broker, streamed_params, &call);
  WAIT_UNTIL (n_approvals (models.approvals) == 1);
  approval = get_last (models.approvals);

  /* Stage 1: the model and why, and what includeContext amounts to, in
   * Steward's words, not the server's. */
  g_assert_cmpstr (steward_approval_get_model (approval), ==, "ollama/qwen2.5:7b");
  g_assert_cmpstr (steward_approval_get_model_reason (approval), ==,
                   "“qwen” was asked for first, and “ollama/qwen2.5:7b” matches it.");
  shown = json_object_get_object_member (steward_approval_get_request (approval), "_steward");
  g_assert_cmpstr (json_object_get_string_member (shown, "includeContext"), ==,
                   "The server asked for context from this server as well. Steward shares "
                   "none: the model sees only the messages below.");
  g_assert_cmpuint (models.local->calls, ==, 0);

  /* Stage 2: the answer streams in. */
  g_signal_connect_swapped (approval, "notify::answer-text", G_CALLBACK (collect_answer_cb),
                            texts);
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_CONTINUE, NULL);
  g_assert_true (steward_approval_get_generating (approval));
  WAIT_UNTIL (!steward_approval_get_generating (approval));
  g_assert_cmpstr (steward_approval_get_answer_text (approval), ==, "Forty-two");
  g_assert_null (steward_approval_get_error_text (approval));
  g_assert_cmpuint (texts->len, >=, 2);
  g_assert_cmpstr (g_ptr_array_index (texts, 0), ==, "Forty");
  g_assert_cmpuint (steward_sampling_broker_get_tokens_used (models.broker, "everything"), ==,
                    15);

  /* What the provider received: the request as the person let it
   * through, clamped, with the model's own name and nothing of Steward's. */
  g_assert_cmpuint (models.local->requests->len, ==, 1);
  request = g_ptr_array_index (models.local->requests, 0);
  g_assert_cmpstr (json_object_get_string_member (request, "model"), ==, "qwen2.5:7b");
  g_assert_cmpstr (json_object_get_string_member (request, "systemPrompt"), ==, "Be brief.");
  g_assert_cmpfloat (json_object_get_double_member (request, "temperature"), ==, 0.25);
  g_assert_cmpint (json_object_get_int_member (request, "maxTokens"), ==, 4096);
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (request,
                                                                                 "stopSequences"),
                                                  0), ==, "END");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (request,
                                                                                 "metadata"),
                                                  "trace"), ==, "t-1");
  messages = json_object_get_array_member (request, "messages");
  g_assert_cmpuint (json_array_get_length (messages), ==, 3);
  {
    JsonArray *blocks = json_object_get_array_member (json_array_get_object_element (messages, 2),
                                                      "content");

    g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (blocks, 0),
                                                    "type"), ==, "image");
    g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (blocks, 1),
                                                    "mimeType"), ==, "audio/wav");
  }
  g_assert_false (json_object_has_member (request, "_steward"));
  g_assert_false (json_object_has_member (request, "includeContext"));
  g_assert_false (json_object_has_member (request, "modelPreferences"));
  g_assert_false (json_object_has_member (request, "tools"));

  /* Sent as the dialog sends it: the model's own name and stop reason. */
  {
    g_autoptr(JsonObject) result = parse_object ("{\"role\": \"assistant\", \"content\": "
                                                 "{\"type\": \"text\", \"text\": \"Forty-two\"}, "
                                                 "\"model\": \"ollama/qwen2.5:7b\", "
                                                 "\"stopReason\": \"endTurn\"}");

    steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_SEND, result);
  }
  WAIT_UNTIL (call.done);
  g_assert_no_error (call.error);
  g_assert_cmpstr (result_text (call.result), ==, "Forty-two");
  g_assert_cmpstr (json_object_get_string_member (call.result, "model"), ==,
                   "qwen2.5:7b-instruct");
  g_assert_cmpstr (json_object_get_string_member (call.result, "stopReason"), ==, "maxTokens");
  call_clear (&call);
  g_assert_finalize_object (approval);

  /* The audit record names the model, its provider and what it spent. */
  records = read_journal (models.broker);
  g_assert_cmpuint (records->len, ==, 1);
  g_assert_cmpstr (record_string (records, 0, "decision"), ==, "sent");
  g_assert_cmpstr (record_string (records, 0, "model"), ==, "qwen2.5:7b-instruct");
  g_assert_cmpstr (record_string (records, 0, "provider"), ==, "ollama");
  g_assert_cmpint (record_int (records, 0, "inputTokens"), ==, 12);
  g_assert_cmpint (record_int (records, 0, "outputTokens"), ==, 3);
  g_assert_cmpint (record_int (records, 0, "maxTokensRequested"), ==, 50000);
  g_assert_false (json_object_get_boolean_member (g_ptr_array_index (records, 0), "edited"));

  models_tear_down (&models);
}

static void
test_models_regenerate (void)
{
  static const Turn remote_turns[] = {
    { { "Half an ans", NULL }, -1, -1, NULL, 0, NULL, TRUE },
    { { "A whole ", "answer." }, 20, 5,
      ANSWER ("A whole answer.", "claude-sonnet-4-20250514", "endTurn"), 0, NULL, FALSE },
    { { "Another ", "one." }, 20, 4,
      ANSWER ("Another one.", "claude-sonnet-4-20250514", "endTurn"), 0, NULL, FALSE },
  };
  g_autoptr(GPtrArray) records = NULL;
  StewardApproval *approval;
  Models models = { 0, };
  Call call = { 0, };

  models_set_up (&models, NULL, 0, remote_turns, G_N_ELEMENTS (remote_turns));
  steward_sampling_settings_set_policy (settings_of (models.broker, "everything"),
                                        STEWARD_SAMPLING_POLICY_ALWAYS);
  ask_with (models.broker,
            "{\"messages\": [{\"role\": \"user\", \"content\": {\"type\": \"text\", "
            "\"text\": \"Tell me\"}}], \"maxTokens\": 100, "
            "\"modelPreferences\": {\"hints\": [{\"name\": \"claude-3-5-sonnet\"}]}}", &call);
  WAIT_UNTIL (n_approvals (models.approvals) == 1);
  approval = get_last (models.approvals);

  /* A standing policy: the answer starts streaming at once. */
  g_assert_cmpint (steward_approval_get_stage (approval), ==, STEWARD_APPROVAL_STAGE_RESPONSE);
  g_assert_true (steward_approval_get_generating (approval));
  WAIT_UNTIL (g_str_equal (steward_approval_get_answer_text (approval), "Half an ans"));

  /* Another answer stops the one under way and starts afresh. */
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_REGENERATE, NULL);
  g_assert_cmpstr (steward_approval_get_answer_text (approval), ==, "");
  WAIT_UNTIL (models.remote->cancelled == 1);
  WAIT_UNTIL (!steward_approval_get_generating (approval));
  g_assert_cmpstr (steward_approval_get_answer_text (approval), ==, "A whole answer.");

  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_REGENERATE, NULL);
  WAIT_UNTIL (!steward_approval_get_generating (approval));
  g_assert_cmpstr (steward_approval_get_answer_text (approval), ==, "Another one.");
  g_assert_cmpuint (models.remote->calls, ==, 3);
  g_assert_cmpuint (steward_sampling_broker_get_tokens_used (models.broker, "everything"), ==,
                    49);

  /* Edited before sending. */
  steward_approval_set_answer_text (approval, "Another one, edited.");
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_SEND, NULL);
  WAIT_UNTIL (call.done);
  g_assert_cmpstr (result_text (call.result), ==, "Another one, edited.");
  g_assert_cmpstr (json_object_get_string_member (call.result, "model"), ==,
                   "claude-sonnet-4-20250514");
  g_assert_cmpstr (json_object_get_string_member (call.result, "stopReason"), ==, "endTurn");
  call_clear (&call);
  g_assert_finalize_object (approval);

  /* Every answer the request cost is in its record, as in the budget. */
  records = read_journal (models.broker);
  g_assert_cmpstr (record_string (records, 0, "provider"), ==, "anthropic");
  g_assert_cmpint (record_int (records, 0, "inputTokens"), ==, 40);
  g_assert_cmpint (record_int (records, 0, "outputTokens"), ==, 9);
  g_assert_true (json_object_get_boolean_member (g_ptr_array_index (records, 0), "edited"));

  models_tear_down (&models);
}

static void
test_models_error (void)
{
  static const Turn local_turns[] = {
    { { "Par", NULL }, 3, 1, NULL, STEWARD_PROVIDER_ERROR_SERVER,
      "Ollama answered 500: the model ran out of memory", FALSE },
    { { NULL }, -1, -1, NULL, STEWARD_PROVIDER_ERROR_NETWORK,
      "Cannot reach Ollama at http://localhost:11434", FALSE },
  };
  g_autoptr(GPtrArray) records = NULL;
  StewardApproval *approval;
  Models models = { 0, };
  Call call = { 0, };

  models_set_up (&models, local_turns, G_N_ELEMENTS (local_turns), NULL, 0);
  steward_sampling_settings_set_local_only (settings_of (models.broker, "everything"), TRUE);
  ask (models.broker, "everything", "What is 6 times 7?", 100, NULL, &call);
  WAIT_UNTIL (n_approvals (models.approvals) == 1);
  approval = get_last (models.approvals);
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_CONTINUE, NULL);
  WAIT_UNTIL (!steward_approval_get_generating (approval));

  /* The provider's own words, and the dialog stays open. */
  g_assert_cmpstr (steward_approval_get_error_text (approval), ==,
                   "Ollama answered 500: the model ran out of memory");
  g_assert_false (steward_approval_get_finished (approval));
  g_assert_cmpuint (steward_sampling_broker_get_tokens_used (models.broker, "everything"), ==, 4);

  /* Trying again clears the error, and fails again. */
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_REGENERATE, NULL);
  g_assert_null (steward_approval_get_error_text (approval));
  WAIT_UNTIL (!steward_approval_get_generating (approval));
  g_assert_cmpstr (steward_approval_get_error_text (approval), ==,
                   "Cannot reach Ollama at http://localhost:11434");

  /* Reject still works. */
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_REJECT, NULL);
  WAIT_UNTIL (call.done);
  assert_rejected (&call);
  call_clear (&call);
  g_assert_finalize_object (approval);

  records = read_journal (models.broker);
  g_assert_cmpstr (record_string (records, 0, "decision"), ==, "rejected");
  g_assert_cmpstr (record_string (records, 0, "provider"), ==, "ollama");
  g_assert_cmpint (record_int (records, 0, "inputTokens"), ==, 3);

  models_tear_down (&models);
}

/* No usage reported: the answer is estimated, so that the budget holds. */
static void
test_models_estimate (void)
{
  static const Turn local_turns[] = {
    { { "12345678", NULL }, -1, -1,
      "{\"role\": \"assistant\", \"content\": {\"type\": \"text\", \"text\": \"12345678\"}, "
      "\"model\": \"qwen2.5:7b\"}", 0, NULL, FALSE },
  };
  g_autoptr(GPtrArray) records = NULL;
  StewardApproval *approval;
  Models models = { 0, };
  Call call = { 0, };

  models_set_up (&models, local_turns, G_N_ELEMENTS (local_turns), NULL, 0);
  steward_sampling_settings_set_policy (settings_of (models.broker, "everything"),
                                        STEWARD_SAMPLING_POLICY_ALWAYS);
  steward_sampling_settings_set_models (settings_of (models.broker, "everything"),
                                        (const char * const []) { "ollama/qwen2.5:7b", NULL });
  ask (models.broker, "everything", "1234", 100, NULL, &call);
  WAIT_UNTIL (n_approvals (models.approvals) == 1);
  approval = get_last (models.approvals);
  WAIT_UNTIL (!steward_approval_get_generating (approval));
  g_assert_cmpuint (steward_sampling_broker_get_tokens_used (models.broker, "everything"), ==, 0);

  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_SEND, NULL);
  WAIT_UNTIL (call.done);
  g_assert_no_error (call.error);
  g_assert_cmpstr (json_object_get_string_member (call.result, "stopReason"), ==, "endTurn");
  call_clear (&call);
  g_assert_finalize_object (approval);

  /* "Be brief." and "1234": 13 characters, 4 tokens; the answer, 2. */
  g_assert_cmpuint (steward_sampling_broker_get_tokens_used (models.broker, "everything"), ==, 6);
  records = read_journal (models.broker);
  g_assert_cmpint (record_int (records, 0, "inputTokens"), ==, 4);
  g_assert_cmpint (record_int (records, 0, "outputTokens"), ==, 2);

  models_tear_down (&models);
}

static const char tools_params[] =
  "{\"messages\": [{\"role\": \"user\", \"content\": [{\"type\": \"text\", "
  "  \"text\": \"What is the weather in Paris?\"}]}],"
  " \"maxTokens\": 200,"
  " \"tools\": [{\"name\": \"get_weather\", \"description\": \"The weather in a city\","
  "   \"inputSchema\": {\"type\": \"object\", \"properties\": {\"city\": {\"type\": \"string\"}},"
  "   \"required\": [\"city\"]}}],"
  " \"toolChoice\": {\"mode\": \"auto\"},"
  " \"modelPreferences\": {\"hints\": [{\"name\": \"sonnet\"}]}}";

static const char tools_followup[] =
  "{\"messages\": ["
  "  {\"role\": \"user\", \"content\": [{\"type\": \"text\", "
  "   \"text\": \"What is the weather in Paris?\"}]},"
  "  {\"role\": \"assistant\", \"content\": [{\"type\": \"tool_use\", \"id\": \"call-1\","
  "   \"name\": \"get_weather\", \"input\": {\"city\": \"Paris\"}}]},"
  "  {\"role\": \"user\", \"content\": [{\"type\": \"tool_result\", \"toolUseId\": \"call-1\","
  "   \"content\": [{\"type\": \"text\", \"text\": \"18 °C, sunny\"}]}]}],"
  " \"maxTokens\": 200,"
  " \"tools\": [{\"name\": \"get_weather\", \"inputSchema\": {\"type\": \"object\"}}],"
  " \"modelPreferences\": {\"hints\": [{\"name\": \"sonnet\"}]}}";

static void
test_models_tools (void)
{
  static const Turn remote_turns[] = {
    { { "Let me look.", NULL }, 30, 12,
      "{\"role\": \"assistant\", \"content\": [{\"type\": \"text\", \"text\": \"Let me look.\"}, "
      "{\"type\": \"tool_use\", \"id\": \"call-1\", \"name\": \"get_weather\", "
      "\"input\": {\"city\": \"Paris\"}}], \"model\": \"claude-sonnet-4\", "
      "\"stopReason\": \"toolUse\"}", 0, NULL, FALSE },
    { { NULL }, 30, 12,
      "{\"role\": \"assistant\", \"content\": [{\"type\": \"tool_use\", \"id\": \"call-2\", "
      "\"name\": \"get_weather\", \"input\": {\"city\": \"Lyon\"}}], "
      "\"model\": \"claude-sonnet-4\", \"stopReason\": \"toolUse\"}", 0, NULL, FALSE },
    { { "Sunny, 18 °C.", NULL }, 50, 6,
      ANSWER ("Sunny, 18 °C.", "claude-sonnet-4", "endTurn"), 0, NULL, FALSE },
  };
  StewardApproval *approval;
  JsonObject *request;
  JsonObject *shown;
  JsonArray *content;
  JsonObject *block;
  Models models = { 0, };
  Call call = { 0, };

  models_set_up (&models, NULL, 0, remote_turns, G_N_ELEMENTS (remote_turns));
  ask_with (models.broker, tools_params, &call);
  WAIT_UNTIL (n_approvals (models.approvals) == 1);
  approval = get_last (models.approvals);
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_CONTINUE, NULL);
  WAIT_UNTIL (!steward_approval_get_generating (approval));

  /* The tools and the choice reached the model. */
  request = g_ptr_array_index (models.remote->requests, 0);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (
                     json_object_get_array_member (request, "tools"), 0), "name"), ==,
                   "get_weather");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (request,
                                                                                 "toolChoice"),
                                                  "mode"), ==, "auto");

  /* The person sees the calls before anything goes back. */
  g_assert_cmpstr (steward_approval_get_answer_text (approval), ==, "Let me look.");
  shown = json_object_get_object_member (steward_approval_get_request (approval), "_steward");
  g_assert_nonnull (shown);
  block = json_array_get_object_element (json_object_get_array_member (shown, "toolUse"), 0);
  g_assert_cmpstr (json_object_get_string_member (block, "id"), ==, "call-1");

  /* The dialog sends text only; the calls go back with it, for the server
   * to run. */
  {
    g_autoptr(JsonObject) result = parse_object ("{\"role\": \"assistant\", \"content\": "
                                                 "{\"type\": \"text\", "
                                                 "\"text\": \"Let me look.\"}, "
                                                 "\"model\": \"anthropic/claude-sonnet-4\", "
                                                 "\"stopReason\": \"endTurn\"}");

    steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_SEND, result);
  }
  WAIT_UNTIL (call.done);
  g_assert_no_error (call.error);
  g_assert_cmpstr (json_object_get_string_member (call.result, "stopReason"), ==, "toolUse");
  content = json_object_get_array_member (call.result, "content");
  g_assert_cmpuint (json_array_get_length (content), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (content, 0),
                                                  "text"), ==, "Let me look.");
  block = json_array_get_object_element (content, 1);
  g_assert_cmpstr (json_object_get_string_member (block, "type"), ==, "tool_use");
  g_assert_cmpstr (json_object_get_string_member (block, "name"), ==, "get_weather");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (block, "input"),
                                                  "city"), ==, "Paris");
  call_clear (&call);
  g_assert_finalize_object (approval);

  /* The server ran the tool and asks again with its result; this time
   * the model only calls a tool, and the empty text is left out. */
  ask_with (models.broker, tools_followup, &call);
  WAIT_UNTIL (n_approvals (models.approvals) == 1);
  approval = get_last (models.approvals);
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_CONTINUE, NULL);
  WAIT_UNTIL (!steward_approval_get_generating (approval));
  request = g_ptr_array_index (models.remote->requests, 1);
  block = json_array_get_object_element (
    json_object_get_array_member (json_array_get_object_element (
      json_object_get_array_member (request, "messages"), 2), "content"), 0);
  g_assert_cmpstr (json_object_get_string_member (block, "type"), ==, "tool_result");
  g_assert_cmpstr (json_object_get_string_member (block, "toolUseId"), ==, "call-1");

  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_SEND, NULL);
  WAIT_UNTIL (call.done);
  g_assert_no_error (call.error);
  content = json_object_get_array_member (call.result, "content");
  g_assert_cmpuint (json_array_get_length (content), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (content, 0),
                                                  "id"), ==, "call-2");
  g_assert_cmpstr (json_object_get_string_member (call.result, "stopReason"), ==, "toolUse");
  call_clear (&call);

  /* A new answer without tool calls takes them off the request shown. */
  g_assert_finalize_object (approval);
  ask_with (models.broker, tools_followup, &call);
  WAIT_UNTIL (n_approvals (models.approvals) == 1);
  approval = get_last (models.approvals);
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_CONTINUE, NULL);
  WAIT_UNTIL (!steward_approval_get_generating (approval));
  g_assert_false (json_object_has_member (steward_approval_get_request (approval), "_steward"));
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_SEND, NULL);
  WAIT_UNTIL (call.done);
  g_assert_cmpstr (result_text (call.result), ==, "Sunny, 18 °C.");
  call_clear (&call);
  g_assert_finalize_object (approval);

  models_tear_down (&models);
}

static void
test_tool_messages_invalid (void)
{
  static const struct {
    const char *messages;
    const char *message;
  } rows[] = {
    { "[{\"role\": \"user\", \"content\": [{\"type\": \"tool_result\", \"toolUseId\": \"a\", "
      "\"content\": []}, {\"type\": \"text\", \"text\": \"and more\"}]}]",
      "Tool results mixed with other content" },
    { "[{\"role\": \"user\", \"content\": {\"type\": \"text\", \"text\": \"Hi\"}},"
      " {\"role\": \"assistant\", \"content\": [{\"type\": \"tool_use\", \"id\": \"a\", "
      "\"name\": \"t\", \"input\": {}}]}]",
      "Tool result missing in request" },
    { "[{\"role\": \"assistant\", \"content\": [{\"type\": \"tool_use\", \"id\": \"a\", "
      "\"name\": \"t\", \"input\": {}}, {\"type\": \"tool_use\", \"id\": \"b\", "
      "\"name\": \"t\", \"input\": {}}]},"
      " {\"role\": \"user\", \"content\": [{\"type\": \"tool_result\", \"toolUseId\": \"a\", "
      "\"content\": []}]}]",
      "Tool result missing in request" },
    { "[{\"role\": \"assistant\", \"content\": {\"type\": \"tool_result\", \"toolUseId\": \"a\", "
      "\"content\": []}}]",
      "Tool results mixed with other content" },
    { "[{\"role\": \"user\", \"content\": [{\"type\": \"tool_result\", \"content\": []}]}]",
      "A tool result in “messages[0]” has no “toolUseId”" },
    { "[{\"role\": \"assistant\", \"content\": [{\"type\": \"tool_use\", \"name\": \"t\"}]}]",
      "A tool use in “messages[0]” needs an “id” and a “name”" },
  };
  StewardApprovals *approvals = steward_approvals_new ();
  StewardSamplingBroker *broker = new_broker (approvals, NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      g_autofree char *params = g_strdup_printf ("{\"messages\": %s, \"maxTokens\": 10}",
                                                 rows[i].messages);
      Call call = { 0, };

      g_test_message ("tool messages %u", i);
      ask_with (broker, params, &call);
      run_pending ();
      g_assert_true (call.done);
      g_assert_error (call.error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS);
      g_assert_cmpstr (call.error->message, ==, rows[i].message);
      call_clear (&call);
    }

  /* Tools and the choice must have their shape too. */
  {
    static const char * const shapes[] = {
      "\"tools\": {}", "\"tools\": [{\"description\": \"no name\"}]",
      "\"toolChoice\": \"auto\"", "\"toolChoice\": {\"mode\": \"sometimes\"}",
    };

    for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
      {
        g_autofree char *params = NULL;
        Call call = { 0, };

        params = g_strdup_printf ("{\"messages\": [{\"role\": \"user\", \"content\": "
                                  "{\"type\": \"text\", \"text\": \"Hi\"}}], \"maxTokens\": 10, "
                                  "%s}", shapes[i]);
        ask_with (broker, params, &call);
        run_pending ();
        g_assert_error (call.error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS);
        call_clear (&call);
      }
  }

  g_assert_cmpuint (n_approvals (approvals), ==, 0);
  g_assert_finalize_object (broker);
  g_assert_finalize_object (approvals);
}

/* A server that loops through sampling with tool results gets so many
 * rounds, then a clear refusal; a fresh request starts the count again. */
static void
test_tool_loop_limit (void)
{
  StewardApprovals *approvals = steward_approvals_new ();
  StewardSamplingBroker *broker = new_broker (approvals, NULL, NULL);
  Call call = { 0, };

  steward_sampling_settings_set_per_minute (settings_of (broker, "everything"), 600);

  ask_with (broker, tools_params, &call);
  reject_open (approvals, &call);
  for (guint i = 0; i < STEWARD_SAMPLING_MAX_TOOL_ROUNDS; i++)
    {
      ask_with (broker, tools_followup, &call);
      reject_open (approvals, &call);
    }

  ask_with (broker, tools_followup, &call);
  run_pending ();
  g_assert_true (call.done);
  g_assert_error (call.error, MCP_ERROR, MCP_ERROR_OVERLOADED);
  g_assert_cmpstr (call.error->message, ==,
                   "Server `everything` sent 11 sampling requests in a row with tool results; "
                   "a tool loop may take at most 10 rounds. It can start again with a request "
                   "that brings no tool results.");
  g_assert_cmpuint (n_approvals (approvals), ==, 0);
  call_clear (&call);

  /* Other servers have loops of their own. */
  {
    g_autoptr(JsonObject) params = parse_object (tools_followup);

    steward_sampling_broker_create_message_async (broker, "files", params, NULL, NULL,
                                                  create_message_cb, &call);
    reject_open (approvals, &call);
  }

  ask_with (broker, tools_params, &call);
  reject_open (approvals, &call);
  ask_with (broker, tools_followup, &call);
  reject_open (approvals, &call);

  g_assert_finalize_object (broker);
  g_assert_finalize_object (approvals);
}

/* The person's edit at stage 1 may change includeContext; and whatever
 * comes back under "_steward" from the dialog is Steward's again. */
static void
test_include_context (void)
{
  const char *params = "{\"messages\": [{\"role\": \"user\", \"content\": {\"type\": "
                       "\"text\", \"text\": \"Hi\"}}], \"maxTokens\": 10, "
                       "\"includeContext\": \"allServers\", "
                       "\"_steward\": {\"includeContext\": \"Everything is shared.\"}}";
  g_autoptr(JsonObject) edited = NULL;
  StewardApprovals *approvals = steward_approvals_new ();
  StewardSamplingBroker *broker = new_broker (approvals, NULL, NULL);
  StewardApproval *approval;
  JsonObject *notes;
  Call call = { 0, };

  ask_with (broker, params, &call);
  WAIT_UNTIL (n_approvals (approvals) == 1);
  approval = get_last (approvals);
  notes = json_object_get_object_member (steward_approval_get_request (approval), "_steward");
  g_assert_cmpstr (json_object_get_string_member (notes, "includeContext"), ==,
                   "The server asked for context from every server as well. Steward shares "
                   "none: the model sees only the messages below.");

  /* Nothing is said when nothing is asked for. */
  edited = parse_object ("{\"messages\": [{\"role\": \"user\", \"content\": {\"type\": "
                         "\"text\", \"text\": \"Hi\"}}], \"maxTokens\": 10, "
                         "\"includeContext\": \"none\", "
                         "\"_steward\": {\"includeContext\": \"Everything is shared.\"}}");
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_CONTINUE, edited);
  g_assert_false (json_object_has_member (steward_approval_get_request (approval), "_steward"));
  steward_approval_set_answer_text (approval, "Hello");
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_SEND, NULL);
  WAIT_UNTIL (call.done);
  g_assert_no_error (call.error);
  call_clear (&call);
  g_assert_finalize_object (approval);

  g_assert_finalize_object (broker);
  g_assert_finalize_object (approvals);
}

static void
test_policies_models (void)
{
  const char * const allowed[] = { "ollama/qwen2.5:7b", "anthropic/claude-sonnet-4", NULL };
  g_autoptr(GFile) dir = make_tmp_dir ();
  g_autoptr(GFile) file = g_file_get_child (dir, "policies.json");
  g_autofree char *path = g_file_get_path (file);
  g_autoptr(GPtrArray) changes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  StewardApprovals *approvals = steward_approvals_new ();
  StewardSamplingBroker *broker = new_broker (approvals, file, NULL);
  const char * const *models;

  g_assert_null (steward_sampling_settings_get_models (settings_of (broker, "everything")));
  g_assert_false (steward_sampling_settings_get_local_only (settings_of (broker, "everything")));

  watch (broker, "everything", changes);
  watch (broker, "files", changes);
  watch (broker, "memory", changes);
  steward_sampling_settings_set_models (settings_of (broker, "everything"), allowed);
  steward_sampling_settings_set_models (settings_of (broker, "everything"), allowed);
  steward_sampling_settings_set_local_only (settings_of (broker, "everything"), TRUE);
  steward_sampling_settings_set_local_only (settings_of (broker, "everything"), TRUE);
  steward_sampling_settings_set_local_only (settings_of (broker, "files"), FALSE);
  steward_sampling_settings_set_models (settings_of (broker, "memory"),
                                        (const char * const []) { NULL });
  assert_log (changes, (const char * const []) {
    "everything:models", "everything:configured", "everything:local-only",
    "files:configured",
    "memory:models", "memory:configured",
    NULL,
  });
  save_and_wait (broker);
  g_assert_true (file_contains (file, "\"localOnly\" : true"));
  g_assert_finalize_object (broker);

  broker = new_broker (approvals, file, NULL);
  g_assert_true (steward_sampling_broker_load (broker, &error));
  g_assert_no_error (error);
  models = steward_sampling_settings_get_models (settings_of (broker, "everything"));
  g_assert_nonnull (models);
  g_assert_true (g_strv_equal (models, allowed));
  g_assert_true (steward_sampling_settings_get_local_only (settings_of (broker, "everything")));
  g_assert_null (steward_sampling_settings_get_models (settings_of (broker, "files")));
  g_assert_false (steward_sampling_settings_get_local_only (settings_of (broker, "files")));
  models = steward_sampling_settings_get_models (settings_of (broker, "memory"));
  g_assert_nonnull (models);
  g_assert_null (models[0]);

  /* Back to all models. */
  steward_sampling_settings_set_models (settings_of (broker, "everything"), NULL);
  g_assert_null (steward_sampling_settings_get_models (settings_of (broker, "everything")));
  save_and_wait (broker);
  g_assert_false (file_contains (file, "qwen"));
  g_assert_finalize_object (broker);

  /* Damaged values name the file. */
  {
    static const char * const damaged[] = {
      "{\"servers\": {\"files\": {\"models\": \"all\"}}}",
      "{\"servers\": {\"files\": {\"models\": [1]}}}",
      "{\"servers\": {\"files\": {\"localOnly\": \"yes\"}}}",
    };

    for (guint i = 0; i < G_N_ELEMENTS (damaged); i++)
      {
        g_assert_true (g_file_set_contents (path, damaged[i], -1, NULL));
        broker = new_broker (approvals, file, NULL);
        g_assert_false (steward_sampling_broker_load (broker, &error));
        g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
        g_assert_nonnull (strstr (error->message, path));
        g_clear_error (&error);
        g_assert_finalize_object (broker);
      }
  }

  g_assert_finalize_object (approvals);
  remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  /* A zone ten hours from UTC, so that a local day is not a UTC day: the
   * budget goes by the person's day. */
  g_setenv ("TZ", "STW-10", TRUE);

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/steward/sampling-broker/deny", test_deny);
  g_test_add_func ("/steward/sampling-broker/ask", test_ask);
  g_test_add_func ("/steward/sampling-broker/continue-invalid", test_continue_invalid);
  g_test_add_func ("/steward/sampling-broker/reject", test_reject);
  g_test_add_func ("/steward/sampling-broker/always", test_always);
  g_test_add_func ("/steward/sampling-broker/invalid-params", test_invalid_params);
  g_test_add_func ("/steward/sampling-broker/rate-limit", test_rate_limit);
  g_test_add_func ("/steward/sampling-broker/queue", test_queue);
  g_test_add_func ("/steward/sampling-broker/clamp", test_clamp);
  g_test_add_func ("/steward/sampling-broker/budget", test_budget);
  g_test_add_func ("/steward/sampling-broker/cancel", test_cancel);
  g_test_add_func ("/steward/sampling-broker/provider", test_provider);
  g_test_add_func ("/steward/sampling-broker/elicit", test_elicit);
  g_test_add_func ("/steward/sampling-broker/elicit-url", test_elicit_url);
  g_test_add_func ("/steward/sampling-broker/elicit-invalid", test_elicit_invalid);
  g_test_add_func ("/steward/sampling-broker/elicit-limits", test_elicit_limits);
  g_test_add_func ("/steward/sampling-broker/policies-round-trip", test_policies_round_trip);
  g_test_add_func ("/steward/sampling-broker/policies-damaged", test_policies_damaged);
  g_test_add_func ("/steward/sampling-broker/policy-strings", test_policy_strings);
  g_test_add_func ("/steward/sampling-broker/journal", test_journal);
  g_test_add_func ("/steward/sampling-broker/journal-redacted", test_journal_redacted);
  g_test_add_func ("/steward/sampling-broker/budget-restart", test_budget_restart);
  g_test_add_func ("/steward/sampling-broker/budget-spent-before-start",
                   test_budget_spent_before_start);
  g_test_add_func ("/steward/sampling-broker/models-choice", test_models_choice);
  g_test_add_func ("/steward/sampling-broker/models-stream", test_models_stream);
  g_test_add_func ("/steward/sampling-broker/models-picked", test_models_picked);
  g_test_add_func ("/steward/sampling-broker/models-regenerate", test_models_regenerate);
  g_test_add_func ("/steward/sampling-broker/models-error", test_models_error);
  g_test_add_func ("/steward/sampling-broker/models-estimate", test_models_estimate);
  g_test_add_func ("/steward/sampling-broker/models-tools", test_models_tools);
  g_test_add_func ("/steward/sampling-broker/tool-messages-invalid", test_tool_messages_invalid);
  g_test_add_func ("/steward/sampling-broker/tool-loop-limit", test_tool_loop_limit);
  g_test_add_func ("/steward/sampling-broker/include-context", test_include_context);
  g_test_add_func ("/steward/sampling-broker/policies-models", test_policies_models);

  return g_test_run ();
}

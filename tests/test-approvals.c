/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-approvals"

#include "config.h"

#include <gio/gio.h>

#include "steward-approvals.h"

typedef struct {
  guint position;
  guint removed;
  guint added;
} Change;

typedef struct {
  GArray          *changes;
  guint            added;
  StewardApproval *last_added;
  guint            n_items_notified;
} ListLog;

static void
items_changed_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  ListLog    *log)
{
  Change change = { position, removed, added };

  g_array_append_val (log->changes, change);
}

static void
added_cb (StewardApprovals *approvals,
          StewardApproval  *approval,
          ListLog          *log)
{
  /* The list already holds it when "added" runs. */
  g_assert_true (steward_approvals_get_first (approvals) != NULL);
  log->added++;
  log->last_added = approval;
}

static void
n_items_cb (GObject    *object,
            GParamSpec *pspec,
            ListLog    *log)
{
  log->n_items_notified++;
}

static void
assert_change (ListLog *log,
               guint    index,
               guint    position,
               guint    removed,
               guint    added)
{
  Change *change;

  g_assert_cmpuint (index, <, log->changes->len);
  change = &g_array_index (log->changes, Change, index);
  g_assert_cmpuint (change->position, ==, position);
  g_assert_cmpuint (change->removed, ==, removed);
  g_assert_cmpuint (change->added, ==, added);
}

static JsonObject *
parse_object (const char *text)
{
  g_autoptr(JsonNode) node = json_from_string (text, NULL);

  g_assert_nonnull (node);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  return json_object_ref (json_node_get_object (node));
}

static void
test_add_and_finish (void)
{
  StewardApprovals *approvals = steward_approvals_new ();
  ListLog log = { g_array_new (FALSE, FALSE, sizeof (Change)), 0, NULL, 0 };
  StewardApproval *consent = steward_approval_new (STEWARD_APPROVAL_KIND_CONSENT, "files", NULL);
  StewardApproval *sampling = steward_approval_new (STEWARD_APPROVAL_KIND_SAMPLING, "everything",
                                                    NULL);
  StewardApproval *elicitation = steward_approval_new (STEWARD_APPROVAL_KIND_ELICITATION,
                                                       "everything", NULL);
  g_autoptr(StewardApproval) item = NULL;

  g_signal_connect (approvals, "items-changed", G_CALLBACK (items_changed_cb), &log);
  g_signal_connect (approvals, "added", G_CALLBACK (added_cb), &log);
  g_signal_connect (approvals, "notify::n-items", G_CALLBACK (n_items_cb), &log);

  g_assert_true (g_list_model_get_item_type (G_LIST_MODEL (approvals)) == STEWARD_TYPE_APPROVAL);
  g_assert_null (steward_approvals_get_first (approvals));

  steward_approvals_add (approvals, consent);
  steward_approvals_add (approvals, sampling);
  steward_approvals_add (approvals, elicitation);
  /* Adding one twice changes nothing. */
  steward_approvals_add (approvals, sampling);

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (approvals)), ==, 3);
  g_assert_cmpuint (log.changes->len, ==, 3);
  assert_change (&log, 0, 0, 0, 1);
  assert_change (&log, 1, 1, 0, 1);
  assert_change (&log, 2, 2, 0, 1);
  g_assert_cmpuint (log.added, ==, 3);
  g_assert_true (log.last_added == elicitation);
  g_assert_cmpuint (log.n_items_notified, ==, 3);

  /* Oldest first. */
  g_assert_true (steward_approvals_get_first (approvals) == consent);
  item = g_list_model_get_item (G_LIST_MODEL (approvals), 1);
  g_assert_true (item == sampling);
  g_assert_null (g_list_model_get_item (G_LIST_MODEL (approvals), 3));

  g_assert_cmpuint (steward_approvals_count_for (approvals, STEWARD_APPROVAL_KIND_SAMPLING,
                                                 "everything"), ==, 1);
  g_assert_cmpuint (steward_approvals_count_for (approvals, STEWARD_APPROVAL_KIND_SAMPLING,
                                                 "files"), ==, 0);
  g_assert_cmpuint (steward_approvals_count_for (approvals, STEWARD_APPROVAL_KIND_CONSENT,
                                                 NULL), ==, 1);

  /* A step that does not end the approval keeps it in the list. */
  steward_approval_respond (sampling, STEWARD_APPROVAL_ACTION_CONTINUE, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (approvals)), ==, 3);
  g_assert_cmpuint (log.changes->len, ==, 3);

  /* Finishing one in the middle removes just that one. */
  steward_approval_respond (sampling, STEWARD_APPROVAL_ACTION_REJECT, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (approvals)), ==, 2);
  g_assert_cmpuint (log.changes->len, ==, 4);
  assert_change (&log, 3, 1, 1, 0);
  g_assert_cmpuint (steward_approvals_count_for (approvals, STEWARD_APPROVAL_KIND_SAMPLING,
                                                 NULL), ==, 0);

  steward_approval_respond (consent, STEWARD_APPROVAL_ACTION_ALLOW, NULL);
  assert_change (&log, 4, 0, 1, 0);
  g_assert_true (steward_approvals_get_first (approvals) == elicitation);

  steward_approval_respond (elicitation, STEWARD_APPROVAL_ACTION_DECLINE, NULL);
  assert_change (&log, 5, 0, 1, 0);
  g_assert_null (steward_approvals_get_first (approvals));
  g_assert_cmpuint (log.n_items_notified, ==, 6);

  g_array_unref (log.changes);
  g_clear_object (&item);
  g_assert_finalize_object (consent);
  g_assert_finalize_object (sampling);
  g_assert_finalize_object (elicitation);
  g_assert_finalize_object (approvals);
}

/* The list lets go of what it holds when it goes first. */
static void
test_dispose_with_items (void)
{
  StewardApprovals *approvals = steward_approvals_new ();
  StewardApproval *approval = steward_approval_new (STEWARD_APPROVAL_KIND_CONSENT, "files", NULL);

  steward_approvals_add (approvals, approval);
  g_assert_finalize_object (approvals);

  /* No handler is left behind on the approval. */
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_DENY, NULL);
  g_assert_true (steward_approval_get_finished (approval));
  g_assert_finalize_object (approval);
}

typedef struct {
  guint                  count;
  StewardApprovalAction  action;
  JsonObject            *data;
  gboolean               finished_when_emitted;
  guint                  finished_notified;
} RespondLog;

static void
responded_cb (StewardApproval       *approval,
              StewardApprovalAction  action,
              JsonObject            *data,
              RespondLog            *log)
{
  log->count++;
  log->action = action;
  g_clear_pointer (&log->data, json_object_unref);
  if (data != NULL)
    log->data = json_object_ref (data);
  log->finished_when_emitted = log->finished_notified > 0;
}

static void
finished_cb (GObject    *object,
             GParamSpec *pspec,
             RespondLog *log)
{
  log->finished_notified++;
}

static void
test_responded (void)
{
  g_autoptr(JsonObject) request = parse_object ("{\"messages\": [], \"maxTokens\": 10}");
  g_autoptr(JsonObject) edited = parse_object ("{\"messages\": [], \"maxTokens\": 5}");
  g_autoptr(JsonObject) result = parse_object ("{\"role\": \"assistant\"}");
  StewardApproval *approval = steward_approval_new (STEWARD_APPROVAL_KIND_SAMPLING, "everything",
                                                    request);
  RespondLog log = { 0, };

  g_signal_connect (approval, "responded", G_CALLBACK (responded_cb), &log);
  g_signal_connect (approval, "notify::finished", G_CALLBACK (finished_cb), &log);

  g_assert_true (steward_approval_get_request (approval) == request);
  g_assert_cmpint (steward_approval_get_kind (approval), ==, STEWARD_APPROVAL_KIND_SAMPLING);
  g_assert_cmpstr (steward_approval_get_server (approval), ==, "everything");
  g_assert_cmpint (steward_approval_get_stage (approval), ==, STEWARD_APPROVAL_STAGE_REQUEST);
  g_assert_cmpint (steward_approval_get_created (approval), >, 0);
  g_assert_cmpint (steward_approval_get_created (approval), <=, g_get_real_time ());

  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_CONTINUE, edited);
  g_assert_cmpuint (log.count, ==, 1);
  g_assert_cmpint (log.action, ==, STEWARD_APPROVAL_ACTION_CONTINUE);
  g_assert_true (log.data == edited);
  g_assert_false (steward_approval_get_finished (approval));
  g_assert_cmpuint (log.finished_notified, ==, 0);

  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_REGENERATE, NULL);
  g_assert_cmpuint (log.count, ==, 2);
  g_assert_null (log.data);
  g_assert_false (steward_approval_get_finished (approval));

  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_SEND, result);
  g_assert_cmpuint (log.count, ==, 3);
  g_assert_cmpint (log.action, ==, STEWARD_APPROVAL_ACTION_SEND);
  g_assert_true (log.data == result);
  /* "responded" comes first, then "finished". */
  g_assert_false (log.finished_when_emitted);
  g_assert_true (steward_approval_get_finished (approval));
  g_assert_cmpuint (log.finished_notified, ==, 1);

  /* A second answer is ignored. */
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_REJECT, NULL);
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_CONTINUE, NULL);
  steward_approval_withdraw (approval);
  g_assert_cmpuint (log.count, ==, 3);
  g_assert_cmpint (log.action, ==, STEWARD_APPROVAL_ACTION_SEND);
  g_assert_cmpuint (log.finished_notified, ==, 1);
  g_assert_false (steward_approval_get_withdrawn (approval));

  g_clear_pointer (&log.data, json_object_unref);
  g_assert_finalize_object (approval);
}

static void
count_cb (GObject    *object,
          GParamSpec *pspec,
          guint      *count)
{
  (*count)++;
}

static void
test_withdraw (void)
{
  StewardApprovals *approvals = steward_approvals_new ();
  StewardApproval *approval = steward_approval_new (STEWARD_APPROVAL_KIND_ELICITATION, "files",
                                                    NULL);
  RespondLog log = { 0, };
  guint withdrawn_notified = 0;

  g_signal_connect (approval, "responded", G_CALLBACK (responded_cb), &log);
  g_signal_connect (approval, "notify::finished", G_CALLBACK (finished_cb), &log);
  g_signal_connect (approval, "notify::withdrawn", G_CALLBACK (count_cb), &withdrawn_notified);
  steward_approvals_add (approvals, approval);

  steward_approval_withdraw (approval);
  g_assert_cmpuint (withdrawn_notified, ==, 1);
  g_assert_true (steward_approval_get_withdrawn (approval));
  g_assert_cmpuint (log.count, ==, 1);
  g_assert_cmpint (log.action, ==, STEWARD_APPROVAL_ACTION_CANCEL);
  g_assert_null (log.data);
  g_assert_true (steward_approval_get_finished (approval));
  g_assert_cmpuint (log.finished_notified, ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (approvals)), ==, 0);

  steward_approval_withdraw (approval);
  g_assert_cmpuint (log.count, ==, 1);

  g_assert_finalize_object (approvals);
  g_assert_finalize_object (approval);
}

/* A person answering with a cancel is not the server withdrawing. */
static void
test_cancel_is_not_withdraw (void)
{
  StewardApproval *approval = steward_approval_new (STEWARD_APPROVAL_KIND_ELICITATION, "files",
                                                    NULL);

  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_CANCEL, NULL);
  g_assert_true (steward_approval_get_finished (approval));
  g_assert_false (steward_approval_get_withdrawn (approval));
  g_assert_finalize_object (approval);
}

static void
count_notify_cb (GObject    *object,
                 GParamSpec *pspec,
                 GHashTable *counts)
{
  guint count = GPOINTER_TO_UINT (g_hash_table_lookup (counts, pspec->name));

  g_hash_table_insert (counts, (gpointer) pspec->name, GUINT_TO_POINTER (count + 1));
}

static guint
notified (GHashTable *counts,
          const char *name)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (counts, name));
}

static void
test_properties (void)
{
  g_autoptr(GHashTable) counts = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(JsonObject) request = parse_object ("{\"maxTokens\": 4096}");
  StewardApproval *approval = steward_approval_new (STEWARD_APPROVAL_KIND_SAMPLING, "everything",
                                                    NULL);
  g_autofree char *model = NULL;
  g_autofree char *answer = NULL;
  StewardApprovalStage stage;
  gboolean generating;

  g_signal_connect (approval, "notify", G_CALLBACK (count_notify_cb), counts);

  steward_approval_set_cause (approval, "tool call `trigger-sampling-request`");
  steward_approval_set_cause (approval, "tool call `trigger-sampling-request`");
  g_assert_cmpstr (steward_approval_get_cause (approval), ==,
                   "tool call `trigger-sampling-request`");
  g_assert_cmpuint (notified (counts, "cause"), ==, 1);

  steward_approval_set_model (approval, "manual", "No model is configured.");
  steward_approval_set_model (approval, "manual", "No model is configured.");
  g_assert_cmpstr (steward_approval_get_model (approval), ==, "manual");
  g_assert_cmpstr (steward_approval_get_model_reason (approval), ==, "No model is configured.");
  g_assert_cmpuint (notified (counts, "model"), ==, 1);
  g_assert_cmpuint (notified (counts, "model-reason"), ==, 1);

  steward_approval_set_policy_text (approval, "Ask every time");
  g_assert_cmpstr (steward_approval_get_policy_text (approval), ==, "Ask every time");
  g_assert_cmpuint (notified (counts, "policy-text"), ==, 1);

  steward_approval_set_request (approval, request);
  steward_approval_set_request (approval, request);
  g_assert_true (steward_approval_get_request (approval) == request);
  g_assert_cmpuint (notified (counts, "request"), ==, 1);

  steward_approval_set_max_tokens_requested (approval, 100000);
  g_assert_cmpuint (steward_approval_get_max_tokens_requested (approval), ==, 100000);
  g_assert_cmpuint (notified (counts, "max-tokens-requested"), ==, 1);

  steward_approval_set_stage (approval, STEWARD_APPROVAL_STAGE_RESPONSE);
  steward_approval_set_stage (approval, STEWARD_APPROVAL_STAGE_RESPONSE);
  g_assert_cmpint (steward_approval_get_stage (approval), ==, STEWARD_APPROVAL_STAGE_RESPONSE);
  g_assert_cmpuint (notified (counts, "stage"), ==, 1);

  g_assert_cmpstr (steward_approval_get_answer_text (approval), ==, "");
  steward_approval_set_generating (approval, TRUE);
  steward_approval_append_answer (approval, "Forty");
  steward_approval_append_answer (approval, "");
  steward_approval_append_answer (approval, "-two");
  g_assert_cmpstr (steward_approval_get_answer_text (approval), ==, "Forty-two");
  g_assert_cmpuint (notified (counts, "answer-text"), ==, 2);
  steward_approval_set_answer_text (approval, NULL);
  g_assert_cmpstr (steward_approval_get_answer_text (approval), ==, "");
  g_assert_cmpuint (notified (counts, "answer-text"), ==, 3);

  g_assert_true (steward_approval_get_generating (approval));
  steward_approval_set_generating (approval, TRUE);
  g_assert_cmpuint (notified (counts, "generating"), ==, 1);

  steward_approval_set_error_text (approval, "The provider is unreachable.");
  g_assert_cmpstr (steward_approval_get_error_text (approval), ==,
                   "The provider is unreachable.");
  steward_approval_set_error_text (approval, NULL);
  g_assert_null (steward_approval_get_error_text (approval));
  g_assert_cmpuint (notified (counts, "error-text"), ==, 2);

  /* Properties read the same as the getters, for bindings in the UI. */
  g_object_get (approval,
                "stage", &stage,
                "model", &model,
                "answer-text", &answer,
                "generating", &generating,
                NULL);
  g_assert_cmpint (stage, ==, STEWARD_APPROVAL_STAGE_RESPONSE);
  g_assert_cmpstr (model, ==, "manual");
  g_assert_cmpstr (answer, ==, "");
  g_assert_true (generating);

  /* Finishing stops the generating spinner. */
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_REJECT, NULL);
  g_assert_false (steward_approval_get_generating (approval));
  g_assert_cmpuint (notified (counts, "finished"), ==, 1);

  g_assert_finalize_object (approval);
}

static void
test_enums (void)
{
  g_autoptr(GEnumClass) kinds = g_type_class_ref (STEWARD_TYPE_APPROVAL_KIND);
  g_autoptr(GEnumClass) stages = g_type_class_ref (STEWARD_TYPE_APPROVAL_STAGE);
  g_autoptr(GEnumClass) actions = g_type_class_ref (STEWARD_TYPE_APPROVAL_ACTION);

  g_assert_cmpint (g_enum_get_value_by_nick (kinds, "elicitation")->value, ==,
                   STEWARD_APPROVAL_KIND_ELICITATION);
  g_assert_cmpint (g_enum_get_value_by_nick (stages, "response")->value, ==,
                   STEWARD_APPROVAL_STAGE_RESPONSE);
  g_assert_cmpint (g_enum_get_value_by_nick (actions, "regenerate")->value, ==,
                   STEWARD_APPROVAL_ACTION_REGENERATE);
  g_assert_cmpuint (actions->n_values, ==, 9);

  g_assert_false (steward_approval_action_is_final (STEWARD_APPROVAL_ACTION_CONTINUE));
  g_assert_false (steward_approval_action_is_final (STEWARD_APPROVAL_ACTION_REGENERATE));
  g_assert_true (steward_approval_action_is_final (STEWARD_APPROVAL_ACTION_SEND));
  g_assert_true (steward_approval_action_is_final (STEWARD_APPROVAL_ACTION_CANCEL));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/steward/approvals/add-and-finish", test_add_and_finish);
  g_test_add_func ("/steward/approvals/dispose-with-items", test_dispose_with_items);
  g_test_add_func ("/steward/approvals/responded", test_responded);
  g_test_add_func ("/steward/approvals/withdraw", test_withdraw);
  g_test_add_func ("/steward/approvals/cancel-is-not-withdraw", test_cancel_is_not_withdraw);
  g_test_add_func ("/steward/approvals/properties", test_properties);
  g_test_add_func ("/steward/approvals/enums", test_enums);

  return g_test_run ();
}

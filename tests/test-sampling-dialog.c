/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <string.h>
#include <json-glib/json-glib.h>

#include "steward-approval.h"
#include "steward-sampling-dialog-private.h"
#include "steward-sampling-dialog.h"

/* A 1×1 PNG. */
#define PNG_BASE64 "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwAD" \
                   "hgGAWjR9awAAAABJRU5ErkJggg=="

typedef struct {
  guint                 count;
  StewardApprovalAction action;
  JsonObject           *data;
} Responses;

static void
responses_clear (Responses *responses)
{
  g_clear_pointer (&responses->data, json_object_unref);
}

static void
responded_cb (StewardApproval       *approval,
              StewardApprovalAction  action,
              JsonObject            *data,
              Responses             *responses)
{
  responses->count++;
  responses->action = action;
  g_clear_pointer (&responses->data, json_object_unref);
  if (data != NULL)
    responses->data = json_object_ref (data);
}

static JsonObject *
parse_object (const char *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = json_from_string (json, &error);

  g_assert_no_error (error);
  return json_object_ref (json_node_get_object (node));
}

static StewardApproval *
approval_new (const char *params_json)
{
  g_autoptr(JsonObject) params = parse_object (params_json);

  return steward_approval_new (STEWARD_APPROVAL_KIND_SAMPLING, "everything", params);
}

static StewardSamplingDialog *
dialog_new (StewardApproval *approval)
{
  GtkWidget *dialog = steward_sampling_dialog_new (approval);

  /* GTK owns toplevels; the test keeps its own reference to check that
   * the dialog goes away. */
  g_object_ref (dialog);
  gtk_window_present (GTK_WINDOW (dialog));
  return STEWARD_SAMPLING_DIALOG (dialog);
}

static gboolean
timeout_cb (gpointer data)
{
  gboolean *timed_out = data;

  *timed_out = TRUE;
  return G_SOURCE_REMOVE;
}

typedef gboolean (*Condition) (gpointer data);

static void
wait_for (Condition condition,
          gpointer  data)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add_seconds (10, timeout_cb, &timed_out);

  while (!condition (data) && !timed_out)
    g_main_context_iteration (NULL, TRUE);

  g_assert_false (timed_out);
  g_source_remove (id);
}

typedef struct {
  Responses *responses;
  guint      count;
} Awaited;

static gboolean
responded_again (gpointer data)
{
  Awaited *awaited = data;

  return awaited->responses->count > awaited->count;
}

/* Activates @button as the keyboard does (GTK clicks it once its pressed
 * look has shown) and waits for the approval to hear about it. */
static void
press (GtkWidget *button,
       Responses *responses)
{
  Awaited awaited = { responses, responses->count };

  g_assert_true (gtk_widget_get_sensitive (button));
  gtk_widget_activate (button);
  wait_for (responded_again, &awaited);
}

static gboolean
window_gone (gpointer data)
{
  return !gtk_widget_get_visible (GTK_WIDGET (data));
}

/* Lets idle work (animations, decoding) settle before the objects are
 * checked for finalization. */
static void
drain (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static void
finish (StewardSamplingDialog *dialog,
        StewardApproval       *approval)
{
  if (gtk_widget_get_visible (GTK_WIDGET (dialog)))
    gtk_window_destroy (GTK_WINDOW (dialog));
  drain ();
  g_assert_finalize_object (dialog);
  g_assert_finalize_object (approval);
}

static const char *
subtitle (StewardSamplingDialog *dialog,
          const char            *row)
{
  return adw_action_row_get_subtitle (steward_sampling_dialog_get_row (dialog, row));
}

static const char *
title (StewardSamplingDialog *dialog,
       const char            *row)
{
  AdwActionRow *action_row = steward_sampling_dialog_get_row (dialog, row);

  return adw_preferences_row_get_title (ADW_PREFERENCES_ROW (action_row));
}

static GtkWidget *
button (StewardSamplingDialog *dialog,
        const char            *name)
{
  return steward_sampling_dialog_get_button (dialog, name);
}

static char *
buffer_text (GtkTextView *view)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

static void
set_buffer (GtkTextView *view,
            const char  *text)
{
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (view), text, -1);
}

static const char *
message_text (JsonObject *params,
              guint       message,
              int         block)
{
  JsonArray *messages = json_object_get_array_member (params, "messages");
  JsonObject *object = json_array_get_object_element (messages, message);

  if (block < 0)
    object = json_object_get_object_member (object, "content");
  else
    object = json_array_get_object_element (json_object_get_array_member (object, "content"),
                                            block);

  return json_object_get_string_member (object, "text");
}

static const char *const CONVERSATION =
  "{\"messages\":["
  "{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":\"What is 2+2?\"}},"
  "{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"Let me think.\"}]},"
  "{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":\"Answer briefly.\"}}],"
  "\"systemPrompt\":\"You are helpful.\",\"maxTokens\":100,\"temperature\":0.5,"
  "\"stopSequences\":[\"END\"],\"includeContext\":\"thisServer\","
  "\"modelPreferences\":{\"hints\":[{\"name\":\"claude\"},{\"name\":\"gpt\"}],"
  "\"costPriority\":0.25}}";

static void
test_continue_and_send (void)
{
  StewardApproval *approval = approval_new (CONVERSATION);
  StewardSamplingDialog *dialog;
  Responses responses = { 0 };
  GtkWidget *send;
  JsonObject *content;

  steward_approval_set_cause (approval, "tool call `sampleLLM`");
  steward_approval_set_model (approval, "llama3", "The only model set up");
  steward_approval_set_policy_text (approval, "Ask every time");
  g_signal_connect (approval, "responded", G_CALLBACK (responded_cb), &responses);

  dialog = dialog_new (approval);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (dialog)), ==,
                   "Sampling Request from “everything”");
  g_assert_cmpstr (steward_sampling_dialog_get_stage_name (dialog), ==, "request");
  g_assert_true (gtk_window_get_modal (GTK_WINDOW (dialog)));
  g_assert_cmpstr (gtk_label_get_text (steward_sampling_dialog_get_cause_label (dialog)), ==,
                   "Asked during: tool call `sampleLLM`");
  g_assert_cmpstr (title (dialog, "model"),
                   ==, "llama3");
  g_assert_cmpstr (subtitle (dialog, "model"),
                   ==, "The only model set up");
  g_assert_cmpstr (subtitle (dialog, "policy"),
                   ==, "Ask every time");
  g_assert_cmpstr (subtitle (dialog, "max-tokens"),
                   ==, "100");
  g_assert_cmpstr (subtitle (dialog, "stop-sequences"),
                   ==, "“END”");
  g_assert_cmpstr (subtitle (dialog, "context"),
                   ==, "This server: context from this server (none is shared in this version)");
  g_assert_cmpstr (subtitle (dialog, "preferences"),
                   ==, "Hints: claude, gpt\nPriorities: cost 0.25");
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (steward_sampling_dialog_get_row (dialog,
                                                                                       "tools"))));
  g_assert_true (gtk_window_get_default_widget (GTK_WINDOW (dialog)) ==
                 button (dialog, "continue"));
  g_assert_nonnull (steward_sampling_dialog_get_text_view (dialog, 2));
  g_assert_null (steward_sampling_dialog_get_text_view (dialog, 3));

  /* The person edits the first message and the system prompt. */
  set_buffer (steward_sampling_dialog_get_text_view (dialog, 0), "What is 3+3?");
  set_buffer (steward_sampling_dialog_get_system_view (dialog), "Be terse.");
  press (button (dialog, "continue"), &responses);

  g_assert_cmpuint (responses.count, ==, 1);
  g_assert_cmpint (responses.action, ==, STEWARD_APPROVAL_ACTION_CONTINUE);
  g_assert_nonnull (responses.data);
  g_assert_cmpstr (message_text (responses.data, 0, -1), ==, "What is 3+3?");
  g_assert_cmpstr (message_text (responses.data, 1, 0), ==, "Let me think.");
  g_assert_cmpstr (message_text (responses.data, 2, -1), ==, "Answer briefly.");
  g_assert_cmpstr (json_object_get_string_member (responses.data, "systemPrompt"), ==, "Be terse.");
  g_assert_cmpint (json_object_get_int_member (responses.data, "maxTokens"), ==, 100);
  g_assert_cmpstr (json_object_get_string_member (responses.data, "includeContext"), ==,
                   "thisServer");
  /* The approval's own request is left as the server sent it. */
  g_assert_cmpstr (message_text (steward_approval_get_request (approval), 0, -1), ==,
                   "What is 2+2?");
  /* Continue once only. */
  g_assert_false (gtk_widget_get_sensitive (button (dialog, "continue")));

  /* The broker moves on: the manual provider leaves the answer empty. */
  steward_approval_set_stage (approval, STEWARD_APPROVAL_STAGE_RESPONSE);
  g_assert_cmpstr (steward_sampling_dialog_get_stage_name (dialog), ==, "response");
  send = button (dialog, "send");
  g_assert_true (gtk_widget_get_visible (send));
  g_assert_false (gtk_widget_get_visible (button (dialog, "continue")));
  g_assert_true (gtk_window_get_default_widget (GTK_WINDOW (dialog)) == send);
  g_assert_false (gtk_widget_get_sensitive (send));
  g_assert_true (gtk_widget_get_sensitive (button (dialog, "regenerate")));
  g_assert_true (gtk_text_view_get_editable (steward_sampling_dialog_get_answer_view (dialog)));

  set_buffer (steward_sampling_dialog_get_answer_view (dialog), "6");
  g_assert_true (gtk_widget_get_sensitive (send));
  set_buffer (steward_sampling_dialog_get_answer_view (dialog), "");
  g_assert_false (gtk_widget_get_sensitive (send));
  set_buffer (steward_sampling_dialog_get_answer_view (dialog), "Six.");
  press (send, &responses);

  g_assert_cmpuint (responses.count, ==, 2);
  g_assert_cmpint (responses.action, ==, STEWARD_APPROVAL_ACTION_SEND);
  g_assert_cmpstr (json_object_get_string_member (responses.data, "role"), ==, "assistant");
  g_assert_cmpstr (json_object_get_string_member (responses.data, "model"), ==, "llama3");
  g_assert_cmpstr (json_object_get_string_member (responses.data, "stopReason"), ==, "endTurn");
  content = json_object_get_object_member (responses.data, "content");
  g_assert_cmpstr (json_object_get_string_member (content, "type"), ==, "text");
  g_assert_cmpstr (json_object_get_string_member (content, "text"), ==, "Six.");
  g_assert_true (steward_approval_get_finished (approval));

  /* A finished approval closes its dialog. */
  wait_for (window_gone, dialog);

  responses_clear (&responses);
  finish (dialog, approval);
}

static void
test_reject (void)
{
  StewardApproval *approval = approval_new (CONVERSATION);
  StewardSamplingDialog *dialog;
  Responses responses = { 0 };

  g_signal_connect (approval, "responded", G_CALLBACK (responded_cb), &responses);
  dialog = dialog_new (approval);

  press (button (dialog, "reject"), &responses);
  g_assert_cmpuint (responses.count, ==, 1);
  g_assert_cmpint (responses.action, ==, STEWARD_APPROVAL_ACTION_REJECT);
  g_assert_null (responses.data);
  wait_for (window_gone, dialog);
  g_assert_cmpuint (responses.count, ==, 1);

  finish (dialog, approval);
}

static void
test_close_rejects (void)
{
  StewardApproval *approval = approval_new (CONVERSATION);
  StewardSamplingDialog *dialog;
  Responses responses = { 0 };

  g_signal_connect (approval, "responded", G_CALLBACK (responded_cb), &responses);
  dialog = dialog_new (approval);

  /* Escape and the close button both close the window. */
  gtk_widget_activate_action (GTK_WIDGET (dialog), "window.close", NULL);
  g_assert_cmpuint (responses.count, ==, 1);
  g_assert_cmpint (responses.action, ==, STEWARD_APPROVAL_ACTION_REJECT);
  wait_for (window_gone, dialog);

  finish (dialog, approval);
}

static void
test_generating (void)
{
  StewardApproval *approval = approval_new (CONVERSATION);
  StewardSamplingDialog *dialog;
  Responses responses = { 0 };
  GtkWidget *spinner;
  GtkWidget *send;
  GtkWidget *regenerate;
  GtkLabel *error;
  g_autofree char *text = NULL;

  g_signal_connect (approval, "responded", G_CALLBACK (responded_cb), &responses);
  /* A standing policy skips the first stage: the dialog opens on the
   * answer while it is written. */
  steward_approval_set_model (approval, "llama3", "The only model set up");
  steward_approval_set_stage (approval, STEWARD_APPROVAL_STAGE_RESPONSE);
  steward_approval_set_generating (approval, TRUE);
  dialog = dialog_new (approval);

  spinner = steward_sampling_dialog_get_spinner (dialog);
  send = button (dialog, "send");
  regenerate = button (dialog, "regenerate");
  g_assert_cmpstr (steward_sampling_dialog_get_stage_name (dialog), ==, "response");
  g_assert_true (gtk_widget_is_visible (spinner));
  g_assert_true (gtk_spinner_get_spinning (GTK_SPINNER (spinner)));
  g_assert_false (gtk_widget_get_sensitive (send));
  g_assert_false (gtk_widget_get_sensitive (regenerate));
  g_assert_false (gtk_text_view_get_editable (steward_sampling_dialog_get_answer_view (dialog)));

  steward_approval_append_answer (approval, "Hel");
  steward_approval_append_answer (approval, "lo <b>there</b>");
  text = buffer_text (steward_sampling_dialog_get_answer_view (dialog));
  g_assert_cmpstr (text, ==, "Hello <b>there</b>");
  g_assert_false (gtk_widget_get_sensitive (send));

  steward_approval_set_generating (approval, FALSE);
  g_assert_false (gtk_widget_is_visible (spinner));
  g_assert_true (gtk_widget_get_sensitive (send));
  g_assert_true (gtk_widget_get_sensitive (regenerate));
  g_assert_true (gtk_text_view_get_editable (steward_sampling_dialog_get_answer_view (dialog)));

  error = steward_sampling_dialog_get_error_label (dialog);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (error)));
  steward_approval_set_error_text (approval, "The model said <i>no</i>");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (error)));
  g_assert_cmpstr (gtk_label_get_text (error), ==, "The model said <i>no</i>");
  g_assert_false (gtk_label_get_use_markup (error));

  /* Regenerate is not final: the dialog stays. */
  press (regenerate, &responses);
  g_assert_cmpuint (responses.count, ==, 1);
  g_assert_cmpint (responses.action, ==, STEWARD_APPROVAL_ACTION_REGENERATE);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (dialog)));

  /* The server withdraws: the dialog closes by itself. */
  steward_approval_withdraw (approval);
  g_assert_cmpint (responses.action, ==, STEWARD_APPROVAL_ACTION_CANCEL);
  wait_for (window_gone, dialog);
  g_assert_cmpuint (responses.count, ==, 2);

  responses_clear (&responses);
  finish (dialog, approval);
}

static GtkWidget *
find_picture (GtkWidget *widget)
{
  if (GTK_IS_PICTURE (widget))
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_picture (child);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static gboolean
picture_shown (gpointer data)
{
  return gtk_picture_get_paintable (GTK_PICTURE (data)) != NULL && gtk_widget_get_visible (data);
}

static void
test_image (void)
{
  StewardApproval *approval = approval_new (
    "{\"messages\":[{\"role\":\"user\",\"content\":["
    "{\"type\":\"text\",\"text\":\"What is in this picture?\"},"
    "{\"type\":\"image\",\"data\":\"" PNG_BASE64 "\",\"mimeType\":\"image/png\"}]},"
    "{\"role\":\"assistant\",\"content\":{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"look\","
    "\"input\":{}}}],"
    "\"maxTokens\":50}");
  StewardSamplingDialog *dialog = dialog_new (approval);
  Responses responses = { 0 };
  GtkWidget *picture;

  g_signal_connect (approval, "responded", G_CALLBACK (responded_cb), &responses);

  picture = find_picture (steward_sampling_dialog_get_message_card (dialog, 0));
  g_assert_nonnull (picture);
  wait_for (picture_shown, picture);
  /* The image is not editable text; the one text block is. */
  g_assert_nonnull (steward_sampling_dialog_get_text_view (dialog, 0));
  g_assert_null (steward_sampling_dialog_get_text_view (dialog, 1));
  picture = find_picture (steward_sampling_dialog_get_message_card (dialog, 1));
  g_assert_true (picture == NULL || !gtk_widget_get_visible (picture));

  /* The blocks that are not text go back as they came. */
  press (button (dialog, "continue"), &responses);
  g_assert_cmpint (responses.action, ==, STEWARD_APPROVAL_ACTION_CONTINUE);
  {
    JsonArray *messages = json_object_get_array_member (responses.data, "messages");
    JsonObject *first = json_array_get_object_element (messages, 0);
    JsonArray *blocks = json_object_get_array_member (first, "content");
    JsonObject *image = json_array_get_object_element (blocks, 1);
    JsonObject *second = json_array_get_object_element (messages, 1);
    JsonObject *tool_use = json_object_get_object_member (second, "content");

    g_assert_cmpstr (json_object_get_string_member (image, "data"), ==, PNG_BASE64);
    g_assert_cmpstr (json_object_get_string_member (tool_use, "type"), ==, "tool_use");
    g_assert_false (json_object_has_member (responses.data, "systemPrompt"));
  }

  press (button (dialog, "reject"), &responses);
  wait_for (window_gone, dialog);

  responses_clear (&responses);
  finish (dialog, approval);
}

static void
test_literal_text (void)
{
  StewardApproval *approval = approval_new (
    "{\"messages\":[{\"role\":\"user\",\"content\":{\"type\":\"text\","
    "\"text\":\"<b>bold</b> &amp; hid\\u200bden\"}}],"
    "\"systemPrompt\":\"<span foreground='red'>red</span>\","
    "\"stopSequences\":[\"<b>\"],\"maxTokens\":10}");
  StewardSamplingDialog *dialog;
  Responses responses = { 0 };
  AdwActionRow *stop_row;
  g_autofree char *message = NULL;
  g_autofree char *system = NULL;

  steward_approval_set_cause (approval, "tool call `<i>x</i>`");
  g_signal_connect (approval, "responded", G_CALLBACK (responded_cb), &responses);
  dialog = dialog_new (approval);

  /* Server text is never markup, and hidden characters show. */
  message = buffer_text (steward_sampling_dialog_get_text_view (dialog, 0));
  g_assert_cmpstr (message, ==, "<b>bold</b> &amp; hid⟨U+200B⟩den");
  system = buffer_text (steward_sampling_dialog_get_system_view (dialog));
  g_assert_cmpstr (system, ==, "<span foreground='red'>red</span>");
  g_assert_cmpstr (gtk_label_get_text (steward_sampling_dialog_get_cause_label (dialog)), ==,
                   "Asked during: tool call `<i>x</i>`");
  g_assert_false (gtk_label_get_use_markup (steward_sampling_dialog_get_cause_label (dialog)));
  stop_row = steward_sampling_dialog_get_row (dialog, "stop-sequences");
  g_assert_false (adw_preferences_row_get_use_markup (ADW_PREFERENCES_ROW (stop_row)));
  g_assert_cmpstr (adw_action_row_get_subtitle (stop_row), ==, "“<b>”");

  /* Left as it was, the server's own text goes on, hidden character and
   * all. */
  press (button (dialog, "continue"), &responses);
  g_assert_cmpstr (message_text (responses.data, 0, -1), ==, "<b>bold</b> &amp; hid\u200bden");
  g_assert_cmpstr (json_object_get_string_member (responses.data, "systemPrompt"), ==,
                   "<span foreground='red'>red</span>");

  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_REJECT, NULL);
  wait_for (window_gone, dialog);

  responses_clear (&responses);
  finish (dialog, approval);
}

static void
test_clamp (void)
{
  StewardApproval *approval = approval_new (
    "{\"messages\":[{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":\"Hi\"}}],"
    "\"maxTokens\":4096,\"includeContext\":\"none\"}");
  StewardSamplingDialog *dialog;
  AdwActionRow *row;
  g_autofree char *expected = NULL;

  steward_approval_set_max_tokens_requested (approval, 100000);
  dialog = dialog_new (approval);
  row = steward_sampling_dialog_get_row (dialog, "max-tokens");

  /* Digits are grouped as the locale says; the tests run in C. */
  expected = g_strdup_printf ("%'d (asked for %'d; limited by your settings)", 4096, 100000);
  g_assert_cmpstr (adw_action_row_get_subtitle (row), ==, expected);
  g_assert_cmpstr (subtitle (dialog, "context"),
                   ==, "None: nothing else is included");
  g_assert_cmpstr (subtitle (dialog, "temperature"),
                   ==, "The model’s default");
  g_assert_cmpstr (subtitle (dialog, "stop-sequences"),
                   ==, "None");
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (steward_sampling_dialog_get_row (dialog,
                                                                                       "policy"))));
  g_assert_cmpstr (title (dialog, "model"),
                   ==, "You write the answer");

  gtk_window_close (GTK_WINDOW (dialog));
  finish (dialog, approval);
}

static gboolean
has_height (gpointer data)
{
  return gtk_widget_get_height (GTK_WIDGET (data)) > 0;
}

/* Whether @widget lies wholly inside the first screenful of @dialog's
 * request page, before any scrolling. */
static gboolean
above_the_fold (StewardSamplingDialog *dialog,
                GtkWidget             *widget)
{
  graphene_rect_t bounds;

  g_assert_true (gtk_widget_compute_bounds (widget, GTK_WIDGET (dialog), &bounds));
  return bounds.origin.y + bounds.size.height <= gtk_widget_get_height (GTK_WIDGET (dialog));
}

static void
test_decision (void)
{
  StewardApproval *approval = approval_new (
    "{\"messages\":["
    "{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":\"What is in this picture?\"}},"
    "{\"role\":\"user\",\"content\":[{\"type\":\"image\",\"data\":\"" PNG_BASE64 "\","
    "\"mimeType\":\"image/png\"}]}],"
    "\"maxTokens\":900,\"includeContext\":\"allServers\","
    "\"_steward\":{\"includeContext\":\"Steward shares none.\"}}");
  g_autoptr(JsonArray) choices = json_array_new ();
  g_autoptr(JsonObject) remote = json_object_new ();
  g_autoptr(JsonObject) local = json_object_new ();
  static const char * const first[] = { "model", "sent", "estimate", "policy" };
  StewardSamplingDialog *dialog;
  Responses responses = { 0 };
  AdwExpanderRow *parameters;
  GtkDropDown *dropdown;

  json_object_set_string_member (remote, "id", "anthropic/claude-sonnet-4");
  json_object_set_string_member (remote, "provider", "anthropic");
  json_object_set_boolean_member (remote, "local", FALSE);
  json_object_set_string_member (local, "id", "ollama/qwen2.5:7b");
  json_object_set_string_member (local, "provider", "ollama");
  json_object_set_boolean_member (local, "local", TRUE);
  json_array_add_object_element (choices, json_object_ref (remote));
  json_array_add_object_element (choices, json_object_ref (local));

  steward_approval_set_cause (approval, "tool call `describe`");
  steward_approval_set_model (approval, "anthropic/claude-sonnet-4", "“claude” was asked for");
  steward_approval_set_model_choices (approval, choices);
  steward_approval_set_budget (approval, 1000, 400);
  steward_approval_set_policy_text (approval, "Ask every time");
  g_signal_connect (approval, "responded", G_CALLBACK (responded_cb), &responses);

  dialog = dialog_new (approval);
  wait_for (has_height, dialog);

  /* Who asks, who answers and why, what leaves and what it costs come
   * first, on the first screen; the parameters wait, folded. */
  g_assert_true (above_the_fold (dialog,
                                 GTK_WIDGET (steward_sampling_dialog_get_cause_label (dialog))));
  for (guint i = 0; i < G_N_ELEMENTS (first); i++)
    {
      AdwActionRow *row = steward_sampling_dialog_get_row (dialog, first[i]);

      g_assert_true (above_the_fold (dialog, GTK_WIDGET (row)));
    }
  parameters = steward_sampling_dialog_get_parameters_row (dialog);
  g_assert_false (adw_expander_row_get_expanded (parameters));
  g_assert_false (gtk_widget_get_mapped (
    GTK_WIDGET (steward_sampling_dialog_get_row (dialog, "max-tokens"))));

  g_assert_cmpstr (subtitle (dialog, "model"), ==, "“claude” was asked for");
  g_assert_cmpstr (subtitle (dialog, "sent"), ==,
                   "2 messages, 1 image or sound among them. They leave this computer for "
                   "“anthropic”.\nSteward shares none.");
  /* 24 characters of text and the picture's 96, about 4 a token; 400 of
   * 1000 used, so 900 more might not fit. */
  g_assert_cmpstr (subtitle (dialog, "estimate"), ==,
                   "About 30 to send, and up to 900 for the answer.\n"
                   "This server has used 400 of its 1000 tokens today. "
                   "This request may need more than is left.");
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (steward_sampling_dialog_get_row (dialog,
                                                                                       "estimate")),
                                           "warning"));

  /* The model can be changed right there. */
  dropdown = steward_sampling_dialog_get_model_dropdown (dialog);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (dropdown)));
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (dropdown)), ==, 2);
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 0);
  gtk_drop_down_set_selected (dropdown, 1);
  g_assert_cmpstr (steward_approval_get_model (approval), ==, "ollama/qwen2.5:7b");
  g_assert_cmpstr (title (dialog, "model"), ==, "ollama/qwen2.5:7b");
  g_assert_cmpstr (subtitle (dialog, "model"), ==, "You picked this model.");
  g_assert_nonnull (strstr (subtitle (dialog, "sent"),
                            "They go to “ollama”, which runs on this computer."));

  press (button (dialog, "continue"), &responses);
  g_assert_cmpint (responses.action, ==, STEWARD_APPROVAL_ACTION_CONTINUE);

  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_REJECT, NULL);
  wait_for (window_gone, dialog);
  responses_clear (&responses);
  finish (dialog, approval);
}

/* With no model, the person writes the answer: nothing leaves, and there
 * is nothing to generate again. */
static void
test_manual (void)
{
  StewardApproval *approval = approval_new (CONVERSATION);
  StewardSamplingDialog *dialog;

  steward_approval_set_model (approval, "manual", NULL);
  dialog = dialog_new (approval);

  g_assert_cmpstr (title (dialog, "model"), ==, "You write the answer");
  g_assert_false (gtk_widget_get_visible (
    GTK_WIDGET (steward_sampling_dialog_get_model_dropdown (dialog))));
  g_assert_nonnull (strstr (subtitle (dialog, "sent"),
                            "Nothing leaves this computer."));
  /* No budget known: only the estimate. */
  g_assert_cmpstr (subtitle (dialog, "estimate"), ==,
                   "About 14 to send, and up to 100 for the answer.");

  steward_approval_set_stage (approval, STEWARD_APPROVAL_STAGE_RESPONSE);
  g_assert_cmpstr (steward_sampling_dialog_get_stage_name (dialog), ==, "response");
  g_assert_true (gtk_widget_get_visible (button (dialog, "send")));
  g_assert_false (gtk_widget_get_visible (button (dialog, "regenerate")));
  g_assert_true (gtk_widget_get_visible (button (dialog, "reject")));

  gtk_window_close (GTK_WINDOW (dialog));
  finish (dialog, approval);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/steward/sampling-dialog/continue-and-send", test_continue_and_send);
  g_test_add_func ("/steward/sampling-dialog/reject", test_reject);
  g_test_add_func ("/steward/sampling-dialog/close-rejects", test_close_rejects);
  g_test_add_func ("/steward/sampling-dialog/generating", test_generating);
  g_test_add_func ("/steward/sampling-dialog/image", test_image);
  g_test_add_func ("/steward/sampling-dialog/literal-text", test_literal_text);
  g_test_add_func ("/steward/sampling-dialog/clamp", test_clamp);
  g_test_add_func ("/steward/sampling-dialog/decision", test_decision);
  g_test_add_func ("/steward/sampling-dialog/manual", test_manual);

  return g_test_run ();
}

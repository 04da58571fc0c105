/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "steward-approval.h"
#include "steward-approval-dialog.h"
#include "steward-consent-dialog.h"
#include "steward-elicitation-dialog-private.h"
#include "steward-elicitation-dialog.h"
#include "steward-sampling-dialog.h"
#include "steward-schema-form-private.h"
#include "steward-tool-approval-dialog.h"

#include "test-widgets.h"

/* What every dialog on StewardApprovalDialog shares: closing answers once
 * (or, for consent, not at all), and none opens with a label's text
 * selected. And the elicitation dialog's pointers to what needs fixing. */

typedef struct {
  guint                 count;
  StewardApprovalAction action;
} Responses;

static void
responded_cb (StewardApproval       *approval,
              StewardApprovalAction  action,
              JsonObject            *data,
              Responses             *responses)
{
  responses->count++;
  responses->action = action;
}

static JsonObject *
parse_object (const char *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = json_from_string (json, &error);

  g_assert_no_error (error);
  return json_object_ref (json_node_get_object (node));
}

typedef struct {
  const char          *name;
  StewardApprovalKind  kind;
  const char          *request;
  /* What closing answers; -1 for nothing. */
  int                  dismiss;
} Kind;

static const Kind kinds[] = {
  { "sampling", STEWARD_APPROVAL_KIND_SAMPLING,
    "{\"messages\": [{\"role\": \"user\", \"content\": {\"type\": \"text\", \"text\": \"Hi\"}}],"
    " \"systemPrompt\": \"Be brief.\", \"maxTokens\": 100}",
    STEWARD_APPROVAL_ACTION_REJECT },
  { "elicitation", STEWARD_APPROVAL_KIND_ELICITATION,
    "{\"mode\": \"form\", \"message\": \"Who are you?\","
    " \"requestedSchema\": {\"type\": \"object\","
    "   \"properties\": {\"name\": {\"type\": \"string\", \"title\": \"Name\"}},"
    "   \"required\": [\"name\"]}}",
    STEWARD_APPROVAL_ACTION_CANCEL },
  { "elicitation-url", STEWARD_APPROVAL_KIND_ELICITATION,
    "{\"mode\": \"url\", \"message\": \"Sign in, please.\","
    " \"url\": \"https://paypal.com@evil.example/x\", \"elicitationId\": \"e1\"}",
    STEWARD_APPROVAL_ACTION_CANCEL },
  { "tool-approval", STEWARD_APPROVAL_KIND_TOOL_CALL,
    "{\"server\": \"files\", \"tool\": \"write_file\", \"arguments\": {\"path\": \"/tmp/a\"},"
    " \"definition\": {\"name\": \"write_file\", \"title\": \"Write a File\","
    "   \"description\": \"Writes a file.\","
    "   \"inputSchema\": {\"type\": \"object\","
    "     \"properties\": {\"path\": {\"type\": \"string\"}}}},"
    " \"pinState\": \"approved\"}",
    STEWARD_APPROVAL_ACTION_DENY },
  { "consent", STEWARD_APPROVAL_KIND_CONSENT,
    "{\"command\": \"/usr/bin/node\", \"args\": [\"server.js\"], \"cwd\": \"/srv\"}",
    -1 },
};

static StewardApproval *
approval_new (const Kind *kind,
              Responses  *responses)
{
  g_autoptr(JsonObject) request = parse_object (kind->request);
  StewardApproval *approval = steward_approval_new (kind->kind, "files", request);

  /* Shown in a label one can select, in the sampling dialog. */
  steward_approval_set_cause (approval, "tool call `ask`");
  g_signal_connect (approval, "responded", G_CALLBACK (responded_cb), responses);
  return approval;
}

static GtkWidget *
dialog_new (StewardApproval *approval)
{
  GtkWidget *dialog = NULL;

  switch (steward_approval_get_kind (approval))
    {
    case STEWARD_APPROVAL_KIND_SAMPLING:
      dialog = steward_sampling_dialog_new (approval);
      break;
    case STEWARD_APPROVAL_KIND_ELICITATION:
      dialog = steward_elicitation_dialog_new (approval);
      break;
    case STEWARD_APPROVAL_KIND_TOOL_CALL:
      dialog = steward_tool_approval_dialog_new (approval, NULL);
      break;
    case STEWARD_APPROVAL_KIND_CONSENT:
      dialog = steward_consent_dialog_new (approval);
      break;
    default:
      g_assert_not_reached ();
    }

  g_assert_true (STEWARD_IS_APPROVAL_DIALOG (dialog));
  g_assert_true (steward_approval_dialog_get_approval (STEWARD_APPROVAL_DIALOG (dialog)) ==
                 approval);

  /* Held here so that the test can check it is finalized once closed. */
  g_object_ref (dialog);
  gtk_window_present (GTK_WINDOW (dialog));
  return dialog;
}

static gboolean
is_mapped (gpointer data)
{
  return gtk_widget_get_mapped (GTK_WIDGET (data)) &&
         gtk_window_get_focus (GTK_WINDOW (data)) != NULL;
}

static gboolean
is_gone (gpointer data)
{
  return !gtk_widget_get_visible (GTK_WIDGET (data));
}

static void
test_close_answers_once (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      Responses responses = { 0, };
      StewardApproval *approval = approval_new (&kinds[i], &responses);
      GtkWidget *dialog = dialog_new (approval);

      g_test_message ("%s", kinds[i].name);
      test_wait_until (is_mapped, dialog, 10000);

      /* Escape is closing, and closing is the kind's dismiss action. */
      gtk_widget_activate_action (dialog, "window.close", NULL);
      test_wait_until (is_gone, dialog, 10000);

      if (kinds[i].dismiss < 0)
        {
          /* Consent: the server keeps waiting, and its row offers the
           * command again. */
          g_assert_cmpuint (responses.count, ==, 0);
          g_assert_false (steward_approval_get_finished (approval));
        }
      else
        {
          g_assert_cmpuint (responses.count, ==, 1);
          g_assert_cmpint (responses.action, ==, kinds[i].dismiss);
          g_assert_true (steward_approval_get_finished (approval));
        }

      /* Closed again, or answered through the base after all: nothing
       * more reaches the server. */
      gtk_window_close (GTK_WINDOW (dialog));
      if (kinds[i].dismiss >= 0)
        steward_approval_dialog_respond (STEWARD_APPROVAL_DIALOG (dialog),
                                         STEWARD_APPROVAL_ACTION_ACCEPT, NULL);
      test_drain_main_context ();
      g_assert_cmpuint (responses.count, ==, kinds[i].dismiss < 0 ? 0 : 1);

      gtk_window_destroy (GTK_WINDOW (dialog));
      test_drain_main_context ();
      g_assert_finalize_object (dialog);
      g_assert_finalize_object (approval);
    }
}

static gboolean
is_finished (gpointer data)
{
  return steward_approval_get_finished (STEWARD_APPROVAL (data));
}

/* An answer, then the window closing on it: still one answer, and the
 * approval finished elsewhere closes the dialog without another. */
static void
test_answer_then_close (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      Responses responses = { 0, };
      StewardApproval *approval = approval_new (&kinds[i], &responses);
      GtkWidget *dialog = dialog_new (approval);

      g_test_message ("%s", kinds[i].name);
      test_wait_until (is_mapped, dialog, 10000);

      /* The server withdrew, or another window answered. */
      steward_approval_withdraw (approval);
      test_wait_until (is_finished, approval, 10000);
      test_wait_until (is_gone, dialog, 10000);
      g_assert_cmpuint (responses.count, ==, 1);
      g_assert_cmpint (responses.action, ==, STEWARD_APPROVAL_ACTION_CANCEL);
      g_assert_false (steward_approval_dialog_is_open (STEWARD_APPROVAL_DIALOG (dialog)));

      gtk_window_destroy (GTK_WINDOW (dialog));
      test_drain_main_context ();
      g_assert_cmpuint (responses.count, ==, 1);
      g_assert_finalize_object (dialog);
      g_assert_finalize_object (approval);
    }
}

static void
assert_no_selection (GtkWidget *widget)
{
  int start, end;

  if (GTK_IS_LABEL (widget) && gtk_label_get_selectable (GTK_LABEL (widget)))
    {
      if (gtk_label_get_selection_bounds (GTK_LABEL (widget), &start, &end))
        g_error ("“%s” opens with %d–%d selected", gtk_label_get_text (GTK_LABEL (widget)),
                 start, end);
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    assert_no_selection (child);
}

static guint
count_selectable (GtkWidget *widget)
{
  guint n = GTK_IS_LABEL (widget) && gtk_label_get_selectable (GTK_LABEL (widget)) &&
            gtk_widget_get_mapped (widget);

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n += count_selectable (child);

  return n;
}

static void
test_no_selection_on_open (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      Responses responses = { 0, };
      StewardApproval *approval = approval_new (&kinds[i], &responses);
      GtkWidget *dialog = dialog_new (approval);
      GtkWidget *focus;

      g_test_message ("%s", kinds[i].name);
      test_wait_until (is_mapped, dialog, 10000);
      test_drain_main_context ();

      /* Each has labels one can select, and none is selected on opening,
       * nor holds the first focus. */
      g_assert_cmpuint (count_selectable (dialog), >, 0);
      assert_no_selection (dialog);
      focus = gtk_window_get_focus (GTK_WINDOW (dialog));
      g_assert_nonnull (focus);
      g_assert_false (GTK_IS_LABEL (focus));

      gtk_window_destroy (GTK_WINDOW (dialog));
      test_drain_main_context ();
      g_assert_finalize_object (dialog);
      g_assert_finalize_object (approval);
    }
}

/* A URL request: Enter opens nothing, the first focus is on Cancel (what
 * closing does), and after a warning opening is no longer the suggested
 * answer, whether the address can be opened or not. */
static void
test_url_warning_not_default (void)
{
  static const struct {
    const char *url;
    gboolean    warned;
  } rows[] = {
    { "https://auth.example.com/login", FALSE },
    { "https://xn--pple-43d.com/login", TRUE },     /* can open, with a warning */
    { "https://paypal.com@evil.example/x", TRUE },  /* refused, with a warning */
  };

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      g_autofree char *json = g_strdup_printf ("{\"mode\": \"url\", \"message\": \"Sign in.\","
                                               " \"url\": \"%s\", \"elicitationId\": \"e\"}",
                                               rows[i].url);
      Kind kind = { "url", STEWARD_APPROVAL_KIND_ELICITATION, json, 0 };
      Responses responses = { 0, };
      StewardApproval *approval = approval_new (&kind, &responses);
      GtkWidget *dialog = dialog_new (approval);
      StewardElicitationDialog *elicitation = STEWARD_ELICITATION_DIALOG (dialog);
      GtkWidget *open = steward_elicitation_dialog_get_button (elicitation, "open");
      g_autofree char *warnings = NULL;

      g_test_message ("%s", rows[i].url);
      test_wait_until (is_mapped, dialog, 10000);

      warnings = steward_elicitation_dialog_dup_warnings (elicitation);
      g_assert_cmpint (warnings != NULL, ==, rows[i].warned);
      g_assert_null (gtk_window_get_default_widget (GTK_WINDOW (dialog)));
      g_assert_cmpint (gtk_widget_has_css_class (open, "suggested-action"), ==, !rows[i].warned);
      g_assert_true (gtk_window_get_focus (GTK_WINDOW (dialog)) ==
                     steward_elicitation_dialog_get_button (elicitation, "cancel"));
      assert_no_selection (dialog);
      g_assert_cmpuint (responses.count, ==, 0);

      gtk_window_destroy (GTK_WINDOW (dialog));
      test_drain_main_context ();
      g_assert_finalize_object (dialog);
      g_assert_finalize_object (approval);
    }
}

static const char *long_form =
  "{\"mode\": \"form\", \"message\": \"Tell us about yourself.\","
  " \"requestedSchema\": {\"type\": \"object\", \"properties\": {"
  "   \"email\": {\"type\": \"string\", \"format\": \"email\", \"title\": \"Email\"},"
  "   \"f1\": {\"type\": \"string\", \"description\": \"One of many.\"},"
  "   \"f2\": {\"type\": \"string\", \"description\": \"One of many.\"},"
  "   \"f3\": {\"type\": \"string\", \"description\": \"One of many.\"},"
  "   \"f4\": {\"type\": \"string\", \"description\": \"One of many.\"},"
  "   \"f5\": {\"type\": \"string\", \"description\": \"One of many.\"},"
  "   \"f6\": {\"type\": \"string\", \"description\": \"One of many.\"},"
  "   \"f7\": {\"type\": \"string\", \"description\": \"One of many.\"},"
  "   \"f8\": {\"type\": \"string\", \"description\": \"One of many.\"},"
  "   \"f9\": {\"type\": \"string\", \"description\": \"One of many.\"},"
  "   \"f10\": {\"type\": \"string\", \"description\": \"One of many.\"},"
  "   \"f11\": {\"type\": \"string\", \"description\": \"One of many.\"},"
  "   \"f12\": {\"type\": \"string\", \"description\": \"One of many.\"}}}}";

typedef struct {
  GtkAdjustment *adjustment;
  double         value;
} Scrolled;

static gboolean
scrolled_away (gpointer data)
{
  Scrolled *scrolled = data;

  return gtk_adjustment_get_value (scrolled->adjustment) != scrolled->value;
}

static gboolean
can_scroll (gpointer data)
{
  GtkAdjustment *adjustment = data;

  return gtk_adjustment_get_upper (adjustment) > gtk_adjustment_get_page_size (adjustment) + 100;
}

static gboolean
is_at (gpointer data)
{
  Scrolled *scrolled = data;

  return gtk_adjustment_get_value (scrolled->adjustment) == scrolled->value;
}

typedef struct {
  GtkWidget         *widget;
  GtkScrolledWindow *scroller;
} InView;

/* Whether the whole of the widget lies inside the scrolled window's
 * visible part, as laid out now. */
static gboolean
is_in_view (gpointer data)
{
  InView *in_view = data;
  graphene_rect_t bounds;
  int height = gtk_widget_get_height (GTK_WIDGET (in_view->scroller));

  if (!gtk_widget_compute_bounds (in_view->widget, GTK_WIDGET (in_view->scroller), &bounds))
    return FALSE;

  return bounds.origin.y >= 0 && bounds.origin.y + bounds.size.height <= height;
}

static void
test_problem_named_and_shown (void)
{
  Kind kind = { "form", STEWARD_APPROVAL_KIND_ELICITATION, long_form, 0 };
  Responses responses = { 0, };
  StewardApproval *approval = approval_new (&kind, &responses);
  GtkWidget *dialog = steward_elicitation_dialog_new (approval);
  StewardElicitationDialog *elicitation = STEWARD_ELICITATION_DIALOG (dialog);
  StewardSchemaForm *form = steward_elicitation_dialog_get_form (elicitation);
  GtkWidget *email = steward_schema_form_get_field_widget (form, "email");
  GtkWidget *accept = steward_elicitation_dialog_get_button (elicitation, "accept");
  GtkWidget *problem = steward_elicitation_dialog_get_button (elicitation, "problem");
  GtkScrolledWindow *scroller;
  GtkAdjustment *adjustment;
  Scrolled scrolled;
  InView in_view;
  GtkLabel *label;

  /* Short enough that the form scrolls. */
  g_object_ref (dialog);
  gtk_window_set_default_size (GTK_WINDOW (dialog), 420, 320);
  gtk_window_present (GTK_WINDOW (dialog));
  test_wait_until (is_mapped, dialog, 10000);

  scroller = GTK_SCROLLED_WINDOW (gtk_widget_get_ancestor (email, GTK_TYPE_SCROLLED_WINDOW));
  adjustment = gtk_scrolled_window_get_vadjustment (scroller);
  test_wait_until (can_scroll, adjustment, 10000);
  g_assert_false (gtk_widget_get_visible (problem));
  g_assert_true (gtk_widget_get_sensitive (accept));

  /* The person went down to the buttons, as a person does... */
  scrolled.adjustment = adjustment;
  scrolled.value = gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment);
  gtk_adjustment_set_value (adjustment, scrolled.value);
  test_wait_until (is_at, &scrolled, 10000);
  gtk_widget_grab_focus (steward_elicitation_dialog_get_button (elicitation, "decline"));

  /* ...and the email field, far above, turns out wrong (as pasting into
   * it from elsewhere would make it). */
  gtk_editable_set_text (GTK_EDITABLE (email), "not an address");
  test_wait_until (scrolled_away, &scrolled, 10000);
  test_drain_main_context ();

  /* Accept is off, the field is back in view, and beside the button the
   * field is named with what is wrong. */
  g_assert_false (gtk_widget_get_sensitive (accept));
  in_view.widget = email;
  in_view.scroller = scroller;
  test_wait_until (is_in_view, &in_view, 10000);
  g_assert_true (gtk_widget_get_visible (problem));
  g_assert_true (gtk_widget_get_parent (gtk_widget_get_parent (accept)) ==
                 gtk_widget_get_parent (problem));
  label = test_find_label_containing (problem, "Email: ");
  g_assert_nonnull (label);
  g_assert_nonnull (strstr (gtk_label_get_text (label),
                            steward_schema_form_get_field_error (form, "email")));

  /* Scrolled away again, the name takes the person back to the field. */
  scrolled.value = gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment);
  gtk_adjustment_set_value (adjustment, scrolled.value);
  test_wait_until (is_at, &scrolled, 10000);
  gtk_widget_activate (problem);
  test_wait_until (scrolled_away, &scrolled, 10000);
  test_drain_main_context ();
  test_wait_until (is_in_view, &in_view, 10000);
  g_assert_true (gtk_widget_has_focus (email) ||
                 gtk_widget_is_ancestor (gtk_window_get_focus (GTK_WINDOW (dialog)), email));

  /* Fixed, the name goes and Accept comes back. */
  gtk_editable_set_text (GTK_EDITABLE (email), "name@example.com");
  test_drain_main_context ();
  g_assert_false (gtk_widget_get_visible (problem));
  g_assert_true (gtk_widget_get_sensitive (accept));
  g_assert_cmpuint (responses.count, ==, 0);

  gtk_window_destroy (GTK_WINDOW (dialog));
  test_drain_main_context ();
  g_assert_finalize_object (dialog);
  g_assert_finalize_object (approval);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/steward/approval-dialog/close-answers-once", test_close_answers_once);
  g_test_add_func ("/steward/approval-dialog/finished-elsewhere", test_answer_then_close);
  g_test_add_func ("/steward/approval-dialog/no-selection-on-open", test_no_selection_on_open);
  g_test_add_func ("/steward/approval-dialog/url-warning-not-default",
                   test_url_warning_not_default);
  g_test_add_func ("/steward/approval-dialog/problem-named-and-shown",
                   test_problem_named_and_shown);

  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "steward-approval.h"
#include "steward-elicitation-dialog-private.h"
#include "steward-elicitation-dialog.h"
#include "steward-schema-form-private.h"

typedef struct {
  guint                 count;
  StewardApprovalAction action;
  JsonObject           *data;
} Responses;

typedef struct {
  guint  count;
  char  *uri;
} Launches;

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

static void
record_uri (GtkWindow  *parent,
            const char *uri,
            gpointer    user_data)
{
  Launches *launches = user_data;

  g_assert_true (GTK_IS_WINDOW (parent));
  launches->count++;
  g_free (launches->uri);
  launches->uri = g_strdup (uri);
}

static JsonObject *
parse_object (const char *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = json_from_string (json, &error);

  g_assert_no_error (error);
  return json_object_ref (json_node_get_object (node));
}

static char *
object_to_string (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), object);

  return json_to_string (node, FALSE);
}

static StewardApproval *
approval_new (const char *params_json,
              Responses  *responses)
{
  g_autoptr(JsonObject) params = parse_object (params_json);
  StewardApproval *approval = steward_approval_new (STEWARD_APPROVAL_KIND_ELICITATION,
                                                    "everything", params);

  g_signal_connect (approval, "responded", G_CALLBACK (responded_cb), responses);
  return approval;
}

static StewardElicitationDialog *
dialog_new (StewardApproval *approval,
            Launches        *launches)
{
  GtkWidget *dialog = steward_elicitation_dialog_new (approval);

  /* No browser opens in a test; the recorder notes what would have. */
  steward_elicitation_dialog_set_show_uri_func (STEWARD_ELICITATION_DIALOG (dialog),
                                                record_uri, launches);
  g_object_ref (dialog);
  gtk_window_present (GTK_WINDOW (dialog));
  return STEWARD_ELICITATION_DIALOG (dialog);
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

static gboolean
window_gone (gpointer data)
{
  return !gtk_widget_get_visible (GTK_WIDGET (data));
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

/* Activates @button as the keyboard does and waits for the approval to
 * hear about it. */
static void
press (GtkWidget *button,
       Responses *responses)
{
  Awaited awaited = { responses, responses->count };

  g_assert_true (gtk_widget_get_visible (button));
  g_assert_true (gtk_widget_get_sensitive (button));
  gtk_widget_activate (button);
  wait_for (responded_again, &awaited);
}

static void
finish (StewardElicitationDialog *dialog,
        StewardApproval          *approval,
        Responses                *responses,
        Launches                 *launches)
{
  if (gtk_widget_get_visible (GTK_WIDGET (dialog)))
    gtk_window_destroy (GTK_WINDOW (dialog));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_finalize_object (dialog);
  g_assert_finalize_object (approval);
  g_clear_pointer (&responses->data, json_object_unref);
  if (launches != NULL)
    g_clear_pointer (&launches->uri, g_free);
}

static void
test_form_accept (void)
{
  Responses responses = { 0 };
  Launches launches = { 0 };
  StewardApproval *approval = approval_new (
    "{\"message\":\"Tell us <b>about</b> you\\u202e\",\"requestedSchema\":{\"type\":\"object\","
    "\"properties\":{"
    "\"name\":{\"type\":\"string\",\"title\":\"Name\"},"
    "\"age\":{\"type\":\"integer\",\"minimum\":0},"
    "\"plan\":{\"type\":\"string\",\"oneOf\":[{\"const\":\"free\",\"title\":\"Free\"},"
    "{\"const\":\"pro\",\"title\":\"Pro\"}]},"
    "\"days\":{\"type\":\"array\",\"items\":{\"type\":\"string\",\"enum\":[\"mon\",\"tue\"]}},"
    "\"news\":{\"type\":\"boolean\",\"default\":false}"
    "},\"required\":[\"name\"]}}", &responses);
  StewardElicitationDialog *dialog = dialog_new (approval, &launches);
  StewardSchemaForm *form = steward_elicitation_dialog_get_form (dialog);
  GtkWidget *accept = steward_elicitation_dialog_get_button (dialog, "accept");
  GtkLabel *message = steward_elicitation_dialog_get_message_label (dialog);
  g_autofree char *values = NULL;
  g_autofree char *sent = NULL;
  GtkWidget *days;

  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (dialog)), ==, "Request from “everything”");
  g_assert_cmpstr (steward_elicitation_dialog_get_mode (dialog), ==, "form");
  g_assert_nonnull (form);
  g_assert_false (gtk_widget_get_visible (steward_elicitation_dialog_get_button (dialog, "open")));
  g_assert_true (gtk_window_get_default_widget (GTK_WINDOW (dialog)) == accept);

  /* The server's message is plain text with hidden characters shown. */
  g_assert_false (gtk_label_get_use_markup (message));
  g_assert_cmpstr (gtk_label_get_text (message), ==, "Tell us <b>about</b> you⟨U+202E⟩");
  g_assert_null (steward_elicitation_dialog_dup_warnings (dialog));

  /* Accept waits for the required name. */
  g_assert_false (gtk_widget_get_sensitive (accept));
  gtk_editable_set_text (GTK_EDITABLE (steward_schema_form_get_field_widget (form, "name")), "Ada");
  g_assert_true (gtk_widget_get_sensitive (accept));
  gtk_editable_set_text (GTK_EDITABLE (steward_schema_form_get_field_widget (form, "age")), "-1");
  g_assert_false (gtk_widget_get_sensitive (accept));
  gtk_editable_set_text (GTK_EDITABLE (steward_schema_form_get_field_widget (form, "age")), "36");
  gtk_drop_down_set_selected (GTK_DROP_DOWN (steward_schema_form_get_field_widget (form, "plan")),
                              2);
  days = steward_schema_form_get_field_widget (form, "days");
  gtk_check_button_set_active (GTK_CHECK_BUTTON (gtk_widget_get_last_child (days)), TRUE);
  g_assert_true (gtk_widget_get_sensitive (accept));

  {
    g_autoptr(JsonObject) expected = steward_schema_form_dup_values (form);

    values = object_to_string (expected);
  }
  g_assert_cmpstr (values, ==, "{\"name\":\"Ada\",\"age\":36,\"plan\":\"pro\",\"days\":[\"tue\"],"
                               "\"news\":false}");

  press (accept, &responses);
  g_assert_cmpuint (responses.count, ==, 1);
  g_assert_cmpint (responses.action, ==, STEWARD_APPROVAL_ACTION_ACCEPT);
  sent = object_to_string (responses.data);
  g_assert_cmpstr (sent, ==, values);
  g_assert_cmpuint (launches.count, ==, 0);
  wait_for (window_gone, dialog);

  finish (dialog, approval, &responses, &launches);
}

static void
test_form_defaults (void)
{
  Responses responses = { 0 };
  Launches launches = { 0 };
  StewardApproval *approval = approval_new (
    "{\"mode\":\"form\",\"message\":\"Defaults\",\"requestedSchema\":{\"type\":\"object\","
    "\"properties\":{"
    "\"name\":{\"type\":\"string\",\"default\":\"John Doe\"},"
    "\"age\":{\"type\":\"integer\",\"default\":30},"
    "\"score\":{\"type\":\"number\",\"default\":95.5},"
    "\"status\":{\"type\":\"string\",\"enum\":[\"active\",\"inactive\"],\"default\":\"active\"},"
    "\"verified\":{\"type\":\"boolean\",\"default\":true}},\"required\":[]}}", &responses);
  StewardElicitationDialog *dialog = dialog_new (approval, &launches);
  g_autofree char *sent = NULL;

  /* Untouched, the form sends every default with its type. */
  press (steward_elicitation_dialog_get_button (dialog, "accept"), &responses);
  g_assert_cmpint (responses.action, ==, STEWARD_APPROVAL_ACTION_ACCEPT);
  sent = object_to_string (responses.data);
  g_assert_cmpstr (sent, ==, "{\"name\":\"John Doe\",\"age\":30,\"score\":95.5,"
                             "\"status\":\"active\",\"verified\":true}");
  wait_for (window_gone, dialog);

  finish (dialog, approval, &responses, &launches);
}

static void
test_decline_and_cancel (void)
{
  const char *params = "{\"message\":\"Pick one\",\"requestedSchema\":{\"type\":\"object\","
                       "\"properties\":{\"x\":{\"type\":\"string\"}},\"required\":[\"x\"]}}";
  struct {
    const char            *how;
    StewardApprovalAction  expected;
  } cases[] = {
    { "decline", STEWARD_APPROVAL_ACTION_DECLINE },
    { "cancel", STEWARD_APPROVAL_ACTION_CANCEL },
    { "close", STEWARD_APPROVAL_ACTION_CANCEL },
    { "withdraw", STEWARD_APPROVAL_ACTION_CANCEL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Responses responses = { 0 };
      Launches launches = { 0 };
      StewardApproval *approval = approval_new (params, &responses);
      StewardElicitationDialog *dialog = dialog_new (approval, &launches);

      g_test_message ("%s", cases[i].how);
      if (g_str_equal (cases[i].how, "close"))
        gtk_window_close (GTK_WINDOW (dialog));
      else if (g_str_equal (cases[i].how, "withdraw"))
        steward_approval_withdraw (approval);
      else
        press (steward_elicitation_dialog_get_button (dialog, cases[i].how), &responses);

      g_assert_cmpuint (responses.count, ==, 1);
      g_assert_cmpint (responses.action, ==, cases[i].expected);
      g_assert_null (responses.data);
      wait_for (window_gone, dialog);
      /* Closing after the answer adds nothing. */
      g_assert_cmpuint (responses.count, ==, 1);

      finish (dialog, approval, &responses, &launches);
    }
}

static void
test_empty_form (void)
{
  Responses responses = { 0 };
  Launches launches = { 0 };
  StewardApproval *approval = approval_new (
    "{\"message\":\"Shall I go on?\",\"requestedSchema\":{\"type\":\"object\",\"properties\":{}}}",
    &responses);
  StewardElicitationDialog *dialog = dialog_new (approval, &launches);
  g_autofree char *sent = NULL;

  press (steward_elicitation_dialog_get_button (dialog, "accept"), &responses);
  sent = object_to_string (responses.data);
  g_assert_cmpstr (sent, ==, "{}");

  finish (dialog, approval, &responses, &launches);
}

static void
test_task_line (void)
{
  const char *params = "{\"message\":\"Which sense?\",\"requestedSchema\":{\"type\":\"object\","
                       "\"properties\":{}}}";
  Responses responses = { 0 };
  Launches launches = { 0 };
  g_autoptr(GDateTime) started = g_date_time_new_local (2026, 11, 28, 10, 2, 0);
  StewardApproval *approval = approval_new (params, &responses);
  StewardElicitationDialog *dialog = dialog_new (approval, &launches);
  GtkLabel *cause;

  /* A question of no task has no task line. */
  cause = steward_elicitation_dialog_get_cause_label (dialog);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (cause)));
  finish (dialog, approval, &responses, &launches);

  /* One raised for a task names the task and when it started. */
  approval = approval_new (params, &responses);
  steward_approval_set_task (approval, "task-7", "simulate-research-query", started);
  dialog = dialog_new (approval, &launches);
  cause = steward_elicitation_dialog_get_cause_label (dialog);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (cause)));
  g_assert_cmpstr (gtk_label_get_text (cause), ==,
                   "For the task “simulate-research-query”, started 10:02");
  finish (dialog, approval, &responses, &launches);
}

static void
test_secret_warning (void)
{
  Responses responses = { 0 };
  Launches launches = { 0 };
  StewardApproval *approval = approval_new (
    "{\"message\":\"Log in\",\"requestedSchema\":{\"type\":\"object\",\"properties\":"
    "{\"user\":{\"type\":\"string\"},\"pw\":{\"type\":\"string\",\"title\":\"Your Password\"}}}}",
    &responses);
  StewardElicitationDialog *dialog = dialog_new (approval, &launches);
  g_autofree char *warnings = steward_elicitation_dialog_dup_warnings (dialog);

  g_assert_nonnull (warnings);
  g_assert_nonnull (strstr (warnings, "password or a key"));

  finish (dialog, approval, &responses, &launches);
}

static char *
url_params (const char *url)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) node = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "mode");
  json_builder_add_string_value (builder, "url");
  json_builder_set_member_name (builder, "message");
  json_builder_add_string_value (builder, "Sign in to connect your account.");
  json_builder_set_member_name (builder, "elicitationId");
  json_builder_add_string_value (builder, "e-1");
  json_builder_set_member_name (builder, "url");
  json_builder_add_string_value (builder, url);
  json_builder_end_object (builder);
  node = json_builder_get_root (builder);

  return json_to_string (node, FALSE);
}

static void
test_url_open (void)
{
  const char *url = "https://auth.example.com:8443/login?next=/a&b=<c>#top";
  g_autofree char *params = url_params (url);
  Responses responses = { 0 };
  Launches launches = { 0 };
  StewardApproval *approval = approval_new (params, &responses);
  StewardElicitationDialog *dialog = dialog_new (approval, &launches);
  GtkLabel *label = steward_elicitation_dialog_get_url_label (dialog);
  GtkWidget *open = steward_elicitation_dialog_get_button (dialog, "open");
  GtkWidget *accept;

  g_assert_cmpstr (steward_elicitation_dialog_get_mode (dialog), ==, "url");
  g_assert_null (steward_elicitation_dialog_get_form (dialog));
  g_assert_cmpstr (gtk_label_get_text (steward_elicitation_dialog_get_message_label (dialog)), ==,
                   "Sign in to connect your account.");

  /* The full address, the host in bold, everything else escaped. */
  g_assert_cmpstr (gtk_label_get_text (label), ==, url);
  g_assert_cmpstr (gtk_label_get_label (label), ==,
                   "https://<b>auth.example.com</b>:8443/login?next=/a&amp;b=&lt;c&gt;#top");
  g_assert_true (gtk_label_get_selectable (label));
  g_assert_null (steward_elicitation_dialog_dup_warnings (dialog));

  /* Open in Browser is the only way to accept: there is no Accept, and
   * nothing opens by itself or on Enter. */
  accept = steward_elicitation_dialog_get_button (dialog, "accept");
  g_assert_false (gtk_widget_get_visible (accept));
  gtk_widget_activate_action (GTK_WIDGET (dialog), "elicitation.accept", NULL);
  g_assert_null (gtk_window_get_default_widget (GTK_WINDOW (dialog)));
  g_assert_cmpuint (responses.count, ==, 0);
  g_assert_cmpuint (launches.count, ==, 0);

  press (open, &responses);
  g_assert_cmpuint (launches.count, ==, 1);
  g_assert_cmpstr (launches.uri, ==, url);
  g_assert_cmpuint (responses.count, ==, 1);
  g_assert_cmpint (responses.action, ==, STEWARD_APPROVAL_ACTION_ACCEPT);
  g_assert_null (responses.data);
  wait_for (window_gone, dialog);

  finish (dialog, approval, &responses, &launches);
}

static void
test_url_warnings (void)
{
  static const struct {
    const char *url;
    const char *markup;
    const char *warning;
    gboolean    can_open;
  } rows[] = {
    { "https://xn--pple-43d.com/login", "https://<b>xn--pple-43d.com</b>/login",
      "imitate another site", TRUE },
    { "https://login.XN--80ak6aa92e.com/", "https://<b>login.XN--80ak6aa92e.com</b>/",
      "imitate another site", TRUE },
    { "https://аpple.com/", "https://<b>аpple.com</b>/", "imitate another site", TRUE },
    /* A name before "@" is refused, not explained: no host is in bold. */
    { "https://paypal.com@evil.example/x", "https://paypal.com@evil.example/x",
      "name before “@”", FALSE },
    /* GUri finds accounts.google.com, a browser opens evil.example. */
    { "https://evil.example\\@accounts.google.com/", "https://evil.example\\@accounts.google.com/",
      "backslash", FALSE },
    { "http://evil.example\\@127.0.0.1/cb", "http://evil.example\\@127.0.0.1/cb", "backslash",
      FALSE },
    { "https://exa\tmple.com/", "https://exa\tmple.com/", "a tab", FALSE },
    { "https://[::1]:9000/cb", "https://<b>[::1]</b>:9000/cb", NULL, TRUE },
    { "http://127.0.0.1:8080/callback", "http://<b>127.0.0.1</b>:8080/callback", NULL, TRUE },
    { "http://localhost/cb", "http://<b>localhost</b>/cb", NULL, TRUE },
    { "http://example.com/", "http://example.com/", "not encrypted", FALSE },
    { "http://127.0.0.1.evil.example/", "http://127.0.0.1.evil.example/", "not encrypted",
      FALSE },
    { "javascript:alert(1)", "javascript:alert(1)", "Only https", FALSE },
    { "file:///etc/passwd", "file:///etc/passwd", "not opened", FALSE },
    { "https://exa\u200bmple.com/", "https://exa⟨U+200B⟩mple.com/", "hidden", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      g_autofree char *params = url_params (rows[i].url);
      Responses responses = { 0 };
      Launches launches = { 0 };
      StewardApproval *approval = approval_new (params, &responses);
      StewardElicitationDialog *dialog = dialog_new (approval, &launches);
      g_autofree char *warnings = steward_elicitation_dialog_dup_warnings (dialog);
      GtkWidget *open = steward_elicitation_dialog_get_button (dialog, "open");

      g_test_message ("%s", rows[i].url);
      g_assert_cmpstr (gtk_label_get_label (steward_elicitation_dialog_get_url_label (dialog)), ==,
                       rows[i].markup);
      if (rows[i].warning == NULL)
        g_assert_null (warnings);
      else
        g_assert_nonnull (strstr (warnings, rows[i].warning));
      g_assert_cmpint (gtk_widget_get_sensitive (open), ==, rows[i].can_open);

      if (!rows[i].can_open)
        {
          /* Not even the action opens it. */
          gtk_widget_activate_action (GTK_WIDGET (dialog), "elicitation.open", NULL);
          g_assert_cmpuint (launches.count, ==, 0);
          g_assert_cmpuint (responses.count, ==, 0);
        }

      gtk_window_close (GTK_WINDOW (dialog));
      g_assert_cmpint (responses.action, ==, STEWARD_APPROVAL_ACTION_CANCEL);
      g_assert_cmpuint (launches.count, ==, 0);

      finish (dialog, approval, &responses, &launches);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/steward/elicitation-dialog/form-accept", test_form_accept);
  g_test_add_func ("/steward/elicitation-dialog/form-defaults", test_form_defaults);
  g_test_add_func ("/steward/elicitation-dialog/decline-and-cancel", test_decline_and_cancel);
  g_test_add_func ("/steward/elicitation-dialog/empty-form", test_empty_form);
  g_test_add_func ("/steward/elicitation-dialog/task-line", test_task_line);
  g_test_add_func ("/steward/elicitation-dialog/secret-warning", test_secret_warning);
  g_test_add_func ("/steward/elicitation-dialog/url-open", test_url_open);
  g_test_add_func ("/steward/elicitation-dialog/url-warnings", test_url_warnings);

  return g_test_run ();
}

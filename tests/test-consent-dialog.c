/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-consent-dialog"

#include "config.h"

#include "steward-consent-dialog.h"
#include "test-widgets.h"

typedef struct
{
  guint                 n_responses;
  StewardApprovalAction action;
} Responses;

static void
responded_cb (StewardApproval       *approval,
              StewardApprovalAction  action,
              JsonObject            *data,
              Responses             *responses)
{
  responses->n_responses++;
  responses->action = action;
}

static StewardApproval *
approval_from_json (const char *json)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;

  node = json_from_string (json, &error);
  g_assert_no_error (error);

  return steward_approval_new (STEWARD_APPROVAL_KIND_CONSENT, "files",
                               json_node_get_object (node));
}

static GtkWidget *
present_dialog (StewardApproval *approval)
{
  GtkWidget *dialog = steward_consent_dialog_new (approval);

  /* Held here so that the test can check it is finalized once closed. */
  g_object_ref (dialog);
  gtk_window_present (GTK_WINDOW (dialog));
  test_drain_main_context ();

  return dialog;
}

static void
test_exact_command (void)
{
  g_autoptr(StewardApproval) approval = NULL;
  Responses responses = { 0, };
  GtkWidget *dialog;

  approval = approval_from_json ("{\"command\": \"/usr/bin/node\","
                                 " \"args\": [\"server.js\", \"hello world with spaces\","
                                 "            \"  padded  \", \"\", \"--flag=a b\"],"
                                 " \"cwd\": \"/srv/my folder\","
                                 " \"env\": [\"API_KEY\", \"DEBUG\"]}");
  g_signal_connect (approval, "responded", G_CALLBACK (responded_cb), &responses);
  dialog = present_dialog (approval);

  /* Every item whole, in quotes, so that spaces and empty arguments show. */
  g_assert_nonnull (test_find_label (dialog, "Start “files”?"));
  g_assert_nonnull (test_find_label (dialog, "\"/usr/bin/node\""));
  g_assert_nonnull (test_find_label (dialog, "\"server.js\""));
  g_assert_nonnull (test_find_label (dialog, "\"hello world with spaces\""));
  g_assert_nonnull (test_find_label (dialog, "\"  padded  \""));
  g_assert_nonnull (test_find_label (dialog, "\"\""));
  g_assert_nonnull (test_find_label (dialog, "\"--flag=a b\""));
  g_assert_nonnull (test_find_label (dialog, "\"/srv/my folder\""));
  g_assert_nonnull (test_find_label (dialog, "\"API_KEY\"\n\"DEBUG\""));
  g_assert_nonnull (test_find_label (dialog, "Argument 5"));
  g_assert_true (gtk_label_get_selectable (test_find_label (dialog, "\"hello world with spaces\"")));
  g_assert_false (gtk_widget_is_visible (GTK_WIDGET (test_find_label (dialog, "What Changed"))));

  gtk_widget_activate_action (dialog, "consent.allow", NULL);
  test_drain_main_context ();

  g_assert_cmpuint (responses.n_responses, ==, 1);
  g_assert_cmpint (responses.action, ==, STEWARD_APPROVAL_ACTION_ALLOW);
  g_assert_true (steward_approval_get_finished (approval));

  g_assert_finalize_object (dialog);
}

static void
test_hidden_characters (void)
{
  g_autoptr(StewardApproval) approval = NULL;
  GtkWidget *dialog;

  /* A right-to-left override and a zero-width space would hide what runs. */
  approval = approval_from_json ("{\"command\": \"node\","
                                 " \"args\": [\"safe\\u202e.js\", \"a\\u200bb\", \"line\\nbreak\"]}");
  dialog = present_dialog (approval);

  g_assert_nonnull (test_find_label (dialog, "\"safe\\u{202E}.js\""));
  g_assert_nonnull (test_find_label (dialog, "\"a\\u{200B}b\""));
  g_assert_nonnull (test_find_label (dialog, "\"line\\nbreak\""));

  gtk_window_destroy (GTK_WINDOW (dialog));
  g_assert_false (steward_approval_get_finished (approval));
  g_assert_finalize_object (dialog);
}

static void
test_deny (void)
{
  g_autoptr(StewardApproval) approval = NULL;
  Responses responses = { 0, };
  GtkWidget *dialog;

  approval = approval_from_json ("{\"url\": \"https://mcp.example.com/mcp\","
                                 " \"headers\": [\"Authorization\"]}");
  g_signal_connect (approval, "responded", G_CALLBACK (responded_cb), &responses);
  dialog = present_dialog (approval);

  g_assert_nonnull (test_find_label (dialog, "\"https://mcp.example.com/mcp\""));
  g_assert_nonnull (test_find_label (dialog, "\"Authorization\""));

  gtk_widget_activate_action (dialog, "consent.deny", NULL);
  test_drain_main_context ();

  g_assert_cmpuint (responses.n_responses, ==, 1);
  g_assert_cmpint (responses.action, ==, STEWARD_APPROVAL_ACTION_DENY);
  g_assert_finalize_object (dialog);
}

/* Closing the window is no answer: the server keeps waiting. */
static void
test_close_leaves_pending (void)
{
  g_autoptr(StewardApproval) approval = NULL;
  Responses responses = { 0, };
  GtkWidget *dialog;

  approval = approval_from_json ("{\"command\": \"node\", \"args\": []}");
  g_signal_connect (approval, "responded", G_CALLBACK (responded_cb), &responses);
  dialog = present_dialog (approval);

  gtk_widget_activate_action (dialog, "window.close", NULL);
  test_drain_main_context ();

  g_assert_cmpuint (responses.n_responses, ==, 0);
  g_assert_false (steward_approval_get_finished (approval));
  g_assert_finalize_object (dialog);
}

static void
test_changed (void)
{
  g_autoptr(StewardApproval) approval = NULL;
  GtkWidget *dialog;
  GtkLabel *label;

  approval = approval_from_json ("{\"command\": \"npx\","
                                 " \"args\": [\"-y\", \"server-files@2\", \"/home/me\"],"
                                 " \"env\": [\"TOKEN\"],"
                                 " \"changed\": true,"
                                 " \"previous\": {\"command\": \"npx\","
                                 "                \"args\": [\"-y\", \"server-files@1\", \"/home/me\"],"
                                 "                \"env\": [\"DEBUG\"]}}");
  dialog = present_dialog (approval);

  label = test_find_label (dialog, "What Changed");
  g_assert_nonnull (label);
  g_assert_true (gtk_widget_is_visible (GTK_WIDGET (label)));

  label = test_find_label (dialog, "Argument: \"server-files@1\"");
  g_assert_nonnull (label);
  g_assert_nonnull (test_find_label (gtk_widget_get_parent (GTK_WIDGET (label)), "Removed"));
  label = test_find_label (dialog, "Argument: \"server-files@2\"");
  g_assert_nonnull (label);
  g_assert_nonnull (test_find_label (gtk_widget_get_parent (GTK_WIDGET (label)), "Added"));
  label = test_find_label (dialog, "Variable: \"DEBUG\"");
  g_assert_nonnull (label);
  g_assert_nonnull (test_find_label (gtk_widget_get_parent (GTK_WIDGET (label)), "Removed"));
  g_assert_nonnull (test_find_label (dialog, "Variable: \"TOKEN\""));
  /* What stayed the same is not listed as a change. */
  g_assert_null (test_find_label (dialog, "Argument: \"-y\""));

  gtk_window_destroy (GTK_WINDOW (dialog));
  g_assert_finalize_object (dialog);
}

/* When the server withdraws, the question goes away by itself. */
static void
test_withdrawn (void)
{
  g_autoptr(StewardApproval) approval = NULL;
  GtkWidget *dialog;

  approval = approval_from_json ("{\"command\": \"node\"}");
  dialog = present_dialog (approval);

  steward_approval_withdraw (approval);
  test_drain_main_context ();

  g_assert_finalize_object (dialog);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/steward/consent-dialog/exact-command", test_exact_command);
  g_test_add_func ("/steward/consent-dialog/hidden-characters", test_hidden_characters);
  g_test_add_func ("/steward/consent-dialog/deny", test_deny);
  g_test_add_func ("/steward/consent-dialog/close-leaves-pending", test_close_leaves_pending);
  g_test_add_func ("/steward/consent-dialog/changed", test_changed);
  g_test_add_func ("/steward/consent-dialog/withdrawn", test_withdrawn);

  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-consent-dialog"

#include "config.h"

#include "steward-bwrap.h"
#include "steward-consent-dialog.h"
#include "steward-sandbox-launch.h"
#include "test-widgets.h"

typedef struct
{
  guint                 n_responses;
  StewardApprovalAction action;
  int                   network;   /* -1 when the answer carries none */
} Responses;

static void
responded_cb (StewardApproval       *approval,
              StewardApprovalAction  action,
              JsonObject            *data,
              Responses             *responses)
{
  responses->n_responses++;
  responses->action = action;
  responses->network = data != NULL && json_object_has_member (data, "network")
                       ? json_object_get_boolean_member (data, "network") : -1;
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
test_resolved_program (void)
{
  g_autoptr(StewardApproval) approval = NULL;
  GtkWidget *dialog;

  /* A command found on PATH shows the file that runs under its name. */
  approval = approval_from_json ("{\"command\": \"npx\", \"program\": \"/usr/bin/npx\","
                                 " \"args\": [\"-y\", \"server\"]}");
  dialog = present_dialog (approval);

  g_assert_nonnull (test_find_label (dialog, "\"npx\""));
  g_assert_nonnull (test_find_label (dialog, "Runs"));
  g_assert_nonnull (test_find_label (dialog, "\"/usr/bin/npx\""));
  g_assert_true (gtk_label_get_selectable (test_find_label (dialog, "\"/usr/bin/npx\"")));

  gtk_window_destroy (GTK_WINDOW (dialog));
  g_assert_finalize_object (dialog);

  /* A command given as a full path says it once. */
  g_clear_object (&approval);
  approval = approval_from_json ("{\"command\": \"/usr/bin/node\","
                                 " \"program\": \"/usr/bin/node\"}");
  dialog = present_dialog (approval);

  g_assert_nonnull (test_find_label (dialog, "\"/usr/bin/node\""));
  g_assert_null (test_find_label (dialog, "Runs"));

  gtk_window_destroy (GTK_WINDOW (dialog));
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

/* The request as the host makes it for a local server: its command and
 * the sandbox's permissions in the host's words. */
static StewardApproval *
approval_for_config (const char *json)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(StewardServerConfig) config = NULL;
  g_autoptr(JsonObject) request = json_object_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *object;

  node = json_from_string (json, &error);
  g_assert_no_error (error);
  object = json_node_get_object (node);
  config = steward_server_config_new_from_json ("files", object, &error);
  g_assert_no_error (error);

  json_object_set_string_member (request, "command", steward_server_config_get_command (config));
  json_object_set_member (request, "args", json_node_copy (json_object_get_member (object,
                                                                                   "args")));
  json_object_set_object_member (request, "sandbox", steward_sandbox_launch_describe (config));

  return steward_approval_new (STEWARD_APPROVAL_KIND_CONSENT, "files", request);
}

/* The dialog shows every permission, in the same sentences as the
 * server's page: the network an npx server gets and why, and the folder
 * its arguments name, which it may read. */
static void
test_permissions (void)
{
  static const char *json = "{\"command\": \"npx\","
                            " \"args\": [\"-y\", \"@scope/files\", \"/srv/data\"]}";
  g_autoptr(StewardApproval) approval = approval_for_config (json);
  g_autoptr(JsonNode) node = json_from_string (json, NULL);
  g_autoptr(StewardServerConfig) config = NULL;
  g_autoptr(StewardSandboxProfile) profile = NULL;
  g_auto(GStrv) lines = NULL;
  GtkWidget *dialog;

  config = steward_server_config_new_from_json ("files", json_node_get_object (node), NULL);
  profile = steward_sandbox_profile_new (config, NULL);
  lines = steward_sandbox_profile_dup_descriptions (profile);

  dialog = present_dialog (approval);

  g_assert_true (gtk_widget_is_visible (GTK_WIDGET (test_find_label (dialog, "Permissions"))));
  g_assert_cmpuint (g_strv_length (lines), >=, 5);
  /* Every sentence but the network's, which the switch stands for. */
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "Network: "))
      g_assert_null (test_find_label (dialog, lines[i]));
    else
      g_assert_nonnull (test_find_label (dialog, lines[i]));
  g_assert_true (test_any_label_contains (dialog, "On by default, because `npx`"));
  g_assert_true (test_any_label_contains (dialog, "Reads, without changing: /srv/data"));
  g_assert_true (test_any_label_contains (dialog, "Display: off"));
  g_assert_false (test_any_label_contains (dialog, "bubblewrap"));

  gtk_window_destroy (GTK_WINDOW (dialog));
  test_drain_main_context ();
  g_assert_finalize_object (dialog);
}

/* The network switch starts as the profile has it, says why, and the
 * answer carries where the person left it. */
static void
check_network_choice (const char *json,
                      gboolean    expected_default,
                      const char *reason)
{
  g_autoptr(StewardApproval) approval = approval_for_config (json);
  Responses responses = { 0, };
  GtkWidget *dialog;
  GtkSwitch *network;

  g_signal_connect (approval, "responded", G_CALLBACK (responded_cb), &responses);
  dialog = present_dialog (approval);

  network = GTK_SWITCH (test_find_by_type (dialog, GTK_TYPE_SWITCH));
  g_assert_nonnull (network);
  g_assert_true (gtk_widget_is_visible (GTK_WIDGET (network)));
  g_assert_cmpint (gtk_switch_get_active (network), ==, expected_default);
  g_assert_true (test_any_label_contains (dialog, "Allow _Network Access") ||
                 test_any_label_contains (dialog, "Allow Network Access"));
  g_assert_true (test_any_label_contains (dialog, reason));

  gtk_switch_set_active (network, !expected_default);
  gtk_widget_activate_action (dialog, "consent.allow", NULL);
  test_drain_main_context ();

  g_assert_cmpuint (responses.n_responses, ==, 1);
  g_assert_cmpint (responses.action, ==, STEWARD_APPROVAL_ACTION_ALLOW);
  g_assert_cmpint (responses.network, ==, !expected_default);
  g_assert_finalize_object (dialog);
}

static void
test_network_choice (void)
{
  check_network_choice ("{\"command\": \"npx\", \"args\": [\"-y\", \"@scope/files\"]}",
                        TRUE, "On by default, because `npx` downloads the server");
  check_network_choice ("{\"command\": \"/usr/bin/node\", \"args\": [\"server.js\"]}",
                        FALSE, "Off by default: only package runners such as npx and uvx");
}

/* A remote server has no sandbox, so no switch; its answer carries no
 * network. */
static void
test_network_remote (void)
{
  g_autoptr(StewardApproval) approval = NULL;
  Responses responses = { 0, };
  GtkWidget *dialog;

  approval = approval_from_json ("{\"url\": \"https://mcp.example.com/mcp\"}");
  g_signal_connect (approval, "responded", G_CALLBACK (responded_cb), &responses);
  dialog = present_dialog (approval);

  g_assert_false (gtk_widget_is_visible (test_find_by_type (dialog, GTK_TYPE_SWITCH)));
  gtk_widget_activate_action (dialog, "consent.allow", NULL);
  test_drain_main_context ();

  g_assert_cmpuint (responses.n_responses, ==, 1);
  g_assert_cmpint (responses.network, ==, -1);
  g_assert_finalize_object (dialog);
}

/* A remote server without headers is not told it will get some. */
static void
test_remote_wording (void)
{
  g_autoptr(StewardApproval) bare = NULL;
  g_autoptr(StewardApproval) with_headers = NULL;
  GtkWidget *dialog;

  bare = approval_from_json ("{\"url\": \"https://mcp.example.com/mcp\"}");
  dialog = present_dialog (bare);
  g_assert_false (test_any_label_contains (dialog, "headers"));
  g_assert_nonnull (test_find_label_containing (dialog, "Steward will connect to this server."));
  /* It may ask to sign in, which the person is told before allowing. */
  g_assert_nonnull (test_find_label_containing (dialog, "It may ask you to sign in"));
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_assert_finalize_object (dialog);

  with_headers = approval_from_json ("{\"url\": \"https://mcp.example.com/mcp\","
                                     " \"headers\": [\"Authorization\"]}");
  dialog = present_dialog (with_headers);
  g_assert_nonnull (test_find_label_containing (dialog, "send it the headers named below"));
  /* With an Authorization header of the person's own, Steward never
   * signs in there. */
  g_assert_false (test_any_label_contains (dialog, "sign in"));
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_assert_finalize_object (dialog);
}

/* Where bubblewrap cannot run, the dialog says so before anything starts;
 * full access, chosen for the server, says what it gives away. */
static void
test_sandbox_unavailable (void)
{
  g_autoptr(StewardApproval) approval = NULL;
  g_autoptr(StewardApproval) full = NULL;
  GtkWidget *dialog;

  steward_bwrap_set_program_for_testing ("/nonexistent/bwrap");
  approval = approval_for_config ("{\"command\": \"node\", \"args\": [\"server.js\"]}");
  full = approval_for_config ("{\"command\": \"node\", \"args\": [\"server.js\"],"
                              " \"runOnHost\": true}");
  steward_bwrap_set_program_for_testing (NULL);

  dialog = present_dialog (approval);
  g_assert_true (test_any_label_contains (dialog, "bubblewrap"));
  g_assert_true (test_any_label_contains (dialog, "Steward does not start it"));
  gtk_window_destroy (GTK_WINDOW (dialog));
  test_drain_main_context ();
  g_assert_finalize_object (dialog);

  dialog = present_dialog (full);
  g_assert_false (test_any_label_contains (dialog, "bubblewrap"));
  g_assert_true (test_any_label_contains (dialog, "Full access (no sandbox)"));
  gtk_window_destroy (GTK_WINDOW (dialog));
  test_drain_main_context ();
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
  g_test_add_func ("/steward/consent-dialog/resolved-program", test_resolved_program);
  g_test_add_func ("/steward/consent-dialog/hidden-characters", test_hidden_characters);
  g_test_add_func ("/steward/consent-dialog/deny", test_deny);
  g_test_add_func ("/steward/consent-dialog/close-leaves-pending", test_close_leaves_pending);
  g_test_add_func ("/steward/consent-dialog/changed", test_changed);
  g_test_add_func ("/steward/consent-dialog/withdrawn", test_withdrawn);
  g_test_add_func ("/steward/consent-dialog/permissions", test_permissions);
  g_test_add_func ("/steward/consent-dialog/sandbox-unavailable", test_sandbox_unavailable);
  g_test_add_func ("/steward/consent-dialog/network-choice", test_network_choice);
  g_test_add_func ("/steward/consent-dialog/network-remote", test_network_remote);
  g_test_add_func ("/steward/consent-dialog/remote-wording", test_remote_wording);

  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-sign-in"

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "steward-host.h"
#include "steward-server-page.h"
#include "steward-server-row.h"
#include "test-host-fixture.h"
#include "test-widgets.h"

/* Signing in to a remote server from its page and its sidebar row, against
 * tests/servers/oauth-server.py, which wants a sign-in, with
 * tests/stand-in-browser.py as the desktop's browser: the server needs a
 * sign-in; Sign In waits for the browser with a spinner until Cancel;
 * signed in, the page names who and until when; another start uses the
 * keyring's token without the browser; Sign Out revokes it and forgets it. */

#define DEADLINE_MS (30 * 1000)

typedef struct {
  char                *top;
  char                *browser_dir;
  GSubprocess         *oauth;
  char                *url;
  char                *oauth_log;
  StewardHost         *host;
  StewardServer       *server;
  GtkWindow           *window;
  GtkWidget           *row;
  GtkWidget           *page;
  StewardServerStatus  awaited;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *oauth = g_test_build_filename (G_TEST_DIST, "servers", "oauth-server.py",
                                                  NULL);
  g_autoptr(GDataInputStream) out = NULL;
  g_autofree char *line = NULL;
  g_autoptr(GError) error = NULL;

  fixture->top = test_make_top ("test-sign-in");
  fixture->host = test_host_new_in (fixture->top);
  fixture->oauth_log = g_build_filename (fixture->top, "oauth.log", NULL);

  /* @data: how long the tokens last, in seconds, or NULL for an hour, or
   * "step-up" for a server whose tool call needs the scope "admin" and
   * whose authorization server has a userinfo endpoint. */
  if (g_strcmp0 (data, "step-up") == 0)
    fixture->oauth = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error, "python3", oauth,
                                       "--log", fixture->oauth_log,
                                       "--account", "ada@example.com",
                                       "--tool-scope", "admin",
                                       "--userinfo", "Ada Lovelace", NULL);
  else
    fixture->oauth = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error, "python3", oauth,
                                       "--log", fixture->oauth_log,
                                       "--account", "ada@example.com",
                                       "--expires-in", data != NULL ? data : "3600", NULL);
  g_assert_no_error (error);
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (fixture->oauth));
  line = g_data_input_stream_read_line_utf8 (out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (line, "http://127.0.0.1:"));
  fixture->url = g_strconcat (line, "/mcp", NULL);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  if (fixture->window != NULL)
    gtk_window_destroy (fixture->window);
  test_drain_main_context ();
  if (fixture->page != NULL)
    g_assert_finalize_object (fixture->page);
  if (fixture->server != NULL)
    g_assert_finalize_object (fixture->server);
  test_drain_main_context ();
  g_assert_finalize_object (fixture->host);
  g_subprocess_force_exit (fixture->oauth);
  g_clear_object (&fixture->oauth);
  test_remove_tree (fixture->top);
  g_free (fixture->top);
  g_free (fixture->url);
  g_free (fixture->oauth_log);
}

static void
show_server (Fixture *fixture)
{
  g_autoptr(StewardServerConfig) config = NULL;
  GtkWidget *list = gtk_list_box_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);

  config = steward_server_config_new_remote ("signed", fixture->url,
                                             STEWARD_SERVER_TRANSPORT_STREAMABLE_HTTP, NULL);
  test_record_consent (steward_host_get_config (fixture->host), config);
  fixture->server = steward_server_new (steward_host_get_server_context (fixture->host),
                                        config);

  fixture->row = steward_server_row_new (fixture->server);
  gtk_list_box_append (GTK_LIST_BOX (list), fixture->row);
  fixture->page = g_object_ref (steward_server_page_new (fixture->server));
  gtk_widget_set_hexpand (fixture->page, TRUE);
  gtk_box_append (GTK_BOX (box), list);
  gtk_box_append (GTK_BOX (box), fixture->page);

  fixture->window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (fixture->window, 1000, 700);
  gtk_window_set_child (fixture->window, box);
  gtk_window_present (fixture->window);
}

typedef struct {
  GtkWidget  *root;
  const char *text;
} Shown;

/* A mapped label under @root whose text holds @text. */
static gboolean
shows (GtkWidget  *root,
       const char *text)
{
  if (!gtk_widget_get_mapped (root))
    return FALSE;

  if (GTK_IS_LABEL (root) && strstr (gtk_label_get_text (GTK_LABEL (root)), text) != NULL)
    return TRUE;

  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (shows (child, text))
      return TRUE;

  return FALSE;
}

static gboolean
shown_cb (gpointer data)
{
  Shown *shown = data;

  return shows (shown->root, shown->text);
}

static void
wait_shown (GtkWidget  *root,
            const char *text)
{
  Shown shown = { root, text };

  test_wait_until (shown_cb, &shown, DEADLINE_MS);
}

/* The mapped button under @root labelled @label. */
static GtkButton *
find_button (GtkWidget  *root,
             const char *label)
{
  if (!gtk_widget_get_mapped (root))
    return NULL;

  if (GTK_IS_BUTTON (root) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (root)), label) == 0)
    return GTK_BUTTON (root);

  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkButton *found = find_button (child, label);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static void
click (GtkWidget  *root,
       const char *label)
{
  GtkButton *button = find_button (root, label);

  g_assert_nonnull (button);
  g_assert_true (gtk_widget_is_sensitive (GTK_WIDGET (button)));
  g_signal_emit_by_name (button, "clicked");
}

static gboolean
has_status_cb (gpointer data)
{
  Fixture *fixture = data;

  return steward_server_get_status (fixture->server) == fixture->awaited;
}

static void
wait_status (Fixture             *fixture,
             StewardServerStatus  status)
{
  fixture->awaited = status;
  test_wait_until (has_status_cb, fixture, DEADLINE_MS);
}

/* How many lines of the authorization server's log are @what. */
static guint
count_requests (Fixture    *fixture,
                const char *what)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  guint count = 0;

  if (!g_file_get_contents (fixture->oauth_log, &text, NULL, NULL))
    return 0;

  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_strcmp0 (lines[i], what) == 0)
      count++;

  return count;
}

static char *
browser_file (const char *name)
{
  return g_build_filename (g_getenv ("STEWARD_TEST_BROWSER_DIR"), name, NULL);
}

/* The stand-in browser writes each file whole before it appears. */
static gboolean
browser_wrote_cb (gpointer data)
{
  g_autofree char *path = browser_file (data);

  return g_file_test (path, G_FILE_TEST_EXISTS);
}

static void
test_sign_in (Fixture       *fixture,
              gconstpointer  data)
{
  g_autofree char *mode = browser_file ("mode");
  g_autofree char *opened = browser_file ("opened");
  g_autofree char *page = browser_file ("page.html");
  g_autofree char *opened_text = NULL;
  g_autofree char *page_text = NULL;
  g_autoptr(StewardServer) again = NULL;
  StewardServerAuth *auth;

  show_server (fixture);
  auth = steward_server_get_auth (fixture->server);
  steward_server_start (fixture->server);

  /* The server answers 401: it needs a sign-in, at its authorization
   * server, which the row and the page name. */
  wait_status (fixture, STEWARD_SERVER_STATUS_NEEDS_SIGN_IN);
  wait_shown (fixture->row, "Sign in to signed at 127.0.0.1");
  wait_shown (fixture->page, "Sign in to signed");
  wait_shown (fixture->page, "signed wants you to sign in at 127.0.0.1.");
  g_assert_cmpuint (count_requests (fixture, "authorize"), ==, 0);

  /* A person who does not finish in the browser: the page waits, with
   * a spinner, until Cancel. */
  g_assert_true (g_file_set_contents (mode, "ignore", -1, NULL));
  click (fixture->page, "_Sign In…");
  wait_shown (fixture->page, "Waiting for you to sign in at 127.0.0.1 in your web browser…");
  g_assert_nonnull (find_button (fixture->page, "_Cancel"));
  g_assert_true (gtk_spinner_get_spinning (GTK_SPINNER (test_find_by_type (fixture->page,
                                                                           GTK_TYPE_SPINNER))));
  test_wait_until (browser_wrote_cb, (gpointer) "opened", DEADLINE_MS);
  g_assert_true (g_file_get_contents (opened, &opened_text, NULL, NULL));
  g_assert_true (g_str_has_prefix (opened_text, fixture->url) ||
                 strstr (opened_text, "/authorize?") != NULL);
  g_assert_nonnull (strstr (opened_text, "code_challenge_method=S256"));
  click (fixture->page, "_Cancel");
  wait_shown (fixture->page, "signed wants you to sign in at 127.0.0.1.");
  g_assert_cmpint (steward_server_auth_get_state (auth), ==, STEWARD_SERVER_AUTH_STATE_NEEDED);
  g_assert_cmpint (steward_server_get_status (fixture->server), ==,
                   STEWARD_SERVER_STATUS_NEEDS_SIGN_IN);

  /* The browser follows through: signed in, connected, and the page says
   * who and until when. */
  g_assert_true (g_remove (mode) == 0);
  click (fixture->page, "_Sign In…");
  wait_status (fixture, STEWARD_SERVER_STATUS_READY);
  g_assert_cmpuint (count_requests (fixture, "authorize"), ==, 1);
  wait_shown (fixture->page, "Signed in as ada@example.com at 127.0.0.1");
  wait_shown (fixture->page, "The sign-in ends on ");
  g_assert_nonnull (find_button (fixture->page, "Sign _Out"));
  g_assert_cmpstr (steward_server_auth_get_account (auth), ==, "ada@example.com");
  g_assert_cmpint (steward_server_auth_get_expires_at (auth), >,
                   g_get_real_time () / G_USEC_PER_SEC);

  /* The browser was told it may close the tab. The app may be ready
   * before the browser has kept the page it was sent. */
  test_wait_until (browser_wrote_cb, (gpointer) "page.html", DEADLINE_MS);
  g_assert_true (g_file_get_contents (page, &page_text, NULL, NULL));
  g_assert_nonnull (strstr (page_text, "<title>Back to Steward</title>"));
  g_assert_nonnull (strstr (page_text, "Steward has the answer for signed "));
  g_assert_nonnull (strstr (page_text, "You may close this tab."));

  /* The same server started afresh uses the keyring's token: no second
   * authorization request. */
  again = steward_server_new (steward_host_get_server_context (fixture->host),
                              steward_server_get_config (fixture->server));
  steward_server_start (again);
  test_wait_for_status (again, STEWARD_SERVER_STATUS_READY, 30);
  g_assert_cmpuint (count_requests (fixture, "authorize"), ==, 1);
  g_assert_cmpuint (count_requests (fixture, "token"), ==, 1);
  g_assert_cmpint (steward_server_auth_get_state (steward_server_get_auth (again)), ==,
                   STEWARD_SERVER_AUTH_STATE_SIGNED_IN);

  /* Sign Out: revoked, forgotten, and the server waits for a sign-in. */
  click (fixture->page, "Sign _Out");
  wait_status (fixture, STEWARD_SERVER_STATUS_NEEDS_SIGN_IN);
  wait_shown (fixture->page, "Sign in to signed");
  wait_shown (fixture->row, "Sign in to signed at 127.0.0.1");
  g_assert_cmpuint (count_requests (fixture, "revoke"), ==, 1);
  g_assert_null (steward_server_auth_get_authorization (auth));

  /* Nothing is left in the keyring for a new start to find. */
  g_object_run_dispose (G_OBJECT (again));
  g_clear_object (&again);
  again = steward_server_new (steward_host_get_server_context (fixture->host),
                              steward_server_get_config (fixture->server));
  steward_server_start (again);
  test_wait_for_status (again, STEWARD_SERVER_STATUS_NEEDS_SIGN_IN, 30);
  g_assert_cmpuint (count_requests (fixture, "authorize"), ==, 1);
  g_object_run_dispose (G_OBJECT (again));
}

/* A token about to run out is renewed with its refresh token when the
 * server starts again, without the browser. */
static void
test_refresh (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(StewardServer) again = NULL;
  StewardServerAuth *auth;

  show_server (fixture);
  steward_server_start (fixture->server);
  wait_status (fixture, STEWARD_SERVER_STATUS_NEEDS_SIGN_IN);
  click (fixture->page, "_Sign In…");
  wait_status (fixture, STEWARD_SERVER_STATUS_READY);
  g_assert_cmpuint (count_requests (fixture, "authorize"), ==, 1);
  g_assert_cmpuint (count_requests (fixture, "refresh"), ==, 0);

  again = steward_server_new (steward_host_get_server_context (fixture->host),
                              steward_server_get_config (fixture->server));
  auth = steward_server_get_auth (again);
  steward_server_start (again);
  test_wait_for_status (again, STEWARD_SERVER_STATUS_READY, 30);
  g_assert_cmpuint (count_requests (fixture, "authorize"), ==, 1);
  g_assert_cmpuint (count_requests (fixture, "refresh"), ==, 1);
  g_assert_cmpint (steward_server_auth_get_state (auth), ==, STEWARD_SERVER_AUTH_STATE_SIGNED_IN);
  g_assert_cmpstr (steward_server_auth_get_account (auth), ==, "ada@example.com");
  g_object_run_dispose (G_OBJECT (again));

  steward_server_stop_async (fixture->server, NULL, NULL, NULL);
  wait_status (fixture, STEWARD_SERVER_STATUS_STOPPED);
}

typedef struct {
  McpToolResult *result;
  GError        *error;
  gboolean       done;
} Called;

static void
called_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Called *called = user_data;

  called->result = steward_server_call_tool_finish (STEWARD_SERVER (object), result,
                                                    &called->error);
  called->done = TRUE;
}

static gboolean
called_done_cb (gpointer data)
{
  return ((Called *) data)->done;
}

/* A tool call refused with 403 insufficient_scope on a connected server:
 * the page asks to sign in again at the authorization server, for the
 * wider scope, and the call is made again once signed in. Who signed in
 * comes from the userinfo endpoint, asked once per sign-in. */
static void
test_step_up (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(JsonObject) arguments = json_object_new ();
  Called called = { 0 };
  StewardServerAuth *auth;

  show_server (fixture);
  auth = steward_server_get_auth (fixture->server);
  steward_server_start (fixture->server);
  wait_status (fixture, STEWARD_SERVER_STATUS_NEEDS_SIGN_IN);
  click (fixture->page, "_Sign In…");
  wait_status (fixture, STEWARD_SERVER_STATUS_READY);
  wait_shown (fixture->page, "Signed in as Ada Lovelace at 127.0.0.1");
  g_assert_cmpuint (count_requests (fixture, "userinfo"), ==, 1);

  steward_server_call_tool_async (fixture->server, "whoami", arguments, NULL, NULL, NULL, NULL,
                                  called_cb, &called);

  /* Refused for its scope: the page names where to sign in again, and
   * the call waits. */
  wait_status (fixture, STEWARD_SERVER_STATUS_NEEDS_SIGN_IN);
  wait_shown (fixture->row, "Sign in to signed at 127.0.0.1");
  wait_shown (fixture->page, "signed wants you to sign in at 127.0.0.1.");
  g_assert_cmpuint (count_requests (fixture, "insufficient-scope"), ==, 1);
  g_assert_false (called.done);

  click (fixture->page, "_Sign In…");
  test_wait_until (called_done_cb, &called, DEADLINE_MS);
  g_assert_no_error (called.error);
  g_assert_nonnull (called.result);
  g_assert_false (mcp_tool_result_get_is_error (called.result));
  g_assert_cmpuint (count_requests (fixture, "authorize"), ==, 2);
  g_assert_cmpuint (count_requests (fixture, "insufficient-scope"), ==, 1);
  g_assert_cmpint (steward_server_get_status (fixture->server), ==,
                   STEWARD_SERVER_STATUS_READY);
  g_assert_cmpint (steward_server_auth_get_state (auth), ==, STEWARD_SERVER_AUTH_STATE_SIGNED_IN);
  wait_shown (fixture->page, "Signed in as Ada Lovelace at 127.0.0.1");
  g_assert_cmpuint (count_requests (fixture, "userinfo"), ==, 2);
  g_clear_object (&called.result);

  steward_server_stop_async (fixture->server, NULL, NULL, NULL);
  wait_status (fixture, STEWARD_SERVER_STATUS_STOPPED);
}

/* The token is revoked while the server is connected: the next call is
 * refused, the sign-in is renewed with its refresh token without the
 * browser, and the call goes through on the new connection. */
static void
test_renew_refused (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(JsonObject) arguments = json_object_new ();
  g_autofree char *base = NULL;
  g_autofree char *revoke = NULL;
  g_autoptr(GError) error = NULL;
  Called called = { 0 };
  const char *authorization;
  int status = 0;

  show_server (fixture);
  steward_server_start (fixture->server);
  wait_status (fixture, STEWARD_SERVER_STATUS_NEEDS_SIGN_IN);
  click (fixture->page, "_Sign In…");
  wait_status (fixture, STEWARD_SERVER_STATUS_READY);
  g_assert_cmpuint (count_requests (fixture, "authorize"), ==, 1);

  /* The authorization server forgets the token, as when it ran out. */
  authorization = steward_server_auth_get_authorization (steward_server_get_auth (fixture->server));
  g_assert_true (g_str_has_prefix (authorization, "Bearer "));
  base = g_strndup (fixture->url, strlen (fixture->url) - strlen ("/mcp"));
  revoke = g_strconcat (base, "/revoke", NULL);
  {
    const char *argv[] = {
      "python3", "-c",
      "import sys, urllib.parse, urllib.request\n"
      "urllib.request.urlopen(sys.argv[1], urllib.parse.urlencode("
      "{'token': sys.argv[2]}).encode())",
      revoke, authorization + strlen ("Bearer "), NULL
    };

    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                                 NULL, NULL, &status, &error));
    g_assert_no_error (error);
    g_assert_true (g_spawn_check_wait_status (status, NULL));
  }
  g_assert_cmpuint (count_requests (fixture, "revoke"), ==, 1);

  steward_server_call_tool_async (fixture->server, "whoami", arguments, NULL, NULL, NULL, NULL,
                                  called_cb, &called);
  test_wait_until (called_done_cb, &called, DEADLINE_MS);
  g_assert_no_error (called.error);
  g_assert_nonnull (called.result);
  g_assert_false (mcp_tool_result_get_is_error (called.result));
  g_assert_cmpuint (count_requests (fixture, "refresh"), ==, 1);
  g_assert_cmpuint (count_requests (fixture, "authorize"), ==, 1);
  g_assert_cmpint (steward_server_get_status (fixture->server), ==,
                   STEWARD_SERVER_STATUS_READY);
  g_clear_object (&called.result);

  steward_server_stop_async (fixture->server, NULL, NULL, NULL);
  wait_status (fixture, STEWARD_SERVER_STATUS_STOPPED);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *browser = NULL;
  g_autofree char *dir = NULL;
  const char *install[] = { "python3", NULL, "--install", NULL };
  int status = 0;

  /* The stand-in browser is the desktop's handler for http and https
   * before GIO first reads the handlers. */
  g_test_init (&argc, &argv, NULL);
  dir = g_build_filename (g_get_tmp_dir (), "steward-test-browser-XXXXXX", NULL);
  g_assert_nonnull (g_mkdtemp (dir));
  g_setenv ("STEWARD_TEST_BROWSER_DIR", dir, TRUE);
  browser = g_test_build_filename (G_TEST_DIST, "stand-in-browser.py", NULL);
  install[1] = browser;
  g_assert_true (g_spawn_sync (NULL, (char **) install, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               NULL, NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  adw_init ();

  g_test_add ("/steward/sign-in/page", Fixture, NULL, fixture_set_up, test_sign_in,
              fixture_tear_down);

  g_test_add ("/steward/sign-in/refresh", Fixture, "30", fixture_set_up, test_refresh,
              fixture_tear_down);

  g_test_add ("/steward/sign-in/step-up", Fixture, "step-up", fixture_set_up, test_step_up,
              fixture_tear_down);

  g_test_add ("/steward/sign-in/renew-refused", Fixture, NULL, fixture_set_up,
              test_renew_refused, fixture_tear_down);

  status = g_test_run ();
  test_remove_tree (dir);

  return status;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <signal.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

/* libsoup as Steward's code calls it (mcp-soup.h); the test links it too,
 * for the calls of its own stand-in servers. */
#include "mcp-soup.h"

#include "steward-app-view.h"
#include "steward-approvals.h"
#include "test-host-fixture.h"
#include "test-widgets.h"

/*
 * StewardAppView against tests/servers/app-server.py, a server whose view
 * reports from inside the page: the test reads what the page saw by
 * running JavaScript in the web view, as the page itself would.
 */

typedef struct
{
  char          *top;
  StewardHost   *host;
  StewardServer *server;
  GtkWindow     *window;
  GtkWidget     *view;
  SoupServer    *http;
  guint          http_requests;
  char          *blocked_uri;
  /* The running page's bridge, which outlives the widget until the page
   * answered its teardown. */
  gpointer       bridge;
} Fixture;

static void
http_cb (SoupServer        *server,
         SoupServerMessage *message,
         const char        *path,
         GHashTable        *query,
         gpointer           user_data)
{
  Fixture *fixture = user_data;
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (message);

  fixture->http_requests++;
  soup_message_headers_append (headers, "Access-Control-Allow-Origin", "*");
  soup_server_message_set_status (message, 200, NULL);
  soup_server_message_set_response (message, "text/plain", SOUP_MEMORY_STATIC, "reached", 7);
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoslist(GUri) uris = NULL;
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "servers", "app-server.py", NULL);
  g_autofree char *port = NULL;
  g_autoptr(StewardServerConfig) plain = NULL;
  g_autoptr(StewardServerConfig) config = NULL;

  /* A web server the page is not allowed to reach, that counts whether
   * it was reached all the same. */
  fixture->http = soup_server_new (NULL, NULL);
  soup_server_add_handler (fixture->http, NULL, http_cb, fixture, NULL);
  g_assert_true (soup_server_listen_local (fixture->http, 0, SOUP_SERVER_LISTEN_IPV4_ONLY,
                                           &error));
  g_assert_no_error (error);
  uris = soup_server_get_uris (fixture->http);
  port = g_strdup_printf ("%d", g_uri_get_port (uris->data));

  fixture->top = test_make_top ("test-app-view");
  fixture->host = test_host_new_in (fixture->top);

  {
    const char *args[] = { script, port, NULL };

    plain = steward_server_config_new_stdio ("app-server", "/usr/bin/python3", args, NULL, NULL);
  }
  config = steward_server_config_with_permissions (plain, -1, FALSE, TRUE, NULL);
  test_record_consent (steward_host_get_config (fixture->host), config);
  fixture->server = steward_server_new (steward_host_get_server_context (fixture->host), config);
  steward_server_start (fixture->server);
  test_wait_for_status (fixture->server, STEWARD_SERVER_STATUS_READY, 30);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GAsyncResult) result = NULL;

  if (fixture->window != NULL)
    gtk_window_destroy (fixture->window);
  test_drain_main_context ();
  if (fixture->view != NULL)
    g_assert_finalize_object (fixture->view);
  /* The page answers ui/resource-teardown, and its bridge goes. */
  test_loop_until (fixture->bridge == NULL, 10);

  steward_server_stop_async (fixture->server, NULL, test_store_result_cb, &result);
  test_loop_until (result != NULL, 10);
  g_clear_object (&result);
  g_assert_finalize_object (fixture->server);
  test_drain_main_context ();
  g_assert_finalize_object (fixture->host);
  soup_server_disconnect (fixture->http);
  g_assert_finalize_object (fixture->http);
  test_remove_tree (fixture->top);
  g_free (fixture->top);
  g_free (fixture->blocked_uri);
}

static McpTool *
find_tool (Fixture    *fixture,
           const char *name)
{
  GListModel *tools = mcp_client_get_tools (steward_server_get_client (fixture->server));

  test_loop_until (g_list_model_get_n_items (tools) > 0, 10);
  for (guint i = 0; i < g_list_model_get_n_items (tools); i++)
    {
      g_autoptr(McpTool) tool = g_list_model_get_item (tools, i);

      if (g_strcmp0 (mcp_item_get_name (MCP_ITEM (tool)), name) == 0)
        return tool;
    }

  g_error ("the app server has no tool %s", name);
}

/* Runs @body as an async function in the page and returns what it
 * returned, as JSON. */
static char *
run_in_page (WebKitWebView *web_view,
             const char    *body)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JSCValue) value = NULL;
  g_autoptr(GError) error = NULL;

  webkit_web_view_call_async_javascript_function (web_view, body, -1, NULL, NULL, NULL, NULL,
                                                  test_store_result_cb, &result);
  test_loop_until (result != NULL, 20);
  value = webkit_web_view_call_async_javascript_function_finish (web_view, result, &error);
  g_assert_no_error (error);

  return jsc_value_to_json (value, 0);
}

static void
navigation_blocked_cb (StewardAppView *view,
                       const char     *uri,
                       gpointer        user_data)
{
  Fixture *fixture = user_data;

  g_free (fixture->blocked_uri);
  fixture->blocked_uri = g_strdup (uri);
}

/* Waits until the view runs a page and the page has its answer to
 * ui/initialize; the fixture follows that page's bridge. */
static WebKitWebView *
wait_for_page (Fixture *fixture)
{
  StewardAppView *view = STEWARD_APP_VIEW (fixture->view);
  WebKitWebView *web_view;
  g_autofree char *initialized = NULL;

  g_assert_null (fixture->bridge);
  test_loop_until (steward_app_view_get_web_view (view) != NULL, 20);
  web_view = steward_app_view_get_web_view (view);
  fixture->bridge = steward_app_view_get_bridge (view);
  g_object_add_weak_pointer (fixture->bridge, &fixture->bridge);
  test_loop_until (!webkit_web_view_is_loading (web_view)
                   && webkit_web_view_get_uri (web_view) != NULL, 30);

  /* The page's script ran, posted ui/initialize through window.parent,
   * and the bridge's answer came back as a message event. */
  for (gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;;)
    {
      g_free (initialized);
      initialized = run_in_page (web_view, "return window.steward && window.steward.initialized;");
      if (g_strcmp0 (initialized, "null") != 0)
        break;
      if (g_get_monotonic_time () > deadline)
        g_error ("the view never got its answer to ui/initialize");
      g_main_context_iteration (NULL, FALSE);
    }

  return web_view;
}

/* Shows @tool_name's view in a window and waits until the page has its
 * answer to ui/initialize. */
static WebKitWebView *
show_view (Fixture    *fixture,
           const char *tool_name)
{
  McpTool *tool = find_tool (fixture, tool_name);

  fixture->view = g_object_ref_sink (steward_app_view_new (fixture->host, fixture->server,
                                                           tool, NULL));
  g_signal_connect (fixture->view, "navigation-blocked",
                    G_CALLBACK (navigation_blocked_cb), fixture);

  fixture->window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (fixture->window, 640, 480);
  gtk_window_set_child (fixture->window, fixture->view);
  gtk_window_present (fixture->window);

  return wait_for_page (fixture);
}

static void
test_renders (Fixture       *fixture,
              gconstpointer  data)
{
  WebKitWebView *web_view = show_view (fixture, "show");
  g_autofree char *heading = NULL;
  g_autofree char *origin = NULL;
  g_autofree char *protocol = NULL;
  g_autofree char *platform = NULL;
  g_autofree char *theme = NULL;

  heading = run_in_page (web_view, "return document.getElementById('heading').textContent;");
  g_assert_cmpstr (heading, ==, "\"Rendered by the app server\"");

  /* Served from the server's own origin of our scheme, never a file. */
  g_assert_true (g_str_has_prefix (webkit_web_view_get_uri (web_view),
                                   "steward-app://app-server/"));
  origin = run_in_page (web_view, "return window.location.origin;");
  g_assert_cmpstr (origin, ==, "\"steward-app://app-server\"");

  protocol = run_in_page (web_view, "return window.steward.initialized.protocolVersion;");
  g_assert_cmpstr (protocol, ==, "\"2026-01-26\"");
  platform = run_in_page (web_view, "return window.steward.initialized.hostContext.platform;");
  g_assert_cmpstr (platform, ==, "\"desktop\"");
  theme = run_in_page (web_view, "return window.steward.initialized.hostContext.theme;");
  g_assert_true (g_strcmp0 (theme, "\"light\"") == 0 || g_strcmp0 (theme, "\"dark\"") == 0);
}

/* Does the view's accessible description say @text? */
static gboolean
description_is (GtkWidget  *view,
                const char *text)
{
  g_autofree char *mismatch = NULL;

  if (!gtk_test_accessible_has_property (GTK_ACCESSIBLE (view),
                                         GTK_ACCESSIBLE_PROPERTY_DESCRIPTION))
    return FALSE;
  mismatch = gtk_test_accessible_check_property (GTK_ACCESSIBLE (view),
                                                 GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text);
  return mismatch == NULL;
}

static void
test_text_described (Fixture       *fixture,
                     gconstpointer  data)
{
  WebKitWebView *web_view = show_view (fixture, "show");
  g_autofree char *reached = NULL;

  /* GTK does not show the web view's content to screen readers, so the
   * page's text is the view's description, and follows the page. */
  test_loop_until (description_is (fixture->view, "Rendered by the app server"), 20);
  g_free (run_in_page (web_view, "document.getElementById('heading').textContent = "
                                 "'Changed   by\\nthe page'; return true;"));
  test_loop_until (description_is (fixture->view, "Changed by the page"), 20);

  /* A page that tries to post to the handler the text comes through
   * finds none in its world. */
  reached = run_in_page (web_view, "return typeof window.webkit.messageHandlers.stewardText;");
  g_assert_cmpstr (reached, ==, "\"undefined\"");

  /* A page that is gone describes nothing. */
  gtk_widget_set_visible (fixture->view, FALSE);
  test_loop_until (steward_app_view_get_web_view (STEWARD_APP_VIEW (fixture->view)) == NULL, 30);
  g_assert_false (gtk_test_accessible_has_property (GTK_ACCESSIBLE (fixture->view),
                                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION));
}

static void
test_navigation_denied (Fixture       *fixture,
                        gconstpointer  data)
{
  WebKitWebView *web_view = show_view (fixture, "show");
  g_autofree char *document = g_strdup (webkit_web_view_get_uri (web_view));
  g_autofree char *location = NULL;
  g_autofree char *heading = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *opened = NULL;

  g_free (run_in_page (web_view, "window.location.href = 'https://example.org/'; return true;"));
  test_loop_until (fixture->blocked_uri != NULL, 20);
  g_assert_cmpstr (fixture->blocked_uri, ==, "https://example.org/");

  /* Still the same document, with the page's own state in it. */
  g_assert_cmpstr (webkit_web_view_get_uri (web_view), ==, document);
  location = run_in_page (web_view, "return window.location.href;");
  expected = g_strdup_printf ("\"%s\"", document);
  g_assert_cmpstr (location, ==, expected);
  heading = run_in_page (web_view, "return window.steward.initialized !== null;");
  g_assert_cmpstr (heading, ==, "true");

  /* Another view of the same server is another document, not a way
   * out either. */
  g_clear_pointer (&fixture->blocked_uri, g_free);
  g_free (run_in_page (web_view,
                       "window.location.href = 'steward-app://app-server/other'; return true;"));
  test_loop_until (fixture->blocked_uri != NULL, 20);
  g_assert_cmpstr (webkit_web_view_get_uri (web_view), ==, document);

  /* No new windows either. */
  opened = run_in_page (web_view, "return window.open('https://example.org/') === null;");
  g_assert_cmpstr (opened, ==, "true");
  g_assert_cmpstr (webkit_web_view_get_uri (web_view), ==, document);
}

static void
test_fetch_undeclared (Fixture       *fixture,
                       gconstpointer  data)
{
  WebKitWebView *web_view = show_view (fixture, "show");
  g_autoslist(GUri) uris = soup_server_get_uris (fixture->http);
  g_autofree char *target = g_uri_to_string (uris->data);
  g_autofree char *body = NULL;
  g_autofree char *outcome = NULL;
  g_autofree char *violations = NULL;

  body = g_strdup_printf ("return fetch('%s').then(r => r.text(), e => 'refused: ' + e.name);",
                          target);
  outcome = run_in_page (web_view, body);
  g_test_message ("fetch of an undeclared origin: %s", outcome);
  g_assert_true (g_str_has_prefix (outcome, "\"refused: "));
  g_assert_cmpuint (fixture->http_requests, ==, 0);

  /* Refused by the policy, not by chance. */
  violations = run_in_page (web_view, "return window.steward.violations.join('\\n');");
  g_assert_nonnull (strstr (violations, "connect-src"));
}

static void
test_fetch_declared (Fixture       *fixture,
                     gconstpointer  data)
{
  WebKitWebView *web_view = show_view (fixture, "show-allowed");
  g_autoslist(GUri) uris = soup_server_get_uris (fixture->http);
  g_autofree char *target = g_uri_to_string (uris->data);
  g_autofree char *body = NULL;
  g_autofree char *outcome = NULL;

  /* The same request, from a view whose resource declared the origin:
   * the refusal above was the policy's. */
  body = g_strdup_printf ("return fetch('%s').then(r => r.text(), e => 'refused: ' + e.name);",
                          target);
  outcome = run_in_page (web_view, body);
  g_assert_cmpstr (outcome, ==, "\"reached\"");
  g_assert_cmpuint (fixture->http_requests, ==, 1);
}

static void
test_frame_declared (Fixture       *fixture,
                     gconstpointer  data)
{
  WebKitWebView *web_view = show_view (fixture, "show-framed");
  g_autoslist(GUri) uris = soup_server_get_uris (fixture->http);
  g_autofree char *target = g_uri_to_string (uris->data);
  g_autofree char *body = NULL;

  /* The policy lets the declared origin into frame-src, but a view gets
   * no frames at all: the frame's navigation is denied like any other. */
  body = g_strdup_printf ("const frame = document.createElement('iframe');"
                          "frame.src = '%s';"
                          "document.body.appendChild(frame);"
                          "return true;", target);
  g_free (run_in_page (web_view, body));
  test_loop_until (fixture->blocked_uri != NULL, 20);
  g_assert_true (g_str_has_prefix (fixture->blocked_uri, target));
  g_assert_cmpuint (fixture->http_requests, ==, 0);
}

/* Posts a tools/call of @name from the page, as a view does, and returns
 * the bridge's answer as the page received it, as JSON. */
static char *
call_from_page (WebKitWebView *web_view,
                const char    *id,
                const char    *name,
                const char    *arguments)
{
  g_autofree char *post = NULL;
  g_autofree char *find = NULL;
  g_autofree char *answer = NULL;

  post = g_strdup_printf ("window.parent.postMessage({ jsonrpc: '2.0', id: '%s', "
                          "method: 'tools/call', params: { name: '%s', arguments: %s } }, '*');"
                          "return true;", id, name, arguments);
  g_free (run_in_page (web_view, post));

  find = g_strdup_printf ("return window.steward.messages.find(m => m.id === '%s') || null;", id);
  for (gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;;)
    {
      g_free (answer);
      answer = run_in_page (web_view, find);
      if (g_strcmp0 (answer, "null") != 0)
        return g_steal_pointer (&answer);
      if (g_get_monotonic_time () > deadline)
        g_error ("the view never got an answer to its call of %s", name);
      g_main_context_iteration (NULL, FALSE);
    }
}

static void
allow_first_cb (StewardApprovals *approvals,
                StewardApproval  *approval,
                gpointer          user_data)
{
  guint *asked = user_data;

  (*asked)++;
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_ALLOW, NULL);
}

static void
test_calls_own_tool (Fixture       *fixture,
                     gconstpointer  data)
{
  WebKitWebView *web_view = show_view (fixture, "show");
  StewardApprovals *approvals = steward_host_get_approvals (fixture->host);
  guint asked = 0;
  gulong handler;
  g_autofree char *answer = NULL;

  /* A tool for views, asked about like any call, and its result comes
   * back into the page. */
  handler = g_signal_connect (approvals, "added", G_CALLBACK (allow_first_cb), &asked);
  answer = call_from_page (web_view, "own", "add", "{ a: 2, b: 3 }");
  g_signal_handler_disconnect (approvals, handler);
  g_test_message ("the view's call of add: %s", answer);
  g_assert_cmpuint (asked, ==, 1);
  g_assert_nonnull (strstr (answer, "\"sum\":5"));
  g_assert_null (strstr (answer, "\"error\""));
}

static void
test_calls_refused (Fixture       *fixture,
                    gconstpointer  data)
{
  WebKitWebView *web_view = show_view (fixture, "show");
  StewardApprovals *approvals = steward_host_get_approvals (fixture->host);
  guint asked = 0;
  gulong handler;
  g_autofree char *model_only = NULL;
  g_autofree char *foreign = NULL;

  handler = g_signal_connect (approvals, "added", G_CALLBACK (allow_first_cb), &asked);

  /* A tool the server keeps for the model: refused before anyone is
   * asked, and the server never hears of it. */
  model_only = call_from_page (web_view, "model-only", "forget", "{}");
  g_test_message ("the view's call of a model-only tool: %s", model_only);
  g_assert_nonnull (strstr (model_only, "\"error\""));
  g_assert_nonnull (strstr (model_only, "not offered to views"));
  g_assert_null (strstr (model_only, "forgotten"));

  /* Another server's tool: a view has no way to name another server, and
   * a name its own server lacks is refused as such. */
  foreign = call_from_page (web_view, "foreign", "read_file", "{ path: '/etc/passwd' }");
  g_test_message ("the view's call of another server's tool: %s", foreign);
  g_assert_nonnull (strstr (foreign, "\"error\""));
  g_assert_nonnull (strstr (foreign, "its own server"));

  g_signal_handler_disconnect (approvals, handler);
  g_assert_cmpuint (asked, ==, 0);
}

static void
test_unmapped_goes (Fixture       *fixture,
                    gconstpointer  data)
{
  WebKitWebView *web_view = show_view (fixture, "show");
  StewardAppView *view = STEWARD_APP_VIEW (fixture->view);

  g_object_add_weak_pointer (G_OBJECT (web_view), (gpointer *) &web_view);
  gtk_widget_set_visible (fixture->view, FALSE);
  /* The page waits a little for the view to come back, then goes. */
  test_loop_until (steward_app_view_get_web_view (view) == NULL, 30);
  test_loop_until (web_view == NULL, 30);

  test_loop_until (fixture->bridge == NULL, 10);

  gtk_widget_set_visible (fixture->view, TRUE);
  test_loop_until (steward_app_view_get_web_view (view) != NULL, 20);
  fixture->bridge = steward_app_view_get_bridge (view);
  g_object_add_weak_pointer (fixture->bridge, &fixture->bridge);
}

/* The parent of @pid, or 0 when it cannot be read; @state gets the
 * process's state letter. */
static pid_t
read_parent (pid_t  pid,
             char  *state)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", (int) pid);
  g_autofree char *stat = NULL;
  const char *end;
  int parent = 0;

  /* "pid (name) state ppid ...", where the name may hold anything. */
  if (!g_file_get_contents (path, &stat, NULL, NULL)
      || (end = strrchr (stat, ')')) == NULL
      || sscanf (end + 1, " %c %d", state, &parent) != 2)
    return 0;

  return parent;
}

/* Whether @pid was started by this test, through whatever WebKit puts in
 * between (bubblewrap and its own init, for one). */
static gboolean
descends_from_test (pid_t pid)
{
  char state;

  for (guint depth = 0; pid > 1 && depth < 64; depth++)
    {
      pid = read_parent (pid, &state);
      if (pid == getpid ())
        return TRUE;
    }

  return FALSE;
}

/* Whether @pid still runs. */
static gboolean
is_running (pid_t pid)
{
  char state = 0;

  return read_parent (pid, &state) != 0 && state != 'Z' && state != 'X';
}

/* Sends SIGSEGV to those of @pids that still run; whether any did. */
static gboolean
segfault_running (GArray *pids)
{
  gboolean any = FALSE;

  for (guint i = 0; i < pids->len; i++)
    {
      pid_t pid = g_array_index (pids, pid_t, i);

      if (is_running (pid))
        {
          kill (pid, SIGSEGV);
          any = TRUE;
        }
    }

  return any;
}

/* Crashes every web process of this test as a fault in it would, and
 * returns how many there were. */
static guint
crash_web_processes (void)
{
  g_autoptr(GDir) proc = g_dir_open ("/proc", 0, NULL);
  g_autoptr(GArray) pids = g_array_new (FALSE, FALSE, sizeof (pid_t));
  const char *name;

  g_assert_nonnull (proc);
  while ((name = g_dir_read_name (proc)) != NULL)
    {
      g_autofree char *comm_path = NULL;
      g_autofree char *comm = NULL;
      pid_t pid = (pid_t) g_ascii_strtoll (name, NULL, 10);

      if (pid <= 0)
        continue;
      comm_path = g_strdup_printf ("/proc/%s/comm", name);
      /* The kernel keeps 15 bytes of the name: WebKitWebProces. */
      if (!g_file_get_contents (comm_path, &comm, NULL, NULL)
          || !g_str_has_prefix (comm, "WebKitWebProces")
          || !is_running (pid) || !descends_from_test (pid))
        continue;
      g_test_message ("crashing web process %d", (int) pid);
      g_array_append_val (pids, pid);
    }

  /* JavaScriptCore catches SIGSEGV for faults of its own; one that is
   * not its own it hands back to the default action and returns, which a
   * real fault would then meet again. A signal from outside is not met
   * again, so it is sent until the process is gone. */
  test_loop_until (!segfault_running (pids), 20);

  return pids->len;
}

/* The view's Reload button, shown or not. */
static GtkWidget *
find_reload (GtkWidget *view)
{
  GtkLabel *label = test_find_label (view, "Reload");

  g_assert_nonnull (label);
  return gtk_widget_get_ancestor (GTK_WIDGET (label), GTK_TYPE_BUTTON);
}

/* Waits until the view let go of its page and that page's bridge. */
static void
wait_for_page_gone (Fixture       *fixture,
                    WebKitWebView *web_view)
{
  g_object_add_weak_pointer (G_OBJECT (web_view), (gpointer *) &web_view);
  test_loop_until (web_view == NULL, 30);
  /* The dead page never answers its teardown; the bridge goes all the
   * same, its questions to the person withdrawn. */
  test_loop_until (fixture->bridge == NULL, 30);
}

static void
keep_approval_cb (StewardApprovals *approvals,
                  StewardApproval  *approval,
                  gpointer          user_data)
{
  StewardApproval **kept = user_data;

  g_set_object (kept, approval);
}

static void
test_crash_restarts (Fixture       *fixture,
                     gconstpointer  data)
{
  WebKitWebView *web_view = show_view (fixture, "show");
  StewardAppView *view = STEWARD_APP_VIEW (fixture->view);
  StewardApprovals *approvals = steward_host_get_approvals (fixture->host);
  GtkWidget *reload = find_reload (fixture->view);
  g_autoptr(StewardApproval) asked = NULL;
  GtkLabel *error;
  gulong handler;

  test_loop_until (description_is (fixture->view, "Rendered by the app server"), 20);

  /* The page asks the person about a call, then its process crashes. */
  handler = g_signal_connect (approvals, "added", G_CALLBACK (keep_approval_cb), &asked);
  g_free (run_in_page (web_view, "window.parent.postMessage({ jsonrpc: '2.0', id: 'asking', "
                                 "method: 'tools/call', params: { name: 'add', "
                                 "arguments: { a: 1, b: 1 } } }, '*'); return true;"));
  test_loop_until (asked != NULL, 20);
  g_signal_handler_disconnect (approvals, handler);
  g_assert_false (steward_approval_get_withdrawn (asked));

  /* A first crash costs nothing: the page starts again by itself, with
   * a bridge of its own, and no error is shown. The dead page's question
   * is withdrawn with its bridge. */
  g_assert_cmpuint (crash_web_processes (), >, 0);
  wait_for_page_gone (fixture, web_view);
  g_assert_true (steward_approval_get_withdrawn (asked));
  web_view = wait_for_page (fixture);
  test_loop_until (description_is (fixture->view, "Rendered by the app server"), 20);
  g_assert_false (gtk_widget_get_mapped (reload));
  g_assert_false (test_any_label_contains (fixture->view, "stopped unexpectedly"));

  /* The page started again crashes too soon after: the person is told,
   * and may start it once more. */
  g_assert_cmpuint (crash_web_processes (), >, 0);
  wait_for_page_gone (fixture, web_view);
  test_loop_until (gtk_widget_get_mapped (reload), 20);
  error = test_find_label (fixture->view, "The view stopped unexpectedly.");
  g_assert_nonnull (error);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (error)));
  g_assert_null (steward_app_view_get_web_view (view));
  g_assert_false (gtk_test_accessible_has_property (GTK_ACCESSIBLE (fixture->view),
                                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION));

  g_assert_true (gtk_widget_activate (reload));
  wait_for_page (fixture);
  test_loop_until (description_is (fixture->view, "Rendered by the app server"), 20);
  g_assert_false (gtk_widget_get_mapped (reload));
}

int
main (int   argc,
      char *argv[])
{
  /* WebKit's processes are not ours to test, and they inherit this one's
   * environment: GLib read G_DEBUG for this process as it loaded, and they
   * start without it, so that a harmless warning of theirs does not end
   * them (a web process that ends is started again, and the page's script
   * that a case was running fails with it). Cleared before any thread. */
  g_unsetenv ("G_DEBUG");
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

#define ADD(path, func) \
  g_test_add ("/steward/app-view/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("renders", test_renders);
  ADD ("text-described", test_text_described);
  ADD ("navigation-denied", test_navigation_denied);
  ADD ("fetch-undeclared", test_fetch_undeclared);
  ADD ("fetch-declared", test_fetch_declared);
  ADD ("frame-declared", test_frame_declared);
  ADD ("calls-own-tool", test_calls_own_tool);
  ADD ("calls-refused", test_calls_refused);
  ADD ("unmapped-goes", test_unmapped_goes);
  ADD ("crash-restarts", test_crash_restarts);
#undef ADD

  return g_test_run ();
}

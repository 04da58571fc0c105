/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-stdio-transport"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "mcp-error.h"
#include "mcp-line-framer.h"
#include "mcp-stdio-transport.h"

/* Variables of the session that no server gets: the bus, its folder and
 * the display, through which a server could reach the keyring or other
 * windows, and one that only looks like a locale category. */
static const char * const session_only[] = {
  "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "DISPLAY", "LC_SECRET_TOKEN",
};

/* Every wait has a deadline far above what the step needs, so that a bug
 * fails the test instead of hanging it. */
#define DEADLINE_MS 10000


/* The grace used where a test waits through the shutdown steps. */
#define SHORT_GRACE_MS 300

#define MIB (1024 * 1024)

/* AddressSanitizer keeps freed memory in quarantine, so in such a build the
 * resident size says nothing about what the transport holds on to. */
#if defined(__SANITIZE_ADDRESS__)
#define MEMORY_FIGURES_MEANINGFUL FALSE
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MEMORY_FIGURES_MEANINGFUL FALSE
#endif
#endif
#ifndef MEMORY_FIGURES_MEANINGFUL
#define MEMORY_FIGURES_MEANINGFUL TRUE
#endif

#define ASSERT_MEMORY(cond) \
  G_STMT_START { \
    if (MEMORY_FIGURES_MEANINGFUL) \
      g_assert_true (cond); \
    else if (!(cond)) \
      g_test_message ("not checked under AddressSanitizer: %s", #cond); \
  } G_STMT_END

typedef struct {
  McpStdioTransport *transport;
  GPtrArray         *messages;
  GPtrArray         *stderr_lines;
  GPtrArray         *diagnostics;
  guint              n_stderr;
  gboolean           keep_stderr;
  guint              n_closed;
  GError            *closed_error;
  gint64             closed_time;
  guint              n_sent;
  guint              n_send_failed;
  GError            *send_error;
} Harness;

static const char *
server_path (void)
{
  static char *path;

  if (path == NULL)
    path = g_test_build_filename (G_TEST_DIST, "servers", "stdio-server.py", NULL);

  return path;
}

static gboolean
set_true_cb (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

static gboolean
tick_cb (gpointer user_data)
{
  return G_SOURCE_CONTINUE;
}

/* Runs the main loop until @cond holds, failing after @ms. */
#define WAIT_FOR(cond, ms) \
  G_STMT_START { \
    gboolean timed_out_ = FALSE; \
    guint timer_ = g_timeout_add ((ms), set_true_cb, &timed_out_); \
    while (!(cond) && !timed_out_) \
      g_main_context_iteration (NULL, TRUE); \
    if (!timed_out_) \
      g_source_remove (timer_); \
    if (!(cond)) \
      g_error ("%s:%d: gave up after %d ms waiting for %s", __FILE__, __LINE__, (ms), #cond); \
  } G_STMT_END

/* The same for conditions outside the main loop (the state of other
 * processes in /proc): the loop is woken every 2 ms to look again. */
#define POLL_FOR(cond, ms) \
  G_STMT_START { \
    guint ticker_ = g_timeout_add (2, tick_cb, NULL); \
    WAIT_FOR (cond, ms); \
    g_source_remove (ticker_); \
  } G_STMT_END

static void
message_cb (McpTransport *transport,
            McpMessage   *message,
            Harness      *h)
{
  g_assert_true (transport == MCP_TRANSPORT (h->transport));
  g_assert_cmpuint (h->n_closed, ==, 0);
  g_ptr_array_add (h->messages, mcp_message_ref (message));
}

static void
log_cb (McpTransport        *transport,
        McpTransportLogKind  kind,
        const char          *text,
        Harness             *h)
{
  g_assert_true (g_utf8_validate (text, -1, NULL));

  if (kind == MCP_TRANSPORT_LOG_STDERR)
    {
      h->n_stderr++;
      if (h->keep_stderr)
        g_ptr_array_add (h->stderr_lines, g_strdup (text));
    }
  else
    {
      g_assert_cmpint (kind, ==, MCP_TRANSPORT_LOG_DIAGNOSTIC);
      g_test_message ("diagnostic: %s", text);
      g_ptr_array_add (h->diagnostics, g_strdup (text));
    }
}

static void
closed_cb (McpTransport *transport,
           const GError *error,
           Harness      *h)
{
  h->n_closed++;
  h->closed_time = g_get_monotonic_time ();
  h->closed_error = error != NULL ? g_error_copy (error) : NULL;
  if (error != NULL)
    g_test_message ("closed: %s", error->message);
}

static Harness *
harness_new_argv (const char * const *argv)
{
  Harness *h = g_new0 (Harness, 1);

  h->transport = mcp_stdio_transport_new (argv);
  h->messages = g_ptr_array_new_with_free_func ((GDestroyNotify) mcp_message_unref);
  h->stderr_lines = g_ptr_array_new_with_free_func (g_free);
  h->diagnostics = g_ptr_array_new_with_free_func (g_free);
  h->keep_stderr = TRUE;

  g_signal_connect (h->transport, "message", G_CALLBACK (message_cb), h);
  g_signal_connect (h->transport, "log", G_CALLBACK (log_cb), h);
  g_signal_connect (h->transport, "closed", G_CALLBACK (closed_cb), h);

  return h;
}

/* A harness for the test server in @mode ("serve" by default). */
static Harness *
harness_new (const char *mode,
             const char *arg)
{
  const char *argv[] = { server_path (), mode, arg, NULL };
  Harness *h = harness_new_argv (argv);

  /* Python would otherwise add LC_CTYPE to its own environment in the C
   * locale, and the environment test compares exactly. */
  mcp_stdio_transport_setenv (h->transport, "PYTHONCOERCECLOCALE", "0");

  return h;
}

static void
harness_free (Harness *h)
{
  g_assert_finalize_object (h->transport);
  g_ptr_array_unref (h->messages);
  g_ptr_array_unref (h->stderr_lines);
  g_ptr_array_unref (h->diagnostics);
  g_clear_error (&h->closed_error);
  g_clear_error (&h->send_error);
  g_free (h);
}

static void
store_result_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static gboolean
harness_try_start (Harness  *h,
                   GError  **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_transport_start_async (MCP_TRANSPORT (h->transport), NULL, store_result_cb, &result);
  WAIT_FOR (result != NULL, DEADLINE_MS);

  return mcp_transport_start_finish (MCP_TRANSPORT (h->transport), result, error);
}

static void
harness_start (Harness *h)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (harness_try_start (h, &error));
  g_assert_no_error (error);
  g_assert_cmpint (mcp_stdio_transport_get_pid (h->transport), >, 0);
}

static void
sent_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Harness *h = user_data;
  g_autoptr(GError) error = NULL;

  if (mcp_transport_send_finish (MCP_TRANSPORT (object), result, &error))
    h->n_sent++;
  else
    {
      h->n_send_failed++;
      g_clear_error (&h->send_error);
      h->send_error = g_steal_pointer (&error);
    }
}

/* Sends a request with @params_json (an object, or NULL) without waiting. */
static void
harness_send (Harness    *h,
              gint64      id,
              const char *method,
              const char *params_json)
{
  g_autoptr(JsonNode) id_node = json_node_init_int (json_node_alloc (), id);
  g_autoptr(JsonNode) params = NULL;
  g_autoptr(McpMessage) message = NULL;

  if (params_json != NULL)
    {
      g_autoptr(GError) error = NULL;

      params = json_from_string (params_json, &error);
      g_assert_no_error (error);
    }

  message = mcp_message_new_request (id_node, method,
                                     params != NULL ? json_node_get_object (params) : NULL);
  mcp_transport_send_async (MCP_TRANSPORT (h->transport), message, NULL, sent_cb, h);
}

static McpMessage *
find_response (Harness *h,
               gint64   id)
{
  for (guint i = 0; i < h->messages->len; i++)
    {
      McpMessage *message = g_ptr_array_index (h->messages, i);
      gint64 message_id;

      if (mcp_message_get_kind (message) == MCP_MESSAGE_RESULT &&
          mcp_message_get_int_id (message, &message_id) && message_id == id)
        return message;
    }

  return NULL;
}

/* Sends a request and returns the result object of its response. */
static JsonObject *
harness_call (Harness    *h,
              gint64      id,
              const char *method,
              const char *params_json)
{
  harness_send (h, id, method, params_json);
  WAIT_FOR (find_response (h, id) != NULL, DEADLINE_MS);

  return mcp_message_get_result (find_response (h, id));
}

static void
harness_close (Harness *h)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  mcp_transport_close_async (MCP_TRANSPORT (h->transport), NULL, store_result_cb, &result);
  WAIT_FOR (result != NULL, DEADLINE_MS);

  g_assert_true (mcp_transport_close_finish (MCP_TRANSPORT (h->transport), result, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (h->n_closed, ==, 1);
}

static gboolean
has_diagnostic (Harness    *h,
                const char *needle)
{
  for (guint i = 0; i < h->diagnostics->len; i++)
    if (strstr (g_ptr_array_index (h->diagnostics, i), needle) != NULL)
      return TRUE;

  return FALSE;
}

/* Alive means running or stopped, not a zombie and not gone. */
static gboolean
process_is_alive (GPid pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", (int) pid);
  g_autofree char *contents = NULL;
  const char *end;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return FALSE;

  end = strrchr (contents, ')');
  g_assert_nonnull (end);

  return end[2] != 'Z' && end[2] != 'X';
}

/* Fields of /proc/<pid>/stat after the command name: state, ppid, pgrp. */
static gboolean
read_stat (const char *pid,
           char       *state,
           int        *ppid,
           int        *pgrp)
{
  g_autofree char *path = g_strdup_printf ("/proc/%s/stat", pid);
  g_autofree char *contents = NULL;
  const char *end;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return FALSE;

  end = strrchr (contents, ')');

  return end != NULL && sscanf (end + 2, "%c %d %d", state, ppid, pgrp) == 3;
}

/* Live processes in @pgrp, or zombies that are children of ours. */
static guint
count_processes (int      pgrp,
                 gboolean our_zombies)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc", 0, NULL);
  const char *name;
  guint count = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      char state;
      int ppid;
      int group;

      if (!g_ascii_isdigit (name[0]) || !read_stat (name, &state, &ppid, &group))
        continue;

      if (our_zombies && state == 'Z' && ppid == getpid ())
        count++;
      else if (!our_zombies && group == pgrp && state != 'Z' && state != 'X')
        count++;
    }

  return count;
}

static guint
count_open_fds (void)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc/self/fd", 0, NULL);
  guint count = 0;

  g_assert_nonnull (dir);
  while (g_dir_read_name (dir) != NULL)
    count++;

  /* The directory's own descriptor is not ours to count. */
  return count - 1;
}

/* A field of /proc/self/status such as "VmRSS", in KiB. */
static gsize
read_status_kib (const char *field)
{
  g_autofree char *contents = NULL;
  g_autofree char *key = g_strconcat ("\n", field, ":", NULL);
  const char *line;

  g_assert_true (g_file_get_contents ("/proc/self/status", &contents, NULL, NULL));
  line = strstr (contents, key);
  g_assert_nonnull (line);

  return (gsize) g_ascii_strtoull (line + strlen (key), NULL, 10);
}

/* Makes VmHWM start again from the current resident size. */
static void
reset_peak_rss (void)
{
  int fd = open ("/proc/self/clear_refs", O_WRONLY);

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (write (fd, "5", 1), ==, 1);
  g_assert_no_errno (close (fd));
  g_assert_cmpuint (read_status_kib ("VmHWM"), <=, read_status_kib ("VmRSS") + 64);
}

static gint64
parse_timestamp (const char *line,
                 const char *prefix)
{
  g_assert_true (g_str_has_prefix (line, prefix));

  return g_ascii_strtoll (line + strlen (prefix), NULL, 10);
}

static void
test_description (void)
{
  const char *plain[] = { "npx", "-y", "@modelcontextprotocol/server-files", "/home/a", NULL };
  const char *quoted[] = { "python3", "my server.py", "--name=it's", "", NULL };
  g_autoptr(McpStdioTransport) a = mcp_stdio_transport_new (plain);
  g_autoptr(McpStdioTransport) b = mcp_stdio_transport_new (quoted);

  g_assert_cmpstr (mcp_transport_get_description (MCP_TRANSPORT (a)), ==,
                   "npx -y @modelcontextprotocol/server-files /home/a");
  g_assert_cmpstr (mcp_transport_get_description (MCP_TRANSPORT (b)), ==,
                   "python3 'my server.py' '--name=it'\\''s' ''");
  g_assert_cmpstrv (mcp_stdio_transport_get_argv (b), quoted);
  g_assert_cmpint (mcp_stdio_transport_get_pid (a), ==, 0);

  g_assert_finalize_object (g_steal_pointer (&a));
  g_assert_finalize_object (g_steal_pointer (&b));
}

static void
test_round_trip (void)
{
  Harness *h = harness_new ("serve", NULL);
  const guint n = 200;

  harness_start (h);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *params = g_strdup_printf ("{\"seq\":%u,\"text\":\"line\\nbreak ✓\"}", i);

      harness_send (h, i, "echo", params);
    }
  WAIT_FOR (h->messages->len == n, DEADLINE_MS);

  g_assert_cmpuint (h->n_sent, ==, n);
  for (guint i = 0; i < n; i++)
    {
      McpMessage *message = g_ptr_array_index (h->messages, i);
      JsonObject *params;
      gint64 id;

      g_assert_cmpint (mcp_message_get_kind (message), ==, MCP_MESSAGE_RESULT);
      g_assert_true (mcp_message_get_int_id (message, &id));
      g_assert_cmpint (id, ==, i);
      params = json_object_get_object_member (mcp_message_get_result (message), "params");
      g_assert_cmpint (json_object_get_int_member (params, "seq"), ==, i);
      g_assert_cmpstr (json_object_get_string_member (params, "text"), ==, "line\nbreak ✓");
    }

  harness_close (h);
  g_assert_null (h->closed_error);
  g_assert_cmpuint (mcp_stdio_transport_get_n_dropped (h->transport), ==, 0);
  harness_free (h);
}

static void
test_environment (void)
{
  Harness *h = harness_new ("serve", NULL);
  g_auto(GStrv) expected = NULL;
  JsonObject *environ_object;
  g_autoptr(GList) names = NULL;

  g_assert_cmpstr (g_getenv ("SECRET_TOKEN"), ==, "canary-5f1e0c");
  mcp_stdio_transport_setenv (h->transport, "CONFIGURED", "from the config");
  mcp_stdio_transport_setenv (h->transport, "HOME", NULL);

  harness_start (h);
  expected = mcp_stdio_transport_dup_environment (h->transport);
  environ_object = json_object_get_object_member (harness_call (h, 1, "environ", NULL), "environ");

  /* Exactly what dup_environment() says, nothing else. */
  names = json_object_get_members (environ_object);
  g_assert_cmpuint (g_list_length (names), ==, g_strv_length (expected));
  for (GList *l = names; l != NULL; l = l->next)
    g_assert_cmpstr (json_object_get_string_member (environ_object, l->data), ==,
                     g_environ_getenv (expected, l->data));

  g_assert_false (json_object_has_member (environ_object, "SECRET_TOKEN"));
  g_assert_false (json_object_has_member (environ_object, "HOME"));
  g_assert_cmpstr (json_object_get_string_member (environ_object, "CONFIGURED"), ==,
                   "from the config");
  g_assert_cmpstr (json_object_get_string_member (environ_object, "PATH"), ==, g_getenv ("PATH"));
  g_assert_cmpstr (json_object_get_string_member (environ_object, "LC_MONETARY"), ==, "C.UTF-8");
  g_assert_null (g_environ_getenv (expected, "SECRET_TOKEN"));
  for (guint i = 0; i < G_N_ELEMENTS (session_only); i++)
    g_assert_false (json_object_has_member (environ_object, session_only[i]));

  harness_close (h);
  harness_free (h);
}

static void
test_cwd (void)
{
  Harness *h = harness_new ("serve", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("steward-stdio-XXXXXX", &error);
  g_autofree char *canonical = NULL;

  g_assert_no_error (error);
  canonical = realpath (dir, NULL);
  mcp_stdio_transport_set_cwd (h->transport, dir);
  g_assert_cmpstr (mcp_stdio_transport_get_cwd (h->transport), ==, dir);

  harness_start (h);
  g_assert_cmpstr (json_object_get_string_member (harness_call (h, 1, "cwd", NULL), "cwd"), ==,
                   canonical);

  harness_close (h);
  harness_free (h);
  g_assert_no_errno (g_rmdir (dir));
}

static void
test_stderr (void)
{
  Harness *h = harness_new ("serve", NULL);
  g_autofree char *long_line = g_strnfill (10000, 'l');
  g_autofree char *params = g_strdup_printf ("{\"lines\":[\"first\",\"second\\r\",\"%s\","
                                             "\"déjà vu\"]}", long_line);
  g_autofree char *tail = NULL;
  const char *cut;

  harness_start (h);
  harness_call (h, 1, "stderr", params);
  WAIT_FOR (h->stderr_lines->len == 4, DEADLINE_MS);

  g_assert_cmpstr (g_ptr_array_index (h->stderr_lines, 0), ==, "first");
  g_assert_cmpstr (g_ptr_array_index (h->stderr_lines, 1), ==, "second");
  cut = g_ptr_array_index (h->stderr_lines, 2);
  g_assert_true (g_str_has_prefix (cut, "llll"));
  g_assert_nonnull (strstr (cut, "[… 5904 more bytes cut]"));
  g_assert_cmpuint (strspn (cut, "l"), ==, 4096);
  g_assert_cmpstr (g_ptr_array_index (h->stderr_lines, 3), ==, "déjà vu");

  tail = mcp_stdio_transport_dup_stderr_tail (h->transport, 2);
  g_assert_true (g_str_has_suffix (tail, "cut]\ndéjà vu"));
  g_clear_pointer (&tail, g_free);
  tail = mcp_stdio_transport_dup_stderr_tail (h->transport, 100);
  g_assert_true (g_str_has_prefix (tail, "first\nsecond\nllll"));
  g_clear_pointer (&tail, g_free);
  tail = mcp_stdio_transport_dup_stderr_tail (h->transport, 0);
  g_assert_cmpstr (tail, ==, "");

  /* Output on stderr is not a failure. */
  g_assert_cmpuint (h->n_closed, ==, 0);
  harness_close (h);
  g_assert_null (h->closed_error);
  harness_free (h);
}

static void
test_not_found (void)
{
  const char *missing[] = { "steward-no-such-command", "--stdio", NULL };
  const char *python[] = { "python3", "-c", "pass", NULL };
  Harness *h = harness_new_argv (missing);
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;

  mcp_stdio_transport_setenv (h->transport, "PATH", "/usr/bin:/bin");
  g_assert_false (harness_try_start (h, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED);
  g_assert_cmpstr (error->message, ==,
                   "command `steward-no-such-command` not found on PATH (/usr/bin:/bin)");
  g_assert_cmpuint (h->n_closed, ==, 0);
  harness_free (h);

  /* The lookup uses the child's PATH, not ours. */
  h = harness_new_argv (python);
  mcp_stdio_transport_setenv (h->transport, "PATH", "/nonexistent");
  g_clear_error (&error);
  g_assert_false (harness_try_start (h, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED);
  g_assert_cmpstr (error->message, ==, "command `python3` not found on PATH (/nonexistent)");
  harness_free (h);

  h = harness_new_argv (python);
  mcp_stdio_transport_set_cwd (h->transport, "/nonexistent/folder");
  g_clear_error (&error);
  g_assert_false (harness_try_start (h, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED);
  g_assert_nonnull (strstr (error->message, "/nonexistent/folder does not exist"));
  harness_free (h);
}

static void
test_crash (void)
{
  Harness *h = harness_new ("serve", NULL);
  const char *last;
  gint64 exit_time;
  gint64 latency;

  harness_start (h);
  harness_call (h, 1, "echo", NULL);
  harness_send (h, 2, "exit", "{\"status\":3,\"stderr\":\"Error: the database is gone\\n\"}");
  WAIT_FOR (h->n_closed == 1, DEADLINE_MS);

  g_assert_error (h->closed_error, MCP_ERROR, MCP_ERROR_EXITED);
  g_assert_true (g_str_has_prefix (h->closed_error->message, "server exited with status 3"));
  g_assert_nonnull (strstr (h->closed_error->message, "Error: the database is gone"));
  g_assert_null (strstr (h->closed_error->message, "non-JSON"));
  g_assert_null (find_response (h, 2));

  last = g_ptr_array_index (h->stderr_lines, h->stderr_lines->len - 1);
  exit_time = parse_timestamp (last, "exiting at ");
  latency = h->closed_time - exit_time;
  g_test_message ("crash noticed %.1f ms after the server's last words",
                  latency / 1000.0);
  g_assert_cmpint (latency, >, 0);

  /* Closing after the fact completes at once, without another signal. */
  harness_close (h);
  g_assert_cmpuint (h->n_closed, ==, 1);
  g_assert_false (process_is_alive (mcp_stdio_transport_get_pid (h->transport)));
  harness_free (h);
}

static void
test_killed (void)
{
  Harness *h = harness_new ("serve", NULL);
  gint64 latency;

  harness_start (h);
  harness_send (h, 1, "kill", "{\"signal\":9}");
  WAIT_FOR (h->n_closed == 1, DEADLINE_MS);

  g_assert_error (h->closed_error, MCP_ERROR, MCP_ERROR_EXITED);
  g_assert_true (g_str_has_prefix (h->closed_error->message,
                                   "server was killed by signal 9 (Killed)"));
  latency = h->closed_time - parse_timestamp (g_ptr_array_index (h->stderr_lines, 0),
                                              "killing myself at ");
  g_test_message ("kill noticed %.1f ms after the server's last words", latency / 1000.0);

  harness_free (h);
}

static void
test_exit_after_non_json (void)
{
  Harness *h = harness_new ("serve", NULL);

  harness_start (h);
  harness_send (h, 1, "exit", "{\"status\":1,\"stdout\":\"Error: Cannot find module 'x'\\n\"}");
  WAIT_FOR (h->n_closed == 1, DEADLINE_MS);

  g_assert_error (h->closed_error, MCP_ERROR, MCP_ERROR_EXITED);
  g_assert_true (g_str_has_prefix (h->closed_error->message,
                                   "server exited with status 1 after writing non-JSON to "
                                   "stdout: “Error: Cannot find module 'x'”"));
  g_assert_true (has_diagnostic (h, "dropped a line that is not JSON: Error: Cannot find module"));
  g_assert_cmpuint (mcp_stdio_transport_get_n_dropped (h->transport), ==, 1);

  harness_free (h);
}

static void
test_huge_line (void)
{
  Harness *h = harness_new ("huge", "104857600");
  gsize before_kib;
  gsize peak_kib;
  gsize growth_kib;
  /* The promise is the cap plus 2 MiB. Of that, the framer's buffer may
   * hold the cap, one read chunk (64 KiB) is in flight, and the allocator
   * keeps some slack; nothing else in this process grows meanwhile. */
  const gsize allowed_kib = (MCP_DEFAULT_MAX_MESSAGE_SIZE + 2 * MIB) / 1024;

  /* Let the loop settle first, so that the baseline is the idle size. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  reset_peak_rss ();
  before_kib = read_status_kib ("VmRSS");

  harness_start (h);
  WAIT_FOR (h->n_closed == 1, DEADLINE_MS);
  peak_kib = read_status_kib ("VmHWM");
  growth_kib = peak_kib > before_kib ? peak_kib - before_kib : 0;

  g_assert_error (h->closed_error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE);
  g_assert_nonnull (strstr (h->closed_error->message, "larger than the 10 MiB limit"));
  g_test_message ("peak RSS grew by %.2f MiB while the server wrote a 100 MiB line "
                  "(allowed %.2f MiB)", growth_kib / 1024.0, allowed_kib / 1024.0);
  ASSERT_MEMORY (growth_kib <= allowed_kib);

  /* The server is stopped too. */
  harness_close (h);
  g_assert_false (process_is_alive (mcp_stdio_transport_get_pid (h->transport)));
  harness_free (h);
}

static void
test_deep (void)
{
  Harness *h = harness_new ("serve", NULL);

  harness_start (h);
  harness_call (h, 1, "deep", "{\"depth\":100000}");

  g_assert_cmpuint (mcp_stdio_transport_get_n_dropped (h->transport), ==, 1);
  g_assert_true (has_diagnostic (h, "dropped a line that is not JSON: [[[["));
  g_assert_cmpuint (h->n_closed, ==, 0);

  /* Still connected. */
  harness_call (h, 2, "echo", "{\"after\":true}");
  harness_close (h);
  g_assert_null (h->closed_error);
  harness_free (h);
}

static void
test_invalid_lines (void)
{
  Harness *h = harness_new ("serve", NULL);

  harness_start (h);
  /* "\xff\xfe broken\n", then "not json\n", then "{\"jsonrpc\":\"2.0\"}\n". */
  harness_call (h, 1, "raw", "{\"hex\":\"fffe2062726f6b656e0a\"}");
  harness_call (h, 2, "raw", "{\"hex\":\"6e6f74206a736f6e0a\",\"count\":3}");
  harness_call (h, 3, "raw", "{\"hex\":\"7b226a736f6e727063223a22322e30227d0a\"}");

  g_assert_cmpuint (mcp_stdio_transport_get_n_dropped (h->transport), ==, 5);
  g_assert_true (has_diagnostic (h, "dropped a line that is not JSON: not json"));
  g_assert_true (has_diagnostic (h, "dropped a line that is not a JSON-RPC message"));
  g_assert_cmpuint (h->n_closed, ==, 0);
  g_assert_cmpuint (h->messages->len, ==, 3);

  harness_close (h);
  g_assert_null (h->closed_error);
  harness_free (h);
}

static void
test_misbehaving (void)
{
  Harness *h = harness_new ("garbage", "150");
  GPid pid;

  mcp_stdio_transport_set_shutdown_grace (h->transport, SHORT_GRACE_MS);
  harness_start (h);
  pid = mcp_stdio_transport_get_pid (h->transport);
  WAIT_FOR (h->n_closed == 1, DEADLINE_MS);

  g_assert_error (h->closed_error, MCP_ERROR, MCP_ERROR_MISBEHAVING);
  g_assert_nonnull (strstr (h->closed_error->message, "more than 100"));
  g_assert_nonnull (strstr (h->closed_error->message, "not json, line 100"));
  g_assert_cmpuint (mcp_stdio_transport_get_n_dropped (h->transport), ==, 101);

  /* Stopped without waiting for it to read stdin's end. */
  harness_close (h);
  g_assert_cmpuint (h->n_closed, ==, 1);
  g_assert_false (process_is_alive (pid));
  harness_free (h);
}

/* What the nested-loop handler saw. */
typedef struct {
  guint    depth;
  guint    n_reentered;
  gboolean nested_done;
  gboolean window_over;
} Nesting;

static gboolean
window_over_cb (gpointer user_data)
{
  ((Nesting *) user_data)->window_over = TRUE;
  return G_SOURCE_REMOVE;
}

/* On the first message, runs a nested main loop for a while, as a modal
 * question would; a message delivered meanwhile would come in the middle
 * of the read that delivered the first. */
static void
nesting_message_cb (McpTransport *transport,
                    McpMessage   *message,
                    Nesting      *nesting)
{
  if (nesting->depth > 0)
    nesting->n_reentered++;
  if (nesting->nested_done)
    return;

  nesting->nested_done = TRUE;
  nesting->depth++;
  g_timeout_add (200, window_over_cb, nesting);
  while (!nesting->window_over)
    g_main_context_iteration (NULL, TRUE);
  nesting->depth--;
}

static void
test_nested_loop (void)
{
  Harness *h = harness_new ("serve", NULL);
  Nesting nesting = { 0 };
  const guint n = 50;

  g_signal_connect (h->transport, "message", G_CALLBACK (nesting_message_cb), &nesting);
  harness_start (h);
  for (guint i = 0; i < n; i++)
    harness_send (h, i, "echo", NULL);
  WAIT_FOR (h->messages->len == n, DEADLINE_MS);

  /* Nothing came while the handler was nested, and nothing was lost,
   * doubled or reordered once it returned. */
  g_assert_true (nesting.nested_done);
  g_assert_cmpuint (nesting.n_reentered, ==, 0);
  for (guint i = 0; i < n; i++)
    {
      gint64 id;

      g_assert_true (mcp_message_get_int_id (g_ptr_array_index (h->messages, i), &id));
      g_assert_cmpint (id, ==, i);
    }

  harness_close (h);
  g_assert_null (h->closed_error);
  harness_free (h);
}

static void
test_batches (void)
{
  Harness *h = harness_new ("serve", NULL);
  const char *batch_hex = "5b7b226a736f6e727063223a22322e30222c226d6574686f64223a2261227d2c"
                          "7b226a736f6e727063223a22322e30222c226d6574686f64223a2262227d5d0a";
  g_autofree char *params = g_strdup_printf ("{\"hex\":\"%s\"}", batch_hex);

  harness_start (h);
  mcp_transport_set_protocol_version (MCP_TRANSPORT (h->transport), "2025-06-18");
  harness_call (h, 1, "raw", params);
  g_assert_cmpuint (mcp_stdio_transport_get_n_dropped (h->transport), ==, 1);
  g_assert_cmpuint (h->messages->len, ==, 1);

  mcp_transport_set_protocol_version (MCP_TRANSPORT (h->transport), "2025-03-26");
  harness_call (h, 2, "raw", params);
  g_assert_cmpuint (mcp_stdio_transport_get_n_dropped (h->transport), ==, 1);
  g_assert_cmpuint (h->messages->len, ==, 4);
  g_assert_cmpstr (mcp_message_get_method (g_ptr_array_index (h->messages, 1)), ==, "a");
  g_assert_cmpstr (mcp_message_get_method (g_ptr_array_index (h->messages, 2)), ==, "b");

  harness_close (h);
  harness_free (h);
}

static void
test_send_after_exit (void)
{
  Harness *h = harness_new ("serve", NULL);

  harness_start (h);
  harness_send (h, 1, "exit", NULL);
  WAIT_FOR (h->n_closed == 1, DEADLINE_MS);

  /* Nothing can be sent once the connection is closed. */
  harness_send (h, 2, "echo", NULL);
  WAIT_FOR (h->n_send_failed == 1, DEADLINE_MS);
  g_assert_error (h->send_error, MCP_ERROR, MCP_ERROR_CLOSED);

  harness_free (h);
}

static void
test_broken_pipe (void)
{
  Harness *h = harness_new ("serve", NULL);

  mcp_stdio_transport_set_shutdown_grace (h->transport, SHORT_GRACE_MS);
  harness_start (h);
  harness_call (h, 1, "close-stdin", NULL);

  harness_send (h, 2, "echo", NULL);
  WAIT_FOR (h->n_send_failed == 1, DEADLINE_MS);
  g_assert_error (h->send_error, MCP_ERROR, MCP_ERROR_CLOSED);
  g_assert_nonnull (strstr (h->send_error->message, "could not write to the server’s stdin"));
  g_assert_cmpuint (h->n_closed, ==, 0);

  /* The server still runs and holds stdout open, so it is stopped. */
  WAIT_FOR (h->n_closed == 1, DEADLINE_MS);
  g_assert_error (h->closed_error, MCP_ERROR, MCP_ERROR_CLOSED);
  g_assert_true (g_str_has_prefix (h->closed_error->message,
                                   "could not write to the server’s stdin (Broken pipe), "
                                   "so it was stopped"));
  g_assert_true (has_diagnostic (h, "stopped reading its stdin but did not exit within 300 ms; "
                                 "sent SIGTERM"));
  harness_send (h, 3, "echo", NULL);
  WAIT_FOR (h->n_send_failed == 2, DEADLINE_MS);

  harness_free (h);
}

static void
test_big_messages (void)
{
  Harness *h = harness_new ("serve", NULL);
  const guint n = 24;

  harness_start (h);
  /* Large enough to be parsed on a worker, and more of them than the
   * transport lets wait for the parser, so that reading pauses. */
  harness_call (h, 1, "big", "{\"count\":24,\"size\":1000000}");
  g_assert_cmpuint (h->messages->len, ==, n + 1);

  for (guint i = 0; i < n; i++)
    {
      McpMessage *message = g_ptr_array_index (h->messages, i);
      JsonObject *params = mcp_message_get_params (message);

      g_assert_cmpstr (mcp_message_get_method (message), ==, "big");
      g_assert_cmpint (json_object_get_int_member (params, "seq"), ==, i);
      g_assert_cmpuint (strlen (json_object_get_string_member (params, "pad")), ==, 1000000);
    }

  harness_close (h);
  g_assert_null (h->closed_error);
  harness_free (h);
}

static void
test_escaped_child (void)
{
  Harness *h = harness_new ("escape", NULL);
  gint64 child;
  gint64 latency;

  harness_start (h);
  WAIT_FOR (h->n_closed == 1, DEADLINE_MS);

  /* The child left the group, so it still holds the pipes; the exit is
   * reported anyway, after a short drain. */
  g_assert_cmpuint (h->messages->len, ==, 1);
  child = json_object_get_int_member (mcp_message_get_params (g_ptr_array_index (h->messages, 0)),
                                      "pid");
  g_assert_true (process_is_alive (child));
  g_assert_error (h->closed_error, MCP_ERROR, MCP_ERROR_EXITED);
  g_assert_true (g_str_has_prefix (h->closed_error->message, "server exited with status 0"));

  latency = h->closed_time - parse_timestamp (g_ptr_array_index (h->stderr_lines, 0),
                                              "exiting at ");
  g_test_message ("exit noticed %.1f ms after the server's last words while another "
                  "process held its pipes", latency / 1000.0);

  harness_free (h);
  g_assert_no_errno (kill (child, SIGKILL));
  POLL_FOR (!process_is_alive (child), 2000);
}

static void
test_close_cancelled (void)
{
  Harness *h = harness_new ("stubborn", NULL);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  mcp_stdio_transport_set_shutdown_grace (h->transport, SHORT_GRACE_MS);
  harness_start (h);
  WAIT_FOR (h->messages->len == 1, DEADLINE_MS);

  mcp_transport_close_async (MCP_TRANSPORT (h->transport), cancellable, store_result_cb, &result);
  g_cancellable_cancel (cancellable);
  WAIT_FOR (result != NULL, DEADLINE_MS);
  g_assert_false (mcp_transport_close_finish (MCP_TRANSPORT (h->transport), result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_object (&result);

  /* Only the wait was cancelled; the shutdown goes on. */
  g_assert_cmpuint (h->n_closed, ==, 0);
  harness_close (h);
  g_assert_null (h->closed_error);
  g_assert_true (has_diagnostic (h, "sent SIGKILL"));
  harness_free (h);
}

static void
test_stubborn (void)
{
  Harness *h = harness_new ("stubborn", NULL);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpMessage *announcement;
  gint64 child;
  GPid pid;
  gint64 start;
  gint64 elapsed;

  mcp_stdio_transport_set_shutdown_grace (h->transport, SHORT_GRACE_MS);
  harness_start (h);
  pid = mcp_stdio_transport_get_pid (h->transport);
  WAIT_FOR (h->messages->len == 1, DEADLINE_MS);
  announcement = g_ptr_array_index (h->messages, 0);
  g_assert_cmpstr (mcp_message_get_method (announcement), ==, "child");
  child = json_object_get_int_member (mcp_message_get_params (announcement), "pid");
  g_assert_true (process_is_alive (child));
  g_assert_cmpuint (count_processes (pid, FALSE), ==, 2);

  start = g_get_monotonic_time ();
  mcp_transport_close_async (MCP_TRANSPORT (h->transport), NULL, store_result_cb, &result);
  WAIT_FOR (result != NULL, DEADLINE_MS);
  elapsed = g_get_monotonic_time () - start;

  g_assert_true (mcp_transport_close_finish (MCP_TRANSPORT (h->transport), result, &error));
  g_assert_no_error (error);
  g_clear_object (&result);
  g_assert_cmpuint (h->n_closed, ==, 1);
  g_assert_null (h->closed_error);
  g_test_message ("close took %.1f ms with a grace of %d ms", elapsed / 1000.0, SHORT_GRACE_MS);
  g_assert_cmpint (elapsed, >=, 2 * SHORT_GRACE_MS * 1000);
  g_assert_true (has_diagnostic (h, "did not exit 300 ms after stdin was closed; sent SIGTERM"));
  g_assert_true (has_diagnostic (h, "did not exit 300 ms after SIGTERM; sent SIGKILL"));

  /* The leader is reaped; its child was killed with the group. */
  g_assert_false (process_is_alive (pid));
  POLL_FOR (!process_is_alive (child), 1000);
  POLL_FOR (count_processes (pid, FALSE) == 0, 1000);

  harness_free (h);
}

static void
test_dispose_kills (void)
{
  Harness *h = harness_new ("stubborn", NULL);
  GPid pid;
  gint64 child;

  harness_start (h);
  pid = mcp_stdio_transport_get_pid (h->transport);
  WAIT_FOR (h->messages->len == 1, DEADLINE_MS);
  child = json_object_get_int_member (mcp_message_get_params (g_ptr_array_index (h->messages, 0)),
                                      "pid");

  harness_free (h);

  POLL_FOR (!process_is_alive (pid), 2000);
  POLL_FOR (!process_is_alive (child), 2000);
  POLL_FOR (count_processes (pid, FALSE) == 0, 2000);
}

static void
test_close_clean (void)
{
  Harness *h = harness_new ("serve", NULL);
  gint64 start;

  harness_start (h);
  harness_call (h, 1, "echo", NULL);

  start = g_get_monotonic_time ();
  harness_close (h);
  g_test_message ("clean close took %.1f ms", (g_get_monotonic_time () - start) / 1000.0);
  g_assert_null (h->closed_error);
  g_assert_false (has_diagnostic (h, "SIGTERM"));
  g_assert_false (process_is_alive (mcp_stdio_transport_get_pid (h->transport)));

  /* A second close is harmless. */
  harness_close (h);
  harness_free (h);
}

static void
test_stderr_flood (void)
{
  Harness *h = harness_new ("serve", NULL);
  const gsize flood = 50 * MIB;
  g_autofree char *params = g_strdup_printf ("{\"bytes\":%" G_GSIZE_FORMAT "}", flood);
  g_autofree char *tail = NULL;
  gsize before_kib;
  gsize growth_kib;
  gint64 start;
  JsonObject *result;

  h->keep_stderr = FALSE;
  while (g_main_context_iteration (NULL, FALSE))
    ;
  reset_peak_rss ();
  before_kib = read_status_kib ("VmRSS");

  harness_start (h);
  start = g_get_monotonic_time ();
  result = harness_call (h, 1, "flood-stderr", params);
  g_assert_cmpint (json_object_get_int_member (result, "flooded"), ==, flood);
  WAIT_FOR (h->n_stderr == flood / 1024, DEADLINE_MS);
  g_test_message ("drained 50 MiB of stderr in %.0f ms",
                  (g_get_monotonic_time () - start) / 1000.0);

  tail = mcp_stdio_transport_dup_stderr_tail (h->transport, G_MAXUINT);
  g_assert_cmpuint (strlen (tail), <=, MCP_STDIO_STDERR_RING_SIZE);
  /* Full but for the line the ring's start cut in half. */
  g_assert_cmpuint (strlen (tail), >, MCP_STDIO_STDERR_RING_SIZE - 2 * 1024);
  g_assert_cmpuint (strspn (tail, "x\n"), ==, strlen (tail));

  growth_kib = read_status_kib ("VmHWM") - MIN (before_kib, read_status_kib ("VmHWM"));
  g_test_message ("peak RSS grew by %.2f MiB during the flood", growth_kib / 1024.0);
  ASSERT_MEMORY (growth_kib < 2 * 1024);
  g_assert_cmpuint (h->n_closed, ==, 0);

  harness_close (h);
  harness_free (h);
}

static void
run_cycle (guint i)
{
  const char *argv[] = { "cat", NULL };
  Harness *h = harness_new_argv (argv);

  harness_start (h);
  harness_send (h, i, "ping", NULL);
  WAIT_FOR (h->messages->len == 1, DEADLINE_MS);
  g_assert_cmpstr (mcp_message_get_method (g_ptr_array_index (h->messages, 0)), ==, "ping");
  harness_close (h);
  g_assert_null (h->closed_error);
  harness_free (h);
}

static void
test_cycles (void)
{
  const guint n_cycles = 1000;
  guint fds_before;
  gsize rss_before_kib;
  gsize rss_after_kib;
  gint64 start;

  /* The first cycles fill GLib's caches and start its worker thread. */
  for (guint i = 0; i < 20; i++)
    run_cycle (i);
  fds_before = count_open_fds ();
  rss_before_kib = read_status_kib ("VmRSS");

  start = g_get_monotonic_time ();
  for (guint i = 0; i < n_cycles; i++)
    run_cycle (i);
  g_test_message ("%u spawn/close cycles took %.0f ms", n_cycles,
                  (g_get_monotonic_time () - start) / 1000.0);

  /* GLib drops its last reference to each subprocess on its worker thread,
   * just after the exit was reported. Fewer than before is fine: what an
   * earlier test left behind may have gone in the meantime. */
  POLL_FOR (count_open_fds () <= fds_before, 5000);
  g_assert_cmpuint (count_processes (0, TRUE), ==, 0);

  rss_after_kib = read_status_kib ("VmRSS");
  g_test_message ("RSS %" G_GSIZE_FORMAT " KiB before, %" G_GSIZE_FORMAT " KiB after",
                  rss_before_kib, rss_after_kib);
  ASSERT_MEMORY (rss_after_kib < rss_before_kib + 1024);
}

int
main (int   argc,
      char *argv[])
{
  /* Set before any thread exists: a secret the servers must not inherit,
   * and a variable on the allowlist that they must. */
  g_setenv ("SECRET_TOKEN", "canary-5f1e0c", TRUE);
  g_setenv ("LC_MONETARY", "C.UTF-8", TRUE);
  /* The session bus, its folder and the display, through which a server
   * could reach the keyring or other windows; and a variable that only
   * looks like a locale category. */
  g_setenv ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/user/1000/bus", TRUE);
  g_setenv ("XDG_RUNTIME_DIR", "/run/user/1000", TRUE);
  g_setenv ("DISPLAY", ":0", TRUE);
  g_setenv ("LC_SECRET_TOKEN", "canary-lc", TRUE);

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/steward/stdio-transport/description", test_description);
  g_test_add_func ("/steward/stdio-transport/round-trip", test_round_trip);
  g_test_add_func ("/steward/stdio-transport/nested-loop", test_nested_loop);
  g_test_add_func ("/steward/stdio-transport/environment", test_environment);
  g_test_add_func ("/steward/stdio-transport/cwd", test_cwd);
  g_test_add_func ("/steward/stdio-transport/stderr", test_stderr);
  g_test_add_func ("/steward/stdio-transport/not-found", test_not_found);
  g_test_add_func ("/steward/stdio-transport/crash", test_crash);
  g_test_add_func ("/steward/stdio-transport/killed", test_killed);
  g_test_add_func ("/steward/stdio-transport/exit-after-non-json", test_exit_after_non_json);
  g_test_add_func ("/steward/stdio-transport/huge-line", test_huge_line);
  g_test_add_func ("/steward/stdio-transport/deep", test_deep);
  g_test_add_func ("/steward/stdio-transport/invalid-lines", test_invalid_lines);
  g_test_add_func ("/steward/stdio-transport/misbehaving", test_misbehaving);
  g_test_add_func ("/steward/stdio-transport/batches", test_batches);
  g_test_add_func ("/steward/stdio-transport/send-after-exit", test_send_after_exit);
  g_test_add_func ("/steward/stdio-transport/broken-pipe", test_broken_pipe);
  g_test_add_func ("/steward/stdio-transport/big-messages", test_big_messages);
  g_test_add_func ("/steward/stdio-transport/escaped-child", test_escaped_child);
  g_test_add_func ("/steward/stdio-transport/close-cancelled", test_close_cancelled);
  g_test_add_func ("/steward/stdio-transport/stubborn", test_stubborn);
  g_test_add_func ("/steward/stdio-transport/dispose-kills", test_dispose_kills);
  g_test_add_func ("/steward/stdio-transport/close-clean", test_close_clean);
  g_test_add_func ("/steward/stdio-transport/stderr-flood", test_stderr_flood);
  g_test_add_func ("/steward/stdio-transport/cycles", test_cycles);

  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-soup"

#include "config.h"

#include <dlfcn.h>

#include "mcp-http-transport.h"
#include "mcp-soup.h"
#include "mcp-stdio-transport.h"

/* libsoup is loaded the first time HTTP is spoken (mcp-soup.h), and not
 * before: this program does not link it, like Steward and steward-cli. */

static gboolean
soup_is_loaded (void)
{
  void *handle = dlopen (MCP_SOUP_SONAME, RTLD_LAZY | RTLD_NOLOAD);

  if (handle == NULL)
    return FALSE;
  dlclose (handle);
  return TRUE;
}

static void
started_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  gboolean *started = user_data;
  g_autoptr(GError) error = NULL;

  g_assert_true (mcp_transport_start_finish (MCP_TRANSPORT (object), result, &error));
  g_assert_no_error (error);
  *started = TRUE;
}

static void
test_loaded_on_first_use (void)
{
  gboolean started = FALSE;
  g_autoptr(McpStdioTransport) stdio = NULL;
  g_autoptr(McpHttpTransport) http = NULL;
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(GError) error = NULL;
  const char *argv[] = { "true", NULL };

  g_assert_false (soup_is_loaded ());

  /* A local server speaks stdio: no HTTP, no libsoup. */
  stdio = mcp_stdio_transport_new (argv);
  g_assert_nonnull (stdio);
  g_assert_false (soup_is_loaded ());

  /* A remote one makes its session when it starts, which loads it. */
  http = mcp_http_transport_new ("http://127.0.0.1:9/mcp", &error);
  g_assert_no_error (error);
  g_assert_false (soup_is_loaded ());
  mcp_transport_start_async (MCP_TRANSPORT (http), NULL, started_cb, &started);
  while (!started)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (soup_is_loaded ());

  /* The renamed calls reach the real library: its types, and what its
   * functions return. */
  message = soup_message_new ("POST", "http://127.0.0.1:9/mcp");
  g_assert_true (SOUP_IS_MESSAGE (message));
  g_assert_cmpstr (soup_status_get_phrase (SOUP_STATUS_NOT_FOUND), ==, "Not Found");
  soup_message_headers_replace (soup_message_get_request_headers (message), "Accept",
                                "application/json");
  g_assert_cmpstr (soup_message_headers_get_one (soup_message_get_request_headers (message),
                                                 "accept"), ==, "application/json");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/steward/soup/loaded-on-first-use", test_loaded_on_first_use);

  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-filesystem"

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "mcp-client.h"
#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-scripted-transport.h"
#include "mcp-stdio-transport.h"
#include "test-delegate.h"

/* The reference filesystem server, started with no folders of its own:
 * it may see only the roots the client gives it. */

typedef struct {
  char *inside;    /* the root */
  char *outside;   /* a sibling folder that is not a root */
  char *root_uri;
} Folders;

static JsonObject *
roots_reply_cb (const char  *method,
                JsonObject  *params,
                gpointer     user_data,
                GError     **error)
{
  Folders *folders = user_data;
  g_autofree char *json = g_strdup_printf ("{\"roots\":[{\"uri\":\"%s\",\"name\":\"project\"}]}",
                                           folders->root_uri);

  g_assert_cmpstr (method, ==, "roots/list");
  return test_parse_object (json);
}

static void
store_result_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static McpToolResult *
call (McpClient  *client,
      const char *name,
      const char *path)
{
  g_autoptr(JsonObject) args = json_object_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpToolResult *reply;

  if (path != NULL)
    json_object_set_string_member (args, "path", path);
  mcp_client_call_tool_async (client, name, args, NULL, NULL, NULL, NULL,
                              store_result_cb, &result);
  wait_for (result != NULL);
  reply = mcp_client_call_tool_finish (client, result, &error);
  g_assert_no_error (error);

  return reply;
}

static void
test_roots_confine_reads (void)
{
  g_autofree char *base = g_dir_make_tmp ("steward-fs-XXXXXX", NULL);
  g_autofree char *server = NULL;
  g_autofree char *inside_file = NULL;
  g_autofree char *outside_file = NULL;
  g_autofree char *traversal = NULL;
  g_autoptr(McpStdioTransport) transport = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) root = NULL;
  TestDelegate *delegate;
  McpClient *client;
  Folders folders;
  const char *argv[] = { "node", NULL, NULL };
  const char * const attempts[3] = { NULL, NULL, NULL };

  g_assert_nonnull (base);
  folders.inside = g_build_filename (base, "project", NULL);
  folders.outside = g_build_filename (base, "private", NULL);
  g_assert_cmpint (g_mkdir (folders.inside, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (folders.outside, 0700), ==, 0);
  inside_file = g_build_filename (folders.inside, "notes.txt", NULL);
  outside_file = g_build_filename (folders.outside, "secret.txt", NULL);
  g_assert_true (g_file_set_contents (inside_file, "the plan", -1, NULL));
  g_assert_true (g_file_set_contents (outside_file, "the secret", -1, NULL));
  root = g_file_new_for_path (folders.inside);
  folders.root_uri = g_file_get_uri (root);

  delegate = test_delegate_new (MCP_CLIENT_FEATURE_ROOTS | MCP_CLIENT_FEATURE_ROOTS_LIST_CHANGED);
  delegate->reply_func = roots_reply_cb;
  delegate->reply_data = &folders;

  server = g_build_filename (g_getenv ("STEWARD_PEERS_DIR"), "@modelcontextprotocol",
                             "server-filesystem", "dist", "index.js", NULL);
  argv[1] = server;
  transport = mcp_stdio_transport_new (argv);
  client = mcp_client_new (MCP_TRANSPORT (transport));
  mcp_client_set_delegate (client, MCP_CLIENT_DELEGATE (delegate));
  mcp_client_connect_async (client, NULL, store_result_cb, &result);
  wait_for (result != NULL);
  g_assert_true (mcp_client_connect_finish (client, result, &error));
  g_assert_no_error (error);

  /* The server asks for the roots once it is initialized. */
  wait_for (delegate->methods->len >= 1);

  {
    g_autoptr(McpToolResult) reply = NULL;
    g_autofree char *text = NULL;

    /* Wait until the server has taken the roots in: it lists them. */
    for (guint i = 0; i < 100; i++)
      {
        g_clear_object (&reply);
        g_free (text);
        reply = call (client, "list_allowed_directories", NULL);
        text = mcp_tool_result_dup_text (reply);
        if (strstr (text, folders.inside) != NULL)
          break;
      }
    g_assert_nonnull (strstr (text, folders.inside));
    g_assert_null (strstr (text, folders.outside));
  }

  /* Inside the root: the file's text. */
  {
    g_autoptr(McpToolResult) reply = call (client, "read_text_file", inside_file);
    g_autofree char *text = mcp_tool_result_dup_text (reply);

    g_assert_false (mcp_tool_result_get_is_error (reply));
    g_assert_cmpstr (text, ==, "the plan");
  }

  /* Outside it, directly or by climbing out: refused, nothing leaks. */
  traversal = g_build_filename (folders.inside, "..", "private", "secret.txt", NULL);
  ((const char **) attempts)[0] = outside_file;
  ((const char **) attempts)[1] = traversal;
  for (guint i = 0; attempts[i] != NULL; i++)
    {
      g_autoptr(McpToolResult) reply = call (client, "read_text_file", attempts[i]);
      g_autofree char *text = mcp_tool_result_dup_text (reply);

      g_assert_true (mcp_tool_result_get_is_error (reply));
      g_assert_nonnull (strstr (text, "Access denied"));
      g_assert_null (strstr (text, "the secret"));
    }

  g_clear_object (&result);
  mcp_client_close_async (client, NULL, store_result_cb, &result);
  wait_for (result != NULL);
  g_clear_object (&result);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_finalize_object (client);
  g_assert_finalize_object (delegate);

  g_remove (inside_file);
  g_remove (outside_file);
  g_rmdir (folders.inside);
  g_rmdir (folders.outside);
  g_rmdir (base);
  g_free (folders.inside);
  g_free (folders.outside);
  g_free (folders.root_uri);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/steward/filesystem/roots-confine-reads", test_roots_confine_reads);

  return g_test_run ();
}

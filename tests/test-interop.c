/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-interop"

#include "config.h"

#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcp-content.h"
#include "mcp-tool.h"

#include "steward-host.h"
#include "test-host-fixture.h"

/* The interop matrix: servers nobody here wrote, pinned in tests/peers,
 * each started the way its README says, from a servers file, through the
 * host as the app runs it. Every case starts one server with its consent
 * recorded beforehand, waits for it to be ready, finds its tools, and
 * calls one that works without the network. The servers that only talk
 * to a web service (context7, Notion) are called anyway, and the error
 * they give without the network must reach the caller as a clear one.
 *
 * Each server runs from the installed package (never npx, which would
 * download), with a work folder offered to every server as a root and as
 * its working folder, so that the same case holds whether the server runs
 * in a sandbox or not. */

#define wait_until(condition, seconds, ...)                                    \
  G_STMT_START {                                                              \
    gint64 deadline_ = g_get_monotonic_time () + (seconds) * G_USEC_PER_SEC;   \
    guint tick_ = g_timeout_add (50, test_tick_cb, NULL);                      \
    while (!(condition))                                                      \
      {                                                                       \
        if (g_get_monotonic_time () >= deadline_)                             \
          g_error ("timed out after %d s waiting for %s: %s", (int) (seconds), \
                   #condition, describe (__VA_ARGS__));                       \
        g_main_context_iteration (NULL, TRUE);                                \
      }                                                                       \
    g_source_remove (tick_);                                                  \
  } G_STMT_END

/* The browser the browser servers drive, from Debian's chromium package;
 * build-aux/steward-setup installs it. */
#define CHROMIUM "/usr/bin/chromium"

/* A page that needs no network; its title is what the browser servers
 * must report back. */
#define PAGE_URL "data:text/html,<title>Steward interop</title><h1>Hello</h1>"

#define GREETING "Hello from Steward's interop test"

/* What the servers speak: context7 the 2026-07-28 revision, found by
 * server/discover; the others the newest revision of initialize. */
#define MODERN "2026-07-28"
#define HANDSHAKE "2025-11-25"

typedef enum {
  EXPECT_RESULT,        /* a result, not flagged as an error */
  EXPECT_CALL_ERROR,    /* a JSON-RPC error, as a GError */
} Expect;

typedef struct _Fixture Fixture;

typedef struct {
  const char  *name;
  /* After "node": "@PEERS@" is tests/peers/node_modules, "@SERVERS@"
   * tests/peers/servers, "@WORK@" the work folder. */
  const char  *args[12];
  /* NAME=VALUE, the same replacements. */
  const char  *env[4];
  gboolean     needs_browser;
  /* The revision the handshake must settle on. */
  const char  *revision;
  guint        min_tools;
  const char  *listed_tool;
  const char  *tool;
  const char  *arguments;
  Expect       expect;
  /* In the result's text, or in the error's message. */
  const char  *expected;
  /* More checks on the server and the result's text, or NULL. */
  void       (*check) (Fixture       *fixture,
                       StewardServer *server,
                       const char    *text);
} Peer;

struct _Fixture {
  char         *top;
  char         *work;
  StewardHost  *host;
};

/* What a timed-out wait prints: where the server stands, and why. */
static const char *
describe (StewardServer *server)
{
  static char *text;

  if (server == NULL)
    return "";

  g_free (text);
  text = g_strdup_printf ("status “%s”, details: %s",
                          steward_server_get_status_text (server),
                          steward_server_get_detail_text (server)
                            ? steward_server_get_detail_text (server) : "(none)");
  return text;
}

/* How many processes run in @folder or below it: a server, and what it
 * started, such as a browser, all start in the work folder. */
static guint
count_processes_in (const char *folder)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc", 0, NULL);
  g_autofree char *below = g_strconcat (folder, "/", NULL);
  const char *name;
  guint count = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *link = NULL;
      g_autofree char *cwd = NULL;

      if (!g_ascii_isdigit (name[0]))
        continue;
      link = g_build_filename ("/proc", name, "cwd", NULL);
      /* Processes of other users, and those that just ended, cannot be
       * read; neither can be ours. */
      cwd = g_file_read_link (link, NULL);
      if (cwd != NULL && (g_str_equal (cwd, folder) || g_str_has_prefix (cwd, below)))
        count++;
    }

  return count;
}

static char *
expand (Fixture    *fixture,
        const char *text)
{
  g_autofree char *servers = g_test_build_filename (G_TEST_DIST, "peers", "servers", NULL);
  const char *peers = g_getenv ("STEWARD_PEERS_DIR");
  g_autoptr(GString) string = g_string_new (text);

  g_assert_nonnull (peers);
  g_string_replace (string, "@PEERS@", peers, 0);
  g_string_replace (string, "@SERVERS@", servers, 0);
  g_string_replace (string, "@WORK@", fixture->work, 0);
  return g_string_free (g_steal_pointer (&string), FALSE);
}

static void
write_file (const char *folder,
            const char *name,
            const char *contents)
{
  g_autofree char *path = g_build_filename (folder, name, NULL);

  test_write_text (path, contents);
}

static char *
json_text (JsonNode *node)
{
  return json_to_string (node, TRUE);
}

/* servers.json with @peer alone, as a person would write it from the
 * server's README, and roots.json offering the work folder to every
 * server. */
static void
write_config (Fixture    *fixture,
              const Peer *peer,
              const char *config_path)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *servers = NULL;
  g_autofree char *roots = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "mcpServers");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, peer->name);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "command");
  json_builder_add_string_value (builder, "node");
  json_builder_set_member_name (builder, "args");
  json_builder_begin_array (builder);
  for (guint i = 0; peer->args[i] != NULL; i++)
    {
      g_autofree char *arg = expand (fixture, peer->args[i]);

      json_builder_add_string_value (builder, arg);
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "env");
  json_builder_begin_object (builder);
  for (guint i = 0; peer->env[i] != NULL; i++)
    {
      g_autofree char *pair = expand (fixture, peer->env[i]);
      char *equals = strchr (pair, '=');

      g_assert_nonnull (equals);
      *equals = '\0';
      json_builder_set_member_name (builder, pair);
      json_builder_add_string_value (builder, equals + 1);
    }
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "cwd");
  json_builder_add_string_value (builder, fixture->work);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  servers = json_text (root);
  write_file (config_path, "servers.json", servers);

  roots = g_strdup_printf ("{\"roots\": [{\"path\": \"%s\", \"servers\": null}]}", fixture->work);
  write_file (config_path, "roots.json", roots);
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *top = NULL;

  top = g_dir_make_tmp ("test-interop-XXXXXX", &error);
  g_assert_no_error (error);
  /* Roots are canonical, and the temporary folder may be reached through a
   * link. */
  fixture->top = realpath (top, NULL);
  g_assert_nonnull (fixture->top);
  fixture->work = g_build_filename (fixture->top, "work", NULL);
  g_assert_cmpint (g_mkdir (fixture->work, 0700), ==, 0);
  write_file (fixture->work, "greeting.txt", GREETING "\n");
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  if (fixture->host != NULL)
    {
      test_host_shutdown (fixture->host, 20);

      /* Let what closed finish its last callbacks. */
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_assert_finalize_object (fixture->host);

      /* Stopping the server stopped what it started too. */
      wait_until (count_processes_in (fixture->work) == 0, 10, NULL);
    }

  test_remove_tree (fixture->top);
  g_free (fixture->work);
  free (fixture->top);
}

/* Starts the host over @peer's servers file, with the consent recorded
 * the way the consent dialog records it, and waits for the server to be
 * ready. */
static StewardServer *
start_server (Fixture    *fixture,
              const Peer *peer)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) config_dir = NULL;
  g_autoptr(GFile) state_dir = NULL;
  g_autoptr(GFile) data_dir = NULL;
  g_autofree char *config_path = g_build_filename (fixture->top, "config", NULL);
  StewardConfig *config;
  StewardServerConfig *server_config;
  StewardServer *server;

  g_assert_cmpint (g_mkdir (config_path, 0700), ==, 0);
  write_config (fixture, peer, config_path);

  config_dir = g_file_new_for_path (config_path);
  state_dir = g_file_new_build_filename (fixture->top, "state", NULL);
  data_dir = g_file_new_build_filename (fixture->top, "data", NULL);
  fixture->host = g_object_new (STEWARD_TYPE_HOST,
                                "config-dir", config_dir,
                                "state-dir", state_dir,
                                "data-dir", data_dir,
                                NULL);

  config = steward_host_get_config (fixture->host);
  g_assert_true (steward_config_load (config, NULL, &error));
  g_assert_no_error (error);
  server_config = steward_config_lookup (config, peer->name, &error);
  g_assert_no_error (error);
  test_record_consent (config, server_config);

  test_host_start (fixture->host, 60);
  server = steward_server_registry_lookup (steward_host_get_registry (fixture->host), peer->name);
  g_assert_nonnull (server);

  /* Some servers take seconds to load their modules on a busy machine,
   * and one that does not know server/discover costs the probe's wait. */
  wait_until (steward_server_get_status (server) == STEWARD_SERVER_STATUS_READY, 90, server);
  g_assert_nonnull (steward_server_get_revision (server));
  g_assert_nonnull (steward_server_get_client (server));

  return server;
}

static McpTool *
find_tool (StewardServer *server,
           const char    *name)
{
  GListModel *tools = mcp_client_get_tools (steward_server_get_client (server));

  for (guint i = 0; i < g_list_model_get_n_items (tools); i++)
    {
      g_autoptr(McpTool) tool = g_list_model_get_item (tools, i);

      if (g_str_equal (mcp_item_get_name (MCP_ITEM (tool)), name))
        return tool;
    }

  return NULL;
}

static McpToolResult *
call_tool (Fixture        *fixture,
           StewardServer  *server,
           const char     *tool,
           const char     *arguments,
           GError        **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *expanded = expand (fixture, arguments);
  JsonObject *object;

  json_parser_load_from_data (parser, expanded, -1, &local_error);
  g_assert_no_error (local_error);
  object = json_node_get_object (json_parser_get_root (parser));

  /* A browser server launches its browser on the first call. */
  steward_server_call_tool_async (server, tool, object, NULL, NULL, NULL, NULL,
                                  test_store_result_cb, &result);
  wait_until (result != NULL, 90, server);

  return steward_server_call_tool_finish (server, result, error);
}

static void
test_peer (Fixture       *fixture,
           gconstpointer  data)
{
  const Peer *peer = data;
  StewardServer *server;
  GListModel *tools;
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  if (peer->needs_browser && !g_file_test (CHROMIUM, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_fail_printf ("%s is missing: install Debian's chromium package "
                          "(build-aux/steward-setup does)", CHROMIUM);
      return;
    }

  server = start_server (fixture, peer);
  g_test_message ("%s: ready over stdio, revision %s", peer->name,
                  steward_server_get_revision (server));
  g_assert_cmpstr (steward_server_get_revision (server), ==, peer->revision);

  /* The tool list arrives just after the handshake. */
  tools = mcp_client_get_tools (steward_server_get_client (server));
  wait_until (find_tool (server, peer->listed_tool) != NULL, 30, server);
  g_assert_cmpuint (g_list_model_get_n_items (tools), >=, peer->min_tools);
  g_test_message ("%s: %u tools", peer->name, g_list_model_get_n_items (tools));

  result = call_tool (fixture, server, peer->tool, peer->arguments, &error);
  if (peer->expect == EXPECT_CALL_ERROR)
    {
      g_assert_null (result);
      g_assert_nonnull (error);
      g_test_message ("%s: %s failed as it must offline: %s", peer->name, peer->tool,
                      error->message);
      g_assert_nonnull (strstr (error->message, peer->expected));
      return;
    }

  g_assert_no_error (error);
  g_assert_nonnull (result);
  g_test_message ("%s: processes in the work folder: %u", peer->name,
                  count_processes_in (fixture->work));
  text = mcp_tool_result_dup_text (result);
  g_test_message ("%s: %s said: %.200s", peer->name, peer->tool, text);
  g_assert_false (mcp_tool_result_get_is_error (result));
  g_assert_nonnull (strstr (text, peer->expected));
  if (peer->check != NULL)
    peer->check (fixture, server, text);
}

/* The memory server wrote the entity to the file it was given. */
static void
check_memory (Fixture       *fixture,
              StewardServer *server,
              const char    *text)
{
  g_autofree char *path = g_build_filename (fixture->work, "memory.jsonl", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (contents, "\"name\":\"Steward\""));
}

/* An MCP Apps tool names its view, a ui:// resource of HTML that an app
 * host shows beside the result; the resource reads as such. */
static void
check_app_view (StewardServer *server,
                const char    *tool_name)
{
  McpTool *tool = find_tool (server, tool_name);
  McpClient *client = steward_server_get_client (server);
  JsonObject *json = mcp_item_get_json (MCP_ITEM (tool));
  JsonObject *meta;
  JsonObject *ui;
  const char *uri;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) contents = NULL;
  g_autoptr(GError) error = NULL;
  McpContent *content;

  g_assert_true (json_object_has_member (json, "_meta"));
  meta = json_object_get_object_member (json, "_meta");
  g_assert_true (json_object_has_member (meta, "ui"));
  ui = json_object_get_object_member (meta, "ui");
  g_assert_true (json_object_has_member (ui, "resourceUri"));
  uri = json_object_get_string_member (ui, "resourceUri");
  g_assert_true (g_str_has_prefix (uri, "ui://"));

  mcp_client_read_resource_async (client, uri, NULL, test_store_result_cb, &result);
  wait_until (result != NULL, 30, server);
  contents = mcp_client_read_resource_finish (client, result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (contents->len, ==, 1);
  content = g_ptr_array_index (contents, 0);
  g_assert_cmpstr (mcp_content_get_uri (content), ==, uri);
  g_assert_cmpstr (mcp_content_get_mime_type (content), ==, "text/html;profile=mcp-app");
  g_assert_false (mcp_content_is_blob (content));
  g_assert_nonnull (strstr (mcp_content_get_text (content), "<html"));
}

/* The basic example's time is a date and time in ISO 8601. */
static void
check_basic_app (Fixture       *fixture,
                 StewardServer *server,
                 const char    *text)
{
  g_autoptr(GDateTime) time = g_date_time_new_from_iso8601 (text, NULL);

  g_assert_nonnull (time);
  check_app_view (server, "get-time");
}

static void
check_system_monitor (Fixture       *fixture,
                      StewardServer *server,
                      const char    *text)
{
  check_app_view (server, "get-system-info");
}

/* fastmcp's UserError reaches the caller as a tool error with its text. */
static void
check_fastmcp (Fixture       *fixture,
               StewardServer *server,
               const char    *text)
{
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *error_text = NULL;

  g_assert_cmpstr (text, ==, "42");
  result = call_tool (fixture, server, "shout", "{\"text\": \"\"}", &error);
  g_assert_no_error (error);
  g_assert_true (mcp_tool_result_get_is_error (result));
  error_text = mcp_tool_result_dup_text (result);
  g_assert_cmpstr (error_text, ==, "There is nothing to shout.");
}

static const Peer peers[] = {
  {
    .name = "everything",
    .revision = HANDSHAKE,
    .args = { "@PEERS@/@modelcontextprotocol/server-everything/dist/index.js", "stdio" },
    .min_tools = 10,
    .listed_tool = "echo",
    .tool = "echo",
    .arguments = "{\"message\": \"hello through the host\"}",
    .expected = "hello through the host",
  },
  {
    .name = "filesystem",
    .revision = HANDSHAKE,
    .args = { "@PEERS@/@modelcontextprotocol/server-filesystem/dist/index.js", "@WORK@" },
    .min_tools = 10,
    .listed_tool = "list_directory",
    .tool = "list_directory",
    .arguments = "{\"path\": \"@WORK@\"}",
    .expected = "[FILE] greeting.txt",
  },
  {
    .name = "memory",
    .revision = HANDSHAKE,
    .args = { "@PEERS@/@modelcontextprotocol/server-memory/dist/index.js" },
    .env = { "MEMORY_FILE_PATH=@WORK@/memory.jsonl" },
    .min_tools = 9,
    .listed_tool = "create_entities",
    .tool = "create_entities",
    .arguments = "{\"entities\": [{\"name\": \"Steward\", \"entityType\": \"application\","
                 " \"observations\": [\"hosts MCP servers\"]}]}",
    .expected = "hosts MCP servers",
    .check = check_memory,
  },
  {
    .name = "sequential-thinking",
    .revision = HANDSHAKE,
    .args = { "@PEERS@/@modelcontextprotocol/server-sequential-thinking/dist/index.js" },
    .min_tools = 1,
    .listed_tool = "sequentialthinking",
    .tool = "sequentialthinking",
    .arguments = "{\"thought\": \"Start from the first step.\", \"nextThoughtNeeded\": false,"
                 " \"thoughtNumber\": 1, \"totalThoughts\": 1}",
    .expected = "\"thoughtHistoryLength\": 1",
  },
  {
    /* Playwright's default is Google Chrome; its README's options choose
     * another browser and keep the profile in memory. */
    .name = "playwright",
    .revision = HANDSHAKE,
    .args = { "@PEERS@/@playwright/mcp/cli.js", "--headless", "--browser", "chromium",
              "--executable-path", CHROMIUM, "--isolated", "--output-dir", "@WORK@/playwright" },
    .needs_browser = TRUE,
    .min_tools = 15,
    .listed_tool = "browser_navigate",
    .tool = "browser_navigate",
    .arguments = "{\"url\": \"" PAGE_URL "\"}",
    .expected = "Page Title: Steward interop",
  },
  {
    /* Both of its tools ask context7.com, which cannot be reached here:
     * the call must come back, with the server's own words for it. */
    .name = "context7",
    .revision = MODERN,
    .args = { "@PEERS@/@upstash/context7-mcp/dist/index.js" },
    .min_tools = 2,
    .listed_tool = "resolve-library-id",
    .tool = "resolve-library-id",
    .arguments = "{\"libraryName\": \"glib\", \"query\": \"How does the GLib main loop run?\"}",
    .expected = "fetch failed",
  },
  {
    /* Chrome starts neither as root nor inside another sandbox with its
     * own sandbox on; the README's --chrome-arg turns that off. */
    .name = "chrome-devtools",
    .revision = HANDSHAKE,
    .args = { "@PEERS@/chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js", "--headless",
              "--isolated", "--executable-path", CHROMIUM, "--chrome-arg=--no-sandbox",
              "--no-usage-statistics" },
    .env = { "CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS=1" },
    .needs_browser = TRUE,
    .min_tools = 15,
    .listed_tool = "new_page",
    .tool = "new_page",
    .arguments = "{\"url\": \"" PAGE_URL "\"}",
    .expected = "Steward interop (data:text/html",
  },
  {
    /* Every tool is a call to api.notion.com: the failure must reach the
     * caller as an error that names the host it could not reach. */
    .name = "notion",
    .revision = HANDSHAKE,
    .args = { "@PEERS@/@notionhq/notion-mcp-server/bin/cli.mjs" },
    .env = { "NOTION_TOKEN=ntn_interop_test_token" },
    .min_tools = 10,
    .listed_tool = "API-get-self",
    .tool = "API-get-self",
    .arguments = "{}",
    .expect = EXPECT_CALL_ERROR,
    .expected = "api.notion.com",
  },
  {
    .name = "desktop-commander",
    .revision = HANDSHAKE,
    .args = { "@PEERS@/@wonderwhy-er/desktop-commander/dist/index.js" },
    .min_tools = 15,
    .listed_tool = "read_file",
    .tool = "read_file",
    .arguments = "{\"path\": \"@WORK@/greeting.txt\"}",
    .expected = GREETING,
  },
  {
    .name = "basic-vanillajs",
    .revision = HANDSHAKE,
    .args = { "@PEERS@/@modelcontextprotocol/server-basic-vanillajs/dist/index.js", "--stdio" },
    .min_tools = 1,
    .listed_tool = "get-time",
    .tool = "get-time",
    .arguments = "{}",
    .expected = "T",
    .check = check_basic_app,
  },
  {
    .name = "system-monitor",
    .revision = HANDSHAKE,
    .args = { "@PEERS@/@modelcontextprotocol/server-system-monitor/dist/index.js", "--stdio" },
    .min_tools = 2,
    .listed_tool = "get-system-info",
    .tool = "get-system-info",
    .arguments = "{}",
    .expected = "\"platform\":\"linux",
    .check = check_system_monitor,
  },
  {
    .name = "fastmcp",
    .revision = HANDSHAKE,
    .args = { "@SERVERS@/fastmcp-server.mjs" },
    .min_tools = 2,
    .listed_tool = "shout",
    .tool = "add",
    .arguments = "{\"a\": 2, \"b\": 40}",
    .expected = "42",
    .check = check_fastmcp,
  },
};

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (peers); i++)
    {
      g_autofree char *path = g_strdup_printf ("/steward/interop/%s", peers[i].name);

      g_test_add (path, Fixture, &peers[i], fixture_set_up, test_peer, fixture_tear_down);
    }

  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-app-meta"

#include "config.h"

#include <string.h>

#include "mcp-app-resource-meta.h"
#include "mcp-error.h"
#include "mcp-json.h"
#include "mcp-tool.h"
#include "steward-app-csp.h"

static JsonObject *
parse_object (const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = mcp_json_parse (text, -1, &error);

  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  return json_object_ref (json_node_get_object (node));
}

static McpAppResourceMeta *
meta_from (const char  *ui_json,
           GError     **error)
{
  g_autoptr(JsonObject) ui = parse_object (ui_json);

  return mcp_app_resource_meta_new_from_json (ui, error);
}

/* Every origin a server may write, and every one it may not. */
static void
test_domains (void)
{
  const struct {
    const char       *domain;
    McpAppDomainKind  kind;
    gboolean          valid;
  } cases[] = {
    { "https://cdn.example.com", MCP_APP_DOMAIN_RESOURCE, TRUE },
    { "https://cdn.example.com/", MCP_APP_DOMAIN_RESOURCE, TRUE },
    { "https://CDN.Example.com:8443", MCP_APP_DOMAIN_RESOURCE, TRUE },
    { "https://*.example.com", MCP_APP_DOMAIN_RESOURCE, TRUE },
    { "https://127.0.0.1", MCP_APP_DOMAIN_RESOURCE, TRUE },
    { "http://localhost:5173", MCP_APP_DOMAIN_RESOURCE, TRUE },
    { "http://[::1]:3000", MCP_APP_DOMAIN_CONNECT, TRUE },
    { "wss://realtime.example.com", MCP_APP_DOMAIN_CONNECT, TRUE },
    { "ws://localhost:9000", MCP_APP_DOMAIN_CONNECT, TRUE },
    /* Keywords, wildcards and schemes that would open everything */
    { "*", MCP_APP_DOMAIN_RESOURCE, FALSE },
    { "https://*", MCP_APP_DOMAIN_RESOURCE, FALSE },
    { "https://*.com", MCP_APP_DOMAIN_RESOURCE, FALSE },
    { "https://*.*.example.com", MCP_APP_DOMAIN_RESOURCE, FALSE },
    { "https://ex*ample.com", MCP_APP_DOMAIN_RESOURCE, FALSE },
    { "'unsafe-eval'", MCP_APP_DOMAIN_RESOURCE, FALSE },
    { "'unsafe-inline'", MCP_APP_DOMAIN_RESOURCE, FALSE },
    { "'self'", MCP_APP_DOMAIN_RESOURCE, FALSE },
    { "'none'", MCP_APP_DOMAIN_FRAME, FALSE },
    { "'nonce-abc'", MCP_APP_DOMAIN_RESOURCE, FALSE },
    { "data:", MCP_APP_DOMAIN_RESOURCE, FALSE },
    { "blob:", MCP_APP_DOMAIN_RESOURCE, FALSE },
    { "https:", MCP_APP_DOMAIN_RESOURCE, FALSE },
    { "javascript:alert(1)", MCP_APP_DOMAIN_RESOURCE, FALSE },
    { "file:///etc/passwd", MCP_APP_DOMAIN_RESOURCE, FALSE },
    { "ftp://example.com", MCP_APP_DOMAIN_RESOURCE, FALSE },
    { "example.com", MCP_APP_DOMAIN_RESOURCE, FALSE },
    { "", MCP_APP_DOMAIN_RESOURCE, FALSE },
    /* Injection into the header */
    { "https://a.example.com; script-src *", MCP_APP_DOMAIN_RESOURCE, FALSE },
    { "https://a.example.com;script-src", MCP_APP_DOMAIN_RESOURCE, FALSE },
    { "https://a.example.com 'unsafe-eval'", MCP_APP_DOMAIN_RESOURCE, FALSE },
    { "https://a.example.com,https://b.example.com", MCP_APP_DOMAIN_RESOURCE, FALSE },
    { "https://a.example.com\r\nX-Evil: 1", MCP_APP_DOMAIN_RESOURCE, FALSE },
    { "https://a.example.com\t", MCP_APP_DOMAIN_RESOURCE, FALSE },
    { "https://a.example.com\"", MCP_APP_DOMAIN_RESOURCE, FALSE },
    /* More than an origin */
    { "https://example.com/path", MCP_APP_DOMAIN_RESOURCE, FALSE },
    { "https://example.com?q=1", MCP_APP_DOMAIN_RESOURCE, FALSE },
    { "https://example.com#x", MCP_APP_DOMAIN_RESOURCE, FALSE },
    { "https://user@example.com", MCP_APP_DOMAIN_RESOURCE, FALSE },
    { "https://user:pw@example.com", MCP_APP_DOMAIN_RESOURCE, FALSE },
    { "https://example.com:0", MCP_APP_DOMAIN_RESOURCE, FALSE },
    { "https://example.com:65536", MCP_APP_DOMAIN_RESOURCE, FALSE },
    { "https://example.com:*", MCP_APP_DOMAIN_RESOURCE, FALSE },
    { "https://-bad.example.com", MCP_APP_DOMAIN_RESOURCE, FALSE },
    { "https://[2001:db8::1]", MCP_APP_DOMAIN_RESOURCE, FALSE },
    { "https://ex\u00e4mple.com", MCP_APP_DOMAIN_RESOURCE, FALSE },
    /* Unencrypted beyond this computer, and wss where only pages load */
    { "http://example.com", MCP_APP_DOMAIN_RESOURCE, FALSE },
    { "http://*.localhost", MCP_APP_DOMAIN_RESOURCE, FALSE },
    { "ws://example.com", MCP_APP_DOMAIN_CONNECT, FALSE },
    { "wss://realtime.example.com", MCP_APP_DOMAIN_RESOURCE, FALSE },
    { "wss://realtime.example.com", MCP_APP_DOMAIN_FRAME, FALSE },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      gboolean valid = mcp_app_domain_check (cases[i].domain, cases[i].kind, &error);

      if (valid != cases[i].valid)
        g_error ("“%s”: expected %s, got %s", cases[i].domain,
                 cases[i].valid ? "valid" : "refused", valid ? "valid" : "refused");

      if (!valid)
        {
          g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS);
          g_assert_nonnull (strstr (error->message, "origin"));
        }
    }
}

static void
test_parse (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpAppResourceMeta) meta = NULL;
  g_autoptr(JsonObject) content = NULL;

  meta = meta_from ("{\"csp\": {\"connectDomains\": [\"https://API.example.com/\"],"
                    "          \"resourceDomains\": [\"https://cdn.example.com\","
                    "                                \"https://*.static.example\"],"
                    "          \"frameDomains\": [\"https://www.youtube.com\"],"
                    "          \"baseUriDomains\": []},"
                    " \"permissions\": {\"camera\": {}, \"clipboardWrite\": {}, \"teleport\": {}},"
                    " \"domain\": \"a904794854a047f6.example.com\","
                    " \"prefersBorder\": false}", &error);
  g_assert_no_error (error);
  g_assert_cmpstrv (mcp_app_resource_meta_get_connect_domains (meta),
                    ((const char *[]) { "https://api.example.com", NULL }));
  g_assert_cmpstrv (mcp_app_resource_meta_get_resource_domains (meta),
                    ((const char *[]) { "https://cdn.example.com", "https://*.static.example",
                                        NULL }));
  g_assert_cmpstrv (mcp_app_resource_meta_get_frame_domains (meta),
                    ((const char *[]) { "https://www.youtube.com", NULL }));
  g_assert_cmpuint (g_strv_length ((GStrv) mcp_app_resource_meta_get_base_uri_domains (meta)),
                    ==, 0);
  g_assert_cmpint (mcp_app_resource_meta_get_permissions (meta), ==,
                   MCP_APP_PERMISSION_CAMERA | MCP_APP_PERMISSION_CLIPBOARD_WRITE);
  g_assert_cmpstr (mcp_app_resource_meta_get_domain (meta), ==, "a904794854a047f6.example.com");
  g_assert_cmpint (mcp_app_resource_meta_get_border (meta), ==, MCP_APP_BORDER_NONE);
  g_assert_finalize_object (g_steal_pointer (&meta));

  /* From a resources/read content item, with and without _meta.ui */
  content = parse_object ("{\"uri\": \"ui://x/view.html\", \"mimeType\": \"text/html;profile=mcp-app\","
                          " \"text\": \"<p>\", \"_meta\": {\"ui\": {\"prefersBorder\": true}}}");
  meta = mcp_app_resource_meta_new_from_content (content, &error);
  g_assert_no_error (error);
  g_assert_cmpint (mcp_app_resource_meta_get_border (meta), ==, MCP_APP_BORDER_VISIBLE);
  g_assert_finalize_object (g_steal_pointer (&meta));
  json_object_unref (content);

  content = parse_object ("{\"uri\": \"ui://x/view.html\", \"text\": \"<p>\"}");
  meta = mcp_app_resource_meta_new_from_content (content, &error);
  g_assert_no_error (error);
  g_assert_cmpint (mcp_app_resource_meta_get_border (meta), ==, MCP_APP_BORDER_HOST_DECIDES);
  g_assert_cmpint (mcp_app_resource_meta_get_permissions (meta), ==, MCP_APP_PERMISSION_NONE);
  g_assert_null (mcp_app_resource_meta_get_domain (meta));
  g_assert_finalize_object (g_steal_pointer (&meta));
}

/* A declaration of the wrong shape, or with one bad origin among good
 * ones, fails whole, and the error names the field. */
static void
test_parse_refused (void)
{
  const struct {
    const char *json;
    const char *named;
  } cases[] = {
    { "{\"csp\": \"default-src *\"}", "csp" },
    { "{\"csp\": {\"connectDomains\": \"https://a.example.com\"}}", "connectDomains" },
    { "{\"csp\": {\"resourceDomains\": [\"https://a.example.com\", \"*\"]}}", "resourceDomains" },
    { "{\"csp\": {\"resourceDomains\": [42]}}", "resourceDomains" },
    { "{\"csp\": {\"frameDomains\": [\"https://a.example.com; frame-ancestors *\"]}}",
      "frameDomains" },
    { "{\"csp\": {\"baseUriDomains\": [\"'unsafe-eval'\"]}}", "baseUriDomains" },
    { "{\"csp\": {\"connectDomains\": [\"data:\"]}}", "connectDomains" },
    { "{\"permissions\": [\"camera\"]}", "permissions" },
    { "{\"domain\": \"https://evil.example.com/x\"}", "domain" },
    { "{\"domain\": \"*.example.com\"}", "domain" },
    { "{\"domain\": 7}", "domain" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(McpAppResourceMeta) meta = meta_from (cases[i].json, &error);

      g_assert_null (meta);
      g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS);
      if (strstr (error->message, cases[i].named) == NULL)
        g_error ("%s: “%s” does not name %s", cases[i].json, error->message, cases[i].named);
    }

  /* A flood of origins is refused, not copied into every header. */
  {
    g_autoptr(GString) json = g_string_new ("{\"csp\": {\"connectDomains\": [");
    g_autoptr(GError) error = NULL;
    g_autoptr(McpAppResourceMeta) meta = NULL;

    for (guint i = 0; i < 1000; i++)
      g_string_append_printf (json, "%s\"https://h%u.example.com\"", i ? "," : "", i);
    g_string_append (json, "]}}");
    meta = meta_from (json->str, &error);
    g_assert_null (meta);
    g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS);
  }
}

static GHashTable *
split_policy (const char *policy)
{
  GHashTable *directives = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_auto(GStrv) parts = g_strsplit (policy, "; ", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      char *space = strchr (parts[i], ' ');

      g_assert_nonnull (space);
      g_assert_false (g_hash_table_contains (directives, parts[i]));
      g_hash_table_insert (directives, g_strndup (parts[i], space - parts[i]),
                           g_strdup (space + 1));
    }

  return directives;
}

static void
test_csp_default (void)
{
  g_autofree char *policy = steward_app_csp_build (NULL);
  g_autoptr(GHashTable) directives = split_policy (policy);

  g_test_message ("default: %s", policy);
  g_assert_cmpstr (g_hash_table_lookup (directives, "default-src"), ==, "'none'");
  g_assert_cmpstr (g_hash_table_lookup (directives, "script-src"), ==, "'self' 'unsafe-inline'");
  g_assert_cmpstr (g_hash_table_lookup (directives, "style-src"), ==, "'self' 'unsafe-inline'");
  g_assert_cmpstr (g_hash_table_lookup (directives, "img-src"), ==, "'self' data:");
  g_assert_cmpstr (g_hash_table_lookup (directives, "media-src"), ==, "'self' data:");
  g_assert_cmpstr (g_hash_table_lookup (directives, "connect-src"), ==, "'none'");
  g_assert_cmpstr (g_hash_table_lookup (directives, "frame-src"), ==, "'none'");
  g_assert_cmpstr (g_hash_table_lookup (directives, "object-src"), ==, "'none'");
  g_assert_cmpstr (g_hash_table_lookup (directives, "base-uri"), ==, "'self'");
  g_assert_cmpstr (g_hash_table_lookup (directives, "form-action"), ==, "'none'");
  g_assert_null (strstr (policy, "unsafe-eval"));
  g_assert_null (strstr (policy, "*"));
  g_assert_null (strstr (policy, "http"));
}

static void
test_csp_widened (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpAppResourceMeta) meta = NULL;
  g_autofree char *policy = NULL;
  g_autoptr(GHashTable) directives = NULL;

  meta = meta_from ("{\"csp\": {\"connectDomains\": [\"https://api.example.com\","
                    "                               \"wss://live.example.com\"],"
                    "          \"resourceDomains\": [\"https://*.cdn.example\"],"
                    "          \"frameDomains\": [\"https://player.example.com\"],"
                    "          \"baseUriDomains\": [\"https://base.example.com\"]}}", &error);
  g_assert_no_error (error);
  policy = steward_app_csp_build (meta);
  g_test_message ("widened: %s", policy);
  directives = split_policy (policy);

  g_assert_cmpstr (g_hash_table_lookup (directives, "default-src"), ==, "'none'");
  g_assert_cmpstr (g_hash_table_lookup (directives, "connect-src"), ==,
                   "https://api.example.com wss://live.example.com");
  g_assert_cmpstr (g_hash_table_lookup (directives, "script-src"), ==,
                   "'self' 'unsafe-inline' https://*.cdn.example");
  g_assert_cmpstr (g_hash_table_lookup (directives, "img-src"), ==,
                   "'self' data: https://*.cdn.example");
  g_assert_cmpstr (g_hash_table_lookup (directives, "font-src"), ==,
                   "'self' data: https://*.cdn.example");
  g_assert_cmpstr (g_hash_table_lookup (directives, "frame-src"), ==,
                   "https://player.example.com");
  g_assert_cmpstr (g_hash_table_lookup (directives, "base-uri"), ==, "https://base.example.com");
  g_assert_cmpstr (g_hash_table_lookup (directives, "object-src"), ==, "'none'");
  /* Connection origins do not become script origins, nor the reverse. */
  g_assert_null (strstr (g_hash_table_lookup (directives, "script-src"), "api.example.com"));
  g_assert_null (strstr (g_hash_table_lookup (directives, "connect-src"), "cdn.example"));
  g_assert_null (strstr (policy, "unsafe-eval"));
}

/* Whatever a hostile server writes, the policy it gets is the default or
 * no view at all: never one wider than the origins it named. */
static void
test_csp_hostile (void)
{
  const char *hostile[] = {
    "*", "'unsafe-eval'", "'unsafe-hashes'", "'strict-dynamic'", "data:", "blob:",
    "filesystem:", "https:", "http:", "https://*", "https://a.example.com; script-src *",
    "https://a.example.com;default-src *", "https://a.example.com\nscript-src *",
    "https://a.example.com 'unsafe-eval'", "javascript:", "'self'", "'wasm-unsafe-eval'",
  };
  const char *fields[] = { "connectDomains", "resourceDomains", "frameDomains",
                           "baseUriDomains" };
  g_autofree char *default_policy = steward_app_csp_build (NULL);

  for (gsize i = 0; i < G_N_ELEMENTS (hostile); i++)
    for (gsize f = 0; f < G_N_ELEMENTS (fields); f++)
      {
        g_autoptr(JsonObject) ui = json_object_new ();
        g_autoptr(JsonObject) csp = json_object_new ();
        g_autoptr(JsonArray) list = json_array_new ();
        g_autoptr(GError) error = NULL;
        g_autoptr(McpAppResourceMeta) meta = NULL;

        json_array_add_string_element (list, hostile[i]);
        json_object_set_array_member (csp, fields[f], json_array_ref (list));
        json_object_set_object_member (ui, "csp", json_object_ref (csp));
        meta = mcp_app_resource_meta_new_from_json (ui, &error);
        g_assert_null (meta);
        g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS);
      }

  g_assert_null (strstr (default_policy, "unsafe-eval"));
}

static McpTool *
tool_from (const char *json)
{
  g_autoptr(JsonObject) object = parse_object (json);
  g_autoptr(GError) error = NULL;
  McpTool *tool = mcp_tool_new (object, &error);

  g_assert_no_error (error);
  return tool;
}

static void
test_tool_meta (void)
{
  const struct {
    const char *meta;
    const char *uri;
    gboolean    model;
    gboolean    app;
  } cases[] = {
    { "{}", NULL, TRUE, TRUE },
    { "{\"ui\": {\"resourceUri\": \"ui://weather/view.html\"}}", "ui://weather/view.html",
      TRUE, TRUE },
    { "{\"ui/resourceUri\": \"ui://old/view.html\"}", "ui://old/view.html", TRUE, TRUE },
    { "{\"ui\": {\"resourceUri\": \"ui://new.html\"}, \"ui/resourceUri\": \"ui://old.html\"}",
      "ui://new.html", TRUE, TRUE },
    { "{\"ui\": {\"resourceUri\": \"https://evil.example.com/view.html\"}}", NULL, TRUE, TRUE },
    { "{\"ui\": {\"resourceUri\": \"ui://\"}}", NULL, TRUE, TRUE },
    { "{\"ui\": {\"resourceUri\": 7}}", NULL, TRUE, TRUE },
    { "{\"ui\": {\"visibility\": [\"app\"]}}", NULL, FALSE, TRUE },
    { "{\"ui\": {\"visibility\": [\"model\"]}}", NULL, TRUE, FALSE },
    { "{\"ui\": {\"visibility\": [\"model\", \"app\"]}}", NULL, TRUE, TRUE },
    { "{\"ui\": {\"visibility\": []}}", NULL, FALSE, FALSE },
    { "{\"ui\": {\"visibility\": \"app\"}}", NULL, FALSE, TRUE },
    { "{\"ui\": {\"visibility\": [1, \"app\", null]}}", NULL, FALSE, TRUE },
    { "{\"ui\": {\"visibility\": {\"model\": true}}}", NULL, TRUE, TRUE },
    { "{\"ui\": 3}", NULL, TRUE, TRUE },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *json = g_strdup_printf ("{\"name\": \"t\", \"inputSchema\": "
                                               "{\"type\": \"object\"}, \"_meta\": %s}",
                                               cases[i].meta);
      g_autoptr(McpTool) tool = tool_from (json);

      g_test_message ("%s", cases[i].meta);
      g_assert_cmpstr (mcp_tool_get_ui_resource_uri (tool), ==, cases[i].uri);
      g_assert_cmpint (mcp_tool_get_visible_to_model (tool), ==, cases[i].model);
      g_assert_cmpint (mcp_tool_get_visible_to_app (tool), ==, cases[i].app);
    }
}

static void
test_capabilities (void)
{
  g_autoptr(JsonObject) capabilities = parse_object ("{\"extensions\": "
                                                     "{\"io.modelcontextprotocol/tasks\": {}}}");
  JsonObject *ui;
  JsonArray *mime_types;

  mcp_app_add_capabilities (capabilities);
  g_assert_nonnull (mcp_json_get_object (mcp_json_get_object (capabilities, "extensions"),
                                         "io.modelcontextprotocol/tasks"));
  ui = mcp_json_get_object (mcp_json_get_object (capabilities, "extensions"),
                            "io.modelcontextprotocol/ui");
  g_assert_nonnull (ui);
  mime_types = mcp_json_get_array (ui, "mimeTypes");
  g_assert_nonnull (mime_types);
  g_assert_cmpuint (json_array_get_length (mime_types), ==, 1);
  g_assert_cmpstr (json_array_get_string_element (mime_types, 0), ==,
                   "text/html;profile=mcp-app");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/steward/app-meta/domains", test_domains);
  g_test_add_func ("/steward/app-meta/parse", test_parse);
  g_test_add_func ("/steward/app-meta/parse-refused", test_parse_refused);
  g_test_add_func ("/steward/app-meta/csp-default", test_csp_default);
  g_test_add_func ("/steward/app-meta/csp-widened", test_csp_widened);
  g_test_add_func ("/steward/app-meta/csp-hostile", test_csp_hostile);
  g_test_add_func ("/steward/app-meta/tool-meta", test_tool_meta);
  g_test_add_func ("/steward/app-meta/capabilities", test_capabilities);

  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "tools-server"

#include "config.h"

/*
 * A stdio MCP server with many tools (1,000 by default), for the Tools
 * page benchmark: each tool has a title, a description of a couple of
 * sentences and an input schema of six properties of different kinds
 * (string, integer with bounds, enum, array, nested object, boolean), as
 * the tools of a large API-wrapping server do.
 *
 * Calling any tool answers with one line of text. Calling `catalog_touch`
 * also changes every tool's description (a revision number in it), or
 * only that of the tool at index `only` when it is given, and then sends
 * notifications/tools/list_changed, so that the client lists the tools
 * again: the benchmark times that listing.
 *
 *   tools-server [--tools N]
 *
 * Requests are answered in order, one line each; it needs no main loop.
 */

#include <json-glib/json-glib.h>
#include <stdio.h>
#include <stdlib.h>

static const char *const domains[] = {
  "orders", "customers", "invoices", "tickets", "repos", "files", "calendar", "mail",
  "builds", "alerts",
};

static const char *const verbs[] = {
  "list", "get", "create", "update", "delete", "search", "export", "archive",
};

static guint n_tools = 1000;
static guint *revisions;

static void
send_line (GString *line)
{
  g_string_append_c (line, '\n');
  fwrite (line->str, 1, line->len, stdout);
  fflush (stdout);
}

/* The touch tool comes first, so that it is found at once in the list. */
static void
append_tool (GString *out,
             guint    i)
{
  const char *domain = domains[i % G_N_ELEMENTS (domains)];
  const char *verb = verbs[(i / G_N_ELEMENTS (domains)) % G_N_ELEMENTS (verbs)];
  g_autofree char *name = NULL;

  if (i == 0)
    name = g_strdup ("catalog_touch");
  else
    name = g_strdup_printf ("%s_%s_%04u", domain, verb, i);

  g_string_append_printf (
    out,
    "{\"name\":\"%s\",\"title\":\"%c%s %s #%u\","
    "\"description\":\"%s %s in the workspace, page by page (revision %u). Use the filter to "
    "narrow by status or date; results over the limit are cut and say so.\","
    "\"inputSchema\":{\"type\":\"object\",\"properties\":{"
    "\"id\":{\"type\":\"string\",\"description\":\"Which of the %s to act on\"},"
    "\"limit\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":100,\"default\":20,"
    "\"description\":\"How many results at most\"},"
    "\"status\":{\"type\":\"string\",\"enum\":[\"open\",\"closed\",\"pending\",\"all\"]},"
    "\"labels\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},"
    "\"description\":\"Only those with all of these labels\"},"
    "\"filter\":{\"type\":\"object\",\"properties\":{"
    "\"since\":{\"type\":\"string\",\"format\":\"date-time\"},"
    "\"until\":{\"type\":\"string\",\"format\":\"date-time\"}}},"
    "\"dry_run\":{\"type\":\"boolean\",\"description\":\"Say what would change, change nothing\"}"
    "},\"required\":[\"id\"]},"
    "\"annotations\":{\"readOnlyHint\":%s}}",
    name, g_ascii_toupper (verb[0]), verb + 1, domain, i, verb, domain, revisions[i], domain,
    g_str_equal (verb, "list") || g_str_equal (verb, "get") || g_str_equal (verb, "search")
      ? "true" : "false");
}

static void
answer (JsonNode   *id,
        const char *result)
{
  g_autoptr(GString) line = g_string_new ("{\"jsonrpc\":\"2.0\",\"id\":");
  g_autofree char *id_text = json_to_string (id, FALSE);

  g_string_append_printf (line, "%s,\"result\":%s}", id_text, result);
  send_line (line);
}

static void
handle (JsonObject *message)
{
  const char *method = json_object_get_string_member_with_default (message, "method", NULL);
  JsonNode *id = json_object_get_member (message, "id");
  JsonNode *params_node = json_object_get_member (message, "params");
  JsonObject *params = params_node != NULL && JSON_NODE_HOLDS_OBJECT (params_node)
                       ? json_node_get_object (params_node) : NULL;

  /* Notifications and the client's answers need nothing from us. */
  if (method == NULL || id == NULL)
    return;

  if (g_str_equal (method, "initialize"))
    {
      const char *revision = params != NULL
        ? json_object_get_string_member_with_default (params, "protocolVersion", "2025-06-18")
        : "2025-06-18";
      g_autofree char *result = g_strdup_printf (
        "{\"protocolVersion\":\"%s\",\"capabilities\":{\"tools\":{\"listChanged\":true}},"
        "\"serverInfo\":{\"name\":\"tools-server\",\"version\":\"1.0\"}}", revision);

      answer (id, result);
    }
  else if (g_str_equal (method, "ping"))
    answer (id, "{}");
  else if (g_str_equal (method, "tools/list"))
    {
      g_autoptr(GString) result = g_string_new ("{\"tools\":[");

      for (guint i = 0; i < n_tools; i++)
        {
          if (i > 0)
            g_string_append_c (result, ',');
          append_tool (result, i);
        }
      g_string_append (result, "]}");
      answer (id, result->str);
    }
  else if (g_str_equal (method, "tools/call"))
    {
      const char *name = params != NULL
        ? json_object_get_string_member_with_default (params, "name", "") : "";
      g_autoptr(GString) line = NULL;
      g_autofree char *result = g_strdup_printf (
        "{\"content\":[{\"type\":\"text\",\"text\":\"%s done\"}]}",
        g_str_equal (name, "catalog_touch") ? "catalog_touch" : "call");

      answer (id, result);
      if (g_str_equal (name, "catalog_touch"))
        {
          JsonNode *arguments = json_object_get_member (params, "arguments");
          gint64 only = arguments != NULL && JSON_NODE_HOLDS_OBJECT (arguments)
            ? json_object_get_int_member_with_default (json_node_get_object (arguments),
                                                      "only", -1)
            : -1;

          if (only >= 0 && only < n_tools)
            revisions[only]++;
          else
            for (guint i = 0; i < n_tools; i++)
              revisions[i]++;
          line = g_string_new ("{\"jsonrpc\":\"2.0\","
                               "\"method\":\"notifications/tools/list_changed\"}");
          send_line (line);
        }
    }
  else
    {
      g_autoptr(GString) line = g_string_new ("{\"jsonrpc\":\"2.0\",\"id\":");
      g_autofree char *id_text = json_to_string (id, FALSE);

      g_string_append_printf (line, "%s,\"error\":{\"code\":-32601,"
                              "\"message\":\"Method not found\"}}", id_text);
      send_line (line);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  char *line = NULL;
  size_t size = 0;

  if (argc == 3 && g_str_equal (argv[1], "--tools"))
    n_tools = CLAMP (atoi (argv[2]), 1, 100000);
  else if (argc != 1)
    {
      fprintf (stderr, "usage: tools-server [--tools N]\n");
      return EXIT_FAILURE;
    }
  revisions = g_new0 (guint, n_tools);

  while (getline (&line, &size, stdin) > 0)
    {
      g_autoptr(GError) error = NULL;
      JsonNode *root;

      if (!json_parser_load_from_data (parser, line, -1, &error))
        {
          fprintf (stderr, "tools-server: a line that is not JSON: %s\n", error->message);
          continue;
        }
      root = json_parser_get_root (parser);
      if (root != NULL && JSON_NODE_HOLDS_OBJECT (root))
        handle (json_node_get_object (root));
    }

  free (line);
  return EXIT_SUCCESS;
}

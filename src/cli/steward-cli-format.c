/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mcp-item.h"
#include "mcp-prompt.h"
#include "mcp-resource.h"
#include "mcp-resource-template.h"
#include "steward-text.h"

#include "steward-cli-format.h"
#include "steward-cli-output.h"

/**
 * steward_cli_sanitize:
 * @text: (nullable): text from a server
 * @multiline: keep line breaks; otherwise they become spaces
 *
 * Returns: (transfer full): @text as steward_text_for_terminal() makes
 *   it, for the formatter's columns and lines; the output writer makes
 *   everything safe again, so a path that forgets this stays safe
 */
char *
steward_cli_sanitize (const char *text,
                      gboolean    multiline)
{
  return steward_text_for_terminal (text, multiline);
}

/**
 * steward_cli_format_json:
 * @node: (nullable): what to write
 * @pretty: indented over several lines
 *
 * Returns: (transfer full): @node as JSON in which every C0 and C1
 *   control, bidi control, zero-width and tag character is a \uXXXX
 *   escape, so that `--json` shows a terminal nothing it would act on
 */
char *
steward_cli_format_json (JsonNode *node,
                         gboolean  pretty)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autofree char *text = NULL;

  if (node == NULL)
    return g_strdup ("null");

  json_generator_set_pretty (generator, pretty);
  json_generator_set_indent (generator, 2);
  json_generator_set_root (generator, node);
  text = json_generator_to_data (generator, NULL);

  return steward_text_escape_json (text);
}

char *
steward_cli_format_json_object (JsonObject *object,
                                gboolean    pretty)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);

  json_node_set_object (node, object);
  return steward_cli_format_json (node, pretty);
}

static char *
format_size (gsize size)
{
  g_autofree char *text = g_format_size_full (size, G_FORMAT_SIZE_IEC_UNITS);
  g_auto(GStrv) parts = g_strsplit (text, "\u00a0", -1);

  /* GLib separates number and unit with a no-break space; scripts that
   * read our output expect a plain one. */
  return g_strjoinv (" ", parts);
}

static void
append_sanitized (GString    *out,
                  const char *text,
                  gboolean    multiline)
{
  g_autofree char *clean = steward_cli_sanitize (text, multiline);

  g_string_append (out, clean);
}

/**
 * steward_cli_format_content:
 *
 * Returns: (transfer full): one content block as a person reads it: text
 *   as is, media and blobs by type and size, links and embedded resources
 *   by URI
 */
char *
steward_cli_format_content (McpContent *content)
{
  GString *out = g_string_new (NULL);
  const char *mime_type = mcp_content_get_mime_type (content);
  const char *uri = mcp_content_get_uri (content);
  g_autofree char *size = NULL;

  switch (mcp_content_get_content_type (content))
    {
    case MCP_CONTENT_TEXT:
      append_sanitized (out, mcp_content_get_text (content), TRUE);
      break;

    case MCP_CONTENT_IMAGE:
    case MCP_CONTENT_AUDIO:
      size = format_size (mcp_content_get_data_size (content));
      g_string_append_printf (out, "[%s ", mcp_content_get_type_name (content));
      /* Translators: stands for the MIME type in "[image … 12 kB]"; "image" and "audio" are the
       * protocol's names and stay English. */
      append_sanitized (out, mime_type ? mime_type : _("of unknown type"), FALSE);
      g_string_append_printf (out, ", %s]", size);
      break;

    case MCP_CONTENT_RESOURCE_LINK:
      g_string_append (out, "[link] ");
      append_sanitized (out, uri, FALSE);
      if (mcp_content_get_name (content) != NULL)
        {
          g_string_append (out, " (");
          append_sanitized (out, mcp_content_get_name (content), FALSE);
          g_string_append (out, ")");
        }
      break;

    case MCP_CONTENT_RESOURCE:
      g_string_append (out, "[resource ");
      /* Translators: stands for the address in "[resource …]" when the server gave none. */
      append_sanitized (out, uri ? uri : _("without a URI"), FALSE);
      if (mcp_content_is_blob (content))
        {
          size = format_size (mcp_content_get_data_size (content));
          g_string_append (out, ", ");
          append_sanitized (out, mime_type ? mime_type : _("binary"), FALSE);
          g_string_append_printf (out, ", %s]", size);
        }
      else
        {
          if (mime_type != NULL)
            {
              g_string_append (out, ", ");
              append_sanitized (out, mime_type, FALSE);
            }
          g_string_append (out, "]\n");
          append_sanitized (out, mcp_content_get_text (content), TRUE);
        }
      break;

    case MCP_CONTENT_TOOL_USE:
    case MCP_CONTENT_TOOL_RESULT:
    case MCP_CONTENT_UNKNOWN:
    default:
      {
        g_autofree char *json = steward_cli_format_json_object (mcp_content_get_json (content),
                                                                FALSE);

        g_string_append_c (out, '[');
        append_sanitized (out, mcp_content_get_type_name (content), FALSE);
        g_string_append (out, "] ");
        append_sanitized (out, json, FALSE);
      }
      break;
    }

  return g_string_free (out, FALSE);
}

static void
append_content_line (GString    *out,
                     McpContent *content)
{
  g_autofree char *text = steward_cli_format_content (content);

  g_string_append (out, text);
  if (out->len == 0 || out->str[out->len - 1] != '\n')
    g_string_append_c (out, '\n');
}

char *
steward_cli_format_tool_result (McpToolResult *result)
{
  GString *out = g_string_new (NULL);
  GPtrArray *content = mcp_tool_result_get_content (result);
  JsonNode *structured = mcp_tool_result_get_structured_content (result);

  if (mcp_tool_result_get_is_error (result))
    g_string_append (out, _("The tool reported an error:\n"));

  for (guint i = 0; content != NULL && i < content->len; i++)
    append_content_line (out, g_ptr_array_index (content, i));

  if (structured != NULL)
    {
      g_autofree char *json = steward_cli_format_json (structured, TRUE);

      g_string_append (out, _("Structured content:\n"));
      append_sanitized (out, json, TRUE);
      g_string_append_c (out, '\n');
    }

  return g_string_free (out, FALSE);
}

char *
steward_cli_format_prompt_result (McpPromptResult *result)
{
  GString *out = g_string_new (NULL);
  const char *description = mcp_prompt_result_get_description (result);

  if (description != NULL)
    {
      append_sanitized (out, description, TRUE);
      g_string_append (out, "\n\n");
    }

  for (guint i = 0; i < mcp_prompt_result_get_n_messages (result); i++)
    {
      const char *role = mcp_prompt_result_get_message_role (result, i);

      g_string_append_c (out, '[');
      append_sanitized (out, role ? role : "?", FALSE);
      g_string_append (out, "] ");
      append_content_line (out, mcp_prompt_result_get_message_content (result, i));
    }

  return g_string_free (out, FALSE);
}

char *
steward_cli_format_resource_contents (GPtrArray *contents)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < contents->len; i++)
    {
      McpContent *content = g_ptr_array_index (contents, i);
      const char *mime_type = mcp_content_get_mime_type (content);

      /* A single text reads best bare; several need to say which is which. */
      if (mcp_content_is_blob (content))
        {
          g_autofree char *size = format_size (mcp_content_get_data_size (content));

          g_string_append (out, "[blob ");
          append_sanitized (out, mcp_content_get_uri (content), FALSE);
          g_string_append (out, ", ");
          append_sanitized (out, mime_type ? mime_type : _("binary"), FALSE);
          g_string_append_printf (out, ", %s]\n", size);
          continue;
        }

      if (contents->len > 1)
        {
          g_string_append (out, "── ");
          append_sanitized (out, mcp_content_get_uri (content), FALSE);
          g_string_append_c (out, '\n');
        }

      append_sanitized (out, mcp_content_get_text (content), TRUE);
      if (out->len > 0 && out->str[out->len - 1] != '\n')
        g_string_append_c (out, '\n');
    }

  return g_string_free (out, FALSE);
}

static char *
first_line (const char *text)
{
  g_autofree char *clean = NULL;
  const char *end;

  if (text == NULL)
    return g_strdup ("");

  end = strchr (text, '\n');
  clean = end ? g_strndup (text, end - text) : g_strdup (text);
  return steward_cli_sanitize (g_strstrip (clean), FALSE);
}

static char *
prompt_arguments (McpPrompt *prompt)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < mcp_prompt_get_n_arguments (prompt); i++)
    {
      g_autofree char *name = steward_cli_sanitize (mcp_prompt_get_argument_name (prompt, i),
                                                    FALSE);

      if (i > 0)
        g_string_append (out, ", ");
      if (mcp_prompt_get_argument_required (prompt, i))
        g_string_append (out, name);
      else
        g_string_append_printf (out, "[%s]", name);
    }

  return g_string_free (out, FALSE);
}

/**
 * steward_cli_format_list:
 * @method: the list method the items came from, which picks the columns
 * @items: (element-type McpItem): the items
 *
 * Returns: (transfer full): a table with a header line and aligned columns
 */
char *
steward_cli_format_list (const char *method,
                         GPtrArray  *items)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  g_autoptr(GStrvBuilder) header = g_strv_builder_new ();
  gboolean is_tools = g_str_equal (method, "tools/list");
  gboolean is_prompts = g_str_equal (method, "prompts/list");
  gboolean is_resources = g_str_equal (method, "resources/list");
  guint widths[4] = { 0, };
  guint n_columns;
  GString *out;

  if (items->len == 0)
    {
      if (is_tools)
        return g_strdup (_("The server lists no tools.\n"));
      if (is_prompts)
        return g_strdup (_("The server lists no prompts.\n"));
      if (is_resources)
        return g_strdup (_("The server lists no resources.\n"));
      return g_strdup (_("The server lists no resource templates.\n"));
    }

  /* Translators: the headers of a table printed on a terminal, in capitals like the others. */
  g_strv_builder_add (header, _("NAME"));
  if (is_tools || is_prompts)
    g_strv_builder_add (header, _("TITLE"));
  else
    g_strv_builder_add (header, is_resources ? _("URI") : _("URI TEMPLATE"));
  if (is_prompts)
    g_strv_builder_add (header, _("ARGUMENTS"));
  g_strv_builder_add (header, _("DESCRIPTION"));
  g_ptr_array_add (rows, g_strv_builder_end (header));

  for (guint i = 0; i < items->len; i++)
    {
      McpItem *item = g_ptr_array_index (items, i);
      GPtrArray *row = g_ptr_array_new ();

      g_ptr_array_add (row, steward_cli_sanitize (mcp_item_get_name (item), FALSE));
      if (is_tools || is_prompts)
        g_ptr_array_add (row, steward_cli_sanitize (mcp_item_get_title (item), FALSE));
      else if (is_resources)
        g_ptr_array_add (row, steward_cli_sanitize (mcp_resource_get_uri (MCP_RESOURCE (item)),
                                                    FALSE));
      else
        g_ptr_array_add (row, steward_cli_sanitize (
          mcp_resource_template_get_uri_template (MCP_RESOURCE_TEMPLATE (item)), FALSE));
      if (is_prompts)
        g_ptr_array_add (row, prompt_arguments (MCP_PROMPT (item)));
      g_ptr_array_add (row, first_line (mcp_item_get_description (item)));
      g_ptr_array_add (row, NULL);
      g_ptr_array_add (rows, g_ptr_array_free (row, FALSE));
    }

  n_columns = g_strv_length (g_ptr_array_index (rows, 0));
  for (guint i = 0; i < rows->len; i++)
    {
      char **row = g_ptr_array_index (rows, i);

      for (guint j = 0; j + 1 < n_columns; j++)
        widths[j] = MAX (widths[j], (guint) g_utf8_strlen (row[j], -1));
    }

  out = g_string_new (NULL);
  for (guint i = 0; i < rows->len; i++)
    {
      char **row = g_ptr_array_index (rows, i);
      gsize line_start = out->len;

      for (guint j = 0; j < n_columns; j++)
        {
          g_string_append (out, row[j]);
          if (j + 1 < n_columns)
            for (guint pad = g_utf8_strlen (row[j], -1); pad < widths[j] + 2; pad++)
              g_string_append_c (out, ' ');
        }

      /* No trailing blanks when the last columns are empty. */
      while (out->len > line_start && out->str[out->len - 1] == ' ')
        g_string_truncate (out, out->len - 1);
      g_string_append_c (out, '\n');
    }

  return g_string_free (out, FALSE);
}

/**
 * steward_cli_format_capabilities:
 *
 * Returns: (transfer full): "logging, resources (subscribe, listChanged), …"
 */
char *
steward_cli_format_capabilities (JsonObject *capabilities)
{
  GString *out = g_string_new (NULL);
  JsonObjectIter iter;
  const char *name;
  JsonNode *value;

  if (capabilities == NULL)
    return g_string_free (out, FALSE);

  json_object_iter_init_ordered (&iter, capabilities);
  while (json_object_iter_next_ordered (&iter, &name, &value))
    {
      GString *flags = g_string_new (NULL);

      if (JSON_NODE_HOLDS_OBJECT (value))
        {
          JsonObjectIter sub_iter;
          const char *sub_name;
          JsonNode *sub_value;

          json_object_iter_init_ordered (&sub_iter, json_node_get_object (value));
          while (json_object_iter_next_ordered (&sub_iter, &sub_name, &sub_value))
            {
              /* A flag set to false is the same as no flag. */
              if (JSON_NODE_HOLDS_VALUE (sub_value) &&
                  json_node_get_value_type (sub_value) == G_TYPE_BOOLEAN &&
                  !json_node_get_boolean (sub_value))
                continue;

              if (flags->len > 0)
                g_string_append (flags, ", ");
              append_sanitized (flags, sub_name, FALSE);
            }
        }

      if (out->len > 0)
        g_string_append (out, ", ");
      append_sanitized (out, name, FALSE);
      if (flags->len > 0)
        g_string_append_printf (out, " (%s)", flags->str);
      g_string_free (flags, TRUE);
    }

  return g_string_free (out, FALSE);
}

static void
append_field (GString    *out,
              const char *label,
              const char *value)
{
  g_autofree char *clean = NULL;

  if (value == NULL || value[0] == '\0')
    return;

  clean = steward_cli_sanitize (value, FALSE);
  g_string_append_printf (out, "%-14s%s\n", label, clean);
}

char *
steward_cli_format_info (McpClient *client)
{
  GString *out = g_string_new (NULL);
  const char *instructions = mcp_client_get_instructions (client);
  const char *name;
  g_autofree char *server = NULL;
  g_autofree char *capabilities = NULL;

  name = mcp_client_get_server_name (client);
  server = g_strjoin (" ", name ? name : _("(unnamed)"), mcp_client_get_server_version (client),
                      NULL);
  capabilities = steward_cli_format_capabilities (mcp_client_get_server_capabilities (client));

  append_field (out, _("Server"), server);
  append_field (out, _("Title"), mcp_client_get_server_title (client));
  append_field (out, _("Protocol"), mcp_client_get_protocol_version (client));
  append_field (out, _("Capabilities"), capabilities[0] ? capabilities : _("none"));

  if (instructions != NULL && instructions[0] != '\0')
    {
      g_autofree char *clean = steward_cli_sanitize (instructions, TRUE);
      g_auto(GStrv) lines = g_strsplit (g_strchomp (clean), "\n", -1);

      g_string_append_printf (out, "%s\n", _("Instructions"));
      for (guint i = 0; lines[i] != NULL; i++)
        {
          g_strchomp (lines[i]);
          g_string_append_printf (out, lines[i][0] ? "  %s\n" : "%s\n", lines[i]);
        }
    }

  return g_string_free (out, FALSE);
}

char *
steward_cli_format_log_message (const char *level,
                                const char *logger,
                                JsonNode   *data)
{
  GString *out = g_string_new (NULL);

  g_string_append_c (out, '[');
  append_sanitized (out, level, FALSE);
  g_string_append (out, "] ");
  if (logger != NULL)
    {
      append_sanitized (out, logger, FALSE);
      g_string_append (out, ": ");
    }

  if (data != NULL && JSON_NODE_HOLDS_VALUE (data) &&
      json_node_get_value_type (data) == G_TYPE_STRING)
    append_sanitized (out, json_node_get_string (data), TRUE);
  else
    {
      g_autofree char *json = steward_cli_format_json (data, FALSE);

      append_sanitized (out, json, FALSE);
    }

  g_string_append_c (out, '\n');
  return g_string_free (out, FALSE);
}

static void
append_model_preferences (GString    *out,
                          JsonObject *preferences)
{
  static const char * const priorities[] = {
    "costPriority", "speedPriority", "intelligencePriority",
  };
  JsonNode *hints_node = json_object_get_member (preferences, "hints");
  GString *line = g_string_new (NULL);

  if (hints_node != NULL && JSON_NODE_HOLDS_ARRAY (hints_node))
    {
      JsonArray *hints = json_node_get_array (hints_node);

      for (guint i = 0; i < json_array_get_length (hints); i++)
        {
          JsonNode *hint = json_array_get_element (hints, i);
          JsonNode *name;

          if (!JSON_NODE_HOLDS_OBJECT (hint))
            continue;
          name = json_object_get_member (json_node_get_object (hint), "name");
          if (name == NULL || !JSON_NODE_HOLDS_VALUE (name) ||
              json_node_get_value_type (name) != G_TYPE_STRING)
            continue;

          /* Translators: starts the model names a server hints at, as in "hints claude, sonnet". */
          g_string_append (line, line->len > 0 ? ", " : _("hints "));
          append_sanitized (line, json_node_get_string (name), FALSE);
        }
    }

  for (guint i = 0; i < G_N_ELEMENTS (priorities); i++)
    {
      JsonNode *value = json_object_get_member (preferences, priorities[i]);

      if (value == NULL || !JSON_NODE_HOLDS_VALUE (value) ||
          json_node_get_value_type (value) == G_TYPE_STRING ||
          json_node_get_value_type (value) == G_TYPE_BOOLEAN)
        continue;

      g_string_append_printf (line, "%s%s %g", line->len > 0 ? "; " : "", priorities[i],
                              json_node_get_double (value));
    }

  if (line->len > 0)
    g_string_append_printf (out, _("Model preferences: %s\n"), line->str);
  g_string_free (line, TRUE);
}

/**
 * steward_cli_format_sampling_request:
 *
 * Returns: (transfer full): what a person needs to answer a
 *   `sampling/createMessage` by hand
 */
char *
steward_cli_format_sampling_request (JsonObject *params)
{
  GString *out = g_string_new (NULL);
  JsonNode *node;

  g_string_append (out, _("The server asks for a model's answer (sampling).\n"));

  node = json_object_get_member (params, "systemPrompt");
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
      json_node_get_value_type (node) == G_TYPE_STRING)
    {
      g_string_append (out, _("System prompt: "));
      append_sanitized (out, json_node_get_string (node), TRUE);
      g_string_append_c (out, '\n');
    }

  node = json_object_get_member (params, "messages");
  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *messages = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (messages); i++)
        {
          JsonNode *message = json_array_get_element (messages, i);
          g_autoptr(GPtrArray) blocks = NULL;
          JsonObject *object;
          JsonNode *role;

          if (!JSON_NODE_HOLDS_OBJECT (message))
            continue;

          object = json_node_get_object (message);
          role = json_object_get_member (object, "role");
          g_string_append_c (out, '[');
          if (role != NULL && JSON_NODE_HOLDS_VALUE (role) &&
              json_node_get_value_type (role) == G_TYPE_STRING)
            append_sanitized (out, json_node_get_string (role), FALSE);
          else
            g_string_append_c (out, '?');
          g_string_append (out, "] ");

          blocks = mcp_content_array_from_json (json_object_get_member (object, "content"));
          for (guint j = 0; j < blocks->len; j++)
            append_content_line (out, g_ptr_array_index (blocks, j));
          if (blocks->len == 0)
            g_string_append_c (out, '\n');
        }
    }

  node = json_object_get_member (params, "maxTokens");
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
      json_node_get_value_type (node) != G_TYPE_STRING)
    g_string_append_printf (out, _("Max tokens: %lld\n"), (long long) json_node_get_int (node));

  node = json_object_get_member (params, "temperature");
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
      json_node_get_value_type (node) != G_TYPE_STRING)
    g_string_append_printf (out, _("Temperature: %g\n"), json_node_get_double (node));

  node = json_object_get_member (params, "stopSequences");
  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    {
      g_autofree char *json = steward_cli_format_json (node, FALSE);

      g_string_append (out, _("Stop sequences: "));
      append_sanitized (out, json, FALSE);
      g_string_append_c (out, '\n');
    }

  node = json_object_get_member (params, "includeContext");
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
      json_node_get_value_type (node) == G_TYPE_STRING)
    {
      g_string_append (out, _("Include context: "));
      append_sanitized (out, json_node_get_string (node), FALSE);
      g_string_append_c (out, '\n');
    }

  node = json_object_get_member (params, "modelPreferences");
  if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
    append_model_preferences (out, json_node_get_object (node));

  return g_string_free (out, FALSE);
}

/* Printing: what a command prints on stdout, as JSON with --json or for a
 * person otherwise. */

void
steward_cli_print_json (JsonObject *object,
                        gboolean    pretty)
{
  g_autofree char *text = steward_cli_format_json_object (object, pretty);

  steward_cli_print_out (text);
  steward_cli_print_out ("\n");
}

void
steward_cli_print_tool_result (McpToolResult *result,
                               gboolean       json)
{
  g_autofree char *text = NULL;

  if (json)
    {
      steward_cli_print_json (mcp_tool_result_get_json (result), TRUE);
      return;
    }

  text = steward_cli_format_tool_result (result);
  steward_cli_print_out (text);
}

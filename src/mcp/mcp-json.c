/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-json"

#include "config.h"

#include <math.h>
#include <string.h>

#include "mcp-error.h"
#include "mcp-json.h"
#include "mcp-json-private.h"

static JsonNode *
get_value (JsonObject *object,
           const char *member,
           GType       type)
{
  JsonNode *node;

  if (object == NULL)
    return NULL;

  node = json_object_get_member (object, member);
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != type)
    return NULL;

  return node;
}

const char *
mcp_json_get_string (JsonObject *object,
                     const char *member)
{
  JsonNode *node = get_value (object, member, G_TYPE_STRING);

  return node ? json_node_get_string (node) : NULL;
}

JsonObject *
mcp_json_get_object (JsonObject *object,
                     const char *member)
{
  JsonNode *node = object ? json_object_get_member (object, member) : NULL;

  return (node && JSON_NODE_HOLDS_OBJECT (node)) ? json_node_get_object (node) : NULL;
}

JsonArray *
mcp_json_get_array (JsonObject *object,
                    const char *member)
{
  JsonNode *node = object ? json_object_get_member (object, member) : NULL;

  return (node && JSON_NODE_HOLDS_ARRAY (node)) ? json_node_get_array (node) : NULL;
}

gboolean
mcp_json_get_boolean (JsonObject *object,
                      const char *member,
                      gboolean    default_value)
{
  JsonNode *node = get_value (object, member, G_TYPE_BOOLEAN);

  return node ? json_node_get_boolean (node) : default_value;
}

gboolean
mcp_json_has_number (JsonObject *object,
                     const char *member)
{
  return get_value (object, member, G_TYPE_INT64) != NULL ||
         get_value (object, member, G_TYPE_DOUBLE) != NULL;
}

double
mcp_json_get_number (JsonObject *object,
                     const char *member,
                     double      default_value)
{
  JsonNode *node;

  if ((node = get_value (object, member, G_TYPE_INT64)) != NULL)
    return (double) json_node_get_int (node);
  if ((node = get_value (object, member, G_TYPE_DOUBLE)) != NULL)
    return json_node_get_double (node);

  return default_value;
}

static void
append_string (GString    *out,
               const char *string)
{
  g_autofree char *valid = NULL;
  static const char hex[] = "0123456789abcdef";

  /* json-glib 1.6 turns a lone UTF-16 surrogate escape into bytes that are
   * not UTF-8; what we send must be, so such text is repaired. */
  if (!g_utf8_validate (string, -1, NULL))
    string = valid = g_utf8_make_valid (string, -1);

  g_string_append_c (out, '"');
  for (const char *p = string; *p != '\0'; p++)
    {
      guchar c = (guchar) *p;

      switch (c)
        {
        case '"':  g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        case '\b': g_string_append (out, "\\b"); break;
        case '\f': g_string_append (out, "\\f"); break;
        default:
          if (c < 0x20 || c == 0x7f)
            {
              g_string_append (out, "\\u00");
              g_string_append_c (out, hex[c >> 4]);
              g_string_append_c (out, hex[c & 0xf]);
            }
          else
            g_string_append_c (out, (char) c);
        }
    }
  g_string_append_c (out, '"');
}

static void
append_double (GString *out,
               double   value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  /* JSON has no infinities or NaN. */
  if (!isfinite (value))
    {
      g_string_append (out, "null");
      return;
    }

  /* The shortest text that reads back as the same double (17 digits
   * always do). An exponent is valid JSON as it stands; json-glib 1.6
   * appends ".0" to it, which is not. */
  for (int precision = 1; precision <= 17; precision++)
    {
      static const char * const formats[] = {
        NULL, "%.1g", "%.2g", "%.3g", "%.4g", "%.5g", "%.6g", "%.7g", "%.8g", "%.9g",
        "%.10g", "%.11g", "%.12g", "%.13g", "%.14g", "%.15g", "%.16g", "%.17g",
      };

      g_ascii_formatd (buffer, sizeof buffer, formats[precision], value);
      if (g_ascii_strtod (buffer, NULL) == value)
        break;
    }

  g_string_append (out, buffer);

  /* A double stays a double when read back ("-0.0", not the integer 0). */
  if (strpbrk (buffer, ".eE") == NULL)
    g_string_append (out, ".0");
}

static void
append_indent (GString *out,
               guint    indent,
               guint    level)
{
  if (indent == 0)
    return;

  g_string_append_c (out, '\n');
  for (guint i = 0; i < indent * level; i++)
    g_string_append_c (out, ' ');
}

static void
append_node (GString  *out,
             JsonNode *node,
             guint     indent,
             guint     level)
{
  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *object = json_node_get_object (node);
        g_autoptr(GList) members = json_object_get_members (object);

        g_string_append_c (out, '{');
        for (GList *l = members; l != NULL; l = l->next)
          {
            if (l != members)
              g_string_append_c (out, ',');
            append_indent (out, indent, level + 1);
            append_string (out, l->data);
            g_string_append (out, indent ? ": " : ":");
            append_node (out, json_object_get_member (object, l->data), indent, level + 1);
          }
        if (members != NULL)
          append_indent (out, indent, level);
        g_string_append_c (out, '}');
      }
      break;

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        guint length = json_array_get_length (array);

        g_string_append_c (out, '[');
        for (guint i = 0; i < length; i++)
          {
            if (i > 0)
              g_string_append_c (out, ',');
            append_indent (out, indent, level + 1);
            append_node (out, json_array_get_element (array, i), indent, level + 1);
          }
        if (length > 0)
          append_indent (out, indent, level);
        g_string_append_c (out, ']');
      }
      break;

    case JSON_NODE_VALUE:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_INT64:
          g_string_append_printf (out, "%" G_GINT64_FORMAT, json_node_get_int (node));
          break;

        case G_TYPE_DOUBLE:
          append_double (out, json_node_get_double (node));
          break;

        case G_TYPE_BOOLEAN:
          g_string_append (out, json_node_get_boolean (node) ? "true" : "false");
          break;

        case G_TYPE_STRING:
          append_string (out, json_node_get_string (node));
          break;

        default:
          g_string_append (out, "null");
        }
      break;

    case JSON_NODE_NULL:
    default:
      g_string_append (out, "null");
      break;
    }
}

/**
 * mcp_json_append:
 *
 * Writes @node as JSON text. Our own writer rather than JsonGenerator:
 * json-glib 1.6 writes doubles with an exponent as invalid JSON, and lets
 * invalid UTF-8 through. Compact output has no newline in it.
 */
void
mcp_json_append (GString  *out,
                 JsonNode *node,
                 gboolean  pretty)
{
  append_node (out, node, pretty ? 2 : 0, 0);
}

char *
mcp_json_to_string (JsonNode *node,
                    gboolean  pretty)
{
  GString *out = g_string_new (NULL);

  mcp_json_append (out, node, pretty);
  return g_string_free (out, FALSE);
}

/**
 * mcp_json_from_string:
 *
 * Parses JSON typed by a person or read from a file, as strictly as
 * messages from peers.
 */
JsonNode *
mcp_json_from_string (const char  *text,
                      GError     **error)
{
  return mcp_json_parse (text, -1, error);
}

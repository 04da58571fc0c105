/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-json"

#include "config.h"

#include <math.h>
#include <string.h>

#include "mcp-error.h"
#include "mcp-json.h"
#include "mcp-json-private.h"

/* g_string_append_len() with the common case, room to spare, inline: a
 * message is written in a few dozen short pieces. */
static inline void
append_len (GString    *out,
            const char *text,
            gsize       length)
{
  if (G_LIKELY (out->len + length < out->allocated_len))
    {
      memcpy (out->str + out->len, text, length);
      out->len += length;
      out->str[out->len] = '\0';
    }
  else
    g_string_append_len (out, text, length);
}

#define append_literal(out, literal) append_len ((out), "" literal, sizeof (literal) - 1)

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

/**
 * mcp_json_get_string:
 * @object: (nullable): an object
 * @member: a member's name
 *
 * Returns: (transfer none) (nullable): the member's string, or %NULL when
 *   it is missing or not a string
 */
const char *
mcp_json_get_string (JsonObject *object,
                     const char *member)
{
  JsonNode *node = get_value (object, member, G_TYPE_STRING);

  return node ? json_node_get_string (node) : NULL;
}

/**
 * mcp_json_get_string_or:
 * @object: (nullable): an object
 * @member: a member's name
 * @fallback: (nullable): what a missing member or one of another type
 *   reads as
 *
 * Returns: (transfer none) (nullable): the member's string, or @fallback
 */
const char *
mcp_json_get_string_or (JsonObject *object,
                        const char *member,
                        const char *fallback)
{
  const char *value = mcp_json_get_string (object, member);

  return value != NULL ? value : fallback;
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
mcp_json_node_is_number (JsonNode *node)
{
  GType type;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;

  type = json_node_get_value_type (node);
  return type == G_TYPE_INT64 || type == G_TYPE_DOUBLE;
}

gboolean
mcp_json_has_number (JsonObject *object,
                     const char *member)
{
  return mcp_json_node_is_number (object ? json_object_get_member (object, member) : NULL);
}

/**
 * mcp_json_get_int64:
 * @object: (nullable): an object
 * @member: a member's name
 * @min: the smallest value allowed
 * @max: the largest value allowed
 * @value: (out) (optional): where the value goes; untouched when %FALSE
 *   is returned
 *
 * Reads a whole number. A number with a fraction, one outside @min and
 * @max, and a member of another type read as absent.
 *
 * Returns: whether the member is a whole number between @min and @max
 */
gboolean
mcp_json_get_int64 (JsonObject *object,
                    const char *member,
                    gint64      min,
                    gint64      max,
                    gint64     *value)
{
  JsonNode *node;
  gint64 number;

  if ((node = get_value (object, member, G_TYPE_INT64)) != NULL)
    number = json_node_get_int (node);
  else if ((node = get_value (object, member, G_TYPE_DOUBLE)) != NULL)
    {
      double d = json_node_get_double (node);

      /* 3.0 is the whole number some writers send for 3; the bounds keep
       * the cast defined. */
      if (!isfinite (d) || d != floor (d) || d < -9.2e18 || d > 9.2e18)
        return FALSE;
      number = (gint64) d;
    }
  else
    return FALSE;

  if (number < min || number > max)
    return FALSE;

  if (value != NULL)
    *value = number;
  return TRUE;
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

/**
 * mcp_json_append_escaped:
 * @out: where the text goes
 * @text: UTF-8 text
 * @escape_delete: whether U+007F is written as \u007f too
 *
 * Appends @text as it stands between the quotes of a JSON string: quotes,
 * backslashes and control characters escaped, short forms where JSON has
 * them. JSON does not require escaping DEL; a writer whose bytes must
 * stay as they were (a stored checksum, the form another generator
 * wrote) leaves it alone.
 */
void
mcp_json_append_escaped (GString    *out,
                         const char *text,
                         gboolean    escape_delete)
{
  static const char hex[] = "0123456789abcdef";
  const char *run;
  const char *p;

  /* Runs of characters that need no escape are copied whole. */
  for (run = p = text; *p != '\0'; p++)
    {
      guchar c = (guchar) *p;
      const char *escape;
      char unicode[7];

      if (c >= 0x20 && c != '"' && c != '\\' && (c != 0x7f || !escape_delete))
        continue;

      switch (c)
        {
        case '"':  escape = "\\\""; break;
        case '\\': escape = "\\\\"; break;
        case '\n': escape = "\\n"; break;
        case '\r': escape = "\\r"; break;
        case '\t': escape = "\\t"; break;
        case '\b': escape = "\\b"; break;
        case '\f': escape = "\\f"; break;
        default:
          unicode[0] = '\\';
          unicode[1] = 'u';
          unicode[2] = '0';
          unicode[3] = '0';
          unicode[4] = hex[c >> 4];
          unicode[5] = hex[c & 0xf];
          unicode[6] = '\0';
          escape = unicode;
        }

      append_len (out, run, p - run);
      append_len (out, escape, strlen (escape));
      run = p + 1;
    }

  append_len (out, run, p - run);
}

void
mcp_json_append_string (GString    *out,
                        const char *string)
{
  g_autofree char *valid = NULL;
  const char *p = string;

  /* json-glib turns a lone UTF-16 surrogate escape into bytes that are not
   * UTF-8; what we send must be, so such text is repaired. ASCII, what
   * most names and values are, needs no check. */
  while ((guchar) *p - 1u < 0x7fu)
    p++;
  if (*p != '\0' && !g_utf8_validate (p, -1, NULL))
    string = valid = g_utf8_make_valid (string, -1);

  g_string_append_c (out, '"');
  mcp_json_append_escaped (out, string, TRUE);
  g_string_append_c (out, '"');
}

/* printf costs about as much as the rest of a small message together. */
static void
append_int (GString *out,
            gint64   value)
{
  char digits[24];
  char *p = digits + sizeof digits;
  guint64 magnitude = value < 0 ? (guint64) 0 - (guint64) value : (guint64) value;

  do
    {
      *--p = (char) ('0' + magnitude % 10);
      magnitude /= 10;
    }
  while (magnitude > 0);

  if (value < 0)
    *--p = '-';

  append_len (out, p, digits + sizeof digits - p);
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

typedef struct {
  GString  *out;
  guint     indent;
  guint     level;
  gboolean  first;
} Writer;

static void append_node (GString  *out,
                         JsonNode *node,
                         guint     indent,
                         guint     level);

static void append_member (JsonObject *object,
                           const char *name,
                           JsonNode   *node,
                           gpointer    user_data);

static void
append_object (GString    *out,
               JsonObject *object,
               guint       indent,
               guint       level)
{
  Writer writer = { out, indent, level + 1, TRUE };

  g_string_append_c (out, '{');
  json_object_foreach_member (object, append_member, &writer);
  if (!writer.first)
    append_indent (out, indent, level);
  g_string_append_c (out, '}');
}

/* Members in the order they were set, without copying the list. */
static void
append_member (JsonObject *object,
               const char *name,
               JsonNode   *node,
               gpointer    user_data)
{
  Writer *writer = user_data;

  if (!writer->first)
    g_string_append_c (writer->out, ',');
  writer->first = FALSE;
  append_indent (writer->out, writer->indent, writer->level);
  mcp_json_append_string (writer->out, name);
  if (writer->indent)
    append_literal (writer->out, ": ");
  else
    g_string_append_c (writer->out, ':');
  append_node (writer->out, node, writer->indent, writer->level);
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
      append_object (out, json_node_get_object (node), indent, level);
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
          append_int (out, json_node_get_int (node));
          break;

        case G_TYPE_DOUBLE:
          append_double (out, json_node_get_double (node));
          break;

        case G_TYPE_BOOLEAN:
          if (json_node_get_boolean (node))
            append_literal (out, "true");
          else
            append_literal (out, "false");
          break;

        case G_TYPE_STRING:
          mcp_json_append_string (out, json_node_get_string (node));
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

void
mcp_json_append_object (GString    *out,
                        JsonObject *object)
{
  append_object (out, object, 0, 0);
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

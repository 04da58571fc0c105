/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-schema-form"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "mcp-json.h"

#include "steward-schema-form-field.h"

/* Whether what a person typed in one field of the form is what its schema
 * asks for, in sentences that say how to fix it, and the JSON value it
 * stands for. */

/* Whether @value is a whole number that a double holds exactly. */
gboolean
steward_schema_is_whole (double value)
{
  return value >= -9007199254740992.0 && value <= 9007199254740992.0 &&
         value == (double) (gint64) value;
}

char *
steward_schema_format_double (double value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  /* The shortest text that reads back as the same number: 0.1, not
   * 0.10000000000000001. */
  for (int precision = 1; precision <= 17; precision++)
    {
      char format[8];

      g_snprintf (format, sizeof format, "%%.%dg", precision);
      g_ascii_formatd (buffer, sizeof buffer, format, value);
      if (g_ascii_strtod (buffer, NULL) == value)
        break;
    }

  return g_strdup (buffer);
}

static gboolean
has_space_or_control (const char *text)
{
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_isspace (c) || g_unichar_iscntrl (c))
        return TRUE;
    }

  return FALSE;
}

static gboolean
is_email (const char *text)
{
  const char *at = strchr (text, '@');
  const char *dot;

  if (at == NULL || at == text || strchr (at + 1, '@') != NULL || has_space_or_control (text))
    return FALSE;

  dot = strchr (at + 1, '.');
  return dot != NULL && dot != at + 1 && text[strlen (text) - 1] != '.';
}

static gboolean
is_uri (const char *text)
{
  return !has_space_or_control (text) && g_uri_is_valid (text, G_URI_FLAGS_NONE, NULL);
}

static gboolean
read_digits (const char *text,
             guint       count,
             guint      *value)
{
  *value = 0;

  for (guint i = 0; i < count; i++)
    {
      if (!g_ascii_isdigit (text[i]))
        return FALSE;
      *value = *value * 10 + (guint) (text[i] - '0');
    }

  return TRUE;
}

/* YYYY-MM-DD at the start of @text (RFC 3339 full-date). */
static gboolean
read_date (const char *text)
{
  guint year, month, day;

  return read_digits (text, 4, &year) && text[4] == '-' &&
         read_digits (text + 5, 2, &month) && text[7] == '-' &&
         read_digits (text + 8, 2, &day) &&
         year >= 1 && month >= 1 && month <= 12 && day >= 1 &&
         g_date_valid_dmy ((GDateDay) day, (GDateMonth) month, (GDateYear) year);
}

static gboolean
is_date (const char *text)
{
  return strlen (text) == 10 && read_date (text);
}

/* RFC 3339 date-time: full-date "T" HH:MM:SS[.frac] (Z | ±HH:MM). */
static gboolean
is_date_time (const char *text)
{
  guint hour, minute, second;
  const char *p;

  if (strlen (text) < 20 || !read_date (text) || strchr ("Tt ", text[10]) == NULL)
    return FALSE;

  p = text + 11;
  if (!read_digits (p, 2, &hour) || p[2] != ':' || !read_digits (p + 3, 2, &minute) ||
      p[5] != ':' || !read_digits (p + 6, 2, &second) ||
      hour > 23 || minute > 59 || second > 60)
    return FALSE;

  p += 8;
  if (*p == '.')
    {
      p++;
      if (!g_ascii_isdigit (*p))
        return FALSE;
      while (g_ascii_isdigit (*p))
        p++;
    }

  if ((*p == 'Z' || *p == 'z') && p[1] == '\0')
    return TRUE;

  if (*p == '+' || *p == '-')
    return read_digits (p + 1, 2, &hour) && p[3] == ':' && read_digits (p + 4, 2, &minute) &&
           hour <= 23 && minute <= 59 && p[6] == '\0';

  return FALSE;
}

/* A number as a person writes it in JSON: no hex, no "inf", no "nan". An
 * integer literal stays an integer, so that 3 is sent as 3, not 3.0. */
static JsonNode *
parse_number (const char *text,
              gboolean    integer)
{
  g_autofree char *copy = g_strstrip (g_strdup (text));
  gint64 whole;
  double value;
  char *end = NULL;

  if (*copy == '\0')
    return NULL;

  for (const char *p = copy; *p != '\0'; p++)
    {
      if (!g_ascii_isdigit (*p) && strchr ("+-.eE", *p) == NULL)
        return NULL;
    }

  if (g_ascii_string_to_signed (copy, 10, G_MININT64, G_MAXINT64, &whole, NULL))
    return json_node_init_int (json_node_alloc (), whole);

  value = g_ascii_strtod (copy, &end);
  if (end == copy || *end != '\0' || !isfinite (value))
    return NULL;

  if (integer)
    {
      if (!steward_schema_is_whole (value))
        return NULL;
      return json_node_init_int (json_node_alloc (), (gint64) value);
    }

  return json_node_init_double (json_node_alloc (), value);
}

static const char *
json_type_name (JsonNode *node)
{
  GType type;

  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      return "object";
    case JSON_NODE_ARRAY:
      return "array";
    case JSON_NODE_NULL:
      return "null";
    case JSON_NODE_VALUE:
    default:
      break;
    }

  type = json_node_get_value_type (node);
  if (type == G_TYPE_STRING)
    return "string";
  if (type == G_TYPE_BOOLEAN)
    return "boolean";
  if (type == G_TYPE_INT64)
    return "integer";
  return "number";
}

gboolean
steward_schema_json_matches_type (JsonNode   *node,
                   const char *expected,
                   gboolean    nullable)
{
  const char *actual = json_type_name (node);

  if (expected == NULL)
    return TRUE;
  if (nullable && g_str_equal (actual, "null"))
    return TRUE;
  if (g_str_equal (expected, "number") && g_str_equal (actual, "integer"))
    return TRUE;
  if (g_str_equal (expected, "integer") && g_str_equal (actual, "number"))
    {
      double value = json_node_get_double (node);

      return steward_schema_is_whole (value);
    }

  return g_str_equal (expected, actual);
}

static char *
json_type_message (const char *expected)
{
  if (g_str_equal (expected, "object"))
    return g_strdup (_("Enter a JSON object, such as {\"key\": \"value\"}"));
  if (g_str_equal (expected, "array"))
    return g_strdup (_("Enter a JSON array, such as [1, 2]"));
  if (g_str_equal (expected, "string"))
    return g_strdup (_("Enter a JSON string, in double quotes"));
  if (g_str_equal (expected, "boolean"))
    return g_strdup (_("Enter true or false"));
  if (g_str_equal (expected, "null"))
    return g_strdup (_("Enter null"));
  if (g_str_equal (expected, "integer"))
    return g_strdup (_("Enter a whole number"));
  return g_strdup (_("Enter a number"));
}

/* The index of the chosen value in field->choices, or -1. */
static int
field_get_choice (Field *field)
{
  guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (field->control));

  if (selected == GTK_INVALID_LIST_POSITION || selected < field->first_choice ||
      selected - field->first_choice >= field->choices->len)
    return -1;

  return (int) (selected - field->first_choice);
}

static guint
field_count_checked (Field *field)
{
  guint count = 0;

  for (guint i = 0; i < field->checks->len; i++)
    {
      if (gtk_check_button_get_active (g_ptr_array_index (field->checks, i)))
        count++;
    }

  return count;
}

static char *
field_dup_text (Field *field)
{
  GtkTextBuffer *buffer;
  GtkTextIter start, end;

  if (GTK_IS_EDITABLE (field->control))
    return g_strdup (gtk_editable_get_text (GTK_EDITABLE (field->control)));

  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (field->control));
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

static char *
check_string (Field      *field,
              const char *text)
{
  glong length = g_utf8_strlen (text, -1);

  if (field->min_length >= 0 && length < field->min_length)
    return g_strdup_printf (ngettext ("Use at least %u character",
                                      "Use at least %u characters",
                                      (gulong) field->min_length),
                            (guint) field->min_length);

  if (field->max_length >= 0 && length > field->max_length)
    return g_strdup_printf (ngettext ("Use at most %u character",
                                      "Use at most %u characters",
                                      (gulong) field->max_length),
                            (guint) field->max_length);

  switch (field->format)
    {
    case FORMAT_EMAIL:
      if (!is_email (text))
        return g_strdup (_("Enter an email address, such as name@example.com"));
      break;
    case FORMAT_URI:
      if (!is_uri (text))
        return g_strdup (_("Enter a full address, such as https://example.com/"));
      break;
    case FORMAT_DATE:
      if (!is_date (text))
        return g_strdup (_("Enter a date as YYYY-MM-DD, such as 2025-06-18"));
      break;
    case FORMAT_DATE_TIME:
      if (!is_date_time (text))
        return g_strdup (_("Enter a date and time as YYYY-MM-DDTHH:MM:SSZ, "
                           "such as 2025-06-18T09:30:00Z"));
      break;
    case FORMAT_NONE:
    default:
      break;
    }

  if (field->pattern != NULL && !g_regex_match (field->pattern, text, 0, NULL))
    /* Translators: %s is a regular expression from the server. */
    return g_strdup_printf (_("Use text that matches the pattern %s"), field->pattern_text);

  return NULL;
}

static char *
check_number (Field      *field,
              const char *text)
{
  g_autoptr(JsonNode) node = parse_number (text, field->kind == FIELD_INTEGER);
  double value;

  if (node == NULL)
    return g_strdup (field->kind == FIELD_INTEGER ? _("Enter a whole number")
                                                  : _("Enter a number"));

  value = json_node_get_double (node);

  if (field->has_minimum &&
      (field->exclusive_minimum ? value <= field->minimum : value < field->minimum))
    {
      g_autofree char *bound = steward_schema_format_double (field->minimum);

      return g_strdup_printf (field->exclusive_minimum ? _("Enter a number greater than %s")
                                                       : _("Enter a number no less than %s"),
                              bound);
    }

  if (field->has_maximum &&
      (field->exclusive_maximum ? value >= field->maximum : value > field->maximum))
    {
      g_autofree char *bound = steward_schema_format_double (field->maximum);

      return g_strdup_printf (field->exclusive_maximum ? _("Enter a number less than %s")
                                                       : _("Enter a number no greater than %s"),
                              bound);
    }

  return NULL;
}

static char *
check_json (Field      *field,
            const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = mcp_json_parse (text, -1, &error);

  if (node == NULL)
    return g_strdup_printf (_("This is not valid JSON: %s"), error->message);

  if (!steward_schema_json_matches_type (node, field->json_type, field->nullable))
    return json_type_message (field->json_type);

  return NULL;
}

/* Returns the message to show when the field's value is not acceptable,
 * or NULL when it is. */
char *
steward_schema_field_check (Field *field)
{
  g_autofree char *text = NULL;
  guint count;

  switch (field->kind)
    {
    case FIELD_STRING:
    case FIELD_NUMBER:
    case FIELD_INTEGER:
    case FIELD_JSON:
      text = field_dup_text (field);
      if (field->kind != FIELD_STRING)
        g_strstrip (text);
      if (*text == '\0')
        return field->required ? g_strdup (_("This field is required")) : NULL;
      if (field->kind == FIELD_STRING)
        return check_string (field, text);
      if (field->kind == FIELD_JSON)
        return check_json (field, text);
      return check_number (field, text);

    case FIELD_CHOICE:
      if (field_get_choice (field) < 0 && field->required)
        return g_strdup (_("Choose one of the values"));
      return NULL;

    case FIELD_MULTI:
      count = field_count_checked (field);
      if (count == 0 && !field->required)
        return NULL;
      if (field->min_items >= 0 && count < field->min_items)
        return g_strdup_printf (ngettext ("Choose at least %u value",
                                          "Choose at least %u values",
                                          (gulong) field->min_items),
                                (guint) field->min_items);
      if (field->max_items >= 0 && count > field->max_items)
        return g_strdup_printf (ngettext ("Choose at most %u value",
                                          "Choose at most %u values",
                                          (gulong) field->max_items),
                                (guint) field->max_items);
      return NULL;

    case FIELD_BOOLEAN:
    default:
      return NULL;
    }
}

/* The value to send, or NULL when the field is left out. */
JsonNode *
steward_schema_field_dup_value (Field *field)
{
  g_autofree char *text = NULL;
  gboolean active;
  JsonNode *node;
  int index;

  switch (field->kind)
    {
    case FIELD_STRING:
      text = field_dup_text (field);
      if (*text == '\0')
        return NULL;
      return json_node_init_string (json_node_alloc (), text);

    case FIELD_NUMBER:
    case FIELD_INTEGER:
      text = field_dup_text (field);
      return parse_number (text, field->kind == FIELD_INTEGER);

    case FIELD_BOOLEAN:
      /* An unticked box nobody touched says nothing, unless the schema
       * needs an answer or offered one. */
      if (!field->required && !field->has_default && !field->touched)
        return NULL;
      active = gtk_check_button_get_active (GTK_CHECK_BUTTON (field->control));
      return json_node_init_boolean (json_node_alloc (), active);

    case FIELD_CHOICE:
      index = field_get_choice (field);
      if (index < 0)
        return NULL;
      return json_node_copy (((Choice *) g_ptr_array_index (field->choices, index))->value);

    case FIELD_MULTI:
      if (field_count_checked (field) == 0 && !field->required && !field->has_default)
        return NULL;
      {
        JsonArray *array = json_array_new ();

        for (guint i = 0; i < field->checks->len; i++)
          {
            Choice *choice = g_ptr_array_index (field->choices, i);

            if (gtk_check_button_get_active (g_ptr_array_index (field->checks, i)))
              json_array_add_element (array, json_node_copy (choice->value));
          }

        node = json_node_init_array (json_node_alloc (), array);
        json_array_unref (array);
        return node;
      }

    case FIELD_JSON:
    default:
      text = field_dup_text (field);
      g_strstrip (text);
      if (*text == '\0')
        return NULL;
      return mcp_json_parse (text, -1, NULL);
    }
}

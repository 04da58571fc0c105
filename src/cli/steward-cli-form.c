
/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "mcp-json.h"
#include "steward-cli-form.h"
#include "steward-cli-format.h"
#include "steward-cli-options.h"
#include "steward-error.h"

typedef struct {
  const char *value;
  const char *title;
} Choice;

static gboolean
get_number (JsonObject *object,
            const char *member,
            double     *out)
{
  if (!mcp_json_has_number (object, member))
    return FALSE;

  *out = mcp_json_get_number (object, member, 0);
  return TRUE;
}

static const char *
field_type (JsonObject *field)
{
  const char *type = mcp_json_get_string (field, "type");

  return type ? type : "string";
}

/* The choices of an enum field, in the four shapes the schema allows:
 * `enum` (with the legacy `enumNames`), `oneOf` of const/title, and for
 * arrays `items.enum` or `items.anyOf`. */
static GArray *
get_choices (JsonObject *field)
{
  GArray *choices = g_array_new (FALSE, TRUE, sizeof (Choice));
  JsonObject *source = field;
  JsonArray *values;
  JsonArray *titled;

  if (g_str_equal (field_type (field), "array"))
    source = mcp_json_get_object (field, "items");

  values = mcp_json_get_array (source, "enum");
  titled = mcp_json_get_array (source, "oneOf");
  if (titled == NULL)
    titled = mcp_json_get_array (source, "anyOf");

  if (values != NULL)
    {
      JsonArray *names = mcp_json_get_array (field, "enumNames");

      for (guint i = 0; i < json_array_get_length (values); i++)
        {
          JsonNode *value = json_array_get_element (values, i);
          Choice choice = { NULL, NULL };

          if (!JSON_NODE_HOLDS_VALUE (value) || json_node_get_value_type (value) != G_TYPE_STRING)
            continue;

          choice.value = json_node_get_string (value);
          if (names != NULL && i < json_array_get_length (names))
            {
              JsonNode *name = json_array_get_element (names, i);

              if (JSON_NODE_HOLDS_VALUE (name) && json_node_get_value_type (name) == G_TYPE_STRING)
                choice.title = json_node_get_string (name);
            }
          g_array_append_val (choices, choice);
        }
    }
  else if (titled != NULL)
    {
      for (guint i = 0; i < json_array_get_length (titled); i++)
        {
          JsonNode *entry = json_array_get_element (titled, i);
          Choice choice = { NULL, NULL };

          if (!JSON_NODE_HOLDS_OBJECT (entry))
            continue;

          choice.value = mcp_json_get_string (json_node_get_object (entry), "const");
          choice.title = mcp_json_get_string (json_node_get_object (entry), "title");
          if (choice.value != NULL)
            g_array_append_val (choices, choice);
        }
    }

  return choices;
}

/* A typed default, or NULL when the field has none or one of the wrong
 * type: sending it on would only have the server reject the answer. */
JsonNode *
steward_cli_form_get_default (JsonObject *field)
{
  JsonNode *node = json_object_get_member (field, "default");
  const char *type = field_type (field);

  if (node == NULL)
    return NULL;

  if (g_str_equal (type, "integer"))
    {
      double value;

      if (!mcp_json_node_is_number (node))
        return NULL;

      value = json_node_get_double (node);
      if (value != floor (value) || fabs (value) > 9007199254740992.0)
        return NULL;

      return json_node_init_int (json_node_alloc (), (gint64) value);
    }

  if (g_str_equal (type, "number"))
    return mcp_json_node_is_number (node) ? json_node_copy (node) : NULL;

  if (g_str_equal (type, "boolean"))
    return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_BOOLEAN
           ? json_node_copy (node) : NULL;

  if (g_str_equal (type, "array"))
    {
      JsonArray *array;

      if (!JSON_NODE_HOLDS_ARRAY (node))
        return NULL;

      array = json_node_get_array (node);
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *element = json_array_get_element (array, i);

          if (!JSON_NODE_HOLDS_VALUE (element) ||
              json_node_get_value_type (element) != G_TYPE_STRING)
            return NULL;
        }

      return json_node_copy (node);
    }

  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING
         ? json_node_copy (node) : NULL;
}

/**
 * steward_cli_form_dup_defaults:
 * @requested_schema: the `requestedSchema` of a form elicitation
 *
 * Returns: (transfer full): the content that accepts every property's
 *   `default`, typed as its property says; properties without a usable
 *   default are left out
 */
JsonObject *
steward_cli_form_dup_defaults (JsonObject *requested_schema)
{
  JsonObject *content = json_object_new ();
  JsonObject *properties = mcp_json_get_object (requested_schema, "properties");
  JsonObjectIter iter;
  const char *name;
  JsonNode *field;

  if (properties == NULL)
    return content;

  json_object_iter_init_ordered (&iter, properties);
  while (json_object_iter_next_ordered (&iter, &name, &field))
    {
      JsonNode *value;

      if (!JSON_NODE_HOLDS_OBJECT (field))
        continue;

      value = steward_cli_form_get_default (json_node_get_object (field));
      if (value != NULL)
        json_object_set_member (content, name, value);
    }

  return content;
}

gboolean
steward_cli_form_is_required (JsonObject *requested_schema,
                              const char *name)
{
  JsonArray *required = mcp_json_get_array (requested_schema, "required");

  for (guint i = 0; required != NULL && i < json_array_get_length (required); i++)
    {
      JsonNode *node = json_array_get_element (required, i);

      if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING &&
          g_str_equal (json_node_get_string (node), name))
        return TRUE;
    }

  return FALSE;
}

/**
 * steward_cli_form_format_value:
 *
 * Returns: (transfer full): a value as it would be typed: strings bare,
 *   arrays comma-separated
 */
char *
steward_cli_form_format_value (JsonNode *value)
{
  if (JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_STRING)
    return steward_cli_sanitize (json_node_get_string (value), FALSE);

  if (JSON_NODE_HOLDS_ARRAY (value))
    {
      JsonArray *array = json_node_get_array (value);
      GString *out = g_string_new (NULL);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *node = json_array_get_element (array, i);
          g_autofree char *element = steward_cli_form_format_value (node);

          g_string_append_printf (out, "%s%s", i > 0 ? ", " : "", element);
        }

      return g_string_free (out, FALSE);
    }

  /* The shortest form that reads back the same, so 3.14 is not shown as
   * 3.1400000000000001. */
  if (JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_DOUBLE)
    {
      double number = json_node_get_double (value);
      char buffer[G_ASCII_DTOSTR_BUF_SIZE];

      g_ascii_formatd (buffer, sizeof buffer, "%.15g", number);
      if (g_ascii_strtod (buffer, NULL) != number)
        g_ascii_formatd (buffer, sizeof buffer, "%.17g", number);
      return g_strdup (buffer);
    }

  {
    g_autofree char *json = steward_cli_format_json (value, FALSE);

    return steward_cli_sanitize (json, FALSE);
  }
}

/**
 * steward_cli_form_describe_field:
 *
 * Returns: (transfer full): lines that tell a person what to type: the
 *   title and description, the type and its limits, the choices, the
 *   default
 */
char *
steward_cli_form_describe_field (const char *name,
                                 JsonObject *field,
                                 gboolean    required)
{
  GString *out = g_string_new (NULL);
  const char *type = field_type (field);
  const char *title = mcp_json_get_string (field, "title");
  const char *description = mcp_json_get_string (field, "description");
  const char *format = mcp_json_get_string (field, "format");
  g_autoptr(GArray) choices = get_choices (field);
  g_autoptr(JsonNode) fallback = steward_cli_form_get_default (field);
  GString *limits = g_string_new (NULL);
  double min, max;

  {
    g_autofree char *clean_name = steward_cli_sanitize (name, FALSE);

    g_string_append (out, clean_name);
  }
  if (title != NULL)
    {
      g_autofree char *clean = steward_cli_sanitize (title, FALSE);

      g_string_append_printf (out, " — %s", clean);
    }
  g_string_append (out, required ? _(" (required)") : _(" (optional)"));
  g_string_append_c (out, '\n');

  if (description != NULL)
    {
      g_autofree char *clean = steward_cli_sanitize (description, TRUE);

      g_string_append_printf (out, "  %s\n", clean);
    }

  if (g_str_equal (type, "boolean"))
    /* Translators: what the person may type, in English; keep the words. */
    g_string_append (limits, _("yes or no"));
  else if (g_str_equal (type, "integer"))
    g_string_append (limits, _("a whole number"));
  else if (g_str_equal (type, "number"))
    g_string_append (limits, _("a number"));
  else if (g_str_equal (type, "array"))
    g_string_append (limits, _("one or more choices, separated by commas"));
  else if (choices->len > 0)
    g_string_append (limits, _("one choice"));
  else if (format != NULL)
    {
      g_autofree char *clean = steward_cli_sanitize (format, FALSE);

      /* Translators: %s is a format such as "email", "uri" or "date". */
      g_string_append_printf (limits, _("text in %s format"), clean);
    }
  else
    g_string_append (limits, _("text"));

  if (get_number (field, "minimum", &min))
    g_string_append_printf (limits, _(", at least %g"), min);
  if (get_number (field, "maximum", &max))
    g_string_append_printf (limits, _(", at most %g"), max);
  if (get_number (field, "minLength", &min))
    g_string_append_printf (limits, _(", at least %g characters"), min);
  if (get_number (field, "maxLength", &max))
    g_string_append_printf (limits, _(", at most %g characters"), max);
  if (get_number (field, "minItems", &min))
    g_string_append_printf (limits, _(", at least %g of them"), min);
  if (get_number (field, "maxItems", &max))
    g_string_append_printf (limits, _(", at most %g of them"), max);
  g_string_append_printf (out, "  %s\n", limits->str);
  g_string_free (limits, TRUE);

  for (guint i = 0; i < choices->len; i++)
    {
      Choice *choice = &g_array_index (choices, Choice, i);
      g_autofree char *value = steward_cli_sanitize (choice->value, FALSE);

      g_string_append_printf (out, "  %u) %s", i + 1, value);
      if (choice->title != NULL)
        {
          g_autofree char *clean = steward_cli_sanitize (choice->title, FALSE);

          g_string_append_printf (out, " — %s", clean);
        }
      g_string_append_c (out, '\n');
    }

  if (fallback != NULL)
    {
      g_autofree char *text = steward_cli_form_format_value (fallback);

      g_string_append_printf (out, _("  default: %s (press Enter to keep it)\n"), text);
    }

  return g_string_free (out, FALSE);
}

#define invalid(error, ...) \
  steward_fail (error, STEWARD_CLI_ERROR, STEWARD_CLI_ERROR_INVALID_VALUE, __VA_ARGS__)

static const char *
pick_choice (GArray     *choices,
             const char *text)
{
  guint64 index;

  for (guint i = 0; i < choices->len; i++)
    if (g_str_equal (g_array_index (choices, Choice, i).value, text))
      return g_array_index (choices, Choice, i).value;

  if (g_ascii_string_to_unsigned (text, 10, 1, choices->len, &index, NULL))
    return g_array_index (choices, Choice, index - 1).value;

  for (guint i = 0; i < choices->len; i++)
    {
      const char *title = g_array_index (choices, Choice, i).title;

      if (title != NULL && g_utf8_collate (title, text) == 0)
        return g_array_index (choices, Choice, i).value;
    }

  return NULL;
}

static gboolean
is_email (const char *text)
{
  const char *at = strchr (text, '@');

  if (at == NULL || at == text || strchr (at + 1, '@') != NULL)
    return FALSE;

  for (const char *p = text; *p != '\0'; p++)
    if (g_ascii_isspace (*p))
      return FALSE;

  /* A domain with a dot that neither starts nor ends it. */
  return strchr (at + 1, '.') != NULL && at[1] != '.' && text[strlen (text) - 1] != '.';
}

static gboolean
is_date (const char *text)
{
  guint64 year, month, day;
  g_auto(GStrv) parts = NULL;

  if (strlen (text) != 10 || text[4] != '-' || text[7] != '-')
    return FALSE;

  parts = g_strsplit (text, "-", 3);
  return g_ascii_string_to_unsigned (parts[0], 10, 1, 9999, &year, NULL) &&
         g_ascii_string_to_unsigned (parts[1], 10, 1, 12, &month, NULL) &&
         g_ascii_string_to_unsigned (parts[2], 10, 1, 31, &day, NULL) &&
         g_date_valid_dmy ((GDateDay) day, (GDateMonth) month, (GDateYear) year);
}

static gboolean
check_format (const char  *format,
              const char  *text,
              GError     **error)
{
  if (format == NULL)
    return TRUE;

  if (g_str_equal (format, "email") && !is_email (text))
    return invalid (error, _("expected an email address such as name@example.com"));

  if (g_str_equal (format, "uri") && !g_uri_is_valid (text, G_URI_FLAGS_NONE, NULL))
    return invalid (error, _("expected a full URI such as https://example.com/"));

  if (g_str_equal (format, "date") && !is_date (text))
    return invalid (error, _("expected a date as YYYY-MM-DD"));

  if (g_str_equal (format, "date-time"))
    {
      g_autoptr(GDateTime) date_time = g_date_time_new_from_iso8601 (text, NULL);

      if (date_time == NULL)
        return invalid (error, _("expected a date and time such as 2025-06-18T14:30:00Z"));
    }

  return TRUE;
}

static gboolean
check_range (JsonObject  *field,
             double       value,
             GError     **error)
{
  double limit;

  if (get_number (field, "minimum", &limit) && value < limit)
    return invalid (error, _("expected at least %g"), limit);
  if (get_number (field, "maximum", &limit) && value > limit)
    return invalid (error, _("expected at most %g"), limit);

  return TRUE;
}

static JsonNode *
parse_array (JsonObject  *field,
             GArray      *choices,
             const char  *text,
             GError     **error)
{
  g_auto(GStrv) parts = g_strsplit (text, ",", -1);
  g_autoptr(JsonArray) array = json_array_new ();
  double limit;

  for (guint i = 0; parts[i] != NULL; i++)
    {
      const char *part = g_strstrip (parts[i]);
      const char *value = part;

      if (part[0] == '\0')
        continue;

      if (choices->len > 0 && (value = pick_choice (choices, part)) == NULL)
        {
          invalid (error, _("`%s` is not one of the choices"), part);
          return NULL;
        }

      json_array_add_string_element (array, value);
    }

  if (get_number (field, "minItems", &limit) && json_array_get_length (array) < limit)
    {
      invalid (error, _("choose at least %g"), limit);
      return NULL;
    }
  if (get_number (field, "maxItems", &limit) && json_array_get_length (array) > limit)
    {
      invalid (error, _("choose at most %g"), limit);
      return NULL;
    }

  return json_node_init_array (json_node_alloc (), array);
}

/**
 * steward_cli_form_parse_value:
 * @field: the property's schema
 * @text: what the person typed, not empty
 *
 * Reads @text as the field's type and checks it against the schema:
 * choices (by value, number or title), bounds, lengths, counts and string
 * formats.
 *
 * Returns: (transfer full) (nullable): the value, or %NULL with an error
 *   that says what is expected
 */
JsonNode *
steward_cli_form_parse_value (JsonObject  *field,
                              const char  *text,
                              GError     **error)
{
  const char *type = field_type (field);
  g_autoptr(GArray) choices = get_choices (field);
  double limit;

  if (g_str_equal (type, "boolean"))
    {
      if (g_ascii_strcasecmp (text, "y") == 0 || g_ascii_strcasecmp (text, "yes") == 0 ||
          g_ascii_strcasecmp (text, "true") == 0 || g_str_equal (text, "1"))
        return json_node_init_boolean (json_node_alloc (), TRUE);
      if (g_ascii_strcasecmp (text, "n") == 0 || g_ascii_strcasecmp (text, "no") == 0 ||
          g_ascii_strcasecmp (text, "false") == 0 || g_str_equal (text, "0"))
        return json_node_init_boolean (json_node_alloc (), FALSE);

      /* Translators: the person types yes or no (or y, n, true, false) in
       * English; keep the words. */
      invalid (error, _("expected yes or no"));
      return NULL;
    }

  if (g_str_equal (type, "integer"))
    {
      gint64 value;

      if (!g_ascii_string_to_signed (text, 10, G_MININT64, G_MAXINT64, &value, NULL))
        {
          invalid (error, _("expected a whole number"));
          return NULL;
        }
      if (!check_range (field, (double) value, error))
        return NULL;

      return json_node_init_int (json_node_alloc (), value);
    }

  if (g_str_equal (type, "number"))
    {
      char *end = NULL;
      double value = g_ascii_strtod (text, &end);

      if (end == text || *end != '\0' || !isfinite (value))
        {
          invalid (error, _("expected a number such as 3.5"));
          return NULL;
        }
      if (!check_range (field, value, error))
        return NULL;

      return json_node_init_double (json_node_alloc (), value);
    }

  if (g_str_equal (type, "array"))
    return parse_array (field, choices, text, error);

  if (choices->len > 0)
    {
      const char *value = pick_choice (choices, text);

      if (value == NULL)
        {
          invalid (error, _("`%s` is not one of the choices"), text);
          return NULL;
        }

      return json_node_init_string (json_node_alloc (), value);
    }

  if (get_number (field, "minLength", &limit) && g_utf8_strlen (text, -1) < limit)
    {
      invalid (error, _("expected at least %g characters"), limit);
      return NULL;
    }
  if (get_number (field, "maxLength", &limit) && g_utf8_strlen (text, -1) > limit)
    {
      invalid (error, _("expected at most %g characters"), limit);
      return NULL;
    }
  if (!check_format (mcp_json_get_string (field, "format"), text, error))
    return NULL;

  return json_node_init_string (json_node_alloc (), text);
}

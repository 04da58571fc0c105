/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-schema-form"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "mcp-json.h"
#include "steward-accessible.h"
#include "steward-text.h"

#include "steward-schema-form-field.h"
#include "steward-schema-form-private.h"
#include "steward-schema-form.h"

/* A schema comes from a server: a hostile one could ask for a million
 * fields or choices, and every one of them would be a widget. */
#define MAX_FIELDS      256
#define MAX_CHOICES     1000
#define MAX_LABEL_BYTES 4096


struct _StewardSchemaForm
{
  AdwBin      parent_instance;

  GtkLabel   *empty_label;
  GtkBox     *fields_box;
  GtkLabel   *more_label;

  JsonObject *schema;
  GPtrArray  *fields;
  gboolean    building;
  gboolean    show_errors;
  gboolean    valid;
  Field      *problem;
};

enum {
  PROP_0,
  PROP_SCHEMA,
  PROP_VALID,
  PROP_PROBLEM,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (StewardSchemaForm, steward_schema_form, ADW_TYPE_BIN)

static void
choice_free (gpointer data)
{
  Choice *choice = data;

  g_clear_pointer (&choice->value, json_node_unref);
  g_free (choice->title);
  g_free (choice);
}

static void
field_free (gpointer data)
{
  Field *field = data;

  g_free (field->name);
  g_free (field->title);
  g_free (field->description);
  g_free (field->message);
  g_clear_pointer (&field->pattern, g_regex_unref);
  g_free (field->pattern_text);
  g_clear_pointer (&field->choices, g_ptr_array_unref);
  g_clear_pointer (&field->checks, g_ptr_array_unref);
  g_free (field->json_type);
  g_free (field);
}

/* Reading the schema. It is untrusted JSON: every member is checked for
 * its type before use, and a member of the wrong type counts as absent. */

static gboolean
node_is_number (JsonNode *node)
{
  GType type;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;

  type = json_node_get_value_type (node);
  return type == G_TYPE_INT64 || type == G_TYPE_DOUBLE;
}

static gboolean
member_number (JsonObject *object,
               const char *name,
               double     *out)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  if (!node_is_number (node))
    return FALSE;

  *out = json_node_get_double (node);
  return isfinite (*out);
}


/* A count such as minLength: a non-negative whole number, -1 when absent. */
static gint64
member_count (JsonObject *object,
              const char *name)
{
  double value;

  if (!member_number (object, name, &value) || value < 0 || value > (double) G_MAXINT32)
    return -1;

  return (gint64) value;
}

/* "type" may be one name or a list; a list of one name and "null" reads as
 * that name, any other list as no type at all. */
static const char *
schema_type (JsonObject *schema,
             gboolean   *nullable)
{
  JsonNode *node = json_object_get_member (schema, "type");
  const char *found = NULL;
  JsonArray *array;

  *nullable = FALSE;

  if (node == NULL)
    return NULL;

  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    return json_node_get_string (node);

  if (!JSON_NODE_HOLDS_ARRAY (node))
    return NULL;

  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      const char *name;

      if (!JSON_NODE_HOLDS_VALUE (element) ||
          json_node_get_value_type (element) != G_TYPE_STRING)
        return NULL;

      name = json_node_get_string (element);
      if (g_str_equal (name, "null"))
        *nullable = TRUE;
      else if (found == NULL)
        found = name;
      else
        return NULL;
    }

  return found;
}


static char *
node_to_text (JsonNode *node)
{
  GType type;

  if (JSON_NODE_HOLDS_NULL (node))
    return g_strdup ("null");

  if (!JSON_NODE_HOLDS_VALUE (node))
    return json_to_string (node, FALSE);

  type = json_node_get_value_type (node);
  if (type == G_TYPE_STRING)
    return g_strdup (json_node_get_string (node));
  if (type == G_TYPE_INT64)
    return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
  if (type == G_TYPE_DOUBLE)
    return steward_schema_format_double (json_node_get_double (node));
  if (type == G_TYPE_BOOLEAN)
    return g_strdup (json_node_get_boolean (node) ? "true" : "false");

  return json_to_string (node, FALSE);
}

static char *
display_text (const char *text)
{
  return steward_text_make_visible_capped (text, MAX_LABEL_BYTES, NULL);
}

static gboolean
node_is_scalar (JsonNode *node)
{
  return JSON_NODE_HOLDS_VALUE (node) || JSON_NODE_HOLDS_NULL (node);
}

static Choice *
choice_new (JsonNode   *value,
            const char *title)
{
  Choice *choice = g_new0 (Choice, 1);
  g_autofree char *text = NULL;

  choice->value = json_node_copy (value);
  if (title == NULL)
    title = text = node_to_text (value);
  choice->title = display_text (title);

  return choice;
}

/* enum, with the legacy enumNames beside it. */
static GPtrArray *
choices_from_enum (JsonArray *values,
                   JsonArray *names)
{
  g_autoptr(GPtrArray) choices = g_ptr_array_new_with_free_func (choice_free);
  guint n = MIN (json_array_get_length (values), MAX_CHOICES);

  for (guint i = 0; i < n; i++)
    {
      JsonNode *value = json_array_get_element (values, i);
      const char *title = NULL;

      if (!node_is_scalar (value))
        return NULL;

      if (names != NULL && i < json_array_get_length (names))
        {
          JsonNode *name = json_array_get_element (names, i);

          if (JSON_NODE_HOLDS_VALUE (name) && json_node_get_value_type (name) == G_TYPE_STRING)
            title = json_node_get_string (name);
        }

      g_ptr_array_add (choices, choice_new (value, title));
    }

  return n > 0 ? g_steal_pointer (&choices) : NULL;
}

/* oneOf or anyOf as a list of {const, title}. */
static GPtrArray *
choices_from_titled (JsonArray *list)
{
  g_autoptr(GPtrArray) choices = g_ptr_array_new_with_free_func (choice_free);
  guint n = MIN (json_array_get_length (list), MAX_CHOICES);

  for (guint i = 0; i < n; i++)
    {
      JsonNode *element = json_array_get_element (list, i);
      JsonObject *object;
      JsonNode *value;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        return NULL;

      object = json_node_get_object (element);
      value = json_object_get_member (object, "const");
      if (value == NULL || !node_is_scalar (value))
        return NULL;

      g_ptr_array_add (choices, choice_new (value, mcp_json_get_string (object, "title")));
    }

  return n > 0 ? g_steal_pointer (&choices) : NULL;
}

static GPtrArray *
choices_from_schema (JsonObject *schema)
{
  JsonArray *values = mcp_json_get_array (schema, "enum");
  JsonArray *list;

  if (schema == NULL)
    return NULL;

  if (values != NULL)
    return choices_from_enum (values, mcp_json_get_array (schema, "enumNames"));

  list = mcp_json_get_array (schema, "oneOf");
  if (list == NULL)
    list = mcp_json_get_array (schema, "anyOf");

  return list != NULL ? choices_from_titled (list) : NULL;
}


static void
field_update_accessible (Field   *field,
                         gboolean shown)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new ();
  g_autofree char *description = NULL;

  if (shown)
    g_ptr_array_add (parts, field->message);
  if (field->required)
    /* Translators: said by screen readers for a field that must be filled. */
    g_ptr_array_add (parts, (char *) _("required"));
  if (field->description != NULL)
    g_ptr_array_add (parts, field->description);
  g_ptr_array_add (parts, NULL);

  description = g_strjoinv (". ", (char **) parts->pdata);

  gtk_accessible_update_property (GTK_ACCESSIBLE (field->control),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description,
                                  -1);
  gtk_accessible_update_state (GTK_ACCESSIBLE (field->control),
                               GTK_ACCESSIBLE_STATE_INVALID,
                               shown ? GTK_ACCESSIBLE_INVALID_TRUE : GTK_ACCESSIBLE_INVALID_FALSE,
                               -1);
}

/* The first field in the form's order that holds an unacceptable value;
 * a dialog names it beside the button it keeps disabled. */
static void
form_update_problem (StewardSchemaForm *self)
{
  Field *problem = NULL;

  for (guint i = 0; i < self->fields->len && problem == NULL; i++)
    {
      Field *field = g_ptr_array_index (self->fields, i);

      if (!field->valid)
        problem = field;
    }

  self->problem = problem;
  if (!self->building)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROBLEM]);
}

static void
form_update_valid (StewardSchemaForm *self)
{
  gboolean valid = TRUE;

  for (guint i = 0; i < self->fields->len; i++)
    {
      Field *field = g_ptr_array_index (self->fields, i);

      valid = valid && field->valid;
    }

  /* The message may change while the form stays invalid. */
  form_update_problem (self);

  if (valid == self->valid)
    return;

  self->valid = valid;
  if (!self->building)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VALID]);
}

static void
field_refresh (Field *field)
{
  StewardSchemaForm *self = field->form;
  gboolean shown;

  g_clear_pointer (&field->message, g_free);
  field->message = steward_schema_field_check (field);
  field->valid = field->message == NULL;

  shown = !field->valid && (field->touched || self->show_errors);
  gtk_label_set_text (GTK_LABEL (field->error_label), shown ? field->message : "");
  gtk_widget_set_visible (field->error_label, shown);
  field_update_accessible (field, shown);
}

static void
field_changed_cb (Field *field)
{
  if (!field->form->building)
    field->touched = TRUE;

  field_refresh (field);
  form_update_valid (field->form);
}

static GtkWidget *
build_entry (Field *field)
{
  GtkWidget *entry = gtk_entry_new ();

  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);

  if (field->kind == FIELD_NUMBER || field->kind == FIELD_INTEGER)
    {
      gtk_entry_set_input_purpose (GTK_ENTRY (entry), GTK_INPUT_PURPOSE_NUMBER);
      if (field->required)
        gtk_entry_set_placeholder_text (GTK_ENTRY (entry),
                                        field->kind == FIELD_INTEGER ? _("A whole number")
                                                                     : _("A number"));
      else
        gtk_entry_set_placeholder_text (GTK_ENTRY (entry), _("Optional"));
    }
  else
    {
      switch (field->format)
        {
        case FORMAT_EMAIL:
          gtk_entry_set_input_purpose (GTK_ENTRY (entry), GTK_INPUT_PURPOSE_EMAIL);
          gtk_entry_set_placeholder_text (GTK_ENTRY (entry), _("name@example.com"));
          break;
        case FORMAT_URI:
          gtk_entry_set_input_purpose (GTK_ENTRY (entry), GTK_INPUT_PURPOSE_URL);
          gtk_entry_set_placeholder_text (GTK_ENTRY (entry), _("https://example.com/"));
          break;
        case FORMAT_DATE:
          gtk_entry_set_placeholder_text (GTK_ENTRY (entry), _("YYYY-MM-DD"));
          break;
        case FORMAT_DATE_TIME:
          gtk_entry_set_placeholder_text (GTK_ENTRY (entry), _("YYYY-MM-DDTHH:MM:SSZ"));
          break;
        case FORMAT_NONE:
        default:
          break;
        }
    }

  g_signal_connect_swapped (entry, "changed", G_CALLBACK (field_changed_cb), field);

  return entry;
}

static GtkWidget *
build_drop_down (Field *field)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) titles = NULL;
  GtkStringList *model;
  GtkWidget *drop_down;

  /* An optional field can be left unset; a required one without a default
   * starts on a prompt that is not a value. */
  if (!field->required)
    g_strv_builder_add (builder, _("Not set"));
  else if (!field->has_default)
    g_strv_builder_add (builder, _("Choose…"));
  field->first_choice = field->required && field->has_default ? 0 : 1;

  for (guint i = 0; i < field->choices->len; i++)
    g_strv_builder_add (builder, ((Choice *) g_ptr_array_index (field->choices, i))->title);

  titles = g_strv_builder_end (builder);
  model = gtk_string_list_new ((const char * const *) titles);
  drop_down = gtk_drop_down_new (G_LIST_MODEL (model),
                                 gtk_property_expression_new (GTK_TYPE_STRING_OBJECT, NULL,
                                                              "string"));
  gtk_drop_down_set_enable_search (GTK_DROP_DOWN (drop_down), field->choices->len > 10);
  gtk_widget_set_halign (drop_down, GTK_ALIGN_START);
  steward_accessible_name_drop_down (GTK_DROP_DOWN (drop_down));

  g_signal_connect_swapped (drop_down, "notify::selected", G_CALLBACK (field_changed_cb), field);

  return drop_down;
}

static GtkWidget *
build_checks (Field *field)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  field->checks = g_ptr_array_new ();

  for (guint i = 0; i < field->choices->len; i++)
    {
      Choice *choice = g_ptr_array_index (field->choices, i);
      GtkWidget *check = gtk_check_button_new_with_label (choice->title);

      gtk_box_append (GTK_BOX (box), check);
      g_ptr_array_add (field->checks, check);
      g_signal_connect_swapped (check, "toggled", G_CALLBACK (field_changed_cb), field);
    }

  return box;
}

static GtkWidget *
build_text_view (Field      *field,
                 GtkWidget **outer)
{
  GtkWidget *view = gtk_text_view_new ();
  GtkWidget *scrolled = gtk_scrolled_window_new ();

  gtk_text_view_set_monospace (GTK_TEXT_VIEW (view), TRUE);
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (view), GTK_WRAP_WORD_CHAR);
  /* Tab moves on to the next field, as in every other field. */
  gtk_text_view_set_accepts_tab (GTK_TEXT_VIEW (view), FALSE);
  gtk_text_view_set_top_margin (GTK_TEXT_VIEW (view), 6);
  gtk_text_view_set_bottom_margin (GTK_TEXT_VIEW (view), 6);
  gtk_text_view_set_left_margin (GTK_TEXT_VIEW (view), 6);
  gtk_text_view_set_right_margin (GTK_TEXT_VIEW (view), 6);

  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), view);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled),
                                  GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scrolled), 72);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scrolled), 240);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_widget_add_css_class (scrolled, "card");

  g_signal_connect_swapped (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)), "changed",
                            G_CALLBACK (field_changed_cb), field);

  *outer = scrolled;
  return view;
}

static void
field_apply_default (Field    *field,
                     JsonNode *value)
{
  g_autofree char *text = NULL;

  switch (field->kind)
    {
    case FIELD_STRING:
      if (!JSON_NODE_HOLDS_VALUE (value) || json_node_get_value_type (value) != G_TYPE_STRING)
        return;
      gtk_editable_set_text (GTK_EDITABLE (field->control), json_node_get_string (value));
      break;

    case FIELD_NUMBER:
    case FIELD_INTEGER:
      if (!node_is_number (value))
        return;
      text = node_to_text (value);
      gtk_editable_set_text (GTK_EDITABLE (field->control), text);
      break;

    case FIELD_BOOLEAN:
      if (!JSON_NODE_HOLDS_VALUE (value) || json_node_get_value_type (value) != G_TYPE_BOOLEAN)
        return;
      gtk_check_button_set_active (GTK_CHECK_BUTTON (field->control),
                                   json_node_get_boolean (value));
      break;

    case FIELD_CHOICE:
      for (guint i = 0; i < field->choices->len; i++)
        {
          Choice *choice = g_ptr_array_index (field->choices, i);

          if (json_node_equal (choice->value, value))
            {
              gtk_drop_down_set_selected (GTK_DROP_DOWN (field->control),
                                          field->first_choice + i);
              break;
            }
        }
      break;

    case FIELD_MULTI:
      if (!JSON_NODE_HOLDS_ARRAY (value))
        return;
      for (guint i = 0; i < field->choices->len; i++)
        {
          Choice *choice = g_ptr_array_index (field->choices, i);
          JsonArray *array = json_node_get_array (value);
          gboolean active = FALSE;

          for (guint j = 0; j < json_array_get_length (array) && !active; j++)
            active = json_node_equal (choice->value, json_array_get_element (array, j));

          gtk_check_button_set_active (g_ptr_array_index (field->checks, i), active);
        }
      break;

    case FIELD_JSON:
    default:
      text = json_to_string (value, TRUE);
      gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (field->control)),
                                text, -1);
      break;
    }
}

/* Which kind of field a property schema asks for, and the constraints that
 * go with it. */
static void
field_read_schema (Field      *field,
                   JsonObject *schema)
{
  gboolean nullable = FALSE;
  const char *type = schema != NULL ? schema_type (schema, &nullable) : NULL;
  JsonObject *items;
  const char *format;
  const char *pattern;

  field->min_length = field->max_length = -1;
  field->min_items = field->max_items = -1;
  field->nullable = nullable;

  if (schema == NULL)
    {
      field->kind = FIELD_JSON;
      return;
    }

  if (g_strcmp0 (type, "array") == 0)
    {
      items = mcp_json_get_object (schema, "items");
      field->choices = choices_from_schema (items);
      if (field->choices != NULL)
        {
          field->kind = FIELD_MULTI;
          field->min_items = member_count (schema, "minItems");
          field->max_items = member_count (schema, "maxItems");
          return;
        }
    }
  else if ((field->choices = choices_from_schema (schema)) != NULL)
    {
      field->kind = FIELD_CHOICE;
      return;
    }

  if (g_strcmp0 (type, "string") == 0)
    {
      field->kind = FIELD_STRING;
      field->min_length = member_count (schema, "minLength");
      field->max_length = member_count (schema, "maxLength");

      format = mcp_json_get_string (schema, "format");
      if (g_strcmp0 (format, "email") == 0)
        field->format = FORMAT_EMAIL;
      else if (g_strcmp0 (format, "uri") == 0)
        field->format = FORMAT_URI;
      else if (g_strcmp0 (format, "date") == 0)
        field->format = FORMAT_DATE;
      else if (g_strcmp0 (format, "date-time") == 0)
        field->format = FORMAT_DATE_TIME;

      /* JSON Schema patterns are ECMA 262; PCRE reads most of them alike,
       * and one it cannot compile is not checked at all. */
      pattern = mcp_json_get_string (schema, "pattern");
      if (pattern != NULL)
        field->pattern = g_regex_new (pattern, G_REGEX_DEFAULT, G_REGEX_MATCH_DEFAULT, NULL);
      if (field->pattern != NULL)
        field->pattern_text = display_text (pattern);
    }
  else if (g_strcmp0 (type, "number") == 0 || g_strcmp0 (type, "integer") == 0)
    {
      field->kind = g_str_equal (type, "integer") ? FIELD_INTEGER : FIELD_NUMBER;
      field->has_minimum = member_number (schema, "minimum", &field->minimum);
      field->has_maximum = member_number (schema, "maximum", &field->maximum);

      /* 2020-12 spells exclusive bounds as numbers of their own. */
      if (member_number (schema, "exclusiveMinimum", &field->minimum))
        field->has_minimum = field->exclusive_minimum = TRUE;
      if (member_number (schema, "exclusiveMaximum", &field->maximum))
        field->has_maximum = field->exclusive_maximum = TRUE;
    }
  else if (g_strcmp0 (type, "boolean") == 0)
    {
      field->kind = FIELD_BOOLEAN;
    }
  else
    {
      field->kind = FIELD_JSON;
      if (type != NULL && (g_str_equal (type, "object") || g_str_equal (type, "array") ||
                           g_str_equal (type, "null")))
        field->json_type = g_strdup (type);
    }
}

/* Whether @value can be shown in the field; a default of the wrong type
 * is ignored, as if the schema had none. */
static gboolean
field_accepts_default (Field    *field,
                       JsonNode *value)
{
  switch (field->kind)
    {
    case FIELD_STRING:
      return JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_STRING;
    case FIELD_NUMBER:
      return node_is_number (value);
    case FIELD_INTEGER:
      return node_is_number (value) && steward_schema_is_whole (json_node_get_double (value));
    case FIELD_BOOLEAN:
      return JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_BOOLEAN;
    case FIELD_CHOICE:
      for (guint i = 0; i < field->choices->len; i++)
        {
          if (json_node_equal (((Choice *) g_ptr_array_index (field->choices, i))->value, value))
            return TRUE;
        }
      return FALSE;
    case FIELD_MULTI:
      return JSON_NODE_HOLDS_ARRAY (value);
    case FIELD_JSON:
    default:
      return steward_schema_json_matches_type (value, field->json_type, field->nullable);
    }
}

static Field *
field_new (StewardSchemaForm *self,
           const char        *name,
           JsonNode          *schema_node,
           gboolean           required)
{
  JsonObject *schema = JSON_NODE_HOLDS_OBJECT (schema_node) ? json_node_get_object (schema_node)
                                                            : NULL;
  Field *field = g_new0 (Field, 1);
  g_autofree char *heading = NULL;
  const char *title = mcp_json_get_string (schema, "title");
  const char *description = mcp_json_get_string (schema, "description");
  GtkWidget *box;
  GtkWidget *outer = NULL;
  JsonNode *value = NULL;

  field->form = self;
  field->name = g_strdup (name);
  field->required = required;
  field->title = display_text (title != NULL && *title != '\0' ? title : name);
  if (description != NULL && *description != '\0')
    field->description = display_text (description);

  field_read_schema (field, schema);

  if (schema != NULL)
    value = json_object_get_member (schema, "default");
  if (value != NULL && !field_accepts_default (field, value))
    value = NULL;
  field->has_default = value != NULL;

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);

  /* The asterisk is for the eye; assistive technologies hear "required"
   * from the description and the required property instead. */
  heading = required ? g_strdup_printf ("%s *", field->title) : g_strdup (field->title);

  if (field->kind == FIELD_BOOLEAN)
    {
      field->control = gtk_check_button_new_with_label (heading);
      g_signal_connect_swapped (field->control, "toggled", G_CALLBACK (field_changed_cb), field);
      gtk_box_append (GTK_BOX (box), field->control);
    }
  else
    {
      GtkWidget *label = gtk_label_new (heading);

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_widget_add_css_class (label, "heading");
      gtk_box_append (GTK_BOX (box), label);
    }

  if (field->description != NULL)
    {
      GtkWidget *label = gtk_label_new (field->description);

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_widget_add_css_class (label, "caption");
      gtk_box_append (GTK_BOX (box), label);
    }

  switch (field->kind)
    {
    case FIELD_STRING:
    case FIELD_NUMBER:
    case FIELD_INTEGER:
      field->control = outer = build_entry (field);
      break;
    case FIELD_CHOICE:
      field->control = outer = build_drop_down (field);
      break;
    case FIELD_MULTI:
      field->control = outer = build_checks (field);
      break;
    case FIELD_JSON:
      field->control = build_text_view (field, &outer);
      break;
    case FIELD_BOOLEAN:
    default:
      break;
    }

  if (outer != NULL)
    gtk_box_append (GTK_BOX (box), outer);

  gtk_accessible_update_property (GTK_ACCESSIBLE (field->control),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, field->title,
                                  GTK_ACCESSIBLE_PROPERTY_REQUIRED, required,
                                  -1);

  field->error_label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (field->error_label), 0);
  gtk_label_set_wrap (GTK_LABEL (field->error_label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (field->error_label), PANGO_WRAP_WORD_CHAR);
  gtk_widget_add_css_class (field->error_label, "error");
  gtk_widget_add_css_class (field->error_label, "caption");
  gtk_widget_set_visible (field->error_label, FALSE);
  gtk_box_append (GTK_BOX (box), field->error_label);

  gtk_box_append (self->fields_box, box);

  if (value != NULL)
    field_apply_default (field, value);

  field_refresh (field);

  return field;
}

static void
steward_schema_form_build (StewardSchemaForm *self)
{
  JsonObject *properties_object = mcp_json_get_object (self->schema, "properties");
  JsonArray *required = mcp_json_get_array (self->schema, "required");
  g_autoptr(GHashTable) required_names = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GList) names = NULL;
  guint skipped = 0;

  if (required != NULL)
    {
      for (guint i = 0; i < json_array_get_length (required); i++)
        {
          JsonNode *node = json_array_get_element (required, i);

          if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
            g_hash_table_add (required_names, (gpointer) json_node_get_string (node));
        }
    }

  if (properties_object != NULL)
    names = json_object_get_members (properties_object);

  self->building = TRUE;

  for (GList *l = names; l != NULL; l = l->next)
    {
      const char *name = l->data;

      if (self->fields->len >= MAX_FIELDS)
        {
          skipped++;
          continue;
        }

      g_ptr_array_add (self->fields,
                       field_new (self, name, json_object_get_member (properties_object, name),
                                  g_hash_table_contains (required_names, name)));
    }

  self->valid = TRUE;
  form_update_valid (self);
  self->building = FALSE;

  gtk_widget_set_visible (GTK_WIDGET (self->empty_label), self->fields->len == 0);
  gtk_widget_set_visible (GTK_WIDGET (self->fields_box), self->fields->len > 0);

  if (skipped > 0)
    {
      g_autofree char *text = g_strdup_printf (ngettext ("%u more field is not shown",
                                                         "%u more fields are not shown",
                                                         skipped),
                                               skipped);

      gtk_label_set_text (self->more_label, text);
      gtk_widget_set_visible (GTK_WIDGET (self->more_label), TRUE);
    }
}

static Field *
find_field (StewardSchemaForm *self,
            const char        *name)
{
  for (guint i = 0; i < self->fields->len; i++)
    {
      Field *field = g_ptr_array_index (self->fields, i);

      if (g_str_equal (field->name, name))
        return field;
    }

  return NULL;
}

static void
steward_schema_form_constructed (GObject *object)
{
  StewardSchemaForm *self = STEWARD_SCHEMA_FORM (object);

  G_OBJECT_CLASS (steward_schema_form_parent_class)->constructed (object);

  steward_schema_form_build (self);
}

static void
steward_schema_form_dispose (GObject *object)
{
  StewardSchemaForm *self = STEWARD_SCHEMA_FORM (object);

  /* The fields die before their widgets; no handler may reach them after. */
  for (guint i = 0; i < self->fields->len; i++)
    {
      Field *field = g_ptr_array_index (self->fields, i);
      GtkWidget *control = field->control;

      if (field->kind == FIELD_JSON)
        g_signal_handlers_disconnect_by_data (gtk_text_view_get_buffer (GTK_TEXT_VIEW (control)),
                                              field);
      else if (field->kind == FIELD_MULTI)
        for (guint j = 0; j < field->checks->len; j++)
          g_signal_handlers_disconnect_by_data (g_ptr_array_index (field->checks, j), field);
      else
        g_signal_handlers_disconnect_by_data (control, field);
    }
  self->problem = NULL;
  g_ptr_array_set_size (self->fields, 0);

  gtk_widget_dispose_template (GTK_WIDGET (self), STEWARD_TYPE_SCHEMA_FORM);

  G_OBJECT_CLASS (steward_schema_form_parent_class)->dispose (object);
}

static void
steward_schema_form_finalize (GObject *object)
{
  StewardSchemaForm *self = STEWARD_SCHEMA_FORM (object);

  g_clear_pointer (&self->fields, g_ptr_array_unref);
  g_clear_pointer (&self->schema, json_object_unref);

  G_OBJECT_CLASS (steward_schema_form_parent_class)->finalize (object);
}

static void
steward_schema_form_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  StewardSchemaForm *self = STEWARD_SCHEMA_FORM (object);

  switch (prop_id)
    {
    case PROP_SCHEMA:
      g_value_set_boxed (value, self->schema);
      break;
    case PROP_VALID:
      g_value_set_boolean (value, self->valid);
      break;
    case PROP_PROBLEM:
      g_value_take_string (value, steward_schema_form_dup_problem (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_schema_form_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  StewardSchemaForm *self = STEWARD_SCHEMA_FORM (object);

  switch (prop_id)
    {
    case PROP_SCHEMA:
      g_clear_pointer (&self->schema, json_object_unref);
      self->schema = g_value_dup_boxed (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_schema_form_class_init (StewardSchemaFormClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = steward_schema_form_constructed;
  object_class->dispose = steward_schema_form_dispose;
  object_class->finalize = steward_schema_form_finalize;
  object_class->get_property = steward_schema_form_get_property;
  object_class->set_property = steward_schema_form_set_property;

  /**
   * StewardSchemaForm:schema:
   *
   * The JSON Schema object the form is built from.
   */
  properties[PROP_SCHEMA] =
    g_param_spec_boxed ("schema", NULL, NULL,
                        JSON_TYPE_OBJECT,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                        G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * StewardSchemaForm:valid:
   *
   * Whether every field holds an acceptable value.
   */
  properties[PROP_VALID] =
    g_param_spec_boolean ("valid", NULL, NULL,
                          FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * StewardSchemaForm:problem:
   *
   * The first unacceptable field and what is wrong with it, as
   * steward_schema_form_dup_problem() says it; notified on every change.
   */
  properties[PROP_PROBLEM] =
    g_param_spec_string ("problem", NULL, NULL,
                         NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/stewardmcp/Steward/"
                                                             "steward-schema-form.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardSchemaForm, empty_label);
  gtk_widget_class_bind_template_child (widget_class, StewardSchemaForm, fields_box);
  gtk_widget_class_bind_template_child (widget_class, StewardSchemaForm, more_label);
}

static void
steward_schema_form_init (StewardSchemaForm *self)
{
  self->fields = g_ptr_array_new_with_free_func (field_free);

  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * steward_schema_form_new:
 * @schema: (nullable): a JSON Schema object, such as a tool's inputSchema
 *
 * Returns: (transfer floating): a new form
 */
GtkWidget *
steward_schema_form_new (JsonObject *schema)
{
  return g_object_new (STEWARD_TYPE_SCHEMA_FORM,
                       "schema", schema,
                       NULL);
}

/**
 * steward_schema_form_get_valid:
 * @self: a #StewardSchemaForm
 *
 * Returns: whether every field holds an acceptable value
 */
gboolean
steward_schema_form_get_valid (StewardSchemaForm *self)
{
  g_return_val_if_fail (STEWARD_IS_SCHEMA_FORM (self), FALSE);

  return self->valid;
}

/**
 * steward_schema_form_validate:
 * @self: a #StewardSchemaForm
 *
 * Shows the message of every field that is not acceptable, touched or not,
 * and moves the focus to the first of them.
 *
 * Returns: whether every field holds an acceptable value
 */
gboolean
steward_schema_form_validate (StewardSchemaForm *self)
{
  Field *first = NULL;

  g_return_val_if_fail (STEWARD_IS_SCHEMA_FORM (self), FALSE);

  self->show_errors = TRUE;

  for (guint i = 0; i < self->fields->len; i++)
    {
      Field *field = g_ptr_array_index (self->fields, i);

      field_refresh (field);
      if (!field->valid && first == NULL)
        first = field;
    }

  form_update_valid (self);

  if (first != NULL)
    {
      if (first->kind == FIELD_MULTI && first->checks->len > 0)
        gtk_widget_grab_focus (g_ptr_array_index (first->checks, 0));
      else
        gtk_widget_grab_focus (first->control);
    }

  return self->valid;
}

/**
 * steward_schema_form_dup_values:
 * @self: a #StewardSchemaForm
 *
 * Returns: (transfer full): the values as the object to send, fields in
 *   the schema's order, optional fields left empty absent
 */
JsonObject *
steward_schema_form_dup_values (StewardSchemaForm *self)
{
  JsonObject *values;

  g_return_val_if_fail (STEWARD_IS_SCHEMA_FORM (self), NULL);

  values = json_object_new ();

  for (guint i = 0; i < self->fields->len; i++)
    {
      Field *field = g_ptr_array_index (self->fields, i);
      JsonNode *value = steward_schema_field_dup_value (field);

      if (value != NULL)
        json_object_set_member (values, field->name, value);
    }

  return values;
}

guint
steward_schema_form_get_n_fields (StewardSchemaForm *self)
{
  g_return_val_if_fail (STEWARD_IS_SCHEMA_FORM (self), 0);

  return self->fields->len;
}

GtkWidget *
steward_schema_form_get_field_widget (StewardSchemaForm *self,
                                      const char        *name)
{
  Field *field;

  g_return_val_if_fail (STEWARD_IS_SCHEMA_FORM (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  field = find_field (self, name);
  return field != NULL ? field->control : NULL;
}

const char *
steward_schema_form_get_field_error (StewardSchemaForm *self,
                                     const char        *name)
{
  Field *field;

  g_return_val_if_fail (STEWARD_IS_SCHEMA_FORM (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  field = find_field (self, name);
  if (field == NULL || !gtk_widget_get_visible (field->error_label))
    return NULL;

  return gtk_label_get_text (GTK_LABEL (field->error_label));
}

/**
 * steward_schema_form_dup_problem:
 * @self: a #StewardSchemaForm
 *
 * Returns: (transfer full) (nullable): the first field that holds an
 *   unacceptable value, named with what is wrong ("Email: Enter an email
 *   address…"), or %NULL when every field is acceptable
 */
char *
steward_schema_form_dup_problem (StewardSchemaForm *self)
{
  g_return_val_if_fail (STEWARD_IS_SCHEMA_FORM (self), NULL);

  if (self->problem == NULL || self->problem->message == NULL)
    return NULL;

  /* Translators: a form field's title, then what is wrong with its value,
   * shown beside the button that stays disabled until it is fixed. */
  return g_strdup_printf (_("%s: %s"), self->problem->title, self->problem->message);
}

GtkWidget *
steward_schema_form_get_problem_widget (StewardSchemaForm *self)
{
  g_return_val_if_fail (STEWARD_IS_SCHEMA_FORM (self), NULL);

  return self->problem != NULL ? self->problem->control : NULL;
}

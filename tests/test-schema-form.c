/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <json-glib/json-glib.h>

#include "steward-schema-form-private.h"
#include "steward-schema-form.h"

static JsonObject *
parse_object (const char *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = json_from_string (json, &error);

  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  return json_object_ref (json_node_get_object (node));
}

static StewardSchemaForm *
form_new (const char *schema_json)
{
  g_autoptr(JsonObject) schema = schema_json != NULL ? parse_object (schema_json) : NULL;
  GtkWidget *form = steward_schema_form_new (schema);

  g_object_ref_sink (form);
  return STEWARD_SCHEMA_FORM (form);
}

static char *
dup_values_json (StewardSchemaForm *form)
{
  g_autoptr(JsonObject) values = steward_schema_form_dup_values (form);
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), values);

  return json_to_string (node, FALSE);
}

static void
assert_values (StewardSchemaForm *form,
               const char        *expected)
{
  g_autofree char *actual = dup_values_json (form);
  g_autoptr(JsonObject) expected_object = parse_object (expected);
  g_autoptr(JsonNode) expected_node = json_node_init_object (json_node_alloc (), expected_object);
  g_autofree char *expected_text = json_to_string (expected_node, FALSE);

  g_assert_cmpstr (actual, ==, expected_text);
}

static GtkWidget *
field (StewardSchemaForm *form,
       const char        *name)
{
  return steward_schema_form_get_field_widget (form, name);
}

static const char *
error_of (StewardSchemaForm *form,
          const char        *name)
{
  return steward_schema_form_get_field_error (form, name);
}

static void
set_text (StewardSchemaForm *form,
          const char        *name,
          const char        *text)
{
  GtkWidget *widget = steward_schema_form_get_field_widget (form, name);

  g_assert_nonnull (widget);
  if (GTK_IS_TEXT_VIEW (widget))
    gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (widget)), text, -1);
  else
    gtk_editable_set_text (GTK_EDITABLE (widget), text);
}

static GtkCheckButton *
nth_check (StewardSchemaForm *form,
           const char        *name,
           guint              n)
{
  GtkWidget *box = steward_schema_form_get_field_widget (form, name);
  GtkWidget *child;

  g_assert_true (GTK_IS_BOX (box));
  child = gtk_widget_get_first_child (box);
  for (guint i = 0; i < n && child != NULL; i++)
    child = gtk_widget_get_next_sibling (child);

  g_assert_true (GTK_IS_CHECK_BUTTON (child));
  return GTK_CHECK_BUTTON (child);
}

static const char *
drop_down_item (GtkDropDown *drop_down,
                guint        position)
{
  GListModel *model = gtk_drop_down_get_model (drop_down);
  g_autoptr(GtkStringObject) item = g_list_model_get_item (model, position);

  g_assert_nonnull (item);
  /* The string belongs to the model, which the drop-down keeps. */
  return gtk_string_object_get_string (item);
}

static void
test_widgets (void)
{
  static const struct {
    const char *name;
    GType     (*type) (void);
  } expected[] = {
    { "text", gtk_entry_get_type },
    { "count", gtk_entry_get_type },
    { "ratio", gtk_entry_get_type },
    { "flag", gtk_check_button_get_type },
    { "color", gtk_drop_down_get_type },
    { "size", gtk_drop_down_get_type },
    { "legacy", gtk_drop_down_get_type },
    { "tags", gtk_box_get_type },
    { "titled_tags", gtk_box_get_type },
    { "config", gtk_text_view_get_type },
    { "list", gtk_text_view_get_type },
    { "anything", gtk_text_view_get_type },
    { "nullable", gtk_entry_get_type },
  };
  StewardSchemaForm *form = form_new (
    "{\"type\":\"object\",\"properties\":{"
    "\"text\":{\"type\":\"string\"},"
    "\"count\":{\"type\":\"integer\"},"
    "\"ratio\":{\"type\":\"number\"},"
    "\"flag\":{\"type\":\"boolean\"},"
    "\"color\":{\"type\":\"string\",\"enum\":[\"red\",\"green\"]},"
    "\"size\":{\"type\":\"string\",\"oneOf\":[{\"const\":\"s\",\"title\":\"Small\"}]},"
    "\"legacy\":{\"type\":\"string\",\"enum\":[\"a\"],\"enumNames\":[\"A\"]},"
    "\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\",\"enum\":[\"x\",\"y\"]}},"
    "\"titled_tags\":{\"type\":\"array\","
    "\"items\":{\"anyOf\":[{\"const\":\"x\",\"title\":\"X\"}]}},"
    "\"config\":{\"type\":\"object\"},"
    "\"list\":{\"type\":\"array\",\"items\":{\"type\":\"number\"}},"
    "\"anything\":{},"
    "\"nullable\":{\"type\":[\"string\",\"null\"]}"
    "}}");

  g_assert_cmpuint (steward_schema_form_get_n_fields (form), ==, G_N_ELEMENTS (expected));

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      GtkWidget *widget = steward_schema_form_get_field_widget (form, expected[i].name);

      g_test_message ("field %s", expected[i].name);
      g_assert_nonnull (widget);
      g_assert_true (G_TYPE_CHECK_INSTANCE_TYPE (widget, expected[i].type ()));
    }

  g_assert_null (steward_schema_form_get_field_widget (form, "missing"));
  /* Nothing is required and nothing filled in: valid, and nothing sent. */
  g_assert_true (steward_schema_form_get_valid (form));
  assert_values (form, "{}");

  g_assert_finalize_object (form);
}

static void
test_empty (void)
{
  const char *schemas[] = {
    "{\"type\":\"object\"}",
    "{\"type\":\"object\",\"properties\":{}}",
    "{\"type\":\"object\",\"properties\":[1,2]}",
    NULL,
  };

  for (guint i = 0; i < G_N_ELEMENTS (schemas); i++)
    {
      StewardSchemaForm *form = form_new (schemas[i]);
      GtkWidget *child;
      gboolean found = FALSE;

      g_assert_cmpuint (steward_schema_form_get_n_fields (form), ==, 0);
      g_assert_true (steward_schema_form_get_valid (form));
      g_assert_true (steward_schema_form_validate (form));
      assert_values (form, "{}");

      /* The one visible label says so. */
      child = gtk_widget_get_first_child (adw_bin_get_child (ADW_BIN (form)));
      for (; child != NULL; child = gtk_widget_get_next_sibling (child))
        {
          if (GTK_IS_LABEL (child) && gtk_widget_get_visible (child))
            {
              g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (child)), ==,
                               "This tool takes no arguments");
              found = TRUE;
            }
        }
      g_assert_true (found);

      g_assert_finalize_object (form);
    }
}

static void
test_defaults (void)
{
  /* The schema of the conformance suite's elicitation defaults scenario,
   * plus a titled choice, a multiple choice and JSON. */
  StewardSchemaForm *form = form_new (
    "{\"type\":\"object\",\"properties\":{"
    "\"name\":{\"type\":\"string\",\"default\":\"John Doe\"},"
    "\"age\":{\"type\":\"integer\",\"default\":30},"
    "\"score\":{\"type\":\"number\",\"default\":95.5},"
    "\"status\":{\"type\":\"string\",\"enum\":[\"active\",\"inactive\",\"pending\"],"
    "\"default\":\"active\"},"
    "\"verified\":{\"type\":\"boolean\",\"default\":true},"
    "\"plan\":{\"type\":\"string\",\"oneOf\":[{\"const\":\"free\",\"title\":\"Free\"},"
    "{\"const\":\"pro\",\"title\":\"Professional\"}],\"default\":\"pro\"},"
    "\"days\":{\"type\":\"array\","
    "\"items\":{\"type\":\"string\",\"enum\":[\"mon\",\"tue\",\"wed\"]},"
    "\"default\":[\"wed\",\"mon\"]},"
    "\"extra\":{\"type\":\"object\",\"default\":{\"a\":[1,2]}},"
    "\"wrong\":{\"type\":\"integer\",\"default\":\"ten\"}"
    "},\"required\":[]}");

  g_assert_true (steward_schema_form_get_valid (form));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (field (form, "name"))), ==, "John Doe");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (field (form, "score"))), ==, "95.5");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (field (form, "wrong"))), ==, "");

  /* An untouched form comes back with every default, typed. */
  assert_values (form,
                 "{\"name\":\"John Doe\",\"age\":30,\"score\":95.5,\"status\":\"active\","
                 "\"verified\":true,\"plan\":\"pro\",\"days\":[\"mon\",\"wed\"],"
                 "\"extra\":{\"a\":[1,2]}}");

  g_assert_finalize_object (form);
}

static void
test_required (void)
{
  StewardSchemaForm *form = form_new (
    "{\"type\":\"object\",\"properties\":{"
    "\"name\":{\"type\":\"string\",\"title\":\"Your name\"},"
    "\"age\":{\"type\":\"integer\"},"
    "\"color\":{\"type\":\"string\",\"enum\":[\"red\",\"green\"]},"
    "\"agree\":{\"type\":\"boolean\"},"
    "\"note\":{\"type\":\"string\"}"
    "},\"required\":[\"name\",\"age\",\"color\",\"agree\"]}");
  GtkWidget *color = steward_schema_form_get_field_widget (form, "color");

  g_assert_false (steward_schema_form_get_valid (form));
  /* Nothing is said before the person touched the field… */
  g_assert_null (error_of (form, "name"));

  /* …or asked to send. */
  g_assert_false (steward_schema_form_validate (form));
  g_assert_cmpstr (error_of (form, "name"), ==, "This field is required");
  g_assert_cmpstr (error_of (form, "age"), ==, "This field is required");
  g_assert_cmpstr (error_of (form, "color"), ==, "Choose one of the values");
  g_assert_null (error_of (form, "agree"));
  g_assert_null (error_of (form, "note"));

  /* A required choice without a default starts on a prompt. */
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (color)), ==, 0);
  g_assert_cmpstr (drop_down_item (GTK_DROP_DOWN (color), 0), ==, "Choose…");

  set_text (form, "name", "Ada");
  set_text (form, "age", "36");
  g_assert_false (steward_schema_form_get_valid (form));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (color), 2);
  g_assert_true (steward_schema_form_get_valid (form));
  g_assert_null (error_of (form, "name"));

  /* A required box that was never ticked is sent as false. */
  assert_values (form, "{\"name\":\"Ada\",\"age\":36,\"color\":\"green\",\"agree\":false}");

  g_assert_finalize_object (form);
}

static void
test_formats (void)
{
  static const struct {
    const char *format;
    const char *text;
    gboolean    valid;
  } rows[] = {
    { "email", "ada@example.com", TRUE },
    { "email", "first.last+tag@mail.example.org", TRUE },
    { "email", "ada", FALSE },
    { "email", "ada@", FALSE },
    { "email", "@example.com", FALSE },
    { "email", "ada@example", FALSE },
    { "email", "a da@example.com", FALSE },
    { "email", "ada@@example.com", FALSE },
    { "uri", "https://example.com/path?q=1", TRUE },
    { "uri", "mailto:ada@example.com", TRUE },
    { "uri", "urn:isbn:0451450523", TRUE },
    { "uri", "example.com", FALSE },
    { "uri", "/relative/path", FALSE },
    { "uri", "https://exa mple.com/", FALSE },
    { "date", "2025-06-18", TRUE },
    { "date", "2024-02-29", TRUE },
    { "date", "2023-02-29", FALSE },
    { "date", "2025-13-01", FALSE },
    { "date", "2025-6-18", FALSE },
    { "date", "18/06/2025", FALSE },
    { "date", "2025-06-18T00:00:00Z", FALSE },
    { "date-time", "2025-06-18T09:30:00Z", TRUE },
    { "date-time", "2025-06-18T09:30:00.123+02:00", TRUE },
    { "date-time", "2025-06-18t09:30:00z", TRUE },
    { "date-time", "2025-06-18T09:30:00", FALSE },
    { "date-time", "2025-06-18T25:30:00Z", FALSE },
    { "date-time", "2025-06-18", FALSE },
    { "date-time", "2025-06-31T09:30:00Z", FALSE },
    { "date-time", "2025-06-18T09:30:00+2:00", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      g_autofree char *schema = g_strdup_printf ("{\"type\":\"object\",\"properties\":"
                                                 "{\"v\":{\"type\":\"string\",\"format\":\"%s\"}}}",
                                                 rows[i].format);
      StewardSchemaForm *form = form_new (schema);

      g_test_message ("%s: %s", rows[i].format, rows[i].text);
      set_text (form, "v", rows[i].text);
      g_assert_cmpint (steward_schema_form_get_valid (form), ==, rows[i].valid);
      /* The person typed, so the message shows at once. */
      if (rows[i].valid)
        g_assert_null (error_of (form, "v"));
      else
        g_assert_nonnull (error_of (form, "v"));

      /* Empty and optional is fine. */
      set_text (form, "v", "");
      g_assert_true (steward_schema_form_get_valid (form));

      g_assert_finalize_object (form);
    }
}

static void
test_string_rules (void)
{
  StewardSchemaForm *form = form_new (
    "{\"type\":\"object\",\"properties\":{"
    "\"code\":{\"type\":\"string\",\"minLength\":2,\"maxLength\":4,\"pattern\":\"^[a-z]+$\"},"
    "\"broken\":{\"type\":\"string\",\"pattern\":\"([\"}"
    "}}");

  set_text (form, "code", "a");
  g_assert_false (steward_schema_form_get_valid (form));
  g_assert_cmpstr (error_of (form, "code"), ==,
                   "Use at least 2 characters");
  set_text (form, "code", "abcde");
  g_assert_cmpstr (error_of (form, "code"), ==,
                   "Use at most 4 characters");
  set_text (form, "code", "AB");
  g_assert_cmpstr (error_of (form, "code"), ==,
                   "Use text that matches the pattern ^[a-z]+$");
  /* Lengths are counted in characters, not bytes. */
  set_text (form, "code", "éé");
  g_assert_false (steward_schema_form_get_valid (form));
  set_text (form, "code", "abc");
  g_assert_true (steward_schema_form_get_valid (form));

  /* A pattern that does not compile is not checked. */
  set_text (form, "broken", "anything");
  g_assert_true (steward_schema_form_get_valid (form));

  assert_values (form, "{\"code\":\"abc\",\"broken\":\"anything\"}");

  g_assert_finalize_object (form);
}

static void
test_numbers (void)
{
  static const struct {
    const char *field;
    const char *text;
    gboolean    valid;
  } rows[] = {
    { "count", "1", TRUE },
    { "count", "10", TRUE },
    { "count", "0", FALSE },
    { "count", "11", FALSE },
    { "count", "-3", FALSE },
    { "count", "2.5", FALSE },
    { "count", "5.0", TRUE },
    { "count", "abc", FALSE },
    { "count", "0x5", FALSE },
    { "count", " 7 ", TRUE },
    { "ratio", "0.5", TRUE },
    { "ratio", "0", FALSE },
    { "ratio", "1", TRUE },
    { "ratio", "1.01", FALSE },
    { "ratio", "1e-3", TRUE },
    { "ratio", "nan", FALSE },
    { "ratio", "inf", FALSE },
  };
  StewardSchemaForm *form = form_new (
    "{\"type\":\"object\",\"properties\":{"
    "\"count\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":10},"
    "\"ratio\":{\"type\":\"number\",\"exclusiveMinimum\":0,\"maximum\":1}"
    "}}");

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      g_test_message ("%s: “%s”", rows[i].field, rows[i].text);
      set_text (form, rows[i].field, rows[i].text);
      g_assert_cmpint (steward_schema_form_get_valid (form), ==, rows[i].valid);
      set_text (form, rows[i].field, "");
    }

  set_text (form, "count", "0");
  g_assert_cmpstr (error_of (form, "count"), ==,
                   "Enter a number no less than 1");
  set_text (form, "count", "2.5");
  g_assert_cmpstr (error_of (form, "count"), ==, "Enter a whole number");
  set_text (form, "ratio", "0");
  g_assert_cmpstr (error_of (form, "ratio"), ==,
                   "Enter a number greater than 0");

  /* An empty optional number is absent, not 0. */
  set_text (form, "count", "");
  set_text (form, "ratio", "");
  assert_values (form, "{}");

  set_text (form, "count", "4");
  set_text (form, "ratio", "0.25");
  assert_values (form, "{\"count\":4,\"ratio\":0.25}");

  g_assert_finalize_object (form);
}

static void
test_titled_enum (void)
{
  StewardSchemaForm *form = form_new (
    "{\"type\":\"object\",\"properties\":{"
    "\"size\":{\"type\":\"string\",\"title\":\"Size\",\"oneOf\":["
    "{\"const\":\"s\",\"title\":\"Small\"},{\"const\":\"m\",\"title\":\"Medi\\u200bum\"}]},"
    "\"legacy\":{\"type\":\"string\",\"enum\":[\"x1\",\"x2\"],"
    "\"enumNames\":[\"First\",\"Second\"]},"
    "\"level\":{\"type\":\"integer\",\"enum\":[1,2,3],\"default\":2}"
    "},\"required\":[\"level\"]}");
  GtkDropDown *size = GTK_DROP_DOWN (steward_schema_form_get_field_widget (form, "size"));
  GtkDropDown *legacy = GTK_DROP_DOWN (steward_schema_form_get_field_widget (form, "legacy"));
  GtkDropDown *level = GTK_DROP_DOWN (steward_schema_form_get_field_widget (form, "level"));

  /* Optional: first "Not set"; titles shown, hidden characters visible. */
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (size)), ==, 3);
  g_assert_cmpstr (drop_down_item (size, 0), ==, "Not set");
  g_assert_cmpstr (drop_down_item (size, 1), ==, "Small");
  g_assert_cmpstr (drop_down_item (size, 2), ==, "Medi⟨U+200B⟩um");
  g_assert_cmpstr (drop_down_item (legacy, 2), ==, "Second");
  /* Required with a default: no prompt, the default chosen. */
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (level)), ==, 3);
  g_assert_cmpuint (gtk_drop_down_get_selected (level), ==, 1);

  assert_values (form, "{\"level\":2}");

  /* The title is shown, the const is sent. */
  gtk_drop_down_set_selected (size, 2);
  gtk_drop_down_set_selected (legacy, 1);
  gtk_drop_down_set_selected (level, 2);
  assert_values (form, "{\"size\":\"m\",\"legacy\":\"x1\",\"level\":3}");

  gtk_drop_down_set_selected (size, 0);
  assert_values (form, "{\"legacy\":\"x1\",\"level\":3}");

  g_assert_finalize_object (form);
}

static void
test_multi_select (void)
{
  StewardSchemaForm *form = form_new (
    "{\"type\":\"object\",\"properties\":{"
    "\"days\":{\"type\":\"array\",\"minItems\":1,\"maxItems\":2,"
    "\"items\":{\"anyOf\":[{\"const\":\"mon\",\"title\":\"Monday\"},"
    "{\"const\":\"tue\",\"title\":\"Tuesday\"},{\"const\":\"wed\",\"title\":\"Wednesday\"}]}},"
    "\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\",\"enum\":[\"a\",\"b\"]}}"
    "},\"required\":[\"days\"]}");

  g_assert_cmpstr (gtk_check_button_get_label (nth_check (form, "days", 1)), ==, "Tuesday");
  g_assert_false (steward_schema_form_get_valid (form));

  gtk_check_button_set_active (nth_check (form, "days", 0), TRUE);
  g_assert_true (steward_schema_form_get_valid (form));
  gtk_check_button_set_active (nth_check (form, "days", 2), TRUE);
  g_assert_true (steward_schema_form_get_valid (form));
  gtk_check_button_set_active (nth_check (form, "days", 1), TRUE);
  g_assert_false (steward_schema_form_get_valid (form));
  g_assert_cmpstr (error_of (form, "days"), ==, "Choose at most 2 values");
  gtk_check_button_set_active (nth_check (form, "days", 1), FALSE);
  g_assert_true (steward_schema_form_get_valid (form));

  /* An optional multiple choice with nothing ticked is left out. */
  assert_values (form, "{\"days\":[\"mon\",\"wed\"]}");
  gtk_check_button_set_active (nth_check (form, "tags", 1), TRUE);
  assert_values (form, "{\"days\":[\"mon\",\"wed\"],\"tags\":[\"b\"]}");

  gtk_check_button_set_active (nth_check (form, "days", 0), FALSE);
  gtk_check_button_set_active (nth_check (form, "days", 2), FALSE);
  g_assert_false (steward_schema_form_get_valid (form));
  g_assert_cmpstr (error_of (form, "days"), ==, "Choose at least 1 value");

  g_assert_finalize_object (form);
}

static void
test_json_field (void)
{
  StewardSchemaForm *form = form_new (
    "{\"type\":\"object\",\"properties\":{"
    "\"config\":{\"type\":\"object\"},"
    "\"points\":{\"type\":\"array\",\"items\":{\"type\":\"object\"}},"
    "\"any\":{\"description\":\"Whatever you like\"}"
    "},\"required\":[\"config\"]}");

  set_text (form, "config", "[1]");
  g_assert_false (steward_schema_form_get_valid (form));
  g_assert_cmpstr (error_of (form, "config"), ==,
                   "Enter a JSON object, such as {\"key\": \"value\"}");
  set_text (form, "config", "{\"a\": ");
  g_assert_false (steward_schema_form_get_valid (form));
  g_assert_true (g_str_has_prefix (error_of (form, "config"),
                                   "This is not valid JSON: "));
  set_text (form, "config", "  {\"a\": 1}\n");
  g_assert_true (steward_schema_form_get_valid (form));

  set_text (form, "points", "{}");
  g_assert_cmpstr (error_of (form, "points"), ==,
                   "Enter a JSON array, such as [1, 2]");
  set_text (form, "points", "[{\"x\": 1.5}]");
  set_text (form, "any", "\"text\"");
  g_assert_true (steward_schema_form_get_valid (form));

  assert_values (form, "{\"config\":{\"a\":1},\"points\":[{\"x\":1.5}],\"any\":\"text\"}");

  g_assert_finalize_object (form);
}

static void
notify_count_cb (GObject    *object,
                 GParamSpec *pspec,
                 guint      *count)
{
  (*count)++;
}

/* As a person types: one character at a time, at the end. */
static void
type_text (StewardSchemaForm *form,
           const char        *name,
           const char        *text)
{
  GtkEditable *editable = GTK_EDITABLE (steward_schema_form_get_field_widget (form, name));

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      int position = -1;

      gtk_editable_insert_text (editable, p, g_utf8_next_char (p) - p, &position);
    }
}

static void
test_valid_notify (void)
{
  StewardSchemaForm *form = form_new (
    "{\"type\":\"object\",\"properties\":{"
    "\"name\":{\"type\":\"string\",\"minLength\":3},"
    "\"email\":{\"type\":\"string\",\"format\":\"email\"}"
    "},\"required\":[\"name\"]}");
  guint count = 0;

  g_signal_connect (form, "notify::valid", G_CALLBACK (notify_count_cb), &count);

  g_assert_false (steward_schema_form_get_valid (form));
  type_text (form, "name", "Ad");
  g_assert_cmpuint (count, ==, 0);
  type_text (form, "name", "a");
  g_assert_cmpuint (count, ==, 1);
  g_assert_true (steward_schema_form_get_valid (form));
  type_text (form, "name", " Lovelace");
  g_assert_cmpuint (count, ==, 1);
  type_text (form, "email", "ada@example");
  g_assert_cmpuint (count, ==, 2);
  g_assert_false (steward_schema_form_get_valid (form));
  type_text (form, "email", ".org");
  g_assert_cmpuint (count, ==, 3);
  g_assert_true (steward_schema_form_get_valid (form));
  /* validate() on a valid form changes nothing. */
  g_assert_true (steward_schema_form_validate (form));
  g_assert_cmpuint (count, ==, 3);
  assert_values (form, "{\"name\":\"Ada Lovelace\",\"email\":\"ada@example.org\"}");

  g_assert_finalize_object (form);
}

static void
test_in_window (void)
{
  GtkWidget *window = gtk_window_new ();
  StewardSchemaForm *form = form_new (
    "{\"type\":\"object\",\"properties\":{"
    "\"a\":{\"type\":\"string\"},"
    "\"b\":{\"type\":\"integer\"}"
    "},\"required\":[\"b\"]}");
  GtkWidget *b = steward_schema_form_get_field_widget (form, "b");

  g_object_ref_sink (window);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (form));
  gtk_window_present (GTK_WINDOW (window));

  /* Enter in a field activates the window's default, whatever it is. */
  g_assert_true (gtk_entry_get_activates_default (GTK_ENTRY (field (form, "a"))));
  g_assert_true (gtk_entry_get_activates_default (GTK_ENTRY (b)));

  /* validate() takes the person to the first field that needs work. */
  g_assert_false (steward_schema_form_validate (form));
  g_assert_true (gtk_widget_is_ancestor (gtk_window_get_focus (GTK_WINDOW (window)), b) ||
                 gtk_window_get_focus (GTK_WINDOW (window)) == b);

  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_finalize_object (window);
  g_assert_finalize_object (form);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/steward/schema-form/widgets", test_widgets);
  g_test_add_func ("/steward/schema-form/empty", test_empty);
  g_test_add_func ("/steward/schema-form/defaults", test_defaults);
  g_test_add_func ("/steward/schema-form/required", test_required);
  g_test_add_func ("/steward/schema-form/formats", test_formats);
  g_test_add_func ("/steward/schema-form/string-rules", test_string_rules);
  g_test_add_func ("/steward/schema-form/numbers", test_numbers);
  g_test_add_func ("/steward/schema-form/titled-enum", test_titled_enum);
  g_test_add_func ("/steward/schema-form/multi-select", test_multi_select);
  g_test_add_func ("/steward/schema-form/json-field", test_json_field);
  g_test_add_func ("/steward/schema-form/valid-notify", test_valid_notify);
  g_test_add_func ("/steward/schema-form/in-window", test_in_window);

  return g_test_run ();
}

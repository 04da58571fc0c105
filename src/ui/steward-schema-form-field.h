/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "steward-schema-form.h"

G_BEGIN_DECLS

/* One field of StewardSchemaForm, shared by the form
 * (steward-schema-form.c: reading the schema, building the widgets) and
 * its checks (steward-schema-form-check.c: validating what was typed). */

typedef enum {
  FIELD_STRING,
  FIELD_NUMBER,
  FIELD_INTEGER,
  FIELD_BOOLEAN,
  FIELD_CHOICE,
  FIELD_MULTI,
  FIELD_JSON,
} FieldKind;

typedef enum {
  FORMAT_NONE,
  FORMAT_EMAIL,
  FORMAT_URI,
  FORMAT_DATE,
  FORMAT_DATE_TIME,
} StringFormat;

typedef struct {
  JsonNode *value;
  char     *title;
} Choice;

typedef struct {
  StewardSchemaForm *form;
  char              *name;
  char              *title;
  char              *description;
  FieldKind          kind;
  gboolean           required;
  gboolean           has_default;
  gboolean           touched;
  gboolean           valid;
  char              *message;

  /* strings */
  StringFormat       format;
  gint64             min_length;
  gint64             max_length;
  GRegex            *pattern;
  char              *pattern_text;

  /* numbers */
  gboolean           has_minimum;
  gboolean           has_maximum;
  gboolean           exclusive_minimum;
  gboolean           exclusive_maximum;
  double             minimum;
  double             maximum;

  /* choices */
  GPtrArray         *choices;
  guint              first_choice;
  gint64             min_items;
  gint64             max_items;
  GPtrArray         *checks;

  /* JSON text: the expected type, NULL for any */
  char              *json_type;
  gboolean           nullable;

  GtkWidget         *control;
  GtkWidget         *error_label;
} Field;

gboolean  steward_schema_is_whole          (double      value);
char     *steward_schema_format_double     (double      value);
gboolean  steward_schema_json_matches_type (JsonNode   *node,
                                            const char *expected,
                                            gboolean    nullable);
/* The message to show, or NULL when the field is valid. */
char     *steward_schema_field_check       (Field      *field);
/* The value to send, or NULL when the field is left out. */
JsonNode *steward_schema_field_dup_value   (Field      *field);

G_END_DECLS

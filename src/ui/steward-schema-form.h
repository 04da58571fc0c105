/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define STEWARD_TYPE_SCHEMA_FORM (steward_schema_form_get_type ())

G_DECLARE_FINAL_TYPE (StewardSchemaForm, steward_schema_form, STEWARD, SCHEMA_FORM, AdwBin)

/* A form built from a JSON Schema object: a tool's inputSchema or an
 * elicitation's requestedSchema. string (with formats email, uri, date,
 * date-time validated), number, integer (with minimum/maximum), boolean,
 * enum and oneOf/anyOf with titled values (single choice), arrays of enums
 * (multiple choice), other arrays and objects as JSON text; required marks,
 * defaults applied, titles and descriptions shown, validation messages
 * beside each field. "valid" notifies as the person types. */
GtkWidget  *steward_schema_form_new        (JsonObject        *schema);
gboolean    steward_schema_form_get_valid  (StewardSchemaForm *self);
/* Shows every field's message and returns FALSE when one is invalid. */
gboolean    steward_schema_form_validate   (StewardSchemaForm *self);
/* The first unacceptable field named with what is wrong, NULL when none. */
char       *steward_schema_form_dup_problem (StewardSchemaForm *self);
/* The values as the object to send (absent optional fields left out). */
JsonObject *steward_schema_form_dup_values (StewardSchemaForm *self);

G_END_DECLS

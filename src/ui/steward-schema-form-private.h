/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "steward-schema-form.h"

G_BEGIN_DECLS

/* For the dialogs that embed the form and for the tests that drive it. */

guint       steward_schema_form_get_n_fields     (StewardSchemaForm *self);
/* The control a person edits for property @name: a GtkEntry, GtkCheckButton,
 * GtkDropDown, GtkTextView, or a GtkBox of GtkCheckButtons for a multiple
 * choice; NULL when there is no such field. */
GtkWidget  *steward_schema_form_get_field_widget (StewardSchemaForm *self,
                                                  const char        *name);
/* The message shown below the field, or NULL when none is shown. */
const char *steward_schema_form_get_field_error  (StewardSchemaForm *self,
                                                  const char        *name);

/* The control of the field steward_schema_form_dup_problem() names, or
 * NULL when every field is acceptable. */
GtkWidget  *steward_schema_form_get_problem_widget (StewardSchemaForm *self);

G_END_DECLS

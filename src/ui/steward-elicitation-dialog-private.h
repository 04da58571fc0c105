/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "steward-elicitation-dialog.h"
#include "steward-schema-form.h"
#include "steward-show-uri.h"

G_BEGIN_DECLS

/* How the dialog hands an address to the desktop. */
void steward_elicitation_dialog_set_show_uri_func (StewardElicitationDialog *self,
                                                   StewardShowUriFunc        func,
                                                   gpointer                  user_data);

/* For the tests, which drive the dialog as a person would. */

/* "form" or "url". */
const char        *steward_elicitation_dialog_get_mode          (StewardElicitationDialog *self);
/* NULL in URL mode. */
StewardSchemaForm *steward_elicitation_dialog_get_form          (StewardElicitationDialog *self);
GtkLabel          *steward_elicitation_dialog_get_message_label (StewardElicitationDialog *self);
GtkLabel          *steward_elicitation_dialog_get_url_label     (StewardElicitationDialog *self);
GtkLabel          *steward_elicitation_dialog_get_cause_label   (StewardElicitationDialog *self);
/* The warnings shown, one a line, or NULL when there are none. */
char              *steward_elicitation_dialog_dup_warnings      (StewardElicitationDialog *self);
/* "decline", "cancel", "accept", "open", or "problem": the button beside
 * them that names the first unacceptable field. */
GtkWidget         *steward_elicitation_dialog_get_button        (StewardElicitationDialog *self,
                                                                 const char               *name);

G_END_DECLS

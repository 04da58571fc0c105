/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "steward-schema-form.h"
#include "steward-tool-approval-dialog.h"

G_BEGIN_DECLS

/* For the tests, which drive the dialog as a person would. */

/* The form for the arguments, or NULL when they are edited as JSON. */
StewardSchemaForm *steward_tool_approval_dialog_get_form        (StewardToolApprovalDialog *self);
/* The JSON editor for the arguments, or NULL when a form is shown. */
GtkTextView       *steward_tool_approval_dialog_get_json_view   (StewardToolApprovalDialog *self);
/* The difference between the pinned and the new definition, or NULL when
 * there is none to show. */
GtkTextBuffer     *steward_tool_approval_dialog_get_diff_buffer (StewardToolApprovalDialog *self);
/* The badges shown, one a line. */
char              *steward_tool_approval_dialog_dup_badges      (StewardToolApprovalDialog *self);
/* "deny", "allow", "always" (this tool) or "server" (the server's tools
 * that are neither destructive nor open-world). */
GtkWidget         *steward_tool_approval_dialog_get_button      (StewardToolApprovalDialog *self,
                                                                 const char                *name);

G_END_DECLS

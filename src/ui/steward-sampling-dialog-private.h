/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "steward-sampling-dialog.h"

G_BEGIN_DECLS

/* For the tests, which drive the dialog as a person would. */

/* "request" or "response". */
const char    *steward_sampling_dialog_get_stage_name     (StewardSamplingDialog *self);
GtkTextView   *steward_sampling_dialog_get_system_view    (StewardSamplingDialog *self);
/* The @n-th editable text of the messages, counted from 0 over all of
 * them; NULL past the last. */
GtkTextView   *steward_sampling_dialog_get_text_view      (StewardSamplingDialog *self,
                                                           guint                  n);
/* The card of the @n-th message. */
GtkWidget     *steward_sampling_dialog_get_message_card   (StewardSamplingDialog *self,
                                                           guint                  n);
GtkTextView   *steward_sampling_dialog_get_answer_view    (StewardSamplingDialog *self);
/* "reject", "continue", "regenerate" or "send". */
GtkWidget     *steward_sampling_dialog_get_button         (StewardSamplingDialog *self,
                                                           const char            *name);
GtkWidget     *steward_sampling_dialog_get_spinner        (StewardSamplingDialog *self);
GtkLabel      *steward_sampling_dialog_get_cause_label    (StewardSamplingDialog *self);
GtkLabel      *steward_sampling_dialog_get_error_label    (StewardSamplingDialog *self);
/* The row for "max-tokens", "temperature", "stop-sequences", "context",
 * "preferences", "tools", "model" or "policy". */
AdwActionRow  *steward_sampling_dialog_get_row            (StewardSamplingDialog *self,
                                                           const char            *name);

G_END_DECLS

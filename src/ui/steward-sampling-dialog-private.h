/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>
#include <math.h>

#include "mcp-json.h"

#include "steward-sampling-dialog.h"

G_BEGIN_DECLS

/*
 * The dialog is in two files: steward-sampling-dialog.c builds the
 * request's texts, runs the two stages and answers the approval;
 * steward-sampling-dialog-summary.c says what the person decides on (the
 * model, what leaves the computer, the tokens against the budget, the
 * policy) and lists the parameters.
 */

struct _StewardSamplingDialog
{
  StewardApprovalDialog parent_instance;

  GtkStack         *stack;
  GtkLabel         *intro_label;
  GtkLabel         *cause_label;
  GtkTextView      *system_view;
  GtkLabel         *system_placeholder;
  GtkLabel         *system_note;
  GtkBox           *messages_box;
  GtkLabel         *messages_note;
  AdwExpanderRow   *parameters_row;
  AdwActionRow     *max_tokens_row;
  AdwActionRow     *temperature_row;
  AdwActionRow     *stop_row;
  AdwActionRow     *context_row;
  AdwActionRow     *preferences_row;
  AdwActionRow     *tools_row;
  AdwActionRow     *model_row;
  GtkDropDown      *model_dropdown;
  AdwActionRow     *sent_row;
  AdwActionRow     *estimate_row;
  AdwActionRow     *policy_row;
  GtkLabel         *answer_intro_label;
  GtkWidget        *generating_box;
  GtkSpinner       *generating_spinner;
  GtkTextView      *answer_view;
  GtkLabel         *answer_placeholder;
  GtkLabel         *error_label;
  GtkLabel         *answer_model_label;
  GtkLabel         *tool_use_label;
  GtkWidget        *reject_button;
  GtkWidget        *regenerate_button;
  GtkWidget        *continue_button;
  GtkWidget        *send_button;

  /* Borrowed from the base, which holds the reference. */
  StewardApproval  *approval;
  GPtrArray        *blocks;
  GPtrArray        *cards;
  char             *system_original;
  char             *system_shown;
  char             *answer_shown;
  gboolean          continued;
  gboolean          filling_models;
};

static inline gboolean
member_number (JsonObject *object,
               const char *name,
               double     *out)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;
  GType type;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;

  type = json_node_get_value_type (node);
  if (type != G_TYPE_INT64 && type != G_TYPE_DOUBLE)
    return FALSE;

  *out = json_node_get_double (node);
  return isfinite (*out);
}

/* steward-sampling-dialog-summary.c */
void           steward_sampling_dialog_update_max_tokens  (StewardSamplingDialog *self);
void           steward_sampling_dialog_update_parameters  (StewardSamplingDialog *self);
/* The model, the choice of another, the policy, and what goes where. */
void           steward_sampling_dialog_update_model       (StewardSamplingDialog *self);
/* Whether a model answers, so that "Regenerate" means something. */
gboolean       steward_sampling_dialog_has_model          (StewardSamplingDialog *self);

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
 * "preferences", "tools", "model", "sent", "estimate" or "policy". */
AdwActionRow  *steward_sampling_dialog_get_row            (StewardSamplingDialog *self,
                                                           const char            *name);
GtkDropDown   *steward_sampling_dialog_get_model_dropdown (StewardSamplingDialog *self);
AdwExpanderRow *steward_sampling_dialog_get_parameters_row (StewardSamplingDialog *self);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "steward-approval-dialog.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_ELICITATION_DIALOG (steward_elicitation_dialog_get_type ())

G_DECLARE_FINAL_TYPE (StewardElicitationDialog, steward_elicitation_dialog, STEWARD, ELICITATION_DIALOG,
                      StewardApprovalDialog)

/* The elicitation dialog (form mode and URL mode) for one approval. */
GtkWidget *steward_elicitation_dialog_new (StewardApproval *approval);

G_END_DECLS

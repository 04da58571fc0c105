/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "steward-approval-dialog.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_SAMPLING_DIALOG (steward_sampling_dialog_get_type ())

G_DECLARE_FINAL_TYPE (StewardSamplingDialog, steward_sampling_dialog, STEWARD, SAMPLING_DIALOG,
                      StewardApprovalDialog)

/* The two-stage sampling dialog for one approval of kind SAMPLING. */
GtkWidget *steward_sampling_dialog_new (StewardApproval *approval);

G_END_DECLS

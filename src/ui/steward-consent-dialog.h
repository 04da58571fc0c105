/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "steward-approval-dialog.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_CONSENT_DIALOG (steward_consent_dialog_get_type ())

G_DECLARE_FINAL_TYPE (StewardConsentDialog, steward_consent_dialog, STEWARD, CONSENT_DIALOG,
                      StewardApprovalDialog)

/* Consent to start a server: the exact command, untruncated. */
GtkWidget *steward_consent_dialog_new (StewardApproval *approval);

G_END_DECLS

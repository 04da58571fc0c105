/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "steward-host.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_AUDIT_DIALOG (steward_audit_dialog_get_type ())

G_DECLARE_FINAL_TYPE (StewardAuditDialog, steward_audit_dialog, STEWARD, AUDIT_DIALOG, AdwWindow)

/* The sampling audit journal: every record, newest first; export.
 * "loading" (notifies) is TRUE until the journal has been read. */
GtkWidget  *steward_audit_dialog_new         (StewardHost        *host);
gboolean    steward_audit_dialog_get_loading (StewardAuditDialog *self);
/* The records shown (StewardAuditRecord), after the search. */
GListModel *steward_audit_dialog_get_model   (StewardAuditDialog *self);

/* Copies the journal to @destination, as Export does after the choice. */
void        steward_audit_dialog_export_to   (StewardAuditDialog *self,
                                              GFile              *destination);

G_END_DECLS

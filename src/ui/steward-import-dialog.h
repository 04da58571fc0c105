/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "steward-host.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_IMPORT_DIALOG (steward_import_dialog_get_type ())

G_DECLARE_FINAL_TYPE (StewardImportDialog, steward_import_dialog, STEWARD, IMPORT_DIALOG, AdwWindow)

/* Import servers from Claude Desktop or VS Code with a preview of each
 * command and consent to move secret values into the keyring. Confirming
 * the list is the consent for the servers ticked to start with the very
 * commands shown. */
GtkWidget *steward_import_dialog_new (StewardHost *host);

G_END_DECLS

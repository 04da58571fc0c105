/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "steward-host.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_SERVER_DIALOG (steward_server_dialog_get_type ())

G_DECLARE_FINAL_TYPE (StewardServerDialog, steward_server_dialog, STEWARD, SERVER_DIALOG, AdwWindow)

/* Add or edit a server (stdio or remote); @server NULL adds. Secret values
 * go to the keyring. */
GtkWidget *steward_server_dialog_new (StewardHost         *host,
                                      StewardServerConfig *server);

G_END_DECLS

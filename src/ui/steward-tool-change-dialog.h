/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "steward-server-registry.h"
#include "steward-tool-pins.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_TOOL_CHANGE_DIALOG (steward_tool_change_dialog_get_type ())

G_DECLARE_FINAL_TYPE (StewardToolChangeDialog, steward_tool_change_dialog, STEWARD, TOOL_CHANGE_DIALOG, AdwWindow)

/* The tools of running servers that stay disabled until the person
 * approves them (docs/SECURITY.md): a definition that changed since it was
 * pinned, or a tool new on a server with pins. Each shows the difference
 * from the pinned definition and "Approve New Definition"; the list
 * follows the pins and the servers. */
GtkWidget *steward_tool_change_dialog_new           (StewardServerRegistry *registry,
                                                     StewardToolPins       *pins);
/* How many such tools there are now, for a banner that offers the
 * dialog. */
guint      steward_tool_change_dialog_count_changes (StewardServerRegistry *registry,
                                                     StewardToolPins       *pins);

G_END_DECLS

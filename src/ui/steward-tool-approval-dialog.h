/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "steward-approval-dialog.h"
#include "steward-tool-pins.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_TOOL_APPROVAL_DIALOG (steward_tool_approval_dialog_get_type ())

G_DECLARE_FINAL_TYPE (StewardToolApprovalDialog, steward_tool_approval_dialog, STEWARD,
                      TOOL_APPROVAL_DIALOG, StewardApprovalDialog)

/* Asks the person whether a model's tool call may run: the server, the
 * tool's title and description (hidden characters shown), badges for its
 * annotations, the arguments editable (a form from the tool's input
 * schema, or JSON), "Always allow this tool" and the server's standing
 * "allow" (never for its destructive or open-world tools), and for a
 * definition that changed since it was pinned, or a tool new on a server
 * with pins, the difference and "Approve New Definition". Allow answers
 * ALLOW with the arguments as edited; Deny, Escape or closing answers
 * DENY. @pins (nullable) records the approved definition and the
 * standing policies. */
GtkWidget *steward_tool_approval_dialog_new (StewardApproval *approval,
                                             StewardToolPins *pins);

G_END_DECLS

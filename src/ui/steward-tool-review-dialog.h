/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "steward-server-registry.h"
#include "steward-tool-pins.h"

G_BEGIN_DECLS

/*
 * First contact with a server's tools: each tool the person has not
 * reviewed yet, with its description as the model would read it and a
 * warning where the name or description hides characters, each with a
 * switch. "Offer to Models" pins every tool listed and switches each on or
 * off as set (steward_tool_pins_is_offered()); until then the chat offers
 * none of them. Changed definitions, and tools new on a server reviewed
 * before, go to StewardToolChangeDialog instead.
 */

#define STEWARD_TYPE_TOOL_REVIEW_DIALOG (steward_tool_review_dialog_get_type ())

G_DECLARE_FINAL_TYPE (StewardToolReviewDialog, steward_tool_review_dialog, STEWARD,
                      TOOL_REVIEW_DIALOG, AdwWindow)

/* @tools: McpTool, the server's list as it is now. */
GtkWidget *steward_tool_review_dialog_new             (const char            *server,
                                                       GListModel            *tools,
                                                       StewardToolPins       *pins);
/* For the first running server of @registry with tools to review, or
 * NULL when none has any. */
GtkWidget *steward_tool_review_dialog_new_for_registry (StewardServerRegistry *registry,
                                                        StewardToolPins       *pins);
/* Tools of running servers the person has not reviewed yet. */
guint      steward_tool_review_dialog_count_unreviewed (StewardServerRegistry *registry,
                                                        StewardToolPins       *pins,
                                                        const char            *server);

G_END_DECLS

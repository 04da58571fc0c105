/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "steward-tool-call.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_APP_CALL_VIEW (steward_app_call_view_get_type ())

G_DECLARE_FINAL_TYPE (StewardAppCallView, steward_app_call_view, STEWARD, APP_CALL_VIEW, AdwBin)

/*
 * The MCP Apps view of a tool call in a chat, under the call's row: empty
 * for a tool without a view, otherwise a StewardAppView that appears once
 * the call runs and gets the call's result or failure as they come. The
 * page's ui/message and ui/update-model-context go to the call
 * (steward_tool_call_post_view_message(), _set_view_context()).
 */
GtkWidget *steward_app_call_view_new (StewardToolCall *call);

G_END_DECLS

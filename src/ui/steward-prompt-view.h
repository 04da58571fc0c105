/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "mcp-client.h"
#include "mcp-prompt.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_PROMPT_VIEW (steward_prompt_view_get_type ())

G_DECLARE_FINAL_TYPE (StewardPromptView, steward_prompt_view, STEWARD, PROMPT_VIEW, AdwBin)

/* A prompt: its arguments (required ones marked, each completed by the
 * server as the person types), Get, and a preview of the messages it
 * yields: each role and each content block through StewardContentView. */
GtkWidget       *steward_prompt_view_new        (McpClient         *client,
                                                 McpPrompt         *prompt);
/* The entry of argument @name (a StewardCompletionEntry), or NULL. */
GtkWidget       *steward_prompt_view_get_entry  (StewardPromptView *self,
                                                 const char        *name);
/* The result of the last Get, or NULL. */
McpPromptResult *steward_prompt_view_get_result (StewardPromptView *self);
gboolean         steward_prompt_view_get_loading (StewardPromptView *self);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "mcp-client.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_COMPLETION_ENTRY (steward_completion_entry_get_type ())

G_DECLARE_FINAL_TYPE (StewardCompletionEntry, steward_completion_entry, STEWARD, COMPLETION_ENTRY, AdwBin)

/* An entry for one argument of a prompt or one variable of a resource
 * template. As the person types (debounced), it asks the server for
 * completions (completion/complete with @ref_type "ref/prompt" or
 * "ref/resource") and offers them in a list under the entry; each new
 * question cancels the one before. Without the server's completions
 * capability it is a plain entry. */
GtkWidget          *steward_completion_entry_new             (McpClient              *client,
                                                              const char             *ref_type,
                                                              const char             *ref_name,
                                                              const char             *argument);
GtkEditable        *steward_completion_entry_get_editable    (StewardCompletionEntry *self);
const char         *steward_completion_entry_get_argument    (StewardCompletionEntry *self);
/* The other arguments already chosen, sent as the request's context. */
void                steward_completion_entry_set_context     (StewardCompletionEntry *self,
                                                              JsonObject             *context);
/* The values the server offered last, or NULL before it answered. */
const char * const *steward_completion_entry_get_suggestions (StewardCompletionEntry *self);

G_END_DECLS

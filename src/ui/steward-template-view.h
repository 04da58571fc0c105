/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "mcp-client.h"
#include "mcp-resource-template.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_TEMPLATE_VIEW (steward_template_view_get_type ())

G_DECLARE_FINAL_TYPE (StewardTemplateView, steward_template_view, STEWARD, TEMPLATE_VIEW, AdwBin)

/* A resource template: one entry per RFC 6570 variable, each completed by
 * the server as the person types, the URI they expand to, and Read, which
 * shows that resource below in a StewardResourceView. */
GtkWidget *steward_template_view_new               (McpClient           *client,
                                                    McpResourceTemplate *template);
/* The entry of variable @name (a StewardCompletionEntry), or NULL. */
GtkWidget *steward_template_view_get_entry         (StewardTemplateView *self,
                                                    const char          *name);
/* The URI the current values expand to. */
char      *steward_template_view_dup_uri           (StewardTemplateView *self);
/* The StewardResourceView of the last Read, or NULL. */
GtkWidget *steward_template_view_get_resource_view (StewardTemplateView *self);

G_END_DECLS

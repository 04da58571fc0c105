/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "mcp-client.h"
#include "mcp-resource.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_RESOURCE_VIEW (steward_resource_view_get_type ())

G_DECLARE_FINAL_TYPE (StewardResourceView, steward_resource_view, STEWARD, RESOURCE_VIEW, AdwBin)

/* One resource, read at once and shown through StewardContentView; with a
 * Subscribe switch when the server offers subscriptions, after which each
 * resources/updated for this URI reads it again and says when. */
GtkWidget  *steward_resource_view_new         (McpClient           *client,
                                               const char          *uri,
                                               McpResource         *resource);
const char *steward_resource_view_get_uri     (StewardResourceView *self);
/* Reads the resource again. */
void        steward_resource_view_reload      (StewardResourceView *self);
/* Whether a read is under way. */
gboolean    steward_resource_view_get_loading (StewardResourceView *self);
/* The contents of the last read (McpContent), or NULL. */
GPtrArray  *steward_resource_view_get_contents (StewardResourceView *self);

G_END_DECLS

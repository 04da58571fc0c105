/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "mcp-content.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_CONTENT_VIEW (steward_content_view_get_type ())

G_DECLARE_FINAL_TYPE (StewardContentView, steward_content_view, STEWARD, CONTENT_VIEW, AdwBin)

/* One content block as a person should see it: text (selectable, never
 * markup, hidden characters made visible), images (decoded from data,
 * never fetched), audio (playable, GtkMediaControls), embedded resources
 * (text shown, blobs with "Save As…"), resource links (full URI, opened
 * only after a click through the URI launcher, https or loopback http
 * only), unknown blocks as pretty JSON. */
GtkWidget  *steward_content_view_new         (McpContent         *content);
McpContent *steward_content_view_get_content (StewardContentView *self);
/* The most a long text takes before it scrolls; 480 px unless set. */
void        steward_content_view_set_text_height (StewardContentView *self,
                                                  int                 height);

G_END_DECLS

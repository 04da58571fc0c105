/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "steward-markdown-view.h"

G_BEGIN_DECLS

/* How the view hands an address to the desktop: gtk_show_uri() unless a
 * test puts a recorder in its place, so that no browser opens. */
typedef void (*StewardMarkdownShowUriFunc) (GtkWindow  *parent,
                                            const char *uri,
                                            gpointer    user_data);

void        steward_markdown_view_set_show_uri_func (StewardMarkdownView        *self,
                                                     StewardMarkdownShowUriFunc  func,
                                                     gpointer                    user_data);

/* For the tests, which act as a click on the text at @offset (in
 * characters) would. Returns whether a link was opened. */
gboolean    steward_markdown_view_activate_at       (StewardMarkdownView        *self,
                                                     int                         offset);
/* The address of the link at @offset, or NULL. */
const char *steward_markdown_view_get_uri_at        (StewardMarkdownView        *self,
                                                     int                         offset);
/* How many bytes of the text were parsed again by the last change: the
 * cost of one streamed token. */
gsize       steward_markdown_view_get_last_parsed   (StewardMarkdownView        *self);

G_END_DECLS

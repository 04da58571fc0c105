/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "steward-content-view.h"

G_BEGIN_DECLS

/* How the view hands a link to the desktop; gtk_show_uri() unless a test
 * puts a recorder in its place, so that no browser opens. */
typedef void (*StewardContentShowUriFunc) (GtkWindow  *parent,
                                           const char *uri,
                                           gpointer    user_data);

void steward_content_view_set_show_uri_func (StewardContentView        *self,
                                             StewardContentShowUriFunc  func,
                                             gpointer                   user_data);

G_END_DECLS

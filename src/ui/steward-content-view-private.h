/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "steward-content-view.h"
#include "steward-show-uri.h"

G_BEGIN_DECLS

/* How the view hands a link to the desktop. */
void steward_content_view_set_show_uri_func (StewardContentView *self,
                                             StewardShowUriFunc  func,
                                             gpointer            user_data);

G_END_DECLS

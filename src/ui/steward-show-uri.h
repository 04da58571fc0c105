/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* How a widget hands an address to the desktop: the default below, unless
 * a test puts a recorder in its place, so that no browser opens. */
typedef void (*StewardShowUriFunc) (GtkWindow  *parent,
                                    const char *uri,
                                    gpointer    user_data);

/* The desktop's launcher, which goes through the portal in Flatpak; never
 * a shell. */
static inline void
steward_show_uri_default (GtkWindow  *parent,
                          const char *uri,
                          gpointer    user_data)
{
  gtk_show_uri (parent, uri, GDK_CURRENT_TIME);
}

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Asks the person for a file or folder with the native chooser (the
 * portal's in Flatpak, which then gives the app access to exactly what
 * was chosen). @filters (nullable) is a list of GtkFileFilter;
 * @initial_name (nullable) is the name a saved file starts with, and
 * @initial_file (nullable) the file or folder the chooser starts at.
 * Cancelling @cancellable closes the chooser. */
void   steward_file_chooser_choose_async  (GtkWindow            *parent,
                                           GtkFileChooserAction  action,
                                           const char           *title,
                                           const char           *accept_label,
                                           GListModel           *filters,
                                           const char           *initial_name,
                                           GFile                *initial_file,
                                           GCancellable         *cancellable,
                                           GAsyncReadyCallback   callback,
                                           gpointer              user_data);
/* The file chosen; %G_IO_ERROR_CANCELLED when the person closed the
 * chooser without one. */
GFile *steward_file_chooser_choose_finish (GAsyncResult         *result,
                                           GError              **error);

G_END_DECLS

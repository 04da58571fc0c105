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

/* What a chooser asks, by name: the arguments of
 * steward_file_chooser_choose_async() between @parent and @cancellable. */
typedef struct
{
  GtkFileChooserAction  action;
  const char           *title;
  const char           *accept_label;
  GListModel           *filters;
  const char           *initial_name;
  GFile                *initial_file;
} StewardFileQuestion;

/* Called with the file the person chose; not called when they closed the
 * chooser without one or @owner cancelled it. */
typedef void (*StewardFileChosenFunc) (gpointer  owner,
                                       GFile    *file);

/* What every view that opens a chooser does, in one place: at most one
 * chooser per @owner, open while *@busy holds a cancellable (a further
 * request does nothing: the open chooser is modal and in front). @owner
 * cancels *@busy when it goes, which closes the chooser; it is kept alive
 * until the chooser answers, so @busy, a field of @owner, stays valid. */
void   steward_file_chooser_choose_for    (gpointer                   owner,
                                           GCancellable             **busy,
                                           GtkWindow                 *parent,
                                           const StewardFileQuestion *question,
                                           StewardFileChosenFunc      chosen);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "steward-file-store.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_FILE_BACKED (steward_file_backed_get_type ())

G_DECLARE_DERIVABLE_TYPE (StewardFileBacked, steward_file_backed, STEWARD, FILE_BACKED, GObject)

/**
 * StewardFileBackedClass:
 * @max_size: the largest file the store reads, in bytes; 0 for a type
 *   that reads and writes its file by other means, and gets no store
 * @store_flags: how the store writes the file
 *
 * What a type whose state lives in one file (or in memory alone, with no
 * file) shares: the construct-only #StewardFileBacked:file and the
 * #StewardFileStore that reads and writes it.
 */
struct _StewardFileBackedClass
{
  GObjectClass          parent_class;

  gsize                 max_size;
  StewardFileStoreFlags store_flags;

  gpointer              padding[4];
};

GFile            *steward_file_backed_get_file  (StewardFileBacked *self);
StewardFileStore *steward_file_backed_get_store (StewardFileBacked *self);

void              steward_file_backed_save_async  (StewardFileBacked   *self,
                                                   JsonNode            *root,
                                                   GCancellable        *cancellable,
                                                   GAsyncReadyCallback  callback,
                                                   gpointer             user_data);
gboolean          steward_file_backed_save_finish (StewardFileBacked  *self,
                                                   GAsyncResult       *result,
                                                   GError            **error);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define STEWARD_FILE_STORE_ERROR (steward_file_store_error_quark ())

typedef enum {
  STEWARD_FILE_STORE_ERROR_TOO_LARGE,
  STEWARD_FILE_STORE_ERROR_NOT_JSON,
  STEWARD_FILE_STORE_ERROR_NOT_OBJECT,
} StewardFileStoreError;

/**
 * StewardFileStoreFlags:
 * @STEWARD_FILE_STORE_NONE: the file gets the usual mode
 * @STEWARD_FILE_STORE_PRIVATE: the file gets mode 0600 and a missing
 *   folder mode 0700, for files that hold what only the person may read
 * @STEWARD_FILE_STORE_FOLLOW_LINKS: a symbolic link is followed to the
 *   file it names, which is replaced, so that a linked file stays linked
 * @STEWARD_FILE_STORE_PRETTY: JSON saved with save_json() is indented and
 *   ends with a newline, for files people read
 */
typedef enum {
  STEWARD_FILE_STORE_NONE         = 0,
  STEWARD_FILE_STORE_PRIVATE      = 1 << 0,
  STEWARD_FILE_STORE_FOLLOW_LINKS = 1 << 1,
  STEWARD_FILE_STORE_PRETTY       = 1 << 2,
} StewardFileStoreFlags;

#define STEWARD_TYPE_FILE_STORE (steward_file_store_get_type ())

G_DECLARE_FINAL_TYPE (StewardFileStore, steward_file_store, STEWARD, FILE_STORE, GObject)

GQuark             steward_file_store_error_quark (void);

StewardFileStore  *steward_file_store_new         (GFile                  *file,
                                                   gsize                   max_size,
                                                   StewardFileStoreFlags   flags);
GFile             *steward_file_store_get_file    (StewardFileStore       *self);
gboolean           steward_file_store_is_busy     (StewardFileStore       *self);
guint              steward_file_store_get_n_writes (StewardFileStore      *self);

JsonObject        *steward_file_store_read_object (GFile                  *file,
                                                   gsize                   max_size,
                                                   GCancellable           *cancellable,
                                                   GError                **error);
JsonObject        *steward_file_store_read_object_with_depth (GFile        *file,
                                                             gsize         max_size,
                                                             guint         max_depth,
                                                             GCancellable *cancellable,
                                                             GError      **error);
JsonObject        *steward_file_store_load        (StewardFileStore       *self,
                                                   GCancellable           *cancellable,
                                                   GError                **error);
void               steward_file_store_load_async  (StewardFileStore       *self,
                                                   GCancellable           *cancellable,
                                                   GAsyncReadyCallback     callback,
                                                   gpointer                user_data);
JsonObject        *steward_file_store_load_finish (StewardFileStore       *self,
                                                   GAsyncResult           *result,
                                                   GError                **error);
GFile             *steward_file_store_move_aside  (GFile                  *file,
                                                   GCancellable           *cancellable,
                                                   GError                **error);

gboolean           steward_file_store_write_sync  (GFile                  *file,
                                                   const char             *data,
                                                   gsize                   length,
                                                   StewardFileStoreFlags   flags,
                                                   GCancellable           *cancellable,
                                                   GError                **error);

void               steward_file_store_save        (StewardFileStore       *self,
                                                   GBytes                 *contents);
void               steward_file_store_save_json   (StewardFileStore       *self,
                                                   JsonNode               *root);
void               steward_file_store_save_async  (StewardFileStore       *self,
                                                   GBytes                 *contents,
                                                   GCancellable           *cancellable,
                                                   GAsyncReadyCallback     callback,
                                                   gpointer                user_data);
gboolean           steward_file_store_save_finish (StewardFileStore       *self,
                                                   GAsyncResult           *result,
                                                   GError                **error);
void               steward_file_store_flush_async (StewardFileStore       *self,
                                                   GCancellable           *cancellable,
                                                   GAsyncReadyCallback     callback,
                                                   gpointer                user_data);
gboolean           steward_file_store_flush_finish (StewardFileStore      *self,
                                                    GAsyncResult          *result,
                                                    GError               **error);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-file-store"

#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "mcp-json.h"

#include "steward-file-store.h"

/*
 * StewardFileStore:
 *
 * One JSON file the host keeps: read whole with a cap on its size, and
 * written whole on a worker, atomically (a temporary file beside it, synced
 * and renamed over it), so that a crash leaves either the old or the new
 * file and the main loop never waits for the disk.
 *
 * Saves are counted. One write runs at a time; saves made while it runs
 * only keep their content, and when it ends one more write carries the
 * newest. A waiter (save_async(), flush_async()) is woken by the first
 * write that holds the save it waits for, with that write's result.
 */

#define MAX_LINK_DEPTH 8
/* How many numbered names a damaged file may take before giving up. */
#define MAX_DAMAGED_COPIES 100
#define READ_CHUNK     (64 * 1024)

struct _StewardFileStore
{
  GObject                parent_instance;

  GFile                 *file;
  gsize                  max_size;
  StewardFileStoreFlags  flags;

  /* The count of saves, the count the running write holds, and the count
   * the last finished write held. */
  guint64                saves;
  guint64                writing_count;
  guint64                written;
  GBytes                *pending_bytes;
  JsonNode              *pending_root;
  GList                 *waiters;       /* GTask, the count it waits for in its data */
  guint                  n_writes;
  guint                  writing : 1;
};

enum {
  SIGNAL_WRITE_FAILED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (StewardFileStore, steward_file_store, G_TYPE_OBJECT)

G_DEFINE_QUARK (steward-file-store-error-quark, steward_file_store_error)

static char *
dup_file_name (GFile *file)
{
  return g_file_get_parse_name (file);
}

/* Reading */

static GBytes *
read_capped (GFile         *file,
             gsize          max_size,
             GCancellable  *cancellable,
             GError       **error)
{
  g_autoptr(GFileInputStream) input = NULL;
  g_autoptr(GByteArray) buffer = g_byte_array_new ();
  g_autoptr(GFileInfo) info = NULL;

  input = g_file_read (file, cancellable, error);
  if (input == NULL)
    return NULL;

  /* The size is checked before reading, and again while reading, for a
   * file that grows meanwhile or reports no size. */
  info = g_file_input_stream_query_info (input, G_FILE_ATTRIBUTE_STANDARD_SIZE, cancellable,
                                         NULL);
  for (;;)
    {
      gsize before = buffer->len;
      gsize got = 0;

      if ((info != NULL && (guint64) g_file_info_get_size (info) > max_size) ||
          buffer->len > max_size)
        {
          g_autofree char *name = dup_file_name (file);
          g_autofree char *size = g_format_size (max_size);

          g_set_error (error, STEWARD_FILE_STORE_ERROR, STEWARD_FILE_STORE_ERROR_TOO_LARGE,
                       /* Translators: the first %s is a file, the second a size
                        * such as “16.8 MB”. */
                       _("%s is larger than %s, too large to be read"), name, size);
          return NULL;
        }
      g_clear_object (&info);

      g_byte_array_set_size (buffer, before + READ_CHUNK);
      if (!g_input_stream_read_all (G_INPUT_STREAM (input), buffer->data + before, READ_CHUNK,
                                    &got, cancellable, error))
        return NULL;
      g_byte_array_set_size (buffer, before + got);
      if (got < READ_CHUNK && buffer->len <= max_size)
        break;
    }

  return g_byte_array_free_to_bytes (g_steal_pointer (&buffer));
}

/**
 * steward_file_store_read_object_with_depth:
 * @file: the file
 * @max_size: the largest size that is read, in bytes
 * @max_depth: the deepest nesting that is read, for files that hold what
 *   peers sent wrapped in a few levels of our own
 *
 * Reads @file whole, blocking: for workers. A file larger than @max_size,
 * one that is not JSON and one whose top is not an object are refused with
 * an error that names the file and the cause. A missing file gives
 * %G_IO_ERROR_NOT_FOUND, which callers usually take as empty.
 *
 * Returns: (transfer full) (nullable): the object, or %NULL with @error set
 */
JsonObject *
steward_file_store_read_object_with_depth (GFile         *file,
                                           gsize          max_size,
                                           guint          max_depth,
                                           GCancellable  *cancellable,
                                           GError       **error)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *name = NULL;
  gconstpointer data;
  gsize length;

  g_return_val_if_fail (G_IS_FILE (file), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  bytes = read_capped (file, max_size, cancellable, error);
  if (bytes == NULL)
    return NULL;

  data = g_bytes_get_data (bytes, &length);
  root = mcp_json_parse_with_depth (data, length, max_depth, &local_error);
  if (root == NULL)
    {
      name = dup_file_name (file);
      g_set_error (error, STEWARD_FILE_STORE_ERROR, STEWARD_FILE_STORE_ERROR_NOT_JSON,
                   /* Translators: %s is a file, then the parser's reason. */
                   _("%s is not valid JSON: %s"), name, local_error->message);
      return NULL;
    }

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      name = dup_file_name (file);
      g_set_error (error, STEWARD_FILE_STORE_ERROR, STEWARD_FILE_STORE_ERROR_NOT_OBJECT,
                   _("%s does not hold a JSON object"), name);
      return NULL;
    }

  return json_object_ref (json_node_get_object (root));
}

/**
 * steward_file_store_read_object:
 * @file: the file
 * @max_size: the largest size that is read, in bytes
 *
 * Reads @file whole as steward_file_store_read_object_with_depth() does,
 * with the nesting JSON from peers may have.
 *
 * Returns: (transfer full) (nullable): the object, or %NULL with @error set
 */
JsonObject *
steward_file_store_read_object (GFile         *file,
                                gsize          max_size,
                                GCancellable  *cancellable,
                                GError       **error)
{
  return steward_file_store_read_object_with_depth (file, max_size, MCP_JSON_MAX_DEPTH,
                                                    cancellable, error);
}

typedef struct {
  GFile *file;
  gsize  max_size;
} Load;

static void
load_free (Load *load)
{
  g_clear_object (&load->file);
  g_free (load);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  Load *load = task_data;
  GError *error = NULL;
  JsonObject *object;

  object = steward_file_store_read_object (load->file, load->max_size, cancellable, &error);
  if (object == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, object, (GDestroyNotify) json_object_unref);
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  JsonObject *loaded;

  loaded = g_task_propagate_pointer (G_TASK (result), &error);
  if (loaded == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, loaded, (GDestroyNotify) json_object_unref);
}

/**
 * steward_file_store_move_aside:
 * @file: a damaged file
 *
 * Renames @file to FILE.damaged, or FILE.damaged-N when that is taken, so
 * that the next write does not replace what the person may want to mend;
 * blocking, for workers. A rename that never replaces, so that no copy is
 * lost and no half-moved file is seen.
 *
 * Returns: (transfer full) (nullable): the new name, or %NULL with @error
 *   set
 */
GFile *
steward_file_store_move_aside (GFile         *file,
                               GCancellable  *cancellable,
                               GError       **error)
{
  g_autofree char *basename = NULL;
  g_autoptr(GFile) parent = NULL;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  parent = g_file_get_parent (file);
  if (parent == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           _("the file has no folder"));
      return NULL;
    }

  basename = g_file_get_basename (file);
  for (guint attempt = 0; attempt < MAX_DAMAGED_COPIES; attempt++)
    {
      g_autofree char *name = NULL;
      g_autoptr(GFile) target = NULL;
      g_autoptr(GError) local_error = NULL;

      if (attempt == 0)
        name = g_strconcat (basename, ".damaged", NULL);
      else
        name = g_strdup_printf ("%s.damaged-%u", basename, attempt);

      target = g_file_get_child (parent, name);
      if (g_file_move (file, target,
                       G_FILE_COPY_NOFOLLOW_SYMLINKS | G_FILE_COPY_NO_FALLBACK_FOR_MOVE,
                       cancellable, NULL, NULL, &local_error))
        return g_steal_pointer (&target);

      if (!g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_EXISTS))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }
    }

  g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
               _("Too many damaged copies of %s are kept already"), basename);
  return NULL;
}

/* Writing */

/* The file a symbolic link names, link after link, so that replacing it
 * keeps the link. */
static GFile *
resolve_links (GFile        *file,
               GCancellable *cancellable)
{
  g_autoptr(GFile) target = g_object_ref (file);

  for (guint depth = 0; depth < MAX_LINK_DEPTH; depth++)
    {
      g_autoptr(GFileInfo) info = NULL;
      g_autoptr(GFile) dir = NULL;
      g_autoptr(GFile) next = NULL;
      const char *link_target;

      info = g_file_query_info (target, G_FILE_ATTRIBUTE_STANDARD_IS_SYMLINK ","
                                G_FILE_ATTRIBUTE_STANDARD_SYMLINK_TARGET,
                                G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, cancellable, NULL);
      if (info == NULL || !g_file_info_get_is_symlink (info))
        break;

      link_target = g_file_info_get_symlink_target (info);
      dir = g_file_get_parent (target);
      if (link_target == NULL || dir == NULL)
        break;

      next = g_file_resolve_relative_path (dir, link_target);
      g_set_object (&target, next);
    }

  return g_steal_pointer (&target);
}

static gboolean
make_folder (GFile                  *file,
             StewardFileStoreFlags   flags,
             GCancellable           *cancellable,
             GError                **error)
{
  g_autoptr(GFile) parent = g_file_get_parent (file);
  g_autofree char *parent_path = NULL;
  g_autoptr(GError) local_error = NULL;

  if (parent == NULL)
    return TRUE;

  parent_path = g_file_get_path (parent);
  if (parent_path != NULL)
    {
      int mode = (flags & STEWARD_FILE_STORE_PRIVATE) ? 0700 : 0755;

      if (g_mkdir_with_parents (parent_path, mode) != 0)
        {
          int saved_errno = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                       _("cannot make the folder %s: %s"), parent_path,
                       g_strerror (saved_errno));
          return FALSE;
        }
      return TRUE;
    }

  if (!g_file_make_directory_with_parents (parent, cancellable, &local_error) &&
      !g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_EXISTS))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  return TRUE;
}

/**
 * steward_file_store_write_sync:
 * @file: the file
 * @data: (array length=length): what it is to hold
 * @length: the length of @data
 * @flags: how the file is written
 *
 * Replaces @file atomically, blocking: for workers. A local file is
 * written beside itself, synced and renamed over the old one; the folder
 * is made when missing.
 *
 * Returns: whether the file now holds @data
 */
gboolean
steward_file_store_write_sync (GFile                  *file,
                               const char             *data,
                               gsize                   length,
                               StewardFileStoreFlags   flags,
                               GCancellable           *cancellable,
                               GError                **error)
{
  g_autoptr(GFile) target = NULL;
  g_autofree char *path = NULL;
  GFileCreateFlags create_flags = G_FILE_CREATE_REPLACE_DESTINATION;

  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (data != NULL || length == 0, FALSE);

  if (flags & STEWARD_FILE_STORE_FOLLOW_LINKS)
    target = resolve_links (file, cancellable);
  else
    target = g_object_ref (file);

  if (!make_folder (target, flags, cancellable, error))
    return FALSE;

  path = g_file_get_path (target);
  if (path != NULL)
    {
      GError *local_error = NULL;

      if (g_file_set_contents_full (path, data != NULL ? data : "", length,
                                    G_FILE_SET_CONTENTS_CONSISTENT,
                                    (flags & STEWARD_FILE_STORE_PRIVATE) ? 0600 : 0666,
                                    &local_error))
        return TRUE;

      /* One domain for every kind of file, so that callers test one. */
      if (local_error->domain == G_FILE_ERROR)
        {
          local_error->domain = G_IO_ERROR;
          local_error->code = g_io_error_from_file_error (local_error->code);
        }
      g_propagate_error (error, local_error);
      return FALSE;
    }

  if (flags & STEWARD_FILE_STORE_PRIVATE)
    create_flags |= G_FILE_CREATE_PRIVATE;
  return g_file_replace_contents (target, data != NULL ? data : "", length, NULL, FALSE,
                                  create_flags, NULL, cancellable, error);
}

typedef struct {
  GFile                 *file;
  StewardFileStoreFlags  flags;
  GBytes                *bytes;
  JsonNode              *root;
} Write;

static void
write_free (Write *write)
{
  g_clear_object (&write->file);
  g_clear_pointer (&write->bytes, g_bytes_unref);
  g_clear_pointer (&write->root, json_node_unref);
  g_free (write);
}

static void
write_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  Write *write = task_data;
  g_autofree char *generated = NULL;
  const char *data;
  gsize length = 0;
  GError *error = NULL;

  /* A tree is turned into text here, off the main loop; the caller gave
   * it away, so nothing changes it meanwhile. */
  if (write->root != NULL)
    {
      g_autoptr(JsonGenerator) generator = json_generator_new ();

      json_generator_set_pretty (generator, (write->flags & STEWARD_FILE_STORE_PRETTY) != 0);
      json_generator_set_root (generator, write->root);
      generated = json_generator_to_data (generator, &length);

      /* A file meant to be read ends its last line, like one typed. */
      if ((write->flags & STEWARD_FILE_STORE_PRETTY) != 0)
        {
          generated = g_realloc (generated, length + 2);
          generated[length++] = '\n';
          generated[length] = '\0';
        }
      data = generated;
    }
  else
    data = g_bytes_get_data (write->bytes, &length);

  if (!steward_file_store_write_sync (write->file, data, length, write->flags, NULL, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void
wake_waiters (StewardFileStore *self,
              const GError     *error)
{
  GList *waiters = self->waiters;

  self->waiters = NULL;
  for (GList *l = waiters; l != NULL; l = l->next)
    {
      GTask *task = l->data;
      guint64 target = *(guint64 *) g_task_get_task_data (task);

      if (target > self->written)
        {
          self->waiters = g_list_append (self->waiters, task);
          continue;
        }

      if (error != NULL)
        g_task_return_error (task, g_error_copy (error));
      else
        g_task_return_boolean (task, TRUE);
      g_object_unref (task);
    }
  g_list_free (waiters);
}

static void start_write (StewardFileStore *self);

static void
write_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(StewardFileStore) self = user_data;
  g_autoptr(GError) error = NULL;

  self->writing = FALSE;
  self->written = self->writing_count;
  self->n_writes++;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_autofree char *name = dup_file_name (self->file);

      g_debug ("%s could not be saved: %s", name, error->message);
      g_signal_emit (self, signals[SIGNAL_WRITE_FAILED], 0, error);
    }

  wake_waiters (self, error);

  if (self->written < self->saves)
    start_write (self);
}

static void
start_write (StewardFileStore *self)
{
  g_autoptr(GTask) task = NULL;
  Write *write;

  if (self->writing || self->written >= self->saves)
    return;

  self->writing = TRUE;
  self->writing_count = self->saves;

  write = g_new0 (Write, 1);
  write->file = g_object_ref (self->file);
  write->flags = self->flags;
  write->bytes = g_steal_pointer (&self->pending_bytes);
  write->root = g_steal_pointer (&self->pending_root);

  /* The worker's task has no source object, and its callback holds the
   * store: a save made just before quitting still reaches the disk. */
  task = g_task_new (NULL, NULL, write_cb, g_object_ref (self));
  g_task_set_source_tag (task, start_write);
  g_task_set_task_data (task, write, (GDestroyNotify) write_free);
  g_task_run_in_thread (task, write_thread);
}

static void
add_waiter (StewardFileStore    *self,
            gpointer             source_tag,
            GCancellable        *cancellable,
            GAsyncReadyCallback  callback,
            gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, g_memdup2 (&self->saves, sizeof self->saves), g_free);

  if (self->written >= self->saves)
    {
      g_task_return_boolean (task, TRUE);
      g_object_unref (task);
      return;
    }

  self->waiters = g_list_append (self->waiters, task);
}

/* GObject */

static void
steward_file_store_finalize (GObject *object)
{
  StewardFileStore *self = STEWARD_FILE_STORE (object);

  /* A waiter holds the store, so none is left here. */
  g_assert (self->waiters == NULL);

  g_clear_object (&self->file);
  g_clear_pointer (&self->pending_bytes, g_bytes_unref);
  g_clear_pointer (&self->pending_root, json_node_unref);

  G_OBJECT_CLASS (steward_file_store_parent_class)->finalize (object);
}

static void
steward_file_store_class_init (StewardFileStoreClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = steward_file_store_finalize;

  /**
   * StewardFileStore::write-failed:
   * @error: why the file could not be written
   *
   * A write failed; the file holds what it held before.
   */
  signals[SIGNAL_WRITE_FAILED] =
    g_signal_new ("write-failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_ERROR);
}

static void
steward_file_store_init (StewardFileStore *self)
{
}

/* Public API */

/**
 * steward_file_store_new:
 * @file: the file
 * @max_size: the largest size that is read, in bytes
 * @flags: how the file is written
 *
 * Returns: (transfer full): a new store
 */
StewardFileStore *
steward_file_store_new (GFile                  *file,
                        gsize                   max_size,
                        StewardFileStoreFlags   flags)
{
  StewardFileStore *self;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  self = g_object_new (STEWARD_TYPE_FILE_STORE, NULL);
  self->file = g_object_ref (file);
  self->max_size = max_size;
  self->flags = flags;
  return self;
}

/**
 * steward_file_store_get_file:
 *
 * Returns: (transfer none): the file
 */
GFile *
steward_file_store_get_file (StewardFileStore *self)
{
  g_return_val_if_fail (STEWARD_IS_FILE_STORE (self), NULL);

  return self->file;
}

/**
 * steward_file_store_is_busy:
 *
 * Returns: whether a write runs or a save waits for one: what is read from
 *   the file now may be older than what it is about to hold
 */
gboolean
steward_file_store_is_busy (StewardFileStore *self)
{
  g_return_val_if_fail (STEWARD_IS_FILE_STORE (self), FALSE);

  return self->writing || self->written < self->saves;
}

/**
 * steward_file_store_get_n_writes:
 *
 * Returns: how many writes have finished, failed ones included
 */
guint
steward_file_store_get_n_writes (StewardFileStore *self)
{
  g_return_val_if_fail (STEWARD_IS_FILE_STORE (self), 0);

  return self->n_writes;
}

/**
 * steward_file_store_load:
 *
 * Reads the file, blocking: for workers. See
 * steward_file_store_read_object().
 *
 * Returns: (transfer full) (nullable): the object, or %NULL with @error set
 */
JsonObject *
steward_file_store_load (StewardFileStore  *self,
                         GCancellable      *cancellable,
                         GError           **error)
{
  g_return_val_if_fail (STEWARD_IS_FILE_STORE (self), NULL);

  return steward_file_store_read_object (self->file, self->max_size, cancellable, error);
}

/**
 * steward_file_store_load_async:
 *
 * Reads the file on a worker. See steward_file_store_read_object().
 */
void
steward_file_store_load_async (StewardFileStore    *self,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GTask) worker = NULL;
  Load *load;

  g_return_if_fail (STEWARD_IS_FILE_STORE (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_file_store_load_async);

  /* The worker's task has no source object: the worker may drop it last,
   * and the store must never be released on another thread. */
  load = g_new0 (Load, 1);
  load->file = g_object_ref (self->file);
  load->max_size = self->max_size;
  worker = g_task_new (NULL, cancellable, load_cb, g_steal_pointer (&task));
  g_task_set_source_tag (worker, load_thread);
  g_task_set_task_data (worker, load, (GDestroyNotify) load_free);
  g_task_run_in_thread (worker, load_thread);
}

/**
 * steward_file_store_load_finish:
 *
 * Returns: (transfer full) (nullable): the object, or %NULL with @error set
 */
JsonObject *
steward_file_store_load_finish (StewardFileStore  *self,
                                GAsyncResult      *result,
                                GError           **error)
{
  g_return_val_if_fail (STEWARD_IS_FILE_STORE (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * steward_file_store_save:
 * @contents: what the file is to hold
 *
 * Writes @contents on a worker, now or, when a write runs, after it
 * (saves meanwhile are folded into one). A failure is reported by
 * #StewardFileStore::write-failed and to the waiters.
 */
void
steward_file_store_save (StewardFileStore *self,
                         GBytes           *contents)
{
  g_return_if_fail (STEWARD_IS_FILE_STORE (self));
  g_return_if_fail (contents != NULL);

  g_clear_pointer (&self->pending_root, json_node_unref);
  g_clear_pointer (&self->pending_bytes, g_bytes_unref);
  self->pending_bytes = g_bytes_ref (contents);
  self->saves++;
  start_write (self);
}

/**
 * steward_file_store_save_json:
 * @root: what the file is to hold
 *
 * Like steward_file_store_save(), with the text made on the worker. The
 * store keeps a reference to @root, which nothing may change afterwards:
 * pass a tree of its own, such as a fresh snapshot.
 */
void
steward_file_store_save_json (StewardFileStore *self,
                              JsonNode         *root)
{
  g_return_if_fail (STEWARD_IS_FILE_STORE (self));
  g_return_if_fail (root != NULL);

  g_clear_pointer (&self->pending_bytes, g_bytes_unref);
  g_clear_pointer (&self->pending_root, json_node_unref);
  self->pending_root = json_node_ref (root);
  self->saves++;
  start_write (self);
}

/**
 * steward_file_store_save_async:
 * @contents: what the file is to hold
 *
 * Like steward_file_store_save(), and finishes when a write that holds
 * @contents, or newer contents, is done, with its result.
 */
void
steward_file_store_save_async (StewardFileStore    *self,
                               GBytes              *contents,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_return_if_fail (STEWARD_IS_FILE_STORE (self));
  g_return_if_fail (contents != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  steward_file_store_save (self, contents);
  add_waiter (self, steward_file_store_save_async, cancellable, callback, user_data);
}

gboolean
steward_file_store_save_finish (StewardFileStore  *self,
                                GAsyncResult      *result,
                                GError           **error)
{
  g_return_val_if_fail (STEWARD_IS_FILE_STORE (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * steward_file_store_flush_async:
 *
 * Finishes when every save made before this call is written, with the
 * result of the write that holds the last of them; at once when there is
 * none.
 */
void
steward_file_store_flush_async (StewardFileStore    *self,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_return_if_fail (STEWARD_IS_FILE_STORE (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  add_waiter (self, steward_file_store_flush_async, cancellable, callback, user_data);
}

gboolean
steward_file_store_flush_finish (StewardFileStore  *self,
                                 GAsyncResult      *result,
                                 GError           **error)
{
  g_return_val_if_fail (STEWARD_IS_FILE_STORE (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

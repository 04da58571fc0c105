/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-log"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "mcp-json.h"
#include "steward-log-store.h"

#define DEFAULT_CAPACITY 100000
#define DEFAULT_BATCH_INTERVAL_MS 16
/* Entries of a few hundred bytes fill the ring long before this; entries
 * with big payloads (64 KiB each at most) are bounded by it instead. */
#define DEFAULT_MAX_BYTES (48 * 1024 * 1024)
/* What an entry costs beside its texts: the instance, the allocator's
 * headers and its slot in the ring (64 + 16 + 8, rounded up). */
#define ENTRY_OVERHEAD 96
/* What a record (see "Items") costs beside its texts: itself, the
 * GBytes it shares, the allocator's headers and its slot in the ring. */
#define RECORD_OVERHEAD 128
/* Export writes in chunks of about this size. */
#define EXPORT_CHUNK (64 * 1024)


struct _StewardLogStore
{
  GObject           parent_instance;

  /* The ring: n_items items (see "Items" below) from head on, oldest
   * first. It only wraps once it holds capacity items, so while it is
   * smaller head is 0 and it can grow by reallocation. */
  gpointer         *ring;
  guint             capacity;
  guint             allocated;
  guint             head;
  guint             n_items;

  /* Items appended but not yet announced. */
  GPtrArray        *pending;
  guint64           n_dropped;
  gboolean          flushing;

  /* The memory the entries take, roughly; see entry_footprint(). */
  guint64           max_bytes;
  guint64           ring_bytes;
  guint64           pending_bytes;

  GSource          *batch_source;
  guint             batch_interval_ms;
  gint64            last_flush_us;
};

enum {
  PROP_0,
  PROP_CAPACITY,
  PROP_BATCH_INTERVAL,
  PROP_N_DROPPED,
  PROP_N_ITEMS,
  PROP_MAX_BYTES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void steward_log_store_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StewardLogStore, steward_log_store, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      steward_log_store_list_model_init))

/* Items ---------------------------------------------------------------- */

/*
 * What the ring holds: an entry, or a protocol message not yet made into
 * one. Nearly every entry is a protocol message and nearly none is ever
 * read, so a message is kept as its parts, the text the client wrote or
 * received shared rather than copied, and becomes an entry (and is
 * redacted, steward_log_entry_new_message()) the first time the store is
 * asked for it. A record is told from an entry by its pointer's low bit.
 */
typedef struct {
  GBytes  *text;       /* the compact JSON, text_length bytes of it */
  char    *server;
  gint64   time_us;
  guint32  text_length;
  guint32  size;
  guint32  footprint;
  guint8   direction;
  char     summary[];
} Record;

static inline gboolean
item_is_record (gpointer item)
{
  return ((guintptr) item & 1) != 0;
}

static inline Record *
item_get_record (gpointer item)
{
  return (Record *) ((guintptr) item & ~(guintptr) 1);
}

static void
item_free (gpointer item)
{
  Record *record;

  if (item == NULL)
    return;

  if (!item_is_record (item))
    {
      g_object_unref (item);
      return;
    }

  record = item_get_record (item);
  g_bytes_unref (record->text);
  g_clear_pointer (&record->server, g_ref_string_release);
  g_free (record);
}

static gsize
entry_footprint (StewardLogEntry *entry)
{
  /* Not the detail's length: a protocol message's detail is indented
   * only once read, and an entry must count the same when it is dropped
   * as when it was added. */
  return ENTRY_OVERHEAD + steward_log_entry_get_kept_bytes (entry);
}

static gsize
item_footprint (gpointer item)
{
  if (item_is_record (item))
    return item_get_record (item)->footprint;

  return entry_footprint (item);
}

/* The entry a record stands for, made now. */
static StewardLogEntry *
record_make_entry (Record *record)
{
  return steward_log_entry_new_message (record->time_us, record->server, record->direction,
                                        record->summary,
                                        g_bytes_get_data (record->text, NULL),
                                        record->text_length, FALSE, record->size);
}

/* The ring ------------------------------------------------------------- */

static inline gpointer *
ring_slot (StewardLogStore *self,
           guint            position)
{
  return &self->ring[(self->head + position) % self->allocated];
}

static void
ring_clear_slot (gpointer *slot)
{
  item_free (*slot);
  *slot = NULL;
}

static void
ring_reserve (StewardLogStore *self,
              guint            needed)
{
  guint size;

  needed = MIN (needed, self->capacity);
  if (needed <= self->allocated)
    return;

  /* The ring has not wrapped yet: it only wraps once it is full. */
  g_assert (self->head == 0);

  size = MAX (self->allocated, 256);
  while (size < needed)
    size = size > self->capacity / 2 ? self->capacity : size * 2;
  size = MIN (size, self->capacity);

  self->ring = g_renew (gpointer, self->ring, size);
  memset (self->ring + self->allocated, 0, (size - self->allocated) * sizeof *self->ring);
  self->allocated = size;
}

static gboolean
batch_source_dispatch (GSource     *source,
                       GSourceFunc  callback,
                       gpointer     user_data)
{
  g_source_set_ready_time (source, -1);
  return callback (user_data);
}

static GSourceFuncs batch_source_funcs = {
  .dispatch = batch_source_dispatch,
};

static gboolean
batch_cb (gpointer user_data)
{
  steward_log_store_flush (STEWARD_LOG_STORE (user_data));
  return G_SOURCE_CONTINUE;
}

static void
schedule_batch (StewardLogStore *self)
{
  gint64 ready;

  if (self->batch_source == NULL || g_source_get_ready_time (self->batch_source) != -1)
    return;

  /* At most one batch per interval: right away after a quiet spell, else
   * one interval after the last one. */
  ready = self->last_flush_us + (gint64) self->batch_interval_ms * 1000;
  g_source_set_ready_time (self->batch_source, MAX (ready, g_get_monotonic_time ()));
}

/* Drops the first @n items of @array, whose footprints add up to the
 * return value. */
static guint64
drop_front (GPtrArray *array,
            guint      n)
{
  guint64 bytes = 0;

  for (guint i = 0; i < n; i++)
    {
      gpointer item = g_ptr_array_index (array, i);

      bytes += item_footprint (item);
      item_free (item);
    }
  g_ptr_array_remove_range (array, 0, n);

  return bytes;
}

static void
clear_pending (StewardLogStore *self)
{
  for (guint i = 0; i < self->pending->len; i++)
    item_free (g_ptr_array_index (self->pending, i));
  g_ptr_array_set_size (self->pending, 0);
  self->pending_bytes = 0;
}

static void
clear_ring (StewardLogStore *self)
{
  for (guint i = 0; i < self->n_items; i++)
    ring_clear_slot (ring_slot (self, i));
  self->n_items = 0;
  self->head = 0;
  self->ring_bytes = 0;
}

/* GListModel ------------------------------------------------------------ */

static GType
steward_log_store_get_item_type (GListModel *model)
{
  return STEWARD_TYPE_LOG_ENTRY;
}

static guint
steward_log_store_get_n_items (GListModel *model)
{
  return STEWARD_LOG_STORE (model)->n_items;
}

static gpointer
steward_log_store_get_item (GListModel *model,
                            guint       position)
{
  StewardLogStore *self = STEWARD_LOG_STORE (model);
  gpointer *slot;
  Record *record;
  StewardLogEntry *entry;

  if (position >= self->n_items)
    return NULL;

  slot = ring_slot (self, position);
  if (!item_is_record (*slot))
    return g_object_ref (*slot);

  /* The entry takes the record's place, and the bytes it keeps, which
   * can differ a little from the record's, are what is counted now. */
  record = item_get_record (*slot);
  entry = record_make_entry (record);
  self->ring_bytes = self->ring_bytes - record->footprint + entry_footprint (entry);
  item_free (*slot);
  *slot = entry;

  return g_object_ref (entry);
}

static void
steward_log_store_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = steward_log_store_get_item_type;
  iface->get_n_items = steward_log_store_get_n_items;
  iface->get_item = steward_log_store_get_item;
}

/* Export --------------------------------------------------------------- */

typedef struct
{
  GPtrArray *entries;
  GFile     *file;
  gboolean   as_json;
} ExportData;

static void
export_data_free (ExportData *data)
{
  g_clear_pointer (&data->entries, g_ptr_array_unref);
  g_clear_object (&data->file);
  g_free (data);
}

/*
 * Where the export goes: for a local file, a temporary file beside it that
 * replaces it by rename once complete, so that a failed or cancelled export
 * never leaves half a file in its place; else GIO's replace.
 */
typedef struct
{
  GFile         *file;
  char          *path;
  char          *tmp_path;
  int            fd;
  GOutputStream *stream;
} Sink;

static void
set_write_error (GError     **error,
                 GFile       *file,
                 int          saved_errno)
{
  g_autofree char *name = g_file_get_parse_name (file);

  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
               _("Could not write the log to “%s”: %s"), name, g_strerror (saved_errno));
}

static void
prefix_error (GError **error,
              GFile   *file)
{
  g_autofree char *name = g_file_get_parse_name (file);

  g_prefix_error (error, _("Could not write the log to “%s”: "), name);
}

static gboolean
sink_open (Sink          *sink,
           GFile         *file,
           GCancellable  *cancellable,
           GError       **error)
{
  sink->file = file;
  sink->fd = -1;
  sink->path = g_file_get_path (file);

  if (sink->path != NULL)
    {
      g_autofree char *dir = g_path_get_dirname (sink->path);
      g_autofree char *base = g_path_get_basename (sink->path);
      g_autofree char *template = g_strdup_printf (".%s.XXXXXX", base);

      sink->tmp_path = g_build_filename (dir, template, NULL);
      sink->fd = g_mkstemp_full (sink->tmp_path, O_WRONLY | O_CLOEXEC, 0600);
      if (sink->fd < 0)
        {
          set_write_error (error, file, errno);
          g_clear_pointer (&sink->tmp_path, g_free);
          return FALSE;
        }
      return TRUE;
    }

  sink->stream = G_OUTPUT_STREAM (g_file_replace (file, NULL, FALSE,
                                                  G_FILE_CREATE_REPLACE_DESTINATION,
                                                  cancellable, error));
  if (sink->stream == NULL)
    {
      prefix_error (error, file);
      return FALSE;
    }
  return TRUE;
}

static gboolean
sink_write (Sink          *sink,
            const char    *data,
            gsize          length,
            GCancellable  *cancellable,
            GError       **error)
{
  if (sink->stream != NULL)
    {
      if (!g_output_stream_write_all (sink->stream, data, length, NULL, cancellable, error))
        {
          prefix_error (error, sink->file);
          return FALSE;
        }
      return TRUE;
    }

  while (length > 0)
    {
      gssize written = write (sink->fd, data, length);

      if (written < 0)
        {
          if (errno == EINTR)
            continue;
          set_write_error (error, sink->file, errno);
          return FALSE;
        }
      data += written;
      length -= written;
    }

  return TRUE;
}

static gboolean
sink_commit (Sink          *sink,
             GCancellable  *cancellable,
             GError       **error)
{
  int fd;

  if (sink->stream != NULL)
    {
      if (!g_output_stream_close (sink->stream, cancellable, error))
        {
          prefix_error (error, sink->file);
          return FALSE;
        }
      return TRUE;
    }

  if (g_fsync (sink->fd) != 0)
    {
      set_write_error (error, sink->file, errno);
      return FALSE;
    }

  fd = sink->fd;
  sink->fd = -1;
  if (!g_close (fd, NULL))
    {
      set_write_error (error, sink->file, errno);
      return FALSE;
    }

  if (g_rename (sink->tmp_path, sink->path) != 0)
    {
      set_write_error (error, sink->file, errno);
      return FALSE;
    }

  g_clear_pointer (&sink->tmp_path, g_free);
  return TRUE;
}

/* Drops whatever was written unless it was committed. */
static void
sink_clear (Sink *sink)
{
  if (sink->fd >= 0)
    g_close (sink->fd, NULL);
  if (sink->tmp_path != NULL)
    g_unlink (sink->tmp_path);

  if (sink->stream != NULL && !g_output_stream_is_closed (sink->stream))
    {
      g_autoptr(GCancellable) abandon = g_cancellable_new ();

      /* A cancelled close leaves the original file in place. */
      g_cancellable_cancel (abandon);
      g_output_stream_close (sink->stream, abandon, NULL);
    }

  g_clear_object (&sink->stream);
  g_clear_pointer (&sink->path, g_free);
  g_clear_pointer (&sink->tmp_path, g_free);
}

/* Local time to the millisecond; cached per second, as entries come in
 * runs from the same second. */
typedef struct
{
  gint64  seconds;
  char   *text;
  char   *iso;
} TimeCache;

static void
format_time (TimeCache *cache,
             gint64     time_us,
             GString   *out,
             gboolean   iso)
{
  gint64 seconds = time_us / G_USEC_PER_SEC;
  gint64 remainder = time_us % G_USEC_PER_SEC;
  guint ms;

  if (remainder < 0)
    {
      seconds--;
      remainder += G_USEC_PER_SEC;
    }
  ms = remainder / 1000;

  if (cache->text == NULL || cache->seconds != seconds)
    {
      g_autoptr(GDateTime) date = g_date_time_new_from_unix_local (seconds);

      g_clear_pointer (&cache->text, g_free);
      g_clear_pointer (&cache->iso, g_free);
      cache->seconds = seconds;

      if (date == NULL)
        {
          cache->text = g_strdup ("0000-00-00 00:00:00");
          cache->iso = g_strdup ("");
        }
      else
        {
          cache->text = g_date_time_format (date, "%Y-%m-%d %H:%M:%S");
          cache->iso = g_date_time_format (date, "%:z");
        }
    }

  if (iso)
    {
      /* The ISO form is the text with a "T" and the UTC offset. */
      g_string_append_len (out, cache->text, 10);
      g_string_append_c (out, 'T');
      g_string_append (out, cache->text + 11);
      g_string_append_printf (out, ".%03u%s", ms, cache->iso);
    }
  else
    {
      g_string_append_printf (out, "%s.%03u", cache->text, ms);
    }
}

static void
append_text_line (GString         *out,
                  StewardLogEntry *entry,
                  TimeCache       *cache)
{
  const char *server = steward_log_entry_get_server (entry);
  const char *detail = steward_log_entry_get_detail (entry);
  const char *logger = steward_log_entry_get_logger (entry);

  /* In the window's words, with a protocol message's direction and size
   * as its row shows them. */
  format_time (cache, steward_log_entry_get_time (entry), out, FALSE);
  g_string_append_printf (out, "  %s  %s  %s",
                          server != NULL ? server : "-",
                          steward_log_source_get_label (steward_log_entry_get_source (entry)),
                          steward_log_level_get_label (steward_log_entry_get_level (entry)));
  if (steward_log_entry_get_source (entry) == STEWARD_LOG_SOURCE_TRACE)
    {
      StewardLogDirection direction = steward_log_entry_get_direction (entry);
      char size[STEWARD_LOG_SIZE_LEN];

      steward_log_format_size (steward_log_entry_get_size (entry), size);
      g_string_append_printf (out, "  %s %s", steward_log_direction_get_arrow (direction), size);
    }
  if (logger != NULL && *logger != '\0')
    g_string_append_printf (out, "  [%s] %s\n", logger, steward_log_entry_get_text (entry));
  else
    g_string_append_printf (out, "  %s\n", steward_log_entry_get_text (entry));

  if (detail != NULL)
    {
      const char *line = detail;

      while (*line != '\0')
        {
          const char *eol = strchr (line, '\n');
          gsize n = eol != NULL ? (gsize) (eol - line) : strlen (line);

          g_string_append (out, "    ");
          g_string_append_len (out, line, n);
          g_string_append_c (out, '\n');
          line += n + (eol != NULL ? 1 : 0);
        }
    }
}

/* A JSON string; the entries' texts are valid UTF-8 already, so only
 * quotes, backslashes and control characters need escaping. json-glib's
 * builder and generator for each entry took five times as long. */
static void
append_json_string (GString    *out,
                    const char *text)
{
  g_string_append_c (out, '"');
  mcp_json_append_escaped (out, text, TRUE);
  g_string_append_c (out, '"');
}

static void
append_json_member (GString    *out,
                    const char *name,
                    const char *value)
{
  g_string_append_printf (out, ",\"%s\":", name);
  if (value != NULL)
    append_json_string (out, value);
  else
    g_string_append (out, "null");
}

static void
append_json_line (GString         *out,
                  StewardLogEntry *entry,
                  TimeCache       *cache)
{
  const char *logger = steward_log_entry_get_logger (entry);
  const char *detail = steward_log_entry_get_detail (entry);

  g_string_append (out, "{\"time\":\"");
  format_time (cache, steward_log_entry_get_time (entry), out, TRUE);
  g_string_append_printf (out, "\",\"time_us\":%" G_GINT64_FORMAT,
                          steward_log_entry_get_time (entry));
  append_json_member (out, "server", steward_log_entry_get_server (entry));
  append_json_member (out, "source",
                      steward_log_source_to_string (steward_log_entry_get_source (entry)));
  append_json_member (out, "level",
                      steward_log_level_to_string (steward_log_entry_get_level (entry)));
  append_json_member (out, "direction",
                      steward_log_direction_to_string (steward_log_entry_get_direction (entry)));
  if (logger != NULL)
    append_json_member (out, "logger", logger);
  append_json_member (out, "text", steward_log_entry_get_text (entry));
  if (detail != NULL)
    append_json_member (out, "detail", detail);
  g_string_append_printf (out, ",\"size\":%" G_GSIZE_FORMAT "}\n",
                          steward_log_entry_get_size (entry));
}

static void
export_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  ExportData *data = task_data;
  g_autoptr(GString) buffer = g_string_sized_new (EXPORT_CHUNK + 4096);
  g_autoptr(GError) error = NULL;
  TimeCache cache = { 0, NULL, NULL };
  Sink sink = { NULL, NULL, NULL, -1, NULL };
  gboolean ok;

  ok = sink_open (&sink, data->file, cancellable, &error);

  for (guint i = 0; ok && i < data->entries->len; i++)
    {
      StewardLogEntry *entry = g_ptr_array_index (data->entries, i);

      if (data->as_json)
        append_json_line (buffer, entry, &cache);
      else
        append_text_line (buffer, entry, &cache);

      if (buffer->len >= EXPORT_CHUNK)
        {
          ok = !g_cancellable_set_error_if_cancelled (cancellable, &error) &&
               sink_write (&sink, buffer->str, buffer->len, cancellable, &error);
          g_string_truncate (buffer, 0);
        }
    }

  if (ok)
    ok = !g_cancellable_set_error_if_cancelled (cancellable, &error) &&
         sink_write (&sink, buffer->str, buffer->len, cancellable, &error) &&
         sink_commit (&sink, cancellable, &error);

  sink_clear (&sink);
  g_free (cache.text);
  g_free (cache.iso);

  if (ok)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, g_steal_pointer (&error));
}

/* GObject -------------------------------------------------------------- */

static void
steward_log_store_dispose (GObject *object)
{
  StewardLogStore *self = STEWARD_LOG_STORE (object);

  if (self->batch_source != NULL)
    {
      g_source_destroy (self->batch_source);
      g_clear_pointer (&self->batch_source, g_source_unref);
    }

  clear_pending (self);
  clear_ring (self);

  G_OBJECT_CLASS (steward_log_store_parent_class)->dispose (object);
}

static void
steward_log_store_finalize (GObject *object)
{
  StewardLogStore *self = STEWARD_LOG_STORE (object);

  g_clear_pointer (&self->pending, g_ptr_array_unref);
  g_clear_pointer (&self->ring, g_free);

  G_OBJECT_CLASS (steward_log_store_parent_class)->finalize (object);
}

static void
steward_log_store_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  StewardLogStore *self = STEWARD_LOG_STORE (object);

  switch (prop_id)
    {
    case PROP_CAPACITY:
      g_value_set_uint (value, self->capacity);
      break;

    case PROP_BATCH_INTERVAL:
      g_value_set_uint (value, self->batch_interval_ms);
      break;

    case PROP_N_DROPPED:
      g_value_set_uint64 (value, self->n_dropped);
      break;

    case PROP_N_ITEMS:
      g_value_set_uint (value, self->n_items);
      break;

    case PROP_MAX_BYTES:
      g_value_set_uint64 (value, self->max_bytes);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_log_store_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  StewardLogStore *self = STEWARD_LOG_STORE (object);

  switch (prop_id)
    {
    case PROP_CAPACITY:
      self->capacity = g_value_get_uint (value);
      if (self->capacity == 0)
        self->capacity = DEFAULT_CAPACITY;
      break;

    case PROP_BATCH_INTERVAL:
      steward_log_store_set_batch_interval (self, g_value_get_uint (value));
      break;

    case PROP_MAX_BYTES:
      steward_log_store_set_max_bytes (self, g_value_get_uint64 (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_log_store_class_init (StewardLogStoreClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = steward_log_store_dispose;
  object_class->finalize = steward_log_store_finalize;
  object_class->get_property = steward_log_store_get_property;
  object_class->set_property = steward_log_store_set_property;

  /**
   * StewardLogStore:capacity:
   *
   * The most entries kept; older ones fall out. 0 at construction means
   * the default, 100,000.
   */
  properties[PROP_CAPACITY] =
    g_param_spec_uint ("capacity", NULL, NULL,
                       0, G_MAXUINT, DEFAULT_CAPACITY,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * StewardLogStore:batch-interval:
   *
   * The least time between two announcements of appended entries, in
   * milliseconds.
   */
  properties[PROP_BATCH_INTERVAL] =
    g_param_spec_uint ("batch-interval", NULL, NULL,
                       0, 10000, DEFAULT_BATCH_INTERVAL_MS,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * StewardLogStore:n-dropped:
   *
   * How many entries fell out of the ring, or were never shown because
   * more arrived in one batch than the ring holds.
   */
  properties[PROP_N_DROPPED] =
    g_param_spec_uint64 ("n-dropped", NULL, NULL,
                         0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * StewardLogStore:max-bytes:
   *
   * About how much memory the entries may take; past it, the oldest fall
   * out as when the ring is full. Applies from the next batch.
   */
  properties[PROP_MAX_BYTES] =
    g_param_spec_uint64 ("max-bytes", NULL, NULL,
                         1024, G_MAXUINT64, DEFAULT_MAX_BYTES,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  properties[PROP_N_ITEMS] =
    g_param_spec_uint ("n-items", NULL, NULL,
                       0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
steward_log_store_init (StewardLogStore *self)
{
  g_autoptr(GMainContext) context = g_main_context_ref_thread_default ();

  self->capacity = DEFAULT_CAPACITY;
  self->batch_interval_ms = DEFAULT_BATCH_INTERVAL_MS;
  self->max_bytes = DEFAULT_MAX_BYTES;
  self->pending = g_ptr_array_new ();

  self->batch_source = g_source_new (&batch_source_funcs, sizeof (GSource));
  g_source_set_static_name (self->batch_source, "[steward] log batch");
  g_source_set_callback (self->batch_source, batch_cb, self, NULL);
  g_source_attach (self->batch_source, context);
}

/* Public API ----------------------------------------------------------- */

/**
 * steward_log_store_new:
 * @capacity: the most entries kept, or 0 for 100,000
 *
 * The store announces appends from the thread-default main context of
 * the thread that creates it, and is used from that thread only.
 */
StewardLogStore *
steward_log_store_new (guint capacity)
{
  return g_object_new (STEWARD_TYPE_LOG_STORE, "capacity", capacity, NULL);
}

guint
steward_log_store_get_capacity (StewardLogStore *self)
{
  g_return_val_if_fail (STEWARD_IS_LOG_STORE (self), 0);

  return self->capacity;
}

guint
steward_log_store_get_batch_interval (StewardLogStore *self)
{
  g_return_val_if_fail (STEWARD_IS_LOG_STORE (self), 0);

  return self->batch_interval_ms;
}

void
steward_log_store_set_batch_interval (StewardLogStore *self,
                                      guint            interval_ms)
{
  g_return_if_fail (STEWARD_IS_LOG_STORE (self));

  interval_ms = MIN (interval_ms, 10000);
  if (self->batch_interval_ms == interval_ms)
    return;

  self->batch_interval_ms = interval_ms;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BATCH_INTERVAL]);
}

guint64
steward_log_store_get_max_bytes (StewardLogStore *self)
{
  g_return_val_if_fail (STEWARD_IS_LOG_STORE (self), 0);

  return self->max_bytes;
}

void
steward_log_store_set_max_bytes (StewardLogStore *self,
                                 guint64          max_bytes)
{
  g_return_if_fail (STEWARD_IS_LOG_STORE (self));

  max_bytes = MAX (max_bytes, 1024);
  if (self->max_bytes == max_bytes)
    return;

  self->max_bytes = max_bytes;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_BYTES]);
}

/* Takes @item, an entry or a record, into the pending batch. */
static void
append_item (StewardLogStore *self,
             gpointer         item)
{
  guint excess = 0;

  g_ptr_array_add (self->pending, item);
  self->pending_bytes += item_footprint (item);

  /* Without a main loop running, pending entries must not pile up
   * without bound: past twice the capacity, or twice the bytes, the
   * oldest could never be shown anyway. */
  if (self->pending->len >= 2 * (guint64) self->capacity)
    excess = self->pending->len - self->capacity;

  if (self->pending_bytes >= 2 * self->max_bytes)
    {
      guint64 bytes = self->pending_bytes;

      while (excess + 1 < self->pending->len && bytes > self->max_bytes)
        bytes -= item_footprint (g_ptr_array_index (self->pending, excess++));
    }

  if (excess > 0)
    {
      self->pending_bytes -= drop_front (self->pending, excess);
      self->n_dropped += excess;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_DROPPED]);
    }

  schedule_batch (self);
}

void
steward_log_store_append (StewardLogStore *self,
                          StewardLogEntry *entry)
{
  g_return_if_fail (STEWARD_IS_LOG_STORE (self));
  g_return_if_fail (STEWARD_IS_LOG_ENTRY (entry));

  append_item (self, g_object_ref (entry));
}

/**
 * steward_log_store_append_message:
 * @server: (nullable): the server's name
 * @direction: which way the message went
 * @summary: its one-line summary
 * @text: the message as compact JSON, as Steward writes it; its first
 *   @text_length bytes are the text, which is kept, not copied
 * @cut: whether the text stops short of the whole message
 * @size: the size of the whole message in bytes
 *
 * Appends a protocol message as steward_log_entry_new_message() would
 * make it, but makes the entry only when it is first read: most never
 * are. A cut or long text is made into an entry at once.
 */
void
steward_log_store_append_message (StewardLogStore     *self,
                                  gint64               time_us,
                                  const char          *server,
                                  StewardLogDirection  direction,
                                  const char          *summary,
                                  GBytes              *text,
                                  gsize                text_length,
                                  gboolean             cut,
                                  gsize                size)
{
  gsize summary_length;
  Record *record;

  g_return_if_fail (STEWARD_IS_LOG_STORE (self));
  g_return_if_fail (text != NULL && text_length <= g_bytes_get_size (text));

  if (summary == NULL)
    summary = "";
  summary_length = strlen (summary);

  if (cut || text_length > STEWARD_LOG_ENTRY_MAX_DETAIL ||
      summary_length > STEWARD_LOG_ENTRY_MAX_TEXT_CHARS * 4)
    {
      append_item (self, steward_log_entry_new_message (time_us, server, direction, summary,
                                                        g_bytes_get_data (text, NULL),
                                                        text_length, cut, size));
      return;
    }

  record = g_malloc (sizeof (Record) + summary_length + 1);
  record->text = g_bytes_ref (text);
  record->server = server != NULL ? steward_log_entry_intern_server (server) : NULL;
  record->time_us = time_us;
  record->text_length = text_length;
  record->size = MIN (size, G_MAXUINT32);
  /* What the entry will keep, or near it: the summary, the text, and a
   * NUL after each; but all of the text it shares, and the record's own
   * blocks. */
  record->footprint = RECORD_OVERHEAD + summary_length + 1 + g_bytes_get_size (text);
  record->direction = direction;
  memcpy (record->summary, summary, summary_length + 1);

  append_item (self, (gpointer) ((guintptr) record | 1));
}

void
steward_log_store_add_host_event (StewardLogStore *self,
                                  const char      *server,
                                  StewardLogLevel  level,
                                  const char      *format,
                                  ...)
{
  g_autoptr(StewardLogEntry) entry = NULL;
  g_autofree char *message = NULL;
  const char *detail = NULL;
  va_list args;
  gsize length;

  g_return_if_fail (STEWARD_IS_LOG_STORE (self));
  g_return_if_fail (format != NULL);

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  /* The whole message stays readable when the one-line text cannot hold
   * it, as with the last lines of a crashed server's stderr. */
  length = strlen (message);
  if (strchr (message, '\n') != NULL ||
      g_utf8_strlen (message, -1) > STEWARD_LOG_ENTRY_MAX_TEXT_CHARS)
    detail = message;

  entry = steward_log_entry_new (g_get_real_time (), server,
                                 STEWARD_LOG_SOURCE_HOST, level, STEWARD_LOG_DIRECTION_NONE,
                                 NULL, message, detail, length);
  steward_log_store_append (self, entry);
}

void
steward_log_store_flush (StewardLogStore *self)
{
  g_autoptr(GPtrArray) batch = NULL;
  guint64 dropped_before;
  guint64 batch_bytes;
  guint64 bytes;
  guint excess;
  guint removed = 0;
  guint position;
  guint added;

  g_return_if_fail (STEWARD_IS_LOG_STORE (self));

  if (self->batch_source != NULL)
    g_source_set_ready_time (self->batch_source, -1);

  /* A handler of items-changed that appends gets its entries in the next
   * batch, after ours. */
  if (self->pending->len == 0 || self->flushing)
    return;

  self->flushing = TRUE;
  self->last_flush_us = g_get_monotonic_time ();
  dropped_before = self->n_dropped;

  batch = g_steal_pointer (&self->pending);
  batch_bytes = self->pending_bytes;
  self->pending = g_ptr_array_new ();
  self->pending_bytes = 0;

  /* More than the ring holds, in number or in bytes: the oldest of the
   * batch are never shown. */
  excess = batch->len > self->capacity ? batch->len - self->capacity : 0;
  bytes = batch_bytes;
  for (guint i = 0; i < excess; i++)
    bytes -= item_footprint (g_ptr_array_index (batch, i));
  while (excess + 1 < batch->len && bytes > self->max_bytes)
    bytes -= item_footprint (g_ptr_array_index (batch, excess++));
  if (excess > 0)
    {
      batch_bytes -= drop_front (batch, excess);
      self->n_dropped += excess;
    }

  added = batch->len;
  ring_reserve (self, self->n_items + added);

  /* The oldest entries that leave to make room, by number, then by
   * bytes. */
  removed = self->n_items + added > self->capacity ? self->n_items + added - self->capacity : 0;
  bytes = self->ring_bytes;
  for (guint i = 0; i < removed; i++)
    bytes -= item_footprint (*ring_slot (self, i));
  while (removed < self->n_items && bytes + batch_bytes > self->max_bytes)
    bytes -= item_footprint (*ring_slot (self, removed++));

  /* They leave from the front first, announced as their own change, so
   * that observers see a removal at 0 and an addition at the end rather
   * than a replacement of everything. */
  if (removed > 0)
    {
      for (guint i = 0; i < removed; i++)
        ring_clear_slot (ring_slot (self, i));
      self->head = (self->head + removed) % self->allocated;
      self->n_items -= removed;
      self->n_dropped += removed;
      self->ring_bytes = bytes;

      g_list_model_items_changed (G_LIST_MODEL (self), 0, removed, 0);
    }
  self->ring_bytes += batch_bytes;

  position = self->n_items;
  for (guint i = 0; i < added; i++)
    {
      *ring_slot (self, self->n_items) = g_ptr_array_index (batch, i);
      self->n_items++;
    }
  g_ptr_array_set_size (batch, 0);

  g_list_model_items_changed (G_LIST_MODEL (self), position, 0, added);

  if (removed != added)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
  if (dropped_before != self->n_dropped)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_DROPPED]);

  self->flushing = FALSE;

  if (self->pending->len > 0)
    schedule_batch (self);
}

void
steward_log_store_clear (StewardLogStore *self)
{
  guint removed;

  g_return_if_fail (STEWARD_IS_LOG_STORE (self));

  clear_pending (self);
  if (self->batch_source != NULL)
    g_source_set_ready_time (self->batch_source, -1);

  removed = self->n_items;
  clear_ring (self);

  if (removed > 0)
    {
      g_list_model_items_changed (G_LIST_MODEL (self), 0, removed, 0);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
    }
}

guint64
steward_log_store_get_n_dropped (StewardLogStore *self)
{
  g_return_val_if_fail (STEWARD_IS_LOG_STORE (self), 0);

  return self->n_dropped;
}

/**
 * steward_log_store_export_async:
 * @model: a #GListModel of #StewardLogEntry: the store or a view of it
 * @file: the file to write; replaced only once the export is complete
 * @as_json: JSON lines rather than text
 *
 * The entries are taken on the calling thread when this is called (a
 * store's pending appends included), then written on a worker.
 */
void
steward_log_store_export_async (GListModel          *model,
                                GFile               *file,
                                gboolean             as_json,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  ExportData *data;
  guint n_items;

  g_return_if_fail (G_IS_LIST_MODEL (model));
  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  if (STEWARD_IS_LOG_STORE (model))
    steward_log_store_flush (STEWARD_LOG_STORE (model));

  /* Entries are immutable, so the worker may read them; only the list of
   * them must be taken here, as the model changes under the main loop. */
  n_items = g_list_model_get_n_items (model);
  data = g_new0 (ExportData, 1);
  data->entries = g_ptr_array_new_full (n_items, g_object_unref);
  data->file = g_object_ref (file);
  data->as_json = as_json;

  for (guint i = 0; i < n_items; i++)
    {
      gpointer item = g_list_model_get_item (model, i);

      if (STEWARD_IS_LOG_ENTRY (item))
        g_ptr_array_add (data->entries, item);
      else
        g_clear_object (&item);
    }

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_log_store_export_async);
  g_task_set_task_data (task, data, (GDestroyNotify) export_data_free);
  g_task_run_in_thread (task, export_thread);
}

gboolean
steward_log_store_export_finish (GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        steward_log_store_export_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

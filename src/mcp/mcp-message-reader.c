/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-message-reader"

#include "config.h"

#include "mcp-error.h"
#include "mcp-jsonrpc.h"
#include "mcp-message-reader.h"

/* How long one dispatch may deliver queued messages before it lets the
 * main loop run other sources. */
#define DELIVERY_SLICE_US 8000
#define EXCERPT_CHARS     160

/* What a worker needs to tell the reader, if it still exists, that a
 * text is parsed: a weak reference, so that a worker never keeps the reader
 * alive and the reader is only ever finalized on its own thread. */
typedef struct {
  gatomicrefcount  ref_count;
  GWeakRef         reader;
  GMainContext    *context;
} Link;

/**
 * McpMessageReader:
 *
 * Turns complete JSON texts (stdio lines, SSE data, HTTP bodies) into
 * messages, in the order the texts arrived, without stalling the main loop:
 * a small text with nothing queued before it is parsed at once; a large one
 * is checked and parsed on a worker thread, and everything after it waits in
 * the queue behind it.
 *
 * Signals: "message" (McpMessage), "invalid" (GError, excerpt) for each text
 * dropped, "misbehaving" (GError) once, when more than
 * %MCP_MESSAGE_READER_INVALID_LIMIT texts were dropped within
 * %MCP_MESSAGE_READER_INVALID_WINDOW_US.
 */
struct _McpMessageReader
{
  GObject       parent_instance;

  GQueue        queue;
  Link         *link;
  GCancellable *cancellable;
  guint         deliver_source;
  gboolean      allow_batches;
  gboolean      misbehaving;
  guint         n_invalid;
  gint64        invalid_times[MCP_MESSAGE_READER_INVALID_LIMIT + 1];
  guint         invalid_head;
};

typedef struct {
  gatomicrefcount  ref_count;   /* the queue's, and a worker's while it parses */
  Link      *link;
  GBytes    *text;
  gboolean   allow_batches;
  gint       ready;   /* atomic: set by the worker after the rest */
  GPtrArray *messages;
  GError    *error;
  guint      n_invalid;
} Entry;

enum {
  SIGNAL_MESSAGE,
  SIGNAL_INVALID,
  SIGNAL_MISBEHAVING,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (McpMessageReader, mcp_message_reader, G_TYPE_OBJECT)

static Link *
link_ref (Link *link)
{
  g_atomic_ref_count_inc (&link->ref_count);
  return link;
}

static void
link_unref (Link *link)
{
  if (!g_atomic_ref_count_dec (&link->ref_count))
    return;

  g_weak_ref_clear (&link->reader);
  g_main_context_unref (link->context);
  g_free (link);
}

static void
entry_free (Entry *entry)
{
  if (!g_atomic_ref_count_dec (&entry->ref_count))
    return;

  g_clear_pointer (&entry->link, link_unref);
  g_clear_pointer (&entry->text, g_bytes_unref);
  g_clear_pointer (&entry->messages, g_ptr_array_unref);
  g_clear_error (&entry->error);
  g_free (entry);
}

static void
entry_parse (Entry *entry)
{
  gsize length;
  const char *data = g_bytes_get_data (entry->text, &length);

  entry->messages = mcp_jsonrpc_decode (data, length, entry->allow_batches,
                                        &entry->n_invalid, &entry->error);
  g_atomic_int_set (&entry->ready, TRUE);
}

static char *
make_excerpt (const char *data,
              gsize       length)
{
  g_autofree char *valid = g_utf8_make_valid (data, MIN (length, EXCERPT_CHARS * 4));
  g_autofree char *cut = g_utf8_substring (valid, 0, MIN (g_utf8_strlen (valid, -1),
                                                          EXCERPT_CHARS));
  gboolean truncated = g_utf8_strlen (valid, -1) > EXCERPT_CHARS || length > EXCERPT_CHARS * 4;

  /* Control characters would garble a log line or a terminal. */
  for (char *p = cut; *p != '\0'; p++)
    if ((guchar) *p < 0x20 || *p == 0x7f)
      *p = ' ';

  return truncated ? g_strconcat (cut, "…", NULL) : g_steal_pointer (&cut);
}

static void
note_invalid (McpMessageReader *self,
              const GError     *error,
              const char       *data,
              gsize             length,
              guint             count)
{
  gint64 now = g_get_monotonic_time ();
  g_autofree char *excerpt = make_excerpt (data, length);

  for (guint i = 0; i < count; i++)
    {
      guint oldest;

      self->n_invalid++;
      self->invalid_times[self->invalid_head] = now;
      self->invalid_head = (self->invalid_head + 1) % G_N_ELEMENTS (self->invalid_times);

      /* The ring holds the last LIMIT + 1 drops; if the oldest of them is
       * inside the window, LIMIT + 1 drops happened within it. */
      oldest = self->invalid_head;
      if (!self->misbehaving &&
          self->n_invalid > MCP_MESSAGE_READER_INVALID_LIMIT &&
          now - self->invalid_times[oldest] <= MCP_MESSAGE_READER_INVALID_WINDOW_US)
        {
          g_autoptr(GError) reason = NULL;

          self->misbehaving = TRUE;
          reason = g_error_new (MCP_ERROR, MCP_ERROR_MISBEHAVING,
                                "the server sent more than %u invalid messages within %u s",
                                MCP_MESSAGE_READER_INVALID_LIMIT,
                                (guint) (MCP_MESSAGE_READER_INVALID_WINDOW_US / G_USEC_PER_SEC));
          g_signal_emit (self, signals[SIGNAL_INVALID], 0, error, excerpt);
          g_signal_emit (self, signals[SIGNAL_MISBEHAVING], 0, reason);
          return;
        }
    }

  g_signal_emit (self, signals[SIGNAL_INVALID], 0, error, excerpt);
}

/* Delivers what one text produced. The object may be disposed by a
 * handler, so the caller holds a reference. */
static void
deliver (McpMessageReader *self,
         const char       *data,
         gsize             length,
         GPtrArray        *messages,
         const GError     *error,
         guint             n_invalid)
{
  if (error != NULL)
    {
      note_invalid (self, error, data, length, 1);
      return;
    }

  if (n_invalid > 0)
    {
      g_autoptr(GError) batch_error = g_error_new_literal (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                                           "a batch element is not a valid "
                                                           "JSON-RPC message");
      note_invalid (self, batch_error, data, length, n_invalid);
    }

  for (guint i = 0; i < messages->len; i++)
    {
      if (g_cancellable_is_cancelled (self->cancellable))
        return;
      g_signal_emit (self, signals[SIGNAL_MESSAGE], 0, g_ptr_array_index (messages, i));
    }
}

static void
deliver_entry (McpMessageReader *self,
               Entry            *entry)
{
  gsize length;
  const char *data = g_bytes_get_data (entry->text, &length);

  deliver (self, data, length, entry->messages, entry->error, entry->n_invalid);
}

static gboolean deliver_ready_cb (gpointer user_data);

static void
schedule_delivery (McpMessageReader *self)
{
  if (self->deliver_source == 0)
    self->deliver_source = g_idle_add_full (G_PRIORITY_DEFAULT, deliver_ready_cb, self, NULL);
}

static gboolean
deliver_ready_cb (gpointer user_data)
{
  g_autoptr(McpMessageReader) self = g_object_ref (MCP_MESSAGE_READER (user_data));
  gint64 deadline = g_get_monotonic_time () + DELIVERY_SLICE_US;

  self->deliver_source = 0;

  while (!g_queue_is_empty (&self->queue) && !g_cancellable_is_cancelled (self->cancellable))
    {
      Entry *entry = g_queue_peek_head (&self->queue);

      if (!g_atomic_int_get (&entry->ready))
        break;

      g_queue_pop_head (&self->queue);
      deliver_entry (self, entry);
      entry_free (entry);

      if (g_get_monotonic_time () >= deadline)
        {
          Entry *next = g_queue_peek_head (&self->queue);

          if (next != NULL && g_atomic_int_get (&next->ready))
            schedule_delivery (self);
          break;
        }
    }

  return G_SOURCE_REMOVE;
}

static gboolean
parsed_cb (gpointer user_data)
{
  Link *link = user_data;
  g_autoptr(McpMessageReader) self = g_weak_ref_get (&link->reader);

  if (self != NULL && !g_cancellable_is_cancelled (self->cancellable))
    schedule_delivery (self);

  return G_SOURCE_REMOVE;
}

/* On a worker: parse, then wake the reader's thread. */
static void
parse_in_pool (gpointer data,
               gpointer user_data)
{
  Entry *entry = data;
  g_autoptr(GSource) source = g_idle_source_new ();

  entry_parse (entry);

  g_source_set_callback (source, parsed_cb, link_ref (entry->link), (GDestroyNotify) link_unref);
  g_source_set_static_name (source, "[mcp] message parsed");
  g_source_attach (source, entry->link->context);
  entry_free (entry);
}

static GThreadPool *
get_pool (void)
{
  static GThreadPool *pool;

  if (g_once_init_enter (&pool))
    g_once_init_leave (&pool, g_thread_pool_new (parse_in_pool, NULL, 2, FALSE, NULL));

  return pool;
}

static void
mcp_message_reader_dispose (GObject *object)
{
  McpMessageReader *self = MCP_MESSAGE_READER (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->deliver_source, g_source_remove);

  G_OBJECT_CLASS (mcp_message_reader_parent_class)->dispose (object);
}

static void
mcp_message_reader_finalize (GObject *object)
{
  McpMessageReader *self = MCP_MESSAGE_READER (object);

  g_queue_clear_full (&self->queue, (GDestroyNotify) entry_free);
  g_clear_pointer (&self->link, link_unref);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (mcp_message_reader_parent_class)->finalize (object);
}

static void
mcp_message_reader_class_init (McpMessageReaderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = mcp_message_reader_dispose;
  object_class->finalize = mcp_message_reader_finalize;

  signals[SIGNAL_MESSAGE] =
    g_signal_new ("message", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                  MCP_TYPE_MESSAGE | G_SIGNAL_TYPE_STATIC_SCOPE);
  signals[SIGNAL_INVALID] =
    g_signal_new ("invalid", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2,
                  G_TYPE_ERROR | G_SIGNAL_TYPE_STATIC_SCOPE,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);
  signals[SIGNAL_MISBEHAVING] =
    g_signal_new ("misbehaving", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                  G_TYPE_ERROR | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
mcp_message_reader_init (McpMessageReader *self)
{
  g_queue_init (&self->queue);
  self->cancellable = g_cancellable_new ();
  self->link = g_new0 (Link, 1);
  g_atomic_ref_count_init (&self->link->ref_count);
  g_weak_ref_init (&self->link->reader, self);
  self->link->context = g_main_context_ref_thread_default ();
}

McpMessageReader *
mcp_message_reader_new (void)
{
  return g_object_new (MCP_TYPE_MESSAGE_READER, NULL);
}

void
mcp_message_reader_set_allow_batches (McpMessageReader *self,
                                      gboolean          allow_batches)
{
  g_return_if_fail (MCP_IS_MESSAGE_READER (self));

  self->allow_batches = !!allow_batches;
}

void
mcp_message_reader_push_bytes (McpMessageReader *self,
                               GBytes           *text)
{
  Entry *entry;

  g_return_if_fail (MCP_IS_MESSAGE_READER (self));
  g_return_if_fail (text != NULL);

  if (g_cancellable_is_cancelled (self->cancellable))
    return;

  if (g_bytes_get_size (text) <= MCP_MESSAGE_READER_INLINE_LIMIT && g_queue_is_empty (&self->queue))
    {
      gsize length;
      const char *data = g_bytes_get_data (text, &length);

      mcp_message_reader_push (self, data, length);
      return;
    }

  entry = g_new0 (Entry, 1);
  g_atomic_ref_count_init (&entry->ref_count);
  entry->link = link_ref (self->link);
  entry->text = g_bytes_ref (text);
  entry->allow_batches = self->allow_batches;
  g_queue_push_tail (&self->queue, entry);

  if (g_bytes_get_size (text) <= MCP_MESSAGE_READER_INLINE_LIMIT)
    {
      entry_parse (entry);
      schedule_delivery (self);
    }
  else
    {
      /* The worker holds its own reference: the queue may be cleared while
       * it parses. */
      g_atomic_ref_count_inc (&entry->ref_count);
      g_thread_pool_push (get_pool (), entry, NULL);
    }
}

void
mcp_message_reader_push (McpMessageReader *self,
                         const char       *text,
                         gsize             length)
{
  g_autoptr(GBytes) bytes = NULL;

  g_return_if_fail (MCP_IS_MESSAGE_READER (self));

  if (g_cancellable_is_cancelled (self->cancellable))
    return;

  /* The common case, a small message with nothing waiting before it, is
   * parsed and delivered at once, straight from the caller's buffer. */
  if (length <= MCP_MESSAGE_READER_INLINE_LIMIT && g_queue_is_empty (&self->queue))
    {
      g_autoptr(McpMessageReader) hold = g_object_ref (self);
      g_autoptr(GPtrArray) messages = NULL;
      g_autoptr(GError) error = NULL;
      guint n_invalid = 0;

      messages = mcp_jsonrpc_decode (text, length, self->allow_batches, &n_invalid, &error);
      deliver (self, text, length, messages, error, n_invalid);
      return;
    }

  bytes = g_bytes_new (text, length);
  mcp_message_reader_push_bytes (self, bytes);
}

guint
mcp_message_reader_get_n_invalid (McpMessageReader *self)
{
  g_return_val_if_fail (MCP_IS_MESSAGE_READER (self), 0);

  return self->n_invalid;
}

guint
mcp_message_reader_get_n_pending (McpMessageReader *self)
{
  g_return_val_if_fail (MCP_IS_MESSAGE_READER (self), 0);

  return self->queue.length;
}

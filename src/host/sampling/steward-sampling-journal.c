/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-sampling-broker"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mcp-json.h"

#include "steward-redactor.h"

#include "steward-sampling-file-queue.h"
#include "steward-sampling-journal.h"
#include "steward-sampling-json.h"

/* A record is a few hundred bytes; a longer line is damage, not a record. */
#define JOURNAL_MAX_LINE (64 * 1024)

typedef struct {
  char  *day;          /* the local day "used" counts for, as YYYY-MM-DD */
  guint  used;
} Budget;

struct _StewardSamplingJournal
{
  StewardFileBacked         parent_instance;

  GFile                    *file;      /* the journal, or NULL; the base's */
  GHashTable               *budgets;   /* server → Budget */

  StewardSamplingClock      clock;
  gpointer                  clock_data;

  StewardSamplingFileQueue *queue;
};

/* The journal is appended to line by line through the queue: the base
 * holds the file and makes no store for it. */
G_DEFINE_FINAL_TYPE (StewardSamplingJournal, steward_sampling_journal, STEWARD_TYPE_FILE_BACKED)

static void
budget_free (Budget *budget)
{
  g_free (budget->day);
  g_free (budget);
}

static char *
format_day (gint64 usec)
{
  g_autoptr(GDateTime) datetime = g_date_time_new_from_unix_local (usec / G_USEC_PER_SEC);

  return g_date_time_format (datetime, "%Y-%m-%d");
}

typedef void (*RecordFunc) (JsonObject *record,
                            gpointer    user_data);

/* Calls @func for each record of the journal, oldest first. A line that is
 * not a JSON object is damage, skipped and counted; a missing journal has
 * no records. */
static gboolean
foreach_record (GFile         *file,
                GCancellable  *cancellable,
                RecordFunc     func,
                gpointer       user_data,
                guint         *damaged,
                GError       **error)
{
  g_autoptr(GFileInputStream) file_stream = NULL;
  g_autoptr(GDataInputStream) stream = NULL;
  g_autoptr(GError) local_error = NULL;

  file_stream = g_file_read (file, cancellable, &local_error);
  if (file_stream != NULL)
    {
      stream = g_data_input_stream_new (G_INPUT_STREAM (file_stream));
      g_data_input_stream_set_newline_type (stream, G_DATA_STREAM_NEWLINE_TYPE_LF);
    }

  while (stream != NULL)
    {
      g_autofree char *line = NULL;
      g_autoptr(JsonNode) node = NULL;
      gsize length;

      line = g_data_input_stream_read_line (stream, &length, cancellable, &local_error);
      if (line == NULL)
        break;

      if (length == 0)
        continue;

      if (length <= JOURNAL_MAX_LINE && g_utf8_validate (line, length, NULL))
        node = mcp_json_parse (line, length, NULL);

      if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
        {
          (*damaged)++;
          continue;
        }

      func (json_node_get_object (node), user_data);
    }

  /* No journal yet is an empty one. */
  if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    g_clear_error (&local_error);

  if (local_error != NULL)
    {
      g_autofree char *label = g_file_get_parse_name (file);

      g_set_error (error, G_IO_ERROR, local_error->code,
                   _("Cannot read the sampling journal %s: %s"), label, local_error->message);
      return FALSE;
    }

  return TRUE;
}

static void
collect_record (JsonObject *record,
                gpointer    user_data)
{
  g_ptr_array_add (user_data, json_object_ref (record));
}

static gpointer
read_work (GFile         *file,
           gpointer       data,
           GCancellable  *cancellable,
           GError       **error)
{
  g_autoptr(GPtrArray) records = NULL;
  guint damaged = 0;

  records = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
  if (!foreach_record (file, cancellable, collect_record, records, &damaged, error))
    return NULL;

  if (damaged > 0)
    g_debug ("Skipped %u damaged lines of the sampling journal", damaged);

  return g_steal_pointer (&records);
}

typedef struct {
  const char *day;
  GTimeZone  *utc;
  GHashTable *used;      /* server → guint64 tokens */
  guint       skipped;
} Scan;

/* A count of tokens as written; anything else counts for nothing. */
static guint64
get_tokens (JsonObject *record,
            const char *member)
{
  gint64 tokens = 0;

  if (!mcp_json_get_int64 (record, member, G_MININT64, G_MAXINT64, &tokens) || tokens < 0)
    return 0;

  return (guint64) tokens;
}

static void
scan_record (JsonObject *record,
             gpointer    user_data)
{
  Scan *scan = user_data;
  const char *server = mcp_json_get_string (record, "server");
  const char *time = mcp_json_get_string (record, "time");
  g_autoptr(GDateTime) stamp = NULL;
  g_autoptr(GDateTime) local = NULL;
  g_autofree char *day = NULL;
  guint64 *used;

  /* Stamps are written in UTC; one without a zone is read as UTC too. */
  if (server != NULL && time != NULL)
    stamp = g_date_time_new_from_iso8601 (time, scan->utc);
  if (stamp == NULL)
    {
      scan->skipped++;
      return;
    }

  /* The budget is for the person's day, so the record counts on the local
   * day it was written, which is not always its day in UTC. */
  local = g_date_time_to_local (stamp);
  day = local ? g_date_time_format (local, "%Y-%m-%d") : NULL;
  if (g_strcmp0 (day, scan->day) != 0)
    return;

  used = g_hash_table_lookup (scan->used, server);
  if (used == NULL)
    {
      used = g_new0 (guint64, 1);
      g_hash_table_insert (scan->used, g_strdup (server), used);
    }

  /* A sum of two counts read from a file stops at the top, never wraps. */
  *used = MIN (*used + MIN (get_tokens (record, "inputTokens"), G_MAXUINT32)
                     + MIN (get_tokens (record, "outputTokens"), G_MAXUINT32),
               (guint64) G_MAXUINT);
}

/* Sums the tokens of the day's records per server: what the budget had
 * spent when Steward last quit. */
static gpointer
scan_work (GFile         *file,
           gpointer       data,
           GCancellable  *cancellable,
           GError       **error)
{
  g_autoptr(GTimeZone) utc = g_time_zone_new_utc ();
  Scan scan = { data, utc, NULL, 0 };
  guint damaged = 0;

  scan.used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  if (!foreach_record (file, cancellable, scan_record, &scan, &damaged, error))
    {
      g_hash_table_unref (scan.used);
      return NULL;
    }

  if (damaged + scan.skipped > 0)
    g_debug ("Counting today’s sampling tokens, skipped %u damaged lines and %u records "
             "without a server or a readable time", damaged, scan.skipped);

  return scan.used;
}

/* Today's budget of @server, started anew when the local day changed. */
static Budget *
get_budget (StewardSamplingJournal *self,
            const char             *server)
{
  g_autofree char *today = format_day (steward_sampling_journal_now (self));
  Budget *budget = g_hash_table_lookup (self->budgets, server);

  if (budget == NULL)
    {
      budget = g_new0 (Budget, 1);
      g_hash_table_insert (self->budgets, g_strdup (server), budget);
    }

  if (g_strcmp0 (budget->day, today) != 0)
    {
      g_free (budget->day);
      budget->day = g_steal_pointer (&today);
      budget->used = 0;
    }

  return budget;
}

/* Starts each server's budget where the journal left it. The counters may
 * hold tokens spent since Steward started, which the journal holds too or
 * is about to: the larger count is kept, never the sum. */
static void
seed_budgets (StewardSamplingJournal *self,
              const char             *day,
              GHashTable             *used)
{
  g_autofree char *today = format_day (steward_sampling_journal_now (self));
  GHashTableIter iter;
  gpointer name;
  gpointer tokens;

  /* Midnight passed while the journal was read: those were yesterday's. */
  if (!g_str_equal (today, day))
    return;

  g_hash_table_iter_init (&iter, used);
  while (g_hash_table_iter_next (&iter, &name, &tokens))
    {
      Budget *budget = get_budget (self, name);
      guint64 sum = *(guint64 *) tokens;

      budget->used = MAX (budget->used, (guint) MIN (sum, (guint64) G_MAXUINT));
    }
}

static void
steward_sampling_journal_finalize (GObject *object)
{
  StewardSamplingJournal *self = STEWARD_SAMPLING_JOURNAL (object);

  /* Waits for the lines still queued (steward_sampling_file_queue_free). */
  g_clear_pointer (&self->queue, steward_sampling_file_queue_free);
  g_clear_pointer (&self->budgets, g_hash_table_unref);

  G_OBJECT_CLASS (steward_sampling_journal_parent_class)->finalize (object);
}

static void
steward_sampling_journal_constructed (GObject *object)
{
  StewardSamplingJournal *self = STEWARD_SAMPLING_JOURNAL (object);

  G_OBJECT_CLASS (steward_sampling_journal_parent_class)->constructed (object);

  self->file = steward_file_backed_get_file (STEWARD_FILE_BACKED (self));
}

static void
steward_sampling_journal_class_init (StewardSamplingJournalClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = steward_sampling_journal_constructed;
  object_class->finalize = steward_sampling_journal_finalize;
}

static void
steward_sampling_journal_init (StewardSamplingJournal *self)
{
  self->budgets = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                         (GDestroyNotify) budget_free);
  self->queue = steward_sampling_file_queue_new ();
}

/**
 * steward_sampling_journal_new:
 * @file: (nullable): the audit journal, or %NULL to count the budget in
 *   memory alone
 */
StewardSamplingJournal *
steward_sampling_journal_new (GFile *file)
{
  g_return_val_if_fail (file == NULL || G_IS_FILE (file), NULL);

  return g_object_new (STEWARD_TYPE_SAMPLING_JOURNAL, "file", file, NULL);
}

void
steward_sampling_journal_set_clock (StewardSamplingJournal *self,
                                    StewardSamplingClock    clock,
                                    gpointer                user_data)
{
  g_return_if_fail (STEWARD_IS_SAMPLING_JOURNAL (self));

  self->clock = clock;
  self->clock_data = user_data;
}

gint64
steward_sampling_journal_now (StewardSamplingJournal *self)
{
  g_return_val_if_fail (STEWARD_IS_SAMPLING_JOURNAL (self), 0);

  if (self->clock != NULL)
    return self->clock (self->clock_data);

  return g_get_real_time ();
}

void
steward_sampling_journal_append (StewardSamplingJournal *self,
                                 JsonObject             *record)
{
  g_autoptr(JsonGenerator) generator = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *generated = NULL;
  g_autofree char *text = NULL;
  gsize length;

  g_return_if_fail (STEWARD_IS_SAMPLING_JOURNAL (self));
  g_return_if_fail (record != NULL);

  if (self->file == NULL)
    return;

  root = json_node_init_object (json_node_alloc (), record);
  generator = json_generator_new ();
  json_generator_set_root (generator, root);

  /* The generator escapes newlines in strings, so a record is one line;
   * a secret echoed in the summary or the reason is redacted. */
  generated = json_generator_to_data (generator, NULL);
  text = steward_redact (generated);
  length = strlen (text);
  text = g_realloc (text, length + 2);
  text[length++] = '\n';
  text[length] = '\0';
  bytes = g_bytes_new_take (g_steal_pointer (&text), length);

  steward_sampling_file_queue_append (self->queue, self->file, bytes);
}

guint
steward_sampling_journal_get_tokens_used (StewardSamplingJournal *self,
                                          const char             *server)
{
  Budget *budget;

  g_return_val_if_fail (STEWARD_IS_SAMPLING_JOURNAL (self), 0);
  g_return_val_if_fail (server != NULL, 0);

  if (!g_hash_table_contains (self->budgets, server))
    return 0;

  budget = get_budget (self, server);
  return budget->used;
}

void
steward_sampling_journal_add_tokens (StewardSamplingJournal *self,
                                     const char             *server,
                                     gint64                  tokens)
{
  Budget *budget;

  g_return_if_fail (STEWARD_IS_SAMPLING_JOURNAL (self));
  g_return_if_fail (server != NULL);

  budget = get_budget (self, server);
  budget->used = (guint) CLAMP ((gint64) budget->used + MAX (tokens, 0), 0, G_MAXUINT);
}

void
steward_sampling_journal_recount_async (StewardSamplingJournal *self,
                                        GCancellable           *cancellable,
                                        GAsyncReadyCallback     callback,
                                        gpointer                user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *day = NULL;

  g_return_if_fail (STEWARD_IS_SAMPLING_JOURNAL (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_sampling_journal_recount_async);

  if (self->file == NULL)
    {
      g_task_return_pointer (task, NULL, NULL);
      return;
    }

  day = format_day (steward_sampling_journal_now (self));
  g_task_set_task_data (task, g_strdup (day), g_free);

  /* On the worker, after every line asked for before. */
  steward_sampling_file_queue_push (self->queue, self->file, scan_work,
                                    g_steal_pointer (&day), g_free, task,
                                    (GDestroyNotify) g_hash_table_unref);
}

gboolean
steward_sampling_journal_recount_finish (StewardSamplingJournal  *self,
                                         GAsyncResult            *result,
                                         GError                 **error)
{
  g_autoptr(GHashTable) used = NULL;
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        steward_sampling_journal_recount_async, FALSE);

  used = g_task_propagate_pointer (G_TASK (result), &local_error);
  if (used != NULL)
    {
      seed_budgets (self, g_task_get_task_data (G_TASK (result)), used);
      return TRUE;
    }

  if (local_error == NULL)
    return TRUE;

  if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  /* The policies still apply; the warning says why the count starts
   * again. */
  g_warning ("%s; the daily token budgets count from zero", local_error->message);
  return TRUE;
}

static void
recount_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

/* The synchronous count waits for the worker on a context of its own, so
 * that the read stays in line with the journal's appends and nothing else
 * of the caller's runs meanwhile. */
void
steward_sampling_journal_recount (StewardSamplingJournal *self)
{
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(GAsyncResult) result = NULL;

  g_return_if_fail (STEWARD_IS_SAMPLING_JOURNAL (self));

  g_main_context_push_thread_default (context);
  steward_sampling_journal_recount_async (self, NULL, recount_cb, &result);
  while (result == NULL)
    g_main_context_iteration (context, TRUE);
  g_main_context_pop_thread_default (context);

  steward_sampling_journal_recount_finish (self, result, NULL);
}

void
steward_sampling_journal_read_async (StewardSamplingJournal *self,
                                     GCancellable           *cancellable,
                                     GAsyncReadyCallback     callback,
                                     gpointer                user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (STEWARD_IS_SAMPLING_JOURNAL (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_sampling_journal_read_async);

  if (self->file == NULL)
    {
      g_task_return_pointer (task,
                             g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref),
                             (GDestroyNotify) g_ptr_array_unref);
      return;
    }

  steward_sampling_file_queue_push (self->queue, self->file, read_work, NULL, NULL, task,
                                    (GDestroyNotify) g_ptr_array_unref);
}

/**
 * steward_sampling_journal_read_finish:
 *
 * Returns: (transfer full) (element-type JsonObject): the records, oldest
 *   first
 */
GPtrArray *
steward_sampling_journal_read_finish (StewardSamplingJournal  *self,
                                      GAsyncResult            *result,
                                      GError                 **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        steward_sampling_journal_read_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "bench-log-store"

#include "config.h"

/*
 * What the log store costs under a flood: building entries (with their
 * redaction), appending them, announcing them on the main loop, holding
 * 100,000 of them, filtering them by text and exporting them.
 *
 *   bench-log-store [--entries N] [--flood-seconds S]
 *
 * Prints one line per figure, then all of them as one JSON object.
 */

#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "steward-log-store.h"
#include "steward-redactor.h"

typedef struct
{
  StewardLogStore *store;
  GMainLoop       *loop;
  guint            produced;
  guint            changes;
  gint64           max_gap_us;
  gint64           last_us;
  gint64           end_us;
} Flood;

static gsize
resident_bytes (void)
{
  g_autofree char *statm = NULL;
  g_auto(GStrv) fields = NULL;

  if (!g_file_get_contents ("/proc/self/statm", &statm, NULL, NULL))
    return 0;
  fields = g_strsplit (statm, " ", -1);
  if (g_strv_length (fields) < 2)
    return 0;

  return g_ascii_strtoull (fields[1], NULL, 10) * sysconf (_SC_PAGESIZE);
}

static char *
trace_detail (guint i)
{
  return g_strdup_printf ("{\n"
                          "  \"jsonrpc\": \"2.0\",\n"
                          "  \"id\": %u,\n"
                          "  \"method\": \"tools/call\",\n"
                          "  \"params\": {\n"
                          "    \"name\": \"read_file\",\n"
                          "    \"arguments\": {\n"
                          "      \"path\": \"/home/alice/Projects/steward/src/host/file-%u.c\",\n"
                          "      \"head\": 120\n"
                          "    },\n"
                          "    \"_meta\": {\n"
                          "      \"progressToken\": %u\n"
                          "    }\n"
                          "  }\n"
                          "}", i, i, i);
}

static StewardLogEntry *
trace_entry (guint i)
{
  g_autofree char *text = g_strdup_printf ("→ tools/call read_file id %u", i);
  g_autofree char *detail = trace_detail (i);

  return steward_log_entry_new (g_get_real_time (), "filesystem", STEWARD_LOG_SOURCE_TRACE,
                                STEWARD_LOG_LEVEL_DEBUG, STEWARD_LOG_DIRECTION_OUT, NULL,
                                text, detail, strlen (detail));
}

static double
seconds_since (gint64 start_us)
{
  return (g_get_monotonic_time () - start_us) / (double) G_USEC_PER_SEC;
}

static void
items_changed_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  Flood      *flood)
{
  flood->changes++;
}

/* A server writing notifications as fast as it can: 1,000 per main loop
 * iteration, as a transport hands over what one read brought. */
static gboolean
produce_cb (gpointer user_data)
{
  Flood *flood = user_data;
  gint64 now = g_get_monotonic_time ();

  if (flood->last_us != 0)
    flood->max_gap_us = MAX (flood->max_gap_us, now - flood->last_us);
  flood->last_us = now;

  for (guint i = 0; i < 1000; i++)
    {
      g_autoptr(StewardLogEntry) entry = NULL;
      g_autofree char *text = g_strdup_printf ("progress %u of many", flood->produced);

      entry = steward_log_entry_new (g_get_real_time (), "flood", STEWARD_LOG_SOURCE_SERVER,
                                     STEWARD_LOG_LEVEL_INFO, STEWARD_LOG_DIRECTION_IN, "work",
                                     text, NULL, strlen (text));
      steward_log_store_append (flood->store, entry);
      flood->produced++;
    }

  if (now >= flood->end_us)
    {
      g_main_loop_quit (flood->loop);
      return G_SOURCE_REMOVE;
    }

  return G_SOURCE_CONTINUE;
}

static void
export_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  GMainLoop *loop = user_data;
  g_autoptr(GError) error = NULL;

  if (!steward_log_store_export_finish (result, &error))
    g_printerr ("bench-log-store: export: %s\n", error->message);
  g_main_loop_quit (loop);
}

static double
time_export (StewardLogStore *store,
             const char      *dir,
             gboolean         as_json,
             gsize           *size)
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autofree char *path = g_build_filename (dir, as_json ? "log.jsonl" : "log.txt", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInfo) info = NULL;
  gint64 start = g_get_monotonic_time ();
  double seconds;

  steward_log_store_export_async (G_LIST_MODEL (store), file, as_json, NULL, export_cb, loop);
  g_main_loop_run (loop);
  seconds = seconds_since (start);

  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE, 0, NULL, NULL);
  *size = info != NULL ? (gsize) g_file_info_get_size (info) : 0;
  g_unlink (path);

  return seconds;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GString) json = g_string_new ("{");
  g_autofree char *clean = NULL;
  g_autofree char *dirty = NULL;
  g_autofree char *tmp_dir = NULL;
  StewardLogStore *store;
  Flood flood = { 0 };
  int n_entries = 100000;
  int flood_seconds = 3;
  gint64 start;
  gsize before;
  gsize text_size;
  gsize json_size;
  double build_s;
  double append_s;
  double redact_clean_s;
  double redact_dirty_s;
  double filter_s;
  double text_s;
  double json_s;
  double rss_mib;
  double flood_s;
  guint matched = 0;
  const int redact_rounds = 20000;
  GOptionEntry options[] = {
    { "entries", 0, 0, G_OPTION_ARG_INT, &n_entries, "Entries to hold (100,000)", "N" },
    { "flood-seconds", 0, 0, G_OPTION_ARG_INT, &flood_seconds, "Length of the flood (3)", "S" },
    { NULL }
  };

  context = g_option_context_new (NULL);
  g_option_context_add_main_entries (context, options, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || n_entries <= 0 ||
      flood_seconds <= 0)
    {
      g_printerr ("bench-log-store: %s\n",
                  error != NULL ? error->message : "counts must be positive");
      return 2;
    }

  /* Building entries: formatting, UTF-8 checks, redaction, one line. */
  entries = g_ptr_array_new_full (n_entries, g_object_unref);
  before = resident_bytes ();
  start = g_get_monotonic_time ();
  for (int i = 0; i < n_entries; i++)
    g_ptr_array_add (entries, trace_entry (i));
  build_s = seconds_since (start);

  /* Appending them, announced in batches as the main loop would. */
  store = steward_log_store_new (n_entries);
  start = g_get_monotonic_time ();
  for (int i = 0; i < n_entries; i++)
    {
      steward_log_store_append (store, g_ptr_array_index (entries, i));
      if (i % 160 == 159)
        steward_log_store_flush (store);
    }
  steward_log_store_flush (store);
  append_s = seconds_since (start);
  g_ptr_array_set_size (entries, 0);
  rss_mib = (resident_bytes () - before) / (1024.0 * 1024.0);

  /* Redaction alone, on a clean payload and on one with secrets. */
  clean = trace_detail (7);
  dirty = g_strdup_printf ("%s\nAuthorization: Bearer abcdefghijklmnop\n"
                           "{\"api_key\": \"sk-abcdefghijklmnopqrstuvwxyz\"}", clean);
  start = g_get_monotonic_time ();
  for (int i = 0; i < redact_rounds; i++)
    g_free (steward_redact_if_needed (clean, strlen (clean)));
  redact_clean_s = seconds_since (start);
  start = g_get_monotonic_time ();
  for (int i = 0; i < redact_rounds; i++)
    g_free (steward_redact_if_needed (dirty, strlen (dirty)));
  redact_dirty_s = seconds_since (start);

  /* One key press in the log view's search: every entry tested. */
  start = g_get_monotonic_time ();
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (store)); i++)
    {
      g_autoptr(StewardLogEntry) entry = g_list_model_get_item (G_LIST_MODEL (store), i);

      matched += steward_log_entry_matches_text (entry, "File-4242.C");
    }
  filter_s = seconds_since (start);

  tmp_dir = g_dir_make_tmp ("bench-log-store-XXXXXX", &error);
  if (tmp_dir == NULL)
    {
      g_printerr ("bench-log-store: %s\n", error->message);
      return 1;
    }
  text_s = time_export (store, tmp_dir, FALSE, &text_size);
  json_s = time_export (store, tmp_dir, TRUE, &json_size);
  g_rmdir (tmp_dir);

  /* The flood, through the main loop, into the full store. */
  flood.store = store;
  flood.loop = g_main_loop_new (NULL, FALSE);
  g_signal_connect (store, "items-changed", G_CALLBACK (items_changed_cb), &flood);
  flood.end_us = g_get_monotonic_time () + (gint64) flood_seconds * G_USEC_PER_SEC;
  start = g_get_monotonic_time ();
  g_idle_add (produce_cb, &flood);
  g_main_loop_run (flood.loop);
  steward_log_store_flush (store);
  flood_s = seconds_since (start);
  g_clear_pointer (&flood.loop, g_main_loop_unref);

  printf ("build %d trace entries:   %.2f us each\n", n_entries, build_s * 1e6 / n_entries);
  printf ("append and flush:         %.3f us each\n", append_s * 1e6 / n_entries);
  printf ("memory for %d entries: %.1f MiB RSS (%.0f bytes each)\n",
          n_entries, rss_mib, rss_mib * 1024 * 1024 / n_entries);
  printf ("redact %zu-byte payload:  %.2f us clean, %.2f us with secrets (%.0f MB/s clean)\n",
          strlen (clean), redact_clean_s * 1e6 / redact_rounds,
          redact_dirty_s * 1e6 / redact_rounds,
          strlen (clean) * redact_rounds / redact_clean_s / 1e6);
  printf ("filter by text:           %.1f ms over %u entries (%u matched)\n",
          filter_s * 1e3, g_list_model_get_n_items (G_LIST_MODEL (store)), matched);
  printf ("export text:              %.2f s, %.1f MiB\n", text_s, text_size / 1048576.0);
  printf ("export JSON lines:        %.2f s, %.1f MiB\n", json_s, json_size / 1048576.0);
  printf ("flood:                    %.0f entries/s, %.1f items-changed/s, "
          "longest iteration gap %.1f ms, %" G_GUINT64_FORMAT " dropped\n",
          flood.produced / flood_s, flood.changes / flood_s,
          flood.max_gap_us / 1000.0, steward_log_store_get_n_dropped (store));

  g_string_append_printf (json, "\"entries\": %d, \"build_us\": %.3f, \"append_us\": %.4f, "
                          "\"rss_mib\": %.1f, \"redact_clean_us\": %.3f, "
                          "\"redact_secrets_us\": %.3f, \"filter_ms\": %.2f, "
                          "\"export_text_s\": %.3f, \"export_json_s\": %.3f, "
                          "\"flood_entries_per_s\": %.0f, \"flood_changes\": %u, "
                          "\"flood_max_gap_ms\": %.2f}",
                          n_entries, build_s * 1e6 / n_entries, append_s * 1e6 / n_entries,
                          rss_mib, redact_clean_s * 1e6 / redact_rounds,
                          redact_dirty_s * 1e6 / redact_rounds, filter_s * 1e3, text_s, json_s,
                          flood.produced / flood_s, flood.changes,
                          flood.max_gap_us / 1000.0);
  printf ("%s\n", json->str);

  g_object_unref (store);
  return 0;
}

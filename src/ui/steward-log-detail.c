/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-log-detail"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-log-detail.h"
#include "steward-log-row.h"
#include "steward-trace-names.h"

/* How far the pane looks for the selected entry from the newest, and for
 * its partner from there: a flood between a request and its answer can
 * hide the one from the other, but never stalls the pane. */
#define MAX_FIND_SELF    50000
#define MAX_FIND_PARTNER 20000

static void
append_detail_header (GString         *out,
                      StewardLogEntry *entry)
{
  gint64 time_us = steward_log_entry_get_time (entry);
  g_autoptr(GDateTime) date = g_date_time_new_from_unix_local (time_us / G_USEC_PER_SEC);
  g_autofree char *date_text = date != NULL ? g_date_time_format (date, "%Y-%m-%d %H:%M:%S") : NULL;
  const char *server = steward_log_entry_get_server (entry);
  const char *logger = steward_log_entry_get_logger (entry);

  g_string_append_printf (out, _("Time: %s.%03d"), date_text != NULL ? date_text : "?",
                          (int) ((time_us % G_USEC_PER_SEC) / 1000));
  g_string_append_c (out, '\n');
  g_string_append_printf (out, _("Server: %s"), server != NULL ? server : _("none"));
  g_string_append_c (out, '\n');
  g_string_append_printf (out, _("Source: %s"),
                          steward_log_row_source_label (steward_log_entry_get_source (entry)));
  g_string_append_c (out, '\n');
  g_string_append_printf (out, _("Level: %s"),
                          steward_log_row_level_label (steward_log_entry_get_level (entry)));
  g_string_append_c (out, '\n');

  if (logger != NULL && *logger != '\0')
    {
      g_string_append_printf (out, _("Logger: %s"), logger);
      g_string_append_c (out, '\n');
    }

  if (steward_log_entry_get_source (entry) == STEWARD_LOG_SOURCE_TRACE)
    {
      char size_text[STEWARD_LOG_SIZE_LEN];
      gsize size = steward_log_entry_get_size (entry);

      steward_log_row_format_size (size, size_text);
      switch (steward_log_entry_get_direction (entry))
        {
        case STEWARD_LOG_DIRECTION_IN:
          g_string_append (out, _("Direction: ← received from the server"));
          g_string_append_c (out, '\n');
          break;
        case STEWARD_LOG_DIRECTION_OUT:
          g_string_append (out, _("Direction: → sent to the server"));
          g_string_append_c (out, '\n');
          break;
        case STEWARD_LOG_DIRECTION_NONE:
        default:
          break;
        }
      g_string_append_printf (out, _("Size: %s (%zu bytes)"), size_text, (size_t) size);
      g_string_append_c (out, '\n');
    }
}

/* The position of @entry in @entries, looked for from the newest, as the
 * entries a person picks are mostly recent; G_MAXUINT when not found. */
static guint
find_position (GListModel      *entries,
               StewardLogEntry *entry)
{
  guint n_items = g_list_model_get_n_items (entries);

  for (guint i = n_items; i > 0 && n_items - i < MAX_FIND_SELF; i--)
    {
      g_autoptr(StewardLogEntry) item = g_list_model_get_item (entries, i - 1);

      if (item == entry)
        return i - 1;
    }

  return G_MAXUINT;
}

static gboolean
is_partner (StewardLogEntry *entry,
            StewardLogEntry *candidate,
            const char      *id,
            gboolean         want_answer)
{
  g_autofree char *candidate_id = NULL;
  gboolean answer = FALSE;

  if (steward_log_entry_get_source (candidate) != STEWARD_LOG_SOURCE_TRACE ||
      g_strcmp0 (steward_log_entry_get_server (candidate),
                 steward_log_entry_get_server (entry)) != 0 ||
      steward_log_entry_get_direction (candidate) == steward_log_entry_get_direction (entry))
    return FALSE;

  candidate_id = steward_trace_summary_get_id (steward_log_entry_get_text (candidate), &answer);

  return candidate_id != NULL && answer == want_answer && g_str_equal (candidate_id, id);
}

StewardLogEntry *
steward_log_detail_find_partner (GListModel      *entries,
                                 StewardLogEntry *entry)
{
  g_autofree char *id = NULL;
  gboolean answer = FALSE;
  guint n_items;
  guint position;

  g_return_val_if_fail (G_IS_LIST_MODEL (entries), NULL);
  g_return_val_if_fail (STEWARD_IS_LOG_ENTRY (entry), NULL);

  if (steward_log_entry_get_source (entry) != STEWARD_LOG_SOURCE_TRACE)
    return NULL;

  id = steward_trace_summary_get_id (steward_log_entry_get_text (entry), &answer);
  if (id == NULL)
    return NULL;

  position = find_position (entries, entry);
  if (position == G_MAXUINT)
    return NULL;

  n_items = g_list_model_get_n_items (entries);

  /* A request's answer comes after it, an answer's request before. */
  if (!answer)
    {
      for (guint i = position + 1; i < n_items && i - position <= MAX_FIND_PARTNER; i++)
        {
          g_autoptr(StewardLogEntry) item = g_list_model_get_item (entries, i);

          if (is_partner (entry, item, id, TRUE))
            return g_steal_pointer (&item);
        }
    }
  else
    {
      for (guint i = position; i > 0 && position - i < MAX_FIND_PARTNER; i--)
        {
          g_autoptr(StewardLogEntry) item = g_list_model_get_item (entries, i - 1);

          if (is_partner (entry, item, id, FALSE))
            return g_steal_pointer (&item);
        }
    }

  return NULL;
}

static void
append_entry (GString         *out,
              StewardLogEntry *entry)
{
  const char *detail = steward_log_entry_get_detail (entry);

  append_detail_header (out, entry);
  g_string_append_c (out, '\n');

  if (detail == NULL || *detail == '\0')
    detail = steward_log_entry_get_text (entry);
  if (detail != NULL)
    g_string_append (out, detail);
}

char *
steward_log_detail_format (StewardLogEntry *entry,
                           StewardLogEntry *partner)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (STEWARD_IS_LOG_ENTRY (entry), NULL);

  append_entry (out, entry);

  if (partner != NULL)
    {
      const char *text = steward_log_entry_get_text (partner);
      g_autofree char *id = NULL;
      gboolean answer = FALSE;

      id = steward_trace_summary_get_id (text, &answer);

      if (!g_str_has_suffix (out->str, "\n"))
        g_string_append_c (out, '\n');
      g_string_append_c (out, '\n');
      /* Translators: a heading in the log's detail pane, above the answer
       * to the request shown first, or above the request the answer
       * shown first is for; %s is its one-line summary. */
      g_string_append_printf (out,
                              answer ? _("── Its answer: %s ──") : _("── The request: %s ──"),
                              text != NULL ? text : "");
      g_string_append_c (out, '\n');
      append_entry (out, partner);
    }

  return g_string_free (out, FALSE);
}

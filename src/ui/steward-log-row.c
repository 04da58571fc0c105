/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-log-row"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>
#include <time.h>

#include "steward-log-row.h"

/* A cell lays out all of its text even when it shows one ellipsized line,
 * so a row never hands it more than this many bytes. */
#define MAX_ROW_TEXT 512

struct _StewardLogRow
{
  GtkWidget       parent_instance;

  GtkInscription *time_cell;
  GtkInscription *server_cell;
  GtkInscription *source_cell;
  GtkInscription *level_cell;
  GtkInscription *text_cell;

  /* The style class the level and text carry now, or NULL. */
  const char     *level_class;
};

G_DEFINE_FINAL_TYPE (StewardLogRow, steward_log_row, GTK_TYPE_WIDGET)

static const char *
level_style_class (StewardLogLevel level)
{
  if (level >= STEWARD_LOG_LEVEL_ERROR)
    return "error";
  if (level == STEWARD_LOG_LEVEL_WARNING)
    return "warning";
  if (level == STEWARD_LOG_LEVEL_DEBUG)
    return "dim-label";
  return NULL;
}

/* Copies at most MAX_ROW_TEXT bytes of @text, cut on a character boundary,
 * with line breaks and tabs turned into spaces so the row stays one line. */
static void
copy_row_text (const char *text,
               char        buffer[MAX_ROW_TEXT + 1])
{
  gsize length = strlen (text);
  gsize i;

  if (length > MAX_ROW_TEXT)
    {
      const char *end = g_utf8_find_prev_char (text, text + MAX_ROW_TEXT + 1);

      length = end != NULL ? (gsize) (end - text) : 0;
    }

  memcpy (buffer, text, length);
  buffer[length] = '\0';

  for (i = 0; i < length; i++)
    {
      if (buffer[i] == '\n' || buffer[i] == '\r' || buffer[i] == '\t')
        buffer[i] = ' ';
    }
}

static void
steward_log_row_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), STEWARD_TYPE_LOG_ROW);

  G_OBJECT_CLASS (steward_log_row_parent_class)->dispose (object);
}

static void
steward_log_row_class_init (StewardLogRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = steward_log_row_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/stewardmcp/Steward/steward-log-row.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardLogRow, time_cell);
  gtk_widget_class_bind_template_child (widget_class, StewardLogRow, server_cell);
  gtk_widget_class_bind_template_child (widget_class, StewardLogRow, source_cell);
  gtk_widget_class_bind_template_child (widget_class, StewardLogRow, level_cell);
  gtk_widget_class_bind_template_child (widget_class, StewardLogRow, text_cell);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "steward-log-row");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
steward_log_row_init (StewardLogRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
steward_log_row_new (void)
{
  return g_object_new (STEWARD_TYPE_LOG_ROW, NULL);
}

void
steward_log_row_set_entry (StewardLogRow   *self,
                           StewardLogEntry *entry)
{
  char time_text[STEWARD_LOG_TIME_LEN];
  char size_text[STEWARD_LOG_SIZE_LEN];
  char source_text[64];
  char text[MAX_ROW_TEXT + 1];
  char line[MAX_ROW_TEXT + 128];
  char accessible[MAX_ROW_TEXT + 128];
  const char *server;
  const char *logger;
  const char *level_label;
  const char *style_class;
  StewardLogSource source;
  StewardLogLevel level;

  g_return_if_fail (STEWARD_IS_LOG_ROW (self));
  g_return_if_fail (entry == NULL || STEWARD_IS_LOG_ENTRY (entry));

  if (entry == NULL)
    {
      gtk_inscription_set_text (self->text_cell, NULL);
      gtk_accessible_reset_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL);
      return;
    }

  level = steward_log_entry_get_level (entry);
  source = steward_log_entry_get_source (entry);
  server = steward_log_entry_get_server (entry);
  logger = steward_log_entry_get_logger (entry);
  level_label = steward_log_row_level_label (level);

  steward_log_row_format_time (steward_log_entry_get_time (entry), time_text);
  copy_row_text (steward_log_entry_get_text (entry) ? steward_log_entry_get_text (entry) : "",
                 text);

  /* Everything is formatted into buffers on the stack: the cells' own
   * copies are the only allocations a row makes. */
  if (source == STEWARD_LOG_SOURCE_TRACE)
    {
      steward_log_row_format_size (steward_log_entry_get_size (entry), size_text);
      g_snprintf (source_text, sizeof source_text, "%s %s %s",
                  steward_log_row_source_label (source),
                  steward_log_row_direction_arrow (steward_log_entry_get_direction (entry)),
                  size_text);
    }
  else
    {
      g_strlcpy (source_text, steward_log_row_source_label (source), sizeof source_text);
    }

  if (logger != NULL && *logger != '\0')
    g_snprintf (line, sizeof line, "[%s] %s", logger, text);
  else
    g_strlcpy (line, text, sizeof line);

  gtk_inscription_set_text (self->time_cell, time_text);
  gtk_inscription_set_text (self->server_cell, server != NULL ? server : "");
  gtk_inscription_set_text (self->source_cell, source_text);
  gtk_inscription_set_text (self->level_cell, level_label);
  gtk_inscription_set_text (self->text_cell, line);

  style_class = level_style_class (level);
  if (g_strcmp0 (style_class, self->level_class) != 0)
    {
      if (self->level_class != NULL)
        {
          gtk_widget_remove_css_class (GTK_WIDGET (self->level_cell), self->level_class);
          gtk_widget_remove_css_class (GTK_WIDGET (self->text_cell), self->level_class);
        }
      if (style_class != NULL)
        {
          gtk_widget_add_css_class (GTK_WIDGET (self->level_cell), style_class);
          gtk_widget_add_css_class (GTK_WIDGET (self->text_cell), style_class);
        }
      self->level_class = style_class;
    }

  /* What a screen reader says for the row: time, server, level, text. */
  g_snprintf (accessible, sizeof accessible, "%s %s %s %s",
              time_text, server != NULL ? server : "", level_label, text);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, accessible,
                                  -1);
}

void
steward_log_row_format_time (gint64 time_us,
                             char   buffer[STEWARD_LOG_TIME_LEN])
{
  time_t seconds;
  struct tm tm;
  int ms;

  if (time_us < 0)
    time_us = 0;

  seconds = (time_t) (time_us / G_USEC_PER_SEC);
  ms = (int) ((time_us % G_USEC_PER_SEC) / 1000);

  if (localtime_r (&seconds, &tm) == NULL)
    {
      g_strlcpy (buffer, "--:--:--.---", STEWARD_LOG_TIME_LEN);
      return;
    }

  g_snprintf (buffer, STEWARD_LOG_TIME_LEN, "%02d:%02d:%02d.%03d",
              tm.tm_hour, tm.tm_min, tm.tm_sec, ms);
}

void
steward_log_row_format_size (gsize size,
                             char  buffer[STEWARD_LOG_SIZE_LEN])
{
  steward_log_format_size (size, buffer);
}

const char *
steward_log_row_source_label (StewardLogSource source)
{
  return steward_log_source_get_label (source);
}

const char *
steward_log_row_level_label (StewardLogLevel level)
{
  return steward_log_level_get_label (level);
}

const char *
steward_log_row_direction_arrow (StewardLogDirection direction)
{
  return steward_log_direction_get_arrow (direction);
}

void
steward_log_row_describe_entry (StewardLogEntry *entry,
                                GString         *out,
                                gboolean         with_detail)
{
  char time_text[STEWARD_LOG_TIME_LEN];
  const char *server = steward_log_entry_get_server (entry);
  const char *logger = steward_log_entry_get_logger (entry);
  const char *text = steward_log_entry_get_text (entry);
  const char *detail = steward_log_entry_get_detail (entry);

  steward_log_row_format_time (steward_log_entry_get_time (entry), time_text);
  g_string_append_printf (out, "%s  %s  %s  %s",
                          time_text,
                          server != NULL ? server : "-",
                          steward_log_row_source_label (steward_log_entry_get_source (entry)),
                          steward_log_row_level_label (steward_log_entry_get_level (entry)));

  if (logger != NULL && *logger != '\0')
    g_string_append_printf (out, "  [%s]", logger);

  if (steward_log_entry_get_source (entry) == STEWARD_LOG_SOURCE_TRACE)
    {
      char size_text[STEWARD_LOG_SIZE_LEN];

      StewardLogDirection direction = steward_log_entry_get_direction (entry);

      steward_log_row_format_size (steward_log_entry_get_size (entry), size_text);
      g_string_append_printf (out, "  %s %s",
                              steward_log_row_direction_arrow (direction), size_text);
    }

  g_string_append_printf (out, "  %s\n", text != NULL ? text : "");

  if (with_detail && detail != NULL && *detail != '\0' && g_strcmp0 (detail, text) != 0)
    {
      g_string_append (out, detail);
      if (!g_str_has_suffix (detail, "\n"))
        g_string_append_c (out, '\n');
    }
}

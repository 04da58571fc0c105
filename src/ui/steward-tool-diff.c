/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-tool-diff"

#include "config.h"

#include <string.h>

#include "steward-text.h"

#include "steward-tool-diff.h"

/* Beyond this many lines a side, the longest common subsequence would
 * cost too much memory; the whole old text is then shown removed and the
 * whole new text added, which is still the truth. */
#define MAX_DIFF_LINES 1500

typedef enum {
  LINE_SAME,
  LINE_ADDED,
  LINE_REMOVED,
} LineKind;

static GtkTextTag *
ensure_tag (GtkTextBuffer *buffer,
            const char    *name,
            const char    *colour)
{
  GtkTextTagTable *table = gtk_text_buffer_get_tag_table (buffer);
  GtkTextTag *tag = gtk_text_tag_table_lookup (table, name);
  GdkRGBA rgba;

  if (tag != NULL)
    return tag;

  gdk_rgba_parse (&rgba, colour);
  return gtk_text_buffer_create_tag (buffer, name,
                                     "paragraph-background-rgba", &rgba,
                                     NULL);
}

static void
append_line (GtkTextBuffer *buffer,
             LineKind       kind,
             const char    *line)
{
  static const char *const prefixes[] = { "  ", "+ ", "− " };
  g_autofree char *visible = steward_text_make_visible (line);
  g_autofree char *text = g_strconcat (prefixes[kind], visible, "\n", NULL);
  GtkTextIter end;

  gtk_text_buffer_get_end_iter (buffer, &end);
  if (kind == LINE_ADDED)
    gtk_text_buffer_insert_with_tags_by_name (buffer, &end, text, -1, "diff-added", NULL);
  else if (kind == LINE_REMOVED)
    gtk_text_buffer_insert_with_tags_by_name (buffer, &end, text, -1, "diff-removed", NULL);
  else
    gtk_text_buffer_insert (buffer, &end, text, -1);
}

static char **
split_lines (const char *text)
{
  gsize length;
  g_autofree char *copy = NULL;

  if (text == NULL || *text == '\0')
    return g_new0 (char *, 1);

  /* A final line end does not make an empty last line. */
  length = strlen (text);
  copy = g_strndup (text, text[length - 1] == '\n' ? length - 1 : length);
  return g_strsplit (copy, "\n", -1);
}

void
steward_tool_diff_fill (GtkTextBuffer *buffer,
                        const char    *old_text,
                        const char    *new_text,
                        guint         *added,
                        guint         *removed)
{
  g_auto(GStrv) a = split_lines (old_text);
  g_auto(GStrv) b = split_lines (new_text);
  guint n = g_strv_length (a);
  guint m = g_strv_length (b);
  guint n_added = 0;
  guint n_removed = 0;
  g_autofree guint *lcs = NULL;
  guint i = 0, j = 0;

  g_return_if_fail (GTK_IS_TEXT_BUFFER (buffer));

  /* Translucent, so that they read in the light and the dark style. */
  ensure_tag (buffer, "diff-added", "rgba(46, 194, 126, 0.25)");
  ensure_tag (buffer, "diff-removed", "rgba(224, 27, 36, 0.25)");
  gtk_text_buffer_set_text (buffer, "", 0);

  if (n <= MAX_DIFF_LINES && m <= MAX_DIFF_LINES)
    {
      /* lcs[i][j]: the longest common subsequence of a[i..] and b[j..]. */
      lcs = g_new0 (guint, (gsize) (n + 1) * (m + 1));
      for (guint x = n; x-- > 0;)
        for (guint y = m; y-- > 0;)
          lcs[x * (m + 1) + y] = g_str_equal (a[x], b[y])
                                 ? lcs[(x + 1) * (m + 1) + y + 1] + 1
                                 : MAX (lcs[(x + 1) * (m + 1) + y], lcs[x * (m + 1) + y + 1]);

      while (i < n && j < m)
        {
          if (g_str_equal (a[i], b[j]))
            {
              append_line (buffer, LINE_SAME, a[i++]);
              j++;
            }
          else if (lcs[(i + 1) * (m + 1) + j] >= lcs[i * (m + 1) + j + 1])
            {
              append_line (buffer, LINE_REMOVED, a[i++]);
              n_removed++;
            }
          else
            {
              append_line (buffer, LINE_ADDED, b[j++]);
              n_added++;
            }
        }
    }

  for (; i < n; i++, n_removed++)
    append_line (buffer, LINE_REMOVED, a[i]);
  for (; j < m; j++, n_added++)
    append_line (buffer, LINE_ADDED, b[j]);

  if (added != NULL)
    *added = n_added;
  if (removed != NULL)
    *removed = n_removed;
}

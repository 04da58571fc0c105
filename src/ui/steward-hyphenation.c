/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-hyphenation"

#include "config.h"

#include "steward-hyphenation.h"

#define KEEP_WORDS_TAG "steward-keep-words"

static gboolean
filter_insert_hyphens (PangoAttribute *attribute,
                       gpointer        user_data)
{
  return attribute->klass->type == PANGO_ATTR_INSERT_HYPHENS;
}

gboolean
steward_label_keeps_words (GtkLabel *label)
{
  PangoAttrList *attrs;
  g_autoptr(PangoAttrList) found = NULL;
  g_autoptr(PangoAttrIterator) iter = NULL;
  PangoAttribute *attribute;

  g_return_val_if_fail (GTK_IS_LABEL (label), FALSE);

  attrs = gtk_label_get_attributes (label);
  if (attrs == NULL)
    return FALSE;

  /* A copy, because pango_attr_list_filter() takes what it finds. */
  found = pango_attr_list_copy (attrs);
  found = pango_attr_list_filter (found, filter_insert_hyphens, NULL);
  if (found == NULL)
    return FALSE;

  iter = pango_attr_list_get_iterator (found);
  attribute = pango_attr_iterator_get (iter, PANGO_ATTR_INSERT_HYPHENS);

  return attribute != NULL &&
         attribute->start_index == PANGO_ATTR_INDEX_FROM_TEXT_BEGINNING &&
         attribute->end_index == PANGO_ATTR_INDEX_TO_TEXT_END &&
         !((PangoAttrInt *) attribute)->value;
}

void
steward_label_keep_words (GtkLabel *label)
{
  PangoAttrList *current;
  g_autoptr(PangoAttrList) attrs = NULL;

  g_return_if_fail (GTK_IS_LABEL (label));

  if (steward_label_keeps_words (label))
    return;

  current = gtk_label_get_attributes (label);
  attrs = current != NULL ? pango_attr_list_copy (current) : pango_attr_list_new ();
  /* Attributes cover the whole text by default, whatever it becomes. */
  pango_attr_list_insert (attrs, pango_attr_insert_hyphens_new (FALSE));
  gtk_label_set_attributes (label, attrs);
}

static void
tag_inserted_text_cb (GtkTextBuffer *buffer,
                      GtkTextIter   *location,
                      const char    *text,
                      int            length,
                      gpointer       user_data)
{
  GtkTextTag *tag = user_data;
  GtkTextIter start = *location;

  gtk_text_iter_backward_chars (&start, g_utf8_strlen (text, length));
  gtk_text_buffer_apply_tag (buffer, tag, &start, location);
}

void
steward_text_view_keep_words (GtkTextView *text_view)
{
  GtkTextBuffer *buffer;
  GtkTextTagTable *table;
  GtkTextTag *tag;
  GtkTextIter start, end;

  g_return_if_fail (GTK_IS_TEXT_VIEW (text_view));

  buffer = gtk_text_view_get_buffer (text_view);
  table = gtk_text_buffer_get_tag_table (buffer);
  if (gtk_text_tag_table_lookup (table, KEEP_WORDS_TAG) != NULL)
    return;

  tag = gtk_text_buffer_create_tag (buffer, KEEP_WORDS_TAG, "insert-hyphens", FALSE, NULL);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  gtk_text_buffer_apply_tag (buffer, tag, &start, &end);
  /* The default handler has inserted the text by the time this runs, and
   * @location stands after it. */
  g_signal_connect_object (buffer, "insert-text", G_CALLBACK (tag_inserted_text_cb), tag,
                           G_CONNECT_AFTER);
}

static gboolean
widget_mapped_hook (GSignalInvocationHint *hint,
                    guint                  n_params,
                    const GValue          *params,
                    gpointer               user_data)
{
  GObject *object = g_value_get_object (&params[0]);

  if (GTK_IS_LABEL (object))
    steward_label_keep_words (GTK_LABEL (object));
  else if (GTK_IS_TEXT_VIEW (object))
    steward_text_view_keep_words (GTK_TEXT_VIEW (object));

  return TRUE;
}

/* A hook on GtkWidget::map reaches every label, those that libadwaita builds
 * inside its rows as well as ours, before it is first drawn; no list of
 * widgets to keep up to date. */
void
steward_hyphenation_turn_off (void)
{
  static gsize installed = 0;

  if (g_once_init_enter (&installed))
    {
      guint signal_id;

      /* The signal exists once the class does; it stays for the process. */
      g_type_class_ref (GTK_TYPE_WIDGET);
      signal_id = g_signal_lookup ("map", GTK_TYPE_WIDGET);

      g_signal_add_emission_hook (signal_id, 0, widget_mapped_hook, NULL, NULL);
      g_once_init_leave (&installed, 1);
    }
}

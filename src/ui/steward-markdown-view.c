/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-markdown-view"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "steward-text.h"
#include "steward-url.h"

#include "steward-markdown-view-private.h"
#include "steward-markdown-view.h"

enum {
  PROP_0,
  PROP_TEXT,
  PROP_STREAMING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (StewardMarkdownView, steward_markdown_view, ADW_TYPE_BIN)

/* Addresses. */

/* Why @uri cannot be opened, or NULL when it can: steward_url_check(),
 * the one rule for every address a server or a model gives. */
static char *
check_uri (const char *uri)
{
  g_autoptr(GError) error = NULL;

  if (steward_url_check (uri, NULL, NULL, &error))
    return NULL;

  return g_steal_pointer (&error->message);
}

char *
steward_markdown_visible_uri (const char *uri)
{
  g_autofree char *visible = NULL;

  if (strlen (uri) <= MAX_URI_SHOWN)
    return steward_text_make_visible (uri);

  visible = steward_text_make_visible_capped (uri, MAX_URI_SHOWN, NULL);
  return g_steal_pointer (&visible);
}

/* Tags. */

static void
create_tags (StewardMarkdownView *self)
{
  static const double scales[] = { 1.6, 1.4, 1.2, 1.1, 1.0, 1.0 };
  GdkRGBA shade = { 0.5, 0.5, 0.5, 0.15 };
  GdkRGBA dim = { 0.5, 0.5, 0.5, 1.0 };

  for (guint i = 0; i < G_N_ELEMENTS (scales); i++)
    {
      g_autofree char *name = g_strdup_printf ("h%u", i + 1);

      gtk_text_buffer_create_tag (self->buffer, name,
                                  "weight", PANGO_WEIGHT_BOLD,
                                  "scale", scales[i],
                                  NULL);
    }

  gtk_text_buffer_create_tag (self->buffer, "em", "style", PANGO_STYLE_ITALIC, NULL);
  gtk_text_buffer_create_tag (self->buffer, "strong", "weight", PANGO_WEIGHT_BOLD, NULL);
  gtk_text_buffer_create_tag (self->buffer, "del", "strikethrough", TRUE, NULL);
  gtk_text_buffer_create_tag (self->buffer, "u", "underline", PANGO_UNDERLINE_SINGLE, NULL);
  gtk_text_buffer_create_tag (self->buffer, "code",
                              "family", "monospace",
                              "background-rgba", &shade,
                              NULL);
  gtk_text_buffer_create_tag (self->buffer, "code-block",
                              "family", "monospace",
                              "paragraph-background-rgba", &shade,
                              "wrap-mode", GTK_WRAP_CHAR,
                              NULL);
  gtk_text_buffer_create_tag (self->buffer, "code-header",
                              "paragraph-background-rgba", &shade,
                              "foreground-rgba", &dim,
                              "scale", 0.85,
                              NULL);
  gtk_text_buffer_create_tag (self->buffer, "quote", "style", PANGO_STYLE_ITALIC, NULL);
  gtk_text_buffer_create_tag (self->buffer, "hr",
                              "foreground-rgba", &dim,
                              "justification", GTK_JUSTIFY_CENTER,
                              NULL);
  gtk_text_buffer_create_tag (self->buffer, "image", "style", PANGO_STYLE_ITALIC, NULL);
  gtk_text_buffer_create_tag (self->buffer, "link-url", "scale", 0.9, NULL);
  gtk_text_buffer_create_tag (self->buffer, "gap", "pixels-above-lines", 8, NULL);
  self->link_tag = gtk_text_buffer_create_tag (self->buffer, "link",
                                               "underline", PANGO_UNDERLINE_SINGLE,
                                               NULL);
}

static void
update_link_colour (StewardMarkdownView *self)
{
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  /* The accent blue of the light and the dark style. */
  GdkRGBA colour;

  gdk_rgba_parse (&colour, dark ? "#78aeed" : "#1c71d8");
  g_object_set (self->link_tag, "foreground-rgba", &colour, NULL);
  g_object_set (gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (self->buffer),
                                           "link-url"),
                "foreground-rgba", &colour, NULL);
}

static void
drop_tags (StewardMarkdownView *self,
           GPtrArray           *tags)
{
  GtkTextTagTable *table = gtk_text_buffer_get_tag_table (self->buffer);

  for (guint i = 0; i < tags->len; i++)
    gtk_text_tag_table_remove (table, g_ptr_array_index (tags, i));
  g_ptr_array_set_size (tags, 0);
}

/* Finding where finished blocks end. */

static gboolean
is_blank (const char *text,
          gsize       length)
{
  for (gsize i = 0; i < length; i++)
    {
      if (text[i] != ' ' && text[i] != '\t')
        return FALSE;
    }

  return TRUE;
}

static void
scan_line (StewardMarkdownView *self,
           gsize                start,
           gsize                end)
{
  const char *line = self->source->str + start;
  gsize length = end - start;
  gsize indent = 0;
  gsize run = 0;

  if (length > 0 && line[length - 1] == '\r')
    length--;
  while (indent < length && (line[indent] == ' ' || line[indent] == '\t'))
    indent++;

  if (self->in_fence)
    {
      while (indent + run < length && line[indent + run] == self->fence_char)
        run++;
      if (run >= self->fence_len && is_blank (line + indent + run, length - indent - run))
        self->in_fence = FALSE;
      return;
    }

  if (indent == length)
    {
      self->blank_before = TRUE;
      return;
    }

  /* A line at the margin after a blank line starts a new top-level block:
   * everything before it is finished. An indented one may still belong to
   * a list item or be code, so it is not a place to cut. */
  if (self->blank_before && indent == 0 && start > 0)
    self->split_len = start;
  self->blank_before = FALSE;

  if (line[indent] == '`' || line[indent] == '~')
    {
      char c = line[indent];

      while (indent + run < length && line[indent + run] == c)
        run++;
      if (run >= 3 && (c == '~' || memchr (line + indent + run, '`',
                                          length - indent - run) == NULL))
        {
          self->in_fence = TRUE;
          self->fence_char = c;
          self->fence_len = run;
        }
    }
  else if (indent <= 3 && line[indent] == '[' &&
           g_strstr_len (line + indent, length - indent, "]:") != NULL &&
           self->refdefs->len + length < MAX_REFDEFS)
    {
      g_string_append_len (self->refdefs, line, length);
      g_string_append_c (self->refdefs, '\n');
      if (self->frozen_len > 0)
        self->refs_late = TRUE;
    }
}

static void
scan_lines (StewardMarkdownView *self)
{
  const char *text = self->source->str;
  gsize length = self->source->len;
  gsize position = self->scanned_len;

  while (position < length)
    {
      const char *newline = memchr (text + position, '\n', length - position);

      if (newline == NULL)
        break;

      scan_line (self, position, newline - text);
      position = newline - text + 1;
    }

  self->scanned_len = position;
}

static void
render_tail (StewardMarkdownView *self)
{
  GtkTextIter start, end;

  self->last_parsed = 0;
  scan_lines (self);

  gtk_text_buffer_get_iter_at_mark (self->buffer, &start, self->frozen_mark);
  gtk_text_buffer_get_end_iter (self->buffer, &end);
  gtk_text_buffer_delete (self->buffer, &start, &end);
  drop_tags (self, self->tail_tags);

  if (self->split_len > self->frozen_len)
    {
      steward_markdown_render_range (self, self->frozen_len, self->split_len, self->frozen_tags);
      gtk_text_buffer_get_end_iter (self->buffer, &end);
      gtk_text_buffer_move_mark (self->buffer, self->frozen_mark, &end);
      self->frozen_len = self->split_len;
    }

  steward_markdown_render_range (self, self->frozen_len, self->source->len, self->tail_tags);
}

static void
render_all (StewardMarkdownView *self)
{
  GtkTextIter start;

  gtk_text_buffer_set_text (self->buffer, "", 0);
  gtk_text_buffer_get_start_iter (self->buffer, &start);
  gtk_text_buffer_move_mark (self->buffer, self->frozen_mark, &start);
  drop_tags (self, self->frozen_tags);
  drop_tags (self, self->tail_tags);

  self->frozen_len = 0;
  self->scanned_len = 0;
  self->split_len = 0;
  self->blank_before = FALSE;
  self->in_fence = FALSE;
  self->refs_late = FALSE;
  g_string_truncate (self->refdefs, 0);

  /* Every definition is known before anything is drawn. */
  scan_lines (self);
  self->refs_late = FALSE;
  render_tail (self);
}

/* Links. */

static const char *
uri_at_iter (GtkTextIter *iter)
{
  g_autoptr(GSList) tags = gtk_text_iter_get_tags (iter);
  const char *uri = NULL;

  /* Ascending priority: the innermost link, made last, wins. */
  for (GSList *l = tags; l != NULL; l = l->next)
    {
      const char *found = g_object_get_data (l->data, URI_KEY);

      if (found != NULL)
        uri = found;
    }

  return uri;
}

static gboolean
iter_at_point (StewardMarkdownView *self,
               double               x,
               double               y,
               GtkTextIter         *iter)
{
  int bx, by;

  gtk_text_view_window_to_buffer_coords (self->text_view, GTK_TEXT_WINDOW_WIDGET,
                                         (int) x, (int) y, &bx, &by);
  return gtk_text_view_get_iter_at_location (self->text_view, iter, bx, by);
}

static void
show_uri_default (GtkWindow  *parent,
                  const char *uri,
                  gpointer    user_data)
{
  /* The desktop's launcher, through the portal in Flatpak; never a shell. */
  gtk_show_uri (parent, uri, GDK_CURRENT_TIME);
}

static gboolean
open_uri (StewardMarkdownView *self,
          const char          *uri)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  g_autofree char *why = NULL;

  /* Checked at the click: the rule decides, not how the text looks. */
  why = check_uri (uri);
  if (why != NULL)
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return FALSE;
    }

  self->show_uri (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, uri, self->show_uri_data);
  return TRUE;
}

static void
click_released_cb (StewardMarkdownView *self,
                   int                  n_press,
                   double               x,
                   double               y,
                   GtkGestureClick     *gesture)
{
  GtkTextIter iter;
  const char *uri;

  /* A drag that selected text is not a click on a link. */
  if (n_press != 1 || gtk_text_buffer_get_has_selection (self->buffer))
    return;

  if (!iter_at_point (self, x, y, &iter))
    return;

  uri = uri_at_iter (&iter);
  if (uri != NULL)
    open_uri (self, uri);
}

static gboolean
key_pressed_cb (StewardMarkdownView   *self,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                GtkEventControllerKey *controller)
{
  GtkTextIter iter;
  const char *uri;

  if (keyval != GDK_KEY_Return && keyval != GDK_KEY_KP_Enter && keyval != GDK_KEY_ISO_Enter)
    return FALSE;

  gtk_text_buffer_get_iter_at_mark (self->buffer, &iter,
                                    gtk_text_buffer_get_insert (self->buffer));
  uri = uri_at_iter (&iter);
  if (uri == NULL)
    return FALSE;

  open_uri (self, uri);
  return TRUE;
}

static void
motion_cb (StewardMarkdownView      *self,
           double                    x,
           double                    y,
           GtkEventControllerMotion *controller)
{
  GtkTextIter iter;
  gboolean on_link = iter_at_point (self, x, y, &iter) && uri_at_iter (&iter) != NULL;

  gtk_widget_set_cursor_from_name (GTK_WIDGET (self->text_view), on_link ? "pointer" : "text");
}

static gboolean
query_tooltip_cb (StewardMarkdownView *self,
                  int                  x,
                  int                  y,
                  gboolean             keyboard,
                  GtkTooltip          *tooltip,
                  GtkTextView         *text_view)
{
  g_autofree char *visible = NULL;
  g_autofree char *text = NULL;
  g_autofree char *why = NULL;
  GtkTextIter iter;
  const char *uri;

  if (keyboard)
    gtk_text_buffer_get_iter_at_mark (self->buffer, &iter,
                                      gtk_text_buffer_get_insert (self->buffer));
  else if (!iter_at_point (self, x, y, &iter))
    return FALSE;

  uri = uri_at_iter (&iter);
  if (uri == NULL)
    return FALSE;

  why = check_uri (uri);
  visible = steward_markdown_visible_uri (uri);
  /* Translators: a tooltip; %s is a web address. */
  text = why != NULL ? g_strdup_printf ("%s\n%s", visible, why)
                     : g_strdup_printf (_("Open %s"), visible);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
copy_code_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget),
                          g_variant_get_string (parameter, NULL));
}

/* Sizing. A text view with widgets in it asks for more height than its
 * text takes (the widgets counted twice), which leaves a gap under every
 * code block and table. The text's own height is known once it is laid
 * out at a width: the bottom of its last line. */

static int
content_height (StewardMarkdownView *self,
                int                  for_size)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self->text_view));
  GtkTextIter end;
  int y, height;

  if (width <= 0 || (for_size >= 0 && for_size != width))
    return -1;

  gtk_text_buffer_get_end_iter (self->buffer, &end);
  gtk_text_view_get_line_yrange (self->text_view, &end, &y, &height);
  return y + height +
         gtk_text_view_get_top_margin (self->text_view) +
         gtk_text_view_get_bottom_margin (self->text_view);
}

static gboolean
resize_cb (gpointer user_data)
{
  StewardMarkdownView *self = user_data;

  self->resize_id = 0;
  gtk_widget_queue_resize (GTK_WIDGET (self));
  return G_SOURCE_REMOVE;
}

static void
steward_markdown_view_measure (GtkWidget      *widget,
                               GtkOrientation  orientation,
                               int             for_size,
                               int            *minimum,
                               int            *natural,
                               int            *minimum_baseline,
                               int            *natural_baseline)
{
  StewardMarkdownView *self = STEWARD_MARKDOWN_VIEW (widget);

  *minimum = *natural = 0;
  *minimum_baseline = *natural_baseline = -1;
  if (self->text_view == NULL)
    return;

  gtk_widget_measure (GTK_WIDGET (self->text_view), orientation, for_size, minimum, natural,
                      NULL, NULL);

  if (orientation == GTK_ORIENTATION_VERTICAL)
    {
      int height = content_height (self, for_size);

      self->reported_height = height;
      if (height >= 0)
        *minimum = *natural = height;
    }
}

static void
steward_markdown_view_size_allocate (GtkWidget *widget,
                                     int        width,
                                     int        height,
                                     int        baseline)
{
  StewardMarkdownView *self = STEWARD_MARKDOWN_VIEW (widget);
  int minimum = 0;
  int text_height;

  if (self->text_view == NULL)
    return;

  /* The text view gets all it asks for; what is past the text is empty
   * and cut off (the view hides its overflow). */
  gtk_widget_measure (GTK_WIDGET (self->text_view), GTK_ORIENTATION_VERTICAL, width,
                      &minimum, NULL, NULL, NULL);
  gtk_widget_allocate (GTK_WIDGET (self->text_view), width, MAX (height, minimum), baseline,
                       NULL);

  /* Laid out at this width now: if the text turned out taller or shorter
   * than what was asked for before, ask again, after this allocation. A
   * parent may well give more than was asked; that is no reason. */
  text_height = content_height (self, width);
  if (text_height >= 0 && text_height != self->reported_height && self->resize_id == 0 &&
      (width != self->resized_width || text_height != self->resized_height))
    {
      /* Once for each width and height, so that a parent that measures at
       * another width than it gives cannot start an endless loop. */
      self->resized_width = width;
      self->resized_height = text_height;
      self->resize_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, resize_cb, self, NULL);
    }
}

static void
steward_markdown_view_dispose (GObject *object)
{
  StewardMarkdownView *self = STEWARD_MARKDOWN_VIEW (object);

  g_clear_handle_id (&self->resize_id, g_source_remove);

  /* The text view is the bin's own child: the bin lets it go first, so
   * that it does not unparent it a second time. */
  adw_bin_set_child (ADW_BIN (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), STEWARD_TYPE_MARKDOWN_VIEW);
  g_clear_object (&self->buffer);

  G_OBJECT_CLASS (steward_markdown_view_parent_class)->dispose (object);
}

static void
steward_markdown_view_finalize (GObject *object)
{
  StewardMarkdownView *self = STEWARD_MARKDOWN_VIEW (object);

  g_string_free (self->source, TRUE);
  g_string_free (self->refdefs, TRUE);
  g_ptr_array_unref (self->frozen_tags);
  g_ptr_array_unref (self->tail_tags);

  G_OBJECT_CLASS (steward_markdown_view_parent_class)->finalize (object);
}

static void
steward_markdown_view_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  StewardMarkdownView *self = STEWARD_MARKDOWN_VIEW (object);

  switch (prop_id)
    {
    case PROP_TEXT:
      g_value_set_string (value, self->source->str);
      break;
    case PROP_STREAMING:
      g_value_set_boolean (value, self->streaming);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_markdown_view_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  StewardMarkdownView *self = STEWARD_MARKDOWN_VIEW (object);

  switch (prop_id)
    {
    case PROP_TEXT:
      steward_markdown_view_set_text (self, g_value_get_string (value));
      break;
    case PROP_STREAMING:
      steward_markdown_view_set_streaming (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_markdown_view_class_init (StewardMarkdownViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = steward_markdown_view_dispose;
  object_class->finalize = steward_markdown_view_finalize;
  object_class->get_property = steward_markdown_view_get_property;
  object_class->set_property = steward_markdown_view_set_property;

  widget_class->measure = steward_markdown_view_measure;
  widget_class->size_allocate = steward_markdown_view_size_allocate;

  properties[PROP_TEXT] =
    g_param_spec_string ("text", NULL, NULL,
                         "",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  properties[PROP_STREAMING] =
    g_param_spec_boolean ("streaming", NULL, NULL,
                          FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/stewardmcp/Steward/"
                                                             "steward-markdown-view.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardMarkdownView, text_view);
  gtk_widget_class_bind_template_callback (widget_class, click_released_cb);
  gtk_widget_class_bind_template_callback (widget_class, key_pressed_cb);
  gtk_widget_class_bind_template_callback (widget_class, motion_cb);
  gtk_widget_class_bind_template_callback (widget_class, query_tooltip_cb);

  gtk_widget_class_install_action (widget_class, "markdown.copy-code", "s", copy_code_action);
}

static void
steward_markdown_view_init (StewardMarkdownView *self)
{
  GtkTextIter start;

  self->source = g_string_new (NULL);
  self->refdefs = g_string_new (NULL);
  self->frozen_tags = g_ptr_array_new ();
  self->tail_tags = g_ptr_array_new ();
  self->show_uri = show_uri_default;
  self->reported_height = -1;

  gtk_widget_init_template (GTK_WIDGET (self));
  /* The bin's layout manager would measure and place the text view in
   * place of the functions above. */
  gtk_widget_set_layout_manager (GTK_WIDGET (self), NULL);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);

  self->buffer = g_object_ref (gtk_text_view_get_buffer (self->text_view));
  create_tags (self);
  gtk_text_buffer_get_start_iter (self->buffer, &start);
  self->frozen_mark = gtk_text_buffer_create_mark (self->buffer, NULL, &start, TRUE);

  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (update_link_colour), self, G_CONNECT_SWAPPED);
  update_link_colour (self);
}

GtkWidget *
steward_markdown_view_new (void)
{
  return g_object_new (STEWARD_TYPE_MARKDOWN_VIEW, NULL);
}

const char *
steward_markdown_view_get_text (StewardMarkdownView *self)
{
  g_return_val_if_fail (STEWARD_IS_MARKDOWN_VIEW (self), NULL);

  return self->source->str;
}

void
steward_markdown_view_set_text (StewardMarkdownView *self,
                                const char          *text)
{
  g_return_if_fail (STEWARD_IS_MARKDOWN_VIEW (self));

  if (text == NULL)
    text = "";

  if (g_str_equal (text, self->source->str))
    return;

  /* A stream that grew: only its unfinished blocks are drawn again. */
  if (self->source->len > 0 && g_str_has_prefix (text, self->source->str))
    {
      g_string_append (self->source, text + self->source->len);
      render_tail (self);
    }
  else
    {
      g_string_assign (self->source, text);
      render_all (self);
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXT]);
}

void
steward_markdown_view_append (StewardMarkdownView *self,
                              const char          *delta)
{
  g_return_if_fail (STEWARD_IS_MARKDOWN_VIEW (self));

  if (delta == NULL || *delta == '\0')
    return;

  g_string_append (self->source, delta);
  render_tail (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXT]);
}

gboolean
steward_markdown_view_get_streaming (StewardMarkdownView *self)
{
  g_return_val_if_fail (STEWARD_IS_MARKDOWN_VIEW (self), FALSE);

  return self->streaming;
}

void
steward_markdown_view_set_streaming (StewardMarkdownView *self,
                                     gboolean             streaming)
{
  g_return_if_fail (STEWARD_IS_MARKDOWN_VIEW (self));

  streaming = !!streaming;
  if (self->streaming == streaming)
    return;

  self->streaming = streaming;

  /* A reference defined after a block that uses it was drawn: now that
   * the whole text is there, draw it once more so the link finds it. */
  if (!streaming && self->refs_late)
    render_all (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STREAMING]);
}

GtkTextView *
steward_markdown_view_get_text_view (StewardMarkdownView *self)
{
  g_return_val_if_fail (STEWARD_IS_MARKDOWN_VIEW (self), NULL);

  return self->text_view;
}

void
steward_markdown_view_set_show_uri_func (StewardMarkdownView        *self,
                                         StewardMarkdownShowUriFunc  func,
                                         gpointer                    user_data)
{
  g_return_if_fail (STEWARD_IS_MARKDOWN_VIEW (self));

  self->show_uri = func != NULL ? func : show_uri_default;
  self->show_uri_data = func != NULL ? user_data : NULL;
}

const char *
steward_markdown_view_get_uri_at (StewardMarkdownView *self,
                                  int                  offset)
{
  GtkTextIter iter;

  g_return_val_if_fail (STEWARD_IS_MARKDOWN_VIEW (self), NULL);

  gtk_text_buffer_get_iter_at_offset (self->buffer, &iter, offset);
  return uri_at_iter (&iter);
}

gboolean
steward_markdown_view_activate_at (StewardMarkdownView *self,
                                   int                  offset)
{
  const char *uri;

  g_return_val_if_fail (STEWARD_IS_MARKDOWN_VIEW (self), FALSE);

  uri = steward_markdown_view_get_uri_at (self, offset);
  return uri != NULL && open_uri (self, uri);
}

gsize
steward_markdown_view_get_last_parsed (StewardMarkdownView *self)
{
  g_return_val_if_fail (STEWARD_IS_MARKDOWN_VIEW (self), 0);

  return self->last_parsed;
}

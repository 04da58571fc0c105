/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-markdown-view"

#include "config.h"

#include <glib/gi18n.h>
#include <md4c.h>
#include <string.h>

#include "steward-text.h"
#include "steward-url.h"

#include "steward-markdown-view-private.h"

/* Drawing Markdown into the view's buffer: md4c parses a range of the
 * source and its callbacks insert the text with tags, tables as grids and
 * code blocks with a Copy button. steward-markdown-view.c decides which
 * range, and when. */

/* Entities: md4c finds them, the renderer decodes them. */

static const struct {
  const char *name;
  const char *text;
} named_entities[] = {
  { "amp", "&" }, { "lt", "<" }, { "gt", ">" }, { "quot", "\"" }, { "apos", "'" },
  { "nbsp", "\xc2\xa0" }, { "copy", "©" }, { "reg", "®" }, { "trade", "™" },
  { "hellip", "…" }, { "mdash", "—" }, { "ndash", "–" }, { "laquo", "«" },
  { "raquo", "»" }, { "ldquo", "“" }, { "rdquo", "”" }, { "lsquo", "‘" },
  { "rsquo", "’" }, { "times", "×" }, { "divide", "÷" }, { "deg", "°" },
  { "plusmn", "±" }, { "middot", "·" }, { "bull", "•" }, { "euro", "€" },
  { "larr", "←" }, { "rarr", "→" }, { "uarr", "↑" }, { "darr", "↓" },
  { "le", "≤" }, { "ge", "≥" }, { "ne", "≠" }, { "sect", "§" }, { "para", "¶" },
};

static void
append_entity (GString    *out,
               const char *text,
               gsize       size)
{
  g_autofree char *body = NULL;

  if (size < 3 || text[0] != '&' || text[size - 1] != ';')
    {
      g_string_append_len (out, text, size);
      return;
    }

  body = g_strndup (text + 1, size - 2);
  if (body[0] == '#')
    {
      gboolean hex = body[1] == 'x' || body[1] == 'X';
      guint64 value = 0;

      if (g_ascii_string_to_unsigned (body + (hex ? 2 : 1), hex ? 16 : 10, 1, 0x10ffff,
                                      &value, NULL) &&
          g_unichar_validate ((gunichar) value) && value != 0)
        g_string_append_unichar (out, (gunichar) value);
      else
        g_string_append (out, "\xef\xbf\xbd");
      return;
    }

  for (guint i = 0; i < G_N_ELEMENTS (named_entities); i++)
    {
      if (g_str_equal (named_entities[i].name, body))
        {
          g_string_append (out, named_entities[i].text);
          return;
        }
    }

  g_string_append_len (out, text, size);
}

static char *
attribute_to_string (const MD_ATTRIBUTE *attribute)
{
  GString *out = g_string_new (NULL);

  if (attribute->text == NULL || attribute->size == 0)
    return g_string_free (out, FALSE);

  for (guint i = 0; attribute->substr_offsets[i] < attribute->size; i++)
    {
      MD_OFFSET start = attribute->substr_offsets[i];
      MD_OFFSET end = attribute->substr_offsets[i + 1];

      switch (attribute->substr_types[i])
        {
        case MD_TEXT_ENTITY:
          append_entity (out, attribute->text + start, end - start);
          break;
        case MD_TEXT_NULLCHAR:
          g_string_append (out, "\xef\xbf\xbd");
          break;
        default:
          g_string_append_len (out, attribute->text + start, end - start);
          break;
        }
    }

  return g_string_free (out, FALSE);
}

/* Tags. */

static GtkTextTag *
lookup_tag (StewardMarkdownView *self,
            const char          *name)
{
  return gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (self->buffer), name);
}

static GtkTextTag *
margin_tag (StewardMarkdownView *self,
            guint                depth)
{
  g_autofree char *name = NULL;
  GtkTextTag *tag;

  if (depth == 0)
    return NULL;

  name = g_strdup_printf ("margin-%u", depth);
  tag = lookup_tag (self, name);
  if (tag == NULL)
    tag = gtk_text_buffer_create_tag (self->buffer, name,
                                      "left-margin", (int) MIN (depth, 12) * MARGIN_STEP,
                                      NULL);
  return tag;
}

/* Rendering one piece of text with md4c. */

typedef struct
{
  gboolean ordered;
  gboolean tight;
  guint    number;
} List;

typedef struct
{
  StewardMarkdownView *self;
  GPtrArray           *made_tags;
  GPtrArray           *spans;
  GArray              *lists;
  guint                quote_depth;
  GtkTextTag          *block_tag;
  gboolean             item_pending;
  gboolean             gap_pending;

  GString             *code;
  char                *code_lang;

  GString             *link_label;
  char                *link_uri;
  GtkTextTag          *link_uri_tag;
  char                *image_uri;
  GtkTextTag          *image_uri_tag;

  GPtrArray           *rows;
  GPtrArray           *row;
  GArray              *aligns;
  GString             *cell;
  guint                head_rows;
} Render;

static guint
render_depth (Render *render)
{
  return render->lists->len + render->quote_depth;
}

static void
insert_text (Render     *render,
             const char *text,
             gssize      length,
             GtkTextTag *extra)
{
  GtkTextBuffer *buffer = render->self->buffer;
  GtkTextTag *margin = margin_tag (render->self, render_depth (render));
  GtkTextIter start, end;
  int offset;

  gtk_text_buffer_get_end_iter (buffer, &end);
  offset = gtk_text_iter_get_offset (&end);
  gtk_text_buffer_insert (buffer, &end, text, length);
  gtk_text_buffer_get_iter_at_offset (buffer, &start, offset);

  if (margin != NULL)
    gtk_text_buffer_apply_tag (buffer, margin, &start, &end);
  if (render->quote_depth > 0)
    gtk_text_buffer_apply_tag_by_name (buffer, "quote", &start, &end);
  if (render->block_tag != NULL)
    gtk_text_buffer_apply_tag (buffer, render->block_tag, &start, &end);
  if (render->gap_pending)
    gtk_text_buffer_apply_tag_by_name (buffer, "gap", &start, &end);
  for (guint i = 0; i < render->spans->len; i++)
    gtk_text_buffer_apply_tag (buffer, g_ptr_array_index (render->spans, i), &start, &end);
  if (extra != NULL)
    gtk_text_buffer_apply_tag (buffer, extra, &start, &end);

  render->gap_pending = FALSE;
  render->item_pending = FALSE;
}

/* Text from the model, with what would be hidden made visible. */
static void
insert_visible (Render     *render,
                const char *text,
                gsize       length)
{
  g_autofree char *part = g_strndup (text, length);
  g_autofree char *visible = steward_text_make_visible (part);

  insert_text (render, visible, -1, NULL);
}

static gboolean
in_tight_list (Render *render)
{
  return render->lists->len > 0 &&
         g_array_index (render->lists, List, render->lists->len - 1).tight;
}

/* Every block starts on a line of its own, with a little space above it
 * unless it is an item of a tight list; the first block of a list item
 * goes on the item's line. */
static void
begin_block (Render *render)
{
  if (render->item_pending)
    {
      render->item_pending = FALSE;
      return;
    }

  if (gtk_text_buffer_get_char_count (render->self->buffer) > 0)
    {
      GtkTextIter end;

      gtk_text_buffer_get_end_iter (render->self->buffer, &end);
      gtk_text_buffer_insert (render->self->buffer, &end, "\n", 1);
      render->gap_pending = !in_tight_list (render);
    }
}

static GtkTextTag *
make_uri_tag (Render     *render,
              const char *uri)
{
  GtkTextTag *tag = gtk_text_tag_new (NULL);

  g_object_set_data_full (G_OBJECT (tag), URI_KEY, g_strdup (uri), g_free);
  gtk_text_tag_table_add (gtk_text_buffer_get_tag_table (render->self->buffer), tag);
  g_ptr_array_add (render->made_tags, tag);
  g_object_unref (tag);

  return tag;
}

static void
insert_uri (Render     *render,
            const char *uri,
            GtkTextTag *uri_tag)
{
  g_autofree char *visible = steward_markdown_visible_uri (uri);
  g_autofree char *shown = g_strdup_printf (" ⟨%s⟩", visible);
  GtkTextIter start, end;
  int offset;

  if (render->cell != NULL)
    {
      g_string_append (render->cell, shown);
      return;
    }

  gtk_text_buffer_get_end_iter (render->self->buffer, &end);
  offset = gtk_text_iter_get_offset (&end);
  insert_text (render, shown, -1, lookup_tag (render->self, "link-url"));
  gtk_text_buffer_get_iter_at_offset (render->self->buffer, &start, offset);
  gtk_text_buffer_get_end_iter (render->self->buffer, &end);
  gtk_text_buffer_apply_tag (render->self->buffer, uri_tag, &start, &end);
}

/* Whether the link's text already is its address, as for autolinks. */
static gboolean
label_is_uri (const char *label,
              const char *uri)
{
  g_autofree char *mailto = g_strconcat ("mailto:", label, NULL);
  g_autofree char *http = g_strconcat ("http://", label, NULL);

  return g_str_equal (label, uri) || g_str_equal (mailto, uri) || g_str_equal (http, uri);
}

static void
push_span (Render     *render,
           const char *name)
{
  g_ptr_array_add (render->spans, lookup_tag (render->self, name));
}

static void
pop_span (Render *render)
{
  if (render->spans->len > 0)
    g_ptr_array_remove_index (render->spans, render->spans->len - 1);
}

static GtkWidget *
make_copy_button (const char *code)
{
  GtkWidget *button = gtk_button_new_from_icon_name ("edit-copy-symbolic");

  gtk_widget_add_css_class (button, "flat");
  /* Setting the tooltip of a shown widget makes GTK look for the pointer,
   * a round trip to the display server: set while hidden, as a long
   * conversation has a code block in message after message. */
  gtk_widget_set_visible (button, FALSE);
  gtk_widget_set_tooltip_text (button, _("Copy Code"));
  gtk_widget_set_visible (button, TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Copy Code"),
                                  -1);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "markdown.copy-code");
  gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "s", code);

  return button;
}

static void
insert_anchor (Render     *render,
               GtkWidget  *child,
               GtkTextTag *extra)
{
  GtkTextBuffer *buffer = render->self->buffer;
  GtkTextChildAnchor *anchor;
  GtkTextIter start, end;
  int offset;

  gtk_text_buffer_get_end_iter (buffer, &end);
  offset = gtk_text_iter_get_offset (&end);
  anchor = gtk_text_buffer_create_child_anchor (buffer, &end);
  gtk_text_buffer_get_iter_at_offset (buffer, &start, offset);
  gtk_text_buffer_get_end_iter (buffer, &end);

  /* The anchor takes the line's tags like any character: its margin and
   * the space above. */
  if (margin_tag (render->self, render_depth (render)) != NULL)
    gtk_text_buffer_apply_tag (buffer, margin_tag (render->self, render_depth (render)),
                               &start, &end);
  if (render->gap_pending)
    gtk_text_buffer_apply_tag_by_name (buffer, "gap", &start, &end);
  if (extra != NULL)
    gtk_text_buffer_apply_tag (buffer, extra, &start, &end);
  render->gap_pending = FALSE;
  render->item_pending = FALSE;

  gtk_text_view_add_child_at_anchor (render->self->text_view, child, anchor);
}

static void
finish_code (Render *render)
{
  g_autofree char *visible = NULL;
  GtkTextTag *header = lookup_tag (render->self, "code-header");
  gsize length = render->code->len;

  /* The last line end closes the block; it is not part of the code. */
  if (length > 0 && render->code->str[length - 1] == '\n')
    g_string_truncate (render->code, length - 1);

  /* What is copied is what is shown, so that a hidden character cannot
   * ride along unseen into a terminal or an editor. */
  visible = steward_text_make_visible (render->code->str);

  begin_block (render);
  insert_anchor (render, make_copy_button (visible), header);
  if (render->code_lang != NULL && *render->code_lang != '\0')
    {
      g_autofree char *lang = g_strconcat (" ", render->code_lang, NULL);
      g_autofree char *visible_lang = steward_text_make_visible (lang);

      insert_text (render, visible_lang, -1, header);
    }
  insert_text (render, "\n", 1, header);
  insert_text (render, visible, -1, lookup_tag (render->self, "code-block"));

  g_string_free (g_steal_pointer (&render->code), TRUE);
  g_clear_pointer (&render->code_lang, g_free);
}

static void
free_row (gpointer data)
{
  g_ptr_array_unref (data);
}

static GtkWidget *
make_table (Render *render)
{
  GtkWidget *grid = gtk_grid_new ();
  GtkWidget *frame = gtk_frame_new (NULL);

  gtk_grid_set_column_spacing (GTK_GRID (grid), 18);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_widget_set_margin_top (grid, 8);
  gtk_widget_set_margin_bottom (grid, 8);
  gtk_widget_set_margin_start (grid, 12);
  gtk_widget_set_margin_end (grid, 12);
  gtk_accessible_update_property (GTK_ACCESSIBLE (grid),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Table"),
                                  -1);

  for (guint r = 0; r < render->rows->len; r++)
    {
      GPtrArray *row = g_ptr_array_index (render->rows, r);

      for (guint c = 0; c < row->len; c++)
        {
          g_autofree char *visible = steward_text_make_visible (g_ptr_array_index (row, c));
          GtkWidget *label = gtk_label_new (NULL);
          MD_ALIGN align = c < render->aligns->len
                           ? g_array_index (render->aligns, MD_ALIGN, c) : MD_ALIGN_DEFAULT;

          gtk_label_set_text (GTK_LABEL (label), visible);
          gtk_label_set_wrap (GTK_LABEL (label), TRUE);
          gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
          /* A text view gives the widgets in it their smallest size: a
           * short cell asks for its whole width, a long one wraps. */
          gtk_label_set_width_chars (GTK_LABEL (label),
                                     (int) MIN (g_utf8_strlen (visible, -1) + 1, 16));
          gtk_label_set_max_width_chars (GTK_LABEL (label), 40);
          gtk_label_set_xalign (GTK_LABEL (label),
                                align == MD_ALIGN_RIGHT ? 1.0 :
                                align == MD_ALIGN_CENTER ? 0.5 : 0.0);
          gtk_widget_set_valign (label, GTK_ALIGN_START);
          if (r < render->head_rows)
            gtk_widget_add_css_class (label, "heading");
          gtk_grid_attach (GTK_GRID (grid), label, c, r, 1, 1);
        }
    }

  gtk_frame_set_child (GTK_FRAME (frame), grid);

  return frame;
}

static void
finish_table (Render *render)
{
  begin_block (render);
  insert_anchor (render, make_table (render), NULL);

  g_clear_pointer (&render->rows, g_ptr_array_unref);
  g_clear_pointer (&render->aligns, g_array_unref);
}

static const char *
bullet_for (Render *render)
{
  static const char *const bullets[] = { "•", "◦", "▪" };
  guint level = 0;

  for (guint i = 0; i < render->lists->len; i++)
    {
      if (!g_array_index (render->lists, List, i).ordered)
        level++;
    }

  return bullets[(MAX (level, 1) - 1) % G_N_ELEMENTS (bullets)];
}

static int
enter_block_cb (MD_BLOCKTYPE  type,
                void         *detail,
                void         *user_data)
{
  Render *render = user_data;

  if (render->rows != NULL)
    {
      switch (type)
        {
        case MD_BLOCK_TR:
          render->row = g_ptr_array_new_with_free_func (g_free);
          break;
        case MD_BLOCK_TH:
        case MD_BLOCK_TD:
          if (render->rows->len == 0)
            {
              MD_ALIGN align = ((MD_BLOCK_TD_DETAIL *) detail)->align;

              g_array_append_val (render->aligns, align);
            }
          render->cell = g_string_new (NULL);
          break;
        default:
          break;
        }
      return 0;
    }

  switch (type)
    {
    case MD_BLOCK_QUOTE:
      render->quote_depth++;
      break;

    case MD_BLOCK_UL:
    case MD_BLOCK_OL:
      {
        List list = { 0, };

        list.ordered = type == MD_BLOCK_OL;
        if (list.ordered)
          {
            list.tight = ((MD_BLOCK_OL_DETAIL *) detail)->is_tight;
            list.number = ((MD_BLOCK_OL_DETAIL *) detail)->start;
          }
        else
          {
            list.tight = ((MD_BLOCK_UL_DETAIL *) detail)->is_tight;
          }
        g_array_append_val (render->lists, list);
      }
      break;

    case MD_BLOCK_LI:
      {
        MD_BLOCK_LI_DETAIL *item = detail;
        List *list = &g_array_index (render->lists, List, render->lists->len - 1);
        g_autofree char *marker = NULL;

        if (item->is_task)
          marker = g_strdup (item->task_mark == ' ' ? "☐ " : "☑ ");
        else if (list->ordered)
          marker = g_strdup_printf ("%u. ", list->number++);
        else
          marker = g_strconcat (bullet_for (render), " ", NULL);

        begin_block (render);
        insert_text (render, marker, -1, NULL);
        render->item_pending = TRUE;
      }
      break;

    case MD_BLOCK_H:
      {
        g_autofree char *name = g_strdup_printf ("h%u",
                                                 CLAMP (((MD_BLOCK_H_DETAIL *) detail)->level,
                                                        1, 6));

        begin_block (render);
        render->block_tag = lookup_tag (render->self, name);
      }
      break;

    case MD_BLOCK_CODE:
      render->code = g_string_new (NULL);
      render->code_lang = attribute_to_string (&((MD_BLOCK_CODE_DETAIL *) detail)->lang);
      break;

    case MD_BLOCK_HR:
      begin_block (render);
      insert_text (render, "———", -1, lookup_tag (render->self, "hr"));
      break;

    case MD_BLOCK_TABLE:
      render->rows = g_ptr_array_new_with_free_func (free_row);
      render->aligns = g_array_new (FALSE, FALSE, sizeof (MD_ALIGN));
      render->head_rows = 0;
      break;

    case MD_BLOCK_P:
    case MD_BLOCK_HTML:
      begin_block (render);
      break;

    case MD_BLOCK_DOC:
    default:
      break;
    }

  return 0;
}

static int
leave_block_cb (MD_BLOCKTYPE  type,
                void         *detail,
                void         *user_data)
{
  Render *render = user_data;

  if (render->rows != NULL)
    {
      switch (type)
        {
        case MD_BLOCK_THEAD:
          render->head_rows = render->rows->len;
          break;
        case MD_BLOCK_TR:
          g_ptr_array_add (render->rows, g_steal_pointer (&render->row));
          break;
        case MD_BLOCK_TH:
        case MD_BLOCK_TD:
          if (render->row != NULL)
            g_ptr_array_add (render->row, g_string_free (g_steal_pointer (&render->cell), FALSE));
          else
            g_string_free (g_steal_pointer (&render->cell), TRUE);
          break;
        case MD_BLOCK_TABLE:
          finish_table (render);
          break;
        default:
          break;
        }
      return 0;
    }

  switch (type)
    {
    case MD_BLOCK_QUOTE:
      render->quote_depth--;
      break;

    case MD_BLOCK_UL:
    case MD_BLOCK_OL:
      g_array_set_size (render->lists, render->lists->len - 1);
      break;

    case MD_BLOCK_LI:
      render->item_pending = FALSE;
      break;

    case MD_BLOCK_H:
      render->block_tag = NULL;
      break;

    case MD_BLOCK_CODE:
      finish_code (render);
      break;

    default:
      break;
    }

  return 0;
}

static int
enter_span_cb (MD_SPANTYPE  type,
               void        *detail,
               void        *user_data)
{
  Render *render = user_data;

  switch (type)
    {
    case MD_SPAN_EM:
      push_span (render, "em");
      break;
    case MD_SPAN_STRONG:
      push_span (render, "strong");
      break;
    case MD_SPAN_DEL:
      push_span (render, "del");
      break;
    case MD_SPAN_U:
      push_span (render, "u");
      break;
    case MD_SPAN_CODE:
      push_span (render, "code");
      break;

    case MD_SPAN_A:
      g_free (render->link_uri);
      render->link_uri = attribute_to_string (&((MD_SPAN_A_DETAIL *) detail)->href);
      if (render->link_label != NULL)
        g_string_free (render->link_label, TRUE);
      render->link_label = g_string_new (NULL);
      if (render->cell == NULL)
        {
          render->link_uri_tag = make_uri_tag (render, render->link_uri);
          g_ptr_array_add (render->spans, render->self->link_tag);
          g_ptr_array_add (render->spans, render->link_uri_tag);
        }
      break;

    case MD_SPAN_IMG:
      g_free (render->image_uri);
      render->image_uri = attribute_to_string (&((MD_SPAN_IMG_DETAIL *) detail)->src);
      if (render->cell != NULL)
        {
          g_string_append (render->cell, _("Image: "));
        }
      else
        {
          render->image_uri_tag = make_uri_tag (render, render->image_uri);
          push_span (render, "image");
          /* Translators: shown before an image's description; Steward never
           * fetches the image itself. */
          insert_text (render, _("Image: "), -1, NULL);
        }
      break;

    default:
      break;
    }

  return 0;
}

static int
leave_span_cb (MD_SPANTYPE  type,
               void        *detail,
               void        *user_data)
{
  Render *render = user_data;

  switch (type)
    {
    case MD_SPAN_EM:
    case MD_SPAN_STRONG:
    case MD_SPAN_DEL:
    case MD_SPAN_U:
    case MD_SPAN_CODE:
      pop_span (render);
      break;

    case MD_SPAN_A:
      {
        g_autoptr(GString) label = g_steal_pointer (&render->link_label);
        g_autofree char *uri = g_steal_pointer (&render->link_uri);
        GtkTextTag *uri_tag = render->link_uri_tag;

        render->link_uri_tag = NULL;
        if (render->cell == NULL)
          {
            pop_span (render);
            pop_span (render);
          }
        if (uri != NULL && label != NULL && !label_is_uri (label->str, uri))
          insert_uri (render, uri, uri_tag);
      }
      break;

    case MD_SPAN_IMG:
      {
        g_autofree char *uri = g_steal_pointer (&render->image_uri);
        GtkTextTag *uri_tag = render->image_uri_tag;

        render->image_uri_tag = NULL;
        if (render->cell == NULL)
          pop_span (render);
        if (uri != NULL && *uri != '\0')
          insert_uri (render, uri, uri_tag);
      }
      break;

    default:
      break;
    }

  return 0;
}

static int
text_cb (MD_TEXTTYPE   type,
         const MD_CHAR *text,
         MD_SIZE        size,
         void          *user_data)
{
  Render *render = user_data;
  g_autoptr(GString) decoded = NULL;
  const char *piece = text;
  gsize length = size;

  switch (type)
    {
    case MD_TEXT_NULLCHAR:
      piece = "\xef\xbf\xbd";
      length = 3;
      break;
    case MD_TEXT_BR:
      piece = render->cell != NULL ? " " : "\n";
      length = 1;
      break;
    case MD_TEXT_SOFTBR:
      piece = " ";
      length = 1;
      break;
    case MD_TEXT_ENTITY:
      decoded = g_string_new (NULL);
      append_entity (decoded, text, size);
      piece = decoded->str;
      length = decoded->len;
      break;
    default:
      break;
    }

  if (render->link_label != NULL)
    g_string_append_len (render->link_label, piece, length);

  if (render->code != NULL)
    g_string_append_len (render->code, piece, length);
  else if (render->cell != NULL)
    g_string_append_len (render->cell, piece, length);
  else
    insert_visible (render, piece, length);

  return 0;
}

void
steward_markdown_render_range (StewardMarkdownView *self,
              gsize                start,
              gsize                end,
              GPtrArray           *made_tags)
{
  MD_PARSER parser = {
    .abi_version = 0,
    .flags = PARSER_FLAGS,
    .enter_block = enter_block_cb,
    .leave_block = leave_block_cb,
    .enter_span = enter_span_cb,
    .leave_span = leave_span_cb,
    .text = text_cb,
  };
  Render render = { 0, };
  g_autoptr(GString) input = NULL;

  if (end <= start)
    return;

  render.self = self;
  render.made_tags = made_tags;
  render.spans = g_ptr_array_new ();
  render.lists = g_array_new (FALSE, FALSE, sizeof (List));

  /* Reference definitions seen anywhere before go first, so that a link
   * in a later block still finds its address; they draw nothing. */
  input = g_string_sized_new (self->refdefs->len + (end - start) + 2);
  if (self->refdefs->len > 0)
    {
      g_string_append_len (input, self->refdefs->str, self->refdefs->len);
      g_string_append_c (input, '\n');
    }
  g_string_append_len (input, self->source->str + start, end - start);
  self->last_parsed += input->len;

  md_parse (input->str, input->len, &parser, &render);

  g_ptr_array_unref (render.spans);
  g_array_unref (render.lists);
  if (render.code != NULL)
    g_string_free (render.code, TRUE);
  g_free (render.code_lang);
  if (render.link_label != NULL)
    g_string_free (render.link_label, TRUE);
  g_free (render.link_uri);
  g_free (render.image_uri);
  g_clear_pointer (&render.rows, g_ptr_array_unref);
  g_clear_pointer (&render.row, g_ptr_array_unref);
  g_clear_pointer (&render.aligns, g_array_unref);
  if (render.cell != NULL)
    g_string_free (render.cell, TRUE);
}


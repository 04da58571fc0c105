/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-markdown-view"

#include "config.h"

#include <glib/gi18n.h>
#include <md4c.h>
#include <string.h>

#include "steward-text.h"

#include "steward-markdown-view-private.h"
#include "steward-markdown-view.h"

/* GitHub's dialect, with HTML off: raw HTML is then ordinary text, which
 * is how it must be shown. */
#define PARSER_FLAGS (MD_DIALECT_GITHUB | MD_FLAG_NOHTML)

#define URI_KEY "steward-markdown-uri"
#define MARGIN_STEP 24
/* An address longer than this is cut where it is shown, and an address
 * that is not shown in full is never opened. */
#define MAX_URI_SHOWN 2048
/* Link reference definitions carried from one block to the next. */
#define MAX_REFDEFS (64 * 1024)

struct _StewardMarkdownView
{
  AdwBin                      parent_instance;

  GtkTextView                *text_view;
  GtkTextBuffer              *buffer;

  GString                    *source;
  gboolean                    streaming;

  /*
   * Incremental rendering: the text up to frozen_len is made of finished
   * blocks and was drawn for good, up to frozen_mark in the buffer; only
   * what follows (the tail) is parsed and drawn again when text arrives.
   * The tail's link tags go with it.
   */
  gsize                       frozen_len;
  GtkTextMark                *frozen_mark;
  GPtrArray                  *frozen_tags;
  GPtrArray                  *tail_tags;
  gsize                       last_parsed;

  /* Where the next finished block may start: scanned one complete line at
   * a time, so each change looks only at the new lines. */
  gsize                       scanned_len;
  gsize                       split_len;
  gboolean                    blank_before;
  gboolean                    in_fence;
  char                        fence_char;
  gsize                       fence_len;
  GString                    *refdefs;
  gboolean                    refs_late;

  GtkTextTag                 *link_tag;

  StewardMarkdownShowUriFunc  show_uri;
  gpointer                    show_uri_data;

  guint                       resize_id;
  int                         reported_height;
  int                         resized_width;
  int                         resized_height;
};

enum {
  PROP_0,
  PROP_TEXT,
  PROP_STREAMING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (StewardMarkdownView, steward_markdown_view, ADW_TYPE_BIN)

/* Addresses. */

static gboolean
host_is_loopback (const char *host)
{
  g_autoptr(GInetAddress) address = NULL;
  g_autofree char *bare = NULL;
  gsize len;

  if (host == NULL)
    return FALSE;

  if (g_ascii_strcasecmp (host, "localhost") == 0)
    return TRUE;

  len = strlen (host);
  if (len > 2 && host[0] == '[' && host[len - 1] == ']')
    bare = g_strndup (host + 1, len - 2);

  address = g_inet_address_new_from_string (bare != NULL ? bare : host);
  return address != NULL && g_inet_address_get_is_loopback (address);
}

/* Why @uri cannot be opened, or NULL when it can (docs/SECURITY.md: https, or
 * http to this computer, shown in full). */
static const char *
check_uri (const char *uri)
{
  g_autoptr(GUri) parsed = NULL;
  const char *scheme;
  const char *host;

  if (uri == NULL || strlen (uri) > MAX_URI_SHOWN)
    return _("This address is too long to show in full, so it is not opened");

  if (steward_text_has_hidden (uri) || strpbrk (uri, " \n") != NULL)
    return _("This address holds hidden or invalid characters and is not opened");

  parsed = g_uri_parse (uri, G_URI_FLAGS_NONE, NULL);
  if (parsed == NULL)
    return _("This is not a valid address and is not opened");

  scheme = g_uri_get_scheme (parsed);
  host = g_uri_get_host (parsed);

  if (g_ascii_strcasecmp (scheme, "https") == 0 && host != NULL && *host != '\0')
    return NULL;

  if (g_ascii_strcasecmp (scheme, "http") == 0)
    return host_is_loopback (host)
           ? NULL
           : _("Plain http addresses open only on this computer; this one goes elsewhere");

  return _("Only https addresses, and http addresses on this computer, are opened");
}

static char *
visible_uri (const char *uri)
{
  g_autofree char *visible = NULL;

  if (strlen (uri) <= MAX_URI_SHOWN)
    return steward_text_make_visible (uri);

  visible = steward_text_make_visible_capped (uri, MAX_URI_SHOWN, NULL);
  return g_steal_pointer (&visible);
}

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
  g_object_set (lookup_tag (self, "link-url"), "foreground-rgba", &colour, NULL);
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
  g_autofree char *visible = visible_uri (uri);
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
  gtk_widget_set_tooltip_text (button, _("Copy Code"));
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

static void
render_range (StewardMarkdownView *self,
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
      render_range (self, self->frozen_len, self->split_len, self->frozen_tags);
      gtk_text_buffer_get_end_iter (self->buffer, &end);
      gtk_text_buffer_move_mark (self->buffer, self->frozen_mark, &end);
      self->frozen_len = self->split_len;
    }

  render_range (self, self->frozen_len, self->source->len, self->tail_tags);
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

  /* Checked at the click: the rule decides, not how the text looks. */
  if (check_uri (uri) != NULL)
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
  GtkTextIter iter;
  const char *uri;
  const char *why;

  if (keyboard)
    gtk_text_buffer_get_iter_at_mark (self->buffer, &iter,
                                      gtk_text_buffer_get_insert (self->buffer));
  else if (!iter_at_point (self, x, y, &iter))
    return FALSE;

  uri = uri_at_iter (&iter);
  if (uri == NULL)
    return FALSE;

  why = check_uri (uri);
  visible = visible_uri (uri);
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

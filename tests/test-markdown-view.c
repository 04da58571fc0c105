/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "steward-markdown-view-private.h"
#include "steward-markdown-view.h"
#include "test-widgets.h"

#define OBJ "\xef\xbf\xbc"

typedef struct {
  guint  count;
  char  *uri;
} Launches;

static void
record_uri (GtkWindow  *parent,
            const char *uri,
            gpointer    user_data)
{
  Launches *launches = user_data;

  launches->count++;
  g_free (launches->uri);
  launches->uri = g_strdup (uri);
}

static StewardMarkdownView *
view_new (const char *text)
{
  StewardMarkdownView *view = STEWARD_MARKDOWN_VIEW (steward_markdown_view_new ());

  g_object_ref_sink (view);
  steward_markdown_view_set_text (view, text);
  return view;
}

static GtkTextBuffer *
buffer_of (StewardMarkdownView *view)
{
  return gtk_text_view_get_buffer (steward_markdown_view_get_text_view (view));
}

static char *
buffer_text (StewardMarkdownView *view)
{
  GtkTextBuffer *buffer = buffer_of (view);
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_slice (buffer, &start, &end, TRUE);
}

/* Character offset of the first @needle in the buffer's text. */
static int
offset_of (StewardMarkdownView *view,
           const char          *needle)
{
  g_autofree char *text = buffer_text (view);
  const char *found = strstr (text, needle);

  g_assert_nonnull (found);
  return (int) g_utf8_pointer_to_offset (text, found);
}

static gboolean
has_tag_at (StewardMarkdownView *view,
            int                  offset,
            const char          *name)
{
  GtkTextBuffer *buffer = buffer_of (view);
  GtkTextTag *tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer), name);
  GtkTextIter iter;

  if (tag == NULL)
    return FALSE;

  gtk_text_buffer_get_iter_at_offset (buffer, &iter, offset);
  return gtk_text_iter_has_tag (&iter, tag);
}

static gboolean
tag_on (StewardMarkdownView *view,
        const char          *needle,
        const char          *name)
{
  return has_tag_at (view, offset_of (view, needle), name);
}

static void
assert_text (StewardMarkdownView *view,
             const char          *expected)
{
  g_autofree char *text = buffer_text (view);

  g_assert_cmpstr (text, ==, expected);
}

/* The buffer as text with the names of the tags on each character and
 * the address of any link, to compare two renderings. */
static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(char **) a, *(char **) b);
}

static char *
dump (StewardMarkdownView *view)
{
  GtkTextBuffer *buffer = buffer_of (view);
  GString *out = g_string_new (NULL);
  GtkTextIter iter;

  for (gtk_text_buffer_get_start_iter (buffer, &iter);
       !gtk_text_iter_is_end (&iter);
       gtk_text_iter_forward_char (&iter))
    {
      g_autoptr(GSList) tags = gtk_text_iter_get_tags (&iter);
      const char *uri = steward_markdown_view_get_uri_at (view, gtk_text_iter_get_offset (&iter));
      g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

      g_string_append_unichar (out, gtk_text_iter_get_char (&iter));
      for (GSList *l = tags; l != NULL; l = l->next)
        {
          g_autofree char *name = NULL;

          g_object_get (l->data, "name", &name, NULL);
          if (name != NULL)
            g_ptr_array_add (names, g_steal_pointer (&name));
        }
      g_ptr_array_sort (names, compare_names);
      g_string_append_c (out, '[');
      for (guint i = 0; i < names->len; i++)
        g_string_append_printf (out, "%s,", (char *) g_ptr_array_index (names, i));
      if (uri != NULL)
        g_string_append (out, uri);
      g_string_append_c (out, ']');
    }

  return g_string_free (out, FALSE);
}

static void
test_headings (void)
{
  StewardMarkdownView *view = view_new ("# Title\n\nSome text\n\n### Third\nmore");

  assert_text (view, "Title\nSome text\nThird\nmore");
  g_assert_true (tag_on (view, "Title", "h1"));
  g_assert_false (tag_on (view, "Some", "h1"));
  g_assert_true (tag_on (view, "Third", "h3"));
  g_assert_false (tag_on (view, "more", "h3"));
  /* Blocks after the first have room above them. */
  g_assert_true (tag_on (view, "Some", "gap"));
  g_assert_false (tag_on (view, "Title", "gap"));

  g_assert_finalize_object (view);
}

static void
test_emphasis (void)
{
  StewardMarkdownView *view = view_new ("*a* **b** ~~c~~ `d <e>` ***f***");

  assert_text (view, "a b c d <e> f");
  g_assert_true (tag_on (view, "a", "em"));
  g_assert_false (tag_on (view, "a", "strong"));
  g_assert_true (tag_on (view, "b", "strong"));
  g_assert_true (tag_on (view, "c", "del"));
  g_assert_true (tag_on (view, "d <e>", "code"));
  g_assert_true (tag_on (view, "f", "em"));
  g_assert_true (tag_on (view, "f", "strong"));
  g_assert_false (tag_on (view, " b", "strong"));

  g_assert_finalize_object (view);
}

static void
test_lists (void)
{
  StewardMarkdownView *view = view_new ("- one\n- two\n  - inner\n\n"
                                        "3. third\n4. fourth\n\n"
                                        "- [ ] todo\n- [x] done\n\n"
                                        "> quoted *text*\n\nafter");

  assert_text (view, "• one\n• two\n◦ inner\n3. third\n4. fourth\n☐ todo\n☑ done\n"
                     "quoted text\nafter");
  g_assert_true (tag_on (view, "• one", "margin-1"));
  g_assert_true (tag_on (view, "◦ inner", "margin-2"));
  g_assert_true (tag_on (view, "3. third", "margin-1"));
  /* A tight list has no room between its items. */
  g_assert_false (tag_on (view, "• two", "gap"));
  g_assert_true (tag_on (view, "quoted", "quote"));
  g_assert_true (tag_on (view, "quoted", "margin-1"));
  g_assert_true (tag_on (view, "text", "em"));
  g_assert_false (tag_on (view, "after", "quote"));
  g_assert_false (tag_on (view, "after", "margin-1"));

  g_assert_finalize_object (view);
}

static void
read_text_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  char **text = user_data;
  g_autoptr(GError) error = NULL;

  *text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (object), result, &error);
  g_assert_no_error (error);
}

static gboolean
is_set (gpointer data)
{
  return *(char **) data != NULL;
}

static GtkWidget *
find_button (GtkWidget *root)
{
  return test_find_by_type (root, GTK_TYPE_BUTTON);
}

static void
test_code_block (void)
{
  StewardMarkdownView *view = view_new ("Before\n\n```python\ndef f():\n    return \"<b>\"\n```\n");
  GtkWidget *window = gtk_window_new ();
  g_autofree char *copied = NULL;
  GtkWidget *button;

  assert_text (view, "Before\n" OBJ " python\ndef f():\n    return \"<b>\"");
  g_assert_true (tag_on (view, "def f", "code-block"));
  g_assert_true (tag_on (view, "return", "code-block"));
  g_assert_true (tag_on (view, " python", "code-header"));
  g_assert_false (tag_on (view, "Before", "code-block"));

  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  gtk_window_present (GTK_WINDOW (window));

  button = find_button (GTK_WIDGET (view));
  g_assert_nonnull (button);
  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (button)), ==,
                   "markdown.copy-code");
  g_signal_emit_by_name (button, "clicked");

  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (button), NULL, read_text_cb, &copied);
  test_wait_until (is_set, &copied, 5000);
  g_assert_cmpstr (copied, ==, "def f():\n    return \"<b>\"");

  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_finalize_object (view);
}

static void
test_table (void)
{
  StewardMarkdownView *view = view_new ("| Name | Size |\n|:-----|-----:|\n"
                                        "| *a* | 1 |\n| <i>b</i> | [x](https://x.example) |\n");
  GtkWidget *grid;
  GtkLabel *label;

  assert_text (view, OBJ);
  grid = test_find_by_type (GTK_WIDGET (view), GTK_TYPE_GRID);
  g_assert_nonnull (grid);

  label = GTK_LABEL (gtk_grid_get_child_at (GTK_GRID (grid), 0, 0));
  g_assert_cmpstr (gtk_label_get_text (label), ==, "Name");
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (label), "heading"));
  label = GTK_LABEL (gtk_grid_get_child_at (GTK_GRID (grid), 1, 1));
  g_assert_cmpstr (gtk_label_get_text (label), ==, "1");
  g_assert_cmpfloat (gtk_label_get_xalign (label), ==, 1.0);
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (label), "heading"));
  label = GTK_LABEL (gtk_grid_get_child_at (GTK_GRID (grid), 0, 2));
  g_assert_cmpstr (gtk_label_get_text (label), ==, "<i>b</i>");
  g_assert_false (gtk_label_get_use_markup (label));
  label = GTK_LABEL (gtk_grid_get_child_at (GTK_GRID (grid), 1, 2));
  g_assert_cmpstr (gtk_label_get_text (label), ==, "x ⟨https://x.example⟩");

  g_assert_finalize_object (view);
}

static void
test_links (void)
{
  StewardMarkdownView *view = view_new ("See [the docs](https://example.com/a?b=1&amp;c=2) "
                                        "and <https://auto.example/> or "
                                        "[far](http://example.com/) "
                                        "[near](http://127.0.0.1:8080/x) "
                                        "[js](javascript:alert(1)) "
                                        "[ref][r]\n\n[r]: https://ref.example/");
  Launches launches = { 0, };

  steward_markdown_view_set_show_uri_func (view, record_uri, &launches);

  assert_text (view, "See the docs ⟨https://example.com/a?b=1&c=2⟩ and https://auto.example/ "
                     "or far ⟨http://example.com/⟩ near ⟨http://127.0.0.1:8080/x⟩ "
                     "js ⟨javascript:alert(1)⟩ ref ⟨https://ref.example/⟩");
  g_assert_true (tag_on (view, "the docs", "link"));
  g_assert_true (tag_on (view, "⟨https://example.com", "link-url"));
  g_assert_false (tag_on (view, "See", "link"));

  /* Nothing opens until a click. */
  g_assert_cmpuint (launches.count, ==, 0);

  g_assert_true (steward_markdown_view_activate_at (view, offset_of (view, "docs")));
  g_assert_cmpstr (launches.uri, ==, "https://example.com/a?b=1&c=2");
  /* The address shown is as clickable as the text. */
  g_assert_true (steward_markdown_view_activate_at (view, offset_of (view, "example.com/a")));
  g_assert_true (steward_markdown_view_activate_at (view, offset_of (view, "auto.example")));
  g_assert_cmpstr (launches.uri, ==, "https://auto.example/");
  g_assert_true (steward_markdown_view_activate_at (view, offset_of (view, "near")));
  g_assert_cmpstr (launches.uri, ==, "http://127.0.0.1:8080/x");
  g_assert_true (steward_markdown_view_activate_at (view, offset_of (view, "ref ⟨")));
  g_assert_cmpstr (launches.uri, ==, "https://ref.example/");
  g_assert_cmpuint (launches.count, ==, 5);

  /* Plain http elsewhere and other schemes never open. */
  g_assert_false (steward_markdown_view_activate_at (view, offset_of (view, "far")));
  g_assert_false (steward_markdown_view_activate_at (view, offset_of (view, "js ")));
  g_assert_false (steward_markdown_view_activate_at (view, offset_of (view, "See")));
  g_assert_cmpuint (launches.count, ==, 5);

  g_free (launches.uri);
  g_assert_finalize_object (view);
}

/* An address a browser reads as another site than GUri does, one with a
 * name before "@", and a file never open, in text or in the address. */
static void
test_deceptive_links (void)
{
  StewardMarkdownView *view = view_new ("[one](https://evil.example\\\\@accounts.google.com/) "
                                        "<https://evil.example\\@accounts.google.org/> "
                                        "[three](http://evil.example\\\\@127.0.0.1/) "
                                        "[four](https://accounts.google.com@evil.example/) "
                                        "[five](file:///etc/passwd) "
                                        "[six](https://good.example/)");
  Launches launches = { 0, };

  steward_markdown_view_set_show_uri_func (view, record_uri, &launches);

  g_assert_cmpstr (steward_markdown_view_get_uri_at (view, offset_of (view, "one")), ==,
                   "https://evil.example\\@accounts.google.com/");
  g_assert_false (steward_markdown_view_activate_at (view, offset_of (view, "one")));
  g_assert_false (steward_markdown_view_activate_at (view, offset_of (view, "google.org")));
  g_assert_false (steward_markdown_view_activate_at (view, offset_of (view, "three")));
  g_assert_false (steward_markdown_view_activate_at (view, offset_of (view, "four")));
  g_assert_false (steward_markdown_view_activate_at (view, offset_of (view, "five")));
  g_assert_cmpuint (launches.count, ==, 0);

  /* The same view still opens what is plain. */
  g_assert_true (steward_markdown_view_activate_at (view, offset_of (view, "six")));
  g_assert_cmpstr (launches.uri, ==, "https://good.example/");
  g_assert_cmpuint (launches.count, ==, 1);

  g_free (launches.uri);
  g_assert_finalize_object (view);
}

static void
test_markup_literal (void)
{
  StewardMarkdownView *view = view_new ("<b>x</b> <span foreground=\"red\">y</span> "
                                        "&lt;i&gt; &amp; &#x41;\n\n"
                                        "<script>alert(1)</script>\n\n"
                                        "<div>\n*block*\n</div>");
  GtkTextBuffer *buffer = buffer_of (view);
  GtkTextIter start, end;
  g_autofree char *text = NULL;

  assert_text (view, "<b>x</b> <span foreground=\"red\">y</span> <i> & A\n"
                     "<script>alert(1)</script>\n"
                     "<div> block </div>");
  g_assert_false (tag_on (view, "x<", "strong"));
  g_assert_false (tag_on (view, "y<", "link"));
  g_assert_true (tag_on (view, "block", "em"));

  /* Nothing in the buffer's tags came from the text. */
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  text = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  g_assert_nonnull (strstr (text, "<b>x</b>"));

  g_assert_finalize_object (view);
}

static void
test_image (void)
{
  StewardMarkdownView *view = view_new ("![a *cat*](https://img.example/cat.png \"title\")\n\n"
                                        "![](data:image/png;base64,AAAA)");
  Launches launches = { 0, };

  steward_markdown_view_set_show_uri_func (view, record_uri, &launches);

  assert_text (view, "Image: a cat ⟨https://img.example/cat.png⟩\n"
                     "Image:  ⟨data:image/png;base64,AAAA⟩");
  g_assert_true (tag_on (view, "Image: a", "image"));
  g_assert_true (tag_on (view, "cat", "em"));
  /* Nothing was drawn from the address: no picture, no image widget. */
  g_assert_null (test_find_by_type (GTK_WIDGET (view), GTK_TYPE_PICTURE));
  g_assert_null (test_find_by_type (GTK_WIDGET (view), GTK_TYPE_IMAGE));
  g_assert_cmpuint (launches.count, ==, 0);

  /* The address opens in the browser after a click, like a link; a data
   * address does not. */
  g_assert_true (steward_markdown_view_activate_at (view, offset_of (view, "img.example")));
  g_assert_cmpstr (launches.uri, ==, "https://img.example/cat.png");
  g_assert_false (steward_markdown_view_activate_at (view, offset_of (view, "data:")));
  g_assert_cmpuint (launches.count, ==, 1);

  g_free (launches.uri);
  g_assert_finalize_object (view);
}

static void
test_hidden_characters (void)
{
  StewardMarkdownView *view = view_new ("safe\xe2\x80\xae" "txt.exe and "
                                        "[x](https://a.example/\xe2\x80\x8b)");
  Launches launches = { 0, };

  steward_markdown_view_set_show_uri_func (view, record_uri, &launches);
  assert_text (view, "safe⟨U+202E⟩txt.exe and x ⟨https://a.example/⟨U+200B⟩⟩");
  g_assert_false (steward_markdown_view_activate_at (view, offset_of (view, "x ⟨")));
  g_assert_cmpuint (launches.count, ==, 0);

  g_assert_finalize_object (view);
}

static const char *const document =
  "# Streaming\n\n"
  "A paragraph with *emphasis*, **strong** and a [link](https://example.com/).\n\n"
  "- one\n- two\n  - nested `code`\n\n"
  "1. first\n2. second\n\n"
  "```c\nint\nmain (void)\n{\n\n  return 0;\n}\n```\n\n"
  "> a quote\n> on two lines\n\n"
  "| a | b |\n|---|---|\n| 1 | 2 |\n\n"
  "![alt](https://img.example/x.png)\n\n"
  "Last words with a [ref][r].\n\n"
  "[r]: https://ref.example/\n";

static void
test_streaming (void)
{
  StewardMarkdownView *streamed = view_new ("");
  StewardMarkdownView *whole = view_new (NULL);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *expected = NULL;
  g_autofree char *got = NULL;
  gsize length = strlen (document);
  gsize max_parsed = 0;
  guint appends = 0;

  steward_markdown_view_set_streaming (streamed, TRUE);

  /* 1,000 small pieces, cut anywhere, even inside a character. */
  for (guint i = 0; i < 1000; i++)
    {
      gsize end = (length * (i + 1)) / 1000;

      while (end < length && (document[end] & 0xc0) == 0x80)
        end++;
      if (end <= text->len)
        continue;

      g_string_append_len (text, document + text->len, end - text->len);
      steward_markdown_view_set_text (streamed, text->str);
      appends++;
      max_parsed = MAX (max_parsed, steward_markdown_view_get_last_parsed (streamed));
    }
  g_assert_cmpuint (appends, >=, length / 2);
  g_assert_cmpuint (text->len, ==, length);
  steward_markdown_view_set_streaming (streamed, FALSE);

  steward_markdown_view_set_text (whole, document);
  expected = dump (whole);
  got = dump (streamed);
  g_assert_cmpstr (got, ==, expected);

  /* Each piece parsed no more than the unfinished block it grew. */
  g_assert_cmpuint (max_parsed, <, 300);

  g_assert_finalize_object (streamed);
  g_assert_finalize_object (whole);
}

static void
test_long_stream_stays_cheap (void)
{
  StewardMarkdownView *view = view_new ("");
  gsize max_parsed = 0;

  for (guint i = 0; i < 1000; i++)
    {
      g_autofree char *piece = g_strdup_printf ("Paragraph %u has some words in it.%s", i,
                                                i % 4 == 3 ? "\n\n" : " ");

      steward_markdown_view_append (view, piece);
      max_parsed = MAX (max_parsed, steward_markdown_view_get_last_parsed (view));
    }

  /* 250 paragraphs; none parsed again once the next one started. */
  g_assert_cmpuint (max_parsed, <, 400);
  g_assert_cmpint (gtk_text_buffer_get_line_count (buffer_of (view)), ==, 250);

  g_assert_finalize_object (view);
}

static void
test_replace_text (void)
{
  StewardMarkdownView *view = view_new ("**first** [a](https://a.example/)");

  steward_markdown_view_set_text (view, "second");
  assert_text (view, "second");
  g_assert_false (tag_on (view, "second", "strong"));
  g_assert_null (steward_markdown_view_get_uri_at (view, 0));
  steward_markdown_view_set_text (view, NULL);
  assert_text (view, "");
  g_assert_cmpstr (steward_markdown_view_get_text (view), ==, "");

  g_assert_finalize_object (view);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/steward/markdown-view/headings", test_headings);
  g_test_add_func ("/steward/markdown-view/emphasis", test_emphasis);
  g_test_add_func ("/steward/markdown-view/lists", test_lists);
  g_test_add_func ("/steward/markdown-view/code-block", test_code_block);
  g_test_add_func ("/steward/markdown-view/table", test_table);
  g_test_add_func ("/steward/markdown-view/links", test_links);
  g_test_add_func ("/steward/markdown-view/deceptive-links", test_deceptive_links);
  g_test_add_func ("/steward/markdown-view/markup-literal", test_markup_literal);
  g_test_add_func ("/steward/markdown-view/image", test_image);
  g_test_add_func ("/steward/markdown-view/hidden-characters", test_hidden_characters);
  g_test_add_func ("/steward/markdown-view/streaming", test_streaming);
  g_test_add_func ("/steward/markdown-view/long-stream", test_long_stream_stays_cheap);
  g_test_add_func ("/steward/markdown-view/replace", test_replace_text);

  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-tool-result-view"

#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "steward-hyphenation.h"
#include "steward-text.h"
#include "steward-tool-result-view.h"
#include "test-widgets.h"

/* How a tool's result reads: large text in a scrolled text view, the
 * structured content folded away, and no text anywhere in the app that
 * gains a hyphen where Pango breaks a word. */

static McpToolResult *
result_from (const char *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();

  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);
  return mcp_tool_result_new (json_node_get_object (json_parser_get_root (parser)));
}

static gboolean
is_drawn (gpointer data)
{
  return gtk_widget_get_mapped (data) && gtk_widget_get_height (data) > 0;
}

static gboolean
is_tall (gpointer data)
{
  return gtk_widget_get_height (data) >= 480;
}

static GtkWindow *
present (GtkWidget *child,
         int        width)
{
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());

  gtk_window_set_default_size (window, width, 600);
  gtk_window_set_child (window, child);
  gtk_window_present (window);
  test_wait_until (is_drawn, child, 10000);

  return window;
}

static char *
buffer_text (GtkTextView *view)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

static void
test_structured_collapsed (void)
{
  g_autoptr(McpToolResult) result = NULL;
  GtkWidget *view;
  GtkWidget *expander;
  GtkWidget *json_view;
  GtkWindow *window;
  g_autofree char *json = NULL;

  result = result_from ("{\"content\":[{\"type\":\"text\",\"text\":\"It is 21 degrees.\"}],"
                        "\"structuredContent\":{\"temperature\":21,"
                        "\"line\":\"first\\nline jumps\"}}");
  view = steward_tool_result_view_new_for_result (result);
  window = present (view, 600);

  expander = steward_tool_result_view_get_structured_expander (STEWARD_TOOL_RESULT_VIEW (view));
  g_assert_true (gtk_widget_get_visible (expander));
  g_assert_false (gtk_expander_get_expanded (GTK_EXPANDER (expander)));
  /* The text content is shown beside it, not instead of it. */
  g_assert_nonnull (test_find_label (view, "It is 21 degrees."));
  g_assert_true (gtk_widget_is_drawable (GTK_WIDGET (test_find_label (view,
                                                                        "It is 21 degrees."))));

  /* A collapsed expander holds its child outside the widget tree. */
  json_view = test_find_by_type (gtk_expander_get_child (GTK_EXPANDER (expander)),
                                 GTK_TYPE_TEXT_VIEW);
  g_assert_nonnull (json_view);
  g_assert_false (gtk_widget_is_drawable (json_view));
  g_assert_false (gtk_text_view_get_editable (GTK_TEXT_VIEW (json_view)));
  g_assert_true (gtk_text_view_get_monospace (GTK_TEXT_VIEW (json_view)));
  json = buffer_text (GTK_TEXT_VIEW (json_view));
  g_assert_nonnull (strstr (json, "\"temperature\" : 21"));
  /* JSON escapes stay escapes: the text is the generator's, unchanged. */
  g_assert_nonnull (strstr (json, "first\\nline jumps"));

  gtk_expander_set_expanded (GTK_EXPANDER (expander), TRUE);
  test_wait_until (is_drawn, json_view, 10000);

  gtk_window_destroy (window);
}

static void
test_large_text (void)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(McpToolResult) result = NULL;
  g_autofree char *json = NULL;
  g_autofree char *shown = NULL;
  GtkWidget *view;
  GtkWidget *text_view;
  GtkWidget *scroller;
  GtkWindow *window;

  /* More than one view shows: the cut marker must stay. */
  while (text->len <= STEWARD_TEXT_DISPLAY_MAX)
    g_string_append (text, "The quick brown fox jumps over the lazy dog, line after line.\n");

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "content");
  json_builder_begin_array (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "text");
  json_builder_set_member_name (builder, "text");
  json_builder_add_string_value (builder, text->str);
  json_builder_end_object (builder);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json = json_generator_to_data (generator, NULL);

  result = result_from (json);
  view = steward_tool_result_view_new_for_result (result);
  steward_tool_result_view_set_text_height (STEWARD_TOOL_RESULT_VIEW (view), 500);
  window = present (view, 800);

  text_view = test_find_by_type (view, GTK_TYPE_TEXT_VIEW);
  g_assert_nonnull (text_view);
  g_assert_true (gtk_widget_is_drawable (text_view));
  g_assert_false (gtk_text_view_get_editable (GTK_TEXT_VIEW (text_view)));
  g_assert_true (gtk_text_view_get_monospace (GTK_TEXT_VIEW (text_view)));
  shown = buffer_text (GTK_TEXT_VIEW (text_view));
  g_assert_cmpuint (strlen (shown), <, text->len);
  g_assert_true (g_str_has_prefix (shown, "The quick brown fox"));

  /* The text takes the height it was given, not a small box. */
  scroller = gtk_widget_get_ancestor (text_view, GTK_TYPE_SCROLLED_WINDOW);
  g_assert_cmpint (gtk_scrolled_window_get_max_content_height (GTK_SCROLLED_WINDOW (scroller)),
                   ==, 500);
  /* The text view measures its lines in idle time, and grows as it does. */
  test_wait_until (is_tall, scroller, 10000);

  gtk_window_destroy (window);
}

static void
collect_unhyphenated (GtkWidget *widget,
                      GString   *offenders)
{
  if (GTK_IS_LABEL (widget) && !steward_label_keeps_words (GTK_LABEL (widget)))
    g_string_append_printf (offenders, "label “%s”\n", gtk_label_get_text (GTK_LABEL (widget)));

  if (GTK_IS_TEXT_VIEW (widget))
    {
      GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (widget));
      GtkTextTag *tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer),
                                                   "steward-keep-words");
      GtkTextIter start;
      gboolean hyphens = TRUE;

      gtk_text_buffer_get_start_iter (buffer, &start);
      if (tag != NULL)
        g_object_get (tag, "insert-hyphens", &hyphens, NULL);
      if (tag == NULL || hyphens ||
          (gtk_text_buffer_get_char_count (buffer) > 0 && !gtk_text_iter_has_tag (&start, tag)))
        g_string_append (offenders, "a text view\n");
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (gtk_widget_get_mapped (child))
        collect_unhyphenated (child, offenders);
    }
}

static void
test_no_hyphens (void)
{
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GString) offenders = g_string_new (NULL);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *list = gtk_list_box_new ();
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *label = gtk_label_new ("text/markdown application/vnd.example+json");
  GtkWidget *view;
  GtkWidget *expander;
  GtkWindow *window;

  steward_hyphenation_turn_off ();

  result = result_from ("{\"content\":[{\"type\":\"text\",\"text\":\"jumps\"}],"
                        "\"structuredContent\":{\"line\":\"jumps\"}}");
  view = steward_tool_result_view_new_for_result (result);
  /* libadwaita builds the labels of a row itself. */
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), "everything");
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row),
                               "npx -y @modelcontextprotocol/server-everything");
  gtk_list_box_append (GTK_LIST_BOX (list), row);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_CHAR);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), list);
  gtk_box_append (GTK_BOX (box), view);
  window = present (box, 120);

  expander = steward_tool_result_view_get_structured_expander (STEWARD_TOOL_RESULT_VIEW (view));
  gtk_expander_set_expanded (GTK_EXPANDER (expander), TRUE);
  test_wait_until (is_drawn, test_find_by_type (expander, GTK_TYPE_TEXT_VIEW), 10000);

  collect_unhyphenated (GTK_WIDGET (window), offenders);
  g_assert_cmpstr (offenders->str, ==, "");

  /* The rule holds for text set after the widget was shown. */
  gtk_label_set_text (GTK_LABEL (label), "@modelcontextprotocol");
  g_assert_true (steward_label_keeps_words (GTK_LABEL (label)));

  gtk_window_destroy (window);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/steward/tool-result-view/structured-collapsed", test_structured_collapsed);
  g_test_add_func ("/steward/tool-result-view/large-text", test_large_text);
  g_test_add_func ("/steward/tool-result-view/no-hyphens", test_no_hyphens);

  return g_test_run ();
}

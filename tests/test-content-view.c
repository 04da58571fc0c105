/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-content-view"

#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "steward-content-view-private.h"
#include "steward-text.h"

/* What each kind of content block turns into, as a person (or a screen
 * reader) meets it in the widget tree. */

#define TINY_PNG "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg=="
#define TINY_WAV "UklGRnQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YVAAAACAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgA=="

static gboolean
wait_tick_cb (gpointer user_data)
{
  return G_SOURCE_CONTINUE;
}

/* Runs the main loop until @condition holds, or fails after 10 s; a tick
 * wakes the loop to check a condition no source reports. */
#define wait_for(condition)                                                    \
  G_STMT_START {                                                              \
    gint64 wait_deadline_ = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;     \
    guint wait_tick_ = g_timeout_add (20, wait_tick_cb, NULL);                 \
    while (!(condition))                                                      \
      {                                                                       \
        if (g_get_monotonic_time () >= wait_deadline_)                        \
          g_error ("timed out waiting for: %s", #condition);                   \
        g_main_context_iteration (NULL, TRUE);                                \
      }                                                                       \
    g_source_remove (wait_tick_);                                             \
  } G_STMT_END

typedef struct {
  GtkWindow *window;
  GtkWidget *view;
} Shown;

static McpContent *
content_from (const char *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();

  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);
  return mcp_content_new (json_node_get_object (json_parser_get_root (parser)));
}

static Shown
show (const char *json)
{
  g_autoptr(McpContent) content = content_from (json);
  Shown shown;

  shown.window = GTK_WINDOW (gtk_window_new ());
  shown.view = g_object_ref (steward_content_view_new (content));
  gtk_window_set_child (shown.window, shown.view);
  gtk_window_present (shown.window);
  while (g_main_context_iteration (NULL, FALSE))
    ;

  return shown;
}

static void
shown_close (Shown *shown)
{
  gtk_window_destroy (shown->window);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_finalize_object (shown->view);
}

static void
collect (GtkWidget *widget,
         GType      type,
         GPtrArray *found)
{
  if (!gtk_widget_get_visible (widget))
    return;

  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    g_ptr_array_add (found, widget);

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect (child, type, found);
}

/* The visible widgets of @type under @root, in tree order. */
static GPtrArray *
find_all (GtkWidget *root,
          GType      type)
{
  GPtrArray *found = g_ptr_array_new ();

  collect (root, type, found);
  return found;
}

static GtkWidget *
find_one (GtkWidget *root,
          GType      type)
{
  g_autoptr(GPtrArray) found = find_all (root, type);

  return found->len > 0 ? g_ptr_array_index (found, 0) : NULL;
}

static GtkLabel *
find_label (GtkWidget  *root,
            const char *part)
{
  g_autoptr(GPtrArray) labels = find_all (root, GTK_TYPE_LABEL);

  for (guint i = 0; i < labels->len; i++)
    if (strstr (gtk_label_get_text (g_ptr_array_index (labels, i)), part) != NULL)
      return g_ptr_array_index (labels, i);

  return NULL;
}

static GtkButton *
find_button (GtkWidget  *root,
             const char *action)
{
  g_autoptr(GPtrArray) buttons = find_all (root, GTK_TYPE_BUTTON);

  for (guint i = 0; i < buttons->len; i++)
    if (g_strcmp0 (gtk_actionable_get_action_name (g_ptr_array_index (buttons, i)), action) == 0)
      return g_ptr_array_index (buttons, i);

  return NULL;
}

static char *
text_view_text (GtkTextView *view)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

/* Markup from a server is text: shown as written, never interpreted. */
static void
test_text_markup (void)
{
  Shown shown = show ("{\"type\":\"text\",\"text\":\"<b>x</b>\"}");
  GtkLabel *label = find_label (shown.view, "<b>x</b>");

  g_assert_nonnull (label);
  g_assert_cmpstr (gtk_label_get_text (label), ==, "<b>x</b>");
  g_assert_cmpstr (gtk_label_get_label (label), ==, "<b>x</b>");
  g_assert_false (gtk_label_get_use_markup (label));
  g_assert_true (gtk_label_get_selectable (label));
  g_assert_null (find_one (shown.view, GTK_TYPE_PICTURE));
  shown_close (&shown);
}

static void
test_text_hidden (void)
{
  Shown shown = show ("{\"type\":\"text\",\"text\":\"safe\\u202eevil\\u200b\"}");
  GtkLabel *label = find_label (shown.view, "safe");

  g_assert_nonnull (label);
  g_assert_cmpstr (gtk_label_get_text (label), ==, "safe⟨U+202E⟩evil⟨U+200B⟩");
  shown_close (&shown);
}

/* A megabyte of text is cut at the display cap, with a marker. */
static void
test_text_capped (void)
{
  gsize big = 1024 * 1024;
  g_autoptr(GString) json = g_string_new ("{\"type\":\"text\",\"text\":\"");
  g_autofree char *text = NULL;
  GtkWidget *view;
  Shown shown;

  for (gsize i = 0; i < big / 16; i++)
    g_string_append (json, "0123456789abcde\\n");
  g_string_append (json, "\"}");

  shown = show (json->str);
  view = find_one (shown.view, GTK_TYPE_TEXT_VIEW);
  g_assert_nonnull (view);
  g_assert_false (gtk_text_view_get_editable (GTK_TEXT_VIEW (view)));
  text = text_view_text (GTK_TEXT_VIEW (view));
  g_assert_cmpuint (strlen (text), <=, STEWARD_TEXT_DISPLAY_MAX + 200);
  g_assert_cmpuint (strlen (text), >=, STEWARD_TEXT_DISPLAY_MAX - 16);
  g_assert_nonnull (strstr (text, "cut here"));
  g_assert_true (g_str_has_prefix (text, "0123456789abcde\n"));
  shown_close (&shown);
}

static void
test_image (void)
{
  Shown shown = show ("{\"type\":\"image\",\"mimeType\":\"image/png\",\"data\":\"" TINY_PNG "\"}");
  GtkWidget *picture = NULL;
  GdkPaintable *paintable;

  wait_for ((picture = find_one (shown.view, GTK_TYPE_PICTURE)) != NULL);
  paintable = gtk_picture_get_paintable (GTK_PICTURE (picture));
  g_assert_true (GDK_IS_TEXTURE (paintable));
  g_assert_cmpint (gdk_texture_get_width (GDK_TEXTURE (paintable)), ==, 2);
  g_assert_nonnull (strstr (gtk_picture_get_alternative_text (GTK_PICTURE (picture)),
                            "image/png"));
  g_assert_nonnull (find_label (shown.view, "image/png"));
  g_assert_true (gtk_widget_is_sensitive (GTK_WIDGET (find_button (shown.view,
                                                                   "content.save-as"))));
  shown_close (&shown);
}

static void
test_image_broken (void)
{
  const char *cases[] = {
    "{\"type\":\"image\",\"mimeType\":\"image/png\",\"data\":\"AAAAAAAA\"}",
    "{\"type\":\"image\",\"mimeType\":\"image/png\",\"data\":\"not base64 at all!\"}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Shown shown = show (cases[i]);

      wait_for (find_label (shown.view, "Could not show this image: ") != NULL);
      g_assert_null (find_one (shown.view, GTK_TYPE_PICTURE));
      shown_close (&shown);
    }
}

/* Audio plays where GTK has a media back end; where it has none, the
 * person is told and can still save it. */
static void
test_audio (void)
{
  Shown shown = show ("{\"type\":\"audio\",\"mimeType\":\"audio/wav\",\"data\":\"" TINY_WAV "\"}");
  GtkWidget *controls = find_one (shown.view, GTK_TYPE_MEDIA_CONTROLS);
  GtkButton *save = find_button (shown.view, "content.save-as");

  g_assert_true (controls != NULL || find_label (shown.view, "cannot be played") != NULL);
  g_assert_nonnull (find_label (shown.view, "audio/wav"));
  g_assert_nonnull (save);
  g_assert_true (gtk_widget_is_sensitive (GTK_WIDGET (save)));
  shown_close (&shown);
}

static void
record_uri (GtkWindow  *parent,
            const char *uri,
            gpointer    user_data)
{
  g_ptr_array_add (user_data, g_strdup (uri));
}

/* Only what the URL checker lets through opens, as the exact string
 * shown; a file a server names never does, and neither does an address
 * that a browser reads as another site than the one shown. */
static void
test_link (void)
{
  const struct {
    const char *uri;
    gboolean    opens;
  } cases[] = {
    { "https://example.org/docs?q=1", TRUE },
    { "http://127.0.0.1:8080/x", TRUE },
    { "http://localhost/x", TRUE },
    { "http://[::1]:3000/", TRUE },
    { "file:///tmp/report.txt", FALSE },
    { "file:///home/someone/.ssh/id_ed25519", FALSE },
    { "https://evil.example\\\\@accounts.google.com/", FALSE },
    { "http://evil.example\\\\@127.0.0.1/", FALSE },
    { "https://accounts.google.com@evil.example/", FALSE },
    { "http://localhost@evil.example/", FALSE },
    { "https://exa\\tmple.org/", FALSE },
    { "http://example.org/", FALSE },
    { "javascript:alert(1)", FALSE },
    { "ftp://example.org/file", FALSE },
    { "demo://resource/static/1", FALSE },
    { "https://example.org/\\u202egpj.exe", FALSE },
    { "data:text/html,<b>x</b>", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GPtrArray) opened = g_ptr_array_new_with_free_func (g_free);
      g_autofree char *json = g_strdup_printf ("{\"type\":\"resource_link\","
                                               "\"name\":\"the <i>doc</i>\","
                                               "\"uri\":\"%s\",\"description\":\"read me\"}",
                                               cases[i].uri);
      Shown shown = show (json);
      GtkButton *open = find_button (shown.view, "content.open");
      McpContent *content = steward_content_view_get_content (STEWARD_CONTENT_VIEW (shown.view));

      g_test_message ("%s", cases[i].uri);
      steward_content_view_set_show_uri_func (STEWARD_CONTENT_VIEW (shown.view), record_uri,
                                              opened);
      g_assert_nonnull (open);
      g_assert_cmpint (gtk_widget_is_sensitive (GTK_WIDGET (open)), ==, cases[i].opens);
      if (!cases[i].opens)
        g_assert_nonnull (gtk_widget_get_tooltip_text (GTK_WIDGET (open)));
      g_assert_nonnull (find_label (shown.view, "the <i>doc</i>"));
      g_assert_nonnull (find_label (shown.view, "read me"));
      g_assert_null (find_button (shown.view, "content.save-as"));

      /* The action, whatever the button shows, opens the exact string or
       * nothing at all. */
      gtk_widget_activate_action (shown.view, "content.open", NULL);
      if (cases[i].opens)
        {
          g_assert_cmpuint (opened->len, ==, 1);
          g_assert_cmpstr (g_ptr_array_index (opened, 0), ==, mcp_content_get_uri (content));
        }
      else
        {
          g_assert_cmpuint (opened->len, ==, 0);
        }
      shown_close (&shown);
    }
}

/* The full URI is shown, hidden characters and all made visible. */
static void
test_link_uri_shown (void)
{
  Shown shown = show ("{\"type\":\"resource_link\",\"name\":\"x\","
                      "\"uri\":\"https://example.org/a\\u202eb\"}");

  g_assert_nonnull (find_label (shown.view, "https://example.org/a⟨U+202E⟩b"));
  shown_close (&shown);
}

static void
test_embedded_text (void)
{
  Shown shown = show ("{\"type\":\"resource\",\"resource\":{\"uri\":\"demo://resource/1\","
                      "\"mimeType\":\"text/plain\",\"text\":\"hello from inside\"}}");

  g_assert_nonnull (find_label (shown.view, "demo://resource/1"));
  g_assert_nonnull (find_label (shown.view, "hello from inside"));
  shown_close (&shown);
}

static void
test_embedded_blob (void)
{
  Shown shown = show ("{\"type\":\"resource\",\"resource\":{\"uri\":\"demo://resource/2.bin\","
                      "\"mimeType\":\"application/octet-stream\",\"blob\":\"AAECAw==\"}}");
  GtkButton *save = find_button (shown.view, "content.save-as");

  g_assert_nonnull (find_label (shown.view, "demo://resource/2.bin"));
  g_assert_nonnull (find_label (shown.view, "application/octet-stream"));
  g_assert_nonnull (save);
  g_assert_true (gtk_widget_is_sensitive (GTK_WIDGET (save)));
  g_assert_null (find_one (shown.view, GTK_TYPE_PICTURE));
  shown_close (&shown);
}

static void
test_embedded_image (void)
{
  Shown shown = show ("{\"type\":\"resource\",\"resource\":{\"uri\":\"demo://pic.png\","
                      "\"mimeType\":\"image/png\",\"blob\":\"" TINY_PNG "\"}}");

  wait_for (find_one (shown.view, GTK_TYPE_PICTURE) != NULL);
  shown_close (&shown);
}

/* Blocks of a type this host does not know are shown as JSON. */
static void
test_unknown (void)
{
  Shown shown = show ("{\"type\":\"hologram\",\"frames\":[1,2],\"note\":\"<u>hi</u>\"}");
  GtkWidget *view = find_one (shown.view, GTK_TYPE_TEXT_VIEW);
  g_autofree char *text = NULL;

  g_assert_nonnull (view);
  g_assert_true (gtk_text_view_get_monospace (GTK_TEXT_VIEW (view)));
  text = text_view_text (GTK_TEXT_VIEW (view));
  g_assert_nonnull (strstr (text, "\"hologram\""));
  g_assert_nonnull (strstr (text, "<u>hi</u>"));
  g_assert_nonnull (find_label (shown.view, "hologram"));
  shown_close (&shown);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/steward/content-view/text-markup", test_text_markup);
  g_test_add_func ("/steward/content-view/text-hidden", test_text_hidden);
  g_test_add_func ("/steward/content-view/text-capped", test_text_capped);
  g_test_add_func ("/steward/content-view/image", test_image);
  g_test_add_func ("/steward/content-view/image-broken", test_image_broken);
  g_test_add_func ("/steward/content-view/audio", test_audio);
  g_test_add_func ("/steward/content-view/link", test_link);
  g_test_add_func ("/steward/content-view/link-uri-shown", test_link_uri_shown);
  g_test_add_func ("/steward/content-view/embedded-text", test_embedded_text);
  g_test_add_func ("/steward/content-view/embedded-blob", test_embedded_blob);
  g_test_add_func ("/steward/content-view/embedded-image", test_embedded_image);
  g_test_add_func ("/steward/content-view/unknown", test_unknown);

  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-content-view"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mcp-json.h"
#include "steward-file-chooser.h"
#include "steward-hyphenation.h"
#include "steward-json-text.h"
#include "steward-text.h"
#include "steward-url.h"

#include "steward-content-view-private.h"

/* Images larger than this are scaled down while they are decoded, so that a
 * small file that claims to be huge cannot take all the memory. */
#define MAX_IMAGE_PIXELS (4096 * 4096)
/* Text longer than this goes into a scrolled text view, not a label. */
#define LONG_TEXT_BYTES 4096
#define LONG_TEXT_LINES 40

struct _StewardContentView
{
  AdwBin                     parent_instance;

  McpContent                *content;
  GCancellable              *cancellable;
  GtkMediaStream            *media;
  GCancellable              *chooser;
  char                      *link_uri;
  StewardShowUriFunc         show_uri;
  gpointer                   show_uri_data;

  GtkLabel                  *kind_label;
  GtkLabel                  *name_label;
  GtkLabel                  *uri_label;
  GtkLabel                  *text_label;
  GtkScrolledWindow         *text_scroller;
  GtkTextView               *text_view;
  GtkPicture                *picture;
  GtkMediaControls          *media_controls;
  GtkLabel                  *message_label;
  GtkWidget                 *action_box;
  GtkWidget                 *open_button;
  GtkWidget                 *save_button;
};

enum {
  PROP_0,
  PROP_CONTENT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (StewardContentView, steward_content_view, ADW_TYPE_BIN)

static char *
dup_visible (const char *text)
{
  return steward_text_make_visible_capped (text, 1024, NULL);
}

static void
show_message (StewardContentView *self,
              const char         *message)
{
  gtk_label_set_text (self->message_label, message);
  gtk_widget_set_visible (GTK_WIDGET (self->message_label), TRUE);
}

static void
show_text (StewardContentView *self,
           const char         *text,
           gboolean            monospace)
{
  g_autofree char *visible = steward_text_for_display (text);
  gsize length = strlen (visible);
  guint lines = 0;

  for (const char *p = visible; p != NULL && lines <= LONG_TEXT_LINES; p = strchr (p + 1, '\n'))
    lines++;

  if (!monospace && length <= LONG_TEXT_BYTES && lines <= LONG_TEXT_LINES)
    {
      gtk_label_set_text (self->text_label, visible);
      gtk_widget_set_visible (GTK_WIDGET (self->text_label), TRUE);
      return;
    }

  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->text_view), visible, length);
  /* A text long enough for the scrolled view is a file, a listing or a
   * log far more often than prose, and reads best in columns. */
  gtk_text_view_set_monospace (self->text_view, TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->text_scroller), TRUE);
}

static void
show_json (StewardContentView *self,
           JsonObject         *object)
{
  g_autofree char *json = steward_json_object_to_text (object);

  show_text (self, json, TRUE);
}

static void
show_kind (StewardContentView *self,
           const char         *kind)
{
  const char *mime_type = mcp_content_get_mime_type (self->content);
  g_autoptr(GString) text = g_string_new (kind);

  if (mime_type != NULL)
    {
      g_autofree char *visible = dup_visible (mime_type);

      g_string_append_printf (text, " · %s", visible);
    }

  if (mcp_content_is_blob (self->content))
    {
      g_autofree char *size = g_format_size (mcp_content_get_data_size (self->content));

      g_string_append_printf (text, " · %s", size);
    }

  gtk_label_set_text (self->kind_label, text->str);
  gtk_widget_set_visible (GTK_WIDGET (self->kind_label), TRUE);
}

static void
show_uri (StewardContentView *self)
{
  const char *uri = mcp_content_get_uri (self->content);
  g_autofree char *visible = NULL;

  if (uri == NULL)
    return;

  visible = dup_visible (uri);
  gtk_label_set_text (self->uri_label, visible);
  gtk_widget_set_visible (GTK_WIDGET (self->uri_label), TRUE);
}

static void
enable_save (StewardContentView *self)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "content.save-as", TRUE);
  gtk_widget_set_visible (self->save_button, TRUE);
  gtk_widget_set_visible (self->action_box, TRUE);
}

/* Images: decoded on a worker, base64 and all, at a bounded size. */

static void
size_prepared_cb (GdkPixbufLoader *loader,
                  int              width,
                  int              height,
                  gpointer         user_data)
{
  gint64 w = width;
  gint64 h = height;

  if (w * h <= MAX_IMAGE_PIXELS)
    return;

  while (w * h > MAX_IMAGE_PIXELS)
    {
      w = MAX (1, w / 2);
      h = MAX (1, h / 2);
    }
  gdk_pixbuf_loader_set_size (loader, (int) w, (int) h);
}

static void
decode_image_thread (GTask        *task,
                     gpointer      source_object,
                     gpointer      task_data,
                     GCancellable *cancellable)
{
  McpContent *content = task_data;
  g_autoptr(GdkPixbufLoader) loader = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  GdkPixbuf *pixbuf;

  bytes = mcp_content_dup_data (content, &error);
  if (bytes == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* A loader must be closed once made, so it is made only for data. */
  loader = gdk_pixbuf_loader_new ();
  g_signal_connect (loader, "size-prepared", G_CALLBACK (size_prepared_cb), NULL);
  if (!gdk_pixbuf_loader_write_bytes (loader, bytes, &error) ||
      !gdk_pixbuf_loader_close (loader, &error))
    {
      /* A loader must be closed even when writing failed. */
      gdk_pixbuf_loader_close (loader, NULL);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  pixbuf = gdk_pixbuf_loader_get_pixbuf (loader);
  if (pixbuf == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                               _("the data is not an image"));
      return;
    }

  g_task_return_pointer (task, gdk_texture_new_for_pixbuf (pixbuf), g_object_unref);
}

static void
decode_image_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  StewardContentView *self;
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GError) error = NULL;

  texture = g_task_propagate_pointer (G_TASK (result), &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = STEWARD_CONTENT_VIEW (object);
  if (texture == NULL)
    {
      g_autofree char *message = NULL;
      g_autofree char *reason = dup_visible (error->message);

      /* Translators: %s says why, as the image decoder put it. */
      message = g_strdup_printf (_("Could not show this image: %s"), reason);
      show_message (self, message);
      return;
    }

  gtk_picture_set_paintable (self->picture, GDK_PAINTABLE (texture));
  gtk_widget_set_visible (GTK_WIDGET (self->picture), TRUE);
}

static void
show_image (StewardContentView *self)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *alternative = NULL;

  show_kind (self, _("Image"));
  alternative = g_strdup (gtk_label_get_text (self->kind_label));
  gtk_picture_set_alternative_text (self->picture, alternative);
  enable_save (self);

  task = g_task_new (self, self->cancellable, decode_image_cb, NULL);
  g_task_set_source_tag (task, show_image);
  g_task_set_task_data (task, g_object_ref (self->content), g_object_unref);
  g_task_run_in_thread (task, decode_image_thread);
}

static void
show_audio (StewardContentView *self)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  const GError *media_error;

  show_kind (self, _("Audio"));
  enable_save (self);

  bytes = mcp_content_dup_data (self->content, &error);
  if (bytes == NULL)
    {
      g_autofree char *reason = dup_visible (error->message);
      g_autofree char *message = g_strdup_printf (_("Could not play this audio: %s"), reason);

      show_message (self, message);
      return;
    }

  stream = g_memory_input_stream_new_from_bytes (bytes);
  self->media = gtk_media_file_new_for_input_stream (stream);
  media_error = gtk_media_stream_get_error (self->media);
  if (media_error != NULL)
    {
      /* Without a media back end (GStreamer) GTK cannot play anything;
       * the person can still save the audio and play it elsewhere. */
      g_autofree char *reason = dup_visible (media_error->message);
      g_autofree char *message = g_strdup_printf (_("This audio cannot be played here (%s). "
                                                    "Save it to play it in another application."),
                                                  reason);

      g_clear_object (&self->media);
      show_message (self, message);
      return;
    }

  gtk_media_controls_set_media_stream (self->media_controls, self->media);
  gtk_widget_set_visible (GTK_WIDGET (self->media_controls), TRUE);
}

static void
show_blob (StewardContentView *self)
{
  const char *mime_type = mcp_content_get_mime_type (self->content);

  if (mime_type != NULL && g_str_has_prefix (mime_type, "image/"))
    {
      show_image (self);
    }
  else if (mime_type != NULL && g_str_has_prefix (mime_type, "audio/"))
    {
      show_audio (self);
    }
  else
    {
      show_kind (self, _("Binary data"));
      enable_save (self);
    }
}

/* Links: what steward_url_check() lets through opens from here, as the
 * exact string shown; file links never do (docs/SECURITY.md). */

static char *
check_link (const char *uri)
{
  g_autoptr(GError) error = NULL;

  if (steward_url_check (uri, NULL, NULL, &error))
    return NULL;

  return g_steal_pointer (&error->message);
}

static void
show_link (StewardContentView *self)
{
  const char *name = mcp_content_get_name (self->content);
  const char *description = mcp_json_get_string (mcp_content_get_json (self->content), "description");
  g_autofree char *why = NULL;

  show_kind (self, _("Link"));
  if (name != NULL)
    {
      g_autofree char *visible = dup_visible (name);

      gtk_label_set_text (self->name_label, visible);
      gtk_widget_set_visible (GTK_WIDGET (self->name_label), TRUE);
    }
  show_uri (self);
  if (description != NULL)
    show_text (self, description, FALSE);

  self->link_uri = g_strdup (mcp_content_get_uri (self->content));
  why = check_link (self->link_uri);
  gtk_widget_set_visible (self->open_button, TRUE);
  gtk_widget_set_visible (self->action_box, TRUE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "content.open", why == NULL);
  gtk_widget_set_tooltip_text (self->open_button, why);
  if (why != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (self->open_button),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, why, -1);
}

static void
build (StewardContentView *self)
{
  McpContent *content = self->content;
  McpContent *resource = mcp_content_get_resource (content);

  switch (mcp_content_get_content_type (content))
    {
    case MCP_CONTENT_TEXT:
      if (mcp_content_get_uri (content) != NULL)
        show_uri (self);
      show_text (self, mcp_content_get_text (content), FALSE);
      break;

    case MCP_CONTENT_IMAGE:
      show_image (self);
      break;

    case MCP_CONTENT_AUDIO:
      show_audio (self);
      break;

    case MCP_CONTENT_RESOURCE_LINK:
      show_link (self);
      break;

    case MCP_CONTENT_RESOURCE:
      show_uri (self);
      if (resource != NULL && !mcp_content_is_blob (resource))
        {
          show_kind (self, _("Embedded resource"));
          show_text (self, mcp_content_get_text (resource), FALSE);
        }
      else if (mcp_content_is_blob (content))
        {
          show_blob (self);
        }
      else
        {
          show_kind (self, _("Embedded resource"));
          show_json (self, mcp_content_get_json (content));
        }
      break;

    case MCP_CONTENT_UNKNOWN:
    case MCP_CONTENT_TOOL_USE:
    case MCP_CONTENT_TOOL_RESULT:
    default:
      {
        g_autofree char *type = dup_visible (mcp_content_get_type_name (content));
        g_autofree char *kind = g_strdup_printf (_("Content of type “%s”"), type);

        show_kind (self, kind);
        show_json (self, mcp_content_get_json (content));
      }
      break;
    }
}

/* Save As: the decoded bytes, written where the person chooses. */

static void
decode_data_thread (GTask        *task,
                    gpointer      source_object,
                    gpointer      task_data,
                    GCancellable *cancellable)
{
  GError *error = NULL;
  GBytes *bytes = mcp_content_dup_data (task_data, &error);

  if (bytes == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, bytes, (GDestroyNotify) g_bytes_unref);
}

static void
replace_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(StewardContentView) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = g_file_get_parse_name (G_FILE (object));
  g_autofree char *message = NULL;

  if (!g_file_replace_contents_finish (G_FILE (object), result, NULL, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      /* Translators: the first %s is a file name, the second why it failed. */
      message = g_strdup_printf (_("Could not save %s: %s"), name, error->message);
    }
  else
    {
      message = g_strdup_printf (_("Saved to %s"), name);
    }

  show_message (self, message);
}

static void
decode_for_save_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GFile) file = user_data;
  StewardContentView *self;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  bytes = g_task_propagate_pointer (G_TASK (result), &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = STEWARD_CONTENT_VIEW (object);
  if (bytes == NULL)
    {
      g_autofree char *reason = dup_visible (error->message);
      g_autofree char *message = g_strdup_printf (_("Could not save: %s"), reason);

      show_message (self, message);
      return;
    }

  g_file_replace_contents_bytes_async (file, bytes, NULL, FALSE,
                                       G_FILE_CREATE_REPLACE_DESTINATION, self->cancellable,
                                       replace_cb, g_object_ref (self));
}

static void
save_as_chosen (gpointer  owner,
                GFile    *file)
{
  StewardContentView *self = STEWARD_CONTENT_VIEW (owner);
  g_autoptr(GTask) task = NULL;

  task = g_task_new (self, self->cancellable, decode_for_save_cb, g_object_ref (file));
  g_task_set_source_tag (task, save_as_chosen);
  g_task_set_task_data (task, g_object_ref (self->content), g_object_unref);
  g_task_run_in_thread (task, decode_data_thread);
}

static char *
suggest_file_name (McpContent *content)
{
  const char *uri = mcp_content_get_uri (content);
  g_autofree char *base = NULL;

  if (uri != NULL)
    {
      g_autoptr(GUri) parsed = g_uri_parse (uri, G_URI_FLAGS_NONE, NULL);
      const char *path = parsed != NULL ? g_uri_get_path (parsed) : NULL;

      if (path != NULL && *path != '\0')
        base = g_path_get_basename (path);
    }

  /* A server chooses the name: keep only what is harmless in a file name. */
  if (base == NULL || g_str_equal (base, "/") || g_str_equal (base, ".") ||
      g_str_equal (base, "..") || steward_text_has_hidden (base))
    /* Translators: a file name for content the server did not name. */
    return g_strdup (_("content"));

  return g_strdelimit (g_steal_pointer (&base), "/\\:", '_');
}

static void
save_as_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  StewardContentView *self = STEWARD_CONTENT_VIEW (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  g_autofree char *name = suggest_file_name (self->content);
  StewardFileQuestion question = {
    .action = GTK_FILE_CHOOSER_ACTION_SAVE,
    .title = _("Save Content"),
    .accept_label = _("_Save"),
    .initial_name = name,
  };

  steward_file_chooser_choose_for (self, &self->chooser,
                                   GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                   &question, save_as_chosen);
}

static void
open_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  StewardContentView *self = STEWARD_CONTENT_VIEW (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  g_autofree char *why = NULL;

  /* Checked again at the click: the rule, not the button's state, decides. */
  why = check_link (self->link_uri);
  if (why != NULL)
    {
      gtk_widget_error_bell (widget);
      return;
    }

  self->show_uri (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, self->link_uri,
                  self->show_uri_data);
}

static void
steward_content_view_constructed (GObject *object)
{
  StewardContentView *self = STEWARD_CONTENT_VIEW (object);

  G_OBJECT_CLASS (steward_content_view_parent_class)->constructed (object);

  g_return_if_fail (MCP_IS_CONTENT (self->content));
  build (self);
}

static void
steward_content_view_dispose (GObject *object)
{
  StewardContentView *self = STEWARD_CONTENT_VIEW (object);

  g_cancellable_cancel (self->cancellable);
  g_cancellable_cancel (self->chooser);
  if (self->media != NULL)
    {
      gtk_media_stream_pause (self->media);
      gtk_media_controls_set_media_stream (self->media_controls, NULL);
    }
  g_clear_object (&self->media);

  gtk_widget_dispose_template (GTK_WIDGET (self), STEWARD_TYPE_CONTENT_VIEW);

  g_clear_object (&self->content);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (steward_content_view_parent_class)->dispose (object);
}

static void
steward_content_view_finalize (GObject *object)
{
  StewardContentView *self = STEWARD_CONTENT_VIEW (object);

  g_free (self->link_uri);

  G_OBJECT_CLASS (steward_content_view_parent_class)->finalize (object);
}

static void
steward_content_view_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  StewardContentView *self = STEWARD_CONTENT_VIEW (object);

  switch (prop_id)
    {
    case PROP_CONTENT:
      g_value_set_object (value, self->content);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_content_view_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  StewardContentView *self = STEWARD_CONTENT_VIEW (object);

  switch (prop_id)
    {
    case PROP_CONTENT:
      self->content = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_content_view_class_init (StewardContentViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = steward_content_view_constructed;
  object_class->dispose = steward_content_view_dispose;
  object_class->finalize = steward_content_view_finalize;
  object_class->get_property = steward_content_view_get_property;
  object_class->set_property = steward_content_view_set_property;

  properties[PROP_CONTENT] =
    g_param_spec_object ("content", NULL, NULL, MCP_TYPE_CONTENT,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_action (widget_class, "content.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "content.save-as", NULL, save_as_action);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/stewardmcp/Steward/steward-content-view.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardContentView, kind_label);
  gtk_widget_class_bind_template_child (widget_class, StewardContentView, name_label);
  gtk_widget_class_bind_template_child (widget_class, StewardContentView, uri_label);
  gtk_widget_class_bind_template_child (widget_class, StewardContentView, text_label);
  gtk_widget_class_bind_template_child (widget_class, StewardContentView, text_scroller);
  gtk_widget_class_bind_template_child (widget_class, StewardContentView, text_view);
  gtk_widget_class_bind_template_child (widget_class, StewardContentView, picture);
  gtk_widget_class_bind_template_child (widget_class, StewardContentView, media_controls);
  gtk_widget_class_bind_template_child (widget_class, StewardContentView, message_label);
  gtk_widget_class_bind_template_child (widget_class, StewardContentView, action_box);
  gtk_widget_class_bind_template_child (widget_class, StewardContentView, open_button);
  gtk_widget_class_bind_template_child (widget_class, StewardContentView, save_button);
}

static void
steward_content_view_init (StewardContentView *self)
{
  self->cancellable = g_cancellable_new ();
  self->show_uri = steward_show_uri_default;

  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "content.open", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "content.save-as", FALSE);
}

/**
 * steward_content_view_new:
 * @content: one content block, or one entry of a resource read
 *
 * Returns: (transfer floating): a view of @content
 */
GtkWidget *
steward_content_view_new (McpContent *content)
{
  g_return_val_if_fail (MCP_IS_CONTENT (content), NULL);

  return g_object_new (STEWARD_TYPE_CONTENT_VIEW, "content", content, NULL);
}

/**
 * steward_content_view_get_content:
 *
 * Returns: (transfer none): the block shown
 */
McpContent *
steward_content_view_get_content (StewardContentView *self)
{
  g_return_val_if_fail (STEWARD_IS_CONTENT_VIEW (self), NULL);

  return self->content;
}

void
steward_content_view_set_show_uri_func (StewardContentView *self,
                                        StewardShowUriFunc  func,
                                        gpointer            user_data)
{
  g_return_if_fail (STEWARD_IS_CONTENT_VIEW (self));

  self->show_uri = func != NULL ? func : steward_show_uri_default;
  self->show_uri_data = user_data;
}

void
steward_content_view_set_text_height (StewardContentView *self,
                                      int                 height)
{
  g_return_if_fail (STEWARD_IS_CONTENT_VIEW (self));

  gtk_scrolled_window_set_max_content_height (self->text_scroller, MAX (height, 120));
}

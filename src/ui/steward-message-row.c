/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-message-row"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-json.h"
#include "steward-text.h"

#include "steward-markdown-view.h"
#include "steward-message-row.h"
#include "steward-tool-call-row.h"

struct _StewardMessageRow
{
  AdwBin               parent_instance;

  GtkLabel            *role_label;
  GtkLabel            *model_label;
  AdwBin              *body_bin;
  GtkBox              *attachments_box;
  GtkBox              *tool_calls_box;
  GtkLabel            *note_label;
  GtkLabel            *error_label;

  StewardChatMessage  *message;
  /* The body (text, attachments, tool calls) is built when the row is
   * first shown: a list instantiates far more rows than it shows, and a
   * row that is never seen should cost next to nothing. Both bodies are
   * kept once made, for the next message the row shows. */
  StewardMarkdownView *markdown_view;
  GtkLabel            *plain_label;
  gboolean             built;
  GSignalGroup        *message_signals;
  GSignalGroup        *tool_call_signals;
};

enum {
  PROP_0,
  PROP_MESSAGE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (StewardMessageRow, steward_message_row, ADW_TYPE_BIN)

static gboolean
is_assistant (StewardMessageRow *self)
{
  return steward_chat_message_get_role (self->message) == STEWARD_CHAT_ROLE_ASSISTANT;
}

static void
set_optional_label (GtkLabel   *label,
                    const char *text)
{
  gboolean shown = text != NULL && *text != '\0';

  if (shown)
    {
      g_autofree char *visible = steward_text_for_display (text);

      gtk_label_set_text (label, visible);
    }
  gtk_widget_set_visible (GTK_WIDGET (label), shown);
}

static void
update_body_visibility (StewardMessageRow *self)
{
  const char *text = steward_chat_message_get_text (self->message);

  /* A turn that only called tools has no text to show. */
  gtk_widget_set_visible (GTK_WIDGET (self->body_bin),
                          (text != NULL && *text != '\0') ||
                          steward_chat_message_get_streaming (self->message));
}

static void
update_text (StewardMessageRow *self)
{
  const char *text = steward_chat_message_get_text (self->message);

  if (!self->built)
    return;

  update_body_visibility (self);

  if (is_assistant (self))
    {
      steward_markdown_view_set_text (self->markdown_view, text);
    }
  else
    {
      g_autofree char *visible = steward_text_for_display (text != NULL ? text : "");

      gtk_label_set_text (self->plain_label, visible);
    }
}

static void
update_streaming (StewardMessageRow *self)
{
  if (!self->built)
    return;

  update_body_visibility (self);
  if (is_assistant (self))
    steward_markdown_view_set_streaming (self->markdown_view,
                                         steward_chat_message_get_streaming (self->message));
}

/* When the message was written, for people; NULL when not known. */
static char *
dup_time_text (StewardMessageRow *self)
{
  gint64 time = self->message != NULL ? steward_chat_message_get_time (self->message) : 0;
  g_autoptr(GDateTime) date = NULL;

  if (time <= 0)
    return NULL;

  date = g_date_time_new_from_unix_local (time / G_USEC_PER_SEC);
  return date != NULL ? g_date_time_format (date, "%c") : NULL;
}

/* The time is the role's tooltip, made when the tooltip is asked for:
 * setting a tooltip's text makes GTK look for the pointer (a round trip
 * to the display server) and the widget under it, which each row the
 * list binds while scrolling paid for a tooltip hardly ever shown. */
static gboolean
role_query_tooltip_cb (StewardMessageRow *self,
                       int                x,
                       int                y,
                       gboolean           keyboard_mode,
                       GtkTooltip        *tooltip,
                       GtkWidget         *label)
{
  g_autofree char *when = dup_time_text (self);

  if (when == NULL)
    return FALSE;

  gtk_tooltip_set_text (tooltip, when);
  return TRUE;
}

static void
update_header (StewardMessageRow *self)
{
  const char *model = steward_chat_message_get_model (self->message);
  const char *view_tool = steward_chat_message_get_view_tool (self->message);
  g_autofree char *when = dup_time_text (self);

  if (view_tool != NULL)
    {
      g_autofree char *from = NULL;

      /* A message an MCP Apps view sent, which the person agreed to. */
      gtk_label_set_text (self->role_label, _("From a View"));
      /* Translators: the server and tool whose view sent a message. */
      from = g_strdup_printf (_("%s / %s"), steward_chat_message_get_view_server (self->message),
                              view_tool);
      set_optional_label (self->model_label, from);
    }
  else
    {
      gtk_label_set_text (self->role_label, is_assistant (self) ? _("Assistant") : _("You"));
      set_optional_label (self->model_label, is_assistant (self) ? model : NULL);
    }

  /* As a tooltip's text would: screen readers read the time too. */
  if (when != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (self->role_label),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, when, -1);
  else
    gtk_accessible_reset_property (GTK_ACCESSIBLE (self->role_label),
                                   GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
}

static void
update_note_and_error (StewardMessageRow *self)
{
  set_optional_label (self->note_label, steward_chat_message_get_note (self->message));
  set_optional_label (self->error_label, steward_chat_message_get_error (self->message));
}

/* The text of a view's context, for the person to read what the model
 * got. */
static char *
context_text (JsonObject *block)
{
  JsonArray *content = mcp_json_get_array (block, "content");
  GString *text = g_string_new (NULL);
  g_autofree char *all = NULL;

  for (guint i = 0; content != NULL && i < json_array_get_length (content); i++)
    {
      JsonNode *node = json_array_get_element (content, i);
      const char *part = JSON_NODE_HOLDS_OBJECT (node)
                         ? mcp_json_get_string (json_node_get_object (node), "text") : NULL;

      if (part != NULL)
        g_string_append_printf (text, "%s%s", text->len > 0 ? "\n" : "", part);
    }

  all = g_string_free (text, FALSE);
  return *all != '\0' ? steward_text_make_visible_capped (all, 2048, NULL) : NULL;
}

/* What the person attached: resources by their address, images and
 * audio by their kind; their contents went to the model. */
static void
update_attachments (StewardMessageRow *self)
{
  JsonArray *content = self->built ? steward_chat_message_get_content (self->message) : NULL;
  guint length = content != NULL ? json_array_get_length (content) : 0;
  GtkWidget *child;
  gboolean any = FALSE;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->attachments_box))) != NULL)
    gtk_box_remove (self->attachments_box, child);

  if (self->built && is_assistant (self))
    length = 0;

  for (guint i = 0; i < length; i++)
    {
      JsonNode *node = json_array_get_element (content, i);
      JsonObject *block;
      const char *type;
      g_autofree char *text = NULL;
      g_autofree char *detail = NULL;
      GtkWidget *box;
      GtkWidget *label;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;

      block = json_node_get_object (node);
      type = mcp_json_get_string (block, "type");
      if (g_strcmp0 (type, "resource") == 0)
        {
          JsonNode *resource = json_object_get_member (block, "resource");
          const char *uri = resource != NULL && JSON_NODE_HOLDS_OBJECT (resource)
                            ? mcp_json_get_string (json_node_get_object (resource), "uri") : NULL;
          g_autofree char *visible = steward_text_make_visible_capped (uri ? uri : "", 1024,
                                                                       NULL);

          /* Translators: %s is the address of a resource the person
           * attached to a message. */
          text = g_strdup_printf (_("Attached %s"), visible);
        }
      else if (g_strcmp0 (type, "image") == 0)
        {
          text = g_strdup (_("Attached an image"));
        }
      else if (g_strcmp0 (type, "audio") == 0)
        {
          text = g_strdup (_("Attached a recording"));
        }
      else if (g_strcmp0 (type, "view_context") == 0)
        {
          g_autofree char *tool = steward_text_make_visible_capped (
            mcp_json_get_string (block, "tool") ? mcp_json_get_string (block, "tool") : "",
            256, NULL);

          /* Translators: what went to the model with a message: the
           * context an MCP Apps view set; %s is the view's tool. */
          text = g_strdup_printf (_("With the context from the view of “%s”"), tool);
          detail = context_text (block);
        }
      else
        {
          continue;
        }

      box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      gtk_box_append (GTK_BOX (box), gtk_image_new_from_icon_name ("mail-attachment-symbolic"));
      label = gtk_label_new (text);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
      gtk_widget_add_css_class (label, "caption");
      gtk_widget_set_tooltip_text (label, detail);
      gtk_box_append (GTK_BOX (box), label);
      gtk_box_append (self->attachments_box, box);
      any = TRUE;
    }

  gtk_widget_set_visible (GTK_WIDGET (self->attachments_box), any);
}

static void
tool_calls_changed_cb (StewardMessageRow *self,
                       guint              position,
                       guint              removed,
                       guint              added,
                       GListModel        *calls)
{
  GtkWidget *before = NULL;
  GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->tool_calls_box));

  if (!self->built)
    return;

  for (guint i = 0; i < position && child != NULL; i++)
    {
      before = child;
      child = gtk_widget_get_next_sibling (child);
    }

  for (guint i = 0; i < removed && child != NULL; i++)
    {
      GtkWidget *next = gtk_widget_get_next_sibling (child);

      gtk_box_remove (self->tool_calls_box, child);
      child = next;
    }

  for (guint i = 0; i < added; i++)
    {
      g_autoptr(StewardToolCall) call = g_list_model_get_item (calls, position + i);
      GtkWidget *row = steward_tool_call_row_new (call);

      gtk_box_insert_child_after (self->tool_calls_box, row, before);
      before = row;
    }

  gtk_widget_set_visible (GTK_WIDGET (self->tool_calls_box),
                          g_list_model_get_n_items (calls) > 0);
}

static gboolean
holds_call (GListModel      *calls,
            StewardToolCall *call)
{
  for (guint i = 0; calls != NULL && i < g_list_model_get_n_items (calls); i++)
    {
      g_autoptr(StewardToolCall) item = g_list_model_get_item (calls, i);

      if (item == call)
        return TRUE;
    }

  return FALSE;
}

static GtkWidget *
find_tool_call_row (StewardMessageRow *self,
                    StewardToolCall   *call)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->tool_calls_box));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (steward_tool_call_row_get_call (STEWARD_TOOL_CALL_ROW (child)) == call)
        return child;
    }

  return NULL;
}

/* The rows of tool calls outlive a rebind: the list unbinds a row and
 * binds it again to the same message as the conversation scrolls and
 * grows, and a call's row holds its view, whose page, state and open
 * questions would otherwise be torn down and start over. Only the rows of
 * calls the message does not have go; a view scrolled out of sight lets
 * its page go by itself (steward-app-view.h). */
static void
drop_other_tool_calls (StewardMessageRow *self)
{
  GListModel *calls = steward_chat_message_get_tool_calls (self->message);
  GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->tool_calls_box));

  while (child != NULL)
    {
      GtkWidget *next = gtk_widget_get_next_sibling (child);

      if (!holds_call (calls, steward_tool_call_row_get_call (STEWARD_TOOL_CALL_ROW (child))))
        gtk_box_remove (self->tool_calls_box, child);
      child = next;
    }
}

static void
build_tool_calls (StewardMessageRow *self)
{
  GListModel *calls = steward_chat_message_get_tool_calls (self->message);
  guint n = g_list_model_get_n_items (calls);
  GtkWidget *before = NULL;

  drop_other_tool_calls (self);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(StewardToolCall) call = g_list_model_get_item (calls, i);
      GtkWidget *row = find_tool_call_row (self, call);

      if (row == NULL)
        {
          row = steward_tool_call_row_new (call);
          gtk_box_insert_child_after (self->tool_calls_box, row, before);
        }
      else if (gtk_widget_get_prev_sibling (row) != before)
        {
          gtk_box_reorder_child_after (self->tool_calls_box, row, before);
        }
      before = row;
    }

  gtk_widget_set_visible (GTK_WIDGET (self->tool_calls_box), n > 0);
}

static GtkLabel *
make_plain_label (void)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  return GTK_LABEL (g_object_ref_sink (label));
}

static void
build_body (StewardMessageRow *self)
{
  GtkWidget *body;

  if (self->built || self->message == NULL)
    return;

  self->built = TRUE;

  if (is_assistant (self))
    {
      if (self->markdown_view == NULL)
        self->markdown_view = STEWARD_MARKDOWN_VIEW (g_object_ref_sink (
          steward_markdown_view_new ()));
      body = GTK_WIDGET (self->markdown_view);
    }
  else
    {
      if (self->plain_label == NULL)
        self->plain_label = make_plain_label ();
      body = GTK_WIDGET (self->plain_label);
    }

  if (adw_bin_get_child (self->body_bin) != body)
    adw_bin_set_child (self->body_bin, body);

  update_streaming (self);
  update_text (self);
  update_attachments (self);

  build_tool_calls (self);
}

/* A row that is not shown lets its body go, so that the list measures
 * it small and nothing in it follows a message no one sees. Its tool
 * calls' rows are only hidden, for the message's next bind. */
static void
drop_body (StewardMessageRow *self)
{
  self->built = FALSE;
  adw_bin_set_child (self->body_bin, NULL);
  if (self->markdown_view != NULL)
    steward_markdown_view_set_text (self->markdown_view, NULL);
  if (self->plain_label != NULL)
    gtk_label_set_text (self->plain_label, "");
  gtk_widget_set_visible (GTK_WIDGET (self->tool_calls_box), FALSE);
  update_attachments (self);
}

static void
steward_message_row_map (GtkWidget *widget)
{
  StewardMessageRow *self = STEWARD_MESSAGE_ROW (widget);

  GTK_WIDGET_CLASS (steward_message_row_parent_class)->map (widget);
  build_body (self);
}

static void
steward_message_row_dispose (GObject *object)
{
  StewardMessageRow *self = STEWARD_MESSAGE_ROW (object);

  g_signal_group_set_target (self->message_signals, NULL);
  g_signal_group_set_target (self->tool_call_signals, NULL);

  gtk_widget_dispose_template (GTK_WIDGET (self), STEWARD_TYPE_MESSAGE_ROW);

  g_clear_object (&self->markdown_view);
  g_clear_object (&self->plain_label);
  g_clear_object (&self->message);
  g_clear_object (&self->message_signals);
  g_clear_object (&self->tool_call_signals);

  G_OBJECT_CLASS (steward_message_row_parent_class)->dispose (object);
}

static void
steward_message_row_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  StewardMessageRow *self = STEWARD_MESSAGE_ROW (object);

  switch (prop_id)
    {
    case PROP_MESSAGE:
      g_value_set_object (value, self->message);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_message_row_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  StewardMessageRow *self = STEWARD_MESSAGE_ROW (object);

  switch (prop_id)
    {
    case PROP_MESSAGE:
      steward_message_row_set_message (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_message_row_class_init (StewardMessageRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = steward_message_row_dispose;
  object_class->get_property = steward_message_row_get_property;
  object_class->set_property = steward_message_row_set_property;

  widget_class->map = steward_message_row_map;

  properties[PROP_MESSAGE] =
    g_param_spec_object ("message", NULL, NULL,
                         STEWARD_TYPE_CHAT_MESSAGE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/stewardmcp/Steward/"
                                                             "steward-message-row.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardMessageRow, role_label);
  gtk_widget_class_bind_template_child (widget_class, StewardMessageRow, model_label);
  gtk_widget_class_bind_template_child (widget_class, StewardMessageRow, body_bin);
  gtk_widget_class_bind_template_child (widget_class, StewardMessageRow, attachments_box);
  gtk_widget_class_bind_template_child (widget_class, StewardMessageRow, tool_calls_box);
  gtk_widget_class_bind_template_child (widget_class, StewardMessageRow, note_label);
  gtk_widget_class_bind_template_child (widget_class, StewardMessageRow, error_label);
}

static void
steward_message_row_init (StewardMessageRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  gtk_widget_set_has_tooltip (GTK_WIDGET (self->role_label), TRUE);
  g_signal_connect_object (self->role_label, "query-tooltip",
                           G_CALLBACK (role_query_tooltip_cb), self, G_CONNECT_SWAPPED);

  self->message_signals = g_signal_group_new (STEWARD_TYPE_CHAT_MESSAGE);
  g_signal_group_connect_object (self->message_signals, "notify::text",
                                 G_CALLBACK (update_text), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->message_signals, "notify::streaming",
                                 G_CALLBACK (update_streaming), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->message_signals, "notify::model",
                                 G_CALLBACK (update_header), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->message_signals, "notify::note",
                                 G_CALLBACK (update_note_and_error), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->message_signals, "notify::error",
                                 G_CALLBACK (update_note_and_error), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->message_signals, "notify::content",
                                 G_CALLBACK (update_attachments), self, G_CONNECT_SWAPPED);

  self->tool_call_signals = g_signal_group_new (G_TYPE_LIST_MODEL);
  g_signal_group_connect_object (self->tool_call_signals, "items-changed",
                                 G_CALLBACK (tool_calls_changed_cb), self, G_CONNECT_SWAPPED);
}

GtkWidget *
steward_message_row_new (void)
{
  return g_object_new (STEWARD_TYPE_MESSAGE_ROW, NULL);
}

StewardChatMessage *
steward_message_row_get_message (StewardMessageRow *self)
{
  g_return_val_if_fail (STEWARD_IS_MESSAGE_ROW (self), NULL);

  return self->message;
}

void
steward_message_row_set_message (StewardMessageRow  *self,
                                 StewardChatMessage *message)
{
  g_return_if_fail (STEWARD_IS_MESSAGE_ROW (self));
  g_return_if_fail (message == NULL || STEWARD_IS_CHAT_MESSAGE (message));

  if (self->message == message)
    return;

  g_set_object (&self->message, message);
  g_signal_group_set_target (self->message_signals, message);
  g_signal_group_set_target (self->tool_call_signals,
                             message != NULL ? steward_chat_message_get_tool_calls (message)
                                             : NULL);
  drop_body (self);

  if (message != NULL)
    {
      drop_other_tool_calls (self);
      update_header (self);
      update_note_and_error (self);
      if (gtk_widget_get_mapped (GTK_WIDGET (self)))
        build_body (self);
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MESSAGE]);
}

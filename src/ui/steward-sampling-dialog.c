/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-sampling-dialog"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "mcp-content.h"
#include "steward-accessible.h"
#include "steward-content-view.h"
#include "steward-json-copy.h"
#include "steward-text.h"

#include "steward-sampling-dialog-private.h"
#include "steward-sampling-dialog.h"

/* A request holds at most what fits in one 10 MiB message, but that can
 * still be a hundred thousand tiny messages, each of them a widget. */
#define MAX_MESSAGES 200

#define TOO_LONG_NOTE N_("This text is too long to edit here; it is sent as the server wrote it.")
#define HIDDEN_NOTE   N_("This text holds hidden characters, shown as ⟨U+…⟩. Unless you edit " \
                         "it, it is sent as the server wrote it.")

/* One text block of the request that the person can edit: the server's
 * text, what the view was filled with (hidden characters made visible),
 * and the buffer. */
typedef struct {
  guint          message;
  int            block;      /* -1 when "content" is a single object */
  char          *original;
  char          *shown;
  GtkTextBuffer *buffer;
} TextBlock;

G_DEFINE_FINAL_TYPE (StewardSamplingDialog, steward_sampling_dialog, STEWARD_TYPE_APPROVAL_DIALOG)

static void
text_block_free (gpointer data)
{
  TextBlock *block = data;

  g_free (block->original);
  g_free (block->shown);
  g_clear_object (&block->buffer);
  g_free (block);
}

/* json_node_copy() shares objects and arrays; the edited request must not
 * change the one the approval holds. The request was parsed with a depth
 * limit, so the recursion is bounded. */
static char *
dup_buffer_text (GtkTextBuffer *buffer)
{
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

/* What the person means to send: the server's own text when they left the
 * view as it was filled, otherwise what they wrote. */
static char *
dup_edited (GtkTextBuffer *buffer,
            const char    *original,
            const char    *shown)
{
  g_autofree char *text = dup_buffer_text (buffer);

  if (original != NULL && g_strcmp0 (text, shown) == 0)
    return g_strdup (original);

  return g_steal_pointer (&text);
}

/* The model's calls to the server's tools, which go back with the answer
 * for the server to run: shown before they are sent. */
static void
update_tool_uses (StewardSamplingDialog *self)
{
  JsonObject *request = steward_approval_get_request (self->approval);
  JsonArray *uses = mcp_json_get_array (mcp_json_get_object (request, "_steward"), "toolUse");
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; uses != NULL && i < json_array_get_length (uses); i++)
    {
      JsonNode *node = json_array_get_element (uses, i);
      JsonObject *use = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      JsonNode *input = use ? json_object_get_member (use, "input") : NULL;
      g_autofree char *arguments = input ? json_to_string (input, FALSE) : g_strdup ("{}");
      g_autofree char *name = steward_text_make_visible_capped (mcp_json_get_string (use, "name"),
                                                                256, NULL);
      g_autofree char *shown = steward_text_make_visible_capped (arguments, 4096, NULL);

      g_string_append_printf (text, "\n%s %s", name, shown);
    }

  if (text->len > 0)
    /* Translators: followed by one line per tool call, its name and arguments. */
    g_string_prepend (text, _("The model asks the server to run:"));

  gtk_label_set_text (self->tool_use_label, text->str);
  gtk_widget_set_visible (GTK_WIDGET (self->tool_use_label), text->len > 0);
}

static void
update_actions (StewardSamplingDialog *self)
{
  StewardApprovalStage stage = steward_approval_get_stage (self->approval);
  gboolean open = steward_approval_dialog_is_open (STEWARD_APPROVAL_DIALOG (self));
  gboolean generating = steward_approval_get_generating (self->approval);
  gboolean responding = open && stage == STEWARD_APPROVAL_STAGE_RESPONSE && !generating;
  GtkTextIter start, end;
  gboolean empty;

  gtk_text_buffer_get_bounds (gtk_text_view_get_buffer (self->answer_view), &start, &end);
  /* Calls to the server's tools are an answer even without words. */
  empty = gtk_text_iter_equal (&start, &end) &&
          mcp_json_get_array (mcp_json_get_object (steward_approval_get_request (self->approval),
                                                   "_steward"),
                              "toolUse") == NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "sampling.reject", open);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "sampling.continue",
                                 open && stage == STEWARD_APPROVAL_STAGE_REQUEST &&
                                 !self->continued);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "sampling.regenerate", responding);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "sampling.send", responding && !empty);
}

static void
request_changed_cb (StewardSamplingDialog *self)
{
  steward_sampling_dialog_update_parameters (self);
  steward_sampling_dialog_update_model (self);
  update_tool_uses (self);
  update_actions (self);
}

static void
update_placeholder (GtkTextBuffer *buffer,
                    GtkLabel      *placeholder,
                    gboolean       hidden)
{
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  gtk_widget_set_visible (GTK_WIDGET (placeholder), !hidden && gtk_text_iter_equal (&start, &end));
}

static void
system_changed_cb (StewardSamplingDialog *self)
{
  update_placeholder (gtk_text_view_get_buffer (self->system_view), self->system_placeholder,
                      FALSE);
}

static void
answer_changed_cb (StewardSamplingDialog *self)
{
  if (self->approval == NULL)
    return;

  update_placeholder (gtk_text_view_get_buffer (self->answer_view), self->answer_placeholder,
                      steward_approval_get_generating (self->approval));
  update_actions (self);
}

/* Fills the answer from the approval as the provider streams it: only the
 * new end is added when the text grew, so a long answer is not rebuilt
 * for every piece. */
static void
sync_answer (StewardSamplingDialog *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->answer_view);
  const char *answer = steward_approval_get_answer_text (self->approval);
  g_autofree char *shown = steward_text_for_display (answer);
  g_autofree char *current = dup_buffer_text (buffer);

  if (g_strcmp0 (shown, current) == 0)
    goto out;

  if (*current != '\0' && g_str_has_prefix (shown, current))
    {
      GtkTextIter end;

      gtk_text_buffer_get_end_iter (buffer, &end);
      gtk_text_buffer_insert (buffer, &end, shown + strlen (current), -1);
    }
  else
    {
      gtk_text_buffer_set_text (buffer, shown, -1);
    }

out:
  g_free (self->answer_shown);
  self->answer_shown = g_steal_pointer (&shown);
}

static void
update_generating (StewardSamplingDialog *self)
{
  gboolean generating = steward_approval_get_generating (self->approval);
  const char *error = steward_approval_get_error_text (self->approval);

  gtk_widget_set_visible (self->generating_box, generating);
  gtk_spinner_set_spinning (self->generating_spinner, generating);
  gtk_text_view_set_editable (self->answer_view, !generating);
  gtk_text_view_set_cursor_visible (self->answer_view, !generating);

  if (error != NULL && *error != '\0')
    {
      g_autofree char *visible = steward_text_for_display (error);

      gtk_label_set_text (self->error_label, visible);
      gtk_widget_set_visible (GTK_WIDGET (self->error_label), TRUE);
    }
  else
    {
      gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);
    }

  answer_changed_cb (self);
}

static void
update_stage (StewardSamplingDialog *self)
{
  StewardApprovalStage stage = steward_approval_get_stage (self->approval);
  gboolean response = stage == STEWARD_APPROVAL_STAGE_RESPONSE;

  gtk_stack_set_visible_child_name (self->stack, response ? "response" : "request");
  gtk_widget_set_visible (self->continue_button, !response);
  /* With no model, the person writes the answer: nothing to generate again. */
  gtk_widget_set_visible (self->regenerate_button,
                          response && steward_sampling_dialog_has_model (self));
  gtk_widget_set_visible (self->send_button, response);
  gtk_window_set_default_widget (GTK_WINDOW (self),
                                 response ? self->send_button : self->continue_button);

  if (response)
    {
      sync_answer (self);
      update_generating (self);
      if (!steward_approval_get_generating (self->approval))
        gtk_widget_grab_focus (GTK_WIDGET (self->answer_view));
    }

  update_actions (self);
}

static void
respond (StewardSamplingDialog *self,
         StewardApprovalAction  action,
         JsonObject            *data)
{
  steward_approval_dialog_respond (STEWARD_APPROVAL_DIALOG (self), action, data);
}

static gboolean
resize_tick_cb (GtkWidget     *view,
                GdkFrameClock *frame_clock,
                gpointer       user_data)
{
  gtk_widget_queue_resize (view);
  return G_SOURCE_REMOVE;
}

static void
text_height_changed_cb (GtkWidget *view)
{
  gtk_widget_add_tick_callback (view, resize_tick_cb, NULL, NULL);
}

/* GTK 4.8 lays out a text view's lines only once the view is allocated, and
 * asks for no new size when they turn out taller, so the view stays at the
 * height of its first line, or of nothing at all. The vertical adjustment
 * learns the real height during that allocation, when a resize would be
 * lost; ask for one on the next frame instead. */
static void
follow_text_height (GtkTextView *view)
{
  GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (view));

  g_signal_connect_object (adjustment, "notify::upper",
                           G_CALLBACK (text_height_changed_cb), view, G_CONNECT_SWAPPED);
}

/* A text view as tall as its text: in a scrolled window that never scrolls,
 * which asks for all of its child's height. */
static GtkWidget *
new_text_view (const char *text,
               gboolean    editable,
               const char *accessible_label)
{
  GtkWidget *view = gtk_text_view_new ();
  GtkWidget *scrolled = gtk_scrolled_window_new ();

  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (view), GTK_WRAP_WORD_CHAR);
  gtk_text_view_set_accepts_tab (GTK_TEXT_VIEW (view), FALSE);
  gtk_text_view_set_editable (GTK_TEXT_VIEW (view), editable);
  gtk_text_view_set_top_margin (GTK_TEXT_VIEW (view), 8);
  gtk_text_view_set_bottom_margin (GTK_TEXT_VIEW (view), 8);
  gtk_text_view_set_left_margin (GTK_TEXT_VIEW (view), 8);
  gtk_text_view_set_right_margin (GTK_TEXT_VIEW (view), 8);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)), text, -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (view),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, accessible_label,
                                  -1);

  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), view);
  gtk_scrolled_window_set_has_frame (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  /* No scrolling of its own: the page scrolls, and a scrolled window
   * without a vertical scroll bar asks for all of its child's height. */
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled),
                                  GTK_POLICY_NEVER, GTK_POLICY_NEVER);
  follow_text_height (GTK_TEXT_VIEW (view));

  return scrolled;
}

static GtkWidget *
new_note (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_add_css_class (label, "caption");

  return label;
}

static char *
text_label (const char *role,
            guint       number,
            guint       part)
{
  g_autofree char *name = NULL;

  if (g_strcmp0 (role, "user") == 0)
    /* Translators: the accessible name of a message's text; %u is its number. */
    name = g_strdup_printf (_("Message %u from user"), number);
  else if (g_strcmp0 (role, "assistant") == 0)
    name = g_strdup_printf (_("Message %u from assistant"), number);
  else
    name = g_strdup_printf (_("Message %u"), number);

  if (part == 0)
    return g_steal_pointer (&name);

  /* Translators: a message with several texts; %s names the message, %u
   * counts its texts. */
  return g_strdup_printf (_("%s, part %u"), name, part + 1);
}

static void
add_text_block (StewardSamplingDialog *self,
                GtkBox                *card,
                guint                  message,
                int                    block,
                const char            *role,
                guint                  part,
                const char            *text)
{
  TextBlock *entry = g_new0 (TextBlock, 1);
  g_autofree char *name = text_label (role, message + 1, part);
  gboolean truncated = FALSE;
  GtkWidget *scrolled;
  GtkWidget *view;

  entry->message = message;
  entry->block = block;
  entry->original = g_strdup (text);
  entry->shown = steward_text_make_visible_capped (text, STEWARD_TEXT_DISPLAY_MAX, &truncated);

  /* A text cut for display cannot be edited: sending the cut copy would
   * silently drop the rest. */
  scrolled = new_text_view (entry->shown, !truncated, name);
  view = gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scrolled));
  entry->buffer = g_object_ref (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)));
  gtk_box_append (card, scrolled);
  g_ptr_array_add (self->blocks, entry);

  if (truncated)
    gtk_box_append (card, new_note (_(TOO_LONG_NOTE)));
  else if (steward_text_has_hidden (text))
    gtk_box_append (card, new_note (_(HIDDEN_NOTE)));
}

static void
add_content_block (StewardSamplingDialog *self,
                   GtkBox                *card,
                   guint                  message,
                   int                    block,
                   const char            *role,
                   guint                 *parts,
                   JsonNode              *node)
{
  g_autoptr(McpContent) content = NULL;
  JsonObject *object;

  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      object = json_node_get_object (node);
      if (g_strcmp0 (mcp_json_get_string (object, "type"), "text") == 0 &&
          mcp_json_get_string (object, "text") != NULL)
        {
          add_text_block (self, card, message, block, role, (*parts)++,
                          mcp_json_get_string (object, "text"));
          return;
        }

      content = mcp_content_new (object);
    }
  else
    {
      /* Not a content block at all: shown as the JSON it is. */
      g_autoptr(JsonObject) wrapper = json_object_new ();

      json_object_set_string_member (wrapper, "type", "invalid");
      json_object_set_member (wrapper, "value", json_node_copy (node));
      content = mcp_content_new (wrapper);
    }

  gtk_box_append (card, steward_content_view_new (content));
}

static void
add_message (StewardSamplingDialog *self,
             guint                  index,
             JsonNode              *node)
{
  JsonObject *message = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  const char *role = mcp_json_get_string (message, "role");
  JsonNode *content = message != NULL ? json_object_get_member (message, "content") : NULL;
  GtkWidget *card = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  GtkWidget *role_label;
  guint parts = 0;

  gtk_widget_add_css_class (card, "card");
  gtk_widget_set_margin_bottom (card, 12);

  if (g_strcmp0 (role, "user") == 0)
    role_label = gtk_label_new (_("User"));
  else if (g_strcmp0 (role, "assistant") == 0)
    role_label = gtk_label_new (_("Assistant"));
  else
    {
      g_autofree char *visible = steward_text_make_visible_capped (role != NULL ? role : "?",
                                                                  256, NULL);
      role_label = gtk_label_new (visible);
    }

  gtk_label_set_xalign (GTK_LABEL (role_label), 0);
  gtk_widget_add_css_class (role_label, "heading");
  gtk_widget_set_margin_start (role_label, 12);
  gtk_widget_set_margin_top (role_label, 12);
  gtk_box_append (GTK_BOX (card), role_label);

  {
    GtkWidget *inner = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);

    gtk_widget_set_margin_start (inner, 12);
    gtk_widget_set_margin_end (inner, 12);
    gtk_widget_set_margin_bottom (inner, 12);
    gtk_box_append (GTK_BOX (card), inner);

    if (content != NULL && JSON_NODE_HOLDS_ARRAY (content))
      {
        JsonArray *array = json_node_get_array (content);

        for (guint i = 0; i < json_array_get_length (array); i++)
          add_content_block (self, GTK_BOX (inner), index, (int) i, role, &parts,
                             json_array_get_element (array, i));
      }
    else if (content != NULL)
      {
        add_content_block (self, GTK_BOX (inner), index, -1, role, &parts, content);
      }
    else
      {
        gtk_box_append (GTK_BOX (inner), new_note (_("This message has no content.")));
      }
  }

  gtk_box_append (self->messages_box, card);
  g_ptr_array_add (self->cards, card);
}

static void
build_request (StewardSamplingDialog *self)
{
  JsonObject *request = steward_approval_get_request (self->approval);
  JsonArray *messages = mcp_json_get_array (request, "messages");
  const char *system = mcp_json_get_string (request, "systemPrompt");
  const char *cause = steward_approval_get_cause (self->approval);
  g_autofree char *server = steward_approval_dialog_dup_server_name (STEWARD_APPROVAL_DIALOG (self));
  g_autofree char *task_line = steward_approval_dialog_dup_task_line (STEWARD_APPROVAL_DIALOG (self));
  g_autofree char *title = NULL;
  g_autofree char *intro = NULL;
  g_autofree char *answer_intro = NULL;
  guint n_messages = messages != NULL ? json_array_get_length (messages) : 0;
  gboolean truncated = FALSE;

  /* Translators: the window title; %s is the server's name. */
  title = g_strdup_printf (_("Sampling Request from “%s”"), server);
  gtk_window_set_title (GTK_WINDOW (self), title);

  intro = g_strdup_printf (_("“%s” wants to ask a language model. "
                             "Read and edit the request before it is sent."), server);
  gtk_label_set_text (self->intro_label, intro);

  answer_intro = g_strdup_printf (_("This is the answer “%s” will receive. "
                                    "Read and edit it before you send it."), server);
  gtk_label_set_text (self->answer_intro_label, answer_intro);

  if (task_line != NULL)
    {
      gtk_label_set_text (self->cause_label, task_line);
      gtk_widget_set_visible (GTK_WIDGET (self->cause_label), TRUE);
    }
  else if (cause != NULL)
    {
      g_autofree char *visible = steward_text_make_visible_capped (cause, 1024, NULL);
      /* Translators: %s says what led to the request, such as "tool call
       * `search`". */
      g_autofree char *text = g_strdup_printf (_("Asked during: %s"), visible);

      gtk_label_set_text (self->cause_label, text);
      gtk_widget_set_visible (GTK_WIDGET (self->cause_label), TRUE);
    }

  self->system_original = g_strdup (system);
  self->system_shown = steward_text_make_visible_capped (system != NULL ? system : "",
                                                         STEWARD_TEXT_DISPLAY_MAX, &truncated);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->system_view), self->system_shown, -1);
  gtk_text_view_set_editable (self->system_view, !truncated);
  if (truncated)
    {
      gtk_label_set_text (self->system_note, _(TOO_LONG_NOTE));
      gtk_widget_set_visible (GTK_WIDGET (self->system_note), TRUE);
    }
  else if (steward_text_has_hidden (system))
    {
      gtk_label_set_text (self->system_note, _(HIDDEN_NOTE));
      gtk_widget_set_visible (GTK_WIDGET (self->system_note), TRUE);
    }
  system_changed_cb (self);

  for (guint i = 0; i < MIN (n_messages, MAX_MESSAGES); i++)
    add_message (self, i, json_array_get_element (messages, i));

  if (n_messages == 0)
    {
      gtk_label_set_text (self->messages_note, _("The request has no messages."));
      gtk_widget_set_visible (GTK_WIDGET (self->messages_note), TRUE);
    }
  else if (n_messages > MAX_MESSAGES)
    {
      guint more = n_messages - MAX_MESSAGES;
      g_autofree char *text = g_strdup_printf (ngettext ("%u more message is not shown; "
                                                         "it is sent as the server wrote it.",
                                                         "%u more messages are not shown; "
                                                         "they are sent as the server wrote them.",
                                                         more),
                                               more);

      gtk_label_set_text (self->messages_note, text);
      gtk_widget_set_visible (GTK_WIDGET (self->messages_note), TRUE);
    }

  steward_sampling_dialog_update_parameters (self);
  steward_sampling_dialog_update_model (self);
}

/* The server's params with the system prompt and every text replaced by
 * what the person left in the views. */
static JsonObject *
dup_edited_request (StewardSamplingDialog *self)
{
  JsonObject *request = steward_approval_get_request (self->approval);
  g_autoptr(JsonNode) wrapper = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *system = NULL;
  JsonObject *params;
  JsonArray *messages;

  if (request == NULL)
    return json_object_new ();

  wrapper = json_node_init_object (json_node_alloc (), request);
  node = steward_json_copy (wrapper);
  params = json_node_get_object (node);

  system = dup_edited (gtk_text_view_get_buffer (self->system_view),
                       self->system_original, self->system_shown);
  if (*system != '\0')
    json_object_set_string_member (params, "systemPrompt", system);
  else if (json_object_has_member (params, "systemPrompt"))
    json_object_remove_member (params, "systemPrompt");

  messages = mcp_json_get_array (params, "messages");
  for (guint i = 0; messages != NULL && i < self->blocks->len; i++)
    {
      TextBlock *block = g_ptr_array_index (self->blocks, i);
      JsonObject *message = json_array_get_object_element (messages, block->message);
      JsonNode *content = json_object_get_member (message, "content");
      JsonObject *object;
      g_autofree char *text = NULL;

      if (block->block < 0)
        object = json_node_get_object (content);
      else
        object = json_array_get_object_element (json_node_get_array (content), block->block);

      text = dup_edited (block->buffer, block->original, block->shown);
      json_object_set_string_member (object, "text", text);
    }

  return json_object_ref (params);
}

static void
continue_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  StewardSamplingDialog *self = STEWARD_SAMPLING_DIALOG (widget);
  g_autoptr(JsonObject) params = dup_edited_request (self);

  self->continued = TRUE;
  respond (self, STEWARD_APPROVAL_ACTION_CONTINUE, params);
}

static void
send_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  StewardSamplingDialog *self = STEWARD_SAMPLING_DIALOG (widget);
  const char *model = steward_approval_get_model (self->approval);
  g_autofree char *text = dup_edited (gtk_text_view_get_buffer (self->answer_view),
                                      steward_approval_get_answer_text (self->approval),
                                      self->answer_shown);
  g_autoptr(JsonObject) result = json_object_new ();
  g_autoptr(JsonObject) content = json_object_new ();

  json_object_set_string_member (content, "type", "text");
  json_object_set_string_member (content, "text", text);

  json_object_set_string_member (result, "role", "assistant");
  json_object_set_object_member (result, "content", g_steal_pointer (&content));
  /* The result must name a model; the person is the model when no
   * provider is set up. */
  if (model == NULL || *model == '\0')
    model = "manual";
  json_object_set_string_member (result, "model", model);
  json_object_set_string_member (result, "stopReason", "endTurn");

  respond (self, STEWARD_APPROVAL_ACTION_SEND, result);
}

static void
steward_sampling_dialog_update_actions (StewardApprovalDialog *dialog)
{
  update_actions (STEWARD_SAMPLING_DIALOG (dialog));
}

static void
steward_sampling_dialog_constructed (GObject *object)
{
  StewardSamplingDialog *self = STEWARD_SAMPLING_DIALOG (object);

  G_OBJECT_CLASS (steward_sampling_dialog_parent_class)->constructed (object);

  self->approval = steward_approval_dialog_get_approval (STEWARD_APPROVAL_DIALOG (self));
  g_return_if_fail (self->approval != NULL);

  build_request (self);

  g_signal_connect_object (self->approval, "notify::stage",
                           G_CALLBACK (update_stage), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->approval, "notify::answer-text",
                           G_CALLBACK (sync_answer), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->approval, "notify::generating",
                           G_CALLBACK (update_generating), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->approval, "notify::error-text",
                           G_CALLBACK (update_generating), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->approval, "notify::model",
                           G_CALLBACK (steward_sampling_dialog_update_model), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->approval, "notify::model-reason",
                           G_CALLBACK (steward_sampling_dialog_update_model), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->approval, "notify::policy-text",
                           G_CALLBACK (steward_sampling_dialog_update_model), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->approval, "notify::max-tokens-requested",
                           G_CALLBACK (steward_sampling_dialog_update_max_tokens), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->approval, "notify::request",
                           G_CALLBACK (request_changed_cb), self, G_CONNECT_SWAPPED);

  update_tool_uses (self);
  update_generating (self);
  update_stage (self);
}

/* Start in the first message, which the person reads and may edit, or in
 * the system prompt when there is none. */
static GtkWidget *
steward_sampling_dialog_initial_focus (StewardApprovalDialog *dialog)
{
  StewardSamplingDialog *self = STEWARD_SAMPLING_DIALOG (dialog);

  if (gtk_widget_child_focus (GTK_WIDGET (self->messages_box), GTK_DIR_TAB_FORWARD))
    return gtk_window_get_focus (GTK_WINDOW (self));

  return GTK_WIDGET (self->system_view);
}

static void
steward_sampling_dialog_dispose (GObject *object)
{
  StewardSamplingDialog *self = STEWARD_SAMPLING_DIALOG (object);

  g_clear_pointer (&self->blocks, g_ptr_array_unref);
  g_clear_pointer (&self->cards, g_ptr_array_unref);
  self->approval = NULL;

  gtk_widget_dispose_template (GTK_WIDGET (self), STEWARD_TYPE_SAMPLING_DIALOG);

  G_OBJECT_CLASS (steward_sampling_dialog_parent_class)->dispose (object);
}

static void
steward_sampling_dialog_finalize (GObject *object)
{
  StewardSamplingDialog *self = STEWARD_SAMPLING_DIALOG (object);

  g_free (self->system_original);
  g_free (self->system_shown);
  g_free (self->answer_shown);

  G_OBJECT_CLASS (steward_sampling_dialog_parent_class)->finalize (object);
}

static void
steward_sampling_dialog_class_init (StewardSamplingDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  StewardApprovalDialogClass *dialog_class = STEWARD_APPROVAL_DIALOG_CLASS (klass);

  object_class->constructed = steward_sampling_dialog_constructed;
  object_class->dispose = steward_sampling_dialog_dispose;
  object_class->finalize = steward_sampling_dialog_finalize;

  dialog_class->update_actions = steward_sampling_dialog_update_actions;
  dialog_class->initial_focus = steward_sampling_dialog_initial_focus;

  /* Dismissing the dialog is a refusal. */
  steward_approval_dialog_class_set_dismiss_action (dialog_class, STEWARD_APPROVAL_ACTION_REJECT);

  steward_approval_dialog_class_install_answer (dialog_class, "sampling.reject",
                                                STEWARD_APPROVAL_ACTION_REJECT);
  gtk_widget_class_install_action (widget_class, "sampling.continue", NULL, continue_action);
  steward_approval_dialog_class_install_answer (dialog_class, "sampling.regenerate",
                                                STEWARD_APPROVAL_ACTION_REGENERATE);
  gtk_widget_class_install_action (widget_class, "sampling.send", NULL, send_action);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/stewardmcp/Steward/"
                                                             "steward-sampling-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingDialog, stack);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingDialog, intro_label);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingDialog, cause_label);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingDialog, system_view);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingDialog, system_placeholder);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingDialog, system_note);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingDialog, messages_box);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingDialog, messages_note);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingDialog, parameters_row);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingDialog, max_tokens_row);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingDialog, temperature_row);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingDialog, stop_row);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingDialog, context_row);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingDialog, preferences_row);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingDialog, tools_row);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingDialog, model_row);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingDialog, model_dropdown);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingDialog, sent_row);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingDialog, estimate_row);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingDialog, policy_row);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingDialog, answer_intro_label);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingDialog, generating_box);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingDialog, generating_spinner);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingDialog, answer_view);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingDialog, answer_placeholder);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingDialog, error_label);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingDialog, answer_model_label);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingDialog, tool_use_label);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingDialog, reject_button);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingDialog, regenerate_button);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingDialog, continue_button);
  gtk_widget_class_bind_template_child (widget_class, StewardSamplingDialog, send_button);
  gtk_widget_class_bind_template_callback (widget_class, system_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, answer_changed_cb);
}

static void
steward_sampling_dialog_init (StewardSamplingDialog *self)
{
  self->blocks = g_ptr_array_new_with_free_func (text_block_free);
  self->cards = g_ptr_array_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
  /* libadwaita 1.2 leaves these without a name a screen reader can say. */
  steward_accessible_name_expander_row (self->parameters_row);
  steward_accessible_name_drop_down (self->model_dropdown);
  follow_text_height (self->system_view);
  follow_text_height (self->answer_view);
}

/**
 * steward_sampling_dialog_new:
 * @approval: an approval of kind %STEWARD_APPROVAL_KIND_SAMPLING
 *
 * Returns: (transfer none): a new dialog; set it transient for the window
 *   it belongs to and present it
 */
GtkWidget *
steward_sampling_dialog_new (StewardApproval *approval)
{
  g_return_val_if_fail (STEWARD_IS_APPROVAL (approval), NULL);
  g_return_val_if_fail (steward_approval_get_kind (approval) == STEWARD_APPROVAL_KIND_SAMPLING,
                        NULL);

  return g_object_new (STEWARD_TYPE_SAMPLING_DIALOG,
                       "approval", approval,
                       NULL);
}

const char *
steward_sampling_dialog_get_stage_name (StewardSamplingDialog *self)
{
  g_return_val_if_fail (STEWARD_IS_SAMPLING_DIALOG (self), NULL);

  return gtk_stack_get_visible_child_name (self->stack);
}

GtkTextView *
steward_sampling_dialog_get_system_view (StewardSamplingDialog *self)
{
  g_return_val_if_fail (STEWARD_IS_SAMPLING_DIALOG (self), NULL);

  return self->system_view;
}

GtkTextView *
steward_sampling_dialog_get_text_view (StewardSamplingDialog *self,
                                       guint                  n)
{
  GtkWidget *card;
  guint seen = 0;

  g_return_val_if_fail (STEWARD_IS_SAMPLING_DIALOG (self), NULL);

  /* The views are found in the cards, in order, as a person finds them. */
  for (guint i = 0; i < self->cards->len; i++)
    {
      card = g_ptr_array_index (self->cards, i);

      for (GtkWidget *child = gtk_widget_get_first_child (card); child != NULL;
           child = gtk_widget_get_next_sibling (child))
        {
          for (GtkWidget *part = gtk_widget_get_first_child (child); part != NULL;
               part = gtk_widget_get_next_sibling (part))
            {
              GtkWidget *view = GTK_IS_SCROLLED_WINDOW (part)
                                ? gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (part)) : NULL;

              if (GTK_IS_TEXT_VIEW (view) && seen++ == n)
                return GTK_TEXT_VIEW (view);
            }
        }
    }

  return NULL;
}

GtkWidget *
steward_sampling_dialog_get_message_card (StewardSamplingDialog *self,
                                          guint                  n)
{
  g_return_val_if_fail (STEWARD_IS_SAMPLING_DIALOG (self), NULL);

  return n < self->cards->len ? g_ptr_array_index (self->cards, n) : NULL;
}

GtkTextView *
steward_sampling_dialog_get_answer_view (StewardSamplingDialog *self)
{
  g_return_val_if_fail (STEWARD_IS_SAMPLING_DIALOG (self), NULL);

  return self->answer_view;
}

GtkWidget *
steward_sampling_dialog_get_button (StewardSamplingDialog *self,
                                    const char            *name)
{
  g_return_val_if_fail (STEWARD_IS_SAMPLING_DIALOG (self), NULL);

  if (g_strcmp0 (name, "reject") == 0)
    return self->reject_button;
  if (g_strcmp0 (name, "continue") == 0)
    return self->continue_button;
  if (g_strcmp0 (name, "regenerate") == 0)
    return self->regenerate_button;
  if (g_strcmp0 (name, "send") == 0)
    return self->send_button;

  return NULL;
}

GtkWidget *
steward_sampling_dialog_get_spinner (StewardSamplingDialog *self)
{
  g_return_val_if_fail (STEWARD_IS_SAMPLING_DIALOG (self), NULL);

  return GTK_WIDGET (self->generating_spinner);
}

GtkLabel *
steward_sampling_dialog_get_cause_label (StewardSamplingDialog *self)
{
  g_return_val_if_fail (STEWARD_IS_SAMPLING_DIALOG (self), NULL);

  return self->cause_label;
}

GtkLabel *
steward_sampling_dialog_get_error_label (StewardSamplingDialog *self)
{
  g_return_val_if_fail (STEWARD_IS_SAMPLING_DIALOG (self), NULL);

  return self->error_label;
}

AdwActionRow *
steward_sampling_dialog_get_row (StewardSamplingDialog *self,
                                 const char            *name)
{
  static const struct {
    const char *name;
    gsize       offset;
  } rows[] = {
    { "max-tokens", G_STRUCT_OFFSET (StewardSamplingDialog, max_tokens_row) },
    { "temperature", G_STRUCT_OFFSET (StewardSamplingDialog, temperature_row) },
    { "stop-sequences", G_STRUCT_OFFSET (StewardSamplingDialog, stop_row) },
    { "context", G_STRUCT_OFFSET (StewardSamplingDialog, context_row) },
    { "preferences", G_STRUCT_OFFSET (StewardSamplingDialog, preferences_row) },
    { "tools", G_STRUCT_OFFSET (StewardSamplingDialog, tools_row) },
    { "model", G_STRUCT_OFFSET (StewardSamplingDialog, model_row) },
    { "sent", G_STRUCT_OFFSET (StewardSamplingDialog, sent_row) },
    { "estimate", G_STRUCT_OFFSET (StewardSamplingDialog, estimate_row) },
    { "policy", G_STRUCT_OFFSET (StewardSamplingDialog, policy_row) },
  };

  g_return_val_if_fail (STEWARD_IS_SAMPLING_DIALOG (self), NULL);

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      if (g_strcmp0 (name, rows[i].name) == 0)
        return G_STRUCT_MEMBER (AdwActionRow *, self, rows[i].offset);
    }

  return NULL;
}

GtkDropDown *
steward_sampling_dialog_get_model_dropdown (StewardSamplingDialog *self)
{
  g_return_val_if_fail (STEWARD_IS_SAMPLING_DIALOG (self), NULL);

  return self->model_dropdown;
}

AdwExpanderRow *
steward_sampling_dialog_get_parameters_row (StewardSamplingDialog *self)
{
  g_return_val_if_fail (STEWARD_IS_SAMPLING_DIALOG (self), NULL);

  return self->parameters_row;
}

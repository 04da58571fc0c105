/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The composer of the chat page: the text, the attachments (Attach Resource…)
 * and the "/" list of prompts with the dialog that asks for their arguments. */
#define G_LOG_DOMAIN "steward-chat-page"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mcp-client.h"
#include "mcp-content.h"
#include "mcp-prompt.h"
#include "mcp-prompt-result.h"
#include "mcp-resource.h"
#include "steward-text.h"

#include "steward-chat-page-private.h"
#include "steward-completion-entry.h"

/* An attachment goes to the model whole; a bigger one is refused with a
 * message rather than sent. */
#define MAX_ATTACHMENT_BYTES (1024 * 1024)
/* The "/" list and the resource list stay short enough to read. */
#define MAX_PROMPT_CHOICES 50
#define MAX_RESOURCE_CHOICES 500

char *
_steward_chat_page_dup_composer_text (StewardChatPage *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->composer_view);
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

void
_steward_chat_page_set_composer_text (StewardChatPage *self,
                                      const char      *text)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->composer_view);
  GtkTextIter end;

  gtk_text_buffer_set_text (buffer, text != NULL ? text : "", -1);
  gtk_text_buffer_get_end_iter (buffer, &end);
  gtk_text_buffer_place_cursor (buffer, &end);
}

void
_steward_chat_page_set_editing (StewardChatPage *self,
                                gboolean         editing)
{
  self->editing = editing;
  gtk_widget_set_visible (self->edit_bar, editing);
}

void
_steward_chat_page_update_attachment_chips (StewardChatPage *self)
{
  guint length = json_array_get_length (self->attachments);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->attachments_box))) != NULL)
    gtk_box_remove (self->attachments_box, child);

  for (guint i = 0; i < length; i++)
    {
      JsonObject *block = json_array_get_object_element (self->attachments, i);
      JsonObject *resource = json_object_get_object_member (block, "resource");
      const char *uri = resource != NULL
                        ? json_object_get_string_member_with_default (resource, "uri", "")
                        : "";
      g_autofree char *visible = steward_text_make_visible_capped (uri, 1024, NULL);
      g_autofree char *remove_label = NULL;
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      GtkWidget *label = gtk_label_new (*visible != '\0' ? visible : _("Attachment"));
      GtkWidget *button = gtk_button_new_from_icon_name ("window-close-symbolic");

      gtk_box_append (GTK_BOX (box), gtk_image_new_from_icon_name ("mail-attachment-symbolic"));
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
      gtk_widget_set_hexpand (label, TRUE);
      gtk_box_append (GTK_BOX (box), label);

      /* Translators: %s is the address of an attached resource. */
      remove_label = g_strdup_printf (_("Remove %s"), visible);
      gtk_widget_add_css_class (button, "flat");
      gtk_widget_set_tooltip_text (button, remove_label);
      gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, remove_label,
                                      -1);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "chat.remove-attachment");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "u", i);
      gtk_box_append (GTK_BOX (box), button);

      gtk_box_append (self->attachments_box, box);
    }

  gtk_widget_set_visible (GTK_WIDGET (self->attachments_box), length > 0);
  _steward_chat_page_update_actions (self);
}

static gsize
content_size (McpContent *content)
{
  const char *text = mcp_content_get_text (content);

  return text != NULL ? strlen (text) : mcp_content_get_data_size (content);
}

/* Adds a block in the provider's neutral shape; @json is copied. */
static gboolean
add_attachment (StewardChatPage *self,
                const char      *type,
                JsonObject      *json)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), json);
  g_autofree char *text = json_to_string (node, FALSE);
  g_autoptr(JsonNode) copy = json_from_string (text, NULL);
  JsonObject *block;

  if (copy == NULL || !JSON_NODE_HOLDS_OBJECT (copy))
    return FALSE;

  if (g_str_equal (type, "resource"))
    {
      block = json_object_new ();
      json_object_set_string_member (block, "type", "resource");
      json_object_set_member (block, "resource", g_steal_pointer (&copy));
    }
  else
    {
      block = json_object_ref (json_node_get_object (copy));
    }

  json_array_add_object_element (self->attachments, block);
  return TRUE;
}

/* A request the composer makes for the page, which may be gone by its
 * answer, and what it was for: a resource's address, a prompt's command. */
typedef struct
{
  GWeakRef  page;
  char     *text;
} PageRequest;

static PageRequest *
page_request_new (StewardChatPage *page,
                  const char      *text)
{
  PageRequest *data = g_new0 (PageRequest, 1);

  g_weak_ref_init (&data->page, page);
  data->text = g_strdup (text);
  return data;
}

static void
page_request_free (PageRequest *data)
{
  g_weak_ref_clear (&data->page);
  g_free (data->text);
  g_free (data);
}

static void
resource_read_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  PageRequest *data = user_data;
  g_autoptr(StewardChatPage) self = g_weak_ref_get (&data->page);
  g_autoptr(GPtrArray) contents = NULL;
  g_autoptr(GError) error = NULL;

  contents = mcp_client_read_resource_finish (MCP_CLIENT (object), result, &error);
  if (self == NULL || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      page_request_free (data);
      return;
    }

  if (contents == NULL)
    {
      g_autofree char *visible = steward_text_make_visible_capped (data->text, 1024, NULL);
      /* Translators: the first %s is a resource's address, the second why
       * it could not be read. */
      g_autofree char *text = g_strdup_printf (_("Could not attach %s: %s"), visible,
                                               error->message);

      _steward_chat_page_show_error (self, text);
      page_request_free (data);
      return;
    }

  for (guint i = 0; i < contents->len; i++)
    {
      McpContent *content = g_ptr_array_index (contents, i);

      if (content_size (content) > MAX_ATTACHMENT_BYTES)
        {
          g_autofree char *visible = steward_text_make_visible_capped (data->text, 1024, NULL);
          g_autofree char *size = g_format_size (content_size (content));
          g_autofree char *limit = g_format_size (MAX_ATTACHMENT_BYTES);
          /* Translators: a resource's address, its size and the largest
           * size that can be attached, such as "1.0 MB". */
          g_autofree char *text = g_strdup_printf (_("%s is too large to attach (%s; at most %s)."),
                                                   visible, size, limit);

          _steward_chat_page_show_error (self, text);
          continue;
        }

      add_attachment (self, "resource", mcp_content_get_json (content));
    }

  _steward_chat_page_update_attachment_chips (self);
  page_request_free (data);
}

/* The server's client while it is ready to answer, or NULL. */
static McpClient *
client_if_ready (StewardServer *server)
{
  if (server == NULL || steward_server_get_status (server) != STEWARD_SERVER_STATUS_READY)
    return NULL;

  return steward_server_get_client (server);
}

static McpClient *
ready_client (StewardChatPage *self,
              const char      *server_name)
{
  return client_if_ready (steward_server_registry_lookup (_steward_chat_page_get_registry (self),
                                                          server_name));
}

void
_steward_chat_page_attach_resource (StewardChatPage *self,
                                    const char      *server,
                                    const char      *uri)
{
  McpClient *client = ready_client (self, server);

  if (client == NULL)
    return;

  mcp_client_read_resource_async (client, uri, self->cancellable, resource_read_cb,
                                  page_request_new (self, uri));
}

/* Called for each item of each ready server, in order; says whether it
 * added a row for @item. */
typedef gboolean (*ChoiceFunc) (StewardChatPage *self,
                                StewardServer   *server,
                                McpClient       *client,
                                gpointer         item,
                                gpointer         user_data);

/* Empties @list, then offers it the items @get_items gives of each ready
 * server until @max rows were added. Returns how many were. */
static guint
fill_choices (StewardChatPage  *self,
              GtkListBox       *list,
              GListModel     *(*get_items) (McpClient *client),
              guint             max,
              ChoiceFunc        func,
              gpointer          user_data)
{
  GListModel *servers = G_LIST_MODEL (_steward_chat_page_get_registry (self));
  guint n_servers = g_list_model_get_n_items (servers);
  guint shown = 0;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (list))) != NULL)
    gtk_list_box_remove (list, child);

  for (guint i = 0; i < n_servers && shown < max; i++)
    {
      g_autoptr(StewardServer) server = g_list_model_get_item (servers, i);
      McpClient *client = client_if_ready (server);
      GListModel *items;
      guint n_items;

      if (client == NULL)
        continue;

      items = get_items (client);
      n_items = items != NULL ? g_list_model_get_n_items (items) : 0;
      for (guint j = 0; j < n_items && shown < max; j++)
        {
          g_autoptr(GObject) item = g_list_model_get_item (items, j);

          if (func (self, server, client, item, user_data))
            shown++;
        }
    }

  return shown;
}

/* The second, smaller line of a choice. */
static GtkWidget *
choice_caption_new (const char         *text,
                    PangoEllipsizeMode  ellipsize)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), ellipsize);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 50);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_add_css_class (label, "caption");
  return label;
}

/* A row holding @box, with @margin above and below it. */
static GtkWidget *
choice_row_new (GtkWidget *box,
                int        margin)
{
  GtkWidget *row = gtk_list_box_row_new ();

  gtk_widget_set_margin_top (box, margin);
  gtk_widget_set_margin_bottom (box, margin);
  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  return row;
}

static gboolean
add_resource_choice (StewardChatPage *self,
                     StewardServer   *server,
                     McpClient       *client,
                     gpointer         item,
                     gpointer         user_data)
{
  McpResource *resource = item;
  const char *name = mcp_item_get_display_name (MCP_ITEM (resource));
  const char *uri = mcp_resource_get_uri (resource);
  g_autofree char *visible_server = steward_text_make_visible_capped (
    steward_server_get_name (server), 256, NULL);
  g_autofree char *visible_name = steward_text_make_visible_capped (name ? name : uri, 256, NULL);
  g_autofree char *visible_uri = steward_text_make_visible_capped (uri, 1024, NULL);
  g_autofree char *title = NULL;
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *title_label;
  GtkWidget *row;

  /* Translators: a server's name and one of its resources' names. */
  title = g_strdup_printf (_("%s: %s"), visible_server, visible_name);
  title_label = gtk_label_new (title);
  gtk_label_set_xalign (GTK_LABEL (title_label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (title_label), PANGO_ELLIPSIZE_END);
  gtk_label_set_max_width_chars (GTK_LABEL (title_label), 50);
  gtk_box_append (GTK_BOX (box), title_label);
  gtk_box_append (GTK_BOX (box), choice_caption_new (visible_uri, PANGO_ELLIPSIZE_MIDDLE));
  row = choice_row_new (box, 6);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, title,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, visible_uri,
                                  -1);

  g_object_set_data_full (G_OBJECT (row), "server",
                          g_strdup (steward_server_get_name (server)), g_free);
  g_object_set_data_full (G_OBJECT (row), "uri", g_strdup (uri), g_free);
  gtk_list_box_append (self->resource_list, row);
  return TRUE;
}

static void
attach_popover_show_cb (StewardChatPage *self)
{
  guint shown = fill_choices (self, self->resource_list, mcp_client_get_resources,
                              MAX_RESOURCE_CHOICES, add_resource_choice, NULL);

  gtk_stack_set_visible_child_name (self->attach_stack, shown > 0 ? "list" : "empty");
}

static void
resource_activated_cb (StewardChatPage *self,
                       GtkListBoxRow   *row,
                       GtkListBox      *list)
{
  const char *server = g_object_get_data (G_OBJECT (row), "server");
  const char *uri = g_object_get_data (G_OBJECT (row), "uri");

  gtk_popover_popdown (self->attach_popover);
  _steward_chat_page_attach_resource (self, server, uri);
  gtk_widget_grab_focus (GTK_WIDGET (self->composer_view));
}

typedef struct
{
  char      *server;
  McpClient *client;
  McpPrompt *prompt;
} PromptChoice;

static void
prompt_choice_free (PromptChoice *choice)
{
  g_free (choice->server);
  g_clear_object (&choice->client);
  g_clear_object (&choice->prompt);
  g_free (choice);
}

/* The word after "/" while the person types a command, or NULL. */
static char *
dup_slash_query (StewardChatPage *self)
{
  g_autofree char *text = _steward_chat_page_dup_composer_text (self);

  if (text[0] != '/' || strpbrk (text, " \t\n") != NULL)
    return NULL;

  return g_strdup (text + 1);
}

void
_steward_chat_page_hide_prompts (StewardChatPage *self)
{
  if (gtk_widget_get_visible (GTK_WIDGET (self->prompt_popover)))
    gtk_popover_popdown (self->prompt_popover);
}

/* Adds @item, a prompt, when its "server/prompt" command holds @user_data,
 * the casefolded query. */
static gboolean
add_prompt_choice (StewardChatPage *self,
                   StewardServer   *server,
                   McpClient       *client,
                   gpointer         item,
                   gpointer         user_data)
{
  McpPrompt *prompt = item;
  const char *needle = user_data;
  const char *description = mcp_item_get_description (MCP_ITEM (prompt));
  g_autofree char *command = g_strdup_printf ("%s/%s", steward_server_get_name (server),
                                              mcp_item_get_name (MCP_ITEM (prompt)));
  g_autofree char *folded = g_utf8_casefold (command, -1);
  g_autofree char *visible = NULL;
  PromptChoice *choice;
  GtkWidget *row;
  GtkWidget *box;
  GtkWidget *label;

  if (strstr (folded, needle) == NULL)
    return FALSE;

  visible = steward_text_make_visible_capped (command, 256, NULL);
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  label = gtk_label_new (visible);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "monospace");
  gtk_box_append (GTK_BOX (box), label);
  if (description != NULL && *description != '\0')
    {
      g_autofree char *visible_description = steward_text_make_visible_capped (description,
                                                                               512, NULL);

      gtk_box_append (GTK_BOX (box),
                      choice_caption_new (visible_description, PANGO_ELLIPSIZE_END));
    }
  row = choice_row_new (box, 4);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, visible,
                                  -1);

  choice = g_new0 (PromptChoice, 1);
  choice->server = g_strdup (steward_server_get_name (server));
  choice->client = g_object_ref (client);
  choice->prompt = g_object_ref (prompt);
  g_object_set_data_full (G_OBJECT (row), "choice", choice,
                          (GDestroyNotify) prompt_choice_free);
  g_object_set_data_full (G_OBJECT (row), "command", g_strdup (command), g_free);
  gtk_list_box_append (self->prompt_list, row);
  return TRUE;
}

void
_steward_chat_page_update_prompt_list (StewardChatPage *self)
{
  g_autofree char *query = dup_slash_query (self);
  g_autofree char *needle = NULL;
  guint shown;

  if (query == NULL)
    {
      _steward_chat_page_hide_prompts (self);
      return;
    }

  needle = g_utf8_casefold (query, -1);
  shown = fill_choices (self, self->prompt_list, mcp_client_get_prompts, MAX_PROMPT_CHOICES,
                        add_prompt_choice, needle);

  if (shown == 0)
    {
      _steward_chat_page_hide_prompts (self);
      return;
    }

  gtk_list_box_select_row (self->prompt_list, gtk_list_box_get_row_at_index (self->prompt_list, 0));
  if (!gtk_widget_get_visible (GTK_WIDGET (self->prompt_popover)))
    gtk_popover_popup (self->prompt_popover);
}

static void
insert_prompt_result (StewardChatPage *self,
                      McpPromptResult *result)
{
  g_autoptr(GString) text = g_string_new (NULL);
  guint n = mcp_prompt_result_get_n_messages (result);

  /* The prompt's words go into the composer for the person to read and
   * send; what is not text goes along as attachments. */
  for (guint i = 0; i < n; i++)
    {
      McpContent *content = mcp_prompt_result_get_message_content (result, i);
      const char *piece = NULL;

      if (content == NULL)
        continue;

      switch (mcp_content_get_content_type (content))
        {
        case MCP_CONTENT_TEXT:
          piece = mcp_content_get_text (content);
          break;
        case MCP_CONTENT_RESOURCE_LINK:
          piece = mcp_content_get_uri (content);
          break;
        case MCP_CONTENT_RESOURCE:
        case MCP_CONTENT_IMAGE:
        case MCP_CONTENT_AUDIO:
          if (content_size (content) <= MAX_ATTACHMENT_BYTES)
            add_attachment (self, mcp_content_get_type_name (content),
                            mcp_content_get_json (content));
          break;
        default:
          break;
        }

      if (piece != NULL && *piece != '\0')
        {
          g_autofree char *stripped = steward_text_strip_hidden (piece);

          if (text->len > 0)
            g_string_append (text, "\n\n");
          g_string_append (text, stripped);
        }
    }

  _steward_chat_page_set_composer_text (self, text->str);
  _steward_chat_page_update_attachment_chips (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->composer_view));
}

static void
prompt_got_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  PageRequest *data = user_data;
  g_autoptr(StewardChatPage) self = g_weak_ref_get (&data->page);
  g_autoptr(McpPromptResult) prompt = NULL;
  g_autoptr(GError) error = NULL;

  prompt = mcp_client_get_prompt_finish (MCP_CLIENT (object), result, &error);
  if (self != NULL && prompt != NULL)
    {
      insert_prompt_result (self, prompt);
    }
  else if (self != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autofree char *visible = steward_text_make_visible_capped (data->text, 256, NULL);
      /* Translators: the first %s is a prompt ("server/prompt"), the
       * second why the server did not give it. */
      g_autofree char *text = g_strdup_printf (_("Could not get %s: %s"), visible,
                                               error->message);

      _steward_chat_page_show_error (self, text);
    }

  page_request_free (data);
}

static void
get_prompt (StewardChatPage *self,
            PromptChoice    *choice,
            JsonObject      *arguments)
{
  const char *name = mcp_item_get_name (MCP_ITEM (choice->prompt));
  g_autofree char *command = g_strdup_printf ("%s/%s", choice->server, name);

  mcp_client_get_prompt_async (choice->client, name, arguments, self->cancellable,
                               prompt_got_cb, page_request_new (self, command));
}

static JsonObject *
collect_arguments (GPtrArray *entries)
{
  JsonObject *arguments = json_object_new ();

  for (guint i = 0; i < entries->len; i++)
    {
      StewardCompletionEntry *entry = g_ptr_array_index (entries, i);
      const char *value = gtk_editable_get_text (steward_completion_entry_get_editable (entry));

      if (*value != '\0')
        json_object_set_string_member (arguments, steward_completion_entry_get_argument (entry),
                                       value);
    }

  return arguments;
}

static void
arguments_changed_cb (AdwMessageDialog *dialog)
{
  GPtrArray *entries = g_object_get_data (G_OBJECT (dialog), "entries");
  PromptChoice *choice = g_object_get_data (G_OBJECT (dialog), "choice");
  g_autoptr(JsonObject) context = collect_arguments (entries);
  gboolean complete = TRUE;

  for (guint i = 0; i < entries->len; i++)
    {
      StewardCompletionEntry *entry = g_ptr_array_index (entries, i);
      const char *value = gtk_editable_get_text (steward_completion_entry_get_editable (entry));

      /* Each entry asks its completions with what the others hold. */
      steward_completion_entry_set_context (entry, context);
      if (*value == '\0' && mcp_prompt_get_argument_required (choice->prompt, i))
        complete = FALSE;
    }

  adw_message_dialog_set_response_enabled (dialog, "insert", complete);
}

static void
arguments_response_cb (StewardChatPage  *self,
                       const char       *response,
                       AdwMessageDialog *dialog)
{
  GPtrArray *entries = g_object_get_data (G_OBJECT (dialog), "entries");
  PromptChoice *choice = g_object_get_data (G_OBJECT (dialog), "choice");
  g_autoptr(JsonObject) arguments = NULL;

  if (!g_str_equal (response, "insert"))
    return;

  arguments = collect_arguments (entries);
  get_prompt (self, choice, arguments);
}

static void
ask_arguments (StewardChatPage *self,
               PromptChoice    *choice)
{
  McpPrompt *prompt = choice->prompt;
  guint n = mcp_prompt_get_n_arguments (prompt);
  const char *description = mcp_item_get_description (MCP_ITEM (prompt));
  g_autofree char *command = g_strdup_printf ("%s/%s", choice->server,
                                              mcp_item_get_name (MCP_ITEM (prompt)));
  g_autofree char *heading = steward_text_make_visible_capped (command, 256, NULL);
  g_autofree char *body = description != NULL
                          ? steward_text_make_visible_capped (description, 2048, NULL) : NULL;
  GPtrArray *entries = g_ptr_array_new ();
  GtkWidget *dialog;
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  PromptChoice *copy;

  dialog = adw_message_dialog_new (_steward_chat_page_get_window (self), heading, body);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "insert", _("_Insert"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "insert",
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "insert");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");

  for (guint i = 0; i < n; i++)
    {
      const char *name = mcp_prompt_get_argument_name (prompt, i);
      const char *help = mcp_prompt_get_argument_description (prompt, i);
      g_autofree char *visible = steward_text_make_visible_capped (name, 256, NULL);
      g_autofree char *heading_text = mcp_prompt_get_argument_required (prompt, i)
                                      ? g_strdup_printf ("%s *", visible) : g_strdup (visible);
      GtkWidget *label = gtk_label_new (heading_text);
      GtkWidget *entry = steward_completion_entry_new (choice->client, "ref/prompt",
                                                       mcp_item_get_name (MCP_ITEM (prompt)),
                                                       name);
      GtkEditable *editable =
        steward_completion_entry_get_editable (STEWARD_COMPLETION_ENTRY (entry));

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_add_css_class (label, "heading");
      gtk_widget_set_margin_top (label, i > 0 ? 6 : 0);
      gtk_box_append (GTK_BOX (box), label);
      if (help != NULL && *help != '\0')
        {
          g_autofree char *visible_help = steward_text_make_visible_capped (help, 1024, NULL);
          GtkWidget *help_label = gtk_label_new (visible_help);

          gtk_label_set_xalign (GTK_LABEL (help_label), 0);
          gtk_label_set_wrap (GTK_LABEL (help_label), TRUE);
          gtk_widget_add_css_class (help_label, "dim-label");
          gtk_widget_add_css_class (help_label, "caption");
          gtk_box_append (GTK_BOX (box), help_label);
        }
      gtk_box_append (GTK_BOX (box), entry);
      gtk_accessible_update_property (GTK_ACCESSIBLE (editable),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, visible,
                                      -1);
      g_signal_connect_object (editable, "changed", G_CALLBACK (arguments_changed_cb),
                               dialog, G_CONNECT_SWAPPED);
      g_ptr_array_add (entries, entry);
    }

  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), box);

  copy = g_new0 (PromptChoice, 1);
  copy->server = g_strdup (choice->server);
  copy->client = g_object_ref (choice->client);
  copy->prompt = g_object_ref (choice->prompt);
  g_object_set_data_full (G_OBJECT (dialog), "choice", copy, (GDestroyNotify) prompt_choice_free);
  g_object_set_data_full (G_OBJECT (dialog), "entries", entries,
                          (GDestroyNotify) g_ptr_array_unref);
  g_signal_connect_object (dialog, "response", G_CALLBACK (arguments_response_cb),
                           self, G_CONNECT_SWAPPED);
  arguments_changed_cb (ADW_MESSAGE_DIALOG (dialog));
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
choose_prompt (StewardChatPage *self,
               GtkListBoxRow   *row)
{
  PromptChoice *choice = row != NULL ? g_object_get_data (G_OBJECT (row), "choice") : NULL;

  if (choice == NULL)
    return;

  _steward_chat_page_hide_prompts (self);
  /* The command gives way to what the prompt says. */
  _steward_chat_page_set_composer_text (self, "");

  if (mcp_prompt_get_n_arguments (choice->prompt) > 0)
    ask_arguments (self, choice);
  else
    get_prompt (self, choice, NULL);
}

static void
prompt_activated_cb (StewardChatPage *self,
                     GtkListBoxRow   *row,
                     GtkListBox      *list)
{
  choose_prompt (self, row);
}

static void
move_prompt_selection (StewardChatPage *self,
                       int              delta)
{
  GtkListBoxRow *selected = gtk_list_box_get_selected_row (self->prompt_list);
  int index = selected != NULL ? gtk_list_box_row_get_index (selected) + delta : 0;
  GtkListBoxRow *row = gtk_list_box_get_row_at_index (self->prompt_list, MAX (index, 0));

  if (row != NULL)
    gtk_list_box_select_row (self->prompt_list, row);
}

static gboolean
composer_key_pressed_cb (StewardChatPage       *self,
                         guint                  keyval,
                         guint                  keycode,
                         GdkModifierType        state,
                         GtkEventControllerKey *controller)
{
  gboolean prompts = gtk_widget_get_visible (GTK_WIDGET (self->prompt_popover));
  gboolean enter = keyval == GDK_KEY_Return || keyval == GDK_KEY_KP_Enter ||
                   keyval == GDK_KEY_ISO_Enter;

  if (prompts)
    {
      switch (keyval)
        {
        case GDK_KEY_Down:
          move_prompt_selection (self, 1);
          return TRUE;
        case GDK_KEY_Up:
          move_prompt_selection (self, -1);
          return TRUE;
        case GDK_KEY_Tab:
        case GDK_KEY_Return:
        case GDK_KEY_KP_Enter:
        case GDK_KEY_ISO_Enter:
          choose_prompt (self, gtk_list_box_get_selected_row (self->prompt_list));
          return TRUE;
        case GDK_KEY_Escape:
          _steward_chat_page_hide_prompts (self);
          return TRUE;
        default:
          return FALSE;
        }
    }

  /* Enter sends; with Shift (or while an input method composes) it is a
   * new line, as in other chat apps. */
  if (enter && (state & (GDK_SHIFT_MASK | GDK_CONTROL_MASK | GDK_ALT_MASK)) == 0)
    {
      gtk_widget_activate_action (GTK_WIDGET (self), "chat.send", NULL);
      return TRUE;
    }

  return FALSE;
}

static void
composer_changed_cb (StewardChatPage *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->composer_view);

  gtk_widget_set_visible (self->placeholder_label,
                          gtk_text_buffer_get_char_count (buffer) == 0);
  _steward_chat_page_update_prompt_list (self);
  _steward_chat_page_update_actions (self);
}

void
_steward_chat_page_class_composer_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, attach_popover_show_cb);
  gtk_widget_class_bind_template_callback (widget_class, resource_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, composer_key_pressed_cb);
  gtk_widget_class_bind_template_callback (widget_class, prompt_activated_cb);
}

void
_steward_chat_page_composer_init (StewardChatPage *self)
{
  /* The "/" list is placed by the page, above the composer. */
  gtk_widget_set_parent (GTK_WIDGET (self->prompt_popover), GTK_WIDGET (self));

  g_signal_connect_object (gtk_text_view_get_buffer (self->composer_view), "changed",
                           G_CALLBACK (composer_changed_cb), self, G_CONNECT_SWAPPED);
}

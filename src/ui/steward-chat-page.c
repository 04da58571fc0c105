/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-chat-page"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mcp-client.h"
#include "mcp-content.h"
#include "mcp-prompt.h"
#include "mcp-prompt-result.h"
#include "mcp-resource.h"
#include "steward-chat-engine.h"
#include "steward-conversation-store.h"
#include "steward-model-catalog.h"
#include "steward-text.h"
#include "steward-tool-pins.h"

#include "steward-chat-page-private.h"
#include "steward-chat-page.h"
#include "steward-completion-entry.h"
#include "steward-message-row.h"
#include "steward-tail-model.h"
#include "steward-tool-change-dialog.h"
#include "steward-tool-review-dialog.h"

/* An attachment goes to the model whole; a bigger one is refused with a
 * message rather than sent. */
#define MAX_ATTACHMENT_BYTES (1024 * 1024)
/* The "/" list and the resource list stay short enough to read. */
#define MAX_PROMPT_CHOICES 50
#define MAX_RESOURCE_CHOICES 500
/* How close to the end counts as "at the end" when new text arrives. */
#define STICK_DISTANCE 48.0
/* The list shows the newest messages of a conversation, and earlier ones
 * a page at a time as the person scrolls up: the list keeps a row for
 * every item it is given up to a couple of hundred, and rows are what
 * make a long conversation slow to open. */
#define SHOWN_MESSAGES 40
#define EARLIER_MESSAGES 10

struct _StewardChatPage
{
  AdwBin               parent_instance;

  AdwLeaflet          *leaflet;
  GtkWidget           *sidebar;
  GtkWidget           *main;
  GtkSearchEntry      *search_entry;
  GtkStack            *sidebar_stack;
  AdwStatusPage       *sidebar_status;
  GtkListView         *conversation_list;
  GtkRevealer         *changes_revealer;
  GtkLabel            *changes_label;
  GtkLabel            *title_label;
  GtkDropDown         *model_dropdown;
  GtkStack            *content_stack;
  GtkScrolledWindow   *message_scroller;
  GtkListView         *message_list;
  GtkWidget           *turn_actions;
  GtkLabel            *error_label;
  GtkWidget           *edit_bar;
  GtkBox              *attachments_box;
  GtkWidget           *composer_box;
  GtkMenuButton       *attach_button;
  GtkPopover          *attach_popover;
  GtkStack            *attach_stack;
  GtkListBox          *resource_list;
  GtkWidget           *placeholder_label;
  GtkTextView         *composer_view;
  GtkStack            *send_stack;
  GtkPopover          *prompt_popover;
  GtkListBox          *prompt_list;

  StewardHost         *host;
  StewardConversation *conversation;
  GSignalGroup        *conversation_signals;
  GtkFilterListModel  *filter_model;
  GtkCustomFilter     *filter;
  GtkSingleSelection  *conversation_selection;
  StewardTailModel    *message_tail;
  GtkNoSelection      *message_selection;
  guint                reveal_id;
  /* While a conversation is first laid out, its rows are measured and
   * the end of the list moves: the list is held at the end until it
   * stays put, and what the scrolling does meanwhile is not the
   * person's. */
  guint                settle_id;
  guint                settle_frames;
  guint                settle_stable;
  double               settle_upper;
  GtkStringList       *model_names;
  GPtrArray           *model_ids;
  char                *query;

  /* StewardConversation → GCancellable of its turn in flight */
  GHashTable          *running;
  JsonArray           *attachments;
  GCancellable        *cancellable;
  GHashTable          *watched;
  guint                watch_id;
  guint                n_tool_changes;

  gboolean             editing;
  gboolean             selecting;
  gboolean             updating_models;
  gboolean             stick_to_bottom;
};

enum {
  PROP_0,
  PROP_HOST,
  PROP_CONVERSATION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (StewardChatPage, steward_chat_page, ADW_TYPE_BIN)

static void update_actions      (StewardChatPage *self);
static void update_prompt_list  (StewardChatPage *self);

static StewardConversationStore *
get_store (StewardChatPage *self)
{
  return steward_host_get_conversations (self->host);
}

static StewardChatEngine *
get_engine (StewardChatPage *self)
{
  return steward_host_get_chat_engine (self->host);
}

static StewardServerRegistry *
get_registry (StewardChatPage *self)
{
  return steward_host_get_registry (self->host);
}

static GtkWindow *
get_window (StewardChatPage *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  return GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL;
}

static void
show_error (StewardChatPage *self,
            const char      *text)
{
  g_autofree char *visible = text != NULL ? steward_text_for_display (text) : NULL;

  gtk_label_set_text (self->error_label, visible != NULL ? visible : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), visible != NULL);
}

/* Composer */

static char *
dup_composer_text (StewardChatPage *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->composer_view);
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

static void
set_composer_text (StewardChatPage *self,
                   const char      *text)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->composer_view);
  GtkTextIter end;

  gtk_text_buffer_set_text (buffer, text != NULL ? text : "", -1);
  gtk_text_buffer_get_end_iter (buffer, &end);
  gtk_text_buffer_place_cursor (buffer, &end);
}

static void
set_editing (StewardChatPage *self,
             gboolean         editing)
{
  self->editing = editing;
  gtk_widget_set_visible (self->edit_bar, editing);
}

/* Attachments */

static void
update_attachment_chips (StewardChatPage *self)
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
  update_actions (self);
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

typedef struct
{
  GWeakRef  page;
  char     *uri;
} ReadData;

static void
read_data_free (ReadData *data)
{
  g_weak_ref_clear (&data->page);
  g_free (data->uri);
  g_free (data);
}

static void
resource_read_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  ReadData *data = user_data;
  g_autoptr(StewardChatPage) self = g_weak_ref_get (&data->page);
  g_autoptr(GPtrArray) contents = NULL;
  g_autoptr(GError) error = NULL;

  contents = mcp_client_read_resource_finish (MCP_CLIENT (object), result, &error);
  if (self == NULL || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      read_data_free (data);
      return;
    }

  if (contents == NULL)
    {
      g_autofree char *visible = steward_text_make_visible_capped (data->uri, 1024, NULL);
      /* Translators: the first %s is a resource's address, the second why
       * it could not be read. */
      g_autofree char *text = g_strdup_printf (_("Could not attach %s: %s"), visible,
                                               error->message);

      show_error (self, text);
      read_data_free (data);
      return;
    }

  for (guint i = 0; i < contents->len; i++)
    {
      McpContent *content = g_ptr_array_index (contents, i);

      if (content_size (content) > MAX_ATTACHMENT_BYTES)
        {
          g_autofree char *visible = steward_text_make_visible_capped (data->uri, 1024, NULL);
          g_autofree char *size = g_format_size (content_size (content));
          g_autofree char *limit = g_format_size (MAX_ATTACHMENT_BYTES);
          /* Translators: a resource's address, its size and the largest
           * size that can be attached, such as "1.0 MB". */
          g_autofree char *text = g_strdup_printf (_("%s is too large to attach (%s; at most %s)."),
                                                   visible, size, limit);

          show_error (self, text);
          continue;
        }

      add_attachment (self, "resource", mcp_content_get_json (content));
    }

  update_attachment_chips (self);
  read_data_free (data);
}

static McpClient *
ready_client (StewardChatPage *self,
              const char      *server_name)
{
  StewardServer *server = steward_server_registry_lookup (get_registry (self), server_name);

  if (server == NULL || steward_server_get_status (server) != STEWARD_SERVER_STATUS_READY)
    return NULL;

  return steward_server_get_client (server);
}

static void
attach_resource (StewardChatPage *self,
                 const char      *server,
                 const char      *uri)
{
  McpClient *client = ready_client (self, server);
  ReadData *data;

  if (client == NULL)
    return;

  data = g_new0 (ReadData, 1);
  g_weak_ref_init (&data->page, self);
  data->uri = g_strdup (uri);
  mcp_client_read_resource_async (client, uri, self->cancellable, resource_read_cb, data);
}

static void
attach_popover_show_cb (StewardChatPage *self)
{
  GListModel *servers = G_LIST_MODEL (get_registry (self));
  guint n_servers = g_list_model_get_n_items (servers);
  guint shown = 0;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->resource_list))) != NULL)
    gtk_list_box_remove (self->resource_list, child);

  for (guint i = 0; i < n_servers && shown < MAX_RESOURCE_CHOICES; i++)
    {
      g_autoptr(StewardServer) server = g_list_model_get_item (servers, i);
      McpClient *client = steward_server_get_client (server);
      GListModel *resources;
      guint n_resources;

      if (client == NULL || steward_server_get_status (server) != STEWARD_SERVER_STATUS_READY)
        continue;

      resources = mcp_client_get_resources (client);
      n_resources = resources != NULL ? g_list_model_get_n_items (resources) : 0;
      for (guint j = 0; j < n_resources && shown < MAX_RESOURCE_CHOICES; j++, shown++)
        {
          g_autoptr(McpResource) resource = g_list_model_get_item (resources, j);
          const char *name = mcp_item_get_display_name (MCP_ITEM (resource));
          const char *uri = mcp_resource_get_uri (resource);
          g_autofree char *visible_server = steward_text_make_visible_capped (
            steward_server_get_name (server), 256, NULL);
          g_autofree char *visible_name = steward_text_make_visible_capped (name ? name : uri,
                                                                            256, NULL);
          g_autofree char *visible_uri = steward_text_make_visible_capped (uri, 1024, NULL);
          g_autofree char *title = NULL;
          GtkWidget *row = gtk_list_box_row_new ();
          GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
          GtkWidget *title_label;
          GtkWidget *uri_label;

          /* Translators: a server's name and one of its resources' names. */
          title = g_strdup_printf (_("%s: %s"), visible_server, visible_name);
          title_label = gtk_label_new (title);
          uri_label = gtk_label_new (visible_uri);
          gtk_label_set_xalign (GTK_LABEL (title_label), 0);
          gtk_label_set_ellipsize (GTK_LABEL (title_label), PANGO_ELLIPSIZE_END);
          gtk_label_set_max_width_chars (GTK_LABEL (title_label), 50);
          gtk_label_set_xalign (GTK_LABEL (uri_label), 0);
          gtk_label_set_ellipsize (GTK_LABEL (uri_label), PANGO_ELLIPSIZE_MIDDLE);
          gtk_label_set_max_width_chars (GTK_LABEL (uri_label), 50);
          gtk_widget_add_css_class (uri_label, "dim-label");
          gtk_widget_add_css_class (uri_label, "caption");
          gtk_box_append (GTK_BOX (box), title_label);
          gtk_box_append (GTK_BOX (box), uri_label);
          gtk_widget_set_margin_top (box, 6);
          gtk_widget_set_margin_bottom (box, 6);
          gtk_widget_set_margin_start (box, 6);
          gtk_widget_set_margin_end (box, 6);
          gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
          gtk_accessible_update_property (GTK_ACCESSIBLE (row),
                                          GTK_ACCESSIBLE_PROPERTY_LABEL, title,
                                          GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, visible_uri,
                                          -1);

          g_object_set_data_full (G_OBJECT (row), "server",
                                  g_strdup (steward_server_get_name (server)), g_free);
          g_object_set_data_full (G_OBJECT (row), "uri", g_strdup (uri), g_free);
          gtk_list_box_append (self->resource_list, row);
        }
    }

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
  attach_resource (self, server, uri);
  gtk_widget_grab_focus (GTK_WIDGET (self->composer_view));
}

/* Prompts as slash commands */

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
  g_autofree char *text = dup_composer_text (self);

  if (text[0] != '/' || strpbrk (text, " \t\n") != NULL)
    return NULL;

  return g_strdup (text + 1);
}

static void
hide_prompts (StewardChatPage *self)
{
  if (gtk_widget_get_visible (GTK_WIDGET (self->prompt_popover)))
    gtk_popover_popdown (self->prompt_popover);
}

static void
update_prompt_list (StewardChatPage *self)
{
  g_autofree char *query = dup_slash_query (self);
  g_autofree char *needle = NULL;
  GListModel *servers;
  guint n_servers;
  guint shown = 0;
  GtkWidget *child;

  if (query == NULL)
    {
      hide_prompts (self);
      return;
    }

  needle = g_utf8_casefold (query, -1);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->prompt_list))) != NULL)
    gtk_list_box_remove (self->prompt_list, child);

  servers = G_LIST_MODEL (get_registry (self));
  n_servers = g_list_model_get_n_items (servers);
  for (guint i = 0; i < n_servers && shown < MAX_PROMPT_CHOICES; i++)
    {
      g_autoptr(StewardServer) server = g_list_model_get_item (servers, i);
      McpClient *client = steward_server_get_client (server);
      GListModel *prompts;
      guint n_prompts;

      if (client == NULL || steward_server_get_status (server) != STEWARD_SERVER_STATUS_READY)
        continue;

      prompts = mcp_client_get_prompts (client);
      n_prompts = prompts != NULL ? g_list_model_get_n_items (prompts) : 0;
      for (guint j = 0; j < n_prompts && shown < MAX_PROMPT_CHOICES; j++)
        {
          g_autoptr(McpPrompt) prompt = g_list_model_get_item (prompts, j);
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
            continue;

          visible = steward_text_make_visible_capped (command, 256, NULL);
          row = gtk_list_box_row_new ();
          box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
          label = gtk_label_new (visible);
          gtk_label_set_xalign (GTK_LABEL (label), 0);
          gtk_widget_add_css_class (label, "monospace");
          gtk_box_append (GTK_BOX (box), label);
          if (description != NULL && *description != '\0')
            {
              g_autofree char *visible_description = steward_text_make_visible_capped (description,
                                                                                       512, NULL);

              label = gtk_label_new (visible_description);
              gtk_label_set_xalign (GTK_LABEL (label), 0);
              gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
              gtk_label_set_max_width_chars (GTK_LABEL (label), 50);
              gtk_widget_add_css_class (label, "dim-label");
              gtk_widget_add_css_class (label, "caption");
              gtk_box_append (GTK_BOX (box), label);
            }
          gtk_widget_set_margin_top (box, 4);
          gtk_widget_set_margin_bottom (box, 4);
          gtk_widget_set_margin_start (box, 6);
          gtk_widget_set_margin_end (box, 6);
          gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
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
          shown++;
        }
    }

  if (shown == 0)
    {
      hide_prompts (self);
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

  set_composer_text (self, text->str);
  update_attachment_chips (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->composer_view));
}

typedef struct
{
  GWeakRef  page;
  char     *command;
} PromptData;

static void
prompt_data_free (PromptData *data)
{
  g_weak_ref_clear (&data->page);
  g_free (data->command);
  g_free (data);
}

static void
prompt_got_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  PromptData *data = user_data;
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
      g_autofree char *visible = steward_text_make_visible_capped (data->command, 256, NULL);
      /* Translators: the first %s is a prompt ("server/prompt"), the
       * second why the server did not give it. */
      g_autofree char *text = g_strdup_printf (_("Could not get %s: %s"), visible,
                                               error->message);

      show_error (self, text);
    }

  prompt_data_free (data);
}

static void
get_prompt (StewardChatPage *self,
            PromptChoice    *choice,
            JsonObject      *arguments)
{
  PromptData *data = g_new0 (PromptData, 1);

  g_weak_ref_init (&data->page, self);
  data->command = g_strdup_printf ("%s/%s", choice->server,
                                   mcp_item_get_name (MCP_ITEM (choice->prompt)));
  mcp_client_get_prompt_async (choice->client, mcp_item_get_name (MCP_ITEM (choice->prompt)),
                               arguments, self->cancellable, prompt_got_cb, data);
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

  dialog = adw_message_dialog_new (get_window (self), heading, body);
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

  hide_prompts (self);
  /* The command gives way to what the prompt says. */
  set_composer_text (self, "");

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

/* Messages */

static void show_last_item (StewardChatPage *self);

static GtkAdjustment *
get_vadjustment (StewardChatPage *self)
{
  return gtk_scrolled_window_get_vadjustment (self->message_scroller);
}

static gboolean
settle_tick_cb (GtkWidget     *widget,
                GdkFrameClock *frame_clock,
                gpointer       user_data)
{
  StewardChatPage *self = user_data;
  double upper = gtk_adjustment_get_upper (get_vadjustment (self));

  /* The list can only go to an item it has measured: asked again each
   * frame until its rows stop changing. */
  show_last_item (self);
  self->settle_stable = upper == self->settle_upper ? self->settle_stable + 1 : 0;
  self->settle_upper = upper;
  if (self->settle_stable < 3 && ++self->settle_frames < 60)
    return G_SOURCE_CONTINUE;

  self->settle_id = 0;
  return G_SOURCE_REMOVE;
}

/* The list keeps its place by an item, not by a position: asking it to
 * show the last item (its end, when it is taller than the view) stays
 * right while rows above are measured and grow. */
static void
show_last_item (StewardChatPage *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->message_selection));

  if (n > 0)
    gtk_widget_activate_action (GTK_WIDGET (self->message_list), "list.scroll-to-item", "u",
                                n - 1);
}

static void
scroll_to_end (StewardChatPage *self)
{
  self->stick_to_bottom = TRUE;
  self->settle_frames = 0;
  self->settle_stable = 0;
  self->settle_upper = -1;
  if (self->settle_id == 0)
    self->settle_id = gtk_widget_add_tick_callback (GTK_WIDGET (self->message_list),
                                                    settle_tick_cb, self, NULL);
  show_last_item (self);
}

static void
adjustment_upper_cb (StewardChatPage *self,
                     GParamSpec      *pspec,
                     GtkAdjustment   *adjustment)
{
  /* The answer grows under the person's eyes: keep its end in view,
   * unless they scrolled up to read something else. */
  if (self->stick_to_bottom)
    show_last_item (self);
}

static gboolean
reveal_earlier_cb (gpointer user_data)
{
  StewardChatPage *self = user_data;

  self->reveal_id = 0;
  steward_tail_model_reveal (self->message_tail, EARLIER_MESSAGES);
  return G_SOURCE_REMOVE;
}

static void
adjustment_value_cb (StewardChatPage *self,
                     GtkAdjustment   *adjustment)
{
  double value = gtk_adjustment_get_value (adjustment);
  double page = gtk_adjustment_get_page_size (adjustment);

  if (self->settle_id != 0)
    return;

  self->stick_to_bottom = value + page >= gtk_adjustment_get_upper (adjustment) - STICK_DISTANCE;

  /* Near the top: the earlier messages join above, outside of this
   * handler, as the list is in the middle of scrolling. */
  if (value < page && !self->stick_to_bottom &&
      steward_tail_model_get_hidden (self->message_tail) > 0 && self->reveal_id == 0)
    self->reveal_id = g_idle_add (reveal_earlier_cb, self);
}

static void
setup_message_cb (GtkSignalListItemFactory *factory,
                  GtkListItem              *item,
                  gpointer                  user_data)
{
  gtk_list_item_set_activatable (item, FALSE);
  gtk_list_item_set_child (item, steward_message_row_new ());
}

static void
bind_message_cb (GtkSignalListItemFactory *factory,
                 GtkListItem              *item,
                 gpointer                  user_data)
{
  steward_message_row_set_message (STEWARD_MESSAGE_ROW (gtk_list_item_get_child (item)),
                                   gtk_list_item_get_item (item));
}

static void
unbind_message_cb (GtkSignalListItemFactory *factory,
                   GtkListItem              *item,
                   gpointer                  user_data)
{
  steward_message_row_set_message (STEWARD_MESSAGE_ROW (gtk_list_item_get_child (item)), NULL);
}

/* Models */

static void
select_conversation_model (StewardChatPage *self)
{
  const char *model = self->conversation != NULL
                      ? steward_conversation_get_model (self->conversation) : NULL;
  guint index = 0;

  self->updating_models = TRUE;

  if (model != NULL)
    {
      for (index = 1; index < self->model_ids->len; index++)
        {
          if (g_strcmp0 (g_ptr_array_index (self->model_ids, index), model) == 0)
            break;
        }

      /* A model no longer in the catalogue is still what this
       * conversation uses; it stays shown as such. */
      if (index == self->model_ids->len)
        {
          g_autofree char *visible = steward_text_make_visible_capped (model, 256, NULL);

          g_ptr_array_add (self->model_ids, g_strdup (model));
          gtk_string_list_append (self->model_names, visible);
        }
    }

  gtk_drop_down_set_selected (self->model_dropdown, index);
  self->updating_models = FALSE;
}

static void
rebuild_models (StewardChatPage *self)
{
  GListModel *catalog = G_LIST_MODEL (steward_host_get_model_catalog (self->host));
  guint n = g_list_model_get_n_items (catalog);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

  self->updating_models = TRUE;

  g_ptr_array_set_size (self->model_ids, 0);
  g_ptr_array_add (self->model_ids, NULL);
  g_ptr_array_add (names, g_strdup (_("Default Model")));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(StewardModel) model = g_list_model_get_item (catalog, i);

      g_ptr_array_add (self->model_ids, g_strdup (steward_model_get_id (model)));
      g_ptr_array_add (names, steward_text_make_visible_capped (steward_model_get_id (model),
                                                                256, NULL));
    }
  g_ptr_array_add (names, NULL);

  gtk_string_list_splice (self->model_names, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->model_names)),
                          (const char * const *) names->pdata);
  self->updating_models = FALSE;

  select_conversation_model (self);
}

static void
model_selected_cb (StewardChatPage *self)
{
  guint selected = gtk_drop_down_get_selected (self->model_dropdown);

  if (self->updating_models || self->conversation == NULL || selected >= self->model_ids->len)
    return;

  steward_conversation_set_model (self->conversation, g_ptr_array_index (self->model_ids,
                                                                         selected));
}

/* The conversation shown */

static gboolean
is_busy (StewardChatPage     *self,
         StewardConversation *conversation)
{
  return conversation != NULL &&
         (steward_conversation_get_busy (conversation) ||
          g_hash_table_contains (self->running, conversation));
}

static StewardChatMessage *
last_message (StewardChatPage *self,
              int              role)
{
  GListModel *messages;
  guint n;

  if (self->conversation == NULL)
    return NULL;

  messages = steward_conversation_get_messages (self->conversation);
  n = g_list_model_get_n_items (messages);
  for (guint i = n; i-- > 0;)
    {
      g_autoptr(StewardChatMessage) message = g_list_model_get_item (messages, i);

      if (role < 0 || steward_chat_message_get_role (message) == (StewardChatRole) role)
        return message;
    }

  return NULL;
}

static void
update_actions (StewardChatPage *self)
{
  gboolean has = self->conversation != NULL;
  gboolean busy = is_busy (self, self->conversation);
  StewardChatMessage *last = last_message (self, -1);
  g_autofree char *text = dup_composer_text (self);
  gboolean has_text = *text != '\0' || json_array_get_length (self->attachments) > 0;
  gboolean can_regenerate = has && !busy && last != NULL &&
                            steward_chat_message_get_role (last) == STEWARD_CHAT_ROLE_ASSISTANT;
  gboolean can_edit = has && !busy && last_message (self, STEWARD_CHAT_ROLE_USER) != NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "chat.send", !busy && has_text);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "chat.stop", busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "chat.regenerate", can_regenerate);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "chat.edit-last", can_edit);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "chat.rename", has);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "chat.delete", has && !busy);

  gtk_stack_set_visible_child_name (self->send_stack, busy ? "stop" : "send");
  gtk_widget_set_visible (self->turn_actions, can_regenerate || can_edit);
  gtk_widget_set_visible (GTK_WIDGET (self->model_dropdown), has);
}

static void
update_title (StewardChatPage *self)
{
  g_autofree char *visible = NULL;

  if (self->conversation == NULL)
    {
      gtk_label_set_text (self->title_label, "");
      return;
    }

  visible = steward_text_make_visible_capped (steward_conversation_get_title (self->conversation),
                                              512, NULL);
  gtk_label_set_text (self->title_label, visible);
}

static void
messages_changed_cb (StewardChatPage *self)
{
  update_actions (self);
}

static guint
find_in_filter (StewardChatPage     *self,
                StewardConversation *conversation)
{
  GListModel *model = G_LIST_MODEL (self->filter_model);
  guint n = g_list_model_get_n_items (model);

  for (guint i = 0; conversation != NULL && i < n; i++)
    {
      g_autoptr(StewardConversation) item = g_list_model_get_item (model, i);

      if (item == conversation)
        return i;
    }

  return GTK_INVALID_LIST_POSITION;
}

static void
sync_selection (StewardChatPage *self)
{
  guint position = find_in_filter (self, self->conversation);

  if (gtk_single_selection_get_selected (self->conversation_selection) == position)
    return;

  self->selecting = TRUE;
  gtk_single_selection_set_selected (self->conversation_selection, position);
  self->selecting = FALSE;
}

static void
show_conversation (StewardChatPage     *self,
                   StewardConversation *conversation)
{
  GListModel *messages = NULL;

  if (self->conversation == conversation)
    return;

  g_set_object (&self->conversation, conversation);
  g_signal_group_set_target (self->conversation_signals, conversation);

  if (conversation != NULL)
    messages = steward_conversation_get_messages (conversation);

  /* The rows come and go as the list scrolls, and the list starts with
   * the newest messages: a long conversation costs what its last page
   * costs. */
  g_clear_handle_id (&self->reveal_id, g_source_remove);
  steward_tail_model_set_model (self->message_tail, messages, SHOWN_MESSAGES);
  gtk_stack_set_visible_child_name (self->content_stack, conversation != NULL ? "messages"
                                                                              : "none");

  set_editing (self, FALSE);
  show_error (self, NULL);
  update_title (self);
  select_conversation_model (self);
  sync_selection (self);
  update_actions (self);
  scroll_to_end (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONVERSATION]);
}

/* The conversation sidebar */

static gboolean
filter_cb (gpointer item,
           gpointer user_data)
{
  StewardChatPage *self = user_data;

  return steward_conversation_matches (item, self->query);
}

static void
update_sidebar_stack (StewardChatPage *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->filter_model));

  if (self->query != NULL && *self->query != '\0')
    adw_status_page_set_title (self->sidebar_status, _("No Matches"));
  else
    adw_status_page_set_title (self->sidebar_status, _("No Conversations"));

  gtk_stack_set_visible_child_name (self->sidebar_stack, n > 0 ? "list" : "empty");
}

static void
filter_items_changed_cb (StewardChatPage *self)
{
  update_sidebar_stack (self);
  /* A conversation that moved to the top keeps its selection. */
  sync_selection (self);
}

static void
store_items_changed_cb (StewardChatPage *self)
{
  const char *id;

  if (self->conversation == NULL)
    return;

  /* The conversation shown was deleted: nothing is shown any more. */
  id = steward_conversation_get_id (self->conversation);
  if (steward_conversation_store_lookup (get_store (self), id) != self->conversation)
    show_conversation (self, NULL);
}

static void
search_changed_cb (StewardChatPage *self)
{
  g_free (self->query);
  self->query = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

static void
selection_changed_cb (StewardChatPage *self)
{
  StewardConversation *selected =
    gtk_single_selection_get_selected_item (self->conversation_selection);

  /* A list that lost its selection while changing does not mean the
   * person chose nothing. */
  if (self->selecting || selected == NULL)
    return;

  show_conversation (self, selected);
}

static void
conversation_activated_cb (StewardChatPage *self,
                           guint            position,
                           GtkListView     *list)
{
  adw_leaflet_set_visible_child (self->leaflet, self->main);
  gtk_widget_grab_focus (GTK_WIDGET (self->composer_view));
}

static gboolean
title_to_visible (GBinding     *binding,
                  const GValue *from,
                  GValue       *to,
                  gpointer      user_data)
{
  const char *title = g_value_get_string (from);

  g_value_take_string (to, steward_text_make_visible_capped (title != NULL ? title : "", 512,
                                                             NULL));
  return TRUE;
}

static void
setup_conversation_cb (GtkSignalListItemFactory *factory,
                       GtkListItem              *item,
                       gpointer                  user_data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_widget_set_margin_top (label, 6);
  gtk_widget_set_margin_bottom (label, 6);
  gtk_widget_set_margin_start (label, 6);
  gtk_list_item_set_child (item, label);
}

static void
bind_conversation_cb (GtkSignalListItemFactory *factory,
                      GtkListItem              *item,
                      gpointer                  user_data)
{
  GBinding *binding;

  binding = g_object_bind_property_full (gtk_list_item_get_item (item), "title",
                                         gtk_list_item_get_child (item), "label",
                                         G_BINDING_SYNC_CREATE,
                                         title_to_visible, NULL, NULL, NULL);
  g_object_set_data (G_OBJECT (item), "binding", binding);
}

static void
unbind_conversation_cb (GtkSignalListItemFactory *factory,
                        GtkListItem              *item,
                        gpointer                  user_data)
{
  GBinding *binding = g_object_get_data (G_OBJECT (item), "binding");

  if (binding != NULL)
    g_binding_unbind (binding);
  g_object_set_data (G_OBJECT (item), "binding", NULL);
}

/* Turns */

typedef enum {
  TURN_SEND,
  TURN_REGENERATE,
  TURN_EDIT,
} TurnKind;

typedef struct
{
  GWeakRef             page;
  StewardConversation *conversation;
  GCancellable        *cancellable;
  TurnKind             kind;
} Turn;

static void
turn_free (Turn *turn)
{
  g_weak_ref_clear (&turn->page);
  g_clear_object (&turn->conversation);
  g_clear_object (&turn->cancellable);
  g_free (turn);
}

static void
turn_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Turn *turn = user_data;
  StewardChatEngine *engine = STEWARD_CHAT_ENGINE (object);
  g_autoptr(StewardChatPage) self = g_weak_ref_get (&turn->page);
  g_autoptr(GError) error = NULL;
  gboolean ok;

  switch (turn->kind)
    {
    case TURN_REGENERATE:
      ok = steward_chat_engine_regenerate_finish (engine, result, &error);
      break;
    case TURN_EDIT:
      ok = steward_chat_engine_edit_last_finish (engine, result, &error);
      break;
    case TURN_SEND:
    default:
      ok = steward_chat_engine_send_finish (engine, result, &error);
      break;
    }

  if (self != NULL)
    {
      if (g_hash_table_lookup (self->running, turn->conversation) == turn->cancellable)
        g_hash_table_remove (self->running, turn->conversation);

      /* What went wrong with the answer is said under it; this is for
       * what kept the turn from starting at all. */
      if (!ok && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
          self->conversation == turn->conversation)
        {
          StewardChatMessage *last = last_message (self, -1);

          if (last == NULL || steward_chat_message_get_error (last) == NULL)
            show_error (self, error->message);
        }

      update_actions (self);
    }

  turn_free (turn);
}

static Turn *
start_turn (StewardChatPage *self,
            TurnKind         kind)
{
  Turn *turn = g_new0 (Turn, 1);

  g_weak_ref_init (&turn->page, self);
  turn->conversation = g_object_ref (self->conversation);
  turn->cancellable = g_cancellable_new ();
  turn->kind = kind;
  g_hash_table_replace (self->running, g_object_ref (self->conversation),
                        g_object_ref (turn->cancellable));
  show_error (self, NULL);
  self->stick_to_bottom = TRUE;

  return turn;
}

static void
send (StewardChatPage *self)
{
  g_autofree char *text = dup_composer_text (self);
  g_autoptr(JsonArray) attachments = NULL;
  Turn *turn;

  if (*text == '\0' && json_array_get_length (self->attachments) == 0)
    return;

  if (self->conversation == NULL)
    show_conversation (self, steward_conversation_store_create (get_store (self)));

  if (is_busy (self, self->conversation))
    return;

  hide_prompts (self);

  if (self->editing)
    {
      turn = start_turn (self, TURN_EDIT);
      steward_chat_engine_edit_last_async (get_engine (self), self->conversation, text,
                                           turn->cancellable, turn_done_cb, turn);
    }
  else
    {
      attachments = g_steal_pointer (&self->attachments);
      self->attachments = json_array_new ();
      turn = start_turn (self, TURN_SEND);
      steward_chat_engine_send_async (get_engine (self), self->conversation, text,
                                      json_array_get_length (attachments) > 0 ? attachments
                                                                               : NULL,
                                      turn->cancellable, turn_done_cb, turn);
    }

  set_editing (self, FALSE);
  set_composer_text (self, "");
  update_attachment_chips (self);
  scroll_to_end (self);
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
          hide_prompts (self);
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
  update_prompt_list (self);
  update_actions (self);
}

/* Tool definitions waiting for review */

static void queue_watch (StewardChatPage *self);

static void
update_tool_changes (StewardChatPage *self)
{
  g_autofree char *text = NULL;
  guint n = steward_tool_change_dialog_count_changes (get_registry (self),
                                                      steward_host_get_tool_pins (self->host));
  guint unreviewed = steward_tool_review_dialog_count_unreviewed (get_registry (self),
                                                                  steward_host_get_tool_pins (self->host),
                                                                  NULL);

  self->n_tool_changes = n + unreviewed;
  if (unreviewed > 0)
    {
      /* Translators: a banner over the chat; %u is a number of tools. */
      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "%u tool of a server is not offered to models until "
                                           "you review it",
                                           "%u tools of a server are not offered to models until "
                                           "you review them", unreviewed),
                              unreviewed);
      gtk_label_set_text (self->changes_label, text);
    }
  else if (n > 0)
    {
      /* Translators: a banner over the chat; %u is a number of tools. */
      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "%u tool definition changed and is disabled until "
                                           "you review it",
                                           "%u tool definitions changed and are disabled until "
                                           "you review them", n),
                              n);
      gtk_label_set_text (self->changes_label, text);
    }
  gtk_revealer_set_reveal_child (self->changes_revealer, self->n_tool_changes > 0);
}

static void
unwatch_all (StewardChatPage *self)
{
  GHashTableIter iter;
  gpointer object;

  g_hash_table_iter_init (&iter, self->watched);
  while (g_hash_table_iter_next (&iter, &object, NULL))
    g_signal_handlers_disconnect_by_data (object, self);
  g_hash_table_remove_all (self->watched);
}

/* Follows each server's state and its tool list, which change the count
 * of tools to review; servers come and go, so this is redone each time. */
static gboolean
watch_cb (gpointer user_data)
{
  StewardChatPage *self = user_data;
  GListModel *servers = G_LIST_MODEL (get_registry (self));
  guint n = g_list_model_get_n_items (servers);

  self->watch_id = 0;
  unwatch_all (self);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(StewardServer) server = g_list_model_get_item (servers, i);
      McpClient *client = steward_server_get_client (server);

      g_signal_connect_swapped (server, "notify::status", G_CALLBACK (queue_watch), self);
      g_hash_table_add (self->watched, g_object_ref (server));

      if (client != NULL && mcp_client_get_tools (client) != NULL)
        {
          GListModel *tools = mcp_client_get_tools (client);

          g_signal_connect_swapped (tools, "items-changed", G_CALLBACK (queue_watch), self);
          g_hash_table_add (self->watched, g_object_ref (tools));
        }
    }

  update_tool_changes (self);
  return G_SOURCE_REMOVE;
}

static void
queue_watch (StewardChatPage *self)
{
  if (self->watch_id == 0)
    self->watch_id = g_idle_add (watch_cb, self);
}

/* Rename and delete */

static void
rename_response_cb (StewardChatPage  *self,
                    const char       *response,
                    AdwMessageDialog *dialog)
{
  StewardConversation *conversation = g_object_get_data (G_OBJECT (dialog), "conversation");
  GtkEditable *entry = g_object_get_data (G_OBJECT (dialog), "entry");
  g_autofree char *title = NULL;

  if (!g_str_equal (response, "rename"))
    return;

  title = g_strstrip (g_strdup (gtk_editable_get_text (entry)));
  /* An empty title gives the conversation back its automatic one. */
  steward_conversation_set_title (conversation, *title != '\0' ? title : NULL);
}

static void
rename_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  StewardChatPage *self = STEWARD_CHAT_PAGE (widget);
  GtkWidget *dialog;
  GtkWidget *entry;

  if (self->conversation == NULL)
    return;

  dialog = adw_message_dialog_new (get_window (self), _("Rename Conversation"), NULL);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "rename", _("_Rename"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "rename",
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "rename");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");

  entry = gtk_entry_new ();
  gtk_editable_set_text (GTK_EDITABLE (entry), steward_conversation_get_title (self->conversation));
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Title"),
                                  -1);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), entry);

  g_object_set_data_full (G_OBJECT (dialog), "conversation", g_object_ref (self->conversation),
                          g_object_unref);
  g_object_set_data (G_OBJECT (dialog), "entry", entry);
  g_signal_connect_object (dialog, "response", G_CALLBACK (rename_response_cb),
                           self, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
  gtk_widget_grab_focus (entry);
}

static void
delete_response_cb (StewardChatPage  *self,
                    const char       *response,
                    AdwMessageDialog *dialog)
{
  StewardConversation *conversation = g_object_get_data (G_OBJECT (dialog), "conversation");

  if (!g_str_equal (response, "delete"))
    return;

  if (conversation == self->conversation)
    show_conversation (self, NULL);
  steward_conversation_store_delete (get_store (self), conversation);
}

static void
delete_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  StewardChatPage *self = STEWARD_CHAT_PAGE (widget);
  g_autofree char *title = NULL;
  g_autofree char *heading = NULL;
  GtkWidget *dialog;

  if (self->conversation == NULL || is_busy (self, self->conversation))
    return;

  title = steward_text_make_visible_capped (steward_conversation_get_title (self->conversation),
                                            256, NULL);
  /* Translators: %s is a conversation's title. */
  heading = g_strdup_printf (_("Delete “%s”?"), title);
  dialog = adw_message_dialog_new (get_window (self), heading,
                                   _("Its messages are removed from this computer."));
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "delete", _("_Delete"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "delete",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");

  g_object_set_data_full (G_OBJECT (dialog), "conversation", g_object_ref (self->conversation),
                          g_object_unref);
  g_signal_connect_object (dialog, "response", G_CALLBACK (delete_response_cb),
                           self, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Actions */

static void
new_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  steward_chat_page_new_conversation (STEWARD_CHAT_PAGE (widget));
}

static void
send_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  send (STEWARD_CHAT_PAGE (widget));
}

static void
stop_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  StewardChatPage *self = STEWARD_CHAT_PAGE (widget);
  GCancellable *cancellable;

  if (self->conversation == NULL)
    return;

  /* The engine keeps what was answered so far and says it was stopped. */
  cancellable = g_hash_table_lookup (self->running, self->conversation);
  if (cancellable != NULL)
    g_cancellable_cancel (cancellable);
}

static void
regenerate_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  StewardChatPage *self = STEWARD_CHAT_PAGE (widget);
  Turn *turn;

  if (self->conversation == NULL || is_busy (self, self->conversation))
    return;

  turn = start_turn (self, TURN_REGENERATE);
  steward_chat_engine_regenerate_async (get_engine (self), self->conversation,
                                        turn->cancellable, turn_done_cb, turn);
  update_actions (self);
}

static void
edit_last_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  StewardChatPage *self = STEWARD_CHAT_PAGE (widget);
  StewardChatMessage *last = last_message (self, STEWARD_CHAT_ROLE_USER);

  if (last == NULL)
    return;

  set_composer_text (self, steward_chat_message_get_text (last));
  set_editing (self, TRUE);
  gtk_widget_grab_focus (GTK_WIDGET (self->composer_view));
}

static void
cancel_edit_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  StewardChatPage *self = STEWARD_CHAT_PAGE (widget);

  set_editing (self, FALSE);
  set_composer_text (self, "");
}

static void
search_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  StewardChatPage *self = STEWARD_CHAT_PAGE (widget);

  adw_leaflet_set_visible_child (self->leaflet, self->sidebar);
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

static void
show_list_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  StewardChatPage *self = STEWARD_CHAT_PAGE (widget);

  adw_leaflet_set_visible_child (self->leaflet, self->sidebar);
}

static void
review_tool_changes_action (GtkWidget  *widget,
                            const char *action_name,
                            GVariant   *parameter)
{
  StewardChatPage *self = STEWARD_CHAT_PAGE (widget);
  StewardToolPins *pins = steward_host_get_tool_pins (self->host);
  GtkWidget *dialog;

  /* A new server's tools first: until reviewed, none is offered. */
  dialog = steward_tool_review_dialog_new_for_registry (get_registry (self), pins);
  if (dialog == NULL)
    dialog = steward_tool_change_dialog_new (get_registry (self), pins);

  gtk_window_set_transient_for (GTK_WINDOW (dialog), get_window (self));
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
remove_attachment_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  StewardChatPage *self = STEWARD_CHAT_PAGE (widget);
  guint index = g_variant_get_uint32 (parameter);

  if (index < json_array_get_length (self->attachments))
    json_array_remove_element (self->attachments, index);
  update_attachment_chips (self);
}

/* Life */

static void
steward_chat_page_size_allocate (GtkWidget *widget,
                                 int        width,
                                 int        height,
                                 int        baseline)
{
  StewardChatPage *self = STEWARD_CHAT_PAGE (widget);
  graphene_rect_t bounds;

  GTK_WIDGET_CLASS (steward_chat_page_parent_class)->size_allocate (widget, width, height,
                                                                    baseline);

  /* The "/" list stands just above the composer. */
  if (gtk_widget_compute_bounds (self->composer_box, widget, &bounds))
    {
      GdkRectangle rect = {
        (int) bounds.origin.x, (int) bounds.origin.y, (int) bounds.size.width, 1,
      };

      gtk_popover_set_pointing_to (self->prompt_popover, &rect);
    }
  gtk_popover_present (self->prompt_popover);
}

static void
steward_chat_page_constructed (GObject *object)
{
  StewardChatPage *self = STEWARD_CHAT_PAGE (object);
  StewardConversationStore *store;
  GtkListItemFactory *factory;
  GtkAdjustment *adjustment;

  G_OBJECT_CLASS (steward_chat_page_parent_class)->constructed (object);

  g_return_if_fail (STEWARD_IS_HOST (self->host));
  store = get_store (self);

  self->filter = gtk_custom_filter_new (filter_cb, self, NULL);
  self->filter_model = gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (store)),
                                                  g_object_ref (GTK_FILTER (self->filter)));
  self->conversation_selection = gtk_single_selection_new (
    g_object_ref (G_LIST_MODEL (self->filter_model)));
  gtk_single_selection_set_autoselect (self->conversation_selection, FALSE);
  gtk_single_selection_set_can_unselect (self->conversation_selection, TRUE);
  gtk_single_selection_set_selected (self->conversation_selection, GTK_INVALID_LIST_POSITION);

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_conversation_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_conversation_cb), NULL);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_conversation_cb), NULL);
  gtk_list_view_set_factory (self->conversation_list, factory);
  g_object_unref (factory);
  gtk_list_view_set_model (self->conversation_list,
                           GTK_SELECTION_MODEL (self->conversation_selection));

  g_signal_connect_object (self->conversation_selection, "notify::selected-item",
                           G_CALLBACK (selection_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->filter_model, "items-changed",
                           G_CALLBACK (filter_items_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (store, "items-changed",
                           G_CALLBACK (store_items_changed_cb), self, G_CONNECT_SWAPPED);

  self->message_tail = steward_tail_model_new ();
  self->message_selection = gtk_no_selection_new (
    g_object_ref (G_LIST_MODEL (self->message_tail)));
  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_message_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_message_cb), NULL);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_message_cb), NULL);
  gtk_list_view_set_factory (self->message_list, factory);
  g_object_unref (factory);
  gtk_list_view_set_model (self->message_list, GTK_SELECTION_MODEL (self->message_selection));

  adjustment = gtk_scrolled_window_get_vadjustment (self->message_scroller);
  g_signal_connect_object (adjustment, "notify::upper", G_CALLBACK (adjustment_upper_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (adjustment, "value-changed", G_CALLBACK (adjustment_value_cb),
                           self, G_CONNECT_SWAPPED);

  self->model_names = gtk_string_list_new (NULL);
  gtk_drop_down_set_model (self->model_dropdown, G_LIST_MODEL (self->model_names));
  g_signal_connect_object (steward_host_get_model_catalog (self->host), "items-changed",
                           G_CALLBACK (rebuild_models), self, G_CONNECT_SWAPPED);
  rebuild_models (self);

  g_signal_connect_object (steward_host_get_tool_pins (self->host), "changed",
                           G_CALLBACK (queue_watch), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (get_registry (self), "items-changed",
                           G_CALLBACK (queue_watch), self, G_CONNECT_SWAPPED);
  watch_cb (self);

  update_sidebar_stack (self);
  update_actions (self);
}

static void
cancel_running (StewardChatPage *self)
{
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->running);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_cancellable_cancel (value);
}

static void
steward_chat_page_dispose (GObject *object)
{
  StewardChatPage *self = STEWARD_CHAT_PAGE (object);

  g_cancellable_cancel (self->cancellable);
  if (self->running != NULL)
    {
      cancel_running (self);
      g_hash_table_remove_all (self->running);
    }
  g_clear_handle_id (&self->watch_id, g_source_remove);
  g_clear_handle_id (&self->reveal_id, g_source_remove);
  if (self->settle_id != 0 && self->message_list != NULL)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self->message_list), self->settle_id);
  self->settle_id = 0;
  if (self->watched != NULL)
    unwatch_all (self);

  if (self->conversation_signals != NULL)
    g_signal_group_set_target (self->conversation_signals, NULL);
  if (self->message_list != NULL)
    gtk_list_view_set_model (self->message_list, NULL);
  if (self->conversation_list != NULL)
    gtk_list_view_set_model (self->conversation_list, NULL);
  if (self->prompt_popover != NULL)
    gtk_widget_unparent (GTK_WIDGET (self->prompt_popover));

  adw_bin_set_child (ADW_BIN (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), STEWARD_TYPE_CHAT_PAGE);

  g_clear_object (&self->conversation);
  g_clear_object (&self->conversation_signals);
  g_clear_object (&self->conversation_selection);
  g_clear_object (&self->filter_model);
  g_clear_object (&self->filter);
  g_clear_object (&self->message_selection);
  g_clear_object (&self->message_tail);
  g_clear_object (&self->model_names);
  g_clear_object (&self->host);

  G_OBJECT_CLASS (steward_chat_page_parent_class)->dispose (object);
}

static void
steward_chat_page_finalize (GObject *object)
{
  StewardChatPage *self = STEWARD_CHAT_PAGE (object);

  g_clear_pointer (&self->running, g_hash_table_unref);
  g_clear_pointer (&self->watched, g_hash_table_unref);
  g_clear_pointer (&self->model_ids, g_ptr_array_unref);
  g_clear_pointer (&self->attachments, json_array_unref);
  g_clear_object (&self->cancellable);
  g_free (self->query);

  G_OBJECT_CLASS (steward_chat_page_parent_class)->finalize (object);
}

static void
steward_chat_page_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  StewardChatPage *self = STEWARD_CHAT_PAGE (object);

  switch (prop_id)
    {
    case PROP_HOST:
      g_value_set_object (value, self->host);
      break;
    case PROP_CONVERSATION:
      g_value_set_object (value, self->conversation);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_chat_page_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  StewardChatPage *self = STEWARD_CHAT_PAGE (object);

  switch (prop_id)
    {
    case PROP_HOST:
      self->host = g_value_dup_object (value);
      break;
    case PROP_CONVERSATION:
      steward_chat_page_set_conversation (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_chat_page_class_init (StewardChatPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = steward_chat_page_constructed;
  object_class->dispose = steward_chat_page_dispose;
  object_class->finalize = steward_chat_page_finalize;
  object_class->get_property = steward_chat_page_get_property;
  object_class->set_property = steward_chat_page_set_property;

  widget_class->size_allocate = steward_chat_page_size_allocate;

  properties[PROP_HOST] =
    g_param_spec_object ("host", NULL, NULL,
                         STEWARD_TYPE_HOST,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  properties[PROP_CONVERSATION] =
    g_param_spec_object ("conversation", NULL, NULL,
                         STEWARD_TYPE_CONVERSATION,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_action (widget_class, "chat.new", NULL, new_action);
  gtk_widget_class_install_action (widget_class, "chat.rename", NULL, rename_action);
  gtk_widget_class_install_action (widget_class, "chat.delete", NULL, delete_action);
  gtk_widget_class_install_action (widget_class, "chat.send", NULL, send_action);
  gtk_widget_class_install_action (widget_class, "chat.stop", NULL, stop_action);
  gtk_widget_class_install_action (widget_class, "chat.regenerate", NULL, regenerate_action);
  gtk_widget_class_install_action (widget_class, "chat.edit-last", NULL, edit_last_action);
  gtk_widget_class_install_action (widget_class, "chat.cancel-edit", NULL, cancel_edit_action);
  gtk_widget_class_install_action (widget_class, "chat.search", NULL, search_action);
  gtk_widget_class_install_action (widget_class, "chat.show-list", NULL, show_list_action);
  gtk_widget_class_install_action (widget_class, "chat.review-tool-changes", NULL,
                                   review_tool_changes_action);
  gtk_widget_class_install_action (widget_class, "chat.remove-attachment", "u",
                                   remove_attachment_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK,
                                       "chat.search", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F2, 0, "chat.rename", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_r, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "chat.regenerate", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "chat.stop", NULL);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/stewardmcp/Steward/"
                                                             "steward-chat-page.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardChatPage, leaflet);
  gtk_widget_class_bind_template_child (widget_class, StewardChatPage, sidebar);
  gtk_widget_class_bind_template_child (widget_class, StewardChatPage, main);
  gtk_widget_class_bind_template_child (widget_class, StewardChatPage, search_entry);
  gtk_widget_class_bind_template_child (widget_class, StewardChatPage, sidebar_stack);
  gtk_widget_class_bind_template_child (widget_class, StewardChatPage, sidebar_status);
  gtk_widget_class_bind_template_child (widget_class, StewardChatPage, conversation_list);
  gtk_widget_class_bind_template_child (widget_class, StewardChatPage, changes_revealer);
  gtk_widget_class_bind_template_child (widget_class, StewardChatPage, changes_label);
  gtk_widget_class_bind_template_child (widget_class, StewardChatPage, title_label);
  gtk_widget_class_bind_template_child (widget_class, StewardChatPage, model_dropdown);
  gtk_widget_class_bind_template_child (widget_class, StewardChatPage, content_stack);
  gtk_widget_class_bind_template_child (widget_class, StewardChatPage, message_scroller);
  gtk_widget_class_bind_template_child (widget_class, StewardChatPage, message_list);
  gtk_widget_class_bind_template_child (widget_class, StewardChatPage, turn_actions);
  gtk_widget_class_bind_template_child (widget_class, StewardChatPage, error_label);
  gtk_widget_class_bind_template_child (widget_class, StewardChatPage, edit_bar);
  gtk_widget_class_bind_template_child (widget_class, StewardChatPage, attachments_box);
  gtk_widget_class_bind_template_child (widget_class, StewardChatPage, composer_box);
  gtk_widget_class_bind_template_child (widget_class, StewardChatPage, attach_button);
  gtk_widget_class_bind_template_child (widget_class, StewardChatPage, attach_popover);
  gtk_widget_class_bind_template_child (widget_class, StewardChatPage, attach_stack);
  gtk_widget_class_bind_template_child (widget_class, StewardChatPage, resource_list);
  gtk_widget_class_bind_template_child (widget_class, StewardChatPage, placeholder_label);
  gtk_widget_class_bind_template_child (widget_class, StewardChatPage, composer_view);
  gtk_widget_class_bind_template_child (widget_class, StewardChatPage, send_stack);
  gtk_widget_class_bind_template_child (widget_class, StewardChatPage, prompt_popover);
  gtk_widget_class_bind_template_child (widget_class, StewardChatPage, prompt_list);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, conversation_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, model_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, attach_popover_show_cb);
  gtk_widget_class_bind_template_callback (widget_class, resource_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, composer_key_pressed_cb);
  gtk_widget_class_bind_template_callback (widget_class, prompt_activated_cb);
}

static void
steward_chat_page_init (StewardChatPage *self)
{
  self->running = g_hash_table_new_full (NULL, NULL, g_object_unref, g_object_unref);
  self->watched = g_hash_table_new_full (NULL, NULL, g_object_unref, NULL);
  self->model_ids = g_ptr_array_new_with_free_func (g_free);
  self->attachments = json_array_new ();
  self->cancellable = g_cancellable_new ();
  self->stick_to_bottom = TRUE;

  gtk_widget_init_template (GTK_WIDGET (self));

  gtk_widget_set_parent (GTK_WIDGET (self->prompt_popover), GTK_WIDGET (self));

  self->conversation_signals = g_signal_group_new (STEWARD_TYPE_CONVERSATION);
  g_signal_group_connect_object (self->conversation_signals, "notify::title",
                                 G_CALLBACK (update_title), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->conversation_signals, "notify::busy",
                                 G_CALLBACK (update_actions), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->conversation_signals, "notify::model",
                                 G_CALLBACK (select_conversation_model), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->conversation_signals, "changed",
                                 G_CALLBACK (messages_changed_cb), self, G_CONNECT_SWAPPED);

  g_signal_connect_object (gtk_text_view_get_buffer (self->composer_view), "changed",
                           G_CALLBACK (composer_changed_cb), self, G_CONNECT_SWAPPED);
}

GtkWidget *
steward_chat_page_new (StewardHost *host)
{
  g_return_val_if_fail (STEWARD_IS_HOST (host), NULL);

  return g_object_new (STEWARD_TYPE_CHAT_PAGE,
                       "host", host,
                       NULL);
}

StewardHost *
steward_chat_page_get_host (StewardChatPage *self)
{
  g_return_val_if_fail (STEWARD_IS_CHAT_PAGE (self), NULL);

  return self->host;
}

StewardConversation *
steward_chat_page_get_conversation (StewardChatPage *self)
{
  g_return_val_if_fail (STEWARD_IS_CHAT_PAGE (self), NULL);

  return self->conversation;
}

void
steward_chat_page_set_conversation (StewardChatPage     *self,
                                    StewardConversation *conversation)
{
  g_return_if_fail (STEWARD_IS_CHAT_PAGE (self));
  g_return_if_fail (conversation == NULL || STEWARD_IS_CONVERSATION (conversation));

  show_conversation (self, conversation);
}

void
steward_chat_page_new_conversation (StewardChatPage *self)
{
  g_return_if_fail (STEWARD_IS_CHAT_PAGE (self));

  /* An empty conversation is already a new one; pressing New again does
   * not pile up empty ones. */
  if (self->conversation == NULL ||
      g_list_model_get_n_items (steward_conversation_get_messages (self->conversation)) > 0)
    show_conversation (self, steward_conversation_store_create (get_store (self)));

  adw_leaflet_set_visible_child (self->leaflet, self->main);
  gtk_widget_grab_focus (GTK_WIDGET (self->composer_view));
}

GtkTextView *
steward_chat_page_get_composer (StewardChatPage *self)
{
  g_return_val_if_fail (STEWARD_IS_CHAT_PAGE (self), NULL);

  return self->composer_view;
}

GtkListView *
steward_chat_page_get_message_list (StewardChatPage *self)
{
  g_return_val_if_fail (STEWARD_IS_CHAT_PAGE (self), NULL);

  return self->message_list;
}

GtkListView *
steward_chat_page_get_conversation_list (StewardChatPage *self)
{
  g_return_val_if_fail (STEWARD_IS_CHAT_PAGE (self), NULL);

  return self->conversation_list;
}

GtkEditable *
steward_chat_page_get_search_entry (StewardChatPage *self)
{
  g_return_val_if_fail (STEWARD_IS_CHAT_PAGE (self), NULL);

  return GTK_EDITABLE (self->search_entry);
}

GtkDropDown *
steward_chat_page_get_model_dropdown (StewardChatPage *self)
{
  g_return_val_if_fail (STEWARD_IS_CHAT_PAGE (self), NULL);

  return self->model_dropdown;
}

char *
steward_chat_page_dup_prompt_choices (StewardChatPage *self)
{
  g_autoptr(GString) text = g_string_new (NULL);

  g_return_val_if_fail (STEWARD_IS_CHAT_PAGE (self), NULL);

  if (!gtk_widget_get_visible (GTK_WIDGET (self->prompt_popover)))
    return NULL;

  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->prompt_list));
       row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      const char *command = g_object_get_data (G_OBJECT (row), "command");

      if (command == NULL)
        continue;
      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, command);
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}

JsonArray *
steward_chat_page_get_attachments (StewardChatPage *self)
{
  g_return_val_if_fail (STEWARD_IS_CHAT_PAGE (self), NULL);

  return self->attachments;
}

guint
steward_chat_page_get_n_hidden_messages (StewardChatPage *self)
{
  g_return_val_if_fail (STEWARD_IS_CHAT_PAGE (self), 0);

  return steward_tail_model_get_hidden (self->message_tail);
}

gboolean
steward_chat_page_get_settling (StewardChatPage *self)
{
  g_return_val_if_fail (STEWARD_IS_CHAT_PAGE (self), FALSE);

  return self->settle_id != 0;
}

guint
steward_chat_page_get_n_tool_changes (StewardChatPage *self)
{
  g_return_val_if_fail (STEWARD_IS_CHAT_PAGE (self), 0);

  return self->n_tool_changes;
}

void
steward_chat_page_attach_resource (StewardChatPage *self,
                                   const char      *server,
                                   const char      *uri)
{
  g_return_if_fail (STEWARD_IS_CHAT_PAGE (self));
  g_return_if_fail (server != NULL && uri != NULL);

  attach_resource (self, server, uri);
}

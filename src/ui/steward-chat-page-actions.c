/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The chat page's actions (chat.*) and the turns they start, and the banner
 * for tool definitions waiting for review. */
#define G_LOG_DOMAIN "steward-chat-page"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-client.h"
#include "steward-chat-engine.h"
#include "steward-conversation-store.h"
#include "steward-text.h"
#include "steward-tool-pins.h"

#include "steward-chat-page-private.h"
#include "steward-tool-change-dialog.h"
#include "steward-tool-review-dialog.h"

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
          StewardChatMessage *last = _steward_chat_page_last_message (self, -1);

          if (last == NULL || steward_chat_message_get_error (last) == NULL)
            _steward_chat_page_show_error (self, error->message);
        }

      _steward_chat_page_update_actions (self);
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
  _steward_chat_page_show_error (self, NULL);
  self->stick_to_bottom = TRUE;

  return turn;
}

void
_steward_chat_page_send (StewardChatPage *self)
{
  g_autofree char *text = _steward_chat_page_dup_composer_text (self);
  g_autoptr(JsonArray) attachments = NULL;
  Turn *turn;

  if (*text == '\0' && json_array_get_length (self->attachments) == 0)
    return;

  if (self->conversation == NULL)
    _steward_chat_page_show_conversation (self, steward_conversation_store_create (_steward_chat_page_get_store (self)));

  if (_steward_chat_page_is_busy (self, self->conversation))
    return;

  _steward_chat_page_hide_prompts (self);

  if (self->editing)
    {
      turn = start_turn (self, TURN_EDIT);
      steward_chat_engine_edit_last_async (_steward_chat_page_get_engine (self), self->conversation, text,
                                           turn->cancellable, turn_done_cb, turn);
    }
  else
    {
      attachments = g_steal_pointer (&self->attachments);
      self->attachments = json_array_new ();
      turn = start_turn (self, TURN_SEND);
      steward_chat_engine_send_async (_steward_chat_page_get_engine (self), self->conversation, text,
                                      json_array_get_length (attachments) > 0 ? attachments
                                                                               : NULL,
                                      turn->cancellable, turn_done_cb, turn);
    }

  _steward_chat_page_set_editing (self, FALSE);
  _steward_chat_page_set_composer_text (self, "");
  _steward_chat_page_update_attachment_chips (self);
  _steward_chat_page_scroll_to_end (self);
}

static void queue_watch (StewardChatPage *self);

static void
update_tool_changes (StewardChatPage *self)
{
  g_autofree char *text = NULL;
  guint n = steward_tool_change_dialog_count_changes (_steward_chat_page_get_registry (self),
                                                      steward_host_get_tool_pins (self->host));
  guint unreviewed = steward_tool_review_dialog_count_unreviewed (_steward_chat_page_get_registry (self),
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

void
_steward_chat_page_unwatch_all (StewardChatPage *self)
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
  GListModel *servers = G_LIST_MODEL (_steward_chat_page_get_registry (self));
  guint n = g_list_model_get_n_items (servers);

  self->watch_id = 0;
  _steward_chat_page_unwatch_all (self);

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

  dialog = adw_message_dialog_new (_steward_chat_page_get_window (self), _("Rename Conversation"), NULL);
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
    _steward_chat_page_show_conversation (self, NULL);
  steward_conversation_store_delete (_steward_chat_page_get_store (self), conversation);
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

  if (self->conversation == NULL || _steward_chat_page_is_busy (self, self->conversation))
    return;

  title = steward_text_make_visible_capped (steward_conversation_get_title (self->conversation),
                                            256, NULL);
  /* Translators: %s is a conversation's title. */
  heading = g_strdup_printf (_("Delete “%s”?"), title);
  dialog = adw_message_dialog_new (_steward_chat_page_get_window (self), heading,
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
  _steward_chat_page_send (STEWARD_CHAT_PAGE (widget));
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

  if (self->conversation == NULL || _steward_chat_page_is_busy (self, self->conversation))
    return;

  turn = start_turn (self, TURN_REGENERATE);
  steward_chat_engine_regenerate_async (_steward_chat_page_get_engine (self), self->conversation,
                                        turn->cancellable, turn_done_cb, turn);
  _steward_chat_page_update_actions (self);
}

static void
edit_last_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  StewardChatPage *self = STEWARD_CHAT_PAGE (widget);
  StewardChatMessage *last = _steward_chat_page_last_message (self, STEWARD_CHAT_ROLE_USER);

  if (last == NULL)
    return;

  _steward_chat_page_set_composer_text (self, steward_chat_message_get_text (last));
  _steward_chat_page_set_editing (self, TRUE);
  gtk_widget_grab_focus (GTK_WIDGET (self->composer_view));
}

static void
cancel_edit_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  StewardChatPage *self = STEWARD_CHAT_PAGE (widget);

  _steward_chat_page_set_editing (self, FALSE);
  _steward_chat_page_set_composer_text (self, "");
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
  dialog = steward_tool_review_dialog_new_for_registry (_steward_chat_page_get_registry (self), pins);
  if (dialog == NULL)
    dialog = steward_tool_change_dialog_new (_steward_chat_page_get_registry (self), pins);

  gtk_window_set_transient_for (GTK_WINDOW (dialog), _steward_chat_page_get_window (self));
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
  _steward_chat_page_update_attachment_chips (self);
}

/* The banner follows the pins and the servers from the start. */
void
_steward_chat_page_actions_init (StewardChatPage *self)
{
  g_signal_connect_object (steward_host_get_tool_pins (self->host), "changed",
                           G_CALLBACK (queue_watch), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (_steward_chat_page_get_registry (self), "items-changed",
                           G_CALLBACK (queue_watch), self, G_CONNECT_SWAPPED);
  watch_cb (self);
}

void
_steward_chat_page_class_actions_init (GtkWidgetClass *widget_class)
{
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
}

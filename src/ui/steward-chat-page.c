/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-chat-page"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-chat-engine.h"
#include "steward-conversation-store.h"
#include "steward-text.h"

#include "steward-chat-page-private.h"

/* The list shows the newest messages of a conversation, and earlier ones
 * a page at a time as the person scrolls up: the list keeps a row for
 * every item it is given up to a couple of hundred, and rows are what
 * make a long conversation slow to open. */
#define SHOWN_MESSAGES 40

enum {
  PROP_0,
  PROP_HOST,
  PROP_CONVERSATION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (StewardChatPage, steward_chat_page, ADW_TYPE_BIN)

StewardConversationStore *
_steward_chat_page_get_store (StewardChatPage *self)
{
  return steward_host_get_conversations (self->host);
}

StewardChatEngine *
_steward_chat_page_get_engine (StewardChatPage *self)
{
  return steward_host_get_chat_engine (self->host);
}

StewardServerRegistry *
_steward_chat_page_get_registry (StewardChatPage *self)
{
  return steward_host_get_registry (self->host);
}

GtkWindow *
_steward_chat_page_get_window (StewardChatPage *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  return GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL;
}

void
_steward_chat_page_show_error (StewardChatPage *self,
                               const char      *text)
{
  g_autofree char *visible = text != NULL ? steward_text_for_display (text) : NULL;

  gtk_label_set_text (self->error_label, visible != NULL ? visible : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), visible != NULL);
}

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

gboolean
_steward_chat_page_is_busy (StewardChatPage     *self,
                            StewardConversation *conversation)
{
  return conversation != NULL &&
         (steward_conversation_get_busy (conversation) ||
          g_hash_table_contains (self->running, conversation));
}

StewardChatMessage *
_steward_chat_page_last_message (StewardChatPage *self,
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

void
_steward_chat_page_update_actions (StewardChatPage *self)
{
  gboolean has = self->conversation != NULL;
  gboolean busy = _steward_chat_page_is_busy (self, self->conversation);
  StewardChatMessage *last = _steward_chat_page_last_message (self, -1);
  g_autofree char *text = _steward_chat_page_dup_composer_text (self);
  gboolean has_text = *text != '\0' || json_array_get_length (self->attachments) > 0;
  gboolean can_regenerate = has && !busy && last != NULL &&
                            steward_chat_message_get_role (last) == STEWARD_CHAT_ROLE_ASSISTANT;
  gboolean can_edit = has && !busy && _steward_chat_page_last_message (self, STEWARD_CHAT_ROLE_USER) != NULL;

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
  _steward_chat_page_update_actions (self);
}

void
_steward_chat_page_show_conversation (StewardChatPage     *self,
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

  _steward_chat_page_set_editing (self, FALSE);
  _steward_chat_page_show_error (self, NULL);
  update_title (self);
  select_conversation_model (self);
  _steward_chat_page_sync_selection (self);
  _steward_chat_page_update_actions (self);
  _steward_chat_page_scroll_to_end (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONVERSATION]);
}

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

  G_OBJECT_CLASS (steward_chat_page_parent_class)->constructed (object);

  g_return_if_fail (STEWARD_IS_HOST (self->host));

  _steward_chat_page_sidebar_init (self);

  _steward_chat_page_messages_init (self);

  self->model_names = gtk_string_list_new (NULL);
  gtk_drop_down_set_model (self->model_dropdown, G_LIST_MODEL (self->model_names));
  g_signal_connect_object (steward_host_get_model_catalog (self->host), "items-changed",
                           G_CALLBACK (rebuild_models), self, G_CONNECT_SWAPPED);
  rebuild_models (self);

  _steward_chat_page_actions_init (self);

  _steward_chat_page_update_sidebar_stack (self);
  _steward_chat_page_update_actions (self);
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
    _steward_chat_page_unwatch_all (self);

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

  _steward_chat_page_class_actions_init (widget_class);

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
  gtk_widget_class_bind_template_callback (widget_class, model_selected_cb);

  _steward_chat_page_class_sidebar_init (widget_class);
  _steward_chat_page_class_composer_init (widget_class);
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

  _steward_chat_page_composer_init (self);

  self->conversation_signals = g_signal_group_new (STEWARD_TYPE_CONVERSATION);
  g_signal_group_connect_object (self->conversation_signals, "notify::title",
                                 G_CALLBACK (update_title), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->conversation_signals, "notify::busy",
                                 G_CALLBACK (_steward_chat_page_update_actions), self,
                                 G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->conversation_signals, "notify::model",
                                 G_CALLBACK (select_conversation_model), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->conversation_signals, "changed",
                                 G_CALLBACK (messages_changed_cb), self, G_CONNECT_SWAPPED);
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

  _steward_chat_page_show_conversation (self, conversation);
}

void
steward_chat_page_new_conversation (StewardChatPage *self)
{
  g_return_if_fail (STEWARD_IS_CHAT_PAGE (self));

  /* An empty conversation is already a new one; pressing New again does
   * not pile up empty ones. */
  if (self->conversation == NULL ||
      g_list_model_get_n_items (steward_conversation_get_messages (self->conversation)) > 0)
    _steward_chat_page_show_conversation (self, steward_conversation_store_create (_steward_chat_page_get_store (self)));

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

  _steward_chat_page_attach_resource (self, server, uri);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The chat page's sidebar: the conversations, filtered by the search, and
 * which of them is shown. */
#define G_LOG_DOMAIN "steward-chat-page"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-conversation-store.h"
#include "steward-text.h"

#include "steward-chat-page-private.h"

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

void
_steward_chat_page_sync_selection (StewardChatPage *self)
{
  guint position = find_in_filter (self, self->conversation);

  if (gtk_single_selection_get_selected (self->conversation_selection) == position)
    return;

  self->selecting = TRUE;
  gtk_single_selection_set_selected (self->conversation_selection, position);
  self->selecting = FALSE;
}

static gboolean
filter_cb (gpointer item,
           gpointer user_data)
{
  StewardChatPage *self = user_data;

  return steward_conversation_matches (item, self->query);
}

void
_steward_chat_page_update_sidebar_stack (StewardChatPage *self)
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
  _steward_chat_page_update_sidebar_stack (self);
  /* A conversation that moved to the top keeps its selection. */
  _steward_chat_page_sync_selection (self);
}

static void
store_items_changed_cb (StewardChatPage *self)
{
  const char *id;

  if (self->conversation == NULL)
    return;

  /* The conversation shown was deleted: nothing is shown any more. */
  id = steward_conversation_get_id (self->conversation);
  if (steward_conversation_store_lookup (_steward_chat_page_get_store (self), id) != self->conversation)
    _steward_chat_page_show_conversation (self, NULL);
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

  _steward_chat_page_show_conversation (self, selected);
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

void
_steward_chat_page_sidebar_init (StewardChatPage *self)
{
  StewardConversationStore *store = _steward_chat_page_get_store (self);
  GtkListItemFactory *factory;

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
}

void
_steward_chat_page_class_sidebar_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, conversation_activated_cb);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "steward-chat-page.h"
#include "steward-tail-model.h"

G_BEGIN_DECLS

/*
 * The chat page is in parts that share its instance: steward-chat-page.c
 * (the page, its models and the conversation shown), -composer.c (what the
 * person writes, attaches and picks after "/"), -sidebar.c (the list of
 * conversations), -messages.c (the message list and its scrolling) and
 * -actions.c (chat.* and the turns).
 */

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

/* steward-chat-page.c */
StewardConversationStore *_steward_chat_page_get_store        (StewardChatPage     *self);
StewardChatEngine        *_steward_chat_page_get_engine       (StewardChatPage     *self);
StewardServerRegistry    *_steward_chat_page_get_registry     (StewardChatPage     *self);
GtkWindow                *_steward_chat_page_get_window       (StewardChatPage     *self);
void                      _steward_chat_page_show_error       (StewardChatPage     *self,
                                                               const char          *text);
gboolean                  _steward_chat_page_is_busy          (StewardChatPage     *self,
                                                               StewardConversation *conversation);
/* The last message of @role (a StewardChatRole, or -1 for any) in the
 * conversation shown. */
StewardChatMessage       *_steward_chat_page_last_message     (StewardChatPage     *self,
                                                               int                  role);
void                      _steward_chat_page_update_actions   (StewardChatPage     *self);
void                      _steward_chat_page_show_conversation (StewardChatPage    *self,
                                                               StewardConversation *conversation);

/* steward-chat-page-composer.c */
void                      _steward_chat_page_class_composer_init (GtkWidgetClass   *widget_class);
void                      _steward_chat_page_composer_init    (StewardChatPage     *self);
char                     *_steward_chat_page_dup_composer_text (StewardChatPage    *self);
void                      _steward_chat_page_set_composer_text (StewardChatPage    *self,
                                                               const char          *text);
void                      _steward_chat_page_set_editing      (StewardChatPage     *self,
                                                               gboolean             editing);
void                      _steward_chat_page_update_attachment_chips (StewardChatPage *self);
void                      _steward_chat_page_attach_resource  (StewardChatPage     *self,
                                                               const char          *server,
                                                               const char          *uri);
void                      _steward_chat_page_hide_prompts     (StewardChatPage     *self);
void                      _steward_chat_page_update_prompt_list (StewardChatPage   *self);

/* steward-chat-page-sidebar.c */
void                      _steward_chat_page_class_sidebar_init (GtkWidgetClass    *widget_class);
void                      _steward_chat_page_sidebar_init     (StewardChatPage     *self);
void                      _steward_chat_page_sync_selection   (StewardChatPage     *self);
void                      _steward_chat_page_update_sidebar_stack (StewardChatPage *self);

/* steward-chat-page-messages.c */
void                      _steward_chat_page_messages_init    (StewardChatPage     *self);
void                      _steward_chat_page_scroll_to_end    (StewardChatPage     *self);

/* steward-chat-page-actions.c */
void                      _steward_chat_page_class_actions_init (GtkWidgetClass    *widget_class);
/* The banner follows the pins and the servers from the start. */
void                      _steward_chat_page_actions_init     (StewardChatPage     *self);
void                      _steward_chat_page_send             (StewardChatPage     *self);
void                      _steward_chat_page_unwatch_all      (StewardChatPage     *self);

/* For the tests, which drive the page as a person would. */

GtkTextView    *steward_chat_page_get_composer         (StewardChatPage *self);
GtkListView    *steward_chat_page_get_message_list     (StewardChatPage *self);
GtkListView    *steward_chat_page_get_conversation_list (StewardChatPage *self);
GtkEditable    *steward_chat_page_get_search_entry     (StewardChatPage *self);
GtkDropDown    *steward_chat_page_get_model_dropdown   (StewardChatPage *self);
/* The prompts offered after "/", as "server/prompt", one a line; NULL
 * when the list is not shown. */
char           *steward_chat_page_dup_prompt_choices   (StewardChatPage *self);
/* The attachments waiting to be sent, as content blocks. */
JsonArray      *steward_chat_page_get_attachments      (StewardChatPage *self);
/* How many of the conversation's earliest messages the list does not
 * show yet (until the person scrolls up to them). */
guint           steward_chat_page_get_n_hidden_messages (StewardChatPage *self);
/* Whether the list is still being held at its end while a conversation
 * it just showed is laid out. */
gboolean        steward_chat_page_get_settling          (StewardChatPage *self);
/* How many tool definitions wait for review, as the banner says. */
guint           steward_chat_page_get_n_tool_changes   (StewardChatPage *self);
/* Attaches resource @uri of @server as the Attach Resource menu does. */
void            steward_chat_page_attach_resource      (StewardChatPage *self,
                                                        const char      *server,
                                                        const char      *uri);

G_END_DECLS

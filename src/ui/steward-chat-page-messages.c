/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The chat page's message list: its rows, and keeping it at the end while
 * a conversation is laid out or an answer streams in. */
#define G_LOG_DOMAIN "steward-chat-page"

#include "config.h"

#include "steward-chat-page-private.h"
#include "steward-message-row.h"

/* How close to the end counts as "at the end" when new text arrives. */
#define STICK_DISTANCE 48.0
/* Earlier messages come a page at a time as the person scrolls up
 * (SHOWN_MESSAGES in steward-chat-page.c says why). */
#define EARLIER_MESSAGES 10

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

void
_steward_chat_page_scroll_to_end (StewardChatPage *self)
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

void
_steward_chat_page_messages_init (StewardChatPage *self)
{
  GtkListItemFactory *factory;
  GtkAdjustment *adjustment;

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
}

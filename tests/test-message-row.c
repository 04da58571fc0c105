/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <json-glib/json-glib.h>

#include "steward-app-call-view.h"
#include "steward-chat-message.h"
#include "steward-message-row.h"
#include "steward-tool-call-row.h"
#include "steward-tool-call.h"
#include "test-widgets.h"

/* A message row in a window, as the chat's list shows it, and the
 * message it shows: an assistant's, with tool calls. */
typedef struct
{
  GtkWindow          *window;
  StewardMessageRow  *row;
  StewardChatMessage *message;
} Fixture;

static StewardToolCall *
add_call (StewardChatMessage *message,
          const char         *id)
{
  g_autoptr(JsonObject) arguments = json_object_new ();
  g_autoptr(StewardToolCall) call = steward_tool_call_new (id, "basic", "get-time", arguments);

  steward_tool_call_set_state (call, STEWARD_TOOL_CALL_RUNNING);
  steward_chat_message_add_tool_call (message, call);
  return call;
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  fixture->message = steward_chat_message_new (STEWARD_CHAT_ROLE_ASSISTANT, NULL);
  add_call (fixture->message, "call-1");
  add_call (fixture->message, "call-2");

  fixture->row = STEWARD_MESSAGE_ROW (steward_message_row_new ());
  fixture->window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (fixture->window, 480, 360);
  gtk_window_set_child (fixture->window, GTK_WIDGET (fixture->row));
  gtk_window_present (fixture->window);
  steward_message_row_set_message (fixture->row, fixture->message);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  gtk_window_destroy (fixture->window);
  test_drain_main_context ();
  g_assert_finalize_object (fixture->message);
}

/* The rows of the tool calls the message row shows, in order. */
static GPtrArray *
tool_call_rows (StewardMessageRow *row)
{
  GPtrArray *rows = g_ptr_array_new ();
  GtkWidget *first = test_find_by_type (GTK_WIDGET (row), STEWARD_TYPE_TOOL_CALL_ROW);

  for (GtkWidget *child = first; child != NULL; child = gtk_widget_get_next_sibling (child))
    if (STEWARD_IS_TOOL_CALL_ROW (child) && gtk_widget_get_mapped (child))
      g_ptr_array_add (rows, child);

  return rows;
}

typedef struct
{
  StewardMessageRow *row;
  guint              n;
} Shown;

static gboolean
rows_shown (gpointer data)
{
  Shown *shown = data;
  g_autoptr(GPtrArray) rows = tool_call_rows (shown->row);

  return rows->len == shown->n;
}

static void
wait_for_rows (Fixture *fixture,
               guint    n)
{
  Shown shown = { fixture->row, n };

  test_wait_until (rows_shown, &shown, 5000);
}

/* Each tool call's row and its view, watched for being finalized. */
typedef struct
{
  GtkWidget *rows[2];
  GtkWidget *views[2];
} Watched;

static void
watch (Fixture *fixture,
       Watched *watched)
{
  g_autoptr(GPtrArray) rows = tool_call_rows (fixture->row);

  g_assert_cmpuint (rows->len, ==, G_N_ELEMENTS (watched->rows));
  for (guint i = 0; i < rows->len; i++)
    {
      watched->rows[i] = g_ptr_array_index (rows, i);
      watched->views[i] = test_find_by_type (watched->rows[i], STEWARD_TYPE_APP_CALL_VIEW);
      g_assert_nonnull (watched->views[i]);
      g_object_add_weak_pointer (G_OBJECT (watched->rows[i]), (gpointer *) &watched->rows[i]);
      g_object_add_weak_pointer (G_OBJECT (watched->views[i]), (gpointer *) &watched->views[i]);
    }
}

static void
unwatch (Watched *watched)
{
  for (guint i = 0; i < G_N_ELEMENTS (watched->rows); i++)
    {
      if (watched->rows[i] != NULL)
        g_object_remove_weak_pointer (G_OBJECT (watched->rows[i]),
                                      (gpointer *) &watched->rows[i]);
      if (watched->views[i] != NULL)
        g_object_remove_weak_pointer (G_OBJECT (watched->views[i]),
                                      (gpointer *) &watched->views[i]);
    }
}

/* The list unbinds a row and binds it to the same message again as the
 * conversation scrolls and grows: the calls' rows and their views (each
 * with its page, its bridge and the questions it has open) stay the same
 * objects, as they were, and a call added since joins them. */
static void
test_rebind_keeps_views (Fixture       *fixture,
                         gconstpointer  data)
{
  Watched watched = { 0 };
  g_autoptr(GPtrArray) rows = NULL;

  wait_for_rows (fixture, 2);
  watch (fixture, &watched);
  steward_tool_call_row_set_expanded (STEWARD_TOOL_CALL_ROW (watched.rows[1]), TRUE);

  for (guint round = 0; round < 3; round++)
    {
      steward_message_row_set_message (fixture->row, NULL);
      test_drain_main_context ();
      steward_message_row_set_message (fixture->row, fixture->message);
      wait_for_rows (fixture, 2);
    }

  rows = tool_call_rows (fixture->row);
  for (guint i = 0; i < rows->len; i++)
    {
      g_assert_nonnull (watched.rows[i]);
      g_assert_nonnull (watched.views[i]);
      g_assert_true (g_ptr_array_index (rows, i) == watched.rows[i]);
      g_assert_true (test_find_by_type (watched.rows[i], STEWARD_TYPE_APP_CALL_VIEW)
                     == watched.views[i]);
    }
  g_assert_true (steward_tool_call_row_get_expanded (STEWARD_TOOL_CALL_ROW (watched.rows[1])));

  /* The conversation grows: a third call, the first two untouched. */
  add_call (fixture->message, "call-3");
  wait_for_rows (fixture, 3);
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = tool_call_rows (fixture->row);
  g_assert_true (g_ptr_array_index (rows, 0) == watched.rows[0]);
  g_assert_true (g_ptr_array_index (rows, 1) == watched.rows[1]);
  g_assert_true (steward_tool_call_row_get_call (g_ptr_array_index (rows, 2)) ==
                 g_list_model_get_item (steward_chat_message_get_tool_calls (fixture->message),
                                        2));
  g_object_unref (steward_tool_call_row_get_call (g_ptr_array_index (rows, 2)));

  unwatch (&watched);
}

/* Bound to another message, the row lets the calls it showed go, and
 * their views with them: those calls are no longer shown here. */
static void
test_other_message_drops_views (Fixture       *fixture,
                                gconstpointer  data)
{
  g_autoptr(StewardChatMessage) other = steward_chat_message_new (STEWARD_CHAT_ROLE_ASSISTANT,
                                                                  NULL);
  Watched watched = { 0 };
  g_autoptr(GPtrArray) rows = NULL;

  wait_for_rows (fixture, 2);
  watch (fixture, &watched);
  add_call (other, "call-9");

  steward_message_row_set_message (fixture->row, other);
  wait_for_rows (fixture, 1);
  test_drain_main_context ();
  for (guint i = 0; i < G_N_ELEMENTS (watched.rows); i++)
    {
      g_assert_null (watched.rows[i]);
      g_assert_null (watched.views[i]);
    }
  rows = tool_call_rows (fixture->row);
  g_assert_cmpstr (steward_tool_call_get_id (
                     steward_tool_call_row_get_call (g_ptr_array_index (rows, 0))), ==, "call-9");

  /* Let go of, then bound to the first message again: its calls get
   * rows anew, in order. */
  steward_message_row_set_message (fixture->row, NULL);
  steward_message_row_set_message (fixture->row, fixture->message);
  wait_for_rows (fixture, 2);
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = tool_call_rows (fixture->row);
  g_assert_cmpstr (steward_tool_call_get_id (
                     steward_tool_call_row_get_call (g_ptr_array_index (rows, 0))), ==, "call-1");
  steward_message_row_set_message (fixture->row, NULL);
  test_drain_main_context ();
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add ("/steward/message-row/rebind-keeps-views", Fixture, NULL,
              fixture_set_up, test_rebind_keeps_views, fixture_tear_down);
  g_test_add ("/steward/message-row/other-message-drops-views", Fixture, NULL,
              fixture_set_up, test_other_message_drops_views, fixture_tear_down);

  return g_test_run ();
}

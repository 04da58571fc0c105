/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "bench-chat"

#include "config.h"

/*
 * The chat page with a long conversation, as a person would use it:
 *
 *  - load: a conversation of N messages (2,000 by default; questions,
 *    and markdown answers with lists, code and a table, one in five with
 *    a tool call and its result) is written by the
 *    conversation store, read back by a new store (on its worker), and
 *    shown in the chat page; the times are from the call to the end of
 *    the load, and from choosing the conversation to its first painted
 *    frame (the median of five, with the main thread's CPU time);
 *  - scrolling: the message list is scrolled from the end to the start,
 *    by a step a frame as a touchpad would (the earlier messages join the
 *    list on the way, as they do for a person), then from the start back
 *    to the end, every row now known; each frame's time, CPU time and the
 *    interval between frames are recorded from the window's
 *    GdkFrameClock (bench-frames.h);
 *  - streaming: an answer grows by one token every 20 ms; for each token
 *    the time from its arrival (the text appended to the message) to the
 *    end of the next painted frame.
 *
 *   run-in-session bench-chat [--messages N] [--tokens N] [--step PX]
 *
 * Prints one line per figure, then all of them as one JSON object. The
 * target for the load is 300 ms.
 */

#include <adwaita.h>
#include <glib/gstdio.h>
#include <stdlib.h>

#include "bench-frames.h"
#include "steward-chat-page-private.h"
#include "steward-chat-page.h"
#include "steward-host.h"

#define TOKEN_MS 20
#define LOAD_ROUNDS 5

typedef struct
{
  GtkWidget          *window;
  StewardChatPage    *page;
  GtkAdjustment      *adjustment;

  BenchFrames        *frames;

  /* Scrolling: by step a frame, down when step is positive. */
  double              step;
  guint               scroll_id;
  gboolean            scrolling;

  /* Streaming. */
  StewardChatMessage *answer;
  GArray             *latencies;
  gint64              token_us;
  guint               tokens_left;
  gboolean            streaming;

  gboolean            painted;
} Bench;

static int
compare_gint64 (gconstpointer a,
                gconstpointer b)
{
  gint64 x = *(const gint64 *) a;
  gint64 y = *(const gint64 *) b;

  return x < y ? -1 : x > y ? 1 : 0;
}

static double
percentile_ms (GArray *values,
               double  fraction)
{
  guint index;

  if (values->len == 0)
    return 0;

  index = MIN ((guint) (fraction * (values->len - 1) + 0.5), values->len - 1);
  return g_array_index (values, gint64, index) / 1000.0;
}

static void
after_paint_cb (GdkFrameClock *clock,
                Bench         *bench)
{
  gint64 now = g_get_monotonic_time ();

  bench->painted = TRUE;

  if (bench->streaming && bench->token_us != 0)
    {
      gint64 latency = now - bench->token_us;

      g_array_append_val (bench->latencies, latency);
      bench->token_us = 0;
    }
}

static gboolean
scroll_tick_cb (GtkWidget     *widget,
                GdkFrameClock *clock,
                gpointer       user_data)
{
  Bench *bench = user_data;
  GtkAdjustment *adjustment = bench->adjustment;
  double value = gtk_adjustment_get_value (adjustment);
  double end = gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment);

  /* Up: done at the start once no earlier messages are left to join. */
  if ((bench->step < 0 && value <= 0 &&
       steward_chat_page_get_n_hidden_messages (bench->page) == 0) ||
      (bench->step > 0 && value >= end))
    {
      bench->scrolling = FALSE;
      bench->scroll_id = 0;
      return G_SOURCE_REMOVE;
    }

  gtk_adjustment_set_value (adjustment, CLAMP (value + bench->step, 0, end));
  return G_SOURCE_CONTINUE;
}

static const char *const tokens[] = {
  "The ", "answer ", "grows ", "one ", "token ", "at ", "a ", "time, ", "with ", "**bold** ",
  "words, ", "`code`, ", "and ", "a ", "[link](https://example.com/) ", "now ", "and ",
  "then.\n\n", "- a ", "list ", "item\n", "- another\n\n",
};

static gboolean
token_cb (gpointer user_data)
{
  Bench *bench = user_data;

  if (bench->tokens_left == 0)
    {
      steward_chat_message_set_streaming (bench->answer, FALSE);
      bench->streaming = FALSE;
      return G_SOURCE_REMOVE;
    }

  /* A token whose frame has not come yet is still counted from its own
   * arrival: the next frame shows both. */
  if (bench->token_us == 0)
    bench->token_us = g_get_monotonic_time ();
  steward_chat_message_append_text (bench->answer,
                                    tokens[bench->tokens_left % G_N_ELEMENTS (tokens)]);
  bench->tokens_left--;
  return G_SOURCE_CONTINUE;
}

static StewardChatMessage *
text_message (StewardChatRole  role,
              const char      *text)
{
  g_autoptr(JsonArray) content = json_array_new ();
  JsonObject *block = json_object_new ();

  json_object_set_string_member (block, "type", "text");
  json_object_set_string_member (block, "text", text);
  json_array_add_object_element (content, block);
  return steward_chat_message_new (role, content);
}

static void
add_tool_call (StewardChatMessage *message,
               guint               i)
{
  g_autofree char *id = g_strdup_printf ("call_%u", i);
  g_autofree char *echoed = g_strdup_printf ("Echo: names sorted, round %u", i);
  g_autoptr(JsonObject) arguments = json_object_new ();
  g_autoptr(JsonArray) result = json_array_new ();
  g_autoptr(StewardToolCall) call = NULL;
  JsonObject *block = json_object_new ();

  json_object_set_string_member (arguments, "message", echoed + strlen ("Echo: "));
  call = steward_tool_call_new (id, "everything", "echo", arguments);
  json_object_set_string_member (block, "type", "text");
  json_object_set_string_member (block, "text", echoed);
  json_array_add_object_element (result, block);
  steward_tool_call_set_result (call, result, FALSE);
  steward_tool_call_set_state (call, STEWARD_TOOL_CALL_DONE);
  steward_chat_message_add_tool_call (message, call);
}

static void
fill (StewardConversation *conversation,
      guint                n_messages)
{
  for (guint i = 0; i < n_messages; i++)
    {
      g_autoptr(StewardChatMessage) message = NULL;
      g_autofree char *text = NULL;

      if (i % 2 == 0)
        {
          text = g_strdup_printf ("Question %u: how would you sort a list of %u names "
                                  "by their last letter?", i / 2, i);
          message = text_message (STEWARD_CHAT_ROLE_USER, text);
        }
      else
        {
          text = g_strdup_printf ("## Answer %u\n\n"
                                  "Sort them with a **key** that takes the last letter; "
                                  "*stable* sorting keeps ties in order. See "
                                  "[the docs](https://docs.python.org/3/howto/sorting.html).\n\n"
                                  "1. Take each name\n2. Key on `name[-1]`\n3. Sort\n\n"
                                  "```python\nnames.sort(key=lambda n: n[-1])\n"
                                  "print(names)\n```\n\n"
                                  "| name | key |\n|---|---|\n| Ada | a |\n| Linus | s |\n",
                                  i / 2);
          message = text_message (STEWARD_CHAT_ROLE_ASSISTANT, text);
          steward_chat_message_set_model (message, "bench/model");
          /* One answer in five came with a tool call and its result. */
          if (i % 10 == 1)
            add_tool_call (message, i);
        }
      steward_conversation_append (conversation, message);
    }
}

static void
flushed_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!steward_conversation_store_flush_finish (STEWARD_CONVERSATION_STORE (object), result,
                                                &error))
    g_error ("Writing the conversation: %s", error->message);
  *(gboolean *) user_data = FALSE;
}

static void
loaded_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!steward_conversation_store_load_finish (STEWARD_CONVERSATION_STORE (object), result,
                                               &error))
    g_error ("Reading the conversation: %s", error->message);
  *(gboolean *) user_data = FALSE;
}

static void
scroll (Bench  *bench,
        double  step)
{
  bench->step = step;
  bench_frames_start (bench->frames);
  bench->scrolling = TRUE;
  bench->scroll_id = gtk_widget_add_tick_callback (bench->window, scroll_tick_cb, bench, NULL);
  bench_iterate_while (&bench->scrolling);
  bench_frames_stop (bench->frames);
}

static gboolean
host_started (StewardHost *host)
{
  return steward_host_get_started (host);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *tmp_dir = NULL;
  g_autoptr(GFile) config_dir = NULL;
  g_autoptr(GFile) state_dir = NULL;
  g_autoptr(GFile) data_dir = NULL;
  g_autoptr(GFile) folder = NULL;
  g_autoptr(StewardConversationStore) reader = NULL;
  g_autofree char *id = NULL;
  StewardHost *host;
  StewardConversationStore *store;
  StewardConversation *conversation;
  GdkFrameClock *frame_clock;
  Bench bench = { 0 };
  int n_messages = 2000;
  int n_tokens = 300;
  double step = 90;
  g_autoptr(GString) json = g_string_new (NULL);
  gboolean waiting;
  gint64 start_us;
  gint64 read_us;
  gint64 show_us[LOAD_ROUNDS];
  gint64 show_cpu_us[LOAD_ROUNDS];
  GOptionEntry entries[] = {
    { "messages", 0, 0, G_OPTION_ARG_INT, &n_messages, "Messages in the conversation (2000)",
      "N" },
    { "tokens", 0, 0, G_OPTION_ARG_INT, &n_tokens, "Tokens streamed (300)", "N" },
    { "step", 0, 0, G_OPTION_ARG_DOUBLE, &step, "Pixels scrolled a frame (90)", "PX" },
    { NULL }
  };

  g_setenv ("GSETTINGS_SCHEMA_DIR", BENCH_SCHEMA_DIR, FALSE);
  g_setenv ("GSETTINGS_BACKEND", "memory", FALSE);

  context = g_option_context_new ("- the chat with a long conversation");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }

  gtk_init ();
  adw_init ();
  bench_busy_init ();

  tmp_dir = g_dir_make_tmp ("bench-chat-XXXXXX", &error);
  g_assert_no_error (error);
  config_dir = g_file_new_build_filename (tmp_dir, "config", NULL);
  state_dir = g_file_new_build_filename (tmp_dir, "state", NULL);
  data_dir = g_file_new_build_filename (tmp_dir, "data", NULL);
  host = g_object_new (STEWARD_TYPE_HOST,
                       "config-dir", config_dir,
                       "state-dir", state_dir,
                       "data-dir", data_dir,
                       NULL);
  steward_host_start (host);
  while (!host_started (host))
    g_main_context_iteration (NULL, TRUE);
  store = steward_host_get_conversations (host);

  /* The conversation, written as the app writes it. */
  conversation = steward_conversation_store_create (store);
  id = g_strdup (steward_conversation_get_id (conversation));
  fill (conversation, MAX (n_messages, 2));
  waiting = TRUE;
  steward_conversation_store_flush_async (store, NULL, flushed_cb, &waiting);
  bench_iterate_while (&waiting);

  /* Read back by a store of its own, as at the next start. */
  folder = g_object_ref (steward_conversation_store_get_folder (store));
  reader = steward_conversation_store_new (folder);
  waiting = TRUE;
  start_us = g_get_monotonic_time ();
  steward_conversation_store_load_async (reader, NULL, loaded_cb, &waiting);
  bench_iterate_while (&waiting);
  read_us = g_get_monotonic_time () - start_us;
  g_assert_nonnull (steward_conversation_store_lookup (reader, id));

  bench.latencies = g_array_new (FALSE, FALSE, sizeof (gint64));

  bench.window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (bench.window), 1000, 800);
  bench.page = STEWARD_CHAT_PAGE (steward_chat_page_new (host));
  gtk_window_set_child (GTK_WINDOW (bench.window), GTK_WIDGET (bench.page));
  gtk_window_present (GTK_WINDOW (bench.window));
  bench_settle (500);

  frame_clock = gtk_widget_get_frame_clock (bench.window);
  g_assert_nonnull (frame_clock);
  bench.frames = bench_frames_new (bench.window);
  g_signal_connect (frame_clock, "after-paint", G_CALLBACK (after_paint_cb), &bench);

  /* Load: choosing the conversation to its first painted frame, five
   * times (to nothing and back in between); the main thread's CPU time
   * beside the wall-clock time, as other work on the machine can stretch
   * the latter. */
  for (guint round = 0; round < LOAD_ROUNDS; round++)
    {
      gint64 cpu_start_us;

      steward_chat_page_set_conversation (bench.page, NULL);
      bench_settle (300);
      bench.painted = FALSE;
      cpu_start_us = bench_thread_cpu_us ();
      start_us = g_get_monotonic_time ();
      steward_chat_page_set_conversation (bench.page, conversation);
      while (!bench.painted)
        g_main_context_iteration (NULL, TRUE);
      show_us[round] = g_get_monotonic_time () - start_us;
      show_cpu_us[round] = bench_thread_cpu_us () - cpu_start_us;
      bench_settle (300);
    }
  qsort (show_us, LOAD_ROUNDS, sizeof (gint64), compare_gint64);
  qsort (show_cpu_us, LOAD_ROUNDS, sizeof (gint64), compare_gint64);

  /* Scrolling from the end to the start, then back to the end. */
  bench.adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (
    gtk_widget_get_ancestor (GTK_WIDGET (steward_chat_page_get_message_list (bench.page)),
                             GTK_TYPE_SCROLLED_WINDOW)));
  scroll (&bench, -ABS (step));
  /* Scrolled to the start, every message was shown on the way. */
  g_assert_cmpuint (steward_chat_page_get_n_hidden_messages (bench.page), ==, 0);
  bench_frames_report (bench.frames, "scroll up", "up", json);
  bench_settle (300);
  scroll (&bench, ABS (step));
  bench_frames_report (bench.frames, "scroll down", "down", json);
  bench_settle (300);

  /* Streaming an answer at the end of the conversation. */
  steward_chat_page_set_conversation (bench.page, NULL);
  {
    g_autoptr(StewardChatMessage) question = text_message (STEWARD_CHAT_ROLE_USER,
                                                           "One more question.");

    steward_conversation_append (conversation, question);
  }
  bench.answer = text_message (STEWARD_CHAT_ROLE_ASSISTANT, "");
  steward_chat_message_set_streaming (bench.answer, TRUE);
  steward_conversation_append (conversation, bench.answer);
  steward_chat_page_set_conversation (bench.page, conversation);
  bench_settle (500);

  bench.streaming = TRUE;
  bench.tokens_left = MAX (n_tokens, 1);
  g_timeout_add (TOKEN_MS, token_cb, &bench);
  bench_iterate_while (&bench.streaming);
  bench_settle (200);

  g_array_sort (bench.latencies, compare_gint64);

  g_print ("messages:                  %d\n", MAX (n_messages, 2));
  g_print ("store read:                %.1f ms\n", read_us / 1000.0);
  g_print ("shown, median of %d:       %.1f ms (main thread CPU %.1f ms)\n", LOAD_ROUNDS,
           show_us[LOAD_ROUNDS / 2] / 1000.0, show_cpu_us[LOAD_ROUNDS / 2] / 1000.0);
  g_print ("shown, best:               %.1f ms (main thread CPU %.1f ms)\n",
           show_us[0] / 1000.0, show_cpu_us[0] / 1000.0);
  g_print ("tokens drawn:              %u\n", bench.latencies->len);
  g_print ("token to frame p50:        %.1f ms\n", percentile_ms (bench.latencies, 0.50));
  g_print ("token to frame p99:        %.1f ms\n", percentile_ms (bench.latencies, 0.99));
  g_print ("token to frame max:        %.1f ms\n", percentile_ms (bench.latencies, 1.0));
  g_print ("{\"messages\": %d, \"step_px\": %.0f, \"read_ms\": %.2f, \"show_ms\": %.2f, "
           "\"show_cpu_ms\": %.2f%s, \"tokens\": %u, "
           "\"token_p50_ms\": %.2f, \"token_p99_ms\": %.2f, \"token_max_ms\": %.2f}\n",
           MAX (n_messages, 2), ABS (step), read_us / 1000.0, show_us[LOAD_ROUNDS / 2] / 1000.0,
           show_cpu_us[LOAD_ROUNDS / 2] / 1000.0, json->str, bench.latencies->len,
           percentile_ms (bench.latencies, 0.50), percentile_ms (bench.latencies, 0.99),
           percentile_ms (bench.latencies, 1.0));

  g_signal_handlers_disconnect_by_data (frame_clock, &bench);
  gtk_window_destroy (GTK_WINDOW (bench.window));
  bench_frames_free (bench.frames);
  g_object_unref (bench.answer);
  g_array_unref (bench.latencies);
  g_object_unref (host);
  bench_remove_tree (tmp_dir);

  return 0;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-view-message-dialog"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-json.h"
#include "steward-text.h"

#include "steward-application.h"
#include "steward-view-message-dialog.h"

/* What the dialog shows of a message, at most, in bytes; the model gets
 * all of it (the engine has its own cap). */
#define SHOWN_MAX 4096
/* The call's open question, so that a view asks one thing at a time. */
#define OPEN_KEY "steward-view-message-dialog"

typedef struct {
  StewardToolCall *call;
  JsonArray       *content;
  GtkWindow       *parent;
} Ask;

static void
ask_free (Ask *ask)
{
  g_clear_object (&ask->call);
  g_clear_pointer (&ask->content, json_array_unref);
  g_clear_object (&ask->parent);
  g_free (ask);
}

static void
ask_closure_free (gpointer  data,
                  GClosure *closure)
{
  ask_free (data);
}

static void
show_failure (GtkWindow  *parent,
              const char *reason)
{
  AdwMessageDialog *dialog;

  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (parent,
                                                       _("The View’s Message Was Not Sent"),
                                                       reason));
  adw_message_dialog_add_response (dialog, "close", _("_Close"));
  gtk_window_present (GTK_WINDOW (dialog));
}

/* The chat that shows @call, or NULL. */
static StewardConversation *
find_conversation (StewardHost     *host,
                   StewardToolCall *call)
{
  GListModel *conversations = G_LIST_MODEL (steward_host_get_conversations (host));

  for (guint i = 0; i < g_list_model_get_n_items (conversations); i++)
    {
      g_autoptr(StewardConversation) conversation = g_list_model_get_item (conversations, i);
      GListModel *messages = steward_conversation_get_messages (conversation);

      for (guint j = 0; j < g_list_model_get_n_items (messages); j++)
        {
          g_autoptr(StewardChatMessage) message = g_list_model_get_item (messages, j);
          GListModel *calls = steward_chat_message_get_tool_calls (message);

          for (guint k = 0; k < g_list_model_get_n_items (calls); k++)
            {
              g_autoptr(StewardToolCall) item = g_list_model_get_item (calls, k);

              if (item == call)
                return conversation;
            }
        }
    }

  return NULL;
}

static void
sent_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GtkWindow) parent = user_data;
  g_autoptr(GError) error = NULL;

  /* A stop is the person's own doing, not a failure to report. */
  if (!steward_chat_engine_send_view_message_finish (STEWARD_CHAT_ENGINE (object), result,
                                                     &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
      !g_error_matches (error, STEWARD_CHAT_ENGINE_ERROR, STEWARD_CHAT_ENGINE_ERROR_NO_MODEL))
    show_failure (parent, error->message);
}

static void
response_cb (AdwMessageDialog *dialog,
             const char       *response,
             Ask              *ask)
{
  GApplication *app = g_application_get_default ();
  StewardHost *host;
  StewardConversation *conversation;

  g_object_set_data (G_OBJECT (ask->call), OPEN_KEY, NULL);
  if (g_strcmp0 (response, "send") != 0 || !STEWARD_IS_APPLICATION (app))
    return;

  host = steward_application_get_host (STEWARD_APPLICATION (app));
  conversation = find_conversation (host, ask->call);
  if (conversation == NULL)
    {
      show_failure (ask->parent, _("The chat that shows the view is gone."));
      return;
    }

  steward_chat_engine_send_view_message_async (steward_host_get_chat_engine (host), conversation,
                                               ask->call, ask->content, NULL, sent_cb,
                                               ask->parent != NULL ? g_object_ref (ask->parent)
                                                                   : NULL);
}

static char *
message_text (JsonArray *content)
{
  GString *text = g_string_new (NULL);
  g_autofree char *all = NULL;

  for (guint i = 0; i < json_array_get_length (content); i++)
    {
      JsonNode *node = json_array_get_element (content, i);
      const char *part = JSON_NODE_HOLDS_OBJECT (node)
                         ? mcp_json_get_string (json_node_get_object (node), "text") : NULL;

      if (part == NULL)
        continue;
      if (text->len > 0)
        g_string_append (text, "\n\n");
      g_string_append (text, part);
    }

  all = g_string_free (text, FALSE);
  return steward_text_make_visible_capped (all, SHOWN_MAX, NULL);
}

void
steward_view_message_dialog_present (GtkWidget       *widget,
                                     StewardToolCall *call,
                                     JsonArray       *content)
{
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWindow *parent = GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL;
  g_autofree char *tool = steward_text_make_visible_capped (steward_tool_call_get_tool (call),
                                                            256, NULL);
  g_autofree char *server = steward_text_make_visible_capped (steward_tool_call_get_server (call),
                                                              256, NULL);
  g_autofree char *text = message_text (content);
  g_autofree char *body = NULL;
  AdwMessageDialog *dialog;
  Ask *ask;

  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (STEWARD_IS_TOOL_CALL (call));
  g_return_if_fail (content != NULL);

  /* A view that sends again before the person answered is not let to
   * pile questions up: the new message is left out, and the log says so. */
  if (g_object_get_data (G_OBJECT (call), OPEN_KEY) != NULL)
    {
      GApplication *app = g_application_get_default ();

      if (STEWARD_IS_APPLICATION (app))
        steward_log_store_add_host_event (
          steward_host_get_log_store (steward_application_get_host (STEWARD_APPLICATION (app))),
          steward_tool_call_get_server (call), STEWARD_LOG_LEVEL_WARNING,
          /* Translators: %s is a tool whose view sent a message. */
          _("The view of “%s” sent another message while you were asked about one; "
            "it was left out"),
          steward_tool_call_get_tool (call));
      return;
    }

  /* Translators: the first %s is a tool, the second its server, the
   * third the message its view wrote. */
  body = g_strdup_printf (_("The view of “%s” (%s) asks to send this message to the model, "
                            "in this chat, as yours:\n\n%s"), tool, server, text);
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (parent, _("Send the View’s Message?"),
                                                       body));
  adw_message_dialog_add_responses (dialog,
                                    "discard", _("_Discard"),
                                    "send", _("_Send"),
                                    NULL);
  adw_message_dialog_set_response_appearance (dialog, "send", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (dialog, "send");
  adw_message_dialog_set_close_response (dialog, "discard");

  ask = g_new0 (Ask, 1);
  ask->call = g_object_ref (call);
  ask->content = json_array_ref (content);
  ask->parent = parent != NULL ? g_object_ref (parent) : NULL;
  g_signal_connect_data (dialog, "response", G_CALLBACK (response_cb), ask,
                         ask_closure_free, G_CONNECT_DEFAULT);
  g_object_set_data (G_OBJECT (call), OPEN_KEY, dialog);
  gtk_window_present (GTK_WINDOW (dialog));
}

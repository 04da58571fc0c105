/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-overdue-prompt"

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "mcp-json.h"

#include "steward-overdue-prompt.h"

/* Asks the person, while one tool call runs, whether to keep waiting when
 * it goes past the request timeout, instead of letting it fail unseen.
 * The prompt lives as long as the call; dropping it closes any question
 * still open (the call has ended then, or was cancelled). */
struct _StewardOverduePrompt
{
  GObject           parent_instance;

  GtkWidget        *parent;   /* weak */
  McpClient        *client;
  char             *tool;
  AdwMessageDialog *dialog;
  gint64            id;
};

G_DEFINE_FINAL_TYPE (StewardOverduePrompt, steward_overdue_prompt, G_TYPE_OBJECT)

static void
response_cb (StewardOverduePrompt *self,
             const char           *response)
{
  self->dialog = NULL;
  mcp_client_answer_overdue (self->client, self->id, g_str_equal (response, "wait"));
}

static gboolean
overdue_cb (McpClient            *client,
            gint64                id,
            const char           *method,
            JsonObject           *params,
            guint                 waited_ms,
            StewardOverduePrompt *self)
{
  GtkRoot *root;
  GtkWidget *dialog;

  if (params == NULL || g_strcmp0 (mcp_json_get_string (params, "name"), self->tool) != 0 ||
      self->parent == NULL || self->dialog != NULL)
    return FALSE;

  root = gtk_widget_get_root (self->parent);
  dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                   _("Keep Waiting?"), NULL);
  /* Translators: %s is the tool's name, %u the seconds it has run. */
  adw_message_dialog_format_body (ADW_MESSAGE_DIALOG (dialog),
                                  g_dngettext (GETTEXT_PACKAGE,
                                               "“%s” is taking longer than %u second.",
                                               "“%s” is taking longer than %u seconds.",
                                               waited_ms / 1000),
                                  self->tool, waited_ms / 1000);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "stop", _("_Stop"),
                                    "wait", _("_Keep Waiting"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "stop",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "wait");
  /* Closing the question leaves the call running, as the person found it. */
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "wait");
  gtk_window_set_modal (GTK_WINDOW (dialog), TRUE);
  g_signal_connect_object (dialog, "response", G_CALLBACK (response_cb), self,
                           G_CONNECT_SWAPPED);

  self->id = id;
  self->dialog = ADW_MESSAGE_DIALOG (dialog);
  gtk_window_present (GTK_WINDOW (dialog));
  return TRUE;
}

static void
steward_overdue_prompt_dispose (GObject *object)
{
  StewardOverduePrompt *self = STEWARD_OVERDUE_PROMPT (object);

  if (self->dialog != NULL)
    gtk_window_destroy (GTK_WINDOW (g_steal_pointer (&self->dialog)));
  g_clear_weak_pointer (&self->parent);
  g_clear_object (&self->client);

  G_OBJECT_CLASS (steward_overdue_prompt_parent_class)->dispose (object);
}

static void
steward_overdue_prompt_finalize (GObject *object)
{
  StewardOverduePrompt *self = STEWARD_OVERDUE_PROMPT (object);

  g_free (self->tool);

  G_OBJECT_CLASS (steward_overdue_prompt_parent_class)->finalize (object);
}

static void
steward_overdue_prompt_class_init (StewardOverduePromptClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = steward_overdue_prompt_dispose;
  object_class->finalize = steward_overdue_prompt_finalize;
}

static void
steward_overdue_prompt_init (StewardOverduePrompt *self)
{
}

/**
 * steward_overdue_prompt_new:
 * @parent: the widget whose window the question belongs to
 * @client: the client the call runs on
 * @tool: the tool called
 *
 * Returns: (transfer full): a prompt to drop when the call ends
 */
StewardOverduePrompt *
steward_overdue_prompt_new (GtkWidget  *parent,
                            McpClient  *client,
                            const char *tool)
{
  StewardOverduePrompt *self;

  g_return_val_if_fail (GTK_IS_WIDGET (parent), NULL);
  g_return_val_if_fail (MCP_IS_CLIENT (client), NULL);
  g_return_val_if_fail (tool != NULL, NULL);

  self = g_object_new (STEWARD_TYPE_OVERDUE_PROMPT, NULL);
  g_set_weak_pointer (&self->parent, parent);
  self->client = g_object_ref (client);
  self->tool = g_strdup (tool);
  g_signal_connect_object (client, "request-overdue", G_CALLBACK (overdue_cb), self, 0);
  return self;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-overdue-prompt"

#include "config.h"

#include <adwaita.h>

#include "steward-overdue-dialog.h"

#include "steward-overdue-prompt.h"

/* Puts one overdue call's question to the person, over the window of the
 * widget that shows the call (the Tools page, a chat's tool call): keep
 * waiting, or stop it. The dialog closes when the question does (the call
 * ended, or another window answered it) and when the prompt is dropped. */
struct _StewardOverduePrompt
{
  GObject           parent_instance;

  StewardOverdue   *question;
  AdwMessageDialog *dialog;
};

G_DEFINE_FINAL_TYPE (StewardOverduePrompt, steward_overdue_prompt, G_TYPE_OBJECT)

static void
close_dialog (StewardOverduePrompt *self)
{
  if (self->dialog != NULL)
    gtk_window_destroy (GTK_WINDOW (g_steal_pointer (&self->dialog)));
}

static void
response_cb (StewardOverduePrompt *self,
             const char           *response)
{
  self->dialog = NULL;
  steward_overdue_answer (self->question, g_str_equal (response, "wait"));
}

static void
open_changed_cb (StewardOverduePrompt *self)
{
  if (!steward_overdue_get_open (self->question))
    close_dialog (self);
}

static void
present (StewardOverduePrompt *self,
         GtkWidget            *parent)
{
  GtkRoot *root = gtk_widget_get_root (parent);
  GtkWidget *dialog;

  dialog = steward_overdue_question_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                         steward_overdue_get_tool (self->question),
                                         steward_overdue_get_waited (self->question));
  /* Closing the question leaves the call running, as the person found it. */
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "wait");
  gtk_window_set_modal (GTK_WINDOW (dialog), TRUE);
  g_signal_connect_object (dialog, "response", G_CALLBACK (response_cb), self,
                           G_CONNECT_SWAPPED);

  self->dialog = ADW_MESSAGE_DIALOG (dialog);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
steward_overdue_prompt_dispose (GObject *object)
{
  StewardOverduePrompt *self = STEWARD_OVERDUE_PROMPT (object);

  close_dialog (self);
  g_clear_object (&self->question);

  G_OBJECT_CLASS (steward_overdue_prompt_parent_class)->dispose (object);
}

static void
steward_overdue_prompt_class_init (StewardOverduePromptClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = steward_overdue_prompt_dispose;
}

static void
steward_overdue_prompt_init (StewardOverduePrompt *self)
{
}

/**
 * steward_overdue_prompt_new:
 * @parent: the widget whose window the question belongs to
 * @question: an open question
 *
 * Returns: (transfer full): a prompt to drop when the call ends
 */
StewardOverduePrompt *
steward_overdue_prompt_new (GtkWidget      *parent,
                            StewardOverdue *question)
{
  StewardOverduePrompt *self;

  g_return_val_if_fail (GTK_IS_WIDGET (parent), NULL);
  g_return_val_if_fail (STEWARD_IS_OVERDUE (question), NULL);

  self = g_object_new (STEWARD_TYPE_OVERDUE_PROMPT, NULL);
  self->question = g_object_ref (question);
  g_signal_connect_object (question, "notify::open", G_CALLBACK (open_changed_cb), self,
                           G_CONNECT_SWAPPED);
  if (steward_overdue_get_open (question))
    present (self, parent);
  return self;
}

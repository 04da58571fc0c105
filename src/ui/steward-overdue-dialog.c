/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-overdue-dialog"

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "steward-overdue-dialog.h"

/* An overdue call's question as a waiting request, opened from the header
 * bar, the server's row or a desktop notification, wherever the person is.
 * Closing it answers nothing: the call keeps waiting and the request stays
 * counted until the person answers it, here or where the call is shown. */

#define CLOSE_RESPONSE "close"

static void
response_cb (AdwMessageDialog *dialog,
             const char       *response,
             StewardApproval  *approval)
{
  if (g_str_equal (response, "wait"))
    steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_ALLOW, NULL);
  else if (g_str_equal (response, "stop"))
    steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_DENY, NULL);
}

static void
finished_cb (GtkWindow       *dialog,
             GParamSpec      *pspec,
             StewardApproval *approval)
{
  if (steward_approval_get_finished (approval))
    gtk_window_destroy (dialog);
}

/**
 * steward_overdue_question_new:
 * @parent: (nullable): the window it goes over
 * @tool: the tool's name
 * @waited: the seconds the call has run
 *
 * The question every overdue call asks: keep waiting (response "wait",
 * the default) or stop it ("stop"). What closing it answers is the
 * caller's.
 *
 * Returns: (transfer none): a new message dialog, not yet presented
 */
GtkWidget *
steward_overdue_question_new (GtkWindow  *parent,
                              const char *tool,
                              guint       waited)
{
  GtkWidget *dialog = adw_message_dialog_new (parent, _("Keep Waiting?"), NULL);

  /* Translators: %s is the tool's name, %u the seconds it has run. */
  adw_message_dialog_format_body (ADW_MESSAGE_DIALOG (dialog),
                                  g_dngettext (GETTEXT_PACKAGE,
                                               "“%s” is taking longer than %u second.",
                                               "“%s” is taking longer than %u seconds.",
                                               waited),
                                  tool, waited);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "stop", _("_Stop"),
                                    "wait", _("_Keep Waiting"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "stop",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "wait");
  return dialog;
}

/**
 * steward_overdue_dialog_new:
 * @approval: an approval of kind %STEWARD_APPROVAL_KIND_OVERDUE
 *
 * Returns: (transfer none): a dialog that goes when the approval finishes
 */
GtkWidget *
steward_overdue_dialog_new (StewardApproval *approval)
{
  JsonObject *request;
  const char *tool;
  guint waited;
  GtkWidget *dialog;

  g_return_val_if_fail (STEWARD_IS_APPROVAL (approval), NULL);
  g_return_val_if_fail (steward_approval_get_kind (approval) == STEWARD_APPROVAL_KIND_OVERDUE,
                        NULL);

  request = steward_approval_get_request (approval);
  tool = request != NULL ? json_object_get_string_member_with_default (request, "tool", "")
                         : "";
  waited = request != NULL ? json_object_get_int_member_with_default (request, "waited", 0) : 0;

  dialog = steward_overdue_question_new (NULL, tool, waited);
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), CLOSE_RESPONSE);
  g_signal_connect_object (dialog, "response", G_CALLBACK (response_cb), approval, 0);
  g_signal_connect_object (approval, "notify::finished", G_CALLBACK (finished_cb), dialog,
                           G_CONNECT_SWAPPED);
  return dialog;
}

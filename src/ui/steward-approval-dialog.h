/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "steward-approval.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_APPROVAL_DIALOG (steward_approval_dialog_get_type ())

G_DECLARE_DERIVABLE_TYPE (StewardApprovalDialog, steward_approval_dialog, STEWARD, APPROVAL_DIALOG,
                          AdwWindow)

/*
 * What every dialog that answers a StewardApproval shares: the "approval"
 * it presents, answering it (at most one final answer), closing itself
 * once the approval is finished (by this dialog, another window or the
 * server withdrawing), what closing it answers, and where the first focus
 * goes when it opens.
 *
 * Closing the window (Escape, the close button, the window manager) gives
 * the class's dismiss action once, unless the approval was answered
 * already; a class may leave it waiting instead (consent: the server row
 * offers the command again).
 *
 * The first focus never lands on a selectable label, which would open
 * with all its text selected: it goes to what initial_focus() gives, else
 * to the default widget, else to the first widget that takes focus, with
 * any selection there cleared.
 */
struct _StewardApprovalDialogClass
{
  AdwWindowClass parent_class;

  /* Called when the dialog was answered or the approval finished, for the
   * subclass to enable or disable its actions; steward_approval_dialog_is_open()
   * tells whether it can still answer. */
  void        (*update_actions) (StewardApprovalDialog *self);

  /* The widget to focus first, or NULL for the default widget. */
  GtkWidget * (*initial_focus)  (StewardApprovalDialog *self);

  /*< private >*/
  /* A StewardApprovalAction, or -1 to answer nothing on close. */
  int          dismiss_action;

  gpointer padding[6];
};

StewardApproval *steward_approval_dialog_get_approval       (StewardApprovalDialog *self);

/* Whether the dialog may still answer: not answered with a final action,
 * and the approval not finished elsewhere. */
gboolean         steward_approval_dialog_is_open            (StewardApprovalDialog *self);

/* Answers the approval; a final action closes the dialog (through
 * "finished"). Does nothing once the dialog is no longer open. */
void             steward_approval_dialog_respond            (StewardApprovalDialog *self,
                                                             StewardApprovalAction  action,
                                                             JsonObject            *data);

/* The asking server's name as the header shows it: hidden characters
 * made visible, cut at a length a header can hold. */
char            *steward_approval_dialog_dup_server_name    (StewardApprovalDialog *self);

/* The line that names the task the request was raised for, with its tool
 * and start, or NULL when it belongs to no task the host follows. */
char            *steward_approval_dialog_dup_task_line      (StewardApprovalDialog *self);

/* What closing the window answers for every dialog of @klass; without a
 * call it answers nothing and the approval keeps waiting. */
void             steward_approval_dialog_class_set_dismiss_action (StewardApprovalDialogClass *klass,
                                                                   StewardApprovalAction       action);

/* Installs @action_name (a static string, "kind.answer") on @klass: it
 * answers @action without data, as a button or a key would. */
void             steward_approval_dialog_class_install_answer (StewardApprovalDialogClass *klass,
                                                               const char                 *action_name,
                                                               StewardApprovalAction       action);

/* Asks the subclass to update its actions now, for instance after a field
 * changed. */
void             steward_approval_dialog_update_actions     (StewardApprovalDialog *self);

G_END_DECLS

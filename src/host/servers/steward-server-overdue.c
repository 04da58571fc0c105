/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-server"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-overdue.h"
#include "steward-server-private.h"

/* The one place that hears a server's calls go past their timeout: it
 * finds the call by the cancellable its caller gave (the request's, not
 * the tool's name) and asks whoever made the call, through
 * StewardServer::call-overdue. A question no handler takes leaves the
 * call to time out as before.
 *
 * A question someone took also joins the host's waiting requests, as an
 * approval of kind OVERDUE: the person may be on another page, in another
 * conversation or in another program, and the call waits for them (it
 * does not fail unseen), so the question is counted and reachable from
 * anywhere, like every request that waits for the person. Answering
 * either one answers both. */

static guint call_overdue_signal;

void
steward_server_class_add_overdue (GObjectClass *klass)
{
  /**
   * StewardServer::call-overdue:
   * @question: the call's question
   *
   * A tool call went past its request timeout. The handler that made the
   * call (steward_overdue_get_call() is its cancellable) shows @question
   * and returns %TRUE; the call then waits until it is answered.
   */
  call_overdue_signal =
    g_signal_new ("call-overdue", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, g_signal_accumulator_true_handled, NULL, NULL, G_TYPE_BOOLEAN, 1,
                  STEWARD_TYPE_OVERDUE);
}

static Call *
find_call (StewardServer *self,
           GCancellable  *cancellable)
{
  /* The newest first: a cancellable reused for a later call names it. */
  for (GList *l = self->calls.tail; l != NULL; l = l->prev)
    {
      Call *call = l->data;

      if (call->cancellable == cancellable)
        return call;
    }

  return NULL;
}

static void
question_open_cb (StewardOverdue  *question,
                  GParamSpec      *pspec,
                  StewardApproval *approval)
{
  /* Answered where the call is shown, or the call ended. */
  if (!steward_overdue_get_open (question))
    steward_approval_withdraw (approval);
}

static void
approval_responded_cb (StewardApproval       *approval,
                       StewardApprovalAction  action,
                       JsonObject            *data,
                       StewardOverdue        *question)
{
  if (action != STEWARD_APPROVAL_ACTION_ALLOW && action != STEWARD_APPROVAL_ACTION_DENY)
    return;

  /* The approval finishes with this answer; it is not withdrawn too. */
  g_signal_handlers_disconnect_by_func (question, question_open_cb, approval);
  steward_overdue_answer (question, action == STEWARD_APPROVAL_ACTION_ALLOW);
}

static void
add_waiting_request (StewardServer  *self,
                     StewardOverdue *question)
{
  g_autoptr(JsonObject) request = json_object_new ();
  g_autoptr(StewardApproval) approval = NULL;

  json_object_set_string_member (request, "tool", steward_overdue_get_tool (question));
  json_object_set_int_member (request, "waited", steward_overdue_get_waited (question));
  approval = steward_approval_new (STEWARD_APPROVAL_KIND_OVERDUE, self->name, request);
  g_signal_connect_object (question, "notify::open", G_CALLBACK (question_open_cb), approval, 0);
  g_signal_connect_object (approval, "responded", G_CALLBACK (approval_responded_cb), question,
                           0);
  steward_approvals_add (self->approvals, approval);
}

static gboolean
request_overdue_cb (StewardServer *self,
                    gint64         id,
                    const char    *method,
                    JsonObject    *params,
                    guint          waited_ms,
                    McpClient     *client)
{
  GCancellable *cancellable = mcp_client_get_request_cancellable (client, id);
  g_autoptr(StewardOverdue) question = NULL;
  gboolean handled = FALSE;
  Call *call;

  if (cancellable == NULL || (call = find_call (self, cancellable)) == NULL)
    return FALSE;

  question = steward_overdue_new (client, id, self->name, call->tool, waited_ms, cancellable);
  g_signal_emit (self, call_overdue_signal, 0, question, &handled);
  if (!handled)
    return FALSE;

  if (call->overdue != NULL)
    steward_overdue_withdraw (call->overdue);
  g_set_object (&call->overdue, question);
  if (steward_overdue_get_open (question))
    add_waiting_request (self, question);

  /* Translators: a host event; %s is a tool, %u seconds. */
  steward_server_host_event (self, STEWARD_LOG_LEVEL_INFO,
                             g_dngettext (GETTEXT_PACKAGE,
                                              "Tool call “%s” is still running after %u second; "
                                              "asked whether to keep waiting",
                                              "Tool call “%s” is still running after %u seconds; "
                                              "asked whether to keep waiting",
                                              waited_ms / 1000),
                                 call->tool, waited_ms / 1000);
  return TRUE;
}

void
steward_server_watch_overdue (StewardServer *self,
                              McpClient     *client)
{
  g_signal_connect_object (client, "request-overdue", G_CALLBACK (request_overdue_cb), self,
                           G_CONNECT_SWAPPED);
}

/* The call ended: its question, if one is open, is withdrawn. */
void
steward_server_end_overdue (Call *call)
{
  if (call->overdue != NULL)
    steward_overdue_withdraw (call->overdue);
  g_clear_object (&call->overdue);
}

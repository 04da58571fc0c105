/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-sampling-broker"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-sampling-request.h"

#include "steward-sampling-broker-private.h"

/* Elicitation: the server asks the person a question (a form or a URL to
 * visit). It shares the broker's per-server state and clock, not its
 * policies: a question always waits for the person. */

#define ELICITATIONS_PER_MINUTE 10

typedef struct {
  StewardSamplingServerState *state;
  StewardApproval            *approval;
  gulong                      responded_id;
  GSource                    *cancel_source;
  gboolean                    url_mode;
} Elicitation;

static void
elicitation_free (Elicitation *elicitation)
{
  if (elicitation->approval != NULL)
    g_clear_signal_handler (&elicitation->responded_id, elicitation->approval);
  g_clear_object (&elicitation->approval);
  if (elicitation->cancel_source != NULL)
    g_source_destroy (elicitation->cancel_source);
  g_clear_pointer (&elicitation->cancel_source, g_source_unref);
  g_free (elicitation);
}

static void
elicitation_complete (GTask      *task,
                      const char *action,
                      JsonObject *content,
                      GError     *error)
{
  Elicitation *elicitation = g_task_get_task_data (task);
  g_autoptr(GTask) owned = g_steal_pointer (&elicitation->state->open_elicitation);
  g_autoptr(JsonObject) result = NULL;

  g_clear_signal_handler (&elicitation->responded_id, elicitation->approval);
  if (elicitation->cancel_source != NULL)
    g_source_destroy (elicitation->cancel_source);

  if (error != NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  result = json_object_new ();
  json_object_set_string_member (result, "action", action);
  if (content != NULL)
    json_object_set_object_member (result, "content", json_object_ref (content));

  g_task_return_pointer (task, g_steal_pointer (&result), (GDestroyNotify) json_object_unref);
}

static void
elicitation_responded_cb (StewardApproval       *approval,
                          StewardApprovalAction  action,
                          JsonObject            *data,
                          gpointer               user_data)
{
  GTask *task = user_data;
  Elicitation *elicitation = g_task_get_task_data (task);
  g_autoptr(JsonObject) empty = NULL;

  switch (action)
    {
    case STEWARD_APPROVAL_ACTION_ACCEPT:
      /* A URL elicitation's answer is that the person went there. */
      if (elicitation->url_mode)
        elicitation_complete (task, "accept", NULL, NULL);
      else if (data != NULL)
        elicitation_complete (task, "accept", data, NULL);
      else
        {
          empty = json_object_new ();
          elicitation_complete (task, "accept", empty, NULL);
        }
      break;

    case STEWARD_APPROVAL_ACTION_DECLINE:
    case STEWARD_APPROVAL_ACTION_REJECT:
    case STEWARD_APPROVAL_ACTION_DENY:
      elicitation_complete (task, "decline", NULL, NULL);
      break;

    case STEWARD_APPROVAL_ACTION_CONTINUE:
    case STEWARD_APPROVAL_ACTION_REGENERATE:
      g_debug ("Ignoring a sampling action for an elicitation");
      break;

    case STEWARD_APPROVAL_ACTION_CANCEL:
    case STEWARD_APPROVAL_ACTION_SEND:
    case STEWARD_APPROVAL_ACTION_ALLOW:
    default:
      elicitation_complete (task, "cancel", NULL, NULL);
      break;
    }
}

static gboolean
elicitation_cancelled_cb (GCancellable *cancellable,
                          gpointer      user_data)
{
  GTask *task = user_data;
  Elicitation *elicitation = g_task_get_task_data (task);

  g_clear_signal_handler (&elicitation->responded_id, elicitation->approval);
  steward_approval_withdraw (elicitation->approval);
  elicitation_complete (task, NULL, NULL, steward_sampling_new_withdrawn ());

  return G_SOURCE_REMOVE;
}

void
steward_sampling_broker_elicit_async (StewardSamplingBroker *self,
                                      const char            *server,
                                      JsonObject            *params,
                                      GCancellable          *cancellable,
                                      GAsyncReadyCallback    callback,
                                      gpointer               user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  Elicitation *elicitation;
  StewardSamplingServerState *state;
  gint64 now;
  gint64 oldest;
  gboolean url_mode = FALSE;

  g_return_if_fail (STEWARD_IS_SAMPLING_BROKER (self));
  g_return_if_fail (server != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_sampling_broker_elicit_async);

  if (!mcp_elicitation_request_validate (params, &url_mode, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  state = steward_sampling_broker_get_server_state (self, server);
  now = steward_sampling_broker_now (self);

  if (state->open_elicitation != NULL)
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_OVERLOADED,
                               _("Server `%s` already has a question open. It can ask again "
                                 "once the person has answered it."),
                               server);
      return;
    }

  if (steward_sampling_window_count (state->elicitation_times, now, &oldest) >= ELICITATIONS_PER_MINUTE)
    {
      guint seconds = steward_sampling_seconds_until_free (oldest, now);

      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_OVERLOADED,
                               g_dngettext (GETTEXT_PACKAGE,
                                            "Server `%s` asked more than %u questions a minute. "
                                            "It can ask again in %u second.",
                                            "Server `%s` asked more than %u questions a minute. "
                                            "It can ask again in %u seconds.",
                                            seconds),
                               server, ELICITATIONS_PER_MINUTE, seconds);
      return;
    }

  g_array_append_val (state->elicitation_times, now);

  elicitation = g_new0 (Elicitation, 1);
  elicitation->state = state;
  elicitation->url_mode = url_mode;
  elicitation->approval = steward_approval_new (STEWARD_APPROVAL_KIND_ELICITATION, server,
                                                params);
  g_task_set_task_data (task, elicitation, (GDestroyNotify) elicitation_free);

  elicitation->responded_id = g_signal_connect (elicitation->approval, "responded",
                                                G_CALLBACK (elicitation_responded_cb), task);
  if (cancellable != NULL)
    {
      elicitation->cancel_source = g_cancellable_source_new (cancellable);
      g_source_set_callback (elicitation->cancel_source,
                             G_SOURCE_FUNC (elicitation_cancelled_cb), task, NULL);
      g_source_attach (elicitation->cancel_source, g_task_get_context (task));
    }

  state->open_elicitation = g_object_ref (task);
  steward_approvals_add (self->approvals, elicitation->approval);
}

/**
 * steward_sampling_broker_elicit_finish:
 *
 * Returns: (transfer full): the ElicitResult to send back
 */
JsonObject *
steward_sampling_broker_elicit_finish (StewardSamplingBroker  *self,
                                       GAsyncResult           *result,
                                       GError                **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        steward_sampling_broker_elicit_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}


/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-server"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mcp-connect.h"
#include "mcp-error.h"
#include "mcp-stdio-transport.h"

#include "steward-approval.h"
#include "steward-approvals.h"
#include "steward-config.h"
#include "steward-log-entry.h"
#include "steward-log-store.h"
#include "steward-redactor.h"
#include "steward-roots.h"
#include "steward-sampling-broker.h"
#include "steward-network-choice.h"
#include "steward-sandbox-launch.h"
#include "steward-sandbox.h"
#include "steward-secrets.h"

#include "steward-server-failure.h"
#include "steward-server-private.h"
#include "steward-server-watch.h"
#include "steward-trace-names.h"

void
steward_server_call_free (Call *call)
{
  steward_server_end_overdue (call);
  g_queue_delete_link (&call->self->calls, call->link);
  g_object_unref (call->self);
  g_clear_pointer (&call->arguments, json_object_unref);
  g_clear_object (&call->cancellable);
  g_free (call);
}

static char *
dup_cause (StewardServer *self)
{
  Call *call = g_queue_peek_tail (&self->calls);

  if (call == NULL)
    return NULL;

  /* Translators: what caused a sampling or elicitation request; %s is a
   * tool's name. */
  return g_strdup_printf (_("Tool call “%s”"), call->tool);
}

/* Ends a tool call, whose task is the only one it has: the client calls
 * this function instead of completing a task of its own. */
void
steward_server_call_reply (McpClient  *client,
                           JsonObject *result,
                           GError     *error,
                           gpointer    user_data)
{
  g_autoptr(GTask) task = user_data;

  /* A server that wants more scopes for this call: signed in again, the
   * call is made once more (steward-server-signin.c). */
  if (result == NULL &&
      steward_server_step_up_call (g_task_get_source_object (task), task, error))
    {
      g_steal_pointer (&task);
      g_error_free (error);
    }
  else if (result == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, mcp_tool_result_new (result), g_object_unref);
}

/* McpClientDelegate */

static McpClientFeatures
steward_server_get_features (McpClientDelegate *delegate)
{
  /* Sampling with tools: the broker hands them to the model, and the
   * model's calls back to the server, which runs them. */
  return MCP_CLIENT_FEATURE_ROOTS | MCP_CLIENT_FEATURE_ROOTS_LIST_CHANGED |
         MCP_CLIENT_FEATURE_SAMPLING | MCP_CLIENT_FEATURE_SAMPLING_TOOLS |
         MCP_CLIENT_FEATURE_ELICITATION_FORM | MCP_CLIENT_FEATURE_ELICITATION_URL |
         MCP_CLIENT_FEATURE_APPS;
}

/* How the broker's answer to a request is finished: sampling and
 * elicitation differ only in this, and both answer with a JSON object. */
typedef JsonObject *(*BrokerFinish) (StewardSamplingBroker  *broker,
                                     GAsyncResult           *result,
                                     GError                **error);

static void
broker_reply_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  BrokerFinish finish = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  JsonObject *reply;

  reply = finish (STEWARD_SAMPLING_BROKER (object), result, &error);
  if (reply == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, reply, (GDestroyNotify) json_object_unref);
}

/* Every request of the delegate ends with a JSON object for the server. */
static JsonObject *
steward_server_reply_finish (McpClientDelegate  *delegate,
                             GAsyncResult       *result,
                             GError            **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
steward_server_create_message_async (McpClientDelegate   *delegate,
                                     McpClient           *client,
                                     JsonObject          *params,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  StewardServer *self = STEWARD_SERVER (delegate);
  g_autoptr(GTask) task = NULL;
  g_autofree char *cause = dup_cause (self);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_server_create_message_async);
  g_task_set_task_data (task, steward_sampling_broker_create_message_finish, NULL);

  steward_sampling_broker_create_message_async (self->broker, self->name, params, cause,
                                                cancellable, broker_reply_cb,
                                                g_steal_pointer (&task));
}

static void
steward_server_elicit_async (McpClientDelegate   *delegate,
                             McpClient           *client,
                             JsonObject          *params,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  StewardServer *self = STEWARD_SERVER (delegate);
  g_autoptr(GTask) task = NULL;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_server_elicit_async);
  g_task_set_task_data (task, steward_sampling_broker_elicit_finish, NULL);

  steward_sampling_broker_elicit_async (self->broker, self->name, params, cancellable,
                                        broker_reply_cb, g_steal_pointer (&task));
}

static void
steward_server_list_roots_async (McpClientDelegate   *delegate,
                                 McpClient           *client,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  StewardServer *self = STEWARD_SERVER (delegate);
  g_autoptr(GTask) task = NULL;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_server_list_roots_async);
  g_task_return_pointer (task, steward_roots_list_for_server (self->roots, self->name),
                         (GDestroyNotify) json_object_unref);
}

void
steward_server_delegate_init (McpClientDelegateInterface *iface)
{
  iface->get_features = steward_server_get_features;
  iface->create_message_async = steward_server_create_message_async;
  iface->create_message_finish = steward_server_reply_finish;
  iface->elicit_async = steward_server_elicit_async;
  iface->elicit_finish = steward_server_reply_finish;
  iface->list_roots_async = steward_server_list_roots_async;
  iface->list_roots_finish = steward_server_reply_finish;
}

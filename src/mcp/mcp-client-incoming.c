/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client"

#include "config.h"

#include "mcp-client-private.h"
#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-related-task.h"

/* Incoming requests from the server */

void
mcp_client_incoming_free (Incoming *incoming)
{
  g_clear_pointer (&incoming->id, json_node_unref);
  g_clear_object (&incoming->cancellable);
  g_free (incoming->key);
  g_free (incoming->method);
  g_free (incoming);
}

static void
answer (McpClient    *self,
        JsonNode     *id,
        JsonObject   *result,
        const GError *error)
{
  g_autoptr(McpMessage) message = NULL;

  if (error == NULL)
    message = mcp_message_new_result (id, result);
  else if (mcp_error_is_rpc (error))
    message = mcp_message_new_error (id, error->code, error->message, mcp_error_get_data (error));
  else
    message = mcp_message_new_error (id, MCP_ERROR_INTERNAL_ERROR, error->message, NULL);

  mcp_client_send_message (self, message, NULL);
}

typedef struct {
  McpClient *client;
  char      *key;
  char      *method;
} DelegateCall;

static void
delegate_call_free (DelegateCall *call)
{
  g_object_unref (call->client);
  g_free (call->key);
  g_free (call->method);
  g_free (call);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DelegateCall, delegate_call_free)

static void
delegate_done_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  McpClientDelegate *delegate = MCP_CLIENT_DELEGATE (object);
  g_autoptr(DelegateCall) call = user_data;
  McpClient *self = call->client;
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(GError) error = NULL;
  Incoming *incoming;

  reply = mcp_client_ask_delegate_finish (delegate, call->method, result, &error);

  /* The connection may have ended while the host was busy: nobody waits. */
  incoming = g_hash_table_lookup (self->incoming, call->key);
  if (incoming == NULL)
    return;

  if (reply == NULL && error == NULL)
    error = g_error_new_literal (MCP_ERROR, MCP_ERROR_INTERNAL_ERROR,
                                 "the host gave no answer");

  /* A request the server cancelled gets no answer (cancellation utility). */
  if (!g_cancellable_is_cancelled (incoming->cancellable))
    answer (self, incoming->id, reply, error);

  g_hash_table_remove (self->incoming, call->key);
}

GError *
mcp_client_check_incoming (McpClient  *self,
                           const char *method,
                           JsonObject *params)
{
  McpClientFeatures features = self->delegate ? mcp_client_delegate_get_features (self->delegate)
                                              : MCP_CLIENT_FEATURE_NONE;
  GError *error = NULL;

  /* The host looks up and shows the task a request names: a bad name is
   * refused here rather than shown. */
  if ((g_str_equal (method, "sampling/createMessage") ||
       g_str_equal (method, "elicitation/create")) &&
      !mcp_related_task_check (params, &error))
    return error;

  if (g_str_equal (method, "sampling/createMessage"))
    {
      if (!(features & MCP_CLIENT_FEATURE_SAMPLING))
        return g_error_new_literal (MCP_ERROR, MCP_ERROR_METHOD_NOT_FOUND,
                                    "Method not found: this client does not offer sampling");
      if (params == NULL || mcp_json_get_array (params, "messages") == NULL)
        return g_error_new_literal (MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                                    "sampling/createMessage needs \"messages\"");
      if (!(features & MCP_CLIENT_FEATURE_SAMPLING_TOOLS) &&
          (json_object_has_member (params, "tools") || json_object_has_member (params, "toolChoice")))
        return g_error_new_literal (MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                                    "this client did not declare sampling with tools");
      return NULL;
    }

  if (g_str_equal (method, "elicitation/create"))
    {
      const char *mode = mcp_json_get_string (params, "mode");

      if (!(features & (MCP_CLIENT_FEATURE_ELICITATION_FORM | MCP_CLIENT_FEATURE_ELICITATION_URL)))
        return g_error_new_literal (MCP_ERROR, MCP_ERROR_METHOD_NOT_FOUND,
                                    "Method not found: this client does not offer elicitation");
      if (params == NULL)
        return g_error_new_literal (MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                                    "elicitation/create needs params");
      if (mode == NULL || g_str_equal (mode, "form"))
        {
          if (!(features & MCP_CLIENT_FEATURE_ELICITATION_FORM))
            return g_error_new_literal (MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                                        "this client did not declare form elicitation");
          if (mcp_json_get_object (params, "requestedSchema") == NULL)
            return g_error_new_literal (MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                                        "form elicitation needs a \"requestedSchema\" object");
        }
      else if (g_str_equal (mode, "url"))
        {
          if (!(features & MCP_CLIENT_FEATURE_ELICITATION_URL))
            return g_error_new_literal (MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                                        "this client did not declare URL elicitation");
          if (mcp_json_get_string (params, "url") == NULL)
            return g_error_new_literal (MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                                        "URL elicitation needs a \"url\"");
        }
      else
        return g_error_new (MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                            "unknown elicitation mode “%s”", mode);
      return NULL;
    }

  if (g_str_equal (method, "roots/list"))
    {
      if (!(features & MCP_CLIENT_FEATURE_ROOTS))
        return g_error_new_literal (MCP_ERROR, MCP_ERROR_METHOD_NOT_FOUND,
                                    "Method not found: this client does not offer roots");
      return NULL;
    }

  return g_error_new (MCP_ERROR, MCP_ERROR_METHOD_NOT_FOUND, "Method not found: %s", method);
}

void
mcp_client_handle_request (McpClient  *self,
                           McpMessage *message)
{
  const char *method = mcp_message_get_method (message);
  JsonObject *params = mcp_message_get_params (message);
  g_autofree char *key = mcp_message_dup_id_string (message);
  g_autoptr(GError) error = NULL;
  DelegateCall *call;
  Incoming *incoming;

  if (g_str_equal (method, "ping"))
    {
      g_autoptr(JsonObject) empty = json_object_new ();

      answer (self, mcp_message_get_id (message), empty, NULL);
      return;
    }

  if ((error = mcp_client_check_incoming (self, method, params)) != NULL)
    {
      answer (self, mcp_message_get_id (message), NULL, error);
      return;
    }

  if (g_hash_table_contains (self->incoming, key))
    {
      error = g_error_new_literal (MCP_ERROR, MCP_ERROR_INVALID_REQUEST,
                                   "a request with this id is still being answered");
      answer (self, mcp_message_get_id (message), NULL, error);
      return;
    }

  /* Requests are never queued without bound, nor dropped silently. */
  if (g_hash_table_size (self->incoming) >= MCP_MAX_PENDING_SERVER_REQUESTS)
    {
      error = g_error_new (MCP_ERROR, MCP_ERROR_INTERNAL_ERROR,
                           "the client is overloaded: %u requests from this server are "
                           "already waiting", MCP_MAX_PENDING_SERVER_REQUESTS);
      answer (self, mcp_message_get_id (message), NULL, error);
      return;
    }

  incoming = g_new0 (Incoming, 1);
  incoming->client = self;
  incoming->id = json_node_copy (mcp_message_get_id (message));
  incoming->key = g_strdup (key);
  incoming->method = g_strdup (method);
  incoming->cancellable = g_cancellable_new ();
  g_hash_table_insert (self->incoming, incoming->key, incoming);

  call = g_new0 (DelegateCall, 1);
  call->client = g_object_ref (self);
  call->key = g_strdup (key);
  call->method = g_strdup (method);

  mcp_client_ask_delegate (self, method, params, incoming->cancellable, delegate_done_cb, call);
}

/* Puts what the server asks of the host, once mcp_client_check_incoming()
 * let it through, to the delegate: a request of its own in the handshake
 * era, or one of the input requests of a 2026-07-28 result. */
void
mcp_client_ask_delegate (McpClient           *self,
                         const char          *method,
                         JsonObject          *params,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  if (g_str_equal (method, "sampling/createMessage"))
    mcp_client_delegate_create_message_async (self->delegate, self, params, cancellable,
                                              callback, user_data);
  else if (g_str_equal (method, "elicitation/create"))
    mcp_client_delegate_elicit_async (self->delegate, self, params, cancellable,
                                      callback, user_data);
  else
    mcp_client_delegate_list_roots_async (self->delegate, self, cancellable,
                                          callback, user_data);
}

JsonObject *
mcp_client_ask_delegate_finish (McpClientDelegate  *delegate,
                                const char         *method,
                                GAsyncResult       *result,
                                GError            **error)
{
  if (g_str_equal (method, "sampling/createMessage"))
    return mcp_client_delegate_create_message_finish (delegate, result, error);
  if (g_str_equal (method, "elicitation/create"))
    return mcp_client_delegate_elicit_finish (delegate, result, error);

  return mcp_client_delegate_list_roots_finish (delegate, result, error);
}

void
mcp_client_cancel_all_incoming (McpClient *self)
{
  GHashTableIter iter;
  Incoming *incoming;

  g_hash_table_iter_init (&iter, self->incoming);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &incoming))
    g_cancellable_cancel (incoming->cancellable);

  g_hash_table_remove_all (self->incoming);
}

void
mcp_client_handle_cancelled (McpClient  *self,
                             JsonObject *params)
{
  JsonNode *id = params ? json_object_get_member (params, "requestId") : NULL;
  g_autofree char *key = NULL;
  Incoming *incoming;

  if (id != NULL && JSON_NODE_HOLDS_VALUE (id))
    {
      if (json_node_get_value_type (id) == G_TYPE_INT64)
        key = g_strdup_printf ("i:%" G_GINT64_FORMAT, json_node_get_int (id));
      else if (json_node_get_value_type (id) == G_TYPE_STRING)
        key = g_strconcat ("s:", json_node_get_string (id), NULL);
    }

  /* Cancelling something unknown or finished is not an error. */
  if (key == NULL || (incoming = g_hash_table_lookup (self->incoming, key)) == NULL)
    return;

  g_cancellable_cancel (incoming->cancellable);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client"

#include "config.h"

#include "mcp-client-private.h"
#include "mcp-client-tasks.h"
#include "mcp-error.h"
#include "mcp-json-private.h"

static const char * const log_levels[] = {
  "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency",
};

/* Typed requests check the server offered the feature, then unwrap. */

typedef JsonObject *(*Unwrap) (McpClient *self, JsonObject *result, GError **error);

gboolean
mcp_client_require_capability (McpClient           *self,
                               const char          *capability,
                               const char          *sub_capability,
                               const char          *what,
                               gpointer             source_tag,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  if (self->state != MCP_CLIENT_STATE_READY || mcp_client_has_capability (self, capability,
                                                                          sub_capability))
    return TRUE;

  task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (task, source_tag);
  g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_CAPABILITY_MISSING,
                           "the server does not offer %s", what);
  return FALSE;
}

static void
typed_request (McpClient           *self,
               const char          *method,
               JsonObject          *params,
               McpProgressFunc      progress_func,
               gpointer             progress_data,
               GDestroyNotify       progress_destroy,
               GCancellable        *cancellable,
               gpointer             source_tag,
               GAsyncReadyCallback  callback,
               gpointer             user_data)
{
  mcp_client_start_request (self, method, params, FALSE, self->request_timeout_ms,
                            progress_func, progress_data, progress_destroy, cancellable,
                            source_tag, callback, user_data);
}

/* A request for a feature the server names as a capability of the same
 * name, sent once it is known to offer it (or when @capability is %NULL,
 * for a feature that needs none). Takes @params. */
static void
feature_request (McpClient           *self,
                 const char          *capability,
                 const char          *method,
                 JsonObject          *params,
                 GCancellable        *cancellable,
                 gpointer             source_tag,
                 GAsyncReadyCallback  callback,
                 gpointer             user_data)
{
  g_autoptr(JsonObject) owned = params;

  if (capability != NULL &&
      !mcp_client_require_capability (self, capability, NULL, capability, source_tag,
                                      callback, user_data))
    return;

  typed_request (self, method, owned, NULL, NULL, NULL, cancellable, source_tag, callback,
                 user_data);
}

/* The params of a tools/call, whether it goes as it is or as a task:
 * arguments are always sent, empty where the caller has none. */
JsonObject *
mcp_client_new_tool_call_params (const char *name,
                                 JsonObject *arguments)
{
  JsonObject *params = json_object_new ();

  json_object_set_string_member (params, "name", name);
  json_object_set_object_member (params, "arguments",
                                 arguments ? json_object_ref (arguments) : json_object_new ());

  return params;
}

void
mcp_client_ping_async (McpClient           *self,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  g_return_if_fail (MCP_IS_CLIENT (self));

  /* 2026-07-28 has no ping; discovery is the cheapest request it has. */
  typed_request (self, self->modern ? "server/discover" : "ping", NULL, NULL, NULL, NULL,
                 cancellable, mcp_client_ping_async, callback, user_data);
}

gboolean
mcp_client_ping_finish (McpClient     *self,
                        GAsyncResult  *result,
                        GError       **error)
{
  g_autoptr(JsonObject) reply = mcp_client_finish_request (self, result,
                                                           mcp_client_ping_async, error);

  return reply != NULL;
}

void
mcp_client_call_tool_async (McpClient           *self,
                            const char          *name,
                            JsonObject          *arguments,
                            McpProgressFunc      progress_func,
                            gpointer             progress_data,
                            GDestroyNotify       progress_destroy,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(JsonObject) params = NULL;

  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (name != NULL);

  if (!mcp_client_require_capability (self, "tools", NULL, "tools", mcp_client_call_tool_async,
                                      callback, user_data))
    {
      if (progress_destroy != NULL)
        progress_destroy (progress_data);
      return;
    }

  if (mcp_client_tasks_route_call (self, name, arguments, progress_func, progress_data,
                                   progress_destroy, cancellable, mcp_client_call_tool_async,
                                   callback, user_data))
    return;

  params = mcp_client_new_tool_call_params (name, arguments);
  typed_request (self, "tools/call", params, progress_func, progress_data, progress_destroy,
                 cancellable, mcp_client_call_tool_async, callback, user_data);
}

/**
 * mcp_client_call_tool_finish:
 *
 * Returns: (transfer full): the result, which may be a tool error
 *   (mcp_tool_result_get_is_error()); %NULL for a protocol error
 */
McpToolResult *
mcp_client_call_tool_finish (McpClient     *self,
                             GAsyncResult  *result,
                             GError       **error)
{
  g_autoptr(JsonObject) reply = mcp_client_finish_request (self, result,
                                                           mcp_client_call_tool_async, error);

  return reply ? mcp_tool_result_new (reply) : NULL;
}

/* A call that mcp_client_call_tool_with_reply() hands to the GTask path,
 * and the function that ends it there. */
typedef struct {
  McpReplyFunc reply;
  gpointer     user_data;
} ReplyCall;

static ReplyCall *
reply_call_new (McpReplyFunc reply,
                gpointer     user_data)
{
  ReplyCall *call = g_new (ReplyCall, 1);

  call->reply = reply;
  call->user_data = user_data;
  return call;
}

static void
reply_call_done_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  ReplyCall *call = user_data;
  McpClient *self = MCP_CLIENT (object);
  GError *error = NULL;
  g_autoptr(JsonObject) reply = mcp_client_finish_request (self, result,
                                                           mcp_client_call_tool_async, &error);

  call->reply (self, reply, error, call->user_data);
  g_free (call);
}

/**
 * mcp_client_call_tool_with_reply:
 * @reply: called with the result object (as mcp_tool_result_new() takes
 *   it) or the error
 *
 * mcp_client_call_tool_async() for a caller that ends a task of its own
 * when the call ends: the call then costs one task, the caller's, instead
 * of two. Calls that go through the server's tasks, and calls of a server
 * that offers no tools, take the ordinary path with a task of their own;
 * @reply ends them all the same.
 */
void
mcp_client_call_tool_with_reply (McpClient       *self,
                                 const char      *name,
                                 JsonObject      *arguments,
                                 McpProgressFunc  progress_func,
                                 gpointer         progress_data,
                                 GDestroyNotify   progress_destroy,
                                 GCancellable    *cancellable,
                                 McpReplyFunc     reply,
                                 gpointer         user_data)
{
  g_autoptr(JsonObject) params = NULL;

  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (reply != NULL);

  /* Refused there, with the error every call of such a server gets. */
  if (self->state == MCP_CLIENT_STATE_READY && !mcp_client_has_capability (self, "tools", NULL))
    {
      mcp_client_call_tool_async (self, name, arguments, progress_func, progress_data,
                                  progress_destroy, cancellable, reply_call_done_cb,
                                  reply_call_new (reply, user_data));
      return;
    }

  if (mcp_client_supports_tasks (self))
    {
      ReplyCall *call = reply_call_new (reply, user_data);

      if (mcp_client_tasks_route_call (self, name, arguments, progress_func, progress_data,
                                       progress_destroy, cancellable,
                                       mcp_client_call_tool_async, reply_call_done_cb, call))
        return;
      g_free (call);
    }

  params = mcp_client_new_tool_call_params (name, arguments);
  mcp_client_pending_start_reply (self, reply, user_data, cancellable, "tools/call", params,
                                  self->request_timeout_ms, progress_func, progress_data,
                                  progress_destroy, 0);
}

void
mcp_client_read_resource_async (McpClient           *self,
                                const char          *uri,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  JsonObject *params;

  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (uri != NULL);

  params = json_object_new ();
  json_object_set_string_member (params, "uri", uri);
  feature_request (self, "resources", "resources/read", params, cancellable,
                   mcp_client_read_resource_async, callback, user_data);
}

/**
 * mcp_client_read_resource_finish:
 *
 * Returns: (transfer container) (element-type McpContent): the contents,
 *   text or blob
 */
GPtrArray *
mcp_client_read_resource_finish (McpClient     *self,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  g_autoptr(JsonObject) reply = mcp_client_finish_request (self, result,
                                                           mcp_client_read_resource_async, error);
  GPtrArray *contents;
  JsonArray *array;

  if (reply == NULL)
    return NULL;

  contents = g_ptr_array_new_with_free_func (g_object_unref);
  array = mcp_json_get_array (reply, "contents");
  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);

      if (JSON_NODE_HOLDS_OBJECT (node))
        g_ptr_array_add (contents, mcp_content_new_for_resource (json_node_get_object (node)));
    }

  return contents;
}

void
mcp_client_get_prompt_async (McpClient           *self,
                             const char          *name,
                             JsonObject          *arguments,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  JsonObject *params;

  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (name != NULL);

  params = json_object_new ();
  json_object_set_string_member (params, "name", name);
  if (arguments != NULL)
    json_object_set_object_member (params, "arguments", json_object_ref (arguments));

  feature_request (self, "prompts", "prompts/get", params, cancellable,
                   mcp_client_get_prompt_async, callback, user_data);
}

McpPromptResult *
mcp_client_get_prompt_finish (McpClient     *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  g_autoptr(JsonObject) reply = mcp_client_finish_request (self, result,
                                                           mcp_client_get_prompt_async, error);

  return reply ? mcp_prompt_result_new (reply) : NULL;
}

void
mcp_client_complete_async (McpClient           *self,
                           const char          *ref_type,
                           const char          *ref_name,
                           const char          *argument_name,
                           const char          *argument_value,
                           JsonObject          *context,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  JsonObject *params;
  JsonObject *ref;
  JsonObject *argument;

  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (g_strcmp0 (ref_type, "ref/prompt") == 0 ||
                    g_strcmp0 (ref_type, "ref/resource") == 0);
  g_return_if_fail (ref_name != NULL && argument_name != NULL);

  params = json_object_new ();
  ref = json_object_new ();
  json_object_set_string_member (ref, "type", ref_type);
  json_object_set_string_member (ref, g_str_equal (ref_type, "ref/prompt") ? "name" : "uri",
                                 ref_name);
  json_object_set_object_member (params, "ref", ref);
  argument = json_object_new ();
  json_object_set_string_member (argument, "name", argument_name);
  json_object_set_string_member (argument, "value", argument_value ? argument_value : "");
  json_object_set_object_member (params, "argument", argument);
  if (context != NULL && self->revision >= MCP_REVISION_2025_06_18)
    {
      JsonObject *ctx = json_object_new ();

      json_object_set_object_member (ctx, "arguments", json_object_ref (context));
      json_object_set_object_member (params, "context", ctx);
    }

  /* 2024-11-05 had no capability for completions: servers of that
   * revision are simply asked. */
  feature_request (self, self->revision != MCP_REVISION_2024_11_05 ? "completions" : NULL,
                   "completion/complete", params, cancellable, mcp_client_complete_async,
                   callback, user_data);
}

/**
 * mcp_client_complete_finish:
 * @total: (out) (optional): the number of candidates the server knows of,
 *   or -1
 * @has_more: (out) (optional): whether there are more than returned
 *
 * Returns: (transfer full): the candidate values (possibly empty)
 */
char **
mcp_client_complete_finish (McpClient     *self,
                            GAsyncResult  *result,
                            gint64        *total,
                            gboolean      *has_more,
                            GError       **error)
{
  g_autoptr(JsonObject) reply = mcp_client_finish_request (self, result,
                                                           mcp_client_complete_async, error);
  g_autoptr(GStrvBuilder) builder = NULL;
  JsonObject *completion;
  JsonArray *values;

  if (reply == NULL)
    return NULL;

  completion = mcp_json_get_object (reply, "completion");
  values = mcp_json_get_array (completion, "values");
  builder = g_strv_builder_new ();
  for (guint i = 0; values != NULL && i < json_array_get_length (values); i++)
    {
      JsonNode *node = json_array_get_element (values, i);

      if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
        g_strv_builder_add (builder, json_node_get_string (node));
    }

  if (total != NULL)
    *total = mcp_json_has_number (completion, "total")
             ? (gint64) mcp_json_get_number (completion, "total", -1) : -1;
  if (has_more != NULL)
    *has_more = mcp_json_get_boolean (completion, "hasMore", FALSE);

  return g_strv_builder_end (builder);
}

gboolean
mcp_log_level_is_valid (const char *level)
{
  for (guint i = 0; level != NULL && i < G_N_ELEMENTS (log_levels); i++)
    if (g_str_equal (level, log_levels[i]))
      return TRUE;

  return FALSE;
}

void
mcp_client_set_log_level_async (McpClient           *self,
                                const char          *level,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(JsonObject) params = NULL;

  g_return_if_fail (MCP_IS_CLIENT (self));

  if (!mcp_log_level_is_valid (level))
    {
      g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

      g_task_set_source_tag (task, mcp_client_set_log_level_async);
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                               "“%s” is not a log level (debug, info, notice, warning, error, "
                               "critical, alert, emergency)", level ? level : "");
      return;
    }

  if (!mcp_client_require_capability (self, "logging", NULL, "logging",
                                      mcp_client_set_log_level_async, callback, user_data))
    return;

  /* 2026-07-28 has no logging/setLevel: the level rides on each request. */
  if (self->modern)
    {
      g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

      g_task_set_source_tag (task, mcp_client_set_log_level_async);
      g_free (self->log_level);
      self->log_level = g_strdup (level);
      g_task_return_pointer (task, json_object_new (), (GDestroyNotify) json_object_unref);
      return;
    }

  params = json_object_new ();
  json_object_set_string_member (params, "level", level);
  typed_request (self, "logging/setLevel", params, NULL, NULL, NULL, cancellable,
                 mcp_client_set_log_level_async, callback, user_data);
}

gboolean
mcp_client_set_log_level_finish (McpClient     *self,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  g_autoptr(JsonObject) reply = mcp_client_finish_request (self, result,
                                                           mcp_client_set_log_level_async, error);

  return reply != NULL;
}

void
mcp_client_notify_roots_changed (McpClient *self)
{
  McpClientFeatures features;

  g_return_if_fail (MCP_IS_CLIENT (self));

  /* In 2026-07-28 a server asks for the roots each time it needs them. */
  features = self->delegate ? mcp_client_delegate_get_features (self->delegate) : 0;
  if (self->state != MCP_CLIENT_STATE_READY || self->modern ||
      !(features & MCP_CLIENT_FEATURE_ROOTS_LIST_CHANGED))
    return;

  mcp_client_notify (self, "notifications/roots/list_changed", NULL, NULL);
}

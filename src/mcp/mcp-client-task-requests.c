/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client-tasks"

#include "config.h"

#include "mcp-client-private.h"
#include "mcp-client-tasks.h"
#include "mcp-error.h"
#include "mcp-json-private.h"

/*
 * The one-off requests about tasks, for a person or a script that asks
 * after a task by its id: tasks/get, tasks/cancel, tasks/list (2025-11-25
 * only) and the result (tasks/result in 2025-11-25, with the extension the
 * result that tasks/get carries once the task ended). Following a task to
 * its end is mcp-client-tasks.c.
 */

/* Whether the client speaks the stateless revision, where tasks are the
 * `io.modelcontextprotocol/tasks` extension. */
gboolean
mcp_client_is_stateless (McpClient *self)
{
  return mcp_revision_is_stateless (mcp_client_get_revision (self));
}

/* Every request about one task names it by `taskId` alone. The one-off
 * requests below and the follower in mcp-client-tasks.c share it. */
void
mcp_client_task_request (McpClient           *self,
                         const char          *method,
                         const char          *task_id,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(JsonObject) params = json_object_new ();

  json_object_set_string_member (params, "taskId", task_id);

  /* tasks/result (2025-11-25) blocks until the task ends, and carries the
   * server's requests on the way: it has no deadline of its own. */
  if (g_str_equal (method, "tasks/result"))
    mcp_client_start_request (self, method, params, FALSE, 0, NULL, NULL, NULL, cancellable,
                              mcp_client_request_async, callback, user_data);
  else
    mcp_client_request_async (self, method, params, NULL, NULL, NULL, cancellable,
                              callback, user_data);
}

static void
get_task_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) gtask = user_data;
  g_autoptr(JsonObject) reply = NULL;
  GError *error = NULL;
  McpTask *task;

  reply = mcp_client_request_finish (MCP_CLIENT (object), result, &error);
  if (reply == NULL)
    {
      g_task_return_error (gtask, error);
      return;
    }

  task = mcp_task_new_from_json (reply, NULL, &error);
  if (task == NULL)
    g_task_return_error (gtask, error);
  else
    g_task_return_pointer (gtask, task, g_object_unref);
}

void
mcp_client_get_task_async (McpClient           *self,
                           const char          *task_id,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (task_id != NULL);

  mcp_client_task_request (self, "tasks/get", task_id, cancellable, get_task_cb,
                           g_task_new (self, cancellable, callback, user_data));
}

/**
 * mcp_client_get_task_finish:
 *
 * Returns: (transfer full): the task as the server sees it now
 */
McpTask *
mcp_client_get_task_finish (McpClient     *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
boolean_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) gtask = user_data;
  g_autoptr(JsonObject) reply = NULL;
  GError *error = NULL;

  reply = mcp_client_request_finish (MCP_CLIENT (object), result, &error);
  if (reply == NULL)
    g_task_return_error (gtask, error);
  else
    g_task_return_boolean (gtask, TRUE);
}

/**
 * mcp_client_cancel_task_async:
 *
 * Asks the server to cancel a task. Cancelling is cooperative: the task may
 * still end otherwise.
 */
void
mcp_client_cancel_task_async (McpClient           *self,
                              const char          *task_id,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (task_id != NULL);

  mcp_client_task_request (self, "tasks/cancel", task_id, cancellable, boolean_cb,
                           g_task_new (self, cancellable, callback, user_data));
}

gboolean
mcp_client_cancel_task_finish (McpClient     *self,
                               GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

typedef struct {
  GPtrArray *tasks;
  guint      pages;
} ListData;

static void
list_data_free (ListData *data)
{
  g_ptr_array_unref (data->tasks);
  g_free (data);
}

static void list_page (McpClient *self, GTask *gtask, const char *cursor);

static void
list_page_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) gtask = user_data;
  ListData *data = g_task_get_task_data (gtask);
  g_autoptr(JsonObject) reply = NULL;
  GError *error = NULL;
  JsonArray *tasks;
  const char *cursor;

  reply = mcp_client_request_finish (MCP_CLIENT (object), result, &error);
  if (reply == NULL)
    {
      g_task_return_error (gtask, error);
      return;
    }

  tasks = mcp_json_get_array (reply, "tasks");
  if (tasks == NULL)
    {
      g_task_return_new_error (gtask, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                               "the server's task list has no “tasks”");
      return;
    }

  for (guint i = 0; i < json_array_get_length (tasks); i++)
    {
      JsonNode *node = json_array_get_element (tasks, i);
      g_autoptr(GError) task_error = NULL;
      McpTask *task;

      /* One bad entry is left out, not the whole list. */
      if (!JSON_NODE_HOLDS_OBJECT (node) ||
          (task = mcp_task_new_from_json (json_node_get_object (node), NULL, &task_error)) == NULL)
        {
          g_debug ("left a task out of the list: %s",
                   task_error ? task_error->message : "not an object");
          continue;
        }
      g_ptr_array_add (data->tasks, task);
    }

  cursor = mcp_json_get_string (reply, "nextCursor");
  if (cursor != NULL && ++data->pages < MCP_MAX_LIST_PAGES)
    list_page (MCP_CLIENT (object), g_steal_pointer (&gtask), cursor);
  else
    g_task_return_pointer (gtask, g_ptr_array_ref (data->tasks),
                           (GDestroyNotify) g_ptr_array_unref);
}

static void
list_page (McpClient  *self,
           GTask      *gtask,
           const char *cursor)
{
  g_autoptr(JsonObject) params = json_object_new ();

  if (cursor != NULL)
    json_object_set_string_member (params, "cursor", cursor);
  mcp_client_request_async (self, "tasks/list", params, NULL, NULL, NULL,
                            g_task_get_cancellable (gtask), list_page_cb, gtask);
}

/**
 * mcp_client_list_tasks_async:
 *
 * Lists the server's tasks, every page (2025-11-25 `tasks/list`; the
 * extension has no list).
 */
void
mcp_client_list_tasks_async (McpClient           *self,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  GTask *gtask;
  ListData *data;

  g_return_if_fail (MCP_IS_CLIENT (self));

  /* The capability is an object ({}), not a flag. */
  if (mcp_client_is_stateless (self) ||
      mcp_json_get_object (mcp_json_get_object (mcp_client_get_server_capabilities (self),
                                                "tasks"), "list") == NULL)
    {
      g_task_report_new_error (self, callback, user_data, mcp_client_list_tasks_async,
                               MCP_ERROR, MCP_ERROR_CAPABILITY_MISSING,
                               "the server does not list its tasks");
      return;
    }

  gtask = g_task_new (self, cancellable, callback, user_data);
  data = g_new0 (ListData, 1);
  data->tasks = g_ptr_array_new_with_free_func (g_object_unref);
  g_task_set_task_data (gtask, data, (GDestroyNotify) list_data_free);
  list_page (self, gtask, NULL);
}

/**
 * mcp_client_list_tasks_finish:
 *
 * Returns: (transfer container) (element-type McpTask): the tasks
 */
GPtrArray *
mcp_client_list_tasks_finish (McpClient     *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
result_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) gtask = user_data;
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(McpTask) task = NULL;
  GError *error = NULL;

  reply = mcp_client_request_finish (MCP_CLIENT (object), result, &error);
  if (reply == NULL)
    {
      g_task_return_error (gtask, error);
      return;
    }

  if (!mcp_client_is_stateless (MCP_CLIENT (object)))
    {
      g_task_return_pointer (gtask, mcp_tool_result_new (reply), g_object_unref);
      return;
    }

  /* The extension has no tasks/result: the result comes with the task. */
  task = mcp_task_new_from_json (reply, NULL, &error);
  if (task == NULL)
    g_task_return_error (gtask, error);
  else if (mcp_task_get_inline_result (task) != NULL)
    g_task_return_pointer (gtask, mcp_tool_result_new (mcp_task_get_inline_result (task)),
                           g_object_unref);
  else if (mcp_task_get_inline_error (task) != NULL)
    {
      JsonObject *rpc = mcp_task_get_inline_error (task);
      const char *message = mcp_json_get_string (rpc, "message");

      g_task_return_error (gtask, mcp_error_new_rpc ((int) mcp_json_get_number (rpc, "code", 0),
                                                     message ? message : "the task failed",
                                                     json_object_get_member (rpc, "data")));
    }
  else
    g_task_return_new_error (gtask, MCP_ERROR, MCP_ERROR_NOT_READY,
                             "task “%s” has no result yet: it is %s",
                             mcp_task_get_id (task),
                             mcp_task_status_to_string (mcp_task_get_status (task)));
}

/**
 * mcp_client_get_task_result_async:
 *
 * Fetches a task's result: in 2025-11-25 `tasks/result`, which waits until
 * the task ends; with the extension the result of `tasks/get`, which fails
 * with %MCP_ERROR_NOT_READY while the task runs.
 */
void
mcp_client_get_task_result_async (McpClient           *self,
                                  const char          *task_id,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (task_id != NULL);

  mcp_client_task_request (self, mcp_client_is_stateless (self) ? "tasks/get" : "tasks/result",
                           task_id, cancellable, result_cb,
                           g_task_new (self, cancellable, callback, user_data));
}

/**
 * mcp_client_get_task_result_finish:
 *
 * Returns: (transfer full): the tool's result, or %NULL with the error the
 *   call ended with
 */
McpToolResult *
mcp_client_get_task_result_finish (McpClient     *self,
                                   GAsyncResult  *result,
                                   GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

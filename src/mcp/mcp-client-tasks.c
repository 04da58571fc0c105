/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client-tasks"

#include "config.h"

#include "mcp-client-private.h"
#include "mcp-client-tasks.h"
#include "mcp-error.h"
#include "mcp-item.h"
#include "mcp-json-private.h"
#include "mcp-related-task.h"
#include "mcp-tool.h"

/*
 * Tool calls as tasks, in both eras:
 *
 * - 2025-11-25 (experimental): the client asks for a task by adding
 *   `task` to `tools/call`; the server answers `{ task }`; the client
 *   polls `tasks/get` and fetches the result with `tasks/result`, which
 *   blocks until the task ends and carries the server's requests to the
 *   host (elicitation, sampling) on the way, marked with the task's id.
 * - 2026-07-28 with the `io.modelcontextprotocol/tasks` extension: the
 *   client declares the extension on every request and the server decides
 *   per call whether to answer `resultType: "task"`; `tasks/get` carries the
 *   status, the input the server needs (answered with `tasks/update`), and
 *   in the end the result or error itself.
 *
 * Polling honours the server's interval and backs off while nothing
 * changes, so that a task of hours costs a few requests a minute.
 */

/* When the server gives no interval. */
#define DEFAULT_POLL_MS     1000
/* Never faster than this, whatever the server says. */
#define MIN_POLL_MS         100
/* Backing off stops here (or at the server's interval, if longer). */
#define MAX_BACKOFF_MS      10000
/* A server asking for less than one poll a minute is asked all the same:
 * a task must not go unwatched because its server said so. */
#define MAX_SERVER_POLL_MS  60000
/* Polls in a row that may fail for a passing reason (a timeout). */
#define MAX_POLL_FAILURES   5

typedef struct {
  GListStore *followed;   /* McpTask, every task followed on this client */
  GHashTable *by_id;      /* task id → Follow, those followed now */
  GHashTable *tokens;     /* progress token → McpTask */
  GHashTable *long_running;  /* tools whose calls go as tasks when they may */
  guint       next_token;
  gboolean    listening;
} TasksState;

typedef struct {
  McpClient       *client;
  McpTask         *task;
  GTask           *gtask;
  gboolean         modern;
  gboolean         done;
  guint            timer_id;
  guint            interval;
  guint            failures;
  gboolean         get_outstanding;
  gboolean         result_outstanding;
  GHashTable      *answered;       /* input request keys put to the host */
  JsonObject      *responses;      /* answers not yet sent */
  guint            inputs_waiting;
  GCancellable    *cancellable;    /* our own requests */
  GCancellable    *caller_cancellable;
  gulong           caller_cancelled_id;
  McpProgressFunc  progress_func;
  gpointer         progress_data;
  GDestroyNotify   progress_destroy;
  gulong           changed_id;
} Follow;

static void follow_poll_now (Follow *follow);
static void follow_schedule (Follow *follow);

/* Per-client state */

static void
tasks_state_free (TasksState *state)
{
  g_clear_object (&state->followed);
  g_clear_pointer (&state->by_id, g_hash_table_unref);
  g_clear_pointer (&state->tokens, g_hash_table_unref);
  g_clear_pointer (&state->long_running, g_hash_table_unref);
  g_free (state);
}

static void
status_notification_cb (McpClient  *client,
                        const char *method,
                        JsonObject *params,
                        gpointer    user_data);

static TasksState *
get_state (McpClient *self)
{
  TasksState *state = g_object_get_data (G_OBJECT (self), "mcp-tasks-state");

  if (state == NULL)
    {
      state = g_new0 (TasksState, 1);
      state->followed = g_list_store_new (MCP_TYPE_TASK);
      state->by_id = g_hash_table_new (g_str_hash, g_str_equal);
      state->tokens = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
      state->long_running = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g_object_set_data_full (G_OBJECT (self), "mcp-tasks-state", state,
                              (GDestroyNotify) tasks_state_free);
    }

  /* Status notifications are optional for a server: they only hurry a
   * poll along, never replace it. */
  if (!state->listening)
    {
      state->listening = TRUE;
      g_signal_connect (self, "notification::notifications/tasks/status",
                        G_CALLBACK (status_notification_cb), NULL);
    }

  return state;
}

static JsonObject *
object_at (JsonObject *object,
           const char *first,
           ...)
{
  va_list args;
  const char *name;

  va_start (args, first);
  for (name = first; name != NULL && object != NULL; name = va_arg (args, const char *))
    object = mcp_json_get_object (object, name);
  va_end (args);

  return object;
}

/**
 * mcp_client_supports_tasks:
 *
 * Returns: whether the server takes tool calls as tasks: in 2025-11-25 its
 *   `tasks.requests.tools.call` capability, in 2026-07-28 the extension
 */
gboolean
mcp_client_supports_tasks (McpClient *self)
{
  JsonObject *capabilities;

  g_return_val_if_fail (MCP_IS_CLIENT (self), FALSE);

  capabilities = mcp_client_get_server_capabilities (self);
  if (capabilities == NULL)
    return FALSE;

  if (mcp_client_is_stateless (self))
    return object_at (capabilities, "extensions", MCP_TASKS_EXTENSION, NULL) != NULL;

  return object_at (capabilities, "tasks", "requests", "tools", "call", NULL) != NULL;
}

static McpTool *
find_tool (McpClient  *self,
           const char *name)
{
  GListModel *tools = mcp_client_get_tools (self);

  for (guint i = 0; i < g_list_model_get_n_items (tools); i++)
    {
      g_autoptr(McpTool) tool = g_list_model_get_item (tools, i);

      if (g_strcmp0 (mcp_item_get_name (MCP_ITEM (tool)), name) == 0)
        return g_steal_pointer (&tool);
    }

  return NULL;
}

/**
 * mcp_client_tool_needs_task:
 *
 * Returns: whether the tool can only be called as a task (2025-11-25
 *   `taskSupport: "required"`) and the server takes tasks
 */
gboolean
mcp_client_tool_needs_task (McpClient  *self,
                            const char *tool_name)
{
  g_autoptr(McpTool) tool = NULL;

  g_return_val_if_fail (MCP_IS_CLIENT (self), FALSE);

  if (mcp_client_is_stateless (self) || !mcp_client_supports_tasks (self))
    return FALSE;

  tool = find_tool (self, tool_name);
  return tool != NULL && g_str_equal (mcp_tool_get_task_support (tool), "required");
}

/**
 * mcp_client_tool_allows_task:
 *
 * Returns: whether the client may ask for the tool to run as a task. In the
 *   2026-07-28 era the server decides; asking is then the same as calling.
 */
gboolean
mcp_client_tool_allows_task (McpClient  *self,
                             const char *tool_name)
{
  g_autoptr(McpTool) tool = NULL;

  g_return_val_if_fail (MCP_IS_CLIENT (self), FALSE);

  if (!mcp_client_supports_tasks (self))
    return FALSE;
  if (mcp_client_is_stateless (self))
    return TRUE;

  tool = find_tool (self, tool_name);
  return tool != NULL && !g_str_equal (mcp_tool_get_task_support (tool), "forbidden");
}

/**
 * mcp_client_get_followed_tasks:
 *
 * Returns: (transfer none): every #McpTask this client followed, in the
 *   order they started
 */
GListModel *
mcp_client_get_followed_tasks (McpClient *self)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), NULL);

  return G_LIST_MODEL (get_state (self)->followed);
}

/**
 * mcp_client_lookup_task:
 * @task_id: a task's id, as a request's related task names it
 *
 * Returns: (transfer none) (nullable): the task of that id this client
 *   follows now, or NULL
 */
McpTask *
mcp_client_lookup_task (McpClient  *self,
                        const char *task_id)
{
  Follow *follow;

  g_return_val_if_fail (MCP_IS_CLIENT (self), NULL);

  if (task_id == NULL)
    return NULL;
  follow = g_hash_table_lookup (get_state (self)->by_id, task_id);
  return follow != NULL ? follow->task : NULL;
}

/**
 * mcp_client_set_long_running:
 *
 * Marks a tool's calls as long-running: from the next call on, a tool
 * that allows tasks (2025-11-25 `taskSupport: "optional"`) is called as a
 * task. A call already sent stays what it is: the protocol cannot turn a
 * running request into a task, and sending it again would run the tool
 * twice.
 */
void
mcp_client_set_long_running (McpClient  *self,
                             const char *tool_name,
                             gboolean    long_running)
{
  TasksState *state;

  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (tool_name != NULL);

  state = get_state (self);
  if (long_running)
    g_hash_table_add (state->long_running, g_strdup (tool_name));
  else
    g_hash_table_remove (state->long_running, tool_name);
}

gboolean
mcp_client_get_long_running (McpClient  *self,
                             const char *tool_name)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), FALSE);
  g_return_val_if_fail (tool_name != NULL, FALSE);

  return g_hash_table_contains (get_state (self)->long_running, tool_name);
}

void
mcp_client_tasks_add_capabilities (McpClient  *self,
                                   JsonObject *capabilities)
{
  JsonObject *extensions = mcp_json_get_object (capabilities, "extensions");

  if (extensions == NULL)
    {
      extensions = json_object_new ();
      json_object_set_object_member (capabilities, "extensions", extensions);
    }
  json_object_set_object_member (extensions, MCP_TASKS_EXTENSION, json_object_new ());
}

/* Progress: the token of a task-augmented call outlives its request. */

gboolean
mcp_client_tasks_take_progress (McpClient  *self,
                                JsonObject *params)
{
  TasksState *state = g_object_get_data (G_OBJECT (self), "mcp-tasks-state");
  const char *token = mcp_json_get_string (params, "progressToken");
  McpTask *task;

  if (state == NULL || token == NULL || !mcp_json_has_number (params, "progress"))
    return FALSE;

  task = g_hash_table_lookup (state->tokens, token);
  if (task == NULL)
    return FALSE;

  if (!mcp_task_is_terminal (task))
    mcp_task_set_progress (task,
                           mcp_json_get_number (params, "progress", 0),
                           mcp_json_get_number (params, "total", -1),
                           mcp_json_get_string (params, "message"));
  return TRUE;
}

/* Starting */

typedef struct {
  char  *name;
  char  *token;
} StartData;

static void
start_data_free (StartData *data)
{
  g_free (data->name);
  g_free (data->token);
  g_free (data);
}

static void
start_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  McpClient *self = MCP_CLIENT (object);
  g_autoptr(GTask) gtask = user_data;
  StartData *data = g_task_get_task_data (gtask);
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(McpTask) task = NULL;
  const char *result_type;

  reply = mcp_client_request_finish (self, result, &error);
  if (reply == NULL)
    {
      g_task_return_error (gtask, g_steal_pointer (&error));
      return;
    }

  result_type = mcp_json_get_string (reply, "resultType");

  /* The server chose to answer at once (2026-07-28), or, in 2025-11-25,
   * ignored the request for a task as a server without tasks must. */
  if ((result_type != NULL && g_str_equal (result_type, "complete")) ||
      (result_type == NULL && mcp_json_get_object (reply, "task") == NULL))
    {
      g_task_set_task_data (gtask, mcp_tool_result_new (reply), g_object_unref);
      g_task_return_pointer (gtask, NULL, NULL);
      return;
    }

  if (result_type != NULL && !g_str_equal (result_type, "task"))
    {
      g_task_return_new_error (gtask, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                               "the server answered “tools/call” with a result of type "
                               "“%s”, which this client does not know", result_type);
      return;
    }

  task = mcp_task_new_from_json (reply, data->name, &error);
  if (task == NULL)
    {
      g_task_return_error (gtask, g_steal_pointer (&error));
      return;
    }

  if (data->token != NULL)
    g_hash_table_insert (get_state (self)->tokens, g_strdup (data->token), g_object_ref (task));

  g_task_return_pointer (gtask, g_steal_pointer (&task), g_object_unref);
}

static void
start_task (McpClient           *self,
            const char          *name,
            JsonObject          *arguments,
            gboolean             ask,
            GCancellable        *cancellable,
            gpointer             source_tag,
            GAsyncReadyCallback  callback,
            gpointer             user_data)
{
  g_autoptr(JsonObject) params = mcp_client_new_tool_call_params (name, arguments);
  g_autoptr(GTask) gtask = g_task_new (self, cancellable, callback, user_data);
  TasksState *state = get_state (self);
  StartData *data;

  g_task_set_source_tag (gtask, source_tag);

  data = g_new0 (StartData, 1);
  data->name = g_strdup (name);

  /* 2025-11-25: the request asks for a task, and its progress token stays
   * good for the task's life; our own string token tells it apart from
   * the tokens of requests, which are their ids. */
  if (ask && !mcp_client_is_stateless (self))
    {
      JsonObject *meta = json_object_new ();

      data->token = g_strdup_printf ("task-%u", ++state->next_token);
      json_object_set_string_member (meta, "progressToken", data->token);
      json_object_set_object_member (params, "_meta", meta);
      json_object_set_object_member (params, "task", json_object_new ());
    }

  g_task_set_task_data (gtask, data, (GDestroyNotify) start_data_free);
  mcp_client_request_async (self, "tools/call", params, NULL, NULL, NULL, cancellable,
                            start_cb, g_steal_pointer (&gtask));
}

/**
 * mcp_client_start_task_async:
 *
 * Calls a tool as a task and returns once the server has created it,
 * without following it (see mcp_client_follow_task_async()).
 */
void
mcp_client_start_task_async (McpClient           *self,
                             const char          *name,
                             JsonObject          *arguments,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (name != NULL);

  if (!mcp_client_supports_tasks (self))
    {
      g_task_report_new_error (self, callback, user_data, mcp_client_start_task_async,
                               MCP_ERROR, MCP_ERROR_CAPABILITY_MISSING,
                               "the server does not run tool calls as tasks");
      return;
    }

  start_task (self, name, arguments, TRUE, cancellable, mcp_client_start_task_async,
              callback, user_data);
}

/**
 * mcp_client_start_task_finish:
 * @immediate: (out) (optional): the result, when the server answered at
 *   once instead of creating a task
 *
 * Returns: (transfer full) (nullable): the task, or %NULL (with @immediate
 *   set, or an error)
 */
McpTask *
mcp_client_start_task_finish (McpClient      *self,
                              GAsyncResult   *result,
                              McpToolResult **immediate,
                              GError        **error)
{
  g_autoptr(GError) local_error = NULL;
  McpTask *task;

  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  task = g_task_propagate_pointer (G_TASK (result), &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  if (task == NULL && immediate != NULL)
    *immediate = g_object_ref (g_task_get_task_data (G_TASK (result)));

  return task;
}

/* Following */

static void
follow_free (Follow *follow)
{
  TasksState *state = get_state (follow->client);

  if (g_hash_table_lookup (state->by_id, mcp_task_get_id (follow->task)) == follow)
    g_hash_table_remove (state->by_id, mcp_task_get_id (follow->task));

  g_clear_handle_id (&follow->timer_id, g_source_remove);
  if (follow->caller_cancelled_id != 0)
    g_cancellable_disconnect (follow->caller_cancellable, follow->caller_cancelled_id);
  g_clear_signal_handler (&follow->changed_id, follow->task);
  if (follow->progress_destroy != NULL)
    follow->progress_destroy (follow->progress_data);

  g_cancellable_cancel (follow->cancellable);
  g_clear_object (&follow->cancellable);
  g_clear_object (&follow->caller_cancellable);
  g_clear_pointer (&follow->answered, g_hash_table_unref);
  g_clear_pointer (&follow->responses, json_object_unref);
  g_clear_object (&follow->task);
  g_object_unref (follow->client);
  g_free (follow);
}

/* The task's outcome goes into the task too, so that a view of it shows
 * the result without asking anyone. */
static void
follow_return (Follow     *follow,
               JsonObject *result,
               GError     *error)
{
  g_autoptr(GTask) gtask = g_steal_pointer (&follow->gtask);

  if (follow->done)
    {
      g_clear_error (&error);
      return;
    }
  follow->done = TRUE;

  g_clear_handle_id (&follow->timer_id, g_source_remove);
  g_cancellable_cancel (follow->cancellable);
  mcp_task_set_outcome (follow->task, result, error);

  if (error != NULL)
    g_task_return_error (gtask, error);
  else
    g_task_return_pointer (gtask, mcp_tool_result_new (result), g_object_unref);
}

static void
follow_fail_from_inline (Follow *follow)
{
  JsonObject *error = mcp_task_get_inline_error (follow->task);
  const char *message = mcp_json_get_string (error, "message");
  JsonNode *data = error ? json_object_get_member (error, "data") : NULL;

  follow_return (follow, NULL,
                 mcp_error_new_rpc ((int) mcp_json_get_number (error, "code",
                                                               MCP_ERROR_INTERNAL_ERROR),
                                    message ? message : "the task failed without a reason",
                                    data));
}

static void
task_result_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) gtask = user_data;
  Follow *follow = g_task_get_task_data (gtask);
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(GError) error = NULL;

  if (follow->done)
    return;
  follow->result_outstanding = FALSE;

  reply = mcp_client_request_finish (MCP_CLIENT (object), result, &error);

  /* tasks/result gives what tools/call would have: a result, or the
   * JSON-RPC error the call would have failed with. */
  if (reply != NULL)
    follow_return (follow, reply, NULL);
  else if (mcp_error_is_rpc (error))
    follow_return (follow, NULL, g_steal_pointer (&error));
  else if (g_error_matches (error, MCP_ERROR, MCP_ERROR_CLOSED))
    follow_return (follow, NULL, g_steal_pointer (&error));
  else
    /* A passing failure: polling goes on and asks again when it may. */
    follow_schedule (follow);
}

/* A request about the followed task, one of a kind at a time: a poll or a
 * fetch of the result still waiting for its answer is not sent again. */
static void
follow_request (Follow              *follow,
                const char          *method,
                gboolean            *outstanding,
                GAsyncReadyCallback  callback)
{
  if (follow->done || *outstanding)
    return;

  *outstanding = TRUE;
  mcp_client_task_request (follow->client, method, mcp_task_get_id (follow->task),
                           follow->cancellable, callback, g_object_ref (follow->gtask));
}

static void
fetch_result (Follow *follow)
{
  follow_request (follow, "tasks/result", &follow->result_outstanding, task_result_cb);
}

static void
send_update (Follow *follow)
{
  g_autoptr(JsonObject) params = json_object_new ();

  json_object_set_string_member (params, "taskId", mcp_task_get_id (follow->task));
  json_object_set_object_member (params, "inputResponses", g_steal_pointer (&follow->responses));
  follow->responses = json_object_new ();

  /* The acknowledgement says nothing; the next poll shows the effect. */
  mcp_client_request_async (follow->client, "tasks/update", params, NULL, NULL, NULL,
                            follow->cancellable, NULL, NULL);
}

typedef struct {
  GTask *gtask;
  char  *key;
  char  *method;
} InputCall;

static void
input_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  McpClientDelegate *delegate = MCP_CLIENT_DELEGATE (object);
  InputCall *call = user_data;
  g_autoptr(GTask) gtask = call->gtask;
  Follow *follow = g_task_get_task_data (gtask);
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(GError) error = NULL;

  if (g_str_equal (call->method, "sampling/createMessage"))
    reply = mcp_client_delegate_create_message_finish (delegate, result, &error);
  else if (g_str_equal (call->method, "elicitation/create"))
    reply = mcp_client_delegate_elicit_finish (delegate, result, &error);
  else
    reply = mcp_client_delegate_list_roots_finish (delegate, result, &error);

  if (!follow->done)
    {
      /* An answer the host refused has no input response to carry it:
       * the task cannot go on, and the server is told so by cancelling. */
      if (reply == NULL)
        {
          g_autoptr(JsonObject) params = json_object_new ();

          json_object_set_string_member (params, "taskId", mcp_task_get_id (follow->task));
          mcp_client_request_async (follow->client, "tasks/cancel", params, NULL, NULL, NULL,
                                    NULL, NULL, NULL);
          follow_return (follow, NULL, g_steal_pointer (&error));
        }
      else
        {
          json_object_set_object_member (follow->responses, call->key, g_steal_pointer (&reply));
          if (--follow->inputs_waiting == 0)
            send_update (follow);
        }
    }

  g_free (call->key);
  g_free (call->method);
  g_free (call);
}

/* 2026-07-28: each input request is put to the host once, by its key. */
static void
answer_input_requests (Follow *follow)
{
  JsonObject *requests = mcp_task_get_input_requests (follow->task);
  McpClientDelegate *delegate = mcp_client_get_delegate (follow->client);
  g_autoptr(GList) keys = NULL;

  if (requests == NULL)
    return;

  keys = json_object_get_members (requests);
  for (GList *l = keys; l != NULL; l = l->next)
    {
      JsonObject *request = mcp_json_get_object (requests, l->data);
      const char *method = mcp_json_get_string (request, "method");
      JsonObject *params = mcp_json_get_object (request, "params");
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonObject) marked = NULL;
      InputCall *call;

      if (g_hash_table_contains (follow->answered, l->data))
        continue;
      g_hash_table_add (follow->answered, g_strdup (l->data));

      if (method == NULL)
        error = g_error_new (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                             "the task's input request “%s” has no method",
                             (const char *) l->data);
      else if (delegate == NULL)
        error = g_error_new (MCP_ERROR, MCP_ERROR_METHOD_NOT_FOUND,
                             "the task asks for “%s”, and nothing here can answer", method);
      else
        error = mcp_client_check_incoming (follow->client, method, params);

      if (error != NULL)
        {
          follow_return (follow, NULL, g_steal_pointer (&error));
          return;
        }

      /* The request came with the task's status, so it is the task's own:
       * marked as 2025-11-25 marks it, whatever the server put there. */
      if (params != NULL)
        {
          marked = mcp_client_copy_object (params);
          mcp_related_task_set_id (marked, mcp_task_get_id (follow->task));
          params = marked;
        }

      call = g_new0 (InputCall, 1);
      call->gtask = g_object_ref (follow->gtask);
      call->key = g_strdup (l->data);
      call->method = g_strdup (method);
      follow->inputs_waiting++;

      if (g_str_equal (method, "sampling/createMessage"))
        mcp_client_delegate_create_message_async (delegate, follow->client, params,
                                                  follow->cancellable, input_done_cb, call);
      else if (g_str_equal (method, "elicitation/create"))
        mcp_client_delegate_elicit_async (delegate, follow->client, params,
                                          follow->cancellable, input_done_cb, call);
      else
        mcp_client_delegate_list_roots_async (delegate, follow->client, follow->cancellable,
                                              input_done_cb, call);
    }
}

/* Acts on the task's state as last seen; TRUE when the task ended. */
static gboolean
follow_act (Follow *follow)
{
  switch (mcp_task_get_status (follow->task))
    {
    case MCP_TASK_WORKING:
      return FALSE;

    case MCP_TASK_INPUT_REQUIRED:
      /* 2025-11-25: the server's requests come while tasks/result waits. */
      if (follow->modern)
        answer_input_requests (follow);
      else
        fetch_result (follow);
      return follow->done;

    case MCP_TASK_COMPLETED:
      if (!follow->modern)
        fetch_result (follow);
      else if (mcp_task_get_inline_result (follow->task) != NULL)
        follow_return (follow, mcp_task_get_inline_result (follow->task), NULL);
      else
        follow_return (follow, NULL,
                       g_error_new (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                    "the server says task “%s” completed, but sent no result",
                                    mcp_task_get_id (follow->task)));
      return TRUE;

    case MCP_TASK_FAILED:
      if (!follow->modern)
        fetch_result (follow);
      else
        follow_fail_from_inline (follow);
      return TRUE;

    case MCP_TASK_CANCELLED:
      {
        const char *message = mcp_task_get_status_message (follow->task);

        follow_return (follow, NULL,
                       g_error_new (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                    "the task was cancelled%s%s",
                                    message ? ": " : "", message ? message : ""));
        return TRUE;
      }

    case MCP_TASK_FORGOTTEN:
    default:
      return TRUE;
    }
}

static void
poll_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) gtask = user_data;
  Follow *follow = g_task_get_task_data (gtask);
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(GError) error = NULL;
  McpTaskStatus before;
  g_autofree char *message_before = NULL;

  if (follow->done)
    return;
  follow->get_outstanding = FALSE;

  reply = mcp_client_request_finish (MCP_CLIENT (object), result, &error);
  if (reply == NULL)
    {
      /* "Invalid params" for a task id is how a server says it does not
       * know the task (any more): it expired, or the server restarted. */
      if (g_error_matches (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS) ||
          g_error_matches (error, MCP_ERROR, MCP_ERROR_RESOURCE_NOT_FOUND))
        {
          mcp_task_mark_forgotten (follow->task, error->message);
          follow_return (follow, NULL, g_steal_pointer (&error));
        }
      else if (g_error_matches (error, MCP_ERROR, MCP_ERROR_TIMEOUT) &&
               ++follow->failures < MAX_POLL_FAILURES)
        follow_schedule (follow);
      else
        follow_return (follow, NULL, g_steal_pointer (&error));
      return;
    }

  follow->failures = 0;
  before = mcp_task_get_status (follow->task);
  message_before = g_strdup (mcp_task_get_status_message (follow->task));

  if (!mcp_task_update (follow->task, reply, &error))
    {
      follow_return (follow, NULL, g_steal_pointer (&error));
      return;
    }

  /* Something moved: back to the server's pace. */
  if (before != mcp_task_get_status (follow->task) ||
      g_strcmp0 (message_before, mcp_task_get_status_message (follow->task)) != 0)
    follow->interval = 0;

  if (!follow_act (follow))
    follow_schedule (follow);
}

static gboolean
poll_timeout_cb (gpointer user_data)
{
  Follow *follow = user_data;

  follow->timer_id = 0;
  follow_poll_now (follow);
  return G_SOURCE_REMOVE;
}

static void
follow_poll_now (Follow *follow)
{
  follow_request (follow, "tasks/get", &follow->get_outstanding, poll_cb);
}

/* The next poll: at the server's interval after a change, then half as
 * often again each time nothing changed, up to a ceiling. */
static void
follow_schedule (Follow *follow)
{
  guint server = mcp_task_get_poll_interval (follow->task);
  guint floor = CLAMP (server > 0 ? server : DEFAULT_POLL_MS, MIN_POLL_MS, MAX_SERVER_POLL_MS);

  if (follow->done)
    return;

  if (follow->interval == 0)
    follow->interval = floor;
  else
    follow->interval = MIN (follow->interval + follow->interval / 2,
                            MAX (floor, MAX_BACKOFF_MS));

  g_clear_handle_id (&follow->timer_id, g_source_remove);
  follow->timer_id = g_timeout_add (follow->interval, poll_timeout_cb, follow);
  g_source_set_static_name (g_main_context_find_source_by_id (NULL, follow->timer_id),
                            "[mcp] task poll");
}

static void
task_changed_cb (McpTask *task,
                 gpointer user_data)
{
  Follow *follow = user_data;

  if (follow->progress_func != NULL && !follow->done)
    follow->progress_func (mcp_task_get_progress (task), mcp_task_get_total (task),
                           mcp_task_get_status_message (task), follow->progress_data);
}

static void
status_notification_cb (McpClient  *client,
                        const char *method,
                        JsonObject *params,
                        gpointer    user_data)
{
  TasksState *state = get_state (client);
  const char *id = mcp_json_get_string (params, "taskId");
  Follow *follow = id ? g_hash_table_lookup (state->by_id, id) : NULL;
  g_autoptr(GError) error = NULL;

  if (follow == NULL || follow->done)
    return;

  if (!mcp_task_update (follow->task, params, &error))
    {
      g_debug ("ignored a status notification: %s", error->message);
      return;
    }

  follow->interval = 0;
  if (!follow_act (follow))
    follow_schedule (follow);
}

static gboolean
caller_cancelled_idle_cb (gpointer user_data)
{
  g_autoptr(GTask) gtask = user_data;
  Follow *follow = g_task_get_task_data (gtask);

  if (follow->done)
    return G_SOURCE_REMOVE;

  /* Stopping the wait stops the work: a task nobody follows any more
   * would only cost the server. */
  mcp_client_task_request (follow->client, "tasks/cancel", mcp_task_get_id (follow->task),
                           NULL, NULL, NULL);
  follow_return (follow, NULL, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                    "the task was cancelled"));
  return G_SOURCE_REMOVE;
}

static void
caller_cancelled_cb (GCancellable *cancellable,
                     gpointer      user_data)
{
  Follow *follow = user_data;

  if (follow->done)
    return;

  /* The handler may run inside g_cancellable_connect(); act on the loop. */
  g_idle_add (caller_cancelled_idle_cb, g_object_ref (follow->gtask));
}

static void
follow_start (McpClient           *self,
              McpTask             *task,
              McpProgressFunc      progress_func,
              gpointer             progress_data,
              GDestroyNotify       progress_destroy,
              GCancellable        *cancellable,
              gpointer             source_tag,
              GAsyncReadyCallback  callback,
              gpointer             user_data)
{
  TasksState *state = get_state (self);
  g_autoptr(GTask) gtask = g_task_new (self, NULL, callback, user_data);
  Follow *follow;
  guint position;

  g_task_set_source_tag (gtask, source_tag);

  follow = g_new0 (Follow, 1);
  follow->client = g_object_ref (self);
  follow->task = g_object_ref (task);
  follow->gtask = g_object_ref (gtask);   /* dropped by follow_return() */
  follow->modern = mcp_client_is_stateless (self);
  follow->answered = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  follow->responses = json_object_new ();
  follow->cancellable = g_cancellable_new ();
  follow->progress_func = progress_func;
  follow->progress_data = progress_data;
  follow->progress_destroy = progress_destroy;
  follow->changed_id = g_signal_connect (task, "changed", G_CALLBACK (task_changed_cb), follow);
  g_task_set_task_data (gtask, follow, (GDestroyNotify) follow_free);

  g_hash_table_insert (state->by_id, (gpointer) mcp_task_get_id (task), follow);
  if (!g_list_store_find (state->followed, task, &position))
    g_list_store_append (state->followed, task);

  if (cancellable != NULL)
    {
      follow->caller_cancellable = g_object_ref (cancellable);
      follow->caller_cancelled_id = g_cancellable_connect (cancellable,
                                                           G_CALLBACK (caller_cancelled_cb),
                                                           follow, NULL);
    }

  /* The caller hears of the state the task starts in. */
  task_changed_cb (task, follow);

  /* A task that comes back already ended (a resumed one, or one the
   * server finished at once) is acted on without waiting. */
  if (mcp_task_get_created_at (task) == NULL)
    follow_poll_now (follow);
  else if (!follow_act (follow))
    follow_schedule (follow);
}

/**
 * mcp_client_follow_task_async:
 * @task: a task this client started, or one made with mcp_task_new()
 *   from an id kept from before (to resume it)
 *
 * Polls @task until it ends, answers the input it asks for through the
 * delegate, and fetches its result; @task is updated on the way.
 * Cancelling @cancellable cancels the task on the server as well.
 */
void
mcp_client_follow_task_async (McpClient           *self,
                              McpTask             *task,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (MCP_IS_TASK (task));

  follow_start (self, task, NULL, NULL, NULL, cancellable, mcp_client_follow_task_async,
                callback, user_data);
}

/**
 * mcp_client_follow_task_finish:
 *
 * Returns: (transfer full): the tool's result (which may be a tool error),
 *   or %NULL with the error the call ended with; a task the server forgot
 *   is marked %MCP_TASK_FORGOTTEN
 */
McpToolResult *
mcp_client_follow_task_finish (McpClient     *self,
                               GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Calling and following in one */

typedef struct {
  gpointer        source_tag;
  McpProgressFunc progress_func;
  gpointer        progress_data;
  GDestroyNotify  progress_destroy;
  GCancellable   *cancellable;
} CallData;

static void
call_data_free (CallData *data)
{
  if (data->progress_destroy != NULL)
    data->progress_destroy (data->progress_data);
  g_clear_object (&data->cancellable);
  g_free (data);
}

static void
call_followed_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) gtask = user_data;
  g_autoptr(McpToolResult) tool_result = NULL;
  GError *error = NULL;

  tool_result = g_task_propagate_pointer (G_TASK (result), &error);
  if (tool_result == NULL)
    g_task_return_error (gtask, error);
  else
    g_task_return_pointer (gtask, json_object_ref (mcp_tool_result_get_json (tool_result)),
                           (GDestroyNotify) json_object_unref);
}

static void
call_started_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  McpClient *self = MCP_CLIENT (object);
  g_autoptr(GTask) gtask = user_data;
  CallData *data = g_task_get_task_data (gtask);
  g_autoptr(McpToolResult) immediate = NULL;
  g_autoptr(McpTask) task = NULL;
  GError *error = NULL;

  task = mcp_client_start_task_finish (self, result, &immediate, &error);
  if (error != NULL)
    {
      g_task_return_error (gtask, error);
      return;
    }

  if (task == NULL)
    {
      g_task_return_pointer (gtask, json_object_ref (mcp_tool_result_get_json (immediate)),
                             (GDestroyNotify) json_object_unref);
      return;
    }

  follow_start (self, task, data->progress_func, data->progress_data,
                g_steal_pointer (&data->progress_destroy), data->cancellable,
                mcp_client_follow_task_async, call_followed_cb, g_object_ref (gtask));
  data->progress_func = NULL;
}

/* The result is the tool result's JSON, as mcp_client_call_tool_finish()
 * expects it under @source_tag. */
static void
call_as_task (McpClient           *self,
              const char          *name,
              JsonObject          *arguments,
              gboolean             ask,
              McpProgressFunc      progress_func,
              gpointer             progress_data,
              GDestroyNotify       progress_destroy,
              GCancellable        *cancellable,
              gpointer             source_tag,
              GAsyncReadyCallback  callback,
              gpointer             user_data)
{
  g_autoptr(GTask) gtask = g_task_new (self, cancellable, callback, user_data);
  CallData *data = g_new0 (CallData, 1);

  g_task_set_source_tag (gtask, source_tag);
  data->source_tag = source_tag;
  data->progress_func = progress_func;
  data->progress_data = progress_data;
  data->progress_destroy = progress_destroy;
  data->cancellable = cancellable ? g_object_ref (cancellable) : NULL;
  g_task_set_task_data (gtask, data, (GDestroyNotify) call_data_free);

  start_task (self, name, arguments, ask, cancellable, mcp_client_start_task_async,
              call_started_cb, g_steal_pointer (&gtask));
}

/**
 * mcp_client_call_tool_as_task_async:
 *
 * Calls a tool as a task (a tool whose `taskSupport` is "optional" or
 * "required"), follows it and returns its result. In the 2026-07-28 era
 * the server decides whether it becomes a task.
 */
void
mcp_client_call_tool_as_task_async (McpClient           *self,
                                    const char          *name,
                                    JsonObject          *arguments,
                                    McpProgressFunc      progress_func,
                                    gpointer             progress_data,
                                    GDestroyNotify       progress_destroy,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (name != NULL);

  if (!mcp_client_tool_allows_task (self, name))
    {
      if (progress_destroy != NULL)
        progress_destroy (progress_data);
      if (mcp_client_supports_tasks (self))
        g_task_report_new_error (self, callback, user_data, mcp_client_call_tool_as_task_async,
                                 MCP_ERROR, MCP_ERROR_CAPABILITY_MISSING,
                                 "the tool “%s” does not run as a task", name);
      else
        g_task_report_new_error (self, callback, user_data, mcp_client_call_tool_as_task_async,
                                 MCP_ERROR, MCP_ERROR_CAPABILITY_MISSING,
                                 "the server does not run tool calls as tasks");
      return;
    }

  call_as_task (self, name, arguments, TRUE, progress_func, progress_data, progress_destroy,
                cancellable, mcp_client_call_tool_as_task_async, callback, user_data);
}

McpToolResult *
mcp_client_call_tool_as_task_finish (McpClient     *self,
                                     GAsyncResult  *result,
                                     GError       **error)
{
  g_autoptr(JsonObject) reply = NULL;

  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  reply = g_task_propagate_pointer (G_TASK (result), error);
  return reply ? mcp_tool_result_new (reply) : NULL;
}

typedef struct {
  char            *name;
  JsonObject      *arguments;
  McpProgressFunc  progress_func;
  gpointer         progress_data;
  GDestroyNotify   progress_destroy;
} RouteData;

static void
route_data_free (RouteData *data)
{
  if (data->progress_destroy != NULL)
    data->progress_destroy (data->progress_data);
  g_clear_pointer (&data->arguments, json_object_unref);
  g_free (data->name);
  g_free (data);
}

/* The routed call's answer, from tools/call or from the task that ran it:
 * either way a GTask of this client holding the tool result's JSON. */
static void
route_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) gtask = user_data;
  GError *error = NULL;
  JsonObject *reply = g_task_propagate_pointer (G_TASK (result), &error);

  if (reply == NULL)
    g_task_return_error (gtask, error);
  else
    g_task_return_pointer (gtask, reply, (GDestroyNotify) json_object_unref);
}

static void
route_listed_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  McpClient *self = MCP_CLIENT (object);
  g_autoptr(GTask) gtask = user_data;
  RouteData *data = g_task_get_task_data (gtask);
  g_autoptr(GPtrArray) tools = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) params = NULL;
  GDestroyNotify destroy = g_steal_pointer (&data->progress_destroy);

  /* Without the list, the call goes as it is: the server says no if it
   * must. */
  tools = mcp_client_list_finish (self, result, &error);

  if (mcp_client_tool_needs_task (self, data->name) ||
      (mcp_client_get_long_running (self, data->name) &&
       mcp_client_tool_allows_task (self, data->name)))
    {
      call_as_task (self, data->name, data->arguments, TRUE, data->progress_func,
                    data->progress_data, destroy, g_task_get_cancellable (gtask),
                    mcp_client_call_tool_as_task_async, route_done_cb, g_object_ref (gtask));
      return;
    }

  params = mcp_client_new_tool_call_params (data->name, data->arguments);
  mcp_client_request_async (self, "tools/call", params, data->progress_func, data->progress_data,
                            destroy, g_task_get_cancellable (gtask), route_done_cb,
                            g_object_ref (gtask));
}

/* A tool call the server would refuse without a task (2025-11-25 "required")
 * or may answer with one (the extension) is followed to its end, so that
 * every caller of mcp_client_call_tool_async() gets a result either way. */
gboolean
mcp_client_tasks_route_call (McpClient           *self,
                             const char          *name,
                             JsonObject          *arguments,
                             McpProgressFunc      progress_func,
                             gpointer             progress_data,
                             GDestroyNotify       progress_destroy,
                             GCancellable        *cancellable,
                             gpointer             source_tag,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  gboolean modern = mcp_client_is_stateless (self);
  g_autoptr(McpTool) tool = NULL;

  if (!mcp_client_supports_tasks (self))
    return FALSE;

  /* Whether a 2025-11-25 tool needs a task is in the tool list; a call
   * made before the list arrived fetches it first. */
  if (!modern && (tool = find_tool (self, name)) == NULL)
    {
      RouteData *data = g_new0 (RouteData, 1);
      GTask *gtask = g_task_new (self, cancellable, callback, user_data);

      g_task_set_source_tag (gtask, source_tag);
      data->name = g_strdup (name);
      data->arguments = arguments ? json_object_ref (arguments) : NULL;
      data->progress_func = progress_func;
      data->progress_data = progress_data;
      data->progress_destroy = progress_destroy;
      g_task_set_task_data (gtask, data, (GDestroyNotify) route_data_free);
      mcp_client_list_async (self, "tools/list", cancellable, route_listed_cb, gtask);
      return TRUE;
    }

  if (!modern && !g_str_equal (mcp_tool_get_task_support (tool), "required") &&
      !(g_str_equal (mcp_tool_get_task_support (tool), "optional") &&
        mcp_client_get_long_running (self, name)))
    return FALSE;

  call_as_task (self, name, arguments, !modern, progress_func, progress_data, progress_destroy,
                cancellable, source_tag, callback, user_data);
  return TRUE;
}

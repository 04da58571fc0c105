/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-cli"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-client-tasks.h"
#include "mcp-error.h"

#include "steward-cli-format.h"
#include "steward-cli-output.h"
#include "steward-cli-tasks.h"

/*
 * `tools call --task` and `tasks list|get|cancel|result`: the task commands
 * print what they found and give the exit status; errors go back to the
 * runner, which says them the way it says every other.
 */

typedef struct {
  McpClient         *client;
  StewardCliOptions *options;
  char              *last_message;
  GListModel        *followed;
  gulong             followed_id;
} RunData;

static void
run_data_free (RunData *data)
{
  g_clear_signal_handler (&data->followed_id, data->followed);
  g_clear_object (&data->followed);
  g_object_unref (data->client);
  g_free (data->last_message);
  g_free (data);
}

static JsonObject *
task_to_json (McpTask *task)
{
  JsonObject *object = json_object_new ();

  json_object_set_string_member (object, "taskId", mcp_task_get_id (task));
  json_object_set_string_member (object, "status",
                                 mcp_task_status_to_string (mcp_task_get_status (task)));
  if (mcp_task_get_status_message (task) != NULL)
    json_object_set_string_member (object, "statusMessage", mcp_task_get_status_message (task));
  if (mcp_task_get_created_at (task) != NULL)
    json_object_set_string_member (object, "createdAt", mcp_task_get_created_at (task));
  if (mcp_task_get_last_updated_at (task) != NULL)
    json_object_set_string_member (object, "lastUpdatedAt", mcp_task_get_last_updated_at (task));
  if (mcp_task_get_ttl (task) >= 0)
    json_object_set_int_member (object, "ttl", mcp_task_get_ttl (task));
  else
    json_object_set_null_member (object, "ttl");
  if (mcp_task_get_poll_interval (task) > 0)
    json_object_set_int_member (object, "pollInterval", mcp_task_get_poll_interval (task));

  return object;
}

static void
print_task (RunData *data,
            McpTask *task)
{
  g_autofree char *id = steward_cli_sanitize (mcp_task_get_id (task), FALSE);
  g_autofree char *message = steward_cli_sanitize (mcp_task_get_status_message (task), FALSE);
  g_autofree char *text = NULL;

  if (data->options->json)
    {
      g_autoptr(JsonObject) object = task_to_json (task);

      steward_cli_print_json (object, TRUE);
      return;
    }

  /* The id, the status as the protocol names it, the server's message:
   * words for scripts, not translated. */
  text = g_strdup_printf ("%s  %s  %s\n", id,
                          mcp_task_status_to_string (mcp_task_get_status (task)),
                          message ? message : "");
  steward_cli_print_out (text);
}

static int
print_tool_result (RunData       *data,
                   McpToolResult *result)
{
  steward_cli_print_tool_result (result, data->options->json);

  return mcp_tool_result_get_is_error (result) ? STEWARD_CLI_EXIT_TOOL_ERROR
                                               : STEWARD_CLI_EXIT_OK;
}

static void
return_result (GTask         *gtask,
               McpToolResult *result,
               GError        *error)
{
  RunData *data = g_task_get_task_data (gtask);

  if (result == NULL)
    g_task_return_error (gtask, error);
  else
    g_task_return_int (gtask, print_tool_result (data, result));
}

static void
task_changed_cb (McpTask *task,
                 RunData *data)
{
  const char *message = mcp_task_get_status_message (task);
  g_autofree char *clean = NULL;
  g_autofree char *line = NULL;

  /* Each new status message once, on stderr, so that the output stays the
   * result alone. */
  if (message == NULL || g_strcmp0 (message, data->last_message) == 0)
    return;

  g_free (data->last_message);
  data->last_message = g_strdup (message);
  clean = steward_cli_sanitize (message, FALSE);
  line = g_strdup_printf ("[task] %s\n", clean);
  steward_cli_print_err (line);
}

/* The client follows the task it starts, so the task shows up in its list
 * of followed tasks as soon as the server created it. */
static void
followed_changed_cb (GListModel *followed,
                     guint       position,
                     guint       removed,
                     guint       added,
                     RunData    *data)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(McpTask) task = g_list_model_get_item (followed, i);
      g_autofree char *id = steward_cli_sanitize (mcp_task_get_id (task), FALSE);
      g_autofree char *line = NULL;

      /* The id goes to stderr at once: with it, `tasks get` and `tasks
       * result` find the task again (on a server that keeps it). */
      line = g_strdup_printf (_("[task] started %s\n"), id);
      steward_cli_print_err (line);

      g_signal_connect (task, "changed", G_CALLBACK (task_changed_cb), data);
      task_changed_cb (task, data);
    }
}

static void
called_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) gtask = user_data;
  GError *error = NULL;
  g_autoptr(McpToolResult) tool_result = NULL;

  tool_result = mcp_client_call_tool_as_task_finish (MCP_CLIENT (object), result, &error);
  return_result (gtask, tool_result, error);
}

static void
call_as_task (GTask *gtask)
{
  RunData *data = g_task_get_task_data (gtask);

  data->followed = g_object_ref (mcp_client_get_followed_tasks (data->client));
  data->followed_id = g_signal_connect (data->followed, "items-changed",
                                        G_CALLBACK (followed_changed_cb), data);
  mcp_client_call_tool_as_task_async (data->client, data->options->operand,
                                      data->options->arguments, NULL, NULL, NULL,
                                      g_task_get_cancellable (gtask), called_cb,
                                      g_object_ref (gtask));
}

static void
tools_listed_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  McpClient *client = MCP_CLIENT (object);
  g_autoptr(GTask) gtask = user_data;
  RunData *data = g_task_get_task_data (gtask);
  g_autoptr(GPtrArray) tools = NULL;
  GError *error = NULL;

  tools = mcp_client_list_finish (client, result, &error);
  if (tools == NULL)
    {
      g_task_return_error (gtask, error);
      return;
    }

  if (!mcp_client_supports_tasks (client))
    g_task_return_new_error (gtask, MCP_ERROR, MCP_ERROR_CAPABILITY_MISSING,
                             _("the server does not run tool calls as tasks"));
  else if (!mcp_client_tool_allows_task (client, data->options->operand))
    g_task_return_new_error (gtask, MCP_ERROR, MCP_ERROR_CAPABILITY_MISSING,
                             _("the tool “%s” does not run as a task"), data->options->operand);
  else
    call_as_task (gtask);
}

static void
listed_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) gtask = user_data;
  RunData *data = g_task_get_task_data (gtask);
  g_autoptr(GPtrArray) tasks = NULL;
  GError *error = NULL;

  tasks = mcp_client_list_tasks_finish (MCP_CLIENT (object), result, &error);
  if (tasks == NULL)
    {
      g_task_return_error (gtask, error);
      return;
    }

  if (data->options->json)
    {
      g_autoptr(JsonObject) list = json_object_new ();
      JsonArray *array = json_array_new ();

      for (guint i = 0; i < tasks->len; i++)
        json_array_add_object_element (array, task_to_json (g_ptr_array_index (tasks, i)));
      json_object_set_array_member (list, "tasks", array);
      steward_cli_print_json (list, TRUE);
    }
  else
    for (guint i = 0; i < tasks->len; i++)
      print_task (data, g_ptr_array_index (tasks, i));

  g_task_return_int (gtask, STEWARD_CLI_EXIT_OK);
}

static void
got_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  g_autoptr(GTask) gtask = user_data;
  g_autoptr(McpTask) task = NULL;
  GError *error = NULL;

  task = mcp_client_get_task_finish (MCP_CLIENT (object), result, &error);
  if (task == NULL)
    {
      g_task_return_error (gtask, error);
      return;
    }

  print_task (g_task_get_task_data (gtask), task);
  g_task_return_int (gtask, STEWARD_CLI_EXIT_OK);
}

static void
cancelled_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) gtask = user_data;
  RunData *data = g_task_get_task_data (gtask);
  GError *error = NULL;

  if (!mcp_client_cancel_task_finish (MCP_CLIENT (object), result, &error))
    {
      g_task_return_error (gtask, error);
      return;
    }

  /* Cancelling is a request: the server may still let the task end. */
  mcp_client_get_task_async (data->client, data->options->operand,
                             g_task_get_cancellable (gtask), got_cb, g_object_ref (gtask));
}

static void
result_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) gtask = user_data;
  g_autoptr(McpToolResult) tool_result = NULL;
  GError *error = NULL;

  tool_result = mcp_client_get_task_result_finish (MCP_CLIENT (object), result, &error);
  return_result (gtask, tool_result, error);
}

/**
 * steward_cli_tasks_run_async:
 *
 * Runs `tools call --task` or one of the `tasks` commands on a connected
 * client.
 */
void
steward_cli_tasks_run_async (McpClient           *client,
                             StewardCliOptions   *options,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) gtask = g_task_new (NULL, cancellable, callback, user_data);
  RunData *data = g_new0 (RunData, 1);

  data->client = g_object_ref (client);
  data->options = options;
  g_task_set_task_data (gtask, data, (GDestroyNotify) run_data_free);

  switch (options->command)
    {
    case STEWARD_CLI_COMMAND_TOOLS_CALL:
      /* Whether the tool may run as a task is in the tool list. */
      mcp_client_list_async (client, "tools/list", cancellable, tools_listed_cb,
                             g_steal_pointer (&gtask));
      break;

    case STEWARD_CLI_COMMAND_TASKS_LIST:
      mcp_client_list_tasks_async (client, cancellable, listed_cb, g_steal_pointer (&gtask));
      break;

    case STEWARD_CLI_COMMAND_TASKS_GET:
      mcp_client_get_task_async (client, options->operand, cancellable, got_cb,
                                 g_steal_pointer (&gtask));
      break;

    case STEWARD_CLI_COMMAND_TASKS_CANCEL:
      mcp_client_cancel_task_async (client, options->operand, cancellable, cancelled_cb,
                                    g_steal_pointer (&gtask));
      break;

    case STEWARD_CLI_COMMAND_TASKS_RESULT:
      mcp_client_get_task_result_async (client, options->operand, cancellable, result_cb,
                                        g_steal_pointer (&gtask));
      break;

    default:
      g_assert_not_reached ();
    }
}

/**
 * steward_cli_tasks_run_finish:
 *
 * Returns: the exit status, or -1 with the error to report
 */
int
steward_cli_tasks_run_finish (GAsyncResult  *result,
                              GError       **error)
{
  g_autoptr(GError) local_error = NULL;
  int code;

  code = (int) g_task_propagate_int (G_TASK (result), &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return -1;
    }

  return code;
}

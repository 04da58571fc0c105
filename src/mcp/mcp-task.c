/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-task"

#include "config.h"

#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-task.h"

/* A status message longer than this is cut: it is shown in one row. */
#define MAX_STATUS_MESSAGE_CHARS 1024

struct _McpTask
{
  GObject        parent_instance;

  char          *id;
  char          *tool_name;
  McpTaskStatus  status;
  char          *status_message;
  char          *created_at;
  char          *last_updated_at;
  gint64         ttl;
  guint          poll_interval;
  double         progress;
  double         total;
  JsonObject    *input_requests;
  JsonObject    *inline_result;
  JsonObject    *inline_error;
  JsonObject    *result;
  GError        *error;
};

G_DEFINE_FINAL_TYPE (McpTask, mcp_task, G_TYPE_OBJECT)

enum {
  SIGNAL_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const char * const status_names[] = {
  [MCP_TASK_WORKING]        = "working",
  [MCP_TASK_INPUT_REQUIRED] = "input_required",
  [MCP_TASK_COMPLETED]      = "completed",
  [MCP_TASK_FAILED]         = "failed",
  [MCP_TASK_CANCELLED]      = "cancelled",
  [MCP_TASK_FORGOTTEN]      = "forgotten",
};

static void
mcp_task_finalize (GObject *object)
{
  McpTask *self = MCP_TASK (object);

  g_free (self->id);
  g_free (self->tool_name);
  g_free (self->status_message);
  g_free (self->created_at);
  g_free (self->last_updated_at);
  g_clear_pointer (&self->input_requests, json_object_unref);
  g_clear_pointer (&self->inline_result, json_object_unref);
  g_clear_pointer (&self->inline_error, json_object_unref);
  g_clear_pointer (&self->result, json_object_unref);
  g_clear_error (&self->error);

  G_OBJECT_CLASS (mcp_task_parent_class)->finalize (object);
}

static void
mcp_task_class_init (McpTaskClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = mcp_task_finalize;

  /**
   * McpTask::changed:
   *
   * Something about the task changed: its status, message, progress or
   * outcome.
   */
  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass),
                                          G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                          G_TYPE_NONE, 0);
}

static void
mcp_task_init (McpTask *self)
{
  self->ttl = -1;
  self->total = -1;
}

McpTask *
mcp_task_new (const char *task_id,
              const char *tool_name)
{
  McpTask *self;

  g_return_val_if_fail (task_id != NULL, NULL);

  self = g_object_new (MCP_TYPE_TASK, NULL);
  self->id = g_strdup (task_id);
  self->tool_name = g_strdup (tool_name);

  return self;
}

/* The Task of 2025-11-25 comes wrapped in "task" when it is created; the
 * one of the 2026-07-28 extension is the result itself. */
static JsonObject *
task_object (JsonObject *json)
{
  JsonObject *inner = mcp_json_get_object (json, "task");

  return inner ? inner : json;
}

static void
replace_object (JsonObject **slot,
                JsonObject  *value)
{
  g_clear_pointer (slot, json_object_unref);
  if (value != NULL)
    *slot = json_object_ref (value);
}

/**
 * mcp_task_new_from_json:
 * @json: a CreateTaskResult or a Task, of either era
 *
 * Returns: (transfer full): the task, or %NULL when @json is no task
 */
McpTask *
mcp_task_new_from_json (JsonObject  *json,
                        const char  *tool_name,
                        GError     **error)
{
  const char *id = mcp_json_get_string (task_object (json), "taskId");
  g_autoptr(McpTask) self = NULL;

  if (id == NULL || *id == '\0')
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           "the server's task has no “taskId”");
      return NULL;
    }

  self = mcp_task_new (id, tool_name);
  if (!mcp_task_update (self, json, error))
    return NULL;

  return g_steal_pointer (&self);
}

/**
 * mcp_task_update:
 * @json: a Task of either era, as tasks/get or a status notification
 *   gives it
 *
 * Takes the server's view of the task. A task already finished keeps its
 * status: a server may not move a task out of a terminal state.
 */
gboolean
mcp_task_update (McpTask     *self,
                 JsonObject  *json,
                 GError     **error)
{
  JsonObject *task;
  const char *id;
  const char *status_name;
  const char *message;
  McpTaskStatus status;
  JsonNode *ttl;

  g_return_val_if_fail (MCP_IS_TASK (self), FALSE);
  g_return_val_if_fail (json != NULL, FALSE);

  task = task_object (json);
  id = mcp_json_get_string (task, "taskId");
  status_name = mcp_json_get_string (task, "status");

  if (id != NULL && g_strcmp0 (id, self->id) != 0)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   "the server answered for task “%s” when asked about “%s”", id, self->id);
      return FALSE;
    }
  if (!mcp_task_status_from_string (status_name, &status) || status == MCP_TASK_FORGOTTEN)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   "the server gave task “%s” the unknown status “%s”",
                   self->id, status_name ? status_name : "(none)");
      return FALSE;
    }

  if (mcp_task_is_terminal (self) && status != self->status)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   "the server moved task “%s” from “%s” to “%s”, but a finished task "
                   "stays finished", self->id, status_names[self->status], status_name);
      return FALSE;
    }

  self->status = status;

  message = mcp_json_get_string (task, "statusMessage");
  g_free (self->status_message);
  if (message != NULL && g_utf8_strlen (message, -1) > MAX_STATUS_MESSAGE_CHARS)
    self->status_message = g_utf8_substring (message, 0, MAX_STATUS_MESSAGE_CHARS);
  else
    self->status_message = g_strdup (message);

  if (mcp_json_get_string (task, "createdAt") != NULL)
    {
      g_free (self->created_at);
      self->created_at = g_strdup (mcp_json_get_string (task, "createdAt"));
    }
  if (mcp_json_get_string (task, "lastUpdatedAt") != NULL)
    {
      g_free (self->last_updated_at);
      self->last_updated_at = g_strdup (mcp_json_get_string (task, "lastUpdatedAt"));
    }

  /* 2025-11-25 says ttl and pollInterval, the extension ttlMs and
   * pollIntervalMs; null means unlimited. */
  ttl = json_object_get_member (task, "ttlMs");
  if (ttl == NULL)
    ttl = json_object_get_member (task, "ttl");
  if (ttl != NULL && JSON_NODE_HOLDS_NULL (ttl))
    self->ttl = -1;
  else if (mcp_json_has_number (task, "ttlMs"))
    self->ttl = (gint64) mcp_json_get_number (task, "ttlMs", -1);
  else if (mcp_json_has_number (task, "ttl"))
    self->ttl = (gint64) mcp_json_get_number (task, "ttl", -1);

  if (mcp_json_has_number (task, "pollIntervalMs"))
    self->poll_interval = (guint) CLAMP (mcp_json_get_number (task, "pollIntervalMs", 0),
                                         0, G_MAXUINT);
  else if (mcp_json_has_number (task, "pollInterval"))
    self->poll_interval = (guint) CLAMP (mcp_json_get_number (task, "pollInterval", 0),
                                         0, G_MAXUINT);

  replace_object (&self->input_requests,
                  status == MCP_TASK_INPUT_REQUIRED ? mcp_json_get_object (task, "inputRequests")
                                                    : NULL);
  replace_object (&self->inline_result, mcp_json_get_object (task, "result"));
  replace_object (&self->inline_error, mcp_json_get_object (task, "error"));

  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
  return TRUE;
}

void
mcp_task_set_progress (McpTask    *self,
                       double      progress,
                       double      total,
                       const char *message)
{
  g_return_if_fail (MCP_IS_TASK (self));

  self->progress = progress;
  self->total = total;
  if (message != NULL)
    {
      g_free (self->status_message);
      self->status_message = g_utf8_substring (message, 0, MAX_STATUS_MESSAGE_CHARS);
    }
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

/**
 * mcp_task_set_outcome:
 * @result: (nullable): what the tool call returned
 * @error: (nullable): why there is no result
 *
 * Records how the task ended, as fetched from the server.
 */
void
mcp_task_set_outcome (McpTask      *self,
                      JsonObject   *result,
                      const GError *error)
{
  g_return_if_fail (MCP_IS_TASK (self));

  replace_object (&self->result, result);
  g_clear_error (&self->error);
  if (error != NULL)
    self->error = g_error_copy (error);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

/**
 * mcp_task_mark_forgotten:
 * @reason: what the server said, for the person to read
 *
 * The server no longer knows the task; nothing more will come of it.
 */
void
mcp_task_mark_forgotten (McpTask    *self,
                         const char *reason)
{
  g_return_if_fail (MCP_IS_TASK (self));

  self->status = MCP_TASK_FORGOTTEN;
  g_free (self->status_message);
  self->status_message = g_strdup (reason);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

const char *
mcp_task_get_id (McpTask *self)
{
  g_return_val_if_fail (MCP_IS_TASK (self), NULL);
  return self->id;
}

const char *
mcp_task_get_tool_name (McpTask *self)
{
  g_return_val_if_fail (MCP_IS_TASK (self), NULL);
  return self->tool_name;
}

McpTaskStatus
mcp_task_get_status (McpTask *self)
{
  g_return_val_if_fail (MCP_IS_TASK (self), MCP_TASK_WORKING);
  return self->status;
}

const char *
mcp_task_get_status_message (McpTask *self)
{
  g_return_val_if_fail (MCP_IS_TASK (self), NULL);
  return self->status_message;
}

const char *
mcp_task_get_created_at (McpTask *self)
{
  g_return_val_if_fail (MCP_IS_TASK (self), NULL);
  return self->created_at;
}

const char *
mcp_task_get_last_updated_at (McpTask *self)
{
  g_return_val_if_fail (MCP_IS_TASK (self), NULL);
  return self->last_updated_at;
}

/* Returns: the lifetime in milliseconds, or -1 for unlimited */
gint64
mcp_task_get_ttl (McpTask *self)
{
  g_return_val_if_fail (MCP_IS_TASK (self), -1);
  return self->ttl;
}

/* Returns: the interval the server asks to poll at, or 0 when it gave none */
guint
mcp_task_get_poll_interval (McpTask *self)
{
  g_return_val_if_fail (MCP_IS_TASK (self), 0);
  return self->poll_interval;
}

double
mcp_task_get_progress (McpTask *self)
{
  g_return_val_if_fail (MCP_IS_TASK (self), 0);
  return self->progress;
}

/* Returns: the total the progress counts towards, or a negative number */
double
mcp_task_get_total (McpTask *self)
{
  g_return_val_if_fail (MCP_IS_TASK (self), -1);
  return self->total;
}

/* Returns: (nullable): the extension's outstanding input requests */
JsonObject *
mcp_task_get_input_requests (McpTask *self)
{
  g_return_val_if_fail (MCP_IS_TASK (self), NULL);
  return self->input_requests;
}

/* Returns: (nullable): the extension's result, sent with the task */
JsonObject *
mcp_task_get_inline_result (McpTask *self)
{
  g_return_val_if_fail (MCP_IS_TASK (self), NULL);
  return self->inline_result;
}

/* Returns: (nullable): the extension's JSON-RPC error, sent with the task */
JsonObject *
mcp_task_get_inline_error (McpTask *self)
{
  g_return_val_if_fail (MCP_IS_TASK (self), NULL);
  return self->inline_error;
}

/* Returns: (nullable): the fetched tool result */
JsonObject *
mcp_task_get_result (McpTask *self)
{
  g_return_val_if_fail (MCP_IS_TASK (self), NULL);
  return self->result;
}

/* Returns: (nullable): why the task has no result */
const GError *
mcp_task_get_error (McpTask *self)
{
  g_return_val_if_fail (MCP_IS_TASK (self), NULL);
  return self->error;
}

gboolean
mcp_task_is_terminal (McpTask *self)
{
  g_return_val_if_fail (MCP_IS_TASK (self), FALSE);
  return mcp_task_status_is_terminal (self->status);
}

const char *
mcp_task_status_to_string (McpTaskStatus status)
{
  g_return_val_if_fail (status <= MCP_TASK_FORGOTTEN, NULL);
  return status_names[status];
}

gboolean
mcp_task_status_from_string (const char    *string,
                             McpTaskStatus *status)
{
  if (string == NULL)
    return FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (status_names); i++)
    if (g_str_equal (string, status_names[i]))
      {
        *status = i;
        return TRUE;
      }

  return FALSE;
}

gboolean
mcp_task_status_is_terminal (McpTaskStatus status)
{
  return status == MCP_TASK_COMPLETED || status == MCP_TASK_FAILED ||
         status == MCP_TASK_CANCELLED || status == MCP_TASK_FORGOTTEN;
}

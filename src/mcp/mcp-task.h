/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/**
 * McpTaskStatus:
 * @MCP_TASK_WORKING: the server is at work on it
 * @MCP_TASK_INPUT_REQUIRED: the server waits for an answer from the host
 * @MCP_TASK_COMPLETED: finished; the result can be fetched
 * @MCP_TASK_FAILED: finished with an error
 * @MCP_TASK_CANCELLED: stopped on request
 * @MCP_TASK_FORGOTTEN: the server no longer knows the task (it expired,
 *   or the server restarted); never sent by a server, only concluded here
 *
 * The states of a task, the same in both eras of the protocol.
 */
typedef enum {
  MCP_TASK_WORKING,
  MCP_TASK_INPUT_REQUIRED,
  MCP_TASK_COMPLETED,
  MCP_TASK_FAILED,
  MCP_TASK_CANCELLED,
  MCP_TASK_FORGOTTEN,
} McpTaskStatus;

#define MCP_TYPE_TASK (mcp_task_get_type ())

G_DECLARE_FINAL_TYPE (McpTask, mcp_task, MCP, TASK, GObject)

McpTask        *mcp_task_new                  (const char     *task_id,
                                               const char     *tool_name);
McpTask        *mcp_task_new_from_json        (JsonObject     *json,
                                               const char     *tool_name,
                                               GError        **error);
gboolean        mcp_task_update               (McpTask        *self,
                                               JsonObject     *json,
                                               GError        **error);
void            mcp_task_set_progress         (McpTask        *self,
                                               double          progress,
                                               double          total,
                                               const char     *message);
void            mcp_task_set_outcome          (McpTask        *self,
                                               JsonObject     *result,
                                               const GError   *error);
void            mcp_task_mark_forgotten       (McpTask        *self,
                                               const char     *reason);

const char     *mcp_task_get_id               (McpTask        *self);
const char     *mcp_task_get_tool_name        (McpTask        *self);
McpTaskStatus   mcp_task_get_status           (McpTask        *self);
const char     *mcp_task_get_status_message   (McpTask        *self);
const char     *mcp_task_get_created_at       (McpTask        *self);
const char     *mcp_task_get_last_updated_at  (McpTask        *self);
gint64          mcp_task_get_ttl              (McpTask        *self);
guint           mcp_task_get_poll_interval    (McpTask        *self);
double          mcp_task_get_progress         (McpTask        *self);
double          mcp_task_get_total            (McpTask        *self);
JsonObject     *mcp_task_get_input_requests   (McpTask        *self);
JsonObject     *mcp_task_get_inline_result    (McpTask        *self);
JsonObject     *mcp_task_get_inline_error     (McpTask        *self);
JsonObject     *mcp_task_get_result           (McpTask        *self);
const GError   *mcp_task_get_error            (McpTask        *self);
gboolean        mcp_task_is_terminal          (McpTask        *self);

const char     *mcp_task_status_to_string     (McpTaskStatus   status);
gboolean        mcp_task_status_from_string   (const char     *string,
                                               McpTaskStatus  *status);
gboolean        mcp_task_status_is_terminal   (McpTaskStatus   status);

G_END_DECLS

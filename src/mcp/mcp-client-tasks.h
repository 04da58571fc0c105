/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-client.h"
#include "mcp-task.h"

G_BEGIN_DECLS

/* The 2026-07-28 extension's identifier, in capabilities. */
#define MCP_TASKS_EXTENSION "io.modelcontextprotocol/tasks"

gboolean        mcp_client_supports_tasks          (McpClient            *self);
gboolean        mcp_client_tool_needs_task         (McpClient            *self,
                                                    const char           *tool_name);
gboolean        mcp_client_tool_allows_task        (McpClient            *self,
                                                    const char           *tool_name);
GListModel     *mcp_client_get_followed_tasks      (McpClient            *self);
McpTask        *mcp_client_lookup_task             (McpClient            *self,
                                                    const char           *task_id);
void            mcp_client_set_long_running        (McpClient            *self,
                                                    const char           *tool_name,
                                                    gboolean              long_running);
gboolean        mcp_client_get_long_running        (McpClient            *self,
                                                    const char           *tool_name);

void            mcp_client_start_task_async        (McpClient            *self,
                                                    const char           *name,
                                                    JsonObject           *arguments,
                                                    GCancellable         *cancellable,
                                                    GAsyncReadyCallback   callback,
                                                    gpointer              user_data);
McpTask        *mcp_client_start_task_finish       (McpClient            *self,
                                                    GAsyncResult         *result,
                                                    McpToolResult       **immediate,
                                                    GError              **error);

void            mcp_client_follow_task_async       (McpClient            *self,
                                                    McpTask              *task,
                                                    GCancellable         *cancellable,
                                                    GAsyncReadyCallback   callback,
                                                    gpointer              user_data);
McpToolResult  *mcp_client_follow_task_finish      (McpClient            *self,
                                                    GAsyncResult         *result,
                                                    GError              **error);

void            mcp_client_call_tool_as_task_async (McpClient            *self,
                                                    const char           *name,
                                                    JsonObject           *arguments,
                                                    McpProgressFunc       progress_func,
                                                    gpointer              progress_data,
                                                    GDestroyNotify        progress_destroy,
                                                    GCancellable         *cancellable,
                                                    GAsyncReadyCallback   callback,
                                                    gpointer              user_data);
McpToolResult  *mcp_client_call_tool_as_task_finish (McpClient           *self,
                                                    GAsyncResult         *result,
                                                    GError              **error);

void            mcp_client_get_task_async          (McpClient            *self,
                                                    const char           *task_id,
                                                    GCancellable         *cancellable,
                                                    GAsyncReadyCallback   callback,
                                                    gpointer              user_data);
McpTask        *mcp_client_get_task_finish         (McpClient            *self,
                                                    GAsyncResult         *result,
                                                    GError              **error);
void            mcp_client_cancel_task_async       (McpClient            *self,
                                                    const char           *task_id,
                                                    GCancellable         *cancellable,
                                                    GAsyncReadyCallback   callback,
                                                    gpointer              user_data);
gboolean        mcp_client_cancel_task_finish      (McpClient            *self,
                                                    GAsyncResult         *result,
                                                    GError              **error);
void            mcp_client_list_tasks_async        (McpClient            *self,
                                                    GCancellable         *cancellable,
                                                    GAsyncReadyCallback   callback,
                                                    gpointer              user_data);
GPtrArray      *mcp_client_list_tasks_finish       (McpClient            *self,
                                                    GAsyncResult         *result,
                                                    GError              **error);
void            mcp_client_get_task_result_async   (McpClient            *self,
                                                    const char           *task_id,
                                                    GCancellable         *cancellable,
                                                    GAsyncReadyCallback   callback,
                                                    gpointer              user_data);
McpToolResult  *mcp_client_get_task_result_finish  (McpClient            *self,
                                                    GAsyncResult         *result,
                                                    GError              **error);

G_END_DECLS

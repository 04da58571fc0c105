/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-client.h"

G_BEGIN_DECLS

/* Between mcp-client.c and the files that extend it (tasks). */

GError   *mcp_client_check_input_request   (McpClient           *self,
                                            const char          *method,
                                            JsonObject          *params);
void      mcp_client_request_untimed_async (McpClient           *self,
                                            const char          *method,
                                            JsonObject          *params,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);

/* Implemented in mcp-client-tasks.c. */
gboolean  mcp_client_tasks_take_progress   (McpClient           *self,
                                            JsonObject          *params);
gboolean  mcp_client_tasks_route_call      (McpClient           *self,
                                            const char          *name,
                                            JsonObject          *arguments,
                                            McpProgressFunc      progress_func,
                                            gpointer             progress_data,
                                            GDestroyNotify       progress_destroy,
                                            GCancellable        *cancellable,
                                            gpointer             source_tag,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
void      mcp_client_tasks_add_capabilities (McpClient          *self,
                                            JsonObject          *capabilities);

G_END_DECLS

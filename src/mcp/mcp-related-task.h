/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/*
 * The task a server's request belongs to. In 2025-11-25 a request the
 * server raises while a task runs (elicitation, sampling) carries
 * `_meta["io.modelcontextprotocol/related-task"] = {"taskId": …}`; in the
 * 2026-07-28 tasks extension the client knows the task from the
 * `input_required` status the request came in, and marks the params the
 * same way before the delegate sees them, so that the host reads one place
 * in both eras.
 */

#define MCP_RELATED_TASK_META    "io.modelcontextprotocol/related-task"
/* Task ids are opaque, but one longer than this is not one a host shows. */
#define MCP_RELATED_TASK_ID_MAX  256

gboolean    mcp_related_task_check   (JsonObject  *params,
                                      GError     **error);
const char *mcp_related_task_get_id  (JsonObject  *params);
void        mcp_related_task_set_id  (JsonObject  *params,
                                      const char  *task_id);

G_END_DECLS

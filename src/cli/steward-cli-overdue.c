/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-cli"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-client-tasks.h"
#include "mcp-json.h"

#include "steward-cli-output.h"
#include "steward-cli-overdue.h"

static gboolean
request_overdue_cb (McpClient  *client,
                    gint64      id,
                    const char *method,
                    JsonObject *params,
                    guint       waited_ms,
                    gpointer    user_data)
{
  const char *tool = params != NULL ? mcp_json_get_string (params, "name") : NULL;
  guint timeout_ms = GPOINTER_TO_UINT (user_data);

  if (tool == NULL)
    tool = "?";

  /* Translators: %s is a tool, the first %u the seconds it ran, the
   * second the timeout in milliseconds; keep --timeout as it is. */
  steward_cli_complain (_("“%s” is still running on the server after %u s; stopping it. "
                          "Give --timeout MS (now %u) to wait longer."),
                        tool, waited_ms / 1000, timeout_ms);
  if (mcp_client_tool_allows_task (client, tool) && !mcp_client_tool_needs_task (client, tool))
    /* Translators: keep --task as it is. */
    steward_cli_complain (_("“%s” can run as a task: call it with --task to follow it "
                            "as long as it takes."), tool);

  /* Nobody to ask: the call fails with the timeout. */
  return FALSE;
}

/**
 * steward_cli_overdue_watch:
 * @timeout_ms: the request timeout in force, to name it
 */
void
steward_cli_overdue_watch (McpClient *client,
                           guint      timeout_ms)
{
  g_return_if_fail (MCP_IS_CLIENT (client));

  g_signal_connect (client, "request-overdue", G_CALLBACK (request_overdue_cb),
                    GUINT_TO_POINTER (timeout_ms));
}

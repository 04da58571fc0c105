/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-client.h"

G_BEGIN_DECLS

/* steward-cli has nobody to ask whether to keep waiting for a tool call
 * past its timeout: it says on stderr that the call was still running
 * and how to wait longer, and the call then fails with the timeout
 * (exit status 4), as any other request does. */
void steward_cli_overdue_watch (McpClient *client,
                                guint      timeout_ms);

G_END_DECLS

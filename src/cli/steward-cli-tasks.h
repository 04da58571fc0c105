/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "mcp-client.h"
#include "steward-cli-options.h"

G_BEGIN_DECLS

void  steward_cli_tasks_run_async   (McpClient            *client,
                                     StewardCliOptions    *options,
                                     GCancellable         *cancellable,
                                     GAsyncReadyCallback   callback,
                                     gpointer              user_data);
int   steward_cli_tasks_run_finish  (GAsyncResult         *result,
                                     GError              **error);

G_END_DECLS

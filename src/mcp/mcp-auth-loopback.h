/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define MCP_TYPE_AUTH_LOOPBACK (mcp_auth_loopback_get_type ())

G_DECLARE_FINAL_TYPE (McpAuthLoopback, mcp_auth_loopback, MCP, AUTH_LOOPBACK, GObject)

McpAuthLoopback *mcp_auth_loopback_new          (const char           *done_page,
                                                 GError              **error);
const char      *mcp_auth_loopback_get_redirect_uri (McpAuthLoopback  *self);
void             mcp_auth_loopback_wait_async   (McpAuthLoopback      *self,
                                                 const char           *state,
                                                 GCancellable         *cancellable,
                                                 GAsyncReadyCallback   callback,
                                                 gpointer              user_data);
GHashTable      *mcp_auth_loopback_wait_finish  (McpAuthLoopback      *self,
                                                 GAsyncResult         *result,
                                                 GError              **error);

G_END_DECLS

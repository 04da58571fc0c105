/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>
#include <webkit/webkit.h>

#include "mcp-app-resource-meta.h"
#include "mcp-tool.h"
#include "mcp-tool-result.h"
#include "steward-app-bridge.h"
#include "steward-app-view-module.h"
#include "steward-host.h"
#include "steward-server.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_APP_VIEW (steward_app_view_get_type ())

G_DECLARE_FINAL_TYPE (StewardAppView, steward_app_view, STEWARD, APP_VIEW, AdwBin)

/*
 * The MCP Apps view of one tool call (docs/SECURITY.md, "MCP Apps"): the
 * tool's `ui://` resource, read through its server, shown in a WebKit web
 * view of the server's StewardAppSandbox, under the policy the resource
 * declared, and talking to the host only through a StewardAppBridge.
 *
 * The page runs while the widget is on screen: it is loaded when the
 * widget is mapped, and torn down (ui/resource-teardown, then the web
 * process goes) a little after it is unmapped, so that a long chat keeps
 * only the views in sight alive. A view may ask to be shown fullscreen or
 * as a picture in picture, each in a window of its own.
 *
 * Signals: "navigation-blocked" (const char *uri): the page tried to leave
 * its document and stayed. "bridge-created" (StewardAppBridge *bridge): a
 * page starts with this bridge, for the view's host to hear what the page
 * asks of it (ui/message, ui/update-model-context).
 */
GtkWidget        *steward_app_view_new              (StewardHost    *host,
                                                     StewardServer  *server,
                                                     McpTool        *tool,
                                                     JsonObject     *arguments);

/* What the call answered, or that it was cancelled; the view gets it once
 * it is initialized, now or after a reload. */
void              steward_app_view_set_result       (StewardAppView *self,
                                                     McpToolResult  *result);
void              steward_app_view_set_cancelled    (StewardAppView *self,
                                                     const char     *reason);

/* The running page, or NULL while none is loaded. */
WebKitWebView    *steward_app_view_get_web_view     (StewardAppView *self);
/* The running page's bridge, or NULL. */
StewardAppBridge *steward_app_view_get_bridge       (StewardAppView *self);
/* "inline", "fullscreen" or "pip". */
const char       *steward_app_view_get_display_mode (StewardAppView *self);

G_END_DECLS

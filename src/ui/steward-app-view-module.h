/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "mcp-tool.h"
#include "mcp-tool-result.h"
#include "steward-host.h"
#include "steward-server.h"

G_BEGIN_DECLS

/*
 * The MCP Apps views (StewardAppView) live in a module of their own,
 * loaded the first time a view is made: they need WebKit, and loading
 * WebKit and what it links (JavaScriptCore, GStreamer, …) costs every
 * start tens of milliseconds and megabytes, although most starts never
 * show a view. The rest of the app makes views only through these
 * functions, and asks whether a tool has one without loading anything.
 *
 * A program that links the views in (the widget tests) has them
 * registered before main(), and nothing is loaded.
 */

typedef struct
{
  GtkWidget *(*new_view)      (StewardHost   *host,
                               StewardServer *server,
                               McpTool       *tool,
                               JsonObject    *arguments);
  void       (*set_result)    (GtkWidget     *view,
                               McpToolResult *result);
  void       (*set_cancelled) (GtkWidget     *view,
                               const char    *reason);
} StewardAppViewFuncs;

/* Is @tool shown with a view: does it name a `ui://` resource? */
gboolean   steward_app_view_tool_has_view          (McpTool                   *tool);

/* A new StewardAppView, or NULL (with a warning) when the module cannot
 * be loaded. */
GtkWidget *steward_app_view_module_new_view        (StewardHost               *host,
                                                    StewardServer             *server,
                                                    McpTool                   *tool,
                                                    JsonObject                *arguments);
void       steward_app_view_module_set_result      (GtkWidget                 *view,
                                                    McpToolResult             *result);
void       steward_app_view_module_set_cancelled   (GtkWidget                 *view,
                                                    const char                *reason);

/* Called by the views' code as it is loaded. */
void       steward_app_view_module_register        (const StewardAppViewFuncs *funcs);

G_END_DECLS

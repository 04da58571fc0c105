/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "mcp-app-resource-meta.h"
#include "mcp-tool.h"
#include "mcp-tool-result.h"
#include "steward-app-message.h"
#include "steward-host.h"
#include "steward-server.h"

G_BEGIN_DECLS

/*
 * The host's side of one live MCP Apps view (docs/SECURITY.md, "MCP Apps"):
 * the JSON-RPC the view posts comes in through steward_app_bridge_receive(),
 * and everything for the view (replies, notifications, the teardown
 * request) goes out as JSON text through the "send" signal, which the
 * widget hands to the page. The bridge knows no toolkit.
 *
 * What a view may do, it does as its server's guest: it calls only its own
 * server's tools, only those whose `_meta.ui.visibility` includes "app",
 * each through the same approval rules as a call from a chat (the person's
 * policy, the tool's pin, otherwise a question in the approval queue); it
 * reads only its own server's resources. Everything else is refused with a
 * JSON-RPC error that says why. Every message in and out is written to the
 * log store as protocol traffic of the server, with the view's label as
 * its logger, so that the log viewer can show one view's traffic.
 *
 * Input is never trusted: text that is not JSON, not an object, of the
 * wrong shape, over STEWARD_APP_BRIDGE_MAX_MESSAGE bytes, or a method we do
 * not know gets a JSON-RPC error naming the cause (a notification that is
 * wrong is logged as a warning, since it has no id to answer).
 *
 * Signals:
 * - "send" (const char *json_text): deliver this to the view.
 * - "message" (const char *role, JsonArray *content): the view asked to
 *   add a message to the chat (ui/message); the chat shows it as coming
 *   from the view. Answered with isError when nothing is connected.
 * - "display-mode-requested" (const char *mode) → char *: the mode the
 *   UI granted ("inline", "fullscreen" or "pip"); without a handler the
 *   current mode stays.
 * - "open-link" (const char *url): a link the view asked to open, one
 *   that passed steward_url_check(); the UI asks the person and opens it
 *   through the desktop. Without a handler the view is told isError.
 * - "size-changed" (int width, int height): the size the page wants, -1
 *   for a dimension it did not give.
 * - "initialized": the view finished ui/initialize.
 * - "teardown-requested": the view asked to be closed.
 *
 * Properties: "view-label" (construct; the logger name of this view's
 * traffic), "initialized", "model-context" (JsonObject, nullable: the last
 * ui/update-model-context, for the chat's next request), "display-mode".
 */

/* The largest message taken from a view, in bytes. */
#define STEWARD_APP_BRIDGE_MAX_MESSAGE STEWARD_APP_MESSAGE_MAX_BYTES
/* How long a teardown waits for the view to answer, in milliseconds. */
#define STEWARD_APP_BRIDGE_TEARDOWN_TIMEOUT_MS 3000

#define STEWARD_TYPE_APP_BRIDGE (steward_app_bridge_get_type ())

G_DECLARE_FINAL_TYPE (StewardAppBridge, steward_app_bridge, STEWARD, APP_BRIDGE, GObject)

/* @arguments and @result may be NULL (the call is still running); once the
 * view says it is initialized they are sent to it as tool-input and
 * tool-result. @meta may be NULL for the default. @view_label names the
 * view in the log, e.g. "get-time view 3"; NULL makes one of the tool. */
StewardAppBridge *steward_app_bridge_new                  (StewardHost        *host,
                                                           StewardServer      *server,
                                                           McpTool            *tool,
                                                           JsonObject         *arguments,
                                                           McpToolResult      *result,
                                                           McpAppResourceMeta *meta,
                                                           const char         *view_label);

/* A message the view posted (UTF-8 JSON text). Never fails: what is wrong
 * is answered to the view. */
void              steward_app_bridge_receive              (StewardAppBridge   *self,
                                                           const char         *json_text);

StewardServer      *steward_app_bridge_get_server         (StewardAppBridge   *self);
McpTool            *steward_app_bridge_get_tool           (StewardAppBridge   *self);
McpAppResourceMeta *steward_app_bridge_get_meta           (StewardAppBridge   *self);
const char         *steward_app_bridge_get_view_label     (StewardAppBridge   *self);
gboolean            steward_app_bridge_get_initialized    (StewardAppBridge   *self);

/* The host context (theme, locale, displayMode, containerDimensions, …)
 * as the UI knows it. The members that changed are sent to an initialized
 * view as ui/notifications/host-context-changed. */
void              steward_app_bridge_set_host_context     (StewardAppBridge   *self,
                                                           JsonObject         *context);
JsonObject       *steward_app_bridge_get_host_context     (StewardAppBridge   *self);
/* "inline", "fullscreen" or "pip". */
const char       *steward_app_bridge_get_display_mode     (StewardAppBridge   *self);

/* The last ui/update-model-context params ({content, structuredContent}),
 * or NULL. */
JsonObject       *steward_app_bridge_get_model_context    (StewardAppBridge   *self);

/* Notifications to the view; before it is initialized they wait for it. */
void              steward_app_bridge_send_tool_input      (StewardAppBridge   *self,
                                                           JsonObject         *arguments);
void              steward_app_bridge_send_tool_input_partial (StewardAppBridge *self,
                                                              JsonObject       *arguments);
void              steward_app_bridge_send_tool_result     (StewardAppBridge   *self,
                                                           McpToolResult      *result);
void              steward_app_bridge_send_tool_cancelled  (StewardAppBridge   *self,
                                                           const char         *reason);

/* Sends ui/resource-teardown and completes when the view answers or after
 * STEWARD_APP_BRIDGE_TEARDOWN_TIMEOUT_MS (then with G_IO_ERROR_TIMED_OUT;
 * the view may be removed either way). A view never initialized completes
 * at once. Calls the view's requests made are cancelled. */
void              steward_app_bridge_teardown_async       (StewardAppBridge   *self,
                                                           GCancellable       *cancellable,
                                                           GAsyncReadyCallback callback,
                                                           gpointer            user_data);
gboolean          steward_app_bridge_teardown_finish      (StewardAppBridge   *self,
                                                           GAsyncResult       *result,
                                                           GError            **error);

G_END_DECLS

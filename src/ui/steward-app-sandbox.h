/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <webkit/webkit.h>

#include "mcp-app-resource-meta.h"

G_BEGIN_DECLS

#define STEWARD_APP_SCHEME "steward-app"

#define STEWARD_TYPE_APP_SANDBOX (steward_app_sandbox_get_type ())

G_DECLARE_FINAL_TYPE (StewardAppSandbox, steward_app_sandbox, STEWARD, APP_SANDBOX, GObject)

/*
 * Where the MCP Apps views of one server live (docs/SECURITY.md, "MCP
 * Apps"): a web context and an ephemeral network session of their own, so
 * that no cookie, cache or storage is shared with another server's views
 * or outlives the app, and the steward-app:// scheme, which serves the
 * documents the views were given and nothing else, each with its
 * Content-Security-Policy as a response header.
 *
 * One sandbox per server name while any of its views lives. Its pages
 * share one web process: they are of one origin already, and each more
 * process would cost as much as the first.
 */
StewardAppSandbox    *steward_app_sandbox_get_for_server  (const char        *server_name);

const char           *steward_app_sandbox_get_origin      (StewardAppSandbox *self);
WebKitWebContext     *steward_app_sandbox_get_context     (StewardAppSandbox *self);
WebKitNetworkSession *steward_app_sandbox_get_session     (StewardAppSandbox *self);

/* Lets this server's views reach the origins @meta declared for
 * connections, resources and frames; no other host gets as much as a
 * connection from them. */
void                  steward_app_sandbox_allow           (StewardAppSandbox  *self,
                                                           McpAppResourceMeta *meta);

/* A page of this sandbox that is alive, for a new one to share its web
 * process with ("related-view"), or NULL. */
WebKitWebView        *steward_app_sandbox_get_page        (StewardAppSandbox  *self);
void                  steward_app_sandbox_add_page        (StewardAppSandbox  *self,
                                                           WebKitWebView      *page);
/* Returns whether @page was the last page alive. */
gboolean              steward_app_sandbox_remove_page     (StewardAppSandbox  *self,
                                                           WebKitWebView      *page);

/* Serves @html under a new unguessable address of this sandbox's origin
 * with @csp as its policy, until steward_app_sandbox_remove_document().
 * Returns the address. */
char                 *steward_app_sandbox_add_document    (StewardAppSandbox *self,
                                                           const char        *html,
                                                           const char        *csp);
void                  steward_app_sandbox_remove_document (StewardAppSandbox *self,
                                                           const char        *uri);

/* @html with a <meta http-equiv="Content-Security-Policy"> carrying @csp
 * as the first thing in its head, so that the policy also holds where a
 * response header would not reach. */
char                 *steward_app_sandbox_add_csp_meta    (const char        *html,
                                                           const char        *csp);

G_END_DECLS

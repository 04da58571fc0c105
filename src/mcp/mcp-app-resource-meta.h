/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/*
 * MCP Apps (the `io.modelcontextprotocol/ui` extension, stable revision
 * 2026-01-26): what a `ui://` resource says about how it may be shown, read
 * from the `_meta.ui` of its content in resources/read.
 *
 * Every domain a resource declares is checked when it is read: a plain
 * origin (`https://host`, or a subdomain pattern `*.host` after the
 * scheme, with an optional port; `wss://` for connections; `http://` and
 * `ws://` on loopback only), nothing else. A
 * quote, a space, a `;`, a path, a lone `*`, a CSP keyword or a `data:` makes
 * the whole declaration fail with an error naming the field and the value,
 * so that nothing a server writes can widen the view's policy beyond the
 * origins it names (docs/SECURITY.md, "MCP Apps").
 */

#define MCP_APP_EXTENSION  "io.modelcontextprotocol/ui"
#define MCP_APP_MIME_TYPE  "text/html;profile=mcp-app"
/* The revision of the view protocol (ui/initialize) we speak. */
#define MCP_APP_PROTOCOL_VERSION "2026-01-26"

typedef enum {
  MCP_APP_PERMISSION_NONE            = 0,
  MCP_APP_PERMISSION_CAMERA          = 1 << 0,
  MCP_APP_PERMISSION_MICROPHONE      = 1 << 1,
  MCP_APP_PERMISSION_GEOLOCATION     = 1 << 2,
  MCP_APP_PERMISSION_CLIPBOARD_WRITE = 1 << 3,
} McpAppPermissions;

typedef enum {
  MCP_APP_BORDER_HOST_DECIDES,   /* prefersBorder omitted */
  MCP_APP_BORDER_VISIBLE,        /* prefersBorder: true */
  MCP_APP_BORDER_NONE,           /* prefersBorder: false */
} McpAppBorder;

/* Which CSP list a domain comes from: connections may also use wss://. */
typedef enum {
  MCP_APP_DOMAIN_RESOURCE,
  MCP_APP_DOMAIN_CONNECT,
  MCP_APP_DOMAIN_FRAME,
  MCP_APP_DOMAIN_BASE_URI,
} McpAppDomainKind;

#define MCP_TYPE_APP_PERMISSIONS (mcp_app_permissions_get_type ())
#define MCP_TYPE_APP_BORDER      (mcp_app_border_get_type ())
GType mcp_app_permissions_get_type (void) G_GNUC_CONST;
GType mcp_app_border_get_type      (void) G_GNUC_CONST;

#define MCP_TYPE_APP_RESOURCE_META (mcp_app_resource_meta_get_type ())

G_DECLARE_FINAL_TYPE (McpAppResourceMeta, mcp_app_resource_meta, MCP, APP_RESOURCE_META, GObject)

/* Nothing declared: no outside origins, no permissions. */
McpAppResourceMeta *mcp_app_resource_meta_new_default          (void);
/* @ui: the `_meta.ui` object itself, or NULL for the default. */
McpAppResourceMeta *mcp_app_resource_meta_new_from_json        (JsonObject          *ui,
                                                                GError             **error);
/* @content: one item of resources/read's `contents` (its `_meta.ui`, if
 * any, is read). */
McpAppResourceMeta *mcp_app_resource_meta_new_from_content     (JsonObject          *content,
                                                                GError             **error);

/* NULL-terminated, never NULL (empty when nothing was declared). */
const char * const *mcp_app_resource_meta_get_connect_domains  (McpAppResourceMeta  *self);
const char * const *mcp_app_resource_meta_get_resource_domains (McpAppResourceMeta  *self);
const char * const *mcp_app_resource_meta_get_frame_domains    (McpAppResourceMeta  *self);
const char * const *mcp_app_resource_meta_get_base_uri_domains (McpAppResourceMeta  *self);
McpAppPermissions   mcp_app_resource_meta_get_permissions      (McpAppResourceMeta  *self);
/* The dedicated origin the server asked for (a host name), or NULL. */
const char         *mcp_app_resource_meta_get_domain           (McpAppResourceMeta  *self);
McpAppBorder        mcp_app_resource_meta_get_border           (McpAppResourceMeta  *self);

/* Adds `extensions["io.modelcontextprotocol/ui"]` with our MIME type to
 * a client's @capabilities. */
void                mcp_app_add_capabilities                   (JsonObject          *capabilities);

/* Checks one declared domain; the error names @domain and why. */
gboolean            mcp_app_domain_check                       (const char          *domain,
                                                                McpAppDomainKind     kind,
                                                                GError             **error);

G_END_DECLS

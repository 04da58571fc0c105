/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* What the 2025 revisions allow in a session id. */
#define MCP_HTTP_SESSION_ID_MAX 1024

/* URLs, origins, header values and excerpts of replies, as the Streamable
 * HTTP and the legacy HTTP+SSE transports need them: pure functions, no
 * I/O. */
int       mcp_http_effective_port          (GUri         *uri);
char     *mcp_http_describe_origin         (GUri         *uri);
gboolean  mcp_http_same_origin             (GUri         *a,
                                            GUri         *b);
char     *mcp_http_describe_url            (GUri         *uri);
GUri     *mcp_http_parse_url               (const char   *url,
                                            GError      **error);
gboolean  mcp_http_is_header_name          (const char   *name);
gboolean  mcp_http_session_id_is_valid     (const char   *id);
char     *mcp_http_describe_bad_session_id (const char   *id);
char     *mcp_http_encode_header_value     (const char   *value);
char     *mcp_http_make_excerpt            (const char   *data,
                                            gsize         length);
gboolean  mcp_http_is_unreachable          (const GError *error);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-app-resource-meta.h"

G_BEGIN_DECLS

/*
 * The Content-Security-Policy of an MCP Apps view: the specification's
 * restrictive default (inline script and style of the page itself, images
 * and media from data:, no connections, no frames, no plugins), widened
 * only by the origins @meta declared (already checked by
 * McpAppResourceMeta) and only in the directives they were declared for.
 * @meta NULL is the default. Returns a newly allocated header value.
 */
char *steward_app_csp_build (McpAppResourceMeta *meta);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "mcp-revision.h"

G_BEGIN_DECLS

/*
 * McpEra:
 * @MCP_ERA_MODERN: the server answered with a discover result that lists
 *   a revision of the 2026-07-28 era this client speaks
 * @MCP_ERA_HANDSHAKE: anything that is not a recognised modern answer (an
 *   empty or malformed result, a non-modern error, an HTTP refusal without
 *   a modern error in its body, silence), or a modern answer that names a
 *   handshake-era revision this client speaks: connect with `initialize`
 * @MCP_ERA_INCOMPATIBLE: a server of the modern era with no revision in
 *   common with this client, or one that refused the probe with a modern
 *   error; falling back to `initialize` would only fail less clearly
 *
 * What the answer to the `server/discover` probe says about a server, per
 * the dual-era client rules of the 2026-07-28 revision (basic/versioning,
 * and the backward-compatibility sections of the stdio and Streamable HTTP
 * bindings).
 */
typedef enum {
  MCP_ERA_MODERN,
  MCP_ERA_HANDSHAKE,
  MCP_ERA_INCOMPATIBLE,
} McpEra;

McpEra mcp_era_from_discover (JsonObject    *result,
                              const GError  *error,
                              McpRevision   *handshake_revision,
                              char         **why);

G_END_DECLS

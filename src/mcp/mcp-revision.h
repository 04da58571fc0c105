/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * McpRevision:
 *
 * The protocol revisions Steward speaks, oldest first, so that comparisons
 * read naturally (`rev >= MCP_REVISION_2025_06_18`).
 */
typedef enum {
  MCP_REVISION_UNKNOWN = 0,
  MCP_REVISION_2024_11_05,
  MCP_REVISION_2025_03_26,
  MCP_REVISION_2025_06_18,
  MCP_REVISION_2025_11_25,
  MCP_REVISION_2026_07_28,
} McpRevision;

#define MCP_REVISION_LATEST_STATEFUL MCP_REVISION_2025_11_25

const char  *mcp_revision_to_string        (McpRevision  revision);
McpRevision  mcp_revision_from_string      (const char  *string);
gboolean     mcp_revision_is_stateless     (McpRevision  revision);
gboolean     mcp_revision_allows_batches   (McpRevision  revision);
char        *mcp_revision_list_supported   (void);

G_END_DECLS

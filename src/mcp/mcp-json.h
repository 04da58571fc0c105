/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Deeper nesting is refused: nothing MCP sends needs it, and deep input
 * is how parsers that recurse are crashed. */
#define MCP_JSON_MAX_DEPTH 64

JsonNode *mcp_json_parse            (const char  *data,
                                     gssize       length,
                                     GError     **error);
JsonNode *mcp_json_parse_with_depth (const char  *data,
                                     gssize       length,
                                     guint        max_depth,
                                     GError     **error);

void      mcp_json_append_escaped   (GString     *out,
                                     const char  *text,
                                     gboolean     escape_delete);

G_END_DECLS

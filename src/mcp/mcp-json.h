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

/* Typed reads of members of JSON someone else wrote (a peer, a file a
 * person edits): a member that is missing or of the wrong type reads as
 * absent or as the fallback, never as a crash or a critical. @object may
 * be NULL, so that reads chain through members that may be missing. */
const char *mcp_json_get_string    (JsonObject  *object,
                                    const char  *member);
const char *mcp_json_get_string_or (JsonObject  *object,
                                    const char  *member,
                                    const char  *fallback);
JsonObject *mcp_json_get_object    (JsonObject  *object,
                                    const char  *member);
JsonArray  *mcp_json_get_array     (JsonObject  *object,
                                    const char  *member);
gboolean    mcp_json_get_boolean   (JsonObject  *object,
                                    const char  *member,
                                    gboolean     default_value);
double      mcp_json_get_number    (JsonObject  *object,
                                    const char  *member,
                                    double       default_value);
gboolean    mcp_json_has_number    (JsonObject  *object,
                                    const char  *member);
gboolean    mcp_json_get_int64     (JsonObject  *object,
                                    const char  *member,
                                    gint64       min,
                                    gint64       max,
                                    gint64      *value);

/* Whether @node (nullable) holds a number, whole or not. */
gboolean    mcp_json_node_is_number (JsonNode *node);

G_END_DECLS

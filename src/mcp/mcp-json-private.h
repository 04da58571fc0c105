/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "mcp-json.h"

G_BEGIN_DECLS

/* @name is valid during the call only; @value is the callee's. */
typedef void (*McpJsonMemberFunc) (const char *name,
                                   JsonNode   *value,
                                   gpointer    user_data);

gboolean     mcp_json_parse_members (const char        *data,
                                     gsize              length,
                                     McpJsonMemberFunc  func,
                                     gpointer           user_data,
                                     gboolean          *plain,
                                     GError           **error);

void         mcp_json_append      (GString     *out,
                                   JsonNode    *node,
                                   gboolean     pretty);
void         mcp_json_append_string (GString    *out,
                                     const char *string);
void         mcp_json_append_object (GString    *out,
                                     JsonObject *object);
char        *mcp_json_to_string   (JsonNode    *node,
                                   gboolean     pretty);
JsonNode    *mcp_json_from_string (const char  *text,
                                   GError     **error);

G_END_DECLS

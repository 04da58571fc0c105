/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Typed reads of members a peer sent: a member that is missing or of the
 * wrong type reads as absent, never as a crash or a critical. */
const char  *mcp_json_get_string  (JsonObject  *object,
                                   const char  *member);
JsonObject  *mcp_json_get_object  (JsonObject  *object,
                                   const char  *member);
JsonArray   *mcp_json_get_array   (JsonObject  *object,
                                   const char  *member);
gboolean     mcp_json_get_boolean (JsonObject  *object,
                                   const char  *member,
                                   gboolean     default_value);
double       mcp_json_get_number  (JsonObject  *object,
                                   const char  *member,
                                   double       default_value);
gboolean     mcp_json_has_number  (JsonObject  *object,
                                   const char  *member);
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

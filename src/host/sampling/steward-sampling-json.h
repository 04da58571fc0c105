/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/*
 * Deep copies, so that the host's copy of a request never shares a node
 * with the server's, and the comparison that tells whether the person
 * edited it. Typed reads of members are mcp-json.h's.
 */
JsonNode    *steward_sampling_json_copy_node   (JsonNode    *node);
JsonObject  *steward_sampling_json_copy_object (JsonObject  *object);
gboolean     steward_sampling_json_equal       (JsonObject  *a,
                                                JsonObject  *b);

G_END_DECLS

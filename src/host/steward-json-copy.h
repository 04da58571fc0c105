/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/*
 * json_node_copy() shares the objects, arrays and values inside the node;
 * this copy shares nothing with the original, so that a worker may read it
 * while the caller goes on with its own, and a dialog may let a person edit
 * it without touching what it was made from. Members keep their order.
 * Nesting deeper than STEWARD_JSON_COPY_MAX_DEPTH becomes null: no message
 * Steward parses nests that deep (MCP_JSON_MAX_DEPTH), and the copy must
 * not recurse without end on one built in memory.
 */

#define STEWARD_JSON_COPY_MAX_DEPTH 128

JsonNode *steward_json_copy (JsonNode *node);

G_END_DECLS

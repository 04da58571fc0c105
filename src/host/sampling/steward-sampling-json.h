/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/*
 * Reads of JSON that sampling got from a server or a file: a member that
 * is missing or of another type reads as absent, never as a crash or a
 * critical. The copies are deep, so that the host's copy of a request
 * never shares a node with the server's.
 */
JsonNode    *steward_sampling_json_copy_node   (JsonNode    *node);
JsonObject  *steward_sampling_json_copy_object (JsonObject  *object);
gboolean     steward_sampling_json_equal       (JsonObject  *a,
                                                JsonObject  *b);
const char  *steward_sampling_json_get_string  (JsonObject  *object,
                                                const char  *member);
JsonObject  *steward_sampling_json_get_object  (JsonObject  *object,
                                                const char  *member);
JsonArray   *steward_sampling_json_get_array   (JsonObject  *object,
                                                const char  *member);
/* A whole number, also when written as 100.0. */
gboolean     steward_sampling_json_get_integer (JsonObject  *object,
                                                const char  *member,
                                                gint64      *value);

G_END_DECLS

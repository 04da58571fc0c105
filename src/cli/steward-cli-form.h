/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/*
 * The fields of a form elicitation (`requestedSchema`), for a terminal:
 * what to show for a field, how to read a typed answer into a value of the
 * field's type, and the content that accepts every default.
 */

JsonObject  *steward_cli_form_dup_defaults     (JsonObject   *requested_schema);
gboolean     steward_cli_form_is_required      (JsonObject   *requested_schema,
                                                const char   *name);
JsonNode    *steward_cli_form_get_default      (JsonObject   *field);
char        *steward_cli_form_describe_field   (const char   *name,
                                                JsonObject   *field,
                                                gboolean      required);
JsonNode    *steward_cli_form_parse_value      (JsonObject   *field,
                                                const char   *text,
                                                GError      **error);
char        *steward_cli_form_format_value     (JsonNode     *value);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* JSON as the app shows it to a person: pretty, two spaces a level, the
 * same in every view so that a result, a call's arguments and a tool's
 * definition read alike. */
char *steward_json_to_text        (JsonNode   *node);
char *steward_json_object_to_text (JsonObject *object);

G_END_DECLS

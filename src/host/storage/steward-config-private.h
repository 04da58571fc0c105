/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

JsonNode *steward_config_parse_json (const char  *data,
                                     gsize        length,
                                     GError     **error);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * Indents compact JSON text for a person to read: each member and element
 * on its own line, two spaces a level, "name": value, empty objects and
 * arrays as {} and []. It works on the text alone, never parsing it, so
 * text that is not JSON (cut short, or with a secret replaced inside a
 * string) comes out laid out as far as it goes and never lost.
 *
 * Appends at most @max_bytes to @out, ending on a whole UTF-8 character,
 * and returns whether it stopped short of the end of @json.
 */
gboolean steward_json_indent_append (GString    *out,
                                     const char *json,
                                     gsize       length,
                                     gsize       max_bytes);

G_END_DECLS

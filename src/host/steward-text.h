/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * Text from servers and models as a person may safely see it
 * (docs/SECURITY.md, "What reaches the model and the person"): characters
 * that render as nothing, or that reorder the text around them, are shown as
 * ⟨U+XXXX⟩, and long text is cut with a marker that says so.
 */

/* The most text one view shows, in bytes. */
#define STEWARD_TEXT_DISPLAY_MAX (256 * 1024)

gboolean  steward_text_is_hidden_char      (gunichar     c);
gboolean  steward_text_has_hidden          (const char  *text);
char     *steward_text_make_visible        (const char  *text);
char     *steward_text_make_visible_capped (const char  *text,
                                            gsize        max_bytes,
                                            gboolean    *truncated);
char     *steward_text_for_display         (const char  *text);
/* For text that goes to a model, where ⟨U+XXXX⟩ would only be noise: the
 * hidden characters are dropped instead of shown. */
char     *steward_text_strip_hidden        (const char  *text);
/* For a terminal (steward-cli), where a control character is a command:
 * hidden characters as <U+XXXX> in ASCII, which any terminal shows as
 * written; line breaks kept when @multiline, spaces otherwise. */
char     *steward_text_for_terminal        (const char  *text,
                                            gboolean     multiline);
/* For JSON text that a terminal shows: every hidden character left
 * unescaped by the generator (C1, bidi, zero-width, tags) written as a
 * \uXXXX escape, surrogate pairs above U+FFFF. @json must be what a JSON
 * generator wrote, where such characters stand only inside strings. */
char     *steward_text_escape_json         (const char  *json);

G_END_DECLS

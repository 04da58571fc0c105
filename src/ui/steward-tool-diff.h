/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/*
 * The difference between a tool's pinned definition and the one its
 * server offers now, line by line (both as pretty JSON with sorted keys),
 * written into a text buffer: removed lines start with "− " and are red,
 * added lines start with "+ " and are green, the rest start with two
 * spaces. Hidden characters in either side are shown as ⟨U+XXXX⟩, so a
 * change that would otherwise be invisible still shows.
 */

/* @old_text (nullable): NULL for a tool never pinned, every line added.
 * Returns the number of lines added and removed through @added and
 * @removed (both optional). */
void steward_tool_diff_fill (GtkTextBuffer *buffer,
                             const char    *old_text,
                             const char    *new_text,
                             guint         *added,
                             guint         *removed);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/*
 * Steward shows code, JSON, paths, commands, package names and MIME types
 * next to prose, often in the same label. Pango hyphenates a word it has to
 * break, and a hyphen inside "@modelcontextprotocol" or a JSON key reads as
 * part of the text, so valid text looks broken. The rule for the whole app
 * is therefore: text wraps where it must, and never gains a hyphen.
 */

/* Turns off hyphenation in every label and text view the process shows,
 * libadwaita's own rows included, from now on. Idempotent. */
void     steward_hyphenation_turn_off      (void);

/* The same for one label or text view; what the rule above does to each
 * widget as it is mapped. */
void     steward_label_keep_words          (GtkLabel    *label);
void     steward_text_view_keep_words      (GtkTextView *text_view);

/* Whether @label's attributes say not to hyphenate. */
gboolean steward_label_keeps_words         (GtkLabel    *label);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define STEWARD_TYPE_MARKDOWN_VIEW (steward_markdown_view_get_type ())

G_DECLARE_FINAL_TYPE (StewardMarkdownView, steward_markdown_view, STEWARD, MARKDOWN_VIEW, AdwBin)

/* Markdown from a model, drawn into a read-only GtkTextView: headings,
 * emphasis, code spans, code blocks in monospace with a Copy button,
 * lists, block quotes, tables (a grid each), links as their text followed
 * by their full address, opened only after a click (https, or http to this
 * computer), images as their alt text and address, never fetched. Nothing
 * is read as Pango markup or HTML; raw HTML shows as the text it is.
 *
 * Setting "text" to a text that starts with the current one (a stream
 * growing) redraws only the blocks that are not finished yet, so that
 * long answers stay cheap to stream. "streaming" says the text is still
 * growing. */
GtkWidget     *steward_markdown_view_new           (void);
const char    *steward_markdown_view_get_text      (StewardMarkdownView *self);
void           steward_markdown_view_set_text      (StewardMarkdownView *self,
                                                    const char          *text);
void           steward_markdown_view_append        (StewardMarkdownView *self,
                                                    const char          *delta);
gboolean       steward_markdown_view_get_streaming (StewardMarkdownView *self);
void           steward_markdown_view_set_streaming (StewardMarkdownView *self,
                                                    gboolean             streaming);
GtkTextView   *steward_markdown_view_get_text_view (StewardMarkdownView *self);

G_END_DECLS

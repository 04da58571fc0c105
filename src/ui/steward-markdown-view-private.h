/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "steward-markdown-view.h"
#include "steward-url.h"

G_BEGIN_DECLS

/* How the view hands an address to the desktop: gtk_show_uri() unless a
 * test puts a recorder in its place, so that no browser opens. */
typedef void (*StewardMarkdownShowUriFunc) (GtkWindow  *parent,
                                            const char *uri,
                                            gpointer    user_data);

void        steward_markdown_view_set_show_uri_func (StewardMarkdownView        *self,
                                                     StewardMarkdownShowUriFunc  func,
                                                     gpointer                    user_data);

/* For the tests, which act as a click on the text at @offset (in
 * characters) would. Returns whether a link was opened. */
gboolean    steward_markdown_view_activate_at       (StewardMarkdownView        *self,
                                                     int                         offset);
/* The address of the link at @offset, or NULL. */
const char *steward_markdown_view_get_uri_at        (StewardMarkdownView        *self,
                                                     int                         offset);
/* How many bytes of the text were parsed again by the last change: the
 * cost of one streamed token. */
gsize       steward_markdown_view_get_last_parsed   (StewardMarkdownView        *self);

/* Shared by steward-markdown-view.c, which follows the text as it grows,
 * and steward-markdown-render.c, which draws it. */

/* GitHub's dialect, with HTML off: raw HTML is then ordinary text, which
 * is how it must be shown. */
#define PARSER_FLAGS (MD_DIALECT_GITHUB | MD_FLAG_NOHTML)

#define URI_KEY "steward-markdown-uri"
#define MARGIN_STEP 24
/* An address longer than this is cut where it is shown, and an address
 * that is not shown in full is never opened. */
#define MAX_URI_SHOWN STEWARD_URL_MAX_LENGTH
/* Link reference definitions carried from one block to the next. */
#define MAX_REFDEFS (64 * 1024)

struct _StewardMarkdownView
{
  AdwBin                      parent_instance;

  GtkTextView                *text_view;
  GtkTextBuffer              *buffer;

  GString                    *source;
  gboolean                    streaming;

  /*
   * Incremental rendering: the text up to frozen_len is made of finished
   * blocks and was drawn for good, up to frozen_mark in the buffer; only
   * what follows (the tail) is parsed and drawn again when text arrives.
   * The tail's link tags go with it.
   */
  gsize                       frozen_len;
  GtkTextMark                *frozen_mark;
  GPtrArray                  *frozen_tags;
  GPtrArray                  *tail_tags;
  gsize                       last_parsed;

  /* Where the next finished block may start: scanned one complete line at
   * a time, so each change looks only at the new lines. */
  gsize                       scanned_len;
  gsize                       split_len;
  gboolean                    blank_before;
  gboolean                    in_fence;
  char                        fence_char;
  gsize                       fence_len;
  GString                    *refdefs;
  gboolean                    refs_late;

  GtkTextTag                 *link_tag;

  StewardMarkdownShowUriFunc  show_uri;
  gpointer                    show_uri_data;

  guint                       resize_id;
  int                         reported_height;
  int                         resized_width;
  int                         resized_height;
};

/* Parses the source from @start to @end and draws it at the end of the
 * buffer; the link tags it makes are added to @made_tags. */
void        steward_markdown_render_range           (StewardMarkdownView        *self,
                                                     gsize                       start,
                                                     gsize                       end,
                                                     GPtrArray                  *made_tags);
/* @uri made visible, and cut when it is longer than is ever opened. */
char       *steward_markdown_visible_uri            (const char                 *uri);

G_END_DECLS

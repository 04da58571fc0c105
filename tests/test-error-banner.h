/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* Checks on the StewardErrorBanner under a page or dialog: an error a
 * person must act on is there in full and stays, unlike a toast. */

/* Asserts the banner under @root is shown, its text starts with @start and
 * the label shows all of it, wrapped rather than cut; returns the text. */
const char *test_assert_error_shown   (GtkWidget  *root,
                                       const char *start);
/* The error shown under @root, or NULL: for waiting until one appears. */
const char *test_error_message        (GtkWidget  *root);
/* Asserts no error is shown under @root. */
void        test_assert_no_error      (GtkWidget  *root);
/* Clicks the banner's Dismiss button, as a person would. */
void        test_dismiss_error        (GtkWidget  *root);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* Helpers for widget tests: find what a person would see, and wait for
 * things by running the main loop, never by sleeping. */

typedef gboolean (*TestCondition) (gpointer data);

/* Runs the default main context until @condition holds; fails the test
 * after @timeout_ms. */
void        test_wait_until            (TestCondition  condition,
                                        gpointer       data,
                                        guint          timeout_ms);
/* Runs the main context until it has nothing left to do right now. */
void        test_drain_main_context    (void);
/* The first GtkLabel under @root (itself included) whose text is @text. */
GtkLabel   *test_find_label            (GtkWidget     *root,
                                        const char    *text);
/* The first GtkLabel whose text contains @needle. */
GtkLabel   *test_find_label_containing (GtkWidget     *root,
                                        const char    *needle);
/* The first descendant of @type (itself included). */
GtkWidget  *test_find_by_type          (GtkWidget     *root,
                                        GType          type);
/* The first descendant whose widget name (gtk_widget_set_name) is @name. */
GtkWidget  *test_find_by_name          (GtkWidget     *root,
                                        const char    *name);
/* Whether any label under @root shows @needle anywhere in its text. */
gboolean    test_any_label_contains    (GtkWidget     *root,
                                        const char    *needle);

G_END_DECLS

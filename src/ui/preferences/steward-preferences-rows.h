/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "steward-model-catalog.h"

G_BEGIN_DECLS

/* What the pages of Preferences share to build their rows. */

/* A button for a row's end; @action (nullable) is activated with the
 * string @target. */
GtkWidget *steward_prefs_new_button      (const char          *label,
                                          const char          *accessible,
                                          const char          *action,
                                          const char          *target);
/* Removes @rows from @group and forgets them. */
void       steward_prefs_clear_rows      (AdwPreferencesGroup *group,
                                          GPtrArray           *rows);
/* A dimmed row saying why a list is empty. */
void       steward_prefs_add_placeholder (AdwPreferencesGroup *group,
                                          GPtrArray           *rows,
                                          const char          *title);
/* The first of @rows whose widget name is @name, or NULL. */
GtkWidget *steward_prefs_find_row        (GPtrArray           *rows,
                                          const char          *name);
/* Saves @catalog; a failure is logged, as the next change saves again. */
void       steward_prefs_save_catalog    (StewardModelCatalog *catalog);

G_END_DECLS

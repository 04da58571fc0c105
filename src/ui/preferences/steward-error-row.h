/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define STEWARD_TYPE_ERROR_ROW (steward_error_row_get_type ())

G_DECLARE_FINAL_TYPE (StewardErrorRow, steward_error_row, STEWARD, ERROR_ROW, AdwActionRow)

/* An error a person must act on, shown where it happened and in full: the
 * title says what failed, the subtitle why, both wrapped rather than cut.
 * It stays until the owner clears it (the thing was fixed or tried again
 * with success) or the person dismisses it, which emits "dismissed". */
GtkWidget *steward_error_row_new       (void);
void       steward_error_row_set_error (StewardErrorRow *self,
                                        const char      *title,
                                        const char      *message);
void       steward_error_row_clear     (StewardErrorRow *self);
/* A "Retry" button that activates @action with a string @target; NULL
 * for none. */
void       steward_error_row_set_retry (StewardErrorRow *self,
                                        const char      *action,
                                        const char      *target);

G_END_DECLS

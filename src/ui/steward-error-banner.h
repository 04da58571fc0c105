/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define STEWARD_TYPE_ERROR_BANNER (steward_error_banner_get_type ())

G_DECLARE_FINAL_TYPE (StewardErrorBanner, steward_error_banner, STEWARD, ERROR_BANNER, AdwBin)

/* An error a person must act on, shown across the top of a page or dialog
 * in full, wrapped rather than cut, for as long as it matters: unlike a
 * toast it does not time out. It goes when the owner clears it (the same
 * action succeeded) or the person dismisses it, which emits "dismissed". */
GtkWidget  *steward_error_banner_new         (void);
void        steward_error_banner_set_message (StewardErrorBanner *self,
                                              const char         *message);
/* The message shown, or NULL while there is none. */
const char *steward_error_banner_get_message (StewardErrorBanner *self);
void        steward_error_banner_clear       (StewardErrorBanner *self);

G_END_DECLS

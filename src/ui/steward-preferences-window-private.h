/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "steward-preferences-window.h"

G_BEGIN_DECLS

/* For tests: the row that shows a provider's key ("provider.anthropic"),
 * the dialog open for a key (setting or clearing it), the style row. */
AdwActionRow     *steward_preferences_window_get_key_row   (StewardPreferencesWindow *self,
                                                           const char               *secret_id);
AdwMessageDialog *steward_preferences_window_get_key_dialog
                                                          (StewardPreferencesWindow *self);
AdwComboRow      *steward_preferences_window_get_color_scheme_row
                                                          (StewardPreferencesWindow *self);

G_END_DECLS

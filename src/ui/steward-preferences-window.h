/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "steward-host.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_PREFERENCES_WINDOW (steward_preferences_window_get_type ())

G_DECLARE_FINAL_TYPE (StewardPreferencesWindow, steward_preferences_window, STEWARD, PREFERENCES_WINDOW, AdwPreferencesWindow)

/* Providers and API keys (in the keyring, shown masked), sampling defaults
 * and per-server policies, the audit journal, appearance. */
GtkWidget *steward_preferences_window_new (StewardHost *host);

G_END_DECLS

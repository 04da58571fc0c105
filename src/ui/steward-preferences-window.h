/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "steward-host.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_PREFERENCES_WINDOW (steward_preferences_window_get_type ())

G_DECLARE_FINAL_TYPE (StewardPreferencesWindow, steward_preferences_window, STEWARD, PREFERENCES_WINDOW, AdwPreferencesWindow)

/* Providers (providers.json) and their API keys (in the keyring, shown
 * masked), the models and their scores and the hint map (models.json),
 * sampling defaults and per-server policies with the models each server
 * may use, the audit journal, appearance. */
GtkWidget *steward_preferences_window_new                      (StewardHost *host);

/* Gives each server Steward has not seen before the sampling defaults kept
 * in @settings ("sampling-default-*"), unless the broker already holds
 * settings of its own for it, and remembers the server as seen. The window
 * calls it when it opens and when servers come and go; the application
 * may call it at start. */
void       steward_preferences_window_apply_sampling_defaults  (StewardHost *host,
                                                                GSettings   *settings);

G_END_DECLS

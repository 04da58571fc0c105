/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "steward-models-page.h"
#include "steward-preferences-window.h"
#include "steward-providers-page.h"

G_BEGIN_DECLS

/* For tests: the row that shows a provider's key, by its keyring id
 * ("provider.anthropic"), the dialog open for a key (setting or clearing
 * it), the style row. */
AdwActionRow     *steward_preferences_window_get_key_row   (StewardPreferencesWindow *self,
                                                           const char               *key_id);
AdwMessageDialog *steward_preferences_window_get_key_dialog
                                                          (StewardPreferencesWindow *self);
AdwComboRow      *steward_preferences_window_get_color_scheme_row
                                                          (StewardPreferencesWindow *self);

/* The "Ollama found" offer; a provider's row, by id, and its row on the
 * models page; a model's row, by id; a hint's row; a server's row. */
AdwActionRow     *steward_preferences_window_get_ollama_row (StewardPreferencesWindow *self);
AdwExpanderRow   *steward_preferences_window_get_provider_row
                                                          (StewardPreferencesWindow *self,
                                                           const char               *id);
AdwActionRow     *steward_preferences_window_get_refresh_row
                                                          (StewardPreferencesWindow *self,
                                                           const char               *id);
AdwExpanderRow   *steward_preferences_window_get_model_row (StewardPreferencesWindow *self,
                                                           const char               *id);
AdwActionRow     *steward_preferences_window_get_hint_row  (StewardPreferencesWindow *self,
                                                           const char               *hint);
AdwExpanderRow   *steward_preferences_window_get_server_row
                                                          (StewardPreferencesWindow *self,
                                                           const char               *server);
/* The error under a provider's refresh row on the Models page, by id;
 * the errors of the "Add a Provider" and "Hint Map" forms. */
GtkWidget        *steward_preferences_window_get_refresh_error_row
                                                          (StewardPreferencesWindow *self,
                                                           const char               *id);
GtkWidget        *steward_preferences_window_get_add_error_row
                                                          (StewardPreferencesWindow *self);
GtkWidget        *steward_preferences_window_get_hint_error_row
                                                          (StewardPreferencesWindow *self);
/* The Providers page, whose actions ("prefs.set-key", "prefs.clear-key",
 * "prefs.add-provider", "prefs.add-ollama", "prefs.remove-provider") are
 * its own. */
StewardProvidersPage *steward_preferences_window_get_providers_page
                                                          (StewardPreferencesWindow *self);
/* The Models page, whose actions ("prefs.add-hint", "prefs.remove-hint",
 * "prefs.remove-model") are its own. */
StewardModelsPage *steward_preferences_window_get_models_page
                                                          (StewardPreferencesWindow *self);
/* The rows of the "Add a Provider" and "Hint Map" forms. */
void              steward_preferences_window_get_add_rows  (StewardPreferencesWindow  *self,
                                                           AdwComboRow              **kind,
                                                           AdwEntryRow              **name,
                                                           AdwEntryRow              **url);
void              steward_preferences_window_get_hint_rows (StewardPreferencesWindow  *self,
                                                           AdwEntryRow              **hint,
                                                           AdwComboRow              **model);

G_END_DECLS

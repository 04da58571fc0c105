/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "steward-provider.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_PROVIDER_ROW (steward_provider_row_get_type ())

G_DECLARE_FINAL_TYPE (StewardProviderRow, steward_provider_row, STEWARD, PROVIDER_ROW, AdwExpanderRow)

/* A provider on the Providers page: its key, its name and base URL to
 * edit, an error it gave that the person must act on, and its removal.
 * The buttons activate the window's "prefs.set-key", "prefs.clear-key"
 * and "prefs.remove-provider" with the provider's id; an edit is the
 * "edited" signal, with the new name and base URL. */
GtkWidget       *steward_provider_row_new           (StewardProvider    *provider,
                                                     const char         *key_id,
                                                     const char         *kind,
                                                     const char         *base_url);
StewardProvider *steward_provider_row_get_provider  (StewardProviderRow *self);
const char      *steward_provider_row_get_key_id    (StewardProviderRow *self);
AdwActionRow    *steward_provider_row_get_key_row   (StewardProviderRow *self);
/* The key row's subtitle (the masked key, or why there is none); @is_set
 * turns "Set…" into "Replace…" and shows "Clear". */
void             steward_provider_row_set_key_state (StewardProviderRow *self,
                                                     const char         *subtitle,
                                                     gboolean            is_set);
void             steward_provider_row_set_error     (StewardProviderRow *self,
                                                     const char         *title,
                                                     const char         *message);
void             steward_provider_row_clear_error   (StewardProviderRow *self);
/* For tests: the fields a person edits, and the error row. */
AdwEntryRow     *steward_provider_row_get_name_row  (StewardProviderRow *self);
AdwEntryRow     *steward_provider_row_get_url_row   (StewardProviderRow *self);
GtkWidget       *steward_provider_row_get_error_row (StewardProviderRow *self);

G_END_DECLS

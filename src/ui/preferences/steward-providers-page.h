/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "steward-host.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_PROVIDERS_PAGE (steward_providers_page_get_type ())

G_DECLARE_FINAL_TYPE (StewardProvidersPage, steward_providers_page, STEWARD, PROVIDERS_PAGE, AdwPreferencesPage)

/* The Providers page of Preferences: a row for each of the host's
 * providers, bound to its list, with the key in the keyring, the name and
 * base URL to edit and an error the person must act on; the form that adds
 * one; the offer to add Ollama when it runs here. Its actions are
 * "prefs.set-key", "prefs.clear-key", "prefs.add-provider",
 * "prefs.add-ollama" and "prefs.remove-provider". */
void                steward_providers_page_set_host          (StewardProvidersPage *self,
                                                              StewardHost          *host);
/* Shows @message (NULL: none) on the provider's row and keeps it while the
 * provider is there; ::error-changed tells the other pages. */
void                steward_providers_page_set_error         (StewardProvidersPage *self,
                                                              const char           *id,
                                                              const char           *message);
const char         *steward_providers_page_get_error         (StewardProvidersPage *self,
                                                              const char           *id);
/* What a provider's error says above the message itself. */
char               *steward_providers_page_dup_error_title   (StewardProvidersPage *self,
                                                              const char           *id);
/* For tests: a provider's row, by id; the row of a key, by its keyring id;
 * the dialog open for a key; the Ollama offer; the add form and its
 * error. */
AdwExpanderRow     *steward_providers_page_get_provider_row  (StewardProvidersPage *self,
                                                              const char           *id);
AdwActionRow       *steward_providers_page_get_key_row       (StewardProvidersPage *self,
                                                              const char           *key_id);
AdwMessageDialog   *steward_providers_page_get_key_dialog    (StewardProvidersPage *self);
AdwActionRow       *steward_providers_page_get_ollama_row    (StewardProvidersPage *self);
GtkWidget          *steward_providers_page_get_add_error_row (StewardProvidersPage *self);
void                steward_providers_page_get_add_rows      (StewardProvidersPage  *self,
                                                              AdwComboRow          **kind,
                                                              AdwEntryRow          **name,
                                                              AdwEntryRow          **url);

G_END_DECLS

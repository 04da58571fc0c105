/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "steward-model-catalog.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_MODELS_PAGE (steward_models_page_get_type ())

G_DECLARE_FINAL_TYPE (StewardModelsPage, steward_models_page, STEWARD, MODELS_PAGE, AdwPreferencesPage)

/* The Models page of Preferences: the person's models with their scores,
 * and the hint map. Its "Find Models" group is filled by the window, which
 * knows the providers. */
void                 steward_models_page_set_catalog        (StewardModelsPage   *self,
                                                             StewardModelCatalog *catalog);
AdwPreferencesGroup *steward_models_page_get_refresh_group  (StewardModelsPage   *self);

/* For tests. */
AdwExpanderRow      *steward_models_page_get_model_row      (StewardModelsPage   *self,
                                                             const char          *id);
AdwActionRow        *steward_models_page_get_hint_row       (StewardModelsPage   *self,
                                                             const char          *hint);
void                 steward_models_page_get_hint_form      (StewardModelsPage   *self,
                                                             AdwEntryRow        **hint,
                                                             AdwComboRow        **model);
GtkWidget           *steward_models_page_get_hint_error_row (StewardModelsPage   *self);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "steward-host.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_SAMPLING_PAGE (steward_sampling_page_get_type ())

G_DECLARE_FINAL_TYPE (StewardSamplingPage, steward_sampling_page, STEWARD, SAMPLING_PAGE, AdwPreferencesPage)

/* The Sampling page of Preferences: the defaults a new server gets, and
 * each server's policy, limits and models. */
void            steward_sampling_page_set_host       (StewardSamplingPage *self,
                                                      StewardHost         *host);
/* Gives each server not seen before the defaults in @settings, once. */
void            steward_sampling_page_apply_defaults (StewardHost         *host,
                                                      GSettings           *settings);
/* For tests: a server's row, by name. */
AdwExpanderRow *steward_sampling_page_get_server_row (StewardSamplingPage *self,
                                                      const char          *server);

G_END_DECLS

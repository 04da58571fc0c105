/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "steward-model-catalog.h"
#include "steward-sampling-broker.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_SAMPLING_ROW (steward_sampling_row_get_type ())

G_DECLARE_FINAL_TYPE (StewardSamplingRow, steward_sampling_row, STEWARD, SAMPLING_ROW, AdwExpanderRow)

/* A server on the Sampling page: its policy, limits and tokens used, and
 * which of the catalogue's models may answer it. The row edits the
 * broker's settings of the server and follows them and the catalogue. */
GtkWidget  *steward_sampling_row_new             (StewardSamplingBroker *broker,
                                                  StewardModelCatalog   *catalog,
                                                  const char            *server);
const char *steward_sampling_row_get_server_name (StewardSamplingRow    *self);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "steward-model-catalog.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_MODEL_ROW (steward_model_row_get_type ())

G_DECLARE_FINAL_TYPE (StewardModelRow, steward_model_row, STEWARD, MODEL_ROW, AdwExpanderRow)

/* A model on the Models page: its scores to edit, and its removal.
 * The row follows the model; a score the person changes is the
 * "scores-edited" signal, with the three new scores. The remove button
 * activates the window's "prefs.remove-model" with the model's id. */
GtkWidget    *steward_model_row_new       (StewardModel    *model);
StewardModel *steward_model_row_get_model (StewardModelRow *self);

G_END_DECLS

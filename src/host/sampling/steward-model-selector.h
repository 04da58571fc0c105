/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "steward-model-catalog.h"

G_BEGIN_DECLS

/*
 * modelPreferences → a model from the catalogue, with a sentence that
 * explains the choice (shown in the sampling dialog). In order: each hint
 * (in the request's order) first through the person's hint map, then as a
 * case-insensitive substring of the allowed models' names; else the best
 * weighted score for the request's costPriority / speedPriority /
 * intelligencePriority (cost scored as 1 - cost) among the allowed models;
 * ties go to the catalogue order. @allowed (nullable) lists the model ids a
 * server may use (NULL: all); @local_only drops models that are not local.
 * Returns the model (a new reference), or NULL (and a reason) when no
 * model is allowed: the manual provider then answers. Hints and names are
 * compared case-insensitively; a family in the hint map matches a hint
 * that contains it, the longest family first.
 */

StewardModel *steward_model_selector_select (StewardModelCatalog *catalog,
                                             JsonObject          *model_preferences,
                                             const char * const  *allowed,
                                             gboolean             local_only,
                                             char               **reason);

G_END_DECLS

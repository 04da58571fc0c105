/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "steward-approval.h"
#include "steward-model-catalog.h"
#include "steward-sampling-broker.h"

G_BEGIN_DECLS

/*
 * What the sampling broker tells the person about a request besides the
 * request itself: the policy in a sentence, what becomes of
 * "includeContext", and which models they may pick instead of the one
 * chosen for them.
 */

const char *steward_sampling_describe_policy          (StewardSamplingPolicy  policy);
/* NULL when the server asked for no context. */
char       *steward_sampling_describe_include_context (JsonObject            *params);

/* Each model of @usable (ids) that @catalog knows, as {"id", "name",
 * "provider", "local"}, the local ones only with @local_only; NULL when
 * none is left. */
JsonArray  *steward_sampling_model_choices_new        (StewardModelCatalog   *catalog,
                                                       const char * const    *usable,
                                                       gboolean               local_only);

/* The model the person picked in @approval instead of @current, when it
 * is one of the approval's choices; NULL otherwise. */
const char *steward_sampling_picked_model             (StewardApproval       *approval,
                                                       const char            *current);

G_END_DECLS

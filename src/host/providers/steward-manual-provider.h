/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "steward-provider.h"

G_BEGIN_DECLS

/*
 * The provider that is always there: the person writes the answer. Its
 * chat turn produces no text of its own; it returns at once an answer with
 * empty text and model "manual", which the sampling dialog (or the chat)
 * lets the person fill in. Its only model is "manual".
 */

#define STEWARD_MANUAL_PROVIDER_ID "manual"

#define STEWARD_TYPE_MANUAL_PROVIDER (steward_manual_provider_get_type ())

G_DECLARE_FINAL_TYPE (StewardManualProvider, steward_manual_provider, STEWARD, MANUAL_PROVIDER, GObject)

StewardManualProvider *steward_manual_provider_new (void);

G_END_DECLS

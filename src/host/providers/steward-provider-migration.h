/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "steward-providers.h"
#include "steward-secrets.h"

G_BEGIN_DECLS

/*
 * Providers set up before providers.json kept their base URL in GSettings
 * ("provider-openai-base-url", "provider-anthropic-base-url") and their
 * key in the keyring under "provider.ID", where StewardProviders keeps a
 * provider's key too. This turns them into providers, once.
 */

void     steward_providers_migrate_legacy_async  (StewardProviders     *self,
                                                  GSettings            *settings,
                                                  StewardSecrets       *secrets,
                                                  GCancellable         *cancellable,
                                                  GAsyncReadyCallback   callback,
                                                  gpointer              user_data);
/* Returns how many providers were added. */
guint    steward_providers_migrate_legacy_finish (StewardProviders     *self,
                                                  GAsyncResult         *result,
                                                  GError              **error);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "steward-provider.h"
#include "steward-secrets.h"

G_BEGIN_DECLS

/*
 * The providers the person configured, as a GListModel of StewardProvider,
 * kept in providers.json in the config folder:
 * {"providers": [{"id": "ollama", "kind": "openai-compatible"|"anthropic",
 *   "name": "Ollama", "baseUrl": "http://localhost:11434/v1",
 *   "keyId": "provider:ollama" | null}]}.
 * Keys live in the keyring under keyId (StewardSecrets), never in the file.
 * The manual provider is always present (id "manual") and is the default
 * when nothing else is configured.
 */

typedef enum {
  STEWARD_PROVIDER_KIND_OPENAI_COMPATIBLE,
  STEWARD_PROVIDER_KIND_ANTHROPIC,
  STEWARD_PROVIDER_KIND_MANUAL,
} StewardProviderKind;

#define STEWARD_TYPE_PROVIDERS (steward_providers_get_type ())

G_DECLARE_FINAL_TYPE (StewardProviders, steward_providers, STEWARD, PROVIDERS, GObject)

StewardProviders *steward_providers_new            (GFile                *file,
                                                    StewardSecrets       *secrets);
void              steward_providers_load_async     (StewardProviders     *self,
                                                    GCancellable         *cancellable,
                                                    GAsyncReadyCallback   callback,
                                                    gpointer              user_data);
gboolean          steward_providers_load_finish    (StewardProviders     *self,
                                                    GAsyncResult         *result,
                                                    GError              **error);
StewardProvider  *steward_providers_lookup         (StewardProviders     *self,
                                                    const char           *id);
StewardProvider  *steward_providers_get_manual     (StewardProviders     *self);
/* Adds or replaces (by id) and saves. @key_id may be NULL. */
StewardProvider  *steward_providers_put            (StewardProviders     *self,
                                                    const char           *id,
                                                    StewardProviderKind   kind,
                                                    const char           *name,
                                                    const char           *base_url,
                                                    const char           *key_id,
                                                    GError              **error);
gboolean          steward_providers_remove         (StewardProviders     *self,
                                                    const char           *id,
                                                    GError              **error);
/* Checks whether Ollama answers on http://localhost:11434 (GET /api/tags,
 * short timeout); TRUE when it does, for the first-run offer. */
void              steward_providers_detect_ollama_async  (StewardProviders    *self,
                                                          GCancellable        *cancellable,
                                                          GAsyncReadyCallback  callback,
                                                          gpointer             user_data);
gboolean          steward_providers_detect_ollama_finish (StewardProviders    *self,
                                                          GAsyncResult        *result,
                                                          GError             **error);

G_END_DECLS

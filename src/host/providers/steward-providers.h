/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "steward-file-backed.h"
#include "steward-provider.h"
#include "steward-secrets.h"

G_BEGIN_DECLS

/*
 * The providers the person configured, as a GListModel of StewardProvider,
 * kept in providers.json in the config folder:
 * {"providers": [{"id": "ollama", "kind": "openai-compatible"|"anthropic",
 *   "name": "Ollama", "baseUrl": "http://localhost:11434/v1",
 *   "keyId": "provider.ollama" | null}]}.
 * Keys live in the keyring under keyId (StewardSecrets), never in the file;
 * keyring ids allow letters, digits, "-", "_" and ".", hence "provider.ID"
 * (steward_providers_make_key_id()). The manual provider is always present
 * (id "manual"), first, and is the default when nothing else is
 * configured. Entries this version does not understand (a kind added
 * later, say) are kept in the file as they were, but not offered.
 */

typedef enum {
  STEWARD_PROVIDER_KIND_OPENAI_COMPATIBLE,
  STEWARD_PROVIDER_KIND_ANTHROPIC,
  STEWARD_PROVIDER_KIND_MANUAL,
} StewardProviderKind;

#define STEWARD_TYPE_PROVIDERS (steward_providers_get_type ())

G_DECLARE_FINAL_TYPE (StewardProviders, steward_providers, STEWARD, PROVIDERS,
                      StewardFileBacked)

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
 * short timeout); TRUE when it does, for the first-run offer. The address
 * can be moved with the environment variable STEWARD_OLLAMA_URL (tests). */
void              steward_providers_detect_ollama_async  (StewardProviders    *self,
                                                          GCancellable        *cancellable,
                                                          GAsyncReadyCallback  callback,
                                                          gpointer             user_data);
gboolean          steward_providers_detect_ollama_finish (StewardProviders    *self,
                                                          GAsyncResult        *result,
                                                          GError             **error);
/* The base URL to put() for the Ollama that detect_ollama() looks for. */
char             *steward_providers_dup_ollama_base_url  (void);
/* The kind of a configured provider; MANUAL for "manual" and unknown ids. */
StewardProviderKind steward_providers_get_kind           (StewardProviders    *self,
                                                          const char          *id);
/* "provider.ID", the keyring id for provider @id's key. */
char             *steward_providers_make_key_id          (const char          *id);
/* Waits until what put() and remove() changed is written; fails with the
 * error of a write that failed since the last flush. */
void              steward_providers_flush_async          (StewardProviders    *self,
                                                          GCancellable        *cancellable,
                                                          GAsyncReadyCallback  callback,
                                                          gpointer             user_data);
gboolean          steward_providers_flush_finish         (StewardProviders    *self,
                                                          GAsyncResult        *result,
                                                          GError             **error);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include <json-glib/json-glib.h>

#include "steward-secrets.h"
#include "steward-server-config.h"

G_BEGIN_DECLS

/*
 * What makes a consent in consents.json one that Steward wrote: an
 * HMAC-SHA256, under a random 256-bit key kept in the keyring, over the
 * server's name and the fingerprint of what the person allowed
 * (steward_server_config_dup_fingerprint()). Anything that can write the
 * servers file can write a plain hash beside it; without the key it cannot
 * write a seal that verifies, so such an entry counts as no consent.
 *
 * The key is created on first use, looked up once per process and kept in
 * memory. Without a keyring (none running, or it stays locked) nothing can
 * be sealed: consents then last until Steward quits, and the person is
 * asked again on the next start.
 */

typedef enum {
  STEWARD_CONSENT_KEY_UNKNOWN,      /* not looked up yet, or the look-up is under way */
  STEWARD_CONSENT_KEY_READY,        /* consents can be sealed and verified */
  STEWARD_CONSENT_KEY_UNAVAILABLE,  /* no keyring: no consent is remembered */
} StewardConsentKeyState;

#define STEWARD_TYPE_CONSENT_STORE (steward_consent_store_get_type ())

G_DECLARE_FINAL_TYPE (StewardConsentStore, steward_consent_store, STEWARD, CONSENT_STORE, GObject)

/* The keyring item's id. */
#define STEWARD_CONSENT_KEY_ID "steward-consent-key"

StewardConsentStore   *steward_consent_store_new          (StewardSecrets       *secrets);
/* A store with a key already in hand (tests, and tools that must not touch
 * the keyring); @key is copied. */
StewardConsentStore   *steward_consent_store_new_with_key (const guint8         *key,
                                                           gsize                 length);

/* Looks the key up, creating and storing one when the keyring has none.
 * Fails (and the state becomes UNAVAILABLE) when the keyring cannot be
 * reached or stays locked; the error says so in words a person can act
 * on. Calls made while one is under way share its answer. */
void                   steward_consent_store_load_async   (StewardConsentStore  *self,
                                                           GCancellable         *cancellable,
                                                           GAsyncReadyCallback   callback,
                                                           gpointer              user_data);
gboolean               steward_consent_store_load_finish  (StewardConsentStore  *self,
                                                           GAsyncResult         *result,
                                                           GError              **error);

/* "state" notifies when it changes. */
StewardConsentKeyState steward_consent_store_get_state    (StewardConsentStore  *self);

/* Returns: (nullable): the seal (64 hex digits) of @name's consent to
 * @fingerprint, or %NULL when there is no key. */
char                  *steward_consent_store_seal         (StewardConsentStore  *self,
                                                           const char           *name,
                                                           const char           *fingerprint);
/* Whether @seal is what steward_consent_store_seal() gives for @name and
 * @fingerprint; compared in constant time. FALSE without a key. */
gboolean               steward_consent_store_verify       (StewardConsentStore  *self,
                                                           const char           *name,
                                                           const char           *fingerprint,
                                                           const char           *seal);

/* The entry as consents.json records it, values that look secret masked. */
JsonObject            *steward_consent_dup_record         (StewardServerConfig  *server);

/*
 * One server's consent as consents.json holds it (reference counted,
 * read-only once made): {"fingerprint", "seal", "config", "time"}.
 * "config" is what the person saw (steward_consent_dup_record()) and
 * @server the same parsed, to show what changed since.
 */
typedef struct {
  char                *fingerprint;
  char                *seal;
  JsonObject          *config;
  char                *time;
  StewardServerConfig *server;
} StewardConsent;

/* Made now for @server, sealed when @store (nullable) has a key. */
StewardConsent        *steward_consent_new                (StewardConsentStore  *store,
                                                           StewardServerConfig  *server);
/* NULL when @node is not a consent entry. */
StewardConsent        *steward_consent_new_from_json      (const char           *name,
                                                           JsonNode             *node);
JsonObject            *steward_consent_to_json            (StewardConsent       *self);
StewardConsent        *steward_consent_ref                (StewardConsent       *self);
void                   steward_consent_unref              (StewardConsent       *self);
/* Same fingerprint and seal; either may be NULL. */
gboolean               steward_consent_equal              (StewardConsent       *a,
                                                           StewardConsent       *b);
/* Whether Steward sealed @self for @name and @fingerprint under @store's
 * key; FALSE without a store or a key. */
gboolean               steward_consent_verifies           (StewardConsent       *self,
                                                           StewardConsentStore  *store,
                                                           const char           *name,
                                                           const char           *fingerprint);
/* Name → StewardConsent. */
GHashTable            *steward_consent_table_new          (void);

G_END_DECLS

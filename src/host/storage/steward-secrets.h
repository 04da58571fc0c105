/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/*
 * The keyring, through libsecret's async API and one schema
 * ("io.github.stewardmcp.Steward.Secret", attributes "id" and "kind").
 * A secret is known to the rest of Steward only by its id; the servers file
 * refers to one with the string "${keyring:ID}". Values handed out must be
 * released with steward_secret_value_free(), which wipes them.
 */

#define STEWARD_SECRETS_ERROR (steward_secrets_error_quark ())

typedef enum {
  STEWARD_SECRETS_ERROR_UNAVAILABLE,  /* no keyring service, or it is locked and stays locked */
  STEWARD_SECRETS_ERROR_NOT_FOUND,    /* no secret with that id */
  STEWARD_SECRETS_ERROR_FAILED,
} StewardSecretsError;

typedef enum {
  STEWARD_SECRET_KIND_PROVIDER_KEY,   /* an LLM provider's API key */
  STEWARD_SECRET_KIND_SERVER_ENV,     /* an environment value for a local server */
  STEWARD_SECRET_KIND_SERVER_HEADER,  /* a header value for a remote server */
  STEWARD_SECRET_KIND_CONSENT_KEY,    /* the key that seals consents (steward-consent-store.h) */
  STEWARD_SECRET_KIND_SIGN_IN,        /* a remote server's tokens (steward-auth-store.h) */
  STEWARD_SECRET_KIND_CLIENT_SECRET,  /* the secret of a server's "oauth" client */
} StewardSecretKind;

#define STEWARD_TYPE_SECRETS (steward_secrets_get_type ())

G_DECLARE_FINAL_TYPE (StewardSecrets, steward_secrets, STEWARD, SECRETS, GObject)

GQuark          steward_secrets_error_quark     (void);

StewardSecrets *steward_secrets_new             (void);

/* @id may be NULL: a new id is made. The finish function returns the id. */
void            steward_secrets_store_async     (StewardSecrets       *self,
                                                 const char           *id,
                                                 StewardSecretKind     kind,
                                                 const char           *label,
                                                 const char           *value,
                                                 GCancellable         *cancellable,
                                                 GAsyncReadyCallback   callback,
                                                 gpointer              user_data);
char           *steward_secrets_store_finish    (StewardSecrets       *self,
                                                 GAsyncResult         *result,
                                                 GError              **error);
/* Returns the value; free it with steward_secret_value_free(). */
void            steward_secrets_lookup_async    (StewardSecrets       *self,
                                                 const char           *id,
                                                 GCancellable         *cancellable,
                                                 GAsyncReadyCallback   callback,
                                                 gpointer              user_data);
char           *steward_secrets_lookup_finish   (StewardSecrets       *self,
                                                 GAsyncResult         *result,
                                                 GError              **error);
void            steward_secrets_clear_async     (StewardSecrets       *self,
                                                 const char           *id,
                                                 GCancellable         *cancellable,
                                                 GAsyncReadyCallback   callback,
                                                 gpointer              user_data);
gboolean        steward_secrets_clear_finish    (StewardSecrets       *self,
                                                 GAsyncResult         *result,
                                                 GError              **error);
/* Looks up every "${keyring:ID}" among the values of @table (string →
 * string) and returns a new table with the references replaced. */
void            steward_secrets_resolve_async   (StewardSecrets       *self,
                                                 GHashTable           *table,
                                                 GCancellable         *cancellable,
                                                 GAsyncReadyCallback   callback,
                                                 gpointer              user_data);
GHashTable     *steward_secrets_resolve_finish  (StewardSecrets       *self,
                                                 GAsyncResult         *result,
                                                 GError              **error);

/* "${keyring:ID}" helpers; reference_get_id returns NULL for a plain value. */
char           *steward_secret_reference_new    (const char           *id);
char           *steward_secret_reference_get_id (const char           *value);
/* Whether a variable or header name and its value look like a secret
 * (API_KEY, TOKEN, Authorization, key-shaped values…). */
gboolean        steward_secret_looks_secret     (const char           *name,
                                                 const char           *value);
/* The value shown masked: "sk-…1234" style, never more than four clear
 * characters. */
char           *steward_secret_mask             (const char           *value);
void            steward_secret_value_free       (char                 *value);

G_END_DECLS

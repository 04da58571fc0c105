/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "steward-secrets.h"

G_BEGIN_DECLS

/*
 * The sign-in of one remote server (the MCP authorization spec, OAuth 2.1):
 * which authorization server it sends the person to, the token Steward
 * holds for it and who that token says is signed in. Tokens are kept in
 * the keyring (StewardAuthStore) and every one is given to the redactor,
 * so that no log shows it. StewardServer owns it and asks it for the
 * `Authorization` header, and for a token when the server answers 401.
 */

/**
 * StewardServerAuthState:
 * @STEWARD_SERVER_AUTH_STATE_NONE: the server asked for no sign-in
 * @STEWARD_SERVER_AUTH_STATE_NEEDED: the server wants the person to sign in
 * @STEWARD_SERVER_AUTH_STATE_WAITING: the browser shows the authorization
 *   server; Steward waits for its answer
 * @STEWARD_SERVER_AUTH_STATE_SIGNED_IN: Steward holds a token
 */
typedef enum {
  STEWARD_SERVER_AUTH_STATE_NONE,
  STEWARD_SERVER_AUTH_STATE_NEEDED,
  STEWARD_SERVER_AUTH_STATE_WAITING,
  STEWARD_SERVER_AUTH_STATE_SIGNED_IN,
} StewardServerAuthState;

#define STEWARD_TYPE_SERVER_AUTH_STATE (steward_server_auth_state_get_type ())
GType steward_server_auth_state_get_type (void) G_GNUC_CONST;

#define STEWARD_TYPE_SERVER_AUTH (steward_server_auth_get_type ())

G_DECLARE_FINAL_TYPE (StewardServerAuth, steward_server_auth, STEWARD, SERVER_AUTH, GObject)

/* Properties (all notify): "state", "authorization-host" (the host of the
 * authorization server, once known), "account" (who the token says is
 * signed in, or NULL where it does not say), "expires-at" (seconds since
 * the epoch, 0 when unknown). */
StewardServerAuth      *steward_server_auth_new                    (StewardSecrets      *secrets);
/* The server's name (for the page the browser shows) and address; a new
 * address forgets the token held for the old one. */
void                    steward_server_auth_set_target             (StewardServerAuth   *self,
                                                                    const char          *name,
                                                                    const char          *url);
StewardServerAuthState  steward_server_auth_get_state              (StewardServerAuth   *self);
const char             *steward_server_auth_get_authorization_host (StewardServerAuth   *self);
const char             *steward_server_auth_get_account            (StewardServerAuth   *self);
gint64                  steward_server_auth_get_expires_at         (StewardServerAuth   *self);
/* "Bearer …" for the `Authorization` header, or NULL without a token. */
const char             *steward_server_auth_get_authorization      (StewardServerAuth   *self);

/* A challenge that needs a new sign-in, for more scopes, while connected. */
void                    steward_server_auth_step_up                (StewardServerAuth   *self,
                                                                    const char          *challenge);

/* After a 401 with @challenge: finds the authorization server and a token
 * without the person (the keyring's, refreshed if it ran out). TRUE with
 * a token to try; FALSE with no error when the person must sign in (state
 * NEEDED). The token just refused is not offered again. */
void                    steward_server_auth_resume_async           (StewardServerAuth   *self,
                                                                    const char          *challenge,
                                                                    GCancellable        *cancellable,
                                                                    GAsyncReadyCallback  callback,
                                                                    gpointer             user_data);
gboolean                steward_server_auth_resume_finish          (StewardServerAuth   *self,
                                                                    GAsyncResult        *result,
                                                                    GError             **error);
/* Opens the authorization server in the desktop's browser (the OpenURI
 * portal inside Flatpak) and waits for its answer on a loopback address
 * until @cancellable; the token goes to the keyring. */
void                    steward_server_auth_sign_in_async          (StewardServerAuth   *self,
                                                                    GCancellable        *cancellable,
                                                                    GAsyncReadyCallback  callback,
                                                                    gpointer             user_data);
gboolean                steward_server_auth_sign_in_finish         (StewardServerAuth   *self,
                                                                    GAsyncResult        *result,
                                                                    GError             **error);
/* Revokes the token where the authorization server offers that, and
 * forgets it and the keyring's item. */
void                    steward_server_auth_sign_out_async         (StewardServerAuth   *self,
                                                                    GCancellable        *cancellable,
                                                                    GAsyncReadyCallback  callback,
                                                                    gpointer             user_data);
gboolean                steward_server_auth_sign_out_finish        (StewardServerAuth   *self,
                                                                    GAsyncResult        *result,
                                                                    GError             **error);

G_END_DECLS

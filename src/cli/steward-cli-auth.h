/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "steward-auth-store.h"
#include "steward-cli-options.h"
#include "steward-server-config.h"

G_BEGIN_DECLS

/**
 * StewardCliSignOut:
 * @STEWARD_CLI_SIGN_OUT_NOT_SIGNED_IN: the keyring held no sign-in
 * @STEWARD_CLI_SIGN_OUT_FORGOTTEN: removed from the keyring; the server
 *   offers no revocation, or refused it
 * @STEWARD_CLI_SIGN_OUT_REVOKED: revoked at the server and removed
 */
typedef enum {
  STEWARD_CLI_SIGN_OUT_NOT_SIGNED_IN,
  STEWARD_CLI_SIGN_OUT_FORGOTTEN,
  STEWARD_CLI_SIGN_OUT_REVOKED,
} StewardCliSignOut;

#define STEWARD_TYPE_CLI_AUTH (steward_cli_auth_get_type ())

G_DECLARE_FINAL_TYPE (StewardCliAuth, steward_cli_auth, STEWARD, CLI_AUTH, GObject)

StewardCliAuth *steward_cli_auth_new              (StewardCliOptions    *options,
                                                   const char           *url,
                                                   StewardServerConfig  *server,
                                                   const char           *server_secret,
                                                   GError              **error);
void            steward_cli_auth_set_store        (StewardCliAuth       *self,
                                                   StewardAuthStore     *store);
char           *steward_cli_auth_get_challenge    (StewardCliAuth       *self,
                                                   const GError         *error);
void            steward_cli_auth_authorize_async  (StewardCliAuth       *self,
                                                   const char           *challenge,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
char           *steward_cli_auth_authorize_finish (StewardCliAuth       *self,
                                                   GAsyncResult         *result,
                                                   GError              **error);

void            steward_cli_auth_lookup_async     (StewardCliAuth       *self,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
McpAuthToken   *steward_cli_auth_lookup_finish    (StewardCliAuth       *self,
                                                   GAsyncResult         *result,
                                                   GError              **error);
void            steward_cli_auth_sign_out_async   (StewardCliAuth       *self,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
StewardCliSignOut steward_cli_auth_sign_out_finish (StewardCliAuth      *self,
                                                   GAsyncResult         *result,
                                                   GError              **error);
char           *steward_cli_read_option_file      (const char           *path,
                                                   const char           *option,
                                                   GError              **error);

G_END_DECLS

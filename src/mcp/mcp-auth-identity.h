/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "mcp-auth-token.h"

G_BEGIN_DECLS

char *mcp_auth_identity_from_claims         (JsonObject           *claims);
char *mcp_auth_identity_from_jwt            (const char           *jwt);
char *mcp_auth_identity_from_token          (const McpAuthToken   *token);
void  mcp_auth_identity_fetch_userinfo_async (const char          *endpoint,
                                              const char          *access_token,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data);
char *mcp_auth_identity_fetch_userinfo_finish (GAsyncResult       *result,
                                               GError            **error);

G_END_DECLS

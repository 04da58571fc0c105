/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "mcp-auth-flow.h"
#include "mcp-auth-token.h"
#include "steward-secrets.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_AUTH_STORE (steward_auth_store_get_type ())

G_DECLARE_FINAL_TYPE (StewardAuthStore, steward_auth_store, STEWARD, AUTH_STORE, GObject)

StewardAuthStore *steward_auth_store_new           (StewardSecrets       *secrets);
char             *steward_auth_store_make_id       (const char           *issuer,
                                                    const char           *resource);
void              steward_auth_store_save_async    (StewardAuthStore     *self,
                                                    const McpAuthToken   *token,
                                                    GCancellable         *cancellable,
                                                    GAsyncReadyCallback   callback,
                                                    gpointer              user_data);
gboolean          steward_auth_store_save_finish   (StewardAuthStore     *self,
                                                    GAsyncResult         *result,
                                                    GError              **error);
void              steward_auth_store_load_async    (StewardAuthStore     *self,
                                                    const char           *issuer,
                                                    const char           *resource,
                                                    GCancellable         *cancellable,
                                                    GAsyncReadyCallback   callback,
                                                    gpointer              user_data);
void              steward_auth_store_load_for_flow_async (StewardAuthStore *self,
                                                    McpAuthFlow          *flow,
                                                    GCancellable         *cancellable,
                                                    GAsyncReadyCallback   callback,
                                                    gpointer              user_data);
McpAuthToken     *steward_auth_store_load_finish   (StewardAuthStore     *self,
                                                    GAsyncResult         *result,
                                                    GError              **error);
void              steward_auth_store_forget_async  (StewardAuthStore     *self,
                                                    const char           *issuer,
                                                    const char           *resource,
                                                    GCancellable         *cancellable,
                                                    GAsyncReadyCallback   callback,
                                                    gpointer              user_data);
gboolean          steward_auth_store_forget_finish (StewardAuthStore     *self,
                                                    GAsyncResult         *result,
                                                    GError              **error);

G_END_DECLS

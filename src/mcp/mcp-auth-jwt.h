/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *mcp_auth_jwt_sign_with_key    (const char  *private_key_pem,
                                     const char  *client_id,
                                     const char  *audience,
                                     GError     **error);
char *mcp_auth_jwt_sign_with_secret (const char  *client_secret,
                                     const char  *client_id,
                                     const char  *audience);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The random values and encodings of an OAuth 2.1 authorization request:
 * pure functions apart from the system's random source. */
char     *mcp_auth_base64url_encode     (const guchar *data,
                                         gsize         length);
char     *mcp_auth_random_string        (gsize         n_bytes);
char     *mcp_auth_pkce_new_verifier    (void);
char     *mcp_auth_pkce_challenge       (const char   *verifier);

G_END_DECLS

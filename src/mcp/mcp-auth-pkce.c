/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-auth"

#include "config.h"

#include <string.h>
#include <sys/random.h>

#include "mcp-auth-pkce.h"

/**
 * mcp_auth_base64url_encode:
 *
 * Returns: (transfer full): @data in the URL-safe alphabet without padding
 *   (RFC 4648 §5), as PKCE and JWTs write it
 */
char *
mcp_auth_base64url_encode (const guchar *data,
                           gsize         length)
{
  char *text = g_base64_encode (data, length);
  gsize n = strlen (text);

  while (n > 0 && text[n - 1] == '=')
    text[--n] = '\0';

  for (char *p = text; *p != '\0'; p++)
    {
      if (*p == '+')
        *p = '-';
      else if (*p == '/')
        *p = '_';
    }

  return text;
}

/**
 * mcp_auth_random_string:
 * @n_bytes: how many random bytes, at most 256
 *
 * Returns: (transfer full): @n_bytes from the kernel's random source,
 *   base64url-encoded: a `state`, a verifier, a `jti`
 */
char *
mcp_auth_random_string (gsize n_bytes)
{
  guchar buffer[256];
  gsize done = 0;

  g_return_val_if_fail (n_bytes > 0 && n_bytes <= sizeof buffer, NULL);

  /* getrandom() blocks only before the kernel's pool is first ready, long
   * before a desktop session starts; it fails only on a bad argument. */
  while (done < n_bytes)
    {
      gssize got = getrandom (buffer + done, n_bytes - done, 0);

      if (got < 0)
        g_error ("the system's random source failed; no secret can be made");
      done += got;
    }

  return mcp_auth_base64url_encode (buffer, n_bytes);
}

/**
 * mcp_auth_pkce_new_verifier:
 *
 * Returns: (transfer full): a code verifier of 43 characters, 256 bits of
 *   randomness (RFC 7636 §4.1)
 */
char *
mcp_auth_pkce_new_verifier (void)
{
  return mcp_auth_random_string (32);
}

/**
 * mcp_auth_pkce_challenge:
 *
 * Returns: (transfer full): the S256 code challenge of @verifier,
 *   BASE64URL(SHA256(verifier))
 */
char *
mcp_auth_pkce_challenge (const char *verifier)
{
  g_autoptr(GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);
  guint8 digest[32];
  gsize length = sizeof digest;

  g_checksum_update (checksum, (const guchar *) verifier, strlen (verifier));
  g_checksum_get_digest (checksum, digest, &length);

  return mcp_auth_base64url_encode (digest, length);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-auth"

#include "config.h"

#include <string.h>

#include <json-glib/json-glib.h>

#include "mcp-auth-flow.h"
#include "mcp-auth-pkce.h"
#include "mcp-gnutls.h"

#include "mcp-auth-jwt.h"

/* How long a client assertion is good for: long enough for one token
 * request, short enough that a copy is soon worthless (RFC 7523 §3). */
#define ASSERTION_LIFETIME_S 300

static char *
encode_part (const char *json)
{
  return mcp_auth_base64url_encode ((const guchar *) json, strlen (json));
}

/* header.payload, both base64url, of an assertion that @client_id makes
 * about itself to @audience (RFC 7523 §2.2). */
static char *
signing_input (const char *algorithm,
               const char *client_id,
               const char *audience)
{
  g_autoptr(GString) payload = g_string_new ("{");
  g_autofree char *header = g_strdup_printf ("{\"alg\":\"%s\",\"typ\":\"JWT\"}", algorithm);
  g_autofree char *jti = mcp_auth_random_string (16);
  g_autofree char *header_part = NULL;
  g_autofree char *payload_part = NULL;
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_VALUE);
  g_autofree char *quoted_id = NULL;
  g_autofree char *quoted_audience = NULL;

  json_node_set_string (node, client_id);
  quoted_id = json_to_string (node, FALSE);
  json_node_set_string (node, audience);
  quoted_audience = json_to_string (node, FALSE);

  g_string_append_printf (payload,
                          "\"iss\":%s,\"sub\":%s,\"aud\":%s,\"jti\":\"%s\","
                          "\"iat\":%" G_GINT64_FORMAT ",\"exp\":%" G_GINT64_FORMAT "}",
                          quoted_id, quoted_id, quoted_audience, jti,
                          now, now + ASSERTION_LIFETIME_S);

  header_part = encode_part (header);
  payload_part = encode_part (payload->str);

  return g_strconcat (header_part, ".", payload_part, NULL);
}

/* An integer of an ECDSA signature, left-padded to @size bytes as JWS
 * wants it (RFC 7518 §3.4). */
static gboolean
append_fixed (GByteArray          *out,
              const gnutls_datum_t *value,
              guint                size)
{
  const guchar *data = value->data;
  guint length = value->size;

  while (length > size && data[0] == 0)
    {
      data++;
      length--;
    }

  if (length > size)
    return FALSE;

  for (guint i = length; i < size; i++)
    g_byte_array_append (out, (const guint8 *) "", 1);
  g_byte_array_append (out, data, length);

  return TRUE;
}

/**
 * mcp_auth_jwt_sign_with_key:
 * @private_key_pem: a PKCS #8 or PKCS #1 private key, PEM: EC P-256 signs
 *   with ES256, RSA with RS256
 * @audience: the authorization server's issuer identifier
 *
 * A client assertion for `private_key_jwt` (RFC 7523).
 *
 * Returns: (transfer full) (nullable): the signed JWT, or %NULL with
 *   %MCP_AUTH_ERROR_CLIENT when the key cannot be used
 */
char *
mcp_auth_jwt_sign_with_key (const char  *private_key_pem,
                            const char  *client_id,
                            const char  *audience,
                            GError     **error)
{
  const McpGnutls *tls = mcp_gnutls_get (error);
  gnutls_privkey_t key = NULL;
  gnutls_datum_t pem = { (unsigned char *) private_key_pem, strlen (private_key_pem) };
  gnutls_datum_t data;
  gnutls_datum_t signature = { NULL, 0 };
  g_autofree char *input = NULL;
  g_autofree char *encoded = NULL;
  g_autoptr(GByteArray) raw = g_byte_array_new ();
  gnutls_sign_algorithm_t algorithm;
  const char *name;
  int bits = 0;
  int status;

  if (tls == NULL)
    return NULL;

  if (tls->privkey_init (&key) < 0)
    {
      g_set_error_literal (error, MCP_AUTH_ERROR, MCP_AUTH_ERROR_CLIENT,
                           "Out of memory for the client's private key");
      return NULL;
    }

  status = tls->privkey_import_x509_raw (key, &pem, GNUTLS_X509_FMT_PEM, NULL, 0);
  if (status < 0)
    {
      g_set_error (error, MCP_AUTH_ERROR, MCP_AUTH_ERROR_CLIENT,
                   "The client's private key is not a PEM private key: %s",
                   tls->strerror (status));
      tls->privkey_deinit (key);
      return NULL;
    }

  switch (tls->privkey_get_pk_algorithm (key, (unsigned int *) &bits))
    {
    case GNUTLS_PK_ECDSA:
      algorithm = GNUTLS_SIGN_ECDSA_SHA256;
      name = "ES256";
      break;

    case GNUTLS_PK_RSA:
      algorithm = GNUTLS_SIGN_RSA_SHA256;
      name = "RS256";
      break;

    default:
      g_set_error_literal (error, MCP_AUTH_ERROR, MCP_AUTH_ERROR_CLIENT,
                           "The client's private key is neither EC nor RSA; only ES256 and "
                           "RS256 assertions can be made");
      tls->privkey_deinit (key);
      return NULL;
    }

  input = signing_input (name, client_id, audience);
  data.data = (unsigned char *) input;
  data.size = strlen (input);
  status = tls->privkey_sign_data2 (key, algorithm, 0, &data, &signature);
  tls->privkey_deinit (key);
  if (status < 0)
    {
      g_set_error (error, MCP_AUTH_ERROR, MCP_AUTH_ERROR_CLIENT,
                   "Signing the client assertion failed: %s", tls->strerror (status));
      return NULL;
    }

  if (algorithm == GNUTLS_SIGN_ECDSA_SHA256)
    {
      gnutls_datum_t r = { NULL, 0 };
      gnutls_datum_t s = { NULL, 0 };
      gboolean ok;

      /* gnutls gives DER; JWS wants r and s side by side. */
      status = tls->decode_rs_value (&signature, &r, &s);
      ok = status >= 0 && append_fixed (raw, &r, 32) && append_fixed (raw, &s, 32);
      (*tls->free) (r.data);
      (*tls->free) (s.data);
      if (!ok)
        {
          (*tls->free) (signature.data);
          g_set_error_literal (error, MCP_AUTH_ERROR, MCP_AUTH_ERROR_CLIENT,
                               "The client's EC key is not on P-256, which ES256 needs");
          return NULL;
        }
    }
  else
    g_byte_array_append (raw, signature.data, signature.size);

  (*tls->free) (signature.data);
  encoded = mcp_auth_base64url_encode (raw->data, raw->len);

  return g_strconcat (input, ".", encoded, NULL);
}

/**
 * mcp_auth_jwt_sign_with_secret:
 *
 * A client assertion for `client_secret_jwt`, HS256 with the client's
 * secret as key (RFC 7523).
 *
 * Returns: (transfer full): the signed JWT
 */
char *
mcp_auth_jwt_sign_with_secret (const char *client_secret,
                               const char *client_id,
                               const char *audience)
{
  g_autofree char *input = signing_input ("HS256", client_id, audience);
  g_autoptr(GHmac) hmac = g_hmac_new (G_CHECKSUM_SHA256, (const guchar *) client_secret,
                                      strlen (client_secret));
  guint8 digest[32];
  gsize length = sizeof digest;
  g_autofree char *encoded = NULL;

  g_hmac_update (hmac, (const guchar *) input, strlen (input));
  g_hmac_get_digest (hmac, digest, &length);
  encoded = mcp_auth_base64url_encode (digest, length);

  return g_strconcat (input, ".", encoded, NULL);
}

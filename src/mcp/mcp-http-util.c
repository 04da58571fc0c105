/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-http-transport"

#include "config.h"

#include <string.h>

#include "mcp-soup.h"

#include "mcp-http-util-private.h"

/* How much of a refusal's body an error message quotes. */
#define EXCERPT_CHARS 200

/* How much of a session id that breaks the rules an error may show (never
 * all of it). */
#define SESSION_ID_SHOWN 8

int
mcp_http_effective_port (GUri *uri)
{
  int port = g_uri_get_port (uri);

  if (port > 0)
    return port;

  return g_ascii_strcasecmp (g_uri_get_scheme (uri), "https") == 0 ? 443 : 80;
}

char *
mcp_http_describe_origin (GUri *uri)
{
  g_autofree char *host = g_ascii_strdown (g_uri_get_host (uri), -1);
  g_autofree char *scheme = g_ascii_strdown (g_uri_get_scheme (uri), -1);

  /* An IPv6 literal needs its brackets back. */
  if (strchr (host, ':') != NULL)
    return g_strdup_printf ("%s://[%s]:%d", scheme, host, mcp_http_effective_port (uri));

  return g_strdup_printf ("%s://%s:%d", scheme, host, mcp_http_effective_port (uri));
}

/* The origin as browsers define it: scheme, host and port, with a missing
 * port taken as the scheme's default. A URL without a host (a Location or
 * an endpoint such as `http:/path`) shares no one's origin. */
gboolean
mcp_http_same_origin (GUri *a,
                      GUri *b)
{
  const char *host_a = g_uri_get_host (a);
  const char *host_b = g_uri_get_host (b);

  return g_ascii_strcasecmp (g_uri_get_scheme (a), g_uri_get_scheme (b)) == 0 &&
         host_a != NULL && host_b != NULL &&
         g_ascii_strcasecmp (host_a, host_b) == 0 &&
         mcp_http_effective_port (a) == mcp_http_effective_port (b);
}

/* The URL without what may be a secret (a password, a token in the query),
 * for logs and errors. */
char *
mcp_http_describe_url (GUri *uri)
{
  g_autofree char *origin = mcp_http_describe_origin (uri);
  const char *path = g_uri_get_path (uri);

  return g_strconcat (origin, path, g_uri_get_query (uri) != NULL ? "?…" : "", NULL);
}

GUri *
mcp_http_parse_url (const char  *url,
                    GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GUri) uri = NULL;
  const char *scheme;
  const char *host;

  uri = g_uri_parse (url, SOUP_HTTP_URI_FLAGS, &local_error);
  if (uri == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "the server URL is not a valid URL: %s", local_error->message);
      return NULL;
    }

  scheme = g_uri_get_scheme (uri);
  if (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "the server URL must start with http:// or https://, not %s:", scheme);
      return NULL;
    }

  host = g_uri_get_host (uri);
  if (host == NULL || host[0] == '\0')
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           "the server URL names no host");
      return NULL;
    }

  return g_steal_pointer (&uri);
}

/* A token as RFC 9110 defines a field name. */
gboolean
mcp_http_is_header_name (const char *name)
{
  if (name == NULL || name[0] == '\0')
    return FALSE;

  for (const char *p = name; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && strchr ("!#$%&'*+-.^_`|~", *p) == NULL)
      return FALSE;

  return TRUE;
}

gboolean
mcp_http_session_id_is_valid (const char *id)
{
  gsize length = strlen (id);

  if (length == 0 || length > MCP_HTTP_SESSION_ID_MAX)
    return FALSE;

  for (gsize i = 0; i < length; i++)
    if ((guchar) id[i] < 0x21 || (guchar) id[i] > 0x7e)
      return FALSE;

  return TRUE;
}

/* Says what is wrong with a session id without showing it: at most its
 * first few characters, and never more than half of it. */
char *
mcp_http_describe_bad_session_id (const char *id)
{
  gsize length = strlen (id);
  gsize shown = MIN (SESSION_ID_SHOWN, length / 2);
  char start[SESSION_ID_SHOWN + 1] = { 0 };

  if (length == 0)
    return g_strdup ("an empty session id");

  for (gsize i = 0; i < shown; i++)
    start[i] = (guchar) id[i] >= 0x21 && (guchar) id[i] <= 0x7e ? id[i] : '?';

  return g_strdup_printf ("a session id of %" G_GSIZE_FORMAT " bytes beginning “%s…”",
                          length, start);
}

/* A value for Mcp-Name in the 2026-07-28 shape: as it is when it is plain
 * printable ASCII, else Base64 between the sentinels the revision names;
 * values that look like the sentinel form are encoded too, so that the
 * server cannot mistake them. */
char *
mcp_http_encode_header_value (const char *value)
{
  gsize length = strlen (value);
  gboolean plain = TRUE;
  g_autofree char *encoded = NULL;

  for (gsize i = 0; i < length && plain; i++)
    {
      guchar c = (guchar) value[i];

      plain = c == '\t' || (c >= 0x20 && c <= 0x7e);
    }

  if (length > 0 && (g_ascii_isspace (value[0]) || g_ascii_isspace (value[length - 1])))
    plain = FALSE;

  if (g_str_has_prefix (value, "=?base64?") && g_str_has_suffix (value, "?="))
    plain = FALSE;

  if (plain)
    return g_strdup (value);

  encoded = g_base64_encode ((const guchar *) value, length);
  return g_strconcat ("=?base64?", encoded, "?=", NULL);
}

/* The start of a body a server sent, fit for one line of a log. */
char *
mcp_http_make_excerpt (const char *data,
                       gsize       length)
{
  g_autofree char *valid = g_utf8_make_valid (data, MIN (length, EXCERPT_CHARS * 4));
  glong n_chars = g_utf8_strlen (valid, -1);
  g_autofree char *cut = g_utf8_substring (valid, 0, MIN (n_chars, EXCERPT_CHARS));
  GString *text = g_string_new (NULL);

  for (const char *p = cut; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      /* Control characters would garble a log line or a terminal. */
      if (c < 0x20 || (c >= 0x7f && c < 0xa0))
        g_string_append_c (text, ' ');
      else
        g_string_append_unichar (text, c);
    }

  g_strstrip (text->str);
  text->len = strlen (text->str);
  if (n_chars > EXCERPT_CHARS || length > EXCERPT_CHARS * 4)
    g_string_append (text, "…");

  return g_string_free (text, FALSE);
}

gboolean
mcp_http_is_unreachable (const GError *error)
{
  return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED) ||
         g_error_matches (error, G_IO_ERROR, G_IO_ERROR_HOST_NOT_FOUND) ||
         g_error_matches (error, G_IO_ERROR, G_IO_ERROR_HOST_UNREACHABLE) ||
         g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NETWORK_UNREACHABLE) ||
         error->domain == G_RESOLVER_ERROR ||
         error->domain == G_TLS_ERROR;
}

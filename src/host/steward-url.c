/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-url"

#include "config.h"

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <string.h>

#include "steward-text.h"

#include "steward-url.h"

G_DEFINE_QUARK (steward-url-error-quark, steward_url_error)

/**
 * steward_url_host_is_loopback:
 * @host: (nullable): a host name or address
 *
 * Returns: whether @host names this computer in a form every program
 *   reads the same way; other spellings of 127.0.0.1 ("127.1", "0x7f.1")
 *   are not taken
 */
gboolean
steward_url_host_is_loopback (const char *host)
{
  g_autoptr(GInetAddress) address = NULL;
  g_autofree char *bare = NULL;
  g_auto(GStrv) parts = NULL;

  if (host == NULL || *host == '\0')
    return FALSE;

  if (g_ascii_strcasecmp (host, "localhost") == 0)
    return TRUE;

  if (host[0] == '[')
    {
      gsize length = strlen (host);

      if (length < 3 || host[length - 1] != ']')
        return FALSE;
      bare = g_strndup (host + 1, length - 2);
      address = g_inet_address_new_from_string (bare);
      return address != NULL && g_inet_address_get_family (address) == G_SOCKET_FAMILY_IPV6 &&
             g_inet_address_get_is_loopback (address);
    }

  if (strchr (host, ':') != NULL)
    {
      address = g_inet_address_new_from_string (host);
      return address != NULL && g_inet_address_get_family (address) == G_SOCKET_FAMILY_IPV6 &&
             g_inet_address_get_is_loopback (address);
    }

  parts = g_strsplit (host, ".", -1);
  if (g_strv_length (parts) != 4 || !g_str_equal (parts[0], "127"))
    return FALSE;

  for (guint i = 0; i < 4; i++)
    {
      guint64 value;

      if (parts[i][0] == '\0' || (parts[i][0] == '0' && parts[i][1] != '\0') ||
          !g_ascii_string_to_unsigned (parts[i], 10, 0, 255, &value, NULL))
        return FALSE;
    }

  return TRUE;
}

static gboolean
is_scheme_char (char c)
{
  return g_ascii_isalnum (c) || c == '+' || c == '-' || c == '.';
}

/**
 * steward_url_check:
 * @url: (nullable): an address from a server or a model
 * @host_start: (out) (optional): where the host starts in @url
 * @host_end: (out) (optional): where it ends
 * @error: the reason it may not be opened, a sentence to show
 *
 * Returns: whether @url may be opened as it is
 */
gboolean
steward_url_check (const char  *url,
                   gsize       *host_start,
                   gsize       *host_end,
                   GError     **error)
{
  g_autoptr(GUri) parsed = NULL;
  g_autofree char *scheme = NULL;
  g_autofree char *written_host = NULL;
  const char *authority;
  const char *authority_end;
  const char *host;
  const char *host_stop;
  const char *parsed_host;
  const char *p;
  gsize length;

  if (url == NULL || *url == '\0')
    {
      g_set_error_literal (error, STEWARD_URL_ERROR, STEWARD_URL_ERROR_INVALID,
                           _("This address is empty"));
      return FALSE;
    }

  length = strlen (url);
  if (length > STEWARD_URL_MAX_LENGTH)
    {
      g_set_error_literal (error, STEWARD_URL_ERROR, STEWARD_URL_ERROR_INVALID,
                           _("This address is too long to show in full, so it is not opened"));
      return FALSE;
    }

  /* What browsers read differently from GUri, or what hides part of the
   * address from the person: refused before anything is parsed. */
  if (strpbrk (url, "\\\t\r\n") != NULL)
    {
      g_set_error_literal (error, STEWARD_URL_ERROR, STEWARD_URL_ERROR_AMBIGUOUS,
                           _("This address holds a backslash, a tab or a line break, which "
                             "browsers read differently, so it is not opened"));
      return FALSE;
    }

  if (!g_utf8_validate (url, length, NULL) || steward_text_has_hidden (url) ||
      strchr (url, ' ') != NULL)
    {
      g_set_error_literal (error, STEWARD_URL_ERROR, STEWARD_URL_ERROR_AMBIGUOUS,
                           _("This address holds spaces, hidden or invalid characters, so it "
                             "is not opened"));
      return FALSE;
    }

  /* scheme "://" authority, as written */
  p = url;
  if (!g_ascii_isalpha (*p))
    goto invalid;
  while (is_scheme_char (*p))
    p++;
  if (p[0] != ':')
    goto invalid;
  scheme = g_ascii_strdown (url, p - url);

  if (g_str_equal (scheme, "file"))
    {
      g_set_error_literal (error, STEWARD_URL_ERROR, STEWARD_URL_ERROR_FILE,
                           _("Files that servers name are not opened from here"));
      return FALSE;
    }

  if (!g_str_equal (scheme, "https") && !g_str_equal (scheme, "http"))
    {
      g_set_error_literal (error, STEWARD_URL_ERROR, STEWARD_URL_ERROR_SCHEME,
                           _("Only https addresses, and http addresses on this computer, are "
                             "opened"));
      return FALSE;
    }

  if (p[1] != '/' || p[2] != '/')
    goto invalid;

  authority = p + 3;
  authority_end = authority + strcspn (authority, "/?#");

  if (memchr (authority, '@', authority_end - authority) != NULL)
    {
      g_set_error_literal (error, STEWARD_URL_ERROR, STEWARD_URL_ERROR_USERINFO,
                           _("This address has a name before “@”, which can make it look like "
                             "another site, so it is not opened"));
      return FALSE;
    }

  host = authority;
  if (*host == '[')
    {
      const char *close = memchr (host, ']', authority_end - host);

      if (close == NULL)
        goto invalid;
      host_stop = close + 1;
    }
  else
    {
      host_stop = memchr (host, ':', authority_end - host);
      if (host_stop == NULL)
        host_stop = authority_end;
    }

  if (host_stop == host || (host_stop != authority_end && *host_stop != ':'))
    goto invalid;

  /* An escape in the host spells a name the person cannot read. */
  if (memchr (host, '%', host_stop - host) != NULL)
    {
      g_set_error_literal (error, STEWARD_URL_ERROR, STEWARD_URL_ERROR_AMBIGUOUS,
                           _("This address hides its site’s name behind escapes, so it is not "
                             "opened"));
      return FALSE;
    }

  /* GUri must find the same host where we did; otherwise some program
   * would open another site than the one named. */
  parsed = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  if (parsed == NULL || g_uri_get_host (parsed) == NULL || g_uri_get_userinfo (parsed) != NULL)
    goto invalid;

  written_host = *host == '['
                 ? g_strndup (host + 1, host_stop - host - 2)
                 : g_strndup (host, host_stop - host);
  parsed_host = g_uri_get_host (parsed);
  if (g_ascii_strcasecmp (parsed_host, written_host) != 0)
    {
      /* GUri spells an international name in ASCII, as DNS does. */
      g_autofree char *ascii = g_hostname_to_ascii (written_host);

      if (ascii == NULL || g_ascii_strcasecmp (parsed_host, ascii) != 0)
        goto invalid;
    }

  if (g_str_equal (scheme, "http") && !steward_url_host_is_loopback (written_host))
    {
      g_set_error_literal (error, STEWARD_URL_ERROR, STEWARD_URL_ERROR_INSECURE,
                           _("Plain http addresses open only on this computer; this one goes "
                             "elsewhere"));
      return FALSE;
    }

  if (host_start != NULL)
    *host_start = host - url;
  if (host_end != NULL)
    *host_end = host_stop - url;

  return TRUE;

invalid:
  g_set_error_literal (error, STEWARD_URL_ERROR, STEWARD_URL_ERROR_INVALID,
                       _("This is not a valid web address, so it is not opened"));
  return FALSE;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fuzz-url-checker"

#include "config.h"

#include <stdint.h>
#include <string.h>

#include "steward-url.h"

/*
 * Input: the address, as a C string (up to the first NUL).
 *
 * Whatever the checker lets through is one a browser reads as GUri does:
 * an http(s) scheme followed by "//", no backslash, tab, CR, LF, space,
 * control or "@" before the path, and a host, at the offsets it gives,
 * that GUri finds too. Whatever it refuses has a reason in its domain
 * with a sentence. It never crashes and never reads past the string.
 */

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
check_passed (const char *url,
              gsize       start,
              gsize       end)
{
  gsize length = strlen (url);
  g_autoptr(GUri) parsed = NULL;
  g_autofree char *host = NULL;
  const char *authority;

  g_assert (start < end && end <= length);
  g_assert (length <= STEWARD_URL_MAX_LENGTH);
  g_assert (strpbrk (url, "\\\t\r\n ") == NULL);

  for (const char *p = url; *p != '\0'; p++)
    g_assert ((guchar) *p >= 0x20 && *p != 0x7f);

  g_assert (g_ascii_strncasecmp (url, "https://", 8) == 0 ||
            g_ascii_strncasecmp (url, "http://", 7) == 0);
  authority = strstr (url, "://") + 3;
  g_assert (url + start == authority);
  g_assert (memchr (authority, '@', end - start) == NULL);
  g_assert (url[end] == '\0' || strchr (":/?#", url[end]) != NULL);

  parsed = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  g_assert (parsed != NULL);
  g_assert (g_uri_get_userinfo (parsed) == NULL);
  g_assert (g_uri_get_host (parsed) != NULL);

  host = g_strndup (url + start, end - start);
  if (g_ascii_strncasecmp (url, "http://", 7) == 0)
    g_assert (steward_url_host_is_loopback (host));
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *url = g_strndup ((const char *) data, size);
  g_autoptr(GError) error = NULL;
  gsize start = 0;
  gsize end = 0;

  if (steward_url_check (url, &start, &end, &error))
    {
      g_assert (error == NULL);
      check_passed (url, start, end);
    }
  else
    {
      g_assert (error != NULL);
      g_assert (error->domain == STEWARD_URL_ERROR);
      g_assert (error->message != NULL && error->message[0] != '\0');
    }

  return 0;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fuzz-root-canonicalizer"

#include "config.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "steward-roots.h"

/*
 * Input layout:
 *   byte 0    what the path is relative to, % 4: 0 the current folder,
 *             1 "/", 2 a folder with "." and ".." in it, 3 a folder read
 *             from the input
 *   the rest  the path, NUL bytes included; with 3, the folder comes
 *             first and ends at the first newline (and at a NUL, as a C
 *             string does)
 *
 * A canonical path is absolute, has no empty, "." or ".." component and
 * no trailing slash, fits in PATH_MAX, and canonicalises to itself. A path
 * is refused only when it is empty, holds a NUL, is too long, or is
 * relative to a folder that is not absolute; the reason is a
 * STEWARD_ROOTS_ERROR_INVALID. The danger check takes whatever comes out
 * and gives a readable reason exactly when it says yes.
 */

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
check_canonical (const char *path)
{
  gsize length = strlen (path);
  const char *p = path;

  g_assert (path[0] == '/');
  g_assert (length < PATH_MAX);
  g_assert (length == 1 || path[length - 1] != '/');

  while (*p != '\0')
    {
      const char *end;
      gsize n;

      g_assert (*p == '/');
      p++;
      end = strchr (p, '/');
      n = end != NULL ? (gsize) (end - p) : strlen (p);

      /* Only "/" itself has an empty component. */
      g_assert (n > 0 || length == 1);
      g_assert (!(n == 1 && p[0] == '.'));
      g_assert (!(n == 2 && p[0] == '.' && p[1] == '.'));
      p += n;
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *cwd = NULL;
  g_autofree char *canonical = NULL;
  g_autofree char *again = NULL;
  g_autofree char *reason = NULL;
  g_autoptr(GError) error = NULL;
  const char *path;
  gsize path_length;
  gsize joined_length;
  gboolean relative;
  gboolean has_nul;

  if (size < 1)
    return 0;

  path = (const char *) data + 1;
  path_length = size - 1;

  switch (data[0] % 4)
    {
    case 0:
      break;

    case 1:
      cwd = g_strdup ("/");
      break;

    case 2:
      cwd = g_strdup ("/srv/./projects/../data/");
      break;

    default:
      {
        const char *newline = memchr (path, '\n', path_length);
        gsize cwd_length = newline != NULL ? (gsize) (newline - path) : path_length;

        cwd = g_strndup (path, cwd_length);
        path += MIN (cwd_length + 1, path_length);
        path_length -= MIN (cwd_length + 1, path_length);
      }
      break;
    }

  canonical = steward_roots_canonicalize_len (path, path_length, cwd, &error);

  relative = path_length > 0 && path[0] != '/';
  has_nul = memchr (path, '\0', path_length) != NULL;
  if (relative && cwd == NULL)
    cwd = g_get_current_dir ();
  /* The path before "." and ".." are resolved, never shorter than after. */
  joined_length = path_length + (relative ? strlen (cwd) + 1 : 0);

  if (canonical == NULL)
    {
      g_assert (error != NULL);
      g_assert (g_error_matches (error, STEWARD_ROOTS_ERROR, STEWARD_ROOTS_ERROR_INVALID));
      g_assert (error->message[0] != '\0');
      g_assert (path_length == 0 || has_nul || (relative && cwd[0] != '/') ||
                joined_length >= PATH_MAX);
      return 0;
    }

  g_assert (error == NULL);
  g_assert (path_length > 0 && !has_nul);
  g_assert (!relative || cwd[0] == '/');
  check_canonical (canonical);

  again = steward_roots_canonicalize (canonical, "/", &error);
  g_assert (error == NULL);
  g_assert (again != NULL && strcmp (again, canonical) == 0);

  if (steward_roots_is_dangerous (canonical, &reason))
    g_assert (reason != NULL && g_utf8_validate (reason, -1, NULL) && reason[0] != '\0');
  else
    g_assert (reason == NULL);

  return 0;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-sandbox-env"
/* memfd_create() */
#define _GNU_SOURCE

#include "config.h"

#include <errno.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/*
 * steward-sandbox-env [--pass=NAME]… -- PROGRAM [ARGUMENT]…
 *
 * Runs PROGRAM (flatpak-spawn) with "--env-fd=FD" put before its
 * arguments, FD holding NAME=VALUE for each NAME from this program's own
 * environment, NUL-separated, as `env -0` writes them. It is how
 * steward-sandbox.c hands a server's configured variables, keyring secrets
 * among them, to a server in another sandbox: flatpak-spawn forwards only
 * variables given on its command line, where any process may read them
 * and where Steward's debug log would show them, or through such a file
 * descriptor. The variables are removed from the environment PROGRAM
 * gets, and PROGRAM replaces this process, so that stopping it stops the
 * server. No shell is involved.
 */

static int
write_all (int         fd,
           const char *data,
           gsize       length)
{
  while (length > 0)
    {
      ssize_t written = write (fd, data, length);

      if (written < 0 && errno == EINTR)
        continue;
      if (written < 0)
        return -1;

      data += written;
      length -= written;
    }

  return 0;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GString) block = g_string_new (NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GPtrArray) child = g_ptr_array_new_with_free_func (g_free);
  int first = 1;

  for (; first < argc && !g_str_equal (argv[first], "--"); first++)
    {
      if (!g_str_has_prefix (argv[first], "--pass=") || argv[first][strlen ("--pass=")] == '\0')
        {
          g_printerr ("steward-sandbox-env: unknown argument `%s`\n", argv[first]);
          return 127;
        }
      g_ptr_array_add (names, argv[first] + strlen ("--pass="));
    }

  if (first + 1 >= argc)
    {
      g_printerr ("steward-sandbox-env: no program after `--`\n");
      return 127;
    }

  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      const char *value = g_getenv (name);

      if (value == NULL)
        continue;

      g_string_append (block, name);
      g_string_append_c (block, '=');
      g_string_append (block, value);
      g_string_append_c (block, '\0');
    }

  g_ptr_array_add (child, g_strdup (argv[first + 1]));

  if (block->len > 0)
    {
      /* Memory that no other process can open by a name, without
       * close-on-exec, so that PROGRAM inherits it. */
      int fd = memfd_create ("steward-env", 0);

      if (fd < 0 || write_all (fd, block->str, block->len) < 0 ||
          lseek (fd, 0, SEEK_SET) < 0)
        {
          g_printerr ("steward-sandbox-env: could not hold the server’s variables: %s\n",
                      g_strerror (errno));
          return 127;
        }

      g_ptr_array_add (child, g_strdup_printf ("--env-fd=%d", fd));
    }

  /* The values live on in the file descriptor only. */
  explicit_bzero (block->str, block->len);
  for (guint i = 0; i < names->len; i++)
    g_unsetenv (g_ptr_array_index (names, i));

  for (int i = first + 2; i < argc; i++)
    g_ptr_array_add (child, g_strdup (argv[i]));
  g_ptr_array_add (child, NULL);

  execvp (g_ptr_array_index (child, 0), (char **) child->pdata);

  g_printerr ("steward-sandbox-env: could not start `%s`: %s\n",
              argv[first + 1], g_strerror (errno));
  return 127;
}

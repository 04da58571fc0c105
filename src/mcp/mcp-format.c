/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-format"

#include "config.h"

#include "mcp-format-private.h"

char *
mcp_format_size (gsize size)
{
  if (size >= 1024 * 1024 && size % (1024 * 1024) == 0)
    return g_strdup_printf ("%" G_GSIZE_FORMAT " MiB", size / (1024 * 1024));
  if (size >= 1024 && size % 1024 == 0)
    return g_strdup_printf ("%" G_GSIZE_FORMAT " KiB", size / 1024);

  return g_strdup_printf ("%" G_GSIZE_FORMAT " bytes", size);
}

char *
mcp_format_duration (guint ms)
{
  if (ms >= 60000 && ms % 60000 == 0)
    return g_strdup_printf ("%u min", ms / 60000);
  if (ms >= 1000 && ms % 1000 == 0)
    return g_strdup_printf ("%u s", ms / 1000);

  return g_strdup_printf ("%u ms", ms);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include "mcp-source-private.h"

void
mcp_clear_source (GSource **source)
{
  if (*source == NULL)
    return;

  g_source_destroy (*source);
  g_clear_pointer (source, g_source_unref);
}

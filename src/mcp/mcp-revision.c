/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-revision"

#include "config.h"

#include "mcp-revision.h"

static const char * const revision_names[] = {
  [MCP_REVISION_UNKNOWN]    = NULL,
  [MCP_REVISION_2024_11_05] = "2024-11-05",
  [MCP_REVISION_2025_03_26] = "2025-03-26",
  [MCP_REVISION_2025_06_18] = "2025-06-18",
  [MCP_REVISION_2025_11_25] = "2025-11-25",
  [MCP_REVISION_2026_07_28] = "2026-07-28",
};

const char *
mcp_revision_to_string (McpRevision revision)
{
  if ((guint) revision >= G_N_ELEMENTS (revision_names))
    return NULL;

  return revision_names[revision];
}

McpRevision
mcp_revision_from_string (const char *string)
{
  if (string == NULL)
    return MCP_REVISION_UNKNOWN;

  for (guint i = 1; i < G_N_ELEMENTS (revision_names); i++)
    if (g_str_equal (string, revision_names[i]))
      return (McpRevision) i;

  return MCP_REVISION_UNKNOWN;
}

gboolean
mcp_revision_is_stateless (McpRevision revision)
{
  return revision >= MCP_REVISION_2026_07_28;
}

gboolean
mcp_revision_allows_batches (McpRevision revision)
{
  /* Batches were added in 2025-03-26 and removed again in 2025-06-18. */
  return revision == MCP_REVISION_2025_03_26;
}

char *
mcp_revision_list_supported (void)
{
  GString *str = g_string_new (NULL);

  for (guint i = G_N_ELEMENTS (revision_names) - 1; i >= 1; i--)
    {
      if (str->len > 0)
        g_string_append (str, ", ");
      g_string_append (str, revision_names[i]);
    }

  return g_string_free (str, FALSE);
}

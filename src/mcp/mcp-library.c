/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-library"

#include "config.h"

#include <gmodule.h>

#include "mcp-library.h"

static void
load (McpLibrary             *library,
      const char             *soname,
      const McpLibrarySymbol *symbols,
      gsize                   n_symbols,
      gpointer                table)
{
  g_autoptr(GString) missing = g_string_new (NULL);
  GModule *module;

  module = g_module_open (soname, G_MODULE_BIND_LOCAL);
  if (module == NULL)
    {
      library->status = MCP_LIBRARY_NOT_FOUND;
      library->detail = g_strdup (g_module_error ());
      return;
    }

  for (gsize i = 0; i < n_symbols; i++)
    {
      gpointer *slot = G_STRUCT_MEMBER_P (table, symbols[i].offset);

      if (!g_module_symbol (module, symbols[i].name, slot) || *slot == NULL)
        g_string_append_printf (missing, "%s%s", missing->len > 0 ? ", " : "",
                                symbols[i].name);
    }

  if (missing->len > 0)
    {
      library->status = MCP_LIBRARY_INCOMPLETE;
      library->detail = g_string_free (g_steal_pointer (&missing), FALSE);
      g_module_close (module);
      return;
    }

  /* Kept for the life of the program, like a library it links: what it
   * made (types, proxies, its own state) outlives any one call. */
  g_module_make_resident (module);
  library->status = MCP_LIBRARY_LOADED;
}

/**
 * mcp_library_load:
 * @library: the library's zeroed static record
 * @soname: the file name of the ABI the caller was compiled against
 * @symbols: the functions to find, each into @table
 * @detail: (out) (transfer none): when it failed, the system's reason
 *   the library could not be opened, or the functions it lacks
 *
 * Loads the library the first time it is called for @library, from any
 * thread, and says what came of it then on every call.
 */
McpLibraryStatus
mcp_library_load (McpLibrary             *library,
                  const char             *soname,
                  const McpLibrarySymbol *symbols,
                  gsize                   n_symbols,
                  gpointer                table,
                  const char            **detail)
{
  if (g_once_init_enter (&library->loaded))
    {
      load (library, soname, symbols, n_symbols, table);
      g_once_init_leave (&library->loaded, 1);
    }

  *detail = library->detail;
  return library->status;
}

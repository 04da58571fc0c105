/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A shared library loaded the first time it is used instead of linked,
 * so that a start which never uses it does not pay for loading and
 * relocating it: its functions are found by name into a table of
 * pointers of the caller's. */

/* One function of the library, and where its address goes in the table. */
typedef struct
{
  const char *name;
  gsize       offset;
} McpLibrarySymbol;

#define MCP_LIBRARY_SYMBOL(Table, member, symbol) { symbol, G_STRUCT_OFFSET (Table, member) }

typedef enum
{
  MCP_LIBRARY_LOADED,
  MCP_LIBRARY_NOT_FOUND,    /* the library could not be opened */
  MCP_LIBRARY_INCOMPLETE,   /* it lacks some of the functions */
} McpLibraryStatus;

/* What loading one library came to; zeroed static storage, one per
 * library. */
typedef struct
{
  gsize            loaded;
  McpLibraryStatus status;
  char            *detail;
} McpLibrary;

McpLibraryStatus mcp_library_load (McpLibrary             *library,
                                   const char             *soname,
                                   const McpLibrarySymbol *symbols,
                                   gsize                   n_symbols,
                                   gpointer                table,
                                   const char            **detail);

G_END_DECLS

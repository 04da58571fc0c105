/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-library"

#include "config.h"

#include <glib.h>
#include <string.h>

#include "mcp-library.h"

/* A library loaded on first use, with the C maths library standing in
 * for GnuTLS and libsecret: found whole, lacking a function, or absent,
 * and the answer kept for the next call. */

typedef struct
{
  double (*cos) (double);
  double (*sqrt) (double);
} Maths;

typedef struct
{
  double (*cos) (double);
  gpointer missing;
} Lacking;

static void
test_loaded (void)
{
  static McpLibrary library;
  static const McpLibrarySymbol symbols[] = {
    MCP_LIBRARY_SYMBOL (Maths, cos, "cos"),
    MCP_LIBRARY_SYMBOL (Maths, sqrt, "sqrt"),
  };
  Maths maths = { NULL, NULL };
  const char *detail = "unset";

  g_assert_cmpint (mcp_library_load (&library, "libm.so.6", symbols, G_N_ELEMENTS (symbols),
                                     &maths, &detail), ==, MCP_LIBRARY_LOADED);
  g_assert_null (detail);
  g_assert_cmpfloat (maths.cos (0.0), ==, 1.0);
  g_assert_cmpfloat (maths.sqrt (16.0), ==, 4.0);
}

static void
test_incomplete (void)
{
  static McpLibrary library;
  static const McpLibrarySymbol symbols[] = {
    MCP_LIBRARY_SYMBOL (Lacking, cos, "cos"),
    MCP_LIBRARY_SYMBOL (Lacking, missing, "steward_no_such_function"),
  };
  Lacking lacking = { NULL, NULL };
  const char *detail = NULL;

  g_assert_cmpint (mcp_library_load (&library, "libm.so.6", symbols, G_N_ELEMENTS (symbols),
                                     &lacking, &detail), ==, MCP_LIBRARY_INCOMPLETE);
  g_assert_cmpstr (detail, ==, "steward_no_such_function");

  /* Asked again, it answers the same without trying again. */
  detail = NULL;
  g_assert_cmpint (mcp_library_load (&library, "libm.so.6", symbols, G_N_ELEMENTS (symbols),
                                     &lacking, &detail), ==, MCP_LIBRARY_INCOMPLETE);
  g_assert_cmpstr (detail, ==, "steward_no_such_function");
}

static void
test_not_found (void)
{
  static McpLibrary library;
  static const McpLibrarySymbol symbols[] = {
    MCP_LIBRARY_SYMBOL (Maths, cos, "cos"),
  };
  Maths maths = { NULL, NULL };
  const char *detail = NULL;

  g_assert_cmpint (mcp_library_load (&library, "libsteward-absent.so.0", symbols,
                                     G_N_ELEMENTS (symbols), &maths, &detail),
                   ==, MCP_LIBRARY_NOT_FOUND);
  g_assert_nonnull (strstr (detail, "libsteward-absent.so.0"));
  g_assert_null (maths.cos);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/steward/library/loaded", test_loaded);
  g_test_add_func ("/steward/library/incomplete", test_incomplete);
  g_test_add_func ("/steward/library/not-found", test_not_found);

  return g_test_run ();
}

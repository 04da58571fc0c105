/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-auth"

#include "config.h"

#include "mcp-auth-flow.h"

#include "mcp-gnutls.h"
#include "mcp-library.h"

static McpGnutls gnutls;

static const McpLibrarySymbol symbols[] = {
  MCP_LIBRARY_SYMBOL (McpGnutls, privkey_init, "gnutls_privkey_init"),
  MCP_LIBRARY_SYMBOL (McpGnutls, privkey_deinit, "gnutls_privkey_deinit"),
  MCP_LIBRARY_SYMBOL (McpGnutls, privkey_import_x509_raw, "gnutls_privkey_import_x509_raw"),
  MCP_LIBRARY_SYMBOL (McpGnutls, privkey_get_pk_algorithm, "gnutls_privkey_get_pk_algorithm"),
  MCP_LIBRARY_SYMBOL (McpGnutls, privkey_sign_data2, "gnutls_privkey_sign_data2"),
  MCP_LIBRARY_SYMBOL (McpGnutls, decode_rs_value, "gnutls_decode_rs_value"),
  MCP_LIBRARY_SYMBOL (McpGnutls, strerror, "gnutls_strerror"),
  MCP_LIBRARY_SYMBOL (McpGnutls, free, "gnutls_free"),
};

/**
 * mcp_gnutls_get:
 *
 * Loads GnuTLS the first time it is called, from any thread.
 *
 * Returns: (transfer none) (nullable): its functions, or %NULL with
 *   %MCP_AUTH_ERROR_CLIENT when it cannot be loaded
 */
const McpGnutls *
mcp_gnutls_get (GError **error)
{
  static McpLibrary library;
  const char *detail;

  switch (mcp_library_load (&library, MCP_GNUTLS_SONAME, symbols, G_N_ELEMENTS (symbols),
                            &gnutls, &detail))
    {
    case MCP_LIBRARY_LOADED:
      return &gnutls;

    case MCP_LIBRARY_NOT_FOUND:
      g_set_error (error, MCP_AUTH_ERROR, MCP_AUTH_ERROR_CLIENT,
                   "GnuTLS (%s), which signs private_key_jwt assertions, could not be loaded: "
                   "%s; install GnuTLS 3.7 or newer", MCP_GNUTLS_SONAME, detail);
      return NULL;

    case MCP_LIBRARY_INCOMPLETE:
    default:
      g_set_error (error, MCP_AUTH_ERROR, MCP_AUTH_ERROR_CLIENT,
                   "GnuTLS (%s) lacks %s, which signing private_key_jwt assertions needs; "
                   "install GnuTLS 3.7 or newer", MCP_GNUTLS_SONAME, detail);
      return NULL;
    }
}

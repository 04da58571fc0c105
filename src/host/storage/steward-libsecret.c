/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-secrets"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-library.h"

#include "steward-libsecret.h"
#include "steward-secrets.h"

static StewardLibsecret libsecret;

static const McpLibrarySymbol symbols[] = {
  MCP_LIBRARY_SYMBOL (StewardLibsecret, password_store, "secret_password_store"),
  MCP_LIBRARY_SYMBOL (StewardLibsecret, password_store_finish, "secret_password_store_finish"),
  MCP_LIBRARY_SYMBOL (StewardLibsecret, password_lookup, "secret_password_lookup"),
  MCP_LIBRARY_SYMBOL (StewardLibsecret, password_lookup_finish, "secret_password_lookup_finish"),
  MCP_LIBRARY_SYMBOL (StewardLibsecret, password_clear, "secret_password_clear"),
  MCP_LIBRARY_SYMBOL (StewardLibsecret, password_clear_finish, "secret_password_clear_finish"),
  MCP_LIBRARY_SYMBOL (StewardLibsecret, password_free, "secret_password_free"),
  MCP_LIBRARY_SYMBOL (StewardLibsecret, error_get_quark, "secret_error_get_quark"),
};

/**
 * steward_libsecret_get:
 *
 * Loads libsecret the first time it is called, from any thread.
 *
 * Returns: (transfer none) (nullable): its functions, or %NULL with
 *   %STEWARD_SECRETS_ERROR_UNAVAILABLE when it cannot be loaded
 */
const StewardLibsecret *
steward_libsecret_get (GError **error)
{
  static McpLibrary library;
  const char *detail;

  switch (mcp_library_load (&library, STEWARD_LIBSECRET_SONAME, symbols,
                            G_N_ELEMENTS (symbols), &libsecret, &detail))
    {
    case MCP_LIBRARY_LOADED:
      return &libsecret;

    case MCP_LIBRARY_NOT_FOUND:
      /* Translators: the first placeholder is a library's file name, the
       * second the system's reason. */
      g_set_error (error, STEWARD_SECRETS_ERROR, STEWARD_SECRETS_ERROR_UNAVAILABLE,
                   _("The system keyring cannot be used: libsecret (%s) "
                     "could not be loaded: %s; install libsecret 0.20 or newer"),
                   STEWARD_LIBSECRET_SONAME, detail);
      return NULL;

    case MCP_LIBRARY_INCOMPLETE:
    default:
      /* Translators: the first placeholder is a library's file name, the
       * second a list of its functions. */
      g_set_error (error, STEWARD_SECRETS_ERROR, STEWARD_SECRETS_ERROR_UNAVAILABLE,
                   _("The system keyring cannot be used: libsecret (%s) "
                     "lacks %s; install libsecret 0.20 or newer"),
                   STEWARD_LIBSECRET_SONAME, detail);
      return NULL;
    }
}

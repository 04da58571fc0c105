/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-auth"

#include "config.h"

#include <gmodule.h>

#include "mcp-auth-flow.h"

#include "mcp-gnutls.h"

static McpGnutls gnutls;
static char *load_error;

static gboolean
find_symbol (GModule     *module,
             const char  *name,
             gpointer    *symbol,
             GString     *missing)
{
  if (g_module_symbol (module, name, symbol) && *symbol != NULL)
    return TRUE;

  g_string_append_printf (missing, "%s%s", missing->len > 0 ? ", " : "", name);
  return FALSE;
}

static void
load (void)
{
  g_autoptr(GString) missing = g_string_new (NULL);
  GModule *module;
  gboolean found = TRUE;

  module = g_module_open (MCP_GNUTLS_SONAME, G_MODULE_BIND_LOCAL);
  if (module == NULL)
    {
      load_error = g_strdup_printf ("GnuTLS (%s), which signs private_key_jwt assertions, "
                                    "could not be loaded: %s; install GnuTLS 3.7 or newer",
                                    MCP_GNUTLS_SONAME, g_module_error ());
      return;
    }

#define FIND(member, name) \
  found &= find_symbol (module, name, (gpointer *) &gnutls.member, missing)
  FIND (privkey_init, "gnutls_privkey_init");
  FIND (privkey_deinit, "gnutls_privkey_deinit");
  FIND (privkey_import_x509_raw, "gnutls_privkey_import_x509_raw");
  FIND (privkey_get_pk_algorithm, "gnutls_privkey_get_pk_algorithm");
  FIND (privkey_sign_data2, "gnutls_privkey_sign_data2");
  FIND (decode_rs_value, "gnutls_decode_rs_value");
  FIND (strerror, "gnutls_strerror");
  FIND (free, "gnutls_free");
#undef FIND

  if (!found)
    {
      load_error = g_strdup_printf ("GnuTLS (%s) lacks %s, which signing private_key_jwt "
                                    "assertions needs; install GnuTLS 3.7 or newer",
                                    MCP_GNUTLS_SONAME, missing->str);
      g_module_close (module);
      return;
    }

  /* Kept for the life of the program, like a library it links. */
  g_module_make_resident (module);
}

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
  static gsize loaded = 0;

  if (g_once_init_enter (&loaded))
    {
      load ();
      g_once_init_leave (&loaded, 1);
    }

  if (load_error != NULL)
    {
      g_set_error_literal (error, MCP_AUTH_ERROR, MCP_AUTH_ERROR_CLIENT, load_error);
      return NULL;
    }

  return &gnutls;
}

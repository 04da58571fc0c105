/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-secrets"

#include "config.h"

#include <glib/gi18n.h>
#include <gmodule.h>

#include "steward-secrets.h"

#include "steward-libsecret.h"

static StewardLibsecret libsecret;
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

  module = g_module_open (STEWARD_LIBSECRET_SONAME, G_MODULE_BIND_LOCAL);
  if (module == NULL)
    {
      /* Translators: the first placeholder is a library's file name, the
       * second the system's reason. */
      load_error = g_strdup_printf (_("The system keyring cannot be used: libsecret (%s) "
                                      "could not be loaded: %s; install libsecret 0.20 or newer"),
                                    STEWARD_LIBSECRET_SONAME, g_module_error ());
      return;
    }

#define FIND(member, name) \
  found &= find_symbol (module, name, (gpointer *) &libsecret.member, missing)
  FIND (password_store, "secret_password_store");
  FIND (password_store_finish, "secret_password_store_finish");
  FIND (password_lookup, "secret_password_lookup");
  FIND (password_lookup_finish, "secret_password_lookup_finish");
  FIND (password_clear, "secret_password_clear");
  FIND (password_clear_finish, "secret_password_clear_finish");
  FIND (password_free, "secret_password_free");
  FIND (error_get_quark, "secret_error_get_quark");
#undef FIND

  if (!found)
    {
      /* Translators: the first placeholder is a library's file name, the
       * second a list of its functions. */
      load_error = g_strdup_printf (_("The system keyring cannot be used: libsecret (%s) "
                                      "lacks %s; install libsecret 0.20 or newer"),
                                    STEWARD_LIBSECRET_SONAME, missing->str);
      g_module_close (module);
      return;
    }

  /* Kept for the life of the program, like a library it links: its
   * D-Bus proxies and types outlive any one call. */
  g_module_make_resident (module);
}

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
  static gsize loaded = 0;

  if (g_once_init_enter (&loaded))
    {
      load ();
      g_once_init_leave (&loaded, 1);
    }

  if (load_error != NULL)
    {
      g_set_error_literal (error, STEWARD_SECRETS_ERROR, STEWARD_SECRETS_ERROR_UNAVAILABLE,
                           load_error);
      return NULL;
    }

  return &libsecret;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-auth"

#include "config.h"

#include <gio/gio.h>

#include "steward-client-metadata.h"

/*
 * Steward's Client ID Metadata Document: the https address an
 * authorization server fetches to learn who Steward is, used as its
 * client id where the server accepts such documents. The address is a
 * setting, so that a packager or an organisation can publish its own
 * copy; a server of the servers file may name another
 * (steward_server_config_dup_client_metadata_url()).
 */

#define SETTINGS_KEY "client-metadata-url"

/**
 * steward_client_metadata_dup_url:
 *
 * Reads the "client-metadata-url" setting. steward-cli may run where the
 * app's schema is not installed (from a build tree, or beside another
 * install); there it is the address the project publishes, as the
 * schema's default is.
 *
 * Returns: (transfer full) (nullable): the address to offer, or %NULL when
 *   the setting is empty: no document is offered at all
 */
char *
steward_client_metadata_dup_url (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GSettings) settings = NULL;
  g_autofree char *url = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APPLICATION_ID, TRUE);
  if (schema == NULL || !g_settings_schema_has_key (schema, SETTINGS_KEY))
    return g_strdup (STEWARD_CLIENT_METADATA_URL);

  settings = g_settings_new_full (schema, NULL, NULL);
  url = g_settings_get_string (settings, SETTINGS_KEY);
  if (url[0] == '\0')
    return NULL;

  /* An address a server would refuse to fetch would only make every
   * sign-in there fail; Dynamic Client Registration still works. */
  if (!steward_client_metadata_url_is_valid (url))
    {
      g_message ("The setting %s is not an https address with a path (%s); "
                 "no Client ID Metadata Document is offered", SETTINGS_KEY, url);
      return NULL;
    }

  return g_steal_pointer (&url);
}

/**
 * steward_client_metadata_url_is_valid:
 *
 * Returns: whether @url can name a Client ID Metadata Document: https,
 *   with a host and a path, and no fragment, as the document's address
 *   is the client id itself
 */
gboolean
steward_client_metadata_url_is_valid (const char *url)
{
  g_autoptr(GUri) uri = NULL;
  const char *host;
  const char *path;

  g_return_val_if_fail (url != NULL, FALSE);

  uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  if (uri == NULL || g_ascii_strcasecmp (g_uri_get_scheme (uri), "https") != 0)
    return FALSE;

  host = g_uri_get_host (uri);
  path = g_uri_get_path (uri);

  return host != NULL && host[0] != '\0' &&
         path != NULL && path[0] == '/' && path[1] != '\0' &&
         g_uri_get_fragment (uri) == NULL;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-server-config"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-client-metadata.h"
#include "steward-config.h"
#include "steward-error.h"
#include "steward-secrets.h"
#include "steward-server-oauth.h"

/**
 * StewardServerOAuth:
 *
 * How Steward registers with a remote server's authorization server, as a
 * server's `"oauth"` member in the servers file says:
 *
 * |[
 * "oauth": {
 *   "clientId": "steward-at-example",
 *   "clientSecret": "${keyring:ID}",
 *   "scopes": ["read", "write"],
 *   "clientMetadataUrl": "https://example.org/steward.json"
 * }
 * ]|
 *
 * A client id means a client registered there beforehand, used before any
 * other way; its secret, for a confidential client, lives in the keyring
 * and only a reference to it in the file. The scopes are asked for where
 * the server's challenge names none. The metadata URL replaces the
 * "client-metadata-url" setting for this server. Members other hosts
 * write into the block are kept and otherwise ignored.
 */
struct _StewardServerOAuth
{
  GObject  parent_instance;

  char    *client_id;
  char    *client_secret;
  GStrv    scopes;
  char    *client_metadata_url;
};

G_DEFINE_FINAL_TYPE (StewardServerOAuth, steward_server_oauth, G_TYPE_OBJECT)

static void
steward_server_oauth_finalize (GObject *object)
{
  StewardServerOAuth *self = STEWARD_SERVER_OAUTH (object);

  g_free (self->client_id);
  g_free (self->client_secret);
  g_strfreev (self->scopes);
  g_free (self->client_metadata_url);

  G_OBJECT_CLASS (steward_server_oauth_parent_class)->finalize (object);
}

static void
steward_server_oauth_class_init (StewardServerOAuthClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = steward_server_oauth_finalize;
}

static void
steward_server_oauth_init (StewardServerOAuth *self)
{
}

#define invalid(error, ...) \
  steward_fail (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_INVALID, __VA_ARGS__)

static gboolean
node_is_string (JsonNode *node)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING;
}

static gboolean
read_string (JsonObject  *json,
             const char  *server,
             const char  *member,
             char       **out,
             GError     **error)
{
  JsonNode *node = json_object_get_member (json, member);

  if (node == NULL)
    return TRUE;

  if (!node_is_string (node) || json_node_get_string (node)[0] == '\0')
    /* Translators: the first placeholder is a server's name, the second a
     * member of its "oauth" block, such as "clientId". */
    return invalid (error, _("server `%s`: \"oauth\": \"%s\" must be a non-empty string"),
                    server, member);

  *out = g_strdup (json_node_get_string (node));
  return TRUE;
}

static gboolean
is_scope (const char *scope)
{
  /* RFC 6749 §3.3: printable ASCII but space, '"' and '\'. */
  if (scope[0] == '\0')
    return FALSE;

  for (const char *p = scope; *p != '\0'; p++)
    if (*p < 0x21 || *p > 0x7e || *p == '"' || *p == '\\')
      return FALSE;

  return TRUE;
}

static gboolean
read_scopes (StewardServerOAuth  *self,
             JsonObject          *json,
             const char          *server,
             GError             **error)
{
  JsonNode *node = json_object_get_member (json, "scopes");
  g_autoptr(GStrvBuilder) builder = NULL;
  JsonArray *array;

  if (node == NULL)
    return TRUE;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    return invalid (error, _("server `%s`: \"oauth\": \"scopes\" must be an array of strings"),
                    server);

  builder = g_strv_builder_new ();
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (!node_is_string (element) || !is_scope (json_node_get_string (element)))
        /* Translators: %u counts from 1. */
        return invalid (error, _("server `%s`: \"oauth\": item %u of \"scopes\" must be one "
                                 "scope, without spaces or quotes"),
                        server, i + 1);

      g_strv_builder_add (builder, json_node_get_string (element));
    }

  self->scopes = g_strv_builder_end (builder);
  return TRUE;
}

/**
 * steward_server_oauth_new_from_json:
 * @server: the server's name, for errors
 * @node: the server's `"oauth"` member
 *
 * Returns: (transfer full) (nullable): the block, or %NULL with an error in
 *   %STEWARD_CONFIG_ERROR naming the server and the member
 */
StewardServerOAuth *
steward_server_oauth_new_from_json (const char  *server,
                                    JsonNode    *node,
                                    GError     **error)
{
  g_autoptr(StewardServerOAuth) self = g_object_new (STEWARD_TYPE_SERVER_OAUTH, NULL);
  g_autofree char *secret_id = NULL;
  JsonObject *json;

  g_return_val_if_fail (server != NULL, NULL);
  g_return_val_if_fail (node != NULL, NULL);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      invalid (error, _("server `%s`: \"oauth\" must be an object"), server);
      return NULL;
    }

  json = json_node_get_object (node);
  if (!read_string (json, server, "clientId", &self->client_id, error) ||
      !read_string (json, server, "clientSecret", &self->client_secret, error) ||
      !read_string (json, server, "clientMetadataUrl", &self->client_metadata_url, error) ||
      !read_scopes (self, json, server, error))
    return NULL;

  /* A secret in a file that editors, backups and bug reports copy is no
   * secret; the file holds only where in the keyring it is. */
  if (self->client_secret != NULL)
    secret_id = steward_secret_reference_get_id (self->client_secret);
  if (self->client_secret != NULL && secret_id == NULL)
    {
      invalid (error, _("server `%s`: \"oauth\": \"clientSecret\" must name a secret in the "
                        "keyring, as \"${keyring:ID}\", never hold the secret itself"),
               server);
      return NULL;
    }

  if (self->client_secret != NULL && self->client_id == NULL)
    {
      invalid (error, _("server `%s`: \"oauth\": \"clientSecret\" needs the \"clientId\" it "
                        "belongs to"),
               server);
      return NULL;
    }

  if (self->client_metadata_url != NULL &&
      !steward_client_metadata_url_is_valid (self->client_metadata_url))
    {
      invalid (error, _("server `%s`: \"oauth\": \"clientMetadataUrl\" must be an https:// "
                        "URL with a path, not `%s`"),
               server, self->client_metadata_url);
      return NULL;
    }

  return g_steal_pointer (&self);
}

/**
 * steward_server_oauth_new:
 * @client_id: (nullable): a client registered beforehand
 * @client_secret: (nullable): a "${keyring:ID}" reference to its secret
 * @scopes: (nullable) (array zero-terminated=1): scopes to ask for
 * @client_metadata_url: (nullable): this server's Client ID Metadata
 *   Document, in place of the setting's
 *
 * Values the file would refuse are a programming error; check what a
 * person typed with steward_server_oauth_new_from_json().
 *
 * Returns: (transfer full): the block
 */
StewardServerOAuth *
steward_server_oauth_new (const char         *client_id,
                          const char         *client_secret,
                          const char * const *scopes,
                          const char         *client_metadata_url)
{
  StewardServerOAuth *self;

  g_return_val_if_fail (client_secret == NULL || client_id != NULL, NULL);

  self = g_object_new (STEWARD_TYPE_SERVER_OAUTH, NULL);
  self->client_id = g_strdup (client_id);
  self->client_secret = g_strdup (client_secret);
  self->scopes = scopes != NULL && scopes[0] != NULL ? g_strdupv ((char **) scopes) : NULL;
  self->client_metadata_url = g_strdup (client_metadata_url);

  return self;
}

/**
 * steward_server_oauth_get_client_id:
 *
 * Returns: (nullable): the client registered with the authorization
 *   server beforehand
 */
const char *
steward_server_oauth_get_client_id (StewardServerOAuth *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_OAUTH (self), NULL);

  return self->client_id;
}

/**
 * steward_server_oauth_get_client_secret:
 *
 * Returns: (nullable): the "${keyring:ID}" reference to the client's
 *   secret, for steward_secrets_resolve_async(); never the secret
 */
const char *
steward_server_oauth_get_client_secret (StewardServerOAuth *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_OAUTH (self), NULL);

  return self->client_secret;
}

/**
 * steward_server_oauth_get_scopes:
 *
 * Returns: (nullable) (transfer none): the scopes to ask for where the
 *   server's challenge names none
 */
const char * const *
steward_server_oauth_get_scopes (StewardServerOAuth *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_OAUTH (self), NULL);

  return (const char * const *) self->scopes;
}

/**
 * steward_server_oauth_get_client_metadata_url:
 *
 * Returns: (nullable): the server's own Client ID Metadata Document
 */
const char *
steward_server_oauth_get_client_metadata_url (StewardServerOAuth *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_OAUTH (self), NULL);

  return self->client_metadata_url;
}

/**
 * steward_server_oauth_is_empty:
 *
 * Returns: whether the block says nothing, so that writing it would only
 *   add an empty object to the file
 */
gboolean
steward_server_oauth_is_empty (StewardServerOAuth *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_OAUTH (self), TRUE);

  return self->client_id == NULL && self->scopes == NULL && self->client_metadata_url == NULL;
}

static void
set_or_remove (JsonObject *json,
               const char *member,
               const char *value)
{
  if (value != NULL)
    json_object_set_string_member (json, member, value);
  else
    json_object_remove_member (json, member);
}

/**
 * steward_server_oauth_write:
 * @json: an `"oauth"` object, maybe with other hosts' members
 *
 * Sets the members this block knows in @json, and removes those it does
 * not hold; the others stay as they were.
 */
void
steward_server_oauth_write (StewardServerOAuth *self,
                            JsonObject         *json)
{
  g_return_if_fail (STEWARD_IS_SERVER_OAUTH (self));
  g_return_if_fail (json != NULL);

  set_or_remove (json, "clientId", self->client_id);
  set_or_remove (json, "clientSecret", self->client_secret);

  if (self->scopes != NULL)
    {
      JsonArray *array = json_array_new ();

      for (guint i = 0; self->scopes[i] != NULL; i++)
        json_array_add_string_element (array, self->scopes[i]);
      json_object_set_array_member (json, "scopes", array);
    }
  else
    json_object_remove_member (json, "scopes");

  set_or_remove (json, "clientMetadataUrl", self->client_metadata_url);
}

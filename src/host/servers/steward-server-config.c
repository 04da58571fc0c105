/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-server-config"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "steward-client-metadata.h"
#include "steward-config.h"
#include "steward-config-private.h"
#include "steward-sandbox-profile.h"
#include "steward-server-config.h"

struct _StewardServerConfig
{
  GObject                 parent_instance;

  char                   *name;
  JsonObject             *json;
  StewardServerTransport  transport;
  gboolean                disabled;

  char                   *command;
  GStrv                   args;
  GHashTable             *env;
  char                   *cwd;
  gboolean                network;
  gboolean                network_set;
  gboolean                run_on_host;
  gboolean                display;
  GStrv                   readable;

  char                   *url;
  GHashTable             *headers;
  StewardServerOAuth     *oauth;
};

G_DEFINE_FINAL_TYPE (StewardServerConfig, steward_server_config, G_TYPE_OBJECT)

static gboolean
node_is_string (JsonNode *node)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING;
}

static gboolean
read_string (StewardServerConfig  *self,
             JsonObject           *json,
             const char           *member,
             char                **out,
             GError              **error)
{
  JsonNode *node = json_object_get_member (json, member);

  if (node == NULL)
    return TRUE;

  if (!node_is_string (node) || json_node_get_string (node)[0] == '\0')
    {
      g_set_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_INVALID,
                   /* Translators: the first placeholder is a server's name, the
                    * second a JSON member such as "command"; the third says what
                    * the file has instead, e.g. "a number". */
                   _("server `%s`: \"%s\" must be a non-empty string, not %s"),
                   self->name, member,
                   node_is_string (node) ? _("an empty string")
                                         : steward_config_describe_node (node));
      return FALSE;
    }

  *out = g_strdup (json_node_get_string (node));
  return TRUE;
}

static gboolean
read_boolean (StewardServerConfig  *self,
              JsonObject           *json,
              const char           *member,
              gboolean             *out,
              GError              **error)
{
  JsonNode *node = json_object_get_member (json, member);

  if (node == NULL)
    return TRUE;

  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    {
      g_set_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_INVALID,
                   _("server `%s`: \"%s\" must be true or false, not %s"),
                   self->name, member, steward_config_describe_node (node));
      return FALSE;
    }

  *out = json_node_get_boolean (node);
  return TRUE;
}

static gboolean
read_args (StewardServerConfig  *self,
           JsonObject           *json,
           GError              **error)
{
  JsonNode *node = json_object_get_member (json, "args");
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  JsonArray *array;

  if (node != NULL && !JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_INVALID,
                   _("server `%s`: \"args\" must be an array of strings, not %s"),
                   self->name, steward_config_describe_node (node));
      return FALSE;
    }

  array = node ? json_node_get_array (node) : NULL;
  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (!node_is_string (element))
        {
          g_set_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_INVALID,
                       /* Translators: %u counts from 1. */
                       _("server `%s`: \"args\" must be an array of strings (item %u is %s)"),
                       self->name, i + 1, steward_config_describe_node (element));
          return FALSE;
        }

      g_strv_builder_add (builder, json_node_get_string (element));
    }

  self->args = g_strv_builder_end (builder);
  return TRUE;
}

/* "readable": folders a person lets the sandboxed server read, each an
 * absolute path. */
static gboolean
read_readable (StewardServerConfig  *self,
               JsonObject           *json,
               GError              **error)
{
  JsonNode *node = json_object_get_member (json, "readable");
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  JsonArray *array;

  if (node != NULL && !JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_INVALID,
                   _("server `%s`: \"readable\" must be an array of folders, not %s"),
                   self->name, steward_config_describe_node (node));
      return FALSE;
    }

  array = node ? json_node_get_array (node) : NULL;
  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (!node_is_string (element) || !g_path_is_absolute (json_node_get_string (element)))
        {
          g_set_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_INVALID,
                       /* Translators: %u counts from 1. */
                       _("server `%s`: item %u of \"readable\" must be an absolute path"),
                       self->name, i + 1);
          return FALSE;
        }

      g_strv_builder_add (builder, json_node_get_string (element));
    }

  self->readable = g_strv_builder_end (builder);
  return TRUE;
}

static gboolean
is_env_name (const char *name)
{
  return name[0] != '\0' && strchr (name, '=') == NULL;
}

static gboolean
is_header_name (const char *name)
{
  /* RFC 9110 token characters. */
  static const char extra[] = "!#$%&'*+-.^_`|~";

  if (name[0] == '\0')
    return FALSE;

  for (const char *p = name; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && strchr (extra, *p) == NULL)
      return FALSE;

  return TRUE;
}

static gboolean
is_header_value (const char *value)
{
  /* A CR or LF would let a value start a header of its own. */
  for (const char *p = value; *p != '\0'; p++)
    if (*p == '\r' || *p == '\n')
      return FALSE;

  return TRUE;
}

static gboolean
read_string_map (StewardServerConfig  *self,
                 JsonObject           *json,
                 const char           *member,
                 gboolean            (*name_ok) (const char *),
                 gboolean            (*value_ok) (const char *),
                 GHashTable          **out,
                 GError              **error)
{
  JsonNode *node = json_object_get_member (json, member);
  JsonObjectIter iter;
  const char *key;
  JsonNode *value;

  *out = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  if (node == NULL)
    return TRUE;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_INVALID,
                   _("server `%s`: \"%s\" must be an object whose values are strings, not %s"),
                   self->name, member, steward_config_describe_node (node));
      return FALSE;
    }

  json_object_iter_init_ordered (&iter, json_node_get_object (node));
  while (json_object_iter_next_ordered (&iter, &key, &value))
    {
      if (!name_ok (key))
        {
          g_set_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_INVALID,
                       _("server `%s`: \"%s\" has an invalid name `%s`"),
                       self->name, member, key);
          return FALSE;
        }

      if (!node_is_string (value))
        {
          g_set_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_INVALID,
                       _("server `%s`: \"%s\" must be an object whose values are strings "
                         "(`%s` is %s)"),
                       self->name, member, key, steward_config_describe_node (value));
          return FALSE;
        }

      if (value_ok != NULL && !value_ok (json_node_get_string (value)))
        {
          g_set_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_INVALID,
                       _("server `%s`: \"%s\": the value of `%s` must not contain line breaks"),
                       self->name, member, key);
          return FALSE;
        }

      g_hash_table_insert (*out, g_strdup (key), g_strdup (json_node_get_string (value)));
    }

  return TRUE;
}

static gboolean
read_transport (StewardServerConfig  *self,
                JsonObject           *json,
                GError              **error)
{
  static const struct {
    const char             *name;
    StewardServerTransport  transport;
  } names[] = {
    { "stdio",           STEWARD_SERVER_TRANSPORT_STDIO },
    { "streamable-http", STEWARD_SERVER_TRANSPORT_STREAMABLE_HTTP },
    { "http",            STEWARD_SERVER_TRANSPORT_STREAMABLE_HTTP },
    { "sse",             STEWARD_SERVER_TRANSPORT_SSE },
  };
  /* Other hosts spell the member "type"; ours is "transport". */
  const char *member = json_object_has_member (json, "transport") ? "transport" : "type";
  JsonNode *node = json_object_get_member (json, member);
  gboolean remote = self->url != NULL;
  const char *value;

  self->transport = remote ? STEWARD_SERVER_TRANSPORT_STREAMABLE_HTTP
                           : STEWARD_SERVER_TRANSPORT_STDIO;
  if (node == NULL)
    return TRUE;

  value = node_is_string (node) ? json_node_get_string (node) : NULL;
  for (guint i = 0; value != NULL && i < G_N_ELEMENTS (names); i++)
    {
      if (!g_str_equal (value, names[i].name))
        continue;

      if ((names[i].transport != STEWARD_SERVER_TRANSPORT_STDIO) != remote)
        break;

      self->transport = names[i].transport;
      return TRUE;
    }

  if (remote)
    g_set_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_INVALID,
                 _("server `%s`: \"%s\" must be \"streamable-http\" or \"sse\" for a server "
                   "with a \"url\""),
                 self->name, member);
  else
    g_set_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_INVALID,
                 _("server `%s`: \"%s\" must be \"stdio\" for a server with a \"command\""),
                 self->name, member);
  return FALSE;
}

static gboolean
check_url (StewardServerConfig  *self,
           GError              **error)
{
  g_autoptr(GUri) uri = g_uri_parse (self->url, G_URI_FLAGS_NONE, NULL);
  const char *scheme = uri ? g_uri_get_scheme (uri) : NULL;
  const char *host = uri ? g_uri_get_host (uri) : NULL;

  if (scheme == NULL ||
      (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0) ||
      host == NULL || host[0] == '\0')
    {
      g_set_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_INVALID,
                   _("server `%s`: \"url\" must be an http:// or https:// URL, not `%s`"),
                   self->name, self->url);
      return FALSE;
    }

  return TRUE;
}

static gboolean
parse (StewardServerConfig  *self,
       JsonObject           *json,
       GError              **error)
{
  JsonNode *disabled = json_object_get_member (json, "disabled");
  JsonNode *oauth = json_object_get_member (json, "oauth");

  if (!read_string (self, json, "command", &self->command, error) ||
      !read_string (self, json, "url", &self->url, error))
    return FALSE;

  if (self->command != NULL && self->url != NULL)
    {
      g_set_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_INVALID,
                   _("server `%s`: has both \"command\" and \"url\"; a server is either "
                     "started here or reached at a URL"),
                   self->name);
      return FALSE;
    }

  if (self->command == NULL && self->url == NULL)
    {
      g_set_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_INVALID,
                   _("server `%s`: needs \"command\" (a program to start) or \"url\" "
                     "(a remote server)"),
                   self->name);
      return FALSE;
    }

  if (disabled != NULL &&
      (!JSON_NODE_HOLDS_VALUE (disabled) || json_node_get_value_type (disabled) != G_TYPE_BOOLEAN))
    {
      g_set_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_INVALID,
                   _("server `%s`: \"disabled\" must be true or false, not %s"),
                   self->name, steward_config_describe_node (disabled));
      return FALSE;
    }
  self->disabled = disabled != NULL && json_node_get_boolean (disabled);

  if (!read_transport (self, json, error))
    return FALSE;

  if (self->url != NULL)
    {
      if (!check_url (self, error))
        return FALSE;

      self->args = g_new0 (char *, 1);
      self->env = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      if (oauth != NULL)
        self->oauth = steward_server_oauth_new_from_json (self->name, oauth, error);
      return (oauth == NULL || self->oauth != NULL) &&
             read_string_map (self, json, "headers", is_header_name, is_header_value,
                              &self->headers, error);
    }

  if (oauth != NULL)
    {
      g_set_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_INVALID,
                   _("server `%s`: \"oauth\" goes with a server that has a \"url\"; a "
                     "local server is not signed in to"),
                   self->name);
      return FALSE;
    }

  self->headers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  if (!read_args (self, json, error) ||
      !read_string_map (self, json, "env", is_env_name, NULL, &self->env, error) ||
      !read_string (self, json, "cwd", &self->cwd, error))
    return FALSE;

  /* A relative folder would depend on wherever the host happened to start. */
  if (self->cwd != NULL && !g_path_is_absolute (self->cwd))
    {
      g_set_error (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_INVALID,
                   _("server `%s`: \"cwd\" must be an absolute path, not `%s`"),
                   self->name, self->cwd);
      return FALSE;
    }

  self->network_set = json_object_has_member (json, "network");

  return read_boolean (self, json, "network", &self->network, error) &&
         read_boolean (self, json, "runOnHost", &self->run_on_host, error) &&
         read_boolean (self, json, "display", &self->display, error) &&
         read_readable (self, json, error);
}

static void
steward_server_config_finalize (GObject *object)
{
  StewardServerConfig *self = STEWARD_SERVER_CONFIG (object);

  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->json, json_object_unref);
  g_clear_pointer (&self->command, g_free);
  g_clear_pointer (&self->args, g_strfreev);
  g_clear_pointer (&self->env, g_hash_table_unref);
  g_clear_pointer (&self->cwd, g_free);
  g_clear_pointer (&self->readable, g_strfreev);
  g_clear_pointer (&self->url, g_free);
  g_clear_pointer (&self->headers, g_hash_table_unref);
  g_clear_object (&self->oauth);

  G_OBJECT_CLASS (steward_server_config_parent_class)->finalize (object);
}

static void
steward_server_config_class_init (StewardServerConfigClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = steward_server_config_finalize;
}

static void
steward_server_config_init (StewardServerConfig *self)
{
}

/**
 * steward_server_config_new_from_json:
 * @name: the server's key in `mcpServers`
 * @json: the server's entry
 *
 * Reads one entry of the `mcpServers` object: a local server (`command`,
 * `args`, `env`, `cwd`) or a remote one (`url`, `headers`, `transport`),
 * either of which may be `disabled`. Members this version does not know are
 * kept in the JSON and otherwise ignored, so entries written for other
 * hosts still load.
 *
 * Returns: (transfer full) (nullable): the entry, or %NULL with an error
 *   in %STEWARD_CONFIG_ERROR that names the server and the member
 */
StewardServerConfig *
steward_server_config_new_from_json (const char  *name,
                                     JsonObject  *json,
                                     GError     **error)
{
  g_autoptr(StewardServerConfig) self = NULL;

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (json != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_object_new (STEWARD_TYPE_SERVER_CONFIG, NULL);
  self->name = g_strdup (name);
  self->json = json_object_ref (json);

  if (name[0] == '\0')
    {
      g_set_error_literal (error, STEWARD_CONFIG_ERROR, STEWARD_CONFIG_ERROR_INVALID,
                           _("a server has an empty name"));
      return NULL;
    }

  if (!parse (self, json, error))
    return NULL;

  return g_steal_pointer (&self);
}

const char *
steward_server_config_get_name (StewardServerConfig *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (self), NULL);

  return self->name;
}

/**
 * steward_server_config_get_json:
 *
 * Returns: (transfer none): the entry as it was read, unknown members
 *   included
 */
JsonObject *
steward_server_config_get_json (StewardServerConfig *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (self), NULL);

  return self->json;
}

StewardServerTransport
steward_server_config_get_transport (StewardServerConfig *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (self), STEWARD_SERVER_TRANSPORT_STDIO);

  return self->transport;
}

gboolean
steward_server_config_is_remote (StewardServerConfig *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (self), FALSE);

  return self->transport != STEWARD_SERVER_TRANSPORT_STDIO;
}

gboolean
steward_server_config_get_disabled (StewardServerConfig *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (self), FALSE);

  return self->disabled;
}

/**
 * steward_server_config_get_command:
 *
 * Returns: (nullable): the program of a local server, %NULL for a remote one
 */
const char *
steward_server_config_get_command (StewardServerConfig *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (self), NULL);

  return self->command;
}

/**
 * steward_server_config_get_args:
 *
 * Returns: (transfer none): the arguments after the command; empty, never
 *   %NULL
 */
const char * const *
steward_server_config_get_args (StewardServerConfig *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (self), NULL);

  return (const char * const *) self->args;
}

/**
 * steward_server_config_dup_argv:
 *
 * Returns: (transfer full) (nullable): the command followed by its
 *   arguments, ready to spawn; %NULL for a remote server
 */
char **
steward_server_config_dup_argv (StewardServerConfig *self)
{
  g_autoptr(GStrvBuilder) builder = NULL;

  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (self), NULL);

  if (self->command == NULL)
    return NULL;

  builder = g_strv_builder_new ();
  g_strv_builder_add (builder, self->command);
  g_strv_builder_addv (builder, (const char **) self->args);
  return g_strv_builder_end (builder);
}

/**
 * steward_server_config_get_env:
 *
 * Returns: (transfer none) (element-type utf8 utf8): variables to set for a
 *   local server, by name; empty for a remote one
 */
GHashTable *
steward_server_config_get_env (StewardServerConfig *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (self), NULL);

  return self->env;
}

/**
 * steward_server_config_get_cwd:
 *
 * Returns: (nullable): the absolute folder to start a local server in
 */
const char *
steward_server_config_get_cwd (StewardServerConfig *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (self), NULL);

  return self->cwd;
}

/**
 * steward_server_config_get_network:
 *
 * Returns: whether a local server may use the network in its sandbox
 *   (`"network": true`); see steward_server_config_has_network() for
 *   whether the entry says so at all
 */
gboolean
steward_server_config_get_network (StewardServerConfig *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (self), FALSE);

  return self->network;
}

/**
 * steward_server_config_has_network:
 *
 * Returns: whether the entry decides the network itself (`"network"` is
 *   present); without it the sandbox profile picks a default
 */
gboolean
steward_server_config_has_network (StewardServerConfig *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (self), FALSE);

  return self->network_set;
}

/**
 * steward_server_config_get_display:
 *
 * Returns: whether a local server may open windows on the person's
 *   display from its sandbox (`"display": true`)
 */
gboolean
steward_server_config_get_display (StewardServerConfig *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (self), FALSE);

  return self->display;
}

/**
 * steward_server_config_get_readable:
 *
 * Returns: (transfer none): the absolute folders a local server may read
 *   from its sandbox besides its arguments' paths (`"readable"`); empty
 *   for a remote server
 */
const char * const *
steward_server_config_get_readable (StewardServerConfig *self)
{
  static const char * const none[] = { NULL };

  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (self), NULL);

  return self->readable != NULL ? (const char * const *) self->readable : none;
}

/**
 * steward_server_config_get_run_on_host:
 *
 * Returns: whether a local server runs with full access to the person's
 *   computer, outside any sandbox (`"runOnHost": true`): on the host when
 *   Steward runs in Flatpak, without bubblewrap otherwise
 */
gboolean
steward_server_config_get_run_on_host (StewardServerConfig *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (self), FALSE);

  return self->run_on_host;
}

/**
 * steward_server_config_get_url:
 *
 * Returns: (nullable): the http or https URL of a remote server
 */
const char *
steward_server_config_get_url (StewardServerConfig *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (self), NULL);

  return self->url;
}

/**
 * steward_server_config_get_headers:
 *
 * Returns: (transfer none) (element-type utf8 utf8): HTTP headers to send to
 *   a remote server, by name; empty for a local one
 */
GHashTable *
steward_server_config_get_headers (StewardServerConfig *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (self), NULL);

  return self->headers;
}

/**
 * steward_server_config_get_oauth:
 *
 * Returns: (nullable) (transfer none): how to register with a remote
 *   server's authorization server (`"oauth"`), when the entry says
 */
StewardServerOAuth *
steward_server_config_get_oauth (StewardServerConfig *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (self), NULL);

  return self->oauth;
}

/**
 * steward_server_config_dup_client_metadata_url:
 *
 * The Client ID Metadata Document to offer this server's authorization
 * server: the entry's `"clientMetadataUrl"`, else the
 * "client-metadata-url" setting (steward_client_metadata_dup_url()).
 *
 * Returns: (transfer full) (nullable): the address, or %NULL when none is
 *   to be offered
 */
char *
steward_server_config_dup_client_metadata_url (StewardServerConfig *self)
{
  const char *url;

  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (self), NULL);

  url = self->oauth != NULL ? steward_server_oauth_get_client_metadata_url (self->oauth) : NULL;
  return url != NULL ? g_strdup (url) : steward_client_metadata_dup_url ();
}

const char *
steward_server_transport_to_string (StewardServerTransport transport)
{
  switch (transport)
    {
    case STEWARD_SERVER_TRANSPORT_STDIO:
      return "stdio";
    case STEWARD_SERVER_TRANSPORT_STREAMABLE_HTTP:
      return "streamable-http";
    case STEWARD_SERVER_TRANSPORT_SSE:
      return "sse";
    default:
      g_return_val_if_reached (NULL);
    }
}

/* Building */

/* json-glib's copies share the objects and arrays inside; a config is
 * immutable only if it shares nothing with the one it was made from. */
static JsonNode *
copy_node (JsonNode *node)
{
  JsonObjectIter iter;
  const char *name;
  JsonNode *member;
  JsonNode *copy;

  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      copy = json_node_new (JSON_NODE_OBJECT);
      json_node_take_object (copy, json_object_new ());
      json_object_iter_init_ordered (&iter, json_node_get_object (node));
      while (json_object_iter_next_ordered (&iter, &name, &member))
        json_object_set_member (json_node_get_object (copy), name, copy_node (member));
      return copy;

    case JSON_NODE_ARRAY:
      copy = json_node_new (JSON_NODE_ARRAY);
      json_node_take_array (copy, json_array_new ());
      for (guint i = 0; i < json_array_get_length (json_node_get_array (node)); i++)
        json_array_add_element (json_node_get_array (copy),
                                copy_node (json_array_get_element (json_node_get_array (node),
                                                                   i)));
      return copy;

    case JSON_NODE_VALUE:
    case JSON_NODE_NULL:
    default:
      return json_node_copy (node);
    }
}

static JsonObject *
copy_object (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonNode) copy = NULL;

  json_node_set_object (node, object);
  copy = copy_node (node);
  return json_object_ref (json_node_get_object (copy));
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* The keys of a string table, sorted, so that what is written and hashed
 * does not depend on the order of a hash table. */
static const char **
dup_sorted_keys (GHashTable *table,
                 guint      *n_keys)
{
  const char **keys = (const char **) g_hash_table_get_keys_as_array (table, n_keys);

  qsort (keys, *n_keys, sizeof (char *), compare_strings);
  return keys;
}

static void
set_string_map (JsonObject *json,
                const char *member,
                GHashTable *table)
{
  g_autofree const char **keys = NULL;
  JsonObject *map;
  guint n_keys;

  if (table == NULL || g_hash_table_size (table) == 0)
    {
      json_object_remove_member (json, member);
      return;
    }

  map = json_object_new ();
  keys = dup_sorted_keys (table, &n_keys);
  for (guint i = 0; i < n_keys; i++)
    json_object_set_string_member (map, keys[i], g_hash_table_lookup (table, keys[i]));
  json_object_set_object_member (json, member, map);
}

/* Builders take what a dialog or an import made; input the servers file
 * would refuse is a programming error there, as those check it first. */
static StewardServerConfig *
build (const char *name,
       JsonObject *json)
{
  g_autoptr(GError) error = NULL;
  StewardServerConfig *self;

  self = steward_server_config_new_from_json (name, json, &error);
  if (self == NULL)
    g_critical ("Cannot build server `%s`: %s", name, error->message);

  return self;
}

/**
 * steward_server_config_new_stdio:
 * @name: the server's name
 * @command: the program to start
 * @args: (nullable) (array zero-terminated=1): its arguments
 * @env: (nullable) (element-type utf8 utf8): variables to set
 * @cwd: (nullable): an absolute folder to start it in
 *
 * Makes a local server's entry as the servers file holds it. Input the file
 * would refuse (an empty command, a relative folder, a variable name with
 * "=") is a programming error: check what a person typed with
 * steward_server_config_new_from_json(), which says why.
 *
 * Returns: (transfer full): the entry
 */
StewardServerConfig *
steward_server_config_new_stdio (const char         *name,
                                 const char         *command,
                                 const char * const *args,
                                 GHashTable         *env,
                                 const char         *cwd)
{
  g_autoptr(JsonObject) json = json_object_new ();

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (command != NULL, NULL);

  json_object_set_string_member (json, "command", command);

  if (args != NULL && args[0] != NULL)
    {
      JsonArray *array = json_array_new ();

      for (guint i = 0; args[i] != NULL; i++)
        json_array_add_string_element (array, args[i]);
      json_object_set_array_member (json, "args", array);
    }

  set_string_map (json, "env", env);

  if (cwd != NULL)
    json_object_set_string_member (json, "cwd", cwd);

  return build (name, json);
}

/**
 * steward_server_config_new_remote:
 * @name: the server's name
 * @url: an http:// or https:// URL
 * @transport: %STEWARD_SERVER_TRANSPORT_STREAMABLE_HTTP or
 *   %STEWARD_SERVER_TRANSPORT_SSE
 * @headers: (nullable) (element-type utf8 utf8): headers to send
 *
 * Makes a remote server's entry. Streamable HTTP, the default of the
 * servers file, is written without a "transport" member; the legacy
 * transport as `"transport": "sse"`.
 *
 * Returns: (transfer full): the entry
 */
StewardServerConfig *
steward_server_config_new_remote (const char             *name,
                                  const char             *url,
                                  StewardServerTransport  transport,
                                  GHashTable             *headers)
{
  g_autoptr(JsonObject) json = json_object_new ();

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (url != NULL, NULL);
  g_return_val_if_fail (transport == STEWARD_SERVER_TRANSPORT_STREAMABLE_HTTP ||
                        transport == STEWARD_SERVER_TRANSPORT_SSE, NULL);

  json_object_set_string_member (json, "url", url);
  if (transport == STEWARD_SERVER_TRANSPORT_SSE)
    json_object_set_string_member (json, "transport",
                                   steward_server_transport_to_string (transport));
  set_string_map (json, "headers", headers);

  return build (name, json);
}

/**
 * steward_server_config_with_disabled:
 *
 * Returns: (transfer full): a copy of the entry, disabled or not; every
 *   other member stays as it was
 */
StewardServerConfig *
steward_server_config_with_disabled (StewardServerConfig *self,
                                     gboolean             disabled)
{
  g_autoptr(JsonObject) json = NULL;

  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (self), NULL);

  json = copy_object (self->json);
  if (disabled)
    json_object_set_boolean_member (json, "disabled", TRUE);
  else
    json_object_remove_member (json, "disabled");

  return build (self->name, json);
}

/**
 * steward_server_config_with_name:
 *
 * Returns: (transfer full): a copy of the entry under another name
 */
StewardServerConfig *
steward_server_config_with_name (StewardServerConfig *self,
                                 const char          *name)
{
  g_autoptr(JsonObject) json = NULL;

  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (self), NULL);
  g_return_val_if_fail (name != NULL && name[0] != '\0', NULL);

  json = copy_object (self->json);
  return build (name, json);
}

/**
 * steward_server_config_with_sandbox:
 * @network: whether the server may use the network in its sandbox
 * @run_on_host: whether it runs on the host instead
 *
 * Returns: (transfer full): a copy of a local server's entry with
 *   `"network"` and `"runOnHost"` set, or left out when false
 */
StewardServerConfig *
steward_server_config_with_sandbox (StewardServerConfig *self,
                                    gboolean             network,
                                    gboolean             run_on_host)
{
  g_autoptr(JsonObject) json = NULL;

  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (self), NULL);
  g_return_val_if_fail (self->command != NULL, NULL);

  json = copy_object (self->json);
  if (network)
    json_object_set_boolean_member (json, "network", TRUE);
  else
    json_object_remove_member (json, "network");
  if (run_on_host)
    json_object_set_boolean_member (json, "runOnHost", TRUE);
  else
    json_object_remove_member (json, "runOnHost");

  return build (self->name, json);
}

/**
 * steward_server_config_with_permissions:
 * @network: 1 or 0 to allow or refuse the network, -1 to leave the choice
 *   to the sandbox profile's default
 * @display: whether the server may open windows
 * @full_access: whether it runs without a sandbox
 * @readable: (nullable): absolute folders it may read
 *
 * Returns: (transfer full): a copy of a local server's entry with its
 *   sandbox permissions set; false and empty ones are left out
 */
StewardServerConfig *
steward_server_config_with_permissions (StewardServerConfig *self,
                                        int                  network,
                                        gboolean             display,
                                        gboolean             full_access,
                                        const char * const  *readable)
{
  g_autoptr(JsonObject) json = NULL;

  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (self), NULL);
  g_return_val_if_fail (self->command != NULL, NULL);

  json = copy_object (self->json);
  if (network >= 0)
    json_object_set_boolean_member (json, "network", network > 0);
  else
    json_object_remove_member (json, "network");
  if (display)
    json_object_set_boolean_member (json, "display", TRUE);
  else
    json_object_remove_member (json, "display");
  if (full_access)
    json_object_set_boolean_member (json, "runOnHost", TRUE);
  else
    json_object_remove_member (json, "runOnHost");
  if (readable != NULL && readable[0] != NULL)
    {
      g_autoptr(JsonArray) array = json_array_new ();

      for (guint i = 0; readable[i] != NULL; i++)
        json_array_add_string_element (array, readable[i]);
      json_object_set_array_member (json, "readable", g_steal_pointer (&array));
    }
  else
    json_object_remove_member (json, "readable");

  return build (self->name, json);
}

/**
 * steward_server_config_with_env:
 * @env: (element-type utf8 utf8): the variables, replacing all of them
 *
 * Returns: (transfer full): a copy of a local server's entry with other
 *   environment variables, e.g. values moved into the keyring
 */
StewardServerConfig *
steward_server_config_with_env (StewardServerConfig *self,
                                GHashTable          *env)
{
  g_autoptr(JsonObject) json = NULL;

  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (self), NULL);
  g_return_val_if_fail (self->command != NULL, NULL);

  json = copy_object (self->json);
  set_string_map (json, "env", env);
  return build (self->name, json);
}

/**
 * steward_server_config_with_headers:
 * @headers: (element-type utf8 utf8): the headers, replacing all of them
 *
 * Returns: (transfer full): a copy of a remote server's entry with other
 *   headers
 */
StewardServerConfig *
steward_server_config_with_headers (StewardServerConfig *self,
                                    GHashTable          *headers)
{
  g_autoptr(JsonObject) json = NULL;

  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (self), NULL);
  g_return_val_if_fail (self->url != NULL, NULL);

  json = copy_object (self->json);
  set_string_map (json, "headers", headers);
  return build (self->name, json);
}

/**
 * steward_server_config_with_oauth:
 * @oauth: (nullable): the block, or %NULL to remove it
 *
 * Returns: (transfer full): a copy of a remote server's entry registering
 *   as @oauth says; members other hosts wrote into the block are kept
 */
StewardServerConfig *
steward_server_config_with_oauth (StewardServerConfig *self,
                                  StewardServerOAuth  *oauth)
{
  g_autoptr(JsonObject) json = NULL;
  JsonObject *block;

  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (self), NULL);
  g_return_val_if_fail (self->url != NULL, NULL);
  g_return_val_if_fail (oauth == NULL || STEWARD_IS_SERVER_OAUTH (oauth), NULL);

  json = copy_object (self->json);
  if (oauth == NULL || steward_server_oauth_is_empty (oauth))
    {
      json_object_remove_member (json, "oauth");
      return build (self->name, json);
    }

  block = json_object_get_object_member (json, "oauth");
  if (block == NULL)
    {
      block = json_object_new ();
      json_object_set_object_member (json, "oauth", block);
    }
  steward_server_oauth_write (oauth, block);
  return build (self->name, json);
}

/**
 * steward_server_config_equal:
 *
 * Returns: whether both entries have the same name and the same members
 *   with the same values, in whatever order the file had them
 */
gboolean
steward_server_config_equal (StewardServerConfig *a,
                             StewardServerConfig *b)
{
  g_autoptr(JsonNode) node_a = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonNode) node_b = json_node_new (JSON_NODE_OBJECT);

  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (a), FALSE);
  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (b), FALSE);

  if (a == b)
    return TRUE;

  if (!g_str_equal (a->name, b->name))
    return FALSE;

  json_node_set_object (node_a, a->json);
  json_node_set_object (node_b, b->json);
  return json_node_equal (node_a, node_b);
}

static void
add_nullable_string (JsonBuilder *builder,
                     const char  *value)
{
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

/**
 * steward_server_config_dup_fingerprint:
 *
 * Hashes what a person agrees to when they allow a server to start, in a
 * fixed order that does not depend on how the file was written: a version
 * tag, the transport, the command, the arguments, the folder, the
 * environment (names and values, sorted by name, references as written),
 * the URL and the header names (in lower case, sorted), then the sandbox
 * permissions (steward_sandbox_profile_add_to_fingerprint(), which adds
 * nothing for an entry that sets none, so that such entries keep the
 * fingerprints they had). Header values are
 * left out: they are credentials, which may be renewed without a new
 * consent. The name and "disabled" are left out too.
 *
 * Returns: (transfer full): SHA-256 as 64 lower-case hex digits
 */
char *
steward_server_config_dup_fingerprint (StewardServerConfig *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree const char **keys = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GPtrArray) headers = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter iter;
  gpointer key;
  guint n_keys;

  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (self), NULL);

  json_builder_begin_array (builder);
  json_builder_add_string_value (builder, "steward-consent-1");
  json_builder_add_string_value (builder, steward_server_transport_to_string (self->transport));
  add_nullable_string (builder, self->command);

  json_builder_begin_array (builder);
  for (guint i = 0; self->args[i] != NULL; i++)
    json_builder_add_string_value (builder, self->args[i]);
  json_builder_end_array (builder);

  add_nullable_string (builder, self->cwd);

  json_builder_begin_array (builder);
  keys = dup_sorted_keys (self->env, &n_keys);
  for (guint i = 0; i < n_keys; i++)
    {
      json_builder_begin_array (builder);
      json_builder_add_string_value (builder, keys[i]);
      json_builder_add_string_value (builder, g_hash_table_lookup (self->env, keys[i]));
      json_builder_end_array (builder);
    }
  json_builder_end_array (builder);

  add_nullable_string (builder, self->url);

  g_hash_table_iter_init (&iter, self->headers);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (headers, g_ascii_strdown (key, -1));
  g_ptr_array_sort (headers, compare_strings);

  json_builder_begin_array (builder);
  for (guint i = 0; i < headers->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (headers, i));
  json_builder_end_array (builder);

  /* The sandbox's permissions, which the sandbox profile owns. */
  steward_sandbox_profile_add_to_fingerprint (self, builder);

  json_builder_end_array (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  text = json_generator_to_data (generator, NULL);

  return g_compute_checksum_for_string (G_CHECKSUM_SHA256, text, -1);
}

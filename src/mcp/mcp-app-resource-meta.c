/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-app"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mcp-app-resource-meta.h"
#include "mcp-error.h"
#include "mcp-json.h"

/* A declared origin longer than this is no origin anyone needs. */
#define DOMAIN_MAX 300
/* As many origins as any real page loads from; more is a flood. */
#define DOMAINS_MAX 64

struct _McpAppResourceMeta
{
  GObject            parent_instance;

  GStrv              connect_domains;
  GStrv              resource_domains;
  GStrv              frame_domains;
  GStrv              base_uri_domains;
  McpAppPermissions  permissions;
  char              *domain;
  McpAppBorder       border;
};

G_DEFINE_FINAL_TYPE (McpAppResourceMeta, mcp_app_resource_meta, G_TYPE_OBJECT)

G_DEFINE_FLAGS_TYPE (McpAppPermissions, mcp_app_permissions,
                     G_DEFINE_ENUM_VALUE (MCP_APP_PERMISSION_NONE, "none"),
                     G_DEFINE_ENUM_VALUE (MCP_APP_PERMISSION_CAMERA, "camera"),
                     G_DEFINE_ENUM_VALUE (MCP_APP_PERMISSION_MICROPHONE, "microphone"),
                     G_DEFINE_ENUM_VALUE (MCP_APP_PERMISSION_GEOLOCATION, "geolocation"),
                     G_DEFINE_ENUM_VALUE (MCP_APP_PERMISSION_CLIPBOARD_WRITE, "clipboard-write"))

G_DEFINE_ENUM_TYPE (McpAppBorder, mcp_app_border,
                    G_DEFINE_ENUM_VALUE (MCP_APP_BORDER_HOST_DECIDES, "host-decides"),
                    G_DEFINE_ENUM_VALUE (MCP_APP_BORDER_VISIBLE, "visible"),
                    G_DEFINE_ENUM_VALUE (MCP_APP_BORDER_NONE, "none"))

static void
mcp_app_resource_meta_finalize (GObject *object)
{
  McpAppResourceMeta *self = MCP_APP_RESOURCE_META (object);

  g_strfreev (self->connect_domains);
  g_strfreev (self->resource_domains);
  g_strfreev (self->frame_domains);
  g_strfreev (self->base_uri_domains);
  g_free (self->domain);

  G_OBJECT_CLASS (mcp_app_resource_meta_parent_class)->finalize (object);
}

static void
mcp_app_resource_meta_class_init (McpAppResourceMetaClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = mcp_app_resource_meta_finalize;
}

static void
mcp_app_resource_meta_init (McpAppResourceMeta *self)
{
  self->connect_domains = g_new0 (char *, 1);
  self->resource_domains = g_new0 (char *, 1);
  self->frame_domains = g_new0 (char *, 1);
  self->base_uri_domains = g_new0 (char *, 1);
}

McpAppResourceMeta *
mcp_app_resource_meta_new_default (void)
{
  return g_object_new (MCP_TYPE_APP_RESOURCE_META, NULL);
}

/* One DNS label, or an IPv4 address's number: letters, digits and
 * inner hyphens. Nothing a CSP source list could read as syntax. */
static gboolean
is_label (const char *start,
          gsize       length)
{
  if (length == 0 || length > 63 || start[0] == '-' || start[length - 1] == '-')
    return FALSE;

  for (gsize i = 0; i < length; i++)
    if (!g_ascii_isalnum (start[i]) && start[i] != '-')
      return FALSE;

  return TRUE;
}

/* @host: lower case, without port. A leading "*." stands for any
 * subdomain of a name of two labels or more, never of a whole top-level
 * domain. */
static gboolean
is_host_pattern (const char *host,
                 gboolean   *wildcard)
{
  g_auto(GStrv) labels = NULL;
  guint n;

  *wildcard = g_str_has_prefix (host, "*.");
  if (*wildcard)
    host += 2;

  if (*host == '\0' || strlen (host) > 253)
    return FALSE;

  labels = g_strsplit (host, ".", -1);
  n = g_strv_length (labels);
  if (*wildcard && n < 2)
    return FALSE;

  for (guint i = 0; i < n; i++)
    if (!is_label (labels[i], strlen (labels[i])))
      return FALSE;

  return TRUE;
}

static gboolean
is_loopback (const char *host)
{
  return g_str_equal (host, "localhost") || g_str_equal (host, "127.0.0.1") ||
         g_str_equal (host, "[::1]");
}

static gboolean
domain_error (GError     **error,
              const char  *domain,
              const char  *why)
{
  /* Translators: the first %s is an origin a server declared for its view
   * ("https://cdn.example.com"), the second why it was refused. */
  g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
               _("The view declares “%s”, which is not an origin it may use: %s"),
               domain, why);
  return FALSE;
}

/* Checks @domain and returns it in the form the policy uses (lower case,
 * without a trailing slash), or NULL. */
static char *
normalize_domain (const char        *domain,
                  McpAppDomainKind   kind,
                  GError           **error)
{
  g_autofree char *lower = NULL;
  g_autofree char *host = NULL;
  const char *scheme_end, *rest, *colon;
  gboolean secure, wildcard;
  gsize length;

  if (domain == NULL || *domain == '\0')
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                           _("The view declares an empty origin"));
      return NULL;
    }

  length = strlen (domain);
  if (length > DOMAIN_MAX || !g_utf8_validate (domain, length, NULL))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                   _("The view declares an origin of %zu bytes, which is not an origin it "
                     "may use"), length);
      return NULL;
    }

  lower = g_ascii_strdown (domain, length);
  if (g_str_has_suffix (lower, "/"))
    lower[length - 1] = '\0';

  scheme_end = strstr (lower, "://");
  if (scheme_end == NULL)
    {
      domain_error (error, domain, _("an origin starts with https://"));
      return NULL;
    }

  rest = scheme_end + 3;
  if (g_str_has_prefix (lower, "https://"))
    secure = TRUE;
  else if (g_str_has_prefix (lower, "http://"))
    secure = FALSE;
  else if (kind == MCP_APP_DOMAIN_CONNECT && g_str_has_prefix (lower, "wss://"))
    secure = TRUE;
  else if (kind == MCP_APP_DOMAIN_CONNECT && g_str_has_prefix (lower, "ws://"))
    secure = FALSE;
  else
    {
      domain_error (error, domain,
                    kind == MCP_APP_DOMAIN_CONNECT
                    ? _("only https:// and wss:// origins are allowed")
                    : _("only https:// origins are allowed"));
      return NULL;
    }

  /* An IPv6 literal is accepted for loopback alone, whose brackets hold
   * the one colon that is not a port's. */
  if (g_str_has_prefix (rest, "[::1]"))
    colon = rest[5] == ':' ? rest + 5 : NULL;
  else
    colon = strchr (rest, ':');

  host = colon != NULL ? g_strndup (rest, colon - rest) : g_strdup (rest);
  if (colon != NULL)
    {
      const char *port = colon + 1;
      guint64 number = 0;

      if (*port == '\0' || strlen (port) > 5 ||
          !g_ascii_string_to_unsigned (port, 10, 1, 65535, &number, NULL))
        {
          domain_error (error, domain, _("its port is not a number from 1 to 65535"));
          return NULL;
        }
    }
  else if (host[0] != '[' && strpbrk (host, "/?#@\\") != NULL)
    {
      domain_error (error, domain, _("an origin has no path, query, fragment or user name"));
      return NULL;
    }

  if (g_str_equal (host, "[::1]"))
    wildcard = FALSE;
  else if (!is_host_pattern (host, &wildcard))
    {
      domain_error (error, domain,
                    _("its host is not a domain name, or a “*.” followed by one of two "
                      "labels or more"));
      return NULL;
    }

  if (!secure && (wildcard || !is_loopback (host)))
    {
      domain_error (error, domain,
                    _("unencrypted origins are allowed on this computer (localhost) only"));
      return NULL;
    }

  return g_steal_pointer (&lower);
}

gboolean
mcp_app_domain_check (const char        *domain,
                      McpAppDomainKind   kind,
                      GError           **error)
{
  g_autofree char *normalized = normalize_domain (domain, kind, error);

  return normalized != NULL;
}

static gboolean
read_domains (JsonObject        *csp,
              const char        *member,
              McpAppDomainKind   kind,
              GStrv             *out,
              GError           **error)
{
  g_autoptr(GStrvBuilder) builder = NULL;
  JsonNode *node;
  JsonArray *array;
  guint n;

  node = json_object_get_member (csp, member);
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      /* Translators: %s is a field's name, "csp.connectDomains". */
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                   _("The view's “csp.%s” is not a list of origins"), member);
      return FALSE;
    }

  array = json_node_get_array (node);
  n = json_array_get_length (array);
  if (n > DOMAINS_MAX)
    {
      /* Translators: %s is a field's name, %u how many origins it holds. */
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                   _("The view's “csp.%s” lists %u origins; at most 64 are taken"), member, n);
      return FALSE;
    }

  builder = g_strv_builder_new ();
  for (guint i = 0; i < n; i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      const char *text;
      g_autofree char *normalized = NULL;
      g_autoptr(GError) local_error = NULL;

      if (!JSON_NODE_HOLDS_VALUE (element) || json_node_get_value_type (element) != G_TYPE_STRING)
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                       _("The view's “csp.%s” holds something that is not text"), member);
          return FALSE;
        }

      text = json_node_get_string (element);
      normalized = normalize_domain (text, kind, &local_error);
      if (normalized == NULL)
        {
          /* Translators: the first %s is a field's name, the second the
           * reason its origin was refused. */
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                       _("csp.%s: %s"), member, local_error->message);
          return FALSE;
        }
      g_strv_builder_add (builder, normalized);
    }

  g_strfreev (*out);
  *out = g_strv_builder_end (builder);
  return TRUE;
}

static const struct {
  const char        *member;
  McpAppPermissions  flag;
} permission_names[] = {
  { "camera", MCP_APP_PERMISSION_CAMERA },
  { "microphone", MCP_APP_PERMISSION_MICROPHONE },
  { "geolocation", MCP_APP_PERMISSION_GEOLOCATION },
  { "clipboardWrite", MCP_APP_PERMISSION_CLIPBOARD_WRITE },
};

McpAppResourceMeta *
mcp_app_resource_meta_new_from_json (JsonObject  *ui,
                                     GError     **error)
{
  g_autoptr(McpAppResourceMeta) self = mcp_app_resource_meta_new_default ();
  JsonNode *node;

  if (ui == NULL)
    return g_steal_pointer (&self);

  node = json_object_get_member (ui, "csp");
  if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
    {
      JsonObject *csp;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                               _("The view's “csp” is not an object"));
          return NULL;
        }

      csp = json_node_get_object (node);
      if (!read_domains (csp, "connectDomains", MCP_APP_DOMAIN_CONNECT,
                         &self->connect_domains, error) ||
          !read_domains (csp, "resourceDomains", MCP_APP_DOMAIN_RESOURCE,
                         &self->resource_domains, error) ||
          !read_domains (csp, "frameDomains", MCP_APP_DOMAIN_FRAME,
                         &self->frame_domains, error) ||
          !read_domains (csp, "baseUriDomains", MCP_APP_DOMAIN_BASE_URI,
                         &self->base_uri_domains, error))
        return NULL;
    }

  node = json_object_get_member (ui, "permissions");
  if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
    {
      JsonObject *permissions;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                               _("The view's “permissions” is not an object"));
          return NULL;
        }

      /* Each is an empty object when asked for; a permission we do not
       * know is not granted, so it needs no error. */
      permissions = json_node_get_object (node);
      for (gsize i = 0; i < G_N_ELEMENTS (permission_names); i++)
        if (mcp_json_get_object (permissions, permission_names[i].member) != NULL)
          self->permissions |= permission_names[i].flag;
    }

  node = json_object_get_member (ui, "domain");
  if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
    {
      const char *domain = mcp_json_get_string (ui, "domain");
      gboolean wildcard;
      g_autofree char *lower = NULL;

      lower = domain != NULL ? g_ascii_strdown (domain, -1) : NULL;
      if (lower == NULL || !is_host_pattern (lower, &wildcard) || wildcard)
        {
          g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                               _("The view's “domain” is not a host name"));
          return NULL;
        }
      self->domain = g_steal_pointer (&lower);
    }

  node = json_object_get_member (ui, "prefersBorder");
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
      json_node_get_value_type (node) == G_TYPE_BOOLEAN)
    self->border = json_node_get_boolean (node) ? MCP_APP_BORDER_VISIBLE : MCP_APP_BORDER_NONE;

  return g_steal_pointer (&self);
}

McpAppResourceMeta *
mcp_app_resource_meta_new_from_content (JsonObject  *content,
                                        GError     **error)
{
  JsonObject *meta;
  JsonNode *ui;

  g_return_val_if_fail (content != NULL, NULL);

  meta = mcp_json_get_object (content, "_meta");
  ui = meta != NULL ? json_object_get_member (meta, "ui") : NULL;
  if (ui == NULL || JSON_NODE_HOLDS_NULL (ui))
    return mcp_app_resource_meta_new_default ();

  if (!JSON_NODE_HOLDS_OBJECT (ui))
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                           _("The view's “_meta.ui” is not an object"));
      return NULL;
    }

  return mcp_app_resource_meta_new_from_json (json_node_get_object (ui), error);
}

const char * const *
mcp_app_resource_meta_get_connect_domains (McpAppResourceMeta *self)
{
  g_return_val_if_fail (MCP_IS_APP_RESOURCE_META (self), NULL);

  return (const char * const *) self->connect_domains;
}

const char * const *
mcp_app_resource_meta_get_resource_domains (McpAppResourceMeta *self)
{
  g_return_val_if_fail (MCP_IS_APP_RESOURCE_META (self), NULL);

  return (const char * const *) self->resource_domains;
}

const char * const *
mcp_app_resource_meta_get_frame_domains (McpAppResourceMeta *self)
{
  g_return_val_if_fail (MCP_IS_APP_RESOURCE_META (self), NULL);

  return (const char * const *) self->frame_domains;
}

const char * const *
mcp_app_resource_meta_get_base_uri_domains (McpAppResourceMeta *self)
{
  g_return_val_if_fail (MCP_IS_APP_RESOURCE_META (self), NULL);

  return (const char * const *) self->base_uri_domains;
}

McpAppPermissions
mcp_app_resource_meta_get_permissions (McpAppResourceMeta *self)
{
  g_return_val_if_fail (MCP_IS_APP_RESOURCE_META (self), MCP_APP_PERMISSION_NONE);

  return self->permissions;
}

const char *
mcp_app_resource_meta_get_domain (McpAppResourceMeta *self)
{
  g_return_val_if_fail (MCP_IS_APP_RESOURCE_META (self), NULL);

  return self->domain;
}

McpAppBorder
mcp_app_resource_meta_get_border (McpAppResourceMeta *self)
{
  g_return_val_if_fail (MCP_IS_APP_RESOURCE_META (self), MCP_APP_BORDER_HOST_DECIDES);

  return self->border;
}

void
mcp_app_add_capabilities (JsonObject *capabilities)
{
  JsonObject *extensions;
  JsonObject *ui = json_object_new ();
  JsonArray *mime_types = json_array_new ();

  g_return_if_fail (capabilities != NULL);

  extensions = mcp_json_get_object (capabilities, "extensions");
  if (extensions == NULL)
    {
      extensions = json_object_new ();
      json_object_set_object_member (capabilities, "extensions", extensions);
    }

  json_array_add_string_element (mime_types, MCP_APP_MIME_TYPE);
  json_object_set_array_member (ui, "mimeTypes", mime_types);
  json_object_set_object_member (extensions, MCP_APP_EXTENSION, ui);
}

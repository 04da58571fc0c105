/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-http-transport"

#include "config.h"

#include <string.h>

#include "mcp-http-transport-base-private.h"
#include "mcp-http-util-private.h"
#include "mcp-line-framer.h"

typedef struct
{
  char      *url;
  GUri      *uri;               /* NULL when the URL does not parse */
  GPtrArray *headers;           /* name, value, name, value… */
  gsize      max_message_size;
  guint      idle_timeout_ms;
} McpHttpTransportBasePrivate;

enum {
  PROP_0,
  PROP_URL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/**
 * McpHttpTransportBase:
 *
 * The part of a transport to a remote MCP server that does not depend on
 * how messages travel: the URL it was made for, the headers (credentials
 * among them) that go with every request, and the largest message and the
 * longest silence it accepts. The transports read these when they build a
 * request, so that a change applies from the next one.
 */
G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (McpHttpTransportBase, mcp_http_transport_base,
                                     G_TYPE_OBJECT)

static void
mcp_http_transport_base_finalize (GObject *object)
{
  McpHttpTransportBase *self = MCP_HTTP_TRANSPORT_BASE (object);
  McpHttpTransportBasePrivate *priv = mcp_http_transport_base_get_instance_private (self);

  g_clear_pointer (&priv->url, g_free);
  g_clear_pointer (&priv->uri, g_uri_unref);
  g_clear_pointer (&priv->headers, g_ptr_array_unref);

  G_OBJECT_CLASS (mcp_http_transport_base_parent_class)->finalize (object);
}

static void
mcp_http_transport_base_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  McpHttpTransportBase *self = MCP_HTTP_TRANSPORT_BASE (object);
  McpHttpTransportBasePrivate *priv = mcp_http_transport_base_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_URL:
      g_value_set_string (value, priv->url);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_http_transport_base_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  McpHttpTransportBase *self = MCP_HTTP_TRANSPORT_BASE (object);
  McpHttpTransportBasePrivate *priv = mcp_http_transport_base_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_URL:
      priv->url = g_value_dup_string (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_http_transport_base_constructed (GObject *object)
{
  McpHttpTransportBase *self = MCP_HTTP_TRANSPORT_BASE (object);
  McpHttpTransportBasePrivate *priv = mcp_http_transport_base_get_instance_private (self);

  G_OBJECT_CLASS (mcp_http_transport_base_parent_class)->constructed (object);

  /* A URL that does not parse is the subclass's to report: one says so
   * when started, the other at once. */
  if (priv->url == NULL)
    priv->url = g_strdup ("");
  priv->uri = mcp_http_parse_url (priv->url, NULL);
}

static void
mcp_http_transport_base_class_init (McpHttpTransportBaseClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = mcp_http_transport_base_constructed;
  object_class->finalize = mcp_http_transport_base_finalize;
  object_class->get_property = mcp_http_transport_base_get_property;
  object_class->set_property = mcp_http_transport_base_set_property;

  properties[PROP_URL] =
    g_param_spec_string ("url", NULL, NULL,
                         NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
mcp_http_transport_base_init (McpHttpTransportBase *self)
{
  McpHttpTransportBasePrivate *priv = mcp_http_transport_base_get_instance_private (self);

  priv->headers = g_ptr_array_new_with_free_func (g_free);
  priv->max_message_size = MCP_DEFAULT_MAX_MESSAGE_SIZE;
}

/* Both transports refuse a URL that is not http or https with a host
 * before making anything. */
gpointer
mcp_http_transport_base_new (GType        type,
                             const char  *url,
                             GError     **error)
{
  g_autoptr(GUri) uri = NULL;

  g_return_val_if_fail (g_type_is_a (type, MCP_TYPE_HTTP_TRANSPORT_BASE), NULL);
  g_return_val_if_fail (url != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  uri = mcp_http_parse_url (url, error);
  if (uri == NULL)
    return NULL;

  return g_object_new (type, "url", url, NULL);
}

/**
 * mcp_http_transport_base_get_url:
 *
 * Returns: the URL the transport was made for, as given
 */
const char *
mcp_http_transport_base_get_url (McpHttpTransportBase *self)
{
  McpHttpTransportBasePrivate *priv = mcp_http_transport_base_get_instance_private (self);

  g_return_val_if_fail (MCP_IS_HTTP_TRANSPORT_BASE (self), NULL);

  return priv->url;
}

/* The parsed URL, or NULL when it does not parse. */
GUri *
mcp_http_transport_base_get_uri (McpHttpTransportBase *self)
{
  McpHttpTransportBasePrivate *priv = mcp_http_transport_base_get_instance_private (self);

  return priv->uri;
}

/**
 * mcp_http_transport_base_set_header:
 * @name: an HTTP header name
 * @value: (nullable): its value, or %NULL to stop sending it
 *
 * Sends a header with every request to the server, in place of any of the
 * same name (compared without case). Values are never logged.
 */
void
mcp_http_transport_base_set_header (McpHttpTransportBase *self,
                                    const char           *name,
                                    const char           *value)
{
  McpHttpTransportBasePrivate *priv = mcp_http_transport_base_get_instance_private (self);

  g_return_if_fail (MCP_IS_HTTP_TRANSPORT_BASE (self));
  g_return_if_fail (mcp_http_is_header_name (name));
  g_return_if_fail (value == NULL || strpbrk (value, "\r\n") == NULL);

  for (guint i = 0; i + 1 < priv->headers->len; i += 2)
    if (g_ascii_strcasecmp (g_ptr_array_index (priv->headers, i), name) == 0)
      {
        g_ptr_array_remove_range (priv->headers, i, 2);
        break;
      }

  if (value != NULL)
    {
      g_ptr_array_add (priv->headers, g_strdup (name));
      g_ptr_array_add (priv->headers, g_strdup (value));
    }
}

/* Adds the configured headers to a request. A transport sets the headers
 * of the protocol after these, or keeps them out at set_header(). */
void
mcp_http_transport_base_apply_headers (McpHttpTransportBase *self,
                                       SoupMessageHeaders   *headers)
{
  McpHttpTransportBasePrivate *priv = mcp_http_transport_base_get_instance_private (self);

  for (guint i = 0; i + 1 < priv->headers->len; i += 2)
    soup_message_headers_replace (headers, g_ptr_array_index (priv->headers, i),
                                  g_ptr_array_index (priv->headers, i + 1));
}

gsize
mcp_http_transport_base_get_max_message_size (McpHttpTransportBase *self)
{
  McpHttpTransportBasePrivate *priv = mcp_http_transport_base_get_instance_private (self);

  g_return_val_if_fail (MCP_IS_HTTP_TRANSPORT_BASE (self), 0);

  return priv->max_message_size;
}

/**
 * mcp_http_transport_base_set_max_message_size:
 * @max_size: the largest message the server may send, in bytes
 */
void
mcp_http_transport_base_set_max_message_size (McpHttpTransportBase *self,
                                              gsize                 max_size)
{
  McpHttpTransportBasePrivate *priv = mcp_http_transport_base_get_instance_private (self);

  g_return_if_fail (MCP_IS_HTTP_TRANSPORT_BASE (self));
  g_return_if_fail (max_size > 0);

  priv->max_message_size = max_size;
}

guint
mcp_http_transport_base_get_idle_timeout (McpHttpTransportBase *self)
{
  McpHttpTransportBasePrivate *priv = mcp_http_transport_base_get_instance_private (self);

  g_return_val_if_fail (MCP_IS_HTTP_TRANSPORT_BASE (self), 0);

  return priv->idle_timeout_ms;
}

/**
 * mcp_http_transport_base_set_idle_timeout:
 * @timeout_ms: how long the server may stay silent, as each transport
 *   defines it, or 0 where the transport allows waiting for ever
 */
void
mcp_http_transport_base_set_idle_timeout (McpHttpTransportBase *self,
                                          guint                 timeout_ms)
{
  McpHttpTransportBasePrivate *priv = mcp_http_transport_base_get_instance_private (self);

  g_return_if_fail (MCP_IS_HTTP_TRANSPORT_BASE (self));

  priv->idle_timeout_ms = timeout_ms;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-error"

#include "config.h"

#include "mcp-error.h"

/* A peer's error may carry `data` (the URL elicitations of -32042, the
 * supported versions of -32022), so the domain is an extended one. */
typedef struct {
  JsonNode *data;
} McpErrorPrivate;

static void
mcp_error_private_init (McpErrorPrivate *priv)
{
  priv->data = NULL;
}

static void
mcp_error_private_copy (const McpErrorPrivate *src,
                        McpErrorPrivate       *dest)
{
  dest->data = src->data ? json_node_copy (src->data) : NULL;
}

static void
mcp_error_private_clear (McpErrorPrivate *priv)
{
  g_clear_pointer (&priv->data, json_node_unref);
}

G_DEFINE_EXTENDED_ERROR (McpError, mcp_error)

gboolean
mcp_error_is_rpc (const GError *error)
{
  return error != NULL && error->domain == MCP_ERROR && error->code < 0;
}

JsonNode *
mcp_error_get_data (const GError *error)
{
  McpErrorPrivate *priv;

  if (error == NULL || error->domain != MCP_ERROR)
    return NULL;

  priv = mcp_error_get_private (error);
  return priv ? priv->data : NULL;
}

void
mcp_error_set_data (GError   *error,
                    JsonNode *data)
{
  McpErrorPrivate *priv;

  g_return_if_fail (error != NULL && error->domain == MCP_ERROR);

  priv = mcp_error_get_private (error);
  g_clear_pointer (&priv->data, json_node_unref);
  if (data != NULL)
    priv->data = json_node_copy (data);
}

GError *
mcp_error_new_rpc (int         code,
                   const char *message,
                   JsonNode   *data)
{
  GError *error;

  error = g_error_new_literal (MCP_ERROR, code, message ? message : "");
  if (data != NULL)
    mcp_error_set_data (error, data);

  return error;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client-delegate"

#include "config.h"

#include "mcp-client-delegate.h"

G_DEFINE_INTERFACE (McpClientDelegate, mcp_client_delegate, G_TYPE_OBJECT)

static void
mcp_client_delegate_default_init (McpClientDelegateInterface *iface)
{
}

McpClientFeatures
mcp_client_delegate_get_features (McpClientDelegate *self)
{
  McpClientDelegateInterface *iface;

  g_return_val_if_fail (MCP_IS_CLIENT_DELEGATE (self), MCP_CLIENT_FEATURE_NONE);

  iface = MCP_CLIENT_DELEGATE_GET_IFACE (self);
  return iface->get_features ? iface->get_features (self) : MCP_CLIENT_FEATURE_NONE;
}

void
mcp_client_delegate_create_message_async (McpClientDelegate   *self,
                                          McpClient           *client,
                                          JsonObject          *params,
                                          GCancellable        *cancellable,
                                          GAsyncReadyCallback  callback,
                                          gpointer             user_data)
{
  g_return_if_fail (MCP_IS_CLIENT_DELEGATE (self));

  MCP_CLIENT_DELEGATE_GET_IFACE (self)->create_message_async (self, client, params, cancellable,
                                                              callback, user_data);
}

JsonObject *
mcp_client_delegate_create_message_finish (McpClientDelegate  *self,
                                           GAsyncResult       *result,
                                           GError            **error)
{
  g_return_val_if_fail (MCP_IS_CLIENT_DELEGATE (self), NULL);

  return MCP_CLIENT_DELEGATE_GET_IFACE (self)->create_message_finish (self, result, error);
}

void
mcp_client_delegate_elicit_async (McpClientDelegate   *self,
                                  McpClient           *client,
                                  JsonObject          *params,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_return_if_fail (MCP_IS_CLIENT_DELEGATE (self));

  MCP_CLIENT_DELEGATE_GET_IFACE (self)->elicit_async (self, client, params, cancellable,
                                                      callback, user_data);
}

JsonObject *
mcp_client_delegate_elicit_finish (McpClientDelegate  *self,
                                   GAsyncResult       *result,
                                   GError            **error)
{
  g_return_val_if_fail (MCP_IS_CLIENT_DELEGATE (self), NULL);

  return MCP_CLIENT_DELEGATE_GET_IFACE (self)->elicit_finish (self, result, error);
}

void
mcp_client_delegate_list_roots_async (McpClientDelegate   *self,
                                      McpClient           *client,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  g_return_if_fail (MCP_IS_CLIENT_DELEGATE (self));

  MCP_CLIENT_DELEGATE_GET_IFACE (self)->list_roots_async (self, client, cancellable,
                                                          callback, user_data);
}

JsonObject *
mcp_client_delegate_list_roots_finish (McpClientDelegate  *self,
                                       GAsyncResult       *result,
                                       GError            **error)
{
  g_return_val_if_fail (MCP_IS_CLIENT_DELEGATE (self), NULL);

  return MCP_CLIENT_DELEGATE_GET_IFACE (self)->list_roots_finish (self, result, error);
}

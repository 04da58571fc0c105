/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef struct _McpClient McpClient;

/**
 * McpClientFeatures:
 *
 * What the host behind a client can do for servers. The client declares
 * exactly these as its capabilities and answers a request for anything else
 * with the JSON-RPC error the specification asks for.
 */
typedef enum {
  MCP_CLIENT_FEATURE_NONE               = 0,
  MCP_CLIENT_FEATURE_ROOTS              = 1 << 0,
  MCP_CLIENT_FEATURE_ROOTS_LIST_CHANGED = 1 << 1,
  MCP_CLIENT_FEATURE_SAMPLING           = 1 << 2,
  MCP_CLIENT_FEATURE_SAMPLING_TOOLS     = 1 << 3,
  MCP_CLIENT_FEATURE_SAMPLING_CONTEXT   = 1 << 4,
  MCP_CLIENT_FEATURE_ELICITATION_FORM   = 1 << 5,
  MCP_CLIENT_FEATURE_ELICITATION_URL    = 1 << 6,
  /* Shows MCP Apps views (`io.modelcontextprotocol/ui`, HTML). */
  MCP_CLIENT_FEATURE_APPS               = 1 << 7,
} McpClientFeatures;

#define MCP_TYPE_CLIENT_DELEGATE (mcp_client_delegate_get_type ())

G_DECLARE_INTERFACE (McpClientDelegate, mcp_client_delegate, MCP, CLIENT_DELEGATE, GObject)

/**
 * McpClientDelegateInterface:
 *
 * The host's side of requests that come from a server: sampling, elicitation
 * and roots. Each receives the request's params as the server sent them and
 * returns the result object to send back; a #GError in the %MCP_ERROR domain
 * with a JSON-RPC code (for example %MCP_ERROR_USER_REJECTED) becomes that
 * error response. The cancellable is cancelled when the server cancels its
 * request or the connection ends. In the 2026-07-28 era the same methods
 * answer `input_required` results; the delegate cannot tell the difference.
 */
struct _McpClientDelegateInterface
{
  GTypeInterface parent_iface;

  McpClientFeatures  (*get_features)          (McpClientDelegate    *self);

  void               (*create_message_async)  (McpClientDelegate    *self,
                                               McpClient            *client,
                                               JsonObject           *params,
                                               GCancellable         *cancellable,
                                               GAsyncReadyCallback   callback,
                                               gpointer              user_data);
  JsonObject        *(*create_message_finish) (McpClientDelegate    *self,
                                               GAsyncResult         *result,
                                               GError              **error);
  void               (*elicit_async)          (McpClientDelegate    *self,
                                               McpClient            *client,
                                               JsonObject           *params,
                                               GCancellable         *cancellable,
                                               GAsyncReadyCallback   callback,
                                               gpointer              user_data);
  JsonObject        *(*elicit_finish)         (McpClientDelegate    *self,
                                               GAsyncResult         *result,
                                               GError              **error);
  void               (*list_roots_async)      (McpClientDelegate    *self,
                                               McpClient            *client,
                                               GCancellable         *cancellable,
                                               GAsyncReadyCallback   callback,
                                               gpointer              user_data);
  JsonObject        *(*list_roots_finish)     (McpClientDelegate    *self,
                                               GAsyncResult         *result,
                                               GError              **error);
};

McpClientFeatures  mcp_client_delegate_get_features          (McpClientDelegate    *self);
void               mcp_client_delegate_create_message_async  (McpClientDelegate    *self,
                                                              McpClient            *client,
                                                              JsonObject           *params,
                                                              GCancellable         *cancellable,
                                                              GAsyncReadyCallback   callback,
                                                              gpointer              user_data);
JsonObject        *mcp_client_delegate_create_message_finish (McpClientDelegate    *self,
                                                              GAsyncResult         *result,
                                                              GError              **error);
void               mcp_client_delegate_elicit_async          (McpClientDelegate    *self,
                                                              McpClient            *client,
                                                              JsonObject           *params,
                                                              GCancellable         *cancellable,
                                                              GAsyncReadyCallback   callback,
                                                              gpointer              user_data);
JsonObject        *mcp_client_delegate_elicit_finish         (McpClientDelegate    *self,
                                                              GAsyncResult         *result,
                                                              GError              **error);
void               mcp_client_delegate_list_roots_async      (McpClientDelegate    *self,
                                                              McpClient            *client,
                                                              GCancellable         *cancellable,
                                                              GAsyncReadyCallback   callback,
                                                              gpointer              user_data);
JsonObject        *mcp_client_delegate_list_roots_finish     (McpClientDelegate    *self,
                                                              GAsyncResult         *result,
                                                              GError              **error);

G_END_DECLS

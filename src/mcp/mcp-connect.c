/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-connect"

#include "config.h"

#include "mcp-connect.h"
#include "mcp-error.h"
#include "mcp-http-transport.h"
#include "mcp-json-private.h"
#include "mcp-sse-transport.h"

/**
 * mcp_http_kind_new_transport:
 * @headers: (nullable) (element-type utf8 utf8): headers for every request
 *
 * Returns: (transfer full): a transport of @kind (Streamable HTTP for
 *   %MCP_HTTP_KIND_AUTO) for @url, not yet started
 */
McpTransport *
mcp_http_kind_new_transport (McpHttpKind   kind,
                             const char   *url,
                             GHashTable   *headers,
                             GError      **error)
{
  GHashTableIter iter;
  gpointer name;
  gpointer value;

  if (kind == MCP_HTTP_KIND_SSE)
    {
      McpSseTransport *sse = mcp_sse_transport_new (url, error);

      if (sse != NULL && headers != NULL)
        {
          g_hash_table_iter_init (&iter, headers);
          while (g_hash_table_iter_next (&iter, &name, &value))
            mcp_sse_transport_set_header (sse, name, value);
        }
      return MCP_TRANSPORT (sse);
    }
  else
    {
      McpHttpTransport *http = mcp_http_transport_new (url, error);

      if (http != NULL && headers != NULL)
        {
          g_hash_table_iter_init (&iter, headers);
          while (g_hash_table_iter_next (&iter, &name, &value))
            mcp_http_transport_set_header (http, name, value);
        }
      return MCP_TRANSPORT (http);
    }
}

gboolean
mcp_http_kind_from_string (const char  *string,
                           McpHttpKind *kind)
{
  if (g_strcmp0 (string, "auto") == 0)
    *kind = MCP_HTTP_KIND_AUTO;
  else if (g_strcmp0 (string, "streamable-http") == 0)
    *kind = MCP_HTTP_KIND_STREAMABLE;
  else if (g_strcmp0 (string, "sse") == 0)
    *kind = MCP_HTTP_KIND_SSE;
  else
    return FALSE;

  return TRUE;
}

typedef struct {
  char               *url;
  GHashTable         *headers;
  McpHttpKind         kind;
  McpClientSetupFunc  setup;
  gpointer            setup_data;
  McpClient          *client;
} ConnectData;

static void
connect_data_free (ConnectData *data)
{
  g_free (data->url);
  g_clear_pointer (&data->headers, g_hash_table_unref);
  g_clear_object (&data->client);
  g_free (data);
}

static void try_connect (GTask *task);

/* The backwards-compatibility probe of Streamable HTTP: a server that
 * answers the first POST with 400, 404 or 405 may be one of the legacy
 * HTTP+SSE transport. A 401 or 403 is a question of credentials, not of
 * transport, and is not retried. */
static gboolean
suggests_legacy_transport (const GError *error)
{
  JsonNode *data = mcp_error_get_data (error);
  double status;

  if (data == NULL || !JSON_NODE_HOLDS_OBJECT (data))
    return FALSE;

  status = mcp_json_get_number (json_node_get_object (data), "status", 0);
  return status == 400 || status == 404 || status == 405;
}

static void
connect_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ConnectData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (mcp_client_connect_finish (MCP_CLIENT (object), result, &error))
    {
      g_task_return_pointer (task, g_steal_pointer (&data->client), g_object_unref);
      return;
    }

  if (data->kind == MCP_HTTP_KIND_AUTO && suggests_legacy_transport (error) &&
      !g_task_return_error_if_cancelled (task))
    {
      g_clear_object (&data->client);
      data->kind = MCP_HTTP_KIND_SSE;
      try_connect (g_steal_pointer (&task));
      return;
    }

  g_task_return_error (task, g_steal_pointer (&error));
}

static void
try_connect (GTask *task)
{
  ConnectData *data = g_task_get_task_data (task);
  g_autoptr(McpTransport) transport = NULL;
  GError *error = NULL;

  transport = mcp_http_kind_new_transport (data->kind, data->url, data->headers, &error);
  if (transport == NULL)
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  data->client = mcp_client_new (transport);
  if (data->setup != NULL)
    data->setup (data->client, data->setup_data);

  mcp_client_connect_async (data->client, g_task_get_cancellable (task), connect_cb, task);
}

/**
 * mcp_connect_http_async:
 * @kind: the transport, or %MCP_HTTP_KIND_AUTO to try Streamable HTTP and
 *   fall back to the legacy HTTP+SSE transport when the server refuses the
 *   first POST the way the specification describes (400, 404 or 405)
 *
 * Makes a client for a remote server and connects it, finding the
 * transport and the protocol era.
 */
void
mcp_connect_http_async (const char          *url,
                        GHashTable          *headers,
                        McpHttpKind          kind,
                        McpClientSetupFunc   setup,
                        gpointer             setup_data,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  GTask *task;
  ConnectData *data;

  g_return_if_fail (url != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_connect_http_async);

  data = g_new0 (ConnectData, 1);
  data->url = g_strdup (url);
  data->headers = headers ? g_hash_table_ref (headers) : NULL;
  data->kind = kind;
  data->setup = setup;
  data->setup_data = setup_data;
  g_task_set_task_data (task, data, (GDestroyNotify) connect_data_free);

  try_connect (task);
}

/**
 * mcp_connect_http_finish:
 *
 * Returns: (transfer full): the connected client
 */
McpClient *
mcp_connect_http_finish (GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

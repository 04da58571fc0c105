/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-scripted-transport"

#include "config.h"

#include <string.h>

#include "mcp-error.h"
#include "mcp-jsonrpc.h"
#include "mcp-scripted-transport.h"

struct _McpScriptedTransport
{
  GObject    parent_instance;

  GPtrArray *sent;
  char      *protocol_version;
  gboolean   started;
  gboolean   closed;
};

static void mcp_scripted_transport_iface_init (McpTransportInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (McpScriptedTransport, mcp_scripted_transport, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (MCP_TYPE_TRANSPORT,
                                                      mcp_scripted_transport_iface_init))

static void
scripted_start_async (McpTransport        *transport,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  McpScriptedTransport *self = MCP_SCRIPTED_TRANSPORT (transport);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  self->started = TRUE;
  g_task_return_boolean (task, TRUE);
}

static gboolean
scripted_finish (McpTransport  *transport,
                 GAsyncResult  *result,
                 GError       **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
scripted_send_async (McpTransport        *transport,
                     McpMessage          *message,
                     GCancellable        *cancellable,
                     GAsyncReadyCallback  callback,
                     gpointer             user_data)
{
  McpScriptedTransport *self = MCP_SCRIPTED_TRANSPORT (transport);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_autofree char *text = NULL;
  g_autoptr(GPtrArray) decoded = NULL;
  gsize length;

  if (self->closed)
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_CLOSED, "closed");
      return;
    }

  /* Record what would go on the wire, after a round trip through the
   * codec, so that tests see exactly what a server would. */
  text = mcp_message_to_string (message, &length);
  g_assert_null (memchr (text, '\n', length));
  decoded = mcp_jsonrpc_decode (text, length, FALSE, NULL, NULL);
  g_assert_nonnull (decoded);
  g_ptr_array_add (self->sent, mcp_message_ref (g_ptr_array_index (decoded, 0)));

  g_task_return_boolean (task, TRUE);
}

static void
scripted_close_async (McpTransport        *transport,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  McpScriptedTransport *self = MCP_SCRIPTED_TRANSPORT (transport);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  if (!self->closed)
    {
      self->closed = TRUE;
      mcp_transport_emit_closed (transport, NULL);
    }
  g_task_return_boolean (task, TRUE);
}

static void
scripted_set_protocol_version (McpTransport *transport,
                               const char   *version)
{
  McpScriptedTransport *self = MCP_SCRIPTED_TRANSPORT (transport);

  g_free (self->protocol_version);
  self->protocol_version = g_strdup (version);
}

static const char *
scripted_get_description (McpTransport *transport)
{
  return "scripted";
}

static void
mcp_scripted_transport_iface_init (McpTransportInterface *iface)
{
  iface->start_async = scripted_start_async;
  iface->start_finish = scripted_finish;
  iface->send_async = scripted_send_async;
  iface->send_finish = scripted_finish;
  iface->close_async = scripted_close_async;
  iface->close_finish = scripted_finish;
  iface->set_protocol_version = scripted_set_protocol_version;
  iface->get_description = scripted_get_description;
}

static void
mcp_scripted_transport_finalize (GObject *object)
{
  McpScriptedTransport *self = MCP_SCRIPTED_TRANSPORT (object);

  g_clear_pointer (&self->sent, g_ptr_array_unref);
  g_free (self->protocol_version);

  G_OBJECT_CLASS (mcp_scripted_transport_parent_class)->finalize (object);
}

static void
mcp_scripted_transport_class_init (McpScriptedTransportClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = mcp_scripted_transport_finalize;
}

static void
mcp_scripted_transport_init (McpScriptedTransport *self)
{
  self->sent = g_ptr_array_new_with_free_func ((GDestroyNotify) mcp_message_unref);
}

McpScriptedTransport *
mcp_scripted_transport_new (void)
{
  return g_object_new (MCP_TYPE_SCRIPTED_TRANSPORT, NULL);
}

void
mcp_scripted_transport_receive (McpScriptedTransport *self,
                                const char           *json)
{
  g_autoptr(GPtrArray) messages = NULL;
  g_autoptr(GError) error = NULL;

  messages = mcp_jsonrpc_decode (json, strlen (json), FALSE, NULL, &error);
  g_assert_no_error (error);

  for (guint i = 0; i < messages->len; i++)
    mcp_transport_emit_message (MCP_TRANSPORT (self), g_ptr_array_index (messages, i));
}

void
mcp_scripted_transport_receivef (McpScriptedTransport *self,
                                 const char           *format,
                                 ...)
{
  g_autofree char *json = NULL;
  va_list args;

  va_start (args, format);
  json = g_strdup_vprintf (format, args);
  va_end (args);

  mcp_scripted_transport_receive (self, json);
}

GPtrArray *
mcp_scripted_transport_get_sent (McpScriptedTransport *self)
{
  return self->sent;
}

McpMessage *
mcp_scripted_transport_find_sent (McpScriptedTransport *self,
                                  const char           *method)
{
  for (guint i = 0; i < self->sent->len; i++)
    {
      McpMessage *message = g_ptr_array_index (self->sent, i);

      if (g_strcmp0 (mcp_message_get_method (message), method) == 0)
        return message;
    }

  return NULL;
}

McpMessage *
mcp_scripted_transport_wait_sent (McpScriptedTransport *self,
                                  const char           *method)
{
  wait_for (mcp_scripted_transport_find_sent (self, method) != NULL);

  return mcp_scripted_transport_find_sent (self, method);
}

static McpMessage *
find_response (McpScriptedTransport *self,
               const char           *id_key)
{
  for (guint i = 0; i < self->sent->len; i++)
    {
      McpMessage *message = g_ptr_array_index (self->sent, i);
      g_autofree char *key = mcp_message_dup_id_string (message);
      McpMessageKind kind = mcp_message_get_kind (message);

      if ((kind == MCP_MESSAGE_RESULT || kind == MCP_MESSAGE_ERROR) && g_strcmp0 (key, id_key) == 0)
        return message;
    }

  return NULL;
}

McpMessage *
mcp_scripted_transport_wait_response (McpScriptedTransport *self,
                                      const char           *id_key)
{
  wait_for (find_response (self, id_key) != NULL);

  return find_response (self, id_key);
}

void
mcp_scripted_transport_fail (McpScriptedTransport *self,
                             const char           *reason)
{
  g_autoptr(GError) error = g_error_new_literal (MCP_ERROR, MCP_ERROR_EXITED, reason);

  self->closed = TRUE;
  mcp_transport_emit_closed (MCP_TRANSPORT (self), error);
}

gboolean
mcp_scripted_transport_get_closed (McpScriptedTransport *self)
{
  return self->closed;
}

const char *
mcp_scripted_transport_get_protocol_version (McpScriptedTransport *self)
{
  return self->protocol_version;
}

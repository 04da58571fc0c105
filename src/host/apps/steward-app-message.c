/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-app"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-json.h"

#include "steward-app-message.h"

void
steward_app_message_free (StewardAppMessage *message)
{
  if (message == NULL)
    return;

  g_clear_pointer (&message->root, json_node_unref);
  g_free (message);
}

static gboolean
is_valid_id (JsonNode *id)
{
  GType type;

  if (!JSON_NODE_HOLDS_VALUE (id))
    return FALSE;

  type = json_node_get_value_type (id);
  return type == G_TYPE_STRING || type == G_TYPE_INT64;
}

char *
steward_app_message_describe_id (JsonNode *id)
{
  if (id == NULL || !is_valid_id (id))
    return g_strdup ("");
  if (json_node_get_value_type (id) == G_TYPE_STRING)
    return g_strdup_printf (" #%s", json_node_get_string (id));
  return g_strdup_printf (" #%" G_GINT64_FORMAT, json_node_get_int (id));
}

static StewardAppMessage *
fail (JsonNode   **reply_id,
      JsonNode    *id,
      GError     **error,
      int          code,
      const char  *text)
{
  g_set_error_literal (error, MCP_ERROR, code, text);
  if (reply_id != NULL)
    *reply_id = id != NULL && is_valid_id (id) ? json_node_copy (id)
                                               : json_node_new (JSON_NODE_NULL);
  return NULL;
}

StewardAppMessage *
steward_app_message_parse (const char  *text,
                           gsize        length,
                           JsonNode   **reply_id,
                           GError     **error)
{
  g_autoptr(StewardAppMessage) message = NULL;
  g_autoptr(GError) parse_error = NULL;
  g_autofree char *why = NULL;
  JsonNode *id, *method, *params;

  g_return_val_if_fail (text != NULL || length == 0, NULL);

  if (reply_id != NULL)
    *reply_id = NULL;

  if (length > STEWARD_APP_MESSAGE_MAX_BYTES)
    {
      /* Translators: %zu is a size in bytes, %d the most taken. */
      why = g_strdup_printf (_("The message has %zu bytes; a view may send at most %d"),
                             length, STEWARD_APP_MESSAGE_MAX_BYTES);
      return fail (reply_id, NULL, error, MCP_ERROR_INVALID_REQUEST, why);
    }

  message = g_new0 (StewardAppMessage, 1);
  message->root = length > 0 ? mcp_json_parse_with_depth (text, length, MCP_JSON_MAX_DEPTH,
                                                          &parse_error)
                             : NULL;
  if (message->root == NULL)
    {
      /* Translators: %s says why a message could not be read. */
      why = g_strdup_printf (_("The message is not JSON: %s"),
                             parse_error != NULL ? parse_error->message
                                                 : _("there is nothing"));
      return fail (reply_id, NULL, error, MCP_ERROR_PARSE_ERROR, why);
    }

  if (!JSON_NODE_HOLDS_OBJECT (message->root))
    return fail (reply_id, NULL, error, MCP_ERROR_INVALID_REQUEST,
                 _("The message is not a JSON-RPC object (a batch or a bare value)"));

  message->object = json_node_get_object (message->root);
  id = json_object_get_member (message->object, "id");
  method = json_object_get_member (message->object, "method");
  params = json_object_get_member (message->object, "params");

  if (g_strcmp0 (mcp_json_get_string (message->object, "jsonrpc"), "2.0") != 0)
    return fail (reply_id, id, error, MCP_ERROR_INVALID_REQUEST,
                 _("The message is not JSON-RPC 2.0: “jsonrpc” must be “2.0”"));

  if (id != NULL && !is_valid_id (id))
    return fail (reply_id, NULL, error, MCP_ERROR_INVALID_REQUEST,
                 _("The message’s “id” must be a string or a whole number"));

  if (method == NULL)
    {
      if (id == NULL || (!json_object_has_member (message->object, "result") &&
                         !json_object_has_member (message->object, "error")))
        return fail (reply_id, id, error, MCP_ERROR_INVALID_REQUEST,
                     _("The message has no “method” and is no answer"));

      message->kind = STEWARD_APP_MESSAGE_RESPONSE;
      message->id = id;
      return g_steal_pointer (&message);
    }

  if (!JSON_NODE_HOLDS_VALUE (method) || json_node_get_value_type (method) != G_TYPE_STRING)
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_REQUEST,
                           _("The message’s “method” is not text"));
      if (reply_id != NULL && id != NULL)
        *reply_id = json_node_copy (id);
      return NULL;
    }

  if (params != NULL && !JSON_NODE_HOLDS_NULL (params) && !JSON_NODE_HOLDS_OBJECT (params))
    {
      /* Translators: %s is a JSON-RPC method. */
      why = g_strdup_printf (_("The “params” of %s must be an object"),
                             json_node_get_string (method));
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS, why);
      if (reply_id != NULL && id != NULL)
        *reply_id = json_node_copy (id);
      return NULL;
    }

  message->kind = id != NULL ? STEWARD_APP_MESSAGE_REQUEST : STEWARD_APP_MESSAGE_NOTIFICATION;
  message->id = id;
  message->method = json_node_get_string (method);
  message->params = params != NULL && JSON_NODE_HOLDS_OBJECT (params)
                    ? json_node_get_object (params) : NULL;

  return g_steal_pointer (&message);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fuzz-app-message"

#include "config.h"

#include <stdint.h>
#include <string.h>

#include "mcp-error.h"
#include "steward-app-message.h"

/*
 * Input: one message as an MCP Apps view would post it, bytes as they
 * come (not NUL-terminated, maybe not UTF-8).
 *
 * What the reader takes is of exactly one kind, with the members that
 * kind needs in the types the bridge reads them as; what it refuses has a
 * JSON-RPC code and a sentence, and an id to answer to unless it was a
 * notification. It never crashes, hangs or reads past the input.
 */

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static gboolean
is_id (JsonNode *id)
{
  return id != NULL && JSON_NODE_HOLDS_VALUE (id) &&
         (json_node_get_value_type (id) == G_TYPE_STRING ||
          json_node_get_value_type (id) == G_TYPE_INT64);
}

static void
check_taken (StewardAppMessage *message)
{
  g_autofree char *described = NULL;

  g_assert (message->root != NULL && JSON_NODE_HOLDS_OBJECT (message->root));
  g_assert (message->object == json_node_get_object (message->root));
  g_assert (g_strcmp0 (json_object_get_string_member_with_default (message->object, "jsonrpc",
                                                                    ""), "2.0") == 0);

  switch (message->kind)
    {
    case STEWARD_APP_MESSAGE_REQUEST:
      g_assert (is_id (message->id));
      g_assert (message->method != NULL);
      break;
    case STEWARD_APP_MESSAGE_NOTIFICATION:
      g_assert (message->id == NULL);
      g_assert (message->method != NULL);
      break;
    case STEWARD_APP_MESSAGE_RESPONSE:
      g_assert (is_id (message->id));
      g_assert (message->method == NULL);
      g_assert (json_object_has_member (message->object, "result") ||
                json_object_has_member (message->object, "error"));
      break;
    default:
      g_assert_not_reached ();
    }

  g_assert (message->params == NULL ||
            message->params == json_object_get_object_member (message->object, "params"));

  described = steward_app_message_describe_id (message->id);
  g_assert (described != NULL);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *copy = g_memdup2 (data, size);
  g_autoptr(StewardAppMessage) message = NULL;
  g_autoptr(JsonNode) reply_id = NULL;
  g_autoptr(GError) error = NULL;

  message = steward_app_message_parse (copy, size, &reply_id, &error);
  if (message != NULL)
    {
      g_assert (error == NULL && reply_id == NULL);
      check_taken (message);
      return 0;
    }

  g_assert (error != NULL && error->domain == MCP_ERROR);
  g_assert (error->code == MCP_ERROR_PARSE_ERROR || error->code == MCP_ERROR_INVALID_REQUEST ||
            error->code == MCP_ERROR_INVALID_PARAMS);
  g_assert (error->message != NULL && error->message[0] != '\0');
  g_assert (reply_id == NULL || JSON_NODE_HOLDS_NULL (reply_id) || is_id (reply_id));

  return 0;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-jsonrpc"

#include "config.h"

#include <string.h>

#include "mcp-error.h"
#include "mcp-json.h"
#include "mcp-json-private.h"
#include "mcp-jsonrpc.h"
#include "mcp-message-private.h"

/**
 * mcp_jsonrpc_check_text:
 * @max_depth: the deepest nesting of arrays and objects allowed
 *
 * Checks that @data is one strict JSON value (see mcp_json_parse()),
 * failing with the same error decoding it would.
 */
gboolean
mcp_jsonrpc_check_text (const char  *data,
                        gsize        length,
                        guint        max_depth,
                        GError     **error)
{
  g_autoptr(JsonNode) node = mcp_json_parse_with_depth (data, (gssize) length, max_depth, error);

  return node != NULL;
}

/* A message read from a text up to this long keeps the text, if it is
 * written as Steward writes (mcp_message_peek_line()): a protocol trace
 * then shows it without writing it again. A longer one would hold twice
 * its size for a trace that keeps only the start of it. */
#define KEPT_TEXT_MAX (64 * 1024)

static gboolean
starts_object (const char *data,
               gsize       length)
{
  for (gsize i = 0; i < length; i++)
    {
      if (data[i] == '{')
        return TRUE;
      if (data[i] != ' ' && data[i] != '\t' && data[i] != '\n' && data[i] != '\r')
        return FALSE;
    }

  return FALSE;
}

static gboolean
decode_into (JsonNode   *node,
             gsize       wire_size,
             GPtrArray  *messages,
             GError    **error)
{
  McpMessage *message = mcp_message_new_from_node (node, wire_size, error);

  if (message == NULL)
    return FALSE;

  g_ptr_array_add (messages, message);
  return TRUE;
}

/**
 * mcp_jsonrpc_decode:
 * @allow_batch: whether a JSON array of messages is acceptable (only the
 *   2025-03-26 revision has batches)
 * @n_invalid: (out) (optional): invalid elements dropped from a batch
 *
 * Decodes one JSON text into messages: one, or each element of a batch.
 *
 * Returns: (transfer container) (element-type McpMessage) (nullable): the
 *   messages, or %NULL with an error in %MCP_ERROR saying why
 */
GPtrArray *
mcp_jsonrpc_decode (const char  *data,
                    gsize        length,
                    gboolean     allow_batch,
                    guint       *n_invalid,
                    GError     **error)
{
  g_autoptr(GPtrArray) messages = NULL;
  g_autoptr(JsonNode) root = NULL;

  if (n_invalid != NULL)
    *n_invalid = 0;

  /* Nearly every text is one message: its members are read straight into
   * the message, never built into an object that is read and dropped. */
  if (starts_object (data, length))
    {
      McpMessageMembers members = { 0 };
      McpMessage *message;
      gboolean plain;

      if (!mcp_json_parse_members (data, length, mcp_message_members_take, &members,
                                   &plain, error))
        {
          mcp_message_members_clear (&members);
          return NULL;
        }

      if ((message = mcp_message_new_from_members (&members, length, error)) == NULL)
        return NULL;
      if (plain && length <= KEPT_TEXT_MAX)
        mcp_message_keep_wire_text (message, data, length);

      messages = g_ptr_array_new_with_free_func ((GDestroyNotify) mcp_message_unref);
      g_ptr_array_add (messages, message);
      return g_steal_pointer (&messages);
    }

  root = mcp_json_parse (data, (gssize) length, error);
  if (root == NULL)
    return NULL;

  messages = g_ptr_array_new_with_free_func ((GDestroyNotify) mcp_message_unref);

  if (JSON_NODE_HOLDS_ARRAY (root))
    {
      JsonArray *array = json_node_get_array (root);
      guint n = json_array_get_length (array);

      if (!allow_batch)
        {
          g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                               "the peer sent a batch, which the negotiated protocol "
                               "revision does not allow");
          return NULL;
        }
      if (n == 0)
        {
          g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                               "the peer sent an empty batch");
          return NULL;
        }

      for (guint i = 0; i < n; i++)
        {
          if (!decode_into (json_array_get_element (array, i), length / n, messages, NULL) &&
              n_invalid != NULL)
            (*n_invalid)++;
        }

      if (messages->len == 0)
        {
          g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                               "no element of the batch is a valid JSON-RPC message");
          return NULL;
        }

      return g_steal_pointer (&messages);
    }

  if (!decode_into (root, length, messages, error))
    return NULL;

  return g_steal_pointer (&messages);
}

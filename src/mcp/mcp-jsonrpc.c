/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-jsonrpc"

#include "config.h"

#include <string.h>

#include "mcp-error.h"
#include "mcp-jsonrpc.h"

/* The code unit of a \uXXXX escape starting at @at, or -1. */
static int
read_u_escape (const char *data,
               gsize       length,
               gsize       at)
{
  int unit = 0;

  if (at + 5 >= length || data[at] != '\\' || data[at + 1] != 'u')
    return -1;

  for (gsize k = at + 2; k < at + 6; k++)
    {
      int digit = g_ascii_xdigit_value (data[k]);

      if (digit < 0)
        return -1;
      unit = unit * 16 + digit;
    }

  return unit;
}

/**
 * mcp_jsonrpc_check_text:
 * @max_depth: the deepest nesting of arrays and objects allowed
 *
 * Checks, without parsing, what json-glib must never be handed: invalid
 * UTF-8, and nesting deeper than @max_depth. Brackets inside strings do not
 * count; escapes inside strings are skipped whole.
 */
gboolean
mcp_jsonrpc_check_text (const char  *data,
                        gsize        length,
                        guint        max_depth,
                        GError     **error)
{
  const char *invalid_at = NULL;
  gboolean in_string = FALSE;
  guint depth = 0;

  if (!g_utf8_validate_len (data, length, &invalid_at))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_UTF8,
                   "the message is not valid UTF-8 (at byte %" G_GSIZE_FORMAT ")",
                   (gsize) (invalid_at - data));
      return FALSE;
    }

  for (gsize i = 0; i < length; i++)
    {
      char c = data[i];

      if (in_string)
        {
          if (c == '"')
            in_string = FALSE;
          else if (c == '\\')
            {
              int unit = read_u_escape (data, length, i);

              /* json-glib 1.6 turns an unpaired UTF-16 surrogate into bytes
               * that are not UTF-8: such text is refused up front. */
              if (unit >= 0xd800 && unit <= 0xdbff &&
                  (i + 11 < length) && (unit = read_u_escape (data, length, i + 6)) >= 0xdc00 &&
                  unit <= 0xdfff)
                i += 11;
              else if (unit >= 0xd800 && unit <= 0xdfff)
                {
                  g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_UTF8,
                                       "the message has an unpaired UTF-16 surrogate in a string");
                  return FALSE;
                }
              else
                i++;
            }
          continue;
        }

      switch (c)
        {
        case '"':
          in_string = TRUE;
          break;

        case '[':
        case '{':
          if (++depth > max_depth)
            {
              g_set_error (error, MCP_ERROR, MCP_ERROR_TOO_DEEP,
                           "the message nests arrays and objects deeper than %u levels",
                           max_depth);
              return FALSE;
            }
          break;

        case ']':
        case '}':
          if (depth > 0)
            depth--;
          break;

        default:
          break;
        }
    }

  return TRUE;
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
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GPtrArray) messages = NULL;
  g_autoptr(GError) local_error = NULL;
  JsonNode *root;

  if (n_invalid != NULL)
    *n_invalid = 0;

  if (!mcp_jsonrpc_check_text (data, length, MCP_JSONRPC_MAX_DEPTH, error))
    return NULL;

  /* json-glib stops at the first NUL; JSON text never needs one unescaped. */
  if (memchr (data, '\0', length) != NULL)
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_PARSE_ERROR,
                           "the message is not JSON: it contains a NUL byte");
      return NULL;
    }

  parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (parser, data, (gssize) length, &local_error))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_PARSE_ERROR,
                   "the message is not JSON: %s", local_error->message);
      return NULL;
    }

  root = json_parser_get_root (parser);
  if (root == NULL)
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_PARSE_ERROR,
                           "the message is empty");
      return NULL;
    }

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

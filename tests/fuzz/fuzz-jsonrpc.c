/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fuzz-jsonrpc"

#include "config.h"

#include <stdint.h>
#include <string.h>

#include "mcp-error.h"
#include "mcp-jsonrpc.h"
#include "mcp-message.h"

/*
 * The whole input is one JSON text, decoded with and without batches. Every
 * message that comes out must encode to a single line that decodes to the
 * same message and encodes to the same bytes again: what we accept we can
 * also send, and nothing is lost or altered on the way.
 */

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
check_round_trip (McpMessage *message)
{
  g_autofree char *text = NULL;
  g_autofree char *again = NULL;
  g_autoptr(GPtrArray) decoded = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) first = NULL;
  g_autoptr(JsonNode) second = NULL;
  gsize length = 0, again_length = 0;
  McpMessage *back;

  text = mcp_message_to_string (message, &length);
  g_assert (text != NULL);
  g_assert (strlen (text) == length);
  g_assert (memchr (text, '\n', length) == NULL);

  decoded = mcp_jsonrpc_decode (text, length, FALSE, NULL, &error);
  /* Abort rather than g_error (), which traps, so libFuzzer keeps the input. */
  if (decoded == NULL)
    {
      g_printerr ("an accepted message encodes to a text we reject: %s\n%s\n",
                  error->message, text);
      g_assert_not_reached ();
    }
  g_assert (decoded->len == 1);

  back = g_ptr_array_index (decoded, 0);
  g_assert (mcp_message_get_kind (back) == mcp_message_get_kind (message));
  g_assert (g_strcmp0 (mcp_message_get_method (back), mcp_message_get_method (message)) == 0);

  first = mcp_message_to_node (message);
  second = mcp_message_to_node (back);
  g_assert (json_node_equal (first, second));

  again = mcp_message_to_string (back, &again_length);
  g_assert (again_length == length);
  g_assert (memcmp (again, text, length) == 0);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *text = (const char *) data;
  g_autoptr(GPtrArray) single = NULL;
  g_autoptr(GPtrArray) batch = NULL;
  g_autoptr(GError) single_error = NULL;
  g_autoptr(GError) batch_error = NULL;
  g_autoptr(GError) check_error = NULL;
  guint single_invalid = 0, batch_invalid = 0;
  gboolean checked;

  checked = mcp_jsonrpc_check_text (text, size, MCP_JSONRPC_MAX_DEPTH, &check_error);
  g_assert (checked == (check_error == NULL));

  single = mcp_jsonrpc_decode (text, size, FALSE, &single_invalid, &single_error);
  batch = mcp_jsonrpc_decode (text, size, TRUE, &batch_invalid, &batch_error);

  g_assert ((single == NULL) == (single_error != NULL));
  g_assert ((batch == NULL) == (batch_error != NULL));
  if (single_error != NULL)
    g_assert (single_error->domain == MCP_ERROR);
  if (batch_error != NULL)
    g_assert (batch_error->domain == MCP_ERROR);

  /* What the raw check refuses, decoding refuses for the same reason. */
  if (!checked)
    {
      g_assert (single == NULL && batch == NULL);
      g_assert (single_error->code == check_error->code);
      g_assert (batch_error->code == check_error->code);
    }

  /* Allowing batches only ever adds what arrays carry. */
  if (single != NULL)
    {
      g_assert (single->len == 1);
      g_assert (single_invalid == 0);
      g_assert (batch != NULL && batch->len == 1);
      check_round_trip (g_ptr_array_index (single, 0));
    }

  if (batch != NULL)
    {
      g_assert (batch->len > 0);
      for (guint i = 0; i < batch->len; i++)
        check_round_trip (g_ptr_array_index (batch, i));
    }

  return 0;
}

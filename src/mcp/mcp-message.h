/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define MCP_TYPE_MESSAGE (mcp_message_get_type ())

typedef enum {
  MCP_MESSAGE_REQUEST,
  MCP_MESSAGE_NOTIFICATION,
  MCP_MESSAGE_RESULT,
  MCP_MESSAGE_ERROR,
} McpMessageKind;

/**
 * McpMessage:
 *
 * One JSON-RPC 2.0 message, immutable once built or parsed, reference
 * counted so that a transport, the client and a protocol trace can share it.
 * The id of a request or response is a JSON node holding a string or an
 * integer; an error response may have none.
 */
typedef struct _McpMessage McpMessage;

GType           mcp_message_get_type           (void) G_GNUC_CONST;

McpMessage     *mcp_message_new_request        (JsonNode     *id,
                                                const char   *method,
                                                JsonObject   *params);
McpMessage     *mcp_message_new_notification   (const char   *method,
                                                JsonObject   *params);
McpMessage     *mcp_message_new_result         (JsonNode     *id,
                                                JsonObject   *result);
McpMessage     *mcp_message_new_error          (JsonNode     *id,
                                                int           code,
                                                const char   *message,
                                                JsonNode     *data);
McpMessage     *mcp_message_new_from_node      (JsonNode     *node,
                                                gsize         wire_size,
                                                GError      **error);

McpMessage     *mcp_message_ref                (McpMessage   *self);
void            mcp_message_unref              (McpMessage   *self);

McpMessageKind  mcp_message_get_kind           (McpMessage   *self);
JsonNode       *mcp_message_get_id             (McpMessage   *self);
gboolean        mcp_message_get_int_id         (McpMessage   *self,
                                                gint64       *id);
char           *mcp_message_dup_id_string      (McpMessage   *self);
const char     *mcp_message_get_method         (McpMessage   *self);
JsonObject     *mcp_message_get_params         (McpMessage   *self);
JsonObject     *mcp_message_get_result         (McpMessage   *self);
int             mcp_message_get_error_code     (McpMessage   *self);
const char     *mcp_message_get_error_message  (McpMessage   *self);
JsonNode       *mcp_message_get_error_data     (McpMessage   *self);
GError         *mcp_message_to_gerror          (McpMessage   *self);
gsize           mcp_message_get_wire_size      (McpMessage   *self);

JsonNode       *mcp_message_to_node            (McpMessage   *self);
char           *mcp_message_to_string          (McpMessage   *self,
                                                gsize        *length);
void            mcp_message_write              (McpMessage   *self,
                                                GString      *out);
GBytes         *mcp_message_get_line           (McpMessage   *self);
GBytes         *mcp_message_peek_line          (McpMessage   *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (McpMessage, mcp_message_unref)

G_END_DECLS

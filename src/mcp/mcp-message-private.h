/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-message.h"

G_BEGIN_DECLS

/* The members of a JSON-RPC envelope, as they are read from the text one
 * by one (mcp_json_parse_members()) without building the object. */
typedef struct {
  JsonNode *version;
  JsonNode *id;
  JsonNode *method;
  JsonNode *params;
  JsonNode *result;
  JsonNode *error;
} McpMessageMembers;

void        mcp_message_members_take     (const char         *name,
                                          JsonNode           *value,
                                          gpointer            user_data);
void        mcp_message_members_clear    (McpMessageMembers  *members);
McpMessage *mcp_message_new_from_members (McpMessageMembers  *members,
                                          gsize               wire_size,
                                          GError            **error);
void        mcp_message_keep_wire_text   (McpMessage         *self,
                                          const char         *text,
                                          gsize               length);

G_END_DECLS

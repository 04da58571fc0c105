/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/*
 * One message an MCP Apps view posted, read and checked before the bridge
 * looks at what it asks (steward-app-bridge.h). Pure: no host, no I/O, so
 * that it is fuzzed alone (tests/fuzz/fuzz-app-message.c).
 *
 * A message is a JSON-RPC 2.0 object of at most
 * STEWARD_APP_MESSAGE_MAX_BYTES, nested at most MCP_JSON_MAX_DEPTH deep: a
 * request (a string or whole-number "id" and a text "method"), a
 * notification (a "method" and no "id"), or a response (an "id" and a
 * "result" or an "error"). "params", when there, is an object.
 */

#define STEWARD_APP_MESSAGE_MAX_BYTES (4 * 1024 * 1024)

typedef enum {
  STEWARD_APP_MESSAGE_REQUEST,
  STEWARD_APP_MESSAGE_NOTIFICATION,
  STEWARD_APP_MESSAGE_RESPONSE,
} StewardAppMessageKind;

typedef struct {
  StewardAppMessageKind  kind;
  JsonNode              *root;
  JsonObject            *object;   /* root's object */
  JsonNode              *id;       /* in root; NULL for a notification */
  const char            *method;   /* in root; NULL for a response */
  JsonObject            *params;   /* in root; NULL when absent or null */
} StewardAppMessage;

/* On failure, @error is in MCP_ERROR with the JSON-RPC code to answer
 * with, and *@reply_id is the id to answer to (a null node when the
 * message had no usable one), or NULL when the message was a notification,
 * which is not answered. */
StewardAppMessage *steward_app_message_parse (const char  *text,
                                              gsize        length,
                                              JsonNode   **reply_id,
                                              GError     **error);
void               steward_app_message_free  (StewardAppMessage *message);
/* " #id" for the log's one-line summary, or "" without an id. */
char              *steward_app_message_describe_id (JsonNode *id);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StewardAppMessage, steward_app_message_free)

G_END_DECLS

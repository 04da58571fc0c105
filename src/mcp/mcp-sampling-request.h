/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/*
 * The shapes of the requests a server sends to the client for the person
 * to answer: sampling/createMessage params and their result, and
 * elicitation/create params. Each check fails with an MCP_ERROR error
 * (INVALID_PARAMS for a request, INTERNAL_ERROR for a result the client
 * built) whose message names the member at fault; what the client then
 * does with the request is the host's business, not the protocol's.
 */

gboolean     mcp_sampling_request_validate     (JsonObject  *params,
                                                GError     **error);
gboolean     mcp_sampling_request_is_tool_round (JsonObject *params);
gboolean     mcp_sampling_result_validate      (JsonObject  *result,
                                                GError     **error);

/* A sampling content is one block or (2025-11-25) an array of them. */
guint        mcp_sampling_content_get_n_blocks (JsonNode    *content);
JsonObject  *mcp_sampling_content_get_block    (JsonNode    *content,
                                                guint        index);
/* The text blocks of @content joined by newlines; other blocks (images,
 * audio, tool use) count for nothing. */
char        *mcp_sampling_content_dup_text     (JsonNode    *content);

/* @url_mode: (out): whether the request asks the person to visit a URL
 * rather than fill in a form. */
gboolean     mcp_elicitation_request_validate  (JsonObject  *params,
                                                gboolean    *url_mode,
                                                GError     **error);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-client.h"
#include "mcp-content.h"
#include "mcp-prompt-result.h"
#include "mcp-tool-result.h"

G_BEGIN_DECLS

/*
 * The human form of what servers send. Every string from a server goes
 * through steward_cli_sanitize() first: a terminal must not be steered by
 * escape sequences, nor text hidden by bidi or zero-width characters.
 */

char  *steward_cli_sanitize                  (const char       *text,
                                              gboolean          multiline);
char  *steward_cli_format_json               (JsonNode         *node,
                                              gboolean          pretty);
char  *steward_cli_format_json_object        (JsonObject       *object,
                                              gboolean          pretty);
char  *steward_cli_format_content            (McpContent       *content);
char  *steward_cli_format_tool_result        (McpToolResult    *result);
char  *steward_cli_format_prompt_result      (McpPromptResult  *result);
char  *steward_cli_format_resource_contents  (GPtrArray        *contents);
char  *steward_cli_format_list               (const char       *method,
                                              GPtrArray        *items);
char  *steward_cli_format_capabilities       (JsonObject       *capabilities);
char  *steward_cli_format_info               (McpClient        *client);
char  *steward_cli_format_log_message        (const char       *level,
                                              const char       *logger,
                                              JsonNode         *data);
char  *steward_cli_format_sampling_request   (JsonObject       *params);

void   steward_cli_print_json                (JsonObject       *object,
                                              gboolean          pretty);
void   steward_cli_print_tool_result         (McpToolResult    *result,
                                              gboolean          json);

G_END_DECLS

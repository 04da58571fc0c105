/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-sampling-broker"

#include "config.h"

#include "mcp-sampling-request.h"

#include "steward-sampling-broker-private.h"

/* The audit record of a request (steward-sampling-broker.h shows its
 * members) and the counts it holds: sizes, estimated tokens, and a
 * summary short enough to keep most of the conversation out. */

#define SUMMARY_CHARS   200
#define CHARS_PER_TOKEN 4

gint64
steward_sampling_count_chars (const char *text)
{
  return text ? g_utf8_strlen (text, -1) : 0;
}

gint64
steward_sampling_estimate_tokens (gint64 chars)
{
  return (chars + CHARS_PER_TOKEN - 1) / CHARS_PER_TOKEN;
}

gint64
steward_sampling_count_prompt_chars (JsonObject *params)
{
  JsonArray *messages = mcp_json_get_array (params, "messages");
  const char *system_prompt = mcp_json_get_string (params, "systemPrompt");
  gint64 chars = steward_sampling_count_chars (system_prompt);

  for (guint i = 0; messages != NULL && i < json_array_get_length (messages); i++)
    {
      JsonNode *message = json_array_get_element (messages, i);
      g_autofree char *text = NULL;
      JsonNode *content;

      if (!JSON_NODE_HOLDS_OBJECT (message))
        continue;

      content = json_object_get_member (json_node_get_object (message), "content");
      text = mcp_sampling_content_dup_text (content);
      chars += steward_sampling_count_chars (text);
    }

  return chars;
}

/* The first characters of the last user message: enough for a person to
 * recognise the request in the journal, short enough to keep secrets out
 * of it for the most part. */
static char *
dup_summary (JsonObject *params)
{
  JsonArray *messages = mcp_json_get_array (params, "messages");

  for (guint i = messages ? json_array_get_length (messages) : 0; i > 0; i--)
    {
      JsonNode *node = json_array_get_element (messages, i - 1);
      JsonObject *message;
      g_autofree char *text = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;

      message = json_node_get_object (node);
      if (g_strcmp0 (mcp_json_get_string (message, "role"), "user") != 0)
        continue;

      text = mcp_sampling_content_dup_text (json_object_get_member (message, "content"));
      return g_utf8_substring (text, 0, MIN (steward_sampling_count_chars (text), SUMMARY_CHARS));
    }

  return NULL;
}

void
steward_sampling_broker_record (StewardSamplingBroker  *self,
                                StewardSamplingRequest *request,
                                const char             *decision,
                                const GError           *error,
                                JsonObject             *result,
                                gint64                  input_tokens,
                                gint64                  output_tokens)
{
  g_autoptr(JsonBuilder) builder = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GDateTime) datetime = NULL;
  g_autofree char *stamp = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *answer = NULL;
  JsonArray *messages;
  gint64 max_tokens = 0;
  const char *model;

  if (steward_file_backed_get_file (STEWARD_FILE_BACKED (self->journal)) == NULL)
    return;

  builder = json_builder_new ();
  datetime = g_date_time_new_from_unix_utc (steward_sampling_broker_now (self) / G_USEC_PER_SEC);
  stamp = g_date_time_format_iso8601 (datetime);
  messages = mcp_json_get_array (request->params, "messages");
  mcp_json_get_int64 (request->params, "maxTokens", G_MININT64, G_MAXINT64, &max_tokens);
  summary = dup_summary (request->params);
  model = result ? mcp_json_get_string (result, "model") : NULL;
  if (model == NULL)
    model = request->model;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "time");
  json_builder_add_string_value (builder, stamp);
  json_builder_set_member_name (builder, "server");
  json_builder_add_string_value (builder, request->server);
  json_builder_set_member_name (builder, "decision");
  json_builder_add_string_value (builder, decision);
  if (error != NULL)
    {
      json_builder_set_member_name (builder, "reason");
      json_builder_add_string_value (builder, error->message);
    }
  if (request->cause != NULL)
    {
      json_builder_set_member_name (builder, "cause");
      json_builder_add_string_value (builder, request->cause);
    }
  if (model != NULL)
    {
      json_builder_set_member_name (builder, "model");
      json_builder_add_string_value (builder, model);
    }
  if (request->provider_id != NULL)
    {
      json_builder_set_member_name (builder, "provider");
      json_builder_add_string_value (builder, request->provider_id);
    }
  json_builder_set_member_name (builder, "maxTokens");
  json_builder_add_int_value (builder, max_tokens);
  if (request->max_tokens_requested > 0)
    {
      json_builder_set_member_name (builder, "maxTokensRequested");
      json_builder_add_int_value (builder, request->max_tokens_requested);
    }
  json_builder_set_member_name (builder, "messages");
  json_builder_add_int_value (builder, messages ? json_array_get_length (messages) : 0);
  json_builder_set_member_name (builder, "promptChars");
  json_builder_add_int_value (builder, steward_sampling_count_prompt_chars (request->params));
  if (result != NULL)
    {
      answer = mcp_sampling_content_dup_text (json_object_get_member (result, "content"));
      json_builder_set_member_name (builder, "answerChars");
      json_builder_add_int_value (builder, steward_sampling_count_chars (answer));
    }
  json_builder_set_member_name (builder, "inputTokens");
  json_builder_add_int_value (builder, input_tokens);
  json_builder_set_member_name (builder, "outputTokens");
  json_builder_add_int_value (builder, output_tokens);
  json_builder_set_member_name (builder, "edited");
  json_builder_add_boolean_value (builder, request->edited);
  if (summary != NULL)
    {
      json_builder_set_member_name (builder, "summary");
      json_builder_add_string_value (builder, summary);
    }
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  steward_sampling_journal_append (self->journal, json_node_get_object (root));
}

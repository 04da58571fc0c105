/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-anthropic-provider"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "steward-provider-private.h"
#include "steward-anthropic-provider.h"

/**
 * StewardAnthropicProvider:
 *
 * The Messages API. Its content blocks are close to the neutral shape, so
 * the translation is mostly renaming; the stream is a sequence of typed
 * events in which each content block starts, grows and stops by index.
 */
struct _StewardAnthropicProvider
{
  StewardHttpProvider parent_instance;
};

G_DEFINE_FINAL_TYPE (StewardAnthropicProvider, steward_anthropic_provider,
                     STEWARD_TYPE_HTTP_PROVIDER)

#define API_VERSION "2023-06-01"
/* The API requires a limit; this one is what the sampling broker caps at
 * by default. */
#define DEFAULT_MAX_TOKENS 4096
#define MAX_BLOCKS 256

/* The request */

static JsonObject *
translate_image (JsonObject  *block,
                 const char  *name,
                 GError     **error)
{
  const char *data = mcp_json_get_string (block, "data");
  const char *type = mcp_json_get_string (block, "mimeType");
  JsonObject *source;
  JsonObject *out;

  if (data == NULL || data[0] == '\0' || type == NULL || !g_str_has_prefix (type, "image/"))
    {
      g_propagate_error (error,
                         steward_provider_unsupported (name, _("an image that is not base64 data "
                                                               "of an image type")));
      return NULL;
    }

  source = json_object_new ();
  json_object_set_string_member (source, "type", "base64");
  json_object_set_string_member (source, "media_type", type);
  json_object_set_string_member (source, "data", data);
  out = json_object_new ();
  json_object_set_string_member (out, "type", "image");
  json_object_set_object_member (out, "source", source);
  return out;
}

static JsonObject *translate_block (JsonObject  *block,
                                    gboolean     in_result,
                                    const char  *name,
                                    GError     **error);

static JsonObject *
translate_tool_result (JsonObject  *block,
                       const char  *name,
                       GError     **error)
{
  g_autoptr(JsonArray) content = steward_provider_dup_content (block);
  const char *id = mcp_json_get_string (block, "toolUseId");
  JsonNode *is_error = json_object_get_member (block, "isError");
  g_autoptr(JsonArray) parts = json_array_new ();
  JsonObject *out;

  if (id == NULL)
    {
      g_propagate_error (error,
                         steward_provider_unsupported (name, _("a tool result without the id of "
                                                               "its call")));
      return NULL;
    }

  for (guint i = 0; content != NULL && i < json_array_get_length (content); i++)
    {
      JsonNode *node = json_array_get_element (content, i);
      JsonObject *part;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      part = translate_block (json_node_get_object (node), TRUE, name, error);
      if (part == NULL)
        {
          if (error != NULL && *error != NULL)
            return NULL;
          continue;
        }
      json_array_add_object_element (parts, part);
    }

  out = json_object_new ();
  json_object_set_string_member (out, "type", "tool_result");
  json_object_set_string_member (out, "tool_use_id", id);
  json_object_set_array_member (out, "content", g_steal_pointer (&parts));
  if (is_error != NULL && JSON_NODE_HOLDS_VALUE (is_error) &&
      json_node_get_value_type (is_error) == G_TYPE_BOOLEAN && json_node_get_boolean (is_error))
    json_object_set_boolean_member (out, "is_error", TRUE);
  return out;
}

/* NULL without an error for a block with nothing in it, which the API
 * refuses (an empty text). */
static JsonObject *
translate_block (JsonObject  *block,
                 gboolean     in_result,
                 const char  *name,
                 GError     **error)
{
  const char *type = mcp_json_get_string (block, "type");
  JsonObject *out;

  if (g_strcmp0 (type, "text") == 0)
    {
      const char *text = mcp_json_get_string (block, "text");

      if (text == NULL || text[0] == '\0')
        return NULL;
      return steward_provider_text_block (text);
    }

  if (g_strcmp0 (type, "image") == 0)
    return translate_image (block, name, error);

  if (g_strcmp0 (type, "tool_use") == 0 && !in_result)
    {
      const char *id = mcp_json_get_string (block, "id");
      const char *tool = mcp_json_get_string (block, "name");
      JsonObject *input = mcp_json_get_object (block, "input");

      if (id == NULL || tool == NULL)
        {
          g_propagate_error (error,
                             steward_provider_unsupported (name, _("a tool call without an id or "
                                                                   "a name")));
          return NULL;
        }

      out = json_object_new ();
      json_object_set_string_member (out, "type", "tool_use");
      json_object_set_string_member (out, "id", id);
      json_object_set_string_member (out, "name", tool);
      json_object_set_object_member (out, "input", input != NULL ? json_object_ref (input)
                                                                 : json_object_new ());
      return out;
    }

  if (g_strcmp0 (type, "tool_result") == 0 && !in_result)
    return translate_tool_result (block, name, error);

  if (g_strcmp0 (type, "audio") == 0)
    /* Translators: completes "Messages with %s cannot be sent to “%s”." */
    g_propagate_error (error, steward_provider_unsupported (name, _("audio")));
  else
    {
      g_autofree char *what = g_strdup_printf (_("“%s” content"), type != NULL ? type : "?");

      g_propagate_error (error, steward_provider_unsupported (name, what));
    }

  return NULL;
}

static JsonObject *
make_tool (const char *tool_name,
           const char *description,
           JsonObject *schema)
{
  JsonObject *entry = json_object_new ();

  json_object_set_string_member (entry, "name", tool_name);
  if (description != NULL)
    json_object_set_string_member (entry, "description", description);
  json_object_set_object_member (entry, "input_schema", schema);
  return entry;
}

static gboolean
add_message (JsonArray   *messages,
             const char  *role,
             JsonArray   *content,
             const char  *name,
             GError     **error)
{
  g_autoptr(JsonArray) blocks = json_array_new ();
  JsonObject *out;

  for (guint j = 0; j < json_array_get_length (content); j++)
    {
      JsonNode *block_node = json_array_get_element (content, j);
      JsonObject *block;

      if (!JSON_NODE_HOLDS_OBJECT (block_node))
        continue;
      block = translate_block (json_node_get_object (block_node), FALSE, name, error);
      if (block == NULL)
        {
          if (error != NULL && *error != NULL)
            return FALSE;
          continue;
        }
      json_array_add_object_element (blocks, block);
    }

  /* The API refuses a message with nothing in it. */
  if (json_array_get_length (blocks) == 0)
    return TRUE;

  out = json_object_new ();
  json_object_set_string_member (out, "role", role);
  json_object_set_array_member (out, "content", g_steal_pointer (&blocks));
  json_array_add_object_element (messages, out);
  return TRUE;
}

static JsonNode *
anthropic_build_body (JsonObject  *request,
                      const char  *name,
                      GError     **error)
{
  g_autoptr(JsonObject) body = json_object_new ();
  g_autoptr(JsonArray) messages = json_array_new ();
  const char *model = mcp_json_get_string (request, "model");
  const char *system_prompt = mcp_json_get_string (request, "systemPrompt");
  gint64 max_tokens = steward_provider_json_count (request, "maxTokens");
  const char *mode;

  if (model != NULL)
    json_object_set_string_member (body, "model", model);
  json_object_set_int_member (body, "max_tokens", max_tokens > 0 ? max_tokens
                                                                  : DEFAULT_MAX_TOKENS);
  if (system_prompt != NULL && system_prompt[0] != '\0')
    json_object_set_string_member (body, "system", system_prompt);

  if (!steward_provider_add_messages (request, name, add_message, messages, error))
    return NULL;
  json_object_set_array_member (body, "messages", g_steal_pointer (&messages));

  mode = steward_provider_add_tools (request, body, make_tool);
  if (mode != NULL)
    {
      JsonObject *choice = json_object_new ();

      /* "required" is "any" here. */
      json_object_set_string_member (choice, "type",
                                     g_str_equal (mode, "required") ? "any" : mode);
      json_object_set_object_member (body, "tool_choice", choice);
    }

  steward_provider_copy_sampling (request, body, "stop_sequences");

  json_object_set_boolean_member (body, "stream", TRUE);

  return json_node_init_object (json_node_alloc (), body);
}

/* {base}/v1/PATH, whether or not the base already ends in /v1. */
static char *
endpoint (StewardHttpProvider *provider,
          const char          *path)
{
  const char *base_url = steward_http_provider_get_base_url (provider);

  if (g_str_has_suffix (base_url, "/v1"))
    return g_strconcat (base_url, "/", path, NULL);

  return g_strconcat (base_url, "/v1/", path, NULL);
}

static void
anthropic_add_headers (StewardHttpProvider *provider,
                       SoupMessageHeaders  *headers,
                       const char          *key)
{
  soup_message_headers_replace (headers, "anthropic-version", API_VERSION);
  if (key != NULL)
    soup_message_headers_replace (headers, "x-api-key", key);
}

static char *
anthropic_chat_url (StewardHttpProvider *provider)
{
  return endpoint (provider, "messages");
}

/* The answer */

typedef struct {
  char       *type;
  char       *id;
  char       *name;
  GString    *buffer;       /* the text, or the tool input's JSON as it comes */
  JsonObject *start_input;  /* the input a tool_use block started with */
  JsonObject *block;        /* the complete block */
} Block;

static void
block_free (Block *block)
{
  if (block == NULL)
    return;

  g_free (block->type);
  g_free (block->id);
  g_free (block->name);
  g_string_free (block->buffer, TRUE);
  g_clear_pointer (&block->start_input, json_object_unref);
  g_clear_pointer (&block->block, json_object_unref);
  g_free (block);
}

typedef struct {
  GPtrArray *blocks;        /* Block or NULL, by index */
  char      *model;
  char      *stop_reason;
  gint64     input_tokens;
  gint64     output_tokens;
} Answer;

static gpointer
answer_new (void)
{
  Answer *answer = g_new0 (Answer, 1);

  answer->blocks = g_ptr_array_new_with_free_func ((GDestroyNotify) block_free);
  answer->input_tokens = -1;
  answer->output_tokens = -1;
  return answer;
}

static void
answer_free (gpointer data)
{
  Answer *answer = data;

  g_ptr_array_unref (answer->blocks);
  g_free (answer->model);
  g_free (answer->stop_reason);
  g_free (answer);
}

static GError *
bad_response (StewardProviderChat *chat,
              const char          *what)
{
  return g_error_new (STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_BAD_RESPONSE,
                      /* Translators: %s is the provider's name, then what was wrong. */
                      _("“%s” sent a stream Steward cannot follow: %s"),
                      steward_provider_chat_get_name (chat), what);
}

static Block *
get_block (Answer     *answer,
           JsonObject *event)
{
  gint64 index = steward_provider_json_count (event, "index");

  if (index < 0 || (guint64) index >= answer->blocks->len)
    return NULL;

  return g_ptr_array_index (answer->blocks, index);
}

/* Input tokens counted fresh, written to the cache and read from it are
 * all input the request cost. */
static gint64
count_input (JsonObject *usage)
{
  const char * const members[] = {
    "input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens",
  };
  gint64 total = -1;

  for (guint i = 0; i < G_N_ELEMENTS (members); i++)
    {
      gint64 count = steward_provider_json_count (usage, members[i]);

      if (count >= 0)
        total = MAX (total, 0) + count;
    }

  return total;
}

static gboolean
complete_block (StewardProviderChat  *chat,
                Answer               *answer,
                Block                *block,
                GError              **error)
{
  g_autoptr(JsonNode) input = NULL;

  if (block->block != NULL)
    return TRUE;

  if (g_str_equal (block->type, "text"))
    {
      block->block = json_object_new ();
      json_object_set_string_member (block->block, "type", "text");
      json_object_set_string_member (block->block, "text", block->buffer->str);
      return TRUE;
    }

  if (!g_str_equal (block->type, "tool_use"))
    return TRUE;

  if (block->buffer->len == 0 && block->start_input != NULL)
    input = json_node_init_object (json_node_alloc (), block->start_input);
  else
    input = steward_provider_parse_tool_input (block->buffer->str, block->buffer->len,
                                               block->name,
                                               g_strcmp0 (answer->stop_reason, "max_tokens") == 0,
                                               error);
  if (input == NULL)
    return FALSE;

  block->block = json_object_new ();
  json_object_set_string_member (block->block, "type", "tool_use");
  json_object_set_string_member (block->block, "id", block->id);
  json_object_set_string_member (block->block, "name", block->name);
  json_object_set_member (block->block, "input", g_steal_pointer (&input));
  steward_provider_chat_emit (chat, STEWARD_PROVIDER_EVENT_TOOL_CALL, block->block);
  return TRUE;
}

static gboolean
start_block (StewardProviderChat  *chat,
             Answer               *answer,
             JsonObject           *event,
             GError              **error)
{
  gint64 index = steward_provider_json_count (event, "index");
  JsonObject *content = mcp_json_get_object (event, "content_block");
  const char *type = mcp_json_get_string (content, "type");
  Block *block;

  if (index < 0 || index >= MAX_BLOCKS || content == NULL || type == NULL)
    {
      *error = bad_response (chat, _("a content block without an index or a type"));
      return FALSE;
    }

  while (answer->blocks->len <= index)
    g_ptr_array_add (answer->blocks, NULL);
  if (g_ptr_array_index (answer->blocks, index) != NULL)
    {
      *error = bad_response (chat, _("a content block started twice"));
      return FALSE;
    }

  block = g_new0 (Block, 1);
  block->type = g_strdup (type);
  block->buffer = g_string_new (NULL);
  g_ptr_array_index (answer->blocks, index) = block;

  if (g_str_equal (type, "text"))
    {
      const char *text = mcp_json_get_string (content, "text");

      if (text != NULL)
        {
          g_string_append (block->buffer, text);
          steward_provider_chat_emit_text (chat, text);
        }
    }
  else if (g_str_equal (type, "tool_use"))
    {
      const char *id = mcp_json_get_string (content, "id");
      const char *name = mcp_json_get_string (content, "name");
      JsonObject *input = mcp_json_get_object (content, "input");

      if (id == NULL || name == NULL)
        {
          *error = bad_response (chat, _("a tool call without an id or a name"));
          return FALSE;
        }
      block->id = g_strdup (id);
      block->name = g_strdup (name);
      if (input != NULL && json_object_get_size (input) > 0)
        block->start_input = json_object_ref (input);
    }

  return TRUE;
}

static gboolean
grow_block (StewardProviderChat  *chat,
            Answer               *answer,
            JsonObject           *event,
            GError              **error)
{
  Block *block = get_block (answer, event);
  JsonObject *delta = mcp_json_get_object (event, "delta");
  const char *type = mcp_json_get_string (delta, "type");

  if (block == NULL)
    {
      *error = bad_response (chat, _("a delta for a content block that did not start"));
      return FALSE;
    }

  if (block->block != NULL)
    return TRUE;

  if (g_strcmp0 (type, "text_delta") == 0 && g_str_equal (block->type, "text"))
    {
      const char *text = mcp_json_get_string (delta, "text");

      if (text != NULL)
        {
          g_string_append (block->buffer, text);
          steward_provider_chat_emit_text (chat, text);
        }
    }
  else if (g_strcmp0 (type, "input_json_delta") == 0 && g_str_equal (block->type, "tool_use"))
    {
      const char *partial = mcp_json_get_string (delta, "partial_json");

      if (partial != NULL)
        g_string_append (block->buffer, partial);
    }

  /* Thinking, signatures and citations are not part of the answer. */
  return TRUE;
}

static GError *
error_event (StewardProviderChat *chat,
             JsonObject          *event)
{
  JsonObject *failure = mcp_json_get_object (event, "error");
  const char *type = mcp_json_get_string (failure, "type");
  const char *message = mcp_json_get_string (failure, "message");
  StewardProviderError code = STEWARD_PROVIDER_ERROR_SERVER;

  if (g_strcmp0 (type, "rate_limit_error") == 0)
    code = STEWARD_PROVIDER_ERROR_RATE_LIMITED;
  else if (g_strcmp0 (type, "authentication_error") == 0 ||
           g_strcmp0 (type, "permission_error") == 0)
    code = STEWARD_PROVIDER_ERROR_UNAUTHORIZED;
  else if (g_strcmp0 (type, "not_found_error") == 0)
    code = STEWARD_PROVIDER_ERROR_MODEL_NOT_FOUND;
  else if (g_strcmp0 (type, "invalid_request_error") == 0 ||
           g_strcmp0 (type, "request_too_large") == 0)
    code = STEWARD_PROVIDER_ERROR_REFUSED;

  return steward_provider_chat_stream_error (chat, code, message != NULL ? message : type);
}

static gboolean
handle_event (StewardProviderChat  *chat,
              Answer               *answer,
              JsonObject           *event,
              const char           *fallback_type,
              gboolean             *done,
              GError              **error)
{
  const char *type = mcp_json_get_string (event, "type");

  if (type == NULL)
    type = fallback_type;

  if (g_strcmp0 (type, "message_start") == 0)
    {
      JsonObject *message = mcp_json_get_object (event, "message");
      JsonObject *usage = mcp_json_get_object (message, "usage");
      const char *model = mcp_json_get_string (message, "model");

      if (answer->model == NULL && model != NULL && model[0] != '\0')
        answer->model = g_strdup (model);
      answer->input_tokens = count_input (usage);
      answer->output_tokens = steward_provider_json_count (usage, "output_tokens");
    }
  else if (g_strcmp0 (type, "content_block_start") == 0)
    return start_block (chat, answer, event, error);
  else if (g_strcmp0 (type, "content_block_delta") == 0)
    return grow_block (chat, answer, event, error);
  else if (g_strcmp0 (type, "content_block_stop") == 0)
    {
      Block *block = get_block (answer, event);

      if (block == NULL)
        {
          *error = bad_response (chat, _("the end of a content block that did not start"));
          return FALSE;
        }
      return complete_block (chat, answer, block, error);
    }
  else if (g_strcmp0 (type, "message_delta") == 0)
    {
      JsonObject *delta = mcp_json_get_object (event, "delta");
      JsonObject *usage = mcp_json_get_object (event, "usage");
      const char *stop_reason = mcp_json_get_string (delta, "stop_reason");
      gint64 input_tokens = count_input (usage);
      gint64 output_tokens = steward_provider_json_count (usage, "output_tokens");

      if (stop_reason != NULL)
        {
          g_free (answer->stop_reason);
          answer->stop_reason = g_strdup (stop_reason);
        }
      if (input_tokens >= 0)
        answer->input_tokens = input_tokens;
      if (output_tokens >= 0)
        answer->output_tokens = output_tokens;
      if (usage != NULL)
        steward_provider_chat_emit_usage (chat, answer->input_tokens, answer->output_tokens);
    }
  else if (g_strcmp0 (type, "message_stop") == 0)
    *done = TRUE;
  else if (g_strcmp0 (type, "error") == 0)
    {
      *error = error_event (chat, event);
      return FALSE;
    }

  /* "ping", and event types added after this was written. */
  return TRUE;
}

static gboolean
anthropic_event (StewardProviderChat  *chat,
                 gpointer              state,
                 const McpSseEvent    *event,
                 gboolean             *done,
                 GError              **error)
{
  g_autoptr(JsonObject) object = steward_provider_chat_parse_event (chat, event, error);

  if (object == NULL)
    return FALSE;

  return handle_event (chat, state, object, event->type, done, error);
}

/* A whole Message, from a server that did not stream. */
static gboolean
anthropic_reply (StewardProviderChat  *chat,
                 gpointer              state,
                 JsonObject           *reply,
                 GError              **error)
{
  Answer *answer = state;
  JsonArray *content = mcp_json_get_array (reply, "content");
  JsonObject *usage = mcp_json_get_object (reply, "usage");
  const char *model = mcp_json_get_string (reply, "model");
  const char *stop_reason = mcp_json_get_string (reply, "stop_reason");

  if (content == NULL)
    {
      *error = bad_response (chat, _("an answer without content"));
      return FALSE;
    }

  answer->model = g_strdup (model);
  answer->stop_reason = g_strdup (stop_reason);
  answer->input_tokens = count_input (usage);
  answer->output_tokens = steward_provider_json_count (usage, "output_tokens");

  for (guint i = 0; i < json_array_get_length (content) && i < MAX_BLOCKS; i++)
    {
      JsonNode *node = json_array_get_element (content, i);
      JsonObject *part = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *type = mcp_json_get_string (part, "type");
      Block *block;

      if (type == NULL)
        continue;

      block = g_new0 (Block, 1);
      block->type = g_strdup (type);
      block->buffer = g_string_new (NULL);
      g_ptr_array_add (answer->blocks, block);

      if (g_str_equal (type, "text"))
        {
          const char *text = mcp_json_get_string (part, "text");

          g_string_append (block->buffer, text != NULL ? text : "");
          steward_provider_chat_emit_text (chat, text);
        }
      else if (g_str_equal (type, "tool_use"))
        {
          JsonObject *input = mcp_json_get_object (part, "input");

          block->id = g_strdup (mcp_json_get_string (part, "id"));
          block->name = g_strdup (mcp_json_get_string (part, "name"));
          if (block->id == NULL || block->name == NULL)
            {
              *error = bad_response (chat, _("a tool call without an id or a name"));
              return FALSE;
            }
          block->start_input = input != NULL ? json_object_ref (input) : json_object_new ();
        }

      if (!complete_block (chat, answer, block, error))
        return FALSE;
    }

  if (answer->input_tokens >= 0 || answer->output_tokens >= 0)
    steward_provider_chat_emit_usage (chat, answer->input_tokens, answer->output_tokens);

  return TRUE;
}

static const char *
map_stop_reason (const char *reason)
{
  if (reason == NULL || g_str_equal (reason, "end_turn"))
    return "endTurn";
  if (g_str_equal (reason, "max_tokens"))
    return "maxTokens";
  if (g_str_equal (reason, "stop_sequence"))
    return "stopSequence";
  if (g_str_equal (reason, "tool_use"))
    return "toolUse";
  return reason;
}

static JsonObject *
anthropic_answer (StewardProviderChat  *chat,
                  gpointer              state,
                  gboolean              complete,
                  GError              **error)
{
  Answer *answer = state;
  g_autoptr(JsonArray) content = json_array_new ();
  const char *model;

  if (!complete && answer->stop_reason == NULL)
    {
      steward_provider_chat_set_broken_off (chat, error);
      return NULL;
    }

  for (guint i = 0; i < answer->blocks->len; i++)
    {
      Block *block = g_ptr_array_index (answer->blocks, i);

      if (block == NULL)
        continue;
      if (!complete_block (chat, answer, block, error))
        return NULL;
      if (block->block == NULL)
        continue;
      /* An empty text block says nothing. */
      if (g_str_equal (block->type, "text") && block->buffer->len == 0)
        continue;
      json_array_add_object_element (content, json_object_ref (block->block));
    }

  if (json_array_get_length (content) == 0)
    json_array_add_object_element (content, steward_provider_text_block (""));

  model = answer->model != NULL ? answer->model : steward_provider_chat_get_model (chat);

  return steward_provider_answer_new (content, model,
                                      map_stop_reason (answer->stop_reason),
                                      answer->input_tokens, answer->output_tokens);
}

static const StewardProviderWire anthropic_wire = {
  .build_body = anthropic_build_body,
  .state_new = answer_new,
  .state_free = answer_free,
  .event = anthropic_event,
  .reply = anthropic_reply,
  .answer = anthropic_answer,
};

/* Listing models, a page at a time */

static char *
anthropic_models_url (StewardHttpProvider *provider)
{
  g_autofree char *base = endpoint (provider, "models");

  return g_strconcat (base, "?limit=1000", NULL);
}

static gboolean
anthropic_read_models (StewardHttpProvider  *provider,
                       JsonNode             *reply,
                       gboolean              fallback,
                       GPtrArray            *names,
                       char                **next,
                       GError              **error)
{
  JsonObject *root = steward_provider_read_model_list (reply, "data", "id", names);
  const char *last_id;
  JsonNode *has_more;

  if (root == NULL)
    return FALSE;

  has_more = json_object_get_member (root, "has_more");
  last_id = mcp_json_get_string (root, "last_id");
  if (has_more != NULL && JSON_NODE_HOLDS_VALUE (has_more) &&
      json_node_get_value_type (has_more) == G_TYPE_BOOLEAN && json_node_get_boolean (has_more) &&
      last_id != NULL)
    {
      g_autofree char *base = endpoint (provider, "models");
      g_autofree char *escaped = g_uri_escape_string (last_id, NULL, FALSE);

      *next = g_strdup_printf ("%s?limit=1000&after_id=%s", base, escaped);
    }

  return TRUE;
}

/* GObject */

static void
steward_anthropic_provider_class_init (StewardAnthropicProviderClass *klass)
{
  StewardHttpProviderClass *http_class = STEWARD_HTTP_PROVIDER_CLASS (klass);

  http_class->wire = &anthropic_wire;
  http_class->default_base_url = STEWARD_ANTHROPIC_DEFAULT_BASE_URL;
  http_class->add_headers = anthropic_add_headers;
  http_class->chat_url = anthropic_chat_url;
  http_class->models_url = anthropic_models_url;
  http_class->read_models = anthropic_read_models;
}

static void
steward_anthropic_provider_init (StewardAnthropicProvider *self)
{
}

/* Public API */

/**
 * steward_anthropic_provider_new:
 * @base_url: (nullable): %NULL for %STEWARD_ANTHROPIC_DEFAULT_BASE_URL
 *
 * See steward_openai_provider_new() for the other arguments.
 */
StewardAnthropicProvider *
steward_anthropic_provider_new (const char     *id,
                                const char     *name,
                                const char     *base_url,
                                const char     *key_id,
                                StewardSecrets *secrets)
{
  StewardHttpProvider *provider;

  provider = steward_http_provider_new (STEWARD_TYPE_ANTHROPIC_PROVIDER, id, name, base_url, key_id,
                                        secrets);
  return STEWARD_ANTHROPIC_PROVIDER (provider);
}

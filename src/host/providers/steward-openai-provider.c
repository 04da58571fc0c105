/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-openai-provider"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "steward-provider-private.h"
#include "steward-openai-provider.h"

/**
 * StewardOpenaiProvider:
 *
 * Chat completions as OpenAI defined them and as most other servers copy
 * them. Only what every one of them understands is sent: text as a plain
 * string unless images come along, "max_tokens" rather than OpenAI's newer
 * "max_completion_tokens" (Ollama and llama.cpp know only the former), and
 * tool results as "tool" messages right after the call they answer.
 */
struct _StewardOpenaiProvider
{
  StewardHttpProvider parent_instance;
};

G_DEFINE_FINAL_TYPE (StewardOpenaiProvider, steward_openai_provider, STEWARD_TYPE_HTTP_PROVIDER)

/* More calls in one answer than any model makes is a broken stream. */
#define MAX_TOOL_CALLS 128

/* The request */

static gboolean
is_base64 (const char *data)
{
  for (const char *p = data; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '+' && *p != '/' && *p != '=' && *p != '\n' && *p != '\r')
      return FALSE;

  return data[0] != '\0';
}

static gboolean
is_media_type (const char *type,
               const char *prefix)
{
  if (type == NULL || !g_str_has_prefix (type, prefix) || type[strlen (prefix)] == '\0')
    return FALSE;

  for (const char *p = type + strlen (prefix); *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && strchr (".+-", *p) == NULL)
      return FALSE;

  return TRUE;
}

static JsonObject *
image_part (JsonObject  *block,
            const char  *name,
            GError     **error)
{
  const char *data = mcp_json_get_string (block, "data");
  const char *type = mcp_json_get_string (block, "mimeType");
  JsonObject *part;
  JsonObject *image_url;

  if (data == NULL || !is_base64 (data) || !is_media_type (type, "image/"))
    {
      g_propagate_error (error,
                         steward_provider_unsupported (name, _("an image that is not base64 data "
                                                               "of an image type")));
      return NULL;
    }

  image_url = json_object_new ();
  json_object_set_string_member (image_url, "url",
                                 g_strconcat ("data:", type, ";base64,", data, NULL));
  part = json_object_new ();
  json_object_set_string_member (part, "type", "image_url");
  json_object_set_object_member (part, "image_url", image_url);
  return part;
}

/* json_object_set_string_member() for a string made here. */
static void
set_string_take (JsonObject *object,
                 const char *member,
                 char       *value)
{
  json_object_set_string_member (object, member, value);
  g_free (value);
}

static JsonObject *
audio_part (JsonObject  *block,
            const char  *name,
            GError     **error)
{
  const char *data = mcp_json_get_string (block, "data");
  const char *type = mcp_json_get_string (block, "mimeType");
  const char *format = NULL;
  JsonObject *part;
  JsonObject *audio;

  if (g_strcmp0 (type, "audio/wav") == 0 || g_strcmp0 (type, "audio/x-wav") == 0)
    format = "wav";
  else if (g_strcmp0 (type, "audio/mpeg") == 0 || g_strcmp0 (type, "audio/mp3") == 0)
    format = "mp3";

  if (data == NULL || !is_base64 (data) || format == NULL)
    {
      g_propagate_error (error,
                         steward_provider_unsupported (name, _("audio other than WAV or MP3")));
      return NULL;
    }

  audio = json_object_new ();
  json_object_set_string_member (audio, "data", data);
  json_object_set_string_member (audio, "format", format);
  part = json_object_new ();
  json_object_set_string_member (part, "type", "input_audio");
  json_object_set_object_member (part, "input_audio", audio);
  return part;
}

static void
append_text (GString    *out,
             const char *text)
{
  if (text == NULL || text[0] == '\0')
    return;
  if (out->len > 0)
    g_string_append (out, "\n\n");
  g_string_append (out, text);
}

/* A tool result as a "tool" message; its images go to @images, since a
 * tool message holds text only. */
static gboolean
add_tool_result (JsonArray   *messages,
                 JsonObject  *block,
                 JsonArray   *images,
                 const char  *name,
                 GError     **error)
{
  g_autoptr(JsonArray) content = steward_provider_dup_content (block);
  g_autoptr(GString) text = g_string_new (NULL);
  const char *id = mcp_json_get_string (block, "toolUseId");
  JsonNode *is_error = json_object_get_member (block, "isError");
  JsonObject *message;
  gsize start;

  if (id == NULL)
    {
      g_propagate_error (error,
                         steward_provider_unsupported (name, _("a tool result without the id of "
                                                               "its call")));
      return FALSE;
    }

  if (is_error != NULL && JSON_NODE_HOLDS_VALUE (is_error) &&
      json_node_get_value_type (is_error) == G_TYPE_BOOLEAN && json_node_get_boolean (is_error))
    g_string_append (text, "Error: ");
  start = text->len;

  for (guint i = 0; content != NULL && i < json_array_get_length (content); i++)
    {
      JsonNode *node = json_array_get_element (content, i);
      JsonObject *part = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *type = mcp_json_get_string (part, "type");

      if (g_strcmp0 (type, "text") == 0)
        {
          const char *piece = mcp_json_get_string (part, "text");

          if (piece != NULL)
            {
              if (text->len > start)
                g_string_append_c (text, '\n');
              g_string_append (text, piece);
            }
        }
      else if (g_strcmp0 (type, "image") == 0)
        {
          JsonObject *image = image_part (part, name, error);

          if (image == NULL)
            return FALSE;
          json_array_add_object_element (images, image);
        }
      else
        {
          g_autofree char *what = g_strdup_printf (_("“%s” content in a tool result"),
                                                   type != NULL ? type : "?");

          g_propagate_error (error, steward_provider_unsupported (name, what));
          return FALSE;
        }
    }

  message = json_object_new ();
  json_object_set_string_member (message, "role", "tool");
  json_object_set_string_member (message, "tool_call_id", id);
  json_object_set_string_member (message, "content", text->str);
  json_array_add_object_element (messages, message);
  return TRUE;
}

static gboolean
add_user_message (JsonArray   *messages,
                  JsonArray   *content,
                  const char  *name,
                  GError     **error)
{
  g_autoptr(JsonArray) parts = json_array_new ();
  g_autoptr(JsonArray) images = json_array_new ();
  g_autoptr(GString) text = g_string_new (NULL);
  gboolean has_media = FALSE;
  JsonObject *message;

  for (guint i = 0; i < json_array_get_length (content); i++)
    {
      JsonNode *node = json_array_get_element (content, i);
      JsonObject *block = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *type = mcp_json_get_string (block, "type");
      JsonObject *part = NULL;

      if (g_strcmp0 (type, "text") == 0)
        {
          const char *piece = mcp_json_get_string (block, "text");

          append_text (text, piece);
          part = steward_provider_text_block (piece != NULL ? piece : "");
        }
      else if (g_strcmp0 (type, "image") == 0)
        {
          has_media = TRUE;
          if ((part = image_part (block, name, error)) == NULL)
            return FALSE;
        }
      else if (g_strcmp0 (type, "audio") == 0)
        {
          has_media = TRUE;
          if ((part = audio_part (block, name, error)) == NULL)
            return FALSE;
        }
      else if (g_strcmp0 (type, "tool_result") == 0)
        {
          if (!add_tool_result (messages, block, images, name, error))
            return FALSE;
          continue;
        }
      else
        {
          g_autofree char *what = g_strdup_printf (_("“%s” content"), type != NULL ? type : "?");

          g_propagate_error (error, steward_provider_unsupported (name, what));
          return FALSE;
        }

      json_array_add_object_element (parts, part);
    }

  /* The tool messages came first, as they must follow the call; what the
   * tools showed and what the person wrote come after them. */
  for (guint i = 0; i < json_array_get_length (images); i++)
    {
      has_media = TRUE;
      json_array_add_element (parts, json_node_ref (json_array_get_element (images, i)));
    }

  if (json_array_get_length (parts) == 0)
    return TRUE;

  message = json_object_new ();
  json_object_set_string_member (message, "role", "user");
  /* Plain text as a string: not every server takes an array of parts. */
  if (has_media)
    json_object_set_array_member (message, "content", g_steal_pointer (&parts));
  else
    json_object_set_string_member (message, "content", text->str);
  json_array_add_object_element (messages, message);
  return TRUE;
}

static gboolean
add_assistant_message (JsonArray   *messages,
                       JsonArray   *content,
                       const char  *name,
                       GError     **error)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(JsonArray) calls = json_array_new ();
  JsonObject *message;

  for (guint i = 0; i < json_array_get_length (content); i++)
    {
      JsonNode *node = json_array_get_element (content, i);
      JsonObject *block = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *type = mcp_json_get_string (block, "type");

      if (g_strcmp0 (type, "text") == 0)
        append_text (text, mcp_json_get_string (block, "text"));
      else if (g_strcmp0 (type, "tool_use") == 0)
        {
          const char *id = mcp_json_get_string (block, "id");
          const char *tool = mcp_json_get_string (block, "name");
          JsonNode *input = json_object_get_member (block, "input");
          JsonObject *function;
          JsonObject *call;

          if (id == NULL || tool == NULL)
            {
              g_propagate_error (error,
                                 steward_provider_unsupported (name, _("a tool call without an "
                                                                       "id or a name")));
              return FALSE;
            }

          function = json_object_new ();
          json_object_set_string_member (function, "name", tool);
          if (input != NULL && JSON_NODE_HOLDS_OBJECT (input))
            set_string_take (function, "arguments", json_to_string (input, FALSE));
          else
            json_object_set_string_member (function, "arguments", "{}");

          call = json_object_new ();
          json_object_set_string_member (call, "id", id);
          json_object_set_string_member (call, "type", "function");
          json_object_set_object_member (call, "function", function);
          json_array_add_object_element (calls, call);
        }
      else
        {
          g_autofree char *what = g_strdup_printf (_("“%s” content from the model"),
                                                   type != NULL ? type : "?");

          g_propagate_error (error, steward_provider_unsupported (name, what));
          return FALSE;
        }
    }

  message = json_object_new ();
  json_object_set_string_member (message, "role", "assistant");
  /* The content may be left out when the message only calls tools. */
  if (text->len > 0 || json_array_get_length (calls) == 0)
    json_object_set_string_member (message, "content", text->str);
  if (json_array_get_length (calls) > 0)
    json_object_set_array_member (message, "tool_calls", g_steal_pointer (&calls));
  json_array_add_object_element (messages, message);
  return TRUE;
}

static gboolean
add_message (JsonArray   *messages,
             const char  *role,
             JsonArray   *content,
             const char  *name,
             GError     **error)
{
  if (g_str_equal (role, "assistant"))
    return add_assistant_message (messages, content, name, error);

  return add_user_message (messages, content, name, error);
}

static JsonObject *
make_tool (const char *tool_name,
           const char *description,
           JsonObject *schema)
{
  JsonObject *function = json_object_new ();
  JsonObject *entry = json_object_new ();

  json_object_set_string_member (function, "name", tool_name);
  if (description != NULL)
    json_object_set_string_member (function, "description", description);
  json_object_set_object_member (function, "parameters", schema);
  json_object_set_string_member (entry, "type", "function");
  json_object_set_object_member (entry, "function", function);
  return entry;
}

static JsonNode *
openai_build_body (JsonObject  *request,
                   const char  *name,
                   GError     **error)
{
  g_autoptr(JsonObject) body = json_object_new ();
  g_autoptr(JsonArray) messages = json_array_new ();
  const char *model = mcp_json_get_string (request, "model");
  const char *system_prompt = mcp_json_get_string (request, "systemPrompt");
  gint64 max_tokens = steward_provider_json_count (request, "maxTokens");
  const char *mode;
  JsonObject *options;

  if (model != NULL)
    json_object_set_string_member (body, "model", model);

  if (system_prompt != NULL && system_prompt[0] != '\0')
    {
      JsonObject *message = json_object_new ();

      json_object_set_string_member (message, "role", "system");
      json_object_set_string_member (message, "content", system_prompt);
      json_array_add_object_element (messages, message);
    }

  if (!steward_provider_add_messages (request, name, add_message, messages, error))
    return NULL;
  json_object_set_array_member (body, "messages", g_steal_pointer (&messages));

  mode = steward_provider_add_tools (request, body, make_tool);
  if (mode != NULL)
    json_object_set_string_member (body, "tool_choice", mode);

  steward_provider_copy_sampling (request, body, "stop");
  if (max_tokens > 0)
    json_object_set_int_member (body, "max_tokens", max_tokens);

  json_object_set_boolean_member (body, "stream", TRUE);
  options = json_object_new ();
  json_object_set_boolean_member (options, "include_usage", TRUE);
  json_object_set_object_member (body, "stream_options", options);

  return json_node_init_object (json_node_alloc (), body);
}

static void
openai_add_headers (StewardHttpProvider *provider,
                    SoupMessageHeaders  *headers,
                    const char          *key)
{
  char *value;

  if (key == NULL)
    return;

  value = g_strconcat ("Bearer ", key, NULL);
  soup_message_headers_replace (headers, "Authorization", value);
  steward_secret_value_free (value);
}

static char *
openai_chat_url (StewardHttpProvider *provider)
{
  return g_strconcat (steward_http_provider_get_base_url (provider), "/chat/completions", NULL);
}

/* The answer */

typedef struct {
  char       *id;
  char       *name;
  GString    *arguments;
  JsonObject *block;    /* the tool_use block, once complete */
} ToolCall;

static void
tool_call_free (ToolCall *call)
{
  g_free (call->id);
  g_free (call->name);
  g_string_free (call->arguments, TRUE);
  g_clear_pointer (&call->block, json_object_unref);
  g_free (call);
}

typedef struct {
  GString   *text;
  GPtrArray *calls;
  char      *model;
  char      *finish_reason;
  gint64     input_tokens;
  gint64     output_tokens;
} Answer;

static gpointer
answer_new (void)
{
  Answer *answer = g_new0 (Answer, 1);

  answer->text = g_string_new (NULL);
  answer->calls = g_ptr_array_new_with_free_func ((GDestroyNotify) tool_call_free);
  answer->input_tokens = -1;
  answer->output_tokens = -1;
  return answer;
}

static void
answer_free (gpointer data)
{
  Answer *answer = data;

  g_string_free (answer->text, TRUE);
  g_ptr_array_unref (answer->calls);
  g_free (answer->model);
  g_free (answer->finish_reason);
  g_free (answer);
}

static ToolCall *
tool_call_new (void)
{
  ToolCall *call = g_new0 (ToolCall, 1);

  call->arguments = g_string_new (NULL);
  return call;
}

/* Which call a fragment continues: by its index, or, from servers that
 * send none, by its id, or else the last one. */
static ToolCall *
find_call (StewardProviderChat  *chat,
           Answer               *answer,
           JsonObject           *fragment,
           gboolean              whole,
           guint                 position,
           GError              **error)
{
  gint64 index = steward_provider_json_count (fragment, "index");
  const char *id = mcp_json_get_string (fragment, "id");
  ToolCall *last;

  /* In a whole message each entry is a call of its own. */
  if (index < 0 && whole)
    index = position;

  if (index < 0)
    {
      last = answer->calls->len > 0 ? g_ptr_array_index (answer->calls, answer->calls->len - 1)
                                    : NULL;
      if (last != NULL && (id == NULL || id[0] == '\0' || g_strcmp0 (last->id, id) == 0))
        return last;
      index = answer->calls->len;
    }

  if (index >= MAX_TOOL_CALLS)
    {
      *error = g_error_new (STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_BAD_RESPONSE,
                            _("“%s” sent more than %u tool calls in one answer."),
                            steward_provider_chat_get_name (chat), MAX_TOOL_CALLS);
      return NULL;
    }

  while (answer->calls->len <= index)
    g_ptr_array_add (answer->calls, tool_call_new ());

  return g_ptr_array_index (answer->calls, index);
}

static gboolean
add_tool_fragments (StewardProviderChat  *chat,
                    Answer               *answer,
                    JsonArray            *fragments,
                    gboolean              whole,
                    GError              **error)
{
  for (guint i = 0; i < json_array_get_length (fragments); i++)
    {
      JsonNode *node = json_array_get_element (fragments, i);
      JsonObject *fragment = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      JsonObject *function = mcp_json_get_object (fragment, "function");
      const char *id = mcp_json_get_string (fragment, "id");
      const char *name = mcp_json_get_string (function, "name");
      const char *arguments = mcp_json_get_string (function, "arguments");
      JsonObject *arguments_object = mcp_json_get_object (function, "arguments");
      ToolCall *call;

      if (fragment == NULL)
        continue;

      if ((call = find_call (chat, answer, fragment, whole, i, error)) == NULL)
        return FALSE;

      if (call->block != NULL)
        continue;
      if (call->id == NULL && id != NULL && id[0] != '\0')
        call->id = g_strdup (id);
      if (call->name == NULL && name != NULL && name[0] != '\0')
        call->name = g_strdup (name);
      if (arguments != NULL)
        g_string_append (call->arguments, arguments);
      else if (arguments_object != NULL)
        {
          /* Some servers send the arguments as an object, not a string. */
          g_autoptr(JsonNode) wrapped = json_node_init_object (json_node_alloc (),
                                                               arguments_object);
          g_autofree char *text = json_to_string (wrapped, FALSE);

          g_string_append (call->arguments, text);
        }
    }

  return TRUE;
}

/* Each call whose arguments are complete becomes a tool_use block and
 * goes out as an event, once. */
static gboolean
complete_calls (StewardProviderChat  *chat,
                Answer               *answer,
                GError              **error)
{
  gboolean truncated = g_strcmp0 (answer->finish_reason, "length") == 0;

  for (guint i = 0; i < answer->calls->len; i++)
    {
      ToolCall *call = g_ptr_array_index (answer->calls, i);
      g_autoptr(JsonNode) input = NULL;
      JsonObject *block;

      if (call->block != NULL)
        continue;

      /* An index no fragment filled. */
      if (call->name == NULL && call->id == NULL && call->arguments->len == 0)
        continue;

      if (call->name == NULL)
        {
          *error = g_error_new (STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_BAD_RESPONSE,
                                _("“%s” sent a tool call without the tool’s name."),
                                steward_provider_chat_get_name (chat));
          return FALSE;
        }

      input = steward_provider_parse_tool_input (call->arguments->str, call->arguments->len,
                                                 call->name, truncated, error);
      if (input == NULL)
        return FALSE;

      block = json_object_new ();
      json_object_set_string_member (block, "type", "tool_use");
      if (call->id != NULL)
        json_object_set_string_member (block, "id", call->id);
      else
        set_string_take (block, "id", g_strdup_printf ("call_%u", i));
      json_object_set_string_member (block, "name", call->name);
      json_object_set_member (block, "input", g_steal_pointer (&input));
      call->block = block;

      steward_provider_chat_emit (chat, STEWARD_PROVIDER_EVENT_TOOL_CALL, block);
    }

  return TRUE;
}

/* One chunk of a stream, or a whole reply: "delta" or "message" hold the
 * same members. */
static gboolean
handle_chunk (StewardProviderChat  *chat,
              Answer               *answer,
              JsonObject           *chunk,
              gboolean              whole,
              GError              **error)
{
  JsonObject *failure = mcp_json_get_object (chunk, "error");
  JsonArray *choices = mcp_json_get_array (chunk, "choices");
  JsonObject *usage = mcp_json_get_object (chunk, "usage");
  const char *model = mcp_json_get_string (chunk, "model");

  if (failure != NULL || mcp_json_get_string (chunk, "error") != NULL)
    {
      const char *message = failure != NULL ? mcp_json_get_string (failure, "message")
                                            : mcp_json_get_string (chunk, "error");

      *error = steward_provider_chat_stream_error (chat, STEWARD_PROVIDER_ERROR_SERVER, message);
      return FALSE;
    }

  if (answer->model == NULL && model != NULL && model[0] != '\0')
    answer->model = g_strdup (model);

  for (guint i = 0; choices != NULL && i < json_array_get_length (choices); i++)
    {
      JsonNode *node = json_array_get_element (choices, i);
      JsonObject *choice = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      JsonObject *delta = mcp_json_get_object (choice, whole ? "message" : "delta");
      const char *content = mcp_json_get_string (delta, "content");
      JsonArray *tool_calls = mcp_json_get_array (delta, "tool_calls");
      const char *finish_reason = mcp_json_get_string (choice, "finish_reason");

      /* Only one answer was asked for. */
      if (choice == NULL || steward_provider_json_count (choice, "index") > 0)
        continue;

      if (content != NULL && content[0] != '\0')
        {
          g_string_append (answer->text, content);
          steward_provider_chat_emit_text (chat, content);
        }

      if (tool_calls != NULL && !add_tool_fragments (chat, answer, tool_calls, whole, error))
        return FALSE;

      if (finish_reason != NULL && answer->finish_reason == NULL)
        {
          answer->finish_reason = g_strdup (finish_reason);
          /* No fragment follows the end of the choice. */
          if (!complete_calls (chat, answer, error))
            return FALSE;
        }
    }

  if (usage != NULL)
    {
      answer->input_tokens = steward_provider_json_count (usage, "prompt_tokens");
      answer->output_tokens = steward_provider_json_count (usage, "completion_tokens");
      if (answer->input_tokens >= 0 || answer->output_tokens >= 0)
        steward_provider_chat_emit_usage (chat, answer->input_tokens, answer->output_tokens);
    }

  return TRUE;
}

static gboolean
openai_event (StewardProviderChat  *chat,
              gpointer              state,
              const McpSseEvent    *event,
              gboolean             *done,
              GError              **error)
{
  g_autoptr(JsonObject) chunk = NULL;

  if (event->data_length == 6 && memcmp (event->data, "[DONE]", 6) == 0)
    {
      *done = TRUE;
      return TRUE;
    }

  chunk = steward_provider_chat_parse_event (chat, event, error);
  if (chunk == NULL)
    return FALSE;

  return handle_chunk (chat, state, chunk, FALSE, error);
}

static gboolean
openai_reply (StewardProviderChat  *chat,
              gpointer              state,
              JsonObject           *reply,
              GError              **error)
{
  return handle_chunk (chat, state, reply, TRUE, error);
}

static const char *
map_stop_reason (const char *reason,
                 gboolean    called_tools)
{
  if (called_tools)
    return "toolUse";
  if (reason == NULL || g_str_equal (reason, "stop"))
    return "endTurn";
  if (g_str_equal (reason, "length"))
    return "maxTokens";
  if (g_str_equal (reason, "tool_calls") || g_str_equal (reason, "function_call"))
    return "toolUse";
  if (g_str_equal (reason, "content_filter"))
    return "contentFilter";
  return reason;
}

static JsonObject *
openai_answer (StewardProviderChat  *chat,
               gpointer              state,
               gboolean              complete,
               GError              **error)
{
  Answer *answer = state;
  g_autoptr(JsonArray) content = json_array_new ();
  gboolean called_tools = FALSE;
  const char *model;

  /* A stream that ended without saying so was cut. */
  if (!complete && answer->finish_reason == NULL)
    {
      steward_provider_chat_set_broken_off (chat, error);
      return NULL;
    }

  if (!complete_calls (chat, answer, error))
    return NULL;

  if (answer->text->len > 0 || answer->calls->len == 0)
    json_array_add_object_element (content, steward_provider_text_block (answer->text->str));

  for (guint i = 0; i < answer->calls->len; i++)
    {
      ToolCall *call = g_ptr_array_index (answer->calls, i);

      if (call->block != NULL)
        {
          json_array_add_object_element (content, json_object_ref (call->block));
          called_tools = TRUE;
        }
    }

  model = answer->model != NULL ? answer->model : steward_provider_chat_get_model (chat);

  return steward_provider_answer_new (content, model,
                                      map_stop_reason (answer->finish_reason, called_tools),
                                      answer->input_tokens, answer->output_tokens);
}

static const StewardProviderWire openai_wire = {
  .build_body = openai_build_body,
  .state_new = answer_new,
  .state_free = answer_free,
  .event = openai_event,
  .reply = openai_reply,
  .answer = openai_answer,
};

/* Listing models */

static char *
openai_models_url (StewardHttpProvider *provider)
{
  return g_strconcat (steward_http_provider_get_base_url (provider), "/models", NULL);
}

/* {"data": [{"id"}…]} from /models, {"models": [{"name"}…]} from Ollama's
 * /api/tags. */
static gboolean
openai_read_models (StewardHttpProvider  *provider,
                    JsonNode             *reply,
                    gboolean              fallback,
                    GPtrArray            *names,
                    char                **next,
                    GError              **error)
{
  return steward_provider_read_model_list (reply, fallback ? "models" : "data",
                                           fallback ? "name" : "id", names) != NULL;
}

/* Ollama may run on any port, and older ones have no /v1/models: its own
 * list, beside /v1 at the server's root, is worth a try before giving up. */
static char *
openai_fallback_models_url (StewardHttpProvider *provider,
                            guint                status)
{
  const char *base_url = steward_http_provider_get_base_url (provider);
  g_autoptr(GUri) uri = NULL;

  if (status != SOUP_STATUS_NOT_FOUND)
    return NULL;

  if (g_str_has_suffix (base_url, "/v1"))
    return g_strdup_printf ("%.*s/api/tags", (int) (strlen (base_url) - 3), base_url);

  uri = g_uri_parse (base_url, G_URI_FLAGS_NONE, NULL);
  if (uri == NULL)
    return NULL;

  return g_uri_join (G_URI_FLAGS_NONE, g_uri_get_scheme (uri), NULL, g_uri_get_host (uri),
                     g_uri_get_port (uri), "/api/tags", NULL, NULL);
}

/* GObject */

static void
steward_openai_provider_class_init (StewardOpenaiProviderClass *klass)
{
  StewardHttpProviderClass *http_class = STEWARD_HTTP_PROVIDER_CLASS (klass);

  http_class->wire = &openai_wire;
  http_class->add_headers = openai_add_headers;
  http_class->chat_url = openai_chat_url;
  http_class->models_url = openai_models_url;
  http_class->read_models = openai_read_models;
  http_class->fallback_models_url = openai_fallback_models_url;
}

static void
steward_openai_provider_init (StewardOpenaiProvider *self)
{
}

/* Public API */

/**
 * steward_openai_provider_new:
 * @base_url: such as http://localhost:11434/v1
 *
 * The other arguments are those of every HTTP provider: an id such as
 * "ollama", a name such as "Ollama", the keyring id of its key and the
 * keyring.
 */
StewardOpenaiProvider *
steward_openai_provider_new (const char     *id,
                             const char     *name,
                             const char     *base_url,
                             const char     *key_id,
                             StewardSecrets *secrets)
{
  StewardHttpProvider *provider;

  g_return_val_if_fail (base_url != NULL, NULL);

  provider = steward_http_provider_new (STEWARD_TYPE_OPENAI_PROVIDER, id, name, base_url, key_id,
                                        secrets);
  return STEWARD_OPENAI_PROVIDER (provider);
}

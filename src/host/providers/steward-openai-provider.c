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
  GObject         parent_instance;

  char           *id;
  char           *name;
  char           *base_url;
  char           *key_id;
  StewardSecrets *secrets;
  SoupSession    *session;
};

static void steward_openai_provider_iface_init (StewardProviderInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StewardOpenaiProvider, steward_openai_provider, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (STEWARD_TYPE_PROVIDER,
                                                      steward_openai_provider_iface_init))

enum {
  PROP_0,
  PROP_ID,
  PROP_DISPLAY_NAME,
  PROP_BASE_URL,
  PROP_KEY_ID,
  PROP_SECRETS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* More calls in one answer than any model makes is a broken stream. */
#define MAX_TOOL_CALLS 128
#define MAX_MODELS 10000
#define MAX_MODEL_NAME 512

/* The request */

static GError *
unsupported (const char *name,
             const char *what)
{
  return g_error_new (STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_UNSUPPORTED,
                      /* Translators: the first %s is a kind of content ("audio"),
                       * the second the provider's name. */
                      _("Messages with %s cannot be sent to “%s”."), what, name);
}

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
  const char *data = steward_provider_json_string (block, "data");
  const char *type = steward_provider_json_string (block, "mimeType");
  JsonObject *part;
  JsonObject *image_url;

  if (data == NULL || !is_base64 (data) || !is_media_type (type, "image/"))
    {
      g_propagate_error (error, unsupported (name, _("an image that is not base64 data of an "
                                                     "image type")));
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
  const char *data = steward_provider_json_string (block, "data");
  const char *type = steward_provider_json_string (block, "mimeType");
  const char *format = NULL;
  JsonObject *part;
  JsonObject *audio;

  if (g_strcmp0 (type, "audio/wav") == 0 || g_strcmp0 (type, "audio/x-wav") == 0)
    format = "wav";
  else if (g_strcmp0 (type, "audio/mpeg") == 0 || g_strcmp0 (type, "audio/mp3") == 0)
    format = "mp3";

  if (data == NULL || !is_base64 (data) || format == NULL)
    {
      g_propagate_error (error, unsupported (name, _("audio other than WAV or MP3")));
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
  const char *id = steward_provider_json_string (block, "toolUseId");
  JsonNode *is_error = json_object_get_member (block, "isError");
  JsonObject *message;
  gsize start;

  if (id == NULL)
    {
      g_propagate_error (error, unsupported (name, _("a tool result without the id of its "
                                                     "call")));
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
      const char *type = steward_provider_json_string (part, "type");

      if (g_strcmp0 (type, "text") == 0)
        {
          const char *piece = steward_provider_json_string (part, "text");

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

          g_propagate_error (error, unsupported (name, what));
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
      const char *type = steward_provider_json_string (block, "type");
      JsonObject *part = NULL;

      if (g_strcmp0 (type, "text") == 0)
        {
          const char *piece = steward_provider_json_string (block, "text");

          append_text (text, piece);
          part = json_object_new ();
          json_object_set_string_member (part, "type", "text");
          json_object_set_string_member (part, "text", piece != NULL ? piece : "");
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

          g_propagate_error (error, unsupported (name, what));
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
      const char *type = steward_provider_json_string (block, "type");

      if (g_strcmp0 (type, "text") == 0)
        append_text (text, steward_provider_json_string (block, "text"));
      else if (g_strcmp0 (type, "tool_use") == 0)
        {
          const char *id = steward_provider_json_string (block, "id");
          const char *tool = steward_provider_json_string (block, "name");
          JsonNode *input = json_object_get_member (block, "input");
          JsonObject *function;
          JsonObject *call;

          if (id == NULL || tool == NULL)
            {
              g_propagate_error (error, unsupported (name, _("a tool call without an id or a "
                                                             "name")));
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

          g_propagate_error (error, unsupported (name, what));
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

static JsonArray *
translate_tools (JsonArray *tools)
{
  JsonArray *out = json_array_new ();

  for (guint i = 0; i < json_array_get_length (tools); i++)
    {
      JsonNode *node = json_array_get_element (tools, i);
      JsonObject *tool = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *tool_name = steward_provider_json_string (tool, "name");
      const char *description = steward_provider_json_string (tool, "description");
      JsonObject *schema = steward_provider_json_object (tool, "inputSchema");
      JsonObject *function;
      JsonObject *entry;

      if (tool_name == NULL)
        continue;

      function = json_object_new ();
      json_object_set_string_member (function, "name", tool_name);
      if (description != NULL)
        json_object_set_string_member (function, "description", description);
      if (schema != NULL)
        json_object_set_object_member (function, "parameters", json_object_ref (schema));
      else
        {
          JsonObject *empty = json_object_new ();

          json_object_set_string_member (empty, "type", "object");
          json_object_set_object_member (empty, "properties", json_object_new ());
          json_object_set_object_member (function, "parameters", empty);
        }

      entry = json_object_new ();
      json_object_set_string_member (entry, "type", "function");
      json_object_set_object_member (entry, "function", function);
      json_array_add_object_element (out, entry);
    }

  return out;
}

static JsonNode *
openai_build_body (JsonObject  *request,
                   const char  *name,
                   GError     **error)
{
  g_autoptr(JsonObject) body = json_object_new ();
  g_autoptr(JsonArray) messages = json_array_new ();
  JsonArray *input = steward_provider_json_array (request, "messages");
  JsonArray *tools = steward_provider_json_array (request, "tools");
  JsonArray *stop = steward_provider_json_array (request, "stopSequences");
  JsonObject *tool_choice = steward_provider_json_object (request, "toolChoice");
  const char *model = steward_provider_json_string (request, "model");
  const char *system_prompt = steward_provider_json_string (request, "systemPrompt");
  JsonNode *temperature = json_object_get_member (request, "temperature");
  gint64 max_tokens = steward_provider_json_count (request, "maxTokens");
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

  for (guint i = 0; input != NULL && i < json_array_get_length (input); i++)
    {
      JsonNode *node = json_array_get_element (input, i);
      JsonObject *message = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *role = steward_provider_json_string (message, "role");
      g_autoptr(JsonArray) content = steward_provider_dup_content (message);
      gboolean ok;

      if (content == NULL)
        {
          g_propagate_error (error, unsupported (name, _("a message without content")));
          return NULL;
        }

      if (g_strcmp0 (role, "assistant") == 0)
        ok = add_assistant_message (messages, content, name, error);
      else if (g_strcmp0 (role, "user") == 0)
        ok = add_user_message (messages, content, name, error);
      else
        {
          g_propagate_error (error, unsupported (name, _("a role other than user or "
                                                         "assistant")));
          return NULL;
        }

      if (!ok)
        return NULL;
    }
  json_object_set_array_member (body, "messages", g_steal_pointer (&messages));

  if (tools != NULL && json_array_get_length (tools) > 0)
    {
      const char *mode = steward_provider_json_string (tool_choice, "mode");

      json_object_set_array_member (body, "tools", translate_tools (tools));
      if (g_strcmp0 (mode, "none") == 0 || g_strcmp0 (mode, "required") == 0 ||
          g_strcmp0 (mode, "auto") == 0)
        json_object_set_string_member (body, "tool_choice", mode);
    }

  if (temperature != NULL && JSON_NODE_HOLDS_VALUE (temperature) &&
      (json_node_get_value_type (temperature) == G_TYPE_DOUBLE ||
       json_node_get_value_type (temperature) == G_TYPE_INT64))
    json_object_set_double_member (body, "temperature", json_node_get_double (temperature));

  if (max_tokens > 0)
    json_object_set_int_member (body, "max_tokens", max_tokens);

  if (stop != NULL && json_array_get_length (stop) > 0)
    {
      JsonArray *out = json_array_new ();

      for (guint i = 0; i < json_array_get_length (stop); i++)
        {
          JsonNode *node = json_array_get_element (stop, i);

          if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
            json_array_add_string_element (out, json_node_get_string (node));
        }
      json_object_set_array_member (body, "stop", out);
    }

  json_object_set_boolean_member (body, "stream", TRUE);
  options = json_object_new ();
  json_object_set_boolean_member (options, "include_usage", TRUE);
  json_object_set_object_member (body, "stream_options", options);

  return json_node_init_object (json_node_alloc (), body);
}

static SoupMessage *
openai_new_message (StewardProvider *provider,
                    GBytes          *body,
                    const char      *key)
{
  StewardOpenaiProvider *self = STEWARD_OPENAI_PROVIDER (provider);
  g_autofree char *url = g_strconcat (self->base_url, "/chat/completions", NULL);
  SoupMessage *message = soup_message_new (SOUP_METHOD_POST, url);
  SoupMessageHeaders *headers;

  if (message == NULL)
    return NULL;

  soup_message_set_request_body_from_bytes (message, "application/json", body);
  headers = soup_message_get_request_headers (message);
  soup_message_headers_replace (headers, "Accept", "text/event-stream, application/json");
  if (key != NULL)
    {
      char *value = g_strconcat ("Bearer ", key, NULL);

      soup_message_headers_replace (headers, "Authorization", value);
      steward_secret_value_free (value);
    }

  return message;
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
  const char *id = steward_provider_json_string (fragment, "id");
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
      JsonObject *function = steward_provider_json_object (fragment, "function");
      const char *id = steward_provider_json_string (fragment, "id");
      const char *name = steward_provider_json_string (function, "name");
      const char *arguments = steward_provider_json_string (function, "arguments");
      JsonObject *arguments_object = steward_provider_json_object (function, "arguments");
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
  JsonObject *failure = steward_provider_json_object (chunk, "error");
  JsonArray *choices = steward_provider_json_array (chunk, "choices");
  JsonObject *usage = steward_provider_json_object (chunk, "usage");
  const char *model = steward_provider_json_string (chunk, "model");

  if (failure != NULL || steward_provider_json_string (chunk, "error") != NULL)
    {
      const char *message = failure != NULL ? steward_provider_json_string (failure, "message")
                                            : steward_provider_json_string (chunk, "error");

      *error = steward_provider_chat_stream_error (chat, STEWARD_PROVIDER_ERROR_SERVER, message);
      return FALSE;
    }

  if (answer->model == NULL && model != NULL && model[0] != '\0')
    answer->model = g_strdup (model);

  for (guint i = 0; choices != NULL && i < json_array_get_length (choices); i++)
    {
      JsonNode *node = json_array_get_element (choices, i);
      JsonObject *choice = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      JsonObject *delta = steward_provider_json_object (choice, whole ? "message" : "delta");
      const char *content = steward_provider_json_string (delta, "content");
      JsonArray *tool_calls = steward_provider_json_array (delta, "tool_calls");
      const char *finish_reason = steward_provider_json_string (choice, "finish_reason");

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
  g_autoptr(GError) parse_error = NULL;

  if (event->data_length == 6 && memcmp (event->data, "[DONE]", 6) == 0)
    {
      *done = TRUE;
      return TRUE;
    }

  chunk = steward_provider_json_parse_object (event->data, event->data_length, &parse_error);
  if (chunk == NULL)
    {
      g_autofree char *why = steward_provider_clean_text (parse_error->message, NULL);

      *error = g_error_new (STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_BAD_RESPONSE,
                            _("“%s” sent an event that is not a JSON object: %s"),
                            steward_provider_chat_get_name (chat), why);
      return FALSE;
    }

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
      g_set_error (error, STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_NETWORK,
                   _("The answer from “%s” broke off before it was complete."),
                   steward_provider_chat_get_name (chat));
      return NULL;
    }

  if (!complete_calls (chat, answer, error))
    return NULL;

  if (answer->text->len > 0 || answer->calls->len == 0)
    {
      JsonObject *block = json_object_new ();

      json_object_set_string_member (block, "type", "text");
      json_object_set_string_member (block, "text", answer->text->str);
      json_array_add_object_element (content, block);
    }

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
  .new_message = openai_new_message,
  .state_new = answer_new,
  .state_free = answer_free,
  .event = openai_event,
  .reply = openai_reply,
  .answer = openai_answer,
};

/* StewardProvider */

static const char *
steward_openai_provider_get_id (StewardProvider *provider)
{
  return STEWARD_OPENAI_PROVIDER (provider)->id;
}

static const char *
steward_openai_provider_get_display_name (StewardProvider *provider)
{
  return STEWARD_OPENAI_PROVIDER (provider)->name;
}

static gboolean
steward_openai_provider_is_local (StewardProvider *provider)
{
  return steward_provider_url_is_loopback (STEWARD_OPENAI_PROVIDER (provider)->base_url);
}

static void
steward_openai_provider_chat_async (StewardProvider          *provider,
                                    JsonObject               *request,
                                    StewardProviderEventFunc  event_func,
                                    gpointer                  event_data,
                                    GDestroyNotify            event_destroy,
                                    GCancellable             *cancellable,
                                    GAsyncReadyCallback       callback,
                                    gpointer                  user_data)
{
  StewardOpenaiProvider *self = STEWARD_OPENAI_PROVIDER (provider);

  steward_provider_chat_run_async (provider, &openai_wire, self->session, self->secrets,
                                   self->key_id, request, event_func, event_data, event_destroy,
                                   cancellable, callback, user_data);
}

static JsonObject *
steward_openai_provider_chat_finish (StewardProvider  *provider,
                                     GAsyncResult     *result,
                                     GError          **error)
{
  return steward_provider_chat_run_finish (provider, result, error);
}

/* Listing models */

typedef struct {
  char     *key;
  gboolean  tried_tags;
  GError   *first_error;
} ListData;

static void
list_data_free (ListData *data)
{
  g_clear_pointer (&data->key, steward_secret_value_free);
  g_clear_error (&data->first_error);
  g_free (data);
}

static void
add_model_name (GPtrArray  *names,
                const char *name)
{
  if (name == NULL || name[0] == '\0' || strlen (name) > MAX_MODEL_NAME ||
      !g_utf8_validate (name, -1, NULL) || names->len >= MAX_MODELS)
    return;

  g_ptr_array_add (names, g_strdup (name));
}

/* {"data": [{"id"}…]} from /models, {"models": [{"name"}…]} from Ollama's
 * /api/tags. */
static GPtrArray *
parse_models (JsonNode   *reply,
              const char *list_member,
              const char *name_member)
{
  JsonObject *root = JSON_NODE_HOLDS_OBJECT (reply) ? json_node_get_object (reply) : NULL;
  JsonArray *list = steward_provider_json_array (root, list_member);
  GPtrArray *names;

  if (list == NULL)
    return NULL;

  names = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < json_array_get_length (list); i++)
    {
      JsonNode *node = json_array_get_element (list, i);
      JsonObject *entry = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;

      add_model_name (names, steward_provider_json_string (entry, name_member));
    }

  return names;
}

/* Ollama's own API lives beside /v1, at the server's root. */
static char *
tags_url (const char *base_url)
{
  g_autoptr(GUri) uri = NULL;

  if (g_str_has_suffix (base_url, "/v1"))
    return g_strdup_printf ("%.*s/api/tags", (int) (strlen (base_url) - 3), base_url);

  uri = g_uri_parse (base_url, G_URI_FLAGS_NONE, NULL);
  if (uri == NULL)
    return NULL;

  return g_uri_join (G_URI_FLAGS_NONE, g_uri_get_scheme (uri), NULL, g_uri_get_host (uri),
                     g_uri_get_port (uri), "/api/tags", NULL, NULL);
}

static void send_list_request (GTask      *task,
                               const char *url);

/* The key goes as soon as the list is in, whenever the caller lets go of
 * the result. */
static void
list_return (GTask     *task,
             GPtrArray *names,
             GError    *error)
{
  ListData *data = g_task_get_task_data (task);

  g_clear_pointer (&data->key, steward_secret_value_free);
  if (names != NULL)
    g_task_return_pointer (task, names, (GDestroyNotify) g_ptr_array_unref);
  else
    g_task_return_error (task, error);
}

static void
list_sent_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StewardOpenaiProvider *self = g_task_get_source_object (task);
  ListData *data = g_task_get_task_data (task);
  g_autoptr(JsonNode) reply = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *names;
  guint status = 0;

  reply = steward_provider_http_send_finish (result, &status, &error);
  if (reply == NULL)
    {
      g_autofree char *url = NULL;

      if (error == NULL)
        error = g_error_new (STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_BAD_RESPONSE,
                             _("“%s” answered the list of models with an event stream."),
                             self->name);

      /* Ollama may run on any port, and older ones have no /v1/models:
       * its own list is worth a try before giving up. */
      if (status == SOUP_STATUS_NOT_FOUND && !data->tried_tags &&
          (url = tags_url (self->base_url)) != NULL)
        {
          data->tried_tags = TRUE;
          data->first_error = g_steal_pointer (&error);
          send_list_request (task, url);
          return;
        }

      list_return (task, NULL, data->first_error != NULL ? g_steal_pointer (&data->first_error)
                                                         : g_steal_pointer (&error));
      return;
    }

  names = data->tried_tags ? parse_models (reply, "models", "name")
                           : parse_models (reply, "data", "id");
  if (names == NULL)
    {
      list_return (task, NULL,
                   g_error_new (STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_BAD_RESPONSE,
                                _("“%s” answered the list of models with something that is not "
                                  "one."), self->name));
      return;
    }

  list_return (task, names, NULL);
}

static void
send_list_request (GTask      *task,
                   const char *url)
{
  StewardOpenaiProvider *self = g_task_get_source_object (task);
  ListData *data = g_task_get_task_data (task);
  g_autoptr(SoupMessage) message = soup_message_new (SOUP_METHOD_GET, url);
  StewardProviderHttpOptions options = { 0 };

  if (message == NULL)
    {
      g_autofree char *shown = steward_provider_clean_text (url, NULL);

      list_return (task, NULL,
                   g_error_new (STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_NETWORK,
                                _("“%s” has a base URL Steward cannot use (%s). Correct it in "
                                  "Preferences → Providers."), self->name, shown));
      return;
    }

  soup_message_headers_replace (soup_message_get_request_headers (message), "Accept",
                                "application/json");
  if (data->key != NULL)
    {
      char *value = g_strconcat ("Bearer ", data->key, NULL);

      soup_message_headers_replace (soup_message_get_request_headers (message),
                                    "Authorization", value);
      steward_secret_value_free (value);
    }

  options.name = self->name;
  options.secret = data->key;
  options.timeout_s = STEWARD_PROVIDER_LIST_TIMEOUT_S;
  steward_provider_http_send_async (self->session, message, &options,
                                    g_task_get_cancellable (task), list_sent_cb,
                                    g_object_ref (task));
}

static void
list_key_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StewardOpenaiProvider *self = g_task_get_source_object (task);
  ListData *data = g_task_get_task_data (task);
  g_autofree char *url = NULL;
  GError *error = NULL;

  data->key = steward_provider_lookup_key_finish (result, &error);
  if (error != NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  url = g_strconcat (self->base_url, "/models", NULL);
  send_list_request (task, url);
}

static void
steward_openai_provider_list_models_async (StewardProvider     *provider,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data)
{
  StewardOpenaiProvider *self = STEWARD_OPENAI_PROVIDER (provider);
  g_autoptr(GTask) task = NULL;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_openai_provider_list_models_async);
  g_task_set_task_data (task, g_new0 (ListData, 1), (GDestroyNotify) list_data_free);

  steward_provider_lookup_key_async (self->secrets, self->key_id, self->name, cancellable,
                                     list_key_cb, g_steal_pointer (&task));
}

static GPtrArray *
steward_openai_provider_list_models_finish (StewardProvider  *provider,
                                            GAsyncResult     *result,
                                            GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, provider), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        steward_openai_provider_list_models_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
steward_openai_provider_iface_init (StewardProviderInterface *iface)
{
  iface->get_id = steward_openai_provider_get_id;
  iface->get_display_name = steward_openai_provider_get_display_name;
  iface->is_local = steward_openai_provider_is_local;
  iface->list_models_async = steward_openai_provider_list_models_async;
  iface->list_models_finish = steward_openai_provider_list_models_finish;
  iface->chat_async = steward_openai_provider_chat_async;
  iface->chat_finish = steward_openai_provider_chat_finish;
}

/* GObject */

static void
steward_openai_provider_dispose (GObject *object)
{
  StewardOpenaiProvider *self = STEWARD_OPENAI_PROVIDER (object);

  if (self->session != NULL)
    soup_session_abort (self->session);
  g_clear_object (&self->session);
  g_clear_object (&self->secrets);

  G_OBJECT_CLASS (steward_openai_provider_parent_class)->dispose (object);
}

static void
steward_openai_provider_finalize (GObject *object)
{
  StewardOpenaiProvider *self = STEWARD_OPENAI_PROVIDER (object);

  g_free (self->id);
  g_free (self->name);
  g_free (self->base_url);
  g_free (self->key_id);

  G_OBJECT_CLASS (steward_openai_provider_parent_class)->finalize (object);
}

static void
steward_openai_provider_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  StewardOpenaiProvider *self = STEWARD_OPENAI_PROVIDER (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_string (value, self->id);
      break;
    case PROP_DISPLAY_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_BASE_URL:
      g_value_set_string (value, self->base_url);
      break;
    case PROP_KEY_ID:
      g_value_set_string (value, self->key_id);
      break;
    case PROP_SECRETS:
      g_value_set_object (value, self->secrets);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_openai_provider_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  StewardOpenaiProvider *self = STEWARD_OPENAI_PROVIDER (object);

  switch (prop_id)
    {
    case PROP_ID:
      self->id = g_value_dup_string (value);
      break;
    case PROP_DISPLAY_NAME:
      self->name = g_value_dup_string (value);
      break;
    case PROP_BASE_URL:
      {
        const char *url = g_value_get_string (value);
        gsize length = url != NULL ? strlen (url) : 0;

        /* "…/v1/" and "…/v1" are the same base. */
        while (length > 0 && url[length - 1] == '/')
          length--;
        self->base_url = g_strndup (url != NULL ? url : "", length);
      }
      break;
    case PROP_KEY_ID:
      self->key_id = g_value_dup_string (value);
      break;
    case PROP_SECRETS:
      self->secrets = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_openai_provider_class_init (StewardOpenaiProviderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = steward_openai_provider_dispose;
  object_class->finalize = steward_openai_provider_finalize;
  object_class->get_property = steward_openai_provider_get_property;
  object_class->set_property = steward_openai_provider_set_property;

  properties[PROP_ID] =
    g_param_spec_string ("id", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_DISPLAY_NAME] =
    g_param_spec_string ("display-name", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BASE_URL] =
    g_param_spec_string ("base-url", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_KEY_ID] =
    g_param_spec_string ("key-id", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SECRETS] =
    g_param_spec_object ("secrets", NULL, NULL, STEWARD_TYPE_SECRETS,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
steward_openai_provider_init (StewardOpenaiProvider *self)
{
  self->session = steward_provider_session_new ();
}

/* Public API */

/**
 * steward_openai_provider_new:
 * @id: the provider's id, such as "ollama"
 * @name: what a person calls it, such as "Ollama"
 * @base_url: such as http://localhost:11434/v1
 * @key_id: (nullable): the keyring id of its API key
 * @secrets: (nullable): the keyring; needed when @key_id is set
 */
StewardOpenaiProvider *
steward_openai_provider_new (const char     *id,
                             const char     *name,
                             const char     *base_url,
                             const char     *key_id,
                             StewardSecrets *secrets)
{
  g_return_val_if_fail (id != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (base_url != NULL, NULL);
  g_return_val_if_fail (secrets == NULL || STEWARD_IS_SECRETS (secrets), NULL);

  return g_object_new (STEWARD_TYPE_OPENAI_PROVIDER,
                       "id", id,
                       "display-name", name,
                       "base-url", base_url,
                       "key-id", key_id,
                       "secrets", secrets,
                       NULL);
}

const char *
steward_openai_provider_get_base_url (StewardOpenaiProvider *self)
{
  g_return_val_if_fail (STEWARD_IS_OPENAI_PROVIDER (self), NULL);

  return self->base_url;
}

const char *
steward_openai_provider_get_key_id (StewardOpenaiProvider *self)
{
  g_return_val_if_fail (STEWARD_IS_OPENAI_PROVIDER (self), NULL);

  return self->key_id;
}

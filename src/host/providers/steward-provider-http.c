/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-provider"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mcp-json.h"
#include "steward-json-copy.h"
#include "steward-redactor.h"
#include "steward-text.h"
#include "steward-provider-private.h"

/*
 * The parts of talking to an LLM over HTTP that do not depend on the wire
 * format. Every failure ends in a StewardProviderError whose message says
 * which provider, what happened and where to fix it; text the provider
 * sent back is redacted, stripped of hidden characters and capped before
 * it reaches a message, and the key that was sent is scrubbed from it
 * whatever it looks like.
 */

#define READ_CHUNK (16 * 1024)

/* JSON */


gint64
steward_provider_json_count (JsonObject *object,
                             const char *member)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;
  GType type;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return -1;

  type = json_node_get_value_type (node);
  if (type == G_TYPE_INT64)
    return MAX (json_node_get_int (node), -1);
  if (type == G_TYPE_DOUBLE)
    {
      double value = json_node_get_double (node);

      if (value >= 0 && value < (double) G_MAXINT64)
        return (gint64) value;
    }

  return -1;
}

JsonObject *
steward_provider_json_parse_object (const char  *data,
                                    gsize        length,
                                    GError     **error)
{
  g_autoptr(JsonNode) node = mcp_json_parse (data, length, error);

  if (node == NULL)
    return NULL;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error_literal (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA,
                           _("the JSON is not an object"));
      return NULL;
    }

  return json_object_ref (json_node_get_object (node));
}

JsonArray *
steward_provider_dup_content (JsonObject *message)
{
  JsonNode *content = message != NULL ? json_object_get_member (message, "content") : NULL;
  JsonArray *array;

  if (content == NULL)
    return NULL;

  if (JSON_NODE_HOLDS_ARRAY (content))
    return json_array_ref (json_node_get_array (content));

  if (!JSON_NODE_HOLDS_OBJECT (content))
    return NULL;

  array = json_array_new ();
  json_array_add_object_element (array, json_object_ref (json_node_get_object (content)));
  return array;
}

JsonObject *
steward_provider_text_block (const char *text)
{
  JsonObject *block = json_object_new ();

  json_object_set_string_member (block, "type", "text");
  json_object_set_string_member (block, "text", text);
  return block;
}

JsonObject *
steward_provider_answer_new (JsonArray  *content,
                             const char *model,
                             const char *stop_reason,
                             gint64      input_tokens,
                             gint64      output_tokens)
{
  JsonObject *answer = json_object_new ();

  json_object_set_string_member (answer, "role", "assistant");
  json_object_set_array_member (answer, "content", json_array_ref (content));
  json_object_set_string_member (answer, "model", model != NULL ? model : "");
  json_object_set_string_member (answer, "stopReason", stop_reason != NULL ? stop_reason
                                                                           : "endTurn");

  if (input_tokens >= 0 || output_tokens >= 0)
    {
      JsonObject *usage = json_object_new ();

      json_object_set_int_member (usage, "inputTokens", MAX (input_tokens, 0));
      json_object_set_int_member (usage, "outputTokens", MAX (output_tokens, 0));
      json_object_set_object_member (answer, "usage", usage);
    }

  return answer;
}

JsonNode *
steward_provider_parse_tool_input (const char  *arguments,
                                   gsize        length,
                                   const char  *tool,
                                   gboolean     truncated,
                                   GError     **error)
{
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *shown = steward_text_make_visible (tool);
  gsize start = 0;

  /* No arguments at all is how some servers call a tool without any. */
  while (start < length && g_ascii_isspace (arguments[start]))
    start++;
  if (start == length)
    return json_node_init_object (json_node_alloc (), json_object_new ());

  node = mcp_json_parse (arguments + start, length - start, NULL);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      if (truncated)
        g_set_error (error, STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_BAD_RESPONSE,
                     _("The model’s call to the tool “%s” was cut off at the answer’s token "
                       "limit, so its arguments are incomplete. Raise the limit and try "
                       "again."), shown);
      else
        g_set_error (error, STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_BAD_RESPONSE,
                     _("The model called the tool “%s” with arguments that are not a JSON "
                       "object."), shown);
      return NULL;
    }

  return g_steal_pointer (&node);
}

/* Text for messages */

static void
scrub (GString    *text,
       const char *secret)
{
  gsize secret_length;
  char *found;
  gsize from = 0;

  if (secret == NULL || secret[0] == '\0')
    return;

  secret_length = strlen (secret);
  while (from < text->len &&
         (found = g_strstr_len (text->str + from, text->len - from, secret)) != NULL)
    {
      gsize at = found - text->str;

      g_string_erase (text, at, secret_length);
      g_string_insert (text, at, "[redacted]");
      from = at + strlen ("[redacted]");
    }
}

char *
steward_provider_clean_text (const char *text,
                             const char *secret)
{
  g_autoptr(GString) scrubbed = NULL;
  g_autofree char *redacted = NULL;
  g_autofree char *valid = NULL;
  g_autoptr(GString) flat = NULL;
  const char *end;
  char *p;

  if (text == NULL)
    return NULL;

  scrubbed = g_string_new (text);
  scrub (scrubbed, secret);
  redacted = steward_redact (scrubbed->str);
  valid = g_utf8_make_valid (redacted, -1);
  g_strstrip (valid);

  /* One line of at most the cap, cut between characters. */
  end = valid;
  while (*end != '\0' &&
         (gsize) (g_utf8_next_char (end) - valid) <= STEWARD_PROVIDER_ERROR_TEXT_MAX)
    end = g_utf8_next_char (end);

  flat = g_string_new_len (valid, end - valid);
  for (p = flat->str; *p != '\0'; p++)
    if (*p == '\n' || *p == '\r' || *p == '\t')
      *p = ' ';
  if (*end != '\0')
    g_string_append (flat, "…");

  if (flat->len == 0)
    return NULL;

  return steward_text_make_visible (flat->str);
}

/* What a provider says in an error body: OpenAI, vLLM, Ollama and
 * Anthropic each put it somewhere slightly different. */
static const char *
find_error_text (JsonObject *root)
{
  JsonObject *error = mcp_json_get_object (root, "error");
  const char *text;

  if (error != NULL && (text = mcp_json_get_string (error, "message")) != NULL)
    return text;
  if ((text = mcp_json_get_string (root, "error")) != NULL)
    return text;
  if ((text = mcp_json_get_string (root, "message")) != NULL)
    return text;
  return mcp_json_get_string (root, "detail");
}

char *
steward_provider_describe_error_body (const char *body,
                                      gsize       length,
                                      const char *secret)
{
  g_autoptr(JsonObject) root = NULL;
  g_autofree char *plain = NULL;

  if (body == NULL || length == 0)
    return NULL;

  root = steward_provider_json_parse_object (body, length, NULL);
  if (root != NULL)
    return steward_provider_clean_text (find_error_text (root), secret);

  /* A page of HTML says nothing a person can use. */
  if (length > 0 && body[0] == '<')
    return NULL;

  plain = g_strndup (body, length);
  return steward_provider_clean_text (plain, secret);
}

char *
steward_provider_url_for_display (const char *url)
{
  g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);

  if (uri == NULL)
    return steward_provider_clean_text (url, NULL);

  return g_uri_to_string_partial (uri, G_URI_HIDE_USERINFO | G_URI_HIDE_QUERY |
                                       G_URI_HIDE_FRAGMENT);
}

gboolean
steward_provider_url_is_loopback (const char *url)
{
  g_autoptr(GUri) uri = url != NULL ? g_uri_parse (url, G_URI_FLAGS_NONE, NULL) : NULL;
  g_autoptr(GInetAddress) address = NULL;
  const char *host;

  if (uri == NULL || (host = g_uri_get_host (uri)) == NULL)
    return FALSE;

  if (g_ascii_strcasecmp (host, "localhost") == 0)
    return TRUE;

  address = g_inet_address_new_from_string (host);
  return address != NULL && g_inet_address_get_is_loopback (address);
}

char *
steward_provider_normalize_url (const char  *url,
                                GError     **error)
{
  g_autoptr(GUri) uri = NULL;
  g_autofree char *trimmed = NULL;
  const char *scheme;
  gsize length;

  if (url == NULL || url[0] == '\0')
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("The base URL is empty. Enter one such as "
                             "http://localhost:11434/v1."));
      return NULL;
    }

  trimmed = g_strstrip (g_strdup (url));
  uri = g_uri_parse (trimmed, G_URI_FLAGS_NONE, NULL);
  scheme = uri != NULL ? g_uri_get_scheme (uri) : NULL;
  if (scheme == NULL || (g_ascii_strcasecmp (scheme, "http") != 0 &&
                         g_ascii_strcasecmp (scheme, "https") != 0) ||
      g_uri_get_host (uri) == NULL || g_uri_get_host (uri)[0] == '\0')
    {
      g_autofree char *shown = steward_provider_clean_text (trimmed, NULL);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("“%s” is not an http or https URL. Enter one such as "
                     "http://localhost:11434/v1."), shown);
      return NULL;
    }

  length = strlen (trimmed);
  while (length > 0 && trimmed[length - 1] == '/')
    trimmed[--length] = '\0';

  return g_steal_pointer (&trimmed);
}

/* Errors */

static char *
join_sentences (const char *first,
                const char *detail,
                const char *advice)
{
  GString *out = g_string_new (first);

  if (detail != NULL)
    {
      g_string_append_c (out, ' ');
      /* Translators: what the provider itself said about an error. */
      g_string_append_printf (out, _("It said: “%s”."), detail);
    }
  if (advice != NULL)
    {
      g_string_append_c (out, ' ');
      g_string_append (out, advice);
    }

  return g_string_free (out, FALSE);
}

/* Retry-After in seconds or as a date, or -1. */
static gint64
parse_retry_after (SoupMessageHeaders *headers)
{
  const char *value;
  guint64 number;

  if (headers == NULL)
    return -1;

  value = soup_message_headers_get_one (headers, "Retry-After");
  if (value != NULL)
    {
      g_autofree char *trimmed = g_strstrip (g_strdup (value));
      g_autoptr(GDateTime) date = NULL;

      if (g_ascii_string_to_unsigned (trimmed, 10, 0, G_MAXINT32, &number, NULL))
        return (gint64) number;

      date = soup_date_time_new_from_http_string (trimmed);
      if (date != NULL)
        {
          g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
          GTimeSpan span = g_date_time_difference (date, now);

          return span <= 0 ? 0 : (span + G_TIME_SPAN_SECOND - 1) / G_TIME_SPAN_SECOND;
        }
    }

  value = soup_message_headers_get_one (headers, "Retry-After-Ms");
  if (value != NULL && g_ascii_string_to_unsigned (value, 10, 0, G_MAXINT32, &number, NULL))
    return (gint64) ((number + 999) / 1000);

  return -1;
}

static gboolean
mentions_missing_model (JsonObject *root,
                        gboolean    any_mention)
{
  JsonObject *error = mcp_json_get_object (root, "error");
  const char *code = mcp_json_get_string (error, "code");
  const char *type = mcp_json_get_string (error, "type");
  const char *text = find_error_text (root);
  g_autofree char *lower = NULL;

  if (g_strcmp0 (code, "model_not_found") == 0 || g_strcmp0 (type, "not_found_error") == 0)
    return TRUE;
  if (text == NULL)
    return FALSE;

  lower = g_ascii_strdown (text, -1);
  if (strstr (lower, "model") == NULL)
    return FALSE;

  return any_mention ||
         strstr (lower, "not found") != NULL ||
         strstr (lower, "does not exist") != NULL ||
         strstr (lower, "not exist") != NULL ||
         strstr (lower, "unknown model") != NULL;
}

GError *
steward_provider_error_for_status (const char         *name,
                                   const char         *model,
                                   gboolean            had_key,
                                   guint               status,
                                   SoupMessageHeaders *headers,
                                   const char         *body,
                                   gsize               length,
                                   const char         *secret)
{
  g_autofree char *detail = steward_provider_describe_error_body (body, length, secret);
  g_autoptr(JsonObject) root = body != NULL && length > 0
                               ? steward_provider_json_parse_object (body, length, NULL) : NULL;
  g_autofree char *first = NULL;
  g_autofree char *advice = NULL;
  g_autofree char *shown_model = model != NULL ? steward_text_make_visible (model) : NULL;
  g_autofree char *text = NULL;
  StewardProviderError code;

  if (status == SOUP_STATUS_UNAUTHORIZED || status == SOUP_STATUS_FORBIDDEN)
    {
      code = STEWARD_PROVIDER_ERROR_UNAUTHORIZED;
      if (had_key)
        {
          first = g_strdup_printf (_("The API key for “%s” was refused (HTTP %u)."), name, status);
          advice = g_strdup (_("Replace it in Preferences → Providers."));
        }
      else
        {
          first = g_strdup_printf (_("“%s” asks for an API key (HTTP %u)."), name, status);
          advice = g_strdup (_("Add one in Preferences → Providers."));
        }
    }
  else if (status == 429)
    {
      gint64 seconds = parse_retry_after (headers);

      code = STEWARD_PROVIDER_ERROR_RATE_LIMITED;
      first = g_strdup_printf (_("“%s” is limiting how many requests it takes (HTTP 429)."), name);
      if (seconds >= 0)
        advice = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                               "Try again in %u second.",
                                               "Try again in %u seconds.",
                                               (gulong) seconds),
                                  (guint) seconds);
      else
        advice = g_strdup (_("Try again later."));
    }
  else if (shown_model != NULL && root != NULL &&
           (status == SOUP_STATUS_NOT_FOUND || (status >= 400 && status < 500)) &&
           mentions_missing_model (root, status == SOUP_STATUS_NOT_FOUND))
    {
      code = STEWARD_PROVIDER_ERROR_MODEL_NOT_FOUND;
      first = g_strdup_printf (_("“%s” does not have the model “%s” (HTTP %u)."),
                               name, shown_model, status);
      advice = g_strdup (_("Choose another model, or install this one where the provider "
                           "runs."));
    }
  else if (status == SOUP_STATUS_NOT_FOUND)
    {
      code = STEWARD_PROVIDER_ERROR_BAD_RESPONSE;
      first = g_strdup_printf (_("“%s” has nothing at the address Steward asked (HTTP 404)."),
                               name);
      advice = g_strdup (_("Check its base URL in Preferences → Providers."));
    }
  else if (status >= 400 && status < 500)
    {
      code = STEWARD_PROVIDER_ERROR_REFUSED;
      first = g_strdup_printf (_("“%s” refused the request (HTTP %u)."), name, status);
    }
  else if (status >= 500 && status < 600)
    {
      code = STEWARD_PROVIDER_ERROR_SERVER;
      first = g_strdup_printf (_("“%s” failed with a server error (HTTP %u)."), name, status);
      advice = g_strdup (_("Try again in a while."));
    }
  else if (status >= 300 && status < 400)
    {
      code = STEWARD_PROVIDER_ERROR_BAD_RESPONSE;
      first = g_strdup_printf (_("“%s” answered with a redirect (HTTP %u) instead of an "
                                 "answer."), name, status);
      advice = g_strdup (_("Set its base URL to where it points in Preferences → Providers."));
      g_clear_pointer (&detail, g_free);
    }
  else
    {
      code = STEWARD_PROVIDER_ERROR_BAD_RESPONSE;
      first = g_strdup_printf (_("“%s” answered with HTTP %u, which Steward does not "
                                 "understand."), name, status);
    }

  text = join_sentences (first, detail, advice);
  return g_error_new_literal (STEWARD_PROVIDER_ERROR, code, text);
}

static GError *
error_for_io (const char   *name,
              const char   *url,
              const GError *error,
              gboolean      started)
{
  g_autofree char *shown_url = steward_provider_url_for_display (url);
  g_autofree char *why = steward_provider_clean_text (error->message, NULL);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return g_error_copy (error);

  if (started)
    return g_error_new (STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_NETWORK,
                        _("The answer from “%s” broke off: %s"), name, why);

  return g_error_new (STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_NETWORK,
                      _("Could not reach “%s” at %s: %s. Check that it is running and that "
                        "its base URL in Preferences → Providers is right."),
                      name, shown_url, why);
}

/* The key */

static void
lookup_key_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  const char *name = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  char *value;

  value = steward_secrets_lookup_finish (STEWARD_SECRETS (object), result, &error);
  if (value != NULL)
    {
      g_task_return_pointer (task, value, (GDestroyNotify) steward_secret_value_free);
      return;
    }

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_task_return_error (task, g_steal_pointer (&error));
  else if (g_error_matches (error, STEWARD_SECRETS_ERROR, STEWARD_SECRETS_ERROR_NOT_FOUND))
    g_task_return_new_error (task, STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_NO_KEY,
                             _("No API key for “%s” is in the keyring. Add one in "
                               "Preferences → Providers."), name);
  else
    g_task_return_new_error (task, STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_NO_KEY,
                             _("The API key for “%s” could not be read: %s"),
                             name, error->message);
}

void
steward_provider_lookup_key_async (StewardSecrets      *secrets,
                                   const char          *key_id,
                                   const char          *name,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);

  g_task_set_source_tag (task, steward_provider_lookup_key_async);
  g_task_set_task_data (task, g_strdup (name), g_free);

  if (key_id == NULL)
    {
      g_task_return_pointer (task, NULL, NULL);
      return;
    }

  if (secrets == NULL)
    {
      g_task_return_new_error (task, STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_NO_KEY,
                               _("The API key for “%s” could not be read: there is no "
                                 "keyring."), name);
      return;
    }

  steward_secrets_lookup_async (secrets, key_id, cancellable, lookup_key_cb,
                                g_steal_pointer (&task));
}

char *
steward_provider_lookup_key_finish (GAsyncResult  *result,
                                    GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        steward_provider_lookup_key_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

SoupSession *
steward_provider_session_new (void)
{
  return g_object_new (SOUP_TYPE_SESSION,
                       "timeout", STEWARD_PROVIDER_IO_TIMEOUT_S,
                       "user-agent", "Steward/" PACKAGE_VERSION,
                       NULL);
}

/* Sending */

typedef enum {
  READ_NONE,
  READ_JSON,
  READ_SSE,
  READ_ERROR,
} ReadMode;

typedef struct {
  SoupMessage              *message;
  GInputStream             *body;
  GCancellable             *cancellable;       /* ours: the caller's and the deadline cancel it */
  GCancellable             *caller_cancellable;
  gulong                    cancelled_id;
  guint                     deadline_id;
  gboolean                  timed_out;
  gboolean                  at_eof;
  char                     *name;
  char                     *model;
  char                     *secret;
  char                     *url;
  guint                     timeout_s;
  StewardProviderEventHook  hook;
  gpointer                  hook_data;
  McpSseParser             *parser;
  GByteArray               *data;
  gsize                     total;
  guint                     status;
  ReadMode                  mode;
  GError                   *hook_error;
  gboolean                  done;
} Send;

static void
send_free (Send *send)
{
  if (send->cancelled_id != 0)
    g_cancellable_disconnect (send->caller_cancellable, send->cancelled_id);
  g_clear_handle_id (&send->deadline_id, g_source_remove);

  if (send->body != NULL)
    {
      /* Closing a reply that was not read to its end must not wait for the
       * rest of it (a slow stream would hold the main loop): cancelled
       * first, libsoup drops the connection instead. */
      if (!send->at_eof)
        g_cancellable_cancel (send->cancellable);
      g_input_stream_close (send->body, send->at_eof ? NULL : send->cancellable, NULL);
      g_clear_object (&send->body);
    }

  g_clear_object (&send->message);
  g_clear_object (&send->cancellable);
  g_clear_object (&send->caller_cancellable);
  g_free (send->name);
  g_free (send->model);
  g_clear_pointer (&send->secret, steward_secret_value_free);
  g_free (send->url);
  g_clear_pointer (&send->parser, mcp_sse_parser_free);
  g_clear_pointer (&send->data, g_byte_array_unref);
  g_clear_error (&send->hook_error);
  g_free (send);
}

static void
caller_cancelled_cb (GCancellable *cancellable,
                     gpointer      user_data)
{
  GCancellable *ours = user_data;

  g_cancellable_cancel (ours);
}

static gboolean
deadline_cb (gpointer user_data)
{
  Send *send = user_data;

  send->deadline_id = 0;
  send->timed_out = TRUE;
  g_cancellable_cancel (send->cancellable);

  return G_SOURCE_REMOVE;
}

/* An error from an operation of ours: the deadline or the caller
 * cancelled it, or the network failed. */
static GError *
send_error (Send         *send,
            const GError *error,
            gboolean      started)
{
  if (send->timed_out)
    return g_error_new (STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_NETWORK,
                        g_dngettext (GETTEXT_PACKAGE,
                                     "“%s” did not answer within %u second.",
                                     "“%s” did not answer within %u seconds.",
                                     send->timeout_s),
                        send->name, send->timeout_s);

  if (error == NULL || g_cancellable_is_cancelled (send->caller_cancellable))
    return g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Cancelled"));

  return error_for_io (send->name, send->url, error, started);
}

static GError *
too_large_error (Send       *send,
                 gsize       limit,
                 gboolean    one_event)
{
  g_autofree char *size = g_format_size_full (limit, G_FORMAT_SIZE_IEC_UNITS);

  if (one_event)
    return g_error_new (STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_BAD_RESPONSE,
                        _("“%s” sent one event larger than %s, so Steward stopped reading "
                          "the answer."), send->name, size);

  return g_error_new (STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_BAD_RESPONSE,
                      _("The answer from “%s” is larger than %s, so Steward stopped "
                        "reading it."), send->name, size);
}

static void read_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data);

static void
read_next (GTask *task)
{
  Send *send = g_task_get_task_data (task);

  g_input_stream_read_bytes_async (send->body, READ_CHUNK, G_PRIORITY_DEFAULT,
                                   send->cancellable, read_cb, g_object_ref (task));
}

static void
sse_event_cb (const McpSseEvent *event,
              gpointer           user_data)
{
  Send *send = user_data;

  /* A caller that cancelled, perhaps from the previous event, hears
   * nothing more, even from the rest of the chunk at hand. */
  if (send->done || send->hook_error != NULL || g_cancellable_is_cancelled (send->cancellable))
    return;

  if (!send->hook (event, &send->done, send->hook_data, &send->hook_error) &&
      send->hook_error == NULL)
    send->hook_error = g_error_new (STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_BAD_RESPONSE,
                                    _("“%s” sent an answer Steward cannot read."), send->name);
}

static void
finish_json (GTask *task)
{
  Send *send = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;

  node = mcp_json_parse ((const char *) send->data->data, send->data->len, &error);
  if (node == NULL)
    {
      g_autofree char *why = steward_provider_clean_text (error->message, NULL);

      g_task_return_new_error (task, STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_BAD_RESPONSE,
                               _("“%s” answered with something that is not JSON: %s"),
                               send->name, why);
      return;
    }

  g_task_return_pointer (task, g_steal_pointer (&node), (GDestroyNotify) json_node_unref);
}

static void
finish_refusal (GTask *task)
{
  Send *send = g_task_get_task_data (task);
  SoupMessageHeaders *headers = soup_message_get_response_headers (send->message);

  g_task_return_error (task,
                       steward_provider_error_for_status (send->name, send->model,
                                                          send->secret != NULL, send->status,
                                                          headers,
                                                          (const char *) send->data->data,
                                                          send->data->len, send->secret));
}

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Send *send = g_task_get_task_data (task);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  const char *data;
  gsize length;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error);
  if (bytes == NULL)
    {
      /* A refusal cut short still says what it was. */
      if (send->mode == READ_ERROR && !g_cancellable_is_cancelled (send->cancellable))
        finish_refusal (task);
      else
        g_task_return_error (task, send_error (send, error, TRUE));
      return;
    }

  data = g_bytes_get_data (bytes, &length);
  if (length == 0)
    {
      send->at_eof = TRUE;
      switch (send->mode)
        {
        case READ_JSON:
          finish_json (task);
          break;
        case READ_ERROR:
          finish_refusal (task);
          break;
        case READ_SSE:
          mcp_sse_parser_finish (send->parser);
          g_task_return_pointer (task, NULL, NULL);
          break;
        case READ_NONE:
        default:
          g_assert_not_reached ();
        }
      return;
    }

  switch (send->mode)
    {
    case READ_JSON:
      if (length > STEWARD_PROVIDER_ANSWER_MAX - send->data->len)
        {
          g_task_return_error (task, too_large_error (send, STEWARD_PROVIDER_ANSWER_MAX, FALSE));
          return;
        }
      g_byte_array_append (send->data, (const guint8 *) data, length);
      break;

    case READ_ERROR:
      g_byte_array_append (send->data, (const guint8 *) data,
                           MIN (length, STEWARD_PROVIDER_ERROR_BODY_MAX - send->data->len));
      if (send->data->len >= STEWARD_PROVIDER_ERROR_BODY_MAX)
        {
          finish_refusal (task);
          return;
        }
      break;

    case READ_SSE:
      if (length > STEWARD_PROVIDER_ANSWER_MAX - send->total)
        {
          g_task_return_error (task, too_large_error (send, STEWARD_PROVIDER_ANSWER_MAX, FALSE));
          return;
        }
      send->total += length;

      if (!mcp_sse_parser_push (send->parser, data, length, sse_event_cb, send, NULL))
        {
          g_task_return_error (task, too_large_error (send, STEWARD_PROVIDER_EVENT_MAX, TRUE));
          return;
        }
      if (send->hook_error != NULL)
        {
          g_task_return_error (task, g_steal_pointer (&send->hook_error));
          return;
        }
      if (g_cancellable_is_cancelled (send->cancellable))
        {
          g_task_return_error (task, send_error (send, NULL, TRUE));
          return;
        }
      if (send->done)
        {
          g_task_return_pointer (task, NULL, NULL);
          return;
        }
      break;

    case READ_NONE:
    default:
      g_assert_not_reached ();
    }

  read_next (task);
}

static gboolean
is_event_stream (SoupMessage *message)
{
  SoupMessageHeaders *headers = soup_message_get_response_headers (message);
  const char *type = soup_message_headers_get_content_type (headers, NULL);

  return type != NULL && g_ascii_strcasecmp (type, "text/event-stream") == 0;
}

static void
sent_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Send *send = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  SoupMessageHeaders *headers;

  send->body = soup_session_send_finish (SOUP_SESSION (object), result, &error);
  if (send->body == NULL)
    {
      g_task_return_error (task, send_error (send, error, FALSE));
      return;
    }

  send->status = soup_message_get_status (send->message);
  headers = soup_message_get_response_headers (send->message);

  if (!SOUP_STATUS_IS_SUCCESSFUL (send->status))
    {
      send->mode = READ_ERROR;
      send->data = g_byte_array_sized_new (4096);
    }
  else if (send->hook != NULL && is_event_stream (send->message))
    {
      send->mode = READ_SSE;
      send->parser = mcp_sse_parser_new (STEWARD_PROVIDER_EVENT_MAX);
    }
  else
    {
      goffset declared = 0;

      /* A length declared past the cap fails before anything is read. */
      if (soup_message_headers_get_encoding (headers) == SOUP_ENCODING_CONTENT_LENGTH &&
          soup_message_headers_get_one (headers, "Content-Encoding") == NULL)
        declared = soup_message_headers_get_content_length (headers);
      if (declared > STEWARD_PROVIDER_ANSWER_MAX)
        {
          g_task_return_error (task, too_large_error (send, STEWARD_PROVIDER_ANSWER_MAX, FALSE));
          return;
        }

      send->mode = READ_JSON;
      send->data = g_byte_array_sized_new (declared > 0 ? (guint) declared : READ_CHUNK);
    }

  read_next (task);
}

void
steward_provider_http_send_async (SoupSession                      *session,
                                  SoupMessage                      *message,
                                  const StewardProviderHttpOptions *options,
                                  GCancellable                     *cancellable,
                                  GAsyncReadyCallback               callback,
                                  gpointer                          user_data)
{
  g_autoptr(GTask) task = NULL;
  Send *send;

  g_return_if_fail (SOUP_IS_SESSION (session));
  g_return_if_fail (SOUP_IS_MESSAGE (message));
  g_return_if_fail (options != NULL && options->name != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_provider_http_send_async);

  send = g_new0 (Send, 1);
  send->message = g_object_ref (message);
  send->cancellable = g_cancellable_new ();
  send->name = g_strdup (options->name);
  send->model = g_strdup (options->model);
  send->secret = g_strdup (options->secret);
  send->url = g_uri_to_string (soup_message_get_uri (message));
  send->timeout_s = options->timeout_s;
  send->hook = options->event_hook;
  send->hook_data = options->hook_data;
  g_task_set_task_data (task, send, (GDestroyNotify) send_free);

  if (cancellable != NULL)
    {
      send->caller_cancellable = g_object_ref (cancellable);
      /* Runs at once when already cancelled. */
      send->cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (caller_cancelled_cb),
                                                  g_object_ref (send->cancellable),
                                                  g_object_unref);
    }
  if (send->timeout_s > 0)
    send->deadline_id = g_timeout_add_seconds (send->timeout_s, deadline_cb, send);

  /* Credentials go to the configured address and nowhere else. */
  soup_message_add_flags (message, SOUP_MESSAGE_NO_REDIRECT);
  soup_session_send_async (session, message, G_PRIORITY_DEFAULT, send->cancellable, sent_cb,
                           g_steal_pointer (&task));
}

JsonNode *
steward_provider_http_send_finish (GAsyncResult  *result,
                                   guint         *status,
                                   GError       **error)
{
  Send *send;

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        steward_provider_http_send_async, NULL);

  send = g_task_get_task_data (G_TASK (result));
  if (status != NULL)
    *status = send->status;

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* The chat turn */

struct _StewardProviderChat
{
  const StewardProviderWire *wire;
  SoupSession               *session;
  StewardSecrets            *secrets;
  char                      *key_id;
  char                      *name;
  char                      *model;
  JsonObject                *request;
  char                      *key;
  gpointer                   state;
  StewardProviderEventFunc   event_func;
  gpointer                   event_data;
  GDestroyNotify             event_destroy;
  GCancellable              *cancellable;
  gboolean                   complete;
  gboolean                   finished;
};

static void
chat_free (StewardProviderChat *chat)
{
  if (chat->event_destroy != NULL)
    chat->event_destroy (chat->event_data);
  if (chat->state != NULL)
    chat->wire->state_free (chat->state);
  g_clear_object (&chat->session);
  g_clear_object (&chat->secrets);
  g_clear_object (&chat->cancellable);
  g_free (chat->key_id);
  g_free (chat->name);
  g_free (chat->model);
  g_clear_pointer (&chat->request, json_object_unref);
  g_clear_pointer (&chat->key, steward_secret_value_free);
  g_free (chat);
}

static void
build_body_thread (GTask        *task,
                   gpointer      source_object,
                   gpointer      task_data,
                   GCancellable *cancellable)
{
  StewardProviderChat *chat = task_data;
  g_autoptr(JsonNode) body = NULL;
  g_autoptr(JsonGenerator) generator = NULL;
  GError *error = NULL;
  char *data;
  gsize length;

  body = chat->wire->build_body (chat->request, chat->name, &error);
  if (body == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  generator = json_generator_new ();
  json_generator_set_root (generator, body);
  data = json_generator_to_data (generator, &length);
  g_task_return_pointer (task, g_bytes_new_take (data, length), (GDestroyNotify) g_bytes_unref);
}

static gboolean
chat_event_hook (const McpSseEvent  *event,
                 gboolean           *done,
                 gpointer            user_data,
                 GError            **error)
{
  StewardProviderChat *chat = user_data;

  if (!chat->wire->event (chat, chat->state, event, done, error))
    return FALSE;

  if (*done)
    chat->complete = TRUE;
  return TRUE;
}

static void
chat_return (GTask               *task,
             StewardProviderChat *chat,
             JsonObject          *answer,
             GError              *error)
{
  /* Nothing streams after the end, so the event data goes now rather
   * than whenever the caller drops the result. */
  chat->finished = TRUE;
  if (chat->event_destroy != NULL)
    g_clear_pointer (&chat->event_data, chat->event_destroy);
  chat->event_destroy = NULL;
  /* The key was kept this long only to scrub it from what came back. */
  g_clear_pointer (&chat->key, steward_secret_value_free);

  if (answer != NULL)
    g_task_return_pointer (task, answer, (GDestroyNotify) json_object_unref);
  else
    g_task_return_error (task, error);
}

static void
chat_sent_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StewardProviderChat *chat = g_task_get_task_data (task);
  g_autoptr(JsonNode) reply = NULL;
  GError *error = NULL;
  JsonObject *answer;

  reply = steward_provider_http_send_finish (result, NULL, &error);
  if (error != NULL)
    {
      chat_return (task, chat, NULL, error);
      return;
    }

  if (reply != NULL)
    {
      JsonObject *reply_error;

      if (!JSON_NODE_HOLDS_OBJECT (reply))
        {
          chat_return (task, chat, NULL,
                       g_error_new (STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_BAD_RESPONSE,
                                    _("“%s” answered with JSON that is not an answer."),
                                    chat->name));
          return;
        }

      /* Some servers say they failed in a 200 body. */
      reply_error = mcp_json_get_object (json_node_get_object (reply), "error");
      if (reply_error != NULL || mcp_json_get_string (json_node_get_object (reply),
                                                               "error") != NULL)
        {
          const char *text = find_error_text (json_node_get_object (reply));

          chat_return (task, chat, NULL,
                       steward_provider_chat_stream_error (chat, STEWARD_PROVIDER_ERROR_SERVER,
                                                           text));
          return;
        }

      if (!chat->wire->reply (chat, chat->state, json_node_get_object (reply), &error))
        {
          chat_return (task, chat, NULL, error);
          return;
        }
      chat->complete = TRUE;
    }

  answer = chat->wire->answer (chat, chat->state, chat->complete, &error);
  chat_return (task, chat, answer, error);
}

static void
body_built_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StewardProviderChat *chat = g_task_get_task_data (task);
  StewardProvider *provider = g_task_get_source_object (task);
  g_autoptr(GBytes) body = NULL;
  g_autoptr(SoupMessage) message = NULL;
  GError *error = NULL;
  StewardProviderHttpOptions options = { 0 };
  GCancellable *cancellable;

  body = g_task_propagate_pointer (G_TASK (result), &error);
  g_clear_pointer (&chat->request, json_object_unref);
  if (body == NULL)
    {
      chat_return (task, chat, NULL, error);
      return;
    }
  if (g_cancellable_is_cancelled (g_task_get_cancellable (task)))
    {
      chat_return (task, chat, NULL,
                   g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Cancelled")));
      return;
    }

  message = steward_http_provider_new_chat_message (STEWARD_HTTP_PROVIDER (provider), body,
                                                    chat->key);
  if (message == NULL)
    {
      chat_return (task, chat, NULL,
                   g_error_new (STEWARD_PROVIDER_ERROR, STEWARD_PROVIDER_ERROR_NETWORK,
                                _("“%s” has a base URL Steward cannot use. Correct it in "
                                  "Preferences → Providers."), chat->name));
      return;
    }

  options.name = chat->name;
  options.model = chat->model;
  options.secret = chat->key;
  options.event_hook = chat_event_hook;
  options.hook_data = chat;
  cancellable = g_task_get_cancellable (task);
  steward_provider_http_send_async (chat->session, message, &options, cancellable, chat_sent_cb,
                                    g_steal_pointer (&task));
}

static void
chat_key_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StewardProviderChat *chat = g_task_get_task_data (task);
  g_autoptr(GTask) build = NULL;
  GError *error = NULL;

  chat->key = steward_provider_lookup_key_finish (result, &error);
  if (error != NULL)
    {
      chat_return (task, chat, NULL, error);
      return;
    }

  build = g_task_new (NULL, g_task_get_cancellable (task), body_built_cb, g_object_ref (task));
  g_task_set_source_tag (build, build_body_thread);
  g_task_set_task_data (build, chat, NULL);
  g_task_run_in_thread (build, build_body_thread);
}

void
steward_provider_chat_run_async (StewardProvider            *provider,
                                 const StewardProviderWire  *wire,
                                 SoupSession                *session,
                                 StewardSecrets             *secrets,
                                 const char                 *key_id,
                                 JsonObject                 *request,
                                 StewardProviderEventFunc    event_func,
                                 gpointer                    event_data,
                                 GDestroyNotify              event_destroy,
                                 GCancellable               *cancellable,
                                 GAsyncReadyCallback         callback,
                                 gpointer                    user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(JsonNode) copy = NULL;
  StewardProviderChat *chat;
  const char *model;

  task = g_task_new (provider, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_provider_chat_run_async);

  chat = g_new0 (StewardProviderChat, 1);
  chat->wire = wire;
  chat->session = g_object_ref (session);
  chat->secrets = secrets != NULL ? g_object_ref (secrets) : NULL;
  chat->key_id = g_strdup (key_id);
  chat->name = g_strdup (steward_provider_get_display_name (provider));
  chat->state = wire->state_new ();
  chat->event_func = event_func;
  chat->event_data = event_data;
  chat->event_destroy = event_destroy;
  chat->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;
  g_task_set_task_data (task, chat, (GDestroyNotify) chat_free);

  /* The request is read now, as the interface promises; the copy goes to
   * a worker, which turns it into the body. */
  root = json_node_init_object (json_node_alloc (), request);
  copy = steward_json_copy (root);
  chat->request = json_object_ref (json_node_get_object (copy));
  model = mcp_json_get_string (chat->request, "model");
  chat->model = model != NULL && model[0] != '\0' ? g_strdup (model) : NULL;

  steward_provider_lookup_key_async (secrets, key_id, chat->name, cancellable, chat_key_cb,
                                     g_steal_pointer (&task));
}

JsonObject *
steward_provider_chat_run_finish (StewardProvider  *provider,
                                  GAsyncResult     *result,
                                  GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, provider), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        steward_provider_chat_run_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

void
steward_provider_chat_emit (StewardProviderChat  *chat,
                            StewardProviderEvent  event,
                            JsonObject           *data)
{
  if (chat->finished || chat->event_func == NULL || g_cancellable_is_cancelled (chat->cancellable))
    return;

  chat->event_func (event, data, chat->event_data);
}

void
steward_provider_chat_emit_text (StewardProviderChat *chat,
                                 const char          *text)
{
  g_autoptr(JsonObject) data = NULL;

  if (text == NULL || text[0] == '\0')
    return;

  data = json_object_new ();
  json_object_set_string_member (data, "text", text);
  steward_provider_chat_emit (chat, STEWARD_PROVIDER_EVENT_TEXT, data);
}

void
steward_provider_chat_emit_usage (StewardProviderChat *chat,
                                  gint64               input_tokens,
                                  gint64               output_tokens)
{
  g_autoptr(JsonObject) data = json_object_new ();

  json_object_set_int_member (data, "inputTokens", MAX (input_tokens, 0));
  json_object_set_int_member (data, "outputTokens", MAX (output_tokens, 0));
  steward_provider_chat_emit (chat, STEWARD_PROVIDER_EVENT_USAGE, data);
}

const char *
steward_provider_chat_get_name (StewardProviderChat *chat)
{
  return chat->name;
}

const char *
steward_provider_chat_get_model (StewardProviderChat *chat)
{
  return chat->model;
}

GError *
steward_provider_chat_stream_error (StewardProviderChat  *chat,
                                    StewardProviderError  code,
                                    const char           *message)
{
  g_autofree char *shown = steward_provider_clean_text (message, chat->key);

  if (shown == NULL)
    return g_error_new (STEWARD_PROVIDER_ERROR, code,
                        _("“%s” reported an error while it answered."), chat->name);

  return g_error_new (STEWARD_PROVIDER_ERROR, code,
                      _("“%s” reported an error while it answered: %s"), chat->name, shown);
}

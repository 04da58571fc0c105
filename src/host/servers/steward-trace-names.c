/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-trace-names"

#include "config.h"

#include <string.h>

#include "mcp-json.h"
#include "steward-text.h"
#include "steward-trace-names.h"

/* Requests waiting for their answer, per direction; past this many the
 * oldest names are dropped, all at once. */
#define MAX_PENDING 1024
/* Bytes of a name or id in a summary. */
#define MAX_NAME    120
#define MAX_ERROR   200

struct _StewardTraceNames
{
  GHashTable *pending;   /* "<" or ">" and the id → "method “name”" */
  GString    *key;       /* a pending key being written, kept between messages */
};

StewardTraceNames *
steward_trace_names_new (void)
{
  StewardTraceNames *self = g_new0 (StewardTraceNames, 1);

  self->pending = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->key = g_string_sized_new (24);

  return self;
}

void
steward_trace_names_free (StewardTraceNames *self)
{
  if (self == NULL)
    return;

  g_hash_table_unref (self->pending);
  g_string_free (self->key, TRUE);
  g_free (self);
}

void
steward_trace_names_reset (StewardTraceNames *self)
{
  g_return_if_fail (self != NULL);

  g_hash_table_remove_all (self->pending);
}

/* A string literal, without measuring it. */
#define append_literal(out, literal) g_string_append_len ((out), literal, sizeof literal - 1)

/* @text on one line, hidden characters shown, at most @max bytes. */
static void
append_one_line (GString    *out,
                 const char *text,
                 gsize       max)
{
  g_autofree char *visible = NULL;
  gsize length;

  if (text == NULL)
    return;

  /* Method names, tool names and ids are nearly always short, printable
   * ASCII, which is shown as it is: check that rather than copy it. */
  for (length = 0; length <= max; length++)
    {
      guchar c = (guchar) text[length];

      if (c == '\0')
        {
          g_string_append_len (out, text, length);
          return;
        }
      if (c < 0x20 || c > 0x7e)
        break;
    }

  visible = steward_text_make_visible_capped (text, max, NULL);
  /* The marker of a cut says so already. */
  g_string_append (out, g_strdelimit (visible, "\r\n\t", ' '));
}

gsize
steward_trace_format_int64 (gint64 value,
                            char   buffer[24])
{
  char digits[24];
  /* Negated as unsigned, so that G_MININT64 has a magnitude too. */
  guint64 magnitude = value < 0 ? -(guint64) value : (guint64) value;
  gsize n = 0;
  gsize length = 0;

  do
    {
      digits[n++] = '0' + magnitude % 10;
      magnitude /= 10;
    }
  while (magnitude > 0);

  if (value < 0)
    buffer[length++] = '-';
  while (n > 0)
    buffer[length++] = digits[--n];
  buffer[length] = '\0';

  return length;
}

static void
append_id (GString    *out,
           McpMessage *message)
{
  JsonNode *id = mcp_message_get_id (message);
  gint64 number;

  if (id == NULL)
    g_string_append (out, "null");
  else if (mcp_message_get_int_id (message, &number))
    {
      char digits[24];
      gsize length = steward_trace_format_int64 (number, digits);

      g_string_append_len (out, digits, length);
    }
  else if (JSON_NODE_HOLDS_VALUE (id) && json_node_get_value_type (id) == G_TYPE_STRING)
    append_one_line (out, json_node_get_string (id), MAX_NAME);
  else
    g_string_append_c (out, '?');
}

/* What a request is about: the tool or prompt it names, or the resource. */
static const char *
request_subject (McpMessage *message)
{
  JsonObject *params = mcp_message_get_params (message);
  JsonNode *ref = params != NULL ? json_object_get_member (params, "ref") : NULL;
  const char *subject = mcp_json_get_string (params, "name");

  if (subject == NULL)
    subject = mcp_json_get_string (params, "uri");
  /* completion/complete names a prompt or a resource template. */
  if (subject == NULL && ref != NULL && JSON_NODE_HOLDS_OBJECT (ref))
    {
      subject = mcp_json_get_string (json_node_get_object (ref), "name");
      if (subject == NULL)
        subject = mcp_json_get_string (json_node_get_object (ref), "uri");
    }

  return subject;
}

/* The key a request is remembered by: its direction, then its id. */
static void
append_pending_key (GString    *out,
                    McpMessage *message,
                    gboolean    outgoing)
{
  g_string_append_c (out, outgoing ? '>' : '<');
  append_id (out, message);
}

void
steward_trace_names_append_summary (StewardTraceNames *self,
                                    McpMessage        *message,
                                    gboolean           outgoing,
                                    GString           *text)
{
  /* Every message in and out passes here, so the summary is written at
   * the end of the caller's buffer and the key into one kept here: only
   * a remembered request's name and key are allocated. */
  GString *key = self->key;
  const char *subject;
  char *asked;
  gpointer asked_key;
  gsize start = text->len;
  gsize what_start;

  g_return_if_fail (self != NULL);
  g_return_if_fail (message != NULL);
  g_return_if_fail (text != NULL);

  g_string_truncate (key, 0);

  switch (mcp_message_get_kind (message))
    {
    case MCP_MESSAGE_NOTIFICATION:
      append_one_line (text, mcp_message_get_method (message), MAX_NAME);
      break;

    case MCP_MESSAGE_REQUEST:
      append_one_line (text, mcp_message_get_method (message), MAX_NAME);
      subject = request_subject (message);
      if (subject != NULL)
        {
          append_literal (text, " “");
          append_one_line (text, subject, MAX_NAME);
          append_literal (text, "”");
        }

      if (g_hash_table_size (self->pending) >= MAX_PENDING)
        g_hash_table_remove_all (self->pending);
      append_pending_key (key, message, outgoing);
      g_hash_table_replace (self->pending, g_strndup (key->str, key->len),
                            g_strndup (text->str + start, text->len - start));

      append_literal (text, " id ");
      append_id (text, message);
      break;

    case MCP_MESSAGE_RESULT:
    case MCP_MESSAGE_ERROR:
    default:
      if (mcp_message_get_kind (message) == MCP_MESSAGE_RESULT)
        append_literal (text, "result id ");
      else
        append_literal (text, "error id ");
      what_start = text->len;
      append_id (text, message);

      /* The answer goes the other way from its request. */
      g_string_append_c (key, outgoing ? '<' : '>');
      g_string_append_len (key, text->str + what_start, text->len - what_start);
      /* Taken out with the one lookup that finds it. */
      if (g_hash_table_steal_extended (self->pending, key->str, &asked_key, (gpointer *) &asked))
        {
          append_literal (text, " for ");
          g_string_append (text, asked);
          g_free (asked_key);
          g_free (asked);
        }

      if (mcp_message_get_kind (message) != MCP_MESSAGE_RESULT)
        {
          append_literal (text, ": ");
          append_one_line (text, mcp_message_get_error_message (message), MAX_ERROR);
        }
      break;
    }
}

char *
steward_trace_names_summarize (StewardTraceNames *self,
                               McpMessage        *message,
                               gboolean           outgoing)
{
  GString *text = g_string_sized_new (96);

  steward_trace_names_append_summary (self, message, outgoing, text);
  return g_string_free (text, FALSE);
}

char *
steward_trace_summary_get_id (const char *summary,
                              gboolean   *answer)
{
  const char *start;
  const char *end;
  gboolean is_answer;

  g_return_val_if_fail (answer != NULL, NULL);

  if (summary == NULL)
    return NULL;

  is_answer = g_str_has_prefix (summary, "result id ") || g_str_has_prefix (summary, "error id ");
  if (is_answer)
    {
      start = strstr (summary, " id ") + strlen (" id ");
      /* Up to " for …", ": …" or the end. */
      end = start + strcspn (start, " :");
    }
  else
    {
      /* A request ends with " id ID"; the name before it is quoted, so the
       * last " id " is ours. */
      start = g_strrstr (summary, " id ");
      if (start == NULL)
        return NULL;
      start += strlen (" id ");
      end = start + strlen (start);
    }

  if (end == start)
    return NULL;

  *answer = is_answer;
  return g_strndup (start, end - start);
}

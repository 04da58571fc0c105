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
};

StewardTraceNames *
steward_trace_names_new (void)
{
  StewardTraceNames *self = g_new0 (StewardTraceNames, 1);

  self->pending = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  return self;
}

void
steward_trace_names_free (StewardTraceNames *self)
{
  if (self == NULL)
    return;

  g_hash_table_unref (self->pending);
  g_free (self);
}

void
steward_trace_names_reset (StewardTraceNames *self)
{
  g_return_if_fail (self != NULL);

  g_hash_table_remove_all (self->pending);
}

/* One line, hidden characters shown, at most @max characters. */
static char *
one_line (const char *text,
          gsize       max)
{
  g_autofree char *visible = steward_text_make_visible_capped (text != NULL ? text : "", max,
                                                               NULL);

  /* The marker of a cut says so already. */
  return g_strdelimit (g_steal_pointer (&visible), "\r\n\t", ' ');
}

static char *
dup_id_text (McpMessage *message)
{
  JsonNode *id = mcp_message_get_id (message);
  gint64 number;

  if (id == NULL)
    return g_strdup ("null");
  if (mcp_message_get_int_id (message, &number))
    return g_strdup_printf ("%" G_GINT64_FORMAT, number);
  if (JSON_NODE_HOLDS_VALUE (id) && json_node_get_value_type (id) == G_TYPE_STRING)
    return one_line (json_node_get_string (id), MAX_NAME);

  return g_strdup ("?");
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

static char *
pending_key (const char *id,
             gboolean    outgoing)
{
  return g_strconcat (outgoing ? ">" : "<", id, NULL);
}

char *
steward_trace_names_summarize (StewardTraceNames *self,
                               McpMessage        *message,
                               gboolean           outgoing)
{
  g_autofree char *id = NULL;
  g_autofree char *key = NULL;
  g_autofree char *what = NULL;
  g_autofree char *text = NULL;
  const char *subject;
  const char *asked;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (message != NULL, NULL);

  switch (mcp_message_get_kind (message))
    {
    case MCP_MESSAGE_NOTIFICATION:
      return one_line (mcp_message_get_method (message), MAX_NAME);

    case MCP_MESSAGE_REQUEST:
      id = dup_id_text (message);
      subject = request_subject (message);
      if (subject != NULL)
        {
          g_autofree char *method = one_line (mcp_message_get_method (message), MAX_NAME);
          g_autofree char *name = one_line (subject, MAX_NAME);

          what = g_strdup_printf ("%s “%s”", method, name);
        }
      else
        {
          what = one_line (mcp_message_get_method (message), MAX_NAME);
        }

      if (g_hash_table_size (self->pending) >= MAX_PENDING)
        g_hash_table_remove_all (self->pending);
      g_hash_table_replace (self->pending, pending_key (id, outgoing), g_strdup (what));

      return g_strdup_printf ("%s id %s", what, id);

    case MCP_MESSAGE_RESULT:
    case MCP_MESSAGE_ERROR:
    default:
      id = dup_id_text (message);
      /* The answer goes the other way from its request. */
      key = pending_key (id, !outgoing);
      asked = g_hash_table_lookup (self->pending, key);
      if (asked != NULL)
        what = g_strdup_printf (" for %s", asked);
      g_hash_table_remove (self->pending, key);

      if (mcp_message_get_kind (message) == MCP_MESSAGE_RESULT)
        return g_strdup_printf ("result id %s%s", id, what != NULL ? what : "");

      text = one_line (mcp_message_get_error_message (message), MAX_ERROR);
      return g_strdup_printf ("error id %s%s: %s", id, what != NULL ? what : "", text);
    }
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

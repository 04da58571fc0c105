/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-server"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mcp-connect.h"
#include "mcp-error.h"
#include "mcp-stdio-transport.h"

#include "steward-approval.h"
#include "steward-approvals.h"
#include "steward-config.h"
#include "steward-log-entry.h"
#include "steward-log-store.h"
#include "steward-redactor.h"
#include "steward-roots.h"
#include "steward-sampling-broker.h"
#include "steward-network-choice.h"
#include "steward-sandbox-launch.h"
#include "steward-sandbox.h"
#include "steward-scratch.h"
#include "steward-secrets.h"

#include "steward-server-failure.h"
#include "steward-server-private.h"
#include "steward-server-watch.h"
#include "steward-trace-names.h"

/* A log entry's detail is kept to 64 KiB (StewardLogEntry); what we write
 * stops a little short of it so that our own marker fits. */
#define DETAIL_MAX        (64 * 1024)
#define DETAIL_MARKER_MAX 256
/* The one-line summary of a log entry, in the list. */
#define SUMMARY_MAX       512
/* A stderr line kept for the diagnosis is cut at this many bytes. */
#define STDERR_LINE_MAX   1000

/* JSON for the log, written only as far as it will be shown: a 20 MiB
 * message costs what its first 64 KiB cost, which matters when a server
 * floods thousands of messages a second. */

typedef struct {
  GString  *out;
  gsize     cap;
  gboolean  pretty;
  gboolean  full;
} Capped;

static gsize
capped_room (Capped *w)
{
  return w->cap - w->out->len;
}

static void
capped_append_len (Capped     *w,
                   const char *text,
                   gsize       length)
{
  gsize room;

  if (w->full)
    return;

  room = capped_room (w);
  if (length > room)
    {
      length = room;
      w->full = TRUE;
    }

  /* A message is written a token at a time into a buffer sized for it up
   * front, so copy straight in; GLib 2.74's append does not inline this. */
  if (w->out->len + length < w->out->allocated_len)
    {
      memcpy (w->out->str + w->out->len, text, length);
      w->out->len += length;
      w->out->str[w->out->len] = '\0';
    }
  else
    g_string_append_len (w->out, text, length);
}

static void
capped_append (Capped     *w,
               const char *text)
{
  capped_append_len (w, text, strlen (text));
}

static void
capped_newline (Capped *w,
                guint   level)
{
  static const char spaces[] = "                                                                ";

  if (!w->pretty)
    return;

  capped_append_len (w, "\n", 1);
  for (guint n = level * 2; n > 0 && !w->full;)
    {
      guint step = MIN (n, sizeof spaces - 1);

      capped_append_len (w, spaces, step);
      n -= step;
    }
}

/* The bytes a JSON string cannot hold as they are, and the NUL that ends
 * a C string: a string's text is copied in runs between them. */
static const gboolean string_stops[256] = {
  [0x00 ... 0x1f] = TRUE,
  ['"'] = TRUE,
  ['\\'] = TRUE,
};

static void
capped_append_string (Capped     *w,
                      const char *string)
{
  const char *p = string;

  capped_append_len (w, "\"", 1);

  for (;;)
    {
      const char *run = p;
      gsize room = capped_room (w);
      char escape[8];
      guchar c;

      /* A run is read no farther than the room left, so a huge string is
       * not read to its end. */
      while (!string_stops[(guchar) *p] && (gsize) (p - run) < room)
        p++;
      capped_append_len (w, run, p - run);

      c = (guchar) *p;
      if (c == '\0')
        {
          capped_append_len (w, "\"", 1);
          return;
        }
      if (w->full || !string_stops[c])
        {
          w->full = TRUE;
          return;
        }

      switch (c)
        {
        case '"':
          capped_append_len (w, "\\\"", 2);
          break;
        case '\\':
          capped_append_len (w, "\\\\", 2);
          break;
        case '\n':
          capped_append_len (w, "\\n", 2);
          break;
        case '\r':
          capped_append_len (w, "\\r", 2);
          break;
        case '\t':
          capped_append_len (w, "\\t", 2);
          break;
        default:
          g_snprintf (escape, sizeof escape, "\\u%04x", c);
          capped_append (w, escape);
          break;
        }
      p++;
    }
}

static void capped_append_node (Capped   *w,
                                JsonNode *node,
                                guint     level);

typedef struct {
  Capped   *w;
  guint     level;
  gboolean  first;
} Members;

static void
capped_begin_member (Members    *members,
                     const char *name)
{
  Capped *w = members->w;

  if (!members->first)
    capped_append_len (w, ",", 1);
  members->first = FALSE;
  capped_newline (w, members->level);
  capped_append_string (w, name);
  capped_append_len (w, ": ", w->pretty ? 2 : 1);
}

static void
capped_member_cb (JsonObject *object,
                  const char *name,
                  JsonNode   *node,
                  gpointer    user_data)
{
  Members *members = user_data;

  if (members->w->full)
    return;

  capped_begin_member (members, name);
  capped_append_node (members->w, node, members->level);
}

static void
capped_append_object (Capped     *w,
                      JsonObject *object,
                      guint       level)
{
  Members members = { w, level + 1, TRUE };

  capped_append_len (w, "{", 1);
  json_object_foreach_member (object, capped_member_cb, &members);
  if (!members.first)
    capped_newline (w, level);
  capped_append_len (w, "}", 1);
}

static void
capped_append_node (Capped   *w,
                    JsonNode *node,
                    guint     level)
{
  char number[G_ASCII_DTOSTR_BUF_SIZE];

  if (w->full)
    return;

  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      capped_append_object (w, json_node_get_object (node), level);
      break;

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        guint length = json_array_get_length (array);

        capped_append_len (w, "[", 1);
        for (guint i = 0; i < length && !w->full; i++)
          {
            if (i > 0)
              capped_append_len (w, ",", 1);
            capped_newline (w, level + 1);
            capped_append_node (w, json_array_get_element (array, i), level + 1);
          }
        if (length > 0)
          capped_newline (w, level);
        capped_append_len (w, "]", 1);
      }
      break;

    case JSON_NODE_VALUE:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_INT64:
          {
            gsize length = steward_trace_format_int64 (json_node_get_int (node), number);

            capped_append_len (w, number, length);
          }
          break;

        case G_TYPE_DOUBLE:
          capped_append (w, g_ascii_dtostr (number, sizeof number, json_node_get_double (node)));
          break;

        case G_TYPE_BOOLEAN:
          capped_append (w, json_node_get_boolean (node) ? "true" : "false");
          break;

        case G_TYPE_STRING:
          capped_append_string (w, json_node_get_string (node));
          break;

        default:
          capped_append (w, "null");
          break;
        }
      break;

    case JSON_NODE_NULL:
    default:
      capped_append (w, "null");
      break;
    }
}

static void
capped_append_message (Capped     *w,
                       McpMessage *message)
{
  Members members = { w, 1, TRUE };
  JsonNode *id = mcp_message_get_id (message);

  capped_append_len (w, "{", 1);
  capped_begin_member (&members, "jsonrpc");
  capped_append_string (w, "2.0");

  if (id != NULL)
    {
      capped_begin_member (&members, "id");
      capped_append_node (w, id, 1);
    }

  switch (mcp_message_get_kind (message))
    {
    case MCP_MESSAGE_REQUEST:
    case MCP_MESSAGE_NOTIFICATION:
      capped_begin_member (&members, "method");
      capped_append_string (w, mcp_message_get_method (message));
      if (mcp_message_get_params (message) != NULL)
        {
          capped_begin_member (&members, "params");
          capped_append_object (w, mcp_message_get_params (message), 1);
        }
      break;

    case MCP_MESSAGE_RESULT:
      capped_begin_member (&members, "result");
      capped_append_object (w, mcp_message_get_result (message), 1);
      break;

    case MCP_MESSAGE_ERROR:
      {
        Members error = { w, 2, TRUE };
        char code[32];

        capped_begin_member (&members, "error");
        capped_append_len (w, "{", 1);
        capped_begin_member (&error, "code");
        g_snprintf (code, sizeof code, "%d", mcp_message_get_error_code (message));
        capped_append (w, code);
        capped_begin_member (&error, "message");
        capped_append_string (w, mcp_message_get_error_message (message));
        if (mcp_message_get_error_data (message) != NULL)
          {
            capped_begin_member (&error, "data");
            capped_append_node (w, mcp_message_get_error_data (message), 2);
          }
        capped_newline (w, 1);
        capped_append_len (w, "}", 1);
      }
      break;

    default:
      break;
    }

  capped_newline (w, 0);
  capped_append_len (w, "}", 1);
}

/* Ends what was written on a whole UTF-8 character. */
static void
capped_trim (Capped *w)
{
  const char *end = NULL;

  if (!w->full)
    return;

  if (!g_utf8_validate (w->out->str, w->out->len, &end))
    g_string_truncate (w->out, end - w->out->str);
}

/* The detail of a log entry: pretty JSON, folded with a marker that says
 * how large the whole was. */
static char *
finish_detail (Capped *w,
               gsize   size)
{
  capped_trim (w);
  if (w->full)
    {
      g_autofree char *whole = g_format_size (size);

      /* Translators: shown after the part of a long message the log keeps;
       * %s is a size such as "2.1 MB". */
      g_string_append_printf (w->out, _("\n… folded here; the whole is %s"), whole);
    }

  return g_string_free (g_steal_pointer (&w->out), FALSE);
}

/* The compact text of a message Steward received, as far as the log keeps
 * it, written into @out; the log entry indents it. What Steward sends is
 * written out anyway (mcp_message_get_line()), and that text is used as
 * it is. */
static void
message_compact (McpMessage *message,
                 gsize       size,
                 GString    *out,
                 gboolean   *cut)
{
  Capped w = { out, DETAIL_MAX, FALSE, FALSE };

  g_string_set_size (out, MIN (size + 64, DETAIL_MAX));
  g_string_truncate (out, 0);
  capped_append_message (&w, message);
  capped_trim (&w);
  *cut = w.full;
}

/* One line for the list: newlines become spaces. */
static char *
one_line (const char *text)
{
  Capped w = { g_string_sized_new (64), SUMMARY_MAX, FALSE, FALSE };

  capped_append (&w, text);
  capped_trim (&w);
  g_strdelimit (w.out->str, "\r\n", ' ');
  if (w.full)
    g_string_append (w.out, "…");

  return g_string_free (w.out, FALSE);
}

/* Words for people */

static char *
format_command_line (StewardServerConfig *config)
{
  g_auto(GStrv) argv = steward_server_config_dup_argv (config);
  GString *line = g_string_new (NULL);

  for (guint i = 0; argv != NULL && argv[i] != NULL; i++)
    {
      gboolean plain = argv[i][0] != '\0';

      for (const char *p = argv[i]; *p != '\0' && plain; p++)
        plain = g_ascii_isalnum (*p) || strchr ("-_./:=@+,%", *p) != NULL;

      if (i > 0)
        g_string_append_c (line, ' ');
      if (plain)
        g_string_append (line, argv[i]);
      else
        {
          g_autofree char *quoted = g_shell_quote (argv[i]);

          g_string_append (line, quoted);
        }
    }

  return g_string_free (line, FALSE);
}

/* A URL for the log: without user information, query or fragment, which
 * can hold keys. */
static char *
format_url (const char *url)
{
  g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);

  if (uri == NULL)
    return g_strdup (url);

  return g_uri_to_string_partial (uri, G_URI_HIDE_USERINFO | G_URI_HIDE_QUERY |
                                       G_URI_HIDE_FRAGMENT);
}

char *
steward_server_format_target (StewardServerConfig *config)
{
  if (steward_server_config_is_remote (config))
    return format_url (steward_server_config_get_url (config));

  return format_command_line (config);
}

char *
steward_server_format_duration (guint ms)
{
  guint seconds = (ms + 999) / 1000;

  if (seconds >= 60 && seconds % 60 == 0)
    return g_strdup_printf (ngettext ("%u minute", "%u minutes", seconds / 60), seconds / 60);

  return g_strdup_printf (ngettext ("%u second", "%u seconds", seconds), seconds);
}

/* Logging */

void
steward_server_host_event (StewardServer   *self,
                           StewardLogLevel  level,
                           const char      *format,
                           ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);

  g_debug ("%s: %s", self->name, text);
  steward_log_store_add_host_event (self->log_store, self->name, level, "%s", text);
}

static void
append_entry (StewardServer       *self,
              StewardLogSource     source,
              StewardLogLevel      level,
              StewardLogDirection  direction,
              const char          *logger,
              const char          *text,
              const char          *detail,
              gsize                size)
{
  g_autoptr(StewardLogEntry) entry = NULL;

  entry = steward_log_entry_new (g_get_real_time (), self->name, source, level, direction,
                                 logger, text, detail, size);
  steward_log_store_append (self->log_store, entry);
}

static void
remember_stderr (StewardServer *self,
                 const char    *line)
{
  Capped w = { g_string_sized_new (64), STDERR_LINE_MAX, FALSE, FALSE };
  g_autofree char *redacted = steward_redact (line);

  capped_append (&w, redacted);
  capped_trim (&w);
  if (w.full)
    g_string_append (w.out, "…");

  g_queue_push_tail (&self->stderr_lines, g_string_free (w.out, FALSE));
  while (self->stderr_lines.length > STEWARD_SERVER_STDERR_LINES)
    g_free (g_queue_pop_head (&self->stderr_lines));
}

void
steward_server_transport_log_cb (StewardServer       *self,
                                 McpTransportLogKind  kind,
                                 const char          *text,
                                 McpTransport        *transport)
{
  if (kind == MCP_TRANSPORT_LOG_STDERR)
    {
      remember_stderr (self, text);
      append_entry (self, STEWARD_LOG_SOURCE_STDERR, STEWARD_LOG_LEVEL_INFO,
                    STEWARD_LOG_DIRECTION_NONE, NULL, text, NULL, strlen (text));
    }
  else
    steward_server_host_event (self, STEWARD_LOG_LEVEL_WARNING, "%s", text);
}

void
steward_server_client_diagnostic_cb (StewardServer *self,
                                     const char    *text,
                                     McpClient     *client)
{
  steward_server_host_event (self, STEWARD_LOG_LEVEL_WARNING, "%s", text);
}

void
steward_server_client_trace_cb (StewardServer     *self,
                                McpTraceDirection  direction,
                                McpMessage        *message,
                                McpClient         *client)
{
  GString *summary = steward_scratch_take (STEWARD_SCRATCH_TRACE_SUMMARY);
  g_autoptr(GBytes) compact = NULL;
  gsize size = mcp_message_get_wire_size (message);
  GBytes *text;
  gsize text_length;
  gboolean cut = FALSE;

  steward_trace_names_append_summary (self->trace_names, message,
                                      direction == MCP_TRACE_OUTGOING, summary);

  /* The text the client wrote or received is shared with the log, not
   * copied: what Steward sends, and what arrived written as Steward
   * writes (mcp_message_peek_line()). Any other incoming message is
   * written here, as far as the log keeps it. */
  if (direction == MCP_TRACE_INCOMING)
    {
      self->last_in_size = size;
      text = mcp_message_peek_line (message);
      if (text == NULL)
        {
          GString *scratch = steward_scratch_take (STEWARD_SCRATCH_TRACE_COMPACT);

          message_compact (message, size, scratch, &cut);
          g_string_append_c (scratch, '\n');
          text = compact = g_bytes_new (scratch->str, scratch->len);
          steward_scratch_release (STEWARD_SCRATCH_TRACE_COMPACT);
        }
    }
  else
    {
      /* What we send has no wire size yet: its text, which the transport
       * sends next, is written now and kept with the message. */
      text = mcp_message_get_line (message);
    }

  /* Without the newline. */
  text_length = g_bytes_get_size (text) - 1;
  if (size == 0)
    size = text_length;

  steward_log_store_append_message (self->log_store, g_get_real_time (), self->name,
                                    direction == MCP_TRACE_INCOMING
                                      ? STEWARD_LOG_DIRECTION_IN
                                      : STEWARD_LOG_DIRECTION_OUT,
                                    summary->str, text, text_length, cut, size);
  steward_scratch_release (STEWARD_SCRATCH_TRACE_SUMMARY);
}

void
steward_server_client_log_message_cb (StewardServer *self,
                                      const char    *level_name,
                                      const char    *logger,
                                      JsonNode      *data,
                                      McpClient     *client)
{
  StewardLogLevel level = STEWARD_LOG_LEVEL_INFO;
  g_autofree char *text = NULL;
  g_autofree char *detail = NULL;

  if (level_name == NULL || !steward_log_level_from_string (level_name, &level))
    level = STEWARD_LOG_LEVEL_INFO;

  if (data != NULL && JSON_NODE_HOLDS_VALUE (data) &&
      json_node_get_value_type (data) == G_TYPE_STRING)
    {
      Capped w = { g_string_sized_new (64), DETAIL_MAX - DETAIL_MARKER_MAX, FALSE, FALSE };

      text = one_line (json_node_get_string (data));
      capped_append (&w, json_node_get_string (data));
      detail = finish_detail (&w, strlen (json_node_get_string (data)));
    }
  else if (data != NULL)
    {
      Capped pretty = { g_string_sized_new (256), DETAIL_MAX - DETAIL_MARKER_MAX, TRUE, FALSE };
      JsonObject *object = JSON_NODE_HOLDS_OBJECT (data) ? json_node_get_object (data) : NULL;
      JsonNode *member = object ? json_object_get_member (object, "message") : NULL;

      if (member != NULL && JSON_NODE_HOLDS_VALUE (member) &&
          json_node_get_value_type (member) == G_TYPE_STRING)
        text = one_line (json_node_get_string (member));
      else
        {
          Capped compact = { g_string_sized_new (64), SUMMARY_MAX, FALSE, FALSE };

          capped_append_node (&compact, data, 0);
          capped_trim (&compact);
          if (compact.full)
            g_string_append (compact.out, "…");
          text = g_string_free (compact.out, FALSE);
        }

      capped_append_node (&pretty, data, 0);
      detail = finish_detail (&pretty, self->last_in_size);
    }
  else
    text = g_strdup ("");

  append_entry (self, STEWARD_LOG_SOURCE_SERVER, level, STEWARD_LOG_DIRECTION_IN, logger, text,
                detail, self->last_in_size);
}

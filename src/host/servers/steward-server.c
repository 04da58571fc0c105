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
#include "steward-host.h"
#include "steward-log-entry.h"
#include "steward-log-store.h"
#include "steward-redactor.h"
#include "steward-roots.h"
#include "steward-sampling-broker.h"
#include "steward-network-choice.h"
#include "steward-sandbox-launch.h"
#include "steward-sandbox.h"
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
/* Where a command is looked for when no PATH is set, as execvp() does. */
#define DEFAULT_SEARCH_PATH "/bin:/usr/bin"

/**
 * StewardServer:
 *
 * One configured server and its life: consent, the check that the command
 * exists, secrets from the keyring, the transport and its McpClient, the
 * restart policy after a crash, and every word the server or the
 * connection says, into the host's log store.
 *
 * While connected, the client holds the server as its delegate; stopping
 * the server drops the client and with it that reference.
 */
struct _StewardServer
{
  GObject                parent_instance;

  StewardHost           *host;          /* weak */
  StewardConfig         *config_store;
  StewardSecrets        *secrets;
  StewardRoots          *roots;
  StewardLogStore       *log_store;
  StewardApprovals      *approvals;
  StewardSamplingBroker *broker;

  char                  *name;
  StewardServerConfig   *config;
  StewardServerStatus    status;
  char                  *status_text;
  char                  *detail_text;
  McpClient             *client;
  char                  *revision;
  guint                  retry_in;

  /* The person (or autostart) wants it running: start() was called and
   * no stop since. A crash keeps it; a config change restarts only then. */
  gboolean               wanted;
  /* The client reached READY; a "closed" before that is the connect
   * callback's to report. */
  gboolean               connected;
  /* It reached READY since the person last started it: a failure now is a
   * crash or a lost connection, no longer a question of configuration. */
  gboolean               answered;
  /* Of a remote server that went away: the attempt to reach it again. */
  guint                  reconnect_attempt;
  StewardServerWatch    *watch;
  gboolean               stopping;
  /* Bumped by each launch and stop, so that callbacks of an earlier
   * attempt know to do nothing. */
  guint                  generation;
  GCancellable          *cancellable;
  StewardApproval       *consent;

  GHashTable            *resolved;      /* env or header name → value, wiped on free */

  GQueue                 stderr_lines;
  GArray                *crash_times;   /* gint64, monotonic */
  guint                  backoff_ms;
  gint64                 ready_since;
  gint64                 retry_deadline;
  guint                  retry_source;
  guint                  countdown_source;

  GPtrArray             *stop_tasks;
  GQueue                 calls;         /* Call, newest last */
  gsize                  last_in_size;
  StewardTraceNames     *trace_names;   /* what the requests in the log asked for */

  guint                  backoff_base_ms;
  guint                  backoff_max_ms;
  guint                  crash_window_ms;
  guint                  watch_interval_ms;
};

enum {
  PROP_0,
  PROP_NAME,
  PROP_CONFIG,
  PROP_STATUS,
  PROP_STATUS_TEXT,
  PROP_DETAIL_TEXT,
  PROP_CLIENT,
  PROP_REVISION,
  PROP_RETRY_IN,
  PROP_ENABLED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void steward_server_delegate_init (McpClientDelegateInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StewardServer, steward_server, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (MCP_TYPE_CLIENT_DELEGATE,
                                                      steward_server_delegate_init))

static void begin (StewardServer *self);
static void launch (StewardServer *self);

/* Attempts: what a callback needs to know whether it is still wanted. */

typedef struct {
  StewardServer *self;
  guint          generation;
} Attempt;

static Attempt *
attempt_new (StewardServer *self)
{
  Attempt *attempt = g_new0 (Attempt, 1);

  attempt->self = g_object_ref (self);
  attempt->generation = self->generation;

  return attempt;
}

static void
attempt_free (Attempt *attempt)
{
  g_object_unref (attempt->self);
  g_free (attempt);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Attempt, attempt_free)

static gboolean
attempt_is_current (Attempt *attempt)
{
  return attempt->generation == attempt->self->generation;
}

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

static void
capped_append_string (Capped     *w,
                      const char *string)
{
  const char *run = string;
  const char *p;

  capped_append_len (w, "\"", 1);

  /* Scanning stops once the plain run alone would fill the room, so a
   * huge string is not read to its end. */
  for (p = string; *p != '\0' && !w->full && (gsize) (p - run) < capped_room (w); p++)
    {
      guchar c = (guchar) *p;
      char escape[8];

      if (c >= 0x20 && c != '"' && c != '\\')
        continue;

      capped_append_len (w, run, p - run);
      switch (c)
        {
        case '"':
          capped_append (w, "\\\"");
          break;
        case '\\':
          capped_append (w, "\\\\");
          break;
        case '\n':
          capped_append (w, "\\n");
          break;
        case '\r':
          capped_append (w, "\\r");
          break;
        case '\t':
          capped_append (w, "\\t");
          break;
        default:
          g_snprintf (escape, sizeof escape, "\\u%04x", c);
          capped_append (w, escape);
          break;
        }
      run = p + 1;
    }

  capped_append_len (w, run, p - run);
  if (*p == '\0')
    capped_append_len (w, "\"", 1);
  else
    w->full = TRUE;
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
  capped_append (w, w->pretty ? ": " : ":");
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
          g_snprintf (number, sizeof number, "%" G_GINT64_FORMAT, json_node_get_int (node));
          capped_append (w, number);
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

static char *
message_detail (McpMessage *message,
                gsize       size)
{
  Capped w = { g_string_sized_new (256), DETAIL_MAX - DETAIL_MARKER_MAX, TRUE, FALSE };

  capped_append_message (&w, message);
  return finish_detail (&w, size);
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

static char *
format_target (StewardServerConfig *config)
{
  if (steward_server_config_is_remote (config))
    return format_url (steward_server_config_get_url (config));

  return format_command_line (config);
}

static char *
format_duration (guint ms)
{
  guint seconds = (ms + 999) / 1000;

  if (seconds >= 60 && seconds % 60 == 0)
    return g_strdup_printf (ngettext ("%u minute", "%u minutes", seconds / 60), seconds / 60);

  return g_strdup_printf (ngettext ("%u second", "%u seconds", seconds), seconds);
}

/* Logging */

static void
host_event (StewardServer   *self,
            StewardLogLevel  level,
            const char      *format,
            ...) G_GNUC_PRINTF (3, 4);

static void
host_event (StewardServer   *self,
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

/* Status */

/* g_set_str() is newer than our GLib floor. */
static gboolean
set_string (char       **field,
            const char  *value)
{
  char *copy;

  if (g_strcmp0 (*field, value) == 0)
    return FALSE;

  copy = g_strdup (value);
  g_free (*field);
  *field = copy;

  return TRUE;
}

/* The status and the details quote the exit reason and the server's
 * stderr, which may hold a secret, as every log path may. */
static gboolean
set_shown_string (char       **field,
                  const char  *value)
{
  g_autofree char *redacted = steward_redact (value);

  return set_string (field, redacted);
}

static void
set_status (StewardServer       *self,
            StewardServerStatus  status,
            const char          *status_text,
            const char          *detail_text)
{
  g_object_freeze_notify (G_OBJECT (self));

  if (self->status != status)
    {
      self->status = status;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATUS]);
    }

  if (set_shown_string (&self->status_text, status_text))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATUS_TEXT]);

  if (set_shown_string (&self->detail_text, detail_text))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DETAIL_TEXT]);

  g_object_thaw_notify (G_OBJECT (self));
}

static void
set_retry_in (StewardServer *self,
              guint          retry_in)
{
  if (self->retry_in == retry_in)
    return;

  self->retry_in = retry_in;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RETRY_IN]);
}

static void
set_revision (StewardServer *self,
              const char    *revision)
{
  if (set_string (&self->revision, revision))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REVISION]);
}

static void
set_idle_status (StewardServer *self)
{
  if (steward_server_get_enabled (self))
    set_status (self, STEWARD_SERVER_STATUS_STOPPED, _("Stopped"), NULL);
  else
    set_status (self, STEWARD_SERVER_STATUS_DISABLED, _("Disabled"), NULL);
}

/* The diagnosis: why it stopped, and what it last said on stderr. */
static char *
build_detail (StewardServer *self,
              const char    *why)
{
  g_autofree char *tail = steward_server_dup_stderr_tail (self);
  GString *detail = g_string_new (why);

  if (tail != NULL)
    {
      if (detail->len > 0)
        g_string_append (detail, "\n\n");
      g_string_append (detail, _("Its last lines on stderr:"));
      g_string_append_c (detail, '\n');
      g_string_append (detail, tail);
    }

  return g_string_free (detail, FALSE);
}

/* Failing without a restart: something a restart cannot mend. */
static void
fail (StewardServer *self,
      const char    *reason,
      const char    *detail)
{
  /* Translators: the status of a server that cannot run; %s says why. */
  g_autofree char *text = g_strdup_printf (_("Failed: %s"), reason);

  self->generation++;
  self->reconnect_attempt = 0;
  g_clear_pointer (&self->resolved, g_hash_table_unref);
  set_retry_in (self, 0);
  set_status (self, STEWARD_SERVER_STATUS_FAILED, text, detail);
  host_event (self, STEWARD_LOG_LEVEL_ERROR, _("Could not start: %s"), reason);
}

/* The client */

static void
drop_client (StewardServer *self)
{
  g_autoptr(McpClient) client = g_steal_pointer (&self->client);

  if (client == NULL)
    return;

  if (self->watch != NULL)
    g_signal_handlers_disconnect_by_data (self->watch, self);
  g_clear_object (&self->watch);
  g_signal_handlers_disconnect_by_data (client, self);
  g_signal_handlers_disconnect_by_data (mcp_client_get_transport (client), self);
  self->connected = FALSE;
  self->ready_since = 0;
  set_revision (self, NULL);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CLIENT]);
}

static void
clear_retry (StewardServer *self)
{
  g_clear_handle_id (&self->retry_source, g_source_remove);
  g_clear_handle_id (&self->countdown_source, g_source_remove);
  self->retry_deadline = 0;
  set_retry_in (self, 0);
}

static void
prune_crashes (StewardServer *self,
               gint64         now)
{
  gint64 window = (gint64) self->crash_window_ms * 1000;
  guint old = 0;

  while (old < self->crash_times->len &&
         now - g_array_index (self->crash_times, gint64, old) > window)
    old++;

  if (old > 0)
    g_array_remove_range (self->crash_times, 0, old);
}

static void
update_countdown (StewardServer *self)
{
  gint64 left = self->retry_deadline - g_get_monotonic_time ();
  guint seconds = left > 0 ? (guint) ((left + G_USEC_PER_SEC - 1) / G_USEC_PER_SEC) : 0;
  g_autofree char *text = NULL;

  seconds = MAX (seconds, 1);
  set_retry_in (self, seconds);

  if (self->reconnect_attempt > 0)
    {
      /* Translators: the status of a remote server that stopped answering;
       * the first %u counts the attempts to reach it, the second is the
       * seconds until the next one. */
      text = g_strdup_printf (_("Disconnected — reconnecting (attempt %u, next in %u s)"),
                              self->reconnect_attempt, seconds);
      set_status (self, STEWARD_SERVER_STATUS_DISCONNECTED, text, self->detail_text);
      return;
    }

  /* Translators: the status of a server that crashed and waits to be
   * started again. */
  text = g_strdup_printf (_("Restarting in %u s"), seconds);
  set_status (self, STEWARD_SERVER_STATUS_RESTARTING, text, self->detail_text);
}

static gboolean
countdown_cb (gpointer user_data)
{
  StewardServer *self = user_data;

  update_countdown (self);
  return G_SOURCE_CONTINUE;
}

static gboolean
retry_cb (gpointer user_data)
{
  StewardServer *self = user_data;

  self->retry_source = 0;
  clear_retry (self);
  begin (self);

  return G_SOURCE_REMOVE;
}

static void
give_up (StewardServer *self,
         const char    *reason)
{
  g_autofree char *window = format_duration (self->crash_window_ms);
  g_autofree char *why = NULL;
  g_autofree char *detail = NULL;

  /* Translators: the first %u is a count of crashes, %s a duration such as
   * "3 minutes", the last %s what the server's exit said. */
  why = g_strdup_printf (_("It stopped %u times within %s, so Steward does not start it again "
                           "by itself. The last time: %s."),
                         self->crash_times->len, window, reason);
  detail = build_detail (self, why);

  self->generation++;
  set_retry_in (self, 0);
  set_status (self, STEWARD_SERVER_STATUS_FAILED, _("Failed: keeps crashing"), detail);
  host_event (self, STEWARD_LOG_LEVEL_ERROR, _("Gave up: it crashed %u times within %s"),
              self->crash_times->len, window);
}

/* After a crash: start again after the backoff, or give up when it
 * keeps crashing. */
static void
crashed (StewardServer *self,
         const char    *reason)
{
  gint64 now = g_get_monotonic_time ();
  g_autofree char *why = NULL;
  g_autofree char *detail = NULL;
  g_autofree char *delay_text = NULL;
  guint delay_ms;

  /* A server that ran for a good while before it crashed starts over from
   * the shortest delay. */
  if (self->ready_since != 0 &&
      now - self->ready_since >= (gint64) self->crash_window_ms * 1000 / 3)
    self->backoff_ms = self->backoff_base_ms;

  drop_client (self);
  self->generation++;
  g_clear_pointer (&self->resolved, g_hash_table_unref);

  host_event (self, STEWARD_LOG_LEVEL_ERROR, _("Exited: %s"), reason);

  g_array_append_val (self->crash_times, now);
  prune_crashes (self, now);
  if (self->crash_times->len >= STEWARD_SERVER_CRASH_LIMIT)
    {
      give_up (self, reason);
      return;
    }

  /* Jitter of ±10 % keeps servers that crashed together from coming
   * back in lockstep. */
  delay_ms = (guint) (self->backoff_ms * g_random_double_range (0.9, 1.1));
  delay_ms = MAX (delay_ms, 1);
  self->backoff_ms = MIN (self->backoff_ms * 2, self->backoff_max_ms);

  self->retry_deadline = now + (gint64) delay_ms * 1000;
  self->retry_source = g_timeout_add (delay_ms, retry_cb, self);
  self->countdown_source = g_timeout_add (1000, countdown_cb, self);

  /* Translators: %s is what the server's exit said. */
  why = g_strdup_printf (_("It stopped unexpectedly: %s."), reason);
  detail = build_detail (self, why);
  if (set_shown_string (&self->detail_text, detail))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DETAIL_TEXT]);
  update_countdown (self);

  delay_text = g_strdup_printf ("%.1f", delay_ms / 1000.0);
  host_event (self, STEWARD_LOG_LEVEL_INFO, _("Restarting in %s s"), delay_text);
}

/* What went wrong, with the stderr lines kept, for the status. */
static StewardServerFailure *
describe_failure (StewardServer *self,
                  const GError  *error)
{
  g_autofree const char **lines = g_new0 (const char *, self->stderr_lines.length + 1);
  const char *url = NULL;
  guint i = 0;

  for (GList *l = self->stderr_lines.head; l != NULL; l = l->next)
    lines[i++] = l->data;

  if (steward_server_config_is_remote (self->config))
    url = steward_server_config_get_url (self->config);

  return steward_server_failure_new (error, url, lines);
}

/* A remote server that had answered stopped answering: reach for it again
 * and again, less often each time but at least every few seconds, so that
 * it is Ready soon after it is back. None of this counts as a crash. */
static void
disconnected (StewardServer *self,
              const char    *reason)
{
  g_autoptr(McpClient) client = self->client != NULL ? g_object_ref (self->client) : NULL;
  guint max_ms = MIN (self->backoff_max_ms, STEWARD_SERVER_RECONNECT_MAX_MS);
  guint delay_ms = self->backoff_base_ms;
  g_autofree char *why = NULL;

  drop_client (self);
  self->generation++;
  g_clear_pointer (&self->resolved, g_hash_table_unref);
  clear_retry (self);

  /* Its session went with the server; closing only stops the transport
   * from reopening its stream. */
  if (client != NULL)
    mcp_client_close_async (client, NULL, NULL, NULL);

  host_event (self, STEWARD_LOG_LEVEL_WARNING, _("Disconnected: %s"), reason);

  for (guint i = 0; i < self->reconnect_attempt && delay_ms < max_ms; i++)
    delay_ms *= 2;
  delay_ms = MIN (delay_ms, max_ms);
  delay_ms = MAX ((guint) (delay_ms * g_random_double_range (0.9, 1.1)), 1);
  self->reconnect_attempt++;

  self->retry_deadline = g_get_monotonic_time () + (gint64) delay_ms * 1000;
  self->retry_source = g_timeout_add (delay_ms, retry_cb, self);
  self->countdown_source = g_timeout_add (1000, countdown_cb, self);

  /* Translators: %s says what broke, such as "Connection refused". */
  why = g_strdup_printf (_("The server stopped answering: %s."), reason);
  if (set_string (&self->detail_text, why))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DETAIL_TEXT]);
  update_countdown (self);
}

static void
watch_lost_cb (StewardServer      *self,
               const char         *reason,
               StewardServerWatch *watch)
{
  if (watch == self->watch && self->connected && !self->stopping)
    disconnected (self, reason);
}

static void
transport_log_cb (StewardServer       *self,
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
    host_event (self, STEWARD_LOG_LEVEL_WARNING, "%s", text);
}

static void
client_diagnostic_cb (StewardServer *self,
                      const char    *text,
                      McpClient     *client)
{
  host_event (self, STEWARD_LOG_LEVEL_WARNING, "%s", text);
}

static void
client_trace_cb (StewardServer     *self,
                 McpTraceDirection  direction,
                 McpMessage        *message,
                 McpClient         *client)
{
  g_autofree char *text = steward_trace_names_summarize (self->trace_names, message,
                                                         direction == MCP_TRACE_OUTGOING);
  g_autofree char *detail = NULL;
  gsize size = mcp_message_get_wire_size (message);

  /* What we send was built here and has no wire size yet; ours are small. */
  if (size == 0)
    g_free (mcp_message_to_string (message, &size));

  if (direction == MCP_TRACE_INCOMING)
    self->last_in_size = size;

  detail = message_detail (message, size);
  append_entry (self, STEWARD_LOG_SOURCE_TRACE, STEWARD_LOG_LEVEL_DEBUG,
                direction == MCP_TRACE_INCOMING ? STEWARD_LOG_DIRECTION_IN
                                                : STEWARD_LOG_DIRECTION_OUT,
                NULL, text, detail, size);
}

static void
client_log_message_cb (StewardServer *self,
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

static void
client_closed_cb (StewardServer *self,
                  const GError  *error,
                  McpClient     *client)
{
  g_autoptr(StewardServer) hold = g_object_ref (self);

  g_autoptr(StewardServerFailure) failure = NULL;
  const char *reason = _("the connection closed");

  /* Before it was ready, the connect callback says what went wrong; when
   * we close it, stop_async does. */
  if (client != self->client || !self->connected || self->stopping)
    return;

  if (error != NULL)
    {
      failure = describe_failure (self, error);
      reason = steward_server_failure_get_cause (failure);
    }

  /* A remote server that closed the connection may be back in a moment;
   * a local one that exited crashed. */
  if (steward_server_config_is_remote (self->config))
    disconnected (self, reason);
  else
    crashed (self, reason);
}

static void
setup_client (McpClient *client,
              gpointer   user_data)
{
  StewardServer *self = user_data;

  /* Probing a remote server may try a second transport with a new
   * client; the first is dropped. */
  drop_client (self);
  self->client = g_object_ref (client);
  steward_trace_names_reset (self->trace_names);

  mcp_client_set_client_info (client, "steward", "Steward", PACKAGE_VERSION);
  mcp_client_set_delegate (client, MCP_CLIENT_DELEGATE (self));

  g_signal_connect_object (mcp_client_get_transport (client), "log",
                           G_CALLBACK (transport_log_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (client, "trace", G_CALLBACK (client_trace_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (client, "log-message", G_CALLBACK (client_log_message_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (client, "diagnostic", G_CALLBACK (client_diagnostic_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (client, "closed", G_CALLBACK (client_closed_cb), self,
                           G_CONNECT_SWAPPED);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CLIENT]);
}

static void
become_ready (StewardServer *self)
{
  const char *revision = mcp_client_get_protocol_version (self->client);
  g_autofree char *text = NULL;

  self->connected = TRUE;
  self->answered = TRUE;
  self->reconnect_attempt = 0;
  self->ready_since = g_get_monotonic_time ();

  if (steward_server_config_is_remote (self->config))
    {
      self->watch = steward_server_watch_new (self->client);
      if (self->watch_interval_ms > 0)
        steward_server_watch_set_interval (self->watch, self->watch_interval_ms);
      g_signal_connect_object (self->watch, "lost", G_CALLBACK (watch_lost_cb), self,
                               G_CONNECT_SWAPPED);
    }
  g_clear_pointer (&self->resolved, g_hash_table_unref);
  set_revision (self, revision);

  /* Translators: the status of a server that is connected; %s is the
   * protocol revision, such as 2025-11-25. */
  text = g_strdup_printf (_("Ready · %s"), revision ? revision : "?");
  set_status (self, STEWARD_SERVER_STATUS_READY, text, NULL);
  host_event (self, STEWARD_LOG_LEVEL_INFO, _("Ready, speaking revision %s"),
              revision ? revision : "?");
}

static void
connect_failed (StewardServer *self,
                const GError  *error)
{
  g_autoptr(StewardServerFailure) failure = describe_failure (self, error);
  StewardServerFailureKind kind = steward_server_failure_get_kind (failure);
  g_autofree char *detail = NULL;

  if (self->answered && kind != STEWARD_SERVER_FAILURE_SPAWN &&
      kind != STEWARD_SERVER_FAILURE_NOT_FOUND && kind != STEWARD_SERVER_FAILURE_UNAUTHORIZED &&
      kind != STEWARD_SERVER_FAILURE_TLS)
    {
      /* It ran before: away for now, or crashing. */
      if (steward_server_config_is_remote (self->config))
        disconnected (self, steward_server_failure_get_cause (failure));
      else
        crashed (self, steward_server_failure_get_cause (failure));
      return;
    }

  /* It never answered, or answers that its address or credentials are
   * wrong: something in its settings, which a restart cannot mend. It is
   * tried again when the person asks, or when the settings change. */
  drop_client (self);
  detail = build_detail (self, error->message);
  fail (self, steward_server_failure_get_summary (failure), detail);
}

static void
connect_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(Attempt) attempt = user_data;
  StewardServer *self = attempt->self;
  g_autoptr(GError) error = NULL;

  if (!mcp_client_connect_finish (MCP_CLIENT (object), result, &error))
    {
      if (attempt_is_current (attempt) && MCP_CLIENT (object) == self->client)
        connect_failed (self, error);
      return;
    }

  if (!attempt_is_current (attempt) || MCP_CLIENT (object) != self->client)
    return;

  become_ready (self);
}

static void
connect_http_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(Attempt) attempt = user_data;
  StewardServer *self = attempt->self;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(GError) error = NULL;

  client = mcp_connect_http_finish (result, &error);

  if (!attempt_is_current (attempt))
    {
      /* Connected after all, but no longer wanted. */
      if (client != NULL && client != self->client)
        mcp_client_close_async (client, NULL, NULL, NULL);
      return;
    }

  if (client == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        connect_failed (self, error);
      return;
    }

  g_assert (client == self->client);
  become_ready (self);
}

static McpHttpKind
http_kind (StewardServerConfig *config)
{
  JsonObject *json = steward_server_config_get_json (config);

  /* An entry that names no transport gets the specification's
   * backwards-compatible probe, Streamable HTTP first. */
  if (!json_object_has_member (json, "transport") && !json_object_has_member (json, "type"))
    return MCP_HTTP_KIND_AUTO;
  if (steward_server_config_get_transport (config) == STEWARD_SERVER_TRANSPORT_SSE)
    return MCP_HTTP_KIND_SSE;

  return MCP_HTTP_KIND_STREAMABLE;
}

/* A local server starts with the permissions of its sandbox profile
 * (steward-sandbox-profile.h), built from its entry and the roots shared
 * with it. */
static McpStdioTransport *
new_stdio_transport (StewardServer  *self,
                     char          **argv,
                     GHashTable     *resolved,
                     GError        **error)
{
  GListModel *roots = G_LIST_MODEL (self->roots);
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(StewardSandboxProfile) profile = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (roots); i++)
    {
      g_autoptr(StewardRoot) root = g_list_model_get_item (roots, i);

      if (steward_root_is_visible_to (root, self->name))
        g_ptr_array_add (paths, g_strdup (steward_root_get_path (root)));
    }
  g_ptr_array_add (paths, NULL);

  profile = steward_sandbox_profile_new (self->config, (const char * const *) paths->pdata);

  return steward_sandbox_launch_new_transport (profile, (const char * const *) argv,
                                               steward_server_config_get_cwd (self->config),
                                               resolved, error);
}

static void
connect_now (StewardServer *self)
{
  StewardServerConfig *config = self->config;
  g_autoptr(GHashTable) resolved = g_steal_pointer (&self->resolved);

  if (steward_server_config_is_remote (config))
    {
      mcp_connect_http_async (steward_server_config_get_url (config), resolved,
                              http_kind (config), setup_client, self, self->cancellable,
                              connect_http_cb, attempt_new (self));
    }
  else
    {
      g_auto(GStrv) argv = steward_server_config_dup_argv (config);
      g_autoptr(McpStdioTransport) transport = NULL;
      g_autoptr(McpClient) client = NULL;
      g_autoptr(GError) error = NULL;

      transport = new_stdio_transport (self, argv, resolved, &error);
      if (transport == NULL)
        {
          fail (self, error->message,
                _("Or choose “Edit…” in the server’s menu and turn on “Full access (no "
                  "sandbox)”, only if you trust the server with everything you can do on "
                  "this computer."));
          return;
        }

      client = mcp_client_new (MCP_TRANSPORT (transport));
      setup_client (client, self);
      mcp_client_connect_async (client, self->cancellable, connect_cb, attempt_new (self));
    }
}

static void
resolve_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(Attempt) attempt = user_data;
  StewardServer *self = attempt->self;
  g_autoptr(GError) error = NULL;
  GHashTable *values;

  values = steward_secrets_resolve_finish (STEWARD_SECRETS (object), result, &error);
  if (!attempt_is_current (attempt))
    {
      g_clear_pointer (&values, g_hash_table_unref);
      return;
    }

  if (values == NULL)
    {
      /* The keyring's error names the variable or header and the secret. */
      fail (self, error->message,
            _("Store the secret again in the server’s settings, then start the server."));
      return;
    }

  g_clear_pointer (&self->resolved, g_hash_table_unref);
  self->resolved = values;
  connect_now (self);
}

static gboolean
has_reference (GHashTable *table)
{
  GHashTableIter iter;
  gpointer value;

  if (table == NULL)
    return FALSE;

  g_hash_table_iter_init (&iter, table);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (value != NULL && strstr (value, "${keyring:") != NULL)
      return TRUE;

  return FALSE;
}

/* Replaces the "${keyring:ID}" references among the environment or the
 * headers with the secrets. Without any, the keyring is not asked. */
static void
resolve_secrets (StewardServer *self)
{
  StewardServerConfig *config = self->config;
  GHashTable *table = steward_server_config_is_remote (config)
                      ? steward_server_config_get_headers (config)
                      : steward_server_config_get_env (config);

  g_clear_pointer (&self->resolved, g_hash_table_unref);

  if (has_reference (table))
    {
      steward_secrets_resolve_async (self->secrets, table, self->cancellable, resolve_cb,
                                     attempt_new (self));
      return;
    }

  self->resolved = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  if (table != NULL)
    {
      GHashTableIter iter;
      gpointer name;
      gpointer value;

      g_hash_table_iter_init (&iter, table);
      while (g_hash_table_iter_next (&iter, &name, &value))
        g_hash_table_insert (self->resolved, g_strdup (name), g_strdup (value));
    }

  connect_now (self);
}

static gboolean
is_executable_file (const char *path)
{
  return g_file_test (path, G_FILE_TEST_IS_EXECUTABLE) &&
         !g_file_test (path, G_FILE_TEST_IS_DIR);
}

/* Whether the command can be found the way the transport will look for
 * it: on the PATH the server gets (ours, unless the config sets one), or
 * relative to its working folder. Says why not in @reason. */
static gboolean
check_command (StewardServer  *self,
               char          **reason,
               char          **detail)
{
  StewardServerConfig *config = self->config;
  const char *command = steward_server_config_get_command (config);
  const char *cwd = steward_server_config_get_cwd (config);
  GHashTable *env = steward_server_config_get_env (config);
  const char *search_path = env ? g_hash_table_lookup (env, "PATH") : NULL;
  g_autofree char *current = g_get_current_dir ();
  g_autofree char *path_id = NULL;
  g_auto(GStrv) dirs = NULL;

  if (command == NULL || command[0] == '\0')
    {
      *reason = g_strdup (_("no command is configured"));
      *detail = g_strdup (_("Give the server a command in its settings."));
      return FALSE;
    }

  /* From inside Flatpak the host's programs cannot be seen, so a server
   * that runs there is not looked for. */
  if (steward_sandbox_is_flatpak () && steward_server_config_get_run_on_host (config))
    {
      if (steward_sandbox_can_spawn_on_host ())
        return TRUE;

      *reason = g_strdup (_("Steward may not start programs on the host"));
      *detail = steward_sandbox_diagnose_no_host ();
      return FALSE;
    }

  if (cwd == NULL)
    cwd = current;

  if (strchr (command, '/') != NULL)
    {
      g_autofree char *path = g_path_is_absolute (command)
                              ? g_strdup (command)
                              : g_build_filename (cwd, command, NULL);

      if (is_executable_file (path))
        return TRUE;

      if (!g_file_test (path, G_FILE_TEST_EXISTS) && steward_sandbox_is_flatpak ())
        {
          *reason = steward_sandbox_diagnose_missing (command);
          /* Translators: %s is a path, such as /home/ada/bin/server. */
          *detail = g_strdup_printf (_("Steward looked for %s inside its sandbox."), path);
          return FALSE;
        }

      if (g_file_test (path, G_FILE_TEST_EXISTS))
        /* Translators: %s is a command, such as /opt/server/run. */
        *reason = g_strdup_printf (_("`%s` is not an executable file"), command);
      else
        *reason = g_strdup_printf (_("`%s` was not found"), command);
      *detail = g_strdup_printf (_("Steward looked for %s. Check the server’s command, or "
                                   "install the program."),
                                 path);
      return FALSE;
    }

  path_id = search_path ? steward_secret_reference_get_id (search_path) : NULL;
  if (search_path == NULL || path_id != NULL)
    search_path = g_getenv ("PATH");
  if (search_path == NULL)
    search_path = DEFAULT_SEARCH_PATH;

  dirs = g_strsplit (search_path, ":", -1);
  for (guint i = 0; dirs[i] != NULL; i++)
    {
      const char *dir = dirs[i][0] != '\0' ? dirs[i] : ".";
      g_autofree char *path = g_path_is_absolute (dir)
                              ? g_build_filename (dir, command, NULL)
                              : g_build_filename (cwd, dir, command, NULL);

      if (is_executable_file (path))
        return TRUE;
    }

  if (steward_sandbox_is_flatpak ())
    {
      *reason = steward_sandbox_diagnose_missing (command);
      /* Translators: %s is a list of folders, such as /app/bin:/usr/bin. */
      *detail = g_strdup_printf (_("Steward looked in %s inside its sandbox."), search_path);
      return FALSE;
    }

  /* Translators: %s is a command, such as npx. */
  *reason = g_strdup_printf (_("`%s` was not found on PATH"), command);
  *detail = g_strdup_printf (_("Steward looked in %s. Install the program, or give its full "
                               "path as the server’s command."),
                             search_path);
  return FALSE;
}

static void
launch (StewardServer *self)
{
  g_autofree char *target = format_target (self->config);

  self->generation++;
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  g_queue_clear_full (&self->stderr_lines, g_free);

  if (!steward_server_config_is_remote (self->config))
    {
      g_autofree char *reason = NULL;
      g_autofree char *detail = NULL;

      if (!check_command (self, &reason, &detail))
        {
          fail (self, reason, detail);
          return;
        }

      host_event (self, STEWARD_LOG_LEVEL_INFO, _("Starting: %s"), target);
    }
  else
    host_event (self, STEWARD_LOG_LEVEL_INFO, _("Connecting to %s"), target);

  if (self->reconnect_attempt > 0)
    {
      g_autofree char *text = NULL;

      /* Translators: the status of a remote server while Steward tries to
       * reach it again; %u counts the attempts. */
      text = g_strdup_printf (_("Disconnected — reconnecting (attempt %u)"),
                              self->reconnect_attempt);
      set_status (self, STEWARD_SERVER_STATUS_DISCONNECTED, text, self->detail_text);
    }
  else
    set_status (self, STEWARD_SERVER_STATUS_STARTING, _("Starting…"), NULL);
  resolve_secrets (self);
}

/* Consent */

static void
withdraw_consent (StewardServer *self)
{
  g_autoptr(StewardApproval) consent = g_steal_pointer (&self->consent);

  if (consent == NULL)
    return;

  g_signal_handlers_disconnect_by_data (consent, self);
  if (!steward_approval_get_finished (consent))
    steward_approval_withdraw (consent);
}

static void
consent_responded_cb (StewardServer         *self,
                      StewardApprovalAction  action,
                      JsonObject            *data,
                      StewardApproval       *approval)
{
  g_autoptr(StewardServer) hold = g_object_ref (self);
  g_autoptr(StewardServerConfig) chosen = NULL;
  g_autoptr(GError) error = NULL;

  if (approval != self->consent)
    return;

  withdraw_consent (self);

  if (action != STEWARD_APPROVAL_ACTION_ALLOW)
    {
      self->generation++;
      set_status (self, STEWARD_SERVER_STATUS_FAILED,
                  _("You did not allow this server to start"),
                  _("Start it again to be asked again."));
      host_event (self, STEWARD_LOG_LEVEL_WARNING, _("Permission to start refused"));
      return;
    }

  host_event (self, STEWARD_LOG_LEVEL_INFO, _("Permission to start given"));
  chosen = steward_network_choice_from_consent (self->config, data);
  if (chosen != NULL)
    {
      /* Taken before it is written, so that the entry coming back from the
       * servers file changes nothing consent covers: no second question. */
      g_set_object (&self->config, chosen);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONFIG]);
      steward_server_put_config (self, chosen);
    }
  if (!steward_config_can_remember_consent (self->config_store))
    host_event (self, STEWARD_LOG_LEVEL_WARNING,
                _("The keyring is not available, so this permission lasts only until Steward "
                  "quits"));
  if (!steward_config_record_consent (self->config_store, self->config, &error))
    host_event (self, STEWARD_LOG_LEVEL_WARNING,
                _("The permission could not be remembered, so it will be asked again next "
                  "time: %s"),
                error->message);

  launch (self);
}

static JsonArray *
sorted_names (GHashTable *table)
{
  g_autofree const char **keys = NULL;
  JsonArray *array = json_array_new ();
  guint n_keys = 0;

  if (table == NULL)
    return array;

  keys = (const char **) g_hash_table_get_keys_as_array (table, &n_keys);
  for (guint i = 1; i < n_keys; i++)
    for (guint j = i; j > 0 && strcmp (keys[j - 1], keys[j]) > 0; j--)
      {
        const char *swap = keys[j];

        keys[j] = keys[j - 1];
        keys[j - 1] = swap;
      }

  for (guint i = 0; i < n_keys; i++)
    json_array_add_string_element (array, keys[i]);

  return array;
}

/* What consent covers, as the person is shown it: never a value of the
 * environment or of a header, only their names. */
static JsonObject *
describe_for_consent (StewardServerConfig *config)
{
  JsonObject *object = json_object_new ();

  json_object_set_string_member (object, "transport",
                                 steward_server_transport_to_string (
                                   steward_server_config_get_transport (config)));

  if (steward_server_config_is_remote (config))
    {
      json_object_set_string_member (object, "url", steward_server_config_get_url (config));
      json_object_set_array_member (object, "headers",
                                    sorted_names (steward_server_config_get_headers (config)));
    }
  else
    {
      const char * const *args = steward_server_config_get_args (config);
      JsonArray *array = json_array_new ();

      for (guint i = 0; args != NULL && args[i] != NULL; i++)
        json_array_add_string_element (array, args[i]);

      json_object_set_string_member (object, "command",
                                     steward_server_config_get_command (config));
      json_object_set_array_member (object, "args", array);
      if (steward_server_config_get_cwd (config) != NULL)
        json_object_set_string_member (object, "cwd", steward_server_config_get_cwd (config));
      else
        json_object_set_null_member (object, "cwd");
      json_object_set_array_member (object, "env",
                                    sorted_names (steward_server_config_get_env (config)));
      json_object_set_object_member (object, "sandbox", steward_sandbox_launch_describe (config));
    }

  return object;
}

static void
ask_consent (StewardServer *self)
{
  g_autoptr(JsonObject) request = describe_for_consent (self->config);
  g_autoptr(StewardServerConfig) previous = NULL;
  g_autofree char *target = format_target (self->config);

  previous = steward_config_get_consented (self->config_store, self->name);
  json_object_set_boolean_member (request, "changed", previous != NULL);
  json_object_set_boolean_member (request, "remembered",
                                  steward_config_can_remember_consent (self->config_store));
  if (previous != NULL)
    json_object_set_object_member (request, "previous", describe_for_consent (previous));

  withdraw_consent (self);
  self->generation++;
  self->consent = steward_approval_new (STEWARD_APPROVAL_KIND_CONSENT, self->name, request);
  g_signal_connect_object (self->consent, "responded", G_CALLBACK (consent_responded_cb), self,
                           G_CONNECT_SWAPPED);

  set_status (self, STEWARD_SERVER_STATUS_AWAITING_CONSENT,
              _("Waiting for your permission to start"), NULL);
  if (previous != NULL)
    host_event (self, STEWARD_LOG_LEVEL_NOTICE,
                _("The command changed since it was allowed; asking again: %s"), target);
  else
    host_event (self, STEWARD_LOG_LEVEL_NOTICE, _("Asking for permission to start: %s"), target);

  steward_approvals_add (self->approvals, self->consent);
}

/* Starts, asking for consent first when the command is new or changed. */
static void
begin (StewardServer *self)
{
  clear_retry (self);

  if (!steward_config_has_consent (self->config_store, self->config))
    ask_consent (self);
  else
    launch (self);
}

/* Stopping */

static void
finish_stop (StewardServer *self)
{
  g_autoptr(GPtrArray) tasks = g_steal_pointer (&self->stop_tasks);

  self->stop_tasks = g_ptr_array_new_with_free_func (g_object_unref);
  self->stopping = FALSE;

  if (self->wanted)
    {
      /* start() came while it was closing. */
      begin (self);
    }
  else
    set_idle_status (self);

  for (guint i = 0; i < tasks->len; i++)
    g_task_return_boolean (g_ptr_array_index (tasks, i), TRUE);
}

static void
close_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(StewardServer) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!mcp_client_close_finish (MCP_CLIENT (object), result, &error))
    g_debug ("%s: closing: %s", self->name, error->message);

  if (MCP_CLIENT (object) == self->client)
    drop_client (self);

  host_event (self, STEWARD_LOG_LEVEL_INFO, _("Stopped"));
  finish_stop (self);
}

/* In-flight tool calls, for the cause of a sampling request. */

typedef struct {
  StewardServer *self;
  GList         *link;
  char          *tool;
  GCancellable  *cancellable;
} Call;

static void
call_free (Call *call)
{
  g_queue_delete_link (&call->self->calls, call->link);
  g_object_unref (call->self);
  g_free (call->tool);
  g_clear_object (&call->cancellable);
  g_free (call);
}

static char *
dup_cause (StewardServer *self)
{
  Call *call = g_queue_peek_tail (&self->calls);

  if (call == NULL)
    return NULL;

  /* Translators: what caused a sampling or elicitation request; %s is a
   * tool's name. */
  return g_strdup_printf (_("Tool call “%s”"), call->tool);
}

static void
call_tool_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  McpToolResult *tool_result;

  tool_result = mcp_client_call_tool_finish (MCP_CLIENT (object), result, &error);
  if (tool_result == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, tool_result, g_object_unref);
}

/* McpClientDelegate */

static McpClientFeatures
steward_server_get_features (McpClientDelegate *delegate)
{
  /* Sampling with tools: the broker hands them to the model, and the
   * model's calls back to the server, which runs them. */
  return MCP_CLIENT_FEATURE_ROOTS | MCP_CLIENT_FEATURE_ROOTS_LIST_CHANGED |
         MCP_CLIENT_FEATURE_SAMPLING | MCP_CLIENT_FEATURE_SAMPLING_TOOLS |
         MCP_CLIENT_FEATURE_ELICITATION_FORM | MCP_CLIENT_FEATURE_ELICITATION_URL;
}

static void
create_message_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  JsonObject *reply;

  reply = steward_sampling_broker_create_message_finish (STEWARD_SAMPLING_BROKER (object),
                                                         result, &error);
  if (reply == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, reply, (GDestroyNotify) json_object_unref);
}

static void
steward_server_create_message_async (McpClientDelegate   *delegate,
                                     McpClient           *client,
                                     JsonObject          *params,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  StewardServer *self = STEWARD_SERVER (delegate);
  g_autoptr(GTask) task = NULL;
  g_autofree char *cause = dup_cause (self);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_server_create_message_async);

  steward_sampling_broker_create_message_async (self->broker, self->name, params, cause,
                                                cancellable, create_message_cb,
                                                g_steal_pointer (&task));
}

static JsonObject *
steward_server_create_message_finish (McpClientDelegate  *delegate,
                                      GAsyncResult       *result,
                                      GError            **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
elicit_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  JsonObject *reply;

  reply = steward_sampling_broker_elicit_finish (STEWARD_SAMPLING_BROKER (object), result,
                                                 &error);
  if (reply == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, reply, (GDestroyNotify) json_object_unref);
}

static void
steward_server_elicit_async (McpClientDelegate   *delegate,
                             McpClient           *client,
                             JsonObject          *params,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  StewardServer *self = STEWARD_SERVER (delegate);
  g_autoptr(GTask) task = NULL;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_server_elicit_async);

  steward_sampling_broker_elicit_async (self->broker, self->name, params, cancellable,
                                        elicit_cb, g_steal_pointer (&task));
}

static JsonObject *
steward_server_elicit_finish (McpClientDelegate  *delegate,
                              GAsyncResult       *result,
                              GError            **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
steward_server_list_roots_async (McpClientDelegate   *delegate,
                                 McpClient           *client,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  StewardServer *self = STEWARD_SERVER (delegate);
  g_autoptr(GTask) task = NULL;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_server_list_roots_async);
  g_task_return_pointer (task, steward_roots_list_for_server (self->roots, self->name),
                         (GDestroyNotify) json_object_unref);
}

static JsonObject *
steward_server_list_roots_finish (McpClientDelegate  *delegate,
                                  GAsyncResult       *result,
                                  GError            **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
steward_server_delegate_init (McpClientDelegateInterface *iface)
{
  iface->get_features = steward_server_get_features;
  iface->create_message_async = steward_server_create_message_async;
  iface->create_message_finish = steward_server_create_message_finish;
  iface->elicit_async = steward_server_elicit_async;
  iface->elicit_finish = steward_server_elicit_finish;
  iface->list_roots_async = steward_server_list_roots_async;
  iface->list_roots_finish = steward_server_list_roots_finish;
}

static void
roots_changed_cb (StewardServer *self,
                  const char    *server,
                  StewardRoots  *roots)
{
  if (server != NULL && g_strcmp0 (server, self->name) != 0)
    return;

  if (self->client != NULL && self->connected)
    mcp_client_notify_roots_changed (self->client);

  /* A sandbox's folders are set when it starts: a folder shared now is
   * not yet in it, and one no longer shared is still there. */
  if (self->client != NULL && !steward_server_config_is_remote (self->config) &&
      !steward_server_config_get_run_on_host (self->config))
    host_event (self, STEWARD_LOG_LEVEL_WARNING, "%s",
                _("The shared folders changed: restart the server for its sandbox to "
                  "have them, and to lose a folder you stopped sharing."));
}

static void restart_stopped_cb (GObject      *object,
                                GAsyncResult *result,
                                gpointer      user_data);

/* Consent withdrawn by an edit of consents.json while the server runs, or
 * is on its way: it stops, and starts again only once the person allows it
 * anew. A server that waits for consent already, or is stopped, has nothing
 * to undo. */
static void
consents_changed_cb (StewardServer *self,
                     StewardConfig *config)
{
  if (!self->wanted || self->consent != NULL)
    return;
  if (steward_config_has_consent (self->config_store, self->config))
    return;

  host_event (self, STEWARD_LOG_LEVEL_WARNING,
              _("Permission to run this server was withdrawn; stopping it until you allow it again"));
  steward_server_stop_async (self, NULL, restart_stopped_cb, NULL);
}

/* GObject */

static void
steward_server_dispose (GObject *object)
{
  StewardServer *self = STEWARD_SERVER (object);

  clear_retry (self);
  withdraw_consent (self);
  g_cancellable_cancel (self->cancellable);

  if (self->client != NULL)
    {
      g_autoptr(McpClient) client = g_object_ref (self->client);

      drop_client (self);
      mcp_client_close_async (client, NULL, NULL, NULL);
    }

  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->resolved, g_hash_table_unref);
  g_clear_object (&self->config);
  g_clear_object (&self->config_store);
  g_clear_object (&self->secrets);
  g_clear_object (&self->roots);
  g_clear_object (&self->log_store);
  g_clear_object (&self->approvals);
  g_clear_object (&self->broker);
  g_clear_weak_pointer (&self->host);

  G_OBJECT_CLASS (steward_server_parent_class)->dispose (object);
}

static void
steward_server_finalize (GObject *object)
{
  StewardServer *self = STEWARD_SERVER (object);

  g_assert (g_queue_is_empty (&self->calls));

  g_queue_clear_full (&self->stderr_lines, g_free);
  g_clear_pointer (&self->crash_times, g_array_unref);
  g_clear_pointer (&self->stop_tasks, g_ptr_array_unref);
  g_clear_pointer (&self->trace_names, steward_trace_names_free);
  g_free (self->name);
  g_free (self->status_text);
  g_free (self->detail_text);
  g_free (self->revision);

  G_OBJECT_CLASS (steward_server_parent_class)->finalize (object);
}

static void
steward_server_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  StewardServer *self = STEWARD_SERVER (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;

    case PROP_CONFIG:
      g_value_set_object (value, self->config);
      break;

    case PROP_STATUS:
      g_value_set_enum (value, self->status);
      break;

    case PROP_STATUS_TEXT:
      g_value_set_string (value, self->status_text);
      break;

    case PROP_DETAIL_TEXT:
      g_value_set_string (value, self->detail_text);
      break;

    case PROP_CLIENT:
      g_value_set_object (value, self->client);
      break;

    case PROP_REVISION:
      g_value_set_string (value, self->revision);
      break;

    case PROP_RETRY_IN:
      g_value_set_uint (value, self->retry_in);
      break;

    case PROP_ENABLED:
      g_value_set_boolean (value, steward_server_get_enabled (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_server_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  StewardServer *self = STEWARD_SERVER (object);

  switch (prop_id)
    {
    case PROP_CONFIG:
      steward_server_set_config (self, g_value_get_object (value));
      break;

    case PROP_ENABLED:
      steward_server_set_enabled (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_server_class_init (StewardServerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = steward_server_dispose;
  object_class->finalize = steward_server_finalize;
  object_class->get_property = steward_server_get_property;
  object_class->set_property = steward_server_set_property;

  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CONFIG] =
    g_param_spec_object ("config", NULL, NULL, STEWARD_TYPE_SERVER_CONFIG,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STATUS] =
    g_param_spec_enum ("status", NULL, NULL, STEWARD_TYPE_SERVER_STATUS,
                       STEWARD_SERVER_STATUS_STOPPED,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STATUS_TEXT] =
    g_param_spec_string ("status-text", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_DETAIL_TEXT] =
    g_param_spec_string ("detail-text", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CLIENT] =
    g_param_spec_object ("client", NULL, NULL, MCP_TYPE_CLIENT,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_REVISION] =
    g_param_spec_string ("revision", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_RETRY_IN] =
    g_param_spec_uint ("retry-in", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ENABLED] =
    g_param_spec_boolean ("enabled", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
steward_server_init (StewardServer *self)
{
  g_queue_init (&self->stderr_lines);
  g_queue_init (&self->calls);
  self->crash_times = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->stop_tasks = g_ptr_array_new_with_free_func (g_object_unref);
  self->trace_names = steward_trace_names_new ();
  self->cancellable = g_cancellable_new ();
  self->backoff_base_ms = STEWARD_SERVER_BACKOFF_BASE_MS;
  self->backoff_max_ms = STEWARD_SERVER_BACKOFF_MAX_MS;
  self->crash_window_ms = STEWARD_SERVER_CRASH_WINDOW_MS;
  self->backoff_ms = self->backoff_base_ms;
}

/* Public API */

GType
steward_server_status_get_type (void)
{
  static gsize type_id = 0;

  if (g_once_init_enter (&type_id))
    {
      static const GEnumValue values[] = {
        { STEWARD_SERVER_STATUS_STOPPED, "STEWARD_SERVER_STATUS_STOPPED", "stopped" },
        { STEWARD_SERVER_STATUS_DISABLED, "STEWARD_SERVER_STATUS_DISABLED", "disabled" },
        { STEWARD_SERVER_STATUS_AWAITING_CONSENT, "STEWARD_SERVER_STATUS_AWAITING_CONSENT",
          "awaiting-consent" },
        { STEWARD_SERVER_STATUS_STARTING, "STEWARD_SERVER_STATUS_STARTING", "starting" },
        { STEWARD_SERVER_STATUS_READY, "STEWARD_SERVER_STATUS_READY", "ready" },
        { STEWARD_SERVER_STATUS_RESTARTING, "STEWARD_SERVER_STATUS_RESTARTING", "restarting" },
        { STEWARD_SERVER_STATUS_FAILED, "STEWARD_SERVER_STATUS_FAILED", "failed" },
        { STEWARD_SERVER_STATUS_DISCONNECTED, "STEWARD_SERVER_STATUS_DISCONNECTED",
          "disconnected" },
        { 0, NULL, NULL },
      };
      GType type = g_enum_register_static (g_intern_static_string ("StewardServerStatus"),
                                           values);

      g_once_init_leave (&type_id, type);
    }

  return type_id;
}

/**
 * steward_server_new:
 * @host: the host whose config, secrets, roots, log store, approvals and
 *   sampling broker the server uses
 * @config: what to start
 */
StewardServer *
steward_server_new (StewardHost         *host,
                    StewardServerConfig *config)
{
  StewardServer *self;

  g_return_val_if_fail (STEWARD_IS_HOST (host), NULL);
  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (config), NULL);

  self = g_object_new (STEWARD_TYPE_SERVER, NULL);
  g_set_weak_pointer (&self->host, host);
  self->config_store = g_object_ref (steward_host_get_config (host));
  self->secrets = g_object_ref (steward_host_get_secrets (host));
  self->roots = g_object_ref (steward_host_get_roots (host));
  self->log_store = g_object_ref (steward_host_get_log_store (host));
  self->approvals = g_object_ref (steward_host_get_approvals (host));
  self->broker = g_object_ref (steward_host_get_sampling_broker (host));
  self->name = g_strdup (steward_server_config_get_name (config));
  self->config = g_object_ref (config);
  set_idle_status (self);

  g_signal_connect_object (self->roots, "changed", G_CALLBACK (roots_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->config_store, "consents-changed",
                           G_CALLBACK (consents_changed_cb), self, G_CONNECT_SWAPPED);

  return self;
}

const char *
steward_server_get_name (StewardServer *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER (self), NULL);

  return self->name;
}

StewardServerConfig *
steward_server_get_config (StewardServer *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER (self), NULL);

  return self->config;
}

static void
restart_stopped_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  StewardServer *self = STEWARD_SERVER (object);

  steward_server_stop_finish (self, result, NULL);
  steward_server_start (self);
}

/**
 * steward_server_set_config:
 *
 * Replaces the configuration. A server that runs, or was meant to, starts
 * again when what consent covers changed, and asks for consent again.
 */
void
steward_server_set_config (StewardServer       *self,
                           StewardServerConfig *config)
{
  g_autofree char *old_fingerprint = NULL;
  g_autofree char *new_fingerprint = NULL;
  gboolean was_enabled;
  gboolean enabled;

  g_return_if_fail (STEWARD_IS_SERVER (self));
  g_return_if_fail (STEWARD_IS_SERVER_CONFIG (config));
  g_return_if_fail (g_strcmp0 (steward_server_config_get_name (config), self->name) == 0);

  if (self->config == config)
    return;

  old_fingerprint = steward_server_config_dup_fingerprint (self->config);
  new_fingerprint = steward_server_config_dup_fingerprint (config);
  was_enabled = steward_server_get_enabled (self);

  g_set_object (&self->config, config);
  enabled = steward_server_get_enabled (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONFIG]);
  if (enabled != was_enabled)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ENABLED]);

  if (!enabled)
    {
      if (was_enabled)
        steward_server_stop_async (self, NULL, NULL, NULL);
      return;
    }

  if (!was_enabled)
    {
      steward_server_start (self);
      return;
    }

  if (g_strcmp0 (old_fingerprint, new_fingerprint) == 0 || !self->wanted)
    return;

  host_event (self, STEWARD_LOG_LEVEL_INFO, _("The configuration changed; starting again"));
  g_array_set_size (self->crash_times, 0);
  self->backoff_ms = self->backoff_base_ms;
  steward_server_stop_async (self, NULL, restart_stopped_cb, NULL);
}

StewardServerStatus
steward_server_get_status (StewardServer *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER (self), STEWARD_SERVER_STATUS_STOPPED);

  return self->status;
}

const char *
steward_server_get_status_text (StewardServer *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER (self), NULL);

  return self->status_text;
}

const char *
steward_server_get_detail_text (StewardServer *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER (self), NULL);

  return self->detail_text;
}

McpClient *
steward_server_get_client (StewardServer *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER (self), NULL);

  return self->client;
}

const char *
steward_server_get_revision (StewardServer *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER (self), NULL);

  return self->revision;
}

guint
steward_server_get_retry_in (StewardServer *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER (self), 0);

  return self->retry_in;
}

gboolean
steward_server_get_enabled (StewardServer *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER (self), FALSE);

  return !steward_server_config_get_disabled (self->config);
}

static void
save_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(StewardServer) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!steward_config_save_finish (STEWARD_CONFIG (object), result, &error))
    host_event (self, STEWARD_LOG_LEVEL_ERROR, _("The servers file could not be saved: %s"),
                error->message);
}

/**
 * steward_server_set_enabled:
 *
 * Writes "disabled" to the servers file, then stops or starts the server.
 */
void
steward_server_set_enabled (StewardServer *self,
                            gboolean       enabled)
{
  g_autoptr(StewardServerConfig) config = NULL;

  g_return_if_fail (STEWARD_IS_SERVER (self));

  enabled = !!enabled;
  if (steward_server_get_enabled (self) == enabled)
    return;

  config = steward_server_config_with_disabled (self->config, !enabled);
  steward_server_put_config (self, config);
}

void
steward_server_put_config (StewardServer       *self,
                           StewardServerConfig *config)
{
  StewardServerConfig *stored;

  steward_config_put_server (self->config_store, config);
  steward_config_save_async (self->config_store, NULL, save_cb, g_object_ref (self));

  /* The registry may have handed us the entry as the list holds it
   * already; the list's copy is the one to keep. */
  stored = steward_config_lookup (self->config_store, self->name, NULL);
  steward_server_set_config (self, stored != NULL ? stored : config);
}

/**
 * steward_server_start:
 *
 * Starts the server unless it runs or is on its way, asking for consent
 * first when the command is new or changed. A server that failed starts
 * afresh.
 */
void
steward_server_start (StewardServer *self)
{
  g_return_if_fail (STEWARD_IS_SERVER (self));

  if (!steward_server_get_enabled (self))
    {
      set_idle_status (self);
      return;
    }

  self->wanted = TRUE;

  /* It comes back up once the close completes (finish_stop). */
  if (self->stopping)
    return;

  switch (self->status)
    {
    case STEWARD_SERVER_STATUS_AWAITING_CONSENT:
    case STEWARD_SERVER_STATUS_STARTING:
    case STEWARD_SERVER_STATUS_READY:
    case STEWARD_SERVER_STATUS_RESTARTING:
    case STEWARD_SERVER_STATUS_DISCONNECTED:
      return;

    case STEWARD_SERVER_STATUS_FAILED:
      self->answered = FALSE;
      g_array_set_size (self->crash_times, 0);
      self->backoff_ms = self->backoff_base_ms;
      break;

    case STEWARD_SERVER_STATUS_STOPPED:
    case STEWARD_SERVER_STATUS_DISABLED:
    default:
      break;
    }

  begin (self);
}

/**
 * steward_server_restart:
 *
 * Stops the server if it runs and starts it again, forgetting earlier
 * crashes.
 */
void
steward_server_restart (StewardServer *self)
{
  g_return_if_fail (STEWARD_IS_SERVER (self));

  g_array_set_size (self->crash_times, 0);
  self->backoff_ms = self->backoff_base_ms;
  steward_server_stop_async (self, NULL, restart_stopped_cb, NULL);
}

/**
 * steward_server_stop_async:
 *
 * Stops the server: withdraws a pending consent question, cancels a
 * restart, closes the connection (which stops a local server within 5 s,
 * escalating to signals) and completes once it is closed.
 */
void
steward_server_stop_async (StewardServer       *self,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (STEWARD_IS_SERVER (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_server_stop_async);

  self->wanted = FALSE;
  self->answered = FALSE;
  self->reconnect_attempt = 0;
  self->generation++;
  clear_retry (self);
  withdraw_consent (self);
  g_cancellable_cancel (self->cancellable);
  g_clear_pointer (&self->resolved, g_hash_table_unref);

  if (self->client == NULL)
    {
      if (!self->stopping)
        {
          gboolean was_active = self->status == STEWARD_SERVER_STATUS_STARTING ||
                                self->status == STEWARD_SERVER_STATUS_RESTARTING ||
                                self->status == STEWARD_SERVER_STATUS_DISCONNECTED ||
                                self->status == STEWARD_SERVER_STATUS_AWAITING_CONSENT;

          set_idle_status (self);
          if (was_active)
            host_event (self, STEWARD_LOG_LEVEL_INFO, _("Stopped"));
          g_task_return_boolean (task, TRUE);
          return;
        }
    }

  g_ptr_array_add (self->stop_tasks, g_steal_pointer (&task));
  if (self->stopping)
    return;

  self->stopping = TRUE;
  mcp_client_close_async (self->client, NULL, close_cb, g_object_ref (self));
}

gboolean
steward_server_stop_finish (StewardServer  *self,
                            GAsyncResult   *result,
                            GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * steward_server_call_tool_async:
 *
 * Calls a tool of a ready server. While the call runs, a sampling or
 * elicitation request from the server names it as its cause.
 */
void
steward_server_call_tool_async (StewardServer       *self,
                                const char          *tool,
                                JsonObject          *arguments,
                                McpProgressFunc      progress,
                                gpointer             progress_data,
                                GDestroyNotify       progress_destroy,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Call *call;

  g_return_if_fail (STEWARD_IS_SERVER (self));
  g_return_if_fail (tool != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_server_call_tool_async);

  if (self->status != STEWARD_SERVER_STATUS_READY || self->client == NULL)
    {
      if (progress_destroy != NULL)
        progress_destroy (progress_data);
      /* Translators: the first %s is a tool, the second a server, the
       * third its status, such as "Restarting in 4 s". */
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NOT_READY,
                               _("Cannot call “%s”: server “%s” is not ready (%s)"),
                               tool, self->name, self->status_text);
      return;
    }

  call = g_new0 (Call, 1);
  call->self = g_object_ref (self);
  call->tool = g_strdup (tool);
  call->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;
  g_queue_push_tail (&self->calls, call);
  call->link = self->calls.tail;
  g_task_set_task_data (task, call, (GDestroyNotify) call_free);

  mcp_client_call_tool_async (self->client, tool, arguments, progress, progress_data,
                              progress_destroy, cancellable, call_tool_cb,
                              g_steal_pointer (&task));
}

McpToolResult *
steward_server_call_tool_finish (StewardServer  *self,
                                 GAsyncResult   *result,
                                 GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * steward_server_get_cause_cancellable:
 *
 * Returns: (transfer none) (nullable): the cancellable given to the newest
 *   tool call still running, the call that a sampling or elicitation
 *   request arriving now names as its cause; %NULL when none runs or it
 *   was given none
 */
GCancellable *
steward_server_get_cause_cancellable (StewardServer *self)
{
  Call *call;

  g_return_val_if_fail (STEWARD_IS_SERVER (self), NULL);

  call = g_queue_peek_tail (&self->calls);

  return call != NULL ? call->cancellable : NULL;
}

const char *
steward_server_status_to_string (StewardServerStatus status)
{
  switch (status)
    {
    case STEWARD_SERVER_STATUS_STOPPED:
      return "stopped";
    case STEWARD_SERVER_STATUS_DISABLED:
      return "disabled";
    case STEWARD_SERVER_STATUS_AWAITING_CONSENT:
      return "awaiting-consent";
    case STEWARD_SERVER_STATUS_STARTING:
      return "starting";
    case STEWARD_SERVER_STATUS_READY:
      return "ready";
    case STEWARD_SERVER_STATUS_RESTARTING:
      return "restarting";
    case STEWARD_SERVER_STATUS_FAILED:
      return "failed";
    case STEWARD_SERVER_STATUS_DISCONNECTED:
      return "disconnected";
    default:
      return "unknown";
    }
}

/* Private API */

void
steward_server_set_backoff_for_testing (StewardServer *self,
                                        guint          base_ms,
                                        guint          max_ms,
                                        guint          window_ms)
{
  g_return_if_fail (STEWARD_IS_SERVER (self));
  g_return_if_fail (base_ms > 0 && max_ms >= base_ms && window_ms > 0);

  self->backoff_base_ms = base_ms;
  self->backoff_max_ms = max_ms;
  self->crash_window_ms = window_ms;
  self->backoff_ms = base_ms;
}

void
steward_server_set_watch_interval_for_testing (StewardServer *self,
                                               guint          interval_ms)
{
  g_return_if_fail (STEWARD_IS_SERVER (self));

  self->watch_interval_ms = interval_ms;
}

char *
steward_server_dup_stderr_tail (StewardServer *self)
{
  GString *tail;

  g_return_val_if_fail (STEWARD_IS_SERVER (self), NULL);

  if (g_queue_is_empty (&self->stderr_lines))
    return NULL;

  tail = g_string_new (NULL);
  for (GList *l = self->stderr_lines.head; l != NULL; l = l->next)
    {
      if (tail->len > 0)
        g_string_append_c (tail, '\n');
      g_string_append (tail, l->data);
    }

  return g_string_free (tail, FALSE);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-client.h"

#include "steward-approval.h"
#include "steward-approvals.h"
#include "steward-config.h"
#include "steward-log-store.h"
#include "steward-roots.h"
#include "steward-sampling-broker.h"
#include "steward-secrets.h"
#include "steward-server.h"
#include "steward-server-failure.h"
#include "steward-overdue.h"
#include "steward-server-watch.h"
#include "steward-trace-names.h"

G_BEGIN_DECLS

/* The restart policy's defaults (docs/ARCHITECTURE.md §3; docs/SECURITY.md,
 * "Hostile or broken servers"). */
#define STEWARD_SERVER_BACKOFF_BASE_MS   1000
#define STEWARD_SERVER_BACKOFF_MAX_MS    (30 * 1000)
#define STEWARD_SERVER_CRASH_WINDOW_MS   (3 * 60 * 1000)
#define STEWARD_SERVER_CRASH_LIMIT       5
/* The longest wait between attempts to reach a remote server that went
 * away, so that it is Ready within a few seconds of coming back. */
#define STEWARD_SERVER_RECONNECT_MAX_MS  4000
/* How many of the last stderr lines a server keeps for its diagnosis. */
#define STEWARD_SERVER_STDERR_LINES      20

/* Tests shorten the restart policy so that a crash loop runs in a second
 * rather than minutes: the first delay, its ceiling, and the window in
 * which STEWARD_SERVER_CRASH_LIMIT crashes make the server give up. */
void   steward_server_set_backoff_for_testing (StewardServer *self,
                                               guint          base_ms,
                                               guint          max_ms,
                                               guint          window_ms);
/* Makes the watch of a connected remote server ping every @interval_ms,
 * so that a test sees a server that hangs without waiting for the
 * default interval. */
void   steward_server_set_watch_interval_for_testing (StewardServer *self,
                                                      guint          interval_ms);
/* Writes @config, an entry of this server, to the servers file (saved in
 * the background) and takes it, as a change of its settings does. */
void   steward_server_put_config              (StewardServer       *self,
                                               StewardServerConfig *config);
/* The last stderr lines kept, oldest first, joined by newlines; NULL when
 * the server wrote none. */
char  *steward_server_dup_stderr_tail         (StewardServer *self);

/* What the parts of StewardServer share: steward-server.c (the object, its
 * status and its public API), steward-server-consent.c (asking the person
 * before the first start), steward-server-launch.c (checking the command,
 * secrets, the transport and connecting), steward-server-restart.c (crashes,
 * the backoff and reconnecting), steward-server-log.c (what the server and
 * the connection say, into the log store) and steward-server-delegate.c
 * (what the server asks of the host). */

struct _StewardServer
{
  GObject                parent_instance;

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
  StewardServerAuth     *auth;

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

/* Attempts: what a callback needs to know whether it is still wanted. */

typedef struct {
  StewardServer *self;
  guint          generation;
} Attempt;

/* In-flight tool calls, for the cause of a sampling request. */

typedef struct {
  StewardServer *self;
  GList         *link;
  char          *tool;          /* in the call's own block, not freed apart */
  GCancellable  *cancellable;
  StewardOverdue *overdue;      /* the question put about it, if any */
  JsonObject    *arguments;     /* kept for the one retry after a step-up */
  gboolean       stepped_up;    /* signed in again for it once already */
} Call;

/* steward-server.c */
Attempt *steward_server_attempt_new        (StewardServer        *self);
void     steward_server_attempt_free       (Attempt              *attempt);
gboolean steward_server_attempt_is_current (Attempt              *attempt);
gboolean steward_server_set_string         (char                **field,
                                            const char           *value);
gboolean steward_server_set_shown_string   (char                **field,
                                            const char           *value);
void     steward_server_set_status         (StewardServer        *self,
                                            StewardServerStatus   status,
                                            const char           *status_text,
                                            const char           *detail_text);
void     steward_server_set_retry_in       (StewardServer        *self,
                                            guint                 retry_in);
void     steward_server_set_revision       (StewardServer        *self,
                                            const char           *revision);
void     steward_server_set_idle_status    (StewardServer        *self);
char    *steward_server_build_detail       (StewardServer        *self,
                                            const char           *why);
void     steward_server_fail               (StewardServer        *self,
                                            const char           *reason,
                                            const char           *detail);
void     steward_server_drop_client        (StewardServer        *self);

/* steward-server-log.c */
char *steward_server_format_target         (StewardServerConfig *config);
char *steward_server_format_duration       (guint                ms);
void  steward_server_host_event            (StewardServer       *self,
                                            StewardLogLevel      level,
                                            const char          *format,
                                            ...) G_GNUC_PRINTF (3, 4);
void  steward_server_transport_log_cb      (StewardServer       *self,
                                            McpTransportLogKind  kind,
                                            const char          *text,
                                            McpTransport        *transport);
void  steward_server_client_diagnostic_cb  (StewardServer       *self,
                                            const char          *text,
                                            McpClient           *client);
void  steward_server_client_trace_cb       (StewardServer       *self,
                                            McpTraceDirection    direction,
                                            McpMessage          *message,
                                            McpClient           *client);
void  steward_server_client_log_message_cb (StewardServer       *self,
                                            const char          *level_name,
                                            const char          *logger,
                                            JsonNode            *data,
                                            McpClient           *client);

/* steward-server-restart.c */
void                  steward_server_clear_retry      (StewardServer      *self);
void                  steward_server_crashed          (StewardServer      *self,
                                                       const char         *reason);
StewardServerFailure *steward_server_describe_failure (StewardServer      *self,
                                                       const GError       *error);
void                  steward_server_disconnected     (StewardServer      *self,
                                                       const char         *reason);
void                  steward_server_watch_lost_cb    (StewardServer      *self,
                                                       const char         *reason,
                                                       StewardServerWatch *watch);
void                  steward_server_client_closed_cb (StewardServer      *self,
                                                       const GError       *error,
                                                       McpClient          *client);
void                  steward_server_close_cb         (GObject            *object,
                                                       GAsyncResult       *result,
                                                       gpointer            user_data);

/* steward-server-launch.c */
void     steward_server_launch       (StewardServer  *self);

/* steward-server-signin.c */
void     steward_server_add_authorization (StewardServer *self,
                                           GHashTable    *headers);
gboolean steward_server_try_sign_in       (StewardServer *self,
                                           const GError  *error);
gboolean steward_server_step_up_call      (StewardServer *self,
                                           GTask         *task,
                                           const GError  *error);
gboolean steward_server_find_command (StewardServer  *self,
                                      char          **found,
                                      char          **reason,
                                      char          **detail);

/* steward-server-consent.c */
void steward_server_withdraw_consent (StewardServer *self);
void steward_server_begin            (StewardServer *self);

/* steward-server-overdue.c */
void steward_server_class_add_overdue (GObjectClass  *klass);
void steward_server_watch_overdue     (StewardServer *self,
                                       McpClient     *client);
void steward_server_end_overdue       (Call          *call);

/* steward-server-delegate.c */
void steward_server_call_free     (Call                       *call);
void steward_server_call_reply    (McpClient                  *client,
                                   JsonObject                 *result,
                                   GError                     *error,
                                   gpointer                    user_data);
void steward_server_delegate_init (McpClientDelegateInterface *iface);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Attempt, steward_server_attempt_free)

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client"

#include "config.h"

#include "mcp-client.h"
#include "mcp-client-private.h"
#include "mcp-era-private.h"
#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-prompt.h"
#include "mcp-resource.h"
#include "mcp-resource-template.h"
#include "mcp-tool.h"

/* Progress callbacks are coalesced to at most one per this interval. */
#define PROGRESS_INTERVAL_US (50 * 1000)

/* How long a server/discover probe may go unanswered before the server is
 * taken as one of the handshake era, which may not answer it at all. */
#define DISCOVER_PROBE_TIMEOUT_MS 10000

/* Rounds of input_required one request may go through (2026-07-28). */
#define MAX_INPUT_ROUNDS 8

#define META_PROTOCOL_VERSION   "io.modelcontextprotocol/protocolVersion"
#define META_CLIENT_INFO        "io.modelcontextprotocol/clientInfo"
#define META_CLIENT_CAPS        "io.modelcontextprotocol/clientCapabilities"
#define META_LOG_LEVEL          "io.modelcontextprotocol/logLevel"
#define META_SERVER_INFO        "io.modelcontextprotocol/serverInfo"
#define META_SUBSCRIPTION_ID    "io.modelcontextprotocol/subscriptionId"

/**
 * McpClient:
 *
 * One connection to one MCP server: the lifecycle (connecting →
 * initializing → ready → closing → closed), the table of requests waiting
 * for answers with their timeouts, cancellation and progress, the answers to
 * what the server asks of us (through an #McpClientDelegate), and the lists
 * of tools, resources, templates and prompts kept current as `GListModel`s.
 *
 * Signals: "notification" (method, params) for every notification from the
 * server; "log-message" (level, logger, data) for `notifications/message`;
 * "resource-updated" (uri); "trace" (McpTraceDirection, McpMessage) for
 * every message in and out; "diagnostic" (text) for what the client noticed
 * and dropped; "closed" (error or %NULL).
 */
struct _McpClient
{
  GObject             parent_instance;

  McpTransport       *transport;
  McpClientDelegate  *delegate;
  McpClientState      state;
  GError             *error;
  GCancellable       *cancellable;

  char               *client_name;
  char               *client_title;
  char               *client_version;
  McpRevision         requested_revision;
  guint               request_timeout_ms;
  guint               initialize_timeout_ms;
  guint               max_request_time_ms;

  McpRevision         revision;
  McpRevision         legacy_revision;   /* offered to initialize */
  gboolean            modern;            /* 2026-07-28: no session, _meta on every request */
  JsonObject         *meta_client_info;  /* shared by every modern request */
  JsonObject         *meta_capabilities;
  char               *log_level;         /* modern: sent in _meta */
  gint64              listen_id;         /* the open subscriptions/listen, or 0 */
  gboolean            transport_closed;  /* "closed" came: it ends the connecting */
  gint64              list_expiry[4];    /* modern: a list is fresh until then */
  JsonObject         *server_info;
  JsonObject         *server_capabilities;
  char               *instructions;

  gint64              next_id;
  GHashTable         *pending;     /* gint64 id → Pending */
  GMainContext       *context;
  GSource            *deadline_source;  /* ready at the earliest deadline */
  gint64              next_deadline;
  GQueue              waiting;     /* Pending not sent until ready */
  GHashTable         *incoming;    /* id key → Incoming */
  guint               n_ignored;

  GTask              *connect_task;
  GPtrArray          *close_tasks;

  GListStore         *lists[4];
  guint               list_busy;   /* bit per list: a refresh is running */
  guint               list_dirty;  /* bit per list: refresh again after it */
  GHashTable         *subscriptions;
};

enum {
  PROP_0,
  PROP_STATE,
  PROP_TRANSPORT,
  PROP_REVISION,
  N_PROPS
};

enum {
  SIGNAL_NOTIFICATION,
  SIGNAL_LOG_MESSAGE,
  SIGNAL_RESOURCE_UPDATED,
  SIGNAL_TRACE,
  SIGNAL_DIAGNOSTIC,
  SIGNAL_CLOSED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (McpClient, mcp_client, G_TYPE_OBJECT)

typedef enum {
  LIST_TOOLS,
  LIST_RESOURCES,
  LIST_TEMPLATES,
  LIST_PROMPTS,
  N_LISTS
} ListKind;

static const struct {
  const char *method;
  const char *member;
  const char *capability;
  gpointer  (*make) (JsonObject *json, GError **error);
} list_kinds[N_LISTS] = {
  [LIST_TOOLS]     = { "tools/list",               "tools",             "tools",
                       (gpointer) mcp_tool_new },
  [LIST_RESOURCES] = { "resources/list",           "resources",         "resources",
                       (gpointer) mcp_resource_new },
  [LIST_TEMPLATES] = { "resources/templates/list", "resourceTemplates", "resources",
                       (gpointer) mcp_resource_template_new },
  [LIST_PROMPTS]   = { "prompts/list",             "prompts",           "prompts",
                       (gpointer) mcp_prompt_new },
};

static const char * const log_levels[] = {
  "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency",
};

typedef struct {
  McpClient       *client;        /* unowned: a pending request never outlives it */
  gint64           id;
  char            *method;
  JsonObject      *params;
  GTask           *task;
  gint64           deadline;
  guint            timeout_ms;
  gint64           hard_deadline;
  gboolean         at_hard_limit;  /* the armed timeout ends at the deadline */
  gboolean         sent;
  guint            rounds;         /* input_required rounds answered so far */
  GCancellable    *cancellable;
  gulong           cancelled_id;
  McpProgressFunc  progress_func;
  gpointer         progress_data;
  GDestroyNotify   progress_destroy;
  gint64           progress_delivered_at;
  GSource         *progress_source;
  double           progress;
  double           progress_total;
  char            *progress_message;
} Pending;

typedef struct {
  McpClient    *client;
  JsonNode     *id;
  char         *key;
  char         *method;
  GCancellable *cancellable;
} Incoming;

static void send_pending (McpClient *self, Pending *pending);
static void open_subscriptions (McpClient *self);
static void become_ready (McpClient *self);
static JsonObject *copy_object (JsonObject *object);
static void pending_start (McpClient       *self,
                           GTask           *task,
                           const char      *method,
                           JsonObject      *params,
                           gboolean         internal,
                           guint            timeout_ms,
                           McpProgressFunc  progress_func,
                           gpointer         progress_data,
                           GDestroyNotify   progress_destroy,
                           guint            rounds);
static void refresh_list (McpClient *self, ListKind kind);

static void
diagnostic (McpClient  *self,
            const char *format,
            ...) G_GNUC_PRINTF (2, 3);

static void
diagnostic (McpClient  *self,
            const char *format,
            ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);

  g_debug ("%s: %s", mcp_transport_get_description (self->transport), text);
  g_signal_emit (self, signals[SIGNAL_DIAGNOSTIC], 0, text);
}

static void
set_state (McpClient      *self,
           McpClientState  state)
{
  if (self->state == state)
    return;

  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

/* Pending requests */

static void
pending_free (Pending *pending)
{
  if (pending->progress_source != NULL)
    {
      g_source_destroy (pending->progress_source);
      g_source_unref (pending->progress_source);
    }
  if (pending->cancelled_id != 0)
    g_cancellable_disconnect (pending->cancellable, pending->cancelled_id);
  if (pending->progress_destroy != NULL)
    pending->progress_destroy (pending->progress_data);

  g_clear_object (&pending->cancellable);
  g_clear_object (&pending->task);
  g_clear_pointer (&pending->params, json_object_unref);
  g_free (pending->method);
  g_free (pending->progress_message);
  g_free (pending);
}

/* Takes @pending out of the tables and completes its task with @result or
 * @error. */
static void
pending_complete (Pending    *pending,
                  JsonObject *result,
                  GError     *error)
{
  McpClient *self = pending->client;
  g_autoptr(GTask) task = g_steal_pointer (&pending->task);

  g_queue_remove (&self->waiting, pending);
  g_hash_table_steal (self->pending, &pending->id);
  pending_free (pending);

  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, json_object_ref (result), (GDestroyNotify) json_object_unref);
}

static void
send_cancelled (McpClient  *self,
                gint64      id,
                const char *reason)
{
  g_autoptr(JsonObject) params = json_object_new ();

  json_object_set_int_member (params, "requestId", id);
  json_object_set_string_member (params, "reason", reason);
  mcp_client_notify (self, "notifications/cancelled", params, NULL);
}

static void
pending_time_out (Pending *pending)
{
  McpClient *self = pending->client;
  g_autofree char *reason = NULL;
  GError *error;

  if (pending->at_hard_limit)
    error = g_error_new (MCP_ERROR, MCP_ERROR_TIMEOUT,
                         "the server did not finish “%s” within the limit of %u s, "
                         "even though it reported progress",
                         pending->method, self->max_request_time_ms / 1000);
  else
    error = g_error_new (MCP_ERROR, MCP_ERROR_TIMEOUT,
                         "the server did not answer “%s” within %.3g s",
                         pending->method, pending->timeout_ms / 1000.0);

  reason = g_strdup (error->message);
  /* initialize must never be cancelled; the connection is dropped instead. */
  if (pending->sent && !g_str_equal (pending->method, "initialize"))
    send_cancelled (self, pending->id, reason);

  pending_complete (pending, NULL, error);
}

/* One timer serves every request: it is set to the earliest deadline when
 * a request would end before it, and looks at them all when it fires. A
 * request that ends early costs nothing here. */
static gboolean
deadline_cb (gpointer user_data)
{
  McpClient *self = MCP_CLIENT (user_data);
  g_autoptr(McpClient) hold = g_object_ref (self);
  g_autoptr(GList) expired = NULL;
  gint64 now = g_get_monotonic_time ();
  gint64 next = G_MAXINT64;
  GHashTableIter iter;
  Pending *pending;

  g_hash_table_iter_init (&iter, self->pending);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &pending))
    {
      if (pending->deadline <= now)
        expired = g_list_prepend (expired, pending);
      else
        next = MIN (next, pending->deadline);
    }

  self->next_deadline = next;
  g_source_set_ready_time (self->deadline_source, next == G_MAXINT64 ? -1 : next);

  for (GList *l = expired; l != NULL; l = l->next)
    pending_time_out (l->data);

  return G_SOURCE_CONTINUE;
}

static gboolean
deadline_dispatch (GSource     *source,
                   GSourceFunc  callback,
                   gpointer     user_data)
{
  return callback (user_data);
}

static GSourceFuncs deadline_funcs = {
  .dispatch = deadline_dispatch,
};

static void
pending_arm_timeout (Pending *pending)
{
  McpClient *self = pending->client;
  gint64 ends = g_get_monotonic_time () + (gint64) pending->timeout_ms * 1000;

  /* A subscription stream has no deadline: it lasts until closed. */
  if (pending->timeout_ms == 0)
    {
      pending->deadline = G_MAXINT64;
      return;
    }

  pending->at_hard_limit = pending->hard_deadline <= ends;
  pending->deadline = MIN (ends, pending->hard_deadline);

  if (self->deadline_source == NULL)
    {
      self->deadline_source = g_source_new (&deadline_funcs, sizeof (GSource));
      g_source_set_callback (self->deadline_source, deadline_cb, self, NULL);
      g_source_set_static_name (self->deadline_source, "[mcp] request deadlines");
      g_source_attach (self->deadline_source, self->context);
    }

  if (pending->deadline < self->next_deadline)
    {
      self->next_deadline = pending->deadline;
      g_source_set_ready_time (self->deadline_source, pending->deadline);
    }
}

static gboolean
pending_cancel_idle_cb (gpointer user_data)
{
  McpClient *self = MCP_CLIENT (user_data);
  g_autoptr(GList) cancelled = NULL;
  GHashTableIter iter;
  Pending *pending;

  /* Done here rather than in the "cancelled" handler, which runs with the
   * cancellable's lock held and so may not disconnect itself. */
  g_hash_table_iter_init (&iter, self->pending);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &pending))
    if (pending->cancellable != NULL && g_cancellable_is_cancelled (pending->cancellable))
      cancelled = g_list_prepend (cancelled, pending);

  for (GList *l = cancelled; l != NULL; l = l->next)
    {
      pending = l->data;
      if (pending->sent && !g_str_equal (pending->method, "initialize"))
        send_cancelled (self, pending->id, "cancelled by the user");
      pending_complete (pending, NULL,
                        g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                             "the request was cancelled"));
    }

  return G_SOURCE_REMOVE;
}

static void
pending_cancelled_cb (GCancellable *cancellable,
                      gpointer      user_data)
{
  Pending *pending = user_data;
  g_autoptr(GSource) source = g_idle_source_new ();

  g_source_set_callback (source, pending_cancel_idle_cb,
                         g_object_ref (pending->client), g_object_unref);
  g_source_set_static_name (source, "[mcp] cancel request");
  g_source_attach (source, g_task_get_context (pending->task));
}

static gboolean
progress_deliver_cb (gpointer user_data)
{
  Pending *pending = user_data;

  g_clear_pointer (&pending->progress_source, g_source_unref);
  pending->progress_delivered_at = g_get_monotonic_time ();
  pending->progress_func (pending->progress, pending->progress_total,
                          pending->progress_message, pending->progress_data);

  return G_SOURCE_REMOVE;
}

static void
pending_progress (Pending    *pending,
                  double      progress,
                  double      total,
                  const char *message)
{
  gint64 now = g_get_monotonic_time ();
  gint64 next = pending->progress_delivered_at + PROGRESS_INTERVAL_US;

  /* Progress shows the server is alive, so the timeout starts again, up to
   * the hard maximum. */
  pending_arm_timeout (pending);

  if (pending->progress_func == NULL)
    return;

  pending->progress = progress;
  pending->progress_total = total;
  g_free (pending->progress_message);
  pending->progress_message = g_strdup (message);

  if (pending->progress_source != NULL)
    return;

  if (now >= next)
    {
      pending->progress_delivered_at = now;
      pending->progress_func (progress, total, message, pending->progress_data);
      return;
    }

  pending->progress_source = g_timeout_source_new ((guint) ((next - now) / 1000) + 1);
  g_source_set_callback (pending->progress_source, progress_deliver_cb, pending, NULL);
  g_source_set_static_name (pending->progress_source, "[mcp] progress");
  g_source_attach (pending->progress_source, g_task_get_context (pending->task));
}

static void
fail_all_pending (McpClient  *self,
                  int         code,
                  const char *message)
{
  GList *values = g_hash_table_get_values (self->pending);

  for (GList *l = values; l != NULL; l = l->next)
    pending_complete (l->data, NULL, g_error_new_literal (MCP_ERROR, code, message));

  g_list_free (values);
}

/* Incoming requests from the server */

static void
incoming_free (Incoming *incoming)
{
  g_clear_pointer (&incoming->id, json_node_unref);
  g_clear_object (&incoming->cancellable);
  g_free (incoming->key);
  g_free (incoming->method);
  g_free (incoming);
}

static void send_message (McpClient  *self,
                          McpMessage *message,
                          Pending    *pending);

static void
answer (McpClient    *self,
        JsonNode     *id,
        JsonObject   *result,
        const GError *error)
{
  g_autoptr(McpMessage) message = NULL;

  if (error == NULL)
    message = mcp_message_new_result (id, result);
  else if (mcp_error_is_rpc (error))
    message = mcp_message_new_error (id, error->code, error->message, mcp_error_get_data (error));
  else
    message = mcp_message_new_error (id, MCP_ERROR_INTERNAL_ERROR, error->message, NULL);

  send_message (self, message, NULL);
}

typedef struct {
  McpClient *client;
  char      *key;
  char      *method;
} DelegateCall;

static void
delegate_call_free (DelegateCall *call)
{
  g_object_unref (call->client);
  g_free (call->key);
  g_free (call->method);
  g_free (call);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DelegateCall, delegate_call_free)

static void
delegate_done_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  McpClientDelegate *delegate = MCP_CLIENT_DELEGATE (object);
  g_autoptr(DelegateCall) call = user_data;
  McpClient *self = call->client;
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(GError) error = NULL;
  Incoming *incoming;

  if (g_str_equal (call->method, "sampling/createMessage"))
    reply = mcp_client_delegate_create_message_finish (delegate, result, &error);
  else if (g_str_equal (call->method, "elicitation/create"))
    reply = mcp_client_delegate_elicit_finish (delegate, result, &error);
  else
    reply = mcp_client_delegate_list_roots_finish (delegate, result, &error);

  /* The connection may have ended while the host was busy: nobody waits. */
  incoming = g_hash_table_lookup (self->incoming, call->key);
  if (incoming == NULL)
    return;

  if (reply == NULL && error == NULL)
    error = g_error_new_literal (MCP_ERROR, MCP_ERROR_INTERNAL_ERROR,
                                 "the host gave no answer");

  /* A request the server cancelled gets no answer (cancellation utility). */
  if (!g_cancellable_is_cancelled (incoming->cancellable))
    answer (self, incoming->id, reply, error);

  g_hash_table_remove (self->incoming, call->key);
}

static GError *
check_incoming (McpClient  *self,
                const char *method,
                JsonObject *params)
{
  McpClientFeatures features = self->delegate ? mcp_client_delegate_get_features (self->delegate)
                                              : MCP_CLIENT_FEATURE_NONE;

  if (g_str_equal (method, "sampling/createMessage"))
    {
      if (!(features & MCP_CLIENT_FEATURE_SAMPLING))
        return g_error_new_literal (MCP_ERROR, MCP_ERROR_METHOD_NOT_FOUND,
                                    "Method not found: this client does not offer sampling");
      if (params == NULL || mcp_json_get_array (params, "messages") == NULL)
        return g_error_new_literal (MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                                    "sampling/createMessage needs \"messages\"");
      if (!(features & MCP_CLIENT_FEATURE_SAMPLING_TOOLS) &&
          (json_object_has_member (params, "tools") || json_object_has_member (params, "toolChoice")))
        return g_error_new_literal (MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                                    "this client did not declare sampling with tools");
      return NULL;
    }

  if (g_str_equal (method, "elicitation/create"))
    {
      const char *mode = mcp_json_get_string (params, "mode");

      if (!(features & (MCP_CLIENT_FEATURE_ELICITATION_FORM | MCP_CLIENT_FEATURE_ELICITATION_URL)))
        return g_error_new_literal (MCP_ERROR, MCP_ERROR_METHOD_NOT_FOUND,
                                    "Method not found: this client does not offer elicitation");
      if (params == NULL)
        return g_error_new_literal (MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                                    "elicitation/create needs params");
      if (mode == NULL || g_str_equal (mode, "form"))
        {
          if (!(features & MCP_CLIENT_FEATURE_ELICITATION_FORM))
            return g_error_new_literal (MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                                        "this client did not declare form elicitation");
          if (mcp_json_get_object (params, "requestedSchema") == NULL)
            return g_error_new_literal (MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                                        "form elicitation needs a \"requestedSchema\" object");
        }
      else if (g_str_equal (mode, "url"))
        {
          if (!(features & MCP_CLIENT_FEATURE_ELICITATION_URL))
            return g_error_new_literal (MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                                        "this client did not declare URL elicitation");
          if (mcp_json_get_string (params, "url") == NULL)
            return g_error_new_literal (MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                                        "URL elicitation needs a \"url\"");
        }
      else
        return g_error_new (MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                            "unknown elicitation mode “%s”", mode);
      return NULL;
    }

  if (g_str_equal (method, "roots/list"))
    {
      if (!(features & MCP_CLIENT_FEATURE_ROOTS))
        return g_error_new_literal (MCP_ERROR, MCP_ERROR_METHOD_NOT_FOUND,
                                    "Method not found: this client does not offer roots");
      return NULL;
    }

  return g_error_new (MCP_ERROR, MCP_ERROR_METHOD_NOT_FOUND, "Method not found: %s", method);
}

static void
handle_request (McpClient  *self,
                McpMessage *message)
{
  const char *method = mcp_message_get_method (message);
  JsonObject *params = mcp_message_get_params (message);
  g_autofree char *key = mcp_message_dup_id_string (message);
  g_autoptr(GError) error = NULL;
  DelegateCall *call;
  Incoming *incoming;

  if (g_str_equal (method, "ping"))
    {
      g_autoptr(JsonObject) empty = json_object_new ();

      answer (self, mcp_message_get_id (message), empty, NULL);
      return;
    }

  if ((error = check_incoming (self, method, params)) != NULL)
    {
      answer (self, mcp_message_get_id (message), NULL, error);
      return;
    }

  if (g_hash_table_contains (self->incoming, key))
    {
      error = g_error_new_literal (MCP_ERROR, MCP_ERROR_INVALID_REQUEST,
                                   "a request with this id is still being answered");
      answer (self, mcp_message_get_id (message), NULL, error);
      return;
    }

  /* Requests are never queued without bound, nor dropped silently. */
  if (g_hash_table_size (self->incoming) >= MCP_MAX_PENDING_SERVER_REQUESTS)
    {
      error = g_error_new (MCP_ERROR, MCP_ERROR_INTERNAL_ERROR,
                           "the client is overloaded: %u requests from this server are "
                           "already waiting", MCP_MAX_PENDING_SERVER_REQUESTS);
      answer (self, mcp_message_get_id (message), NULL, error);
      return;
    }

  incoming = g_new0 (Incoming, 1);
  incoming->client = self;
  incoming->id = json_node_copy (mcp_message_get_id (message));
  incoming->key = g_strdup (key);
  incoming->method = g_strdup (method);
  incoming->cancellable = g_cancellable_new ();
  g_hash_table_insert (self->incoming, incoming->key, incoming);

  call = g_new0 (DelegateCall, 1);
  call->client = g_object_ref (self);
  call->key = g_strdup (key);
  call->method = g_strdup (method);

  if (g_str_equal (method, "sampling/createMessage"))
    mcp_client_delegate_create_message_async (self->delegate, self, params, incoming->cancellable,
                                              delegate_done_cb, call);
  else if (g_str_equal (method, "elicitation/create"))
    mcp_client_delegate_elicit_async (self->delegate, self, params, incoming->cancellable,
                                      delegate_done_cb, call);
  else
    mcp_client_delegate_list_roots_async (self->delegate, self, incoming->cancellable,
                                          delegate_done_cb, call);
}

static void
cancel_all_incoming (McpClient *self)
{
  GHashTableIter iter;
  Incoming *incoming;

  g_hash_table_iter_init (&iter, self->incoming);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &incoming))
    g_cancellable_cancel (incoming->cancellable);

  g_hash_table_remove_all (self->incoming);
}

/* Input rounds (2026-07-28): a server that needs something from the host
 * answers tools/call, prompts/get or resources/read with an input_required
 * result; the host's answers go back in a retry of the same request. */

typedef struct {
  McpClient       *client;
  GTask           *task;
  char            *method;
  JsonObject      *params;        /* the request as first sent, without answers */
  char            *request_state;
  JsonObject      *responses;
  guint            waiting;
  guint            rounds;
  GError          *error;
  GCancellable    *cancellable;   /* cancels the host's work */
  gulong           cancelled_id;
  McpProgressFunc  progress_func;
  gpointer         progress_data;
  GDestroyNotify   progress_destroy;
} InputRound;

typedef struct {
  InputRound *round;
  char       *key;
  char       *method;
} InputCall;

static void
input_round_free (InputRound *round)
{
  if (round->cancelled_id != 0)
    g_cancellable_disconnect (g_task_get_cancellable (round->task), round->cancelled_id);
  if (round->progress_destroy != NULL)
    round->progress_destroy (round->progress_data);
  g_clear_object (&round->task);
  g_clear_object (&round->cancellable);
  g_clear_pointer (&round->params, json_object_unref);
  g_clear_pointer (&round->responses, json_object_unref);
  g_clear_error (&round->error);
  g_object_unref (round->client);
  g_free (round->method);
  g_free (round->request_state);
  g_free (round);
}

static void
input_round_cancelled_cb (GCancellable *cancellable,
                          gpointer      user_data)
{
  InputRound *round = user_data;

  g_cancellable_cancel (round->cancellable);
}

static void
input_round_finish (InputRound *round)
{
  McpClient *self = round->client;
  g_autoptr(JsonObject) params = NULL;

  if (round->error != NULL)
    {
      g_task_return_error (round->task, g_steal_pointer (&round->error));
      input_round_free (round);
      return;
    }

  /* The retry is a new request with a new id: the first request's
   * params, the answers, and the server's state exactly as it sent it. */
  params = copy_object (round->params);
  json_object_set_object_member (params, "inputResponses", json_object_ref (round->responses));
  if (round->request_state != NULL)
    json_object_set_string_member (params, "requestState", round->request_state);

  pending_start (self, round->task, round->method, params, FALSE, self->request_timeout_ms,
                 round->progress_func, round->progress_data,
                 g_steal_pointer (&round->progress_destroy), round->rounds);
  round->progress_func = NULL;
  input_round_free (round);
}

static void
input_call_done_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  McpClientDelegate *delegate = MCP_CLIENT_DELEGATE (object);
  InputCall *call = user_data;
  InputRound *round = call->round;
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(GError) error = NULL;

  if (g_str_equal (call->method, "sampling/createMessage"))
    reply = mcp_client_delegate_create_message_finish (delegate, result, &error);
  else if (g_str_equal (call->method, "elicitation/create"))
    reply = mcp_client_delegate_elicit_finish (delegate, result, &error);
  else
    reply = mcp_client_delegate_list_roots_finish (delegate, result, &error);

  /* An answer the host refused (sampling rejected) cannot be sent as an
   * input response: the request fails with it, as it would have failed
   * on the server in the handshake era. */
  if (reply != NULL)
    json_object_set_object_member (round->responses, call->key, g_steal_pointer (&reply));
  else if (round->error == NULL)
    {
      round->error = error ? g_steal_pointer (&error)
                           : g_error_new_literal (MCP_ERROR, MCP_ERROR_INTERNAL_ERROR,
                                                  "the host gave no answer");
      g_cancellable_cancel (round->cancellable);
    }

  g_free (call->key);
  g_free (call->method);
  g_free (call);

  if (--round->waiting == 0)
    input_round_finish (round);
}

/* Takes @pending's task and progress function into a round of input. */
static void
input_round_start (Pending    *pending,
                   JsonObject *result)
{
  McpClient *self = pending->client;
  JsonObject *requests = mcp_json_get_object (result, "inputRequests");
  const char *state = mcp_json_get_string (result, "requestState");
  GCancellable *task_cancellable;
  g_autoptr(GList) keys = NULL;
  InputRound *round;

  round = g_new0 (InputRound, 1);
  round->client = g_object_ref (self);
  round->task = g_steal_pointer (&pending->task);
  round->method = g_strdup (pending->method);
  round->request_state = g_strdup (state);
  round->responses = json_object_new ();
  round->rounds = pending->rounds + 1;
  round->cancellable = g_cancellable_new ();
  round->progress_func = pending->progress_func;
  round->progress_data = pending->progress_data;
  round->progress_destroy = g_steal_pointer (&pending->progress_destroy);
  pending->progress_func = NULL;

  /* The answers of an earlier round belong to that round alone. */
  round->params = pending->params ? copy_object (pending->params) : json_object_new ();
  json_object_remove_member (round->params, "inputResponses");
  json_object_remove_member (round->params, "requestState");

  g_queue_remove (&self->waiting, pending);
  g_hash_table_steal (self->pending, &pending->id);
  pending_free (pending);

  if (requests == NULL && state == NULL)
    round->error = g_error_new_literal (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                        "the server asked for input but named none");
  else if (round->rounds > MAX_INPUT_ROUNDS)
    round->error = g_error_new (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                "the server asked for input %u times for one “%s”; gave up",
                                MAX_INPUT_ROUNDS, round->method);

  task_cancellable = g_task_get_cancellable (round->task);
  if (task_cancellable != NULL)
    round->cancelled_id = g_cancellable_connect (task_cancellable,
                                                 G_CALLBACK (input_round_cancelled_cb),
                                                 round, NULL);

  if (requests != NULL && round->error == NULL)
    keys = json_object_get_members (requests);

  /* Each request is put to the host at once; several may be open. */
  round->waiting = 1;
  for (GList *l = keys; l != NULL; l = l->next)
    {
      JsonObject *request = mcp_json_get_object (requests, l->data);
      const char *method = mcp_json_get_string (request, "method");
      JsonObject *params = mcp_json_get_object (request, "params");
      g_autoptr(GError) error = NULL;
      InputCall *call;

      if (method == NULL)
        error = g_error_new (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                             "the server's input request “%s” has no method",
                             (const char *) l->data);
      else
        error = check_incoming (self, method, params);

      if (error != NULL)
        {
          /* What was already put to the host is withdrawn. */
          round->error = g_steal_pointer (&error);
          g_cancellable_cancel (round->cancellable);
          break;
        }

      call = g_new0 (InputCall, 1);
      call->round = round;
      call->key = g_strdup (l->data);
      call->method = g_strdup (method);
      round->waiting++;

      if (g_str_equal (method, "sampling/createMessage"))
        mcp_client_delegate_create_message_async (self->delegate, self, params, round->cancellable,
                                                  input_call_done_cb, call);
      else if (g_str_equal (method, "elicitation/create"))
        mcp_client_delegate_elicit_async (self->delegate, self, params, round->cancellable,
                                          input_call_done_cb, call);
      else
        mcp_client_delegate_list_roots_async (self->delegate, self, round->cancellable,
                                              input_call_done_cb, call);
    }

  if (--round->waiting == 0)
    input_round_finish (round);
}

/* Messages from the server */

static void
handle_response (McpClient  *self,
                 McpMessage *message)
{
  Pending *pending = NULL;
  const char *result_type;
  JsonObject *result;
  gint64 id;

  if (mcp_message_get_id (message) == NULL)
    {
      /* An error without an id answers a request the server could not read;
       * when only one is outstanding, it must be that one. */
      if (g_hash_table_size (self->pending) == 1)
        {
          GHashTableIter iter;

          g_hash_table_iter_init (&iter, self->pending);
          g_hash_table_iter_next (&iter, NULL, (gpointer *) &pending);
        }
    }
  else if (mcp_message_get_int_id (message, &id))
    pending = g_hash_table_lookup (self->pending, &id);

  if (pending == NULL || !pending->sent)
    {
      g_autofree char *key = mcp_message_dup_id_string (message);

      self->n_ignored++;
      diagnostic (self, "ignored a response with an unknown id (%s)", key ? key : "none");
      return;
    }

  if (mcp_message_get_kind (message) == MCP_MESSAGE_ERROR)
    {
      pending_complete (pending, NULL, mcp_message_to_gerror (message));
      return;
    }

  result = mcp_message_get_result (message);
  result_type = mcp_json_get_string (result, "resultType");

  /* No resultType is the handshake era's complete result. */
  if (result_type == NULL || g_str_equal (result_type, "complete"))
    pending_complete (pending, result, NULL);
  else if (g_str_equal (result_type, "task") && g_str_equal (pending->method, "tools/call"))
    pending_complete (pending, result, NULL);   /* followed in mcp-client-tasks.c */
  else if (g_str_equal (result_type, "input_required") &&
           (g_str_equal (pending->method, "tools/call") ||
            g_str_equal (pending->method, "prompts/get") ||
            g_str_equal (pending->method, "resources/read")))
    input_round_start (pending, result);
  else
    pending_complete (pending, NULL,
                      g_error_new (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                   "the server answered “%s” with a result of type “%s”, "
                                   "which this client does not know",
                                   pending->method, result_type));
}

static void
handle_progress (McpClient  *self,
                 JsonObject *params)
{
  JsonNode *token = params ? json_object_get_member (params, "progressToken") : NULL;
  Pending *pending = NULL;
  gint64 id;

  /* Our progress tokens are the ids of our requests. */
  if (token != NULL && JSON_NODE_HOLDS_VALUE (token) &&
      json_node_get_value_type (token) == G_TYPE_INT64)
    {
      id = json_node_get_int (token);
      pending = g_hash_table_lookup (self->pending, &id);
    }

  if (pending == NULL && mcp_client_tasks_take_progress (self, params))
    return;

  if (pending == NULL || !mcp_json_has_number (params, "progress"))
    {
      self->n_ignored++;
      diagnostic (self, "ignored progress for no running request");
      return;
    }

  pending_progress (pending,
                    mcp_json_get_number (params, "progress", 0),
                    mcp_json_get_number (params, "total", -1),
                    mcp_json_get_string (params, "message"));
}

static void
handle_cancelled (McpClient  *self,
                  JsonObject *params)
{
  JsonNode *id = params ? json_object_get_member (params, "requestId") : NULL;
  g_autofree char *key = NULL;
  Incoming *incoming;

  if (id != NULL && JSON_NODE_HOLDS_VALUE (id))
    {
      if (json_node_get_value_type (id) == G_TYPE_INT64)
        key = g_strdup_printf ("i:%" G_GINT64_FORMAT, json_node_get_int (id));
      else if (json_node_get_value_type (id) == G_TYPE_STRING)
        key = g_strconcat ("s:", json_node_get_string (id), NULL);
    }

  /* Cancelling something unknown or finished is not an error. */
  if (key == NULL || (incoming = g_hash_table_lookup (self->incoming, key)) == NULL)
    return;

  g_cancellable_cancel (incoming->cancellable);
}

static void
handle_notification (McpClient  *self,
                     McpMessage *message)
{
  const char *method = mcp_message_get_method (message);
  JsonObject *params = mcp_message_get_params (message);

  if (g_str_equal (method, "notifications/progress"))
    handle_progress (self, params);
  else if (g_str_equal (method, "notifications/cancelled"))
    handle_cancelled (self, params);
  else if (g_str_equal (method, "notifications/message"))
    {
      const char *level = mcp_json_get_string (params, "level");

      g_signal_emit (self, signals[SIGNAL_LOG_MESSAGE], 0,
                     level ? level : "info",
                     mcp_json_get_string (params, "logger"),
                     params ? json_object_get_member (params, "data") : NULL);
    }
  else if (g_str_equal (method, "notifications/resources/updated"))
    {
      const char *uri = mcp_json_get_string (params, "uri");

      if (uri != NULL)
        g_signal_emit (self, signals[SIGNAL_RESOURCE_UPDATED], 0, uri);
    }
  else if (g_str_equal (method, "notifications/tools/list_changed"))
    refresh_list (self, LIST_TOOLS);
  else if (g_str_equal (method, "notifications/prompts/list_changed"))
    refresh_list (self, LIST_PROMPTS);
  else if (g_str_equal (method, "notifications/resources/list_changed"))
    {
      refresh_list (self, LIST_RESOURCES);
      refresh_list (self, LIST_TEMPLATES);
    }
  else if (g_str_equal (method, "notifications/subscriptions/acknowledged"))
    {
      JsonObject *granted = mcp_json_get_object (params, "notifications");
      JsonArray *uris = mcp_json_get_array (granted, "resourceSubscriptions");
      guint n_uris = uris ? json_array_get_length (uris) : 0;

      if (n_uris < g_hash_table_size (self->subscriptions))
        diagnostic (self, "the server agreed to send updates for %u of %u subscribed resources",
                    n_uris, g_hash_table_size (self->subscriptions));
    }

  /* A detail only when someone listens for it: interning every method name
   * a server makes up would grow the quark table without bound. */
  g_signal_emit (self, signals[SIGNAL_NOTIFICATION], g_quark_try_string (method), method, params);
}

static void
transport_message_cb (McpClient    *self,
                      McpMessage   *message,
                      McpTransport *transport)
{
  g_autoptr(McpClient) hold = g_object_ref (self);

  /* What still arrives while we close answers requests already failed. */
  if (self->state == MCP_CLIENT_STATE_CLOSED || self->state == MCP_CLIENT_STATE_CLOSING)
    return;

  g_signal_emit (self, signals[SIGNAL_TRACE], 0, MCP_TRACE_INCOMING, message);

  switch (mcp_message_get_kind (message))
    {
    case MCP_MESSAGE_REQUEST:
      handle_request (self, message);
      break;

    case MCP_MESSAGE_NOTIFICATION:
      handle_notification (self, message);
      break;

    case MCP_MESSAGE_RESULT:
    case MCP_MESSAGE_ERROR:
      handle_response (self, message);
      break;

    default:
      g_assert_not_reached ();
    }
}

static void
transport_closed_cb (McpClient    *self,
                     const GError *error,
                     McpTransport *transport)
{
  g_autoptr(McpClient) hold = g_object_ref (self);
  g_autofree char *message = NULL;

  if (self->state == MCP_CLIENT_STATE_CLOSED)
    return;

  self->transport_closed = TRUE;
  if (error != NULL && self->error == NULL)
    self->error = g_error_copy (error);

  message = g_strdup_printf ("the connection to the server closed%s%s",
                             error ? ": " : "", error ? error->message : "");
  fail_all_pending (self, MCP_ERROR_CLOSED, message);
  cancel_all_incoming (self);

  if (self->connect_task != NULL)
    {
      g_autoptr(GTask) task = g_steal_pointer (&self->connect_task);

      g_task_return_new_error (task, MCP_ERROR,
                               error && error->domain == MCP_ERROR ? error->code : MCP_ERROR_CLOSED,
                               "%s", message);
    }

  set_state (self, MCP_CLIENT_STATE_CLOSED);
  g_signal_emit (self, signals[SIGNAL_CLOSED], 0, error);
}

/* Sending */

/* Messages go out without asking to hear how each went: a transport that
 * cannot deliver reports it with "closed" (stdio), or answers the request
 * with an error response (HTTP), and the request fails either way. */
static void
send_message (McpClient  *self,
              McpMessage *message,
              Pending    *pending)
{
  g_signal_emit (self, signals[SIGNAL_TRACE], 0, MCP_TRACE_OUTGOING, message);
  mcp_transport_send_async (self->transport, message, NULL, NULL, NULL);
}

static JsonObject *
copy_object (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), object);
  g_autoptr(JsonNode) copy = json_node_copy (node);

  return json_object_ref (json_node_get_object (copy));
}

/* Every request of the 2026-07-28 era says who sends it, which revision it
 * speaks and what the client can do: there is no session to remember it. */
static void
add_request_meta (McpClient  *self,
                  JsonObject *meta)
{
  json_object_set_string_member (meta, META_PROTOCOL_VERSION,
                                 mcp_revision_to_string (MCP_REVISION_2026_07_28));
  json_object_set_object_member (meta, META_CLIENT_INFO, json_object_ref (self->meta_client_info));
  json_object_set_object_member (meta, META_CLIENT_CAPS,
                                 json_object_ref (self->meta_capabilities));
  if (self->log_level != NULL)
    json_object_set_string_member (meta, META_LOG_LEVEL, self->log_level);
}

static void
send_pending (McpClient *self,
              Pending   *pending)
{
  g_autoptr(JsonNode) id = json_node_init_int (json_node_alloc (), pending->id);
  g_autoptr(McpMessage) message = NULL;
  g_autoptr(JsonObject) params = NULL;
  gboolean modern = self->modern || g_str_equal (pending->method, "server/discover");

  params = pending->params ? json_object_ref (pending->params) : NULL;

  if (pending->progress_func != NULL || modern)
    {
      JsonObject *meta;

      /* Add to a copy: the caller's params stay untouched. */
      if (params == NULL)
        params = json_object_new ();
      else
        {
          JsonObject *copy = copy_object (params);

          json_object_unref (params);
          params = copy;
        }

      meta = mcp_json_get_object (params, "_meta");
      if (meta == NULL)
        {
          meta = json_object_new ();
          json_object_set_object_member (params, "_meta", meta);
        }
      if (pending->progress_func != NULL)
        json_object_set_int_member (meta, "progressToken", pending->id);
      if (modern)
        add_request_meta (self, meta);
    }

  pending->sent = TRUE;
  message = mcp_message_new_request (id, pending->method, params);
  send_message (self, message, pending);
}

static void
flush_waiting (McpClient *self)
{
  Pending *pending;

  while ((pending = g_queue_pop_head (&self->waiting)) != NULL)
    send_pending (self, pending);
}

/* Sends a request for @task, which it completes. @internal requests
 * (initialize, the discovery probe) go out before the connection is ready;
 * the others wait in the queue until then. Takes the progress function's
 * data either way. */
static void
pending_start (McpClient       *self,
               GTask           *task,
               const char      *method,
               JsonObject      *params,
               gboolean         internal,
               guint            timeout_ms,
               McpProgressFunc  progress_func,
               gpointer         progress_data,
               GDestroyNotify   progress_destroy,
               guint            rounds)
{
  GCancellable *cancellable = g_task_get_cancellable (task);
  Pending *pending;

  if (self->state == MCP_CLIENT_STATE_CLOSING || self->state == MCP_CLIENT_STATE_CLOSED ||
      (self->state == MCP_CLIENT_STATE_DISCONNECTED && !internal))
    {
      if (progress_destroy != NULL)
        progress_destroy (progress_data);
      if (self->error != NULL)
        g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_CLOSED,
                                 "the server is not connected: %s", self->error->message);
      else
        g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NOT_READY,
                                 "the server is not connected");
      return;
    }

  if (g_task_return_error_if_cancelled (task))
    {
      if (progress_destroy != NULL)
        progress_destroy (progress_data);
      return;
    }

  pending = g_new0 (Pending, 1);
  pending->client = self;
  pending->id = self->next_id++;
  pending->method = g_strdup (method);
  pending->params = params ? json_object_ref (params) : NULL;
  pending->task = g_object_ref (task);
  pending->timeout_ms = timeout_ms;
  pending->hard_deadline = g_get_monotonic_time () +
                           (gint64) MAX (self->max_request_time_ms, timeout_ms) * 1000;
  pending->progress_func = progress_func;
  pending->progress_data = progress_data;
  pending->progress_destroy = progress_destroy;
  pending->progress_total = -1;
  pending->rounds = rounds;
  g_hash_table_insert (self->pending, &pending->id, pending);

  if (cancellable != NULL)
    {
      pending->cancellable = g_object_ref (cancellable);
      pending->cancelled_id = g_cancellable_connect (cancellable,
                                                     G_CALLBACK (pending_cancelled_cb),
                                                     pending, NULL);
    }

  pending_arm_timeout (pending);

  if (internal || self->state == MCP_CLIENT_STATE_READY)
    send_pending (self, pending);
  else
    g_queue_push_tail (&self->waiting, pending);
}

static void
start_request (McpClient           *self,
               const char          *method,
               JsonObject          *params,
               gboolean             internal,
               guint                timeout_ms,
               McpProgressFunc      progress_func,
               gpointer             progress_data,
               GDestroyNotify       progress_destroy,
               GCancellable        *cancellable,
               gpointer             source_tag,
               GAsyncReadyCallback  callback,
               gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, source_tag);
  pending_start (self, task, method, params, internal, timeout_ms,
                 progress_func, progress_data, progress_destroy, 0);
}

static JsonObject *
finish_request (McpClient     *self,
                GAsyncResult  *result,
                gpointer       source_tag,
                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Lists */

static void
list_page_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data);

typedef struct {
  const char *method;
  ListKind    kind;
  GPtrArray  *items;
  guint       pages;
  gboolean    restarted;
} ListState;

static void
list_state_free (ListState *state)
{
  g_ptr_array_unref (state->items);
  g_free (state);
}

static ListKind
list_kind_for_method (const char *method)
{
  for (guint i = 0; i < N_LISTS; i++)
    if (g_str_equal (method, list_kinds[i].method))
      return (ListKind) i;

  return N_LISTS;
}

static void
list_request_page (McpClient  *self,
                   GTask      *task,
                   const char *cursor)
{
  ListState *state = g_task_get_task_data (task);
  g_autoptr(JsonObject) params = NULL;

  if (cursor != NULL)
    {
      params = json_object_new ();
      json_object_set_string_member (params, "cursor", cursor);
    }

  start_request (self, state->method, params, FALSE, self->request_timeout_ms,
                 NULL, NULL, NULL, g_task_get_cancellable (task),
                 list_request_page, list_page_cb, g_object_ref (task));
}

static void
list_page_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  McpClient *self = MCP_CLIENT (object);
  g_autoptr(GTask) task = user_data;
  ListState *state = g_task_get_task_data (task);
  g_autoptr(JsonObject) page = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *entries;
  const char *cursor;

  page = finish_request (self, result, list_request_page, &error);
  if (page == NULL)
    {
      /* A server that forgot our cursor says so with invalid params: start
       * over once, from the first page. */
      if (g_error_matches (error, MCP_ERROR, MCP_ERROR_INVALID_PARAMS) &&
          state->pages > 0 && !state->restarted)
        {
          state->restarted = TRUE;
          state->pages = 0;
          g_ptr_array_set_size (state->items, 0);
          list_request_page (self, task, NULL);
          return;
        }

      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  entries = mcp_json_get_array (page, list_kinds[state->kind].member);
  for (guint i = 0; entries != NULL && i < json_array_get_length (entries); i++)
    {
      JsonNode *node = json_array_get_element (entries, i);
      g_autoptr(GError) item_error = NULL;
      gpointer item = NULL;

      if (JSON_NODE_HOLDS_OBJECT (node))
        item = list_kinds[state->kind].make (json_node_get_object (node), &item_error);
      else
        item_error = g_error_new_literal (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                          "an entry is not an object");

      if (item != NULL)
        g_ptr_array_add (state->items, item);
      else
        diagnostic (self, "%s: skipped an entry: %s", state->method, item_error->message);
    }

  state->pages++;
  cursor = mcp_json_get_string (page, "nextCursor");
  if (cursor == NULL)
    {
      GListStore *store = self->lists[state->kind];

      g_list_store_splice (store, 0, g_list_model_get_n_items (G_LIST_MODEL (store)),
                           state->items->pdata, state->items->len);

      /* 2026-07-28 lists say how long they stay good. */
      self->list_expiry[state->kind] = 0;
      if (self->modern && mcp_json_has_number (page, "ttlMs"))
        self->list_expiry[state->kind] =
          g_get_monotonic_time () + (gint64) mcp_json_get_number (page, "ttlMs", 0) * 1000;
      g_task_return_pointer (task, g_ptr_array_ref (state->items),
                             (GDestroyNotify) g_ptr_array_unref);
      return;
    }

  if (state->pages >= MCP_MAX_LIST_PAGES)
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                               "the server's “%s” went on for more than %u pages; "
                               "stopped, as the listing looks like a loop",
                               state->method, MCP_MAX_LIST_PAGES);
      return;
    }

  list_request_page (self, task, cursor);
}

static void
refresh_list_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  McpClient *self = MCP_CLIENT (object);
  ListKind kind = GPOINTER_TO_UINT (user_data);
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(GError) error = NULL;

  items = mcp_client_list_finish (self, result, &error);
  self->list_busy &= ~(1u << kind);

  if (items == NULL)
    {
      if (self->state == MCP_CLIENT_STATE_READY)
        diagnostic (self, "could not refresh %s: %s", list_kinds[kind].member, error->message);
      return;
    }

  if (self->list_dirty & (1u << kind))
    {
      self->list_dirty &= ~(1u << kind);
      refresh_list (self, kind);
    }
}

static void
refresh_list (McpClient *self,
              ListKind   kind)
{
  if (self->state != MCP_CLIENT_STATE_READY ||
      !mcp_client_has_capability (self, list_kinds[kind].capability, NULL))
    return;

  self->list_expiry[kind] = 0;

  /* A change while a listing runs may not be in it: list again after. */
  if (self->list_busy & (1u << kind))
    {
      self->list_dirty |= 1u << kind;
      return;
    }

  self->list_busy |= 1u << kind;
  mcp_client_list_async (self, list_kinds[kind].method, self->cancellable,
                         refresh_list_cb, GUINT_TO_POINTER (kind));
}

/* Subscriptions (2026-07-28): one subscriptions/listen request stays
 * open for as long as the connection, carrying list changes and updates
 * of the subscribed resources; a change of what we want reopens it. */

static void
listen_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  McpClient *self = MCP_CLIENT (object);
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(GError) error = NULL;

  reply = finish_request (self, result, open_subscriptions, &error);
  if (reply != NULL)
    diagnostic (self, "the server ended the subscription stream");
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
           !g_error_matches (error, MCP_ERROR, MCP_ERROR_CLOSED))
    diagnostic (self, "the subscription stream failed: %s", error->message);
}

static void
open_subscriptions (McpClient *self)
{
  g_autoptr(JsonObject) params = NULL;
  JsonObject *filter;
  GHashTableIter iter;
  gpointer uri;
  Pending *old;

  if (!self->modern || self->state != MCP_CLIENT_STATE_READY)
    return;

  /* The stream open now is replaced: on stdio it is cancelled by a
   * notification, over HTTP by closing its response. */
  if (self->listen_id != 0 && (old = g_hash_table_lookup (self->pending, &self->listen_id)) != NULL)
    {
      send_cancelled (self, old->id, "the subscriptions changed");
      pending_complete (old, NULL, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                        "replaced by a new subscription"));
    }
  self->listen_id = 0;

  filter = json_object_new ();
  if (mcp_client_has_capability (self, "tools", "listChanged"))
    json_object_set_boolean_member (filter, "toolsListChanged", TRUE);
  if (mcp_client_has_capability (self, "prompts", "listChanged"))
    json_object_set_boolean_member (filter, "promptsListChanged", TRUE);
  if (mcp_client_has_capability (self, "resources", "listChanged"))
    json_object_set_boolean_member (filter, "resourcesListChanged", TRUE);
  if (g_hash_table_size (self->subscriptions) > 0)
    {
      JsonArray *uris = json_array_new ();

      g_hash_table_iter_init (&iter, self->subscriptions);
      while (g_hash_table_iter_next (&iter, &uri, NULL))
        json_array_add_string_element (uris, uri);
      json_object_set_array_member (filter, "resourceSubscriptions", uris);
    }

  if (json_object_get_size (filter) == 0)
    {
      json_object_unref (filter);
      return;
    }

  params = json_object_new ();
  json_object_set_object_member (params, "notifications", filter);
  self->listen_id = self->next_id;
  start_request (self, "subscriptions/listen", params, FALSE, 0, NULL, NULL, NULL,
                 self->cancellable, open_subscriptions, listen_done_cb, NULL);
}

/* Connecting */

static JsonObject *
build_capabilities (McpClient *self)
{
  JsonObject *capabilities = json_object_new ();
  McpClientFeatures features = self->delegate ? mcp_client_delegate_get_features (self->delegate)
                                              : MCP_CLIENT_FEATURE_NONE;

  if (features & MCP_CLIENT_FEATURE_ROOTS)
    {
      JsonObject *roots = json_object_new ();

      if (features & MCP_CLIENT_FEATURE_ROOTS_LIST_CHANGED)
        json_object_set_boolean_member (roots, "listChanged", TRUE);
      json_object_set_object_member (capabilities, "roots", roots);
    }

  if (features & MCP_CLIENT_FEATURE_SAMPLING)
    {
      JsonObject *sampling = json_object_new ();

      if (features & MCP_CLIENT_FEATURE_SAMPLING_TOOLS)
        json_object_set_object_member (sampling, "tools", json_object_new ());
      if (features & MCP_CLIENT_FEATURE_SAMPLING_CONTEXT)
        json_object_set_object_member (sampling, "context", json_object_new ());
      json_object_set_object_member (capabilities, "sampling", sampling);
    }

  if (features & (MCP_CLIENT_FEATURE_ELICITATION_FORM | MCP_CLIENT_FEATURE_ELICITATION_URL))
    {
      JsonObject *elicitation = json_object_new ();

      /* Before 2025-11-25 the object had no modes and meant form. */
      if (self->modern || self->legacy_revision >= MCP_REVISION_2025_11_25)
        {
          if (features & MCP_CLIENT_FEATURE_ELICITATION_FORM)
            json_object_set_object_member (elicitation, "form", json_object_new ());
          if (features & MCP_CLIENT_FEATURE_ELICITATION_URL)
            json_object_set_object_member (elicitation, "url", json_object_new ());
        }
      json_object_set_object_member (capabilities, "elicitation", elicitation);
    }

  if (self->modern)
    mcp_client_tasks_add_capabilities (self, capabilities);

  return capabilities;
}

/* Says what failed in front of why, keeping the code and the data (an
 * HTTP status, the versions a server supports) for callers to act on. */
static GError *
rewrap_error (const GError *error,
              const char   *what)
{
  GError *wrapped = g_error_new (MCP_ERROR, error->domain == MCP_ERROR ? error->code
                                                                       : MCP_ERROR_CLOSED,
                                 "%s: %s", what, error->message);

  if (mcp_error_get_data (error) != NULL)
    mcp_error_set_data (wrapped, mcp_error_get_data (error));

  return wrapped;
}

static void
connect_fail (McpClient *self,
              GError    *error)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->connect_task);

  if (self->error == NULL)
    self->error = g_error_copy (error);

  /* The transport goes down with the failed negotiation; its "closed"
   * signal is not a second failure. */
  fail_all_pending (self, MCP_ERROR_CLOSED, error->message);
  set_state (self, MCP_CLIENT_STATE_CLOSING);
  mcp_transport_close_async (self->transport, NULL, NULL, NULL);
  set_state (self, MCP_CLIENT_STATE_CLOSED);
  g_signal_emit (self, signals[SIGNAL_CLOSED], 0, error);

  if (task != NULL)
    g_task_return_error (task, error);
  else
    g_error_free (error);
}

static void
initialize_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(McpClient) self = user_data;
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(GError) error = NULL;
  const char *version;
  McpRevision revision;
  JsonObject *info;

  reply = finish_request (self, result, mcp_client_connect_async, &error);
  if (self->connect_task == NULL)
    return;

  if (reply == NULL)
    {
      if (self->transport_closed)
        return;
      connect_fail (self, rewrap_error (error, "the server did not initialize"));
      return;
    }

  version = mcp_json_get_string (reply, "protocolVersion");
  revision = mcp_revision_from_string (version);
  if (revision == MCP_REVISION_UNKNOWN || mcp_revision_is_stateless (revision))
    {
      g_autofree char *supported = mcp_revision_list_supported ();

      connect_fail (self, g_error_new (MCP_ERROR, MCP_ERROR_UNSUPPORTED_VERSION,
                                       "the server speaks protocol revision “%s”, which this "
                                       "client does not support (it supports %s)",
                                       version ? version : "(none)", supported));
      return;
    }

  info = mcp_json_get_object (reply, "serverInfo");
  self->server_info = info ? json_object_ref (info) : json_object_new ();
  info = mcp_json_get_object (reply, "capabilities");
  self->server_capabilities = info ? json_object_ref (info) : json_object_new ();
  self->instructions = g_strdup (mcp_json_get_string (reply, "instructions"));
  self->revision = revision;
  mcp_transport_set_protocol_version (self->transport, version);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REVISION]);

  mcp_client_notify (self, "notifications/initialized", NULL, NULL);
  become_ready (self);
}

static void
send_initialize (McpClient *self)
{
  g_autoptr(JsonObject) params = json_object_new ();
  JsonObject *info = json_object_new ();

  json_object_set_string_member (params, "protocolVersion",
                                 mcp_revision_to_string (self->legacy_revision));
  json_object_set_object_member (params, "capabilities", build_capabilities (self));
  json_object_set_string_member (info, "name", self->client_name);
  if (self->client_title != NULL && self->legacy_revision >= MCP_REVISION_2025_06_18)
    json_object_set_string_member (info, "title", self->client_title);
  json_object_set_string_member (info, "version", self->client_version);
  json_object_set_object_member (params, "clientInfo", info);

  start_request (self, "initialize", params, TRUE, self->initialize_timeout_ms,
                 NULL, NULL, NULL, g_task_get_cancellable (self->connect_task),
                 mcp_client_connect_async, initialize_cb, g_object_ref (self));
}

static void
become_ready (McpClient *self)
{
  g_autoptr(GTask) task = NULL;

  set_state (self, MCP_CLIENT_STATE_READY);
  flush_waiting (self);

  for (guint i = 0; i < N_LISTS; i++)
    refresh_list (self, (ListKind) i);
  open_subscriptions (self);

  task = g_steal_pointer (&self->connect_task);
  g_task_return_boolean (task, TRUE);
}

static void
discover_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(McpClient) self = user_data;
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *why = NULL;
  gboolean auto_era = self->requested_revision == MCP_REVISION_UNKNOWN;
  McpRevision handshake_revision;
  JsonObject *meta;
  JsonObject *info;

  reply = finish_request (self, result, mcp_client_connect_async, &error);
  if (self->connect_task == NULL)
    return;

  /* A transport that closed fails the connecting itself; a request that
   * merely could not be delivered (an unreachable HTTP server) does not
   * close it, and is an answer like any other. */
  if (reply == NULL && self->transport_closed)
    return;

  switch (mcp_era_from_discover (reply, error, &handshake_revision, &why))
    {
    case MCP_ERA_MODERN:
      break;

    case MCP_ERA_HANDSHAKE:
      if (!auto_era)
        {
          connect_fail (self, g_error_new (MCP_ERROR, MCP_ERROR_UNSUPPORTED_VERSION,
                                           "the server does not speak protocol revision "
                                           "2026-07-28: %s", why));
          return;
        }
      g_assert (!mcp_revision_is_stateless (handshake_revision));
      diagnostic (self, "the server does not speak 2026-07-28 (%s); using initialize with %s",
                  why, mcp_revision_to_string (handshake_revision));
      self->legacy_revision = handshake_revision;
      send_initialize (self);
      return;

    case MCP_ERA_INCOMPATIBLE:
    default:
      connect_fail (self, g_error_new_literal (MCP_ERROR, MCP_ERROR_UNSUPPORTED_VERSION, why));
      return;
    }

  meta = mcp_json_get_object (reply, "_meta");
  info = mcp_json_get_object (meta, META_SERVER_INFO);
  self->server_info = info ? json_object_ref (info) : json_object_new ();
  info = mcp_json_get_object (reply, "capabilities");
  self->server_capabilities = info ? json_object_ref (info) : json_object_new ();
  self->instructions = g_strdup (mcp_json_get_string (reply, "instructions"));
  self->revision = MCP_REVISION_2026_07_28;
  self->modern = TRUE;
  mcp_transport_set_protocol_version (self->transport,
                                      mcp_revision_to_string (MCP_REVISION_2026_07_28));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REVISION]);

  become_ready (self);
}

static void
transport_started_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(McpClient) self = user_data;
  g_autoptr(GError) error = NULL;
  guint timeout_ms;

  if (!mcp_transport_start_finish (MCP_TRANSPORT (object), result, &error))
    {
      g_autoptr(GTask) task = g_steal_pointer (&self->connect_task);

      if (self->error == NULL)
        self->error = g_error_copy (error);
      set_state (self, MCP_CLIENT_STATE_CLOSED);
      if (task != NULL)
        g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (self->connect_task == NULL || self->state != MCP_CLIENT_STATE_CONNECTING)
    return;

  set_state (self, MCP_CLIENT_STATE_INITIALIZING);

  /* What every modern request carries is built once. */
  g_clear_pointer (&self->meta_client_info, json_object_unref);
  g_clear_pointer (&self->meta_capabilities, json_object_unref);
  self->meta_client_info = json_object_new ();
  json_object_set_string_member (self->meta_client_info, "name", self->client_name);
  if (self->client_title != NULL)
    json_object_set_string_member (self->meta_client_info, "title", self->client_title);
  json_object_set_string_member (self->meta_client_info, "version", self->client_version);
  self->modern = TRUE;
  self->meta_capabilities = build_capabilities (self);
  self->modern = FALSE;

  if (self->requested_revision != MCP_REVISION_UNKNOWN &&
      !mcp_revision_is_stateless (self->requested_revision))
    {
      self->legacy_revision = self->requested_revision;
      send_initialize (self);
      return;
    }

  /* The probe of the stdio and HTTP bindings: a server of the handshake
   * era answers with an error, or not at all. */
  timeout_ms = self->requested_revision == MCP_REVISION_UNKNOWN
               ? MIN (self->initialize_timeout_ms, DISCOVER_PROBE_TIMEOUT_MS)
               : self->initialize_timeout_ms;
  start_request (self, "server/discover", NULL, TRUE, timeout_ms,
                 NULL, NULL, NULL, g_task_get_cancellable (self->connect_task),
                 mcp_client_connect_async, discover_cb, g_object_ref (self));
}

/* GObject */

static void
mcp_client_dispose (GObject *object)
{
  McpClient *self = MCP_CLIENT (object);

  g_cancellable_cancel (self->cancellable);
  cancel_all_incoming (self);
  if (self->deadline_source != NULL)
    {
      g_source_destroy (self->deadline_source);
      g_clear_pointer (&self->deadline_source, g_source_unref);
    }

  if (self->transport != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->transport, self);
      if (self->state != MCP_CLIENT_STATE_CLOSED && self->state != MCP_CLIENT_STATE_DISCONNECTED)
        mcp_transport_close_async (self->transport, NULL, NULL, NULL);
    }

  for (guint i = 0; i < N_LISTS; i++)
    g_list_store_remove_all (self->lists[i]);

  g_clear_object (&self->delegate);

  G_OBJECT_CLASS (mcp_client_parent_class)->dispose (object);
}

static void
mcp_client_finalize (GObject *object)
{
  McpClient *self = MCP_CLIENT (object);

  g_assert (g_hash_table_size (self->pending) == 0);

  g_clear_object (&self->transport);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_clear_error (&self->error);
  g_clear_pointer (&self->pending, g_hash_table_unref);
  g_clear_pointer (&self->incoming, g_hash_table_unref);
  g_clear_pointer (&self->subscriptions, g_hash_table_unref);
  g_clear_pointer (&self->server_info, json_object_unref);
  g_clear_pointer (&self->meta_client_info, json_object_unref);
  g_clear_pointer (&self->meta_capabilities, json_object_unref);
  g_free (self->log_level);
  g_clear_pointer (&self->server_capabilities, json_object_unref);
  g_clear_pointer (&self->close_tasks, g_ptr_array_unref);
  for (guint i = 0; i < N_LISTS; i++)
    g_clear_object (&self->lists[i]);
  g_free (self->instructions);
  g_free (self->client_name);
  g_free (self->client_title);
  g_free (self->client_version);

  G_OBJECT_CLASS (mcp_client_parent_class)->finalize (object);
}

static void
mcp_client_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  McpClient *self = MCP_CLIENT (object);

  switch (prop_id)
    {
    case PROP_STATE:
      g_value_set_int (value, self->state);
      break;

    case PROP_TRANSPORT:
      g_value_set_object (value, self->transport);
      break;

    case PROP_REVISION:
      g_value_set_string (value, mcp_revision_to_string (self->revision));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_client_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  McpClient *self = MCP_CLIENT (object);

  switch (prop_id)
    {
    case PROP_TRANSPORT:
      self->transport = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_client_constructed (GObject *object)
{
  McpClient *self = MCP_CLIENT (object);

  G_OBJECT_CLASS (mcp_client_parent_class)->constructed (object);

  g_assert (MCP_IS_TRANSPORT (self->transport));

  g_signal_connect_object (self->transport, "message",
                           G_CALLBACK (transport_message_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->transport, "closed",
                           G_CALLBACK (transport_closed_cb), self, G_CONNECT_SWAPPED);
}

static void
mcp_client_class_init (McpClientClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = mcp_client_constructed;
  object_class->dispose = mcp_client_dispose;
  object_class->finalize = mcp_client_finalize;
  object_class->get_property = mcp_client_get_property;
  object_class->set_property = mcp_client_set_property;

  properties[PROP_STATE] =
    g_param_spec_int ("state", NULL, NULL,
                      MCP_CLIENT_STATE_DISCONNECTED, MCP_CLIENT_STATE_CLOSED,
                      MCP_CLIENT_STATE_DISCONNECTED,
                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TRANSPORT] =
    g_param_spec_object ("transport", NULL, NULL, MCP_TYPE_TRANSPORT,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_REVISION] =
    g_param_spec_string ("revision", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SIGNAL_NOTIFICATION] =
    g_signal_new ("notification", G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST | G_SIGNAL_DETAILED,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  JSON_TYPE_OBJECT | G_SIGNAL_TYPE_STATIC_SCOPE);
  signals[SIGNAL_LOG_MESSAGE] =
    g_signal_new ("log-message", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 3,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  JSON_TYPE_NODE | G_SIGNAL_TYPE_STATIC_SCOPE);
  signals[SIGNAL_RESOURCE_UPDATED] =
    g_signal_new ("resource-updated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);
  signals[SIGNAL_TRACE] =
    g_signal_new ("trace", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2,
                  G_TYPE_INT, MCP_TYPE_MESSAGE | G_SIGNAL_TYPE_STATIC_SCOPE);
  signals[SIGNAL_DIAGNOSTIC] =
    g_signal_new ("diagnostic", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);
  signals[SIGNAL_CLOSED] =
    g_signal_new ("closed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                  G_TYPE_ERROR | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
mcp_client_init (McpClient *self)
{
  self->cancellable = g_cancellable_new ();
  self->client_name = g_strdup ("steward");
  self->client_title = g_strdup ("Steward");
  self->client_version = g_strdup (PACKAGE_VERSION);
  self->requested_revision = MCP_REVISION_UNKNOWN;
  self->legacy_revision = MCP_REVISION_LATEST_STATEFUL;
  self->request_timeout_ms = MCP_DEFAULT_REQUEST_TIMEOUT_MS;
  self->initialize_timeout_ms = MCP_DEFAULT_INITIALIZE_TIMEOUT_MS;
  self->max_request_time_ms = MCP_DEFAULT_MAX_REQUEST_TIME_MS;
  self->next_id = 1;
  self->pending = g_hash_table_new (g_int64_hash, g_int64_equal);
  self->context = g_main_context_ref_thread_default ();
  self->next_deadline = G_MAXINT64;
  self->incoming = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                          (GDestroyNotify) incoming_free);
  self->subscriptions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->close_tasks = g_ptr_array_new_with_free_func (g_object_unref);
  g_queue_init (&self->waiting);

  self->lists[LIST_TOOLS] = g_list_store_new (MCP_TYPE_TOOL);
  self->lists[LIST_RESOURCES] = g_list_store_new (MCP_TYPE_RESOURCE);
  self->lists[LIST_TEMPLATES] = g_list_store_new (MCP_TYPE_RESOURCE_TEMPLATE);
  self->lists[LIST_PROMPTS] = g_list_store_new (MCP_TYPE_PROMPT);
}

/* Public API */

/**
 * mcp_client_new:
 * @transport: how to reach the server; not started yet
 */
McpClient *
mcp_client_new (McpTransport *transport)
{
  g_return_val_if_fail (MCP_IS_TRANSPORT (transport), NULL);

  return g_object_new (MCP_TYPE_CLIENT, "transport", transport, NULL);
}

McpTransport *
mcp_client_get_transport (McpClient *self)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), NULL);

  return self->transport;
}

McpClientState
mcp_client_get_state (McpClient *self)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), MCP_CLIENT_STATE_CLOSED);

  return self->state;
}

/**
 * mcp_client_get_error:
 *
 * Returns: (nullable): why the connection failed or closed, if it did
 */
const GError *
mcp_client_get_error (McpClient *self)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), NULL);

  return self->error;
}

void
mcp_client_set_delegate (McpClient         *self,
                         McpClientDelegate *delegate)
{
  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (!delegate || MCP_IS_CLIENT_DELEGATE (delegate));

  g_set_object (&self->delegate, delegate);
}

McpClientDelegate *
mcp_client_get_delegate (McpClient *self)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), NULL);

  return self->delegate;
}

void
mcp_client_set_client_info (McpClient  *self,
                            const char *name,
                            const char *title,
                            const char *version)
{
  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (name != NULL && version != NULL);

  g_free (self->client_name);
  g_free (self->client_title);
  g_free (self->client_version);
  self->client_name = g_strdup (name);
  self->client_title = g_strdup (title);
  self->client_version = g_strdup (version);
}

/**
 * mcp_client_set_requested_revision:
 * @revision: %MCP_REVISION_UNKNOWN (the default) to find the server's era:
 *   2026-07-28 if it answers server/discover, else the handshake of
 *   initialize with the newest revision; or one revision to use only that
 *   era (the server may still answer initialize with an older one)
 */
void
mcp_client_set_requested_revision (McpClient   *self,
                                   McpRevision  revision)
{
  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (revision <= MCP_REVISION_2026_07_28);

  self->requested_revision = revision;
}

void
mcp_client_set_request_timeout (McpClient *self,
                                guint      timeout_ms)
{
  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (timeout_ms > 0);

  self->request_timeout_ms = timeout_ms;
}

void
mcp_client_set_initialize_timeout (McpClient *self,
                                   guint      timeout_ms)
{
  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (timeout_ms > 0);

  self->initialize_timeout_ms = timeout_ms;
}

void
mcp_client_set_max_request_time (McpClient *self,
                                 guint      max_ms)
{
  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (max_ms > 0);

  self->max_request_time_ms = max_ms;
}

McpRevision
mcp_client_get_revision (McpClient *self)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), MCP_REVISION_UNKNOWN);

  return self->revision;
}

const char *
mcp_client_get_protocol_version (McpClient *self)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), NULL);

  return mcp_revision_to_string (self->revision);
}

JsonObject *
mcp_client_get_server_info (McpClient *self)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), NULL);

  return self->server_info;
}

const char *
mcp_client_get_server_name (McpClient *self)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), NULL);

  return mcp_json_get_string (self->server_info, "name");
}

const char *
mcp_client_get_server_title (McpClient *self)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), NULL);

  return mcp_json_get_string (self->server_info, "title");
}

const char *
mcp_client_get_server_version (McpClient *self)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), NULL);

  return mcp_json_get_string (self->server_info, "version");
}

JsonObject *
mcp_client_get_server_capabilities (McpClient *self)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), NULL);

  return self->server_capabilities;
}

/**
 * mcp_client_has_capability:
 * @capability: "tools", "resources", "prompts", "logging", "completions"…
 * @sub_capability: (nullable): e.g. "subscribe" or "listChanged", which
 *   must then be `true`
 */
gboolean
mcp_client_has_capability (McpClient  *self,
                           const char *capability,
                           const char *sub_capability)
{
  JsonObject *object;

  g_return_val_if_fail (MCP_IS_CLIENT (self), FALSE);

  object = mcp_json_get_object (self->server_capabilities, capability);
  if (object == NULL)
    return FALSE;

  return sub_capability == NULL || mcp_json_get_boolean (object, sub_capability, FALSE);
}

const char *
mcp_client_get_instructions (McpClient *self)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), NULL);

  return self->instructions;
}

/**
 * mcp_client_get_n_ignored_messages:
 *
 * Returns: how many responses and notifications were dropped because they
 *   named no request of ours (unknown, duplicate or odd ids)
 */
guint
mcp_client_get_n_ignored_messages (McpClient *self)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), 0);

  return self->n_ignored;
}

GListModel *
mcp_client_get_tools (McpClient *self)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), NULL);

  return G_LIST_MODEL (self->lists[LIST_TOOLS]);
}

GListModel *
mcp_client_get_resources (McpClient *self)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), NULL);

  return G_LIST_MODEL (self->lists[LIST_RESOURCES]);
}

GListModel *
mcp_client_get_resource_templates (McpClient *self)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), NULL);

  return G_LIST_MODEL (self->lists[LIST_TEMPLATES]);
}

GListModel *
mcp_client_get_prompts (McpClient *self)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), NULL);

  return G_LIST_MODEL (self->lists[LIST_PROMPTS]);
}

gboolean
mcp_client_is_subscribed (McpClient  *self,
                          const char *uri)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), FALSE);

  return g_hash_table_contains (self->subscriptions, uri);
}

/**
 * mcp_client_connect_async:
 *
 * Starts the transport and negotiates. Completes once the connection is
 * ready; the lists fill in afterwards.
 */
void
mcp_client_connect_async (McpClient           *self,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (MCP_IS_CLIENT (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_client_connect_async);

  if (self->state != MCP_CLIENT_STATE_DISCONNECTED)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_PENDING,
                               "the client was connected before; use a new one");
      return;
    }

  self->connect_task = g_steal_pointer (&task);
  set_state (self, MCP_CLIENT_STATE_CONNECTING);
  mcp_transport_start_async (self->transport, cancellable, transport_started_cb,
                             g_object_ref (self));
}

gboolean
mcp_client_connect_finish (McpClient     *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
transport_closed_for_close_cb (GObject      *object,
                               GAsyncResult *result,
                               gpointer      user_data)
{
  g_autoptr(McpClient) self = user_data;
  g_autoptr(GPtrArray) tasks = g_steal_pointer (&self->close_tasks);
  g_autoptr(GError) error = NULL;

  self->close_tasks = g_ptr_array_new_with_free_func (g_object_unref);

  /* Stopping the server is best effort: whatever it did, it is gone. */
  if (!mcp_transport_close_finish (MCP_TRANSPORT (object), result, &error))
    g_debug ("closing the transport: %s", error->message);

  if (self->state != MCP_CLIENT_STATE_CLOSED)
    {
      set_state (self, MCP_CLIENT_STATE_CLOSED);
      g_signal_emit (self, signals[SIGNAL_CLOSED], 0, NULL);
    }

  for (guint i = 0; i < tasks->len; i++)
    g_task_return_boolean (g_ptr_array_index (tasks, i), TRUE);
}

/**
 * mcp_client_close_async:
 *
 * Fails what is still waiting, then stops the server (stdio: close stdin,
 * then signals) or ends the session.
 */
void
mcp_client_close_async (McpClient           *self,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  McpClientState previous;

  g_return_if_fail (MCP_IS_CLIENT (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_client_close_async);

  if (self->state == MCP_CLIENT_STATE_CLOSED || self->state == MCP_CLIENT_STATE_DISCONNECTED)
    {
      set_state (self, MCP_CLIENT_STATE_CLOSED);
      g_task_return_boolean (task, TRUE);
      return;
    }

  g_ptr_array_add (self->close_tasks, g_steal_pointer (&task));
  if (self->state == MCP_CLIENT_STATE_CLOSING)
    return;

  previous = self->state;
  set_state (self, MCP_CLIENT_STATE_CLOSING);
  fail_all_pending (self, MCP_ERROR_CLOSED, "the connection is closing");
  cancel_all_incoming (self);

  if (self->connect_task != NULL)
    {
      g_autoptr(GTask) connect_task = g_steal_pointer (&self->connect_task);

      g_task_return_new_error (connect_task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                               "the connection was closed before it was ready");
    }

  (void) previous;
  mcp_transport_close_async (self->transport, NULL, transport_closed_for_close_cb,
                             g_object_ref (self));
}

gboolean
mcp_client_close_finish (McpClient     *self,
                         GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * mcp_client_request_async:
 * @progress_func: (nullable): asks the server for progress, delivered here
 *
 * Sends a request and waits for its answer, with the client's timeout
 * (started again by progress, up to the hard maximum). Cancelling
 * @cancellable tells the server with `notifications/cancelled`.
 */
void
mcp_client_request_async (McpClient           *self,
                          const char          *method,
                          JsonObject          *params,
                          McpProgressFunc      progress_func,
                          gpointer             progress_data,
                          GDestroyNotify       progress_destroy,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (method != NULL);

  start_request (self, method, params, FALSE, self->request_timeout_ms,
                 progress_func, progress_data, progress_destroy, cancellable,
                 mcp_client_request_async, callback, user_data);
}

/**
 * mcp_client_request_finish:
 *
 * Returns: (transfer full): the result object, or %NULL with the peer's
 *   JSON-RPC error (in %MCP_ERROR with its code) or a local one
 */
JsonObject *
mcp_client_request_finish (McpClient     *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  return finish_request (self, result, mcp_client_request_async, error);
}

gboolean
mcp_client_notify (McpClient   *self,
                   const char  *method,
                   JsonObject  *params,
                   GError     **error)
{
  g_autoptr(McpMessage) message = NULL;

  g_return_val_if_fail (MCP_IS_CLIENT (self), FALSE);
  g_return_val_if_fail (method != NULL, FALSE);

  if (self->state != MCP_CLIENT_STATE_READY && self->state != MCP_CLIENT_STATE_INITIALIZING)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_NOT_READY,
                   "cannot send “%s”: the server is not connected", method);
      return FALSE;
    }

  message = mcp_message_new_notification (method, params);
  send_message (self, message, NULL);
  return TRUE;
}

GError *
mcp_client_check_input_request (McpClient  *self,
                                const char *method,
                                JsonObject *params)
{
  return check_incoming (self, method, params);
}

/* For a request that may rightly wait as long as the work it stands for
 * (tasks/result); it still ends with the connection or when cancelled. */
void
mcp_client_request_untimed_async (McpClient           *self,
                                  const char          *method,
                                  JsonObject          *params,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  start_request (self, method, params, FALSE, 0, NULL, NULL, NULL, cancellable,
                 mcp_client_request_async, callback, user_data);
}

/* Typed requests check the server offered the feature, then unwrap. */

typedef JsonObject *(*Unwrap) (McpClient *self, JsonObject *result, GError **error);

static gboolean
require_capability (McpClient           *self,
                    const char          *capability,
                    const char          *sub_capability,
                    const char          *what,
                    gpointer             source_tag,
                    GAsyncReadyCallback  callback,
                    gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  if (self->state != MCP_CLIENT_STATE_READY || mcp_client_has_capability (self, capability,
                                                                          sub_capability))
    return TRUE;

  task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (task, source_tag);
  g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_CAPABILITY_MISSING,
                           "the server does not offer %s", what);
  return FALSE;
}

static void
typed_request (McpClient           *self,
               const char          *method,
               JsonObject          *params,
               McpProgressFunc      progress_func,
               gpointer             progress_data,
               GDestroyNotify       progress_destroy,
               GCancellable        *cancellable,
               gpointer             source_tag,
               GAsyncReadyCallback  callback,
               gpointer             user_data)
{
  start_request (self, method, params, FALSE, self->request_timeout_ms,
                 progress_func, progress_data, progress_destroy, cancellable,
                 source_tag, callback, user_data);
}

void
mcp_client_ping_async (McpClient           *self,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  g_return_if_fail (MCP_IS_CLIENT (self));

  /* 2026-07-28 has no ping; discovery is the cheapest request it has. */
  typed_request (self, self->modern ? "server/discover" : "ping", NULL, NULL, NULL, NULL,
                 cancellable, mcp_client_ping_async, callback, user_data);
}

gboolean
mcp_client_ping_finish (McpClient     *self,
                        GAsyncResult  *result,
                        GError       **error)
{
  g_autoptr(JsonObject) reply = finish_request (self, result, mcp_client_ping_async, error);

  return reply != NULL;
}

/**
 * mcp_client_list_async:
 * @method: "tools/list", "resources/list", "resources/templates/list" or
 *   "prompts/list"
 *
 * Fetches every page of a list, and updates the matching list model.
 */
void
mcp_client_list_async (McpClient           *self,
                       const char          *method,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  ListKind kind;
  ListState *state;

  g_return_if_fail (MCP_IS_CLIENT (self));

  kind = list_kind_for_method (method);
  g_return_if_fail (kind < N_LISTS);

  if (!require_capability (self, list_kinds[kind].capability, NULL, list_kinds[kind].member,
                           mcp_client_list_async, callback, user_data))
    return;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_client_list_async);

  /* A list the server said is still good, with no change announced since,
   * is not fetched again. */
  if (self->list_expiry[kind] > g_get_monotonic_time ())
    {
      GListModel *model = G_LIST_MODEL (self->lists[kind]);
      GPtrArray *items = g_ptr_array_new_with_free_func (g_object_unref);

      for (guint i = 0; i < g_list_model_get_n_items (model); i++)
        g_ptr_array_add (items, g_list_model_get_item (model, i));
      g_task_return_pointer (task, items, (GDestroyNotify) g_ptr_array_unref);
      return;
    }

  state = g_new0 (ListState, 1);
  state->method = list_kinds[kind].method;
  state->kind = kind;
  state->items = g_ptr_array_new_with_free_func (g_object_unref);
  g_task_set_task_data (task, state, (GDestroyNotify) list_state_free);

  list_request_page (self, task, NULL);
}

/**
 * mcp_client_list_finish:
 *
 * Returns: (transfer container) (element-type McpItem): the entries
 */
GPtrArray *
mcp_client_list_finish (McpClient     *self,
                        GAsyncResult  *result,
                        GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

void
mcp_client_call_tool_async (McpClient           *self,
                            const char          *name,
                            JsonObject          *arguments,
                            McpProgressFunc      progress_func,
                            gpointer             progress_data,
                            GDestroyNotify       progress_destroy,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(JsonObject) params = NULL;

  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (name != NULL);

  if (!require_capability (self, "tools", NULL, "tools", mcp_client_call_tool_async,
                           callback, user_data))
    {
      if (progress_destroy != NULL)
        progress_destroy (progress_data);
      return;
    }

  if (mcp_client_tasks_route_call (self, name, arguments, progress_func, progress_data,
                                   progress_destroy, cancellable, mcp_client_call_tool_async,
                                   callback, user_data))
    return;

  params = json_object_new ();
  json_object_set_string_member (params, "name", name);
  json_object_set_object_member (params, "arguments",
                                 arguments ? json_object_ref (arguments) : json_object_new ());

  typed_request (self, "tools/call", params, progress_func, progress_data, progress_destroy,
                 cancellable, mcp_client_call_tool_async, callback, user_data);
}

/**
 * mcp_client_call_tool_finish:
 *
 * Returns: (transfer full): the result, which may be a tool error
 *   (mcp_tool_result_get_is_error()); %NULL for a protocol error
 */
McpToolResult *
mcp_client_call_tool_finish (McpClient     *self,
                             GAsyncResult  *result,
                             GError       **error)
{
  g_autoptr(JsonObject) reply = finish_request (self, result, mcp_client_call_tool_async, error);

  return reply ? mcp_tool_result_new (reply) : NULL;
}

void
mcp_client_read_resource_async (McpClient           *self,
                                const char          *uri,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(JsonObject) params = NULL;

  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (uri != NULL);

  if (!require_capability (self, "resources", NULL, "resources",
                           mcp_client_read_resource_async, callback, user_data))
    return;

  params = json_object_new ();
  json_object_set_string_member (params, "uri", uri);
  typed_request (self, "resources/read", params, NULL, NULL, NULL, cancellable,
                 mcp_client_read_resource_async, callback, user_data);
}

/**
 * mcp_client_read_resource_finish:
 *
 * Returns: (transfer container) (element-type McpContent): the contents,
 *   text or blob
 */
GPtrArray *
mcp_client_read_resource_finish (McpClient     *self,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  g_autoptr(JsonObject) reply = finish_request (self, result, mcp_client_read_resource_async,
                                                error);
  GPtrArray *contents;
  JsonArray *array;

  if (reply == NULL)
    return NULL;

  contents = g_ptr_array_new_with_free_func (g_object_unref);
  array = mcp_json_get_array (reply, "contents");
  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);

      if (JSON_NODE_HOLDS_OBJECT (node))
        g_ptr_array_add (contents, mcp_content_new_for_resource (json_node_get_object (node)));
    }

  return contents;
}

typedef struct {
  char     *uri;
  gboolean  subscribe;
} SubscribeData;

static void
subscribe_data_free (SubscribeData *data)
{
  g_free (data->uri);
  g_free (data);
}

static void
subscribe_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  McpClient *self = MCP_CLIENT (object);
  g_autoptr(GTask) task = user_data;
  SubscribeData *data = g_task_get_task_data (task);
  g_autoptr(JsonObject) reply = NULL;
  GError *error = NULL;

  reply = mcp_client_request_finish (self, result, &error);
  if (reply == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  if (data->subscribe)
    g_hash_table_add (self->subscriptions, g_strdup (data->uri));
  else
    g_hash_table_remove (self->subscriptions, data->uri);

  g_task_return_boolean (task, TRUE);
}

/**
 * mcp_client_subscribe_async:
 * @subscribe: %TRUE to subscribe, %FALSE to unsubscribe
 *
 * Updates then arrive as "resource-updated".
 */
void
mcp_client_subscribe_async (McpClient           *self,
                            const char          *uri,
                            gboolean             subscribe,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(JsonObject) params = NULL;
  SubscribeData *data;
  GTask *task;

  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (uri != NULL);

  if (!require_capability (self, "resources", "subscribe", "resource subscriptions",
                           mcp_client_subscribe_async, callback, user_data))
    return;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_client_subscribe_async);

  /* 2026-07-28 subscribes through the subscription stream. */
  if (self->modern)
    {
      if (subscribe)
        g_hash_table_add (self->subscriptions, g_strdup (uri));
      else
        g_hash_table_remove (self->subscriptions, uri);
      open_subscriptions (self);
      g_task_return_boolean (task, TRUE);
      g_object_unref (task);
      return;
    }

  data = g_new0 (SubscribeData, 1);
  data->uri = g_strdup (uri);
  data->subscribe = !!subscribe;
  g_task_set_task_data (task, data, (GDestroyNotify) subscribe_data_free);

  params = json_object_new ();
  json_object_set_string_member (params, "uri", uri);
  mcp_client_request_async (self, subscribe ? "resources/subscribe" : "resources/unsubscribe",
                            params, NULL, NULL, NULL, cancellable, subscribe_cb, task);
}

gboolean
mcp_client_subscribe_finish (McpClient     *self,
                             GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

void
mcp_client_get_prompt_async (McpClient           *self,
                             const char          *name,
                             JsonObject          *arguments,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(JsonObject) params = NULL;

  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (name != NULL);

  if (!require_capability (self, "prompts", NULL, "prompts", mcp_client_get_prompt_async,
                           callback, user_data))
    return;

  params = json_object_new ();
  json_object_set_string_member (params, "name", name);
  if (arguments != NULL)
    json_object_set_object_member (params, "arguments", json_object_ref (arguments));

  typed_request (self, "prompts/get", params, NULL, NULL, NULL, cancellable,
                 mcp_client_get_prompt_async, callback, user_data);
}

McpPromptResult *
mcp_client_get_prompt_finish (McpClient     *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  g_autoptr(JsonObject) reply = finish_request (self, result, mcp_client_get_prompt_async, error);

  return reply ? mcp_prompt_result_new (reply) : NULL;
}

void
mcp_client_complete_async (McpClient           *self,
                           const char          *ref_type,
                           const char          *ref_name,
                           const char          *argument_name,
                           const char          *argument_value,
                           JsonObject          *context,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(JsonObject) params = NULL;
  JsonObject *ref;
  JsonObject *argument;

  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (g_strcmp0 (ref_type, "ref/prompt") == 0 ||
                    g_strcmp0 (ref_type, "ref/resource") == 0);
  g_return_if_fail (ref_name != NULL && argument_name != NULL);

  /* 2024-11-05 had no capability for completions: servers of that
   * revision are simply asked. */
  if (self->revision != MCP_REVISION_2024_11_05 &&
      !require_capability (self, "completions", NULL, "completions",
                           mcp_client_complete_async, callback, user_data))
    return;

  params = json_object_new ();
  ref = json_object_new ();
  json_object_set_string_member (ref, "type", ref_type);
  json_object_set_string_member (ref, g_str_equal (ref_type, "ref/prompt") ? "name" : "uri",
                                 ref_name);
  json_object_set_object_member (params, "ref", ref);
  argument = json_object_new ();
  json_object_set_string_member (argument, "name", argument_name);
  json_object_set_string_member (argument, "value", argument_value ? argument_value : "");
  json_object_set_object_member (params, "argument", argument);
  if (context != NULL && self->revision >= MCP_REVISION_2025_06_18)
    {
      JsonObject *ctx = json_object_new ();

      json_object_set_object_member (ctx, "arguments", json_object_ref (context));
      json_object_set_object_member (params, "context", ctx);
    }

  typed_request (self, "completion/complete", params, NULL, NULL, NULL, cancellable,
                 mcp_client_complete_async, callback, user_data);
}

/**
 * mcp_client_complete_finish:
 * @total: (out) (optional): the number of candidates the server knows of,
 *   or -1
 * @has_more: (out) (optional): whether there are more than returned
 *
 * Returns: (transfer full): the candidate values (possibly empty)
 */
char **
mcp_client_complete_finish (McpClient     *self,
                            GAsyncResult  *result,
                            gint64        *total,
                            gboolean      *has_more,
                            GError       **error)
{
  g_autoptr(JsonObject) reply = finish_request (self, result, mcp_client_complete_async, error);
  g_autoptr(GStrvBuilder) builder = NULL;
  JsonObject *completion;
  JsonArray *values;

  if (reply == NULL)
    return NULL;

  completion = mcp_json_get_object (reply, "completion");
  values = mcp_json_get_array (completion, "values");
  builder = g_strv_builder_new ();
  for (guint i = 0; values != NULL && i < json_array_get_length (values); i++)
    {
      JsonNode *node = json_array_get_element (values, i);

      if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
        g_strv_builder_add (builder, json_node_get_string (node));
    }

  if (total != NULL)
    *total = mcp_json_has_number (completion, "total")
             ? (gint64) mcp_json_get_number (completion, "total", -1) : -1;
  if (has_more != NULL)
    *has_more = mcp_json_get_boolean (completion, "hasMore", FALSE);

  return g_strv_builder_end (builder);
}

gboolean
mcp_log_level_is_valid (const char *level)
{
  for (guint i = 0; level != NULL && i < G_N_ELEMENTS (log_levels); i++)
    if (g_str_equal (level, log_levels[i]))
      return TRUE;

  return FALSE;
}

void
mcp_client_set_log_level_async (McpClient           *self,
                                const char          *level,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(JsonObject) params = NULL;

  g_return_if_fail (MCP_IS_CLIENT (self));

  if (!mcp_log_level_is_valid (level))
    {
      g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

      g_task_set_source_tag (task, mcp_client_set_log_level_async);
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_PARAMS,
                               "“%s” is not a log level (debug, info, notice, warning, error, "
                               "critical, alert, emergency)", level ? level : "");
      return;
    }

  if (!require_capability (self, "logging", NULL, "logging", mcp_client_set_log_level_async,
                           callback, user_data))
    return;

  /* 2026-07-28 has no logging/setLevel: the level rides on each request. */
  if (self->modern)
    {
      g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

      g_task_set_source_tag (task, mcp_client_set_log_level_async);
      g_free (self->log_level);
      self->log_level = g_strdup (level);
      g_task_return_pointer (task, json_object_new (), (GDestroyNotify) json_object_unref);
      return;
    }

  params = json_object_new ();
  json_object_set_string_member (params, "level", level);
  typed_request (self, "logging/setLevel", params, NULL, NULL, NULL, cancellable,
                 mcp_client_set_log_level_async, callback, user_data);
}

gboolean
mcp_client_set_log_level_finish (McpClient     *self,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  g_autoptr(JsonObject) reply = finish_request (self, result, mcp_client_set_log_level_async,
                                                error);

  return reply != NULL;
}

void
mcp_client_notify_roots_changed (McpClient *self)
{
  McpClientFeatures features;

  g_return_if_fail (MCP_IS_CLIENT (self));

  /* In 2026-07-28 a server asks for the roots each time it needs them. */
  features = self->delegate ? mcp_client_delegate_get_features (self->delegate) : 0;
  if (self->state != MCP_CLIENT_STATE_READY || self->modern ||
      !(features & MCP_CLIENT_FEATURE_ROOTS_LIST_CHANGED))
    return;

  mcp_client_notify (self, "notifications/roots/list_changed", NULL, NULL);
}

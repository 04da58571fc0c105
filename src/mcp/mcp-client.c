/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client"

#include "config.h"

#include "mcp-app-resource-meta.h"
#include "mcp-client-private.h"
#include "mcp-era-private.h"
#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-prompt.h"
#include "mcp-resource.h"
#include "mcp-resource-template.h"
#include "mcp-tool.h"

/* How long a server/discover probe may go unanswered before the server is
 * taken as one of the handshake era, which may not answer it at all. */
#define DISCOVER_PROBE_TIMEOUT_MS 10000

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
  SIGNAL_REQUEST_OVERDUE,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

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
G_DEFINE_FINAL_TYPE (McpClient, mcp_client, G_TYPE_OBJECT)

static void become_ready (McpClient *self);

void
mcp_client_diagnostic (McpClient  *self,
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

/* Messages from the server */

static void
handle_notification (McpClient  *self,
                     McpMessage *message)
{
  const char *method = mcp_message_get_method (message);
  JsonObject *params = mcp_message_get_params (message);

  if (g_str_equal (method, "notifications/progress"))
    mcp_client_handle_progress (self, params);
  else if (g_str_equal (method, "notifications/cancelled"))
    mcp_client_handle_cancelled (self, params);
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
    mcp_client_refresh_list (self, LIST_TOOLS);
  else if (g_str_equal (method, "notifications/prompts/list_changed"))
    mcp_client_refresh_list (self, LIST_PROMPTS);
  else if (g_str_equal (method, "notifications/resources/list_changed"))
    {
      mcp_client_refresh_list (self, LIST_RESOURCES);
      mcp_client_refresh_list (self, LIST_TEMPLATES);
    }
  else if (g_str_equal (method, "notifications/subscriptions/acknowledged"))
    {
      JsonObject *granted = mcp_json_get_object (params, "notifications");
      JsonArray *uris = mcp_json_get_array (granted, "resourceSubscriptions");
      guint n_uris = uris ? json_array_get_length (uris) : 0;

      if (n_uris < g_hash_table_size (self->subscriptions))
        mcp_client_diagnostic (self, "the server agreed to send updates for %u of %u "
                               "subscribed resources",
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
      mcp_client_handle_request (self, message);
      break;

    case MCP_MESSAGE_NOTIFICATION:
      handle_notification (self, message);
      break;

    case MCP_MESSAGE_RESULT:
    case MCP_MESSAGE_ERROR:
      mcp_client_handle_response (self, message);
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
  mcp_client_fail_all_pending (self, MCP_ERROR_CLOSED, message);
  mcp_client_cancel_all_incoming (self);

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
void
mcp_client_send_message (McpClient  *self,
                         McpMessage *message,
                         Pending    *pending)
{
  g_signal_emit (self, signals[SIGNAL_TRACE], 0, MCP_TRACE_OUTGOING, message);
  mcp_transport_send_async (self->transport, message, NULL, NULL, NULL);
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

  /* Extensions are declared the same way in the handshake and in each
   * request's _meta, and a server of an older revision ignores them. */
  if (features & MCP_CLIENT_FEATURE_APPS)
    mcp_app_add_capabilities (capabilities);

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
  mcp_client_fail_all_pending (self, MCP_ERROR_CLOSED, error->message);
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

  reply = mcp_client_finish_request (self, result, mcp_client_connect_async, &error);
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

  mcp_client_start_request (self, "initialize", params, TRUE, self->initialize_timeout_ms,
                            NULL, NULL, NULL, g_task_get_cancellable (self->connect_task),
                            mcp_client_connect_async, initialize_cb, g_object_ref (self));
}

static void
become_ready (McpClient *self)
{
  g_autoptr(GTask) task = NULL;

  set_state (self, MCP_CLIENT_STATE_READY);
  mcp_client_flush_waiting (self);

  for (guint i = 0; i < N_LISTS; i++)
    mcp_client_refresh_list (self, (ListKind) i);
  mcp_client_open_subscriptions (self);

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

  reply = mcp_client_finish_request (self, result, mcp_client_connect_async, &error);
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
      mcp_client_diagnostic (self, "the server does not speak 2026-07-28 (%s); "
                             "using initialize with %s",
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
  mcp_client_start_request (self, "server/discover", NULL, TRUE, timeout_ms,
                            NULL, NULL, NULL, g_task_get_cancellable (self->connect_task),
                            mcp_client_connect_async, discover_cb, g_object_ref (self));
}

/* GObject */

static void
mcp_client_dispose (GObject *object)
{
  McpClient *self = MCP_CLIENT (object);

  g_cancellable_cancel (self->cancellable);
  mcp_client_cancel_all_incoming (self);
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

/* "trace" is emitted for every message in and out, and GLib's generic
 * marshallers call each handler through libffi, which costs more than
 * what the host's handler does with a small message. */
typedef void (*TraceFunc) (gpointer    data1,
                           int         direction,
                           McpMessage *message,
                           gpointer    data2);

static void
trace_marshal (GClosure     *closure,
               GValue       *return_value,
               guint         n_param_values,
               const GValue *param_values,
               gpointer      invocation_hint,
               gpointer      marshal_data)
{
  GCClosure *cclosure = (GCClosure *) closure;
  gpointer data1 = g_value_peek_pointer (param_values + 0);
  gpointer data2 = closure->data;
  TraceFunc callback;

  g_return_if_fail (n_param_values == 3);

  if (G_CCLOSURE_SWAP_DATA (closure))
    {
      data2 = data1;
      data1 = closure->data;
    }
  callback = (TraceFunc) (marshal_data != NULL ? marshal_data : cclosure->callback);
  callback (data1, g_value_get_int (param_values + 1), g_value_get_boxed (param_values + 2),
            data2);
}

static void
trace_marshal_va (GClosure *closure,
                  GValue   *return_value,
                  gpointer  instance,
                  va_list   args,
                  gpointer  marshal_data,
                  int       n_params,
                  GType    *param_types)
{
  GCClosure *cclosure = (GCClosure *) closure;
  gpointer data1 = instance;
  gpointer data2 = closure->data;
  TraceFunc callback;
  va_list args_copy;
  int direction;
  McpMessage *message;

  /* The message is passed in static scope: no copy to make. */
  va_copy (args_copy, args);
  direction = va_arg (args_copy, int);
  message = va_arg (args_copy, McpMessage *);
  va_end (args_copy);

  if (G_CCLOSURE_SWAP_DATA (closure))
    {
      data2 = data1;
      data1 = closure->data;
    }
  callback = (TraceFunc) (marshal_data != NULL ? marshal_data : cclosure->callback);
  callback (data1, direction, message, data2);
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
                  0, NULL, NULL, trace_marshal, G_TYPE_NONE, 2,
                  G_TYPE_INT, MCP_TYPE_MESSAGE | G_SIGNAL_TYPE_STATIC_SCOPE);
  g_signal_set_va_marshaller (signals[SIGNAL_TRACE], G_TYPE_FROM_CLASS (klass),
                              trace_marshal_va);
  signals[SIGNAL_DIAGNOSTIC] =
    g_signal_new ("diagnostic", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);
  signals[SIGNAL_CLOSED] =
    g_signal_new ("closed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                  G_TYPE_ERROR | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * McpClient::request-overdue:
   * @id: the request's id, for mcp_client_answer_overdue()
   * @method: the request's method
   * @params: (nullable): the request's params
   * @waited_ms: how long it has waited
   *
   * A tools/call went past its timeout. A handler that returns %TRUE
   * promises to call mcp_client_answer_overdue() later; until then the
   * request waits. With no such handler it times out as before.
   */
  signals[SIGNAL_REQUEST_OVERDUE] =
    g_signal_new ("request-overdue", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, g_signal_accumulator_true_handled, NULL, NULL, G_TYPE_BOOLEAN, 4,
                  G_TYPE_INT64,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  JSON_TYPE_OBJECT | G_SIGNAL_TYPE_STATIC_SCOPE,
                  G_TYPE_UINT);
}

gboolean
mcp_client_emit_request_overdue (McpClient  *self,
                                 gint64      id,
                                 const char *method,
                                 JsonObject *params,
                                 guint       waited_ms)
{
  gboolean handled = FALSE;

  g_signal_emit (self, signals[SIGNAL_REQUEST_OVERDUE], 0, id, method, params, waited_ms,
                 &handled);
  return handled;
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
                                          (GDestroyNotify) mcp_client_incoming_free);
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
  mcp_client_fail_all_pending (self, MCP_ERROR_CLOSED, "the connection is closing");
  mcp_client_cancel_all_incoming (self);

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

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
#include "steward-secrets.h"

#include "steward-server-failure.h"
#include "steward-server-private.h"
#include "steward-server-watch.h"
#include "steward-trace-names.h"

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

G_DEFINE_FINAL_TYPE_WITH_CODE (StewardServer, steward_server, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (MCP_TYPE_CLIENT_DELEGATE,
                                                      steward_server_delegate_init))

Attempt *
steward_server_attempt_new (StewardServer *self)
{
  Attempt *attempt = g_new0 (Attempt, 1);

  attempt->self = g_object_ref (self);
  attempt->generation = self->generation;

  return attempt;
}

void
steward_server_attempt_free (Attempt *attempt)
{
  g_object_unref (attempt->self);
  g_free (attempt);
}

gboolean
steward_server_attempt_is_current (Attempt *attempt)
{
  return attempt->generation == attempt->self->generation;
}

/* Status */

/* g_set_str() is newer than our GLib floor. */
gboolean
steward_server_set_string (char       **field,
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
gboolean
steward_server_set_shown_string (char       **field,
                                 const char  *value)
{
  g_autofree char *redacted = steward_redact (value);

  return steward_server_set_string (field, redacted);
}

void
steward_server_set_status (StewardServer       *self,
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

  if (steward_server_set_shown_string (&self->status_text, status_text))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATUS_TEXT]);

  if (steward_server_set_shown_string (&self->detail_text, detail_text))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DETAIL_TEXT]);

  g_object_thaw_notify (G_OBJECT (self));
}

void
steward_server_set_retry_in (StewardServer *self,
                             guint          retry_in)
{
  if (self->retry_in == retry_in)
    return;

  self->retry_in = retry_in;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RETRY_IN]);
}

void
steward_server_set_revision (StewardServer *self,
                             const char    *revision)
{
  if (steward_server_set_string (&self->revision, revision))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REVISION]);
}

void
steward_server_set_idle_status (StewardServer *self)
{
  if (steward_server_get_enabled (self))
    steward_server_set_status (self, STEWARD_SERVER_STATUS_STOPPED, _("Stopped"), NULL);
  else
    steward_server_set_status (self, STEWARD_SERVER_STATUS_DISABLED, _("Disabled"), NULL);
}

/* The diagnosis: why it stopped, and what it last said on stderr. */
char *
steward_server_build_detail (StewardServer *self,
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
void
steward_server_fail (StewardServer *self,
                     const char    *reason,
                     const char    *detail)
{
  /* Translators: the status of a server that cannot run; %s says why. */
  g_autofree char *text = g_strdup_printf (_("Failed: %s"), reason);

  self->generation++;
  self->reconnect_attempt = 0;
  g_clear_pointer (&self->resolved, g_hash_table_unref);
  steward_server_set_retry_in (self, 0);
  steward_server_set_status (self, STEWARD_SERVER_STATUS_FAILED, text, detail);
  steward_server_host_event (self, STEWARD_LOG_LEVEL_ERROR, _("Could not start: %s"), reason);
}

/* The client */

void
steward_server_drop_client (StewardServer *self)
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
  steward_server_set_revision (self, NULL);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CLIENT]);
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
    steward_server_host_event (self, STEWARD_LOG_LEVEL_WARNING, "%s",
                               _("The shared folders changed: restart the server for its "
                                 "sandbox to have them, and to lose a folder you stopped "
                                 "sharing."));
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

  steward_server_host_event (self, STEWARD_LOG_LEVEL_WARNING,
                             _("Permission to run this server was withdrawn; stopping it until "
                               "you allow it again"));
  steward_server_stop_async (self, NULL, restart_stopped_cb, NULL);
}

/* GObject */

static void
steward_server_dispose (GObject *object)
{
  StewardServer *self = STEWARD_SERVER (object);

  steward_server_clear_retry (self);
  steward_server_withdraw_consent (self);
  g_cancellable_cancel (self->cancellable);

  if (self->client != NULL)
    {
      g_autoptr(McpClient) client = g_object_ref (self->client);

      steward_server_drop_client (self);
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
  g_clear_object (&self->auth);

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
  steward_server_class_add_overdue (object_class);
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
        { STEWARD_SERVER_STATUS_NEEDS_SIGN_IN, "STEWARD_SERVER_STATUS_NEEDS_SIGN_IN",
          "needs-sign-in" },
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
 * @context: the config, secrets, roots, log store, approvals and sampling
 *   broker the server uses
 * @config: what to start
 */
StewardServer *
steward_server_new (StewardServerContext *context,
                    StewardServerConfig  *config)
{
  StewardServer *self;

  g_return_val_if_fail (STEWARD_IS_SERVER_CONTEXT (context), NULL);
  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (config), NULL);

  self = g_object_new (STEWARD_TYPE_SERVER, NULL);
  self->config_store = g_object_ref (steward_server_context_get_config (context));
  self->secrets = g_object_ref (steward_server_context_get_secrets (context));
  self->roots = g_object_ref (steward_server_context_get_roots (context));
  self->log_store = g_object_ref (steward_server_context_get_log_store (context));
  self->approvals = g_object_ref (steward_server_context_get_approvals (context));
  self->broker = g_object_ref (steward_server_context_get_broker (context));
  self->name = g_strdup (steward_server_config_get_name (config));
  self->config = g_object_ref (config);
  self->auth = steward_server_auth_new (self->secrets);
  steward_server_set_idle_status (self);

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

  steward_server_host_event (self, STEWARD_LOG_LEVEL_INFO,
                             _("The configuration changed; starting again"));
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
    steward_server_host_event (self, STEWARD_LOG_LEVEL_ERROR,
                               _("The servers file could not be saved: %s"),
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
      steward_server_set_idle_status (self);
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
    case STEWARD_SERVER_STATUS_NEEDS_SIGN_IN:
      self->answered = FALSE;
      g_array_set_size (self->crash_times, 0);
      self->backoff_ms = self->backoff_base_ms;
      break;

    case STEWARD_SERVER_STATUS_STOPPED:
    case STEWARD_SERVER_STATUS_DISABLED:
    default:
      break;
    }

  steward_server_begin (self);
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
  steward_server_clear_retry (self);
  steward_server_withdraw_consent (self);
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

          steward_server_set_idle_status (self);
          if (was_active)
            steward_server_host_event (self, STEWARD_LOG_LEVEL_INFO, _("Stopped"));
          g_task_return_boolean (task, TRUE);
          return;
        }
    }

  g_ptr_array_add (self->stop_tasks, g_steal_pointer (&task));
  if (self->stopping)
    return;

  self->stopping = TRUE;
  mcp_client_close_async (self->client, NULL, steward_server_close_cb, g_object_ref (self));
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
  gsize tool_size;

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

  /* The tool's name lives in the call's own block: one allocation a call. */
  tool_size = strlen (tool) + 1;
  call = g_malloc0 (sizeof (Call) + tool_size);
  call->self = g_object_ref (self);
  call->tool = memcpy ((char *) (call + 1), tool, tool_size);
  call->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;
  call->arguments = arguments != NULL ? json_object_ref (arguments) : NULL;
  g_queue_push_tail (&self->calls, call);
  call->link = self->calls.tail;
  g_task_set_task_data (task, call, (GDestroyNotify) steward_server_call_free);

  mcp_client_call_tool_with_reply (self->client, tool, arguments, progress, progress_data,
                                   progress_destroy, cancellable, steward_server_call_reply,
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
    case STEWARD_SERVER_STATUS_NEEDS_SIGN_IN:
      return "needs-sign-in";
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

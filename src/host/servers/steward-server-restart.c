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

void
steward_server_clear_retry (StewardServer *self)
{
  g_clear_handle_id (&self->retry_source, g_source_remove);
  g_clear_handle_id (&self->countdown_source, g_source_remove);
  self->retry_deadline = 0;
  steward_server_set_retry_in (self, 0);
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
  steward_server_set_retry_in (self, seconds);

  if (self->reconnect_attempt > 0)
    {
      /* Translators: the status of a remote server that stopped answering;
       * the first %u counts the attempts to reach it, the second is the
       * seconds until the next one. */
      text = g_strdup_printf (_("Disconnected — reconnecting (attempt %u, next in %u s)"),
                              self->reconnect_attempt, seconds);
      steward_server_set_status (self, STEWARD_SERVER_STATUS_DISCONNECTED, text, self->detail_text);
      return;
    }

  /* Translators: the status of a server that crashed and waits to be
   * started again. */
  text = g_strdup_printf (_("Restarting in %u s"), seconds);
  steward_server_set_status (self, STEWARD_SERVER_STATUS_RESTARTING, text, self->detail_text);
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
  steward_server_clear_retry (self);
  steward_server_begin (self);

  return G_SOURCE_REMOVE;
}

static void
give_up (StewardServer *self,
         const char    *reason)
{
  g_autofree char *window = steward_server_format_duration (self->crash_window_ms);
  g_autofree char *why = NULL;
  g_autofree char *detail = NULL;

  /* Translators: the first %u is a count of crashes, %s a duration such as
   * "3 minutes", the last %s what the server's exit said. */
  why = g_strdup_printf (_("It stopped %u times within %s, so Steward does not start it again "
                           "by itself. The last time: %s."),
                         self->crash_times->len, window, reason);
  detail = steward_server_build_detail (self, why);

  self->generation++;
  steward_server_set_retry_in (self, 0);
  steward_server_set_status (self, STEWARD_SERVER_STATUS_FAILED, _("Failed: keeps crashing"),
                             detail);
  steward_server_host_event (self, STEWARD_LOG_LEVEL_ERROR,
                             _("Gave up: it crashed %u times within %s"),
                             self->crash_times->len, window);
}

/* After a crash: start again after the backoff, or give up when it
 * keeps crashing. */
void
steward_server_crashed (StewardServer *self,
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

  steward_server_drop_client (self);
  self->generation++;
  g_clear_pointer (&self->resolved, g_hash_table_unref);

  steward_server_host_event (self, STEWARD_LOG_LEVEL_ERROR, _("Exited: %s"), reason);

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
  detail = steward_server_build_detail (self, why);
  if (steward_server_set_shown_string (&self->detail_text, detail))
    g_object_notify (G_OBJECT (self), "detail-text");
  update_countdown (self);

  delay_text = g_strdup_printf ("%.1f", delay_ms / 1000.0);
  steward_server_host_event (self, STEWARD_LOG_LEVEL_INFO, _("Restarting in %s s"), delay_text);
}

/* What went wrong, with the stderr lines kept, for the status. */
StewardServerFailure *
steward_server_describe_failure (StewardServer *self,
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
void
steward_server_disconnected (StewardServer *self,
                             const char    *reason)
{
  g_autoptr(McpClient) client = self->client != NULL ? g_object_ref (self->client) : NULL;
  guint max_ms = MIN (self->backoff_max_ms, STEWARD_SERVER_RECONNECT_MAX_MS);
  guint delay_ms = self->backoff_base_ms;
  g_autofree char *why = NULL;

  steward_server_drop_client (self);
  self->generation++;
  g_clear_pointer (&self->resolved, g_hash_table_unref);
  steward_server_clear_retry (self);

  /* Its session went with the server; closing only stops the transport
   * from reopening its stream. */
  if (client != NULL)
    mcp_client_close_async (client, NULL, NULL, NULL);

  steward_server_host_event (self, STEWARD_LOG_LEVEL_WARNING, _("Disconnected: %s"), reason);

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
  if (steward_server_set_string (&self->detail_text, why))
    g_object_notify (G_OBJECT (self), "detail-text");
  update_countdown (self);
}

void
steward_server_watch_lost_cb (StewardServer      *self,
                              const char         *reason,
                              StewardServerWatch *watch)
{
  if (watch == self->watch && self->connected && !self->stopping)
    steward_server_disconnected (self, reason);
}

void
steward_server_client_closed_cb (StewardServer *self,
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
      failure = steward_server_describe_failure (self, error);
      reason = steward_server_failure_get_cause (failure);
    }

  /* A remote server that closed the connection may be back in a moment;
   * a local one that exited crashed. */
  if (steward_server_config_is_remote (self->config))
    steward_server_disconnected (self, reason);
  else
    steward_server_crashed (self, reason);
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
      steward_server_begin (self);
    }
  else
    steward_server_set_idle_status (self);

  for (guint i = 0; i < tasks->len; i++)
    g_task_return_boolean (g_ptr_array_index (tasks, i), TRUE);
}

void
steward_server_close_cb (GObject      *object,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  g_autoptr(StewardServer) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!mcp_client_close_finish (MCP_CLIENT (object), result, &error))
    g_debug ("%s: closing: %s", self->name, error->message);

  if (MCP_CLIENT (object) == self->client)
    steward_server_drop_client (self);

  steward_server_host_event (self, STEWARD_LOG_LEVEL_INFO, _("Stopped"));
  finish_stop (self);
}

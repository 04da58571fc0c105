/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-server"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-auth-challenge.h"
#include "steward-server-private.h"

/*
 * StewardServer's part in signing in (steward-server-auth.h): a remote
 * server that answers 401 with a Bearer challenge gets the keyring's token,
 * renewed if it ran out, and is connected again with it; without one it
 * waits, NEEDS_SIGN_IN, until the person signs in. An `Authorization`
 * header of the person's own in the servers file wins: Steward then never
 * signs in on its own.
 *
 * A tool call refused with `403 insufficient_scope` once connected is a
 * step-up: the server waits for the person to sign in again, for the
 * wider scopes, and the call is made once more when it is ready again.
 */

static gboolean
has_own_authorization (GHashTable *headers)
{
  GHashTableIter iter;
  gpointer name;

  if (headers == NULL)
    return FALSE;

  g_hash_table_iter_init (&iter, headers);
  while (g_hash_table_iter_next (&iter, &name, NULL))
    if (g_ascii_strcasecmp (name, "Authorization") == 0)
      return TRUE;

  return FALSE;
}

static void
update_target (StewardServer *self)
{
  steward_server_auth_set_target (self->auth, self->name,
                                  steward_server_config_get_url (self->config));
}

void
steward_server_add_authorization (StewardServer *self,
                                  GHashTable    *headers)
{
  const char *authorization;

  update_target (self);
  if (headers == NULL || has_own_authorization (headers))
    return;

  authorization = steward_server_auth_get_authorization (self->auth);
  if (authorization != NULL)
    g_hash_table_replace (headers, g_strdup ("Authorization"), g_strdup (authorization));
}

static void
set_needs_sign_in (StewardServer *self)
{
  const char *host = steward_server_auth_get_authorization_host (self->auth);
  g_autofree char *text = NULL;

  /* Translators: the status of a remote server that waits for the
   * person to sign in; the first %s is the server's name, the second the
   * host of its authorization server, such as auth.example.com. */
  text = g_strdup_printf (_("Sign in to %s at %s"), self->name, host != NULL ? host : "?");
  steward_server_set_retry_in (self, 0);
  steward_server_set_status (self, STEWARD_SERVER_STATUS_NEEDS_SIGN_IN, text, NULL);
  steward_server_host_event (self, STEWARD_LOG_LEVEL_INFO, _("Waiting for you to sign in at %s"),
                             host != NULL ? host : "?");
}

static void
resumed_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(Attempt) attempt = user_data;
  StewardServer *self = attempt->self;
  g_autoptr(GError) error = NULL;
  gboolean has_token;

  has_token = steward_server_auth_resume_finish (STEWARD_SERVER_AUTH (object), result, &error);
  if (!steward_server_attempt_is_current (attempt) ||
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (error != NULL)
    {
      g_autofree char *detail = steward_server_build_detail (self, error->message);

      /* Translators: follows "Failed: "; %s is why, from the sign-in. */
      g_autofree char *reason = g_strdup_printf (_("the server asks to sign in, but %s"),
                                                 error->message);

      steward_server_fail (self, reason, detail);
      return;
    }

  if (has_token)
    {
      steward_server_host_event (self, STEWARD_LOG_LEVEL_INFO,
                                 _("Connecting again with the sign-in kept in the keyring"));
      steward_server_launch (self);
      return;
    }

  set_needs_sign_in (self);
}

gboolean
steward_server_try_sign_in (StewardServer *self,
                            const GError  *error)
{
  g_autofree char *challenge = NULL;

  if (!steward_server_config_is_remote (self->config) ||
      has_own_authorization (steward_server_config_get_headers (self->config)))
    return FALSE;

  challenge = mcp_auth_challenge_from_error (error);
  if (challenge == NULL)
    return FALSE;

  steward_server_drop_client (self);
  update_target (self);
  steward_server_auth_resume_async (self->auth, challenge, self->cancellable, resumed_cb,
                                    steward_server_attempt_new (self));

  return TRUE;
}

/* A tool call waiting for a step-up sign-in. */
typedef struct {
  GTask   *task;
  GError  *error;     /* what the call ends with if the sign-in does not come */
  gulong   status_id;
  GSource *cancelled;
} StepUp;

static void
step_up_free (StepUp *step_up)
{
  StewardServer *self = g_task_get_source_object (step_up->task);

  g_clear_signal_handler (&step_up->status_id, self);
  if (step_up->cancelled != NULL)
    {
      g_source_destroy (step_up->cancelled);
      g_source_unref (step_up->cancelled);
    }
  g_clear_object (&step_up->task);
  g_clear_error (&step_up->error);
  g_free (step_up);
}

/* Ends the call with @error, or with the refusal it met when NULL. */
static void
step_up_fail (StepUp *step_up,
              GError *error)
{
  g_task_return_error (step_up->task,
                       error != NULL ? error : g_steal_pointer (&step_up->error));
  step_up_free (step_up);
}

static gboolean
step_up_cancelled_cb (GCancellable *cancellable,
                      gpointer      user_data)
{
  StepUp *step_up = user_data;

  g_clear_pointer (&step_up->cancelled, g_source_unref);
  step_up_fail (step_up, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                              _("The tool call was cancelled")));
  return G_SOURCE_REMOVE;
}

static void
step_up_status_cb (StewardServer *self,
                   GParamSpec    *pspec,
                   gpointer       user_data)
{
  StepUp *step_up = user_data;
  Call *call = g_task_get_task_data (step_up->task);
  GTask *task;

  switch (self->status)
    {
    case STEWARD_SERVER_STATUS_NEEDS_SIGN_IN:
    case STEWARD_SERVER_STATUS_STARTING:
      /* Still on its way: the person signs in, then it connects. */
      return;

    case STEWARD_SERVER_STATUS_READY:
      if (self->client == NULL)
        return;
      steward_server_host_event (self, STEWARD_LOG_LEVEL_INFO,
                                 _("Calling “%s” again after signing in"), call->tool);
      task = g_object_ref (step_up->task);
      step_up_free (step_up);
      mcp_client_call_tool_with_reply (self->client, call->tool, call->arguments, NULL, NULL,
                                       NULL, call->cancellable, steward_server_call_reply, task);
      return;

    case STEWARD_SERVER_STATUS_STOPPED:
    case STEWARD_SERVER_STATUS_DISABLED:
    case STEWARD_SERVER_STATUS_AWAITING_CONSENT:
    case STEWARD_SERVER_STATUS_RESTARTING:
    case STEWARD_SERVER_STATUS_FAILED:
    case STEWARD_SERVER_STATUS_DISCONNECTED:
    default:
      step_up_fail (step_up, NULL);
      return;
    }
}

/**
 * steward_server_step_up_call:
 * @task: (transfer full): the call's task, taken when this returns %TRUE
 * @error: what the call met
 *
 * Returns: %TRUE when @error asks for a sign-in and the call now waits
 *   for it: a token refused outright is renewed without the person where
 *   it can be, a request for more scopes asks the person to sign in again;
 *   each call waits once at most, so a server that keeps refusing ends the
 *   call with its refusal
 */
gboolean
steward_server_step_up_call (StewardServer *self,
                             GTask         *task,
                             const GError  *error)
{
  Call *call = g_task_get_task_data (task);
  g_autofree char *challenge = NULL;
  g_autoptr(McpAuthChallenge) parsed = NULL;
  StepUp *step_up;

  if (call == NULL || call->stepped_up || !steward_server_config_is_remote (self->config) ||
      has_own_authorization (steward_server_config_get_headers (self->config)))
    return FALSE;

  challenge = mcp_auth_challenge_from_error (error);
  parsed = challenge != NULL ? mcp_auth_challenge_parse (challenge) : NULL;
  if (parsed == NULL)
    return FALSE;

  call->stepped_up = TRUE;
  step_up = g_new0 (StepUp, 1);
  step_up->task = task;
  step_up->error = g_error_copy (error);

  steward_server_drop_client (self);
  update_target (self);
  if (g_strcmp0 (parsed->error, "insufficient_scope") == 0)
    {
      steward_server_host_event (self, STEWARD_LOG_LEVEL_INFO,
                                 _("The server asks for more access to call “%s”"), call->tool);
      steward_server_auth_step_up (self->auth, challenge);
      set_needs_sign_in (self);
    }
  else
    {
      /* The token ran out or was revoked while connected: renewed, and
       * the server connected again, as when a connection is refused. */
      steward_server_host_event (self, STEWARD_LOG_LEVEL_INFO,
                                 _("The server refused the sign-in while calling “%s”; "
                                   "renewing it"), call->tool);
      steward_server_auth_resume_async (self->auth, challenge, self->cancellable, resumed_cb,
                                        steward_server_attempt_new (self));
    }

  step_up->status_id = g_signal_connect (self, "notify::status",
                                         G_CALLBACK (step_up_status_cb), step_up);
  if (call->cancellable != NULL)
    {
      step_up->cancelled = g_cancellable_source_new (call->cancellable);
      g_source_set_callback (step_up->cancelled, G_SOURCE_FUNC (step_up_cancelled_cb), step_up,
                             NULL);
      g_source_attach (step_up->cancelled, NULL);
    }

  return TRUE;
}

/**
 * steward_server_get_auth:
 *
 * Returns: (transfer none): the server's sign-in
 */
StewardServerAuth *
steward_server_get_auth (StewardServer *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER (self), NULL);

  return self->auth;
}

static void
signed_in_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StewardServer *self = g_task_get_source_object (task);
  GError *error = NULL;

  if (!steward_server_auth_sign_in_finish (STEWARD_SERVER_AUTH (object), result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        steward_server_host_event (self, STEWARD_LOG_LEVEL_WARNING, _("Signing in failed: %s"),
                                   error->message);
      g_task_return_error (task, error);
      return;
    }

  steward_server_host_event (self, STEWARD_LOG_LEVEL_INFO, _("Signed in at %s"),
                             steward_server_auth_get_authorization_host (self->auth));

  /* Only a server still waiting for it connects: one stopped meanwhile
   * uses the token when it is started. */
  if (self->status == STEWARD_SERVER_STATUS_NEEDS_SIGN_IN)
    {
      self->wanted = TRUE;
      self->answered = FALSE;
      steward_server_launch (self);
    }

  g_task_return_boolean (task, TRUE);
}

/**
 * steward_server_sign_in_async:
 * @cancellable: (nullable): stops waiting for the browser
 *
 * Signs the person in to a server that needs it, in the desktop's browser,
 * and connects once signed in.
 */
void
steward_server_sign_in_async (StewardServer       *self,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (STEWARD_IS_SERVER (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_server_sign_in_async);

  steward_server_host_event (self, STEWARD_LOG_LEVEL_INFO,
                             _("Opening the browser to sign in at %s"),
                             steward_server_auth_get_authorization_host (self->auth));
  steward_server_auth_sign_in_async (self->auth, cancellable, signed_in_cb, task);
}

gboolean
steward_server_sign_in_finish (StewardServer  *self,
                               GAsyncResult   *result,
                               GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
signed_out_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StewardServer *self = g_task_get_source_object (task);
  GError *error = NULL;

  if (!steward_server_auth_sign_out_finish (STEWARD_SERVER_AUTH (object), result, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  steward_server_host_event (self, STEWARD_LOG_LEVEL_INFO, _("Signed out"));
  set_needs_sign_in (self);
  g_task_return_boolean (task, TRUE);
}

static void
stopped_for_sign_out_cb (GObject      *object,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  GTask *task = user_data;
  StewardServer *self = STEWARD_SERVER (object);

  steward_server_stop_finish (self, result, NULL);
  steward_server_auth_sign_out_async (self->auth, g_task_get_cancellable (task), signed_out_cb,
                                      task);
}

/**
 * steward_server_sign_out_async:
 *
 * Disconnects, revokes the token where the authorization server offers
 * that and forgets it; the server then waits for a sign-in.
 */
void
steward_server_sign_out_async (StewardServer       *self,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (STEWARD_IS_SERVER (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_server_sign_out_async);

  steward_server_stop_async (self, cancellable, stopped_for_sign_out_cb, task);
}

gboolean
steward_server_sign_out_finish (StewardServer  *self,
                                GAsyncResult   *result,
                                GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

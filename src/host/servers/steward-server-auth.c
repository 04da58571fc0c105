/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-server-auth"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mcp-auth-challenge.h"
#include "mcp-auth-flow.h"
#include "mcp-auth-identity.h"
#include "mcp-error.h"
#include "steward-auth-store.h"
#include "steward-redactor.h"

#include "steward-server-auth.h"

struct _StewardServerAuth
{
  GObject                 parent_instance;

  StewardAuthStore       *store;
  char                   *name;
  char                   *url;
  McpAuthFlow            *flow;
  /* The server's last challenge, which a sign-in answers. */
  char                   *challenge;

  McpAuthToken           *token;
  char                   *authorization;
  /* The token came from a refresh: refused, it is not refreshed again. */
  gboolean                refreshed;

  StewardServerAuthState  state;
  char                   *host;
  char                   *account;
  gint64                  expires_at;
  /* The one question to the userinfo endpoint after a sign-in. */
  GCancellable           *userinfo_cancellable;
};

enum {
  PROP_0,
  PROP_STATE,
  PROP_AUTHORIZATION_HOST,
  PROP_ACCOUNT,
  PROP_EXPIRES_AT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (StewardServerAuth, steward_server_auth, G_TYPE_OBJECT)

/* A token older than this many seconds before its end is renewed first. */
#define EXPIRY_MARGIN 60

GType
steward_server_auth_state_get_type (void)
{
  static gsize type_id = 0;

  if (g_once_init_enter (&type_id))
    {
      static const GEnumValue values[] = {
        { STEWARD_SERVER_AUTH_STATE_NONE, "STEWARD_SERVER_AUTH_STATE_NONE", "none" },
        { STEWARD_SERVER_AUTH_STATE_NEEDED, "STEWARD_SERVER_AUTH_STATE_NEEDED", "needed" },
        { STEWARD_SERVER_AUTH_STATE_WAITING, "STEWARD_SERVER_AUTH_STATE_WAITING", "waiting" },
        { STEWARD_SERVER_AUTH_STATE_SIGNED_IN, "STEWARD_SERVER_AUTH_STATE_SIGNED_IN",
          "signed-in" },
        { 0, NULL, NULL },
      };
      GType type = g_enum_register_static ("StewardServerAuthState", values);

      g_once_init_leave (&type_id, type);
    }

  return type_id;
}

static void
set_state (StewardServerAuth      *self,
           StewardServerAuthState  state)
{
  if (self->state == state)
    return;

  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

static void
set_string (StewardServerAuth  *self,
            char              **field,
            const char         *value,
            GParamSpec         *pspec)
{
  if (g_strcmp0 (*field, value) == 0)
    return;

  g_free (*field);
  *field = g_strdup (value);
  g_object_notify_by_pspec (G_OBJECT (self), pspec);
}

static void
set_host_from_flow (StewardServerAuth *self)
{
  const McpAuthServerMetadata *metadata = mcp_auth_flow_get_server_metadata (self->flow);
  g_autoptr(GUri) uri = NULL;

  if (metadata == NULL || metadata->issuer == NULL)
    return;

  uri = g_uri_parse (metadata->issuer, G_URI_FLAGS_NONE, NULL);
  set_string (self, &self->host, uri != NULL ? g_uri_get_host (uri) : metadata->issuer,
              properties[PROP_AUTHORIZATION_HOST]);
}

/* Takes @token as the one to send; NULL forgets it. */
static void
set_token (StewardServerAuth *self,
           McpAuthToken      *token,
           gboolean           refreshed)
{
  g_autofree char *account = NULL;
  gint64 expires_at = 0;

  g_cancellable_cancel (self->userinfo_cancellable);
  g_clear_object (&self->userinfo_cancellable);
  g_clear_pointer (&self->token, mcp_auth_token_free);
  g_clear_pointer (&self->authorization, g_free);
  self->token = token;
  self->refreshed = refreshed;

  if (token != NULL)
    {
      steward_redact_add_secret (token->access_token);
      if (token->refresh_token != NULL)
        steward_redact_add_secret (token->refresh_token);
      self->authorization = g_strconcat ("Bearer ", token->access_token, NULL);
      account = mcp_auth_identity_from_token (token);
      expires_at = token->expires_at;
    }

  set_string (self, &self->account, account, properties[PROP_ACCOUNT]);
  if (self->expires_at != expires_at)
    {
      self->expires_at = expires_at;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EXPIRES_AT]);
    }
}

static void
userinfo_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(StewardServerAuth) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *account = NULL;

  account = mcp_auth_identity_fetch_userinfo_finish (result, &error);
  if (account == NULL)
    {
      /* Who signed in stays what the tokens say; the sign-in itself
       * stands. */
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_debug ("The userinfo endpoint did not say who signed in: %s", error->message);
      return;
    }

  set_string (self, &self->account, account, properties[PROP_ACCOUNT]);
}

/* Asks the authorization server's userinfo endpoint, where it has one,
 * who signed in: once per sign-in, and only for showing. */
static void
ask_userinfo (StewardServerAuth *self)
{
  const McpAuthServerMetadata *metadata = mcp_auth_flow_get_server_metadata (self->flow);

  if (self->token == NULL || metadata == NULL || metadata->userinfo_endpoint == NULL)
    return;

  self->userinfo_cancellable = g_cancellable_new ();
  mcp_auth_identity_fetch_userinfo_async (metadata->userinfo_endpoint,
                                          self->token->access_token,
                                          self->userinfo_cancellable, userinfo_cb,
                                          g_object_ref (self));
}

static void
saved_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  /* The token still works until Steward quits; the next start asks the
   * person again. */
  if (!steward_auth_store_save_finish (STEWARD_AUTH_STORE (object), result, &error))
    g_warning ("The sign-in could not be kept in the keyring: %s", error->message);
}

static void
remember (StewardServerAuth  *self,
          const McpAuthToken *token)
{
  steward_auth_store_save_async (self->store, token, NULL, saved_cb, NULL);
}

/* The page the browser shows once the authorization server sent it back
 * to Steward. The loopback serves it for every answer, a refusal too, so
 * it says where things go on rather than how they went. */
static char *
build_done_page (const char *name)
{
  g_autofree char *escaped = g_markup_escape_text (name != NULL ? name : "", -1);
  /* Translators: the page the browser shows once the authorization
   * server sent the person back; %s is the server's name. */
  g_autofree char *text = g_strdup_printf (_("Steward has the answer for %s and goes on in its "
                                             "window. You may close this tab."),
                                           escaped);
  /* Translators: the title of that page. */
  const char *title = _("Back to Steward");
  /* Translators: the language code of this translation, such as de or
   * zh-CN, for the page the browser shows once the person signed in. */
  const char *lang = _("en");

  return g_strdup_printf ("<!DOCTYPE html>\n<html lang=\"%s\"><head><meta charset=\"utf-8\">"
                          "<meta name=\"viewport\" content=\"width=device-width\">"
                          "<title>%s</title></head>"
                          "<body style=\"font-family: sans-serif; margin: 4em auto; "
                          "max-width: 32em; padding: 0 1em\"><h1>%s</h1><p>%s</p></body></html>",
                          lang, title, title, text);
}

static McpAuthFlow *
ensure_flow (StewardServerAuth *self)
{
  g_autofree char *page = NULL;

  if (self->flow != NULL)
    return self->flow;

  self->flow = mcp_auth_flow_new (self->url);
  mcp_auth_flow_set_client_name (self->flow, "Steward");
  page = build_done_page (self->name);
  mcp_auth_flow_set_done_page (self->flow, page);

  return self->flow;
}

static void
steward_server_auth_finalize (GObject *object)
{
  StewardServerAuth *self = STEWARD_SERVER_AUTH (object);

  g_clear_object (&self->store);
  g_clear_object (&self->flow);
  g_clear_object (&self->userinfo_cancellable);
  g_free (self->name);
  g_free (self->url);
  g_free (self->challenge);
  g_clear_pointer (&self->token, mcp_auth_token_free);
  g_free (self->authorization);
  g_free (self->host);
  g_free (self->account);

  G_OBJECT_CLASS (steward_server_auth_parent_class)->finalize (object);
}

static void
steward_server_auth_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  StewardServerAuth *self = STEWARD_SERVER_AUTH (object);

  switch (prop_id)
    {
    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;

    case PROP_AUTHORIZATION_HOST:
      g_value_set_string (value, self->host);
      break;

    case PROP_ACCOUNT:
      g_value_set_string (value, self->account);
      break;

    case PROP_EXPIRES_AT:
      g_value_set_int64 (value, self->expires_at);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_server_auth_class_init (StewardServerAuthClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = steward_server_auth_finalize;
  object_class->get_property = steward_server_auth_get_property;

  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL, STEWARD_TYPE_SERVER_AUTH_STATE,
                       STEWARD_SERVER_AUTH_STATE_NONE,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_AUTHORIZATION_HOST] =
    g_param_spec_string ("authorization-host", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ACCOUNT] =
    g_param_spec_string ("account", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_EXPIRES_AT] =
    g_param_spec_int64 ("expires-at", NULL, NULL, 0, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
steward_server_auth_init (StewardServerAuth *self)
{
}

StewardServerAuth *
steward_server_auth_new (StewardSecrets *secrets)
{
  StewardServerAuth *self;

  g_return_val_if_fail (STEWARD_IS_SECRETS (secrets), NULL);

  self = g_object_new (STEWARD_TYPE_SERVER_AUTH, NULL);
  self->store = steward_auth_store_new (secrets);

  return self;
}

void
steward_server_auth_set_target (StewardServerAuth *self,
                                const char        *name,
                                const char        *url)
{
  g_return_if_fail (STEWARD_IS_SERVER_AUTH (self));

  if (g_strcmp0 (self->name, name) != 0)
    {
      g_free (self->name);
      self->name = g_strdup (name);
      g_clear_object (&self->flow);
    }

  if (g_strcmp0 (self->url, url) == 0)
    return;

  /* Another server: its token, if any, is under another keyring item. */
  g_free (self->url);
  self->url = g_strdup (url);
  g_clear_object (&self->flow);
  g_clear_pointer (&self->challenge, g_free);
  set_token (self, NULL, FALSE);
  set_string (self, &self->host, NULL, properties[PROP_AUTHORIZATION_HOST]);
  set_state (self, STEWARD_SERVER_AUTH_STATE_NONE);
}

StewardServerAuthState
steward_server_auth_get_state (StewardServerAuth *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_AUTH (self), STEWARD_SERVER_AUTH_STATE_NONE);

  return self->state;
}

const char *
steward_server_auth_get_authorization_host (StewardServerAuth *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_AUTH (self), NULL);

  return self->host;
}

const char *
steward_server_auth_get_account (StewardServerAuth *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_AUTH (self), NULL);

  return self->account;
}

gint64
steward_server_auth_get_expires_at (StewardServerAuth *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_AUTH (self), 0);

  return self->expires_at;
}

const char *
steward_server_auth_get_authorization (StewardServerAuth *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_AUTH (self), NULL);

  return self->authorization;
}

/* Resuming without the person */

static void
need_sign_in (StewardServerAuth *self)
{
  set_token (self, NULL, FALSE);
  set_state (self, STEWARD_SERVER_AUTH_STATE_NEEDED);
}

/**
 * steward_server_auth_step_up:
 * @challenge: the `WWW-Authenticate` of a `403 insufficient_scope`
 *
 * The token no longer does for what the server is asked: the next
 * sign-in answers @challenge, for the wider scopes it names with those
 * granted before (the flow keeps them), and the token is set aside until
 * then.
 */
void
steward_server_auth_step_up (StewardServerAuth *self,
                             const char        *challenge)
{
  g_return_if_fail (STEWARD_IS_SERVER_AUTH (self));
  g_return_if_fail (challenge != NULL);

  g_free (self->challenge);
  self->challenge = g_strdup (challenge);
  need_sign_in (self);
}

static void
resume_refreshed_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StewardServerAuth *self = g_task_get_source_object (task);
  g_autoptr(McpAuthToken) token = NULL;
  g_autoptr(GError) error = NULL;

  token = mcp_auth_flow_refresh_finish (MCP_AUTH_FLOW (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* A refresh token that no longer works: the person signs in again. */
  if (token == NULL)
    {
      g_debug ("Refreshing the token failed: %s", error->message);
      need_sign_in (self);
      g_task_return_boolean (task, FALSE);
      return;
    }

  remember (self, token);
  set_token (self, g_steal_pointer (&token), TRUE);
  set_state (self, STEWARD_SERVER_AUTH_STATE_SIGNED_IN);
  g_task_return_boolean (task, TRUE);
}

/* Takes @task. Offers @token (transfer full) when it is still good,
 * else its refresh. */
static void
resume_with (StewardServerAuth *self,
             McpAuthToken      *token,
             GTask             *task)
{
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;

  if (token != NULL && !mcp_auth_token_expires_within (token, now, EXPIRY_MARGIN))
    {
      set_token (self, token, FALSE);
      set_state (self, STEWARD_SERVER_AUTH_STATE_SIGNED_IN);
      g_task_return_boolean (task, TRUE);
      g_object_unref (task);
      return;
    }

  if (token != NULL && token->refresh_token != NULL)
    {
      steward_redact_add_secret (token->refresh_token);
      mcp_auth_flow_refresh_async (self->flow, token, g_task_get_cancellable (task),
                                   resume_refreshed_cb, task);
      mcp_auth_token_free (token);
      return;
    }

  g_clear_pointer (&token, mcp_auth_token_free);
  need_sign_in (self);
  g_task_return_boolean (task, FALSE);
  g_object_unref (task);
}

static void
resume_loaded_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  GTask *task = user_data;
  StewardServerAuth *self = g_task_get_source_object (task);
  McpAuthToken *token;
  g_autoptr(GError) error = NULL;

  /* A keyring that cannot be read is a sign-in to ask for, not a server
   * that cannot start. */
  token = steward_auth_store_load_finish (STEWARD_AUTH_STORE (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      g_object_unref (task);
      return;
    }
  if (error != NULL)
    g_debug ("No token from the keyring: %s", error->message);

  resume_with (self, token, task);
}

static void
resume_discovered_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  GTask *task = user_data;
  StewardServerAuth *self = g_task_get_source_object (task);
  GError *error = NULL;

  if (!mcp_auth_flow_discover_finish (MCP_AUTH_FLOW (object), result, &error))
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  set_host_from_flow (self);

  /* The token just refused: renewed when it ran out, or when it did not
   * come from a renewal itself; else the person signs in. */
  if (self->token != NULL)
    {
      gint64 now = g_get_real_time () / G_USEC_PER_SEC;
      gboolean ran_out = mcp_auth_token_expires_within (self->token, now, EXPIRY_MARGIN);

      if ((ran_out || !self->refreshed) && self->token->refresh_token != NULL)
        {
          mcp_auth_flow_refresh_async (self->flow, self->token, g_task_get_cancellable (task),
                                       resume_refreshed_cb, task);
          return;
        }

      need_sign_in (self);
      g_task_return_boolean (task, FALSE);
      g_object_unref (task);
      return;
    }

  steward_auth_store_load_for_flow_async (self->store, self->flow,
                                          g_task_get_cancellable (task), resume_loaded_cb, task);
}

void
steward_server_auth_resume_async (StewardServerAuth   *self,
                                  const char          *challenge,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (STEWARD_IS_SERVER_AUTH (self));
  g_return_if_fail (challenge != NULL);
  g_return_if_fail (self->url != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_server_auth_resume_async);

  g_free (self->challenge);
  self->challenge = g_strdup (challenge);
  mcp_auth_flow_discover_async (ensure_flow (self), challenge, cancellable,
                                resume_discovered_cb, task);
}

gboolean
steward_server_auth_resume_finish (StewardServerAuth  *self,
                                   GAsyncResult       *result,
                                   GError            **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Signing in through the person */

typedef struct {
  GCancellable *flow_cancellable;
  GError       *launch_error;
  gulong        cancelled_id;
  GCancellable *cancellable;
} SignIn;

static void
sign_in_free (SignIn *sign_in)
{
  if (sign_in->cancelled_id != 0)
    g_cancellable_disconnect (sign_in->cancellable, sign_in->cancelled_id);
  g_clear_object (&sign_in->cancellable);
  g_clear_object (&sign_in->flow_cancellable);
  g_clear_error (&sign_in->launch_error);
  g_free (sign_in);
}

static void
launched_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  SignIn *sign_in = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (g_app_info_launch_default_for_uri_finish (result, &error) || g_task_get_completed (task))
    return;
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  /* No browser to wait for: the sign-in stops with the reason. */
  g_set_error (&sign_in->launch_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
               /* Translators: %s says why, from the desktop. */
               _("No web browser could be opened to sign in: %s"), error->message);
  g_cancellable_cancel (sign_in->flow_cancellable);
}

static void
open_cb (const char *url,
         gpointer    user_data)
{
  GTask *task = user_data;
  SignIn *sign_in = g_task_get_task_data (task);

  /* The desktop's handler for https: the browser, or inside Flatpak the
   * OpenURI portal, which asks the host to open it. */
  g_app_info_launch_default_for_uri_async (url, NULL, sign_in->flow_cancellable, launched_cb,
                                           g_object_ref (task));
}

static void
authorized_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StewardServerAuth *self = g_task_get_source_object (task);
  SignIn *sign_in = g_task_get_task_data (task);
  g_autoptr(McpAuthToken) token = NULL;
  g_autoptr(GError) error = NULL;

  mcp_auth_flow_set_open_func (MCP_AUTH_FLOW (object), NULL, NULL, NULL);
  token = mcp_auth_flow_authorize_finish (MCP_AUTH_FLOW (object), result, &error);
  if (token == NULL)
    {
      set_state (self, STEWARD_SERVER_AUTH_STATE_NEEDED);
      if (sign_in->launch_error != NULL)
        g_task_return_error (task, g_steal_pointer (&sign_in->launch_error));
      else
        g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  set_host_from_flow (self);
  remember (self, token);
  set_token (self, g_steal_pointer (&token), FALSE);
  ask_userinfo (self);
  set_state (self, STEWARD_SERVER_AUTH_STATE_SIGNED_IN);
  g_task_return_boolean (task, TRUE);
}

static void
sign_in_cancelled_cb (GCancellable *cancellable,
                      GCancellable *flow_cancellable)
{
  g_cancellable_cancel (flow_cancellable);
}

void
steward_server_auth_sign_in_async (StewardServerAuth   *self,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  SignIn *sign_in;

  g_return_if_fail (STEWARD_IS_SERVER_AUTH (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_server_auth_sign_in_async);

  if (self->url == NULL || self->challenge == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                               _("The server has not asked to sign in; start it first."));
      return;
    }
  if (self->state == STEWARD_SERVER_AUTH_STATE_WAITING)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_PENDING,
                               _("A sign-in is already waiting for the browser."));
      return;
    }

  /* The flow has its own cancellable, so that a browser that cannot be
   * opened ends the wait for its answer too. */
  sign_in = g_new0 (SignIn, 1);
  sign_in->flow_cancellable = g_cancellable_new ();
  if (cancellable != NULL)
    {
      sign_in->cancellable = g_object_ref (cancellable);
      sign_in->cancelled_id = g_cancellable_connect (cancellable,
                                                     G_CALLBACK (sign_in_cancelled_cb),
                                                     g_object_ref (sign_in->flow_cancellable),
                                                     g_object_unref);
    }
  g_task_set_task_data (task, sign_in, (GDestroyNotify) sign_in_free);

  set_state (self, STEWARD_SERVER_AUTH_STATE_WAITING);
  mcp_auth_flow_set_open_func (ensure_flow (self), open_cb, g_object_ref (task), g_object_unref);
  mcp_auth_flow_authorize_async (self->flow, self->challenge, sign_in->flow_cancellable,
                                 authorized_cb, g_object_ref (task));
}

gboolean
steward_server_auth_sign_in_finish (StewardServerAuth  *self,
                                    GAsyncResult       *result,
                                    GError            **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Signing out */

static void
forgotten_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (!steward_auth_store_forget_finish (STEWARD_AUTH_STORE (object), result, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void
revoked_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  GTask *task = user_data;
  StewardServerAuth *self = g_task_get_source_object (task);
  McpAuthToken *token = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  /* The keyring's item goes whatever the authorization server said: an
   * unreachable server must not keep the person signed in here. */
  if (!mcp_auth_flow_revoke_finish (MCP_AUTH_FLOW (object), result, &error))
    g_message ("The authorization server did not revoke the token: %s", error->message);

  steward_auth_store_forget_async (self->store, token->issuer, token->resource,
                                   g_task_get_cancellable (task), forgotten_cb, task);
}

void
steward_server_auth_sign_out_async (StewardServerAuth   *self,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  GTask *task;
  McpAuthToken *token;

  g_return_if_fail (STEWARD_IS_SERVER_AUTH (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_server_auth_sign_out_async);

  if (self->token == NULL)
    {
      g_task_return_boolean (task, TRUE);
      g_object_unref (task);
      return;
    }

  token = g_steal_pointer (&self->token);
  g_task_set_task_data (task, token, (GDestroyNotify) mcp_auth_token_free);
  need_sign_in (self);

  if (self->flow != NULL && mcp_auth_flow_get_server_metadata (self->flow) != NULL)
    {
      mcp_auth_flow_revoke_async (self->flow, token, cancellable, revoked_cb, task);
      return;
    }

  steward_auth_store_forget_async (self->store, token->issuer, token->resource, cancellable,
                                   forgotten_cb, task);
}

gboolean
steward_server_auth_sign_out_finish (StewardServerAuth  *self,
                                     GAsyncResult       *result,
                                     GError            **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

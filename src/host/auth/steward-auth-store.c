/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-auth"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "steward-redactor.h"

#include "steward-auth-store.h"

/**
 * StewardAuthStore:
 *
 * Where the tokens of remote servers live: the keyring, one item per
 * authorization server and resource, never a file. A token is bound to
 * the issuer that granted it, so that a server that moves to another
 * authorization server never receives the old one's token. Every token
 * that passes through here is taught to the redactor, so that no log and
 * no output shows it, whoever echoes it.
 */
struct _StewardAuthStore
{
  GObject         parent_instance;

  StewardSecrets *secrets;
};

G_DEFINE_FINAL_TYPE (StewardAuthStore, steward_auth_store, G_TYPE_OBJECT)

static void
teach_redactor (const McpAuthToken *token)
{
  steward_redact_add_secret (token->access_token);
  if (token->refresh_token != NULL)
    steward_redact_add_secret (token->refresh_token);
}

static void
steward_auth_store_dispose (GObject *object)
{
  StewardAuthStore *self = STEWARD_AUTH_STORE (object);

  g_clear_object (&self->secrets);

  G_OBJECT_CLASS (steward_auth_store_parent_class)->dispose (object);
}

static void
steward_auth_store_class_init (StewardAuthStoreClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = steward_auth_store_dispose;
}

static void
steward_auth_store_init (StewardAuthStore *self)
{
}

StewardAuthStore *
steward_auth_store_new (StewardSecrets *secrets)
{
  StewardAuthStore *self;

  g_return_val_if_fail (STEWARD_IS_SECRETS (secrets), NULL);

  self = g_object_new (STEWARD_TYPE_AUTH_STORE, NULL);
  self->secrets = g_object_ref (secrets);

  return self;
}

/**
 * steward_auth_store_make_id:
 *
 * Returns: (transfer full): the keyring id of the tokens @issuer granted
 *   for @resource: a digest of both, as ids allow few characters and URLs
 *   have many
 */
char *
steward_auth_store_make_id (const char *issuer,
                            const char *resource)
{
  g_autoptr(GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);

  g_return_val_if_fail (issuer != NULL && resource != NULL, NULL);

  g_checksum_update (checksum, (const guchar *) issuer, strlen (issuer));
  /* A byte no URL holds, so that no two pairs make the same text. */
  g_checksum_update (checksum, (const guchar *) "\n", 1);
  g_checksum_update (checksum, (const guchar *) resource, strlen (resource));

  return g_strconcat ("sign-in.", g_checksum_get_string (checksum), NULL);
}

/* A task about the item that keeps what @issuer granted for @resource,
 * whose id goes to @id. */
static GTask *
new_item_task (StewardAuthStore     *self,
               const char           *issuer,
               const char           *resource,
               gpointer              source_tag,
               GCancellable         *cancellable,
               GAsyncReadyCallback   callback,
               gpointer              user_data,
               char                **id)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, source_tag);
  g_object_set_data_full (G_OBJECT (task), "issuer", g_strdup (issuer), g_free);
  g_object_set_data_full (G_OBJECT (task), "resource", g_strdup (resource), g_free);
  *id = steward_auth_store_make_id (issuer, resource);

  return task;
}

typedef void (*ItemFunc) (StewardSecrets      *secrets,
                          const char          *id,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data);

/* Asks the keyring, with @func, about the item that keeps what @issuer
 * granted for @resource; @item_cb finishes the task. */
static void
ask_item (StewardAuthStore    *self,
          const char          *issuer,
          const char          *resource,
          gpointer             source_tag,
          ItemFunc             func,
          GAsyncReadyCallback  item_cb,
          GCancellable        *cancellable,
          GAsyncReadyCallback  callback,
          gpointer             user_data)
{
  g_autofree char *id = NULL;
  GTask *task;

  task = new_item_task (self, issuer, resource, source_tag, cancellable, callback, user_data,
                        &id);
  func (self->secrets, id, cancellable, item_cb, task);
}

static void
stored_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autofree char *id = NULL;
  GError *error = NULL;

  id = steward_secrets_store_finish (STEWARD_SECRETS (object), result, &error);
  if (id == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

/**
 * steward_auth_store_save_async:
 * @token: a token with its issuer and resource
 *
 * Keeps @token in the keyring, in place of any before it for the same
 * issuer and resource.
 */
void
steward_auth_store_save_async (StewardAuthStore    *self,
                               const McpAuthToken  *token,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *id = NULL;
  g_autofree char *label = NULL;
  g_autofree char *value = NULL;

  g_return_if_fail (STEWARD_IS_AUTH_STORE (self));
  g_return_if_fail (token != NULL && token->issuer != NULL && token->resource != NULL);

  task = new_item_task (self, token->issuer, token->resource, steward_auth_store_save_async,
                        cancellable, callback, user_data, &id);
  teach_redactor (token);
  /* Translators: the keyring's name for a stored sign-in; the placeholders
   * are the server's address and the authorization server's. */
  label = g_strdup_printf (_("Steward sign-in to %s at %s"), token->resource, token->issuer);
  value = mcp_auth_token_serialize (token);
  steward_secrets_store_async (self->secrets, id, STEWARD_SECRET_KIND_SIGN_IN, label, value,
                               cancellable, stored_cb, g_steal_pointer (&task));
  memset (value, 0, strlen (value));
}

gboolean
steward_auth_store_save_finish (StewardAuthStore  *self,
                                GAsyncResult      *result,
                                GError           **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
looked_up_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  const char *issuer = g_object_get_data (G_OBJECT (task), "issuer");
  const char *resource = g_object_get_data (G_OBJECT (task), "resource");
  McpAuthToken *token;
  GError *error = NULL;
  char *value;

  value = steward_secrets_lookup_finish (STEWARD_SECRETS (object), result, &error);
  if (value == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  token = mcp_auth_token_deserialize (value, &error);
  steward_secret_value_free (value);
  if (token == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  /* The item's id is a digest; what it holds must be what was asked for,
   * or it belongs to another server. */
  if (g_strcmp0 (token->issuer, issuer) != 0 || g_strcmp0 (token->resource, resource) != 0)
    {
      mcp_auth_token_free (token);
      g_task_return_new_error (task, STEWARD_SECRETS_ERROR, STEWARD_SECRETS_ERROR_NOT_FOUND,
                               _("The stored sign-in is for another server; sign in again"));
      return;
    }

  teach_redactor (token);
  g_task_return_pointer (task, token, (GDestroyNotify) mcp_auth_token_free);
}

/**
 * steward_auth_store_load_async:
 *
 * Finds the tokens @issuer granted for @resource; the finish function
 * fails with %STEWARD_SECRETS_ERROR_NOT_FOUND when there are none.
 */
void
steward_auth_store_load_async (StewardAuthStore    *self,
                               const char          *issuer,
                               const char          *resource,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_return_if_fail (STEWARD_IS_AUTH_STORE (self));
  g_return_if_fail (issuer != NULL && resource != NULL);

  ask_item (self, issuer, resource, steward_auth_store_load_async, steward_secrets_lookup_async,
            looked_up_cb, cancellable, callback, user_data);
}

/**
 * steward_auth_store_load_for_flow_async:
 * @flow: a flow that has discovered the server's authorization server
 *
 * Finds the tokens of the authorization server @flow found, for the
 * resource it signs in to: only those, so that a token is never offered
 * to another server. Finish with steward_auth_store_load_finish().
 */
void
steward_auth_store_load_for_flow_async (StewardAuthStore    *self,
                                        McpAuthFlow         *flow,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data)
{
  const McpAuthServerMetadata *metadata;

  g_return_if_fail (MCP_IS_AUTH_FLOW (flow));

  metadata = mcp_auth_flow_get_server_metadata (flow);
  g_return_if_fail (metadata != NULL);

  steward_auth_store_load_async (self, metadata->issuer, mcp_auth_flow_get_resource (flow),
                                 cancellable, callback, user_data);
}

/**
 * steward_auth_store_load_finish:
 *
 * Returns: (transfer full) (nullable): the stored token
 */
McpAuthToken *
steward_auth_store_load_finish (StewardAuthStore  *self,
                                GAsyncResult      *result,
                                GError           **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
cleared_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (!steward_secrets_clear_finish (STEWARD_SECRETS (object), result, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

/**
 * steward_auth_store_forget_async:
 *
 * Removes the tokens @issuer granted for @resource from the keyring; the
 * caller revokes them first where the server offers that.
 */
void
steward_auth_store_forget_async (StewardAuthStore    *self,
                                 const char          *issuer,
                                 const char          *resource,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_return_if_fail (STEWARD_IS_AUTH_STORE (self));
  g_return_if_fail (issuer != NULL && resource != NULL);

  ask_item (self, issuer, resource, steward_auth_store_forget_async, steward_secrets_clear_async,
            cleared_cb, cancellable, callback, user_data);
}

gboolean
steward_auth_store_forget_finish (StewardAuthStore  *self,
                                  GAsyncResult      *result,
                                  GError           **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

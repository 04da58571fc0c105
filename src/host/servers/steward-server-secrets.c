/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-server-secrets"

#include "config.h"

#include "steward-server-secrets.h"

static void
add_ids (GHashTable *ids,
         GHashTable *values)
{
  GHashTableIter iter;
  gpointer value;

  if (values == NULL)
    return;

  g_hash_table_iter_init (&iter, values);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      char *id = steward_secret_reference_get_id (value);

      if (id != NULL)
        g_hash_table_add (ids, id);
    }
}

/**
 * steward_server_config_dup_secret_ids:
 *
 * Returns: (transfer full): the ids of the secrets @config refers to
 */
GHashTable *
steward_server_config_dup_secret_ids (StewardServerConfig *config)
{
  GHashTable *ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (config), ids);

  add_ids (ids, steward_server_config_get_env (config));
  add_ids (ids, steward_server_config_get_headers (config));
  return ids;
}

typedef struct
{
  guint pending;
  guint cleared;
} Forget;

static void
forget_step_done (GTask *task)
{
  Forget *forget = g_task_get_task_data (task);

  if (--forget->pending == 0)
    g_task_return_int (task, forget->cleared);
}

static void
cleared_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Forget *forget = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  /* A secret that is gone already is what was wanted. */
  if (steward_secrets_clear_finish (STEWARD_SECRETS (object), result, &error))
    forget->cleared++;
  else
    g_debug ("Forgetting a secret no longer used: %s", error->message);

  forget_step_done (task);
}

/**
 * steward_secrets_forget_unused_async:
 * @before: the server's entry as it was
 * @after: (nullable): the entry now, or %NULL when the server was removed
 *
 * Clears the secrets @before referred to and @after does not. An id is
 * only ever made for one entry, so nothing else can need it.
 */
void
steward_secrets_forget_unused_async (StewardSecrets      *secrets,
                                     StewardServerConfig *before,
                                     StewardServerConfig *after,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GHashTable) old_ids = NULL;
  g_autoptr(GHashTable) new_ids = NULL;
  GHashTableIter iter;
  gpointer id;
  Forget *forget;

  g_return_if_fail (STEWARD_IS_SECRETS (secrets));
  g_return_if_fail (STEWARD_IS_SERVER_CONFIG (before));
  g_return_if_fail (after == NULL || STEWARD_IS_SERVER_CONFIG (after));

  task = g_task_new (secrets, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_secrets_forget_unused_async);
  forget = g_new0 (Forget, 1);
  /* One for this function, so that the task ends only after the loop. */
  forget->pending = 1;
  g_task_set_task_data (task, forget, g_free);

  old_ids = steward_server_config_dup_secret_ids (before);
  new_ids = after != NULL ? steward_server_config_dup_secret_ids (after) : NULL;

  g_hash_table_iter_init (&iter, old_ids);
  while (g_hash_table_iter_next (&iter, &id, NULL))
    {
      if (new_ids != NULL && g_hash_table_contains (new_ids, id))
        continue;

      forget->pending++;
      steward_secrets_clear_async (secrets, id, cancellable, cleared_cb, g_object_ref (task));
    }

  forget_step_done (task);
}

guint
steward_secrets_forget_unused_finish (StewardSecrets  *secrets,
                                      GAsyncResult    *result,
                                      GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, secrets), 0);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        steward_secrets_forget_unused_async, 0);

  return (guint) g_task_propagate_int (G_TASK (result), error);
}

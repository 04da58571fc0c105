/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-provider-migration"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-provider-migration.h"
#include "steward-secrets.h"

static const struct {
  const char          *id;
  const char          *name;
  StewardProviderKind  kind;
  const char          *url_key;
} legacy_providers[] = {
  { "openai-compatible", N_("OpenAI-Compatible"), STEWARD_PROVIDER_KIND_OPENAI_COMPATIBLE,
    "provider-openai-base-url" },
  { "anthropic", N_("Anthropic"), STEWARD_PROVIDER_KIND_ANTHROPIC,
    "provider-anthropic-base-url" },
};

typedef struct
{
  StewardSecrets *secrets;
  GSettings      *settings;
  guint           pending;
  guint           added;
  GError         *error;
} Migration;

static void
migration_free (Migration *migration)
{
  g_clear_object (&migration->secrets);
  g_clear_object (&migration->settings);
  g_clear_error (&migration->error);
  g_free (migration);
}

/* Whether the provider is there now. The first failure is kept for the
 * end; the other providers are still tried. */
static gboolean
put_legacy_provider (StewardProviders *self,
                     Migration        *migration,
                     guint             index,
                     const char       *base_url)
{
  g_autofree char *key_id = steward_providers_make_key_id (legacy_providers[index].id);
  g_autoptr(GError) error = NULL;

  if (steward_providers_lookup (self, legacy_providers[index].id) != NULL)
    return TRUE;

  if (steward_providers_put (self, legacy_providers[index].id, legacy_providers[index].kind,
                             _(legacy_providers[index].name), base_url, key_id, &error) == NULL)
    {
      if (migration->error == NULL)
        migration->error = g_steal_pointer (&error);
      return FALSE;
    }

  migration->added++;
  return TRUE;
}

static void
migration_step_done (GTask *task)
{
  Migration *migration = g_task_get_task_data (task);

  if (--migration->pending > 0)
    return;

  if (migration->error != NULL)
    g_task_return_error (task, g_steal_pointer (&migration->error));
  else
    g_task_return_int (task, migration->added);
}

typedef struct
{
  GTask *task;
  guint  index;
} KeyLookup;

static void
legacy_key_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autofree KeyLookup *lookup = user_data;
  g_autoptr(GTask) task = lookup->task;
  StewardProviders *self = g_task_get_source_object (task);
  Migration *migration = g_task_get_task_data (task);
  char *value;

  value = steward_secrets_lookup_finish (STEWARD_SECRETS (object), result, NULL);
  if (value != NULL)
    {
      g_autofree char *base_url = NULL;

      /* Only whether there is a key matters; it stays in the keyring. */
      steward_secret_value_free (value);
      base_url = g_settings_get_string (migration->settings,
                                        legacy_providers[lookup->index].url_key);
      put_legacy_provider (self, migration, lookup->index, base_url);
    }

  migration_step_done (task);
}

/**
 * steward_providers_migrate_legacy_async:
 * @settings: the app's settings, where the old base URLs are
 * @secrets: (nullable): the keyring, where the old keys are
 *
 * A provider counts as set up before when its base URL was changed (the
 * setting is reset once it is a provider), or when a key is in the keyring
 * for it with the default URL. A provider of the same id already there is
 * left as it is.
 */
void
steward_providers_migrate_legacy_async (StewardProviders    *self,
                                        GSettings           *settings,
                                        StewardSecrets      *secrets,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Migration *migration;

  g_return_if_fail (STEWARD_IS_PROVIDERS (self));
  g_return_if_fail (G_IS_SETTINGS (settings));
  g_return_if_fail (secrets == NULL || STEWARD_IS_SECRETS (secrets));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_providers_migrate_legacy_async);
  migration = g_new0 (Migration, 1);
  migration->settings = g_object_ref (settings);
  migration->secrets = secrets != NULL ? g_object_ref (secrets) : NULL;
  /* One for this function, so that the task ends only after the loop. */
  migration->pending = 1;
  g_task_set_task_data (task, migration, (GDestroyNotify) migration_free);

  for (guint i = 0; i < G_N_ELEMENTS (legacy_providers); i++)
    {
      g_autoptr(GVariant) value = g_settings_get_user_value (settings,
                                                             legacy_providers[i].url_key);
      g_autofree char *key_id = NULL;
      KeyLookup *lookup;

      if (value != NULL)
        {
          if (put_legacy_provider (self, migration, i, g_variant_get_string (value, NULL)))
            g_settings_reset (settings, legacy_providers[i].url_key);
          continue;
        }

      if (steward_providers_lookup (self, legacy_providers[i].id) != NULL ||
          migration->secrets == NULL)
        continue;

      lookup = g_new0 (KeyLookup, 1);
      lookup->task = g_object_ref (task);
      lookup->index = i;
      migration->pending++;
      key_id = steward_providers_make_key_id (legacy_providers[i].id);
      steward_secrets_lookup_async (migration->secrets, key_id, cancellable, legacy_key_cb,
                                    lookup);
    }

  migration_step_done (task);
}

guint
steward_providers_migrate_legacy_finish (StewardProviders  *self,
                                         GAsyncResult      *result,
                                         GError           **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), 0);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        steward_providers_migrate_legacy_async, 0);

  return (guint) g_task_propagate_int (G_TASK (result), error);
}

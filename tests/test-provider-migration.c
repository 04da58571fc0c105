/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-provider-migration"

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "steward-http-provider.h"
#include "steward-provider-migration.h"
#include "steward-providers.h"
#include "steward-secrets.h"

/* Providers set up before providers.json become providers, against the
 * real keyring of the private session (tests/run-in-session) and the
 * app's settings schema, kept in memory. */

#define DEADLINE_MS 15000
#define CANARY_KEY "canary-0b7f3a91"

static gboolean
set_true_cb (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

static void
result_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* Runs the main loop until *@result is set, failing after the deadline. */
static void
wait_for_result (GAsyncResult **result)
{
  gboolean timed_out = FALSE;
  guint timer = g_timeout_add (DEADLINE_MS, set_true_cb, &timed_out);

  while (*result == NULL && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (!timed_out)
    g_source_remove (timer);
  g_assert_nonnull (*result);
}

static void
store_key (StewardSecrets *secrets,
           const char     *id)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *stored = NULL;

  steward_secrets_store_async (secrets, id, STEWARD_SECRET_KIND_PROVIDER_KEY, "test key",
                               CANARY_KEY, NULL, result_cb, &result);
  wait_for_result (&result);
  stored = steward_secrets_store_finish (secrets, result, &error);
  g_assert_no_error (error);
}

static void
clear_key (StewardSecrets *secrets,
           const char     *id)
{
  g_autoptr(GAsyncResult) result = NULL;

  steward_secrets_clear_async (secrets, id, NULL, result_cb, &result);
  wait_for_result (&result);
  steward_secrets_clear_finish (secrets, result, NULL);
}

static StewardProviders *
load_providers (const char     *dir,
                StewardSecrets *secrets)
{
  g_autofree char *path = g_build_filename (dir, "providers.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  StewardProviders *providers = steward_providers_new (file, secrets);

  steward_providers_load_async (providers, NULL, result_cb, &result);
  wait_for_result (&result);
  g_assert_true (steward_providers_load_finish (providers, result, &error));
  g_assert_no_error (error);
  return providers;
}

static guint
migrate (StewardProviders *providers,
         GSettings        *settings,
         StewardSecrets   *secrets)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  guint added;

  steward_providers_migrate_legacy_async (providers, settings, secrets, NULL, result_cb, &result);
  wait_for_result (&result);
  added = steward_providers_migrate_legacy_finish (providers, result, &error);
  g_assert_no_error (error);
  return added;
}

static void
flush (StewardProviders *providers)
{
  g_autoptr(GAsyncResult) result = NULL;

  steward_providers_flush_async (providers, NULL, result_cb, &result);
  wait_for_result (&result);
  g_assert_true (steward_providers_flush_finish (providers, result, NULL));
}

static void
test_migrate (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(StewardSecrets) secrets = steward_secrets_new ();
  g_autoptr(StewardProviders) providers = NULL;
  g_autoptr(GVariant) left = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-provider-migration-XXXXXX", &error);
  g_autofree char *anthropic_key_id = steward_providers_make_key_id ("anthropic");
  StewardProvider *provider;

  g_assert_no_error (error);

  /* A changed base URL, and a key kept for the default one. */
  g_settings_set_string (settings, "provider-openai-base-url", "http://localhost:8080/v1");
  store_key (secrets, anthropic_key_id);
  providers = load_providers (dir, secrets);
  g_assert_cmpuint (migrate (providers, settings, secrets), ==, 2);

  provider = steward_providers_lookup (providers, "openai-compatible");
  g_assert_nonnull (provider);
  g_assert_cmpstr (steward_http_provider_get_base_url (STEWARD_HTTP_PROVIDER (provider)), ==,
                   "http://localhost:8080/v1");
  g_assert_cmpstr (steward_http_provider_get_key_id (STEWARD_HTTP_PROVIDER (provider)), ==,
                   "provider.openai-compatible");
  left = g_settings_get_user_value (settings, "provider-openai-base-url");
  g_assert_null (left);

  provider = steward_providers_lookup (providers, "anthropic");
  g_assert_nonnull (provider);
  g_assert_cmpint (steward_providers_get_kind (providers, "anthropic"), ==,
                   STEWARD_PROVIDER_KIND_ANTHROPIC);
  g_assert_cmpstr (steward_http_provider_get_key_id (STEWARD_HTTP_PROVIDER (provider)), ==,
                   anthropic_key_id);

  /* Once: a provider a person changed since is left as it is. */
  g_assert_nonnull (steward_providers_put (providers, "anthropic",
                                           STEWARD_PROVIDER_KIND_ANTHROPIC, "Claude", NULL,
                                           anthropic_key_id, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (migrate (providers, settings, secrets), ==, 0);
  g_assert_cmpstr (steward_provider_get_display_name (steward_providers_lookup (providers,
                                                                                "anthropic")),
                   ==, "Claude");

  flush (providers);
  clear_key (secrets, anthropic_key_id);
}

static void
test_nothing_to_migrate (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(StewardSecrets) secrets = steward_secrets_new ();
  g_autoptr(StewardProviders) providers = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-provider-migration-XXXXXX", &error);

  g_assert_no_error (error);
  g_settings_reset (settings, "provider-openai-base-url");
  g_settings_reset (settings, "provider-anthropic-base-url");

  /* No setting changed and no key: only the manual provider. */
  providers = load_providers (dir, secrets);
  g_assert_cmpuint (migrate (providers, settings, secrets), ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (providers)), ==, 1);
  g_assert_null (steward_providers_lookup (providers, "openai-compatible"));
  g_assert_null (steward_providers_lookup (providers, "anthropic"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/steward/provider-migration/nothing", test_nothing_to_migrate);
  g_test_add_func ("/steward/provider-migration/migrate", test_migrate);

  return g_test_run ();
}

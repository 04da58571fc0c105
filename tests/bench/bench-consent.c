/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "bench-consent"

#include "config.h"

/*
 * Records the person's consent for every server in a servers file, the way
 * the consent dialog's "Allow" does, so that bench-app can start Steward
 * with ten servers and none of them waits for a dialog.
 *
 *   bench-consent CONFIG_DIR
 *
 * CONFIG_DIR holds servers.json; consents.json is written beside it,
 * each consent sealed with the key in the session's keyring, as the app
 * seals it, so that the app started later in the same session trusts it.
 */

#include <stdlib.h>

#include "steward-config.h"
#include "steward-consent-store.h"
#include "steward-secrets.h"

#define WRITE_TIMEOUT_S 10

static void
save_failed_cb (StewardConfig *config,
                GError        *error)
{
  g_printerr ("bench-consent: %s\n", error->message);
  exit (EXIT_FAILURE);
}

static gboolean
timed_out_cb (gpointer user_data)
{
  g_printerr ("bench-consent: the key was not found or consents.json not written within %d s\n",
              WRITE_TIMEOUT_S);
  exit (EXIT_FAILURE);
}

static void
key_loaded_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!steward_consent_store_load_finish (STEWARD_CONSENT_STORE (object), result, &error))
    {
      g_printerr ("bench-consent: no key to seal the consents with: %s\n", error->message);
      exit (EXIT_FAILURE);
    }
  *(gboolean *) user_data = TRUE;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(StewardSecrets) secrets = NULL;
  g_autoptr(StewardConsentStore) store = NULL;
  gboolean key_loaded = FALSE;
  StewardConfig *config;
  GListModel *servers;
  guint n_servers;

  if (argc != 2)
    {
      g_printerr ("usage: bench-consent CONFIG_DIR\n");
      return 2;
    }

  file = g_file_new_build_filename (argv[1], "servers.json", NULL);
  config = steward_config_new (file);
  if (!steward_config_load (config, NULL, &error))
    {
      g_printerr ("bench-consent: %s\n", error->message);
      return EXIT_FAILURE;
    }

  /* The key is made in the keyring the first time, as the app makes it. */
  g_timeout_add_seconds (WRITE_TIMEOUT_S, timed_out_cb, NULL);
  secrets = steward_secrets_new ();
  store = steward_consent_store_new (secrets);
  steward_consent_store_load_async (store, NULL, key_loaded_cb, &key_loaded);
  while (!key_loaded)
    g_main_context_iteration (NULL, TRUE);
  steward_config_set_consent_store (config, store);

  g_signal_connect (config, "save-failed", G_CALLBACK (save_failed_cb), NULL);
  servers = steward_config_get_servers (config);
  n_servers = g_list_model_get_n_items (servers);
  for (guint i = 0; i < n_servers; i++)
    {
      g_autoptr(StewardServerConfig) server = g_list_model_get_item (servers, i);

      if (!steward_config_record_consent (config, server, &error))
        {
          g_printerr ("bench-consent: %s\n", error->message);
          return EXIT_FAILURE;
        }
    }

  /* The file is written in the background, and the write holds the
   * config until it is done: the config going is the write having ended. */
  g_object_add_weak_pointer (G_OBJECT (config), (gpointer *) &config);
  g_object_unref (config);
  while (config != NULL)
    g_main_context_iteration (NULL, TRUE);

  g_print ("%u\n", n_servers);
  return EXIT_SUCCESS;
}

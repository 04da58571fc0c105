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
 * CONFIG_DIR holds servers.json; consents.json is written beside it.
 */

#include <stdlib.h>

#include "steward-config.h"

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
  g_printerr ("bench-consent: consents.json was not written within %d s\n", WRITE_TIMEOUT_S);
  exit (EXIT_FAILURE);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
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
  g_timeout_add_seconds (WRITE_TIMEOUT_S, timed_out_cb, NULL);
  g_object_add_weak_pointer (G_OBJECT (config), (gpointer *) &config);
  g_object_unref (config);
  while (config != NULL)
    g_main_context_iteration (NULL, TRUE);

  g_print ("%u\n", n_servers);
  return EXIT_SUCCESS;
}

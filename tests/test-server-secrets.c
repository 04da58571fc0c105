/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-server-secrets"

#include "config.h"

#include <gio/gio.h>

#include "steward-secrets.h"
#include "steward-server-secrets.h"

/* Forgetting the secrets an edited or removed server no longer refers
 * to, against the real keyring of the private session
 * (tests/run-in-session). */

#define DEADLINE_MS 15000

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
store (StewardSecrets *secrets,
       const char     *id,
       const char     *value)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *stored = NULL;

  steward_secrets_store_async (secrets, id, STEWARD_SECRET_KIND_SERVER_ENV, "test secret", value,
                               NULL, result_cb, &result);
  wait_for_result (&result);
  stored = steward_secrets_store_finish (secrets, result, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stored, ==, id);
}

static gboolean
exists (StewardSecrets *secrets,
        const char     *id)
{
  g_autoptr(GAsyncResult) result = NULL;
  char *value;

  steward_secrets_lookup_async (secrets, id, NULL, result_cb, &result);
  wait_for_result (&result);
  value = steward_secrets_lookup_finish (secrets, result, NULL);
  steward_secret_value_free (value);
  return value != NULL;
}

static guint
forget (StewardSecrets      *secrets,
        StewardServerConfig *before,
        StewardServerConfig *after)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  guint cleared;

  steward_secrets_forget_unused_async (secrets, before, after, NULL, result_cb, &result);
  wait_for_result (&result);
  cleared = steward_secrets_forget_unused_finish (secrets, result, &error);
  g_assert_no_error (error);
  return cleared;
}

static StewardServerConfig *
server_with_env (const char * const *ids)
{
  g_autoptr(GHashTable) env = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  const char * const args[] = { NULL };

  for (guint i = 0; ids[i] != NULL; i++)
    g_hash_table_insert (env, g_strdup_printf ("KEY_%u", i), steward_secret_reference_new (ids[i]));
  /* A value that only looks like a reference in part is no reference. */
  g_hash_table_insert (env, g_strdup ("PLAIN"), g_strdup ("prefix ${keyring:server.kept}"));

  return steward_server_config_new_stdio ("alpha", "true", args, env, NULL);
}

static void
test_forget (void)
{
  g_autoptr(StewardSecrets) secrets = steward_secrets_new ();
  const char * const both[] = { "server.kept", "server.dropped", NULL };
  const char * const kept_only[] = { "server.kept", NULL };
  g_autoptr(StewardServerConfig) before = server_with_env (both);
  g_autoptr(StewardServerConfig) after = server_with_env (kept_only);
  g_autoptr(GHashTable) ids = steward_server_config_dup_secret_ids (before);

  g_assert_cmpuint (g_hash_table_size (ids), ==, 2);
  g_assert_true (g_hash_table_contains (ids, "server.kept"));
  g_assert_true (g_hash_table_contains (ids, "server.dropped"));

  store (secrets, "server.kept", "kept-0c1d");
  store (secrets, "server.dropped", "dropped-9a8b");

  /* Edited: only what the new entry no longer names goes. */
  g_assert_cmpuint (forget (secrets, before, after), ==, 1);
  g_assert_true (exists (secrets, "server.kept"));
  g_assert_false (exists (secrets, "server.dropped"));

  /* Saved unchanged: nothing goes. */
  g_assert_cmpuint (forget (secrets, after, after), ==, 0);
  g_assert_true (exists (secrets, "server.kept"));

  /* Removed: the rest goes too. */
  g_assert_cmpuint (forget (secrets, after, NULL), ==, 1);
  g_assert_false (exists (secrets, "server.kept"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/steward/server-secrets/forget", test_forget);

  return g_test_run ();
}

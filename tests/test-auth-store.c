/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-auth-store"

#include "config.h"

#include "steward-auth-store.h"
#include "steward-redactor.h"

/* Tokens in the real keyring of the test session: kept per issuer and
 * resource, taught to the redactor when read back, forgotten on sign-out. */

#define WAIT_TIMEOUT_S 30

static gboolean
timed_out_cb (gpointer user_data)
{
  g_error ("the keyring did not answer within %d s", WAIT_TIMEOUT_S);
  return G_SOURCE_REMOVE;
}

typedef struct {
  gboolean      done;
  gboolean      ok;
  McpAuthToken *token;
  GError       *error;
} Outcome;

static void
wait_for (Outcome *outcome)
{
  guint id = g_timeout_add_seconds (WAIT_TIMEOUT_S, timed_out_cb, NULL);

  while (!outcome->done)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (id);
}

static void
outcome_clear (Outcome *outcome)
{
  g_clear_pointer (&outcome->token, mcp_auth_token_free);
  g_clear_error (&outcome->error);
  outcome->done = FALSE;
  outcome->ok = FALSE;
}

static void
saved_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  Outcome *outcome = user_data;

  outcome->ok = steward_auth_store_save_finish (STEWARD_AUTH_STORE (object), result,
                                                &outcome->error);
  outcome->done = TRUE;
}

static void
loaded_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Outcome *outcome = user_data;

  outcome->token = steward_auth_store_load_finish (STEWARD_AUTH_STORE (object), result,
                                                   &outcome->error);
  outcome->done = TRUE;
}

static void
forgotten_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Outcome *outcome = user_data;

  outcome->ok = steward_auth_store_forget_finish (STEWARD_AUTH_STORE (object), result,
                                                  &outcome->error);
  outcome->done = TRUE;
}

static void
test_save_load_forget (void)
{
  g_autoptr(StewardSecrets) secrets = steward_secrets_new ();
  g_autoptr(StewardAuthStore) store = steward_auth_store_new (secrets);
  g_autofree char *id = NULL;
  g_autofree char *other_id = NULL;
  g_autofree char *shown = NULL;
  McpAuthToken token = {
    .access_token = (char *) "access-7d1c0f9e2b4a",
    .refresh_token = (char *) "refresh-5e8a3b1c9d70",
    .scope = (char *) "files",
    .expires_at = 2000000000,
    .issuer = (char *) "https://auth.example",
    .resource = (char *) "https://mcp.example/mcp",
    .client_id = (char *) "client-1",
  };
  Outcome outcome = { 0 };

  id = steward_auth_store_make_id (token.issuer, token.resource);
  other_id = steward_auth_store_make_id ("https://other.example", token.resource);
  g_assert_true (g_str_has_prefix (id, "sign-in."));
  g_assert_cmpstr (id, !=, other_id);

  steward_auth_store_save_async (store, &token, NULL, saved_cb, &outcome);
  wait_for (&outcome);
  g_assert_no_error (outcome.error);
  g_assert_true (outcome.ok);
  outcome_clear (&outcome);

  /* Reading it back teaches the redactor again, as in a new process. */
  steward_redact_forget_secrets ();
  steward_auth_store_load_async (store, token.issuer, token.resource, NULL, loaded_cb,
                                 &outcome);
  wait_for (&outcome);
  g_assert_no_error (outcome.error);
  g_assert_cmpstr (outcome.token->access_token, ==, token.access_token);
  g_assert_cmpstr (outcome.token->refresh_token, ==, token.refresh_token);
  g_assert_cmpstr (outcome.token->client_id, ==, "client-1");
  g_assert_cmpint (outcome.token->expires_at, ==, 2000000000);
  shown = steward_redact ("server said: access-7d1c0f9e2b4a and refresh-5e8a3b1c9d70");
  g_assert_cmpstr (shown, ==, "server said: [redacted] and [redacted]");
  outcome_clear (&outcome);

  /* Another authorization server gets nothing for the same resource. */
  steward_auth_store_load_async (store, "https://other.example", token.resource, NULL,
                                 loaded_cb, &outcome);
  wait_for (&outcome);
  g_assert_error (outcome.error, STEWARD_SECRETS_ERROR, STEWARD_SECRETS_ERROR_NOT_FOUND);
  outcome_clear (&outcome);

  steward_auth_store_forget_async (store, token.issuer, token.resource, NULL, forgotten_cb,
                                   &outcome);
  wait_for (&outcome);
  g_assert_no_error (outcome.error);
  outcome_clear (&outcome);

  steward_auth_store_load_async (store, token.issuer, token.resource, NULL, loaded_cb,
                                 &outcome);
  wait_for (&outcome);
  g_assert_error (outcome.error, STEWARD_SECRETS_ERROR, STEWARD_SECRETS_ERROR_NOT_FOUND);
  outcome_clear (&outcome);

  steward_redact_forget_secrets ();
  g_assert_finalize_object (g_steal_pointer (&store));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/steward/auth-store/save-load-forget", test_save_load_forget);

  return g_test_run ();
}

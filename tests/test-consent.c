/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-consent"

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "steward-consent-store.h"
#include "steward-host.h"
#include "test-host-fixture.h"

/* Consents sealed with the keyring's key, through the host as the app
 * runs it. Runs under tests/run-in-session: a private home and an unlocked
 * gnome-keyring of its own, which starts without Steward's key. */

static gboolean
file_holds (const char *path,
            const char *needle)
{
  g_autofree char *text = NULL;

  return g_file_get_contents (path, &text, NULL, NULL) && strstr (text, needle) != NULL;
}

typedef struct {
  char *top;
  char *servers_path;
  char *consents_path;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  fixture->top = test_make_top ("test-consent");
  fixture->servers_path = g_build_filename (fixture->top, "config", "servers.json", NULL);
  fixture->consents_path = g_build_filename (fixture->top, "config", "consents.json", NULL);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  test_remove_tree (fixture->top);
  g_free (fixture->top);
  g_free (fixture->servers_path);
  g_free (fixture->consents_path);
}

static StewardHost *
start_host (Fixture *fixture)
{
  StewardHost *host = test_host_new_in (fixture->top);

  test_host_start (host, 20);
  return host;
}

static void
stop_host (StewardHost *host)
{
  test_host_shutdown (host, 10);
  /* What the shutdown closed may finish its last callbacks first. */
  g_object_add_weak_pointer (G_OBJECT (host), (gpointer *) &host);
  g_object_unref (host);
  test_loop_until (host == NULL, 10);
}

static StewardServer *
lookup_server (StewardHost *host,
               const char  *name)
{
  StewardServer *server = steward_server_registry_lookup (steward_host_get_registry (host), name);

  g_assert_nonnull (server);
  return server;
}

static StewardApproval *
find_consent (StewardHost *host,
              const char  *name)
{
  GListModel *approvals = G_LIST_MODEL (steward_host_get_approvals (host));

  for (guint i = 0; i < g_list_model_get_n_items (approvals); i++)
    {
      g_autoptr(StewardApproval) approval = g_list_model_get_item (approvals, i);

      if (steward_approval_get_kind (approval) == STEWARD_APPROVAL_KIND_CONSENT &&
          g_str_equal (steward_approval_get_server (approval), name))
        return approval;
    }

  return NULL;
}

static guint
count_consents (StewardHost *host)
{
  GListModel *approvals = G_LIST_MODEL (steward_host_get_approvals (host));
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (approvals); i++)
    {
      g_autoptr(StewardApproval) approval = g_list_model_get_item (approvals, i);

      n += steward_approval_get_kind (approval) == STEWARD_APPROVAL_KIND_CONSENT;
    }

  return n;
}

/* A real MCP server, which serves until stopped. */
static JsonObject *
serving_entry (void)
{
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "servers", "lifecycle-server.py",
                                                   NULL);
  JsonObject *entry = json_object_new ();
  JsonArray *args = json_array_new ();

  json_array_add_string_element (args, script);
  json_array_add_string_element (args, "serve");
  json_object_set_string_member (entry, "command", "/usr/bin/python3");
  json_object_set_array_member (entry, "args", args);

  return entry;
}

/* A program that leaves @canary behind if it is ever run. */
static JsonObject *
canary_entry (const char *canary)
{
  g_autofree char *script = g_strdup_printf ("echo started > '%s'", canary);
  JsonObject *entry = json_object_new ();
  JsonArray *args = json_array_new ();

  json_array_add_string_element (args, "-c");
  json_array_add_string_element (args, script);
  json_object_set_string_member (entry, "command", "/bin/sh");
  json_object_set_array_member (entry, "args", args);

  return entry;
}

static void
write_servers (Fixture    *fixture,
               JsonObject *servers)
{
  g_autoptr(JsonObject) root = json_object_new ();
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *text = NULL;

  json_object_set_object_member (root, "mcpServers", json_object_ref (servers));
  json_node_set_object (node, root);
  text = json_to_string (node, TRUE);
  test_write_text (fixture->servers_path, text);
}

/* The first run makes a key, stores it in the keyring, and every later
 * store finds the same one. */
static void
test_first_run (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(StewardSecrets) secrets = steward_secrets_new ();
  g_autoptr(StewardConsentStore) first = steward_consent_store_new (secrets);
  g_autoptr(StewardConsentStore) second = steward_consent_store_new (secrets);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GAsyncResult) lookup = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *seal = NULL;
  g_autofree char *again = NULL;
  char *key;

  g_assert_cmpint (steward_consent_store_get_state (first), ==, STEWARD_CONSENT_KEY_UNKNOWN);
  g_assert_null (steward_consent_store_seal (first, "files", "abc"));

  steward_consent_store_load_async (first, NULL, test_store_result_cb, &result);
  test_loop_until (result != NULL, 20);
  g_assert_true (steward_consent_store_load_finish (first, result, &error));
  g_assert_no_error (error);
  g_assert_cmpint (steward_consent_store_get_state (first), ==, STEWARD_CONSENT_KEY_READY);

  steward_secrets_lookup_async (secrets, STEWARD_CONSENT_KEY_ID, NULL, test_store_result_cb, &lookup);
  test_loop_until (lookup != NULL, 20);
  key = steward_secrets_lookup_finish (secrets, lookup, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (strlen (key), ==, 64);
  steward_secret_value_free (key);

  g_clear_object (&result);
  steward_consent_store_load_async (second, NULL, test_store_result_cb, &result);
  test_loop_until (result != NULL, 20);
  g_assert_true (steward_consent_store_load_finish (second, result, &error));

  seal = steward_consent_store_seal (first, "files", "abc");
  again = steward_consent_store_seal (second, "files", "abc");
  g_assert_cmpstr (seal, ==, again);
  g_assert_true (steward_consent_store_verify (second, "files", "abc", seal));
  g_assert_false (steward_consent_store_verify (second, "other", "abc", seal));
  g_assert_false (steward_consent_store_verify (second, "files", "abd", seal));
}

/* A consent given in the dialog survives a restart of the host; a
 * consents file written by someone else, with the right plain fingerprint
 * or with a genuine entry copied to another server, starts nothing. */
static void
test_forged_consent (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(JsonObject) servers = json_object_new ();
  g_autoptr(JsonNode) consents = NULL;
  g_autoptr(StewardServerConfig) forged_config = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *canary_forged = g_build_filename (fixture->top, "forged-ran", NULL);
  g_autofree char *canary_copy = g_build_filename (fixture->top, "copy-ran", NULL);
  g_autofree char *text = NULL;
  g_autofree char *fingerprint = NULL;
  StewardApproval *approval;
  StewardHost *host;
  JsonObject *entries;
  JsonObject *entry;

  json_object_set_object_member (servers, "genuine", serving_entry ());
  write_servers (fixture, servers);

  /* The first run: no key, no consent; the person allows. */
  host = start_host (fixture);
  test_loop_until (find_consent (host, "genuine") != NULL, 20);
  approval = find_consent (host, "genuine");
  g_assert_true (json_object_get_boolean_member (steward_approval_get_request (approval),
                                                 "remembered"));
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_ALLOW, NULL);
  test_loop_until (steward_server_get_status (lookup_server (host, "genuine")) ==
              STEWARD_SERVER_STATUS_READY, 30);
  test_loop_until (file_holds (fixture->consents_path, "\"seal\""), 20);
  stop_host (host);

  /* Someone who can write both files adds two servers and consents. */
  text = test_read_text (fixture->consents_path);
  consents = json_from_string (text, &error);
  g_assert_no_error (error);
  entries = json_node_get_object (consents);

  json_object_set_object_member (servers, "forged", canary_entry (canary_forged));
  forged_config = steward_server_config_new_from_json ("forged",
                                                       json_object_get_object_member (servers,
                                                                                      "forged"),
                                                       &error);
  g_assert_no_error (error);
  fingerprint = steward_server_config_dup_fingerprint (forged_config);
  entry = json_object_new ();
  json_object_set_string_member (entry, "fingerprint", fingerprint);
  json_object_set_object_member (entry, "config",
                                 json_object_ref (steward_server_config_get_json (forged_config)));
  json_object_set_object_member (entries, "forged", entry);

  /* "copy" runs what "genuine" runs, under the genuine entry's seal;
   * were it started, it would serve, not wait. */
  json_object_set_object_member (servers, "copy", serving_entry ());
  json_object_set_object_member (entries, "copy",
                                 json_object_ref (json_object_get_object_member (entries,
                                                                                 "genuine")));
  g_clear_pointer (&text, g_free);
  text = json_to_string (consents, TRUE);
  test_write_text (fixture->consents_path, text);
  write_servers (fixture, servers);

  host = start_host (fixture);

  /* The genuine consent survived the restart: no question, it serves. */
  test_loop_until (steward_server_get_status (lookup_server (host, "genuine")) ==
              STEWARD_SERVER_STATUS_READY, 30);
  g_assert_null (find_consent (host, "genuine"));

  /* The others wait for the person, and never ran. */
  test_loop_until (count_consents (host) == 2, 20);
  g_assert_nonnull (find_consent (host, "forged"));
  g_assert_nonnull (find_consent (host, "copy"));
  g_assert_cmpint (steward_server_get_status (lookup_server (host, "forged")), ==,
                   STEWARD_SERVER_STATUS_AWAITING_CONSENT);
  g_assert_cmpint (steward_server_get_status (lookup_server (host, "copy")), ==,
                   STEWARD_SERVER_STATUS_AWAITING_CONSENT);
  g_assert_false (g_file_test (canary_forged, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (canary_copy, G_FILE_TEST_EXISTS));

  stop_host (host);
  g_assert_false (g_file_test (canary_forged, G_FILE_TEST_EXISTS));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/steward/consent/first-run", Fixture, NULL,
              fixture_set_up, test_first_run, fixture_tear_down);
  g_test_add ("/steward/consent/forged", Fixture, NULL,
              fixture_set_up, test_forged_consent, fixture_tear_down);

  return g_test_run ();
}

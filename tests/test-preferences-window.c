/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-preferences-window"

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
/* libsoup as Steward's code calls it (mcp-soup.h); the test links it too,
 * for the calls of its own stand-in servers. */
#include "mcp-soup.h"
#include <string.h>

#include "steward-accessible.h"
#include "steward-error-row.h"
#include "steward-manual-provider.h"
#include "steward-openai-provider.h"
#include "steward-preferences-window-private.h"
#include "steward-provider-row.h"
#include "test-widgets.h"

#define WAIT_TIMEOUT_S 20
#define CLOUD_KEY_ID "provider.my-cloud"
/* Nothing listens here: Ollama is not found unless a test says so. */
#define NO_OLLAMA_URL "http://127.0.0.1:9"
/* Key-shaped, and unique enough to search for. */
#define CANARY_KEY "sk-steward-test-9f8e7d6c5b4a39281706"

static StewardSamplingSettings *
settings_of (StewardSamplingBroker *broker,
             const char            *server)
{
  return steward_sampling_broker_get_settings (broker, server);
}

static const char servers_json[] =
  "{\"mcpServers\": {"
  "  \"alpha\": {\"command\": \"true\", \"disabled\": true}"
  "}}";

static const char two_servers_json[] =
  "{\"mcpServers\": {"
  "  \"alpha\": {\"command\": \"true\", \"disabled\": true},"
  "  \"beta\": {\"command\": \"true\", \"disabled\": true}"
  "}}";

typedef struct
{
  char                     *tmp_dir;
  StewardHost              *host;
  StewardPreferencesWindow *window;
} Fixture;

static gboolean
timeout_cb (gpointer user_data)
{
  gboolean *timed_out = user_data;

  *timed_out = TRUE;
  return G_SOURCE_REMOVE;
}

typedef gboolean (*Condition) (Fixture       *fixture,
                               gconstpointer  data);

static void
wait_until (Fixture       *fixture,
            Condition      condition,
            gconstpointer  data)
{
  gboolean timed_out = FALSE;
  guint timeout_id = g_timeout_add_seconds (WAIT_TIMEOUT_S, timeout_cb, &timed_out);

  while (!condition (fixture, data) && !timed_out)
    g_main_context_iteration (NULL, TRUE);

  g_assert_false (timed_out);
  g_source_remove (timeout_id);
}

static void
drain (void)
{
  guint i;

  for (i = 0; i < 100 && g_main_context_pending (NULL); i++)
    g_main_context_iteration (NULL, FALSE);
}

static const char *
key_subtitle (Fixture    *fixture,
              const char *secret_id)
{
  AdwActionRow *row = steward_preferences_window_get_key_row (fixture->window, secret_id);

  g_assert_nonnull (row);
  return adw_action_row_get_subtitle (row);
}

typedef struct
{
  const char *secret_id;
  const char *subtitle;
} SubtitleWanted;

static gboolean
key_subtitle_is (Fixture       *fixture,
                 gconstpointer  data)
{
  const SubtitleWanted *wanted = data;

  return g_strcmp0 (key_subtitle (fixture, wanted->secret_id), wanted->subtitle) == 0;
}

static gboolean
host_started (Fixture       *fixture,
              gconstpointer  data)
{
  return steward_host_get_started (fixture->host);
}

static gboolean
registry_filled (Fixture       *fixture,
                 gconstpointer  data)
{
  return g_list_model_get_n_items (G_LIST_MODEL (steward_host_get_registry (fixture->host))) > 0;
}

static gboolean shutdown_done;

static void
shutdown_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  steward_host_shutdown_finish (STEWARD_HOST (object), result, NULL);
  shutdown_done = TRUE;
}

static gboolean
host_shut_down (Fixture       *fixture,
                gconstpointer  data)
{
  return shutdown_done;
}

/* secret-tool reads the keyring as any other program would. Returns the
 * stored value, or NULL when there is none. */
static char *
secret_tool_lookup (const char *secret_id)
{
  const char *argv[] = { "secret-tool", "lookup", "id", secret_id, NULL };
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                NULL, NULL, &out, NULL, &status, &error);
  g_assert_no_error (error);

  if (!g_spawn_check_wait_status (status, NULL) || out == NULL || *out == '\0')
    return NULL;

  return g_strchomp (g_steal_pointer (&out));
}

static GtkWidget *
find_button (GtkWidget  *root,
             const char *label)
{
  GtkWidget *child;

  if (GTK_IS_BUTTON (root) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (root)), label) == 0)
    return root;

  for (child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_button (child, label);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* Answers as a person does, by the button, which also closes the dialog. */
static void
click_response (AdwMessageDialog *dialog,
                const char       *label)
{
  GtkWidget *button = find_button (GTK_WIDGET (dialog), label);

  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir != NULL)
    {
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          remove_tree (child);
        }
    }

  g_remove (path);
}

static void
fixture_set_up (Fixture  *fixture,
                gboolean  with_servers)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) config_dir = NULL;
  g_autoptr(GFile) state_dir = NULL;
  g_autofree char *config_path = NULL;

  fixture->tmp_dir = g_dir_make_tmp ("test-preferences-window-XXXXXX", &error);
  g_assert_no_error (error);
  config_path = g_build_filename (fixture->tmp_dir, "config", NULL);
  g_assert_cmpint (g_mkdir_with_parents (config_path, 0700), ==, 0);

  if (with_servers)
    {
      g_autofree char *servers_path = g_build_filename (config_path, "servers.json", NULL);

      g_file_set_contents (servers_path, servers_json, -1, &error);
      g_assert_no_error (error);
    }

  config_dir = g_file_new_for_path (config_path);
  state_dir = g_file_new_build_filename (fixture->tmp_dir, "state", NULL);
  fixture->host = steward_host_new (config_dir, state_dir);

  if (with_servers)
    {
      steward_host_start (fixture->host);
      wait_until (fixture, host_started, NULL);
      wait_until (fixture, registry_filled, NULL);
    }

  fixture->window = STEWARD_PREFERENCES_WINDOW (steward_preferences_window_new (fixture->host));
  g_object_ref (fixture->window);
  gtk_window_present (GTK_WINDOW (fixture->window));
}

static gboolean catalog_saved;

static void
catalog_saved_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (steward_model_catalog_save_finish (STEWARD_MODEL_CATALOG (object), result,
                                                    &error));
  g_assert_no_error (error);
  catalog_saved = TRUE;
}

static gboolean
catalog_settled (Fixture       *fixture,
                 gconstpointer  data)
{
  return catalog_saved;
}

static gboolean policies_saved;

static void
policies_saved_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (steward_sampling_broker_save_finish (STEWARD_SAMPLING_BROKER (object), result,
                                                      &error));
  g_assert_no_error (error);
  policies_saved = TRUE;
}

static gboolean
policies_settled (Fixture       *fixture,
                  gconstpointer  data)
{
  return policies_saved;
}

static void
fixture_tear_down (Fixture *fixture)
{
  /* A save asked for now ends after every save the window asked for, so
   * that none is still writing when the folder goes. */
  catalog_saved = FALSE;
  steward_model_catalog_save_async (steward_host_get_model_catalog (fixture->host), NULL,
                                    catalog_saved_cb, NULL);
  wait_until (fixture, catalog_settled, NULL);
  policies_saved = FALSE;
  steward_sampling_broker_save_async (steward_host_get_sampling_broker (fixture->host), NULL,
                                      policies_saved_cb, NULL);
  wait_until (fixture, policies_settled, NULL);

  gtk_window_destroy (GTK_WINDOW (fixture->window));
  drain ();
  g_assert_finalize_object (fixture->window);

  shutdown_done = FALSE;
  steward_host_shutdown_async (fixture->host, NULL, shutdown_cb, NULL);
  wait_until (fixture, host_shut_down, NULL);
  g_assert_finalize_object (fixture->host);

  remove_tree (fixture->tmp_dir);
  g_free (fixture->tmp_dir);
}

static StewardProviders *
get_providers (Fixture *fixture)
{
  return steward_host_get_providers (fixture->host);
}

static StewardModelCatalog *
get_catalog (Fixture *fixture)
{
  return steward_host_get_model_catalog (fixture->host);
}

/* Where the Models page's own actions are activated. */
/* Where the Providers page's actions are: a person's click on one of its
 * buttons starts there. */
static GtkWidget *
providers_page (Fixture *fixture)
{
  return GTK_WIDGET (steward_preferences_window_get_providers_page (fixture->window));
}

static GtkWidget *
models_page (Fixture *fixture)
{
  return GTK_WIDGET (steward_preferences_window_get_models_page (fixture->window));
}

static gboolean
config_file_contains (Fixture       *fixture,
                      gconstpointer  data)
{
  const char * const *wanted = data;
  g_autofree char *path = g_build_filename (fixture->tmp_dir, "config", wanted[0], NULL);
  g_autofree char *contents = NULL;

  return g_file_get_contents (path, &contents, NULL, NULL) && strstr (contents, wanted[1]);
}

static void
add_provider (Fixture    *fixture,
              guint       kind,
              const char *name,
              const char *url)
{
  AdwComboRow *kind_row;
  AdwEntryRow *name_row;
  AdwEntryRow *url_row;

  steward_preferences_window_get_add_rows (fixture->window, &kind_row, &name_row, &url_row);
  adw_combo_row_set_selected (kind_row, kind);
  gtk_editable_set_text (GTK_EDITABLE (name_row), name);
  gtk_editable_set_text (GTK_EDITABLE (url_row), url);
  gtk_widget_activate_action (providers_page (fixture), "prefs.add-provider", NULL);
}

static const char *
provider_key_id (Fixture    *fixture,
                 const char *id)
{
  StewardProvider *provider = steward_providers_lookup (get_providers (fixture), id);

  g_assert_true (STEWARD_IS_OPENAI_PROVIDER (provider));
  return steward_http_provider_get_key_id (STEWARD_HTTP_PROVIDER (provider));
}

static gboolean
provider_has_key_id (Fixture       *fixture,
                     gconstpointer  data)
{
  return g_strcmp0 (provider_key_id (fixture, "my-cloud"), data) == 0;
}

static void
test_provider_key (void)
{
  Fixture fixture = { 0 };
  AdwMessageDialog *dialog;
  GtkWidget *entry;
  g_autofree char *masked = steward_secret_mask (CANARY_KEY);
  g_autofree char *stored = NULL;
  SubtitleWanted shows_masked = { CLOUD_KEY_ID, masked };
  SubtitleWanted not_set = { CLOUD_KEY_ID, "Not set" };
  const char * const in_file[] = { "providers.json", "https://llm.example.com/v1" };
  g_autofree char *providers_path = NULL;
  g_autofree char *contents = NULL;
  const char *subtitle;

  fixture_set_up (&fixture, FALSE);

  /* No provider but the person: nothing to set a key for. */
  g_assert_null (steward_preferences_window_get_key_row (fixture.window, CLOUD_KEY_ID));
  g_assert_nonnull (test_find_label (GTK_WIDGET (fixture.window),
                                     "No provider is set up: you write the answers"));

  /* Added as a person adds it: a row, a line in providers.json, no key. */
  add_provider (&fixture, 0, "My Cloud", "https://llm.example.com/v1/");
  g_assert_nonnull (steward_preferences_window_get_provider_row (fixture.window, "my-cloud"));
  g_assert_nonnull (steward_preferences_window_get_refresh_row (fixture.window, "my-cloud"));
  wait_until (&fixture, config_file_contains, in_file);
  wait_until (&fixture, key_subtitle_is, &not_set);
  g_assert_null (provider_key_id (&fixture, "my-cloud"));

  /* Set…: the dialog's password entry, then Save, as a person would. */
  gtk_widget_activate_action (providers_page (&fixture), "prefs.set-key", "s", "my-cloud");
  dialog = steward_preferences_window_get_key_dialog (fixture.window);
  g_assert_nonnull (dialog);
  g_assert_false (adw_message_dialog_get_response_enabled (dialog, "save"));
  entry = adw_message_dialog_get_extra_child (dialog);
  g_assert_true (GTK_IS_PASSWORD_ENTRY (entry));
  gtk_editable_set_text (GTK_EDITABLE (entry), CANARY_KEY);
  g_assert_true (adw_message_dialog_get_response_enabled (dialog, "save"));
  click_response (dialog, "_Save");

  wait_until (&fixture, key_subtitle_is, &shows_masked);
  subtitle = key_subtitle (&fixture, CLOUD_KEY_ID);
  g_assert_null (strstr (subtitle, CANARY_KEY));
  g_assert_null (steward_preferences_window_get_key_dialog (fixture.window));

  /* The provider reads it from the keyring, where other programs find it
   * under the provider's own id; the file names it, never holds it. */
  wait_until (&fixture, provider_has_key_id, CLOUD_KEY_ID);
  stored = secret_tool_lookup (CLOUD_KEY_ID);
  g_assert_cmpstr (stored, ==, CANARY_KEY);
  {
    const char * const names_key[] = { "providers.json", CLOUD_KEY_ID };

    wait_until (&fixture, config_file_contains, names_key);
  }
  providers_path = g_build_filename (fixture.tmp_dir, "config", "providers.json", NULL);
  g_assert_true (g_file_get_contents (providers_path, &contents, NULL, NULL));
  g_assert_null (strstr (contents, CANARY_KEY));

  /* Clear asks first; cancelling keeps the key. */
  gtk_widget_activate_action (providers_page (&fixture), "prefs.clear-key", "s", "my-cloud");
  dialog = steward_preferences_window_get_key_dialog (fixture.window);
  g_assert_nonnull (dialog);
  g_assert_cmpstr (adw_message_dialog_get_default_response (dialog), ==, "cancel");
  click_response (dialog, "_Cancel");
  drain ();
  g_assert_cmpstr (key_subtitle (&fixture, CLOUD_KEY_ID), ==, masked);

  gtk_widget_activate_action (providers_page (&fixture), "prefs.clear-key", "s", "my-cloud");
  dialog = steward_preferences_window_get_key_dialog (fixture.window);
  click_response (dialog, "C_lear");
  wait_until (&fixture, key_subtitle_is, &not_set);
  g_assert_null (secret_tool_lookup (CLOUD_KEY_ID));
  wait_until (&fixture, provider_has_key_id, NULL);

  /* A second provider of the same name gets an id of its own; removing
   * one leaves the other. */
  add_provider (&fixture, 1, "My Cloud", "");
  g_assert_nonnull (steward_preferences_window_get_provider_row (fixture.window, "my-cloud-2"));
  g_assert_cmpint (steward_providers_get_kind (get_providers (&fixture), "my-cloud-2"), ==,
                   STEWARD_PROVIDER_KIND_ANTHROPIC);
  gtk_widget_activate_action (providers_page (&fixture), "prefs.remove-provider", "s",
                              "my-cloud");
  g_assert_null (steward_preferences_window_get_provider_row (fixture.window, "my-cloud"));
  g_assert_null (steward_providers_lookup (get_providers (&fixture), "my-cloud"));
  g_assert_nonnull (steward_preferences_window_get_provider_row (fixture.window, "my-cloud-2"));

  fixture_tear_down (&fixture);
}

#define ANTHROPIC_KEY_ID "provider.anthropic"

static void
stored_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *id = steward_secrets_store_finish (STEWARD_SECRETS (object), result, &error);

  g_assert_no_error (error);
  *(gboolean *) user_data = TRUE;
}

static gboolean
flag_set (gpointer data)
{
  return *(gboolean *) data;
}

/* Stores a key as an older Steward did, before any window is open. */
static void
store_key (const char *key_id,
           const char *value)
{
  StewardSecrets *secrets = steward_secrets_new ();
  gboolean stored = FALSE;

  steward_secrets_store_async (secrets, key_id, STEWARD_SECRET_KIND_PROVIDER_KEY, "Older key",
                               value, NULL, stored_cb, &stored);
  test_wait_until (flag_set, &stored, WAIT_TIMEOUT_S * 1000);
  g_assert_finalize_object (secrets);
}

static gboolean
key_gone (Fixture       *fixture,
          gconstpointer  data)
{
  g_autofree char *value = secret_tool_lookup (data);

  return value == NULL;
}

static gboolean
provider_exists (Fixture       *fixture,
                 gconstpointer  data)
{
  return steward_providers_lookup (get_providers (fixture), data) != NULL;
}

static void
test_settings (void)
{
  Fixture fixture = { 0 };
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GVariant) left = NULL;
  const char *keys[] = {
    "provider-openai-base-url", "provider-anthropic-base-url",
    "sampling-default-policy", "sampling-default-max-tokens",
    "sampling-default-per-minute", "sampling-default-daily-tokens",
    "sampling-defaults-applied", "log-min-level", "log-sources", "log-follow",
    "color-scheme",
  };
  StewardProvider *provider;
  guint i;

  g_object_get (settings, "settings-schema", &schema, NULL);
  for (i = 0; i < G_N_ELEMENTS (keys); i++)
    g_assert_true (g_settings_schema_has_key (schema, keys[i]));

  /* A base URL set before providers.json becomes a provider that finds
   * its key where it always was, once; so does a key kept for the default
   * URL. */
  g_settings_set_string (settings, "provider-openai-base-url", "http://localhost:8080/v1");
  store_key (ANTHROPIC_KEY_ID, CANARY_KEY);
  fixture_set_up (&fixture, FALSE);
  wait_until (&fixture, provider_exists, "anthropic");
  provider = steward_providers_lookup (get_providers (&fixture), "anthropic");
  g_assert_cmpint (steward_providers_get_kind (get_providers (&fixture), "anthropic"), ==,
                   STEWARD_PROVIDER_KIND_ANTHROPIC);
  g_assert_nonnull (steward_preferences_window_get_key_row (fixture.window, ANTHROPIC_KEY_ID));

  provider = steward_providers_lookup (get_providers (&fixture), "openai-compatible");
  g_assert_true (STEWARD_IS_OPENAI_PROVIDER (provider));
  g_assert_cmpstr (steward_http_provider_get_base_url (STEWARD_HTTP_PROVIDER (provider)), ==,
                   "http://localhost:8080/v1");
  g_assert_cmpstr (steward_http_provider_get_key_id (STEWARD_HTTP_PROVIDER (provider)), ==,
                   "provider.openai-compatible");
  left = g_settings_get_user_value (settings, "provider-openai-base-url");
  g_assert_null (left);
  g_assert_nonnull (steward_preferences_window_get_key_row (fixture.window,
                                                            "provider.openai-compatible"));

  /* Removed, the provider takes its key along, and is not found again. */
  gtk_widget_activate_action (providers_page (&fixture), "prefs.remove-provider", "s",
                              "anthropic");
  wait_until (&fixture, key_gone, ANTHROPIC_KEY_ID);

  fixture_tear_down (&fixture);
}

/* A fake Ollama on loopback: the tags detection asks for, and the models
 * the OpenAI-compatible API lists. */
/* While set, the fake Ollama answers every request with 503. */
static gboolean ollama_down;

static void
ollama_cb (SoupServer        *server,
           SoupServerMessage *message,
           const char        *path,
           GHashTable        *query,
           gpointer           user_data)
{
  const char *body;

  if (ollama_down)
    {
      soup_server_message_set_status (message, SOUP_STATUS_SERVICE_UNAVAILABLE, NULL);
      return;
    }

  if (g_str_equal (path, "/api/tags"))
    body = "{\"models\": [{\"name\": \"qwen2.5:7b\"}, {\"name\": \"llama3.1:70b\"}]}";
  else if (g_str_equal (path, "/v1/models"))
    body = "{\"object\": \"list\", \"data\": [{\"id\": \"qwen2.5:7b\", \"object\": \"model\"}, "
           "{\"id\": \"llama3.1:70b\", \"object\": \"model\"}]}";
  else
    {
      soup_server_message_set_status (message, SOUP_STATUS_NOT_FOUND, NULL);
      return;
    }

  soup_server_message_set_status (message, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (message, "application/json", SOUP_MEMORY_COPY, body,
                                    strlen (body));
}

static SoupServer *
start_fake_ollama (void)
{
  g_autoptr(GError) error = NULL;
  SoupServer *server = soup_server_new (NULL, NULL);
  GSList *uris;
  g_autofree char *url = NULL;

  soup_server_add_handler (server, NULL, ollama_cb, NULL, NULL);
  soup_server_listen_local (server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error);
  g_assert_no_error (error);

  uris = soup_server_get_uris (server);
  url = g_strdup_printf ("http://127.0.0.1:%d", g_uri_get_port (uris->data));
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  g_setenv ("STEWARD_OLLAMA_URL", url, TRUE);

  return server;
}

static gboolean
ollama_offered (Fixture       *fixture,
                gconstpointer  data)
{
  AdwActionRow *row = steward_preferences_window_get_ollama_row (fixture->window);
  GtkWidget *group = gtk_widget_get_ancestor (GTK_WIDGET (row), ADW_TYPE_PREFERENCES_GROUP);

  return gtk_widget_get_visible (group) == GPOINTER_TO_INT (data);
}

static gboolean
catalog_has (Fixture       *fixture,
             gconstpointer  data)
{
  return steward_model_catalog_lookup (get_catalog (fixture), data) != NULL;
}

static void
test_ollama (void)
{
  Fixture fixture = { 0 };
  SoupServer *server = start_fake_ollama ();
  const char * const saved[] = { "models.json", "llama3.1:70b" };
  AdwExpanderRow *row;
  StewardModel *model;

  fixture_set_up (&fixture, FALSE);

  /* Found, offered, added once. */
  wait_until (&fixture, ollama_offered, GINT_TO_POINTER (TRUE));
  gtk_widget_activate_action (providers_page (&fixture), "prefs.add-ollama", NULL);
  g_assert_true (ollama_offered (&fixture, GINT_TO_POINTER (FALSE)));
  g_assert_nonnull (steward_providers_lookup (get_providers (&fixture), "ollama"));
  g_assert_nonnull (steward_preferences_window_get_provider_row (fixture.window, "ollama"));

  /* Its models join the catalogue as local, at no cost. */
  g_assert_nonnull (test_find_label (GTK_WIDGET (fixture.window),
                                     "No models yet: refresh a provider’s models above"));
  gtk_widget_activate_action (GTK_WIDGET (fixture.window), "prefs.refresh-models", "s",
                              "ollama");
  wait_until (&fixture, catalog_has, "ollama/llama3.1:70b");
  model = steward_model_catalog_lookup (get_catalog (&fixture), "ollama/qwen2.5:7b");
  g_assert_nonnull (model);
  g_assert_true (steward_model_get_local (model));
  g_assert_cmpfloat (steward_model_get_cost (model), ==, 0.0);
  row = steward_preferences_window_get_model_row (fixture.window, "ollama/qwen2.5:7b");
  g_assert_nonnull (row);
  g_assert_nonnull (strstr (adw_expander_row_get_subtitle (row), "Cost 0.00"));
  wait_until (&fixture, config_file_contains, saved);

  fixture_tear_down (&fixture);
  g_assert_finalize_object (server);
  g_setenv ("STEWARD_OLLAMA_URL", NO_OLLAMA_URL, TRUE);
}

static gboolean
scores_saved (Fixture       *fixture,
              gconstpointer  data)
{
  const char * const wanted[] = { "models.json", "\"intelligence\" : 0.25" };

  return config_file_contains (fixture, wanted);
}

static gboolean
hint_saved (Fixture       *fixture,
            gconstpointer  data)
{
  const char * const wanted[] = { "models.json", data };

  return config_file_contains (fixture, wanted);
}

static void
test_models (void)
{
  Fixture fixture = { 0 };
  StewardModelCatalog *catalog;
  StewardModel *model;
  GtkWidget *spin;
  AdwExpanderRow *row;
  AdwEntryRow *hint_entry;
  AdwComboRow *hint_model;

  fixture_set_up (&fixture, FALSE);
  catalog = get_catalog (&fixture);
  steward_model_catalog_add (catalog, "ollama", "qwen2.5:7b", TRUE);
  model = steward_model_catalog_add (catalog, "anthropic", "claude-sonnet-4", FALSE);

  /* Scores: a spin button per score, named for screen readers. */
  row = steward_preferences_window_get_model_row (fixture.window, "anthropic/claude-sonnet-4");
  g_assert_nonnull (row);
  spin = test_find_by_name (GTK_WIDGET (row), "intelligence:anthropic/claude-sonnet-4");
  g_assert_true (GTK_IS_SPIN_BUTTON (spin));
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (spin)), ==,
                     steward_model_get_intelligence (model));
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), 0.25);
  g_assert_cmpfloat (steward_model_get_intelligence (model), ==, 0.25);
  wait_until (&fixture, scores_saved, NULL);
  g_assert_nonnull (strstr (adw_expander_row_get_subtitle (row), "Intelligence 0.25"));

  /* A change made elsewhere shows in the row. */
  steward_model_catalog_set_scores (catalog, "anthropic/claude-sonnet-4", 0.5, 0.5, 0.75);
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (spin)), ==, 0.75);

  /* The hint map: a hint and the model it sends to, then gone again. */
  steward_preferences_window_get_hint_rows (fixture.window, &hint_entry, &hint_model);
  g_assert_cmpuint (g_list_model_get_n_items (adw_combo_row_get_model (hint_model)), ==, 2);
  gtk_editable_set_text (GTK_EDITABLE (hint_entry), " Sonnet ");
  adw_combo_row_set_selected (hint_model, 1);
  gtk_widget_activate_action (models_page (&fixture), "prefs.add-hint", NULL);
  g_assert_cmpstr (g_hash_table_lookup (steward_model_catalog_get_hints (catalog), "sonnet"), ==,
                   "anthropic/claude-sonnet-4");
  g_assert_nonnull (steward_preferences_window_get_hint_row (fixture.window, "sonnet"));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (hint_entry)), ==, "");
  wait_until (&fixture, hint_saved, "\"sonnet\" : \"anthropic/claude-sonnet-4\"");

  gtk_widget_activate_action (models_page (&fixture), "prefs.remove-hint", "s", "sonnet");
  g_assert_null (steward_preferences_window_get_hint_row (fixture.window, "sonnet"));
  g_assert_cmpuint (g_hash_table_size (steward_model_catalog_get_hints (catalog)), ==, 0);

  /* Removing a model removes its row. */
  gtk_widget_activate_action (models_page (&fixture), "prefs.remove-model", "s",
                              "anthropic/claude-sonnet-4");
  g_assert_null (steward_preferences_window_get_model_row (fixture.window,
                                                           "anthropic/claude-sonnet-4"));
  g_assert_null (steward_model_catalog_lookup (catalog, "anthropic/claude-sonnet-4"));
  g_assert_cmpuint (g_list_model_get_n_items (adw_combo_row_get_model (hint_model)), ==, 1);

  fixture_tear_down (&fixture);
}

static void
test_server_models (void)
{
  Fixture fixture = { 0 };
  StewardModelCatalog *catalog;
  StewardSamplingBroker *broker;
  AdwExpanderRow *row;
  GtkWidget *local_switch;
  GtkWidget *any_switch;
  GtkWidget *check;
  const char * const *allowed;
  StewardConfig *config;
  StewardServerRegistry *registry;
  g_autoptr(GError) error = NULL;

  fixture_set_up (&fixture, TRUE);
  catalog = get_catalog (&fixture);
  broker = steward_host_get_sampling_broker (fixture.host);
  steward_model_catalog_add (catalog, "ollama", "qwen2.5:7b", TRUE);
  steward_model_catalog_add (catalog, "anthropic", "claude-sonnet-4", FALSE);

  row = steward_preferences_window_get_server_row (fixture.window, "alpha");
  g_assert_nonnull (row);

  /* Local only. */
  local_switch = test_find_by_name (GTK_WIDGET (row), "local-only:alpha");
  g_assert_true (GTK_IS_SWITCH (local_switch));
  g_assert_false (gtk_switch_get_active (GTK_SWITCH (local_switch)));
  gtk_switch_set_active (GTK_SWITCH (local_switch), TRUE);
  g_assert_true (steward_sampling_settings_get_local_only (settings_of (broker, "alpha")));

  /* Any model, until the person chooses. */
  any_switch = test_find_by_name (GTK_WIDGET (row), "any-model:alpha");
  check = test_find_by_name (GTK_WIDGET (row), "allow:alpha:anthropic/claude-sonnet-4");
  g_assert_true (GTK_IS_SWITCH (any_switch));
  g_assert_true (GTK_IS_CHECK_BUTTON (check));
  g_assert_true (gtk_switch_get_active (GTK_SWITCH (any_switch)));
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (check)));
  g_assert_false (gtk_widget_get_sensitive (check));
  g_assert_null (steward_sampling_settings_get_models (settings_of (broker, "alpha")));

  gtk_switch_set_active (GTK_SWITCH (any_switch), FALSE);
  allowed = steward_sampling_settings_get_models (settings_of (broker, "alpha"));
  g_assert_nonnull (allowed);
  g_assert_cmpuint (g_strv_length ((char **) allowed), ==, 2);

  /* Now the person chooses, model by model. */
  g_assert_true (gtk_widget_get_sensitive (check));
  gtk_check_button_set_active (GTK_CHECK_BUTTON (check), FALSE);
  allowed = steward_sampling_settings_get_models (settings_of (broker, "alpha"));
  g_assert_cmpuint (g_strv_length ((char **) allowed), ==, 1);
  g_assert_cmpstr (allowed[0], ==, "ollama/qwen2.5:7b");

  /* A change made elsewhere shows. */
  steward_sampling_settings_set_models (settings_of (broker, "alpha"), NULL);
  g_assert_true (gtk_switch_get_active (GTK_SWITCH (any_switch)));
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (check)));
  steward_sampling_settings_set_local_only (settings_of (broker, "alpha"), FALSE);
  g_assert_false (gtk_switch_get_active (GTK_SWITCH (local_switch)));

  /* A server the host gains or loses shows without reopening. */
  config = steward_host_get_config (fixture.host);
  registry = steward_host_get_registry (fixture.host);
  g_assert_null (steward_preferences_window_get_server_row (fixture.window, "beta"));
  g_assert_true (steward_config_load_from_data (config, two_servers_json,
                                                strlen (two_servers_json), &error));
  g_assert_no_error (error);
  steward_server_registry_sync (registry, FALSE);
  row = steward_preferences_window_get_server_row (fixture.window, "beta");
  g_assert_nonnull (row);
  g_assert_nonnull (test_find_by_name (GTK_WIDGET (row), "allow:beta:ollama/qwen2.5:7b"));

  /* So does a model the catalogue gains, in every server's list. */
  steward_model_catalog_add (catalog, "ollama", "llama3.1:8b", TRUE);
  g_assert_nonnull (test_find_by_name (GTK_WIDGET (row), "allow:beta:ollama/llama3.1:8b"));

  g_assert_true (steward_config_load_from_data (config, servers_json, strlen (servers_json),
                                                &error));
  g_assert_no_error (error);
  steward_server_registry_sync (registry, FALSE);
  g_assert_null (steward_preferences_window_get_server_row (fixture.window, "beta"));
  g_assert_nonnull (steward_preferences_window_get_server_row (fixture.window, "alpha"));

  fixture_tear_down (&fixture);
}

static void
test_color_scheme (void)
{
  Fixture fixture = { 0 };
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  AdwStyleManager *style_manager = adw_style_manager_get_default ();
  AdwComboRow *row;
  g_autofree char *scheme = NULL;

  fixture_set_up (&fixture, FALSE);
  row = steward_preferences_window_get_color_scheme_row (fixture.window);

  adw_combo_row_set_selected (row, 2);
  g_assert_cmpint (adw_style_manager_get_color_scheme (style_manager), ==,
                   ADW_COLOR_SCHEME_FORCE_DARK);
  scheme = g_settings_get_string (settings, "color-scheme");
  g_assert_cmpstr (scheme, ==, "dark");

  adw_combo_row_set_selected (row, 1);
  g_assert_cmpint (adw_style_manager_get_color_scheme (style_manager), ==,
                   ADW_COLOR_SCHEME_FORCE_LIGHT);

  /* A change made elsewhere shows in the row and applies too. */
  g_settings_set_string (settings, "color-scheme", "follow");
  g_assert_cmpuint (adw_combo_row_get_selected (row), ==, 0);
  g_assert_cmpint (adw_style_manager_get_color_scheme (style_manager), ==,
                   ADW_COLOR_SCHEME_DEFAULT);

  fixture_tear_down (&fixture);
}

static void
test_sampling_defaults (void)
{
  Fixture fixture = { 0 };
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  StewardSamplingBroker *broker;
  g_auto(GStrv) seen = NULL;

  g_settings_set_string (settings, "sampling-default-policy", "deny");
  g_settings_set_uint (settings, "sampling-default-max-tokens", 1024);
  g_settings_reset (settings, "sampling-defaults-applied");

  /* A server Steward has not seen takes the defaults when the window opens. */
  fixture_set_up (&fixture, TRUE);
  broker = steward_host_get_sampling_broker (fixture.host);
  g_assert_cmpint (steward_sampling_settings_get_policy (settings_of (broker, "alpha")), ==,
                   STEWARD_SAMPLING_POLICY_DENY);
  g_assert_cmpuint (steward_sampling_settings_get_max_tokens (settings_of (broker, "alpha")), ==,
                    1024);
  seen = g_settings_get_strv (settings, "sampling-defaults-applied");
  g_assert_true (g_strv_contains ((const char * const *) seen, "alpha"));

  /* Once seen, the person's own choice for it stays. */
  steward_sampling_settings_set_policy (settings_of (broker, "alpha"), STEWARD_SAMPLING_POLICY_ASK);
  steward_sampling_settings_set_max_tokens (settings_of (broker, "alpha"),
                                            STEWARD_SAMPLING_DEFAULT_MAX_TOKENS);
  steward_preferences_window_apply_sampling_defaults (fixture.host, settings);
  g_assert_cmpint (steward_sampling_settings_get_policy (settings_of (broker, "alpha")), ==,
                   STEWARD_SAMPLING_POLICY_ASK);

  g_settings_reset (settings, "sampling-default-policy");
  g_settings_reset (settings, "sampling-default-max-tokens");
  g_settings_reset (settings, "sampling-defaults-applied");
  fixture_tear_down (&fixture);
}

/* Errors a person must act on */

static gboolean
shown (Fixture       *fixture,
       gconstpointer  data)
{
  return gtk_widget_get_visible (GTK_WIDGET (data));
}

static gboolean
hidden (Fixture       *fixture,
        gconstpointer  data)
{
  return !gtk_widget_get_visible (GTK_WIDGET (data));
}

static gboolean
refresh_error_shown (Fixture       *fixture,
                     gconstpointer  data)
{
  GtkWidget *row = steward_preferences_window_get_refresh_error_row (fixture->window, data);

  return row != NULL && gtk_widget_get_visible (row);
}

static gboolean
timer_fired (Fixture       *fixture,
             gconstpointer  data)
{
  return *(const gboolean *) data;
}

static gboolean
set_flag_cb (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

static StewardProviderRow *
provider_row (Fixture    *fixture,
              const char *id)
{
  AdwExpanderRow *row = steward_preferences_window_get_provider_row (fixture->window, id);

  g_assert_true (STEWARD_IS_PROVIDER_ROW (row));
  return STEWARD_PROVIDER_ROW (row);
}

/* The row shows the whole message, wrapped, never cut to a line. */
static void
assert_error_in_full (GtkWidget  *row,
                      const char *needle)
{
  const char *subtitle = adw_action_row_get_subtitle (ADW_ACTION_ROW (row));

  g_assert_true (gtk_widget_get_visible (row));
  g_assert_nonnull (strstr (subtitle, needle));
  g_assert_cmpint (adw_action_row_get_subtitle_lines (ADW_ACTION_ROW (row)), ==, 0);
  g_assert_cmpint (adw_action_row_get_title_lines (ADW_ACTION_ROW (row)), ==, 0);
  g_assert_nonnull (test_find_label (row, subtitle));
}

static void
edit_url (Fixture    *fixture,
          const char *id,
          const char *url)
{
  AdwEntryRow *url_row = steward_provider_row_get_url_row (provider_row (fixture, id));

  gtk_editable_set_text (GTK_EDITABLE (url_row), url);
  g_signal_emit_by_name (url_row, "apply");
}

static void
test_provider_error (void)
{
  Fixture fixture = { 0 };
  SoupServer *server = start_fake_ollama ();
  const char *fake_url = g_getenv ("STEWARD_OLLAMA_URL");
  g_autofree char *good_url = g_strconcat (fake_url, "/v1", NULL);
  const char * const ending = "Check that it is running and that its base URL in "
                              "Preferences → Providers is right.";
  gboolean toast_gone = FALSE;
  StewardModel *model;
  StewardProvider *provider;
  GtkWidget *error_row;
  GtkWidget *inline_row;

  fixture_set_up (&fixture, FALSE);
  add_provider (&fixture, 0, "Local", NO_OLLAMA_URL "/v1");
  g_assert_nonnull (steward_providers_lookup (get_providers (&fixture), "local"));
  error_row = steward_preferences_window_get_refresh_error_row (fixture.window, "local");
  g_assert_nonnull (error_row);
  g_assert_false (gtk_widget_get_visible (error_row));

  /* Nothing listens: the error stays on both pages, in full. */
  gtk_widget_activate_action (GTK_WIDGET (fixture.window), "prefs.refresh-models", "s", "local");
  wait_until (&fixture, refresh_error_shown, "local");
  error_row = steward_preferences_window_get_refresh_error_row (fixture.window, "local");
  assert_error_in_full (error_row, ending);
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (error_row)),
                            "Could not reach “Local”"));
  inline_row = steward_provider_row_get_error_row (provider_row (&fixture, "local"));
  assert_error_in_full (inline_row, ending);
  g_assert_true (adw_expander_row_get_expanded (ADW_EXPANDER_ROW (provider_row (&fixture,
                                                                                "local"))));

  /* Longer than a toast lasts (five seconds), it is still there. */
  g_timeout_add_seconds (6, set_flag_cb, &toast_gone);
  wait_until (&fixture, timer_fired, &toast_gone);
  g_assert_true (gtk_widget_get_visible (error_row));
  g_assert_true (gtk_widget_get_visible (inline_row));

  /* A model of it, with a score the person gave. */
  steward_model_catalog_add (get_catalog (&fixture), "local", "kept-model", TRUE);
  steward_model_catalog_set_scores (get_catalog (&fixture), "local/kept-model", 0.75, 0.5, 0.5);

  /* Edited, it keeps its id, kind and models; the old error goes. */
  edit_url (&fixture, "local", good_url);
  provider = steward_providers_lookup (get_providers (&fixture), "local");
  g_assert_nonnull (provider);
  g_assert_cmpstr (steward_http_provider_get_base_url (STEWARD_HTTP_PROVIDER (provider)), ==,
                   good_url);
  g_assert_cmpstr (steward_provider_get_display_name (provider), ==, "Local");
  g_assert_cmpint (steward_providers_get_kind (get_providers (&fixture), "local"), ==,
                   STEWARD_PROVIDER_KIND_OPENAI_COMPATIBLE);
  g_assert_null (steward_providers_lookup (get_providers (&fixture), "local-2"));
  model = steward_model_catalog_lookup (get_catalog (&fixture), "local/kept-model");
  g_assert_nonnull (model);
  g_assert_cmpfloat (steward_model_get_cost (model), ==, 0.75);
  error_row = steward_preferences_window_get_refresh_error_row (fixture.window, "local");
  g_assert_false (gtk_widget_get_visible (error_row));
  g_assert_false (gtk_widget_get_visible (
    steward_provider_row_get_error_row (provider_row (&fixture, "local"))));

  /* Refreshed, it lists its models; no error comes back. */
  gtk_widget_activate_action (GTK_WIDGET (fixture.window), "prefs.refresh-models", "s", "local");
  wait_until (&fixture, catalog_has, "local/qwen2.5:7b");
  g_assert_false (refresh_error_shown (&fixture, "local"));

  /* Broken again, then dismissed: gone from both pages. */
  edit_url (&fixture, "local", NO_OLLAMA_URL "/v1");
  gtk_widget_activate_action (GTK_WIDGET (fixture.window), "prefs.refresh-models", "s", "local");
  wait_until (&fixture, refresh_error_shown, "local");
  error_row = steward_preferences_window_get_refresh_error_row (fixture.window, "local");
  g_signal_emit_by_name (steward_accessible_find_button (error_row, "window-close-symbolic", NULL),
                         "clicked");
  g_assert_false (gtk_widget_get_visible (error_row));
  g_assert_false (gtk_widget_get_visible (
    steward_provider_row_get_error_row (provider_row (&fixture, "local"))));

  /* A provider that fails for a while: the error stays until trying
   * again with the row's own button works. */
  edit_url (&fixture, "local", good_url);
  ollama_down = TRUE;
  gtk_widget_activate_action (GTK_WIDGET (fixture.window), "prefs.refresh-models", "s", "local");
  wait_until (&fixture, refresh_error_shown, "local");
  error_row = steward_preferences_window_get_refresh_error_row (fixture.window, "local");
  assert_error_in_full (error_row, "“Local”");
  ollama_down = FALSE;
  g_signal_emit_by_name (find_button (error_row, "_Retry"), "clicked");
  wait_until (&fixture, hidden, error_row);
  g_assert_false (gtk_widget_get_visible (
    steward_provider_row_get_error_row (provider_row (&fixture, "local"))));

  fixture_tear_down (&fixture);
  g_assert_finalize_object (server);
  g_setenv ("STEWARD_OLLAMA_URL", NO_OLLAMA_URL, TRUE);
}

static void
test_form_errors (void)
{
  Fixture fixture = { 0 };
  GtkWidget *add_error = NULL;
  GtkWidget *hint_error = NULL;
  AdwEntryRow *hint_entry;
  AdwComboRow *hint_model;
  AdwComboRow *kind_row;
  AdwEntryRow *name_row;
  AdwEntryRow *url_row;

  fixture_set_up (&fixture, FALSE);
  add_error = steward_preferences_window_get_add_error_row (fixture.window);
  hint_error = steward_preferences_window_get_hint_error_row (fixture.window);
  g_assert_false (gtk_widget_get_visible (add_error));

  /* An OpenAI-compatible provider needs its address: said where the
   * person is, until they change the form. */
  add_provider (&fixture, 0, "Nowhere", "");
  wait_until (&fixture, shown, add_error);
  assert_error_in_full (add_error, "https://api.openai.com/v1");
  g_assert_null (steward_providers_lookup (get_providers (&fixture), "nowhere"));
  steward_preferences_window_get_add_rows (fixture.window, &kind_row, &name_row, &url_row);
  gtk_editable_set_text (GTK_EDITABLE (url_row), "http://127.0.0.1:9/v1");
  g_assert_false (gtk_widget_get_visible (add_error));

  /* A hint with no model to go to. */
  steward_preferences_window_get_hint_rows (fixture.window, &hint_entry, &hint_model);
  gtk_editable_set_text (GTK_EDITABLE (hint_entry), "sonnet");
  gtk_widget_activate_action (models_page (&fixture), "prefs.add-hint", NULL);
  assert_error_in_full (hint_error, "There is no model to send the hint to yet");
  gtk_editable_set_text (GTK_EDITABLE (hint_entry), "opus");
  g_assert_false (gtk_widget_get_visible (hint_error));

  fixture_tear_down (&fixture);
}

/* The provider rows are built from their template, not in code. */
static void
test_provider_row_template (void)
{
  Fixture fixture = { 0 };
  StewardProviderRow *row;

  fixture_set_up (&fixture, FALSE);
  add_provider (&fixture, 1, "Claude", "");
  row = provider_row (&fixture, "claude");
  g_assert_true (gtk_widget_get_template_child (GTK_WIDGET (row), STEWARD_TYPE_PROVIDER_ROW,
                                                "key_row") ==
                 G_OBJECT (steward_provider_row_get_key_row (row)));
  g_assert_cmpstr (adw_preferences_row_get_title (
                     ADW_PREFERENCES_ROW (steward_provider_row_get_key_row (row))), ==,
                   "API Key");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (steward_provider_row_get_name_row (row))),
                   ==, "Claude");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (steward_provider_row_get_url_row (row))),
                   ==, "https://api.anthropic.com");
  g_assert_true (STEWARD_IS_ERROR_ROW (steward_provider_row_get_error_row (row)));
  g_assert_true (STEWARD_IS_ERROR_ROW (steward_preferences_window_get_add_error_row (
                   fixture.window)));

  fixture_tear_down (&fixture);
}

static gboolean
placeholder_shown (Fixture *fixture)
{
  GtkLabel *label = test_find_label (GTK_WIDGET (fixture->window),
                                     "No provider is set up: you write the answers");

  return label != NULL && gtk_widget_get_mapped (GTK_WIDGET (label));
}

/* The rows follow the host's list of providers as it changes, whoever
 * changes it: a row each, the one there before kept, none for the person. */
static void
test_provider_rows_bound (void)
{
  Fixture fixture = { 0 };
  g_autoptr(GError) error = NULL;
  AdwExpanderRow *first;

  fixture_set_up (&fixture, FALSE);
  g_assert_true (placeholder_shown (&fixture));
  g_assert_null (steward_preferences_window_get_provider_row (fixture.window,
                                                              STEWARD_MANUAL_PROVIDER_ID));

  g_assert_nonnull (steward_providers_put (get_providers (&fixture), "first",
                                           STEWARD_PROVIDER_KIND_OPENAI_COMPATIBLE, "First",
                                           "https://first.example.com/v1", NULL, &error));
  g_assert_no_error (error);
  first = steward_preferences_window_get_provider_row (fixture.window, "first");
  g_assert_nonnull (first);
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (first)), ==, "First");
  g_assert_false (placeholder_shown (&fixture));

  g_assert_nonnull (steward_providers_put (get_providers (&fixture), "second",
                                           STEWARD_PROVIDER_KIND_ANTHROPIC, "Second", NULL,
                                           NULL, &error));
  g_assert_no_error (error);
  g_assert_nonnull (steward_preferences_window_get_provider_row (fixture.window, "second"));
  g_assert_true (steward_preferences_window_get_provider_row (fixture.window, "first") == first);

  g_assert_true (steward_providers_remove (get_providers (&fixture), "first", &error));
  g_assert_no_error (error);
  g_assert_null (steward_preferences_window_get_provider_row (fixture.window, "first"));
  g_assert_true (steward_providers_remove (get_providers (&fixture), "second", &error));
  g_assert_no_error (error);
  g_assert_true (placeholder_shown (&fixture));

  fixture_tear_down (&fixture);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  g_setenv ("STEWARD_OLLAMA_URL", NO_OLLAMA_URL, TRUE);

  g_test_add_func ("/steward/preferences-window/provider-key", test_provider_key);
  g_test_add_func ("/steward/preferences-window/settings", test_settings);
  g_test_add_func ("/steward/preferences-window/color-scheme", test_color_scheme);
  g_test_add_func ("/steward/preferences-window/sampling-defaults", test_sampling_defaults);
  g_test_add_func ("/steward/preferences-window/ollama", test_ollama);
  g_test_add_func ("/steward/preferences-window/models", test_models);
  g_test_add_func ("/steward/preferences-window/server-models", test_server_models);
  g_test_add_func ("/steward/preferences-window/provider-error", test_provider_error);
  g_test_add_func ("/steward/preferences-window/form-errors", test_form_errors);
  g_test_add_func ("/steward/preferences-window/provider-rows-bound", test_provider_rows_bound);
  g_test_add_func ("/steward/preferences-window/provider-row-template",
                   test_provider_row_template);

  return g_test_run ();
}

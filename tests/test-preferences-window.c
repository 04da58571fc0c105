/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-preferences-window"

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "steward-preferences-window-private.h"

#define WAIT_TIMEOUT_S 20
#define OPENAI_ID "provider.openai-compatible"
#define ANTHROPIC_ID "provider.anthropic"
/* Key-shaped, and unique enough to search for. */
#define CANARY_KEY "sk-steward-test-9f8e7d6c5b4a39281706"

static const char servers_json[] =
  "{\"mcpServers\": {"
  "  \"alpha\": {\"command\": \"true\", \"disabled\": true}"
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
  SubtitleWanted not_set = { OPENAI_ID, "Not set" };
  SubtitleWanted anthropic_not_set = { ANTHROPIC_ID, "Not set" };

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

  /* Both keys are looked up as the window opens. */
  wait_until (fixture, key_subtitle_is, &not_set);
  wait_until (fixture, key_subtitle_is, &anthropic_not_set);
}

static void
fixture_tear_down (Fixture *fixture)
{
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

static void
test_provider_key (void)
{
  Fixture fixture = { 0 };
  AdwMessageDialog *dialog;
  GtkWidget *entry;
  g_autofree char *masked = steward_secret_mask (CANARY_KEY);
  g_autofree char *stored = NULL;
  SubtitleWanted shows_masked = { OPENAI_ID, masked };
  SubtitleWanted not_set = { OPENAI_ID, "Not set" };
  const char *subtitle;

  fixture_set_up (&fixture, FALSE);

  /* Set…: the dialog's password entry, then Save, as a person would. */
  gtk_widget_activate_action (GTK_WIDGET (fixture.window), "prefs.set-key", "s", OPENAI_ID);
  dialog = steward_preferences_window_get_key_dialog (fixture.window);
  g_assert_nonnull (dialog);
  g_assert_false (adw_message_dialog_get_response_enabled (dialog, "save"));
  entry = adw_message_dialog_get_extra_child (dialog);
  g_assert_true (GTK_IS_PASSWORD_ENTRY (entry));
  gtk_editable_set_text (GTK_EDITABLE (entry), CANARY_KEY);
  g_assert_true (adw_message_dialog_get_response_enabled (dialog, "save"));
  click_response (dialog, "_Save");

  wait_until (&fixture, key_subtitle_is, &shows_masked);
  subtitle = key_subtitle (&fixture, OPENAI_ID);
  g_assert_null (strstr (subtitle, CANARY_KEY));
  g_assert_null (steward_preferences_window_get_key_dialog (fixture.window));

  /* Other programs find it in the keyring under the fixed id. */
  stored = secret_tool_lookup (OPENAI_ID);
  g_assert_cmpstr (stored, ==, CANARY_KEY);
  g_assert_null (secret_tool_lookup (ANTHROPIC_ID));

  /* Clear asks first; cancelling keeps the key. */
  gtk_widget_activate_action (GTK_WIDGET (fixture.window), "prefs.clear-key", "s", OPENAI_ID);
  dialog = steward_preferences_window_get_key_dialog (fixture.window);
  g_assert_nonnull (dialog);
  g_assert_cmpstr (adw_message_dialog_get_default_response (dialog), ==, "cancel");
  click_response (dialog, "_Cancel");
  drain ();
  g_assert_cmpstr (key_subtitle (&fixture, OPENAI_ID), ==, masked);

  gtk_widget_activate_action (GTK_WIDGET (fixture.window), "prefs.clear-key", "s", OPENAI_ID);
  dialog = steward_preferences_window_get_key_dialog (fixture.window);
  click_response (dialog, "C_lear");
  wait_until (&fixture, key_subtitle_is, &not_set);
  g_assert_null (secret_tool_lookup (OPENAI_ID));

  fixture_tear_down (&fixture);
}

static void
test_settings (void)
{
  Fixture fixture = { 0 };
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(GSettingsSchema) schema = NULL;
  const char *keys[] = {
    "provider-openai-base-url", "provider-anthropic-base-url",
    "sampling-default-policy", "sampling-default-max-tokens",
    "sampling-default-per-minute", "sampling-default-daily-tokens",
    "sampling-defaults-applied", "log-min-level", "log-sources", "log-follow",
    "color-scheme",
  };
  g_autofree char *url = NULL;
  AdwActionRow *key_row;
  GtkWidget *url_row;
  guint i;

  g_object_get (settings, "settings-schema", &schema, NULL);
  for (i = 0; i < G_N_ELEMENTS (keys); i++)
    g_assert_true (g_settings_schema_has_key (schema, keys[i]));

  fixture_set_up (&fixture, FALSE);

  /* The base URL row, just above the key row, writes through to GSettings. */
  key_row = steward_preferences_window_get_key_row (fixture.window, OPENAI_ID);
  url_row = gtk_widget_get_prev_sibling (GTK_WIDGET (key_row));
  g_assert_true (ADW_IS_ENTRY_ROW (url_row));
  gtk_editable_set_text (GTK_EDITABLE (url_row), "http://localhost:11434/v1");
  url = g_settings_get_string (settings, "provider-openai-base-url");
  g_assert_cmpstr (url, ==, "http://localhost:11434/v1");
  g_settings_reset (settings, "provider-openai-base-url");

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
  g_assert_cmpint (steward_sampling_broker_get_policy (broker, "alpha"), ==,
                   STEWARD_SAMPLING_POLICY_DENY);
  g_assert_cmpuint (steward_sampling_broker_get_max_tokens (broker, "alpha"), ==, 1024);
  seen = g_settings_get_strv (settings, "sampling-defaults-applied");
  g_assert_true (g_strv_contains ((const char * const *) seen, "alpha"));

  /* Once seen, the person's own choice for it stays. */
  steward_sampling_broker_set_policy (broker, "alpha", STEWARD_SAMPLING_POLICY_ASK);
  steward_sampling_broker_set_max_tokens (broker, "alpha", STEWARD_SAMPLING_DEFAULT_MAX_TOKENS);
  steward_preferences_window_apply_sampling_defaults (fixture.host, settings);
  g_assert_cmpint (steward_sampling_broker_get_policy (broker, "alpha"), ==,
                   STEWARD_SAMPLING_POLICY_ASK);

  g_settings_reset (settings, "sampling-default-policy");
  g_settings_reset (settings, "sampling-default-max-tokens");
  g_settings_reset (settings, "sampling-defaults-applied");
  fixture_tear_down (&fixture);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/steward/preferences-window/provider-key", test_provider_key);
  g_test_add_func ("/steward/preferences-window/settings", test_settings);
  g_test_add_func ("/steward/preferences-window/color-scheme", test_color_scheme);
  g_test_add_func ("/steward/preferences-window/sampling-defaults", test_sampling_defaults);

  return g_test_run ();
}

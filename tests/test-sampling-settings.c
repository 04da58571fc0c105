/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-sampling-settings"

#include "config.h"

#include "steward-sampling-settings.h"

typedef struct {
  guint policy;
  guint max_tokens;
  guint models;
  guint configured;
  guint all;
} Counts;

static void
notify_cb (GObject    *object,
           GParamSpec *pspec,
           Counts     *counts)
{
  counts->all++;
  if (g_str_equal (pspec->name, "policy"))
    counts->policy++;
  else if (g_str_equal (pspec->name, "max-tokens"))
    counts->max_tokens++;
  else if (g_str_equal (pspec->name, "models"))
    counts->models++;
  else if (g_str_equal (pspec->name, "configured"))
    counts->configured++;
}

static void
test_defaults (void)
{
  StewardSamplingSettings *settings = steward_sampling_settings_new ("files");
  g_autofree char *server = NULL;
  StewardSamplingPolicy policy;
  guint per_minute;

  g_assert_cmpstr (steward_sampling_settings_get_server (settings), ==, "files");
  g_assert_false (steward_sampling_settings_get_configured (settings));
  g_assert_cmpint (steward_sampling_settings_get_policy (settings), ==,
                   STEWARD_SAMPLING_POLICY_ASK);
  g_assert_cmpuint (steward_sampling_settings_get_max_tokens (settings), ==,
                    STEWARD_SAMPLING_DEFAULT_MAX_TOKENS);
  g_assert_cmpuint (steward_sampling_settings_get_daily_tokens (settings), ==,
                    STEWARD_SAMPLING_DEFAULT_DAILY_TOKENS);
  g_assert_null (steward_sampling_settings_get_models (settings));
  g_assert_false (steward_sampling_settings_get_local_only (settings));

  /* The properties say the same as the getters. */
  g_object_get (settings, "server", &server, "policy", &policy, "per-minute", &per_minute, NULL);
  g_assert_cmpstr (server, ==, "files");
  g_assert_cmpint (policy, ==, STEWARD_SAMPLING_POLICY_ASK);
  g_assert_cmpuint (per_minute, ==, STEWARD_SAMPLING_DEFAULT_PER_MINUTE);

  g_assert_finalize_object (settings);
}

static void
test_notify (void)
{
  StewardSamplingSettings *settings = steward_sampling_settings_new ("files");
  const char * const models[] = { "ollama/qwen2.5:7b", NULL };
  Counts counts = { 0 };

  g_signal_connect (settings, "notify", G_CALLBACK (notify_cb), &counts);

  /* The first setter configures the server, even with the value it had. */
  steward_sampling_settings_set_max_tokens (settings, STEWARD_SAMPLING_DEFAULT_MAX_TOKENS);
  g_assert_true (steward_sampling_settings_get_configured (settings));
  g_assert_cmpuint (counts.max_tokens, ==, 0);
  g_assert_cmpuint (counts.configured, ==, 1);

  /* A change notifies once, through the setter or the property alike;
   * the same value again notifies nothing. */
  g_object_set (settings, "policy", STEWARD_SAMPLING_POLICY_DENY, NULL);
  steward_sampling_settings_set_policy (settings, STEWARD_SAMPLING_POLICY_DENY);
  g_assert_cmpuint (counts.policy, ==, 1);
  g_assert_cmpint (steward_sampling_settings_get_policy (settings), ==,
                   STEWARD_SAMPLING_POLICY_DENY);

  steward_sampling_settings_set_models (settings, models);
  steward_sampling_settings_set_models (settings, models);
  g_assert_cmpuint (counts.models, ==, 1);
  g_assert_cmpstrv (steward_sampling_settings_get_models (settings), models);
  /* An empty list is not "all models". */
  steward_sampling_settings_set_models (settings, (const char * const []) { NULL });
  g_assert_cmpuint (counts.models, ==, 2);
  g_assert_nonnull (steward_sampling_settings_get_models (settings));
  g_assert_cmpuint (counts.all, ==, 4);

  /* Reset notifies what it changed, and the server is no longer
   * configured. */
  steward_sampling_settings_reset (settings);
  g_assert_false (steward_sampling_settings_get_configured (settings));
  g_assert_cmpint (steward_sampling_settings_get_policy (settings), ==,
                   STEWARD_SAMPLING_POLICY_ASK);
  g_assert_null (steward_sampling_settings_get_models (settings));
  g_assert_cmpuint (counts.policy, ==, 2);
  g_assert_cmpuint (counts.models, ==, 3);
  g_assert_cmpuint (counts.configured, ==, 2);
  g_assert_cmpuint (counts.max_tokens, ==, 0);

  g_assert_finalize_object (settings);
}

/* What a settings page does: a widget property bound both ways. */
static void
test_binding (void)
{
  StewardSamplingSettings *settings = steward_sampling_settings_new ("files");
  StewardSamplingSettings *shown = steward_sampling_settings_new ("mirror");
  GBinding *binding;

  binding = g_object_bind_property (settings, "daily-tokens", shown, "daily-tokens",
                                    G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_assert_nonnull (binding);
  g_assert_cmpuint (steward_sampling_settings_get_daily_tokens (shown), ==,
                    STEWARD_SAMPLING_DEFAULT_DAILY_TOKENS);

  steward_sampling_settings_set_daily_tokens (settings, 30);
  g_assert_cmpuint (steward_sampling_settings_get_daily_tokens (shown), ==, 30);
  steward_sampling_settings_set_daily_tokens (shown, 40);
  g_assert_cmpuint (steward_sampling_settings_get_daily_tokens (settings), ==, 40);

  g_assert_finalize_object (settings);
  g_assert_finalize_object (shown);
}

static void
test_policy_strings (void)
{
  StewardSamplingPolicy policy;

  for (policy = STEWARD_SAMPLING_POLICY_DENY; policy <= STEWARD_SAMPLING_POLICY_ALWAYS; policy++)
    {
      const char *string = steward_sampling_policy_to_string (policy);
      StewardSamplingPolicy read = STEWARD_SAMPLING_POLICY_ASK;

      g_assert_true (steward_sampling_policy_from_string (string, &read));
      g_assert_cmpint (read, ==, policy);
    }

  g_assert_false (steward_sampling_policy_from_string ("sometimes", &policy));
  g_assert_false (steward_sampling_policy_from_string (NULL, &policy));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/steward/sampling-settings/defaults", test_defaults);
  g_test_add_func ("/steward/sampling-settings/notify", test_notify);
  g_test_add_func ("/steward/sampling-settings/binding", test_binding);
  g_test_add_func ("/steward/sampling-settings/policy-strings", test_policy_strings);

  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-sampling-settings"

#include "config.h"

#include "steward-sampling-settings.h"

struct _StewardSamplingSettings
{
  GObject                parent_instance;

  char                  *server;
  gboolean               configured;
  StewardSamplingPolicy  policy;
  guint                  max_tokens;
  guint                  per_minute;
  guint                  daily_tokens;
  char                 **models;      /* allowed model ids, NULL for all */
  gboolean               local_only;
};

enum {
  PROP_0,
  PROP_SERVER,
  PROP_CONFIGURED,
  PROP_POLICY,
  PROP_MAX_TOKENS,
  PROP_PER_MINUTE,
  PROP_DAILY_TOKENS,
  PROP_MODELS,
  PROP_LOCAL_ONLY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (StewardSamplingSettings, steward_sampling_settings, G_TYPE_OBJECT)

G_DEFINE_ENUM_TYPE (StewardSamplingPolicy, steward_sampling_policy,
  G_DEFINE_ENUM_VALUE (STEWARD_SAMPLING_POLICY_DENY, "deny"),
  G_DEFINE_ENUM_VALUE (STEWARD_SAMPLING_POLICY_ASK, "ask"),
  G_DEFINE_ENUM_VALUE (STEWARD_SAMPLING_POLICY_ALLOW_SESSION, "allow-session"),
  G_DEFINE_ENUM_VALUE (STEWARD_SAMPLING_POLICY_ALWAYS, "always"))

/* A setter's end: the value changed (or not), and the first setter makes
 * the server configured, so that it is written to policies.json. */
static void
changed (StewardSamplingSettings *self,
         GParamSpec              *pspec,
         gboolean                 value_changed)
{
  gboolean was_configured = self->configured;

  self->configured = TRUE;
  if (value_changed)
    g_object_notify_by_pspec (G_OBJECT (self), pspec);
  if (!was_configured)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONFIGURED]);
}

static void
steward_sampling_settings_finalize (GObject *object)
{
  StewardSamplingSettings *self = STEWARD_SAMPLING_SETTINGS (object);

  g_free (self->server);
  g_strfreev (self->models);

  G_OBJECT_CLASS (steward_sampling_settings_parent_class)->finalize (object);
}

static void
steward_sampling_settings_get_property (GObject    *object,
                                        guint       prop_id,
                                        GValue     *value,
                                        GParamSpec *pspec)
{
  StewardSamplingSettings *self = STEWARD_SAMPLING_SETTINGS (object);

  switch (prop_id)
    {
    case PROP_SERVER:
      g_value_set_string (value, self->server);
      break;
    case PROP_CONFIGURED:
      g_value_set_boolean (value, self->configured);
      break;
    case PROP_POLICY:
      g_value_set_enum (value, self->policy);
      break;
    case PROP_MAX_TOKENS:
      g_value_set_uint (value, self->max_tokens);
      break;
    case PROP_PER_MINUTE:
      g_value_set_uint (value, self->per_minute);
      break;
    case PROP_DAILY_TOKENS:
      g_value_set_uint (value, self->daily_tokens);
      break;
    case PROP_MODELS:
      g_value_set_boxed (value, self->models);
      break;
    case PROP_LOCAL_ONLY:
      g_value_set_boolean (value, self->local_only);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_sampling_settings_set_property (GObject      *object,
                                        guint         prop_id,
                                        const GValue *value,
                                        GParamSpec   *pspec)
{
  StewardSamplingSettings *self = STEWARD_SAMPLING_SETTINGS (object);

  switch (prop_id)
    {
    case PROP_SERVER:
      self->server = g_value_dup_string (value);
      break;
    case PROP_POLICY:
      steward_sampling_settings_set_policy (self, g_value_get_enum (value));
      break;
    case PROP_MAX_TOKENS:
      steward_sampling_settings_set_max_tokens (self, g_value_get_uint (value));
      break;
    case PROP_PER_MINUTE:
      steward_sampling_settings_set_per_minute (self, g_value_get_uint (value));
      break;
    case PROP_DAILY_TOKENS:
      steward_sampling_settings_set_daily_tokens (self, g_value_get_uint (value));
      break;
    case PROP_MODELS:
      steward_sampling_settings_set_models (self, (const char * const *) g_value_get_boxed (value));
      break;
    case PROP_LOCAL_ONLY:
      steward_sampling_settings_set_local_only (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_sampling_settings_class_init (StewardSamplingSettingsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = steward_sampling_settings_finalize;
  object_class->get_property = steward_sampling_settings_get_property;
  object_class->set_property = steward_sampling_settings_set_property;

  properties[PROP_SERVER] =
    g_param_spec_string ("server", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CONFIGURED] =
    g_param_spec_boolean ("configured", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_POLICY] =
    g_param_spec_enum ("policy", NULL, NULL, STEWARD_TYPE_SAMPLING_POLICY,
                       STEWARD_SAMPLING_POLICY_ASK, flags);
  properties[PROP_MAX_TOKENS] =
    g_param_spec_uint ("max-tokens", NULL, NULL, 1, G_MAXUINT,
                       STEWARD_SAMPLING_DEFAULT_MAX_TOKENS, flags);
  properties[PROP_PER_MINUTE] =
    g_param_spec_uint ("per-minute", NULL, NULL, 0, G_MAXUINT,
                       STEWARD_SAMPLING_DEFAULT_PER_MINUTE, flags);
  properties[PROP_DAILY_TOKENS] =
    g_param_spec_uint ("daily-tokens", NULL, NULL, 0, G_MAXUINT,
                       STEWARD_SAMPLING_DEFAULT_DAILY_TOKENS, flags);
  properties[PROP_MODELS] =
    g_param_spec_boxed ("models", NULL, NULL, G_TYPE_STRV, flags);
  properties[PROP_LOCAL_ONLY] =
    g_param_spec_boolean ("local-only", NULL, NULL, FALSE, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
steward_sampling_settings_init (StewardSamplingSettings *self)
{
  self->policy = STEWARD_SAMPLING_POLICY_ASK;
  self->max_tokens = STEWARD_SAMPLING_DEFAULT_MAX_TOKENS;
  self->per_minute = STEWARD_SAMPLING_DEFAULT_PER_MINUTE;
  self->daily_tokens = STEWARD_SAMPLING_DEFAULT_DAILY_TOKENS;
}

StewardSamplingSettings *
steward_sampling_settings_new (const char *server)
{
  g_return_val_if_fail (server != NULL, NULL);

  return g_object_new (STEWARD_TYPE_SAMPLING_SETTINGS, "server", server, NULL);
}

const char *
steward_sampling_settings_get_server (StewardSamplingSettings *self)
{
  g_return_val_if_fail (STEWARD_IS_SAMPLING_SETTINGS (self), NULL);

  return self->server;
}

gboolean
steward_sampling_settings_get_configured (StewardSamplingSettings *self)
{
  g_return_val_if_fail (STEWARD_IS_SAMPLING_SETTINGS (self), FALSE);

  return self->configured;
}

void
steward_sampling_settings_reset (StewardSamplingSettings *self)
{
  GObject *object = G_OBJECT (self);

  g_return_if_fail (STEWARD_IS_SAMPLING_SETTINGS (self));

  g_object_freeze_notify (object);

#define RESET(member, value, prop) \
  if (self->member != (value)) \
    { \
      self->member = (value); \
      g_object_notify_by_pspec (object, properties[prop]); \
    }

  RESET (policy, STEWARD_SAMPLING_POLICY_ASK, PROP_POLICY);
  RESET (max_tokens, STEWARD_SAMPLING_DEFAULT_MAX_TOKENS, PROP_MAX_TOKENS);
  RESET (per_minute, STEWARD_SAMPLING_DEFAULT_PER_MINUTE, PROP_PER_MINUTE);
  RESET (daily_tokens, STEWARD_SAMPLING_DEFAULT_DAILY_TOKENS, PROP_DAILY_TOKENS);
  RESET (local_only, FALSE, PROP_LOCAL_ONLY);
  RESET (configured, FALSE, PROP_CONFIGURED);

#undef RESET

  if (self->models != NULL)
    {
      g_clear_pointer (&self->models, g_strfreev);
      g_object_notify_by_pspec (object, properties[PROP_MODELS]);
    }

  g_object_thaw_notify (object);
}

StewardSamplingPolicy
steward_sampling_settings_get_policy (StewardSamplingSettings *self)
{
  g_return_val_if_fail (STEWARD_IS_SAMPLING_SETTINGS (self), STEWARD_SAMPLING_POLICY_DENY);

  return self->policy;
}

void
steward_sampling_settings_set_policy (StewardSamplingSettings *self,
                                      StewardSamplingPolicy    policy)
{
  gboolean value_changed;

  g_return_if_fail (STEWARD_IS_SAMPLING_SETTINGS (self));
  g_return_if_fail (policy <= STEWARD_SAMPLING_POLICY_ALWAYS);

  value_changed = self->policy != policy;
  if (self->configured && !value_changed)
    return;

  self->policy = policy;
  changed (self, properties[PROP_POLICY], value_changed);
}

guint
steward_sampling_settings_get_max_tokens (StewardSamplingSettings *self)
{
  g_return_val_if_fail (STEWARD_IS_SAMPLING_SETTINGS (self), 0);

  return self->max_tokens;
}

void
steward_sampling_settings_set_max_tokens (StewardSamplingSettings *self,
                                          guint                    max_tokens)
{
  gboolean value_changed;

  g_return_if_fail (STEWARD_IS_SAMPLING_SETTINGS (self));
  g_return_if_fail (max_tokens > 0);

  value_changed = self->max_tokens != max_tokens;
  if (self->configured && !value_changed)
    return;

  self->max_tokens = max_tokens;
  changed (self, properties[PROP_MAX_TOKENS], value_changed);
}

guint
steward_sampling_settings_get_per_minute (StewardSamplingSettings *self)
{
  g_return_val_if_fail (STEWARD_IS_SAMPLING_SETTINGS (self), 0);

  return self->per_minute;
}

/* 0 lets no request through. */
void
steward_sampling_settings_set_per_minute (StewardSamplingSettings *self,
                                          guint                    per_minute)
{
  gboolean value_changed;

  g_return_if_fail (STEWARD_IS_SAMPLING_SETTINGS (self));

  value_changed = self->per_minute != per_minute;
  if (self->configured && !value_changed)
    return;

  self->per_minute = per_minute;
  changed (self, properties[PROP_PER_MINUTE], value_changed);
}

guint
steward_sampling_settings_get_daily_tokens (StewardSamplingSettings *self)
{
  g_return_val_if_fail (STEWARD_IS_SAMPLING_SETTINGS (self), 0);

  return self->daily_tokens;
}

void
steward_sampling_settings_set_daily_tokens (StewardSamplingSettings *self,
                                            guint                    daily_tokens)
{
  gboolean value_changed;

  g_return_if_fail (STEWARD_IS_SAMPLING_SETTINGS (self));

  value_changed = self->daily_tokens != daily_tokens;
  if (self->configured && !value_changed)
    return;

  self->daily_tokens = daily_tokens;
  changed (self, properties[PROP_DAILY_TOKENS], value_changed);
}

/**
 * steward_sampling_settings_get_models:
 *
 * Returns: (transfer none) (nullable) (array zero-terminated=1): the
 *   model ids the server may use, or %NULL for all
 */
const char * const *
steward_sampling_settings_get_models (StewardSamplingSettings *self)
{
  g_return_val_if_fail (STEWARD_IS_SAMPLING_SETTINGS (self), NULL);

  return (const char * const *) self->models;
}

/**
 * steward_sampling_settings_set_models:
 * @models: (nullable) (array zero-terminated=1): model ids, or %NULL for
 *   all
 */
void
steward_sampling_settings_set_models (StewardSamplingSettings *self,
                                      const char * const      *models)
{
  gboolean value_changed;

  g_return_if_fail (STEWARD_IS_SAMPLING_SETTINGS (self));

  value_changed = !((models == NULL && self->models == NULL) ||
                    (models != NULL && self->models != NULL &&
                     g_strv_equal (models, (const char * const *) self->models)));
  if (self->configured && !value_changed)
    return;

  g_strfreev (self->models);
  self->models = g_strdupv ((char **) models);
  changed (self, properties[PROP_MODELS], value_changed);
}

gboolean
steward_sampling_settings_get_local_only (StewardSamplingSettings *self)
{
  g_return_val_if_fail (STEWARD_IS_SAMPLING_SETTINGS (self), FALSE);

  return self->local_only;
}

void
steward_sampling_settings_set_local_only (StewardSamplingSettings *self,
                                          gboolean                 local_only)
{
  gboolean value_changed;

  g_return_if_fail (STEWARD_IS_SAMPLING_SETTINGS (self));

  local_only = !!local_only;
  value_changed = self->local_only != local_only;
  if (self->configured && !value_changed)
    return;

  self->local_only = local_only;
  changed (self, properties[PROP_LOCAL_ONLY], value_changed);
}

const char *
steward_sampling_policy_to_string (StewardSamplingPolicy policy)
{
  switch (policy)
    {
    case STEWARD_SAMPLING_POLICY_DENY:
      return "deny";
    case STEWARD_SAMPLING_POLICY_ALLOW_SESSION:
      return "allow-session";
    case STEWARD_SAMPLING_POLICY_ALWAYS:
      return "always";
    case STEWARD_SAMPLING_POLICY_ASK:
    default:
      return "ask";
    }
}

gboolean
steward_sampling_policy_from_string (const char            *string,
                                     StewardSamplingPolicy *policy)
{
  static const StewardSamplingPolicy all[] = {
    STEWARD_SAMPLING_POLICY_DENY,
    STEWARD_SAMPLING_POLICY_ASK,
    STEWARD_SAMPLING_POLICY_ALLOW_SESSION,
    STEWARD_SAMPLING_POLICY_ALWAYS,
  };

  g_return_val_if_fail (policy != NULL, FALSE);

  for (guint i = 0; string != NULL && i < G_N_ELEMENTS (all); i++)
    if (g_str_equal (string, steward_sampling_policy_to_string (all[i])))
      {
        *policy = all[i];
        return TRUE;
      }

  return FALSE;
}

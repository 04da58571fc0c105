/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef enum {
  STEWARD_SAMPLING_POLICY_DENY,
  STEWARD_SAMPLING_POLICY_ASK,            /* the default */
  STEWARD_SAMPLING_POLICY_ALLOW_SESSION,  /* stage 1 skipped until Steward quits */
  STEWARD_SAMPLING_POLICY_ALWAYS,         /* stage 1 skipped, remembered */
} StewardSamplingPolicy;

#define STEWARD_SAMPLING_DEFAULT_MAX_TOKENS   4096
#define STEWARD_SAMPLING_DEFAULT_PER_MINUTE   5
#define STEWARD_SAMPLING_DEFAULT_DAILY_TOKENS 100000

#define STEWARD_TYPE_SAMPLING_POLICY (steward_sampling_policy_get_type ())

GType steward_sampling_policy_get_type (void) G_GNUC_CONST;

const char *steward_sampling_policy_to_string   (StewardSamplingPolicy  policy);
gboolean    steward_sampling_policy_from_string (const char            *string,
                                                 StewardSamplingPolicy *policy);

#define STEWARD_TYPE_SAMPLING_SETTINGS (steward_sampling_settings_get_type ())

G_DECLARE_FINAL_TYPE (StewardSamplingSettings, steward_sampling_settings, STEWARD, SAMPLING_SETTINGS, GObject)

/*
 * What the person chose for one server's sampling requests: the policy,
 * the maxTokens cap, the requests per minute (0 lets none through), the
 * daily token budget, the models that may answer (NULL for all of the
 * catalogue's; empty for none, so that the person writes the answer) and
 * whether only models on this computer may. Each is a property that
 * notifies when it changes. "configured" turns TRUE with the first
 * setter, even one that keeps the value: only configured servers are
 * written to policies.json.
 */
StewardSamplingSettings *steward_sampling_settings_new              (const char               *server);

const char              *steward_sampling_settings_get_server       (StewardSamplingSettings  *self);
gboolean                 steward_sampling_settings_get_configured   (StewardSamplingSettings  *self);
/* Back to the defaults, and not configured. */
void                     steward_sampling_settings_reset            (StewardSamplingSettings  *self);

StewardSamplingPolicy    steward_sampling_settings_get_policy       (StewardSamplingSettings  *self);
void                     steward_sampling_settings_set_policy       (StewardSamplingSettings  *self,
                                                                     StewardSamplingPolicy     policy);
guint                    steward_sampling_settings_get_max_tokens   (StewardSamplingSettings  *self);
void                     steward_sampling_settings_set_max_tokens   (StewardSamplingSettings  *self,
                                                                     guint                     max_tokens);
guint                    steward_sampling_settings_get_per_minute   (StewardSamplingSettings  *self);
void                     steward_sampling_settings_set_per_minute   (StewardSamplingSettings  *self,
                                                                     guint                     per_minute);
guint                    steward_sampling_settings_get_daily_tokens (StewardSamplingSettings  *self);
void                     steward_sampling_settings_set_daily_tokens (StewardSamplingSettings  *self,
                                                                     guint                     daily_tokens);
const char * const      *steward_sampling_settings_get_models       (StewardSamplingSettings  *self);
void                     steward_sampling_settings_set_models       (StewardSamplingSettings  *self,
                                                                     const char * const       *models);
gboolean                 steward_sampling_settings_get_local_only   (StewardSamplingSettings  *self);
void                     steward_sampling_settings_set_local_only   (StewardSamplingSettings  *self,
                                                                     gboolean                  local_only);

G_END_DECLS

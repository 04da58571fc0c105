/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "steward-http-provider.h"
#include "steward-secrets.h"

G_BEGIN_DECLS

/*
 * Anthropic's Messages API. @base_url (nullable) defaults to
 * https://api.anthropic.com; requests go to {base}/v1/messages with the
 * key named by @key_id sent as "x-api-key".
 */

#define STEWARD_ANTHROPIC_DEFAULT_BASE_URL "https://api.anthropic.com"

#define STEWARD_TYPE_ANTHROPIC_PROVIDER (steward_anthropic_provider_get_type ())

G_DECLARE_FINAL_TYPE (StewardAnthropicProvider, steward_anthropic_provider, STEWARD,
                      ANTHROPIC_PROVIDER, StewardHttpProvider)

StewardAnthropicProvider *steward_anthropic_provider_new (const char     *id,
                                                          const char     *name,
                                                          const char     *base_url,
                                                          const char     *key_id,
                                                          StewardSecrets *secrets);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "steward-http-provider.h"
#include "steward-secrets.h"

G_BEGIN_DECLS

/*
 * An OpenAI-compatible chat completions back end: OpenAI itself, Ollama's
 * /v1, llama.cpp's server, vLLM, DeepSeek, Qwen (DashScope) and the like.
 * @base_url is where /chat/completions and /models live, such as
 * http://localhost:11434/v1; @key_id (nullable) names the API key in the
 * keyring, read for each request and sent as "Authorization: Bearer".
 */

#define STEWARD_TYPE_OPENAI_PROVIDER (steward_openai_provider_get_type ())

G_DECLARE_FINAL_TYPE (StewardOpenaiProvider, steward_openai_provider, STEWARD, OPENAI_PROVIDER,
                      StewardHttpProvider)

StewardOpenaiProvider *steward_openai_provider_new (const char     *id,
                                                    const char     *name,
                                                    const char     *base_url,
                                                    const char     *key_id,
                                                    StewardSecrets *secrets);

G_END_DECLS

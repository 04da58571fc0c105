/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "steward-approvals.h"
#include "steward-chat-engine.h"
#include "steward-config.h"
#include "steward-conversation-store.h"
#include "steward-log-store.h"
#include "steward-model-catalog.h"
#include "steward-providers.h"
#include "steward-roots.h"
#include "steward-sampling-broker.h"
#include "steward-secrets.h"
#include "steward-server-registry.h"
#include "steward-tool-pins.h"

G_BEGIN_DECLS

/*
 * The host: owns one of each host object and wires them. The app makes one
 * at start; tests make one over temporary folders.
 *
 * Files: servers.json, roots.json, policies.json, consents.json,
 * pins.json, providers.json and models.json in @config_dir
 * ($XDG_CONFIG_HOME/steward by default); audit.jsonl in @state_dir
 * ($XDG_STATE_HOME/steward by default, ~/.local/state/steward); the
 * conversations in "data-dir"/conversations ($XDG_DATA_HOME/steward by
 * default; a construct property, for tests).
 */

#define STEWARD_TYPE_HOST (steward_host_get_type ())

G_DECLARE_FINAL_TYPE (StewardHost, steward_host, STEWARD, HOST, GObject)

StewardHost           *steward_host_new                (GFile         *config_dir,
                                                        GFile         *state_dir);
GFile                 *steward_host_get_config_dir     (StewardHost   *self);
GFile                 *steward_host_get_state_dir      (StewardHost   *self);
StewardConfig         *steward_host_get_config         (StewardHost   *self);
StewardSecrets        *steward_host_get_secrets        (StewardHost   *self);
StewardConsentStore   *steward_host_get_consent_store  (StewardHost   *self);
StewardServerRegistry *steward_host_get_registry       (StewardHost   *self);
StewardServerContext  *steward_host_get_server_context (StewardHost  *self);
StewardRoots          *steward_host_get_roots          (StewardHost   *self);
StewardLogStore       *steward_host_get_log_store      (StewardHost   *self);
StewardApprovals      *steward_host_get_approvals      (StewardHost   *self);
StewardSamplingBroker *steward_host_get_sampling_broker (StewardHost  *self);
GFile                 *steward_host_get_data_dir       (StewardHost   *self);
StewardProviders      *steward_host_get_providers      (StewardHost   *self);
StewardModelCatalog   *steward_host_get_model_catalog  (StewardHost   *self);
StewardToolPins       *steward_host_get_tool_pins      (StewardHost   *self);
StewardConversationStore *steward_host_get_conversations (StewardHost *self);
StewardChatEngine     *steward_host_get_chat_engine    (StewardHost   *self);
/* Whether steward_host_start() has finished loading ("started" notifies). */
gboolean               steward_host_get_started        (StewardHost   *self);

/* Loads the servers file, roots and policies (a damaged file is reported
 * as a host event in the log and kept aside as NAME.damaged, never
 * overwritten silently), starts watching the servers file for external
 * edits, and starts the enabled servers. The providers, the model
 * catalogue, the tool pins and the conversations load beside, reported
 * the same way. */
void                   steward_host_start              (StewardHost   *self);
/* Stops every server (5 s at most), and writes the conversations, pins
 * and providers still waiting to be saved. */
void                   steward_host_shutdown_async     (StewardHost          *self,
                                                        GCancellable         *cancellable,
                                                        GAsyncReadyCallback   callback,
                                                        gpointer              user_data);
gboolean               steward_host_shutdown_finish    (StewardHost          *self,
                                                        GAsyncResult         *result,
                                                        GError              **error);

G_END_DECLS

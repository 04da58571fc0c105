/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "steward-approvals.h"
#include "steward-config.h"
#include "steward-log-store.h"
#include "steward-roots.h"
#include "steward-sampling-broker.h"
#include "steward-secrets.h"

G_BEGIN_DECLS

/*
 * What every server is handed when it is made (docs/ARCHITECTURE.md §3):
 * the config it saves its entry and consent to, the keyring, the shared
 * folders, the log store it writes to, the approvals it asks through and
 * the sampling broker its sampling requests go to. The host owns these
 * and builds the context once; the registry passes it to each server, so
 * that neither reaches back into the host.
 */

#define STEWARD_TYPE_SERVER_CONTEXT (steward_server_context_get_type ())

G_DECLARE_FINAL_TYPE (StewardServerContext, steward_server_context, STEWARD, SERVER_CONTEXT, GObject)

StewardServerContext  *steward_server_context_new             (StewardConfig         *config,
                                                               StewardSecrets        *secrets,
                                                               StewardRoots          *roots,
                                                               StewardLogStore       *log_store,
                                                               StewardApprovals      *approvals,
                                                               StewardSamplingBroker *broker);
StewardConfig         *steward_server_context_get_config      (StewardServerContext  *self);
StewardSecrets        *steward_server_context_get_secrets     (StewardServerContext  *self);
StewardRoots          *steward_server_context_get_roots       (StewardServerContext  *self);
StewardLogStore       *steward_server_context_get_log_store   (StewardServerContext  *self);
StewardApprovals      *steward_server_context_get_approvals   (StewardServerContext  *self);
StewardSamplingBroker *steward_server_context_get_broker      (StewardServerContext  *self);

G_END_DECLS

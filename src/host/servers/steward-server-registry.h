/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "steward-server.h"

G_BEGIN_DECLS

/*
 * The GListModel of StewardServer, one per entry of the servers file,
 * sorted by name. It follows StewardConfig: a new entry adds a server (and
 * starts it unless disabled), a removed entry stops and removes it, a
 * changed entry is handed to steward_server_set_config().
 */

#define STEWARD_TYPE_SERVER_REGISTRY (steward_server_registry_get_type ())

G_DECLARE_FINAL_TYPE (StewardServerRegistry, steward_server_registry, STEWARD, SERVER_REGISTRY, GObject)

StewardServerRegistry *steward_server_registry_new            (StewardServerContext  *context);
StewardServer         *steward_server_registry_lookup         (StewardServerRegistry *self,
                                                               const char            *name);
/* Creates, updates and removes servers to match the config's entries;
 * starts the new enabled ones when @autostart. */
void                   steward_server_registry_sync           (StewardServerRegistry *self,
                                                               gboolean               autostart);
void                   steward_server_registry_stop_all_async (StewardServerRegistry *self,
                                                               GCancellable          *cancellable,
                                                               GAsyncReadyCallback    callback,
                                                               gpointer               user_data);
gboolean               steward_server_registry_stop_all_finish (StewardServerRegistry *self,
                                                                GAsyncResult          *result,
                                                                GError               **error);

G_END_DECLS

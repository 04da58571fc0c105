/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "steward-secrets.h"
#include "steward-server-config.h"

G_BEGIN_DECLS

/*
 * The keyring entries a server's configuration refers to ("${keyring:ID}"
 * in its environment or headers), and forgetting those no entry needs any
 * more once the server is edited or removed.
 */

/* A set of keyring ids (char *), which may be empty. */
GHashTable *steward_server_config_dup_secret_ids  (StewardServerConfig  *config);

void        steward_secrets_forget_unused_async   (StewardSecrets       *secrets,
                                                   StewardServerConfig  *before,
                                                   StewardServerConfig  *after,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
/* How many secrets were cleared (or were gone already). */
guint       steward_secrets_forget_unused_finish  (StewardSecrets       *secrets,
                                                   GAsyncResult         *result,
                                                   GError              **error);

G_END_DECLS

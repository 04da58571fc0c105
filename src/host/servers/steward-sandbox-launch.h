/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-stdio-transport.h"
#include "steward-sandbox-profile.h"

G_BEGIN_DECLS

/* The transport that starts a local server with @profile's permissions:
 * through flatpak-spawn when Steward runs in Flatpak, under bubblewrap
 * otherwise, or as it is when the profile has full access. @env (name →
 * value, nullable) holds the server's configured variables, keyring
 * secrets among them: they go through the environment, never the
 * arguments. Fails, saying why and what to do, when the sandbox cannot run
 * here; the server is then not started unconfined. */
McpStdioTransport *steward_sandbox_launch_new_transport (StewardSandboxProfile  *profile,
                                                         const char * const     *argv,
                                                         const char             *cwd,
                                                         GHashTable             *env,
                                                         GError                **error);

/* The sandbox's state for the consent dialog: NULL where it can run, or
 * why it cannot (the person may then choose full access). */
char              *steward_sandbox_launch_dup_unavailable (void);

/* The permissions a local server's entry gives, for the consent request:
 * {"permissions": [sentence…], "network": {"allowed": bool, "reason": why
 * it is on or off by default}, "unavailable": why}. In a sandbox the
 * network is not among the sentences: "network" stands for it, as a
 * switch. "unavailable" is there only where the sandbox cannot run and the
 * entry does not ask for full access. */
JsonObject        *steward_sandbox_launch_describe (StewardServerConfig *config);

G_END_DECLS

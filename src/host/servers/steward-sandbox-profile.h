/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "steward-server-config.h"

G_BEGIN_DECLS

/*
 * What a local server may do from its sandbox, decided in one place from
 * its entry and the roots shared with it. Both launchers (bubblewrap,
 * steward-bwrap.h, and flatpak-spawn, steward-sandbox.h) are built from a
 * profile, and the consent dialog and the server's page describe it with
 * steward_sandbox_profile_dup_descriptions(), so that what a person reads
 * is what the sandbox does.
 */

#define STEWARD_TYPE_SANDBOX_PROFILE (steward_sandbox_profile_get_type ())

G_DECLARE_FINAL_TYPE (StewardSandboxProfile, steward_sandbox_profile, STEWARD, SANDBOX_PROFILE,
                      GObject)

/* From a local server's entry; @roots are the folders shared with it (read
 * and write), NULL when not known (the consent dialog). */
StewardSandboxProfile *steward_sandbox_profile_new                (StewardServerConfig   *config,
                                                                   const char * const    *roots);
/* No sandbox at all (`steward-cli --no-sandbox`). */
StewardSandboxProfile *steward_sandbox_profile_new_unconfined     (void);

gboolean               steward_sandbox_profile_get_full_access    (StewardSandboxProfile *self);
gboolean               steward_sandbox_profile_get_network        (StewardSandboxProfile *self);
/* Whether the network was left to the default (no "network" in the entry). */
gboolean               steward_sandbox_profile_network_is_default (StewardSandboxProfile *self);
gboolean               steward_sandbox_profile_get_display        (StewardSandboxProfile *self);
/* Folders the server reads and writes: its roots. */
const char * const    *steward_sandbox_profile_get_writable       (StewardSandboxProfile *self);
/* Paths it may read: the entry's "readable", its command and working
 * folder when absolute, and every absolute path among its arguments. */
const char * const    *steward_sandbox_profile_get_readable       (StewardSandboxProfile *self);
/* Its own folder, its home in the sandbox (npm and uv caches go there). */
const char            *steward_sandbox_profile_get_state_dir      (StewardSandboxProfile *self);

/* The permissions in words, one sentence each, for the consent dialog and
 * the server's page. */
char                 **steward_sandbox_profile_dup_descriptions   (StewardSandboxProfile *self);
/* The same without the network's sentence, where a switch stands for it. */
char                 **steward_sandbox_profile_dup_descriptions_but_network
                                                                  (StewardSandboxProfile *self);

/* Why the network is on or off by default for this server, for the
 * switch that changes it (the consent dialog). */
char                  *steward_sandbox_profile_dup_network_reason (StewardSandboxProfile *self);

/* Whether the network is on by default for a command: package runners
 * (npx, uvx, …) download the server when it starts. */
gboolean               steward_sandbox_default_network            (const char            *command);

/* What consent covers of the sandbox: adds to @builder (inside the
 * fingerprint's array) the permissions @config sets, nothing when it sets
 * none. */
void                   steward_sandbox_profile_add_to_fingerprint (StewardServerConfig   *config,
                                                                   JsonBuilder           *builder);

G_END_DECLS

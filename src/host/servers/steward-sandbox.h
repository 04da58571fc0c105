/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "steward-sandbox-profile.h"

G_BEGIN_DECLS

/*
 * Local servers when Steward itself runs in Flatpak (docs/SECURITY.md,
 * "Commands, consent and the sandbox"). A server is started through `flatpak-spawn --sandbox`, the
 * Flatpak portal's spawn: a new sandbox of Steward's own app and runtime
 * that sees none of Steward's data, config or keyring, has no session bus,
 * and sees only the folders exposed to it, the server's roots. Its network
 * is off unless the person allowed it for that server. `flatpak-spawn
 * --host`, full access to the person's computer, is used only when the
 * person asked for it and granted Steward the permission it takes.
 *
 * Outside Flatpak, bubblewrap does the same (steward-bwrap.h); both are
 * built from the server's StewardSandboxProfile, and
 * steward-sandbox-launch.h picks between them.
 */

/* Where Flatpak describes the sandbox to the app inside it. */
#define STEWARD_SANDBOX_INFO_FILE "/.flatpak-info"

gboolean     steward_sandbox_is_flatpak            (void);
/* Whether this instance may talk to org.freedesktop.Flatpak, which
 * `flatpak-spawn --host` needs: read once from the info file, as a running
 * sandbox never gains or loses a permission. */
gboolean     steward_sandbox_can_spawn_on_host     (void);
/* The same for the text of an info file (a key file), for tests. */
gboolean     steward_sandbox_info_allows_host      (const char          *info,
                                                    gssize               length);

/* The session's variables a sandboxed server gets, picked from @parent_env
 * (such as g_get_environ()): home, user, locale, time zone and terminal.
 * The sandbox sets its own PATH; Steward's XDG folders, display and bus
 * are not the server's, and of the LC_ variables only the locale's
 * categories pass. Returns a table of name → value. */
GHashTable  *steward_sandbox_dup_session_env       (const char * const  *parent_env);

/* The argument vector that starts @argv through flatpak-spawn, never
 * through a shell:
 *
 *   flatpak-spawn --sandbox [--sandbox-expose-path=ROOT]… [--no-network]
 *                 --watch-bus --clear-env [--directory=CWD]
 *                 [--env=NAME=VALUE]… -- PROGRAM ARG…
 *   flatpak-spawn --host --watch-bus [--directory=CWD]
 *                 [--env=NAME=VALUE]… -- PROGRAM ARG…
 *
 * @session_env (name → value, nullable) goes into the arguments, sorted by
 * name: it holds nothing secret. The variables named in @passed (the
 * server's configured ones, which may be keyring secrets) never do: when
 * there are any, the vector starts with the steward-sandbox-env helper,
 * which takes their values from its own environment (set them on the
 * transport) and hands them to flatpak-spawn through a file descriptor
 * (--env-fd). */
char       **steward_sandbox_wrap_argv             (const char * const  *argv,
                                                    const char * const  *roots,
                                                    const char          *cwd,
                                                    GHashTable          *session_env,
                                                    const char * const  *passed,
                                                    gboolean             allow_network,
                                                    gboolean             on_host);

/* The same from a profile: its roots, network and full access, and its
 * granted paths read-only (--sandbox-expose-path-ro). */
char       **steward_sandbox_wrap_profile_argv     (StewardSandboxProfile *profile,
                                                    const char * const  *argv,
                                                    const char          *cwd,
                                                    GHashTable          *session_env,
                                                    const char * const  *passed);

/* "`uvx` is not available inside the Flatpak: …", with what to do. */
char        *steward_sandbox_diagnose_missing      (const char          *program);
/* Why a server that should run on the host cannot, and the command that
 * grants Steward the permission. */
char        *steward_sandbox_diagnose_no_host      (void);

/* Tests stand in for Flatpak: another info file (NULL: the real one) and
 * another helper program (NULL: the installed one). */
void         steward_sandbox_set_paths_for_testing (const char          *info_file_path,
                                                    const char          *env_helper_path);

G_END_DECLS

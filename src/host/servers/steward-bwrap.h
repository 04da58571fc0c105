/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "steward-sandbox-profile.h"

G_BEGIN_DECLS

/*
 * Local servers outside Flatpak run under bubblewrap, built from their
 * StewardSandboxProfile:
 *
 *   bwrap --ro-bind / / --dev /dev --proc /proc
 *         --tmpfs /tmp --tmpfs /var/tmp --tmpfs /run --tmpfs HOME…
 *         --bind STATE STATE [--ro-bind-try PATH PATH]… [--bind-try ROOT ROOT]…
 *         --unshare-pid --unshare-ipc --unshare-uts --unshare-cgroup-try
 *         [--unshare-net] --new-session --die-with-parent --cap-drop ALL
 *         --setenv HOME STATE --unsetenv NAME… --chdir DIR -- PROGRAM ARG…
 *
 * The system is seen read-only; every home folder, /tmp, /run (the
 * session's bus, keyring and display sockets) and removable media are
 * hidden, and only the server's own folder, its roots and the paths it was
 * granted are mounted back. The server's variables come through the
 * environment, never the arguments.
 */

#define STEWARD_BWRAP_ERROR (steward_bwrap_error_quark ())

typedef enum {
  STEWARD_BWRAP_ERROR_MISSING,
  STEWARD_BWRAP_ERROR_NO_NAMESPACES,
} StewardBwrapError;

GQuark    steward_bwrap_error_quark          (void);

/* Whether bubblewrap is installed and user namespaces let it run; the
 * error says why not and what the person can do. Reads a few files under
 * /proc, never starts a program. */
gboolean  steward_bwrap_check                (GError                **error);

/* The vector that starts @argv under bubblewrap with @profile's
 * permissions; @cwd (nullable) is the folder to start in, @parent_env the
 * environment the server would get (for the display's sockets). */
char    **steward_bwrap_wrap_argv            (StewardSandboxProfile  *profile,
                                              const char * const     *argv,
                                              const char             *cwd,
                                              const char * const     *parent_env);

/* Tests: another bwrap program (NULL: the installed one). */
void      steward_bwrap_set_program_for_testing (const char          *program);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-client-delegate.h"

#include "steward-cli-options.h"

G_BEGIN_DECLS

/* Symbolic links followed for one root before it is taken as a loop. */
#define STEWARD_CLI_MAX_SYMLINKS 40

#define STEWARD_TYPE_CLI_DELEGATE (steward_cli_delegate_get_type ())

G_DECLARE_FINAL_TYPE (StewardCliDelegate, steward_cli_delegate, STEWARD, CLI_DELEGATE, GObject)

StewardCliDelegate  *steward_cli_delegate_new        (StewardCliSampling      sampling,
                                                      StewardCliElicitation   elicitation,
                                                      GInputStream           *input);
gboolean             steward_cli_delegate_add_root   (StewardCliDelegate     *self,
                                                      const char             *path,
                                                      GError                **error);
GFile               *steward_cli_canonicalize_folder (const char             *path,
                                                      GError                **error);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "steward-cli-options.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_CLI_RUNNER (steward_cli_runner_get_type ())

G_DECLARE_FINAL_TYPE (StewardCliRunner, steward_cli_runner, STEWARD, CLI_RUNNER, GObject)

StewardCliRunner  *steward_cli_runner_new   (StewardCliOptions  *options);
int                steward_cli_runner_run   (StewardCliRunner   *self);

int                steward_cli_main         (int                 argc,
                                             char              **argv);

G_END_DECLS

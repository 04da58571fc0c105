/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "steward-server-config.h"

G_BEGIN_DECLS

/*
 * How a command is written for a person who must decide whether to run it:
 * every value in double quotes, so that spaces, empty arguments and
 * trailing blanks are visible, and every character that would not show or
 * would mislead (controls, zero-width and bidi characters, unusual spaces,
 * bytes that are not UTF-8) spelled out as an escape.
 */

char  *steward_command_quote          (const char          *text);
/* The whole entry, one item per line: program, each argument, the working
 * folder and the names of the environment variables (never their values),
 * or the URL and the names of the headers. */
char  *steward_command_format_config  (StewardServerConfig *config);

G_END_DECLS

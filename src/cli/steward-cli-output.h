/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * The only way steward-cli writes to the terminal. Whatever is printed,
 * ours or a server's, passes here last: the exact values of secrets the
 * keyring gave for the server are redacted on both streams, secret-shaped
 * text too on stderr (diagnostics, the server's stderr, errors), and then
 * every control, bidi, zero-width or tag character is made visible
 * (steward_text_for_terminal()), so that no server can steer the terminal
 * or hide text on it, whichever path its text took.
 */

void  steward_cli_print_out  (const char *text);
void  steward_cli_print_err  (const char *text);
/* "steward-cli: MESSAGE" on stderr; the message is one line. */
void  steward_cli_complain   (const char *format,
                              ...) G_GNUC_PRINTF (1, 2);

/* For g_log_set_writer_func(), before anything logs. */
GLogWriterOutput steward_cli_log_writer (GLogLevelFlags   log_level,
                                         const GLogField *fields,
                                         gsize            n_fields,
                                         gpointer         user_data);

G_END_DECLS

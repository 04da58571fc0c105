/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-cli"

#include "config.h"

#include <stdio.h>
#include <string.h>

#include "steward-redactor.h"
#include "steward-text.h"

#include "steward-cli-output.h"

static void
write_clean (FILE       *stream,
             const char *text,
             gboolean    redact_shapes)
{
  g_autofree char *redacted = NULL;
  g_autofree char *clean = NULL;

  if (text == NULL)
    return;

  /* Results on stdout are what the person asked for and stay whole but
   * for the keyring's values; everything on stderr is a log. */
  if (redact_shapes)
    redacted = steward_redact (text);
  else
    redacted = steward_redact_secrets_if_needed (text, strlen (text));

  clean = steward_text_for_terminal (redacted != NULL ? redacted : text, TRUE);
  fputs (clean, stream);
  fflush (stream);
}

/**
 * steward_cli_print_out:
 * @text: (nullable): what to print on stdout
 */
void
steward_cli_print_out (const char *text)
{
  write_clean (stdout, text, FALSE);
}

/**
 * steward_cli_print_err:
 * @text: (nullable): what to print on stderr
 */
void
steward_cli_print_err (const char *text)
{
  write_clean (stderr, text, TRUE);
}

void
steward_cli_complain (const char *format,
                      ...)
{
  g_autofree char *message = NULL;
  g_autofree char *one_line = NULL;
  g_autofree char *line = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  /* An error may quote a server's stderr; its lines must not pass for
   * lines of ours. */
  one_line = steward_text_for_terminal (g_strstrip (message), FALSE);
  line = g_strdup_printf ("steward-cli: %s\n", one_line);
  steward_cli_print_err (line);
}

/**
 * steward_cli_log_writer:
 *
 * GLib's messages (warnings, and debug output when G_MESSAGES_DEBUG asks
 * for it) quote servers too, so they take the same way out.
 */
GLogWriterOutput
steward_cli_log_writer (GLogLevelFlags   log_level,
                        const GLogField *fields,
                        gsize            n_fields,
                        gpointer         user_data)
{
  g_autofree char *text = NULL;
  const char *domain = NULL;

  for (gsize i = 0; i < n_fields; i++)
    if (g_str_equal (fields[i].key, "GLIB_DOMAIN"))
      domain = fields[i].value;

  if (g_log_writer_default_would_drop (log_level, domain))
    return G_LOG_WRITER_HANDLED;

  text = g_log_writer_format_fields (log_level, fields, n_fields, FALSE);
  steward_cli_print_err (text);
  steward_cli_print_err ("\n");

  return G_LOG_WRITER_HANDLED;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-command-text"

#include "config.h"

#include <glib/gi18n.h>
#include <stdlib.h>
#include <string.h>

#include "steward-command-text.h"

static gboolean
needs_escape (gunichar c)
{
  if (c == ' ')
    return FALSE;

  switch (g_unichar_type (c))
    {
    case G_UNICODE_CONTROL:
    case G_UNICODE_FORMAT:
    case G_UNICODE_UNASSIGNED:
    case G_UNICODE_PRIVATE_USE:
    case G_UNICODE_SURROGATE:
    case G_UNICODE_LINE_SEPARATOR:
    case G_UNICODE_PARAGRAPH_SEPARATOR:
    case G_UNICODE_SPACE_SEPARATOR:
      return TRUE;
    default:
      return FALSE;
    }
}

char *
steward_command_quote (const char *text)
{
  GString *out = g_string_new ("\"");
  const char *p = text != NULL ? text : "";
  const char *end = p + strlen (p);

  while (p < end)
    {
      gunichar c = g_utf8_get_char_validated (p, end - p);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          g_string_append_printf (out, "\\x%02X", (guchar) *p);
          p++;
          continue;
        }

      if (c == '"' || c == '\\')
        g_string_append_printf (out, "\\%c", (char) c);
      else if (c == '\n')
        g_string_append (out, "\\n");
      else if (c == '\t')
        g_string_append (out, "\\t");
      else if (c == '\r')
        g_string_append (out, "\\r");
      else if (needs_escape (c))
        g_string_append_printf (out, "\\u{%04X}", c);
      else
        g_string_append_unichar (out, c);

      p = g_utf8_next_char (p);
    }

  g_string_append_c (out, '"');

  return g_string_free (out, FALSE);
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

static void
append_names (GString    *out,
              const char *label,
              GHashTable *table)
{
  g_autofree const char **names = NULL;
  guint n = 0;

  if (table == NULL || g_hash_table_size (table) == 0)
    return;

  names = (const char **) g_hash_table_get_keys_as_array (table, &n);
  qsort (names, n, sizeof (char *), compare_strings);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *quoted = steward_command_quote (names[i]);

      g_string_append_printf (out, "%s %s\n", label, quoted);
    }
}

char *
steward_command_format_config (StewardServerConfig *config)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (STEWARD_IS_SERVER_CONFIG (config), NULL);

  if (steward_server_config_is_remote (config))
    {
      g_autofree char *url = steward_command_quote (steward_server_config_get_url (config));

      /* Translators: one line of a server's description; a URL in quotes follows. */
      g_string_append_printf (out, "%s %s\n", _("URL:"), url);
      /* Translators: a header's name in quotes follows; its value is never shown. */
      append_names (out, _("Header (value hidden):"), steward_server_config_get_headers (config));
    }
  else
    {
      const char * const *args = steward_server_config_get_args (config);
      const char *cwd = steward_server_config_get_cwd (config);
      g_autofree char *program = steward_command_quote (steward_server_config_get_command (config));

      /* Translators: one line of a command; the program's name in quotes follows. */
      g_string_append_printf (out, "%s %s\n", _("Program:"), program);
      for (guint i = 0; args != NULL && args[i] != NULL; i++)
        {
          g_autofree char *arg = steward_command_quote (args[i]);

          /* Translators: one line of a command; one argument in quotes follows. */
          g_string_append_printf (out, "%s %s\n", _("Argument:"), arg);
        }
      if (cwd != NULL && cwd[0] != '\0')
        {
          g_autofree char *folder = steward_command_quote (cwd);

          /* Translators: the folder the program runs in, in quotes, follows. */
          g_string_append_printf (out, "%s %s\n", _("Working folder:"), folder);
        }
      /* Translators: an environment variable's name in quotes follows; its
       * value is never shown. */
      append_names (out, _("Variable (value hidden):"), steward_server_config_get_env (config));
    }

  if (out->len > 0)
    g_string_truncate (out, out->len - 1);

  return g_string_free (out, FALSE);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "steward-error.h"

gboolean
steward_fail (GError     **error,
              GQuark       domain,
              gint         code,
              const char  *format,
              ...)
{
  va_list args;

  va_start (args, format);
  g_propagate_error (error, g_error_new_valist (domain, code, format, args));
  va_end (args);

  return FALSE;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Sets @error, where the caller wants one, and returns %FALSE: for the
 * validators that stop at the first thing wrong and say what it was. */
gboolean steward_fail (GError     **error,
                       GQuark       domain,
                       gint         code,
                       const char  *format,
                       ...) G_GNUC_PRINTF (4, 5);

G_END_DECLS

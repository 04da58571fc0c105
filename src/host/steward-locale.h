/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Where the translations are, for the programs' bindtextdomain(). Run from
 * the build tree (build-aux/run, the end-to-end tests, `meson devenv`),
 * nothing is installed in LOCALEDIR yet, and STEWARD_LOCALEDIR names the
 * folder meson builds the catalogues in. Needs config.h. */
static inline const char *
steward_locale_dir (void)
{
  const char *dir = g_getenv ("STEWARD_LOCALEDIR");

  return dir != NULL && *dir != '\0' ? dir : LOCALEDIR;
}

G_END_DECLS

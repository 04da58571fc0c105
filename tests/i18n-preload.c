/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Loaded into the app with LD_PRELOAD by tests/e2e/test-i18n-app.py. The
 * app binds its text domain to the LOCALEDIR it will be installed with,
 * which holds no catalogue while it runs from the build tree: this points
 * the one domain named by STEWARD_TEST_TEXTDOMAIN at STEWARD_TEST_LOCALEDIR,
 * where meson builds the catalogues, and leaves every other domain alone. */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <libintl.h>
#include <stdlib.h>
#include <string.h>

typedef char *(*BindFunc) (const char *domainname,
                           const char *dirname);

char *
bindtextdomain (const char *domainname,
                const char *dirname)
{
  static BindFunc real_bindtextdomain;
  const char *domain = getenv ("STEWARD_TEST_TEXTDOMAIN");
  const char *dir = getenv ("STEWARD_TEST_LOCALEDIR");

  if (real_bindtextdomain == NULL)
    *(void **) &real_bindtextdomain = dlsym (RTLD_NEXT, "bindtextdomain");

  if (domainname != NULL && dirname != NULL && domain != NULL && dir != NULL &&
      strcmp (domainname, domain) == 0)
    dirname = dir;

  return real_bindtextdomain (domainname, dirname);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-app-view"

#include "config.h"

#include "steward-app-view.h"
#include "steward-app-view-module.h"

/*
 * How the views reach the rest of the app (steward-app-view-module.h): as
 * soon as their code is in the process, whether loaded as the module or
 * linked into a test program, they register themselves.
 */

static void
set_result (GtkWidget     *view,
            McpToolResult *result)
{
  steward_app_view_set_result (STEWARD_APP_VIEW (view), result);
}

static void
set_cancelled (GtkWidget  *view,
               const char *reason)
{
  steward_app_view_set_cancelled (STEWARD_APP_VIEW (view), reason);
}

static const StewardAppViewFuncs funcs = {
  .new_view = steward_app_view_new,
  .set_result = set_result,
  .set_cancelled = set_cancelled,
};

__attribute__((constructor)) static void
register_views (void)
{
  steward_app_view_module_register (&funcs);
}

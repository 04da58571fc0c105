/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define STEWARD_TYPE_CALLS_PAGE (steward_calls_page_get_type ())

G_DECLARE_FINAL_TYPE (StewardCallsPage, steward_calls_page, STEWARD, CALLS_PAGE, AdwPreferencesPage)

/* The Tool Calls page of Preferences: after how long a tool's calls
 * become tasks (the "task-threshold" setting). */

G_END_DECLS

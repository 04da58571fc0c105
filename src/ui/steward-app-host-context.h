/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/*
 * The host context an MCP Apps view is given in ui/initialize and
 * ui/notifications/host-context-changed (ext-apps 2026-01-26, "Host
 * Context"): the theme and the specification's style variables taken from
 * libadwaita's style (light, dark, high contrast), the person's locale and
 * time zone, the display mode and the container's size, and "desktop" as
 * the platform.
 */
JsonObject *steward_app_host_context_new (const char *display_mode,
                                          int         width,
                                          int         max_height);

G_END_DECLS

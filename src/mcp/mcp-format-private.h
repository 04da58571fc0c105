/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Sizes and durations as a person reads them in a message: "10 MiB",
 * "2 s", falling back to exact units when they are not round. */
char *mcp_format_size     (gsize size);
char *mcp_format_duration (guint ms);

G_END_DECLS

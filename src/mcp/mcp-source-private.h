/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Stops the timer or idle *@source, if any, and forgets it: the way every
 * transport drops a source it attached and kept a reference to. */
void mcp_clear_source (GSource **source);

G_END_DECLS

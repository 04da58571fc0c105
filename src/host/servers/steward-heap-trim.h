/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/*
 * Gives the C library's free heap pages back to the system once the
 * servers of a list have all finished starting. Starting a server leaves
 * holes in the heap (the replies parsed, the widgets that showed its
 * progress), between what lives on; without this they stay resident for
 * as long as the app runs.
 */

#define STEWARD_TYPE_HEAP_TRIM (steward_heap_trim_get_type ())

G_DECLARE_FINAL_TYPE (StewardHeapTrim, steward_heap_trim, STEWARD, HEAP_TRIM, GObject)

StewardHeapTrim *steward_heap_trim_new         (GListModel      *servers);
guint            steward_heap_trim_get_n_trims (StewardHeapTrim *self);

G_END_DECLS

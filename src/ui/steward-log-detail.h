/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <gio/gio.h>

#include "steward-log-entry.h"

G_BEGIN_DECLS

/*
 * The detail pane of the log viewer: all of one entry, and for a protocol
 * message the other half of its exchange, a request's answer or the
 * request an answer is for.
 */

/* The other half of @entry's exchange among @entries (a #GListModel of
 * #StewardLogEntry, oldest first), the nearest one; NULL when @entry is
 * no request or answer, or its partner is not there (yet). */
StewardLogEntry *steward_log_detail_find_partner (GListModel      *entries,
                                                  StewardLogEntry *entry);
/* The text the pane shows for @entry, and @partner below it when given. */
char            *steward_log_detail_format       (StewardLogEntry *entry,
                                                  StewardLogEntry *partner);

G_END_DECLS

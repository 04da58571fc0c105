/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define STEWARD_TYPE_LOG_SNAPSHOT (steward_log_snapshot_get_type ())

G_DECLARE_FINAL_TYPE (StewardLogSnapshot, steward_log_snapshot, STEWARD, LOG_SNAPSHOT, GObject)

/*
 * A GListModel that never changes: the items @model held when it was made.
 * A paused log view shows one, so that the store can keep recording (and
 * dropping its oldest entries) underneath. It is an array, so making one
 * of 100,000 entries and reading it back cost a millisecond or two.
 */
StewardLogSnapshot *steward_log_snapshot_new (GListModel *model);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "steward-approval.h"

G_BEGIN_DECLS

/*
 * The queue of approvals waiting for a person, oldest first, as a
 * GListModel of StewardApproval. An approval leaves the list when it
 * finishes. "added" (approval) is emitted after one joins, so that the UI
 * can present it (or raise a desktop notification when unfocused). The
 * property "n-items" follows the length.
 */

#define STEWARD_TYPE_APPROVALS (steward_approvals_get_type ())

G_DECLARE_FINAL_TYPE (StewardApprovals, steward_approvals, STEWARD, APPROVALS, GObject)

StewardApprovals *steward_approvals_new            (void);
void              steward_approvals_add            (StewardApprovals  *self,
                                                    StewardApproval   *approval);
/* The oldest unfinished approval, or NULL. */
StewardApproval  *steward_approvals_get_first      (StewardApprovals  *self);
guint             steward_approvals_count_for      (StewardApprovals  *self,
                                                    StewardApprovalKind kind,
                                                    const char        *server);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "steward-host.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_APPLICATION (steward_application_get_type ())

G_DECLARE_FINAL_TYPE (StewardApplication, steward_application, STEWARD, APPLICATION, AdwApplication)

/* The application: owns the StewardHost, presents approvals (a dialog per
 * approval; a GNotification that brings it up when no window is focused),
 * app actions (preferences, about, shortcuts, quit). */
StewardApplication *steward_application_new              (void);
StewardHost        *steward_application_get_host         (StewardApplication *self);
/* Presents the dialog of @approval (one per approval), transient for the
 * main window. */
void                steward_application_present_approval (StewardApplication *self,
                                                          StewardApproval    *approval);

G_END_DECLS

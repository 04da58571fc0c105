/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "steward-approval.h"

G_BEGIN_DECLS

GtkWidget *steward_overdue_question_new (GtkWindow       *parent,
                                         const char      *tool,
                                         guint            waited);
GtkWidget *steward_overdue_dialog_new   (StewardApproval *approval);

G_END_DECLS

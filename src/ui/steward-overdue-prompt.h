/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "steward-overdue.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_OVERDUE_PROMPT (steward_overdue_prompt_get_type ())

G_DECLARE_FINAL_TYPE (StewardOverduePrompt, steward_overdue_prompt, STEWARD, OVERDUE_PROMPT, GObject)

StewardOverduePrompt *steward_overdue_prompt_new (GtkWidget      *parent,
                                                  StewardOverdue *question);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "steward-host.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_ROOTS_PAGE (steward_roots_page_get_type ())

G_DECLARE_FINAL_TYPE (StewardRootsPage, steward_roots_page, STEWARD, ROOTS_PAGE, AdwBin)

/* Roots: add folders (GtkFileChooserNative), remove them, choose which
 * servers see each; a second confirmation for dangerous folders. */
GtkWidget *steward_roots_page_new        (StewardHost      *host);
/* Shares @folder as the folder chooser's answer does: a dangerous folder
 * asks for a second confirmation first; errors show as a toast. */
void       steward_roots_page_add_folder (StewardRootsPage *self,
                                          GFile            *folder);

G_END_DECLS

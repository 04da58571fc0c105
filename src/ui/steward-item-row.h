/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "mcp-item.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_ITEM_ROW (steward_item_row_get_type ())

G_DECLARE_FINAL_TYPE (StewardItemRow, steward_item_row, STEWARD, ITEM_ROW, AdwBin)

/* One row of a server page's lists: a tool (with its annotation badges),
 * a resource (URI, MIME type, size), a resource template or a prompt.
 * Server text is shown as text, hidden characters made visible. */
GtkWidget *steward_item_row_new          (void);
McpItem   *steward_item_row_get_item     (StewardItemRow *self);
void       steward_item_row_set_item     (StewardItemRow *self,
                                          McpItem        *item);
void       steward_item_row_set_expanded (StewardItemRow *self,
                                          gboolean        expanded);

G_END_DECLS

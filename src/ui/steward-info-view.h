/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "steward-server.h"

G_BEGIN_DECLS

#define STEWARD_TYPE_INFO_VIEW (steward_info_view_get_type ())

G_DECLARE_FINAL_TYPE (StewardInfoView, steward_info_view, STEWARD, INFO_VIEW, AdwBin)

/* What a connected server told about itself: name, title, version, the
 * negotiated revision, the transport, each capability, its instructions
 * (hidden characters visible), and the log level it should send, when it
 * offers logging. */
GtkWidget  *steward_info_view_new          (StewardServer   *server,
                                            McpClient       *client);
/* The text shown for fact @key ("name", "title", "version", "revision",
 * "transport", "capabilities", "instructions"), for tests. */
const char *steward_info_view_get_fact     (StewardInfoView *self,
                                            const char      *key);

G_END_DECLS

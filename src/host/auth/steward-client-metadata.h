/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Where the project publishes data/client-metadata.json: the document's
 * own `client_id`, and the default of the "client-metadata-url" setting.
 * tests/test-client-metadata.py keeps the three the same. */
#define STEWARD_CLIENT_METADATA_URL "https://stewardmcp.github.io/steward/client-metadata.json"

char     *steward_client_metadata_dup_url      (void);
gboolean  steward_client_metadata_url_is_valid (const char *url);

G_END_DECLS

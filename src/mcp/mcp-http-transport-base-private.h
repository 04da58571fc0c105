/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* What only the HTTP transports themselves use of McpHttpTransportBase. */

#include "mcp-soup.h"

#include "mcp-http-transport-base.h"

G_BEGIN_DECLS

gpointer  mcp_http_transport_base_new           (GType                  type,
                                                 const char            *url,
                                                 GError               **error);
GUri     *mcp_http_transport_base_get_uri       (McpHttpTransportBase  *self);
void      mcp_http_transport_base_apply_headers (McpHttpTransportBase  *self,
                                                 SoupMessageHeaders    *headers);

G_END_DECLS

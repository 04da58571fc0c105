/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define STEWARD_TYPE_SERVER_OAUTH (steward_server_oauth_get_type ())

G_DECLARE_FINAL_TYPE (StewardServerOAuth, steward_server_oauth, STEWARD, SERVER_OAUTH, GObject)

StewardServerOAuth *steward_server_oauth_new_from_json         (const char          *server,
                                                                JsonNode            *node,
                                                                GError             **error);
StewardServerOAuth *steward_server_oauth_new                   (const char          *client_id,
                                                                const char          *client_secret,
                                                                const char * const  *scopes,
                                                                const char          *client_metadata_url);

const char         *steward_server_oauth_get_client_id          (StewardServerOAuth  *self);
const char         *steward_server_oauth_get_client_secret      (StewardServerOAuth  *self);
const char * const *steward_server_oauth_get_scopes             (StewardServerOAuth  *self);
const char         *steward_server_oauth_get_client_metadata_url (StewardServerOAuth *self);
gboolean            steward_server_oauth_is_empty               (StewardServerOAuth  *self);

void                steward_server_oauth_write                  (StewardServerOAuth  *self,
                                                                JsonObject          *json);

G_END_DECLS

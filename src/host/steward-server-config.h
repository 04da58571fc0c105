/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/**
 * StewardServerTransport:
 * @STEWARD_SERVER_TRANSPORT_STDIO: a local process started from `command`
 * @STEWARD_SERVER_TRANSPORT_STREAMABLE_HTTP: a remote server at `url`
 *   speaking Streamable HTTP (the default for `url` entries)
 * @STEWARD_SERVER_TRANSPORT_SSE: a remote server at `url` speaking the
 *   legacy HTTP+SSE transport
 */
typedef enum {
  STEWARD_SERVER_TRANSPORT_STDIO,
  STEWARD_SERVER_TRANSPORT_STREAMABLE_HTTP,
  STEWARD_SERVER_TRANSPORT_SSE,
} StewardServerTransport;

#define STEWARD_TYPE_SERVER_CONFIG (steward_server_config_get_type ())

G_DECLARE_FINAL_TYPE (StewardServerConfig, steward_server_config, STEWARD, SERVER_CONFIG, GObject)

StewardServerConfig    *steward_server_config_new_from_json  (const char           *name,
                                                              JsonObject           *json,
                                                              GError              **error);

const char             *steward_server_config_get_name       (StewardServerConfig  *self);
JsonObject             *steward_server_config_get_json       (StewardServerConfig  *self);
StewardServerTransport  steward_server_config_get_transport  (StewardServerConfig  *self);
gboolean                steward_server_config_is_remote      (StewardServerConfig  *self);
gboolean                steward_server_config_get_disabled   (StewardServerConfig  *self);

/* Local servers. */
const char             *steward_server_config_get_command    (StewardServerConfig  *self);
const char * const     *steward_server_config_get_args       (StewardServerConfig  *self);
char                  **steward_server_config_dup_argv       (StewardServerConfig  *self);
GHashTable             *steward_server_config_get_env        (StewardServerConfig  *self);
const char             *steward_server_config_get_cwd        (StewardServerConfig  *self);

/* Remote servers. */
const char             *steward_server_config_get_url        (StewardServerConfig  *self);
GHashTable             *steward_server_config_get_headers    (StewardServerConfig  *self);

const char             *steward_server_transport_to_string   (StewardServerTransport transport);

G_END_DECLS

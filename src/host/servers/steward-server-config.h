/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "steward-server-oauth.h"

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
/* The sandbox's permissions (steward-sandbox-profile.h): the network,
 * whether the entry sets it, the display, full access (no sandbox) and
 * folders to read. */
gboolean                steward_server_config_get_network    (StewardServerConfig  *self);
gboolean                steward_server_config_has_network    (StewardServerConfig  *self);
gboolean                steward_server_config_get_display    (StewardServerConfig  *self);
const char * const     *steward_server_config_get_readable   (StewardServerConfig  *self);
gboolean                steward_server_config_get_run_on_host (StewardServerConfig *self);

/* Remote servers. */
const char             *steward_server_config_get_url        (StewardServerConfig  *self);
GHashTable             *steward_server_config_get_headers    (StewardServerConfig  *self);
StewardServerOAuth     *steward_server_config_get_oauth      (StewardServerConfig  *self);
char                   *steward_server_config_dup_client_metadata_url (StewardServerConfig *self);

const char             *steward_server_transport_to_string   (StewardServerTransport transport);

/* Building (the add/edit dialogs, import). @env and @headers map string to
 * string and may hold "${keyring:ID}" references; they are copied. */
StewardServerConfig    *steward_server_config_new_stdio      (const char           *name,
                                                              const char           *command,
                                                              const char * const   *args,
                                                              GHashTable           *env,
                                                              const char           *cwd);
StewardServerConfig    *steward_server_config_new_remote     (const char           *name,
                                                              const char           *url,
                                                              StewardServerTransport transport,
                                                              GHashTable           *headers);
StewardServerConfig    *steward_server_config_with_disabled  (StewardServerConfig  *self,
                                                              gboolean              disabled);
StewardServerConfig    *steward_server_config_with_name      (StewardServerConfig  *self,
                                                              const char           *name);
StewardServerConfig    *steward_server_config_with_sandbox   (StewardServerConfig  *self,
                                                              gboolean              network,
                                                              gboolean              run_on_host);
StewardServerConfig    *steward_server_config_with_permissions (StewardServerConfig *self,
                                                                int                  network,
                                                                gboolean             display,
                                                                gboolean             full_access,
                                                                const char * const  *readable);
/* SHA-256 (hex) over what consent covers: transport, command, args, cwd,
 * env names and values (references as written), url, header names, and
 * the sandbox permissions when set. */
char                   *steward_server_config_dup_fingerprint (StewardServerConfig *self);

/* Copies with other environment variables or headers (import moves secret
 * values into the keyring), and equality of whole entries (reloads keep the
 * objects of entries that did not change). */
StewardServerConfig    *steward_server_config_with_env       (StewardServerConfig  *self,
                                                              GHashTable           *env);
StewardServerConfig    *steward_server_config_with_headers   (StewardServerConfig  *self,
                                                              GHashTable           *headers);
StewardServerConfig    *steward_server_config_with_oauth     (StewardServerConfig  *self,
                                                              StewardServerOAuth   *oauth);
gboolean                steward_server_config_equal          (StewardServerConfig  *a,
                                                              StewardServerConfig  *b);

G_END_DECLS

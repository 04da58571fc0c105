/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The parts of StewardCliRunner (steward-cli-runner.c runs the command,
 * steward-cli-runner-server.c finds and prepares the server) share its
 * instance here. */
#pragma once

#include "mcp-client.h"
#include "mcp-http-transport.h"
#include "mcp-stdio-transport.h"
#include "steward-cli-auth.h"
#include "steward-cli-delegate.h"
#include "steward-cli-options.h"
#include "steward-cli-runner.h"
#include "steward-server-config.h"

G_BEGIN_DECLS

/**
 * StewardCliRunner:
 *
 * One run of steward-cli: start or find the server, connect, do the one
 * command, print its result, close the connection (which stops a local
 * server, or ends a remote one's session) and give the exit status.
 * Everything happens on a main loop that ends only once the client is
 * closed.
 */
struct _StewardCliRunner
{
  GObject              parent_instance;

  StewardCliOptions   *options;
  /* The client connecting or connected. Over HTTP with --transport auto it
   * is replaced when the legacy transport is tried after the first. */
  McpClient           *client;
  StewardCliDelegate  *delegate;
  /* The server file's environment and headers with the keyring's secrets
   * in place of their references; wiped when freed. */
  GHashTable          *server_env;
  GHashTable          *server_headers;
  /* The entry's "oauth" client secret, as "clientSecret" → the secret. */
  GHashTable          *server_oauth;
  /* A remote server: where, with which headers, over which transport. */
  char                *url;
  GHashTable          *headers;
  McpHttpKind          kind;
  /* Signing in where the remote server asks; NULL for a local server or
   * one given its Authorization header by hand. */
  StewardCliAuth      *auth;
  GMainLoop           *loop;
  GCancellable        *cancellable;
  McpToolResult       *tool_result;
  const char          *list_method;
  gint64               ping_started;
  /* The server's last lines on stderr, for saying why it did not start. */
  GPtrArray           *stderr_lines;

  int                  exit_code;
  gboolean             connected;
  gboolean             finishing;
  /* The command has done its request and now prints notifications. */
  gboolean             waiting;
  guint                n_seen;
  guint                signal_sources[3];
};

StewardServerConfig *steward_cli_runner_resolve_server         (StewardCliRunner     *self,
                                                               GError              **error);
gboolean             steward_cli_runner_resolve_secrets        (StewardCliRunner     *self,
                                                               StewardServerConfig  *server,
                                                               GError              **error);
gboolean             steward_cli_runner_resolve_remote         (StewardCliRunner     *self,
                                                               StewardServerConfig  *server,
                                                               GError              **error);
McpTransport        *steward_cli_runner_create_stdio_transport (StewardCliRunner     *self,
                                                               StewardServerConfig  *server,
                                                               GError              **error);
void                 steward_cli_runner_describe_remote        (StewardCliRunner     *self);
int                  steward_cli_runner_run_auth               (StewardCliRunner     *self,
                                                               StewardServerConfig  *server);
int                  steward_cli_runner_run_auth_all           (StewardCliRunner     *self);
int                  steward_cli_runner_set_client             (StewardCliRunner     *self);
gboolean             steward_cli_runner_create_delegate        (StewardCliRunner     *self,
                                                               GError              **error);

G_END_DECLS

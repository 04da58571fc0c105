/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "mcp-client.h"
#include "mcp-tool-result.h"
#include "steward-server-auth.h"
#include "steward-server-config.h"
#include "steward-server-context.h"

G_BEGIN_DECLS

/*
 * One configured server (docs/ARCHITECTURE.md §3): its McpClient while connected,
 * its status, restart with backoff (1 s doubling to 30 s with jitter; after
 * 5 crashes in 3 minutes it gives up and says "keeps crashing" with the
 * last stderr lines), and diagnostics a person can act on. It is the
 * McpClientDelegate of its client: sampling and elicitation go to the
 * host's StewardSamplingBroker, roots to StewardRoots. Every stderr line,
 * notifications/message, JSON-RPC message in and out, and host event
 * (consent, start, ready, crash, restart, stop) goes to the host's
 * StewardLogStore.
 *
 * Before the first start, and whenever the command's fingerprint changed,
 * the server asks for consent through StewardApprovals (status
 * AWAITING_CONSENT) and starts only once allowed.
 *
 * A start that fails before the server ever answered (a missing command or
 * module, a URL that refuses, a 404, a certificate, credentials) is a
 * matter of configuration: it fails at once with a sentence naming the
 * cause and the fix (StewardServerFailure), and is tried again when the
 * person starts it or its settings change. Only a server that answered and
 * then exited is restarted as a crash. A remote server that answered and
 * stops answering (its event stream ends, a request or a ping fails) is
 * DISCONNECTED and reconnected with backoff, at least every
 * few seconds, until it answers again.
 */

typedef enum {
  STEWARD_SERVER_STATUS_STOPPED,
  STEWARD_SERVER_STATUS_DISABLED,
  STEWARD_SERVER_STATUS_AWAITING_CONSENT,
  STEWARD_SERVER_STATUS_STARTING,
  STEWARD_SERVER_STATUS_READY,
  STEWARD_SERVER_STATUS_RESTARTING,       /* waiting "retry-in" seconds */
  STEWARD_SERVER_STATUS_FAILED,           /* gave up, or consent denied; see status-text */
  STEWARD_SERVER_STATUS_DISCONNECTED,     /* remote, stopped answering; reconnecting */
  STEWARD_SERVER_STATUS_NEEDS_SIGN_IN,    /* remote, waits for the person to sign in */
} StewardServerStatus;

#define STEWARD_TYPE_SERVER_STATUS (steward_server_status_get_type ())
GType steward_server_status_get_type (void) G_GNUC_CONST;

#define STEWARD_TYPE_SERVER (steward_server_get_type ())

G_DECLARE_FINAL_TYPE (StewardServer, steward_server, STEWARD, SERVER, GObject)

/* Properties (all notify): "name", "config", "status", "status-text" (one
 * sentence for the sidebar and the page: "Ready · 2025-11-25", "Failed:
 * `npx` was not found on PATH", "Restarting in 4 s"), "detail-text" (the
 * longer diagnosis with the last stderr lines, or NULL), "client"
 * (nullable), "revision" (negotiated, or NULL), "retry-in" (seconds),
 * "enabled". */
StewardServer        *steward_server_new              (StewardServerContext *context,
                                                       StewardServerConfig  *config);
const char           *steward_server_get_name         (StewardServer        *self);
StewardServerConfig  *steward_server_get_config       (StewardServer        *self);
/* Replaces the configuration; a running server restarts (asking for consent
 * again when the command changed). */
void                  steward_server_set_config       (StewardServer        *self,
                                                       StewardServerConfig  *config);
StewardServerStatus   steward_server_get_status       (StewardServer        *self);
const char           *steward_server_get_status_text  (StewardServer        *self);
const char           *steward_server_get_detail_text  (StewardServer        *self);
McpClient            *steward_server_get_client       (StewardServer        *self);
const char           *steward_server_get_revision     (StewardServer        *self);
guint                 steward_server_get_retry_in     (StewardServer        *self);
gboolean              steward_server_get_enabled      (StewardServer        *self);
/* Writes "disabled" to the servers file and stops or starts. */
void                  steward_server_set_enabled      (StewardServer        *self,
                                                       gboolean              enabled);

void                  steward_server_start            (StewardServer        *self);
void                  steward_server_restart          (StewardServer        *self);
/* Stops within 5 s at most (stdio: close stdin → 2 s → SIGTERM → 2 s →
 * SIGKILL). */
void                  steward_server_stop_async       (StewardServer        *self,
                                                       GCancellable         *cancellable,
                                                       GAsyncReadyCallback   callback,
                                                       gpointer              user_data);
gboolean              steward_server_stop_finish      (StewardServer        *self,
                                                       GAsyncResult         *result,
                                                       GError              **error);

/* Calls a tool through the client, remembering the call so that a sampling
 * or elicitation request that arrives while it runs names it as its cause. */
void                  steward_server_call_tool_async  (StewardServer        *self,
                                                       const char           *tool,
                                                       JsonObject           *arguments,
                                                       McpProgressFunc       progress,
                                                       gpointer              progress_data,
                                                       GDestroyNotify        progress_destroy,
                                                       GCancellable         *cancellable,
                                                       GAsyncReadyCallback   callback,
                                                       gpointer              user_data);
McpToolResult        *steward_server_call_tool_finish (StewardServer        *self,
                                                       GAsyncResult         *result,
                                                       GError              **error);
/* The cancellable of the newest call still running, the one a sampling or
 * elicitation request arriving now is caused by, so that a caller can
 * tell its own calls apart (the chat nests such requests under its call). */
GCancellable         *steward_server_get_cause_cancellable (StewardServer  *self);

/* Signing in to a remote server that answers 401 (steward-server-auth.h):
 * its sign-in state, opening the browser, and connecting once signed in;
 * signing out disconnects and forgets the token. */
StewardServerAuth    *steward_server_get_auth         (StewardServer        *self);
void                  steward_server_sign_in_async    (StewardServer        *self,
                                                       GCancellable         *cancellable,
                                                       GAsyncReadyCallback   callback,
                                                       gpointer              user_data);
gboolean              steward_server_sign_in_finish   (StewardServer        *self,
                                                       GAsyncResult         *result,
                                                       GError              **error);
void                  steward_server_sign_out_async   (StewardServer        *self,
                                                       GCancellable         *cancellable,
                                                       GAsyncReadyCallback   callback,
                                                       gpointer              user_data);
gboolean              steward_server_sign_out_finish  (StewardServer        *self,
                                                       GAsyncResult         *result,
                                                       GError              **error);

const char           *steward_server_status_to_string (StewardServerStatus   status);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "mcp-client-delegate.h"
#include "mcp-prompt-result.h"
#include "mcp-revision.h"
#include "mcp-tool-result.h"
#include "mcp-transport.h"

G_BEGIN_DECLS

#define MCP_DEFAULT_REQUEST_TIMEOUT_MS     60000
#define MCP_DEFAULT_INITIALIZE_TIMEOUT_MS  30000
#define MCP_DEFAULT_MAX_REQUEST_TIME_MS    (10 * 60000)
/* Requests from the server that may wait on the host at once; more are
 * answered "overloaded" at once rather than queued without bound. */
#define MCP_MAX_PENDING_SERVER_REQUESTS    32
/* Pages fetched for one list before the listing is taken as a loop. */
#define MCP_MAX_LIST_PAGES                 100

typedef enum {
  MCP_CLIENT_STATE_DISCONNECTED,
  MCP_CLIENT_STATE_CONNECTING,
  MCP_CLIENT_STATE_INITIALIZING,
  MCP_CLIENT_STATE_READY,
  MCP_CLIENT_STATE_CLOSING,
  MCP_CLIENT_STATE_CLOSED,
} McpClientState;

typedef enum {
  MCP_TRACE_OUTGOING,
  MCP_TRACE_INCOMING,
} McpTraceDirection;

/**
 * McpProgressFunc:
 * @progress: the progress so far
 * @total: the total, or a negative number when the server gave none
 * @message: (nullable): the server's words about it
 *
 * Called on the main context while a request runs. Bursts are coalesced:
 * at most one call per 50 ms, always with the latest values.
 */
typedef void (*McpProgressFunc) (double      progress,
                                 double      total,
                                 const char *message,
                                 gpointer    user_data);

#define MCP_TYPE_CLIENT (mcp_client_get_type ())

/**
 * McpReplyFunc:
 * @client: the client that made the request
 * @result: (nullable): the result object, %NULL when @error is set
 * @error: (transfer full) (nullable): the peer's JSON-RPC error or a local one
 * @user_data: the data given with the function
 *
 * Ends a request made with a plain function instead of a #GTask, for a
 * caller that completes a task of its own anyway and would otherwise pay
 * for two. Called exactly once, possibly before the request's function
 * returns when the request cannot be sent at all.
 */
typedef void (*McpReplyFunc) (McpClient  *client,
                              JsonObject *result,
                              GError     *error,
                              gpointer    user_data);

G_DECLARE_FINAL_TYPE (McpClient, mcp_client, MCP, CLIENT, GObject)

McpClient          *mcp_client_new                      (McpTransport         *transport);

McpTransport       *mcp_client_get_transport            (McpClient            *self);
McpClientState      mcp_client_get_state                (McpClient            *self);
const GError       *mcp_client_get_error                (McpClient            *self);
void                mcp_client_set_delegate             (McpClient            *self,
                                                         McpClientDelegate    *delegate);
McpClientDelegate  *mcp_client_get_delegate             (McpClient            *self);
void                mcp_client_set_client_info          (McpClient            *self,
                                                         const char           *name,
                                                         const char           *title,
                                                         const char           *version);
void                mcp_client_set_requested_revision   (McpClient            *self,
                                                         McpRevision           revision);
void                mcp_client_set_request_timeout      (McpClient            *self,
                                                         guint                 timeout_ms);
gboolean            mcp_client_answer_overdue           (McpClient            *self,
                                                         gint64                id,
                                                         gboolean              keep_waiting);
GCancellable       *mcp_client_get_request_cancellable  (McpClient            *self,
                                                         gint64                id);
void                mcp_client_set_initialize_timeout   (McpClient            *self,
                                                         guint                 timeout_ms);
void                mcp_client_set_max_request_time     (McpClient            *self,
                                                         guint                 max_ms);

/* What the server told us during negotiation. */
McpRevision         mcp_client_get_revision             (McpClient            *self);
const char         *mcp_client_get_protocol_version     (McpClient            *self);
JsonObject         *mcp_client_get_server_info          (McpClient            *self);
const char         *mcp_client_get_server_name          (McpClient            *self);
const char         *mcp_client_get_server_title         (McpClient            *self);
const char         *mcp_client_get_server_version       (McpClient            *self);
JsonObject         *mcp_client_get_server_capabilities  (McpClient            *self);
gboolean            mcp_client_has_capability           (McpClient            *self,
                                                         const char           *capability,
                                                         const char           *sub_capability);
const char         *mcp_client_get_instructions         (McpClient            *self);
guint               mcp_client_get_n_ignored_messages   (McpClient            *self);

/* Lists kept current: filled once ready, refreshed on list_changed. */
GListModel         *mcp_client_get_tools                (McpClient            *self);
GListModel         *mcp_client_get_resources            (McpClient            *self);
GListModel         *mcp_client_get_resource_templates   (McpClient            *self);
GListModel         *mcp_client_get_prompts              (McpClient            *self);
gboolean            mcp_client_is_subscribed            (McpClient            *self,
                                                         const char           *uri);

void                mcp_client_connect_async            (McpClient            *self,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
gboolean            mcp_client_connect_finish           (McpClient            *self,
                                                         GAsyncResult         *result,
                                                         GError              **error);
void                mcp_client_close_async              (McpClient            *self,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
gboolean            mcp_client_close_finish             (McpClient            *self,
                                                         GAsyncResult         *result,
                                                         GError              **error);

/* Any request; the typed calls below are built on it. @params may be NULL. */
void                mcp_client_request_async            (McpClient            *self,
                                                         const char           *method,
                                                         JsonObject           *params,
                                                         McpProgressFunc       progress_func,
                                                         gpointer              progress_data,
                                                         GDestroyNotify        progress_destroy,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
JsonObject         *mcp_client_request_finish           (McpClient            *self,
                                                         GAsyncResult         *result,
                                                         GError              **error);
gboolean            mcp_client_notify                   (McpClient            *self,
                                                         const char           *method,
                                                         JsonObject           *params,
                                                         GError              **error);

void                mcp_client_ping_async               (McpClient            *self,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
gboolean            mcp_client_ping_finish              (McpClient            *self,
                                                         GAsyncResult         *result,
                                                         GError              **error);

/* tools/list, resources/list, resources/templates/list, prompts/list:
 * every page, as McpTool/McpResource/McpResourceTemplate/McpPrompt. */
void                mcp_client_list_async               (McpClient            *self,
                                                         const char           *method,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
GPtrArray          *mcp_client_list_finish              (McpClient            *self,
                                                         GAsyncResult         *result,
                                                         GError              **error);

void                mcp_client_call_tool_async          (McpClient            *self,
                                                         const char           *name,
                                                         JsonObject           *arguments,
                                                         McpProgressFunc       progress_func,
                                                         gpointer              progress_data,
                                                         GDestroyNotify        progress_destroy,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
McpToolResult      *mcp_client_call_tool_finish         (McpClient            *self,
                                                         GAsyncResult         *result,
                                                         GError              **error);
void                mcp_client_call_tool_with_reply     (McpClient            *self,
                                                         const char           *name,
                                                         JsonObject           *arguments,
                                                         McpProgressFunc       progress_func,
                                                         gpointer              progress_data,
                                                         GDestroyNotify        progress_destroy,
                                                         GCancellable         *cancellable,
                                                         McpReplyFunc          reply,
                                                         gpointer              user_data);

void                mcp_client_read_resource_async      (McpClient            *self,
                                                         const char           *uri,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
GPtrArray          *mcp_client_read_resource_finish     (McpClient            *self,
                                                         GAsyncResult         *result,
                                                         GError              **error);
void                mcp_client_subscribe_async          (McpClient            *self,
                                                         const char           *uri,
                                                         gboolean              subscribe,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
gboolean            mcp_client_subscribe_finish         (McpClient            *self,
                                                         GAsyncResult         *result,
                                                         GError              **error);

void                mcp_client_get_prompt_async         (McpClient            *self,
                                                         const char           *name,
                                                         JsonObject           *arguments,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
McpPromptResult    *mcp_client_get_prompt_finish        (McpClient            *self,
                                                         GAsyncResult         *result,
                                                         GError              **error);

/* @ref_type is "ref/prompt" (@ref_name a prompt name) or "ref/resource"
 * (@ref_name a URI template). @context: other arguments already chosen. */
void                mcp_client_complete_async           (McpClient            *self,
                                                         const char           *ref_type,
                                                         const char           *ref_name,
                                                         const char           *argument_name,
                                                         const char           *argument_value,
                                                         JsonObject           *context,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
char              **mcp_client_complete_finish          (McpClient            *self,
                                                         GAsyncResult         *result,
                                                         gint64               *total,
                                                         gboolean             *has_more,
                                                         GError              **error);

void                mcp_client_set_log_level_async      (McpClient            *self,
                                                         const char           *level,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
gboolean            mcp_client_set_log_level_finish     (McpClient            *self,
                                                         GAsyncResult         *result,
                                                         GError              **error);

/* Tell the server the host's roots changed (when it declared listChanged). */
void                mcp_client_notify_roots_changed     (McpClient            *self);

gboolean            mcp_log_level_is_valid              (const char           *level);

G_END_DECLS

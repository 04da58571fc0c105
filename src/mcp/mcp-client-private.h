/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* What the parts of McpClient share: mcp-client.c (the object, its
 * lifecycle and handshake), mcp-client-requests.c (the table of requests
 * waiting for answers), mcp-client-incoming.c (the server's requests,
 * answered through the delegate), mcp-client-input.c (input rounds of
 * 2026-07-28), mcp-client-lists.c (the lists and subscriptions) and
 * mcp-client-methods.c (the typed requests). */

#include "mcp-client.h"

G_BEGIN_DECLS

#define META_PROTOCOL_VERSION   "io.modelcontextprotocol/protocolVersion"
#define META_CLIENT_INFO        "io.modelcontextprotocol/clientInfo"
#define META_CLIENT_CAPS        "io.modelcontextprotocol/clientCapabilities"
#define META_LOG_LEVEL          "io.modelcontextprotocol/logLevel"
#define META_SERVER_INFO        "io.modelcontextprotocol/serverInfo"
#define META_SUBSCRIPTION_ID    "io.modelcontextprotocol/subscriptionId"

struct _McpClient
{
  GObject             parent_instance;

  McpTransport       *transport;
  McpClientDelegate  *delegate;
  McpClientState      state;
  GError             *error;
  GCancellable       *cancellable;

  char               *client_name;
  char               *client_title;
  char               *client_version;
  McpRevision         requested_revision;
  guint               request_timeout_ms;
  guint               initialize_timeout_ms;
  guint               max_request_time_ms;

  McpRevision         revision;
  McpRevision         legacy_revision;   /* offered to initialize */
  gboolean            modern;            /* 2026-07-28: no session, _meta on every request */
  JsonObject         *meta_client_info;  /* shared by every modern request */
  JsonObject         *meta_capabilities;
  char               *log_level;         /* modern: sent in _meta */
  gint64              listen_id;         /* the open subscriptions/listen, or 0 */
  gboolean            transport_closed;  /* "closed" came: it ends the connecting */
  gint64              list_expiry[4];    /* modern: a list is fresh until then */
  JsonObject         *server_info;
  JsonObject         *server_capabilities;
  char               *instructions;

  gint64              next_id;
  GHashTable         *pending;     /* gint64 id → Pending */
  GMainContext       *context;
  GSource            *deadline_source;  /* ready at the earliest deadline */
  gint64              next_deadline;
  GQueue              waiting;     /* Pending not sent until ready */
  GHashTable         *incoming;    /* id key → Incoming */
  guint               n_ignored;

  GTask              *connect_task;
  GPtrArray          *close_tasks;

  GListStore         *lists[4];
  guint               list_busy;   /* bit per list: a refresh is running */
  guint               list_dirty;  /* bit per list: refresh again after it */
  GHashTable         *subscriptions;
};

typedef enum {
  LIST_TOOLS,
  LIST_RESOURCES,
  LIST_TEMPLATES,
  LIST_PROMPTS,
  N_LISTS
} ListKind;

typedef struct {
  McpClient       *client;        /* unowned: a pending request never outlives it */
  gint64           id;
  char            *method;
  JsonObject      *params;
  GTask           *task;
  McpReplyFunc     reply;          /* instead of @task, with its data */
  gpointer         reply_data;
  gint64           deadline;
  guint            timeout_ms;
  gint64           hard_deadline;
  gboolean         at_hard_limit;  /* the armed timeout ends at the deadline */
  gboolean         sent;
  gboolean         overdue;        /* the person is asked whether to wait on */
  gint64           started;
  guint            rounds;         /* input_required rounds answered so far */
  GCancellable    *cancellable;
  gulong           cancelled_id;
  McpProgressFunc  progress_func;
  gpointer         progress_data;
  GDestroyNotify   progress_destroy;
  gint64           progress_delivered_at;
  GSource         *progress_source;
  double           progress;
  double           progress_total;
  char            *progress_message;
} Pending;

typedef struct {
  McpClient    *client;
  JsonNode     *id;
  char         *key;
  char         *method;
  GCancellable *cancellable;
} Incoming;

/* mcp-client.c */
void        mcp_client_diagnostic          (McpClient           *self,
                                            const char          *format,
                                            ...) G_GNUC_PRINTF (2, 3);
void        mcp_client_send_message        (McpClient           *self,
                                            McpMessage          *message,
                                            Pending             *pending);
gboolean    mcp_client_emit_request_overdue (McpClient          *self,
                                            gint64               id,
                                            const char          *method,
                                            JsonObject          *params,
                                            guint                waited_ms);

/* mcp-client-requests.c */
void        mcp_client_pending_free        (Pending             *pending);
void        mcp_client_pending_complete    (Pending             *pending,
                                            JsonObject          *result,
                                            GError              *error);
void        mcp_client_send_cancelled      (McpClient           *self,
                                            gint64               id,
                                            const char          *reason);
void        mcp_client_fail_all_pending    (McpClient           *self,
                                            int                  code,
                                            const char          *message);
void        mcp_client_handle_response     (McpClient           *self,
                                            McpMessage          *message);
void        mcp_client_handle_progress     (McpClient           *self,
                                            JsonObject          *params);
JsonObject *mcp_client_copy_object         (JsonObject          *object);
void        mcp_client_flush_waiting       (McpClient           *self);
void        mcp_client_pending_start       (McpClient           *self,
                                            GTask               *task,
                                            const char          *method,
                                            JsonObject          *params,
                                            gboolean             internal,
                                            guint                timeout_ms,
                                            McpProgressFunc      progress_func,
                                            gpointer             progress_data,
                                            GDestroyNotify       progress_destroy,
                                            guint                rounds);
void        mcp_client_pending_start_reply (McpClient           *self,
                                            McpReplyFunc         reply,
                                            gpointer             reply_data,
                                            GCancellable        *cancellable,
                                            const char          *method,
                                            JsonObject          *params,
                                            guint                timeout_ms,
                                            McpProgressFunc      progress_func,
                                            gpointer             progress_data,
                                            GDestroyNotify       progress_destroy,
                                            guint                rounds);
void        mcp_client_start_request       (McpClient           *self,
                                            const char          *method,
                                            JsonObject          *params,
                                            gboolean             internal,
                                            guint                timeout_ms,
                                            McpProgressFunc      progress_func,
                                            gpointer             progress_data,
                                            GDestroyNotify       progress_destroy,
                                            GCancellable        *cancellable,
                                            gpointer             source_tag,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
JsonObject *mcp_client_finish_request      (McpClient           *self,
                                            GAsyncResult        *result,
                                            gpointer             source_tag,
                                            GError             **error);

/* mcp-client-incoming.c */
void        mcp_client_incoming_free       (Incoming            *incoming);
GError     *mcp_client_check_incoming      (McpClient           *self,
                                            const char          *method,
                                            JsonObject          *params);
void        mcp_client_handle_request      (McpClient           *self,
                                            McpMessage          *message);
void        mcp_client_handle_cancelled    (McpClient           *self,
                                            JsonObject          *params);
void        mcp_client_cancel_all_incoming (McpClient           *self);
void        mcp_client_ask_delegate        (McpClient           *self,
                                            const char          *method,
                                            JsonObject          *params,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
JsonObject *mcp_client_ask_delegate_finish (McpClientDelegate   *delegate,
                                            const char          *method,
                                            GAsyncResult        *result,
                                            GError             **error);

/* mcp-client-input.c */
void        mcp_client_input_round_start   (Pending             *pending,
                                            JsonObject          *result);

/* mcp-client-lists.c */
void        mcp_client_refresh_list        (McpClient           *self,
                                            ListKind             kind);
void        mcp_client_open_subscriptions  (McpClient           *self);

/* mcp-client-task-requests.c */
gboolean    mcp_client_is_stateless        (McpClient           *self);
void        mcp_client_task_request        (McpClient           *self,
                                            const char          *method,
                                            const char          *task_id,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);

/* mcp-client-tasks.c */
gboolean    mcp_client_tasks_take_progress (McpClient           *self,
                                            JsonObject          *params);
gboolean    mcp_client_tasks_route_call    (McpClient           *self,
                                            const char          *name,
                                            JsonObject          *arguments,
                                            McpProgressFunc      progress_func,
                                            gpointer             progress_data,
                                            GDestroyNotify       progress_destroy,
                                            GCancellable        *cancellable,
                                            gpointer             source_tag,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
void        mcp_client_tasks_add_capabilities (McpClient        *self,
                                            JsonObject          *capabilities);

/* mcp-client-methods.c */
gboolean    mcp_client_require_capability  (McpClient           *self,
                                            const char          *capability,
                                            const char          *sub_capability,
                                            const char          *what,
                                            gpointer             source_tag,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
JsonObject *mcp_client_new_tool_call_params (const char         *name,
                                             JsonObject         *arguments);

G_END_DECLS

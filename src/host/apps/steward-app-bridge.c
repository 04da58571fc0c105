/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-app"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mcp-content.h"
#include "mcp-error.h"
#include "mcp-json.h"

#include "steward-app-bridge.h"
#include "steward-app-message.h"
#include "steward-approval.h"
#include "steward-approvals.h"
#include "steward-log-store.h"
#include "steward-tool-pins.h"
#include "steward-url.h"

/* What the log keeps of one message; the entry folds the rest. */
#define LOG_DETAIL_MAX (64 * 1024)
/* Notifications kept for a view that has not finished ui/initialize. */
#define QUEUE_MAX 32
/* Calls and reads one view may have under way at once. */
#define REQUESTS_MAX 16

/* A view's request, kept from when it arrives until it is answered. */
typedef struct {
  StewardAppBridge *bridge;       /* weak: the bridge cancels us before it goes */
  JsonNode         *id;
  char             *tool;
  JsonObject       *arguments;
  StewardApproval  *approval;
  gulong            responded_id;
} Call;

struct _StewardAppBridge
{
  GObject             parent_instance;

  StewardHost        *host;
  StewardServer      *server;
  McpTool            *tool;
  McpAppResourceMeta *meta;
  char               *view_label;
  char               *server_name;

  JsonObject         *host_context;
  JsonObject         *model_context;
  char               *display_mode;
  gboolean            initialized;

  GPtrArray          *queue;       /* JSON texts waiting for ui/notifications/initialized */
  GCancellable       *cancellable; /* the view's calls, cancelled with the view */
  GPtrArray          *calls;       /* Call, those waiting for the person */
  guint               n_requests;

  guint64             next_id;
  char               *teardown_id;
  GTask              *teardown_task;
  guint               teardown_timeout;
};

G_DEFINE_FINAL_TYPE (StewardAppBridge, steward_app_bridge, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_VIEW_LABEL,
  PROP_INITIALIZED,
  PROP_MODEL_CONTEXT,
  PROP_DISPLAY_MODE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SIGNAL_SEND,
  SIGNAL_MESSAGE,
  SIGNAL_DISPLAY_MODE_REQUESTED,
  SIGNAL_OPEN_LINK,
  SIGNAL_SIZE_CHANGED,
  SIGNAL_INITIALIZED,
  SIGNAL_TEARDOWN_REQUESTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void call_free (Call *call);

/* Logging: every message is protocol traffic of the view's server, with
 * the view's label as its logger. */

static void
log_traffic (StewardAppBridge    *self,
             StewardLogDirection  direction,
             StewardLogLevel      level,
             const char          *summary,
             const char          *text,
             gsize                size)
{
  StewardLogStore *store = steward_host_get_log_store (self->host);
  g_autoptr(StewardLogEntry) entry = NULL;
  g_autofree char *detail = NULL;

  if (store == NULL)
    return;

  detail = g_strndup (text, MIN (size, LOG_DETAIL_MAX));
  entry = steward_log_entry_new (g_get_real_time (), self->server_name,
                                 STEWARD_LOG_SOURCE_TRACE, level, direction,
                                 self->view_label, summary, detail, size);
  steward_log_store_append (store, entry);
}

/* Sending */

static void
deliver (StewardAppBridge *self,
         JsonObject       *message,
         const char       *summary)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), message);
  g_autofree char *text = json_to_string (node, FALSE);

  log_traffic (self, STEWARD_LOG_DIRECTION_OUT, STEWARD_LOG_LEVEL_DEBUG, summary, text,
               strlen (text));
  g_signal_emit (self, signals[SIGNAL_SEND], 0, text);
}

static JsonObject *
new_message (void)
{
  JsonObject *message = json_object_new ();

  json_object_set_string_member (message, "jsonrpc", "2.0");
  return message;
}

static void
reply_result (StewardAppBridge *self,
              JsonNode         *id,
              JsonObject       *result)
{
  g_autoptr(JsonObject) message = new_message ();
  g_autofree char *summary = NULL;
  g_autofree char *id_text = steward_app_message_describe_id (id);

  json_object_set_member (message, "id", json_node_copy (id));
  json_object_set_object_member (message, "result",
                                 result != NULL ? json_object_ref (result) : json_object_new ());
  summary = g_strdup_printf ("result%s", id_text);
  deliver (self, message, summary);
}

static void
reply_error (StewardAppBridge *self,
             JsonNode         *id,
             int               code,
             const char       *text)
{
  g_autoptr(JsonObject) message = new_message ();
  JsonObject *error = json_object_new ();
  g_autofree char *summary = NULL;
  g_autofree char *id_text = steward_app_message_describe_id (id);

  if (id != NULL)
    json_object_set_member (message, "id", json_node_copy (id));
  else
    json_object_set_null_member (message, "id");
  json_object_set_int_member (error, "code", code);
  json_object_set_string_member (error, "message", text);
  json_object_set_object_member (message, "error", error);
  summary = g_strdup_printf ("error%s: %s", id_text, text);
  deliver (self, message, summary);
}

static void
send_notification (StewardAppBridge *self,
                   const char       *method,
                   JsonObject       *params)
{
  g_autoptr(JsonObject) message = new_message ();

  json_object_set_string_member (message, "method", method);
  json_object_set_object_member (message, "params",
                                 params != NULL ? json_object_ref (params) : json_object_new ());
  deliver (self, message, method);
}

/* Before the view is ready, a notification waits; a newer partial input
 * replaces the one waiting, since only the latest says anything. */
static void
queue_or_send (StewardAppBridge *self,
               const char       *method,
               JsonObject       *params)
{
  if (self->initialized)
    {
      send_notification (self, method, params);
      return;
    }

  if (g_str_equal (method, "ui/notifications/tool-input-partial"))
    for (guint i = 0; i < self->queue->len; i += 2)
      if (g_str_equal (g_ptr_array_index (self->queue, i), method))
        {
          g_ptr_array_remove_range (self->queue, i, 2);
          break;
        }

  if (self->queue->len >= 2 * QUEUE_MAX)
    g_ptr_array_remove_range (self->queue, 0, 2);

  g_ptr_array_add (self->queue, g_strdup (method));
  g_ptr_array_add (self->queue, json_object_ref (params != NULL ? params : json_object_new ()));
}

static void
flush_queue (StewardAppBridge *self)
{
  g_autoptr(GPtrArray) queue = g_steal_pointer (&self->queue);

  self->queue = g_ptr_array_new ();
  for (guint i = 0; i + 1 < queue->len; i += 2)
    {
      g_autofree char *method = g_ptr_array_index (queue, i);
      g_autoptr(JsonObject) params = g_ptr_array_index (queue, i + 1);

      send_notification (self, method, params);
    }
}

/* GObject */

static void
cancel_calls (StewardAppBridge *self)
{
  g_cancellable_cancel (self->cancellable);

  /* A question the person has not answered goes with the view. */
  while (self->calls->len > 0)
    {
      Call *call = g_ptr_array_steal_index (self->calls, self->calls->len - 1);

      if (call->approval != NULL && !steward_approval_get_finished (call->approval))
        {
          g_clear_signal_handler (&call->responded_id, call->approval);
          steward_approval_withdraw (call->approval);
        }
      call_free (call);
    }
}

static void
steward_app_bridge_dispose (GObject *object)
{
  StewardAppBridge *self = STEWARD_APP_BRIDGE (object);

  cancel_calls (self);
  g_clear_handle_id (&self->teardown_timeout, g_source_remove);
  if (self->teardown_task != NULL)
    {
      g_task_return_new_error (self->teardown_task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                               _("The view was closed before it answered"));
      g_clear_object (&self->teardown_task);
    }

  g_clear_object (&self->host);
  g_clear_object (&self->server);
  g_clear_object (&self->tool);
  g_clear_object (&self->meta);

  G_OBJECT_CLASS (steward_app_bridge_parent_class)->dispose (object);
}

static void
steward_app_bridge_finalize (GObject *object)
{
  StewardAppBridge *self = STEWARD_APP_BRIDGE (object);

  g_free (self->view_label);
  g_free (self->server_name);
  g_free (self->display_mode);
  g_free (self->teardown_id);
  g_clear_pointer (&self->host_context, json_object_unref);
  g_clear_pointer (&self->model_context, json_object_unref);
  g_ptr_array_unref (self->calls);
  g_clear_object (&self->cancellable);

  for (guint i = 0; i + 1 < self->queue->len; i += 2)
    {
      g_free (g_ptr_array_index (self->queue, i));
      json_object_unref (g_ptr_array_index (self->queue, i + 1));
    }
  g_ptr_array_unref (self->queue);

  G_OBJECT_CLASS (steward_app_bridge_parent_class)->finalize (object);
}

static void
steward_app_bridge_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  StewardAppBridge *self = STEWARD_APP_BRIDGE (object);

  switch (prop_id)
    {
    case PROP_VIEW_LABEL:
      g_value_set_string (value, self->view_label);
      break;
    case PROP_INITIALIZED:
      g_value_set_boolean (value, self->initialized);
      break;
    case PROP_MODEL_CONTEXT:
      g_value_set_boxed (value, self->model_context);
      break;
    case PROP_DISPLAY_MODE:
      g_value_set_string (value, self->display_mode);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_app_bridge_class_init (StewardAppBridgeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = steward_app_bridge_dispose;
  object_class->finalize = steward_app_bridge_finalize;
  object_class->get_property = steward_app_bridge_get_property;

  properties[PROP_VIEW_LABEL] =
    g_param_spec_string ("view-label", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_INITIALIZED] =
    g_param_spec_boolean ("initialized", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_MODEL_CONTEXT] =
    g_param_spec_boxed ("model-context", NULL, NULL, JSON_TYPE_OBJECT,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_DISPLAY_MODE] =
    g_param_spec_string ("display-mode", NULL, NULL, "inline",
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SIGNAL_SEND] =
    g_signal_new ("send", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);
  signals[SIGNAL_MESSAGE] =
    g_signal_new ("message", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_STRING, JSON_TYPE_ARRAY);
  signals[SIGNAL_DISPLAY_MODE_REQUESTED] =
    g_signal_new ("display-mode-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  g_signal_accumulator_first_wins, NULL, NULL,
                  G_TYPE_STRING, 1, G_TYPE_STRING);
  signals[SIGNAL_OPEN_LINK] =
    g_signal_new ("open-link", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);
  signals[SIGNAL_SIZE_CHANGED] =
    g_signal_new ("size-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 2, G_TYPE_INT, G_TYPE_INT);
  signals[SIGNAL_INITIALIZED] =
    g_signal_new ("initialized", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_TEARDOWN_REQUESTED] =
    g_signal_new ("teardown-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                  NULL, NULL, G_TYPE_NONE, 0);
}

static void
steward_app_bridge_init (StewardAppBridge *self)
{
  self->display_mode = g_strdup ("inline");
  self->host_context = json_object_new ();
  self->queue = g_ptr_array_new ();
  self->calls = g_ptr_array_new ();
  self->cancellable = g_cancellable_new ();
}

StewardAppBridge *
steward_app_bridge_new (StewardHost        *host,
                        StewardServer      *server,
                        McpTool            *tool,
                        JsonObject         *arguments,
                        McpToolResult      *result,
                        McpAppResourceMeta *meta,
                        const char         *view_label)
{
  StewardAppBridge *self;

  g_return_val_if_fail (STEWARD_IS_HOST (host), NULL);
  g_return_val_if_fail (STEWARD_IS_SERVER (server), NULL);
  g_return_val_if_fail (MCP_IS_TOOL (tool), NULL);
  g_return_val_if_fail (result == NULL || MCP_IS_TOOL_RESULT (result), NULL);
  g_return_val_if_fail (meta == NULL || MCP_IS_APP_RESOURCE_META (meta), NULL);

  self = g_object_new (STEWARD_TYPE_APP_BRIDGE, NULL);
  self->host = g_object_ref (host);
  self->server = g_object_ref (server);
  self->tool = g_object_ref (tool);
  self->meta = meta != NULL ? g_object_ref (meta) : mcp_app_resource_meta_new_default ();
  self->server_name = g_strdup (steward_server_get_name (server));
  /* Translators: how the log names a view when no one gave it a name;
   * %s is the tool's name. */
  self->view_label = view_label != NULL ? g_strdup (view_label)
                                        : g_strdup_printf (_("view of %s"),
                                                           mcp_item_get_name (MCP_ITEM (tool)));

  if (arguments != NULL)
    steward_app_bridge_send_tool_input (self, arguments);
  if (result != NULL)
    steward_app_bridge_send_tool_result (self, result);

  return self;
}

/* Requests from the view */

static JsonObject *
build_initialize_result (StewardAppBridge *self)
{
  JsonObject *result = json_object_new ();
  JsonObject *host_info = json_object_new ();
  JsonObject *capabilities = json_object_new ();
  JsonObject *sandbox = json_object_new ();
  JsonObject *csp = json_object_new ();
  JsonObject *context = json_object_new ();
  JsonObject *tool_info = json_object_new ();
  JsonObject *text_only = json_object_new ();
  JsonObject *model_context = json_object_new ();
  const struct {
    const char         *member;
    const char * const *domains;
  } lists[] = {
    { "connectDomains", mcp_app_resource_meta_get_connect_domains (self->meta) },
    { "resourceDomains", mcp_app_resource_meta_get_resource_domains (self->meta) },
    { "frameDomains", mcp_app_resource_meta_get_frame_domains (self->meta) },
    { "baseUriDomains", mcp_app_resource_meta_get_base_uri_domains (self->meta) },
  };
  JsonObjectIter iter;
  const char *member;
  JsonNode *node;

  json_object_set_string_member (result, "protocolVersion", MCP_APP_PROTOCOL_VERSION);
  json_object_set_string_member (host_info, "name", "Steward");
  json_object_set_string_member (host_info, "version", PACKAGE_VERSION);
  json_object_set_object_member (result, "hostInfo", host_info);

  /* What the bridge does: open links (after asking), calls and reads on
   * the view's own server, its log, and text for the chat and the model. */
  json_object_set_object_member (capabilities, "openLinks", json_object_new ());
  json_object_set_object_member (capabilities, "serverTools", json_object_new ());
  json_object_set_object_member (capabilities, "serverResources", json_object_new ());
  json_object_set_object_member (capabilities, "logging", json_object_new ());
  json_object_set_object_member (text_only, "text", json_object_new ());
  json_object_set_object_member (capabilities, "message", text_only);
  json_object_set_object_member (model_context, "text", json_object_new ());
  json_object_set_object_member (model_context, "structuredContent", json_object_new ());
  json_object_set_object_member (capabilities, "updateModelContext", model_context);
  for (gsize i = 0; i < G_N_ELEMENTS (lists); i++)
    {
      JsonArray *array = json_array_new ();

      for (gsize j = 0; lists[i].domains[j] != NULL; j++)
        json_array_add_string_element (array, lists[i].domains[j]);
      json_object_set_array_member (csp, lists[i].member, array);
    }
  json_object_set_object_member (sandbox, "csp", csp);
  json_object_set_object_member (sandbox, "permissions", json_object_new ());
  json_object_set_object_member (capabilities, "sandbox", sandbox);
  json_object_set_object_member (result, "hostCapabilities", capabilities);

  json_object_iter_init (&iter, self->host_context);
  while (json_object_iter_next (&iter, &member, &node))
    json_object_set_member (context, member, json_node_copy (node));
  json_object_set_object_member (tool_info, "tool",
                                 json_object_ref (mcp_item_get_json (MCP_ITEM (self->tool))));
  json_object_set_object_member (context, "toolInfo", tool_info);
  json_object_set_string_member (context, "displayMode", self->display_mode);
  json_object_set_object_member (result, "hostContext", context);

  return result;
}

static void
call_free (Call *call)
{
  if (call->approval != NULL)
    g_clear_signal_handler (&call->responded_id, call->approval);
  g_clear_object (&call->approval);
  g_clear_pointer (&call->id, json_node_unref);
  g_clear_pointer (&call->arguments, json_object_unref);
  g_free (call->tool);
  g_free (call);
}

static McpTool *
find_tool (StewardAppBridge *self,
           const char       *name)
{
  McpClient *client = steward_server_get_client (self->server);
  GListModel *tools;

  if (client == NULL)
    return NULL;

  tools = mcp_client_get_tools (client);
  for (guint i = 0; i < g_list_model_get_n_items (tools); i++)
    {
      g_autoptr(McpTool) tool = g_list_model_get_item (tools, i);

      if (g_strcmp0 (mcp_item_get_name (MCP_ITEM (tool)), name) == 0)
        return g_steal_pointer (&tool);
    }

  return NULL;
}

typedef struct {
  StewardAppBridge *bridge;
  JsonNode         *id;
} Pending;

static void
pending_free (Pending *pending)
{
  g_object_unref (pending->bridge);
  json_node_unref (pending->id);
  g_free (pending);
}

static Pending *
pending_new (StewardAppBridge *self,
             JsonNode         *id)
{
  Pending *pending = g_new0 (Pending, 1);

  pending->bridge = g_object_ref (self);
  pending->id = json_node_copy (id);
  self->n_requests++;
  return pending;
}

static void
reply_gerror (StewardAppBridge *self,
              JsonNode         *id,
              const GError     *error)
{
  /* A JSON-RPC error of the server's goes back as it came; anything else
   * (the server went away, a time-out) as an internal error. */
  int code = error->domain == MCP_ERROR && error->code < 0 ? error->code
                                                           : MCP_ERROR_INTERNAL_ERROR;

  reply_error (self, id, code, error->message);
}

static void
call_tool_cb (GObject      *source,
              GAsyncResult *res,
              gpointer      user_data)
{
  Pending *pending = user_data;
  StewardAppBridge *self = pending->bridge;
  g_autoptr(GError) error = NULL;
  g_autoptr(McpToolResult) result = NULL;

  result = steward_server_call_tool_finish (STEWARD_SERVER (source), res, &error);
  self->n_requests--;
  if (g_cancellable_is_cancelled (self->cancellable))
    ; /* The view is going; no one is there to answer. */
  else if (result == NULL)
    reply_gerror (self, pending->id, error);
  else
    reply_result (self, pending->id, mcp_tool_result_get_json (result));

  pending_free (pending);
}

static void
run_call (StewardAppBridge *self,
          JsonNode         *id,
          const char       *tool,
          JsonObject       *arguments)
{
  steward_server_call_tool_async (self->server, tool, arguments, NULL, NULL, NULL,
                                  self->cancellable, call_tool_cb, pending_new (self, id));
}

static JsonObject *build_approval_request (StewardAppBridge    *self,
                                           McpTool             *tool,
                                           JsonObject          *arguments,
                                           StewardToolPinState  state);
static void        call_approval_responded_cb (StewardApproval       *approval,
                                               StewardApprovalAction  action,
                                               JsonObject            *data,
                                               Call                  *call);

/* Whether @tool runs without asking: a standing "allow" covers the
 * definition the person knows. Sets @state to how the definition stands. */
static gboolean
allowed_without_asking (StewardAppBridge    *self,
                        McpTool             *tool,
                        StewardToolPinState *state)
{
  StewardToolPins *pins = steward_host_get_tool_pins (self->host);
  StewardToolPolicy policy = STEWARD_TOOL_POLICY_ASK;

  *state = STEWARD_TOOL_PIN_UNPINNED;
  if (pins != NULL)
    {
      *state = steward_tool_pins_check (pins, self->server_name, tool);
      policy = steward_tool_pins_decide (pins, self->server_name, tool);
    }

  return policy == STEWARD_TOOL_POLICY_ALLOW && *state == STEWARD_TOOL_PIN_OK;
}

/* Puts @call, already among the view's calls, to the person. */
static void
ask_person (StewardAppBridge    *self,
            Call                *call,
            McpTool             *tool,
            StewardToolPinState  state)
{
  g_autoptr(JsonObject) request = build_approval_request (self, tool, call->arguments, state);
  g_autofree char *cause = NULL;

  call->approval = steward_approval_new (STEWARD_APPROVAL_KIND_TOOL_CALL, self->server_name,
                                         request);
  /* Translators: what caused a tool-call approval; %s names a view. */
  cause = g_strdup_printf (_("The view “%s”"), self->view_label);
  steward_approval_set_cause (call->approval, cause);
  call->responded_id = g_signal_connect (call->approval, "responded",
                                         G_CALLBACK (call_approval_responded_cb), call);
  steward_approvals_add (steward_host_get_approvals (self->host), call->approval);
}

/* Is the person being asked about a call of @tool_name now? */
static gboolean
asking_about (StewardAppBridge *self,
              const char       *tool_name)
{
  for (guint i = 0; i < self->calls->len; i++)
    {
      Call *call = g_ptr_array_index (self->calls, i);

      if (call->approval != NULL && g_strcmp0 (call->tool, tool_name) == 0)
        return TRUE;
    }

  return FALSE;
}

static void
decline (StewardAppBridge *self,
         Call             *call)
{
  /* Translators: the answer to a view whose call the person declined;
   * %s is the tool's name. */
  g_autofree char *text = g_strdup_printf (_("The person declined the call of “%s”"),
                                           call->tool);

  reply_error (self, call->id, MCP_ERROR_USER_REJECTED, text);
}

/* The person answered a call of @tool_name; the calls of the same tool
 * that waited behind it follow the answer: declined with it, or run when
 * the tool is now allowed for good, or else the next one is asked about
 * and the rest wait behind that one. */
static void
release_waiting (StewardAppBridge *self,
                 const char       *tool_name,
                 gboolean          allowed)
{
  for (guint i = 0; i < self->calls->len;)
    {
      Call *call = g_ptr_array_index (self->calls, i);
      g_autoptr(McpTool) tool = NULL;
      StewardToolPinState state;

      if (call->approval != NULL || g_strcmp0 (call->tool, tool_name) != 0)
        {
          i++;
          continue;
        }

      tool = allowed ? find_tool (self, call->tool) : NULL;
      if (tool != NULL && !allowed_without_asking (self, tool, &state))
        {
          ask_person (self, call, tool, state);
          return;
        }

      g_ptr_array_remove_index (self->calls, i);
      if (tool != NULL)
        run_call (self, call->id, call->tool, call->arguments);
      else
        decline (self, call);
      call_free (call);
    }
}

static void
call_approval_responded_cb (StewardApproval       *approval,
                            StewardApprovalAction  action,
                            JsonObject            *data,
                            Call                  *call)
{
  StewardAppBridge *self = call->bridge;
  g_autoptr(McpTool) tool = NULL;
  StewardToolPins *pins;

  if (!steward_approval_action_is_final (action))
    return;

  g_ptr_array_remove (self->calls, call);
  g_clear_signal_handler (&call->responded_id, approval);

  if (action == STEWARD_APPROVAL_ACTION_ALLOW)
    {
      /* What the person allowed is the definition they saw: pin it. */
      pins = steward_host_get_tool_pins (self->host);
      tool = find_tool (self, call->tool);
      if (pins != NULL && tool != NULL)
        steward_tool_pins_approve (pins, self->server_name, tool);
      steward_log_store_add_host_event (steward_host_get_log_store (self->host), self->server_name,
                                        STEWARD_LOG_LEVEL_INFO,
                                        "%s: tools/call %s allowed by the person",
                                        self->view_label, call->tool);
      run_call (self, call->id, call->tool, call->arguments);
    }
  else
    {
      decline (self, call);
    }

  release_waiting (self, call->tool, action == STEWARD_APPROVAL_ACTION_ALLOW);
  call_free (call);
}

static JsonObject *
build_approval_request (StewardAppBridge    *self,
                        McpTool             *tool,
                        JsonObject          *arguments,
                        StewardToolPinState  state)
{
  JsonObject *request = json_object_new ();
  JsonObject *definition = mcp_item_get_json (MCP_ITEM (tool));
  JsonObject *annotations = mcp_json_get_object (definition, "annotations");

  json_object_set_string_member (request, "server", self->server_name);
  json_object_set_string_member (request, "tool", mcp_item_get_name (MCP_ITEM (tool)));
  json_object_set_object_member (request, "arguments", json_object_ref (arguments));
  json_object_set_object_member (request, "annotations",
                                 annotations != NULL ? json_object_ref (annotations)
                                                     : json_object_new ());
  json_object_set_object_member (request, "definition", json_object_ref (definition));
  json_object_set_string_member (request, "pinState", steward_tool_pin_state_to_string (state));
  json_object_set_string_member (request, "view", self->view_label);

  return request;
}

/* The rules of a call from a chat, and two more: the tool is this
 * server's, and the server meant it for views. */
static void
handle_tools_call (StewardAppBridge *self,
                   JsonNode         *id,
                   JsonObject       *params)
{
  const char *name = mcp_json_get_string (params, "name");
  JsonNode *arguments_node = params != NULL ? json_object_get_member (params, "arguments") : NULL;
  g_autoptr(JsonObject) arguments = NULL;
  g_autoptr(McpTool) tool = NULL;
  g_autofree char *text = NULL;
  StewardToolPinState state;
  Call *call;

  if (name == NULL)
    {
      reply_error (self, id, MCP_ERROR_INVALID_PARAMS,
                   _("tools/call needs the tool’s “name” as text"));
      return;
    }
  if (arguments_node != NULL && !JSON_NODE_HOLDS_NULL (arguments_node) &&
      !JSON_NODE_HOLDS_OBJECT (arguments_node))
    {
      reply_error (self, id, MCP_ERROR_INVALID_PARAMS,
                   _("tools/call takes its “arguments” as an object"));
      return;
    }
  arguments = arguments_node != NULL && JSON_NODE_HOLDS_OBJECT (arguments_node)
              ? json_object_ref (json_node_get_object (arguments_node)) : json_object_new ();

  if (steward_server_get_status (self->server) != STEWARD_SERVER_STATUS_READY)
    {
      /* Translators: %s is a server's name. */
      text = g_strdup_printf (_("The server “%s” is not running"), self->server_name);
      reply_error (self, id, MCP_ERROR_INTERNAL_ERROR, text);
      return;
    }

  tool = find_tool (self, name);
  if (tool == NULL)
    {
      /* Translators: the first %s is a server's name, the second a tool's. */
      text = g_strdup_printf (_("The server “%s” of this view offers no tool “%s”; a view calls "
                                "its own server’s tools only"), self->server_name, name);
      reply_error (self, id, MCP_ERROR_INVALID_PARAMS, text);
      return;
    }
  if (!mcp_tool_get_visible_to_app (tool))
    {
      /* Translators: %s is a tool's name. */
      text = g_strdup_printf (_("The tool “%s” is not offered to views: its visibility leaves "
                                "out “app”"), name);
      reply_error (self, id, MCP_ERROR_INVALID_REQUEST, text);
      return;
    }
  if (self->n_requests + self->calls->len >= REQUESTS_MAX)
    {
      reply_error (self, id, MCP_ERROR_INVALID_REQUEST,
                   _("This view has too many calls under way; wait for one to finish"));
      return;
    }

  if (allowed_without_asking (self, tool, &state))
    {
      run_call (self, id, name, arguments);
      return;
    }

  call = g_new0 (Call, 1);
  call->bridge = self;
  call->id = json_node_copy (id);
  call->tool = g_strdup (name);
  call->arguments = json_object_ref (arguments);
  g_ptr_array_add (self->calls, call);
  /* A view that polls would otherwise stack up one question a poll while
   * the person reads the first: later calls of the tool wait for its
   * answer. */
  if (!asking_about (self, name))
    ask_person (self, call, tool, state);
}

static void
read_resource_cb (GObject      *source,
                  GAsyncResult *res,
                  gpointer      user_data)
{
  Pending *pending = user_data;
  StewardAppBridge *self = pending->bridge;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) contents = NULL;

  contents = mcp_client_read_resource_finish (MCP_CLIENT (source), res, &error);
  self->n_requests--;
  if (g_cancellable_is_cancelled (self->cancellable))
    ;
  else if (contents == NULL)
    reply_gerror (self, pending->id, error);
  else
    {
      g_autoptr(JsonObject) result = json_object_new ();
      JsonArray *array = json_array_new ();

      for (guint i = 0; i < contents->len; i++)
        json_array_add_object_element (array,
                                       json_object_ref (mcp_content_get_json (
                                                          g_ptr_array_index (contents, i))));
      json_object_set_array_member (result, "contents", array);
      reply_result (self, pending->id, result);
    }

  pending_free (pending);
}

/* The view reads through its own server's client: no other server is
 * reachable from here. */
static void
handle_resources_read (StewardAppBridge *self,
                       JsonNode         *id,
                       JsonObject       *params)
{
  const char *uri = mcp_json_get_string (params, "uri");
  McpClient *client = steward_server_get_client (self->server);
  g_autofree char *text = NULL;

  if (uri == NULL)
    {
      reply_error (self, id, MCP_ERROR_INVALID_PARAMS,
                   _("resources/read needs the resource’s “uri” as text"));
      return;
    }
  if (client == NULL || steward_server_get_status (self->server) != STEWARD_SERVER_STATUS_READY)
    {
      text = g_strdup_printf (_("The server “%s” is not running"), self->server_name);
      reply_error (self, id, MCP_ERROR_INTERNAL_ERROR, text);
      return;
    }
  if (self->n_requests + self->calls->len >= REQUESTS_MAX)
    {
      reply_error (self, id, MCP_ERROR_INVALID_REQUEST,
                   _("This view has too many calls under way; wait for one to finish"));
      return;
    }

  mcp_client_read_resource_async (client, uri, self->cancellable, read_resource_cb,
                                  pending_new (self, id));
}

static void
handle_message (StewardAppBridge *self,
                JsonNode         *id,
                JsonObject       *params)
{
  const char *role = mcp_json_get_string (params, "role");
  JsonArray *content = mcp_json_get_array (params, "content");
  g_autoptr(JsonObject) result = json_object_new ();

  if (g_strcmp0 (role, "user") != 0 || content == NULL)
    {
      reply_error (self, id, MCP_ERROR_INVALID_PARAMS,
                   _("ui/message takes the role “user” and a list of “content”"));
      return;
    }

  /* With no chat to take it, the view is told so rather than left to
   * think the message went somewhere. */
  if (!g_signal_has_handler_pending (self, signals[SIGNAL_MESSAGE], 0, FALSE))
    json_object_set_boolean_member (result, "isError", TRUE);
  else
    g_signal_emit (self, signals[SIGNAL_MESSAGE], 0, role, content);

  reply_result (self, id, result);
}

static void
handle_update_model_context (StewardAppBridge *self,
                             JsonNode         *id,
                             JsonObject       *params)
{
  JsonNode *content = params != NULL ? json_object_get_member (params, "content") : NULL;
  JsonNode *structured = params != NULL ? json_object_get_member (params, "structuredContent")
                                        : NULL;
  JsonObject *stored;

  if ((content != NULL && !JSON_NODE_HOLDS_ARRAY (content)) ||
      (structured != NULL && !JSON_NODE_HOLDS_OBJECT (structured)))
    {
      reply_error (self, id, MCP_ERROR_INVALID_PARAMS,
                   _("ui/update-model-context takes “content” as a list and "
                     "“structuredContent” as an object"));
      return;
    }

  /* Each update replaces the last one. */
  stored = json_object_new ();
  if (content != NULL)
    json_object_set_member (stored, "content", json_node_copy (content));
  if (structured != NULL)
    json_object_set_member (stored, "structuredContent", json_node_copy (structured));
  g_clear_pointer (&self->model_context, json_object_unref);
  self->model_context = stored;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODEL_CONTEXT]);

  reply_result (self, id, NULL);
}

static gboolean
is_display_mode (const char *mode)
{
  return g_strcmp0 (mode, "inline") == 0 || g_strcmp0 (mode, "fullscreen") == 0 ||
         g_strcmp0 (mode, "pip") == 0;
}

static void
set_display_mode (StewardAppBridge *self,
                  const char       *mode)
{
  if (g_strcmp0 (self->display_mode, mode) == 0)
    return;

  g_free (self->display_mode);
  self->display_mode = g_strdup (mode);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DISPLAY_MODE]);
}

static void
handle_request_display_mode (StewardAppBridge *self,
                             JsonNode         *id,
                             JsonObject       *params)
{
  const char *mode = mcp_json_get_string (params, "mode");
  g_autofree char *granted = NULL;
  g_autoptr(JsonObject) result = json_object_new ();

  if (!is_display_mode (mode))
    {
      reply_error (self, id, MCP_ERROR_INVALID_PARAMS,
                   _("ui/request-display-mode takes the “mode” “inline”, “fullscreen” or "
                     "“pip”"));
      return;
    }

  g_signal_emit (self, signals[SIGNAL_DISPLAY_MODE_REQUESTED], 0, mode, &granted);
  if (is_display_mode (granted))
    set_display_mode (self, granted);

  json_object_set_string_member (result, "mode", self->display_mode);
  reply_result (self, id, result);
}

static void
handle_open_link (StewardAppBridge *self,
                  JsonNode         *id,
                  JsonObject       *params)
{
  const char *url = mcp_json_get_string (params, "url");
  g_autoptr(JsonObject) result = json_object_new ();
  g_autoptr(GError) error = NULL;

  if (url == NULL)
    {
      reply_error (self, id, MCP_ERROR_INVALID_PARAMS,
                   _("ui/open-link takes the address to open in “url”"));
      return;
    }

  /* The checker every link from a server passes: https, or http to this
   * computer, and nothing a browser could read as another site. */
  if (!steward_url_check (url, NULL, NULL, &error))
    {
      reply_error (self, id, MCP_ERROR_INVALID_PARAMS, error->message);
      return;
    }

  if (!g_signal_has_handler_pending (self, signals[SIGNAL_OPEN_LINK], 0, FALSE))
    json_object_set_boolean_member (result, "isError", TRUE);
  else
    g_signal_emit (self, signals[SIGNAL_OPEN_LINK], 0, url);

  reply_result (self, id, result);
}

static int
get_dimension (JsonObject *params,
               const char *member)
{
  double value;

  if (!mcp_json_has_number (params, member))
    return -1;

  value = mcp_json_get_number (params, member, -1);
  return value >= 0 && value <= 100000 ? (int) value : -1;
}

static void
handle_server_log (StewardAppBridge *self,
                   JsonObject       *params)
{
  StewardLogStore *store = steward_host_get_log_store (self->host);
  const char *level_name = mcp_json_get_string (params, "level");
  JsonNode *data = params != NULL ? json_object_get_member (params, "data") : NULL;
  StewardLogLevel level = STEWARD_LOG_LEVEL_INFO;
  g_autoptr(StewardLogEntry) entry = NULL;
  g_autofree char *text = NULL;

  if (level_name != NULL && !steward_log_level_from_string (level_name, &level))
    level = STEWARD_LOG_LEVEL_INFO;

  if (data != NULL && JSON_NODE_HOLDS_VALUE (data) &&
      json_node_get_value_type (data) == G_TYPE_STRING)
    text = g_strdup (json_node_get_string (data));
  else if (data != NULL)
    text = json_to_string (data, FALSE);
  else
    text = g_strdup ("");

  entry = steward_log_entry_new (g_get_real_time (), self->server_name, STEWARD_LOG_SOURCE_SERVER,
                                 level, STEWARD_LOG_DIRECTION_NONE, self->view_label, text, text,
                                 strlen (text));
  steward_log_store_append (store, entry);
}

static void
teardown_complete (StewardAppBridge *self,
                   GError           *error)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->teardown_task);

  g_clear_handle_id (&self->teardown_timeout, g_source_remove);
  g_clear_pointer (&self->teardown_id, g_free);
  if (task == NULL)
    return;

  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void
handle_response (StewardAppBridge *self,
                 JsonObject       *message,
                 JsonNode         *id)
{
  /* The one request we send is the teardown; any other answer is the
   * view's confusion, logged and dropped. */
  if (self->teardown_id != NULL && id != NULL &&
      json_node_get_value_type (id) == G_TYPE_STRING &&
      g_strcmp0 (json_node_get_string (id), self->teardown_id) == 0)
    teardown_complete (self, NULL);
  else
    log_traffic (self, STEWARD_LOG_DIRECTION_IN, STEWARD_LOG_LEVEL_WARNING,
                 _("An answer to nothing Steward asked; dropped"), "", 0);
}

static void
dispatch (StewardAppBridge  *self,
          StewardAppMessage *message)
{
  JsonNode *id = message->id;
  JsonObject *params = message->params;
  const char *method = message->method;
  g_autofree char *text = NULL;

  if (message->kind == STEWARD_APP_MESSAGE_RESPONSE)
    {
      handle_response (self, message->object, id);
      return;
    }

  if (message->kind == STEWARD_APP_MESSAGE_REQUEST)
    {
      if (g_str_equal (method, "ui/initialize"))
        {
          g_autoptr(JsonObject) result = build_initialize_result (self);

          reply_result (self, id, result);
        }
      else if (g_str_equal (method, "tools/call"))
        handle_tools_call (self, id, params);
      else if (g_str_equal (method, "resources/read"))
        handle_resources_read (self, id, params);
      else if (g_str_equal (method, "ui/message"))
        handle_message (self, id, params);
      else if (g_str_equal (method, "ui/update-model-context"))
        handle_update_model_context (self, id, params);
      else if (g_str_equal (method, "ui/request-display-mode"))
        handle_request_display_mode (self, id, params);
      else if (g_str_equal (method, "ui/open-link"))
        handle_open_link (self, id, params);
      else if (g_str_equal (method, "ping"))
        reply_result (self, id, NULL);
      else
        {
          /* Translators: %s is a JSON-RPC method a view asked for. */
          text = g_strdup_printf (_("Steward offers views no method “%s”"), method);
          reply_error (self, id, MCP_ERROR_METHOD_NOT_FOUND, text);
        }
      return;
    }

  if (g_str_equal (method, "ui/notifications/initialized"))
    {
      if (!self->initialized)
        {
          self->initialized = TRUE;
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INITIALIZED]);
          g_signal_emit (self, signals[SIGNAL_INITIALIZED], 0);
          flush_queue (self);
        }
    }
  else if (g_str_equal (method, "ui/notifications/size-changed"))
    g_signal_emit (self, signals[SIGNAL_SIZE_CHANGED], 0, get_dimension (params, "width"),
                   get_dimension (params, "height"));
  else if (g_str_equal (method, "ui/notifications/request-teardown"))
    g_signal_emit (self, signals[SIGNAL_TEARDOWN_REQUESTED], 0);
  else if (g_str_equal (method, "notifications/message"))
    handle_server_log (self, params);
  else
    {
      /* A notification has no one to answer; the log says what was wrong. */
      text = g_strdup_printf (_("Steward offers views no notification “%s”; dropped"), method);
      log_traffic (self, STEWARD_LOG_DIRECTION_IN, STEWARD_LOG_LEVEL_WARNING, text, "", 0);
    }
}

void
steward_app_bridge_receive (StewardAppBridge *self,
                            const char       *json_text)
{
  g_autoptr(StewardAppMessage) message = NULL;
  g_autoptr(JsonNode) reply_id = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *id_text = NULL;
  gsize length;

  g_return_if_fail (STEWARD_IS_APP_BRIDGE (self));

  /* Keeps the bridge while a handler drops the last other reference. */
  g_object_ref (self);

  if (json_text == NULL)
    json_text = "";
  length = strlen (json_text);
  message = steward_app_message_parse (json_text, length, &reply_id, &error);

  if (message == NULL)
    {
      log_traffic (self, STEWARD_LOG_DIRECTION_IN, STEWARD_LOG_LEVEL_WARNING, error->message,
                   json_text, length);
      /* A notification has no one to answer; the log says what was wrong. */
      if (reply_id != NULL)
        reply_error (self, reply_id, error->code, error->message);
    }
  else
    {
      id_text = steward_app_message_describe_id (message->id);
      summary = g_strconcat (message->method != NULL ? message->method : "result", id_text,
                             NULL);
      log_traffic (self, STEWARD_LOG_DIRECTION_IN, STEWARD_LOG_LEVEL_DEBUG, summary, json_text,
                   length);
      dispatch (self, message);
    }

  g_object_unref (self);
}

/* Accessors */

StewardServer *
steward_app_bridge_get_server (StewardAppBridge *self)
{
  g_return_val_if_fail (STEWARD_IS_APP_BRIDGE (self), NULL);

  return self->server;
}

McpTool *
steward_app_bridge_get_tool (StewardAppBridge *self)
{
  g_return_val_if_fail (STEWARD_IS_APP_BRIDGE (self), NULL);

  return self->tool;
}

McpAppResourceMeta *
steward_app_bridge_get_meta (StewardAppBridge *self)
{
  g_return_val_if_fail (STEWARD_IS_APP_BRIDGE (self), NULL);

  return self->meta;
}

const char *
steward_app_bridge_get_view_label (StewardAppBridge *self)
{
  g_return_val_if_fail (STEWARD_IS_APP_BRIDGE (self), NULL);

  return self->view_label;
}

gboolean
steward_app_bridge_get_initialized (StewardAppBridge *self)
{
  g_return_val_if_fail (STEWARD_IS_APP_BRIDGE (self), FALSE);

  return self->initialized;
}

void
steward_app_bridge_set_host_context (StewardAppBridge *self,
                                     JsonObject       *context)
{
  g_autoptr(JsonObject) changed = json_object_new ();
  JsonObjectIter iter;
  const char *member;
  JsonNode *node;

  g_return_if_fail (STEWARD_IS_APP_BRIDGE (self));
  g_return_if_fail (context != NULL);

  json_object_iter_init (&iter, context);
  while (json_object_iter_next (&iter, &member, &node))
    {
      JsonNode *old = json_object_get_member (self->host_context, member);

      /* toolInfo is the bridge's to say, from the tool it was made for. */
      if (g_str_equal (member, "toolInfo"))
        continue;
      if (old == NULL || !json_node_equal (old, node))
        {
          json_object_set_member (changed, member, json_node_copy (node));
          json_object_set_member (self->host_context, member, json_node_copy (node));
        }
    }

  if (is_display_mode (mcp_json_get_string (context, "displayMode")))
    set_display_mode (self, mcp_json_get_string (context, "displayMode"));

  if (self->initialized && json_object_get_size (changed) > 0)
    send_notification (self, "ui/notifications/host-context-changed", changed);
}

JsonObject *
steward_app_bridge_get_host_context (StewardAppBridge *self)
{
  g_return_val_if_fail (STEWARD_IS_APP_BRIDGE (self), NULL);

  return self->host_context;
}

const char *
steward_app_bridge_get_display_mode (StewardAppBridge *self)
{
  g_return_val_if_fail (STEWARD_IS_APP_BRIDGE (self), NULL);

  return self->display_mode;
}

JsonObject *
steward_app_bridge_get_model_context (StewardAppBridge *self)
{
  g_return_val_if_fail (STEWARD_IS_APP_BRIDGE (self), NULL);

  return self->model_context;
}

static void
send_arguments (StewardAppBridge *self,
                const char       *method,
                JsonObject       *arguments)
{
  g_autoptr(JsonObject) params = json_object_new ();

  json_object_set_object_member (params, "arguments",
                                 arguments != NULL ? json_object_ref (arguments)
                                                   : json_object_new ());
  queue_or_send (self, method, params);
}

void
steward_app_bridge_send_tool_input (StewardAppBridge *self,
                                    JsonObject       *arguments)
{
  g_return_if_fail (STEWARD_IS_APP_BRIDGE (self));

  send_arguments (self, "ui/notifications/tool-input", arguments);
}

void
steward_app_bridge_send_tool_input_partial (StewardAppBridge *self,
                                            JsonObject       *arguments)
{
  g_return_if_fail (STEWARD_IS_APP_BRIDGE (self));

  send_arguments (self, "ui/notifications/tool-input-partial", arguments);
}

void
steward_app_bridge_send_tool_result (StewardAppBridge *self,
                                     McpToolResult    *result)
{
  g_return_if_fail (STEWARD_IS_APP_BRIDGE (self));
  g_return_if_fail (MCP_IS_TOOL_RESULT (result));

  queue_or_send (self, "ui/notifications/tool-result", mcp_tool_result_get_json (result));
}

void
steward_app_bridge_send_tool_cancelled (StewardAppBridge *self,
                                        const char       *reason)
{
  g_autoptr(JsonObject) params = json_object_new ();

  g_return_if_fail (STEWARD_IS_APP_BRIDGE (self));

  if (reason != NULL)
    json_object_set_string_member (params, "reason", reason);
  queue_or_send (self, "ui/notifications/tool-cancelled", params);
}

static gboolean
teardown_timeout_cb (gpointer user_data)
{
  StewardAppBridge *self = user_data;

  self->teardown_timeout = 0;
  teardown_complete (self, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                                                _("The view did not answer the request to "
                                                  "close in time")));
  return G_SOURCE_REMOVE;
}

void
steward_app_bridge_teardown_async (StewardAppBridge    *self,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(JsonObject) message = NULL;

  g_return_if_fail (STEWARD_IS_APP_BRIDGE (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_app_bridge_teardown_async);

  cancel_calls (self);

  if (!self->initialized)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }
  if (self->teardown_task != NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_PENDING,
                               _("The view is already being closed"));
      return;
    }

  self->teardown_task = g_steal_pointer (&task);
  self->teardown_id = g_strdup_printf ("steward-teardown-%" G_GUINT64_FORMAT, ++self->next_id);
  self->teardown_timeout = g_timeout_add (STEWARD_APP_BRIDGE_TEARDOWN_TIMEOUT_MS,
                                          teardown_timeout_cb, self);

  message = new_message ();
  json_object_set_string_member (message, "id", self->teardown_id);
  json_object_set_string_member (message, "method", "ui/resource-teardown");
  json_object_set_object_member (message, "params", json_object_new ());
  deliver (self, message, "ui/resource-teardown");
}

gboolean
steward_app_bridge_teardown_finish (StewardAppBridge  *self,
                                    GAsyncResult      *result,
                                    GError           **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-app-call-view"

#include "config.h"

#include "steward-app-bridge.h"
#include "steward-app-view-module.h"
#include "steward-application.h"

#include "steward-app-call-view.h"

struct _StewardAppCallView
{
  AdwBin           parent_instance;

  StewardToolCall *call;
  GtkWidget       *view;
  gboolean         told;
};

G_DEFINE_FINAL_TYPE (StewardAppCallView, steward_app_call_view, ADW_TYPE_BIN)

static McpTool *
find_tool (StewardServer *server,
           const char    *name)
{
  McpClient *client = steward_server_get_client (server);
  GListModel *tools = client != NULL ? mcp_client_get_tools (client) : NULL;

  for (guint i = 0; tools != NULL && i < g_list_model_get_n_items (tools); i++)
    {
      g_autoptr(McpTool) tool = g_list_model_get_item (tools, i);

      if (g_strcmp0 (mcp_item_get_name (MCP_ITEM (tool)), name) == 0)
        return tool;
    }

  return NULL;
}

/* What the page asks of the chat goes through the call, which the chat
 * engine and the tool call's row follow. */
static void
bridge_message_cb (StewardAppBridge   *bridge,
                   const char         *role,
                   JsonArray          *content,
                   StewardAppCallView *self)
{
  steward_tool_call_post_view_message (self->call, content);
}

static void
bridge_model_context_cb (StewardAppBridge   *bridge,
                         GParamSpec         *pspec,
                         StewardAppCallView *self)
{
  steward_tool_call_set_view_context (self->call, steward_app_bridge_get_model_context (bridge));
}

static void
bridge_created_cb (GtkWidget          *view,
                   StewardAppBridge   *bridge,
                   StewardAppCallView *self)
{
  g_signal_connect_object (bridge, "message", G_CALLBACK (bridge_message_cb), self,
                           G_CONNECT_DEFAULT);
  g_signal_connect_object (bridge, "notify::model-context", G_CALLBACK (bridge_model_context_cb),
                           self, G_CONNECT_DEFAULT);
}

static void
create_view (StewardAppCallView *self)
{
  GApplication *app = g_application_get_default ();
  StewardHost *host;
  StewardServer *server;
  McpTool *tool;

  /* The chat runs inside the app; elsewhere (tests) there is no host
   * to give a view. */
  if (!STEWARD_IS_APPLICATION (app))
    return;

  host = steward_application_get_host (STEWARD_APPLICATION (app));
  server = steward_server_registry_lookup (steward_host_get_registry (host),
                                           steward_tool_call_get_server (self->call));
  tool = server != NULL ? find_tool (server, steward_tool_call_get_tool (self->call)) : NULL;
  if (tool == NULL || !steward_app_view_tool_has_view (tool))
    return;

  self->view = steward_app_view_module_new_view (host, server, tool,
                                                 steward_tool_call_get_arguments (self->call));
  if (self->view == NULL)
    return;
  /* The view's type lives in the module; its signal is found by name. */
  g_signal_connect_object (self->view, "bridge-created", G_CALLBACK (bridge_created_cb), self,
                           G_CONNECT_DEFAULT);
  gtk_widget_set_margin_top (self->view, 6);
  adw_bin_set_child (ADW_BIN (self), self->view);
}

static void
update (StewardAppCallView *self)
{
  StewardToolCallState state = steward_tool_call_get_state (self->call);
  JsonArray *content = steward_tool_call_get_result (self->call);

  if (state == STEWARD_TOOL_CALL_WAITING || state == STEWARD_TOOL_CALL_DENIED)
    return;

  if (self->view == NULL)
    create_view (self);
  if (self->view == NULL || self->told)
    return;

  if (content != NULL && state != STEWARD_TOOL_CALL_RUNNING)
    {
      g_autoptr(JsonObject) json = json_object_new ();
      g_autoptr(McpToolResult) result = NULL;

      json_object_set_array_member (json, "content", json_array_ref (content));
      json_object_set_boolean_member (json, "isError", steward_tool_call_get_is_error (self->call));
      if (steward_tool_call_get_structured_content (self->call) != NULL)
        json_object_set_member (json, "structuredContent",
                                json_node_copy (steward_tool_call_get_structured_content (self->call)));
      result = mcp_tool_result_new (json);
      steward_app_view_module_set_result (self->view, result);
      self->told = TRUE;
    }
  else if (state == STEWARD_TOOL_CALL_FAILED)
    {
      steward_app_view_module_set_cancelled (self->view,
                                             steward_tool_call_get_error (self->call));
      self->told = TRUE;
    }
}

static void
steward_app_call_view_dispose (GObject *object)
{
  StewardAppCallView *self = STEWARD_APP_CALL_VIEW (object);

  self->view = NULL;
  g_clear_object (&self->call);

  G_OBJECT_CLASS (steward_app_call_view_parent_class)->dispose (object);
}

static void
steward_app_call_view_class_init (StewardAppCallViewClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = steward_app_call_view_dispose;
}

static void
steward_app_call_view_init (StewardAppCallView *self)
{
}

GtkWidget *
steward_app_call_view_new (StewardToolCall *call)
{
  StewardAppCallView *self;

  g_return_val_if_fail (STEWARD_IS_TOOL_CALL (call), NULL);

  self = g_object_new (STEWARD_TYPE_APP_CALL_VIEW, NULL);
  self->call = g_object_ref (call);
  g_signal_connect_object (call, "notify::state", G_CALLBACK (update), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (call, "notify::result", G_CALLBACK (update), self, G_CONNECT_SWAPPED);
  update (self);

  return GTK_WIDGET (self);
}

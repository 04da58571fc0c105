/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-server-page"

#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "mcp-resource.h"
#include "steward-completion-entry.h"
#include "steward-host.h"
#include "steward-sandbox-profile.h"
#include "steward-info-view.h"
#include "steward-markdown-view.h"
#include "steward-prompt-view.h"
#include "steward-resource-view.h"
#include "steward-schema-form-private.h"
#include "steward-server-page.h"
#include "steward-template-view.h"
#include "steward-tool-pane.h"
#include "steward-tool-result-view.h"

#include "test-host-fixture.h"

/* A server page over the reference server "everything", started by a
 * StewardHost as the app starts it, driven as a person would drive it. */

typedef struct {
  char          *top;
  StewardHost   *host;
  StewardServer *server;
  GtkWindow     *window;
  GtkWidget     *page;
} Fixture;

static void
collect (GtkWidget *widget,
         GType      type,
         GPtrArray *found)
{
  if (!gtk_widget_get_visible (widget))
    return;

  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    g_ptr_array_add (found, widget);

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect (child, type, found);
}

static GtkWidget *
find_one (GtkWidget *root,
          GType      type)
{
  g_autoptr(GPtrArray) found = g_ptr_array_new ();

  collect (root, type, found);
  return found->len > 0 ? g_ptr_array_index (found, 0) : NULL;
}

/* A visible label, or the text of a text view, that holds @part. */
static gboolean
shows_text (GtkWidget  *root,
            const char *part)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();
  g_autoptr(GPtrArray) views = g_ptr_array_new ();

  collect (root, GTK_TYPE_LABEL, labels);
  for (guint i = 0; i < labels->len; i++)
    if (strstr (gtk_label_get_text (g_ptr_array_index (labels, i)), part) != NULL)
      return TRUE;

  collect (root, GTK_TYPE_TEXT_VIEW, views);
  for (guint i = 0; i < views->len; i++)
    {
      GtkTextBuffer *buffer = gtk_text_view_get_buffer (g_ptr_array_index (views, i));
      GtkTextIter start, end;
      g_autofree char *text = NULL;

      gtk_text_buffer_get_bounds (buffer, &start, &end);
      text = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
      if (strstr (text, part) != NULL)
        return TRUE;
    }

  return FALSE;
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  const char *peers = g_getenv ("STEWARD_PEERS_DIR");
  g_autofree char *server_js = NULL;
  g_autofree char *config_path = NULL;
  g_autofree char *state_path = NULL;
  g_autofree char *servers_path = NULL;
  g_autofree char *servers = NULL;
  g_autoptr(GFile) config_dir = NULL;
  g_autoptr(GFile) state_dir = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  GListModel *registry;
  GListModel *approvals;
  g_autoptr(StewardApproval) approval = NULL;

  g_assert_nonnull (peers);
  server_js = g_build_filename (peers, "@modelcontextprotocol", "server-everything", "dist",
                                "index.js", NULL);

  fixture->top = g_dir_make_tmp ("test-server-page-XXXXXX", &error);
  g_assert_no_error (error);
  config_path = g_build_filename (fixture->top, "config", "steward", NULL);
  state_path = g_build_filename (fixture->top, "state", "steward", NULL);
  g_assert_cmpint (g_mkdir_with_parents (config_path, 0700), ==, 0);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "mcpServers");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "everything");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "command");
  json_builder_add_string_value (builder, "node");
  json_builder_set_member_name (builder, "args");
  json_builder_begin_array (builder);
  json_builder_add_string_value (builder, server_js);
  json_builder_add_string_value (builder, "stdio");
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  servers = json_generator_to_data (generator, NULL);
  servers_path = g_build_filename (config_path, "servers.json", NULL);
  g_file_set_contents (servers_path, servers, -1, &error);
  g_assert_no_error (error);

  config_dir = g_file_new_for_path (config_path);
  state_dir = g_file_new_for_path (state_path);
  fixture->host = steward_host_new (config_dir, state_dir);
  steward_host_start (fixture->host);

  registry = G_LIST_MODEL (steward_host_get_registry (fixture->host));
  test_loop_until (g_list_model_get_n_items (registry) == 1, 10);
  fixture->server = g_list_model_get_item (registry, 0);

  /* A new server asks for consent first; the person allows it. */
  approvals = G_LIST_MODEL (steward_host_get_approvals (fixture->host));
  test_loop_until (g_list_model_get_n_items (approvals) == 1, 10);
  approval = g_list_model_get_item (approvals, 0);
  g_assert_cmpint (steward_approval_get_kind (approval), ==, STEWARD_APPROVAL_KIND_CONSENT);
  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_ALLOW, NULL);
  test_loop_until (steward_server_get_status (fixture->server) == STEWARD_SERVER_STATUS_READY, 60);

  fixture->window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (fixture->window, 1000, 700);
  fixture->page = g_object_ref (steward_server_page_new (fixture->server));
  gtk_window_set_child (fixture->window, fixture->page);
  gtk_window_present (fixture->window);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  gtk_window_destroy (fixture->window);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_finalize_object (fixture->page);

  test_host_shutdown (fixture->host, 10);

  g_clear_object (&fixture->server);
  g_clear_object (&fixture->host);
  test_remove_tree (fixture->top);
  g_free (fixture->top);
}

static StewardServerPage *
page_of (Fixture *fixture)
{
  return STEWARD_SERVER_PAGE (fixture->page);
}

/* The switch in the Permissions popover, beside the page's others. */
static GtkSwitch *
network_switch (Fixture *fixture)
{
  g_autoptr(GPtrArray) switches = g_ptr_array_new ();
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();

  collect (fixture->page, GTK_TYPE_MENU_BUTTON, buttons);
  for (guint i = 0; i < buttons->len; i++)
    if (g_strcmp0 (gtk_menu_button_get_label (g_ptr_array_index (buttons, i)),
                   "_Permissions") == 0)
      gtk_menu_button_popup (g_ptr_array_index (buttons, i));

  collect (fixture->page, GTK_TYPE_SWITCH, switches);
  for (guint i = 0; i < switches->len; i++)
    if (gtk_widget_get_ancestor (g_ptr_array_index (switches, i), GTK_TYPE_POPOVER) != NULL)
      return g_ptr_array_index (switches, i);

  g_assert_not_reached ();
}

static gboolean
file_holds (const char *path,
            const char *needle)
{
  g_autofree char *contents = NULL;

  return g_file_get_contents (path, &contents, NULL, NULL) && strstr (contents, needle) != NULL;
}

static void
test_info (Fixture       *fixture,
           gconstpointer  data)
{
  McpClient *client = steward_server_get_client (fixture->server);
  GtkWidget *info;

  test_loop_until ((info = steward_server_page_get_pane (page_of (fixture), "info")) != NULL, 10);
  g_assert_true (STEWARD_IS_INFO_VIEW (info));
  g_assert_nonnull (mcp_client_get_protocol_version (client));
  g_assert_cmpstr (steward_info_view_get_fact (STEWARD_INFO_VIEW (info), "revision"), ==,
                   mcp_client_get_protocol_version (client));
  g_assert_cmpstr (steward_info_view_get_fact (STEWARD_INFO_VIEW (info), "name"), ==,
                   "mcp-servers/everything");
  g_assert_nonnull (strstr (steward_info_view_get_fact (STEWARD_INFO_VIEW (info), "capabilities"),
                            "tools"));
  g_assert_true (shows_text (info, mcp_client_get_protocol_version (client)));
  /* The server's instructions are Markdown, and read as such. */
  g_assert_nonnull (mcp_client_get_instructions (client));
  g_assert_nonnull (find_one (info, STEWARD_TYPE_MARKDOWN_VIEW));
  g_assert_cmpstr (steward_info_view_get_fact (STEWARD_INFO_VIEW (info), "instructions"), ==,
                   mcp_client_get_instructions (client));
  /* The switch that starts the server with the app says what it is. */
  {
    g_autoptr(GPtrArray) labels = g_ptr_array_new ();
    GtkLabel *label = NULL;

    collect (fixture->page, GTK_TYPE_LABEL, labels);
    for (guint i = 0; i < labels->len && label == NULL; i++)
      if (g_str_equal (gtk_label_get_text (g_ptr_array_index (labels, i)), "Enabled"))
        label = g_ptr_array_index (labels, i);
    g_assert_nonnull (label);
    g_assert_true (gtk_widget_is_visible (GTK_WIDGET (label)));
    g_assert_true (GTK_IS_SWITCH (gtk_label_get_mnemonic_widget (label)));
  }
  /* The server logs, so its level can be chosen. */
  g_assert_nonnull (find_one (info, GTK_TYPE_DROP_DOWN));

  /* Its sandbox's permissions, in the sentences the consent dialog shows. */
  {
    g_autoptr(StewardSandboxProfile) profile =
      steward_sandbox_profile_new (steward_server_get_config (fixture->server), NULL);
    g_auto(GStrv) lines = steward_sandbox_profile_dup_descriptions (profile);
    g_autoptr(GPtrArray) buttons = g_ptr_array_new ();

    /* The list is in the Permissions button's popover. */
    collect (fixture->page, GTK_TYPE_MENU_BUTTON, buttons);
    for (guint i = 0; i < buttons->len; i++)
      if (g_strcmp0 (gtk_menu_button_get_label (g_ptr_array_index (buttons, i)),
                     "_Permissions") == 0)
        gtk_menu_button_popup (g_ptr_array_index (buttons, i));

    /* Every sentence but the network's: a switch says that one. */
    for (guint i = 0; lines[i] != NULL; i++)
      if (!g_str_has_prefix (lines[i], "Network: "))
        g_assert_true (shows_text (fixture->page, lines[i]));
    g_assert_false (shows_text (fixture->page, "Network: off."));
    g_assert_true (shows_text (fixture->page, "Network Access"));
    g_assert_false (gtk_switch_get_active (network_switch (fixture)));
  }
}

/* The network switch writes the entry; consent covers the network, so the
 * running server stops and asks again before it starts with it. */
static void
test_network_switch (Fixture       *fixture,
                     gconstpointer  data)
{
  StewardConfig *store = steward_host_get_config (fixture->host);
  GListModel *approvals = G_LIST_MODEL (steward_host_get_approvals (fixture->host));
  g_autofree char *servers_path = g_build_filename (fixture->top, "config", "steward",
                                                    "servers.json", NULL);
  g_autoptr(StewardApproval) approval = NULL;
  StewardServerConfig *stored;
  JsonObject *network;
  GtkSwitch *toggle = network_switch (fixture);

  g_assert_true (shows_text (fixture->page, "Takes effect after you allow the server to start "
                                            "again"));
  g_assert_false (gtk_switch_get_active (toggle));
  gtk_switch_set_active (toggle, TRUE);

  stored = steward_config_lookup (store, "everything", NULL);
  g_assert_nonnull (stored);
  g_assert_true (steward_server_config_has_network (stored));
  g_assert_true (steward_server_config_get_network (stored));
  g_assert_true (steward_server_config_get_network (steward_server_get_config (fixture->server)));
  test_loop_until (file_holds (servers_path, "\"network\""), 10);

  test_loop_until (g_list_model_get_n_items (approvals) == 1, 20);
  approval = g_list_model_get_item (approvals, 0);
  g_assert_cmpint (steward_approval_get_kind (approval), ==, STEWARD_APPROVAL_KIND_CONSENT);
  g_assert_true (json_object_get_boolean_member (steward_approval_get_request (approval),
                                                 "changed"));
  network = json_object_get_object_member (
    json_object_get_object_member (steward_approval_get_request (approval), "sandbox"),
    "network");
  g_assert_true (json_object_get_boolean_member (network, "allowed"));
  g_assert_cmpint (steward_server_get_status (fixture->server), ==,
                   STEWARD_SERVER_STATUS_AWAITING_CONSENT);
  g_assert_true (gtk_switch_get_active (toggle));

  steward_approval_respond (approval, STEWARD_APPROVAL_ACTION_ALLOW, NULL);
  test_loop_until (steward_server_get_status (fixture->server) == STEWARD_SERVER_STATUS_READY, 60);
}

static void
test_call_echo (Fixture       *fixture,
                gconstpointer  data)
{
  McpTool *tool;
  GtkWidget *pane;
  GtkWidget *form;
  GtkWidget *field;
  GtkWidget *result;

  test_loop_until (steward_server_page_select (page_of (fixture), "tools", "echo"), 20);
  pane = steward_server_page_get_pane (page_of (fixture), "tools");
  g_assert_true (STEWARD_IS_TOOL_PANE (pane));
  tool = steward_tool_pane_get_tool (STEWARD_TOOL_PANE (pane));
  g_assert_cmpstr (mcp_item_get_name (MCP_ITEM (tool)), ==, "echo");

  form = steward_tool_pane_get_form (STEWARD_TOOL_PANE (pane));
  field = steward_schema_form_get_field_widget (STEWARD_SCHEMA_FORM (form), "message");
  g_assert_true (GTK_IS_EDITABLE (field));
  gtk_editable_set_text (GTK_EDITABLE (field), "hello from the page");

  g_assert_true (gtk_widget_activate_action (pane, "tool.call", NULL));
  test_loop_until (steward_tool_pane_get_result_view (STEWARD_TOOL_PANE (pane)) != NULL, 20);
  g_assert_false (steward_tool_pane_get_running (STEWARD_TOOL_PANE (pane)));
  result = steward_tool_pane_get_result_view (STEWARD_TOOL_PANE (pane));
  g_assert_true (STEWARD_IS_TOOL_RESULT_VIEW (result));
  g_assert_nonnull (steward_tool_result_view_get_result (STEWARD_TOOL_RESULT_VIEW (result)));
  g_assert_true (shows_text (result, "Echo: hello from the page"));

  /* The pane survives the list being refreshed, with its result. */
  g_assert_true (steward_server_page_get_pane (page_of (fixture), "tools") == pane);
}

static McpResource *
find_text_resource (GListModel *model)
{
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);

      if (MCP_IS_RESOURCE (item) &&
          g_str_has_prefix (mcp_item_get_mime_type (MCP_ITEM (item)) ?: "", "text/"))
        return MCP_RESOURCE (item);
    }

  return NULL;
}

static void
test_read_resource (Fixture       *fixture,
                    gconstpointer  data)
{
  GListModel *model = steward_server_page_get_list_model (page_of (fixture), "resources");
  McpResource *resource = NULL;
  GtkWidget *pane;
  McpContent *content;
  GPtrArray *contents;
  g_autofree char *start = NULL;

  test_loop_until ((resource = find_text_resource (model)) != NULL, 20);
  g_assert_true (steward_server_page_select (page_of (fixture), "resources",
                                             mcp_resource_get_uri (resource)));
  pane = steward_server_page_get_pane (page_of (fixture), "resources");
  g_assert_true (STEWARD_IS_RESOURCE_VIEW (pane));
  test_loop_until (steward_resource_view_get_contents (STEWARD_RESOURCE_VIEW (pane)) != NULL, 20);

  contents = steward_resource_view_get_contents (STEWARD_RESOURCE_VIEW (pane));
  g_assert_cmpuint (contents->len, >=, 1);
  content = g_ptr_array_index (contents, 0);
  g_assert_nonnull (mcp_content_get_text (content));
  start = g_utf8_substring (mcp_content_get_text (content), 0, 20);
  g_assert_true (shows_text (pane, start));

  /* The server offers subscriptions: the switch is there. */
  g_assert_nonnull (find_one (pane, GTK_TYPE_SWITCH));

  /* The search box keeps the resources whose address or name holds its
   * text, as the tools' does. */
  {
    GtkEditable *search = GTK_EDITABLE (gtk_widget_get_template_child (fixture->page,
                                                                        STEWARD_TYPE_SERVER_PAGE,
                                                                        "resource_search"));
    guint all = g_list_model_get_n_items (model);
    g_autofree char *uri = g_strdup (mcp_resource_get_uri (resource));

    g_assert_cmpuint (all, >, 1);
    gtk_editable_set_text (search, uri);
    test_loop_until (g_list_model_get_n_items (model) < all, 10);
    g_assert_cmpuint (g_list_model_get_n_items (model), >=, 1);
    for (guint i = 0; i < g_list_model_get_n_items (model); i++)
      {
        g_autoptr(McpItem) item = g_list_model_get_item (model, i);

        g_assert_true (MCP_IS_RESOURCE (item));
        g_assert_nonnull (strstr (mcp_resource_get_uri (MCP_RESOURCE (item)), uri));
      }

    gtk_editable_set_text (search, "no resource is called this");
    test_loop_until (g_list_model_get_n_items (model) == 0, 10);
    gtk_editable_set_text (search, "");
    test_loop_until (g_list_model_get_n_items (model) == all, 10);
  }
}

static void
test_template (Fixture       *fixture,
               gconstpointer  data)
{
  const char *uri_template = "demo://resource/dynamic/text/{resourceId}";
  GtkWidget *pane;
  GtkWidget *entry;
  GtkWidget *view;
  g_autofree char *uri = NULL;

  test_loop_until (steward_server_page_select (page_of (fixture), "resources", uri_template), 20);
  pane = steward_server_page_get_pane (page_of (fixture), "resources");
  g_assert_true (STEWARD_IS_TEMPLATE_VIEW (pane));
  entry = steward_template_view_get_entry (STEWARD_TEMPLATE_VIEW (pane), "resourceId");
  g_assert_nonnull (entry);

  /* The server completes the variable as the person types. */
  gtk_editable_set_text (steward_completion_entry_get_editable (STEWARD_COMPLETION_ENTRY (entry)),
                         "1");
  test_loop_until (steward_completion_entry_get_suggestions (STEWARD_COMPLETION_ENTRY (entry))
                   != NULL, 20);

  gtk_editable_set_text (steward_completion_entry_get_editable (STEWARD_COMPLETION_ENTRY (entry)),
                         "3");
  uri = steward_template_view_dup_uri (STEWARD_TEMPLATE_VIEW (pane));
  g_assert_cmpstr (uri, ==, "demo://resource/dynamic/text/3");
  g_assert_true (shows_text (pane, uri));

  g_assert_true (gtk_widget_activate_action (pane, "template.read", NULL));
  view = steward_template_view_get_resource_view (STEWARD_TEMPLATE_VIEW (pane));
  g_assert_true (STEWARD_IS_RESOURCE_VIEW (view));
  test_loop_until (steward_resource_view_get_contents (STEWARD_RESOURCE_VIEW (view)) != NULL, 20);
  g_assert_cmpstr (steward_resource_view_get_uri (STEWARD_RESOURCE_VIEW (view)), ==, uri);
}

static GtkLabel *
test_label_for (GtkWidget  *root,
                const char *text)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();

  collect (root, GTK_TYPE_LABEL, labels);
  for (guint i = 0; i < labels->len; i++)
    if (g_str_equal (gtk_label_get_text (g_ptr_array_index (labels, i)), text))
      return g_ptr_array_index (labels, i);

  return NULL;
}

static void
test_get_prompt (Fixture       *fixture,
                 gconstpointer  data)
{
  GtkWidget *pane;
  GtkWidget *city;
  McpPromptResult *result;

  test_loop_until (steward_server_page_select (page_of (fixture), "prompts", "args-prompt"), 20);
  pane = steward_server_page_get_pane (page_of (fixture), "prompts");
  g_assert_true (STEWARD_IS_PROMPT_VIEW (pane));

  city = steward_prompt_view_get_entry (STEWARD_PROMPT_VIEW (pane), "city");
  g_assert_nonnull (city);
  /* Laid out as the tool form: the name as a heading above its entry, in
   * the same column. */
  {
    GtkWidget *grid = gtk_widget_get_parent (city);
    GtkLabel *heading = test_label_for (pane, "city *");
    int entry_column, entry_row, heading_column, heading_row;

    g_assert_true (GTK_IS_GRID (grid));
    g_assert_nonnull (heading);
    g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (heading), "heading"));
    gtk_grid_query_child (GTK_GRID (grid), city, &entry_column, &entry_row, NULL, NULL);
    gtk_grid_query_child (GTK_GRID (grid), GTK_WIDGET (heading), &heading_column, &heading_row,
                          NULL, NULL);
    g_assert_cmpint (entry_column, ==, heading_column);
    g_assert_cmpint (heading_row, <, entry_row);
  }
  /* city is required: Get waits for it. */
  g_assert_false (gtk_widget_activate_action (pane, "prompt.get", NULL) &&
                  steward_prompt_view_get_loading (STEWARD_PROMPT_VIEW (pane)));
  gtk_editable_set_text (steward_completion_entry_get_editable (STEWARD_COMPLETION_ENTRY (city)),
                         "Paris");

  g_assert_true (gtk_widget_activate_action (pane, "prompt.get", NULL));
  test_loop_until (steward_prompt_view_get_result (STEWARD_PROMPT_VIEW (pane)) != NULL, 20);
  result = steward_prompt_view_get_result (STEWARD_PROMPT_VIEW (pane));
  g_assert_cmpuint (mcp_prompt_result_get_n_messages (result), >=, 1);
  g_assert_true (shows_text (pane, "Paris"));
  g_assert_true (shows_text (pane, mcp_prompt_result_get_message_role (result, 0)));
}

/* Stopped, the page shows the status instead of the lists; started
 * again, it shows them for the new connection. */
static void
test_stop_start (Fixture       *fixture,
                 gconstpointer  data)
{
  GtkWidget *page = fixture->page;

  g_assert_true (gtk_widget_activate_action (page, "server.stop", NULL));
  test_wait_for_status (fixture->server, STEWARD_SERVER_STATUS_STOPPED, 10);
  g_assert_null (steward_server_page_get_pane (page_of (fixture), "info"));
  g_assert_nonnull (find_one (page, ADW_TYPE_STATUS_PAGE));

  g_assert_true (gtk_widget_activate_action (page, "server.start", NULL));
  test_loop_until (steward_server_get_status (fixture->server) == STEWARD_SERVER_STATUS_READY, 60);
  test_loop_until (steward_server_page_get_pane (page_of (fixture), "info") != NULL, 10);
  test_loop_until (steward_server_page_select (page_of (fixture), "tools", "echo"), 20);
}

/* The page fits a phone-sized window, 360 px wide, in every view: the
 * lists fold over their panes and the header's buttons wrap. */
static void
test_narrow (Fixture       *fixture,
             gconstpointer  data)
{
  const char *views[] = { "info", "tools", "resources", "prompts" };
  AdwViewStack *stack = ADW_VIEW_STACK (gtk_widget_get_template_child (fixture->page,
                                                                        STEWARD_TYPE_SERVER_PAGE,
                                                                        "view_stack"));

  test_loop_until (steward_server_page_get_pane (page_of (fixture), "info") != NULL, 10);
  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    {
      int minimum = 0;

      adw_view_stack_set_visible_child_name (stack, views[i]);
      gtk_widget_measure (fixture->page, GTK_ORIENTATION_HORIZONTAL, -1,
                          &minimum, NULL, NULL, NULL);
      g_test_message ("%s: at least %d px wide", views[i], minimum);
      g_assert_cmpint (minimum, <=, 360);
    }

  /* At 360 px the tools fold over their pane: choosing one shows it, with
   * a way back. */
  {
    AdwLeaflet *leaflet = ADW_LEAFLET (gtk_widget_get_template_child (fixture->page,
                                                                       STEWARD_TYPE_SERVER_PAGE,
                                                                       "tool_leaflet"));
    GtkWidget *back = GTK_WIDGET (gtk_widget_get_template_child (fixture->page,
                                                                  STEWARD_TYPE_SERVER_PAGE,
                                                                  "back_button"));
    GtkWidget *list_side;

    adw_view_stack_set_visible_child_name (stack, "tools");
    gtk_window_set_default_size (fixture->window, 360, 700);
    test_loop_until (gtk_widget_get_width (fixture->page) == 360, 10);
    test_loop_until (adw_leaflet_get_folded (leaflet), 10);
    list_side = adw_leaflet_get_visible_child (leaflet);
    g_assert_false (gtk_widget_get_visible (back));

    test_loop_until (steward_server_page_select (page_of (fixture), "tools", "echo"), 20);
    g_assert_true (adw_leaflet_get_visible_child (leaflet) != list_side);
    g_assert_true (STEWARD_IS_TOOL_PANE (steward_server_page_get_pane (page_of (fixture), "tools")));
    g_assert_true (gtk_widget_is_ancestor (steward_server_page_get_pane (page_of (fixture),
                                                                         "tools"),
                                           adw_leaflet_get_visible_child (leaflet)));
    g_assert_true (gtk_widget_get_visible (back));

    g_signal_emit_by_name (back, "clicked");
    g_assert_true (adw_leaflet_get_visible_child (leaflet) == list_side);
    g_assert_false (gtk_widget_get_visible (back));
    /* Nothing is wider than the window. */
    g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (leaflet)), <=, 360);

    /* The header's actions wrap within the height they were given. */
    {
      GtkWidget *actions = GTK_WIDGET (gtk_widget_get_template_child (fixture->page,
                                                                       STEWARD_TYPE_SERVER_PAGE,
                                                                       "header_actions"));
      int needed = 0;

      gtk_widget_measure (actions, GTK_ORIENTATION_VERTICAL, gtk_widget_get_width (actions),
                          &needed, NULL, NULL, NULL);
      g_assert_cmpint (gtk_widget_get_width (actions), <=, 360);
      g_assert_cmpint (gtk_widget_get_height (actions), >=, needed);
    }
  }
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

#define ADD(path, func) \
  g_test_add ("/steward/server-page/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  ADD ("info", test_info);
  ADD ("call-echo", test_call_echo);
  ADD ("read-resource", test_read_resource);
  ADD ("template", test_template);
  ADD ("get-prompt", test_get_prompt);
  ADD ("stop-start", test_stop_start);
  ADD ("network-switch", test_network_switch);
  ADD ("narrow", test_narrow);

  return g_test_run ();
}

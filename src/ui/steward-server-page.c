/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-server-page"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mcp-prompt.h"
#include "mcp-resource.h"
#include "mcp-resource-template.h"
#include "mcp-tool.h"
#include "steward-accessible.h"
#include "steward-info-view.h"
#include "steward-item-row.h"
#include "steward-lazy-list.h"
#include "steward-prompt-view.h"
#include "steward-resource-view.h"
#include "steward-sign-in-view.h"
#include "steward-template-view.h"
#include "steward-text.h"
#include "steward-tool-pane.h"
#include "steward-ui-call.h"

#include "steward-network-choice.h"
#include "steward-sandbox-profile.h"
#include "steward-server-page.h"

struct _StewardServerPage
{
  AdwBin              parent_instance;

  StewardServer      *server;
  McpClient          *client;       /* bound to the lists, or NULL */
  GCancellable       *cancellable;
  gboolean            setting_switch;
  /* Set by the window: the first review of the tools (first contact). */
  StewardToolPins    *pins;
  GtkWidget          *review_tools_button;

  GtkFilterListModel *tool_model;
  GtkCustomFilter    *tool_filter;
  GtkCustomFilter    *resource_filter;
  /* The searches, case folded; NULL when empty. */
  char               *tool_needle;
  char               *resource_needle;
  StewardLazyList    *tool_lazy;
  GtkSingleSelection *tool_selection;
  GListStore         *resource_models;
  GtkSingleSelection *resource_selection;
  GtkSingleSelection *prompt_selection;

  GtkLabel           *title_label;
  GtkLabel           *status_label;
  GtkWidget          *review_button;
  GtkWidget          *enabled_switch;
  GtkWidget          *detail_expander;
  GtkWidget          *permissions_button;
  GtkLabel           *permissions_label;
  GtkWidget          *network_list;
  GtkSwitch          *network_switch;
  gboolean            setting_network;
  GtkTextView        *detail_view;
  GtkStack           *content_stack;
  AdwStatusPage      *status_page;
  GtkSpinner         *status_spinner;
  AdwViewStack       *view_stack;
  AdwBin             *info_bin;
  GtkSearchEntry     *tool_search;
  GtkSearchEntry     *resource_search;
  GtkWidget          *back_button;
  GtkWidget          *header_actions;
  AdwBin             *sign_in_bin;
  AdwLeaflet         *tool_leaflet;
  AdwLeaflet         *resource_leaflet;
  AdwLeaflet         *prompt_leaflet;
  GtkListView        *tool_list;
  AdwBin             *tool_bin;
  GtkListView        *resource_list;
  AdwBin             *resource_bin;
  GtkListView        *prompt_list;
  AdwBin             *prompt_bin;
};

enum {
  PROP_0,
  PROP_SERVER,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (StewardServerPage, steward_server_page, ADW_TYPE_BIN)

/* Tools the list is handed at first, and more at a time as it is
 * scrolled: a few screenfuls of rows. */
#define TOOL_BATCH 40

/* Lists and the panes beside them. */

static void
setup_row_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item)
{
  gtk_list_item_set_child (list_item, steward_item_row_new ());
}

static void
bind_row_cb (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item)
{
  steward_item_row_set_item (STEWARD_ITEM_ROW (gtk_list_item_get_child (list_item)),
                             gtk_list_item_get_item (list_item));
  steward_accessible_name_list_item (list_item);
}

static void
unbind_row_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item)
{
  steward_item_row_set_item (STEWARD_ITEM_ROW (gtk_list_item_get_child (list_item)), NULL);
}

static GtkListItemFactory *
new_row_factory (void)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (setup_row_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row_cb), NULL);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_row_cb), NULL);

  return factory;
}

static void
set_placeholder (AdwBin     *bin,
                 const char *title,
                 const char *description)
{
  GtkWidget *status = adw_status_page_new ();

  adw_status_page_set_title (ADW_STATUS_PAGE (status), title);
  adw_status_page_set_description (ADW_STATUS_PAGE (status), description);
  gtk_widget_add_css_class (status, "compact");
  adw_bin_set_child (bin, status);
}

static void
clear_panes (StewardServerPage *self)
{
  adw_bin_set_child (self->info_bin, NULL);
  set_placeholder (self->tool_bin, _("No Tool Chosen"),
                   _("Choose a tool to see what it does and call it."));
  set_placeholder (self->resource_bin, _("No Resource Chosen"),
                   _("Choose a resource to read it, or a template to fill in."));
  set_placeholder (self->prompt_bin, _("No Prompt Chosen"),
                   _("Choose a prompt to fill in its arguments and preview it."));
}

/* The item a pane shows, to keep the pane when a refreshed list offers the
 * same item again. */
static McpItem *
pane_item (GtkWidget *pane)
{
  return pane != NULL ? g_object_get_data (G_OBJECT (pane), "steward-item") : NULL;
}

static gboolean
same_item (McpItem *a,
           McpItem *b)
{
  return a != NULL && b != NULL && G_OBJECT_TYPE (a) == G_OBJECT_TYPE (b) &&
         g_strcmp0 (mcp_item_get_key (a), mcp_item_get_key (b)) == 0;
}

static GtkWidget *
new_pane (StewardServerPage *self,
          McpItem           *item)
{
  GtkWidget *pane = NULL;

  if (MCP_IS_TOOL (item))
    pane = steward_tool_pane_new (self->server, MCP_TOOL (item));
  else if (MCP_IS_RESOURCE (item))
    pane = steward_resource_view_new (self->client, mcp_resource_get_uri (MCP_RESOURCE (item)),
                                      MCP_RESOURCE (item));
  else if (MCP_IS_RESOURCE_TEMPLATE (item))
    pane = steward_template_view_new (self->client, MCP_RESOURCE_TEMPLATE (item));
  else if (MCP_IS_PROMPT (item))
    pane = steward_prompt_view_new (self->client, MCP_PROMPT (item));

  if (pane != NULL)
    g_object_set_data_full (G_OBJECT (pane), "steward-item", g_object_ref (item), g_object_unref);

  return pane;
}

static AdwBin *
bin_for_selection (StewardServerPage  *self,
                   GtkSingleSelection *selection)
{
  if (selection == self->tool_selection)
    return self->tool_bin;
  if (selection == self->resource_selection)
    return self->resource_bin;
  return self->prompt_bin;
}

/* The actions sit in a flow box, whose cell would keep the place of a
 * hidden button. */
static void
set_action_visible (GtkWidget *action,
                    gboolean   visible)
{
  gtk_widget_set_visible (action, visible);
  gtk_widget_set_visible (gtk_widget_get_parent (action), visible);
}

/* The leaflet of the view in sight, or NULL for the Info view. */
static AdwLeaflet *
visible_leaflet (StewardServerPage *self)
{
  GtkWidget *child = adw_view_stack_get_visible_child (self->view_stack);

  return ADW_IS_LEAFLET (child) ? ADW_LEAFLET (child) : NULL;
}

/* In a narrow window each list folds over its pane: choosing an item shows
 * the pane, and Back (or the back gesture) the list again. */
static void
leaflet_changed_cb (StewardServerPage *self)
{
  AdwLeaflet *leaflet = visible_leaflet (self);

  gtk_widget_set_visible (self->back_button,
                          leaflet != NULL && adw_leaflet_get_folded (leaflet) &&
                          adw_leaflet_get_adjacent_child (leaflet,
                                                          ADW_NAVIGATION_DIRECTION_BACK) != NULL);
}

static void
back_clicked_cb (StewardServerPage *self)
{
  AdwLeaflet *leaflet = visible_leaflet (self);

  if (leaflet != NULL)
    adw_leaflet_navigate (leaflet, ADW_NAVIGATION_DIRECTION_BACK);
}

/* Also while the leaflet is unfolded: a window made narrow afterwards keeps
 * showing the item a person chose rather than folding back to the list. */
static void
show_pane_of (AdwBin *bin)
{
  GtkWidget *leaflet = gtk_widget_get_ancestor (GTK_WIDGET (bin), ADW_TYPE_LEAFLET);
  GtkWidget *scroller = gtk_widget_get_ancestor (GTK_WIDGET (bin), GTK_TYPE_SCROLLED_WINDOW);

  if (leaflet != NULL && scroller != NULL)
    adw_leaflet_set_visible_child (ADW_LEAFLET (leaflet), scroller);
}

static void
selection_changed_cb (StewardServerPage  *self,
                      GParamSpec         *pspec,
                      GtkSingleSelection *selection)
{
  McpItem *item = gtk_single_selection_get_selected_item (selection);
  AdwBin *bin = bin_for_selection (self, selection);

  if (item != NULL && self->client != NULL)
    show_pane_of (bin);

  /* A list refresh drops the selection; the pane stays, and so does a
   * call running in it. */
  if (item == NULL || self->client == NULL || same_item (item, pane_item (adw_bin_get_child (bin))))
    return;

  adw_bin_set_child (bin, new_pane (self, item));
}

static void
selection_items_changed_cb (StewardServerPage  *self,
                            guint               position,
                            guint               removed,
                            guint               added,
                            GtkSingleSelection *selection)
{
  McpItem *shown = pane_item (adw_bin_get_child (bin_for_selection (self, selection)));
  GListModel *model = G_LIST_MODEL (selection);

  if (shown == NULL || gtk_single_selection_get_selected (selection) != GTK_INVALID_LIST_POSITION)
    return;

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(McpItem) item = g_list_model_get_item (model, i);

      if (same_item (item, shown))
        {
          gtk_single_selection_set_selected (selection, i);
          return;
        }
    }
}

/* What a search looks in: @item's name, title, description and address,
 * case folded. Made once per item, as a search runs over every item at
 * each key press and an item never changes (a changed one comes as a new
 * object). */
static const char * const *
item_search_fields (gpointer item)
{
  static GQuark quark;
  GStrv fields;

  if (G_UNLIKELY (quark == 0))
    quark = g_quark_from_static_string ("steward-server-page-search-fields");

  fields = g_object_get_qdata (item, quark);
  if (fields == NULL)
    {
      GPtrArray *folded = g_ptr_array_new ();
      const char *texts[4];

      texts[0] = mcp_item_get_name (item);
      texts[1] = mcp_item_get_title (item);
      texts[2] = mcp_item_get_description (item);
      if (MCP_IS_RESOURCE (item))
        texts[3] = mcp_resource_get_uri (item);
      else if (MCP_IS_RESOURCE_TEMPLATE (item))
        texts[3] = mcp_resource_template_get_uri_template (item);
      else
        texts[3] = NULL;

      for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
        if (texts[i] != NULL)
          g_ptr_array_add (folded, g_utf8_casefold (texts[i], -1));
      g_ptr_array_add (folded, NULL);

      fields = (GStrv) g_ptr_array_free (folded, FALSE);
      g_object_set_qdata_full (item, quark, fields, (GDestroyNotify) g_strfreev);
    }

  return (const char * const *) fields;
}

/* Whether @item's name, title, description or address holds @needle, a
 * case-folded search (NULL for none). */
static gboolean
item_matches (gpointer    item,
              const char *needle)
{
  const char * const *fields;

  if (needle == NULL)
    return TRUE;

  fields = item_search_fields (item);
  for (guint i = 0; fields[i] != NULL; i++)
    if (strstr (fields[i], needle) != NULL)
      return TRUE;

  return FALSE;
}

/* Keeps @search's text, case folded, in @needle, and tells @filter how it
 * changed: a search that holds the last one only drops items, one held in
 * it only adds some, so that the filter checks only the items concerned. */
static void
update_search (GtkSearchEntry  *search,
               char           **needle,
               GtkCustomFilter *filter)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (search));
  g_autofree char *old = g_steal_pointer (needle);
  GtkFilterChange change;

  if (text != NULL && *text != '\0')
    *needle = g_utf8_casefold (text, -1);

  if (g_strcmp0 (old, *needle) == 0)
    return;

  if (old == NULL || (*needle != NULL && strstr (*needle, old) != NULL))
    change = GTK_FILTER_CHANGE_MORE_STRICT;
  else if (*needle == NULL || strstr (old, *needle) != NULL)
    change = GTK_FILTER_CHANGE_LESS_STRICT;
  else
    change = GTK_FILTER_CHANGE_DIFFERENT;

  gtk_filter_changed (GTK_FILTER (filter), change);
}

static gboolean
tool_filter_cb (gpointer item,
                gpointer user_data)
{
  StewardServerPage *self = user_data;

  return item_matches (item, self->tool_needle);
}

static void
tool_search_changed_cb (StewardServerPage *self)
{
  steward_lazy_list_reset (self->tool_lazy);
  update_search (self->tool_search, &self->tool_needle, self->tool_filter);
}

static gboolean
resource_filter_cb (gpointer item,
                    gpointer user_data)
{
  StewardServerPage *self = user_data;

  return item_matches (item, self->resource_needle);
}

static void
resource_search_changed_cb (StewardServerPage *self)
{
  update_search (self->resource_search, &self->resource_needle, self->resource_filter);
}

static void
bind_client (StewardServerPage *self,
             McpClient         *client)
{
  if (self->client == client)
    return;

  g_set_object (&self->client, client);
  clear_panes (self);

  gtk_filter_list_model_set_model (self->tool_model,
                                   client != NULL ? mcp_client_get_tools (client) : NULL);
  g_list_store_remove_all (self->resource_models);
  if (client != NULL)
    {
      g_list_store_append (self->resource_models, mcp_client_get_resources (client));
      g_list_store_append (self->resource_models, mcp_client_get_resource_templates (client));
    }
  gtk_single_selection_set_model (self->prompt_selection,
                                  client != NULL ? mcp_client_get_prompts (client) : NULL);
}

/* The header: status, detail, and what can be done now. */

static const char *
status_title (StewardServerStatus status)
{
  switch (status)
    {
    case STEWARD_SERVER_STATUS_DISABLED:
      return _("Disabled");
    case STEWARD_SERVER_STATUS_AWAITING_CONSENT:
      return _("Waiting for Your Consent");
    case STEWARD_SERVER_STATUS_STARTING:
      return _("Starting…");
    case STEWARD_SERVER_STATUS_RESTARTING:
      return _("Restarting…");
    case STEWARD_SERVER_STATUS_FAILED:
      return _("Not Running");
    case STEWARD_SERVER_STATUS_DISCONNECTED:
      return _("Disconnected");
    case STEWARD_SERVER_STATUS_NEEDS_SIGN_IN:
      return _("Sign-In Needed");
    case STEWARD_SERVER_STATUS_READY:
      return _("Ready");
    case STEWARD_SERVER_STATUS_STOPPED:
    default:
      return _("Stopped");
    }
}

static const char *
status_icon (StewardServerStatus status)
{
  switch (status)
    {
    case STEWARD_SERVER_STATUS_AWAITING_CONSENT:
      return "dialog-question-symbolic";
    case STEWARD_SERVER_STATUS_NEEDS_SIGN_IN:
      return "dialog-password-symbolic";
    case STEWARD_SERVER_STATUS_FAILED:
      return "dialog-error-symbolic";
    case STEWARD_SERVER_STATUS_DISCONNECTED:
      return "network-offline-symbolic";
    case STEWARD_SERVER_STATUS_STARTING:
    case STEWARD_SERVER_STATUS_RESTARTING:
      /* A spinner instead (update_status()). */
      return NULL;
    default:
      return "network-offline-symbolic";
    }
}

/* A local server's sandbox permissions, in the sentences the consent
 * dialog shows; they change with its settings (Edit Server), and its
 * network with the switch beside them. */
static void
update_permissions (StewardServerPage *self)
{
  StewardServerConfig *config = steward_server_get_config (self->server);
  g_autoptr(StewardSandboxProfile) profile = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  g_auto(GStrv) lines = NULL;
  gboolean sandboxed;

  set_action_visible (self->permissions_button, !steward_server_config_is_remote (config));
  if (steward_server_config_is_remote (config))
    return;

  profile = steward_sandbox_profile_new (config, NULL);
  sandboxed = !steward_sandbox_profile_get_full_access (profile);
  /* In a sandbox the network is the switch below, which the person may
   * turn, not a sentence. */
  lines = sandboxed ? steward_sandbox_profile_dup_descriptions_but_network (profile)
                    : steward_sandbox_profile_dup_descriptions (profile);
  for (guint i = 0; lines[i] != NULL; i++)
    g_string_append_printf (text, "%s• %s", text->len > 0 ? "\n" : "", lines[i]);
  gtk_label_set_text (self->permissions_label, text->str);

  gtk_widget_set_visible (self->network_list, sandboxed);
  self->setting_network = TRUE;
  gtk_switch_set_active (self->network_switch, steward_sandbox_profile_get_network (profile));
  self->setting_network = FALSE;
}

/* The network is written into the entry; as consent covers it, the
 * server asks before it starts with the new one. */
static void
network_toggled_cb (StewardServerPage *self)
{
  if (self->setting_network)
    return;

  steward_server_set_network (self->server, gtk_switch_get_active (self->network_switch));
}

static void
update_status (StewardServerPage *self)
{
  StewardServerStatus status = steward_server_get_status (self->server);
  const char *detail = steward_server_get_detail_text (self->server);
  g_autofree char *status_text = steward_text_make_visible_capped (
    steward_server_get_status_text (self->server), 4096, NULL);
  g_autofree char *escaped = g_markup_escape_text (status_text, -1);
  gboolean ready = status == STEWARD_SERVER_STATUS_READY &&
                   steward_server_get_client (self->server) != NULL;
  gboolean starting = status == STEWARD_SERVER_STATUS_STARTING ||
                      status == STEWARD_SERVER_STATUS_RESTARTING;
  GtkWidget *widget = GTK_WIDGET (self);

  gtk_label_set_text (self->status_label, status_text);

  gtk_widget_set_visible (self->detail_expander, detail != NULL && *detail != '\0');
  if (detail != NULL)
    {
      g_autofree char *visible = steward_text_for_display (detail);

      gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->detail_view), visible, -1);
    }

  set_action_visible (self->review_button, status == STEWARD_SERVER_STATUS_AWAITING_CONSENT);
  gtk_widget_action_set_enabled (widget, "server.start",
                                 status == STEWARD_SERVER_STATUS_STOPPED ||
                                 status == STEWARD_SERVER_STATUS_FAILED ||
                                 status == STEWARD_SERVER_STATUS_NEEDS_SIGN_IN);
  gtk_widget_action_set_enabled (widget, "server.stop",
                                 status == STEWARD_SERVER_STATUS_STARTING ||
                                 status == STEWARD_SERVER_STATUS_READY ||
                                 status == STEWARD_SERVER_STATUS_RESTARTING ||
                                 status == STEWARD_SERVER_STATUS_DISCONNECTED ||
                                 status == STEWARD_SERVER_STATUS_AWAITING_CONSENT);
  gtk_widget_action_set_enabled (widget, "server.restart",
                                 status == STEWARD_SERVER_STATUS_STARTING ||
                                 status == STEWARD_SERVER_STATUS_READY ||
                                 status == STEWARD_SERVER_STATUS_RESTARTING ||
                                 status == STEWARD_SERVER_STATUS_DISCONNECTED ||
                                 status == STEWARD_SERVER_STATUS_FAILED);

  /* A status page's 128 px icon is drawn from its SVG, which loads librsvg
   * (several MiB, and milliseconds). What the window shows at start with
   * servers draws none: a starting server shows a spinner, and a ready
   * one leaves the status page as it was, since the page is going away
   * (an icon given to it now would still be measured and drawn). */
  if (!ready)
    {
      /* The status page's description is markup: the text goes in escaped. */
      adw_status_page_set_title (self->status_page, status_title (status));
      adw_status_page_set_description (self->status_page, escaped);
      adw_status_page_set_icon_name (self->status_page, status_icon (status));
      gtk_widget_set_visible (GTK_WIDGET (self->status_spinner), starting);
      gtk_spinner_set_spinning (self->status_spinner, starting);
    }

  if (ready)
    {
      McpClient *client = steward_server_get_client (self->server);

      bind_client (self, client);
      if (adw_bin_get_child (self->info_bin) == NULL)
        adw_bin_set_child (self->info_bin, steward_info_view_new (self->server, client));
      gtk_stack_set_visible_child_name (self->content_stack, "ready");
    }
  else
    {
      gtk_stack_set_visible_child_name (self->content_stack, "status");
      adw_bin_set_child (self->info_bin, NULL);
    }
}

static void
client_changed_cb (StewardServerPage *self)
{
  bind_client (self, steward_server_get_client (self->server));
  update_status (self);
}

static void
enabled_changed_cb (StewardServerPage *self)
{
  self->setting_switch = TRUE;
  gtk_switch_set_active (GTK_SWITCH (self->enabled_switch),
                         steward_server_get_enabled (self->server));
  self->setting_switch = FALSE;
}

static void
switch_toggled_cb (StewardServerPage *self)
{
  gboolean active = gtk_switch_get_active (GTK_SWITCH (self->enabled_switch));

  if (self->setting_switch || active == steward_server_get_enabled (self->server))
    return;

  steward_server_set_enabled (self->server, active);
}

static void
review_clicked_cb (StewardServerPage *self)
{
  /* The window presents approvals; without it there is nothing to do. */
  gtk_widget_activate_action (GTK_WIDGET (self), "app.show-approvals", NULL);
}

static void
logs_clicked_cb (StewardServerPage *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "win.show-logs", "s",
                              steward_server_get_name (self->server));
}

static void
start_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  steward_server_start (STEWARD_SERVER_PAGE (widget)->server);
}

static void
restart_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  steward_server_restart (STEWARD_SERVER_PAGE (widget)->server);
}

static void
stop_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  /* What went wrong shows in the server's status; nothing more to do. */
  if (!steward_server_stop_finish (STEWARD_SERVER (object), result, &error))
    g_debug ("stopping %s: %s", steward_server_get_name (STEWARD_SERVER (object)),
             error->message);
}

static void
stop_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  StewardServerPage *self = STEWARD_SERVER_PAGE (widget);

  steward_server_stop_async (self->server, self->cancellable, stop_cb, NULL);
}

static void
steward_server_page_constructed (GObject *object)
{
  StewardServerPage *self = STEWARD_SERVER_PAGE (object);
  g_autofree char *title = NULL;

  G_OBJECT_CLASS (steward_server_page_parent_class)->constructed (object);

  g_return_if_fail (STEWARD_IS_SERVER (self->server));

  title = steward_text_make_visible_capped (steward_server_get_name (self->server), 1024, NULL);
  gtk_label_set_text (self->title_label, title);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);

  g_signal_connect_object (self->server, "notify::config", G_CALLBACK (update_permissions), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->network_switch, "notify::active",
                           G_CALLBACK (network_toggled_cb), self, G_CONNECT_SWAPPED);
  update_permissions (self);
  adw_bin_set_child (self->sign_in_bin, steward_sign_in_view_new (self->server));
  g_signal_connect_object (self->server, "notify::status", G_CALLBACK (update_status), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->server, "notify::status-text", G_CALLBACK (update_status), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->server, "notify::detail-text", G_CALLBACK (update_status), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->server, "notify::client", G_CALLBACK (client_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->server, "notify::enabled", G_CALLBACK (enabled_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->enabled_switch, "notify::active",
                           G_CALLBACK (switch_toggled_cb), self, G_CONNECT_SWAPPED);

  enabled_changed_cb (self);
  client_changed_cb (self);
}

static void
steward_server_page_dispose (GObject *object)
{
  StewardServerPage *self = STEWARD_SERVER_PAGE (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->pins);

  /* The lists go before the models they show. */
  if (self->tool_list != NULL)
    {
      gtk_list_view_set_model (self->tool_list, NULL);
      gtk_list_view_set_model (self->resource_list, NULL);
      gtk_list_view_set_model (self->prompt_list, NULL);
    }

  gtk_widget_dispose_template (GTK_WIDGET (self), STEWARD_TYPE_SERVER_PAGE);

  g_clear_object (&self->tool_selection);
  g_clear_object (&self->tool_lazy);
  g_clear_object (&self->tool_model);
  g_clear_object (&self->tool_filter);
  g_clear_object (&self->resource_filter);
  g_clear_pointer (&self->tool_needle, g_free);
  g_clear_pointer (&self->resource_needle, g_free);
  g_clear_object (&self->resource_selection);
  g_clear_object (&self->resource_models);
  g_clear_object (&self->prompt_selection);
  g_clear_object (&self->client);
  g_clear_object (&self->server);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (steward_server_page_parent_class)->dispose (object);
}

static void
steward_server_page_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  StewardServerPage *self = STEWARD_SERVER_PAGE (object);

  switch (prop_id)
    {
    case PROP_SERVER:
      g_value_set_object (value, self->server);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_server_page_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  StewardServerPage *self = STEWARD_SERVER_PAGE (object);

  switch (prop_id)
    {
    case PROP_SERVER:
      self->server = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_server_page_class_init (StewardServerPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = steward_server_page_constructed;
  object_class->dispose = steward_server_page_dispose;
  object_class->get_property = steward_server_page_get_property;
  object_class->set_property = steward_server_page_set_property;

  properties[PROP_SERVER] =
    g_param_spec_object ("server", NULL, NULL, STEWARD_TYPE_SERVER,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_action (widget_class, "server.start", NULL, start_action);
  gtk_widget_class_install_action (widget_class, "server.stop", NULL, stop_action);
  gtk_widget_class_install_action (widget_class, "server.restart", NULL, restart_action);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/stewardmcp/Steward/steward-server-page.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardServerPage, title_label);
  gtk_widget_class_bind_template_child (widget_class, StewardServerPage, status_label);
  gtk_widget_class_bind_template_child (widget_class, StewardServerPage, review_button);
  gtk_widget_class_bind_template_child (widget_class, StewardServerPage, enabled_switch);
  gtk_widget_class_bind_template_child (widget_class, StewardServerPage, detail_expander);
  gtk_widget_class_bind_template_child (widget_class, StewardServerPage, permissions_button);
  gtk_widget_class_bind_template_child (widget_class, StewardServerPage, permissions_label);
  gtk_widget_class_bind_template_child (widget_class, StewardServerPage, network_list);
  gtk_widget_class_bind_template_child (widget_class, StewardServerPage, network_switch);
  gtk_widget_class_bind_template_child (widget_class, StewardServerPage, detail_view);
  gtk_widget_class_bind_template_child (widget_class, StewardServerPage, content_stack);
  gtk_widget_class_bind_template_child (widget_class, StewardServerPage, status_page);
  gtk_widget_class_bind_template_child (widget_class, StewardServerPage, status_spinner);
  gtk_widget_class_bind_template_child (widget_class, StewardServerPage, view_stack);
  gtk_widget_class_bind_template_child (widget_class, StewardServerPage, info_bin);
  gtk_widget_class_bind_template_child (widget_class, StewardServerPage, tool_search);
  gtk_widget_class_bind_template_child (widget_class, StewardServerPage, resource_search);
  gtk_widget_class_bind_template_child (widget_class, StewardServerPage, back_button);
  gtk_widget_class_bind_template_child (widget_class, StewardServerPage, header_actions);
  gtk_widget_class_bind_template_child (widget_class, StewardServerPage, sign_in_bin);
  gtk_widget_class_bind_template_child (widget_class, StewardServerPage, tool_leaflet);
  gtk_widget_class_bind_template_child (widget_class, StewardServerPage, resource_leaflet);
  gtk_widget_class_bind_template_child (widget_class, StewardServerPage, prompt_leaflet);
  gtk_widget_class_bind_template_child (widget_class, StewardServerPage, tool_list);
  gtk_widget_class_bind_template_child (widget_class, StewardServerPage, tool_bin);
  gtk_widget_class_bind_template_child (widget_class, StewardServerPage, resource_list);
  gtk_widget_class_bind_template_child (widget_class, StewardServerPage, resource_bin);
  gtk_widget_class_bind_template_child (widget_class, StewardServerPage, prompt_list);
  gtk_widget_class_bind_template_child (widget_class, StewardServerPage, prompt_bin);
  gtk_widget_class_bind_template_callback (widget_class, review_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, logs_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, tool_search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, resource_search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, leaflet_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, back_clicked_cb);
}

static GtkSingleSelection *
new_selection (StewardServerPage *self,
               GListModel        *model,
               GtkListView       *list)
{
  GtkSingleSelection *selection = gtk_single_selection_new (model);
  g_autoptr(GtkListItemFactory) factory = new_row_factory ();

  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_single_selection_set_can_unselect (selection, TRUE);
  gtk_single_selection_set_selected (selection, GTK_INVALID_LIST_POSITION);
  g_signal_connect_object (selection, "notify::selected-item", G_CALLBACK (selection_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (selection, "items-changed", G_CALLBACK (selection_items_changed_cb),
                           self, G_CONNECT_SWAPPED | G_CONNECT_AFTER);

  gtk_list_view_set_factory (list, factory);
  gtk_list_view_set_model (list, GTK_SELECTION_MODEL (selection));

  return selection;
}

static void
steward_server_page_init (StewardServerPage *self)
{
  GtkFlattenListModel *flat;
  GtkFilterListModel *filtered;
  GtkAdjustment *adjustment;
  GListModel *handed;

  self->cancellable = g_cancellable_new ();

  gtk_widget_init_template (GTK_WIDGET (self));

  self->tool_filter = gtk_custom_filter_new (tool_filter_cb, self, NULL);
  self->tool_model = gtk_filter_list_model_new (NULL,
                                                g_object_ref (GTK_FILTER (self->tool_filter)));
  /* A server may list a thousand tools: the list gets them as it is
   * scrolled, while searches still look through them all. */
  self->tool_lazy = steward_lazy_list_new (G_LIST_MODEL (self->tool_model), TOOL_BATCH);
  handed = steward_lazy_list_get_model (self->tool_lazy);
  self->tool_selection = new_selection (self, g_object_ref (handed), self->tool_list);
  adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->tool_list));
  steward_lazy_list_set_adjustment (self->tool_lazy, adjustment);

  self->resource_models = g_list_store_new (G_TYPE_LIST_MODEL);
  flat = gtk_flatten_list_model_new (g_object_ref (G_LIST_MODEL (self->resource_models)));
  self->resource_filter = gtk_custom_filter_new (resource_filter_cb, self, NULL);
  filtered = gtk_filter_list_model_new (G_LIST_MODEL (flat),
                                        g_object_ref (GTK_FILTER (self->resource_filter)));
  self->resource_selection = new_selection (self, G_LIST_MODEL (filtered), self->resource_list);

  self->prompt_selection = new_selection (self, NULL, self->prompt_list);

  clear_panes (self);
}

GtkWidget *
steward_server_page_new (StewardServer *server)
{
  g_return_val_if_fail (STEWARD_IS_SERVER (server), NULL);

  return g_object_new (STEWARD_TYPE_SERVER_PAGE, "server", server, NULL);
}

StewardServer *
steward_server_page_get_server (StewardServerPage *self)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_PAGE (self), NULL);

  return self->server;
}

static GtkSingleSelection *
selection_for_page (StewardServerPage *self,
                    const char        *page)
{
  if (g_strcmp0 (page, "tools") == 0)
    return self->tool_selection;
  if (g_strcmp0 (page, "resources") == 0)
    return self->resource_selection;
  if (g_strcmp0 (page, "prompts") == 0)
    return self->prompt_selection;

  return NULL;
}

/**
 * steward_server_page_select:
 * @page: "tools", "resources" or "prompts"
 * @key: the name of a tool or prompt, the URI of a resource, the URI
 *   template of a resource template
 *
 * Shows @page and chooses the item of its list with @key, as a person
 * would by clicking it (the window uses it to follow a link to a tool).
 *
 * Returns: whether the list holds such an item
 */
gboolean
steward_server_page_select (StewardServerPage *self,
                            const char        *page,
                            const char        *key)
{
  GtkSingleSelection *selection;
  GListModel *model;

  g_return_val_if_fail (STEWARD_IS_SERVER_PAGE (self), FALSE);
  g_return_val_if_fail (key != NULL, FALSE);

  selection = selection_for_page (self, page);
  g_return_val_if_fail (selection != NULL, FALSE);

  adw_view_stack_set_visible_child_name (self->view_stack, page);
  model = selection == self->tool_selection ? G_LIST_MODEL (self->tool_model)
                                            : G_LIST_MODEL (selection);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(McpItem) item = g_list_model_get_item (model, i);
      const char *item_key = MCP_IS_RESOURCE_TEMPLATE (item)
                             ? mcp_resource_template_get_uri_template (MCP_RESOURCE_TEMPLATE (item))
                             : mcp_item_get_key (item);

      if (g_strcmp0 (item_key, key) == 0)
        {
          if (selection == self->tool_selection)
            steward_lazy_list_reveal (self->tool_lazy, i);
          gtk_single_selection_set_selected (selection, i);
          return TRUE;
        }
    }

  return FALSE;
}

/**
 * steward_server_page_get_pane:
 * @page: "info", "tools", "resources" or "prompts"
 *
 * Returns: (transfer none) (nullable): what the page shows beside its
 *   list: a StewardInfoView, StewardToolPane, StewardResourceView,
 *   StewardTemplateView or StewardPromptView; NULL when nothing is chosen
 */
GtkWidget *
steward_server_page_get_pane (StewardServerPage *self,
                              const char        *page)
{
  GtkWidget *child = NULL;

  g_return_val_if_fail (STEWARD_IS_SERVER_PAGE (self), NULL);

  if (g_strcmp0 (page, "info") == 0)
    child = adw_bin_get_child (self->info_bin);
  else if (g_strcmp0 (page, "tools") == 0)
    child = adw_bin_get_child (self->tool_bin);
  else if (g_strcmp0 (page, "resources") == 0)
    child = adw_bin_get_child (self->resource_bin);
  else if (g_strcmp0 (page, "prompts") == 0)
    child = adw_bin_get_child (self->prompt_bin);

  return ADW_IS_STATUS_PAGE (child) ? NULL : child;
}

/**
 * steward_server_page_get_list_model:
 * @page: "tools", "resources" or "prompts"
 *
 * Returns: (transfer none) (nullable): the items the page's list holds,
 *   those its search matches (the tool list makes rows for them as it is
 *   scrolled)
 */
GListModel *
steward_server_page_get_list_model (StewardServerPage *self,
                                    const char        *page)
{
  g_return_val_if_fail (STEWARD_IS_SERVER_PAGE (self), NULL);

  if (g_strcmp0 (page, "tools") == 0)
    return G_LIST_MODEL (self->tool_model);

  return G_LIST_MODEL (selection_for_page (self, page));
}

/* First contact */

static void
update_review_tools (StewardServerPage *self)
{
  GListModel *tools = gtk_filter_list_model_get_model (self->tool_model);
  const char *name = steward_server_get_name (self->server);
  guint n = 0;

  for (guint i = 0; tools != NULL && i < g_list_model_get_n_items (tools); i++)
    {
      g_autoptr(McpTool) tool = g_list_model_get_item (tools, i);
      n += steward_tool_pins_check (self->pins, name, tool) == STEWARD_TOOL_PIN_UNPINNED;
    }

  gtk_widget_set_visible (self->review_tools_button, n > 0);
}

/**
 * steward_server_page_set_tool_pins:
 *
 * Shows "Review Tools…" above the tools while some were never reviewed:
 * until then no model is offered them. It activates win.review-tools.
 */
void
steward_server_page_set_tool_pins (StewardServerPage *self,
                                   StewardToolPins   *pins)
{
  GtkWidget *parent;

  g_return_if_fail (STEWARD_IS_SERVER_PAGE (self));
  g_return_if_fail (STEWARD_IS_TOOL_PINS (pins));
  g_return_if_fail (self->pins == NULL);

  self->pins = g_object_ref (pins);
  self->review_tools_button = gtk_button_new_with_mnemonic (_("_Review Tools…"));
  gtk_widget_set_tooltip_text (self->review_tools_button,
                               _("Models are offered none of this server’s tools until you "
                                 "have reviewed them"));
  gtk_widget_add_css_class (self->review_tools_button, "suggested-action");
  gtk_widget_set_margin_start (self->review_tools_button, 6);
  gtk_widget_set_margin_end (self->review_tools_button, 6);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->review_tools_button), "win.review-tools");
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (self->review_tools_button),
                                          g_variant_new_string (steward_server_get_name (self->server)));
  parent = gtk_widget_get_parent (GTK_WIDGET (self->tool_search));
  gtk_box_insert_child_after (GTK_BOX (parent), self->review_tools_button,
                              GTK_WIDGET (self->tool_search));

  g_signal_connect_object (pins, "changed", G_CALLBACK (update_review_tools), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->tool_model, "items-changed", G_CALLBACK (update_review_tools),
                           self, G_CONNECT_SWAPPED);
  update_review_tools (self);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-window"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-accessible.h"
#include "steward-chat-page.h"
#include "steward-consent-dialog.h"
#include "steward-error-banner.h"
#include "steward-import-dialog.h"
#include "steward-log-view.h"
#include "steward-overdue-dialog.h"
#include "steward-roots-page.h"
#include "steward-tasks-page.h"
#include "steward-server-dialog.h"
#include "steward-server-page.h"
#include "steward-server-row.h"
#include "steward-server-secrets.h"
#include "steward-tool-change-dialog.h"
#include "steward-tool-review-dialog.h"
#include "steward-window.h"

#define SERVER_PAGE_PREFIX "server/"

struct _StewardWindow
{
  AdwApplicationWindow  parent_instance;

  StewardHost          *host;
  GSettings            *settings;
  /* Server name → its StewardServerPage, made the first time the server
   * is shown. The content stack owns the pages. */
  GHashTable           *server_pages;
  GtkWidget            *log_view;
  GtkWidget            *chat_page;
  GtkWidget            *roots_page;
  GtkWidget            *tasks_page;
  gboolean              show_sidebar;
  /* Set while the window changes a list's selection itself, so that the
   * selection handlers do not answer their own echo. */
  gboolean              selecting;
  /* Set while the focus moves, with the rows chosen before: GtkListBox
   * chooses the row the focus moves to, and the focus alone must not
   * change the page. */
  gboolean              moving_focus;
  GtkListBoxRow        *chosen_server;
  GtkListBoxRow        *chosen_view;

  AdwToastOverlay      *toast_overlay;
  StewardErrorBanner   *error_banner;
  AdwLeaflet           *leaflet;
  GtkWidget            *sidebar;
  GtkMenuButton        *primary_menu_button;
  GMenuModel           *primary_menu;
  GtkStack             *sidebar_stack;
  AdwStatusPage        *empty_page;
  GtkListBox           *server_list;
  GtkListBox           *nav_list;
  GtkListBoxRow        *chat_row;
  GtkListBoxRow        *logs_row;
  GtkListBoxRow        *roots_row;
  GtkListBoxRow        *tasks_row;
  GtkWidget            *content;
  AdwWindowTitle       *content_title;
  GtkStack             *content_stack;
  AdwStatusPage        *welcome_page;
  GtkButton            *approvals_button;
};

enum {
  PROP_0,
  PROP_HOST,
  PROP_SHOW_SIDEBAR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (StewardWindow, steward_window, ADW_TYPE_APPLICATION_WINDOW)

static StewardServerRegistry *
get_registry (StewardWindow *self)
{
  return steward_host_get_registry (self->host);
}

static StewardServer *
lookup_server (StewardWindow *self,
               GVariant      *parameter)
{
  const char *name = g_variant_get_string (parameter, NULL);

  return steward_server_registry_lookup (get_registry (self), name);
}

static void
present_dialog (StewardWindow *self,
                GtkWidget     *dialog)
{
  gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (self));
  gtk_window_set_modal (GTK_WINDOW (dialog), TRUE);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
show_toast (StewardWindow *self,
            const char    *text)
{
  g_autofree char *escaped = g_markup_escape_text (text, -1);

  /* AdwToast reads its title as markup; names in it come from files. */
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (escaped));
}

static void
navigate_to_content (StewardWindow *self)
{
  adw_leaflet_set_visible_child (self->leaflet, self->content);
}

static void
unselect (StewardWindow *self,
          GtkListBox    *list)
{
  self->selecting = TRUE;
  gtk_list_box_unselect_all (list);
  self->selecting = FALSE;
}

static void
select_row (StewardWindow *self,
            GtkListBox    *list,
            GtkListBoxRow *row)
{
  self->selecting = TRUE;
  gtk_list_box_select_row (list, row);
  self->selecting = FALSE;
}

static void
set_title (StewardWindow *self,
           const char    *title,
           const char    *subtitle)
{
  adw_window_title_set_title (self->content_title, title != NULL ? title : "");
  adw_window_title_set_subtitle (self->content_title, subtitle != NULL ? subtitle : "");
}

static void
show_welcome (StewardWindow *self)
{
  gtk_stack_set_visible_child_name (self->content_stack, "welcome");
  set_title (self, NULL, NULL);
}

static void
show_server_page (StewardWindow *self,
                  StewardServer *server)
{
  const char *name = steward_server_get_name (server);
  GtkWidget *page = g_hash_table_lookup (self->server_pages, name);

  if (page != NULL &&
      steward_server_page_get_server (STEWARD_SERVER_PAGE (page)) != server)
    {
      gtk_stack_remove (self->content_stack, page);
      g_hash_table_remove (self->server_pages, name);
      page = NULL;
    }

  if (page == NULL)
    {
      g_autofree char *page_name = g_strconcat (SERVER_PAGE_PREFIX, name, NULL);

      page = steward_server_page_new (server);
      steward_server_page_set_tool_pins (STEWARD_SERVER_PAGE (page),
                                         steward_host_get_tool_pins (self->host));
      gtk_stack_add_named (self->content_stack, page, page_name);
      g_hash_table_insert (self->server_pages, g_strdup (name), page);
    }

  gtk_stack_set_visible_child (self->content_stack, page);
  set_title (self, name, NULL);
}

static GtkListBoxRow *
find_server_row (StewardWindow *self,
                 const char    *name)
{
  for (int i = 0;; i++)
    {
      GtkListBoxRow *row = gtk_list_box_get_row_at_index (self->server_list, i);
      StewardServer *server;

      if (row == NULL)
        return NULL;

      server = steward_server_row_get_server (STEWARD_SERVER_ROW (row));
      if (g_strcmp0 (steward_server_get_name (server), name) == 0)
        return row;
    }
}

static GtkWidget *
create_server_row_cb (gpointer item,
                      gpointer user_data)
{
  StewardWindow *self = user_data;
  GtkWidget *row = steward_server_row_new (STEWARD_SERVER (item));

  steward_server_row_watch_approvals (STEWARD_SERVER_ROW (row),
                                      steward_host_get_approvals (self->host));
  return row;
}

/* Waiting requests: a count in the header bar, always, so that a request
 * that came while the window was not focused (a notification at most, and
 * none where no notification service runs) is still in view. */
static void
update_approvals_button (StewardWindow *self)
{
  GListModel *approvals = G_LIST_MODEL (steward_host_get_approvals (self->host));
  g_autofree char *label = NULL;
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (approvals); i++)
    {
      g_autoptr(StewardApproval) approval = g_list_model_get_item (approvals, i);

      n += !steward_approval_get_finished (approval);
    }

  gtk_widget_set_visible (GTK_WIDGET (self->approvals_button), n > 0);
  if (n == 0)
    return;

  /* Translators: a button in the header bar that opens the requests. */
  label = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u Waiting", "%u Waiting", n), n);
  gtk_button_set_label (self->approvals_button, label);
  g_free (label);
  /* Translators: how a screen reader names that button. */
  label = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u request waits for your answer",
                                        "%u requests wait for your answer", n), n);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->approvals_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                  -1);
}

static void
review_tools_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  StewardWindow *self = STEWARD_WINDOW (widget);
  const char *name = g_variant_get_string (parameter, NULL);
  StewardServer *server = steward_server_registry_lookup (get_registry (self), name);
  McpClient *client = server != NULL ? steward_server_get_client (server) : NULL;

  if (client == NULL)
    return;

  present_dialog (self, steward_tool_review_dialog_new (name, mcp_client_get_tools (client),
                                                        steward_host_get_tool_pins (self->host)));
}

static void
show_approvals_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  StewardWindow *self = STEWARD_WINDOW (widget);
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  GListModel *approvals = G_LIST_MODEL (steward_host_get_approvals (self->host));

  /* The application keeps one dialog per request and brings each up; a
   * window on its own (as in the tests) opens what it can itself. */
  if (app != NULL && g_action_group_has_action (G_ACTION_GROUP (app), "show-approvals"))
    {
      g_action_group_activate_action (G_ACTION_GROUP (app), "show-approvals", NULL);
      return;
    }

  for (guint i = 0; i < g_list_model_get_n_items (approvals); i++)
    {
      g_autoptr(StewardApproval) approval = g_list_model_get_item (approvals, i);

      if (steward_approval_get_finished (approval))
        continue;
      if (steward_approval_get_kind (approval) == STEWARD_APPROVAL_KIND_CONSENT)
        present_dialog (self, steward_consent_dialog_new (approval));
      else if (steward_approval_get_kind (approval) == STEWARD_APPROVAL_KIND_OVERDUE)
        present_dialog (self, steward_overdue_dialog_new (approval));
    }
}

static void
server_row_selected_cb (StewardWindow *self,
                        GtkListBoxRow *row,
                        GtkListBox    *list)
{
  if (self->selecting || self->moving_focus || row == NULL)
    return;

  unselect (self, self->nav_list);
  show_server_page (self, steward_server_row_get_server (STEWARD_SERVER_ROW (row)));
}

/* Tab walks through the sidebar's rows without choosing them, so that it
 * reaches the page beside them; Enter, a click or the arrow keys choose. */
static void
move_focus_cb (StewardWindow    *self,
               GtkDirectionType  direction,
               gpointer          user_data)
{
  self->moving_focus = TRUE;
  self->chosen_server = gtk_list_box_get_selected_row (self->server_list);
  self->chosen_view = gtk_list_box_get_selected_row (self->nav_list);
}

static void
restore_choice (StewardWindow *self,
                GtkListBox    *list,
                GtkListBoxRow *chosen)
{
  if (gtk_list_box_get_selected_row (list) == chosen)
    return;

  if (chosen != NULL)
    select_row (self, list, chosen);
  else
    unselect (self, list);
}

static void
move_focus_done_cb (StewardWindow    *self,
                    GtkDirectionType  direction,
                    gpointer          user_data)
{
  restore_choice (self, self->server_list, self->chosen_server);
  restore_choice (self, self->nav_list, self->chosen_view);
  self->chosen_server = NULL;
  self->chosen_view = NULL;
  self->moving_focus = FALSE;
}

static void
row_activated_cb (StewardWindow *self,
                  GtkListBoxRow *row,
                  GtkListBox    *list)
{
  navigate_to_content (self);
}

static void
ensure_log_view (StewardWindow *self)
{
  if (self->log_view != NULL)
    return;

  self->log_view = steward_log_view_new (self->host);
  gtk_stack_add_named (self->content_stack, self->log_view, "logs");
}

static void
ensure_roots_page (StewardWindow *self)
{
  if (self->roots_page != NULL)
    return;

  self->roots_page = steward_roots_page_new (self->host);
  gtk_stack_add_named (self->content_stack, self->roots_page, "roots");
}

/* Made once the host has started, shown or not: tasks journalled before
 * are followed again at once, and a task that ends tells the desktop even
 * before the page is shown. */
static void
ensure_tasks_page (StewardWindow *self)
{
  if (self->tasks_page != NULL)
    return;

  self->tasks_page = steward_tasks_page_new (self->host);
  gtk_stack_add_named (self->content_stack, self->tasks_page, "tasks");
}

static void
show_tasks_page (StewardWindow *self)
{
  ensure_tasks_page (self);
  gtk_stack_set_visible_child (self->content_stack, self->tasks_page);
  set_title (self, _("Tasks"), NULL);
}

static void
show_chat_page (StewardWindow *self)
{
  if (self->chat_page == NULL)
    {
      self->chat_page = steward_chat_page_new (self->host);
      gtk_stack_add_named (self->content_stack, self->chat_page, "chat");
    }

  gtk_stack_set_visible_child (self->content_stack, self->chat_page);
  set_title (self, _("Chat"), NULL);
}

static void
show_logs_page (StewardWindow *self,
                const char    *server)
{
  ensure_log_view (self);
  steward_log_view_set_server (STEWARD_LOG_VIEW (self->log_view), server);
  gtk_stack_set_visible_child (self->content_stack, self->log_view);
  set_title (self, _("Logs"), server);
}

static void
show_roots_page (StewardWindow *self)
{
  ensure_roots_page (self);
  gtk_stack_set_visible_child (self->content_stack, self->roots_page);
  set_title (self, _("Roots"), NULL);
}

static void
nav_row_selected_cb (StewardWindow *self,
                     GtkListBoxRow *row,
                     GtkListBox    *list)
{
  if (self->selecting || self->moving_focus || row == NULL)
    return;

  unselect (self, self->server_list);
  if (row == self->chat_row)
    show_chat_page (self);
  else if (row == self->logs_row)
    show_logs_page (self, NULL);
  else if (row == self->roots_row)
    show_roots_page (self);
  else if (row == self->tasks_row)
    show_tasks_page (self);
}

/* Drops the pages of servers that left the registry, or that it replaced
 * with a new object under the same name. */
static void
prune_server_pages (StewardWindow *self)
{
  GtkWidget *visible = gtk_stack_get_visible_child (self->content_stack);
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, self->server_pages);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      StewardServer *server = steward_server_registry_lookup (get_registry (self), key);
      GtkWidget *page = value;

      if (server != NULL && steward_server_page_get_server (STEWARD_SERVER_PAGE (page)) == server)
        continue;

      if (page == visible)
        show_welcome (self);
      gtk_stack_remove (self->content_stack, page);
      g_hash_table_iter_remove (&iter);
    }
}

/* "No Servers Yet" only once the host has read the servers file: a window
 * drawn while it loads shows an empty list, not an empty state that the
 * servers replace a moment later. */
static void
update_sidebar_stack (StewardWindow *self)
{
  gboolean empty = g_list_model_get_n_items (G_LIST_MODEL (get_registry (self))) == 0 &&
                   steward_host_get_started (self->host);

  gtk_stack_set_visible_child_name (self->sidebar_stack, empty ? "empty" : "servers");
}

static void
registry_items_changed_cb (StewardWindow *self,
                           guint          position,
                           guint          removed,
                           guint          added,
                           GListModel    *registry)
{
  guint n_items = g_list_model_get_n_items (registry);

  update_sidebar_stack (self);
  prune_server_pages (self);

  /* Something is always shown once there is something to show. */
  if (n_items > 0 &&
      gtk_list_box_get_selected_row (self->server_list) == NULL &&
      gtk_list_box_get_selected_row (self->nav_list) == NULL)
    gtk_list_box_select_row (self->server_list,
                             gtk_list_box_get_row_at_index (self->server_list, 0));
}

static void
update_sidebar_visibility (StewardWindow *self)
{
  /* A folded leaflet shows one child at a time and the sidebar is how one
   * gets anywhere, so it can only be hidden while unfolded. */
  gtk_widget_set_visible (self->sidebar,
                          self->show_sidebar || adw_leaflet_get_folded (self->leaflet));
}

static void
set_show_sidebar (StewardWindow *self,
                  gboolean       show_sidebar)
{
  show_sidebar = !!show_sidebar;
  if (self->show_sidebar == show_sidebar)
    return;

  self->show_sidebar = show_sidebar;
  update_sidebar_visibility (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_SIDEBAR]);
}

static void
dialog_saved_cb (StewardWindow       *self,
                 StewardServerConfig *config,
                 GtkWidget           *dialog)
{
  steward_window_show_server (self, steward_server_config_get_name (config));
}

static void
dialog_imported_cb (StewardWindow *self,
                    guint          n_imported,
                    GtkWidget     *dialog)
{
  g_autofree char *text = NULL;

  /* Translators: shown after importing servers from another app. */
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Imported %u server",
                                       "Imported %u servers", n_imported),
                          n_imported);
  show_toast (self, text);
}

static void
add_server_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  StewardWindow *self = STEWARD_WINDOW (widget);
  GtkWidget *dialog = steward_server_dialog_new (self->host, NULL);

  g_signal_connect_object (dialog, "saved", G_CALLBACK (dialog_saved_cb),
                           self, G_CONNECT_SWAPPED);
  present_dialog (self, dialog);
}

static void
import_servers_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  StewardWindow *self = STEWARD_WINDOW (widget);
  GtkWidget *dialog = steward_import_dialog_new (self->host);

  g_signal_connect_object (dialog, "imported", G_CALLBACK (dialog_imported_cb),
                           self, G_CONNECT_SWAPPED);
  present_dialog (self, dialog);
}

static void
show_logs_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  steward_window_show_logs (STEWARD_WINDOW (widget), NULL);
}

static void
show_chat_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  StewardWindow *self = STEWARD_WINDOW (widget);

  unselect (self, self->server_list);
  select_row (self, self->nav_list, self->chat_row);
  show_chat_page (self);
  navigate_to_content (self);

  if (g_str_equal (action_name, "win.new-conversation"))
    steward_chat_page_new_conversation (STEWARD_CHAT_PAGE (self->chat_page));
}

static void
review_tool_changes_action (GtkWidget  *widget,
                            const char *action_name,
                            GVariant   *parameter)
{
  StewardWindow *self = STEWARD_WINDOW (widget);

  present_dialog (self, steward_tool_change_dialog_new (get_registry (self),
                                                        steward_host_get_tool_pins (self->host)));
}

static void
show_roots_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  steward_window_show_roots (STEWARD_WINDOW (widget));
}

#define SHORTCUTS_RESOURCE "/io/github/stewardmcp/Steward/steward-shortcuts.ui"

/* The shortcuts window is built the first time it is asked for rather
 * than with every window, as GtkApplication would: it is a window of its
 * own with a row of widgets for each shortcut, half of what making the
 * main window costs, and most starts never show it. */
static void
show_help_overlay_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  GtkApplicationWindow *window = GTK_APPLICATION_WINDOW (widget);
  GtkShortcutsWindow *shortcuts = gtk_application_window_get_help_overlay (window);

  if (shortcuts == NULL)
    {
      g_autoptr(GtkBuilder) builder = NULL;
      GtkWidget *search;

      builder = gtk_builder_new_from_resource (SHORTCUTS_RESOURCE);
      shortcuts = GTK_SHORTCUTS_WINDOW (gtk_builder_get_object (builder, "help_overlay"));
      /* Makes it modal, transient for this window, and hidden on close. */
      gtk_application_window_set_help_overlay (window, shortcuts);

      /* GTK 4.8 gives its search button no name. */
      search = steward_accessible_find_button (GTK_WIDGET (shortcuts), "edit-find-symbolic", NULL);
      if (search != NULL)
        gtk_accessible_update_property (GTK_ACCESSIBLE (search),
                                        GTK_ACCESSIBLE_PROPERTY_LABEL, _("Search"),
                                        -1);
    }

  gtk_window_present (GTK_WINDOW (shortcuts));
}

static void
show_server_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  steward_window_show_server (STEWARD_WINDOW (widget), g_variant_get_string (parameter, NULL));
}

static void
move_server_selection (StewardWindow *self,
                       int            delta)
{
  GtkListBoxRow *selected = gtk_list_box_get_selected_row (self->server_list);
  GtkListBoxRow *row;
  int index = 0;

  if (selected != NULL)
    index = gtk_list_box_row_get_index (selected) + delta;

  row = gtk_list_box_get_row_at_index (self->server_list, MAX (index, 0));
  if (row == NULL)
    return;

  gtk_list_box_select_row (self->server_list, row);
  gtk_widget_grab_focus (GTK_WIDGET (row));
}

static void
previous_server_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  move_server_selection (STEWARD_WINDOW (widget), -1);
}

static void
next_server_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  move_server_selection (STEWARD_WINDOW (widget), 1);
}

static void
toggle_sidebar_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  StewardWindow *self = STEWARD_WINDOW (widget);

  if (adw_leaflet_get_folded (self->leaflet))
    {
      if (adw_leaflet_get_visible_child (self->leaflet) == self->sidebar)
        navigate_to_content (self);
      else
        adw_leaflet_set_visible_child (self->leaflet, self->sidebar);
      return;
    }

  set_show_sidebar (self, !self->show_sidebar);
}

static void
go_back_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  StewardWindow *self = STEWARD_WINDOW (widget);

  adw_leaflet_navigate (self->leaflet, ADW_NAVIGATION_DIRECTION_BACK);
}

static void
server_start_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  StewardServer *server = lookup_server (STEWARD_WINDOW (widget), parameter);

  if (server != NULL)
    steward_server_start (server);
}

static void
server_stopped_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  /* The server reports its own failures in its status and the log. */
  if (!steward_server_stop_finish (STEWARD_SERVER (object), result, &error))
    g_debug ("Stopping %s: %s", steward_server_get_name (STEWARD_SERVER (object)),
             error->message);
}

static void
server_stop_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  StewardServer *server = lookup_server (STEWARD_WINDOW (widget), parameter);

  if (server != NULL)
    steward_server_stop_async (server, NULL, server_stopped_cb, NULL);
}

static void
server_restart_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  StewardServer *server = lookup_server (STEWARD_WINDOW (widget), parameter);

  if (server != NULL)
    steward_server_restart (server);
}

static void
server_enable_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  StewardServer *server = lookup_server (STEWARD_WINDOW (widget), parameter);

  if (server != NULL)
    steward_server_set_enabled (server, g_str_equal (action_name, "win.server-enable"));
}

static void
server_edit_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  StewardWindow *self = STEWARD_WINDOW (widget);
  StewardConfig *config = steward_host_get_config (self->host);
  StewardServerConfig *server;
  GtkWidget *dialog;

  server = steward_config_lookup (config, g_variant_get_string (parameter, NULL), NULL);
  if (server == NULL)
    return;

  dialog = steward_server_dialog_new (self->host, server);
  g_signal_connect_object (dialog, "saved", G_CALLBACK (dialog_saved_cb),
                           self, G_CONNECT_SWAPPED);
  present_dialog (self, dialog);
}

static void
server_log_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  steward_window_show_logs (STEWARD_WINDOW (widget), g_variant_get_string (parameter, NULL));
}

static StewardApproval *
find_consent (StewardWindow *self,
              const char    *name)
{
  GListModel *approvals = G_LIST_MODEL (steward_host_get_approvals (self->host));
  guint n_items = g_list_model_get_n_items (approvals);

  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr(StewardApproval) approval = g_list_model_get_item (approvals, i);

      if (steward_approval_get_kind (approval) == STEWARD_APPROVAL_KIND_CONSENT &&
          !steward_approval_get_finished (approval) &&
          g_strcmp0 (steward_approval_get_server (approval), name) == 0)
        return g_steal_pointer (&approval);
    }

  return NULL;
}

static void
server_review_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  StewardWindow *self = STEWARD_WINDOW (widget);
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  g_autoptr(StewardApproval) approval = NULL;

  /* The application keeps one dialog per approval; a window on its own
   * (as in the tests) opens one itself. */
  if (app != NULL && g_action_group_has_action (G_ACTION_GROUP (app), "review-consent"))
    {
      g_action_group_activate_action (G_ACTION_GROUP (app), "review-consent", parameter);
      return;
    }

  approval = find_consent (self, g_variant_get_string (parameter, NULL));
  if (approval != NULL)
    present_dialog (self, steward_consent_dialog_new (approval));
}

typedef struct
{
  StewardWindow       *self;      /* until the removal is saved */
  GWeakRef             window;    /* once the toast holds this */
  StewardHost         *host;
  char                *name;
  StewardServerConfig *server;
  gboolean             forget_secrets;
  gboolean             undone;
} RemoveData;

static void
remove_data_free (RemoveData *data)
{
  g_clear_object (&data->self);
  g_weak_ref_clear (&data->window);
  g_clear_object (&data->host);
  g_free (data->name);
  g_clear_object (&data->server);
  g_free (data);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RemoveData, remove_data_free)

static void
restored_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(StewardWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!steward_config_save_finish (STEWARD_CONFIG (object), result, &error))
    {
      /* Translators: %s says why the servers file could not be written. */
      g_autofree char *text = g_strdup_printf (_("Could not restore the server: %s"),
                                               error->message);

      steward_error_banner_set_message (self->error_banner, text);
      return;
    }

  steward_error_banner_clear (self->error_banner);
  steward_server_registry_sync (get_registry (self), TRUE);
}

/* Undo puts the very entry back, its consent and secret references with
 * it, which is why the secrets are kept until the toast has gone. */
static void
undo_removal_cb (AdwToast   *toast,
                 RemoveData *data)
{
  StewardConfig *config = steward_host_get_config (data->host);
  g_autoptr(StewardWindow) self = g_weak_ref_get (&data->window);

  if (data->undone || self == NULL)
    return;

  data->undone = TRUE;
  steward_config_put_server (config, data->server);
  steward_config_save_async (config, NULL, restored_cb, g_steal_pointer (&self));
}

/* Once the toast has gone without Undo, the secrets only the removed entry
 * used are forgotten; until then Undo needs them. */
static void
removal_dismissed_cb (AdwToast   *toast,
                      RemoveData *data)
{
  if (data->undone || !data->forget_secrets)
    return;

  data->forget_secrets = FALSE;
  steward_secrets_forget_unused_async (steward_host_get_secrets (data->host), data->server,
                                       NULL, NULL, NULL, NULL);
}

static void
removal_saved_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(RemoveData) data = user_data;
  g_autoptr(StewardWindow) self = g_steal_pointer (&data->self);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *escaped = NULL;
  AdwToast *toast;

  if (!steward_config_save_finish (STEWARD_CONFIG (object), result, &error))
    {
      /* Translators: the first %s is a server's name, the second why the
       * servers file could not be written. */
      text = g_strdup_printf (_("Could not remove “%s”: %s"), data->name, error->message);
      steward_error_banner_set_message (self->error_banner, text);
      return;
    }

  steward_error_banner_clear (self->error_banner);
  steward_server_registry_sync (get_registry (self), TRUE);

  /* Translators: %s is a server's name. */
  text = g_strdup_printf (_("Removed “%s”"), data->name);
  escaped = g_markup_escape_text (text, -1);
  toast = adw_toast_new (escaped);
  /* Translators: the button of the toast that says a server was removed. */
  adw_toast_set_button_label (toast, _("_Undo"));
  adw_toast_set_priority (toast, ADW_TOAST_PRIORITY_HIGH);
  g_signal_connect (toast, "button-clicked", G_CALLBACK (undo_removal_cb), data);
  /* The toast holds the removal, and only a weak reference to the window
   * that holds the toast. */
  g_signal_connect (toast, "dismissed", G_CALLBACK (removal_dismissed_cb), data);
  g_object_set_data_full (G_OBJECT (toast), "steward-removal", g_steal_pointer (&data),
                          (GDestroyNotify) remove_data_free);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

static void
remove_server (StewardWindow *self,
               const char    *name,
               gboolean       forget_secrets)
{
  StewardConfig *config = steward_host_get_config (self->host);
  StewardServerConfig *server = steward_config_lookup (config, name, NULL);
  RemoveData *data;

  if (server == NULL)
    return;

  data = g_new0 (RemoveData, 1);
  data->self = g_object_ref (self);
  g_weak_ref_init (&data->window, self);
  data->host = g_object_ref (self->host);
  data->name = g_strdup (name);
  data->server = g_object_ref (server);
  data->forget_secrets = forget_secrets;

  steward_config_remove_server (config, name);
  steward_config_save_async (config, NULL, removal_saved_cb, data);
}

static void
remove_response_cb (StewardWindow    *self,
                    const char       *response,
                    AdwMessageDialog *dialog)
{
  GtkCheckButton *forget = g_object_get_data (G_OBJECT (dialog), "forget-secrets");
  const char *name = g_object_get_data (G_OBJECT (dialog), "server-name");

  if (g_strcmp0 (response, "remove") == 0)
    remove_server (self, name, gtk_check_button_get_active (forget));
}

static void
server_remove_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  StewardWindow *self = STEWARD_WINDOW (widget);
  const char *name = g_variant_get_string (parameter, NULL);
  g_autofree char *heading = NULL;
  GtkWidget *dialog;
  GtkWidget *forget;

  /* Translators: %s is a server's name. */
  heading = g_strdup_printf (_("Remove “%s”?"), name);
  dialog = adw_message_dialog_new (GTK_WINDOW (self), heading,
                                   _("The server is stopped and removed from the servers "
                                     "file. Steward will not start it again."));
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "remove", _("_Remove"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "remove",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");

  forget = gtk_check_button_new_with_mnemonic (_("Also _forget its stored secrets"));
  gtk_check_button_set_active (GTK_CHECK_BUTTON (forget), TRUE);
  gtk_widget_set_halign (forget, GTK_ALIGN_CENTER);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), forget);

  g_object_set_data (G_OBJECT (dialog), "forget-secrets", forget);
  g_object_set_data_full (G_OBJECT (dialog), "server-name", g_strdup (name), g_free);
  g_signal_connect_object (dialog, "response", G_CALLBACK (remove_response_cb),
                           self, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
folded_changed_cb (StewardWindow *self)
{
  update_sidebar_visibility (self);
}

static gboolean
steward_window_close_request (GtkWindow *window)
{
  StewardWindow *self = STEWARD_WINDOW (window);
  int width, height;

  gtk_window_get_default_size (window, &width, &height);
  g_settings_delay (self->settings);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));
  if (!gtk_window_is_maximized (window) && width > 0 && height > 0)
    {
      g_settings_set_int (self->settings, "window-width", width);
      g_settings_set_int (self->settings, "window-height", height);
    }
  g_settings_apply (self->settings);

  return GTK_WINDOW_CLASS (steward_window_parent_class)->close_request (window);
}

static void
host_started_cb (StewardWindow *self)
{
  update_sidebar_stack (self);
  if (g_str_equal (gtk_stack_get_visible_child_name (self->content_stack), "starting"))
    show_welcome (self);
  ensure_tasks_page (self);
}

static void
steward_window_constructed (GObject *object)
{
  StewardWindow *self = STEWARD_WINDOW (object);
  GListModel *registry;

  G_OBJECT_CLASS (steward_window_parent_class)->constructed (object);

  g_assert (STEWARD_IS_HOST (self->host));
  registry = G_LIST_MODEL (get_registry (self));

  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
  g_settings_bind (self->settings, "sidebar-visible", self, "show-sidebar",
                   G_SETTINGS_BIND_DEFAULT);

  gtk_list_box_bind_model (self->server_list, registry, create_server_row_cb, self, NULL);
  g_signal_connect_object (steward_host_get_approvals (self->host), "items-changed",
                           G_CALLBACK (update_approvals_button), self, G_CONNECT_SWAPPED);
  update_approvals_button (self);
  g_signal_connect_object (registry, "items-changed",
                           G_CALLBACK (registry_items_changed_cb), self, G_CONNECT_SWAPPED);
  registry_items_changed_cb (self, 0, 0, 0, registry);
  g_signal_connect_object (self->host, "notify::started", G_CALLBACK (host_started_cb), self,
                           G_CONNECT_SWAPPED);
  if (steward_host_get_started (self->host))
    host_started_cb (self);
}

static void
steward_window_dispose (GObject *object)
{
  StewardWindow *self = STEWARD_WINDOW (object);

  g_clear_pointer (&self->server_pages, g_hash_table_unref);
  self->log_view = NULL;
  self->chat_page = NULL;
  self->roots_page = NULL;
  self->tasks_page = NULL;

  gtk_widget_dispose_template (GTK_WIDGET (self), STEWARD_TYPE_WINDOW);

  g_clear_object (&self->settings);
  g_clear_object (&self->host);

  G_OBJECT_CLASS (steward_window_parent_class)->dispose (object);
}

static void
steward_window_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  StewardWindow *self = STEWARD_WINDOW (object);

  switch (prop_id)
    {
    case PROP_HOST:
      g_value_set_object (value, self->host);
      break;
    case PROP_SHOW_SIDEBAR:
      g_value_set_boolean (value, self->show_sidebar);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_window_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  StewardWindow *self = STEWARD_WINDOW (object);

  switch (prop_id)
    {
    case PROP_HOST:
      self->host = g_value_dup_object (value);
      break;
    case PROP_SHOW_SIDEBAR:
      set_show_sidebar (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_window_class_init (StewardWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->constructed = steward_window_constructed;
  object_class->dispose = steward_window_dispose;
  object_class->get_property = steward_window_get_property;
  object_class->set_property = steward_window_set_property;

  window_class->close_request = steward_window_close_request;

  properties[PROP_HOST] =
    g_param_spec_object ("host", NULL, NULL,
                         STEWARD_TYPE_HOST,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  properties[PROP_SHOW_SIDEBAR] =
    g_param_spec_boolean ("show-sidebar", NULL, NULL,
                          TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (STEWARD_TYPE_SERVER_ROW);

  g_type_ensure (STEWARD_TYPE_ERROR_BANNER);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/stewardmcp/Steward/steward-window.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, StewardWindow, error_banner);
  gtk_widget_class_bind_template_child (widget_class, StewardWindow, leaflet);
  gtk_widget_class_bind_template_child (widget_class, StewardWindow, sidebar);
  gtk_widget_class_bind_template_child (widget_class, StewardWindow, sidebar_stack);
  gtk_widget_class_bind_template_child (widget_class, StewardWindow, server_list);
  gtk_widget_class_bind_template_child (widget_class, StewardWindow, nav_list);
  gtk_widget_class_bind_template_child (widget_class, StewardWindow, chat_row);
  gtk_widget_class_bind_template_child (widget_class, StewardWindow, logs_row);
  gtk_widget_class_bind_template_child (widget_class, StewardWindow, roots_row);
  gtk_widget_class_bind_template_child (widget_class, StewardWindow, tasks_row);
  gtk_widget_class_bind_template_child (widget_class, StewardWindow, content);
  gtk_widget_class_bind_template_child (widget_class, StewardWindow, content_title);
  gtk_widget_class_bind_template_child (widget_class, StewardWindow, content_stack);
  gtk_widget_class_bind_template_child (widget_class, StewardWindow, empty_page);
  gtk_widget_class_bind_template_child (widget_class, StewardWindow, welcome_page);
  gtk_widget_class_bind_template_child (widget_class, StewardWindow, primary_menu_button);
  gtk_widget_class_bind_template_child (widget_class, StewardWindow, primary_menu);
  gtk_widget_class_bind_template_child (widget_class, StewardWindow, approvals_button);
  gtk_widget_class_install_action (widget_class, "win.show-approvals", NULL,
                                   show_approvals_action);
  gtk_widget_class_install_action (widget_class, "win.review-tools", "s",
                                   review_tools_action);
  gtk_widget_class_bind_template_callback (widget_class, server_row_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, nav_row_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, folded_changed_cb);

  gtk_widget_class_install_action (widget_class, "win.add-server", NULL, add_server_action);
  gtk_widget_class_install_action (widget_class, "win.import-servers", NULL,
                                   import_servers_action);
  gtk_widget_class_install_action (widget_class, "win.show-chat", NULL, show_chat_action);
  gtk_widget_class_install_action (widget_class, "win.new-conversation", NULL, show_chat_action);
  gtk_widget_class_install_action (widget_class, "win.review-tool-changes", NULL,
                                   review_tool_changes_action);
  gtk_widget_class_install_action (widget_class, "win.show-logs", NULL, show_logs_action);
  gtk_widget_class_install_action (widget_class, "win.show-roots", NULL, show_roots_action);
  gtk_widget_class_install_action (widget_class, "win.show-help-overlay", NULL,
                                   show_help_overlay_action);
  gtk_widget_class_install_action (widget_class, "win.show-server", "s", show_server_action);
  gtk_widget_class_install_action (widget_class, "win.previous-server", NULL,
                                   previous_server_action);
  gtk_widget_class_install_action (widget_class, "win.next-server", NULL, next_server_action);
  gtk_widget_class_install_action (widget_class, "win.toggle-sidebar", NULL,
                                   toggle_sidebar_action);
  gtk_widget_class_install_property_action (widget_class, "win.show-sidebar", "show-sidebar");
  gtk_widget_class_install_action (widget_class, "win.go-back", NULL, go_back_action);
  gtk_widget_class_install_action (widget_class, "win.server-start", "s", server_start_action);
  gtk_widget_class_install_action (widget_class, "win.server-stop", "s", server_stop_action);
  gtk_widget_class_install_action (widget_class, "win.server-restart", "s",
                                   server_restart_action);
  gtk_widget_class_install_action (widget_class, "win.server-enable", "s",
                                   server_enable_action);
  gtk_widget_class_install_action (widget_class, "win.server-disable", "s",
                                   server_enable_action);
  gtk_widget_class_install_action (widget_class, "win.server-edit", "s", server_edit_action);
  gtk_widget_class_install_action (widget_class, "win.server-log", "s", server_log_action);
  gtk_widget_class_install_action (widget_class, "win.server-review", "s",
                                   server_review_action);
  gtk_widget_class_install_action (widget_class, "win.server-remove", "s",
                                   server_remove_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_n, GDK_CONTROL_MASK,
                                       "win.add-server", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_l, GDK_CONTROL_MASK,
                                       "win.show-logs", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_t, GDK_CONTROL_MASK,
                                       "win.new-conversation", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F9, 0,
                                       "win.toggle-sidebar", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, GDK_ALT_MASK,
                                       "win.previous-server", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, GDK_ALT_MASK,
                                       "win.next-server", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK,
                                       "window.close", NULL);
}

/* The status pages of the first frame show the app's symbolic icon from
 * the PNG rendered at build time: by its name, the icon theme would draw
 * it from its SVG, and loading librsvg for that costs several MiB and
 * milliseconds before the window is first drawn. As a symbolic
 * GtkIconPaintable it is still recoloured like any symbolic icon. */
static void
set_status_icon (AdwStatusPage *page)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GtkIconPaintable) icon = NULL;

  file = g_file_new_for_uri ("resource:///io/github/stewardmcp/Steward/icons/rendered/"
                             "io.github.stewardmcp.Steward-symbolic-128.symbolic.png");
  /* Made by its properties: gtk_icon_paintable_new_for_file() in GTK 4.8
   * does not tell from the name that the PNG is symbolic, and would draw
   * it black. */
  icon = g_object_new (GTK_TYPE_ICON_PAINTABLE,
                       "file", file,
                       "icon-name", "io.github.stewardmcp.Steward-symbolic",
                       "is-symbolic", TRUE,
                       NULL);
  adw_status_page_set_paintable (page, GDK_PAINTABLE (icon));
}

/* The main menu's popover, with its items and their accessible objects,
 * is made the first time the menu opens rather than with the window. */
static void
create_primary_menu_cb (GtkMenuButton *button,
                        gpointer       user_data)
{
  StewardWindow *self = user_data;

  if (gtk_menu_button_get_popover (button) == NULL)
    gtk_menu_button_set_menu_model (button, self->primary_menu);
}

static void
steward_window_init (StewardWindow *self)
{
  self->show_sidebar = TRUE;
  self->server_pages = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->settings = g_settings_new (APPLICATION_ID);

  gtk_widget_init_template (GTK_WIDGET (self));
  set_status_icon (self->empty_page);
  set_status_icon (self->welcome_page);
  gtk_menu_button_set_create_popup_func (self->primary_menu_button, create_primary_menu_cb,
                                         self, NULL);

  g_signal_connect (self, "move-focus", G_CALLBACK (move_focus_cb), NULL);
  g_signal_connect_after (self, "move-focus", G_CALLBACK (move_focus_done_cb), NULL);
}

GtkWidget *
steward_window_new (GtkApplication *application,
                    StewardHost    *host)
{
  StewardWindow *self;

  g_return_val_if_fail (application == NULL || GTK_IS_APPLICATION (application), NULL);
  g_return_val_if_fail (STEWARD_IS_HOST (host), NULL);

  self = g_object_new (STEWARD_TYPE_WINDOW,
                       "application", application,
                       "host", host,
                       NULL);

  return GTK_WIDGET (self);
}

void
steward_window_show_server (StewardWindow *self,
                            const char    *name)
{
  GtkListBoxRow *row;

  g_return_if_fail (STEWARD_IS_WINDOW (self));
  g_return_if_fail (name != NULL);

  row = find_server_row (self, name);
  if (row == NULL)
    return;

  unselect (self, self->nav_list);
  select_row (self, self->server_list, row);
  show_server_page (self, steward_server_row_get_server (STEWARD_SERVER_ROW (row)));
  navigate_to_content (self);
}

void
steward_window_show_logs (StewardWindow *self,
                          const char    *server)
{
  g_return_if_fail (STEWARD_IS_WINDOW (self));

  unselect (self, self->server_list);
  select_row (self, self->nav_list, self->logs_row);
  show_logs_page (self, server);
  navigate_to_content (self);
}

void
steward_window_show_roots (StewardWindow *self)
{
  g_return_if_fail (STEWARD_IS_WINDOW (self));

  unselect (self, self->server_list);
  select_row (self, self->nav_list, self->roots_row);
  show_roots_page (self);
  navigate_to_content (self);
}

void
steward_window_add_toast (StewardWindow *self,
                          AdwToast      *toast)
{
  g_return_if_fail (STEWARD_IS_WINDOW (self));
  g_return_if_fail (ADW_IS_TOAST (toast));

  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

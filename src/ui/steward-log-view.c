/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-log-view"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mcp-client.h"
#include "steward-accessible.h"
#include "steward-log-detail.h"
#include "steward-log-row.h"
#include "steward-log-snapshot.h"

#include "steward-log-view.h"
#include "steward-log-view-private.h"

/* How long after entries went the list may move the scroll value on its
 * own: the next layout, which comes within a frame or two. */
#define SHIFT_GRACE_US (250 * 1000)
/* The least the detail pane and the list are given, in pixels. */
#define MIN_DETAIL_HEIGHT 60
#define MIN_LIST_HEIGHT   120
/* As the settings key allows. */
#define MAX_DETAIL_HEIGHT 4000

/* How often a following view moves to the newest entry, at most. */
#define FOLLOW_INTERVAL_US (100 * 1000)

#define ALL_SOURCES ((1u << STEWARD_LOG_SOURCE_STDERR) | \
                     (1u << STEWARD_LOG_SOURCE_SERVER) | \
                     (1u << STEWARD_LOG_SOURCE_TRACE) | \
                     (1u << STEWARD_LOG_SOURCE_HOST))

/* The names "log-sources" keeps in GSettings, by StewardLogSource. */
static const char * const source_keys[] = {
  [STEWARD_LOG_SOURCE_STDERR] = "stderr",
  [STEWARD_LOG_SOURCE_SERVER] = "server",
  [STEWARD_LOG_SOURCE_TRACE] = "protocol",
  [STEWARD_LOG_SOURCE_HOST] = "host",
};

/* The MCP level names ("log-min-level", logging/setLevel), by StewardLogLevel. */
static const char * const level_keys[] = {
  "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency",
};


enum {
  PROP_0,
  PROP_HOST,
  PROP_SERVER,
  PROP_SEARCH_TEXT,
  PROP_MIN_LEVEL,
  PROP_SOURCES,
  PROP_FOLLOW,
  PROP_PAUSED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (StewardLogView, steward_log_view, ADW_TYPE_BIN)


/* libadwaita 1.2 reads a toast's title as markup, and titles here hold
 * server names and error messages: escape them. */
void
steward_log_view_show_toast (StewardLogView *self,
                             const char     *title)
{
  g_autofree char *escaped = g_markup_escape_text (title, -1);
  AdwToast *toast = adw_toast_new (escaped);

  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

static gboolean
filter_func (gpointer item,
             gpointer user_data)
{
  StewardLogView *self = user_data;
  StewardLogEntry *entry = item;

  if (steward_log_entry_get_level (entry) < self->min_level)
    return FALSE;

  if ((self->sources & (1u << steward_log_entry_get_source (entry))) == 0)
    return FALSE;

  if (self->server != NULL &&
      g_strcmp0 (steward_log_entry_get_server (entry), self->server) != 0)
    return FALSE;

  if (self->search_text != NULL &&
      !steward_log_entry_matches_text (entry, self->search_text))
    return FALSE;

  return TRUE;
}

GListModel *
steward_log_view_get_shown_model (StewardLogView *self)
{
  if (self->frozen_filter_model != NULL)
    return G_LIST_MODEL (self->frozen_filter_model);
  if (self->frozen_shown != NULL)
    return G_LIST_MODEL (self->frozen_shown);

  return G_LIST_MODEL (self->filter_model);
}

static void
filter_changed (StewardLogView  *self,
                GtkFilterChange  change)
{
  gtk_filter_changed (GTK_FILTER (self->filter), change);

  /* A paused view applies a new filter to the entries it froze, so from
   * now on it shows them through a filter model of its own. */
  if (self->paused && self->frozen_filter_model == NULL)
    {
      self->frozen_filter_model =
        gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (self->frozen_entries)),
                                   g_object_ref (GTK_FILTER (self->filter)));
      gtk_filter_list_model_set_incremental (self->frozen_filter_model, TRUE);
      gtk_single_selection_set_model (self->selection, G_LIST_MODEL (self->frozen_filter_model));
      g_clear_object (&self->frozen_shown);
    }
}

/* Keeps the newest entry in view. The list moves there in its next
 * layout, and the scroll value moves with it: expected, not the person's
 * doing. */
static void
scroll_to_end (StewardLogView *self)
{
  guint n_items = g_list_model_get_n_items (G_LIST_MODEL (self->selection));

  if (n_items == 0)
    return;

  self->shift_expected_until = g_get_monotonic_time () + SHIFT_GRACE_US;
  gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u",
                              n_items - 1);
}

static gboolean
scroll_to_end_cb (gpointer user_data)
{
  StewardLogView *self = user_data;

  self->scroll_source_id = 0;
  self->last_scroll_us = g_get_monotonic_time ();
  if (self->follow)
    scroll_to_end (self);

  return G_SOURCE_REMOVE;
}

/* GtkListView 4.8 can only scroll to an entry it has laid out, so the
 * view asks once a layout made the list longer (the adjustment changed)
 * or entries arrived. It also makes new rows for the entries it scrolls
 * to rather than reusing the old ones, so during a flood the view moves at
 * most every FOLLOW_INTERVAL_US: each move then replaces at most the couple
 * of hundred rows the list keeps, instead of that many every frame. */
static void
queue_scroll_to_end (StewardLogView *self)
{
  gint64 wait_us;

  if (self->scroll_source_id != 0)
    return;

  wait_us = self->last_scroll_us + FOLLOW_INTERVAL_US - g_get_monotonic_time ();
  if (wait_us <= 0)
    self->scroll_source_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE + 10, scroll_to_end_cb,
                                              self, NULL);
  else
    self->scroll_source_id = g_timeout_add_full (G_PRIORITY_HIGH_IDLE + 10,
                                                 (guint) (wait_us / 1000) + 1,
                                                 scroll_to_end_cb, self, NULL);
}

static void
update_status (StewardLogView *self)
{
  guint n_shown = g_list_model_get_n_items (G_LIST_MODEL (self->selection));
  guint n_total = self->store != NULL ? g_list_model_get_n_items (G_LIST_MODEL (self->store)) : 0;
  gboolean empty = n_shown == 0;
  g_autofree char *text = NULL;

  if (self->paused)
    {
      /* Translators: the log view is paused; %u counts entries recorded since. */
      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "Paused · %u new entry",
                                           "Paused · %u new entries",
                                           self->paused_new),
                              self->paused_new);
    }
  else if (n_shown == n_total)
    {
      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u entry", "%u entries", n_total),
                              n_total);
    }
  else
    {
      /* Translators: entries shown of entries recorded. */
      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "%u of %u entry",
                                           "%u of %u entries",
                                           n_total),
                              n_shown, n_total);
    }

  gtk_label_set_text (self->status_label, text);

  if (empty != self->showing_empty)
    {
      self->showing_empty = empty;
      gtk_stack_set_visible_child_name (self->stack, empty ? "empty" : "list");
    }

  if (empty)
    {
      if (n_total == 0 && !self->paused)
        {
          adw_status_page_set_title (self->empty_page, _("No Log Entries"));
          adw_status_page_set_description (self->empty_page,
                                           _("What servers write to standard error, the messages "
                                             "they log, every protocol message and Steward’s own "
                                             "events appear here."));
        }
      else
        {
          adw_status_page_set_title (self->empty_page, _("No Matching Entries"));
          adw_status_page_set_description (self->empty_page,
                                           _("Try another search, level, source or server."));
        }
    }
}

static void
update_detail (StewardLogView *self)
{
  StewardLogEntry *entry = gtk_single_selection_get_selected_item (self->selection);
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->detail_view);
  g_autoptr(StewardLogEntry) partner = NULL;
  g_autofree char *text = NULL;

  if (entry != NULL && entry == self->detail_entry && self->detail_partner != NULL)
    return;

  if (entry != NULL)
    partner = steward_log_detail_find_partner (G_LIST_MODEL (self->store), entry);

  /* A request's answer may come after it was chosen: look again then. */
  if (entry == self->detail_entry && partner == self->detail_partner)
    return;

  g_set_object (&self->detail_entry, entry);
  g_set_object (&self->detail_partner, partner);

  if (entry == NULL)
    {
      gtk_text_buffer_set_text (buffer, _("Select an entry to see all of it here."), -1);
      return;
    }

  /* The detail is plain text into a buffer: nothing a server sent is ever
   * read as markup. */
  text = steward_log_detail_format (entry, partner);
  gtk_text_buffer_set_text (buffer, text, -1);
}

static void
shown_items_changed_cb (StewardLogView *self,
                        guint           position,
                        guint           removed,
                        guint           added,
                        GListModel     *model)
{
  update_status (self);

  if (removed > 0)
    self->shift_expected_until = g_get_monotonic_time () + SHIFT_GRACE_US;

  if (self->follow)
    queue_scroll_to_end (self);
}

static void
store_items_changed_cb (StewardLogView *self,
                        guint           position,
                        guint           removed,
                        guint           added,
                        GListModel     *store)
{
  if (self->paused)
    {
      if (g_list_model_get_n_items (store) == 0)
        self->paused_new = 0;
      else
        self->paused_new += added;
    }

  /* The answer to the request on show may just have come. */
  if (added > 0 && self->detail_entry != NULL && self->detail_partner == NULL)
    update_detail (self);

  update_status (self);
}

static void
selected_item_cb (StewardLogView *self)
{
  update_detail (self);
}

static void
list_activate_cb (StewardLogView *self,
                  guint           position)
{
  gtk_single_selection_set_selected (self->selection, position);
  update_detail (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->detail_view));
}

/* While a full store drops its oldest entries the list keeps moving the
 * scroll value itself, so during a flood the person's intent is read from
 * the input: scrolling up, grabbing the scroll bar, or moving up with the
 * keyboard stops following. */
static gboolean
scroll_input_cb (StewardLogView           *self,
                 double                    dx,
                 double                    dy,
                 GtkEventControllerScroll *controller)
{
  if (dy < 0 && self->follow)
    g_object_set (self, "follow", FALSE, NULL);

  return GDK_EVENT_PROPAGATE;
}

static void
scrollbar_pressed_cb (StewardLogView *self)
{
  if (self->follow)
    g_object_set (self, "follow", FALSE, NULL);
}

static gboolean
key_input_cb (StewardLogView        *self,
              guint                  keyval,
              guint                  keycode,
              GdkModifierType        state,
              GtkEventControllerKey *controller)
{
  switch (keyval)
    {
    case GDK_KEY_Up:
    case GDK_KEY_KP_Up:
    case GDK_KEY_Page_Up:
    case GDK_KEY_KP_Page_Up:
    case GDK_KEY_Home:
    case GDK_KEY_KP_Home:
      if (self->follow)
        g_object_set (self, "follow", FALSE, NULL);
      break;
    default:
      break;
    }

  return GDK_EVENT_PROPAGATE;
}

static void
adjustment_changed_cb (StewardLogView *self)
{
  if (self->follow)
    queue_scroll_to_end (self);
}

/* Any other move away from the end while following is the person's, who
 * scrolled up to read: following stops. The list moves the value itself
 * when entries before the visible ones go (the store dropping its oldest,
 * a filter, a paused snapshot): those moves are expected for a moment
 * after the entries changed, and the view goes back to the end. */
static void
scroll_value_changed_cb (StewardLogView *self)
{
  double value = gtk_adjustment_get_value (self->vadjustment);
  double bottom = gtk_adjustment_get_upper (self->vadjustment) -
                  gtk_adjustment_get_page_size (self->vadjustment);

  if (!self->follow)
    return;

  if (g_get_monotonic_time () < self->shift_expected_until)
    {
      queue_scroll_to_end (self);
      return;
    }

  if (value < bottom - 1.0)
    g_object_set (self, "follow", FALSE, NULL);
}

static void
search_changed_cb (StewardLogView *self)
{
  g_object_set (self, "search-text", gtk_editable_get_text (GTK_EDITABLE (self->search_entry)),
                NULL);
}

static void
level_selected_cb (StewardLogView *self)
{
  guint selected = gtk_drop_down_get_selected (self->level_dropdown);

  if (selected != GTK_INVALID_LIST_POSITION)
    g_object_set (self, "min-level", selected, NULL);
}

static void
source_toggled_cb (StewardLogView *self)
{
  guint sources = 0;

  if (self->updating_sources)
    return;

  if (gtk_toggle_button_get_active (self->stderr_toggle))
    sources |= 1u << STEWARD_LOG_SOURCE_STDERR;
  if (gtk_toggle_button_get_active (self->server_toggle))
    sources |= 1u << STEWARD_LOG_SOURCE_SERVER;
  if (gtk_toggle_button_get_active (self->trace_toggle))
    sources |= 1u << STEWARD_LOG_SOURCE_TRACE;
  if (gtk_toggle_button_get_active (self->host_toggle))
    sources |= 1u << STEWARD_LOG_SOURCE_HOST;

  g_object_set (self, "sources", sources, NULL);
}

static void
sync_source_toggles (StewardLogView *self)
{
  self->updating_sources = TRUE;
  gtk_toggle_button_set_active (self->stderr_toggle,
                                (self->sources & (1u << STEWARD_LOG_SOURCE_STDERR)) != 0);
  gtk_toggle_button_set_active (self->server_toggle,
                                (self->sources & (1u << STEWARD_LOG_SOURCE_SERVER)) != 0);
  gtk_toggle_button_set_active (self->trace_toggle,
                                (self->sources & (1u << STEWARD_LOG_SOURCE_TRACE)) != 0);
  gtk_toggle_button_set_active (self->host_toggle,
                                (self->sources & (1u << STEWARD_LOG_SOURCE_HOST)) != 0);
  self->updating_sources = FALSE;
}

StewardServer *
steward_log_view_lookup_chosen_server (StewardLogView *self)
{
  if (self->server == NULL || self->host == NULL)
    return NULL;

  return steward_server_registry_lookup (steward_host_get_registry (self->host), self->server);
}

static void
update_set_level (StewardLogView *self)
{
  StewardServer *server = steward_log_view_lookup_chosen_server (self);
  McpClient *client = server != NULL ? steward_server_get_client (server) : NULL;
  gboolean enabled = client != NULL && mcp_client_has_capability (client, "logging", NULL);
  const char *tooltip;

  g_signal_group_set_target (self->server_signals, server);

  if (enabled)
    tooltip = _("Ask the server to log messages from a level up");
  else if (self->server == NULL)
    tooltip = _("Choose one server to set its log level");
  else if (client == NULL)
    tooltip = _("The server is not connected");
  else
    tooltip = _("The server does not offer logging");

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "log.set-level", enabled);
  gtk_widget_set_sensitive (GTK_WIDGET (self->set_level_button), enabled);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->set_level_button), tooltip);
}

/* The dropdown lists "All servers", the registry's servers and, when the
 * view was pointed at one the registry does not know (yet), that one. */
static void
rebuild_server_list (StewardLogView *self)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  guint selected = 0;
  guint n_items;
  guint i;

  g_ptr_array_add (names, g_strdup (_("All Servers")));

  n_items = self->registry != NULL ? g_list_model_get_n_items (self->registry) : 0;
  for (i = 0; i < n_items; i++)
    {
      g_autoptr(StewardServer) server = g_list_model_get_item (self->registry, i);
      const char *name = steward_server_get_name (server);

      if (g_strcmp0 (name, self->server) == 0)
        selected = names->len;
      g_ptr_array_add (names, g_strdup (name));
    }

  if (self->server != NULL && selected == 0)
    {
      selected = names->len;
      g_ptr_array_add (names, g_strdup (self->server));
    }

  g_ptr_array_add (names, NULL);

  self->updating_servers = TRUE;
  gtk_string_list_splice (self->server_list, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->server_list)),
                          (const char * const *) names->pdata);
  gtk_drop_down_set_selected (self->server_dropdown, selected);
  self->updating_servers = FALSE;
}

static void
registry_items_changed_cb (StewardLogView *self)
{
  rebuild_server_list (self);
  update_set_level (self);
}

static void
server_selected_cb (StewardLogView *self)
{
  guint selected = gtk_drop_down_get_selected (self->server_dropdown);

  if (self->updating_servers || selected == GTK_INVALID_LIST_POSITION)
    return;

  if (selected == 0)
    steward_log_view_set_server (self, NULL);
  else
    steward_log_view_set_server (self, gtk_string_list_get_string (self->server_list, selected));
}

static void
freeze (StewardLogView *self)
{
  g_clear_object (&self->frozen_filter_model);
  g_clear_object (&self->frozen_shown);
  g_clear_object (&self->frozen_entries);

  self->frozen_entries = steward_log_snapshot_new (G_LIST_MODEL (self->store));
  self->frozen_shown = steward_log_snapshot_new (G_LIST_MODEL (self->filter_model));
  gtk_single_selection_set_model (self->selection, G_LIST_MODEL (self->frozen_shown));
}

static void
thaw (StewardLogView *self)
{
  /* The filter model kept up while paused, so resuming costs nothing. */
  gtk_single_selection_set_model (self->selection, G_LIST_MODEL (self->filter_model));
  g_clear_object (&self->frozen_filter_model);
  g_clear_object (&self->frozen_shown);
  g_clear_object (&self->frozen_entries);
}

static void
clear_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  StewardLogView *self = STEWARD_LOG_VIEW (widget);

  if (self->store != NULL)
    steward_log_store_clear (self->store);

  /* A paused view forgets what it froze as well, and stays paused. */
  self->paused_new = 0;
  if (self->paused)
    freeze (self);

  update_status (self);
}

static void
search_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  StewardLogView *self = STEWARD_LOG_VIEW (widget);

  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

static void
set_min_level (StewardLogView  *self,
               StewardLogLevel  level)
{
  StewardLogLevel old = self->min_level;

  if (level > STEWARD_LOG_LEVEL_EMERGENCY)
    level = STEWARD_LOG_LEVEL_EMERGENCY;

  if (level == old)
    return;

  self->min_level = level;
  if (gtk_drop_down_get_selected (self->level_dropdown) != (guint) level)
    gtk_drop_down_set_selected (self->level_dropdown, level);
  if (self->settings != NULL)
    g_settings_set_string (self->settings, "log-min-level", level_keys[level]);

  filter_changed (self,
                  level > old ? GTK_FILTER_CHANGE_MORE_STRICT : GTK_FILTER_CHANGE_LESS_STRICT);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MIN_LEVEL]);
}

static void
save_sources (StewardLogView *self)
{
  const char *names[G_N_ELEMENTS (source_keys) + 1];
  guint n_names = 0;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (source_keys); i++)
    {
      if (self->sources & (1u << i))
        names[n_names++] = source_keys[i];
    }
  names[n_names] = NULL;

  g_settings_set_strv (self->settings, "log-sources", names);
}

static void
set_sources (StewardLogView *self,
             guint           sources)
{
  guint old = self->sources;
  guint added;
  guint removed;
  GtkFilterChange change;

  sources &= ALL_SOURCES;
  if (sources == old)
    return;

  self->sources = sources;
  sync_source_toggles (self);
  if (self->settings != NULL)
    save_sources (self);

  added = sources & ~old;
  removed = old & ~sources;
  if (added != 0 && removed != 0)
    change = GTK_FILTER_CHANGE_DIFFERENT;
  else if (added != 0)
    change = GTK_FILTER_CHANGE_LESS_STRICT;
  else
    change = GTK_FILTER_CHANGE_MORE_STRICT;

  filter_changed (self, change);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SOURCES]);
}

static void
set_search_text (StewardLogView *self,
                 const char     *text)
{
  g_autofree char *folded = NULL;
  GtkFilterChange change;

  if (text != NULL && *text == '\0')
    text = NULL;

  if (g_strcmp0 (text, self->search_text) == 0)
    return;

  folded = text != NULL ? g_utf8_casefold (text, -1) : NULL;

  /* A longer needle that holds the old one can only match fewer entries,
   * and the other way round, so the filter model only looks again at the
   * entries that can change. */
  if (folded == NULL)
    change = GTK_FILTER_CHANGE_LESS_STRICT;
  else if (self->search_folded == NULL || strstr (folded, self->search_folded) != NULL)
    change = GTK_FILTER_CHANGE_MORE_STRICT;
  else if (strstr (self->search_folded, folded) != NULL)
    change = GTK_FILTER_CHANGE_LESS_STRICT;
  else
    change = GTK_FILTER_CHANGE_DIFFERENT;

  g_free (self->search_text);
  self->search_text = g_strdup (text);
  g_free (self->search_folded);
  self->search_folded = g_steal_pointer (&folded);

  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->search_entry)),
                 text != NULL ? text : "") != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text != NULL ? text : "");

  filter_changed (self, change);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEARCH_TEXT]);
}

static void
set_follow (StewardLogView *self,
            gboolean        follow)
{
  follow = !!follow;
  if (follow == self->follow)
    return;

  self->follow = follow;
  if (self->settings != NULL)
    g_settings_set_boolean (self->settings, "log-follow", follow);

  if (follow)
    scroll_to_end (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLLOW]);
}

static void
set_paused (StewardLogView *self,
            gboolean        paused)
{
  guint selected = gtk_single_selection_get_selected (self->selection);
  g_autoptr(StewardLogEntry) selected_entry = NULL;

  paused = !!paused;
  if (paused == self->paused)
    return;

  if (selected != GTK_INVALID_LIST_POSITION)
    selected_entry = g_object_ref (gtk_single_selection_get_selected_item (self->selection));

  self->paused = paused;
  self->paused_new = 0;

  if (paused)
    freeze (self);
  else
    thaw (self);

  /* Keep the selection when the entry is still where it was, which it is
   * unless the store dropped old entries meanwhile. */
  if (selected_entry != NULL &&
      selected < g_list_model_get_n_items (G_LIST_MODEL (self->selection)))
    {
      g_autoptr(StewardLogEntry) entry = g_list_model_get_item (G_LIST_MODEL (self->selection),
                                                                selected);

      if (entry == selected_entry)
        gtk_single_selection_set_selected (self->selection, selected);
    }

  update_status (self);
  if (self->follow)
    scroll_to_end (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PAUSED]);
}

static void
load_settings (StewardLogView *self)
{
  g_autofree char *level_name = g_settings_get_string (self->settings, "log-min-level");
  g_auto(GStrv) source_names = g_settings_get_strv (self->settings, "log-sources");
  guint sources = 0;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (level_keys); i++)
    {
      if (g_strcmp0 (level_name, level_keys[i]) == 0)
        set_min_level (self, (StewardLogLevel) i);
    }

  for (i = 0; i < G_N_ELEMENTS (source_keys); i++)
    {
      if (g_strv_contains ((const char * const *) source_names, source_keys[i]))
        sources |= 1u << i;
    }
  set_sources (self, sources);

  set_follow (self, g_settings_get_boolean (self->settings, "log-follow"));
  self->detail_height = g_settings_get_int (self->settings, "log-detail-height");
}

static void
setup_row_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              gpointer                  user_data)
{
  gtk_list_item_set_child (item, steward_log_row_new ());
}

static void
bind_row_cb (GtkSignalListItemFactory *factory,
             GtkListItem              *item,
             gpointer                  user_data)
{
  steward_log_row_set_entry (STEWARD_LOG_ROW (gtk_list_item_get_child (item)),
                             gtk_list_item_get_item (item));
  steward_accessible_name_list_item (item);
}

static void
unbind_row_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *item,
               gpointer                  user_data)
{
  steward_log_row_set_entry (STEWARD_LOG_ROW (gtk_list_item_get_child (item)), NULL);
}

static void
steward_log_view_constructed (GObject *object)
{
  StewardLogView *self = STEWARD_LOG_VIEW (object);

  G_OBJECT_CLASS (steward_log_view_parent_class)->constructed (object);

  g_return_if_fail (STEWARD_IS_HOST (self->host));

  self->store = g_object_ref (steward_host_get_log_store (self->host));
  self->registry = g_object_ref (G_LIST_MODEL (steward_host_get_registry (self->host)));

  gtk_filter_list_model_set_model (self->filter_model, G_LIST_MODEL (self->store));

  g_signal_connect_object (self->store, "items-changed",
                           G_CALLBACK (store_items_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->registry, "items-changed",
                           G_CALLBACK (registry_items_changed_cb), self, G_CONNECT_SWAPPED);

  rebuild_server_list (self);
  update_set_level (self);
  update_status (self);
  if (self->follow)
    scroll_to_end (self);
}

static void
steward_log_view_dispose (GObject *object)
{
  StewardLogView *self = STEWARD_LOG_VIEW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->scroll_source_id, g_source_remove);

  g_cancellable_cancel (self->export_chooser);

  if (self->store != NULL)
    g_signal_handlers_disconnect_by_data (self->store, self);
  if (self->registry != NULL)
    g_signal_handlers_disconnect_by_data (self->registry, self);
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  if (self->filter_model != NULL)
    g_signal_handlers_disconnect_by_data (self->filter_model, self);
  if (self->server_signals != NULL)
    g_signal_group_set_target (self->server_signals, NULL);
  if (self->vadjustment != NULL)
    g_signal_handlers_disconnect_by_data (self->vadjustment, self);

  /* AdwBin 1.2 keeps its own pointer to the child, which the template's
   * disposal would leave dangling: let the bin drop it first. */
  adw_bin_set_child (ADW_BIN (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), STEWARD_TYPE_LOG_VIEW);

  if (self->filter != NULL)
    gtk_custom_filter_set_filter_func (self->filter, NULL, NULL, NULL);

  g_clear_object (&self->selection);
  g_clear_object (&self->frozen_filter_model);
  g_clear_object (&self->frozen_shown);
  g_clear_object (&self->frozen_entries);
  g_clear_object (&self->filter_model);
  g_clear_object (&self->filter);
  g_clear_object (&self->detail_entry);
  g_clear_object (&self->detail_partner);
  g_clear_object (&self->server_signals);
  g_clear_object (&self->vadjustment);
  g_clear_object (&self->settings);
  g_clear_object (&self->registry);
  g_clear_object (&self->store);
  g_clear_object (&self->host);

  G_OBJECT_CLASS (steward_log_view_parent_class)->dispose (object);
}

static void
steward_log_view_finalize (GObject *object)
{
  StewardLogView *self = STEWARD_LOG_VIEW (object);

  g_clear_object (&self->cancellable);
  g_free (self->server);
  g_free (self->search_text);
  g_free (self->search_folded);

  G_OBJECT_CLASS (steward_log_view_parent_class)->finalize (object);
}

static void
steward_log_view_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  StewardLogView *self = STEWARD_LOG_VIEW (object);

  switch (prop_id)
    {
    case PROP_HOST:
      g_value_set_object (value, self->host);
      break;
    case PROP_SERVER:
      g_value_set_string (value, self->server);
      break;
    case PROP_SEARCH_TEXT:
      g_value_set_string (value, self->search_text);
      break;
    case PROP_MIN_LEVEL:
      g_value_set_uint (value, self->min_level);
      break;
    case PROP_SOURCES:
      g_value_set_uint (value, self->sources);
      break;
    case PROP_FOLLOW:
      g_value_set_boolean (value, self->follow);
      break;
    case PROP_PAUSED:
      g_value_set_boolean (value, self->paused);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_log_view_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  StewardLogView *self = STEWARD_LOG_VIEW (object);

  switch (prop_id)
    {
    case PROP_HOST:
      self->host = g_value_dup_object (value);
      break;
    case PROP_SERVER:
      steward_log_view_set_server (self, g_value_get_string (value));
      break;
    case PROP_SEARCH_TEXT:
      set_search_text (self, g_value_get_string (value));
      break;
    case PROP_MIN_LEVEL:
      set_min_level (self, g_value_get_uint (value));
      break;
    case PROP_SOURCES:
      set_sources (self, g_value_get_uint (value));
      break;
    case PROP_FOLLOW:
      set_follow (self, g_value_get_boolean (value));
      break;
    case PROP_PAUSED:
      set_paused (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* GtkPaned has no getter for it. */
static int
get_max_position (GtkPaned *paned)
{
  int max = 0;

  g_object_get (paned, "max-position", &max, NULL);
  return max;
}

/* The detail pane keeps its height when the window grows or shrinks, and
 * the list takes the rest; what the person drags it to is remembered.
 * Heights are counted from the paned's largest position, the handle left
 * out. */
static void
paned_position_cb (StewardLogView *self)
{
  int max = get_max_position (self->paned);
  int detail;

  if (!self->detail_height_applied || max <= 0)
    return;

  detail = MIN (max - gtk_paned_get_position (self->paned), MAX_DETAIL_HEIGHT);
  if (detail == self->detail_height || detail < MIN_DETAIL_HEIGHT)
    return;

  self->detail_height = detail;
  if (self->settings != NULL)
    g_settings_set_int (self->settings, "log-detail-height", detail);
}

/* The paned learns its height when it is first allocated: then the
 * remembered height can be applied. */
static void
paned_max_position_cb (StewardLogView *self)
{
  int max = get_max_position (self->paned);

  if (self->detail_height_applied || max <= 0)
    return;

  /* The list keeps room for a few rows whatever was remembered. */
  self->detail_height_applied = TRUE;
  gtk_paned_set_position (self->paned,
                          max - CLAMP (self->detail_height, MIN_DETAIL_HEIGHT,
                                       MAX (max - MIN_LIST_HEIGHT, MIN_DETAIL_HEIGHT)));
}

static void
steward_log_view_class_init (StewardLogViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = steward_log_view_constructed;
  object_class->dispose = steward_log_view_dispose;
  object_class->finalize = steward_log_view_finalize;
  object_class->get_property = steward_log_view_get_property;
  object_class->set_property = steward_log_view_set_property;

  properties[PROP_HOST] =
    g_param_spec_object ("host", NULL, NULL,
                         STEWARD_TYPE_HOST,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SERVER] =
    g_param_spec_string ("server", NULL, NULL,
                         NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SEARCH_TEXT] =
    g_param_spec_string ("search-text", NULL, NULL,
                         NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_MIN_LEVEL] =
    g_param_spec_uint ("min-level", NULL, NULL,
                       STEWARD_LOG_LEVEL_DEBUG, STEWARD_LOG_LEVEL_EMERGENCY,
                       STEWARD_LOG_LEVEL_DEBUG,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SOURCES] =
    g_param_spec_uint ("sources", NULL, NULL,
                       0, ALL_SOURCES, ALL_SOURCES,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FOLLOW] =
    g_param_spec_boolean ("follow", NULL, NULL,
                          TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PAUSED] =
    g_param_spec_boolean ("paused", NULL, NULL,
                          FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (STEWARD_TYPE_ERROR_BANNER);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/stewardmcp/Steward/steward-log-view.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardLogView, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, StewardLogView, error_banner);
  gtk_widget_class_bind_template_child (widget_class, StewardLogView, search_entry);
  gtk_widget_class_bind_template_child (widget_class, StewardLogView, level_dropdown);
  gtk_widget_class_bind_template_child (widget_class, StewardLogView, stderr_toggle);
  gtk_widget_class_bind_template_child (widget_class, StewardLogView, server_toggle);
  gtk_widget_class_bind_template_child (widget_class, StewardLogView, trace_toggle);
  gtk_widget_class_bind_template_child (widget_class, StewardLogView, host_toggle);
  gtk_widget_class_bind_template_child (widget_class, StewardLogView, server_dropdown);
  gtk_widget_class_bind_template_child (widget_class, StewardLogView, server_list);
  gtk_widget_class_bind_template_child (widget_class, StewardLogView, set_level_button);
  gtk_widget_class_bind_template_child (widget_class, StewardLogView, status_label);
  gtk_widget_class_bind_template_child (widget_class, StewardLogView, stack);
  gtk_widget_class_bind_template_child (widget_class, StewardLogView, empty_page);
  gtk_widget_class_bind_template_child (widget_class, StewardLogView, scrolled_window);
  gtk_widget_class_bind_template_child (widget_class, StewardLogView, list_view);
  gtk_widget_class_bind_template_child (widget_class, StewardLogView, paned);
  gtk_widget_class_bind_template_child (widget_class, StewardLogView, detail_view);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, source_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, list_activate_cb);

  gtk_widget_class_install_property_action (widget_class, "log.follow", "follow");
  gtk_widget_class_install_property_action (widget_class, "log.paused", "paused");
  steward_log_view_install_actions (widget_class);
  gtk_widget_class_install_action (widget_class, "log.clear", NULL, clear_action);
  gtk_widget_class_install_action (widget_class, "log.search", NULL, search_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK,
                                       "log.copy", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK,
                                       "log.search", NULL);
}

static void
steward_log_view_init (StewardLogView *self)
{
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
  GtkEventController *controller;
  GtkGesture *gesture;

  self->cancellable = g_cancellable_new ();
  self->min_level = STEWARD_LOG_LEVEL_DEBUG;
  self->sources = ALL_SOURCES;
  self->follow = TRUE;
  self->showing_empty = FALSE;

  gtk_widget_init_template (GTK_WIDGET (self));
  steward_accessible_name_drop_down (self->level_dropdown);
  steward_accessible_name_drop_down (self->server_dropdown);

  self->filter = gtk_custom_filter_new (filter_func, self, NULL);
  self->filter_model = gtk_filter_list_model_new (NULL, g_object_ref (GTK_FILTER (self->filter)));
  /* New entries are filtered as they arrive; a changed filter is applied
   * in slices, so that neither ever holds up a frame. */
  gtk_filter_list_model_set_incremental (self->filter_model, TRUE);

  self->selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->filter_model)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  /* After the list view's own handler, so that it knows of the new items
   * when we ask it to scroll to the last one. */
  g_signal_connect_object (self->selection, "items-changed",
                           G_CALLBACK (shown_items_changed_cb), self,
                           G_CONNECT_SWAPPED | G_CONNECT_AFTER);
  g_signal_connect_object (self->selection, "notify::selected-item",
                           G_CALLBACK (selected_item_cb), self, G_CONNECT_SWAPPED);

  g_signal_connect (factory, "setup", G_CALLBACK (setup_row_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row_cb), NULL);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_row_cb), NULL);
  gtk_list_view_set_factory (self->list_view, factory);
  gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (self->selection));

  self->vadjustment = g_object_ref (gtk_scrolled_window_get_vadjustment (self->scrolled_window));
  g_signal_connect_object (self->vadjustment, "value-changed",
                           G_CALLBACK (scroll_value_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->vadjustment, "changed",
                           G_CALLBACK (adjustment_changed_cb), self, G_CONNECT_SWAPPED);

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  g_signal_connect_object (controller, "scroll",
                           G_CALLBACK (scroll_input_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->scrolled_window), controller);

  gesture = gtk_gesture_click_new ();
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (gesture), GTK_PHASE_CAPTURE);
  g_signal_connect_object (gesture, "pressed",
                           G_CALLBACK (scrollbar_pressed_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (gtk_scrolled_window_get_vscrollbar (self->scrolled_window),
                            GTK_EVENT_CONTROLLER (gesture));

  controller = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  g_signal_connect_object (controller, "key-pressed",
                           G_CALLBACK (key_input_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->scrolled_window), controller);

  g_signal_connect_object (self->level_dropdown, "notify::selected",
                           G_CALLBACK (level_selected_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->paned, "notify::position",
                           G_CALLBACK (paned_position_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->paned, "notify::max-position",
                           G_CALLBACK (paned_max_position_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->server_dropdown, "notify::selected",
                           G_CALLBACK (server_selected_cb), self, G_CONNECT_SWAPPED);

  self->server_signals = g_signal_group_new (STEWARD_TYPE_SERVER);
  g_signal_group_connect_object (self->server_signals, "notify::client",
                                 G_CALLBACK (update_set_level), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->server_signals, "notify::status",
                                 G_CALLBACK (update_set_level), self, G_CONNECT_SWAPPED);

  sync_source_toggles (self);
  gtk_drop_down_set_selected (self->level_dropdown, self->min_level);
  update_detail (self);
  gtk_stack_set_visible_child_name (self->stack, "list");

  self->settings = g_settings_new (APPLICATION_ID);
  load_settings (self);
}

GtkWidget *
steward_log_view_new (StewardHost *host)
{
  g_return_val_if_fail (STEWARD_IS_HOST (host), NULL);

  return g_object_new (STEWARD_TYPE_LOG_VIEW, "host", host, NULL);
}

void
steward_log_view_set_server (StewardLogView *self,
                             const char     *server)
{
  GtkFilterChange change;

  g_return_if_fail (STEWARD_IS_LOG_VIEW (self));

  if (server != NULL && *server == '\0')
    server = NULL;

  if (g_strcmp0 (server, self->server) == 0)
    return;

  if (self->server == NULL)
    change = GTK_FILTER_CHANGE_MORE_STRICT;
  else if (server == NULL)
    change = GTK_FILTER_CHANGE_LESS_STRICT;
  else
    change = GTK_FILTER_CHANGE_DIFFERENT;

  g_free (self->server);
  self->server = g_strdup (server);

  rebuild_server_list (self);
  update_set_level (self);
  filter_changed (self, change);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SERVER]);
}

const char *
steward_log_view_get_server (StewardLogView *self)
{
  g_return_val_if_fail (STEWARD_IS_LOG_VIEW (self), NULL);

  return self->server;
}

GListModel *
steward_log_view_get_model (StewardLogView *self)
{
  g_return_val_if_fail (STEWARD_IS_LOG_VIEW (self), NULL);

  return steward_log_view_get_shown_model (self);
}

static void
store_export_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!steward_log_store_export_finish (result, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

void
steward_log_view_export_async (StewardLogView      *self,
                               GFile               *file,
                               gboolean             as_json,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (STEWARD_IS_LOG_VIEW (self));
  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, steward_log_view_export_async);

  steward_log_store_export_async (steward_log_view_get_shown_model (self), file, as_json, cancellable,
                                  store_export_cb, g_steal_pointer (&task));
}

gboolean
steward_log_view_export_finish (StewardLogView  *self,
                                GAsyncResult    *result,
                                GError         **error)
{
  g_return_val_if_fail (STEWARD_IS_LOG_VIEW (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

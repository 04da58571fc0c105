/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "steward-error-banner.h"
#include "steward-log-snapshot.h"
#include "steward-log-view.h"

G_BEGIN_DECLS

/*
 * The log viewer is in two files sharing this header:
 * steward-log-view.c filters, follows and shows the entries and the
 * detail pane; steward-log-view-actions.c sets a server's level, copies
 * and exports.
 */

struct _StewardLogView
{
  AdwBin                parent_instance;

  StewardHost          *host;
  StewardLogStore      *store;
  GListModel           *registry;
  GSettings            *settings;
  GCancellable         *cancellable;

  GtkCustomFilter      *filter;
  GtkFilterListModel   *filter_model;
  /* While paused: the store's entries and the filtered ones as they were
   * when the view paused, and once a filter changes, the frozen entries
   * through the filter. NULL otherwise. */
  StewardLogSnapshot   *frozen_entries;
  StewardLogSnapshot   *frozen_shown;
  GtkFilterListModel   *frozen_filter_model;
  guint                 paused_new;
  GtkSingleSelection   *selection;
  StewardLogEntry      *detail_entry;
  StewardLogEntry      *detail_partner;

  char                 *server;
  char                 *search_text;
  char                 *search_folded;
  StewardLogLevel       min_level;
  guint                 sources;
  gboolean              follow;
  gboolean              paused;

  gboolean              updating_servers;
  gboolean              updating_sources;
  gboolean              showing_empty;
  /* Following: the list's own moves of the scroll value are told apart
   * from the person's, who turns following off by scrolling up. */
  GtkAdjustment        *vadjustment;
  guint                 scroll_source_id;
  gint64                last_scroll_us;
  gint64                shift_expected_until;

  /* The chosen server, so "Set Level…" follows its client and status. */
  GSignalGroup         *server_signals;
  GCancellable         *export_chooser;

  AdwToastOverlay      *toast_overlay;
  StewardErrorBanner   *error_banner;
  GtkSearchEntry       *search_entry;
  GtkDropDown          *level_dropdown;
  GtkToggleButton      *stderr_toggle;
  GtkToggleButton      *server_toggle;
  GtkToggleButton      *trace_toggle;
  GtkToggleButton      *host_toggle;
  GtkDropDown          *server_dropdown;
  GtkStringList        *server_list;
  GtkMenuButton        *set_level_button;
  GtkLabel             *status_label;
  GtkStack             *stack;
  AdwStatusPage        *empty_page;
  GtkScrolledWindow    *scrolled_window;
  GtkListView          *list_view;
  GtkPaned             *paned;
  GtkTextView          *detail_view;
  /* The detail pane's height as the person left it, applied once the
   * pane has a height of its own to take it from. */
  int                   detail_height;
  gboolean              detail_height_applied;
};

void           steward_log_view_show_toast            (StewardLogView *self,
                                                       const char     *title);
/* The entries shown: the store through the filters, frozen while paused. */
GListModel    *steward_log_view_get_shown_model       (StewardLogView *self);
/* The server chosen in the server filter, if it is one the host has. */
StewardServer *steward_log_view_lookup_chosen_server  (StewardLogView *self);
void           steward_log_view_install_actions       (GtkWidgetClass *widget_class);

G_END_DECLS

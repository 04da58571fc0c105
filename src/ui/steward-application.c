/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-application"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-accessible.h"
#include "steward-application.h"
#include "steward-consent-dialog.h"
#include "steward-elicitation-dialog.h"
#include "steward-heap-trim.h"
#include "steward-hyphenation.h"
#include "steward-long-running.h"
#include "steward-overdue-dialog.h"
#include "steward-preferences-window.h"
#include "steward-sampling-dialog.h"
#include "steward-tool-approval-dialog.h"
#include "steward-window.h"

/* docs/SECURITY.md: quitting never takes more than 5 s. */
#define QUIT_TIMEOUT_SECONDS 5

/* One approval the application knows of, from the moment it joins the
 * queue until it finishes. */
typedef struct
{
  StewardApplication *app;       /* unowned: the application owns the table */
  StewardApproval    *approval;
  char               *id;        /* the target of app.show-approval */
  GtkWidget          *dialog;    /* weak: cleared when the dialog goes */
  gboolean            shown;     /* a dialog was made once */
  gboolean            notified;
} Pending;

struct _StewardApplication
{
  AdwApplication   parent_instance;

  StewardHost     *host;
  StewardHeapTrim *heap_trim;
  GSettings       *settings;
  GCancellable    *cancellable;
  /* StewardApproval → Pending */
  GHashTable      *pending;
  guint64          last_id;

  guint            quit_timeout_id;
  gboolean         quitting;
  gboolean         host_stopped;
};

G_DEFINE_FINAL_TYPE (StewardApplication, steward_application, ADW_TYPE_APPLICATION)

static GtkWindow *
get_main_window (StewardApplication *self)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL; l = l->next)
    {
      if (STEWARD_IS_WINDOW (l->data))
        return l->data;
    }

  return NULL;
}

static void window_active_cb (StewardApplication *self,
                              GParamSpec         *pspec,
                              GtkWindow          *window);

/* The host starts once the main window has drawn its first frame: reading
 * its files and the keyring, and starting the servers' processes, would
 * otherwise come between the person and the window. */
static void
first_frame_cb (GdkFrameClock      *frame_clock,
                StewardApplication *self)
{
  g_signal_handlers_disconnect_by_func (frame_clock, first_frame_cb, self);
  if (!self->quitting)
    steward_host_start (self->host);
}

static void
window_realized_cb (StewardApplication *self,
                    GtkWidget          *window)
{
  g_signal_handlers_disconnect_by_func (window, window_realized_cb, self);
  g_signal_connect_object (gtk_widget_get_frame_clock (window), "after-paint",
                           G_CALLBACK (first_frame_cb), self, 0);
}

static GtkWindow *
ensure_main_window (StewardApplication *self)
{
  GtkWindow *window = get_main_window (self);

  if (window == NULL)
    {
      window = GTK_WINDOW (steward_window_new (GTK_APPLICATION (self), self->host));
      g_signal_connect_object (window, "notify::is-active", G_CALLBACK (window_active_cb),
                               self, G_CONNECT_SWAPPED);
      if (!steward_host_get_started (self->host))
        g_signal_connect_object (window, "realize", G_CALLBACK (window_realized_cb),
                                 self, G_CONNECT_SWAPPED | G_CONNECT_AFTER);
    }

  return window;
}

static gboolean
app_is_focused (StewardApplication *self)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL; l = l->next)
    {
      if (gtk_window_is_active (l->data))
        return TRUE;
    }

  return FALSE;
}

static char *
notification_id (Pending *pending)
{
  return g_strconcat ("approval-", pending->id, NULL);
}

static void
withdraw_notification (Pending *pending)
{
  g_autofree char *id = NULL;

  if (!pending->notified)
    return;

  id = notification_id (pending);
  g_application_withdraw_notification (G_APPLICATION (pending->app), id);
  pending->notified = FALSE;
}

static void
pending_free (Pending *pending)
{
  withdraw_notification (pending);
  if (pending->dialog != NULL)
    g_object_remove_weak_pointer (G_OBJECT (pending->dialog), (gpointer *) &pending->dialog);
  g_signal_handlers_disconnect_by_data (pending->approval, pending);
  g_clear_object (&pending->approval);
  g_free (pending->id);
  g_free (pending);
}

static GtkWidget *
create_dialog (StewardApplication *self,
               StewardApproval    *approval)
{
  switch (steward_approval_get_kind (approval))
    {
    case STEWARD_APPROVAL_KIND_CONSENT:
      return steward_consent_dialog_new (approval);
    case STEWARD_APPROVAL_KIND_SAMPLING:
      return steward_sampling_dialog_new (approval);
    case STEWARD_APPROVAL_KIND_ELICITATION:
      return steward_elicitation_dialog_new (approval);
    case STEWARD_APPROVAL_KIND_TOOL_CALL:
      /* Allowing pins the definition the person read, and may set a
       * standing policy: both live in the host's pins. */
      return steward_tool_approval_dialog_new (approval, steward_host_get_tool_pins (self->host));
    case STEWARD_APPROVAL_KIND_OVERDUE:
      return steward_overdue_dialog_new (approval);
    default:
      g_return_val_if_reached (NULL);
    }
}

static void
present_pending (StewardApplication *self,
                 Pending            *pending)
{
  GtkWindow *window;

  withdraw_notification (pending);

  if (pending->dialog != NULL)
    {
      gtk_window_present (GTK_WINDOW (pending->dialog));
      return;
    }

  window = ensure_main_window (self);
  pending->dialog = create_dialog (self, pending->approval);
  if (pending->dialog == NULL)
    return;

  pending->shown = TRUE;
  g_object_add_weak_pointer (G_OBJECT (pending->dialog), (gpointer *) &pending->dialog);
  gtk_window_set_transient_for (GTK_WINDOW (pending->dialog), window);
  gtk_window_set_destroy_with_parent (GTK_WINDOW (pending->dialog), TRUE);
  gtk_window_set_modal (GTK_WINDOW (pending->dialog), TRUE);
  gtk_window_present (GTK_WINDOW (pending->dialog));
}

static char *
notification_title (StewardApproval *approval)
{
  const char *server = steward_approval_get_server (approval);

  switch (steward_approval_get_kind (approval))
    {
    case STEWARD_APPROVAL_KIND_CONSENT:
      /* Translators: a desktop notification; %s is a server's name. */
      return g_strdup_printf (_("Server “%s” asks to start"), server);
    case STEWARD_APPROVAL_KIND_SAMPLING:
      /* Translators: a desktop notification; %s is a server's name. */
      return g_strdup_printf (_("Server “%s” asks to use your language model"), server);
    case STEWARD_APPROVAL_KIND_TOOL_CALL:
      /* Translators: a desktop notification; %s is a server's name. */
      return g_strdup_printf (_("A chat asks to use a tool of “%s”"), server);
    case STEWARD_APPROVAL_KIND_OVERDUE:
      /* Translators: a desktop notification; %s is a server's name. */
      return g_strdup_printf (_("A tool of “%s” is taking longer than expected"), server);
    case STEWARD_APPROVAL_KIND_ELICITATION:
    default:
      /* Translators: a desktop notification; %s is a server's name. */
      return g_strdup_printf (_("Server “%s” asks you a question"), server);
    }
}

static const char *
notification_body (StewardApproval *approval)
{
  switch (steward_approval_get_kind (approval))
    {
    case STEWARD_APPROVAL_KIND_CONSENT:
      return _("Review its command before it runs.");
    case STEWARD_APPROVAL_KIND_SAMPLING:
      return _("Nothing is sent to your model until you allow it.");
    case STEWARD_APPROVAL_KIND_TOOL_CALL:
      return _("The tool does not run until you allow it.");
    case STEWARD_APPROVAL_KIND_OVERDUE:
      return _("It keeps waiting until you say whether to stop it.");
    case STEWARD_APPROVAL_KIND_ELICITATION:
    default:
      return _("It waits for your answer.");
    }
}

static void
notify_pending (StewardApplication *self,
                Pending            *pending)
{
  g_autoptr(GNotification) notification = NULL;
  g_autofree char *title = notification_title (pending->approval);
  g_autofree char *id = notification_id (pending);

  notification = g_notification_new (title);
  g_notification_set_body (notification, notification_body (pending->approval));
  g_notification_set_priority (notification, G_NOTIFICATION_PRIORITY_HIGH);
  g_notification_set_default_action_and_target_value (notification, "app.show-approval",
                                                      g_variant_new_string (pending->id));
  g_application_send_notification (G_APPLICATION (self), id, notification);
  pending->notified = TRUE;
}

/* A dialog when the person is looking at Steward; otherwise a notification
 * that brings it up, so that a server cannot pull focus from other work. */
static void
present_or_notify (StewardApplication *self,
                   Pending            *pending)
{
  /* An overdue call's question is put by the page that shows the call;
   * from elsewhere it is counted and opened from the waiting requests,
   * never pushed over other work, and told on the desktop when the
   * person is not looking. */
  if (steward_approval_get_kind (pending->approval) == STEWARD_APPROVAL_KIND_OVERDUE)
    {
      pending->shown = TRUE;
      if (!app_is_focused (self))
        notify_pending (self, pending);
      return;
    }

  if (get_main_window (self) != NULL && app_is_focused (self))
    present_pending (self, pending);
  else
    notify_pending (self, pending);
}

static void
approval_finished_cb (Pending    *pending,
                      GParamSpec *pspec,
                      GObject    *approval)
{
  if (!steward_approval_get_finished (pending->approval))
    return;

  g_hash_table_remove (pending->app->pending, pending->approval);
}

static Pending *
track_approval (StewardApplication *self,
                StewardApproval    *approval)
{
  Pending *pending = g_hash_table_lookup (self->pending, approval);

  if (pending != NULL || steward_approval_get_finished (approval))
    return pending;

  pending = g_new0 (Pending, 1);
  pending->app = self;
  pending->approval = g_object_ref (approval);
  pending->id = g_strdup_printf ("%" G_GUINT64_FORMAT, ++self->last_id);
  g_signal_connect_swapped (approval, "notify::finished",
                            G_CALLBACK (approval_finished_cb), pending);
  g_hash_table_insert (self->pending, approval, pending);

  return pending;
}

static void
approval_added_cb (StewardApplication *self,
                   StewardApproval    *approval,
                   StewardApprovals   *approvals)
{
  Pending *pending = track_approval (self, approval);

  if (pending != NULL && !self->quitting)
    present_or_notify (self, pending);
}

static gint
compare_pending (gconstpointer a,
                 gconstpointer b)
{
  const Pending *pa = a;
  const Pending *pb = b;
  gint64 ta = steward_approval_get_created (pa->approval);
  gint64 tb = steward_approval_get_created (pb->approval);

  return ta < tb ? -1 : ta > tb ? 1 : 0;
}

/* Oldest first, so that dialogs stack in the order the requests came. */
static void
present_all (StewardApplication *self,
             gboolean            again)
{
  g_autoptr(GList) list = g_list_sort (g_hash_table_get_values (self->pending),
                                       compare_pending);

  /* Presenting never finishes an approval, so the list stays valid. */
  for (GList *l = list; l != NULL; l = l->next)
    {
      Pending *pending = l->data;

      if (again || !pending->shown)
        present_pending (self, pending);
    }
}

static void
window_active_cb (StewardApplication *self,
                  GParamSpec         *pspec,
                  GtkWindow          *window)
{
  if (gtk_window_is_active (window) && !self->quitting)
    present_all (self, FALSE);
}

static void
apply_color_scheme (StewardApplication *self)
{
  static const AdwColorScheme schemes[] = {
    ADW_COLOR_SCHEME_DEFAULT,
    ADW_COLOR_SCHEME_FORCE_LIGHT,
    ADW_COLOR_SCHEME_FORCE_DARK,
  };
  guint scheme = g_settings_get_enum (self->settings, "color-scheme");

  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      schemes[MIN (scheme, G_N_ELEMENTS (schemes) - 1)]);
}

static void
finish_quit (StewardApplication *self)
{
  if (self->quit_timeout_id == 0)
    return;

  g_clear_handle_id (&self->quit_timeout_id, g_source_remove);
  g_application_quit (G_APPLICATION (self));
  g_application_release (G_APPLICATION (self));
}

static gboolean
quit_timeout_cb (gpointer user_data)
{
  StewardApplication *self = user_data;

  g_debug ("Servers did not stop within %d s; quitting anyway", QUIT_TIMEOUT_SECONDS);
  g_cancellable_cancel (self->cancellable);
  /* Given up on: shutdown must not wait for them a second time. */
  self->host_stopped = TRUE;
  self->quit_timeout_id = 0;
  g_application_quit (G_APPLICATION (self));
  g_application_release (G_APPLICATION (self));

  return G_SOURCE_REMOVE;
}

static void
host_shut_down_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(StewardApplication) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!steward_host_shutdown_finish (STEWARD_HOST (object), result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_debug ("Stopping the servers: %s", error->message);

  self->host_stopped = TRUE;
  finish_quit (self);
}

static void
quit_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  StewardApplication *self = user_data;
  g_autoptr(GList) windows = NULL;

  if (self->quitting)
    return;

  self->quitting = TRUE;
  g_application_hold (G_APPLICATION (self));

  /* Closing, not hiding, so that each window saves its state. */
  windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (self)));
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (l->data);

  self->quit_timeout_id = g_timeout_add_seconds (QUIT_TIMEOUT_SECONDS, quit_timeout_cb, self);
  steward_host_shutdown_async (self->host, self->cancellable, host_shut_down_cb,
                               g_object_ref (self));
}

static void
preferences_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  StewardApplication *self = user_data;
  GtkWidget *preferences = steward_preferences_window_new (self->host);

  gtk_window_set_transient_for (GTK_WINDOW (preferences), ensure_main_window (self));
  gtk_window_set_destroy_with_parent (GTK_WINDOW (preferences), TRUE);
  gtk_window_present (GTK_WINDOW (preferences));
}

static void
about_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer      user_data)
{
  StewardApplication *self = user_data;
  static const char *developers[] = { "The Steward developers", NULL };
  GtkWidget *about;
  GtkWidget *version_button;

  about = g_object_new (ADW_TYPE_ABOUT_WINDOW,
                        "transient-for", ensure_main_window (self),
                        "application-name", _("Steward"),
                        "application-icon", APPLICATION_ID,
                        "developer-name", _("The Steward developers"),
                        "developers", developers,
                        "version", PACKAGE_VERSION,
                        "website", "https://github.com/stewardmcp/steward",
                        "issue-url", "https://github.com/stewardmcp/steward/issues",
                        "license-type", GTK_LICENSE_GPL_3_0,
                        "copyright", "© 2026 The Steward developers",
                        /* Translators: your names, one per line, to be credited. */
                        "translator-credits", _("translator-credits"),
                        NULL);

  /* libadwaita 1.2 shows the version on a button, which copies it, and
   * gives the button no name. */
  version_button = steward_accessible_find_button (about, NULL, "app-version");
  if (version_button != NULL)
    {
      /* Translators: %s is Steward's version, such as 1.0.2. */
      g_autofree char *version = g_strdup_printf (_("Version %s"), PACKAGE_VERSION);

      gtk_accessible_update_property (GTK_ACCESSIBLE (version_button),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, version,
                                      -1);
    }
  gtk_window_present (GTK_WINDOW (about));
}

static Pending *
find_pending (StewardApplication *self,
              const char         *id)
{
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->pending);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      Pending *pending = value;

      if (g_str_equal (pending->id, id))
        return pending;
    }

  return NULL;
}

static void
show_approval_action (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  StewardApplication *self = user_data;
  Pending *pending = find_pending (self, g_variant_get_string (parameter, NULL));

  g_application_activate (G_APPLICATION (self));
  if (pending != NULL)
    present_pending (self, pending);
}

static void
show_approvals_action (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  StewardApplication *self = user_data;

  g_application_activate (G_APPLICATION (self));
  present_all (self, TRUE);
}

static void
review_consent_action (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  StewardApplication *self = user_data;
  const char *server = g_variant_get_string (parameter, NULL);
  GListModel *approvals = G_LIST_MODEL (steward_host_get_approvals (self->host));
  guint n_items = g_list_model_get_n_items (approvals);

  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr(StewardApproval) approval = g_list_model_get_item (approvals, i);

      if (steward_approval_get_kind (approval) == STEWARD_APPROVAL_KIND_CONSENT &&
          g_strcmp0 (steward_approval_get_server (approval), server) == 0)
        {
          steward_application_present_approval (self, approval);
          return;
        }
    }
}

static const GActionEntry app_actions[] = {
  { "quit", quit_action },
  { "preferences", preferences_action },
  { "about", about_action },
  { "show-approval", show_approval_action, "s" },
  { "show-approvals", show_approvals_action },
  { "review-consent", review_consent_action, "s" },
};

/* Defaults chosen in Preferences reach each server the first time Steward
 * sees it, whether or not the Preferences window is ever opened. */
static void
servers_changed_cb (StewardApplication *self)
{
  steward_preferences_window_apply_sampling_defaults (self->host, self->settings);
}

static void
steward_application_startup (GApplication *application)
{
  StewardApplication *self = STEWARD_APPLICATION (application);
  static const char *quit_accels[] = { "<Control>q", NULL };
  static const char *preferences_accels[] = { "<Control>comma", NULL };
  static const char *shortcuts_accels[] = { "<Control>question", NULL };
  g_autoptr(GFile) config_dir = NULL;
  g_autoptr(GFile) state_dir = NULL;
  StewardApprovals *approvals;

  G_APPLICATION_CLASS (steward_application_parent_class)->startup (application);

  /* A selectable label that takes the first focus of a window or a page
   * would open with its whole text selected, as if the person had chosen
   * it; text is selected by the person, with the pointer or the keys. */
  g_object_set (gtk_settings_get_default (), "gtk-label-select-on-focus", FALSE, NULL);

  steward_hyphenation_turn_off ();

  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions,
                                   G_N_ELEMENTS (app_actions), self);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.quit", quit_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.preferences",
                                         preferences_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "win.show-help-overlay",
                                         shortcuts_accels);

  self->settings = g_settings_new (APPLICATION_ID);
  g_signal_connect_object (self->settings, "changed::color-scheme",
                           G_CALLBACK (apply_color_scheme), self, G_CONNECT_SWAPPED);
  apply_color_scheme (self);

  config_dir = g_file_new_build_filename (g_get_user_config_dir (), "steward", NULL);
  state_dir = g_file_new_build_filename (g_get_user_state_dir (), "steward", NULL);
  self->host = steward_host_new (config_dir, state_dir);
  /* The person's threshold after which a tool's calls become tasks. */
  g_settings_bind (self->settings, "task-threshold",
                   steward_long_running_get_for_host (self->host), "threshold",
                   G_SETTINGS_BIND_GET);

  approvals = steward_host_get_approvals (self->host);
  g_signal_connect_object (approvals, "added", G_CALLBACK (approval_added_cb),
                           self, G_CONNECT_SWAPPED);

  g_signal_connect_object (steward_host_get_registry (self->host), "items-changed",
                           G_CALLBACK (servers_changed_cb), self, G_CONNECT_SWAPPED);
  self->heap_trim = steward_heap_trim_new (G_LIST_MODEL (steward_host_get_registry (self->host)));
}

static void
steward_application_activate (GApplication *application)
{
  StewardApplication *self = STEWARD_APPLICATION (application);
  GtkWindow *window;

  if (self->quitting)
    return;

  window = ensure_main_window (self);
  gtk_window_present (window);
  present_all (self, FALSE);
}

static gboolean
set_flag_cb (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;

  return G_SOURCE_REMOVE;
}

static void
steward_application_shutdown (GApplication *application)
{
  StewardApplication *self = STEWARD_APPLICATION (application);

  /* The last window was closed without app.quit: the servers still have to
   * stop, and the main loop has ended, so wait for them here, bounded. */
  if (self->host != NULL && !self->host_stopped && !self->quitting)
    {
      gboolean timed_out = FALSE;
      guint timeout_id;

      self->quitting = TRUE;
      timeout_id = g_timeout_add_seconds (QUIT_TIMEOUT_SECONDS, set_flag_cb, &timed_out);
      steward_host_shutdown_async (self->host, self->cancellable, host_shut_down_cb,
                                   g_object_ref (self));
      while (!self->host_stopped && !timed_out)
        g_main_context_iteration (NULL, TRUE);
      if (!timed_out)
        g_source_remove (timeout_id);
    }

  g_hash_table_remove_all (self->pending);

  G_APPLICATION_CLASS (steward_application_parent_class)->shutdown (application);
}

static void
steward_application_dispose (GObject *object)
{
  StewardApplication *self = STEWARD_APPLICATION (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->quit_timeout_id, g_source_remove);
  g_clear_pointer (&self->pending, g_hash_table_unref);
  g_clear_object (&self->heap_trim);
  g_clear_object (&self->host);
  g_clear_object (&self->settings);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (steward_application_parent_class)->dispose (object);
}

static void
steward_application_class_init (StewardApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *application_class = G_APPLICATION_CLASS (klass);

  object_class->dispose = steward_application_dispose;

  application_class->startup = steward_application_startup;
  application_class->activate = steward_application_activate;
  application_class->shutdown = steward_application_shutdown;
}

static void
steward_application_init (StewardApplication *self)
{
  self->cancellable = g_cancellable_new ();
  self->pending = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) pending_free);
}

StewardApplication *
steward_application_new (void)
{
  return g_object_new (STEWARD_TYPE_APPLICATION,
                       "application-id", APPLICATION_ID,
                       "flags", G_APPLICATION_DEFAULT_FLAGS,
                       "resource-base-path", "/io/github/stewardmcp/Steward",
                       NULL);
}

StewardHost *
steward_application_get_host (StewardApplication *self)
{
  g_return_val_if_fail (STEWARD_IS_APPLICATION (self), NULL);

  return self->host;
}

void
steward_application_present_approval (StewardApplication *self,
                                      StewardApproval    *approval)
{
  Pending *pending;

  g_return_if_fail (STEWARD_IS_APPLICATION (self));
  g_return_if_fail (STEWARD_IS_APPROVAL (approval));

  pending = track_approval (self, approval);
  if (pending != NULL)
    present_pending (self, pending);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "steward-roots-page"

#include "config.h"

#include <glib/gi18n.h>

#include "steward-accessible.h"
#include "steward-error-banner.h"
#include "steward-file-chooser.h"

#include "steward-roots-page.h"

struct _StewardRootsPage
{
  AdwBin                parent_instance;

  StewardHost          *host;
  StewardRoots         *roots;
  GListModel           *registry;
  GCancellable         *chooser;
  AdwMessageDialog     *confirm_dialog;

  AdwToastOverlay      *toast_overlay;
  StewardErrorBanner   *error_banner;
  GtkStack             *stack;
  GtkListBox           *list_box;
};

enum {
  PROP_0,
  PROP_HOST,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (StewardRootsPage, steward_roots_page, ADW_TYPE_BIN)

/* Each folder's row keeps its root and its controls as object data. */
#define ROOT_KEY        "steward-root"
#define SERVER_KEY      "steward-server"
#define FOLDER_KEY      "steward-folder"
#define ALL_SWITCH_KEY  "steward-all-switch"
#define SERVER_ROWS_KEY "steward-server-rows"

/* libadwaita 1.2 reads a toast's title as markup, and these titles hold
 * folder names and error messages: escape them. */
static void
show_toast (StewardRootsPage *self,
            const char       *title)
{
  g_autofree char *escaped = g_markup_escape_text (title, -1);

  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (escaped));
}

/* A folder that could not be shared needs the person to pick another or
 * fix it, so the reason stays on the page until then. */
static void
show_error (StewardRootsPage *self,
            const char       *message)
{
  steward_error_banner_set_message (self->error_banner, message);
}

static GtkWindow *
get_parent_window (StewardRootsPage *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  return GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL;
}

static gboolean
root_allows (StewardRoot *root,
             const char  *server)
{
  const char * const *servers = steward_root_get_servers (root);

  return servers != NULL && g_strv_contains (servers, server);
}

static void
sync_row (StewardRootsPage *self,
          AdwExpanderRow   *row)
{
  StewardRoot *root = g_object_get_data (G_OBJECT (row), ROOT_KEY);
  GtkSwitch *all_switch = g_object_get_data (G_OBJECT (row), ALL_SWITCH_KEY);
  GPtrArray *server_rows = g_object_get_data (G_OBJECT (row), SERVER_ROWS_KEY);
  gboolean all_servers = steward_root_get_all_servers (root);
  guint i;

  gtk_switch_set_active (all_switch, all_servers);

  for (i = 0; server_rows != NULL && i < server_rows->len; i++)
    {
      GtkWidget *server_row = g_ptr_array_index (server_rows, i);
      GtkWidget *check = g_object_get_data (G_OBJECT (server_row), "steward-check");
      const char *server = g_object_get_data (G_OBJECT (server_row), SERVER_KEY);

      gtk_widget_set_visible (server_row, !all_servers);
      if (check != NULL && server != NULL)
        gtk_check_button_set_active (GTK_CHECK_BUTTON (check), root_allows (root, server));
    }
}

static void
sync_all_rows (StewardRootsPage *self)
{
  GtkListBoxRow *row;
  int i;

  for (i = 0; (row = gtk_list_box_get_row_at_index (self->list_box, i)) != NULL; i++)
    sync_row (self, ADW_EXPANDER_ROW (row));
}

static void
all_servers_cb (StewardRootsPage *self,
                GParamSpec       *pspec,
                GtkSwitch        *all_switch)
{
  StewardRoot *root = g_object_get_data (G_OBJECT (all_switch), ROOT_KEY);
  gboolean active = gtk_switch_get_active (all_switch);
  GtkWidget *row;

  if (active != steward_root_get_all_servers (root))
    steward_roots_set_all_servers (self->roots, root, active);

  row = gtk_widget_get_ancestor (GTK_WIDGET (all_switch), ADW_TYPE_EXPANDER_ROW);
  if (row != NULL && g_object_get_data (G_OBJECT (row), ROOT_KEY) == root)
    sync_row (self, ADW_EXPANDER_ROW (row));
}

static void
server_toggled_cb (StewardRootsPage *self,
                   GtkCheckButton   *check)
{
  StewardRoot *root = g_object_get_data (G_OBJECT (check), ROOT_KEY);
  const char *server = g_object_get_data (G_OBJECT (check), SERVER_KEY);
  gboolean active = gtk_check_button_get_active (check);

  if (active != root_allows (root, server))
    steward_roots_set_server_allowed (self->roots, root, server, active);
}

static void
remove_clicked_cb (StewardRootsPage *self,
                   GtkButton        *button)
{
  g_autoptr(StewardRoot) root = g_object_ref (g_object_get_data (G_OBJECT (button), ROOT_KEY));
  g_autofree char *title = NULL;

  /* Translators: %s is a folder's name. */
  title = g_strdup_printf (_("Stopped sharing “%s”"), steward_root_get_name (root));
  steward_roots_remove (self->roots, root);
  show_toast (self, title);
}

/* One row per server in the registry, shown while the folder is not
 * offered to every server. */
static void
rebuild_server_rows (StewardRootsPage *self,
                     AdwExpanderRow   *row)
{
  StewardRoot *root = g_object_get_data (G_OBJECT (row), ROOT_KEY);
  GPtrArray *old_rows = g_object_get_data (G_OBJECT (row), SERVER_ROWS_KEY);
  GPtrArray *server_rows = g_ptr_array_new ();
  guint n_servers = g_list_model_get_n_items (self->registry);
  guint i;

  for (i = 0; old_rows != NULL && i < old_rows->len; i++)
    adw_expander_row_remove (row, g_ptr_array_index (old_rows, i));

  for (i = 0; i < n_servers; i++)
    {
      g_autoptr(StewardServer) server = g_list_model_get_item (self->registry, i);
      const char *name = steward_server_get_name (server);
      g_autofree char *accessible = NULL;
      GtkWidget *server_row = adw_action_row_new ();
      GtkWidget *check = gtk_check_button_new ();

      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (server_row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (server_row), name);
      gtk_widget_set_valign (check, GTK_ALIGN_CENTER);
      /* Translators: %s is a server's name. */
      accessible = g_strdup_printf (_("“%s” sees this folder"), name);
      gtk_accessible_update_property (GTK_ACCESSIBLE (check),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, accessible,
                                      -1);
      gtk_check_button_set_active (GTK_CHECK_BUTTON (check), root_allows (root, name));
      g_object_set_data_full (G_OBJECT (check), ROOT_KEY, g_object_ref (root), g_object_unref);
      g_object_set_data_full (G_OBJECT (check), SERVER_KEY, g_strdup (name), g_free);
      g_signal_connect_object (check, "toggled",
                               G_CALLBACK (server_toggled_cb), self, G_CONNECT_SWAPPED);

      adw_action_row_add_prefix (ADW_ACTION_ROW (server_row), check);
      adw_action_row_set_activatable_widget (ADW_ACTION_ROW (server_row), check);
      g_object_set_data (G_OBJECT (server_row), "steward-check", check);
      g_object_set_data_full (G_OBJECT (server_row), SERVER_KEY, g_strdup (name), g_free);

      adw_expander_row_add_row (row, server_row);
      g_ptr_array_add (server_rows, server_row);
    }

  if (n_servers == 0)
    {
      GtkWidget *none_row = adw_action_row_new ();

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (none_row),
                                     _("No servers are set up yet"));
      gtk_widget_add_css_class (none_row, "dim-label");
      adw_expander_row_add_row (row, none_row);
      g_ptr_array_add (server_rows, none_row);
    }

  g_object_set_data_full (G_OBJECT (row), SERVER_ROWS_KEY, server_rows,
                          (GDestroyNotify) g_ptr_array_unref);
  sync_row (self, row);
}

/* "~/Projects/notes" for a folder in the home folder, as GNOME shows them,
 * and the full path elsewhere. */
static char *
dup_display_path (const char *path)
{
  g_autoptr(GFile) home = g_file_new_for_path (g_get_home_dir ());
  g_autoptr(GFile) folder = g_file_new_for_path (path);
  g_autofree char *relative = g_file_get_relative_path (home, folder);
  g_autofree char *shown = NULL;

  if (relative == NULL)
    return g_filename_display_name (path);

  shown = g_filename_display_name (relative);
  return g_strconcat ("~/", shown, NULL);
}

static GtkWidget *
create_row_cb (gpointer item,
               gpointer user_data)
{
  StewardRootsPage *self = user_data;
  StewardRoot *root = item;
  GtkWidget *row = adw_expander_row_new ();
  GtkWidget *remove_button = gtk_button_new_from_icon_name ("user-trash-symbolic");
  GtkWidget *all_row = adw_action_row_new ();
  GtkWidget *all_switch = gtk_switch_new ();
  g_autofree char *remove_label = NULL;
  g_autofree char *all_label = NULL;
  g_autofree char *path = dup_display_path (steward_root_get_path (root));

  /* Folder names and paths are shown as they are, never as markup. */
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), steward_root_get_name (root));
  steward_accessible_name_expander_row (ADW_EXPANDER_ROW (row));
  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (row), path);
  g_object_set_data_full (G_OBJECT (row), ROOT_KEY, g_object_ref (root), g_object_unref);

  /* Translators: %s is a folder's name. */
  remove_label = g_strdup_printf (_("Stop sharing “%s”"), steward_root_get_name (root));
  gtk_widget_set_valign (remove_button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (remove_button, _("Stop Sharing"));
  gtk_widget_add_css_class (remove_button, "flat");
  gtk_accessible_update_property (GTK_ACCESSIBLE (remove_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, remove_label,
                                  -1);
  g_object_set_data_full (G_OBJECT (remove_button), ROOT_KEY, g_object_ref (root), g_object_unref);
  g_signal_connect_object (remove_button, "clicked",
                           G_CALLBACK (remove_clicked_cb), self, G_CONNECT_SWAPPED);
  adw_expander_row_add_action (ADW_EXPANDER_ROW (row), remove_button);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (all_row), _("All Servers"));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (all_row),
                               _("Every server sees this folder, also servers added later"));
  /* Translators: %s is a folder's name. */
  all_label = g_strdup_printf (_("Every server sees “%s”"), steward_root_get_name (root));
  gtk_accessible_update_property (GTK_ACCESSIBLE (all_switch),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, all_label,
                                  -1);
  gtk_widget_set_valign (all_switch, GTK_ALIGN_CENTER);
  gtk_switch_set_active (GTK_SWITCH (all_switch), steward_root_get_all_servers (root));
  g_object_set_data_full (G_OBJECT (all_switch), ROOT_KEY, g_object_ref (root), g_object_unref);
  g_signal_connect_object (all_switch, "notify::active",
                           G_CALLBACK (all_servers_cb), self, G_CONNECT_SWAPPED);
  adw_action_row_add_suffix (ADW_ACTION_ROW (all_row), all_switch);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (all_row), all_switch);
  adw_expander_row_add_row (ADW_EXPANDER_ROW (row), all_row);
  g_object_set_data (G_OBJECT (row), ALL_SWITCH_KEY, all_switch);

  rebuild_server_rows (self, ADW_EXPANDER_ROW (row));

  return row;
}

static void
update_stack (StewardRootsPage *self)
{
  gboolean empty = g_list_model_get_n_items (G_LIST_MODEL (self->roots)) == 0;

  gtk_stack_set_visible_child_name (self->stack, empty ? "empty" : "list");
}

static void
roots_items_changed_cb (StewardRootsPage *self)
{
  update_stack (self);
}

static void
roots_changed_cb (StewardRootsPage *self)
{
  sync_all_rows (self);
}

static void
registry_items_changed_cb (StewardRootsPage *self)
{
  GtkListBoxRow *row;
  int i;

  for (i = 0; (row = gtk_list_box_get_row_at_index (self->list_box, i)) != NULL; i++)
    rebuild_server_rows (self, ADW_EXPANDER_ROW (row));
}

static void
add_now (StewardRootsPage *self,
         GFile            *folder)
{
  g_autoptr(GError) error = NULL;

  if (steward_roots_add (self->roots, folder, &error) == NULL)
    {
      g_autofree char *title = g_strdup_printf (_("Could not share the folder: %s"),
                                                error->message);

      show_error (self, title);
      return;
    }

  steward_error_banner_clear (self->error_banner);
}

static void
confirm_response_cb (AdwMessageDialog *dialog,
                     const char       *response,
                     StewardRootsPage *self)
{
  GFile *folder = g_object_get_data (G_OBJECT (dialog), FOLDER_KEY);

  if (self->confirm_dialog == dialog)
    self->confirm_dialog = NULL;

  if (g_strcmp0 (response, "share") == 0 && folder != NULL)
    add_now (self, folder);
}

static void
ask_to_share (StewardRootsPage *self,
              GFile            *folder,
              const char       *path,
              const char       *reason)
{
  GtkWidget *dialog;

  if (self->confirm_dialog != NULL)
    gtk_window_destroy (GTK_WINDOW (self->confirm_dialog));

  dialog = adw_message_dialog_new (get_parent_window (self), _("Share This Folder?"), NULL);
  /* Translators: the first %s is why the folder is sensitive (a sentence),
   * the second the folder's path. */
  adw_message_dialog_format_body (ADW_MESSAGE_DIALOG (dialog),
                                  _("%s\n\nServers that see “%s” can read everything in it, "
                                    "and some servers can change it."),
                                  reason, path);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "share", _("_Share Anyway"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "share",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  gtk_window_set_modal (GTK_WINDOW (dialog), TRUE);

  g_object_set_data_full (G_OBJECT (dialog), FOLDER_KEY, g_object_ref (folder), g_object_unref);
  g_signal_connect_object (dialog, "response", G_CALLBACK (confirm_response_cb), self, 0);

  self->confirm_dialog = ADW_MESSAGE_DIALOG (dialog);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
add_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  StewardRootsPage *self = STEWARD_ROOTS_PAGE (widget);
  StewardFileQuestion question = {
    .action = GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
    .title = _("Add Folder"),
    .accept_label = _("_Add"),
  };

  /* The native chooser becomes the portal's in Flatpak, which gives the
   * app (and so its servers) access to exactly the folder chosen. */
  steward_file_chooser_choose_for (self, &self->chooser, get_parent_window (self),
                                   &question,
                                   (StewardFileChosenFunc) steward_roots_page_add_folder);
}

static void
steward_roots_page_constructed (GObject *object)
{
  StewardRootsPage *self = STEWARD_ROOTS_PAGE (object);

  G_OBJECT_CLASS (steward_roots_page_parent_class)->constructed (object);

  g_return_if_fail (STEWARD_IS_HOST (self->host));

  self->roots = g_object_ref (steward_host_get_roots (self->host));
  self->registry = g_object_ref (G_LIST_MODEL (steward_host_get_registry (self->host)));

  g_signal_connect_object (self->roots, "items-changed",
                           G_CALLBACK (roots_items_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->roots, "changed",
                           G_CALLBACK (roots_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->registry, "items-changed",
                           G_CALLBACK (registry_items_changed_cb), self, G_CONNECT_SWAPPED);

  gtk_list_box_bind_model (self->list_box, G_LIST_MODEL (self->roots), create_row_cb, self, NULL);
  update_stack (self);
}

static void
steward_roots_page_dispose (GObject *object)
{
  StewardRootsPage *self = STEWARD_ROOTS_PAGE (object);

  g_cancellable_cancel (self->chooser);

  if (self->confirm_dialog != NULL)
    {
      AdwMessageDialog *dialog = g_steal_pointer (&self->confirm_dialog);

      g_signal_handlers_disconnect_by_data (dialog, self);
      gtk_window_destroy (GTK_WINDOW (dialog));
    }

  if (self->roots != NULL)
    g_signal_handlers_disconnect_by_data (self->roots, self);
  if (self->registry != NULL)
    g_signal_handlers_disconnect_by_data (self->registry, self);

  if (self->list_box != NULL)
    gtk_list_box_bind_model (self->list_box, NULL, NULL, NULL, NULL);

  /* AdwBin 1.2 keeps its own pointer to the child, which the template's
   * disposal would leave dangling: let the bin drop it first. */
  adw_bin_set_child (ADW_BIN (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), STEWARD_TYPE_ROOTS_PAGE);

  g_clear_object (&self->registry);
  g_clear_object (&self->roots);
  g_clear_object (&self->host);

  G_OBJECT_CLASS (steward_roots_page_parent_class)->dispose (object);
}

static void
steward_roots_page_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  StewardRootsPage *self = STEWARD_ROOTS_PAGE (object);

  switch (prop_id)
    {
    case PROP_HOST:
      g_value_set_object (value, self->host);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_roots_page_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  StewardRootsPage *self = STEWARD_ROOTS_PAGE (object);

  switch (prop_id)
    {
    case PROP_HOST:
      self->host = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
steward_roots_page_class_init (StewardRootsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = steward_roots_page_constructed;
  object_class->dispose = steward_roots_page_dispose;
  object_class->get_property = steward_roots_page_get_property;
  object_class->set_property = steward_roots_page_set_property;

  properties[PROP_HOST] =
    g_param_spec_object ("host", NULL, NULL,
                         STEWARD_TYPE_HOST,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (STEWARD_TYPE_ERROR_BANNER);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/stewardmcp/Steward/"
                                                             "steward-roots-page.ui");
  gtk_widget_class_bind_template_child (widget_class, StewardRootsPage, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, StewardRootsPage, error_banner);
  gtk_widget_class_bind_template_child (widget_class, StewardRootsPage, stack);
  gtk_widget_class_bind_template_child (widget_class, StewardRootsPage, list_box);

  gtk_widget_class_install_action (widget_class, "roots.add", NULL, add_action);
}

static void
steward_roots_page_init (StewardRootsPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
steward_roots_page_new (StewardHost *host)
{
  g_return_val_if_fail (STEWARD_IS_HOST (host), NULL);

  return g_object_new (STEWARD_TYPE_ROOTS_PAGE, "host", host, NULL);
}

void
steward_roots_page_add_folder (StewardRootsPage *self,
                               GFile            *folder)
{
  g_autofree char *path = NULL;
  g_autofree char *canonical = NULL;
  g_autofree char *reason = NULL;
  g_autoptr(GError) error = NULL;

  g_return_if_fail (STEWARD_IS_ROOTS_PAGE (self));
  g_return_if_fail (G_IS_FILE (folder));

  path = g_file_get_path (folder);
  if (path == NULL)
    {
      show_error (self, _("Only folders on this computer can be shared"));
      return;
    }

  canonical = steward_roots_canonicalize (path, NULL, &error);
  if (canonical == NULL)
    {
      g_autofree char *title = g_strdup_printf (_("Could not share the folder: %s"),
                                                error->message);

      show_error (self, title);
      return;
    }

  if (steward_roots_is_dangerous (canonical, &reason))
    ask_to_share (self, folder, canonical,
                  reason != NULL ? reason : _("This folder may hold private files."));
  else
    add_now (self, folder);
}
